"""Read paths of the floor: plain functions answering querysets or objects.

Every list selector joins or prefetches what its endpoint shows, so a list
costs the same number of queries whatever its length. A missing row raises the
model's ``DoesNotExist`` (the API answers 404).

``button_state`` is the one place where what may happen to the player-dealer button next
is decided: the table view shows it, and the button services (taking the table's lock
first) act on it, so the floor and the services can never disagree.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import date, datetime, timedelta
from functools import cache
from types import SimpleNamespace
from typing import Any, NamedTuple

from django.db import connection, models
from django.db.models import (
    BigIntegerField,
    Count,
    Exists,
    ExpressionWrapper,
    Max,
    OuterRef,
    Prefetch,
    Q,
    QuerySet,
    Subquery,
    Sum,
    Value,
)
from django.db.models.functions import Coalesce

from cardroom.clock import now, today
from cardroom.errors import ACTIVE_ROUND_STATES, Rule, State, StateError
from cardroom.filtering import filter_queryset
from cardroom.money import dollar_range
from cardroom.sql import row_loader
from games import catalog
from tables import options as table_options
from tables import sql
from tables.filters import GameFilter, OfferRoundFilter, PlayerFilter, SeatingFilter
from tables.guards import no_game_error, round_in_play_error
from tables.models import (
    BANKED_HAND_FIELDS,
    ButtonOffer,
    Exclusion,
    Game,
    GameEndReason,
    MustMove,
    OfferAnswer,
    OfferRound,
    OfferRoundStatus,
    PatronSignIn,
    Player,
    PlayerIdentificationChange,
    Round,
    SeatHold,
    Seating,
    SeatPass,
    Table,
    TableChange,
    TableOptionChange,
    TPPPContract,
    Waitlist,
    WaitlistEvent,
    WaitlistPolicyChange,
)
from tables.rules import seat_requests as seat_rules
from tables.rules import waitlist as waitlist_rules
from tables.rules.counters import HOUR, Counters, table_counters, window_limit_at
from tables.rules.rotation import (
    BankedHand,
    Breach,
    RotationPolicy,
    SeatedPlayer,
    ineligibility,
    keeper,
    offer_order,
    offers_start_at,
)
from tables.rules.seats import seat_numbers

Filters = Mapping[str, Any] | None

NO_PLAYER_DEALER_STATUS = (
    "no eligible seated player accepted the player-dealer position, so no round can start "
    "at this table until one does: begin a new offer round"
)
# How many of a table's latest hands the rotation rules look back at (two consecutive
# hands, a TPPP's last hand): a few more than they need.
HISTORY_HANDS = 8


# --- Players ----------------------------------------------------------------------------


def player_list(*, filters: Filters = None) -> QuerySet[Player]:
    return filter_queryset(PlayerFilter, filters, Player.objects.select_related("tppp"))


def player_get(*, player_id: int) -> Player:
    return Player.objects.select_related("tppp").get(pk=player_id)


# --- Tables, seats and games ------------------------------------------------------------


def _active_seatings() -> QuerySet[Seating]:
    return Seating.objects.filter(left_at__isnull=True).select_related("player").order_by("seat")


def seated(table: Table) -> list[Seating]:
    """Who sits at ``table`` now, seat by seat."""
    return list(_active_seatings().filter(table=table))


def open_game(table: Table) -> Game | None:
    return Game.objects.filter(table=table, ended_at__isnull=True).first()


def active_round(table: Table) -> Round | None:
    """The round in play at ``table`` (at most one), with its player-dealer."""
    return (
        Round.objects.filter(table=table, state__in=ACTIVE_ROUND_STATES)
        .select_related("player_dealer")
        .first()
    )


def table_list() -> QuerySet[Table]:
    """Every table with who closed it, its seated players, open game and round in play (four
    queries)."""
    return Table.objects.select_related("closed_by").prefetch_related(
        Prefetch("seatings", queryset=_active_seatings(), to_attr="seated"),
        Prefetch("games", queryset=Game.objects.filter(ended_at__isnull=True), to_attr="open"),
        Prefetch(
            "rounds",
            queryset=Round.objects.filter(state__in=ACTIVE_ROUND_STATES).select_related(
                "player_dealer"
            ),
            to_attr="in_play",
        ),
    )


def floor_versions() -> list[tuple[int, int]]:
    """Each table's id and version (bumped by every write that holds its lock), in the floor
    map's order: one query, what a poll of the floor map reads before anything else."""
    return list(Table.objects.order_by("name").values_list("pk", "version"))


def table_get(*, table_id: int) -> Table:
    return Table.objects.get(pk=table_id)


def table_option_change_list(*, table_id: int) -> QuerySet[TableOptionChange]:
    table = Table.objects.only("id").get(pk=table_id)
    return TableOptionChange.objects.filter(table=table).select_related("changed_by")


def seating_list(*, filters: Filters = None) -> QuerySet[Seating]:
    queryset = Seating.objects.select_related("player", "seated_by", "unseated_by")
    return filter_queryset(SeatingFilter, filters, queryset)


def seating_get(*, seating_id: int) -> Seating:
    return Seating.objects.select_related("player", "seated_by", "unseated_by").get(pk=seating_id)


def game_list(*, filters: Filters = None) -> QuerySet[Game]:
    queryset = Game.objects.select_related("opened_by", "ended_by")
    return filter_queryset(GameFilter, filters, queryset)


def game_get(*, game_id: int) -> Game:
    return Game.objects.select_related("opened_by", "ended_by").get(pk=game_id)


# --- The button's history ---------------------------------------------------------------


def banked_hands(rounds: QuerySet[Round]) -> list[BankedHand]:
    """``rounds`` as the rotation rules see them, in the queryset's order (one query)."""
    return [BankedHand(*row) for row in rounds.values_list(*BANKED_HAND_FIELDS)]


def banked_history(table: Table, *, last: int = HISTORY_HANDS) -> list[BankedHand]:
    """The table's most recent hands, oldest first (voided ones too: their player-dealer
    held the position)."""
    return banked_hands(Round.objects.filter(table=table).order_by("-number")[:last])[::-1]


def game_history_since(game: Game, since) -> list[BankedHand]:
    return banked_hands(Round.objects.filter(game=game, started_at__gt=since).order_by("number"))


# --- The button -------------------------------------------------------------------------


