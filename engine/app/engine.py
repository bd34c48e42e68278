"""What the front-ends (cli/, web/) use of the casting, the knowledge base and the rules: the one door they go through
(an import-linter contract forbids them liuren.casting, liuren.knowledge and liuren.rules directly).

Each name is loaded when first asked for (PEP 562), so `liuren cast` still loads no rule engine:

    from liuren.app.engine import cast, judge, load_kb, cite
"""
from __future__ import annotations

import importlib

# name -> (module, its name there)
_NAMES = {
    # the casting
    "cast": ("liuren.casting.cast", "cast"),
    "lesson_table": ("liuren.casting.cast", "lesson_table"),
    "OPTIONS": ("liuren.casting.cast", "OPTIONS"),
    "reading_with": ("liuren.casting.tables", "reading_with"),
    "now": ("liuren.casting.calendar", "now"),
    "BRANCHES": ("liuren.casting.symbols", "BRANCHES"),
    "JIAZI": ("liuren.casting.symbols", "JIAZI"),
    # the knowledge base
    "load_kb": ("liuren.knowledge.kbload", "load_kb"),
    "MANIFEST": ("liuren.knowledge.kbload", "MANIFEST"),
    "RULE_KINDS": ("liuren.knowledge.kbload", "RULE_KINDS"),
    "kb_rel": ("liuren.knowledge.kbload", "kb_rel"),
    "duplicate_tables": ("liuren.knowledge.kblint", "duplicate_tables"),
    "check_examples": ("liuren.rules.kbexamples", "check_examples"),
    "kb_files": ("liuren.knowledge.kbload", "kb_files"),
    "static_findings": ("liuren.knowledge.kbstatic", "static_findings"),
    "BUILTIN_FACTS": ("liuren.knowledge.facts", "BUILTIN_FACTS"),
    # the engine
    "judge": ("liuren.rules.judging", "judge"),
    "cite": ("liuren.knowledge.kbload", "cite"),
    "build": ("liuren.rules.compile", "build"),
    "negation_cycles": ("liuren.rules.compile", "negation_cycles"),
}


def __getattr__(name):
    if name == "cache":                     # the disk cache of KBs and networks (show, clear)
        return importlib.import_module("liuren.knowledge.cache")
    if name not in _NAMES:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    module, attr = _NAMES[name]
    return getattr(importlib.import_module(module), attr)


def __dir__():
    return sorted(set(_NAMES) | {"cache", "entry_sources", "kb_file"})


def entry_sources(kb, entry):
    """An entry's sources with book and volume (what a page cites of it)."""
    from liuren.rules.judging import _sources
    return _sources(kb, entry)


def kb_file(path, root):
    """A KB file's path from the KB folder's parent (kb/…), as the checker names it."""
    from liuren.knowledge.kbload import _rel
    return _rel(path, root)
