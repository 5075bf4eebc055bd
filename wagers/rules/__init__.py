"""Wagers, their resolution and coverage-limited settlement (RULEBOOK §3-§5), as plain Python.

No Django import here: the settlement calculator, the persisted rounds and the
property tests all run exactly this code.
"""