def _offers() -> QuerySet[ButtonOffer]:
    return ButtonOffer.objects.select_related("player", "offered_by", "answered_by")


def offer_round_list(*, filters: Filters = None) -> QuerySet[OfferRound]:
    queryset = OfferRound.objects.select_related("round", "started_by").prefetch_related(
        Prefetch("offers", queryset=_offers())
    )
    return filter_queryset(OfferRoundFilter, filters, queryset)


def button_offer_get(*, offer_id: int) -> ButtonOffer:
    return _offers().select_related("offer_round").get(pk=offer_id)


def _as_player(seating: Seating) -> SeatedPlayer:
    return SeatedPlayer(seating.seat, seating.player_id, seating.is_tppp)


@dataclass(frozen=True)
class NextOffer:
    """What offering the button now does: the seats the rules pass over (each with why),
    then the seat offered, or None when no one is left (the offer round is exhausted)."""

    start_seat: int  # where the offer round starts (the open one's, or a new one's)
    passed_over: tuple[tuple[Seating, Breach], ...]
    seating: Seating | None


@dataclass(frozen=True)
class ButtonState:
    """Where the player-dealer button stands at a table, and what may happen next.

    ``state`` is one of the ``State`` members of the button (``no_game``, ``game_ended``,
    ``round_in_play``, ``no_players``, ``offer_needed``, ``offering``, ``offer_pending``,
    ``accepted``, ``no_player_dealer``); ``status`` says it in the floor's words.
    """

    table: Table
    state: State
    status: str
    game: Game | None
    active_round: Round | None
    offer_round: OfferRound | None  # the offers for the next hand, or for the hand in play
    seated: list[Seating]
    policy: RotationPolicy
    history: list[BankedHand] = field(default_factory=list)  # the table's latest (a game open)
    latest: LatestRound | None = None  # the table's latest round (a game open)
    # With ``button_state(moment=...)``: the open game's hands in the rotation window before it.
    window_history: list[BankedHand] | None = None
    next_offer: NextOffer | None = None  # set when offering the button is allowed
    keeper: Seating | None = None  # set when the last player-dealer may keep the button

    @property
    def keeper_seat(self) -> int | None:
        return None if self.keeper is None else self.keeper.seat

    @property
    def pending(self) -> ButtonOffer | None:
        if self.state is not State.OFFER_PENDING:
            return None
        return next(o for o in self.offer_round.offers.all() if o.answer == OfferAnswer.PENDING)

    @property
    def accepted(self) -> ButtonOffer | None:
        if self.state is not State.ACCEPTED:
            return None
        return next(o for o in self.offer_round.offers.all() if o.answer == OfferAnswer.ACCEPTED)

    @property
    def may_offer(self) -> bool:
        return self.next_offer is not None

    @property
    def may_keep(self) -> bool:
        return self.keeper is not None

    @property
    def may_start(self) -> bool:
        return self.state is State.ACCEPTED

    # The refusals, worded once for the API, the console and the command line.

    def _between_hands(self) -> None:
        if self.game is None:
            raise no_game_error(self.table)
        if self.active_round is not None:
            raise round_in_play_error(self.active_round, action="the button moves")

    def require_offer(self) -> NextOffer:
        self._between_hands()
        if self.state is State.ACCEPTED:
            raise StateError(
                f"seat {self.accepted.seat} has accepted the player-dealer position; "
                "start the round",
                state=State.ACCEPTED,
                rule=Rule.OFFER_ROUND,
            )
        if self.state is State.OFFER_PENDING:
            raise StateError(
                f"seat {self.pending.seat} has not yet answered the offer",
                state=State.OFFER_PENDING,
                rule=Rule.OFFER_ROUND,
            )
        return self.next_offer

    def require_keeper(self) -> Seating:
        self._between_hands()
        if self.policy.offer_every_hand:
            raise StateError(
                "this table offers the position before every hand; keeping it without offers "
                "is not allowed (rotation policy: offer every hand)",
                state=State.OFFER_EVERY_HAND,
                rule=Rule.OFFER_EVERY_HAND,
            )
        if self.keeper is None:
            raise StateError(
                "the last player-dealer cannot keep the position without an offer round: only "
                "for a second consecutive hand, while seated, within every limit, and only "
                "before an offer round for the next hand has begun",
                state=State.OFFERS_REQUIRED,
                rule=Rule.KEEP,
            )
        return self.keeper

    def require_start(self) -> ButtonOffer:
        self._between_hands()
        if self.state is State.NO_PLAYER_DEALER:
            raise StateError(
                NO_PLAYER_DEALER_STATUS, state=State.NO_PLAYER_DEALER, rule=Rule.NO_PLAYER_DEALER
            )
        if self.state is not State.ACCEPTED:
            raise StateError(
                "no one has accepted the player-dealer position for this hand: offer the button "
                "clockwise first",
                state=State.NO_PLAYER_DEALER,
                rule=Rule.OFFER_ROUND,
            )
        return self.accepted


def _offer_round_for_next_hand(game: Game) -> OfferRound | None:
    """The game's latest offer round, unless its hand has been played (then the next hand
    needs a new one)."""
    offer_round = (
        OfferRound.objects.filter(game=game)
        .select_related("round", "started_by")
        .prefetch_related(Prefetch("offers", queryset=_offers()))
        .order_by("-started_at", "-id")
        .first()
    )
    played = getattr(offer_round, "round", None) if offer_round is not None else None
    if played is not None and played.state not in ACTIVE_ROUND_STATES:
        return None
    return offer_round


def _next_offer(
    offer_round: OfferRound | None,
    start_seat: int,
    sitting: list[Seating],
    history: list[BankedHand],
    policy: RotationPolicy,
) -> NextOffer:
    """The seats clockwise from the offer round's start, less those already offered in it:
    the ineligible ones are passed over (with the rule), the first eligible one is offered."""
    if offer_round is not None and offer_round.status == OfferRoundStatus.OPEN:
        start_seat = offer_round.start_seat
        asked = {o.player_id for o in offer_round.offers.all()}
    else:
        asked = set()
    by_seat = {s.seat: s for s in sitting}
    passed = []
    for seat in offer_order(by_seat, start_seat, seat_count=policy.seat_count):
        seating = by_seat[seat]
        if seating.player_id in asked:
            continue
        breach = ineligibility(_as_player(seating), history, policy)
        if breach is None:
            return NextOffer(start_seat, tuple(passed), seating)
        passed.append((seating, breach))
    return NextOffer(start_seat, tuple(passed), None)


