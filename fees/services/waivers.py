"""A fee waived by a floor supervisor before the deal (docs/rules.md §9.6).

The fee line stays as assessed; the waiver records who and why and posts a new ledger
transaction that reverses the fee's (history is never edited).
"""

from __future__ import annotations

from django.db import transaction

from cardroom.errors import Rule, RuleError, State, StateError
from fees.models import FeeLine, FeeWaiver
from tables.services.locks import lock_round
from wagers.services.ledger import reverse


def waive_fee(*, fee_line_id: int, reason: str, by) -> FeeWaiver:
    if not reason or not str(reason).strip():
        raise RuleError("say why the fee is waived", rule=Rule.FEE_WAIVER, field="reason")
    round_id = FeeLine.objects.filter(pk=fee_line_id).values_list("round_id", flat=True).first()
    if round_id is None:
        raise RuleError(f"no fee line {fee_line_id}", rule=Rule.FEE_WAIVER, field="fee_line")
    with transaction.atomic():
        _, round_ = lock_round(round_id)  # the deal takes the same lock: one goes first
        if round_.state != State.NO_MORE_BETS:
            raise StateError(
                f"round {round_.number} is {round_.get_state_display().lower()}; a fee is "
                "waived only after it is assessed and before the hand is dealt",
                state=State(round_.state),
                rule=Rule.FEE_WAIVER,
            )
        line = FeeLine.objects.select_related("transaction").get(pk=fee_line_id)
        if FeeWaiver.objects.filter(fee_line=line).exists():
            raise StateError(
                f"fee line {line.pk} is already waived",
                state=State.FEE_WAIVED,
                rule=Rule.FEE_WAIVER,
            )
        reversal = reverse(
            line.transaction, by=by, memo=f"fee waived: seat {line.seat} {line.square}"
        )
        return FeeWaiver.objects.create(
            fee_line=line,
            reason=str(reason).strip(),
            waived_at=reversal.at,
            waived_by=by,
            reversal=reversal,
        )
