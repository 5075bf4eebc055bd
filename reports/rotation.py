"""Report 1: the player-dealer rotation record (docs/rules.md §8).

Per table, in time order: games opened and ended (with reasons), every offer of the
button and its answer, every hand with its player-dealer and consecutive count. Then the
check of each rotation rule per table, by the rules core's own ``audit_rotation`` over
the recorded rounds, and every violation with the hands that show it.
"""

from __future__ import annotations

import heapq
from datetime import timedelta

from django.db.models import Q

from cardroom.errors import Rule
from tables.models import BANKED_HAND_FIELDS, ButtonOffer, Game, Round
from tables.options import rotation_policy
from tables.rules.rotation import AUDITED_RULES, BankedHand, audit_rotation

from .common import header, stream, tables_in_scope
from .document import Document, Section
from .parameters import Period

TITLE = "Player-dealer rotation record"
RULE_NAMES = {
    Rule.CONSECUTIVE_HANDS: "two consecutive hands",
    Rule.TPPP_PER_TABLE: "one TPPP per table",
    Rule.TPPP_TWICE: "no TPPP twice in a row",
    Rule.WINDOW: "40-minute rule",
}
# Hands audited together; the tail carried between chunks covers every rule's look-back.
AUDIT_CHUNK = 1_000
LOOK_BACK_HANDS = 3
# At least this far back for context; longer where the table's rounds set a longer window.
LOOK_BACK_WINDOW = timedelta(hours=2)

EVENT_COLUMNS = [
    "table", "time", "event", "game", "hand", "seat", "player", "player_name", "tppp",
    "consecutive", "answer", "answered_at", "staff", "detail",
]  # fmt: skip
EVENT_WIDTHS = {
    "table": 10, "time": 25, "event": 11, "game": 5, "hand": 5, "seat": 4, "player": 10,
    "player_name": 16, "tppp": 5, "consecutive": 11, "answer": 10, "answered_at": 25,
    "staff": 10, "detail": 30,
}  # fmt: skip


def _events(table, period: Period):
    window = {"table": table}
    opened = Game.objects.filter(
        **window, opened_at__gte=period.start, opened_at__lt=period.end
    ).values_list("opened_at", "id", "first_offer_seat", "opened_by__username")
    ended = Game.objects.filter(
        **window, ended_at__gte=period.start, ended_at__lt=period.end
    ).values_list("ended_at", "id", "end_reason", "end_detail", "ended_by__username")
    offers = (
        ButtonOffer.objects.filter(
            offer_round__table=table, offered_at__gte=period.start, offered_at__lt=period.end
        )
        .order_by("offered_at", "id")
        .values_list(
            "offered_at", "id", "offer_round__game_id", "seat", "player__player_number",
            "player__name", "is_tppp", "answer", "answered_at", "offered_by__username", "reason",
        )
    )  # fmt: skip
    hands = (
        Round.objects.filter(table=table, started_at__gte=period.start, started_at__lt=period.end)
        .order_by("started_at", "number")
        .values_list(
            "started_at", "id", "game_id", "number", "player_dealer_seat",
            "player_dealer__player_number", "player_dealer__name", "player_dealer_is_tppp",
            "consecutive_count", "state", "void_reason", "started_by__username",
        )
    )  # fmt: skip
    # At one instant: a game opens, then its offers, then the hand, then a game ends.
    streams = [
        (
            (at, 0, pk, ("game opened", pk, "", "", "", "", "", "", "", "", staff,
                         f"offers start at seat {seat}"))
            for at, pk, seat, staff in stream(opened.order_by("opened_at", "id"))
        ),
        (
            (at, 1, pk, ("offer", game, "", seat, number, name, tppp, "", answer, answered_at,
                         staff, reason))
            for at, pk, game, seat, number, name, tppp, answer, answered_at, staff, reason
            in stream(offers)
        ),
        (
            (at, 2, pk, ("hand", game, hand, seat, number, name, tppp, consecutive, "", "",
                         staff, f"{state}{': ' + void if void else ''}"))
            for at, pk, game, hand, seat, number, name, tppp, consecutive, state, void, staff
            in stream(hands)
        ),
        (
            (at, 3, pk, ("game ended", pk, "", "", "", "", "", "", "", "", staff,
                         f"{reason}{': ' + detail if detail else ''}"))
            for at, pk, reason, detail, staff in stream(ended.order_by("ended_at", "id"))
        ),
    ]  # fmt: skip
    for at, _, _, fields in heapq.merge(*streams, key=lambda event: event[:3]):
        yield (table.name, at, *fields)


