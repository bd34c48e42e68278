"""Loading and validating the knowledge base (kb/, YAML only).  One thing, hence one module over 800
lines: reading every kind of KB entry with its file and line, and checking its structure.

Every KB file is a YAML mapping with any of the keys ``tables``, ``rules``, ``macros``,
``verses``, ``books``, ``options``, ``questions``.  Every source is a paragraph of a seed text
(``seed``, ``para``, a verbatim ``quote``): a project document is never a source.  The format is documented in
kb/README.md; this module checks it and turns it into plain objects.  Any error names the
file and the line (KBError); ``liuren kb check`` reports them all.
"""
from __future__ import annotations

import collections
import difflib
import functools
import os
import pathlib
import re
from dataclasses import dataclass, field

import yaml

from liuren.casting.tables import core_dir, expand_cells, read_regular
from liuren.errors import KBError
from liuren.knowledge.conditions import CALC_OPS, TEST_OPS, VAR_RE, then_facts, walk_patterns  # noqa: F401 (re-exported)
from liuren.knowledge.facts import BUILTIN_FACTS, JUDGMENT_KINDS, RESERVED_FIELDS, RULE_KINDS  # noqa: F401

VALENCES = ("吉", "凶", "平", "吉凶兩見", "視所乘")
# kinds of rule, in the order judgments are listed: the 課體 of the lesson, 格, 畢法 (《畢法賦》's
# hundred 法), 神煞, 斷, 總則, 類相, 占驗; 起例 (placements) are not judgments
SOURCE_KEYS_SEED = {"seed", "para", "quote", "note"}
VERSE_KEYS = {"id", "name", "seed", "para", "quote", "note", "aliases", "source"}
ROW_META = {"id", "name", "aliases", "labels", "source", "reading", "valence", "interpretation",
            "variants", "examples", "unreachable", "always", "note", "symmetric", "each", "defeats",
            "defeated_by", "about", "conflicts", "governs", "restates"}
RULE_KEYS = {"id", "name", "aliases", "labels", "kind", "when", "then", "as", "about", "reading",
             "valence", "source", "variants", "interpretation", "defeats", "defeated_by",
             "examples", "unreachable", "always", "note", "question", "effect", "governs", "conflicts",
             "salience"}
TABLE_KEYS = {"id", "name", "aliases", "labels", "kind", "columns", "rows", "reading", "source",
              "interpretation", "note", "valence", "reported", "text", "extends", "domains", "keys", "restates"}
ID_RE = re.compile(r"^[a-z0-9][a-z0-9.-]*$")
# kinds of table: 基礎 (what the caster and the relations rest on), 類相 (images), 數表 (numbers),
# and a table of one kind of rule (格表, 神煞表 …: its rows are that kind's, reported or read)
TABLE_KINDS = ("基礎", "類相", "數表") + tuple(k + "表" for k in RULE_KINDS)


def _near_word(x, words):
    near = difflib.get_close_matches(str(x), list(words), n=2, cutoff=0.3)
    return f" (did you mean {'、'.join(near)}?)" if near else ""


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


# --------------------------------------------------------------------------- model
@dataclass
class Entry:
    """Anything a user can name: a rule or a named table row."""
    id: str
    name: str
    kind: str
    meta: dict
    file: str
    line: int

    @property
    def source(self):
        return self.meta.get("source") or []

    @property
    def reading(self):
        return self.meta.get("reading", "")

    @property
    def valence(self):
        return self.meta.get("valence", "")

    @property
    def aliases(self):
        return list(self.meta.get("aliases") or [])

    @property
    def interpretation(self):
        return self.meta.get("interpretation")

    @property
    def variants(self):
        return list(self.meta.get("variants") or [])


@dataclass
class Row(Entry):
    table: str = ""
    data: list = field(default_factory=list)          # expanded cell dicts, default reading
    variant_data: dict = field(default_factory=dict)  # variant id -> expanded cell dicts


@dataclass
class Rule(Entry):
    when: object = None
    then: object = None
    as_var: str | None = None
    about: list = field(default_factory=list)


@dataclass
class Table:
    id: str
    name: str
    kind: str
    columns: list
    rows: list            # list[Row] (named or anonymous)
    meta: dict
    file: str
    line: int

    @property
    def fact_type(self):
        """A table that `extends` another adds rows to that table's fact type."""
        return self.meta.get("extends") or self.id

    def facts(self, variants=None):
        """The table's rows as fact dicts, with the chosen variant of each row."""
        variants = variants or {}
        out = []
        for row in self.rows:
            data = row.data
            choice = variants.get(row.id) if row.id else None
            if choice is None and row.id and "*" in variants and variants["*"] in row.variant_data:
                choice = variants["*"]
            if choice:
                data = row.variant_data.get(choice, data)
            for cells in data:
                f = dict(cells)
                if row.id:
                    f["id"] = row.id
                out.append(f)
        return out


