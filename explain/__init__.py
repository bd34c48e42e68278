"""Explain: what a reader sees of a judgment — the cited chain (HOW), why a rule did not fire
(WHY-NOT), conditions in words, the board and the judgments as text, markdown and HTML, the
trace's exports, and the audit of the whole KB.  It reads what the rules layer recorded; it never
re-runs a rule."""
