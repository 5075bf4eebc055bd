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
from datetime import datetime, timedelta
from typing import Any

from django.db.models import Count, Max, Prefetch, QuerySet

from cardroom.clock import now
from cardroom.errors import ACTIVE_ROUND_STATES, Rule, State, StateError
from cardroom.filtering import filter_queryset
from tables import options as table_options
from tables.filters import GameFilter, OfferRoundFilter, PlayerFilter, SeatingFilter
from tables.guards import no_game_error, round_in_play_error
from tables.models import (
    BANKED_HAND_FIELDS,
    ButtonOffer,
    Game,
    GameEndReason,
    OfferAnswer,
    OfferRound,
    OfferRoundStatus,
    Player,
    Round,
    Seating,
    Table,
    TableOptionChange,
)
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
    """Every table with its seated players, open game and round in play (four queries)."""
    return Table.objects.prefetch_related(
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
    history: list[BankedHand] = field(default_factory=list)
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
    for seat in offer_order(by_seat, start_seat):
        seating = by_seat[seat]
        if seating.player_id in asked:
            continue
        breach = ineligibility(_as_player(seating), history, policy)
        if breach is None:
            return NextOffer(start_seat, tuple(passed), seating)
        passed.append((seating, breach))
    return NextOffer(start_seat, tuple(passed), None)


def button_state(table: Table) -> ButtonState:
    """Where the button stands at ``table`` and what may happen next (seven queries).

    A service calls it under the table's lock and acts on it; a page calls it to show it.
    """
    policy = table_options.rotation_policy(table_options.snapshot(table))
    sitting = seated(table)
    game = open_game(table)
    common = {"table": table, "seated": sitting, "policy": policy}
    if game is None:
        last = Game.objects.filter(table=table).order_by("-opened_at", "-id").first()
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
    active = active_round(table)
    offer_round = _offer_round_for_next_hand(game)
    context = {**common, "game": game, "active_round": active, "offer_round": offer_round}
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
    history = banked_history(table)
    last = Round.objects.filter(game=game).order_by("-number").first()
    start = offers_start_at(last.player_dealer_seat if last else None, game.first_offer_seat)
    next_offer = _next_offer(offer_round, start, sitting, history, policy)
    context.update(history=history, next_offer=next_offer)
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
        None if last is None else last.banked_hand(),
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
