"""Errors a user can cause.  The CLI prints them as one line and exits 2."""


class LiurenError(Exception):
    """Base class: a problem with what the user passed (input, KB, options)."""


class InputError(LiurenError, ValueError):
    """A value on the command line or in an API call is not acceptable."""


class KBError(LiurenError):
    """A knowledge-base file is malformed; the message names file and line."""

    def __init__(self, path, line, message):
        self.path, self.line, self.message = str(path), line, message
        where = f"{self.path}:{line}" if line else self.path
        super().__init__(f"{where}: {message}")


class RunawayError(LiurenError):
    """The rules kept firing past the bound: a cycle in the knowledge base."""


class JudgmentTimeout(LiurenError):
    """A judgment ran past the time it was given (judge(..., timeout=s)); the server's bound."""