class KB:
    def __init__(self, root):
        self.root = pathlib.Path(root)
        self.tables: dict[str, Table] = {}
        self.rules: dict[str, Rule] = {}
        self.rows: dict[str, Row] = {}
        self.macros: dict[str, dict] = {}
        self.verses: dict[str, dict] = {}
        self.books: dict[str, dict] = {}
        self.options: dict[str, dict] = {}
        self.questions: dict[str, dict] = {}
        self.question_aliases: dict[str, str] = {}     # another name a question is asked by -> its name
        self.alias_lines: dict[str, tuple] = {}        # alias -> (file, line), for errors
        self.files: list[str] = []
        self.file_counts: dict[str, dict] = {}   # file (relative to the KB folder) -> {rules: N, tables: N, …}
        # file -> {rule or table id: (its size, line)}: a rule's conditions and conclusions, a
        # table's rows and cells; the manifest pins them as it pins the counts
        self.sizes: dict[str, dict] = {}
        self.manifest: dict[str, dict] | None = None
        self.derived: dict[str, set] = {}   # derived fact type -> fields produced
        self.declared: dict[str, dict] = {} # `facts:` declarations of derived types
        self.fact_text: dict[str, str] = {} # derived type -> words template

    # ---- lookups
    @property
    def entries(self):
        """Rules and named rows by id (a rule where both have the id), as one read-only view:
        no copy, so a lookup costs two dict lookups however often it is made."""
        return collections.ChainMap(self.rules, self.rows)

    def find(self, key):
        """Entries whose id, name or alias is `key` (a list: names can be shared)."""
        ents = self.entries
        if key in ents:
            return [ents[key]]
        return [e for e in ents.values() if e.name == key or key in e.aliases
                or key in (e.meta.get("labels") or {}).values()]

    def suggest(self, key, n=5):
        names = set(self.entries) | {e.name for e in self.entries.values()} | \
            {v for e in self.entries.values() for v in (e.meta.get("labels") or {}).values()}
        return difflib.get_close_matches(key, sorted(names), n=n, cutoff=0.3)

    def book_of(self, src):
        """(book, volume) of a source or verse citing a seed paragraph, from kb/core/books.yaml."""
        b = self.books.get(src.get("seed"), {})
        return b.get("book", src.get("seed", "")), b.get("volume", "")

    def fact_fields(self, ftype):
        if ftype in BUILTIN_FACTS:
            return set(BUILTIN_FACTS[ftype]["fields"])
        if ftype in self.tables and self.tables[ftype].meta.get("extends"):
            return None                 # not a fact type of its own
        if ftype in self.tables:
            return set(self.tables[ftype].columns) | {"id"}
        if ftype in self.derived:
            return set(self.derived[ftype])
        return None


# --------------------------------------------------------------------------- loading
def packaged_kb_dir():
    """The kb/ folder installed with the package (or the checkout's kb/ in development).
    The environment variable LIUREN_KB names another folder to use by default."""
    env = os.environ.get("LIUREN_KB")
    if env:
        return pathlib.Path(env)
    return core_dir().parent


def cite(s):
    """A source as readers cite it: 《book》卷 ¶n (a seed paragraph, with its book and volume)."""
    if s.get("seed"):
        return f"《{s.get('book', '')}》{s.get('volume', '')} ¶{s['para']}"
    return f"《{s.get('book', '')}》"


def kb_files(root, only=None, loops=None):
    """The *.yaml files of a KB folder.  A symlink loop raises KBError, or with `loops` (a list)
    is appended to it as a KBError and left out."""
    root = pathlib.Path(root)
    if not root.is_dir():
        raise KBError(root, 0, "no such knowledge-base folder")
    files = []
    seen = {}
    for d, dirs, names in os.walk(root, followlinks=True):      # a working copy may link folders
        try:
            _prune_loops(root, d, dirs, seen)
        except KBError as e:
            if loops is None:
                raise
            loops.append(e)
        files += [pathlib.Path(d) / n for n in names if n.endswith(".yaml")]
    files.sort()
    if not files:
        raise KBError(root, 0, "no knowledge-base files (*.yaml) in this folder")
    if only:
        files = [p for p in files if p.relative_to(root).parts[0] in only]
    return files


def _prune_loops(root, d, dirs, seen):
    """A folder linked back into the KB (a symlink loop, or the same folder linked twice) is read
    once: walking it again would read every file again, as a thousand duplicate ids."""
    real = os.path.realpath(d)
    seen.setdefault(real, d)
    for sub in list(dirs):
        p = os.path.join(d, sub)
        target = os.path.realpath(p)
        first = seen.get(target)
        if first is None and (real == target or real.startswith(target + os.sep)):
            first = d if real == target else os.path.join(root, os.path.relpath(target, os.path.realpath(root)))
        if first is not None:
            dirs.remove(sub)
            raise KBError(p, 0, f"a symlink loop: this folder links to {target}, which the KB folder "
                                f"already reads (as {first}); remove the link")
        seen[target] = p


# the core files the caster and the relation macros need (kb/README.md, "core/")
CORE_FILES = ("books.yaml", "casting.yaml", "ganzhi.yaml", "macros.yaml", "shensha.yaml")


def load_kb(root=None, only=None, collect=False):
    """Load and validate a KB folder (default: the installed one, or $LIUREN_KB as it is now).
    `only`: a tuple of top-level sub-folders to read.

    With collect=True returns (kb, errors) instead of raising on the first error.  A whole,
    valid KB is kept in the user's cache (knowledge/cache.py), keyed by its files' content.  In the
    process it is kept per (folder, only, collect): a folder's files are read once, and an edit
    made while the process runs is seen after load_kb.cache_clear().
    """
    return _load_kb_memo(str(pathlib.Path(root) if root else packaged_kb_dir()), only, collect)


@functools.lru_cache(maxsize=8)
def _load_kb_memo(root, only, collect):
    from liuren.knowledge import cache
    root = pathlib.Path(root)
    key = None
    if not collect:
        files = kb_files(root, only)
        try:
            key = cache.kb_digest(root, files)
        except OSError:
            key = None                  # a file that cannot be read: the loader says which, in one line
        where = str(root.resolve()) + "|" + ",".join(only or ())
        kb = cache.read("kb", key + where) if key else None
        if isinstance(kb, KB):
            kb.digest = key
            return kb
    with cache.lasting():
        kb = _load_kb(root, only, collect)
    if key is not None:
        kb.digest = key
        cache.write("kb", key + where, kb)
    return kb


def _load_kb(root, only, collect):
    kb = KB(root)
    errors = []

    def err(path, line, msg):
        e = KBError(_rel(path, root), line, msg)
        if not collect:
            raise e
        errors.append(e)

    loops = []
    files = kb_files(root, only, loops=loops if collect else None)
    for e in loops:
        err(e.path, 0, e.message)
    unreadable = _missing_core(root, only, files, err)
    for path in files:
        try:
            doc = read_yaml(path)
        except KBError as e:
            e = KBError(_rel(path, root), e.line, e.message)
            if not collect:
                raise e from None
            errors.append(e)
            unreadable = True
            continue
        if _rel_file(path, root) != MANIFEST:
            kb.files.append(str(path))
        try:
            _load_doc(kb, path, doc, err)
        except KBError:
            raise
        except Exception as e:  # noqa: BLE001 — a shape the checks did not foresee: still one line
            err(path, 0, f"cannot read this file's entries ({type(e).__name__}: {e})")
    if unreadable:
        # what the others say would follow from the file(s) that could not be read: a fact type
        # they declare unknown, a macro missing …  Those are named alone; fix them first.
        return (kb, errors) if collect else kb
    try:
        _post(kb, err, strict=collect)
    except KBError:
        raise
    except Exception as e:  # noqa: BLE001
        err(root, 0, f"cannot check the rules ({type(e).__name__}: {e})")
    return (kb, errors) if collect else kb