class LatestRound(NamedTuple):
    """A table's latest round, as the next one needs it: its number and its deck."""

    number: int
    deck: str


@dataclass(frozen=True)
class ButtonReads:
    """Everything ``button_state`` decides on, as read from the database."""

    seated: list[Seating]
    game: Game | None  # the open game
    last_game: Game | None = None  # with no game open: the table's latest game
    # With a game open:
    active_round: Round | None = None  # with its player-dealer
    offer_round: OfferRound | None = None  # the game's latest, unless its hand was played
    history: list[BankedHand] = field(default_factory=list)  # the table's latest hands
    last: BankedHand | None = None  # the open game's latest hand
    latest: LatestRound | None = None  # the table's latest round
    window: list[BankedHand] | None = None  # with ``since``: the game's hands started after it


def _read_with_orm(table: Table, since: datetime | None) -> ButtonReads:
    """``ButtonReads`` through the ORM, seven queries (eight with ``since``): the reader on
    databases other than PostgreSQL, and the reference the one-statement reader is proved
    against."""
    sitting = seated(table)
    game = open_game(table)
    if game is None:
        last_game = Game.objects.filter(table=table).order_by("-opened_at", "-id").first()
        return ButtonReads(sitting, None, last_game=last_game)
    rows = Round.objects.filter(table=table).order_by("-number")
    rows = list(rows.values_list(*BANKED_HAND_FIELDS, "number", "deck")[:HISTORY_HANDS])[::-1]
    last = Round.objects.filter(game=game).order_by("-number").first()
    return ButtonReads(
        sitting,
        game,
        active_round=active_round(table),
        offer_round=_offer_round_for_next_hand(game),
        history=[BankedHand(*row[:-2]) for row in rows],
        last=None if last is None else last.banked_hand(),
        latest=LatestRound(*rows[-1][-2:]) if rows else None,
        window=None if since is None else game_history_since(game, since),
    )


# A named hot-path reader (plain SQL, PostgreSQL; the floor's SQL home: ``tables.sql.
# button_reads``): what ``_read_with_orm`` reads, in one statement instead of seven or eight,
# each part a JSON column, turned into the instances the ORM would load (``cardroom.sql.
# load``), related ones cached and the offers prefetched as the ORM does. Proved to read
# exactly what the ORM reads, over the button's states, by tests/tables/selectors/
# test_button_reads.py.


@cache
def _loaders() -> SimpleNamespace:
    """The row loaders (built once, the models being ready)."""
    user = ButtonOffer._meta.get_field("offered_by").related_model
    return SimpleNamespace(
        seating=row_loader(Seating),
        player=row_loader(Player),
        game=row_loader(Game),
        round=row_loader(Round),
        offer_round=row_loader(OfferRound),
        offer=row_loader(ButtonOffer),
        user=row_loader(user),
    )


def _cache(instance: models.Model, name: str, related: models.Model | None) -> None:
    """``instance.name`` set as ``select_related`` sets it (no query when read)."""
    instance._meta.get_field(name).set_cached_value(instance, related)


def _read_in_one_statement(table: Table, since: datetime | None) -> ButtonReads:
    load = _loaders()
    seated_rows, game_row, last_game_row, active_row, offer_row, hand_rows = sql.button_reads(
        table.pk, since, hands=HISTORY_HANDS
    )
    sitting = []
    for seating_row, player_row in seated_rows or ():
        seating = load.seating(seating_row)
        _cache(seating, "player", load.player(player_row))
        sitting.append(seating)
    if game_row is None:
        last_game = None if last_game_row is None else load.game(last_game_row)
        return ButtonReads(sitting, None, last_game=last_game)
    game = load.game(game_row)
    active = None
    if active_row is not None:
        active = load.round(active_row[0])
        _cache(active, "player_dealer", load.player(active_row[1]))
    hands = [
        (BankedHand(row[0], row[1], datetime.fromisoformat(row[2]), *row[3:7]), row[7:])
        for row in hand_rows or ()
    ]
    history = [hand for hand, _ in hands[-HISTORY_HANDS:]]
    return ButtonReads(
        sitting,
        game,
        active_round=active,
        offer_round=_loaded_offer_round(offer_row, active, load),
        history=history,
        last=history[-1] if history and history[-1].game_id == game.pk else None,
        latest=LatestRound(*hands[-1][1][:2]) if hands else None,
        window=None if since is None else [hand for hand, (*_, within) in hands if within],
    )


def _loaded_offer_round(
    row: list | None, active: Round | None, load: SimpleNamespace
) -> OfferRound | None:
    """The open game's latest offer round with its starter, hand and offers (each with its
    player and staff), as ``_offer_round_for_next_hand`` reads it: None if its hand was
    played."""
    if row is None:
        return None
    offer_round_row, started_by_row, played_id, played_state, offer_rows = row
    if played_id is not None and played_state not in ACTIVE_ROUND_STATES:
        return None
    offer_round = load.offer_round(offer_round_row)
    _cache(offer_round, "started_by", load.user(started_by_row))
    played = None
    if played_id is not None:  # in play: the table's round in play (only one at a time)
        if active is not None and active.pk == played_id:
            played = active
        else:  # a safeguard: the offer round's hand in play is the table's round in play
            played = Round.objects.get(pk=played_id)
        _cache(played, "offer_round", offer_round)
    _cache(offer_round, "round", played)
    offers = []
    for offer_row, player_row, offered_by_row, answered_by_row in offer_rows or ():
        offer = load.offer(offer_row)
        _cache(offer, "player", load.player(player_row))
        _cache(offer, "offered_by", load.user(offered_by_row))
        answered_by = None if answered_by_row is None else load.user(answered_by_row)
        _cache(offer, "answered_by", answered_by)
        _cache(offer, "offer_round", offer_round)
        offers.append(offer)
    prefetched = offer_round.offers.get_queryset()
    prefetched._result_cache = offers
    prefetched._prefetch_done = True
    offer_round._prefetched_objects_cache = {"offers": prefetched}
    return offer_round


