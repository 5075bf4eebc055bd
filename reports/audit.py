"""Report 4: the hand and wager audit export (a large CSV, docs/rules.md §4-§7, §10).

Three sections, each one streamed query in round order (round id: the order rounds
started across the floor): the rounds (player-dealer, cards, bank and result), every
seat's hand (cards, result, decisions), and every settlement line in settlement order.

A hole card is exported only where ``tables.rules.visibility`` lets anyone see it (docs/rules.md
§2.6): a hand still in play (an export of the open gaming day) or voided before its showdown
exports its board but blank hole cards. Both paths, Python and COPY, apply that one rule.
"""

from __future__ import annotations

from itertools import groupby

from cardroom.errors import ROUND_STATES, State
from cardroom.sql import Alias
from tables.models import (
    Hand,
    HandDecision,
    Player,
    Round,
    RoundTransition,
    Table,
    reached_showdown,
)
from tables.rules.visibility import CardKind, card_visible, shown
from wagers.models import Bet, PlayerDealerBank, SettlementLine

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
        .annotate(reached=reached_showdown())
        .order_by("id")
        .values_list(
            "table__name", "number", "started_at", "ended_at", "state", "void_reason", "deck",
            "player_dealer_seat", "player_dealer__player_number", "player_dealer_is_tppp",
            "consecutive_count", "dealer_hole", "board", "dealer_category", "dealer_qualifies",
            "bank__amount_cents", "bank__net_cents", "bank__exhausted", "reached",
        )
    )  # fmt: skip
    for *row, reached in stream(rows):
        state, hole = row[4], row[11]
        row[11] = shown(CardKind.PLAYER_DEALER_HOLE, state, hole, reached_showdown=reached)
        yield [cell(value) for value in row]


def _hand_rows(period: Period):
    rounds = _rounds(period)
    hands = (
        Hand.objects.filter(round__in=rounds)
        .annotate(reached=reached_showdown("round"))
        .order_by("round_id", "seat")
        .values_list(
            "id", "round__table__name", "round__number", "seat", "player__player_number",
            "hole", "category", "result", "round__state", "reached",
        )
    )  # fmt: skip
    decisions = (
        HandDecision.objects.filter(hand__round__in=rounds)
        .order_by("hand__round_id", "hand__seat", "at", "id")
        .values_list("hand_id", "street", "action", "multiple")
    )
    grouped = groupby(stream(decisions), key=lambda d: d[0])
    pending = next(grouped, None)
    for hand_id, table, number, seat, player, hole, category, result, state, reached in stream(
        hands
    ):
        hole = shown(CardKind.PLAYER_HOLE, state, hole, reached_showdown=reached)
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


# --- PostgreSQL: the same rows written by the server (COPY), formatted as ``cell`` does ----

# The tables the COPY statements read, each by its alias there (``cardroom.sql.Alias``: no
# table or column written out).
R, T, P = Alias(Round, "r"), Alias(Table, "t"), Alias(Player, "p")
H, D, X = Alias(Hand, "h"), Alias(HandDecision, "d"), Alias(RoundTransition, "x")
K, S, B = Alias(PlayerDealerBank, "k"), Alias(SettlementLine, "s"), Alias(Bet, "b")


def _iso(column: str) -> str:
    """``datetime.isoformat()`` of the local time: microseconds only when not zero."""
    return (
        f"CASE WHEN {column} IS NULL THEN NULL ELSE to_char({column}, "
        f"'YYYY-MM-DD\"T\"HH24:MI:SS') || CASE WHEN date_part('microseconds', {column})::int "
        f"%% 1000000 <> 0 THEN to_char({column}, '.US') ELSE '' END || "
        f"to_char({column}, 'TZH:TZM') END"
    )


def _bool(column: str) -> str:
    return f"CASE WHEN {column} THEN 'true' WHEN NOT {column} THEN 'false' END"


def _cards(column: str) -> str:
    # '["As", "Kd"]' -> 'As Kd' (a card is two letters: no bracket, quote or comma in it).
    return f"NULLIF(translate({column}::text, '[]\",', ''), '')"