def _missing_core(root, only, files, err):
    """A core file deleted (or renamed) is named, instead of the errors of every rule that used
    its tables and macros.  True when one is missing."""
    if only and "core" not in only:
        return False
    have = {pathlib.Path(p).name for p in files if pathlib.Path(p).parent.name == "core"}
    missing = [f for f in CORE_FILES if f not in have]
    for f in missing:
        err(pathlib.Path(root) / "core" / f, 0, f"missing: a core file the caster and the rules need "
                                                f"({', '.join('core/' + x for x in CORE_FILES)}); restore it")
    return bool(missing)


def _rel_file(path, root):
    try:
        return pathlib.Path(path).relative_to(root).as_posix()
    except ValueError:
        return str(path)


def _rel(path, root):
    try:
        return str(pathlib.Path(path).relative_to(root.parent))
    except ValueError:
        return str(path)


MANIFEST = "manifest.yaml"       # kb/manifest.yaml: what each file holds (liuren kb check compares)


def _load_doc(kb, path, doc, err):
    rel = _rel_file(path, kb.root)
    if rel == MANIFEST:
        if not (isinstance(doc, dict) and set(doc) == {"manifest"} and isinstance(doc["manifest"], dict)):
            return err(path, getattr(doc, "line", 1), "the manifest is {manifest: {file: {rules: N, …}}}")
        kb.manifest = {k: dict(v) for k, v in doc["manifest"].items() if isinstance(v, dict)}
        return
    if doc is None or (isinstance(doc, dict) and not any(doc.get(k) for k in doc)):
        return err(path, 1, "the file holds nothing (no tables, rules, questions …): an emptied file?")
    if not isinstance(doc, dict):
        return err(path, getattr(doc, "line", 1), "a KB file must be a mapping (tables:, rules:, …)")
    known = {"tables", "rules", "macros", "verses", "books", "options", "questions", "facts", "seed"}
    for k in doc:
        if k == "docs":
            err(path, doc.kline(k), "docs: a project document is not a source; cite the book "
                "(a seed paragraph: seed, para, quote)")
        elif k not in known:
            err(path, doc.kline(k), f"unknown top-level key {k!r} (expected one of {', '.join(sorted(known))})")
    counts = kb.file_counts.setdefault(rel, {})
    for k in known:
        if isinstance(doc.get(k), list) and doc[k]:
            counts[k] = len(doc[k])
    rows = sum(1 for t in doc.get("tables") or [] if isinstance(t, dict)
               for r in t.get("rows") or [] if isinstance(r, dict) and "id" in r)
    if rows:
        counts["named rows"] = rows
    sizes = kb.sizes.setdefault(rel, {})
    for key, size in (("rules", rule_size), ("tables", table_size)):
        for item in doc.get(key) or [] if isinstance(doc.get(key), list) else []:
            if isinstance(item, dict) and isinstance(item.get("id"), str):
                sizes[item["id"]] = (size(item), getattr(item, "line", 0))
    for key, fn in (("books", _load_books), ("facts", _load_factdecl), ("macros", _load_macro),
                    ("verses", _load_verse), ("options", _load_option), ("questions", _load_question),
                    ("tables", _load_table), ("rules", _load_rule)):
        items = doc.get(key)
        if items is None:
            continue
        if not isinstance(items, list):
            err(path, doc.kline(key), f"{key}: must be a list")
            continue
        for item in items:
            if not isinstance(item, dict):
                err(path, getattr(items, "line", 0), f"{key}: each item must be a mapping")
                continue
            fn(kb, path, item, err)


def _conditions(x):
    """The condition items of a `when:` (those inside any: all: not: too)."""
    if isinstance(x, list):
        return sum(_conditions(e) for e in x)
    if isinstance(x, dict):
        return sum(1 + (_conditions(v) if k in ("any", "all", "not") else 0) for k, v in x.items())
    return 0


def _conclusions(x):
    return len(x) if isinstance(x, list) else 1 if isinstance(x, dict) else 0


def rule_size(item):
    """A rule's conditions and conclusions, its variants' too: what a lost line lowers."""
    parts = [item] + [v for v in item.get("variants") or [] if isinstance(v, dict)]
    return sum(_conditions(p.get("when")) + _conclusions(p.get("then")) for p in parts)


def table_size(item):
    """A table's rows and cells: each row one, and each cell of it and of the items of its
    `each:` (its variants' too) one."""
    cols = set(item.get("columns") or []) if isinstance(item.get("columns"), list) else set()
    n = 0
    for r in item.get("rows") or []:
        if not isinstance(r, dict):
            continue
        n += 1
        for part in [r] + [v for v in r.get("variants") or [] if isinstance(v, dict)]:
            n += sum(1 for k in part if k in cols)
            for x in part.get("each") or [] if isinstance(part.get("each"), list) else []:
                n += 1 + (sum(1 for k in x if k in cols) if isinstance(x, dict) else 0)
    return n


def _load_books(kb, path, item, err):
    kb.books[item.get("seed")] = dict(item)


