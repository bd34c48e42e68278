"""The data model of the knowledge base: an entry (a rule or a table's named row), a table, and
the KB that holds them with its books, verses, options, questions and the words of its facts."""
from __future__ import annotations

import collections
import difflib
import pathlib
from dataclasses import dataclass, field

from liuren.knowledge.facts import BUILTIN_FACTS


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