def _shown_cards(kind: CardKind, column: str) -> tuple[str, list]:
    """``_cards(column)`` where the rule lets anyone see cards of ``kind`` (docs/rules.md
    §2.6), else NULL: the states are read off ``card_visible`` itself, so the SQL cannot
    drift from it."""
    always = [s.value for s in ROUND_STATES if card_visible(kind, s, reached_showdown=False)]
    reached = [
        s.value
        for s in ROUND_STATES
        if s.value not in always and card_visible(kind, s, reached_showdown=True)
    ]
    sql = (
        f"CASE WHEN {R.state} = ANY(%s) OR ({R.state} = ANY(%s) AND EXISTS (SELECT 1 FROM "
        f"{X} WHERE {X.round_id} = {R.id} AND {X.to_state} = %s)) "
        f"THEN {_cards(column)} END"
    )
    return sql, [always, reached, State.SHOWDOWN.value]


def _where(period: Period) -> tuple[str, list]:
    where = f"{R.started_at} >= %s AND {R.started_at} < %s"
    params = [period.start, period.end]
    if period.table_id is not None:
        where += f" AND {R.table_id} = %s"
        params.append(period.table_id)
    return where, params


def _round_copy(period: Period) -> tuple[str, list]:
    where, params = _where(period)
    hole, hole_params = _shown_cards(CardKind.PLAYER_DEALER_HOLE, R.dealer_hole)
    select = f"""
        SELECT {T.name}, {R.number}, {_iso(R.started_at)}, {_iso(R.ended_at)}, {R.state},
            NULLIF({R.void_reason}, ''), {R.deck}, {R.player_dealer_seat}, {P.player_number},
            {_bool(R.player_dealer_is_tppp)}, {R.consecutive_count}, {hole},
            {_cards(R.board)}, NULLIF({R.dealer_category}, ''), {_bool(R.dealer_qualifies)},
            {K.amount_cents}, {K.net_cents}, {_bool(K.exhausted)}
        FROM {R}
        JOIN {T} ON {T.id} = {R.table_id}
        JOIN {P} ON {P.id} = {R.player_dealer_id}
        LEFT JOIN {K} ON {K.round_id} = {R.id}
        WHERE {where} ORDER BY {R.id}"""
    return select, hole_params + params


def _hand_copy(period: Period) -> tuple[str, list]:
    where, params = _where(period)
    hole, hole_params = _shown_cards(CardKind.PLAYER_HOLE, H.hole)
    select = f"""
        SELECT {T.name}, {R.number}, {H.seat}, {P.player_number}, {hole},
            NULLIF({H.category}, ''), NULLIF({H.result}, ''),
            (SELECT string_agg({D.street} || ':' || {D.action} || CASE WHEN {D.multiple} > 0
                THEN 'x' || {D.multiple} ELSE '' END, ' ' ORDER BY {D.at}, {D.id})
             FROM {D} WHERE {D.hand_id} = {H.id})
        FROM {H}
        JOIN {R} ON {R.id} = {H.round_id}
        JOIN {T} ON {T.id} = {R.table_id}
        JOIN {P} ON {P.id} = {H.player_id}
        WHERE {where} ORDER BY {H.round_id}, {H.seat}"""
    return select, hole_params + params


def _line_copy(period: Period) -> tuple[str, list]:
    where, params = _where(period)
    select = f"""
        SELECT {T.name}, {R.number}, {S.order}, {S.settlement_pass}, {S.seat}, {S.bettor},
            {P.player_number}, {S.wager}, {S.stake_cents}, {S.outcome}, {S.paid_cents},
            {S.collected_cents}, {S.returned_uncovered_cents}, {S.unpaid_uncovered_cents},
            {S.rounded_off_cents}
        FROM {S}
        JOIN {R} ON {R.id} = {S.round_id}
        JOIN {T} ON {T.id} = {R.table_id}
        JOIN {B} ON {B.id} = {S.bet_id}
        JOIN {P} ON {P.id} = {B.player_id}
        WHERE {where} ORDER BY {S.round_id}, {S.order}
    """
    return select, params


def build(period: Period, *, is_open: bool) -> Document:
    def sections():
        yield Section(
            "Rounds", ROUND_COLUMNS, _round_rows(period), plain=True, copy=_round_copy(period)
        )
        yield Section(
            "Hands", HAND_COLUMNS, _hand_rows(period), plain=True, copy=_hand_copy(period)
        )
        yield Section(
            "Settlement lines",
            LINE_COLUMNS,
            _line_rows(period),
            plain=True,
            copy=_line_copy(period),
        )

    extra = [("amounts", "integer cents"), ("order", "rounds in the order they started")]
    return Document(TITLE, header(TITLE, period, is_open=is_open, extra=extra), sections())
