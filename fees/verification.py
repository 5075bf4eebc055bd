"""The fees' part of ``verify_ledger``: the drop holds exactly the fees kept (docs/rules.md §9).

Fees leave the bettors for the table's drop, and nothing else goes there; a waiver or a
void gives a fee back by a reversal of its own transaction. Each check is one SQL
aggregation, as the money checks are (``wagers.verification``).
"""

from __future__ import annotations

CHECKS = {
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
