"""The games the room runs, each game one package of plain Python (no Django).

A game's package holds its rules as plain functions and data: the options sheet, the cards and
how they are dealt, the wagers, how each resolves, the order of settlement against the
player-dealer's bank, the settlement calculator's format and the exact game math. The floor, the
money layer and the round lifecycle call them; the coverage law of the player-dealer's bank is
written once, in ``wagers.rules.settlement`` (``apply_coverage``), for every game.

- ``games.ez_baccarat``: EZ Baccarat, California player-dealer version (docs/rules.md §14).

Ultimate Texas Hold'em, the room's first game, keeps its rules in ``tables.rules`` and
``wagers.rules``.
"""