# A round as the audit reads it: the rotation rules' fields, then its options and number.
ROUND_FIELDS = (*BANKED_HAND_FIELDS, "options", "number")
BANKED = len(BANKED_HAND_FIELDS)
OPTIONS, NUMBER, STARTED_AT = BANKED, BANKED + 1, BANKED_HAND_FIELDS.index("started_at")


def _banked(row) -> BankedHand:
    return BankedHand(*row[:BANKED])


def look_back_for(rounds) -> timedelta:
    """How far before a hand the rules may look: the longest rotation window these rounds
    were played under (each round keeps its options), and never less than LOOK_BACK_WINDOW."""
    windows = rounds.values_list("options__rotation_window_minutes", flat=True).distinct()
    return max([LOOK_BACK_WINDOW, *(timedelta(minutes=m) for m in windows if m)])


def audit_table(table, period: Period):
    """Violations of the table's rounds started in ``period``, found by ``audit_rotation``.

    Rounds are audited in chunks; each chunk is preceded by the hands any rule looks back
    at (the last few hands, and the hands of the rotation window), so memory stays bounded
    however long the period, and a violation straddling the period's start is still seen.
    Returns (hands checked, [(rule, round numbers, detail)]).
    """
    rounds = Round.objects.filter(table=table)
    look_back = look_back_for(rounds.filter(started_at__lt=period.end))
    before = rounds.filter(started_at__lt=period.start)
    context = list(
        before.filter(
            Q(pk__in=before.order_by("-number").values("pk")[:LOOK_BACK_HANDS])
            | Q(started_at__gte=period.start - look_back)
        )
        .order_by("number")
        .values_list(*ROUND_FIELDS)
    )
    games = dict(
        Game.objects.filter(table=table, opened_at__lt=period.end)
        .filter(Q(ended_at__isnull=True) | Q(ended_at__gte=period.start - look_back))
        .values_list("id", "opened_at")
    )
    tail = context
    checked = 0
    found = []
    chunk = []
    in_period = rounds.filter(started_at__gte=period.start, started_at__lt=period.end).order_by(
        "number"
    )

    def audit(chunk, tail):
        history = tail + chunk
        numbers = {row[0]: row[NUMBER] for row in history}
        policies = {row[0]: rotation_policy(row[OPTIONS]) for row in history}
        missing = {row[1] for row in history} - games.keys()
        if missing:
            games.update(Game.objects.filter(pk__in=missing).values_list("id", "opened_at"))
        audited = {row[0] for row in chunk}
        for violation in audit_rotation([_banked(r) for r in history], games, policies):
            if violation.hand_ids[-1] in audited:
                found.append(
                    (violation.rule, [numbers[h] for h in violation.hand_ids], violation.detail)
                )
        last = history[-1]
        return [
            row
            for index, row in enumerate(history)
            if index >= len(history) - LOOK_BACK_HANDS
            or row[STARTED_AT] > last[STARTED_AT] - look_back
        ]

    for row in stream(in_period.values_list(*ROUND_FIELDS), chunk_size=AUDIT_CHUNK):
        chunk.append(row)
        checked += 1
        if len(chunk) >= AUDIT_CHUNK:
            tail = audit(chunk, tail)
            chunk = []
    if chunk:
        audit(chunk, tail)
    return checked, found


def build(period: Period, *, is_open: bool) -> Document:
    tables = list(tables_in_scope(period))

    def sections():
        yield Section(
            "Rotation record",
            EVENT_COLUMNS,
            (event for table in tables for event in _events(table, period)),
            EVENT_WIDTHS,
        )
        results = [(table, *audit_table(table, period)) for table in tables]
        yield Section(
            "Rotation rule checks",
            ["table", "rule", "hands_checked", "violations"],
            (
                (table.name, RULE_NAMES[rule], checked, sum(1 for v in found if v[0] == rule))
                for table, checked, found in results
                for rule in AUDITED_RULES
            ),
            {"table": 16, "rule": 24, "hands_checked": 13, "violations": 10},
        )
        yield Section(
            "Rotation violations",
            ["table", "rule", "hands", "detail"],
            (
                (table.name, RULE_NAMES[rule], hands, detail)
                for table, _, found in results
                for rule, hands, detail in found
            ),
            {"table": 16, "rule": 24, "hands": 30, "detail": 80},
        )

    return Document(TITLE, header(TITLE, period, is_open=is_open), sections())