def button_state(table: Table, *, moment: datetime | None = None) -> ButtonState:
    """Where the button stands at ``table`` and what may happen next: one statement on
    PostgreSQL, seven queries elsewhere.

    A service calls it under the table's lock and acts on it; a page calls it to show it.
    ``moment``: a hand would start then, so the open game's hands within the rotation window
    before it are read too (``window_history``: the 40-minute rule).
    """
    policy = table_options.rotation_policy(table_options.snapshot(table))
    window = policy.window
    since = None if moment is None or window is None else moment - window
    read = _read_in_one_statement if connection.vendor == "postgresql" else _read_with_orm
    return _decided(table, policy, read(table, since))


def _decided(table: Table, policy: RotationPolicy, reads: ButtonReads) -> ButtonState:
    sitting, game = reads.seated, reads.game
    common = {"table": table, "seated": sitting, "policy": policy}
    if game is None:
        last = reads.last_game
        if last is not None and last.end_reason == GameEndReason.ROTATION_WINDOW:
            status = f"the game ended: {last.end_detail}; a floor supervisor may open a new game"
            return ButtonState(
                state=State.GAME_ENDED, status=status, game=None, active_round=None,
                offer_round=None, **common,
            )  # fmt: skip
        return ButtonState(
            state=State.NO_GAME, status="no game is open: a floor supervisor opens one",
            game=None, active_round=None, offer_round=None, **common,
        )  # fmt: skip
    active, offer_round, history = reads.active_round, reads.offer_round, reads.history
    context = {
        **common, "game": game, "active_round": active, "offer_round": offer_round,
        "history": history, "latest": reads.latest, "window_history": reads.window,
    }  # fmt: skip
    if active is not None:
        status = (
            f"round {active.number} is {active.get_state_display().lower()}; "
            f"seat {active.player_dealer_seat} holds the player-dealer position"
        )
        return ButtonState(state=State.ROUND_IN_PLAY, status=status, **context)
    offers = list(offer_round.offers.all()) if offer_round is not None else []
    if offer_round is not None and offer_round.status == OfferRoundStatus.ACCEPTED:
        accepted = next(o for o in offers if o.answer == OfferAnswer.ACCEPTED)
        status = (
            f"seat {accepted.seat} keeps the position for a second hand; start the round"
            if offer_round.kept_without_offers
            else f"seat {accepted.seat} accepted; start the round"
        )
        return ButtonState(state=State.ACCEPTED, status=status, **context)
    pending = next((o for o in offers if o.answer == OfferAnswer.PENDING), None)
    if pending is not None:
        status = (
            f"seat {pending.seat} is being offered the player-dealer position; record the answer"
        )
        return ButtonState(state=State.OFFER_PENDING, status=status, **context)
    last = reads.last
    start = offers_start_at(
        last.seat if last else None, game.first_offer_seat, seat_count=policy.seat_count
    )
    next_offer = _next_offer(offer_round, start, sitting, history, policy)
    context["next_offer"] = next_offer
    if offer_round is not None and offer_round.status == OfferRoundStatus.OPEN:
        status = "offer the button to the next seat clockwise"
        return ButtonState(state=State.OFFERING, status=status, **context)
    if offer_round is not None and offer_round.status == OfferRoundStatus.EXHAUSTED:
        return ButtonState(state=State.NO_PLAYER_DEALER, status=NO_PLAYER_DEALER_STATUS, **context)
    if not sitting:
        status = "no player is seated: seat players, then offer the button"
        return ButtonState(state=State.NO_PLAYERS, status=status, **context)
    status = f"offer the button: offers start at seat {start} and go clockwise"
    if offer_round is not None:  # cancelled: an acceptance no longer valid, or its player left
        status = f"the last offer round was cancelled ({offer_round.detail}); {status}"
    kept = keeper(
        last,
        [_as_player(s) for s in sitting],
        history,
        policy,
        offers_begun=offer_round is not None,
    )
    keeping = None if kept is None else next(s for s in sitting if s.seat == kept.seat)
    if keeping is not None:
        status += f", or seat {keeping.seat} may keep it for a second consecutive hand"
    return ButtonState(state=State.OFFER_NEEDED, status=status, keeper=keeping, **context)


@dataclass(frozen=True)
class TableFloor:
    """A table as the floor sees it now: who sits where, the game, the round, the button,
    and the open game's counters."""

    button: ButtonState
    counters: Counters | None = None

    @property
    def table(self) -> Table:
        return self.button.table

    @property
    def seated(self) -> list[Seating]:
        return self.button.seated

    @property
    def game(self) -> Game | None:
        return self.button.game

    @property
    def active_round(self) -> Round | None:
        return self.button.active_round

    @property
    def offer_round(self) -> OfferRound | None:
        return self.button.offer_round

    @property
    def button_state(self) -> str:
        return self.button.state.value

    @property
    def button_status(self) -> str:
        return self.button.status

    @property
    def keeper_seat(self) -> int | None:
        return self.button.keeper_seat


def table_floor(*, table_id: int, with_counters: bool = False) -> TableFloor:
    """The table now; ``with_counters``: its open game's counters too (six more queries)."""
    counters = table_floor_counters(table_id=table_id, moment=now()) if with_counters else None
    return TableFloor(button_state(table_get(table_id=table_id)), counters=counters)


# --- Floor counters -------------------------------------------------------------------------


def counter_reach(tables: Sequence[Table]) -> timedelta:
    """How far back the counters look: the last hour, or the longest 40-minute-rule window."""
    windows = [table_options.rotation_policy(table_options.snapshot(t)).window for t in tables]
    return max([HOUR, *(w for w in windows if w)])


def recent_banked_hands(games: Sequence[Game], since: datetime) -> dict[int, list[BankedHand]]:
    """The hands of ``games`` started after ``since``, by game, in order (one query)."""
    recent: dict[int, list[BankedHand]] = {}
    rows = (
        Round.objects.filter(game__in=games, started_at__gt=since)
        .order_by("number")
        .values_list(*BANKED_HAND_FIELDS)
    )
    for values in rows:
        hand = BankedHand(*values)
        recent.setdefault(hand.game_id, []).append(hand)
    return recent