def _load_factdecl(kb, path, item, err):
    t = item.get("type")
    if not isinstance(t, str) or not isinstance(item.get("fields"), list) or "text" not in item:
        return err(path, item.line, "a fact declaration needs type, fields (a list) and text")
    if t in BUILTIN_FACTS:
        return err(path, item.kline("type"), f"fact type {t!r} is built in")
    if t in kb.declared:
        return err(path, item.kline("type"), f"fact type {t!r} is declared twice")
    kb.declared[t] = dict(item, file=str(path), line=item.line)
    kb.fact_text[t] = item["text"]
    if "show" in item and not isinstance(item["show"], str):
        err(path, item.kline("show"), f"fact type {t!r}: show must be a heading (the findings section it goes to)")
    if "group_by" in item and item["group_by"] not in (item.get("fields") or []):
        err(path, item.kline("group_by"), f"fact type {t!r}: group_by must be one of its fields (the method that "
                                          f"tells alternatives apart)")


def _load_macro(kb, path, item, err):
    for k in ("name", "params", "expands", "text"):
        if k not in item:
            return err(path, item.line, f"macro needs {k!r}")
    kb.macros[item["name"]] = dict(item, file=str(path), line=item.line)


def _load_verse(kb, path, item, err):
    """A casting verse: the seed paragraph a derivation step cites (seed, para, verbatim quote)."""
    if "id" not in item or "quote" not in item:
        return err(path, item.line, "a verse needs id and quote")
    extra = set(item) - VERSE_KEYS
    if extra:
        err(path, item.line, f"verse {item['id']}: unknown key(s) {sorted(extra)} (a verse is {{id, name, seed, para, quote}}, optionally note, aliases, source)")
    if not isinstance(item.get("seed"), str) or not item["seed"]:
        err(path, item.line, f"verse {item['id']}: needs seed (the seed text it quotes) and para")
    elif kb.books and item["seed"] not in kb.books:
        err(path, item.kline("seed"), f"verse {item['id']}: seed {item['seed']!r} is not in books (kb/core/books.yaml)")
    if not isinstance(item.get("para"), int) or isinstance(item.get("para"), bool):
        err(path, item.kline("para") if "para" in item else item.line, f"verse {item['id']}: para must be an integer ¶ number")
    if not isinstance(item["quote"], str) or not item["quote"].strip():
        err(path, item.kline("quote"), f"verse {item['id']}: quote (the verbatim text) is missing")
    aliases = item.get("aliases", [])
    if not isinstance(aliases, list) or not all(isinstance(a, str) and a for a in aliases):
        err(path, item.kline("aliases"), f"verse {item['id']}: aliases are a list of names (the book's names of the method)")
    _check_source(kb, path, item, err, required=False)
    kb.verses[item["id"]] = dict(item)


def _load_option(kb, path, item, err):
    for k in ("id", "values", "default"):
        if k not in item:
            return err(path, item.line, f"an option needs {k!r}")
    kb.options[item["id"]] = dict(item, file=str(path))


def _load_question(kb, path, item, err):
    for k in ("id", "name", "source"):
        if k not in item:
            return err(path, item.line, f"a question needs {k!r}")
    _check_source(kb, path, item, err)
    aliases = item.get("aliases") or []
    if not isinstance(aliases, list) or not all(isinstance(a, str) and a for a in aliases):
        return err(path, item.kline("aliases"), "a question's aliases are a list of names")
    for a in aliases:
        other = kb.question_aliases.get(a)
        if a == item["name"] or (other is not None and other != item["name"]):
            return err(path, item.kline("aliases"), f"question alias {a!r} is " + (
                "the question's own name" if a == item["name"] else f"already an alias of {other}"))
        kb.question_aliases[a] = item["name"]
        kb.alias_lines[a] = (path, item.kline("aliases"))
    includes = item.get("includes") or []
    if not isinstance(includes, list) or not all(isinstance(a, str) and a for a in includes):
        return err(path, item.kline("includes"), "a question's includes are a list of question names")
    q = kb.questions.get(item["name"])
    if q is not None:
        # one question, asked of several sources: keep one entry with every source and id
        if item["id"] in q["ids"]:
            return err(path, item.kline("id"), f"question id {item['id']!r} is declared twice")
        q["ids"].append(item["id"])
        q["source"] = list(q["source"]) + list(item["source"])
        q["files"].append(str(path))
        q["aliases"] = list(dict.fromkeys(list(q.get("aliases") or []) + aliases))
        q["includes"] = list(dict.fromkeys(list(q.get("includes") or []) + includes))
        return
    kb.questions[item["name"]] = dict(item, file=str(path), files=[str(path)], ids=[item["id"]])


def _check_id(kb, path, item, err, what):
    i = item.get("id")
    if not isinstance(i, str) or not ID_RE.match(i):
        err(path, item.kline("id") if "id" in item else item.line,
            f"{what} id {i!r} must be an ascii slug (a-z, 0-9, '-', '.')")
        return None
    if i in kb.rules or i in kb.rows or i in kb.tables:
        _duplicate_id(kb, path, item, err, i)
        return None
    return i


def _duplicate_id(kb, path, item, err, i):
    """Both places of a duplicate id are named (either may be the edited one): the second
    entry's id line, which names the first's, and the first's, which names the second's."""
    first = kb.rules.get(i) or kb.rows.get(i) or kb.tables.get(i)
    fline = first.meta.kline("id") if hasattr(first.meta, "kline") else first.line
    ffile = pathlib.Path(first.file)
    here = f"{_rel(path, kb.root)}:{item.kline('id')}"
    there = f"{_rel(ffile, kb.root)}:{fline}"
    err(path, item.kline("id"), f"duplicate id {i!r}: already the id of the entry at {there}")
    if (ffile, fline) != (pathlib.Path(path), item.kline("id")):
        err(ffile, fline, f"duplicate id {i!r}: also the id of the entry at {here}")


def _check_name(path, item, err, what):
    """A name is the words a judgment is shown by: an empty one is a slip (a deleted name)."""
    if "name" in item and (item["name"] is None or (isinstance(item["name"], str) and not item["name"].strip())):
        err(path, item.kline("name"), f"{what}: empty name (give the name the source calls it by)")
        return False
    return True


