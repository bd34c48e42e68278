"""Rules: the knowledge base loaded and checked, compiled into an experta network (with our own
speed-ups), fired on a board's facts, recorded as a trace, and kept in the cache."""
