"""The compiled networks a judgment runs on: one per (KB folder, variants, question), built once
per process and kept in the user's cache between runs (knowledge.cache stores the bytes,
rules.netcache pickles a network without its KB)."""
from __future__ import annotations

import functools
import pathlib

from liuren.knowledge.kbload import load_kb
from liuren.rules.compile import build


# a network takes some 80 MB in memory: keep a few; the others are read back from the cache
@functools.lru_cache(maxsize=12)
def _engine(kb_dir, variants, question):
    from liuren.knowledge import cache
    from liuren.rules import netcache
    kb = load_kb(kb_dir)
    key = None
    if getattr(kb, "digest", None):
        import hashlib
        key = hashlib.sha256(repr((kb.digest, str(kb.root.resolve()), variants, question)).encode()).hexdigest()
        eng = cache.read("engine", key, netcache.engine_loader(kb))
        if eng is not None and getattr(eng, "kb", None) is kb:
            kb.fact_text.update(eng.fact_text_extra)      # the words of the compiler's helper facts
            return eng
    eng = build(kb, dict(variants), question=question)
    eng.kb = kb
    # the words of every helper fact this network concludes — all of them, not only those this
    # build added to the KB's words (another network compiled first in the process may have
    # added them already): a network read back from the cache says the same as one compiled
    eng.fact_text_extra = {t: kb.fact_text[t] for cr in eng.compiled if cr.internal
                           for t, _ in cr.then if t in kb.fact_text}
    if key is not None:
        cache.write("engine", key, eng, netcache.engine_pickler(kb))
    return eng




def engine_for(kb_dir=None, variants=None, question=None):
    """The compiled engine for a KB folder (default: the installed kb/), a variant choice and a
    question.  Built once per process per (folder, variants, question); reset per board."""
    from liuren.knowledge.kbload import packaged_kb_dir
    # keyed on the folder itself ($LIUREN_KB when none is given, as it is now), not on None
    return _engine(str(pathlib.Path(kb_dir) if kb_dir else packaged_kb_dir()),
                   tuple(sorted((variants or {}).items())), question)
