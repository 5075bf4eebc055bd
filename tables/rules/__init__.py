"""The game of Ultimate Texas Hold'em (RULEBOOK §1-§3, §6) as plain Python.

Nothing in this package imports Django: it is the pure core that the persisted
tables, the API and the settlement calculator all call.
"""
