"""Builders for the floor service tests: every row is made through the real services.

- ``FrozenClock``: pins ``cardroom.clock`` and steps it, so the 40-minute rule and the
  recorded timestamps are exact.
- ``open_floor``: a table (options through ``floor.create_table``), players seated from a
  layout such as ``"PT.P.."`` (P a patron, T a badged TPPP, ``.`` an empty seat), each
  with chips at the table (a patron's buy-in, a TPPP's fill), and a game.
- ``run_offers`` / ``bank``: an offer round answered from a script, or "decline until this
  seat is offered, then accept".
- ``start_with_hands``: start the round, the player-dealer posts the bank, seats place the
  table-minimum Ante and Blind (that is how a seat joins the hand).
- ``play_round`` / ``advance``: a round through every state with given decisions.
- ``floor_snapshot`` / ``round_snapshot``: what a refused service call must leave unchanged.
- ``audit_table``: the recorded rounds run through ``tables.rules.rotation.audit_rotation``.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any

from django.utils import timezone

from cardroom.clock import freeze
from cardroom.errors import Refused, State, StateError
from rounds import services as rounds
from tables import options as table_options
from tables.models import (
    ButtonOffer,
    Game,
    Hand,
    HandDecision,
    OfferAnswer,
    OfferRound,
    Player,
    Round,
    RoundTransition,
    Seating,
    Table,
    TableOptionChange,
    TPPPRegistration,
)
from tables.rules.rotation import BankedHand, Violation, audit_rotation
from tables.services import button, floor
from wagers.models import (
    Account,
    Bet,
    LedgerTransaction,
    PlayerDealerBank,
    SettlementLine,
)
from wagers.services import chips, wagering
from wagers.services.chips import chip_account
from wagers.services.wagering import BetRequest

_serial = itertools.count(1)


def unique(prefix: str) -> str:
    """A name no other builder call (in this process) has used."""
    return f"{prefix}-{next(_serial)}"


# --- The clock and the staff ---------------------------------------------------------------


@dataclass
class FrozenClock:
    """The clock every service reads, pinned at ``moment`` and moved only by ``advance``."""

    moment: datetime = field(default_factory=lambda: timezone.now().replace(microsecond=0))

    def start(self) -> None:
        freeze(self.moment)

    def stop(self) -> None:
        freeze(None)

    def advance(self, **delta: float) -> datetime:
        self.moment += timedelta(**delta)
        freeze(self.moment)
        return self.moment

    def set(self, moment: datetime) -> datetime:
        """Pin the clock at ``moment``, in UTC as ``django.utils.timezone.now()`` answers."""
        self.moment = moment.astimezone(UTC)
        freeze(self.moment)
        return self.moment

    def now(self) -> datetime:
        return self.moment


@dataclass(frozen=True)
class Staff:
    supervisor: Any
    dealer: Any


# --- Players, tables, games ----------------------------------------------------------------


def make_player(*, tppp: bool = False, badge_expires_on=None, name: str = "") -> Player:
    """A patron, or (``tppp=True``) a registered TPPP player with a badge valid for a year."""
    number = unique("FL")
    registration = None
    if tppp:
        expires = badge_expires_on or (timezone.now() + timedelta(days=365)).date()
        registration = {
            "business_name": f"Proposition Services {number} LLC",
            "badge_number": f"B-{number}",
            "badge_expires_on": expires,
        }
    return floor.create_player(player_number=number, name=name or number, tppp=registration)


@dataclass
class Floor:
    table: Table
    game: Game | None
    players: dict[int, Player]
    staff: Staff

    @property
    def table_id(self) -> int:
        return self.table.pk

    def seat_of(self, player: Player) -> int:
        return next(seat for seat, p in self.players.items() if p.pk == player.pk)


PATRON_BUY_IN = 1_000_000  # cents: far more than any test wagers
TPPP_FILL = 5_000_000
BANK = 100_000  # the player-dealer's bank W in every built round
ANTE = 500  # the default table minimum; the Blind equals it


def ensure_chips(table_id: int, player: Player, needed: int, *, by) -> None:
    """Top up the player's chips at the table (a patron buys in, a TPPP gets a fill)."""
    account = chip_account(player, table_id)
    if account is not None and account.balance_cents >= needed:
        return
    if TPPPRegistration.objects.filter(player=player).exists():
        chips.fill(table_id=table_id, player_id=player.pk, amount=TPPP_FILL, by=by)
    else:
        chips.buy_in(
            table_id=table_id, player_id=player.pk, amount=PATRON_BUY_IN, currency=False, by=by
        )


