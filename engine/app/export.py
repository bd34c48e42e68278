"""`liuren find --export FILE`: the index of the space as tables for pandas, DuckDB or SQL.

Two tables, of the boards where an expression holds (every board without one):

  firings   one row per board × entry that fires there: board, rule (its id), name, kind, and
            places — the places the judgment is about (；between several firings);
  boards    one row per board: board (its number in the space), every cast input (day, jiang,
            hour, on, month, night, year, born, sex, the casting options, question), its 三傳
            (chu, zhong, mo), gate and 課 (ke).

FILE.csv writes FILE.csv (firings) and FILE.boards.csv; FILE.sqlite one database with both
tables (and indexes on rule and board); FILE.parquet writes FILE.parquet and FILE.boards.parquet
through DuckDB, an optional extra (`pip install 'liuren[parquet]'`).  CSV and SQLite need only
the standard library.  The counts of the export are find's: the rows of a rule are the boards
`find 'EXPR and RULE'` counts.
"""
from __future__ import annotations

import csv
import os
import pathlib
import sqlite3
import tempfile

from liuren.app import find as F
from liuren.errors import InputError

FORMATS = (".csv", ".sqlite", ".parquet")
FIRING_COLUMNS = ("board", "rule", "name", "kind", "places")
_BITS = [tuple(b for b in range(8) if n >> b & 1) for n in range(256)]


def iter_bits(x):
    """The set bits of x in increasing order (by bytes: fast on 17,280-bit ints)."""
    raw = x.to_bytes((x.bit_length() + 7) // 8 or 1, "little")
    for k, byte in enumerate(raw):
        if byte:
            base = k * 8
            for b in _BITS[byte]:
                yield base + b


def board_columns(ix):
    opts = tuple(sorted(ix.options))
    return ("board", "day", "jiang", "hour", "on", "month", "night", "year", "born", "sex", *opts, "question",
            "chu", "zhong", "mo", "gate", "ke", "dim", "benming", "xingnian", "lunar", "term_day")


def board_rows(ix, sel):
    opts = tuple(sorted(ix.options))
    for i in iter_bits(sel):
        b = ix.board(i)
        gate, ke, chuan = ix.lesson_of(i)
        yield (i, b["day"], b["jiang"], b["hour"], f"{b['jiang']}加{b['hour']}", b["month"], int(b["night"]),
               b["year"], b.get("born"), b["sex"], *(str(ix.options[k]) for k in opts), ix.question or "",
               *chuan, gate, ke or "", F.DIM_WORDS.get(ix.dim_of(i), ix.dim_of(i)), b.get("benming", ""),
               b.get("xingnian", ""), b.get("lunar", ""), b.get("term_day", ""))


def firing_rows(ix, sel, lang="zh"):
    """(board, rule, name, kind, places) for every entry firing on the selected boards, rule by rule."""
    for e in sorted(ix.bits):
        x = ix.bits[e] & sel
        if not x:
            continue
        name, kind = F.display_name(ix, e, lang), ix.names.get(e, ("", ""))[1]
        has_places = e in ix.places
        for i in iter_bits(x):
            yield (i, e, name, kind, "；".join(F.places_at(ix, e, i)) if has_places else "")


def selection(ix, expr=None, month=None, day=None, gate=None, daynight=None, dim=None):
    sel = F.filter_mask(ix, month, day, gate, daynight, dim)
    if expr:
        sel &= F.evaluate(ix, F.parse(expr))
    return sel


def export(ix, path, expr=None, lang="zh", month=None, day=None, gate=None, daynight=None, dim=None):
    """Write the export; {"boards", "rows", "files"}.  A bad file name is an InputError."""
    path = pathlib.Path(path)
    suffix = path.suffix.lower()
    if suffix not in FORMATS:
        raise InputError(f"--export {str(path)!r}: end the name with .csv, .sqlite or .parquet")
    if not path.parent.is_dir():
        raise InputError(f"--export {str(path)!r}: the folder {str(path.parent)!r} does not exist")
    if suffix == ".parquet":
        try:
            import duckdb  # noqa: F401
        except ImportError:
            raise InputError("--export FILE.parquet needs DuckDB: pip install 'liuren[parquet]' "
                             "(or export .csv or .sqlite, which need nothing more)") from None
    sel = selection(ix, expr, month, day, gate, daynight, dim)
    bcols = board_columns(ix)
    if suffix == ".sqlite":
        return _sqlite(ix, path, sel, bcols, lang)
    side = path.with_name(path.stem + ".boards" + path.suffix)
    if suffix == ".csv":
        n = _csv(path, FIRING_COLUMNS, firing_rows(ix, sel, lang))
        _csv(side, bcols, board_rows(ix, sel))
        return {"boards": sel.bit_count(), "rows": n, "files": [str(path), str(side)]}
    return _parquet(ix, path, side, sel, bcols, lang)


def _csv(path, cols, rows):
    n = 0
    with open(path, "w", newline="", encoding="utf-8") as f:
        w = csv.writer(f)
        w.writerow(cols)
        for r in rows:
            w.writerow(r)
            n += 1
    return n


_INT = {"board", "night", "year", "born"}


def _sqlite(ix, path, sel, bcols, lang):
    tmp = path.with_name(path.name + ".part")
    if tmp.exists():
        tmp.unlink()
    con = sqlite3.connect(tmp)
    try:
        con.execute("CREATE TABLE boards (" + ", ".join(f'"{c}" {"INTEGER" if c in _INT else "TEXT"}' for c in bcols)
                    + ", PRIMARY KEY (board))")
        con.execute("CREATE TABLE firings (board INTEGER, rule TEXT, name TEXT, kind TEXT, places TEXT)")
        con.executemany(f"INSERT INTO boards VALUES ({', '.join('?' * len(bcols))})", board_rows(ix, sel))
        con.executemany("INSERT INTO firings VALUES (?, ?, ?, ?, ?)", firing_rows(ix, sel, lang))
        con.execute("CREATE INDEX firings_rule ON firings (rule)")
        con.execute("CREATE INDEX firings_board ON firings (board)")
        con.commit()
        n = con.execute("SELECT count(*) FROM firings").fetchone()[0]
    finally:
        con.close()
    os.replace(tmp, path)
    return {"boards": sel.bit_count(), "rows": n, "files": [str(path)]}


def _parquet(ix, path, side, sel, bcols, lang):
    import duckdb
    with tempfile.TemporaryDirectory() as d:
        fcsv, bcsv = pathlib.Path(d, "f.csv"), pathlib.Path(d, "b.csv")
        n = _csv(fcsv, FIRING_COLUMNS, firing_rows(ix, sel, lang))
        _csv(bcsv, bcols, board_rows(ix, sel))
        con = duckdb.connect()
        try:
            for src, dst, cols in ((fcsv, path, FIRING_COLUMNS), (bcsv, side, bcols)):
                types = "{" + ", ".join(f"'{c}': '{'BIGINT' if c in _INT else 'VARCHAR'}'" for c in cols) + "}"
                con.execute(f"COPY (SELECT * FROM read_csv('{_q(src)}', header = true, columns = {types})) "
                            f"TO '{_q(dst)}' (FORMAT parquet)")
        finally:
            con.close()
    return {"boards": sel.bit_count(), "rows": n, "files": [str(path), str(side)]}


def _q(p):
    return str(p).replace("'", "''")
