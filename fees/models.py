"""Database models of the fees app (none yet; later issues add them)."""