def _check_source(kb, path, item, err, required=True):
    src = item.get("source")
    if src is None:
        if required:
            err(path, item.line, f"{item.get('id', item.get('name', '?'))}: missing source")
        return
    if not isinstance(src, list) or not src:
        return err(path, item.kline("source"), "source must be a non-empty list of {seed, para, quote}")
    for s in src:
        line = getattr(s, "line", item.kline("source"))
        if not isinstance(s, dict):
            err(path, line, "each source must be a mapping {seed, para, quote}")
            continue
        if "seed" in s:
            extra = set(s) - SOURCE_KEYS_SEED
            if extra:
                err(path, line, f"source: unknown key(s) {sorted(extra)}")
            if not isinstance(s.get("para"), int) or isinstance(s.get("para"), bool):
                err(path, line, "source: para must be an integer ¶ number")
        elif "doc" in s:
            err(path, line, f"source: doc {s.get('doc')!r} is a project document, not a source: cite the book "
                "(seed, para, quote), or, where the books do not state it, say so in the entry's note")
            continue
        else:
            err(path, line, "source needs seed (a seed file), para and quote")
            continue
        if not isinstance(s.get("quote"), str) or not s["quote"].strip():
            err(path, line, "source: quote (the verbatim classical text) is missing")


EXAMPLE_KINDS = {"fires", "silent", "unmet"}
EXAMPLE_KEYS = {"board", "why", "source", "chuan", "says", "note"}


def _check_example(kb, path, b, kind, err, what, line):
    """An example board: `board` (cast arguments) and `why`; a worked example of a book also
    cites it (`source`, one {seed, para, quote}) and may give the 三傳 the book prints (`chuan`,
    checked against the cast).  `unmet` lists the book's examples this encoding does not
    reproduce: `says` is what the book says (fires, silent, or chuan: the cast differs)."""
    if not isinstance(b, dict) or "board" not in b or "why" not in b:
        return err(path, line, f"{what}: each example needs board (cast arguments) and why (one line)")
    extra = set(b) - EXAMPLE_KEYS
    if extra:
        err(path, b.kline(sorted(extra)[0]), f"{what}: example has unknown key(s) {sorted(extra)} "
                                             f"(keys: {', '.join(sorted(EXAMPLE_KEYS))})")
    if not isinstance(b["board"], dict):
        err(path, b.kline("board"), f"{what}: an example's board is a mapping of cast arguments")
    if "source" in b:
        holder = LMap(source=[b["source"]] if isinstance(b["source"], dict) else b["source"], id=what)
        holder.line = b.kline("source")
        _check_source(kb, path, holder, err)
    if "chuan" in b:
        c = b["chuan"]
        if not (isinstance(c, str) and len(c) == 3 and all(x in "子丑寅卯辰巳午未申酉戌亥" for x in c)):
            err(path, b.kline("chuan"), f"{what}: chuan is the book's 三傳 as three branches, e.g. 午卯子 (got {c!r})")
    if kind == "unmet":
        if "source" not in b:
            err(path, b.line, f"{what}: an unmet example is a book's worked example: it needs its source")
        if b.get("says") not in ("fires", "silent", "chuan"):
            err(path, b.kline("says") if "says" in b else b.line,
                f"{what}: an unmet example says what the book says: says: fires | silent | chuan")
    elif "says" in b:
        err(path, b.kline("says"), f"{what}: says: belongs to unmet examples only")


def _text_fields(path, item, err, what):
    """name and reading are text: a number, a boolean or a mapping there is a slip."""
    for k in ("name", "reading"):
        if k in item and item[k] is not None and not isinstance(item[k], str):
            err(path, item.kline(k), f"{what}: {k} must be text, got {type(item[k]).__name__} {item[k]!r:.40}")
            item[k] = str(item[k])


def _check_common(kb, path, item, err, what):
    _text_fields(path, item, err, what)
    if "valence" in item and item["valence"] not in VALENCES:
        err(path, item.kline("valence"), f"{what}: valence {item['valence']!r} is not one of {'、'.join(VALENCES)}")
    interp = item.get("interpretation")
    if interp is not None and not (isinstance(interp, dict) and "chosen" in interp and "alternative" in interp):
        err(path, item.kline("interpretation"), f"{what}: interpretation needs chosen and alternative")
    for k in ("aliases",):
        if k in item and not (isinstance(item[k], list) and all(isinstance(a, str) for a in item[k])):
            err(path, item.kline(k), f"{what}: {k} must be a list of names")
    if "labels" in item and not isinstance(item["labels"], dict):
        err(path, item.kline("labels"), f"{what}: labels must be a mapping like {{ja: …}}")
    ex = item.get("examples")
    if ex is not None:
        if not isinstance(ex, dict) or set(ex) - EXAMPLE_KINDS:
            err(path, item.kline("examples"), f"{what}: examples must be {{fires: [...], silent: [...], unmet: [...]}}")
        else:
            for k, boards in ex.items():
                if not isinstance(boards, list):
                    err(path, ex.kline(k), f"{what}: examples.{k} must be a list")
                    continue
                for b in boards:
                    _check_example(kb, path, b, k, err, what, getattr(b, "line", ex.kline(k)))
    for k in ("unreachable", "always"):
        un = item.get(k)
        if un is not None and not (isinstance(un, dict) and "why" in un
                                   and un.get("over", "lessons") in ("lessons", "boards")):
            err(path, item.kline(k), f"{what}: {k} needs why, and optionally over: lessons|boards")
    for v in item.get("variants") or []:
        if not isinstance(v, dict) or "id" not in v or "quote" not in v:
            err(path, getattr(v, "line", item.kline("variants")), f"{what}: a variant needs id and quote (the 底本 text)")


def _row_data(row, columns, path, err, each=None, base=None):
    base = {k: v for k, v in (base if base is not None else row).items() if k in columns}
    each = row.get("each") if each is None else each
    out = []
    if each is not None:
        if not isinstance(each, list):
            err(path, getattr(row, "line", 0), "each: must be a list of cell mappings")
            return []
        for part in each:
            if not isinstance(part, dict):
                err(path, getattr(each, "line", 0), "each: items must be mappings")
                continue
            bad = set(part) - set(columns)
            if bad:
                err(path, getattr(part, "line", 0), f"each: unknown column(s) {sorted(bad)}")
            out += expand_cells({**base, **part}, columns)
    elif base:
        out = expand_cells(base, columns)
    sym = row.get("symmetric")
    if sym:
        a, b = sym
        out += [{**c, a: c[b], b: c[a]} for c in out if c[a] != c[b]]
    for c in out:
        for k, v in c.items():
            if isinstance(v, (dict, list)):
                err(path, getattr(row, "line", 0), f"cell {k} must be a plain value, got {v!r}")
    return out