def floor_counters(
    tables: Sequence[Table],
    moment: datetime,
    recent: Mapping[int, list[BankedHand]] | None = None,
) -> dict[int, Counters]:
    """The counters of each table's open game (``tables.rules.counters``), by table id, in
    two queries whatever the number of tables (one if ``recent``, from
    ``recent_banked_hands`` since ``counter_reach``, is given): ``tables`` come from
    ``table_list`` (their open game and seated players prefetched)."""
    games = {t.pk: t.open[0] for t in tables if t.open}
    if not games:
        return {}
    if recent is None:
        recent = recent_banked_hands(list(games.values()), moment - counter_reach(tables))
    totals = {
        row["game"]: (row["hands"], row["latest"])
        for row in Round.objects.filter(game__in=games.values())
        .values("game")
        .annotate(hands=Count("pk"), latest=Max("started_at"))
    }
    counted = {}
    for table in tables:
        game = games.get(table.pk)
        if game is None:
            continue
        history = recent.get(game.pk, [])
        hands, latest = totals.get(game.pk, (0, None))
        policy = table_options.rotation_policy(table_options.snapshot(table))
        counted[table.pk] = table_counters(
            moment,
            game.opened_at,
            [h.started_at for h in history],
            {s.seat: s.sat_at for s in table.seated},
            hands=hands,
            latest=latest,
            window_limit=window_limit_at(game.opened_at, moment, history, policy),
        )
    return counted


def table_floor_counters(*, table_id: int, moment: datetime) -> Counters | None:
    """One table's counters (``floor_counters``), or None with no game open."""
    return floor_counters(list(table_list().filter(pk=table_id)), moment).get(table_id)


# --- Waitlists and seat holds (docs/rules.md §3.6) ---------------------------------------


def waitlist_policy(row: Waitlist | WaitlistPolicyChange) -> waitlist_rules.Policy:
    """The policy a list row (in force now) or one of its policy changes records."""
    return waitlist_rules.Policy(
        response=timedelta(seconds=row.response_seconds),
        call_in=timedelta(seconds=row.call_in_seconds),
        pass_over=waitlist_rules.PassOver(row.pass_over),
    )


def rule_event(event: WaitlistEvent) -> waitlist_rules.Event:
    return waitlist_rules.Event(
        kind=waitlist_rules.Kind(event.kind),
        player=event.player_id,
        at=event.at,
        by_phone=event.by_phone,
        table=event.table_id,
        seat=event.seat,
        skipped=tuple(event.skipped or ()),
    )


def replay_waitlist(
    events: Sequence[WaitlistEvent], changes: Sequence[WaitlistPolicyChange]
) -> waitlist_rules.Waitlist:
    """What ``events`` make of a list, each applied under the policy in force when it was
    recorded (``changes`` in the order they were made)."""
    state = waitlist_rules.Waitlist()
    policies = [(change.after_event or 0, waitlist_policy(change)) for change in changes]
    index, policy = 0, waitlist_rules.Policy()
    for event in events:
        while index < len(policies) and policies[index][0] < event.pk:
            policy = policies[index][1]
            index += 1
        state = waitlist_rules.apply(state, rule_event(event), policy)
    return state


@dataclass(frozen=True)
class OpenSeat:
    """A seat a list's player may be called to: empty, or held past its time."""

    table: Table
    seat: int
    hold: SeatHold | None = None  # run out: the absent player is picked up first
    called: int | None = None  # the player called for it, if any


@dataclass(frozen=True)
class ListView:
    """A list as it is now: its row and policy, the recorded state, what the clock has made
    due and not yet recorded (``due``), the state with it (``now``), the players, the seats
    it may fill, and who would be called to each."""

    waitlist: Waitlist
    policy: waitlist_rules.Policy
    recorded: waitlist_rules.Waitlist
    due: tuple[waitlist_rules.Event, ...]
    now: waitlist_rules.Waitlist
    players: Mapping[int, Player]
    tables: tuple[Table, ...] = ()
    open_seats: tuple[OpenSeat, ...] = ()
    seated_at_stakes: frozenset[int] = frozenset()

    @property
    def entries(self) -> tuple[waitlist_rules.Entry, ...]:
        return self.now.entries

    def player(self, player_id: int) -> Player:
        return self.players[player_id]


def _list_rows(ids: Sequence[int] | None) -> list[Waitlist]:
    rows = Waitlist.objects.all()
    if ids is not None:
        rows = rows.filter(pk__in=ids)
    return list(rows.order_by("minimum_cents", "maximum_cents", "game", "id"))


def waitlist_views(
    *, ids: Sequence[int] | None = None, moment: datetime | None = None, seats: bool = True
) -> list[ListView]:
    """Every list (or those of ``ids``) as it is at ``moment``: a fixed number of queries
    whatever the number of lists, players and tables (each list replays its events from the
    last time it was empty)."""
    moment = moment or now()
    rows = _list_rows(ids)
    if not rows:
        return []
    events: dict[int, list[WaitlistEvent]] = {row.pk: [] for row in rows}
    changes: dict[int, list[WaitlistPolicyChange]] = {row.pk: [] for row in rows}
    since = Q()
    for row in rows:
        since |= Q(waitlist_id=row.pk, id__gt=row.empty_after_event or 0)
    for event in WaitlistEvent.objects.filter(since).order_by("at", "id"):
        events[event.waitlist_id].append(event)
    for change in WaitlistPolicyChange.objects.filter(waitlist__in=rows).order_by("at", "id"):
        changes[change.waitlist_id].append(change)
    states = {row.pk: replay_waitlist(events[row.pk], changes[row.pk]) for row in rows}
    player_ids = {e.player for state in states.values() for e in state.entries}
    players = Player.objects.in_bulk(player_ids)
    open_seats: dict[Stakes, list[OpenSeat]] = {}
    tables: dict[Stakes, list[Table]] = {}
    seated_at: dict[Stakes, set[int]] = {}
    if seats:
        tables, open_seats, seated_at = _seats_by_stakes(moment)
    views = []
    for row in rows:
        policy = waitlist_policy(row)
        recorded = states[row.pk]
        due = tuple(waitlist_rules.due(recorded, moment, policy))
        current = recorded
        for event in due:
            current = waitlist_rules.apply(current, event, policy)
        stakes = (row.game, row.minimum_cents, row.maximum_cents)
        calls = {(e.call.table, e.call.seat): e.player for e in current.entries if e.call}
        views.append(
            ListView(
                waitlist=row,
                policy=policy,
                recorded=recorded,
                due=due,
                now=current,
                players=players,
                tables=tuple(tables.get(stakes, ())),
                open_seats=tuple(
                    OpenSeat(s.table, s.seat, s.hold, calls.get((s.table.pk, s.seat)))
                    for s in open_seats.get(stakes, ())
                ),
                seated_at_stakes=frozenset(seated_at.get(stakes, ())),
            )
        )
    return views


