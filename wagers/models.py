"""Database models of the wagers app (none yet; later issues add them)."""
