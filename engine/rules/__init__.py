"""Rules: the engine that runs the knowledge base (liuren.knowledge) — compiled into an experta
network (with our own speed-ups), fired on a board's facts, recorded as a trace, the networks
kept in the cache — and `kb check --examples`, which runs every example board through it."""