def waitlist_view(*, waitlist_id: int, moment: datetime | None = None) -> ListView:
    views = waitlist_views(ids=[waitlist_id], moment=moment)
    if not views:
        raise Waitlist.DoesNotExist(f"no waitlist {waitlist_id}")
    return views[0]


# A list's game and stakes, and a table's: (game, minimum, maximum). A list fills only the
# tables of its own game at its limits (docs/rules.md §3.6).
Stakes = tuple[str, int, int]


def stakes_of(table: Table) -> Stakes:
    return (table.game, table.minimum_cents, table.maximum_cents)


def stakes_of_list(row: Waitlist) -> Stakes:
    return (row.game, row.minimum_cents, row.maximum_cents)


def _seats_by_stakes(moment: datetime):
    """Open tables by game and stakes, the seats a list may fill at each, and who sits at
    each game and stakes (three queries)."""
    tables: dict[Stakes, list[Table]] = {}
    for table in Table.objects.filter(closed_at__isnull=True).order_by("name"):
        tables.setdefault(stakes_of(table), []).append(table)
    by_id = {t.pk: t for ts in tables.values() for t in ts}
    taken: dict[int, dict[int, int]] = {}
    seated_at: dict[Stakes, set[int]] = {}
    for seat in Seating.objects.filter(left_at__isnull=True, table__in=by_id):
        taken.setdefault(seat.table_id, {})[seat.seat] = seat.player_id
        seated_at.setdefault(stakes_of(by_id[seat.table_id]), set()).add(seat.player_id)
    holds = {
        (h.table_id, h.seat): h
        for h in SeatHold.objects.filter(ended_at__isnull=True, table__in=by_id)
    }
    open_seats: dict[Stakes, list[OpenSeat]] = {}
    for stakes, stake_tables in tables.items():
        for table in stake_tables:
            for seat in seat_numbers(table.seat_count):
                hold = holds.get((table.pk, seat))
                if seat in taken.get(table.pk, {}) and not (hold and hold.until <= moment):
                    continue
                open_seats.setdefault(stakes, []).append(OpenSeat(table, seat, hold))
    return tables, open_seats, seated_at


def seat_holds(*, table_ids: Sequence[int] | None = None) -> list[SeatHold]:
    """The holds in force (not ended), run out or not."""
    holds = SeatHold.objects.filter(ended_at__isnull=True).select_related("player", "table")
    if table_ids is not None:
        holds = holds.filter(table_id__in=table_ids)
    return list(holds.order_by("table__name", "seat"))


def waitlist_event_list(*, waitlist_id: int) -> QuerySet[WaitlistEvent]:
    """A list's whole history, in the order it was recorded."""
    return (
        WaitlistEvent.objects.filter(waitlist_id=waitlist_id)
        .select_related("player", "by", "table")
        .order_by("at", "id")
    )


# --- The table board (a TV in the room: stakes, seats, lists, calls; no full names) ------


@dataclass(frozen=True)
class BoardTable:
    name: str
    seated: int
    open_seats: int
    game_open: bool


@dataclass(frozen=True)
class BoardCall:
    name: str  # the board name ("Maria G."), never the full name
    table: str
    seat: int
    answer_by: datetime


@dataclass(frozen=True)
class BoardStakes:
    minimum_cents: int
    maximum_cents: int
    game: str = catalog.DEFAULT_GAME
    tables: tuple[BoardTable, ...] = ()
    has_list: bool = False
    waiting: tuple[str, ...] = ()  # board names, in list order
    calls: tuple[BoardCall, ...] = ()
    # When the clock alone next changes the list (a call's answer-by, a call-in's lapse):
    # a board drawn before then is stale from then on.
    changes_at: datetime | None = None

    @property
    def label(self) -> str:
        """The game at its stakes: "$20.00 - $2,000.00 EZ Baccarat"."""
        return catalog.at_stakes(self.minimum_cents, self.maximum_cents, self.game)

    @property
    def stakes(self) -> str:
        return dollar_range(self.minimum_cents, self.maximum_cents)

    @property
    def game_name(self) -> str:
        return catalog.listing(self.game).name


@dataclass(frozen=True)
class BoardRoom:
    """The board's first read (``board_room``): the open tables in the board's order, as it
    shows them (with their ids and stakes); and the change markers of what it reads next.

    ``lists``: the sum, over the lists, of the id of each list's last event (in the order a
    list is replayed: time, then id) and of its last policy change. Every write of a list
    holds the list's lock and records an event (at or after the list's last in time) or a
    policy change, so every write committed raises the sum, even when two lists' writes
    commit out of id order; a new list comes with its first policy change. ``names``: the
    last correction of a player's identification (the board shows the players' names).
    Both None when no table is open (they are read along with the tables): the board is
    then drawn every time. What they miss (a name changed in the admin, two corrections
    committed out of id order) the board's slice of time bounds (``console.views.board``).
    """

    # (id, name, game, minimum, maximum, seats, players seated, game open)
    tables: tuple[tuple[int, str, str, int, int, int, int, bool], ...] = ()
    lists: int | None = None
    names: int | None = None

    @property
    def version(self) -> tuple | None:
        """Equal as long as nothing the board shows has changed but the clock; None when
        unknown."""
        if self.lists is None:
            return None
        return (self.tables, self.lists, self.names)


def _last_id(model, *order: str) -> Subquery:
    """The id of the last ``model`` row (in ``order``) of the outer query's list."""
    rows = model.objects.filter(waitlist=OuterRef("pk")).order_by(*order).values("pk")
    return Subquery(rows[:1])


