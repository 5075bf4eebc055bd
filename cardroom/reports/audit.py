"""Report 4: the hand and wager audit export (a large CSV, RULEBOOK §3-§5, §8).

Three sections, each one streamed query in round order (round id: the order rounds
started across the floor): the rounds (player-dealer, cards, bank and result), every
seat's hand (cards, result, decisions), and every settlement line in settlement order.
"""

from __future__ import annotations

from itertools import groupby

from tables.models import Hand, HandDecision, Round
from wagers.models import SettlementLine

from .common import header, stream
from .document import Document, Section, cell
from .parameters import Period

TITLE = "Hand and wager audit export"

ROUND_COLUMNS = [
    "table", "round", "started_at", "ended_at", "state", "void_reason", "deck",
    "player_dealer_seat", "player_dealer", "player_dealer_tppp", "consecutive",
    "dealer_hole", "board", "dealer_category", "dealer_qualifies", "bank_cents",
    "bank_result_cents", "bank_exhausted",
]  # fmt: skip
HAND_COLUMNS = [
    "table", "round", "seat", "player", "hole", "category", "result", "decisions",
]  # fmt: skip
LINE_COLUMNS = [
    "table", "round", "order", "pass", "seat", "bettor", "player", "wager", "stake_cents",
    "outcome", "paid_cents", "collected_cents", "returned_uncovered_cents",
    "unpaid_uncovered_cents", "rounded_off_cents",
]  # fmt: skip


def _rounds(period: Period):
    rounds = Round.objects.filter(started_at__gte=period.start, started_at__lt=period.end)
    if period.table_id is not None:
        rounds = rounds.filter(table_id=period.table_id)
    return rounds


def _round_rows(period: Period):
    rows = (
        _rounds(period)
        .order_by("id")
        .values_list(
            "table__name", "number", "started_at", "ended_at", "state", "void_reason", "deck",
            "player_dealer_seat", "player_dealer__player_number", "player_dealer_is_tppp",
            "consecutive_count", "dealer_hole", "board", "dealer_category", "dealer_qualifies",
            "bank__amount_cents", "bank__net_cents", "bank__exhausted",
        )
    )  # fmt: skip
    for row in stream(rows):
        yield [cell(value) for value in row]


def _hand_rows(period: Period):
    rounds = _rounds(period)
    hands = (
        Hand.objects.filter(round__in=rounds)
        .order_by("round_id", "seat")
        .values_list(
            "id", "round__table__name", "round__number", "seat", "player__player_number",
            "hole", "category", "result",
        )
    )  # fmt: skip
    decisions = (
        HandDecision.objects.filter(hand__round__in=rounds)
        .order_by("hand__round_id", "hand__seat", "at", "id")
        .values_list("hand_id", "street", "action", "multiple")
    )
    grouped = groupby(stream(decisions), key=lambda d: d[0])
    pending = next(grouped, None)
    for hand_id, table, number, seat, player, hole, category, result in stream(hands):
        text = ""
        # Both streams are in (round, seat) order: a merge join, one hand at a time.
        if pending is not None and pending[0] == hand_id:
            text = " ".join(
                f"{street}:{action}{'x' + str(multiple) if multiple else ''}"
                for _, street, action, multiple in pending[1]
            )
            pending = next(grouped, None)
        yield (table, number, seat, player, " ".join(hole or ()), category, result, text)


def _line_rows(period: Period):
    lines = (
        SettlementLine.objects.filter(round__in=_rounds(period))
        .order_by("round_id", "order")
        .values_list(
            "round__table__name", "round__number", "order", "settlement_pass", "seat", "bettor",
            "bet__player__player_number", "wager", "stake_cents", "outcome", "paid_cents",
            "collected_cents", "returned_uncovered_cents", "unpaid_uncovered_cents",
            "rounded_off_cents",
        )
    )  # fmt: skip
    return stream(lines, chunk_size=10_000)


def build(period: Period, *, is_open: bool) -> Document:
    def sections():
        yield Section("Rounds", ROUND_COLUMNS, _round_rows(period), plain=True)
        yield Section("Hands", HAND_COLUMNS, _hand_rows(period), plain=True)
        yield Section("Settlement lines", LINE_COLUMNS, _line_rows(period), plain=True)

    extra = [("amounts", "integer cents"), ("order", "rounds in the order they started")]
    return Document(TITLE, header(TITLE, period, is_open=is_open, extra=extra), sections())
