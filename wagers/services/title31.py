"""Title 31 live (docs/rules.md §10.7): every currency buy-in and cash-out adds to the
patron's running totals for the gaming day, checked before anything is written.

Called by the chip services inside their transaction, after the table's lock: ``before``
locks the patron's row of the day's totals (``CurrencyDay``, made on the day's first
currency transaction) and refuses a transaction that would take cash in or cash out over
$10,000 while the patron's identification is not recorded (``title31.identification``);
``after`` adds the amount, writes the Multiple Transaction Log line (at or above
``CARDROOM_MTL_THRESHOLD_CENTS``), opens the CTR the day's total now calls for, and raises
the patterns a compliance officer reviews (structuring; cash in and out with little play).

Locks: the table (``tables.services.locks``), then the patron's day row. Two cashiers
buying the same patron in at two tables at once take the row in turn, so the second sees
the first's amount.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.conf import settings
from django.db import transaction
from django.db.models import F, Sum

from cardroom.clock import now
from cardroom.errors import Rule, RuleError, State, StateError
from cardroom.gaming_day import gaming_day_of, gaming_day_window
from cardroom.money import dollars
from tables.models import Player
from wagers.models import (
    Bet,
    CageSlip,
    ComplianceReview,
    CurrencyDay,
    CurrencyDirection,
    CurrencyTransactionReport,
    MtlEntry,
    ReviewKind,
    TransactionKind,
)
from wagers.rules import title31 as rules

DESCRIPTION_MAX = 200
# Little play: cash out in currency of at least the MTL threshold, after wagering less than
# this share of the chips bought in cash that gaming day.
LITTLE_PLAY_SHARE = (1, 10)


@dataclass
class Pending:
    """A currency transaction checked and its patron's day row locked, not yet posted."""

    day: CurrencyDay
    direction: str
    amount: int
    totals: rules.Totals  # after the transaction
    identified: bool


def identified(player: Player) -> bool:
    """The patron's identification (type and number) is on record."""
    return bool(player.id_type and player.id_number)


def _locked_day(player: Player, gaming_day) -> CurrencyDay:
    # Made if missing without a race (ON CONFLICT DO NOTHING waits for a concurrent insert of
    # the same row), then locked.
    CurrencyDay.objects.bulk_create(
        [CurrencyDay(player=player, gaming_day=gaming_day)], ignore_conflicts=True
    )
    return CurrencyDay.objects.select_for_update().get(player=player, gaming_day=gaming_day)


def before(player: Player, kind: TransactionKind, amount: int) -> Pending:
    """Lock the patron's totals for today's gaming day and check the transaction (raises
    ``RuleError`` ``title31.identification``; nothing is written then)."""
    direction = CurrencyDirection.IN if kind == TransactionKind.BUY_IN else CurrencyDirection.OUT
    day = _locked_day(player, gaming_day_of(now()))
    known = identified(player)
    totals = rules.check(
        rules.Totals(day.cash_in_cents, day.cash_out_cents),
        direction,
        amount,
        identified=known,
        patron=player.name,
    )
    return Pending(day, direction, amount, totals, known)


def description_of(value) -> str:
    text = (value or "").strip() if isinstance(value, str) else ""
    return text[:DESCRIPTION_MAX]


def after(pending: Pending, slip: CageSlip, *, by, description: str = "") -> None:
    """Record the transaction in the day's totals, the MTL, the CTR and the review queue."""
    day = pending.day
    was_reportable = rules.Totals(day.cash_in_cents, day.cash_out_cents).reportable
    day.cash_in_cents, day.cash_out_cents = pending.totals.cash_in, pending.totals.cash_out
    day.save(update_fields=["cash_in_cents", "cash_out_cents"])
    moment = slip.transaction.at
    if pending.amount >= settings.CARDROOM_MTL_THRESHOLD_CENTS:
        MtlEntry.objects.create(
            cage_slip=slip,
            gaming_day=day.gaming_day,
            at=moment,
            table=slip.table,
            player=slip.player,
            direction=pending.direction,
            amount_cents=pending.amount,
            identified=pending.identified,
            description=description_of(description),
            by=by,
        )
    if pending.totals.reportable and not was_reportable:
        CurrencyTransactionReport.objects.create(
            currency_day=day,
            player=slip.player,
            gaming_day=day.gaming_day,
            due_on=rules.ctr_due_on(day.gaming_day),
            opened_at=moment,
        )
    _patterns(day, slip, pending)


def _raise_review(day: CurrencyDay, kind: ReviewKind, evidence: str) -> None:
    review, made = ComplianceReview.objects.get_or_create(
        player_id=day.player_id,
        gaming_day=day.gaming_day,
        kind=kind,
        defaults={"evidence": evidence, "raised_at": now()},
    )
    if not made and review.closed_at is None and review.evidence != evidence:
        review.evidence = evidence  # the open review shows the day's evidence so far
        review.save(update_fields=["evidence"])


