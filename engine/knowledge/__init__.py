"""The knowledge base: the KB folder read, modelled and checked (never run): its data model and
loader, its lint, the facts a board offers, the condition language and what each condition
means, the static checks over that meaning, the board space its conditions vary, and the disk
cache that keeps a loaded KB (and, for the engine above, its networks)."""
