"""Read paths for the floor: plain functions answering querysets or objects.

Every list selector joins or prefetches what its endpoint shows, so a list
costs the same number of queries whatever its length. A missing row raises the
model's ``DoesNotExist`` (the API answers 404).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from django.db.models import Prefetch, QuerySet

from tables import options as table_options
from tables.filters import (
    GameFilter,
    OfferRoundFilter,
    PlayerFilter,
    RoundFilter,
    SeatingFilter,
    filter_queryset,
)
from tables.models import (
    ACTIVE_ROUND_STATES,
    ButtonOffer,
    Game,
    GameEndReason,
    Hand,
    HandDecision,
    OfferAnswer,
    OfferRound,
    OfferRoundStatus,
    Player,
    Round,
    RoundState,
    RoundTransition,
    Seating,
    Table,
    TableOptionChange,
)
from tables.rules.rotation import SeatedPlayer, may_keep_without_offers, offers_start_at
from tables.services.button import banked_history

Filters = Mapping[str, Any] | None

# The player-dealer's hole cards (and the stored RNG deck, which holds them) are secret
# until the showdown: the API withholds them before these states.
CARDS_REVEALED_STATES = frozenset({RoundState.SHOWDOWN, RoundState.SETTLED, RoundState.VOIDED})
NO_PLAYER_DEALER_STATUS = "no eligible player accepted: a new offer round is needed (RULEBOOK §6)"


def dealer_cards_revealed(round_: Round) -> bool:
    return round_.state in CARDS_REVEALED_STATES


# --- Players ----------------------------------------------------------------------------


def player_list(*, filters: Filters = None) -> QuerySet[Player]:
    return filter_queryset(PlayerFilter, filters, Player.objects.select_related("tppp"))


def player_get(*, player_id: int) -> Player:
    return Player.objects.select_related("tppp").get(pk=player_id)


# --- Tables -----------------------------------------------------------------------------


def _active_seatings() -> QuerySet[Seating]:
    return Seating.objects.filter(left_at__isnull=True).select_related("player").order_by("seat")


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


@dataclass(frozen=True)
class TableFloor:
    """A table as the floor sees it now: who sits where, the game, the round, the button."""

    table: Table
    seated: list[Seating]
    game: Game | None
    active_round: Round | None
    offer_round: OfferRound | None
    button_state: str
    button_status: str
    keeper_seat: int | None = None  # the seat that may keep the button without offers


def _offers() -> QuerySet[ButtonOffer]:
    return ButtonOffer.objects.select_related("player", "offered_by", "answered_by")


def table_get(*, table_id: int) -> Table:
    return Table.objects.get(pk=table_id)


def table_floor(*, table_id: int) -> TableFloor:
    table = table_get(table_id=table_id)
    seated = list(_active_seatings().filter(table=table))
    game = Game.objects.filter(table=table, ended_at__isnull=True).first()
    active = (
        Round.objects.filter(table=table, state__in=ACTIVE_ROUND_STATES)
        .select_related("player_dealer")
        .first()
    )
    offer_round = None
    if game is not None:
        offer_round = (
            OfferRound.objects.filter(game=game)
            .select_related("round", "started_by")
            .prefetch_related(Prefetch("offers", queryset=_offers()))
            .order_by("-started_at", "-id")
            .first()
        )
        played = getattr(offer_round, "round", None)
        if played is not None and played.state not in ACTIVE_ROUND_STATES:
            offer_round = None  # its hand is over: the next hand needs a new offer round
    state, status, keeper_seat = _button_status(table, seated, game, active, offer_round)
    return TableFloor(table, seated, game, active, offer_round, state, status, keeper_seat)


def _button_status(
    table: Table,
    seated: list[Seating],
    game: Game | None,
    active: Round | None,
    offer_round: OfferRound | None,
) -> tuple[str, str, int | None]:
    """Where the player-dealer button stands, as a code and a sentence for the floor, and
    the seat that may keep it for a second hand without offers (None: nobody may)."""
    if game is None:
        last = Game.objects.filter(table=table).order_by("-opened_at", "-id").first()
        if last is not None and last.end_reason == GameEndReason.ROTATION_WINDOW:
            return (
                "game_ended",
                f"the game ended: {last.end_detail}; a floor supervisor may open a new game",
                None,
            )
        return "no_game", "no game is open: a floor supervisor opens one", None
    if active is not None:
        return (
            "round_in_play",
            f"round {active.number} is {active.get_state_display().lower()}; "
            f"seat {active.player_dealer_seat} holds the player-dealer position",
            None,
        )
    if offer_round is not None:
        offers = list(offer_round.offers.all())
        if offer_round.status == OfferRoundStatus.OPEN:
            pending = next((o for o in offers if o.answer == OfferAnswer.PENDING), None)
            if pending is not None:
                return (
                    "offer_pending",
                    f"seat {pending.seat} is being offered the player-dealer position; "
                    "record the answer",
                    None,
                )
            return "offering", "offer the button to the next seat clockwise", None
        if offer_round.status == OfferRoundStatus.ACCEPTED:
            accepted = next(o for o in offers if o.answer == OfferAnswer.ACCEPTED)
            if offer_round.kept_without_offers:
                return (
                    "accepted",
                    f"seat {accepted.seat} keeps the position for a second hand; start the round",
                    None,
                )
            return "accepted", f"seat {accepted.seat} accepted; start the round", None
        if offer_round.status == OfferRoundStatus.EXHAUSTED:
            return "no_player_dealer", NO_PLAYER_DEALER_STATUS, None
    if not seated:
        return "no_players", "no player is seated: seat players, then offer the button", None
    last = Round.objects.filter(game=game).order_by("-number").first()
    start = offers_start_at(last.player_dealer_seat if last else None, game.first_offer_seat)
    status = f"offer the button: offers start at seat {start} and go clockwise"
    if offer_round is not None and offer_round.status == OfferRoundStatus.CANCELLED:
        status = f"the last offer round was cancelled ({offer_round.detail}); {status}"
    if last is not None and not table.offer_every_hand:
        keeper = next(
            (
                s
                for s in seated
                if s.seat == last.player_dealer_seat and s.player_id == last.player_dealer_id
            ),
            None,
        )
        policy = table_options.rotation_policy(table_options.snapshot(table))
        if keeper is not None and may_keep_without_offers(
            SeatedPlayer(keeper.seat, keeper.player_id, keeper.is_tppp),
            banked_history(table),
            policy,
        ):
            status += f", or seat {keeper.seat} may keep it for a second consecutive hand"
            return "offer_needed", status, keeper.seat
    return "offer_needed", status, None


def table_option_change_list(*, table_id: int) -> QuerySet[TableOptionChange]:
    table = Table.objects.only("id").get(pk=table_id)
    return TableOptionChange.objects.filter(table=table).select_related("changed_by")


# --- Seats and games --------------------------------------------------------------------


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


# --- The button -------------------------------------------------------------------------


def offer_round_list(*, filters: Filters = None) -> QuerySet[OfferRound]:
    queryset = OfferRound.objects.select_related("round", "started_by").prefetch_related(
        Prefetch("offers", queryset=_offers())
    )
    return filter_queryset(OfferRoundFilter, filters, queryset)


def button_offer_get(*, offer_id: int) -> ButtonOffer:
    return _offers().select_related("offer_round").get(pk=offer_id)


# --- Rounds -----------------------------------------------------------------------------


def round_list(*, filters: Filters = None) -> QuerySet[Round]:
    queryset = Round.objects.select_related("player_dealer", "started_by")
    return filter_queryset(RoundFilter, filters, queryset)


def round_detail(*, round_id: int) -> Round:
    """A round with its hands, their decisions and its transitions (five queries)."""
    hands = Hand.objects.select_related("player").prefetch_related(
        Prefetch("decisions", queryset=HandDecision.objects.select_related("by"))
    )
    return (
        Round.objects.select_related("player_dealer", "started_by")
        .prefetch_related(
            Prefetch("hands", queryset=hands),
            Prefetch("transitions", queryset=RoundTransition.objects.select_related("by")),
        )
        .get(pk=round_id)
    )