def _patterns(day: CurrencyDay, slip: CageSlip, pending: Pending) -> None:
    start, end = gaming_day_window(day.gaming_day)
    slips = list(
        CageSlip.objects.filter(
            player_id=day.player_id,
            currency=True,
            transaction__at__gte=start,
            transaction__at__lt=end,
        )
        .order_by("transaction__at", "id")
        .values_list("kind", "amount_cents", "transaction__at", "table__name")
    )
    ins = [s for s in slips if s[0] == TransactionKind.BUY_IN]
    outs = [s for s in slips if s[0] == TransactionKind.CASH_OUT]
    for group, words in ((ins, "cash in"), (outs, "cash out")):
        amounts = [amount for _, amount, _, _ in group]
        if rules.structuring(
            amounts,
            mtl=settings.CARDROOM_MTL_THRESHOLD_CENTS,
            ctr_warning=settings.CARDROOM_CTR_WARNING_CENTS,
        ):
            listed = "; ".join(_slip_words(s) for s in group)
            _raise_review(
                day,
                ReviewKind.STRUCTURING,
                f"{len(group)} {words} transactions just under the thresholds, "
                f"{dollars(sum(amounts))} in all: {listed}",
            )
    if pending.direction == CurrencyDirection.OUT and ins:
        cash_in = sum(amount for _, amount, _, _ in ins)
        cash_out = sum(amount for _, amount, _, _ in outs)
        if cash_out < settings.CARDROOM_MTL_THRESHOLD_CENTS:
            return
        wagered = (
            Bet.objects.filter(player_id=day.player_id, placed_at__gte=start, placed_at__lt=end)
            .aggregate(
                total=Sum(
                    F("ante_cents")
                    + F("blind_cents")
                    + F("trips_cents")
                    + F("bad_beat_cents")
                    + F("play_cents")
                )
            )
            .get("total")
            or 0
        )
        share, of = LITTLE_PLAY_SHARE
        if wagered * of < cash_in * share:
            _raise_review(
                day,
                ReviewKind.LITTLE_PLAY,
                f"bought in {dollars(cash_in)} in cash and cashed out {dollars(cash_out)} in "
                f"cash after wagering {dollars(wagered)} in the gaming day "
                f"(less than {share * 100 // of}% of the cash bought in): "
                + "; ".join(_slip_words(s) for s in slips),
            )


def _slip_words(slip) -> str:
    kind, amount, at, table = slip
    local = at.astimezone(gaming_day_window(gaming_day_of(at))[0].tzinfo)
    what = "buy-in" if kind == TransactionKind.BUY_IN else "cash-out"
    return f"{what} {dollars(amount)} at {table} {local:%H:%M}"


# --- The compliance office's work -----------------------------------------------------------

FILING_NUMBER_MAX = 64
NOTE_MAX = 2000


def mark_ctr_filed(*, ctr_id: int, filing_number: str, by) -> CurrencyTransactionReport:
    """Compliance marks a CTR filed with FinCEN, with the filing's number (once)."""
    number = filing_number.strip() if isinstance(filing_number, str) else ""
    if not number or len(number) > FILING_NUMBER_MAX or not number.isprintable():
        raise RuleError(
            f"the filing's number (the BSA identifier FinCEN gave it), at most "
            f"{FILING_NUMBER_MAX} characters, is recorded with the filing",
            rule=Rule.CTR_FILING,
            field="filing_number",
        )
    with transaction.atomic():
        ctr = (
            CurrencyTransactionReport.objects.select_for_update()
            .select_related("player")
            .get(pk=ctr_id)
        )
        if ctr.filed_at is not None:
            raise StateError(
                f"the CTR for {ctr.player.name} on gaming day {ctr.gaming_day} was filed on "
                f"{ctr.filed_at:%Y-%m-%d} as {ctr.filing_number}",
                state=State.ALREADY_RECORDED,
                rule=Rule.CTR_FILING,
            )
        ctr.filed_at, ctr.filed_by, ctr.filing_number = now(), by, number
        ctr.save(update_fields=["filed_at", "filed_by", "filing_number"])
        return ctr


def close_review(*, review_id: int, note: str, by) -> ComplianceReview:
    """A compliance officer closes a review with what was decided (a SAR filed, or why not)."""
    text = note.strip() if isinstance(note, str) else ""
    if not text or len(text) > NOTE_MAX:
        raise RuleError(
            f"the review is closed with a note of what was decided (at most {NOTE_MAX} characters)",
            rule=Rule.CTR_FILING,
            field="note",
        )
    with transaction.atomic():
        review = ComplianceReview.objects.select_for_update().get(pk=review_id)
        if review.closed_at is not None:
            raise StateError(
                f"the review was closed on {review.closed_at:%Y-%m-%d}",
                state=State.ALREADY_RECORDED,
            )
        review.closed_at, review.closed_by, review.note = now(), by, text
        review.save(update_fields=["closed_at", "closed_by", "note"])
        return review
