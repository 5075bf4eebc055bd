"""The button's state machine: where the player-dealer button stands at a table and what may
happen to it next (``ButtonState``), read in one statement on PostgreSQL (``tables.sql.
button_reads``) or through the ORM elsewhere, and the offer rounds and offers as the API lists
them.

``button_state`` is the one place where what may happen to the player-dealer button next
is decided: the table view shows it, and the button services (taking the table's lock
first) act on it, so the floor and the services can never disagree.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from functools import cache
from types import SimpleNamespace
from typing import NamedTuple

from django.db import connection, models
from django.db.models import Prefetch, QuerySet

from cardroom.errors import ACTIVE_ROUND_STATES, Rule, State, StateError
from cardroom.filtering import Filters, filter_queryset
from cardroom.sql import row_loader
from tables import options as table_options
from tables import sql
from tables.filters import OfferRoundFilter
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
)
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
from tables.selectors.floor import (
    HISTORY_HANDS,
    active_round,
    game_history_since,
    open_game,
    seated,
)

NO_PLAYER_DEALER_STATUS = (
    "no eligible seated player accepted the player-dealer position, so no round can start "
    "at this table until one does: begin a new offer round"
)


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
