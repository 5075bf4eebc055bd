"""Recompute the books from the entries and list every difference (``verify_ledger``).

Each check is one SQL aggregation, so verifying a large ledger streams in the
database rather than loading rows into Python.
"""

from __future__ import annotations

from collections.abc import Iterator

from django.db import connection

CHECKS = {
    "unbalanced transaction": """
        SELECT t.id, COALESCE(SUM(e.amount_cents), 0)
          FROM wagers_ledgertransaction t LEFT JOIN wagers_ledgerentry e ON e.transaction_id = t.id
         GROUP BY t.id
        HAVING COALESCE(SUM(e.amount_cents), 0) <> 0 OR COUNT(e.id) < 2
    """,
    "cached balance differs from entries": """
        SELECT a.id, a.balance_cents - COALESCE(s.total, 0)
          FROM wagers_account a
          LEFT JOIN (SELECT account_id, SUM(amount_cents) AS total
                       FROM wagers_ledgerentry GROUP BY account_id) s ON s.account_id = a.id
         WHERE a.balance_cents <> COALESCE(s.total, 0)
    """,
    "finished round left chips in play": """
        SELECT r.id, SUM(e.amount_cents)
          FROM tables_round r
          JOIN wagers_account a ON a.round_id = r.id
          JOIN wagers_ledgerentry e ON e.account_id = a.id
         WHERE r.state IN ('settled', 'voided')
         GROUP BY r.id
        HAVING SUM(e.amount_cents) <> 0
    """,
    "settlement lines disagree with the bank's result": """
        SELECT b.round_id, b.net_cents - COALESCE(SUM(l.collected_cents - l.paid_cents), 0)
          FROM wagers_playerdealerbank b
          JOIN tables_round r ON r.id = b.round_id AND r.state = 'settled'
          LEFT JOIN wagers_settlementline l ON l.round_id = b.round_id
         GROUP BY b.round_id, b.net_cents
        HAVING b.net_cents IS NULL
            OR b.net_cents <> COALESCE(SUM(l.collected_cents - l.paid_cents), 0)
    """,
    "bets disagree with their settlement lines": """
        SELECT b.id, b.ante_cents + b.blind_cents + b.trips_cents + b.bad_beat_cents
                     + b.play_cents - COALESCE(SUM(l.stake_cents), 0)
          FROM wagers_bet b
          JOIN tables_hand h ON h.id = b.hand_id
          JOIN tables_round r ON r.id = h.round_id AND r.state = 'settled'
          LEFT JOIN wagers_settlementline l ON l.bet_id = b.id
         GROUP BY b.id
        HAVING b.ante_cents + b.blind_cents + b.trips_cents + b.bad_beat_cents + b.play_cents
               <> COALESCE(SUM(l.stake_cents), 0)
    """,
    "player-dealer's result outside [-W, +W]": """
        SELECT round_id, net_cents FROM wagers_playerdealerbank
         WHERE net_cents < -amount_cents OR net_cents > amount_cents
    """,
    "settlement line does not add up": """
        SELECT id, stake_cents FROM wagers_settlementline
         WHERE (outcome = 'lose' AND collected_cents + returned_uncovered_cents <> stake_cents)
            OR (outcome <> 'lose' AND (collected_cents <> 0 OR returned_uncovered_cents <> 0))
            OR (outcome <> 'win' AND (paid_cents <> 0 OR unpaid_uncovered_cents <> 0))
    """,
}


def differences(checks: dict[str, str] = CHECKS) -> Iterator[tuple[str, int, int]]:
    """(check, row id, amount off) for every difference ``checks`` find."""
    with connection.cursor() as cursor:
        for check, sql in checks.items():
            cursor.execute(sql)
            for row_id, amount in cursor.fetchall():
                yield check, row_id, amount or 0


def counts() -> dict[str, int]:
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT (SELECT COUNT(*) FROM wagers_ledgertransaction),"
            " (SELECT COUNT(*) FROM wagers_account),"
            " (SELECT COUNT(*) FROM tables_round WHERE state IN ('settled', 'voided'))"
        )
        transactions, accounts, rounds = cursor.fetchone()
    return {"transactions": transactions, "accounts": accounts, "finished rounds": rounds}