def _load_table(kb, path, item, err):
    tid = _check_id(kb, path, item, err, "table")
    if tid is None:
        return
    for k in set(item) - TABLE_KEYS:
        err(path, item.kline(k), f"table {tid}: unknown key {k!r}")
    for k in ("name", "kind", "columns"):
        if k not in item:
            return err(path, item.line, f"table {tid}: missing {k!r}")
    if "rows" not in item and not item.get("reported"):
        return err(path, item.line, f"table {tid}: missing 'rows' (only a table others extend may have none)")
    _check_name(path, item, err, f"table {tid}")
    if item["kind"] not in TABLE_KINDS:
        err(path, item.kline("kind"), f"table {tid}: kind {item['kind']!r} is not one of {'、'.join(TABLE_KINDS)}"
                                      f"{_near_word(item['kind'], TABLE_KINDS)}")
    cols = item["columns"]
    if not isinstance(cols, list) or not all(isinstance(c, str) for c in cols):
        return err(path, item.kline("columns"), f"table {tid}: columns must be a list of names")
    clash = set(cols) & (RESERVED_FIELDS | ROW_META)
    if clash:
        return err(path, item.kline("columns"), f"table {tid}: column name(s) {sorted(clash)} are reserved")
    if tid in BUILTIN_FACTS:
        return err(path, item.kline("id"), f"table id {tid!r} is a built-in fact type")
    _check_source(kb, path, item, err, required=False)
    _check_common(kb, path, item, err, f"table {tid}")
    if "reported" in item and item["reported"] not in RULE_KINDS:
        err(path, item.kline("reported"), f"table {tid}: reported must be the kind its rows are reported as "
                                          f"({'、'.join(RULE_KINDS)})")
    rows = []
    for r in item.get("rows") or []:
        if not isinstance(r, dict):
            err(path, getattr(item["rows"], "line", item.line), f"table {tid}: each row must be a mapping")
            continue
        unknown = set(r) - set(cols) - ROW_META
        if unknown:
            err(path, r.line, f"table {tid}: row has unknown column(s) {sorted(unknown)} (columns: {cols})")
        rid = None
        if "id" in r:
            rid = _check_id(kb, path, r, err, "row")
        elif "name" in r or "source" in r or "examples" in r:
            err(path, r.line, f"table {tid}: a named row needs an id")
        if rid:
            _check_source(kb, path, r, err, required=("source" not in item))
            _check_common(kb, path, r, err, f"row {rid}")
        name = r.get("name", "")
        if rid:
            if not _check_name(path, r, err, f"row {rid}"):
                name = ""
            elif "name" not in r and item.get("reported"):
                err(path, r.line, f"row {rid}: a row of a table whose rows are reported as judgments needs a name")
            elif "name" not in r:
                name = item.get("name", "")         # a row named only to carry variants: the table's name
        data = _row_data(r, cols, path, err)
        vdata = {}
        for v in r.get("variants") or []:
            if isinstance(v, dict) and "id" in v:
                vdata[v["id"]] = _row_data(r, cols, path, err, each=v.get("each"), base={**r, **v}) \
                    if ("each" in v or set(v) & set(cols)) else []
        rkind = item["reported"] if isinstance(item.get("reported"), str) else item["kind"]
        row = Row(id=rid or "", name=name, kind=rkind, meta=r, file=str(path), line=r.line,
                  table=tid, data=data, variant_data=vdata)
        rows.append(row)
        if rid:
            kb.rows[rid] = row
    kb.tables[tid] = Table(tid, item["name"], item["kind"], list(cols), rows, item, str(path), item.line)


def _load_rule(kb, path, item, err):
    rid = _check_id(kb, path, item, err, "rule")
    if rid is None:
        return
    for k in set(item) - RULE_KEYS:
        err(path, item.kline(k), f"rule {rid}: unknown key {k!r}")
    for k in ("name", "kind", "when"):
        if k not in item:
            return err(path, item.line, f"rule {rid}: missing {k!r}")
    _check_name(path, item, err, f"rule {rid}")
    if item["kind"] not in RULE_KINDS:
        err(path, item.kline("kind"), f"rule {rid}: kind {item['kind']!r} is not one of {'、'.join(RULE_KINDS)}")
    _check_source(kb, path, item, err)
    _check_common(kb, path, item, err, f"rule {rid}")
    as_var = item.get("as")
    if as_var is not None and not (isinstance(as_var, str) and VAR_RE.match(as_var)):
        err(path, item.kline("as"), f"rule {rid}: as must be a variable like $r")
    kb.rules[rid] = Rule(id=rid, name=item["name"], kind=item["kind"], meta=item, file=str(path),
                         line=item.line, when=item["when"], then=item.get("then"), as_var=as_var,
                         about=list(item.get("about") or []))




