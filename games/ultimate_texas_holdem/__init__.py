"""Ultimate Texas Hold'em (docs/rules.md §1-§13), the room's first game, as the game interface
sees it. Its rules stay where they always were, in ``tables.rules`` (cards, hands, decisions,
pay tables, seats) and ``wagers.rules`` (resolution, settlement, the calculator, the game
math); this package only describes the game: ``listing`` to the floor, ``game`` to the rest."""