def seat_layout(table: Table, layout: str, *, by) -> dict[int, Player]:
    """Seat a player, with chips, in each seat the layout marks ``P`` (patron) or ``T`` (TPPP)."""
    assert len(layout) == 6 and set(layout) <= set("PT."), layout
    players = {}
    for seat, mark in enumerate(layout, start=1):
        if mark == ".":
            continue
        player = make_player(tppp=mark == "T")
        floor.seat_player(table_id=table.pk, seat=seat, player_id=player.pk, by=by)
        ensure_chips(table.pk, player, BANK, by=by)
        players[seat] = player
    return players


def open_floor(
    layout: str = "PPPP..",
    *,
    staff: Staff,
    first_offer_seat: int = 1,
    open_game: bool = True,
    **options: Any,
) -> Floor:
    """A new table with ``options``, players seated per ``layout``, and (by default) a game."""
    table = floor.create_table(name=unique("UTH-FL"), by=staff.supervisor, options=options)
    players = seat_layout(table, layout, by=staff.supervisor)
    game = None
    if open_game:
        game = floor.open_game_at(
            table_id=table.pk, first_offer_seat=first_offer_seat, by=staff.supervisor
        )
    return Floor(table=table, game=game, players=players, staff=staff)


# --- The button ----------------------------------------------------------------------------


@dataclass
class OfferOutcome:
    """An offer round as recorded, and whether it ended with an acceptance."""

    offer_round: OfferRound
    offers: list[ButtonOffer]
    accepted: ButtonOffer | None
    error: StateError | None = None

    @property
    def answers(self) -> list[tuple[int, str]]:
        return [(offer.seat, offer.answer) for offer in self.offers]


def recorded_offers(offer_round: OfferRound) -> list[ButtonOffer]:
    return list(offer_round.offers.order_by("id"))


def offer_or_refusal(table_id: int, *, by) -> ButtonOffer | StateError:
    """Offer the button: the offer, or the refusal (returned when the offer round is
    exhausted and recorded, raised for any other state)."""
    try:
        offered = button.offer_button(table_id=table_id, by=by)
    except StateError as refused:
        return refused
    return offered.error if isinstance(offered, Refused) else offered


def run_offers(table_id: int, answers: str, *, by) -> OfferOutcome:
    """Offer the button and answer from the script (``a`` accept, ``d`` decline), until an
    acceptance, the end of the script, or the offers run out (the exhausted round is kept)."""
    error = None
    offer = None
    for answer in answers:
        offer = offer_or_refusal(table_id, by=by)
        if isinstance(offer, StateError):
            error = offer
            break
        offer = button.answer_offer(
            table_id=table_id, offer_id=offer.pk, accept=answer == "a", by=by
        )
        if answer == "a":
            break
    else:
        if not answers or answers[-1] != "a":
            # the script ran out: one more offer shows whether anyone is left
            offered = offer_or_refusal(table_id, by=by)
            if isinstance(offered, StateError):
                error = offered
    offer_round = OfferRound.objects.filter(table_id=table_id).order_by("-id").first()
    offers = recorded_offers(offer_round)
    accepted = next((o for o in offers if o.answer == OfferAnswer.ACCEPTED), None)
    return OfferOutcome(offer_round, offers, accepted, error)


def bank(table_id: int, seat: int, *, by) -> ButtonOffer:
    """Offers clockwise, every other seat declining, until ``seat`` is offered: it accepts."""
    for _ in range(7):
        offer = button.offer_button(table_id=table_id, by=by)
        assert not isinstance(offer, Refused), offer.error
        accepted = offer.seat == seat
        button.answer_offer(table_id=table_id, offer_id=offer.pk, accept=accepted, by=by)
        if accepted:
            offer.refresh_from_db()
            return offer
    raise AssertionError(f"seat {seat} was never offered the button")


# --- Rounds --------------------------------------------------------------------------------

# A hand's decisions street by street: (action, multiple).
PLANS: dict[str, tuple[tuple[str, int], ...]] = {
    "play4": (("play", 4),),
    "play3": (("play", 3),),
    "flop": (("check", 0), ("play", 2)),
    "river": (("check", 0), ("check", 0), ("play", 1)),
    "fold": (("check", 0), ("check", 0), ("fold", 0)),
}
STREET_INDEX = {State.PREFLOP: 0, State.FLOP: 1, State.RIVER: 2}
FORWARD = [
    State.WAGERING,
    State.NO_MORE_BETS,
    State.PREFLOP,
    State.FLOP,
    State.RIVER,
    State.SHOWDOWN,
    State.SETTLED,
]