def _question_includes(kb, err):
    """A question that `includes:` another is asked as both (占妻病 is also 占病, 「如上更驗」):
    every condition on the question (`問: {問: 占病}`, under not: too) also holds for the one
    that includes it.  Written into the rules' conditions here, so the compiler's network of a
    question holds the rules of what it includes."""
    inc = {}
    for name, q in kb.questions.items():
        for other in q.get("includes") or []:
            if other not in kb.questions:
                err(q["file"], 0, f"question {name}: includes {other!r}, which is not a question")
                continue
            inc.setdefault(other, []).append(name)
    if not inc:
        return
    # two questions that include each other (directly or through others) are one question asked
    # twice: refused, naming the circle
    def includes_of(name):
        return [o for o in kb.questions.get(name, {}).get("includes") or [] if o in kb.questions]
    for start in sorted(kb.questions):
        path_, seen = [start], set()
        stack = [(start, iter(includes_of(start)))]
        while stack:
            node, it = stack[-1]
            nxt = next(it, None)
            if nxt is None:
                stack.pop()
                path_.pop()
                continue
            if nxt == start:
                circle = " → ".join(path_ + [start])
                err(kb.questions[start]["file"], 0, f"question {start}: includes itself through {circle}; "
                                                    "questions that include each other are one question")
                return
            if nxt not in seen:
                seen.add(nxt)
                path_.append(nxt)
                stack.append((nxt, iter(includes_of(nxt))))
    # transitively: a question that includes one that includes X also includes X
    changed = True
    while changed:
        changed = False
        for x, qs in inc.items():
            for q in list(qs):
                for y in inc.get(q, ()):
                    if y not in qs and y != x:
                        qs.append(y)
                        changed = True

    def widen(v):
        vals = v if isinstance(v, list) else [v] if isinstance(v, str) and not v.startswith("$") else None
        if vals is None:
            return v
        out = list(vals)
        for x in vals:
            out += [q for q in inc.get(x, ()) if q not in out]
        return out if len(out) > len(vals) else v

    def walk(c):
        if isinstance(c, list):
            for x in c:
                walk(x)
        elif isinstance(c, dict):
            for k, v in c.items():
                if k == "問" and isinstance(v, dict) and "問" in v:
                    if isinstance(v["問"], dict) and "not" in v["問"]:
                        v["問"]["not"] = widen(v["問"]["not"])
                    else:
                        v["問"] = widen(v["問"])
                else:
                    walk(v)

    for rule in kb.rules.values():
        walk(rule.when)
        for v in rule.variants:
            if isinstance(v, dict) and "when" in v:
                walk(v["when"])

    # a table row for a question (a cell naming it: 問 占病, 類 占病) holds for what includes it
    def rows(data):
        out = []
        for cells in data:
            out.append(cells)
            for k, x in cells.items():
                if isinstance(x, str) and x in inc:
                    out += [dict(cells, **{k: q}) for q in inc[x]]
        return out

    for t in kb.tables.values():
        for r in t.rows:
            r.data = rows(r.data)
            r.variant_data = {k: rows(d) for k, d in r.variant_data.items()}


def _question_methods(kb, err):
    """A question's `methods:` name the ways the text answers it, as data: [{name, 答, rules,
    source}].  Methods with the same 答 (what they answer: 新舊, 有無 …) are alternatives of one
    another; each lists the rules (or table rows) whose judgments it gives."""
    for name, q in kb.questions.items():
        ms = q.get("methods")
        if ms is None:
            continue
        if not isinstance(ms, list):
            err(q["file"], 0, f"question {name}: methods must be a list")
            continue
        for m in ms:
            if not isinstance(m, dict) or not {"name", "答", "rules"} <= set(m):
                err(q["file"], getattr(m, "line", 0), f"question {name}: a method needs name, 答 and rules")
                continue
            for r in m["rules"]:
                if r not in kb.rules and r not in kb.rows:
                    err(q["file"], getattr(m, "line", 0), f"question {name}: method {m['name']}: no rule or row {r!r}")
            if m.get("source"):
                _check_source(kb, q["file"], m, err)


def _post(kb, err, strict=False):
    """Second pass: derived fact types, then every rule's conditions against the vocabulary."""
    _question_includes(kb, err)
    _question_methods(kb, err)
    for rule in kb.rules.values():
        for t, fields in then_facts(rule.then):
            if t in BUILTIN_FACTS or t in kb.tables:
                err(rule.file, rule.line, f"rule {rule.id}: then asserts {t!r}, which is a built-in or table fact type")
                continue
            kb.derived.setdefault(t, set()).update(fields)
            decl = kb.declared.get(t)
            if decl is not None:
                extra = set(fields) - set(decl["fields"])
                if extra:
                    err(rule.file, rule.meta.kline("then"),
                        f"rule {rule.id}: then gives {t!r} field(s) {sorted(extra)} not in its declaration {decl['fields']}")
        if rule.then is not None and not then_facts(rule.then):
            err(rule.file, rule.meta.kline("then"), f"rule {rule.id}: then must be {{fact type: {{field: value}}}} or a list of them")
    for t, decl in kb.declared.items():
        kb.derived.setdefault(t, set()).update(decl["fields"])
    for t in kb.tables.values():
        base = t.meta.get("extends")
        if base is None:
            continue
        if base not in kb.tables or kb.tables[base].meta.get("extends"):
            err(t.file, t.meta.kline("extends"), f"table {t.id}: extends {base!r}, which is not a table (of its own)")
        elif list(t.columns) != list(kb.tables[base].columns):
            err(t.file, t.meta.kline("columns"), f"table {t.id}: columns {t.columns} differ from {base}'s "
                                                 f"{kb.tables[base].columns}")
    known_types = set(BUILTIN_FACTS) | {t.id for t in kb.tables.values() if not t.meta.get("extends")} | set(kb.derived)
    for m in kb.macros.values():
        for item in m["expands"]:
            (t, _), = item.items()
            if t not in known_types:
                err(m["file"], m["line"], f"macro {m['name']}: unknown fact type {t!r}")
    for rule in kb.rules.values():
        _check_rule_conditions(kb, rule, known_types, err)
    for x in list(kb.tables.values()) + list(kb.rows.values()):
        rs = x.meta.get("restates")
        if rs is not None and (not isinstance(rs, list) or not all(isinstance(i, str) for i in rs)):
            err(x.file, x.meta.kline("restates"), f"{x.id}: restates: must be a list of table or row ids")
            continue
        for target in rs or []:
            if target not in kb.tables and target not in kb.rows:
                err(x.file, x.meta.kline("restates"), f"{x.id}: restates names unknown table or row {target!r}")
    for e in list(kb.rules.values()) + list(kb.rows.values()):
        for k in ("defeats", "defeated_by", "governs"):
            for target in e.meta.get(k) or []:
                if target not in kb.rules and target not in kb.rows:
                    err(e.file, e.meta.kline(k), f"{e.id}: {k} names unknown id {target!r}")
    for rule in kb.rules.values():
        if rule.meta.get("question") and rule.meta["question"] not in kb.questions:
            err(rule.file, rule.meta.kline("question"), f"rule {rule.id}: unknown question {rule.meta['question']!r}")
    for alias in kb.question_aliases:
        if alias in kb.questions:
            err(*kb.alias_lines[alias], f"question alias {alias!r} is itself the name of a question")
    for e in (entries_needing_examples(kb) if strict else ()):     # `kb check` (collect): every entry has boards
        ex = e.meta.get("examples") or {}
        if not (ex.get("fires") or e.meta.get("unreachable")):
            err(e.file, e.line, f"{e.id}: no example board where it fires (examples: fires:, or unreachable: with why)")
        if not (ex.get("silent") or e.meta.get("always")):
            err(e.file, e.line, f"{e.id}: no example board where it stays silent (examples: silent:, or always: with why)")
    from liuren.knowledge.kblint import lint, lint_more
    lint(kb, err, JUDGMENT_KINDS)
    if strict:
        lint_more(kb, err)


