"""Wagers, their resolution and coverage-limited settlement (docs/rules.md §4-§7), as plain Python.

No Django import here: the settlement calculator, the persisted rounds and the
property tests all run exactly this code.
"""
