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
from tables.models import Hand, HandDecision, Round, reached_showdown
from tables.rules.visibility import CardKind, card_visible, shown
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
        f"CASE WHEN r.state = ANY(%s) OR (r.state = ANY(%s) AND EXISTS (SELECT 1 FROM "
        f"tables_roundtransition x WHERE x.round_id = r.id AND x.to_state = %s)) "
        f"THEN {_cards(column)} END"
    )
    return sql, [always, reached, State.SHOWDOWN.value]


def _where(period: Period) -> tuple[str, list]:
    where, params = "r.started_at >= %s AND r.started_at < %s", [period.start, period.end]
    if period.table_id is not None:
        where += " AND r.table_id = %s"
        params.append(period.table_id)
    return where, params


def _round_copy(period: Period) -> tuple[str, list]:
    where, params = _where(period)
    hole, hole_params = _shown_cards(CardKind.PLAYER_DEALER_HOLE, "r.dealer_hole")
    select = f"""
        SELECT t.name, r.number, {_iso("r.started_at")}, {_iso("r.ended_at")}, r.state,
            NULLIF(r.void_reason, ''), r.deck, r.player_dealer_seat, p.player_number,
            {_bool("r.player_dealer_is_tppp")}, r.consecutive_count, {hole},
            {_cards("r.board")}, NULLIF(r.dealer_category, ''), {_bool("r.dealer_qualifies")},
            b.amount_cents, b.net_cents, {_bool("b.exhausted")}
        FROM tables_round r
        JOIN tables_table t ON t.id = r.table_id
        JOIN tables_player p ON p.id = r.player_dealer_id
        LEFT JOIN wagers_playerdealerbank b ON b.round_id = r.id
        WHERE {where} ORDER BY r.id"""
    return select, hole_params + params


def _hand_copy(period: Period) -> tuple[str, list]:
    where, params = _where(period)
    hole, hole_params = _shown_cards(CardKind.PLAYER_HOLE, "h.hole")
    select = f"""
        SELECT t.name, r.number, h.seat, p.player_number, {hole},
            NULLIF(h.category, ''), NULLIF(h.result, ''),
            (SELECT string_agg(d.street || ':' || d.action || CASE WHEN d.multiple > 0
                THEN 'x' || d.multiple ELSE '' END, ' ' ORDER BY d.at, d.id)
             FROM tables_handdecision d WHERE d.hand_id = h.id)
        FROM tables_hand h
        JOIN tables_round r ON r.id = h.round_id
        JOIN tables_table t ON t.id = r.table_id
        JOIN tables_player p ON p.id = h.player_id
        WHERE {where} ORDER BY h.round_id, h.seat"""
    return select, hole_params + params


def _line_copy(period: Period) -> tuple[str, list]:
    where, params = _where(period)
    select = f"""
        SELECT t.name, r.number, s."order", s.settlement_pass, s.seat, s.bettor,
            p.player_number, s.wager, s.stake_cents, s.outcome, s.paid_cents,
            s.collected_cents, s.returned_uncovered_cents, s.unpaid_uncovered_cents,
            s.rounded_off_cents
        FROM wagers_settlementline s
        JOIN tables_round r ON r.id = s.round_id
        JOIN tables_table t ON t.id = r.table_id
        JOIN wagers_bet b ON b.id = s.bet_id
        JOIN tables_player p ON p.id = b.player_id
        WHERE {where} ORDER BY s.round_id, s."order"
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
