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
    # RULEBOOK §7: fees leave the bettors for the table's drop, and nothing else goes there.
    "fee line disagrees with its transaction": """
        SELECT f.id, f.amount_cents - COALESCE(SUM(CASE WHEN a.kind = 'drop'
                     AND a.table_id = r.table_id THEN e.amount_cents ELSE 0 END), 0)
          FROM fees_feeline f
          JOIN tables_round r ON r.id = f.round_id
          JOIN wagers_ledgertransaction t ON t.id = f.transaction_id
          LEFT JOIN wagers_ledgerentry e ON e.transaction_id = t.id
          LEFT JOIN wagers_account a ON a.id = e.account_id
         GROUP BY f.id, f.amount_cents, f.account_id, t.kind, r.table_id
        HAVING t.kind <> 'fee'
            OR COUNT(e.id) <> 2
            OR f.amount_cents <> COALESCE(SUM(CASE WHEN a.kind = 'drop'
                     AND a.table_id = r.table_id THEN e.amount_cents ELSE 0 END), 0)
            OR -f.amount_cents <> COALESCE(SUM(CASE WHEN e.account_id = f.account_id
                     THEN e.amount_cents ELSE 0 END), 0)
    """,
    "drop differs from the fees kept": """
        SELECT a.id, a.balance_cents - COALESCE(k.kept, 0)
          FROM wagers_account a
          LEFT JOIN (SELECT r.table_id, SUM(f.amount_cents) AS kept
                       FROM fees_feeline f
                       JOIN tables_round r ON r.id = f.round_id
                      WHERE NOT EXISTS (SELECT 1 FROM wagers_ledgertransaction v
                                         WHERE v.reverses_id = f.transaction_id)
                      GROUP BY r.table_id) k ON k.table_id = a.table_id
         WHERE a.kind = 'drop' AND a.balance_cents <> COALESCE(k.kept, 0)
    """,
    "voided round kept a fee": """
        SELECT f.id, f.amount_cents
          FROM fees_feeline f
          JOIN tables_round r ON r.id = f.round_id AND r.state = 'voided'
         WHERE NOT EXISTS (SELECT 1 FROM wagers_ledgertransaction v
                            WHERE v.reverses_id = f.transaction_id)
    """,
    "fee waiver does not reverse its fee": """
        SELECT w.id, f.amount_cents
          FROM fees_feewaiver w
          JOIN fees_feeline f ON f.id = w.fee_line_id
          JOIN wagers_ledgertransaction v ON v.id = w.reversal_id
         WHERE v.reverses_id IS NULL OR v.reverses_id <> f.transaction_id
    """,
}


def differences() -> Iterator[tuple[str, int, int]]:
    """(check, row id, amount off) for every difference found."""
    with connection.cursor() as cursor:
        for check, sql in CHECKS.items():
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
