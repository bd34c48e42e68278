"""The line-tracking YAML reader of the KB: every mapping and list read with the line it starts
on (LMap, LList; a mapping's keys with theirs), YAML 1.2 booleans only (a board's `on:` stays a
key), a duplicate key refused, and a parse error said in one line with its file and line (an
unclosed quote pointed at where it opens)."""
from __future__ import annotations

import pathlib
import re

import yaml

from liuren.casting.tables import read_regular
from liuren.errors import KBError


# --------------------------------------------------------------------------- YAML with lines
class LMap(dict):
    """A dict that remembers the line it started on and the line of each key."""
    line = 0
    key_lines = {}          # (read only) a mapping read from a file records its own

    def __init__(self, *a, **k):
        super().__init__(*a, **k)
        self.key_lines = {}

    def kline(self, key):
        return self.key_lines.get(key, self.line)

    def __reduce__(self):
        # a cached KB (knowledge/cache.py) was checked already: the key lines are left out
        return _lmap, (dict(self), self.line)


class LList(list):
    line = 0

    def __reduce__(self):
        return _llist, (list(self), self.line)


def _lmap(items, line):
    m = dict.__new__(LMap)
    dict.update(m, items)
    m.line = line
    return m


def _llist(items, line):
    m = LList(items)
    m.line = line
    return m


class _Loader(getattr(yaml, "CSafeLoader", yaml.SafeLoader)):
    pass


# YAML 1.1 reads on/off/yes/no as booleans, so a board written {day: 丁卯, on: 亥加丑} would lose
# its `on` key.  KB files use YAML 1.2 booleans: only true / false.
_Loader.yaml_implicit_resolvers = {
    k: [(tag, rx) for tag, rx in v if tag != "tag:yaml.org,2002:bool"]
    for k, v in yaml.SafeLoader.yaml_implicit_resolvers.items()}
_Loader.add_implicit_resolver("tag:yaml.org,2002:bool", re.compile(r"^(?:true|True|TRUE|false|False|FALSE)$"),
                              list("tTfF"))


def _map(loader, node):
    loader.flatten_mapping(node)
    m = LMap()
    m.line = node.start_mark.line + 1
    for k_node, v_node in node.value:
        k = loader.construct_object(k_node, deep=True)
        if isinstance(k, (list, dict)):
            raise KBError(loader.name, k_node.start_mark.line + 1, "a key must be a plain value")
        if k in m:
            raise KBError(loader.name, k_node.start_mark.line + 1, f"duplicate key {k!r}")
        m[k] = loader.construct_object(v_node, deep=True)
        m.key_lines[k] = k_node.start_mark.line + 1
    return m


def _seq(loader, node):
    s = LList(loader.construct_object(c, deep=True) for c in node.value)
    s.line = node.start_mark.line + 1
    return s


_Loader.add_constructor("tag:yaml.org,2002:map", _map)
_Loader.add_constructor("tag:yaml.org,2002:seq", _seq)


def read_yaml(path):
    path = pathlib.Path(path)
    try:
        raw = read_regular(path)        # a regular file of bounded size: never a FIFO, a device
    except OSError as e:
        raise KBError(path, 0, f"cannot read: {e.strerror or e}") from None
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as e:
        line = raw[:e.start].count(b"\n") + 1
        raise KBError(path, line, f"not UTF-8: byte {raw[e.start]:#04x} cannot be decoded "
                                  "(save the file as UTF-8)") from None
    if "\x00" in text:
        raise KBError(path, text[:text.index("\x00")].count("\n") + 1, "a NUL byte (\\x00) in the file")
    loader = _Loader(text)
    loader.name = str(path)
    try:
        return loader.get_single_data()
    except yaml.MarkedYAMLError as e:
        mark = _yaml_mark(e)
        line = mark.line + 1 if mark else 0
        msg = " ".join(str(x) for x in (e.context, e.problem) if x)
        opened = _unclosed_quote(text, e, line)
        if opened:
            line, msg = opened, f"an unclosed quote: the value opened on this line runs on (to line {line_of(e)}: {msg})"
        raise KBError(path, line, f"YAML syntax: {msg}") from None
    except yaml.YAMLError as e:
        # a reader error (a control character …) has a position in the text, not a mark
        pos = getattr(e, "position", None)
        line = text[:pos].count("\n") + 1 if isinstance(pos, int) else 0
        msg = getattr(e, "reason", None) or str(e).splitlines()[0]
        raise KBError(path, line, f"YAML syntax: {msg}") from None
    finally:
        loader.dispose()


def _yaml_mark(e):
    """Where a YAML error is: where the problem is found, except for a quoted scalar, a flow
    collection or a block left unclosed — found only at the end of the file, it is reported at
    its opening line (the context mark)."""
    problem = e.problem_mark
    ctx = getattr(e, "context_mark", None)
    if ctx is not None and (problem is None or "end of stream" in str(e.problem or "")
                            or str(e.context or "").startswith(("while scanning a quoted", "while parsing a flow",
                                                                "while scanning a block scalar"))):
        return ctx
    return problem or ctx


def line_of(e):
    m = e.problem_mark or e.context_mark
    return m.line + 1 if m else 0


_OPEN_QUOTE = re.compile(r"""(?:^\s*(?:-\s+)?|:\s+|[\[{,]\s*)(['"])""")


def _unclosed_quote(text, e, line):
    """The line of a quoted value left open before a YAML error, if there is one: a quote runs
    on past its line (YAML lets it), so the parser stumbles later, at the end of the file or at
    the next line that no longer fits; the slip is where the quote opened."""
    end = line_of(e)
    lines = text.split("\n")
    start = max(0, min(line, end) - 400)
    for i in range(end - 1, start - 1, -1):
        if i >= len(lines):
            continue
        s = lines[i].split(" #")[0] if "'" not in lines[i] and '"' not in lines[i] else lines[i]
        for m in _OPEN_QUOTE.finditer(s):
            q, rest = m.group(1), s[m.end():]
            if q == "'":
                closed = rest.replace("''", "").count("'") >= 1
            else:
                closed = re.search(r'(?<!\\)"', rest) is not None
            if not closed and i + 1 != end and _closing_helps(lines, i, q, end):
                return i + 1
            break
    return None


def _closing_helps(lines, i, q, end):
    """Does closing the quote at the end of line i let the parser past line `end`?"""
    fixed = lines[:i] + [lines[i].rstrip() + q] + lines[i + 1:]
    try:
        yaml.load("\n".join(fixed), Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))
    except yaml.MarkedYAMLError as e2:
        return line_of(e2) > end
    except yaml.YAMLError:
        return False
    return True