def wagering_seats(table_id: int, round_: Round) -> list[int]:
    """Every seated player who may wager: not the player-dealer, not a TPPP."""
    return sorted(
        s.seat
        for s in Seating.objects.filter(table_id=table_id, left_at__isnull=True)
        if s.seat != round_.player_dealer_seat and not s.is_tppp
    )


def decide_street(round_: Round, plans: Mapping[int, str], *, by) -> None:
    index = STREET_INDEX[State(round_.state)]
    for seat, plan in sorted(plans.items()):
        steps = PLANS[plan]
        if index < len(steps):
            action, multiple = steps[index]
            rounds.decide(round_id=round_.pk, seat=seat, action=action, multiple=multiple, by=by)


def advance(
    round_: Round,
    to_state: State,
    *,
    by,
    plans: Mapping[int, str] | None = None,
    rng: random.Random | None = None,
    entry: Mapping | None = None,
    flop: Sequence[str] | None = None,
    turn_and_river: Sequence[str] | None = None,
    on_step=None,
) -> Round:
    """Move a started round forward, one service call per transition, up to ``to_state``.

    ``plans`` maps each seat in the hand to a key of ``PLANS`` (default: every seat in the
    hand checks, checks, plays 1x on the river); the decisions of a street are made just
    before leaving it. ``on_step`` is called after each transition (e.g. to step the clock).
    """
    target = FORWARD.index(to_state)
    while FORWARD.index(State(round_.state)) < target:
        state = State(round_.state)
        if plans is None:
            seats = round_.hands.values_list("seat", flat=True)
            plans = {seat: "river" for seat in seats}
        if state is State.WAGERING:
            round_ = rounds.close_wagering(round_id=round_.pk, by=by)
        elif state is State.NO_MORE_BETS:
            round_ = rounds.deal(round_id=round_.pk, by=by, entry=entry, rng=rng)
        elif state is State.PREFLOP:
            decide_street(round_, plans, by=by)
            round_ = rounds.reveal_flop(round_id=round_.pk, by=by, cards=flop)
        elif state is State.FLOP:
            decide_street(round_, plans, by=by)
            round_ = rounds.reveal_turn_and_river(round_id=round_.pk, by=by, cards=turn_and_river)
        elif state is State.RIVER:
            decide_street(round_, plans, by=by)
            round_ = rounds.showdown(round_id=round_.pk, by=by)
        elif state is State.SHOWDOWN:
            round_ = rounds.settle(round_id=round_.pk, by=by)
        if on_step is not None:
            on_step(round_)
    round_.refresh_from_db()
    return round_


def start_with_hands(
    table_id: int, *, by, seats: Iterable[int] | None = None
) -> tuple[Round, list[int]]:
    """Start the round the accepted offer allows, post the player-dealer's bank, and have
    ``seats`` (default: every seat that may wager) place the minimum Ante and Blind."""
    round_ = rounds.start_round(table_id=table_id, by=by)
    assert not isinstance(round_, Refused), round_.error
    ensure_chips(table_id, round_.player_dealer, BANK, by=by)
    wagering.post_bank(round_id=round_.pk, amount=BANK, by=by)
    joined = list(seats) if seats is not None else wagering_seats(table_id, round_)
    seated = {
        s.seat: s.player for s in Seating.objects.filter(table_id=table_id, left_at__isnull=True)
    }
    for seat in joined:
        ensure_chips(table_id, seated[seat], 10 * ANTE, by=by)
    if joined:
        wagering.place_bets(
            round_id=round_.pk, bets=[BetRequest(seat, ANTE, ANTE) for seat in joined], by=by
        )
    return round_, joined


def play_round(
    table_id: int,
    *,
    by,
    seats: Iterable[int] | None = None,
    plans: Mapping[int, str] | None = None,
    rng: random.Random | None = None,
    entry: Mapping | None = None,
    flop: Sequence[str] | None = None,
    turn_and_river: Sequence[str] | None = None,
    on_step=None,
) -> Round:
    """A complete round (an acceptance must be waiting): start, join, ..., settle."""
    round_, joined = start_with_hands(table_id, by=by, seats=seats)
    if plans is None:
        plans = {seat: "river" for seat in joined}
    return advance(
        round_,
        State.SETTLED,
        by=by,
        plans=plans,
        rng=rng,
        entry=entry,
        flop=flop,
        turn_and_river=turn_and_river,
        on_step=on_step,
    )


