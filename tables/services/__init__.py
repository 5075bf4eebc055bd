"""Write paths for the floor: one transaction each, the table row locked first.

Locks are always taken in one order: the table, then its round, then rows
under it, so two staff members acting on one table serialise instead of
deadlocking.
"""