def _board_room_query() -> QuerySet:
    """The open tables (id, name, game, stakes, seats, players seated, game open) in the
    board's order,
    each row with the lists' and the names' change markers (``BoardRoom``)."""
    big = BigIntegerField()
    marks = Waitlist.objects.order_by().annotate(
        mark=ExpressionWrapper(
            # In the index of a list's events (list, time, id): read from its end.
            Coalesce(_last_id(WaitlistEvent, "-at", "-id"), 0)
            + Coalesce(_last_id(WaitlistPolicyChange, "-id"), 0),
            output_field=big,
        ),
        everything=Value(1),
    )
    seated = (
        Seating.objects.filter(table=OuterRef("pk"), left_at__isnull=True)
        .order_by()
        .values("table")
        .annotate(count=Count("pk"))
        .values("count")
    )
    return (
        Table.objects.filter(closed_at__isnull=True)
        .annotate(
            seated_count=Coalesce(Subquery(seated), 0),
            game_open=Exists(Game.objects.filter(table=OuterRef("pk"), ended_at__isnull=True)),
            lists_mark=Coalesce(
                Subquery(marks.values("everything").annotate(sum=Sum("mark")).values("sum")),
                0,
                output_field=big,
            ),
            names_mark=Coalesce(
                Subquery(PlayerIdentificationChange.objects.order_by("-pk").values("pk")[:1]),
                0,
                output_field=big,
            ),
        )
        .order_by("minimum_cents", "maximum_cents", "game", "name")
        .values_list(
            "pk",
            "name",
            "game",
            "minimum_cents",
            "maximum_cents",
            "seat_count",
            "seated_count",
            "game_open",
            "lists_mark",
            "names_mark",
        )
    )


@cache
def _board_room_statement(alias: str, vendor: str) -> tuple[str, tuple]:
    """``board_room``'s statement as the ORM writes it, written once per database: at 250
    tables building and compiling it cost more than the database takes to answer it."""
    return _board_room_query().query.get_compiler(using=alias).as_sql()


def board_room() -> BoardRoom:
    """The open tables as the board shows them and the lists' and names' change markers
    (``BoardRoom``): one statement, each table's players and open game read in the partial
    indexes of the seats taken and the games open, the markers at the ends of indexes."""
    sql, params = _board_room_statement(connection.alias, connection.vendor)
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        rows = cursor.fetchall()
    if not rows:
        return BoardRoom()
    tables = tuple(
        (pk, name, game, minimum, maximum, seats, seated, bool(game_open))
        for pk, name, game, minimum, maximum, seats, seated, game_open, _, _ in rows
    )
    return BoardRoom(tables=tables, lists=int(rows[0][-2]), names=int(rows[0][-1]))


def _changes_at(view: ListView) -> datetime | None:
    deadlines = [
        moment
        for entry in view.now.entries
        for moment in (entry.call.answer_by if entry.call else None, entry.lapses_at(view.policy))
        if moment is not None
    ]
    return min(deadlines, default=None)


def table_board(
    *, moment: datetime | None = None, room: BoardRoom | None = None
) -> list[BoardStakes]:
    """What the room's table board shows, by game and stakes (the limits, then the game):
    the open tables (seated players, open
    seats, game running), each list's players in order by their board names, and who is
    being called to which seat. A fixed number of queries whatever the size: the tables
    (``room``, read here unless given: read before the lists, so the board is never older
    than the room's markers), then the lists' own."""
    moment = moment or now()
    room = room if room is not None else board_room()
    views = waitlist_views(moment=moment, seats=False)
    by_stakes: dict[Stakes, list[BoardTable]] = {}
    names: dict[int, str] = {}
    for pk, name, game, minimum, maximum, seats, seated, game_open in room.tables:
        names[pk] = name
        by_stakes.setdefault((game, minimum, maximum), []).append(
            BoardTable(name, seated, max(seats - seated, 0), game_open)
        )
    lists = {stakes_of_list(v.waitlist): v for v in views}
    board = []
    for stakes in sorted(set(by_stakes) | set(lists), key=lambda s: (s[1], s[2], s[0])):
        view = lists.get(stakes)
        entries = view.now.entries if view else ()
        board.append(
            BoardStakes(
                game=stakes[0],
                minimum_cents=stakes[1],
                maximum_cents=stakes[2],
                tables=tuple(by_stakes.get(stakes, ())),
                has_list=view is not None,
                waiting=tuple(view.player(e.player).board_name for e in entries),
                calls=tuple(
                    BoardCall(
                        name=view.player(e.player).board_name,
                        table=names.get(e.call.table, ""),
                        seat=e.call.seat,
                        answer_by=e.call.answer_by,
                    )
                    for e in entries
                    if e.call is not None
                ),
                changes_at=_changes_at(view) if view else None,
            )
        )
    return board


# --- A patron's own sign-in (docs/rules.md §3.8) ----------------------------------------------


def patron_player(user) -> Player | None:
    """The player whose own sign-in ``user`` is (``tables.models.PatronSignIn``); None for
    staff, a signed-out visitor, an inactive account and everyone else."""
    if user is None or not user.is_authenticated or user.is_staff or not user.is_active:
        return None
    link = PatronSignIn.objects.select_related("player").filter(user=user).first()
    return link.player if link else None


# --- Must-move tables and table changes (docs/rules.md §3.6) ------------------------------------
# Kept apart from the waitlists' reads above: the lines of seated players offered a seat before
# a list (``tables.rules.seat_requests``).


@dataclass(frozen=True)
class SeatOffer:
    """An open seat offered first to seated players: the must-move line, then the table
    changes, in order (those who passed this seat since it opened left out)."""

    table: Table
    seat: int
    movers: tuple[seat_rules.Mover, ...]

    @property
    def first(self) -> seat_rules.Mover:
        return self.movers[0]


@dataclass(frozen=True)
class SeatRequests:
    """The must-move links in force with their players in the order they move, the open
    table changes, and each open seat someone of them is offered first."""

    must_moves: tuple[MustMove, ...]
    must_move_players: Mapping[int, tuple[Seating, ...]]  # by must-move table, in order
    table_changes: tuple[TableChange, ...]
    offers: Mapping[tuple[int, int], SeatOffer]
    seatings: Mapping[int, Seating]  # by player: where each of them sits

    def player(self, player_id: int) -> Player:
        return self.seatings[player_id].player

    def offered(self, table_id: int, seat: int) -> SeatOffer | None:
        return self.offers.get((table_id, seat))


def must_move_list(*, active: bool = True) -> QuerySet[MustMove]:
    rows = MustMove.objects.select_related("table", "main_table", "started_by", "ended_by")
    return rows.filter(ended_at__isnull=True) if active else rows.order_by("-started_at", "-id")