def kb_rel(path):
    """A KB file path as kb/…, for messages."""
    p = str(path)
    i = p.rfind("/kb/")
    return p[i + 1:] if i >= 0 else p


def entries_needing_examples(kb):
    """Every rule, and every named row of a table whose rows are reported as judgments (a rule
    marked `effect` only changes others and has no board of its own)."""
    out = list(kb.rules.values())
    for t in kb.tables.values():
        if t.meta.get("reported"):
            out += [r for r in t.rows if r.id]
    return [e for e in out if not e.meta.get("effect")]


def _check_rule_conditions(kb, rule, known_types, err):
    def check(cond, line_hint):
        bound = set()
        try:
            atoms = list(walk_patterns(cond, kb.macros))
        except ValueError as e:
            err(rule.file, line_hint, f"rule {rule.id}: {e}")
            return bound
        for kind, payload, line in atoms:
            line = line or line_hint
            if kind == "macro":
                for a in payload[1]:
                    if isinstance(a, str) and VAR_RE.match(a):
                        bound.add(a)
                continue
            if kind == "test":
                continue
            t, fields = payload
            if t not in known_types:
                near = difflib.get_close_matches(t, sorted(known_types), n=3)
                hint = f" (did you mean {'、'.join(near)}?)" if near else ""
                err(rule.file, line, f"rule {rule.id}: unknown fact type {t!r}{hint}")
                continue
            allowed = kb.fact_fields(t)
            for f, v in fields.items():
                if f not in allowed:
                    err(rule.file, getattr(fields, "kline", lambda k: line)(f),
                        f"rule {rule.id}: fact type {t!r} has no field {f!r} (fields: {'、'.join(sorted(allowed))})")
                for x in (v if isinstance(v, list) else [v]):
                    if isinstance(x, dict):
                        if set(x) != {"not"}:
                            err(rule.file, line, f"rule {rule.id}: field {f}: only {{not: value}} is allowed as a mapping")
                    elif isinstance(x, str) and x.startswith("$"):
                        if not VAR_RE.match(x):
                            err(rule.file, line, f"rule {rule.id}: bad variable {x!r}")
                        elif isinstance(v, list):
                            err(rule.file, line, f"rule {rule.id}: field {f}: a variable cannot be one of a list")
                        bound.add(x)
        return bound

    bound = check(rule.when, rule.meta.kline("when"))
    for v in rule.variants:
        if isinstance(v, dict) and "when" in v:
            check(v["when"], getattr(v, "line", rule.line))
    for t, fields in then_facts(rule.then):
        for f, val in fields.items():
            for x in _vars_in(val):
                if x not in bound:
                    err(rule.file, rule.meta.kline("then"), f"rule {rule.id}: then uses {x}, which no condition binds")
            if isinstance(val, dict):
                bad = _bad_calc(val)
                if bad:
                    err(rule.file, rule.meta.kline("then"), f"rule {rule.id}: then {t}.{f}: {bad}")
    if rule.as_var and rule.as_var not in bound:
        err(rule.file, rule.meta.kline("as"), f"rule {rule.id}: as {rule.as_var} is not bound by a condition")
    for a in rule.about:
        if isinstance(a, dict):
            if set(a) - {"支", "位"} or "支" not in a:
                err(rule.file, rule.meta.kline("about"), f"rule {rule.id}: an about item is a branch, or "
                                                         "{支: $b, 位: $p} (the branch as it stands at position $p)")
                continue
            parts = list(a.values())
        else:
            parts = [a]
        for x in parts:
            if isinstance(x, str) and x.startswith("$") and x not in bound:
                err(rule.file, rule.meta.kline("about"), f"rule {rule.id}: about uses {x}, which no condition binds")


def _bad_calc(val):
    """A `then` value may be a calculation {op: [args]}; say what is wrong with one, if anything."""
    if not isinstance(val, dict):
        return None
    if len(val) != 1 or next(iter(val)) not in CALC_OPS:
        return f"a calculation is {{op: [a, b]}} with op one of {', '.join(CALC_OPS)}"
    args = next(iter(val.values()))
    if not isinstance(args, list) or not args:
        return "a calculation needs a list of arguments"
    for a in args:
        bad = _bad_calc(a)
        if bad:
            return bad
    return None


def _vars_in(val):
    if isinstance(val, str) and val.startswith("$"):
        yield val
    elif isinstance(val, list):
        for v in val:
            yield from _vars_in(v)
    elif isinstance(val, dict):
        for v in val.values():
            yield from _vars_in(v)


def _load_kb_afresh(root=None, only=None, collect=False):
    """load_kb without the process's memo (the files as they now are)."""
    return _load_kb_memo.__wrapped__(str(pathlib.Path(root) if root else packaged_kb_dir()), only, collect)


load_kb.cache_clear = _load_kb_memo.cache_clear
load_kb.cache_info = _load_kb_memo.cache_info
load_kb.__wrapped__ = _load_kb_afresh
