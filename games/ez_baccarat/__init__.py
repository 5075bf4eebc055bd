"""EZ Baccarat, California player-dealer version (docs/rules.md §14), as plain Python.

- ``options``: the options sheet (decks, seats, pays, cut card, limits), validated.
- ``points``: the cards' point values and a hand's total.
- ``coup``: the drawing rules as a table, playing out a coup and checking a dealt one.
- ``shoe``: a shuffled shoe of 6 or 8 decks: the burn, dealing in order, the cut card.
- ``wagers``: the five squares and one bettor's wagers, checked.
- ``resolution``: each wager's outcome and payout.
- ``settlement``: the order of settlement, fed to the coverage law (``apply_coverage``).
- ``exposure``: the action on the layout against the bank: the likely case and the worst.
- ``calculator``: the settlement calculator's JSON format for this game.
- ``gamemath``: exact house edges, hit frequencies and standard deviations.
"""
