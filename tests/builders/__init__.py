"""One stack of test builders; each module builds on the ones above it in this list.

- ``rules``: plain Python for the rules-core tests (cards, pay tables, settlement inputs,
  the calculator's example, fee schedules as entered); no Django.
- ``baccarat``: the same for EZ Baccarat (cards by their points, the calculator's example).
- ``factories``: factory_boy factories for single rows (users, players, TPPPs, tables).
- ``floor``: the clock, the staff, players and their chips, tables from a layout, the
  button, a round started and moved through its states (every row through the services).
- ``money``: a table seated with given chips and backline bettors, a round with given bets,
  the stored round in the settlement calculator's format.
- ``fees``: fee schedules for a table, a round with its fees assessed, every ledger check.
- ``tampering``: raw SQL past the database's guards, and the attacks on a floor's books
  with the differences ``verify_ledger`` must report for each.
- ``reports``: the compliance day the report tests read.
- ``api``: the API tests' floor (``on_floor``), over ``floor``.
"""
