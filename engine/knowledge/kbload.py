"""Loading the knowledge base (kb/, YAML only): the KB folder found and its files listed, every
kind of KB entry read with its file and line into the data model (knowledge.model, through the
line-tracking reader knowledge.kbyaml), its ids registered, and the checks of knowledge.validate
run on each entry and on the whole.

Every KB file is a YAML mapping with any of the keys ``tables``, ``rules``, ``macros``,
``verses``, ``books``, ``options``, ``questions``.  Every source is a paragraph of a seed text
(``seed``, ``para``, a verbatim ``quote``): a project document is never a source.  The format is documented in
kb/README.md; this module checks it and turns it into plain objects.  Any error names the
file and the line (KBError); ``liuren kb check`` reports them all.
"""
from __future__ import annotations

import difflib
import functools
import os
import pathlib
import re

from liuren.casting.tables import core_dir, expand_cells
from liuren.errors import KBError
from liuren.knowledge.conditions import CALC_OPS, TEST_OPS, VAR_RE, then_facts, walk_patterns  # noqa: F401 (re-exported)
from liuren.knowledge.facts import BUILTIN_FACTS, JUDGMENT_KINDS, RESERVED_FIELDS, RULE_KINDS  # noqa: F401
from liuren.knowledge.kbyaml import read_yaml
from liuren.knowledge.model import KB, Row, Rule, Table
from liuren.knowledge.facts import value_words_ok
from liuren.knowledge.validate import _check_common, _check_name, _check_source, _post

# kinds of rule, in the order judgments are listed: the 課體 of the lesson, 格, 畢法 (《畢法賦》's
# hundred 法), 神煞, 斷, 總則, 類相, 占驗; 起例 (placements) are not judgments
VERSE_KEYS = {"id", "name", "seed", "para", "quote", "note", "aliases", "source"}
ROW_META = {"id", "name", "aliases", "labels", "source", "reading", "valence", "interpretation",
            "variants", "examples", "unreachable", "always", "note", "symmetric", "each", "defeats",
            "defeated_by", "about", "conflicts", "governs", "restates"}
RULE_KEYS = {"id", "name", "aliases", "labels", "kind", "when", "then", "as", "about", "reading",
             "valence", "source", "variants", "interpretation", "defeats", "defeated_by",
             "examples", "unreachable", "always", "note", "question", "effect", "governs", "conflicts",
             "salience"}
TABLE_KEYS = {"id", "name", "aliases", "labels", "kind", "columns", "rows", "reading", "source",
              "interpretation", "note", "valence", "reported", "text", "extends", "domains", "keys", "restates",
              "words"}
ID_RE = re.compile(r"^[a-z0-9][a-z0-9.-]*$")
# kinds of table: 基礎 (what the caster and the relations rest on), 類相 (images), 數表 (numbers),
# and a table of one kind of rule (格表, 神煞表 …: its rows are that kind's, reported or read)
TABLE_KINDS = ("基礎", "類相", "數表") + tuple(k + "表" for k in RULE_KINDS)


def _near_word(x, words):
    near = difflib.get_close_matches(str(x), list(words), n=2, cutoff=0.3)
    return f" (did you mean {'、'.join(near)}?)" if near else ""


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
    if "words" in item and not value_words_ok(item["words"], item.get("fields") or []):
        err(path, item.kline("words"), f"fact type {t!r}: words is {{field: {{value: its words}}}} for its fields")
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




def kb_rel(path):
    """A KB file path as kb/…, for messages."""
    p = str(path)
    i = p.rfind("/kb/")
    return p[i + 1:] if i >= 0 else p


def _load_kb_afresh(root=None, only=None, collect=False):
    """load_kb without the process's memo (the files as they now are)."""
    return _load_kb_memo.__wrapped__(str(pathlib.Path(root) if root else packaged_kb_dir()), only, collect)


load_kb.cache_clear = _load_kb_memo.cache_clear
load_kb.cache_info = _load_kb_memo.cache_info
load_kb.__wrapped__ = _load_kb_afresh
