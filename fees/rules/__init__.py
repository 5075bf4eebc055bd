"""The fee engine (docs/rules.md §9): plain Python, no Django import.

``schedule`` validates a collection schedule; ``assessment`` computes the fees
of one hand from the wagers placed and the schedule in force.
"""