def table_change_list(*, open_only: bool = True) -> QuerySet[TableChange]:
    rows = TableChange.objects.select_related(
        "player", "from_table", "to_table", "asked_by", "ended_by", "moved_to__table"
    )
    return rows.filter(ended_at__isnull=True) if open_only else rows.order_by("-asked_at", "-id")


def _opened_at(tables: Sequence[int]) -> dict[tuple[int, int], datetime]:
    """When each seat of the tables was last left (a seat opens when its player leaves)."""
    return {
        (row["table_id"], row["seat"]): row["last"]
        for row in Seating.objects.filter(table_id__in=tables, left_at__isnull=False)
        .values("table_id", "seat")
        .annotate(last=Max("left_at"))
    }


def seat_requests(*, moment: datetime | None = None) -> SeatRequests:
    """The must-move and table-change lines and the open seats they are offered first, in a
    fixed number of queries whatever the size of the floor."""
    moment = moment or now()
    links = tuple(must_move_list().order_by("started_at", "id"))
    changes = list(table_change_list().order_by("asked_at", "id"))
    feeding = {link.table_id for link in links}
    seated = {
        s.player_id: s
        for s in Seating.objects.filter(left_at__isnull=True)
        .filter(Q(table_id__in=feeding) | Q(player_id__in=[c.player_id for c in changes]))
        .select_related("player", "table")
    }
    # A request whose player no longer sits at the table it was asked from is not offered.
    changes = [
        c
        for c in changes
        if c.player_id in seated and seated[c.player_id].table_id == c.from_table_id
    ]
    by_table: dict[int, list[Seating]] = {}
    for s in seated.values():
        if s.table_id in feeding:
            by_table.setdefault(s.table_id, []).append(s)
    players_of = {
        t: tuple(sorted(rows, key=lambda s: (s.sat_at, s.pk))) for t, rows in by_table.items()
    }
    offers: dict[tuple[int, int], SeatOffer] = {}
    if links or changes:
        _tables, open_seats, _seated = _seats_by_stakes(moment)
        candidates = [s for seats in open_seats.values() for s in seats]
        opened = _opened_at([s.table.pk for s in candidates])
        passes: dict[tuple[int, int], list[SeatPass]] = {}
        for p in SeatPass.objects.filter(table_id__in={s.table.pk for s in candidates}):
            passes.setdefault((p.table_id, p.seat), []).append(p)
        mains = {link.main_table_id: link.table_id for link in links}
        for open_seat in candidates:
            table = open_seat.table
            key = (table.pk, open_seat.seat)
            since = open_seat.hold.until if open_seat.hold else opened.get(key)
            passed = {p.player_id for p in passes.get(key, ()) if since is None or p.at >= since}
            must = [
                seat_rules.Mover(s.player_id, seat_rules.Line.MUST_MOVE, s.sat_at, s.table_id, s.pk)
                for s in players_of.get(mains.get(table.pk), ())
            ]
            stakes = (table.minimum_cents, table.maximum_cents, table.game)
            wanted = [
                seat_rules.Mover(
                    c.player_id, seat_rules.Line.TABLE_CHANGE, c.asked_at, c.from_table_id, c.pk
                )
                for c in changes
                if c.from_table_id != table.pk
                and (
                    c.to_table_id == table.pk
                    or (
                        c.to_table_id is None
                        and (c.minimum_cents, c.maximum_cents, c.from_table.game) == stakes
                    )
                )
            ]
            movers = seat_rules.offer_order(must, wanted, passed=passed)
            if movers:
                offers[key] = SeatOffer(table, open_seat.seat, tuple(movers))
    return SeatRequests(
        must_moves=links,
        must_move_players=players_of,
        table_changes=tuple(changes),
        offers=offers,
        seatings=seated,
    )


# --- Barred and self-restricted patrons (docs/rules.md §3.9) --------------------------------


def exclusion_in_force(*, player_id: int, day: date | None = None) -> Exclusion | None:
    """The patron's barring or self-restriction in force on ``day`` (today), or None."""
    day = day or today()
    return (
        Exclusion.objects.select_related("player")
        .filter(player_id=player_id, lifted_at__isnull=True, starts_on__lte=day)
        .filter(Q(ends_on__isnull=True) | Q(ends_on__gte=day))
        .order_by("starts_on", "id")
        .first()
    )


def excluded_player_ids(player_ids, *, day: date | None = None) -> set[int]:
    """Which of ``player_ids`` are barred or self-restricted on ``day`` (one query)."""
    day = day or today()
    return set(
        Exclusion.objects.filter(
            player_id__in=list(player_ids), lifted_at__isnull=True, starts_on__lte=day
        )
        .filter(Q(ends_on__isnull=True) | Q(ends_on__gte=day))
        .values_list("player_id", flat=True)
    )


def exclusion_list(*, player_id: int | None = None, in_force_only: bool = False):
    """The list, newest first, with its history (lifted and ended entries too)."""
    rows = Exclusion.objects.select_related("player", "recorded_by", "lifted_by")
    if player_id is not None:
        rows = rows.filter(player_id=player_id)
    if in_force_only:
        day = today()
        rows = rows.filter(lifted_at__isnull=True, starts_on__lte=day).filter(
            Q(ends_on__isnull=True) | Q(ends_on__gte=day)
        )
    return rows.order_by("-recorded_at", "-id")


# --- TPPP contracts (docs/rules.md §8.7) ---------------------------------------------------

RENEWAL_NOTICE_DAYS = 90


def contract_list(*, player_id: int | None = None):
    """Every TPPP contract, newest first (renewals included), with its tables."""
    rows = TPPPContract.objects.select_related("registration__player", "recorded_by")
    if player_id is not None:
        rows = rows.filter(registration__player_id=player_id)
    return rows.prefetch_related("tables").order_by("-starts_on", "-id")


def contracts_to_renew(*, day: date | None = None) -> list:
    """Each TPPP's latest contract ending within 90 days of ``day`` (today), not followed by a
    later one: flagged for renewal on the compliance page."""
    day = day or today()
    latest = {}
    for contract in (
        TPPPContract.objects.select_related("registration__player")
        .filter(ends_on__gte=day)
        .order_by("registration_id", "ends_on", "id")
    ):
        latest[contract.registration_id] = contract
    horizon = day + timedelta(days=RENEWAL_NOTICE_DAYS)
    return sorted(
        (c for c in latest.values() if c.ends_on <= horizon), key=lambda c: (c.ends_on, c.pk)
    )
