"""The game of Ultimate Texas Hold'em (docs/rules.md §1-§3, §5, §8) as plain Python.

Nothing in this package imports Django: it is the pure core that the persisted
tables, the API and the settlement calculator all call.
"""