def bank_and_play(floor_: Floor, seat: int, **kwargs: Any) -> Round:
    """``seat`` takes the button (every seat before it declining) and a round is played."""
    bank(floor_.table_id, seat, by=floor_.staff.supervisor)
    return play_round(floor_.table_id, by=floor_.staff.dealer, **kwargs)


# --- What a refusal must leave unchanged ---------------------------------------------------


def round_snapshot(round_id: int) -> dict[str, Any]:
    round_ = Round.objects.get(pk=round_id)
    return {
        "state": round_.state,
        "board": list(round_.board),
        "dealer_hole": round_.dealer_hole,
        "shuffled_deck": round_.shuffled_deck,
        "dealer_category": round_.dealer_category,
        "ended_at": round_.ended_at,
        "void_reason": round_.void_reason,
        "transitions": list(
            RoundTransition.objects.filter(round=round_).values_list("from_state", "to_state")
        ),
        "hands": list(
            Hand.objects.filter(round=round_)
            .order_by("seat")
            .values_list("seat", "player_id", "hole", "category", "result")
        ),
        "decisions": list(
            HandDecision.objects.filter(hand__round=round_)
            .order_by("id")
            .values_list("hand__seat", "street", "action", "multiple")
        ),
        "bets": list(
            Bet.objects.filter(hand__round=round_)
            .order_by("id")
            .values_list("hand__seat", "bettor", "ante_cents", "play_cents")
        ),
        "bank": list(
            PlayerDealerBank.objects.filter(round=round_).values_list("amount_cents", "net_cents")
        ),
        "ledger": LedgerTransaction.objects.filter(round=round_).count(),
        "settlement_lines": SettlementLine.objects.filter(round=round_).count(),
    }


def floor_snapshot() -> dict[str, Any]:
    """Every floor and money row's identity and mutable state: equal snapshots mean nothing
    changed."""
    return {
        "tables": list(Table.objects.order_by("id").values()),
        "option_changes": TableOptionChange.objects.count(),
        "players": Player.objects.count(),
        "registrations": TPPPRegistration.objects.count(),
        "seatings": list(Seating.objects.order_by("id").values_list("id", "left_at")),
        "games": list(Game.objects.order_by("id").values_list("id", "ended_at", "end_reason")),
        "offer_rounds": list(
            OfferRound.objects.order_by("id").values_list("id", "status", "closed_at")
        ),
        "offers": list(ButtonOffer.objects.order_by("id").values_list("id", "answer")),
        "rounds": list(Round.objects.order_by("id").values_list("id", "state", "board")),
        "transitions": RoundTransition.objects.count(),
        "hands": list(Hand.objects.order_by("id").values_list("id", "hole", "result")),
        "decisions": HandDecision.objects.count(),
        "bets": list(Bet.objects.order_by("id").values_list("id", "play_cents")),
        "banks": list(PlayerDealerBank.objects.order_by("id").values_list("id", "net_cents")),
        "ledger": LedgerTransaction.objects.count(),
        "accounts": list(
            Account.objects.order_by("id").values_list("id", "balance_cents", "closed_at")
        ),
        "settlement_lines": SettlementLine.objects.count(),
    }


# --- The recorded history, audited ---------------------------------------------------------


def banked_hands(table_id: int) -> list[BankedHand]:
    """The table's rounds as recorded, in order, as the rules core's ``BankedHand``."""
    return [
        BankedHand(
            hand_id=r.pk,
            game_id=r.game_id,
            started_at=r.started_at,
            seat=r.player_dealer_seat,
            player_id=r.player_dealer_id,
            is_tppp=r.player_dealer_is_tppp,
            tppps_seated=r.tppps_seated,
        )
        for r in Round.objects.filter(table_id=table_id).order_by("number")
    ]


def audit_table(table_id: int) -> list[Violation]:
    """``audit_rotation`` over the recorded rounds, each with its own frozen options."""
    rounds_ = list(Round.objects.filter(table_id=table_id).order_by("number"))
    games = {g.pk: g.opened_at for g in Game.objects.filter(table_id=table_id)}
    policies = {r.pk: table_options.rotation_policy(r.options) for r in rounds_}
    return audit_rotation(banked_hands(table_id), games, policies)
