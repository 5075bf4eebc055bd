"""Builders for the floor: every row is made through the real services.

The bottom of the Django builders (``tests.builders.money``, ``fees``, ``reports`` and
``api`` build on it):

- ``FrozenClock``: pins ``cardroom.clock`` at ``PINNED`` and moves it, so the 40-minute rule
  and the recorded timestamps are exact (the ``clock`` fixture of tests/conftest.py).
- ``Staff``, ``make_staff``, ``make_player``, ``unique``: staff on duty, patrons and badged
  TPPP players, names no other call has used.
- ``bring_chips``, ``ensure_chips``: chips at a table (a patron's buy-in, a TPPP's fill).
- ``open_floor``: a table (options through ``floor.create_table``), players seated from a
  layout such as ``"PT.P.."`` (P a patron, T a badged TPPP, ``.`` an empty seat), each
  with chips at the table, and a game.
- ``run_offers`` / ``give_button``: an offer round answered from a script, or "decline
  until this seat is offered, then accept".
- ``start_round`` / ``start_with_hands`` / ``advance`` / ``play_round``: a round started
  (the bank posted, seats joined by their Ante and Blind) and moved through every state
  with given decisions, one service call per transition (``advance`` is the one walk).
- ``floor_snapshot`` / ``round_snapshot``: what a refused service call must leave unchanged.
- ``audit_table``: the recorded rounds run through ``tables.rules.rotation.audit_rotation``.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

from django.utils import timezone

from cardroom.clock import freeze
from cardroom.errors import ACTIVE_ROUND_STATES, Refused, State, StateError, describe
from cardroom.roles import Role
from rounds import selectors as round_selectors
from rounds import services as rounds
from tables import options as table_options
from tables import selectors
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
from tables.rules.seats import MOST_SEATS, SEATS
from tables.services import button, floor
from tests.builders.factories import UserFactory
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

PINNED = datetime(2026, 11, 20, 18, 0, tzinfo=UTC)  # 10:00 Pacific, gaming day 2026-11-20


@dataclass
class FrozenClock:
    """The clock every service reads, pinned at ``moment`` and moved only by ``advance``."""

    moment: datetime = PINNED

    def start(self) -> None:
        freeze(self.moment)

    def stop(self) -> None:
        """Let the clock run again (the real time)."""
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


def make_staff() -> Staff:
    """A floor supervisor and a house dealer, new users each time."""
    return Staff(
        supervisor=UserFactory(role=Role.FLOOR_SUPERVISOR),
        dealer=UserFactory(role=Role.HOUSE_DEALER),
    )


# --- Players and their chips ---------------------------------------------------------------


def make_player(
    *, tppp: bool = False, badge_expires_on=None, name: str = "", identified: bool = True
) -> Player:
    """A patron, or (``tppp=True``) a registered TPPP player with a badge valid for a year.

    ``identified``: the patron's ID is on record, so any cash passes Title 31's check
    (docs/rules.md §10.7); ``identified=False`` for a patron who has shown none."""
    number = unique("PL")
    identification = (
        {"id_type": "state_id", "id_number": f"ID-{number}", "id_issued_by": "CA"}
        if identified and not tppp
        else {}
    )
    registration = None
    if tppp:
        expires = badge_expires_on or (timezone.now() + timedelta(days=365)).date()
        registration = {
            "business_name": f"Proposition Services {number} LLC",
            "badge_number": f"B-{number}",
            "badge_expires_on": expires,
        }
    player = floor.create_player(
        player_number=number, name=name or number, tppp=registration, **identification
    )
    if tppp:
        any_day_contract(player)
    return player


def any_day_contract(player: Player):
    """A TPPP's contract covering every table at any hour for the years the tests run in
    (docs/rules.md §8.7: a TPPP sits only within its contract)."""
    from datetime import date

    from tables.services.contracts import record_contract

    return record_contract(
        player_id=player.pk, starts_on=date(2000, 1, 1), ends_on=date(2099, 12, 31),
        approved_on=date(2000, 1, 1), approval_number=f"GEGC-{player.player_number}",
    )  # fmt: skip


PATRON_BUY_IN = 1_000_000  # cents: far more than any test wagers
TPPP_FILL = 5_000_000
BANK = 100_000  # the player-dealer's bank W in every round ``start_with_hands`` builds
ANTE = 500  # the default table minimum; the Blind equals it


def bring_chips(table_id: int, player: Player, amount: int, *, by, currency: bool = True) -> None:
    """Chips at the table: a patron buys in (paid in ``currency`` or not); a TPPP's bankroll
    is filled."""
    if TPPPRegistration.objects.filter(player_id=player.pk).exists():
        chips.fill(table_id=table_id, player_id=player.pk, amount=amount, by=by)
    else:
        chips.buy_in(
            table_id=table_id, player_id=player.pk, amount=amount, currency=currency, by=by
        )


def ensure_chips(table_id: int, player: Player, needed: int, *, by) -> None:
    """Top the player's chips at the table up to ``needed`` or more: a patron buys in
    ``PATRON_BUY_IN`` (not in currency), a TPPP gets a fill of ``TPPP_FILL``."""
    account = chip_account(player, table_id)
    if account is not None and account.balance_cents >= needed:
        return
    is_tppp = TPPPRegistration.objects.filter(player_id=player.pk).exists()
    amount = TPPP_FILL if is_tppp else PATRON_BUY_IN
    bring_chips(table_id, player, amount, by=by, currency=False)


# --- Tables and games ----------------------------------------------------------------------


@dataclass
class OpenFloor:
    table: Table
    game: Game | None
    players: dict[int, Player]
    staff: Staff

    @property
    def table_id(self) -> int:
        return self.table.pk

    def seat_of(self, player: Player) -> int:
        return next(seat for seat, p in self.players.items() if p.pk == player.pk)


def open_floor(
    layout: str = "PPPP..",
    *,
    staff: Staff,
    first_offer_seat: int = 1,
    open_game: bool = True,
    chips: Mapping[int, int] | int | None = None,
    name: str | None = None,
    game: str | None = None,
    **options: Any,
) -> OpenFloor:
    """A new table with ``options``, players seated per ``layout``, and (by default) a game.

    The floor supervisor seats each player; their chips are brought by the dealer:
    ``chips`` cents each (a mapping: by seat, none for 0), or by default enough for a bank.
    """
    assert set(layout) <= set("PT."), layout
    if game is None:
        assert len(layout) == len(SEATS), layout
    else:  # a game of several seat counts: as many seats as the layout shows
        options.setdefault("seats", len(layout))
    table = floor.create_table(
        name=name or unique("UTH-FL"), by=staff.supervisor, options=options, game=game
    )
    players = {}
    for seat, mark in enumerate(layout, start=1):
        if mark == ".":
            continue
        player = make_player(tppp=mark == "T")
        floor.seat_player(table_id=table.pk, seat=seat, player_id=player.pk, by=staff.supervisor)
        amount = chips.get(seat, 0) if isinstance(chips, Mapping) else chips
        if amount is None:
            ensure_chips(table.pk, player, BANK, by=staff.dealer)
        elif amount:
            bring_chips(table.pk, player, amount, by=staff.dealer)
        players[seat] = player
    game = None
    if open_game:
        game = floor.open_game_at(
            table_id=table.pk, first_offer_seat=first_offer_seat, by=staff.supervisor
        )
    return OpenFloor(table=table, game=game, players=players, staff=staff)


def layout_of(seats: Iterable[int], tppp_seats: Iterable[int] = ()) -> str:
    """The layout with a patron in each of ``seats`` (a TPPP in each of ``tppp_seats``)."""
    seats, tppp_seats = set(seats), set(tppp_seats)
    return "".join("T" if s in tppp_seats else "P" if s in seats else "." for s in SEATS)


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
    offers = list(offer_round.offers.order_by("id"))
    accepted = next((o for o in offers if o.answer == OfferAnswer.ACCEPTED), None)
    return OfferOutcome(offer_round, offers, accepted, error)


def give_button(table_id: int, seat: int | None = None, *, by) -> ButtonOffer:
    """Offers clockwise, every other seat declining, until ``seat`` is offered: it accepts.

    ``seat=None``: the first seat offered accepts.
    """
    for _ in range(MOST_SEATS + 1):
        offer = button.offer_button(table_id=table_id, by=by)
        if isinstance(offer, Refused):  # every seat declined or was passed over
            refusal = describe(offer.error)
            raise AssertionError(f"seat {seat} was never offered the button: {refusal}")
        accepted = seat is None or offer.seat == seat
        button.answer_offer(table_id=table_id, offer_id=offer.pk, accept=accepted, by=by)
        if accepted:
            offer.refresh_from_db()
            return offer
    raise AssertionError(f"seat {seat} was never offered the button")


# --- Rounds --------------------------------------------------------------------------------

# A seat's decisions as one number, the multiple of the Ante it plays: 4 or 3 plays
# pre-flop, 2 on the flop, 1 on the river; 0 checks, checks and folds on the river.
PLAY_4X, PLAY_3X, PLAY_FLOP, PLAY_RIVER, FOLD = 4, 3, 2, 1, 0
PLANS = (PLAY_4X, PLAY_3X, PLAY_FLOP, PLAY_RIVER, FOLD)
FORWARD = [*ACTIVE_ROUND_STATES, State.SETTLED]  # a round's states in the order it moves


def street_decision(plan: int, state: State) -> tuple[str, int] | None:
    """The decision ``plan`` makes on the street of ``state`` (None: it has already played)."""
    if state is State.PREFLOP:
        return ("play", plan) if plan in (PLAY_4X, PLAY_3X) else ("check", 0)
    if plan in (PLAY_4X, PLAY_3X):
        return None
    if state is State.FLOP:
        return ("play", 2) if plan == PLAY_FLOP else ("check", 0)
    if plan == PLAY_FLOP:
        return None
    return ("play", 1) if plan == PLAY_RIVER else ("fold", 0)


@dataclass(frozen=True)
class Cards:
    """Card entry: the player-dealer's hole cards, each seat's, and the board (3 + 2). The
    board is keyed as it is turned; the hole cards at the showdown, those of the hands turned
    face up only (docs/rules.md §2.3): a seat mucked may be left out of ``hands``."""

    player_dealer: Sequence[str]
    hands: Mapping[int, Sequence[str]]
    board: Sequence[str]

    def entry(self, seats: Sequence[int]) -> dict[str, Any]:
        """The showdown's entry: the player-dealer's cards and those of ``seats``."""
        return {
            "player_dealer": list(self.player_dealer),
            "hands": {str(seat): list(self.hands[seat]) for seat in seats},
        }


def turned_up(round_: Round) -> list[int]:
    """The seats the showdown keys, as the console reads them."""
    return round_selectors.seats_turned_face_up(round_selectors.round_detail(round_id=round_.pk))


def wagering_seats(table_id: int, round_: Round) -> list[int]:
    """Every seated player who may wager: not the player-dealer, not a TPPP."""
    return sorted(
        s.seat
        for s in Seating.objects.filter(table_id=table_id, left_at__isnull=True)
        if s.seat != round_.player_dealer_seat and not s.is_tppp
    )


def decide_street(round_: Round, plans: Mapping[int, int], *, by) -> None:
    """The decisions of the current street, in one call, of each seat in the hand with a plan."""
    state = State(round_.state)
    seats = sorted(set(plans) & set(round_.hands.values_list("seat", flat=True)))
    street = [
        (seat, *decision)
        for seat in seats
        if (decision := street_decision(plans[seat], state)) is not None
    ]
    if street:
        rounds.decide_street(round_id=round_.pk, decisions=street, by=by)


def advance(
    round_: Round,
    to_state: State,
    *,
    by,
    plans: Mapping[int, int] | None = None,
    rng: random.Random | None = None,
    cards: Cards | None = None,
    entry: Mapping | None = None,
    flop: Sequence[str] | None = None,
    turn_and_river: Sequence[str] | None = None,
    on_step=None,
) -> Round:
    """Move a started round forward, one service call per transition, up to ``to_state``.

    ``plans`` maps each seat in the hand to one of ``PLANS`` (default: every seat in the hand
    checks, checks, plays 1x on the river); the decisions of a street are made just before
    leaving it. The cards are dealt by ``rng``, or keyed: ``cards`` (or ``flop``,
    ``turn_and_river`` and the showdown's ``entry`` as the services take them). ``on_step``
    is called after each transition (e.g. to move the clock on).
    """
    if cards is not None:
        flop, turn_and_river = list(cards.board[:3]), list(cards.board[3:])
    target = FORWARD.index(to_state)
    while FORWARD.index(State(round_.state)) < target:
        state = State(round_.state)
        if plans is None:
            plans = dict.fromkeys(round_.hands.values_list("seat", flat=True), PLAY_RIVER)
        if state is State.WAGERING:
            round_ = rounds.close_wagering(round_id=round_.pk, by=by)
        elif state is State.NO_MORE_BETS:
            round_ = rounds.deal(round_id=round_.pk, by=by, rng=rng)
        elif state is State.PREFLOP:
            decide_street(round_, plans, by=by)
            round_ = rounds.reveal_flop(round_id=round_.pk, by=by, cards=flop)
        elif state is State.FLOP:
            decide_street(round_, plans, by=by)
            round_ = rounds.reveal_turn_and_river(round_id=round_.pk, by=by, cards=turn_and_river)
        elif state is State.RIVER:
            decide_street(round_, plans, by=by)
            if cards is not None:
                entry = cards.entry(turned_up(round_))
            round_ = rounds.showdown(round_id=round_.pk, by=by, entry=entry)
        elif state is State.SHOWDOWN:
            round_ = rounds.settle(round_id=round_.pk, by=by)
        if on_step is not None:
            on_step(round_)
    round_.refresh_from_db()
    return round_


def start_round(table_id: int, *, by, bank: int = BANK, top_up: bool = False) -> Round:
    """Start the round the accepted offer allows and post the player-dealer's bank W
    (``top_up``: after topping the player-dealer's chips up to it)."""
    round_ = rounds.start_round(table_id=table_id, by=by)
    if isinstance(round_, Refused):
        raise AssertionError(f"the round was refused: {describe(round_.error)}")
    if top_up:
        ensure_chips(table_id, round_.player_dealer, bank, by=by)
    rounds.post_bank(round_id=round_.pk, amount=bank, by=by)
    return round_


def start_with_hands(
    table_id: int,
    *,
    by,
    seats: Iterable[int] | None = None,
    bank: int = BANK,
    bets: Sequence[BetRequest] | None = None,
) -> tuple[Round, list[int]]:
    """Start the round (``start_round``) and place the opening wagers in one call: ``bets``
    as given, or else the table minimum Ante and Blind at each seat of ``seats`` (default:
    every seat that may wager), every chip count topped up first. Answers the round and the
    seats that joined."""
    round_ = start_round(table_id, by=by, bank=bank, top_up=bets is None)
    if bets is None:
        joined = list(seats) if seats is not None else wagering_seats(table_id, round_)
        seated = {
            s.seat: s.player
            for s in Seating.objects.filter(table_id=table_id, left_at__isnull=True)
        }
        for seat in joined:
            ensure_chips(table_id, seated[seat], 10 * ANTE, by=by)
        bets = [BetRequest(seat, ANTE, ANTE) for seat in joined]
    else:
        joined = list(dict.fromkeys(bet.seat for bet in bets))
    if bets:
        wagering.place_bets(round_id=round_.pk, bets=list(bets), by=by)
    return round_, joined


START_OPTIONS = ("seats", "bank", "bets")  # those of ``start_with_hands``


def play_round(table_id: int, *, by, until: State = State.SETTLED, **options: Any) -> Round:
    """A round (an acceptance must be waiting) from its start to ``until``: ``options`` are
    ``start_with_hands``'s (``START_OPTIONS``: seats, bank, bets) and ``advance``'s (plans,
    cards or entered cards, rng, on_step)."""
    start = {key: options.pop(key) for key in START_OPTIONS if key in options}
    round_, _ = start_with_hands(table_id, by=by, **start)
    return advance(round_, until, by=by, **options)


def bank_and_play(floor_: OpenFloor, seat: int, **kwargs: Any) -> Round:
    """``seat`` takes the button (every seat before it declining) and a round is played."""
    give_button(floor_.table_id, seat, by=floor_.staff.supervisor)
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
    changed. The tables' versions stand apart: every write under a table's lock bumps its
    version, a refusal the services record on purpose (and commit) too."""
    tables = list(Table.objects.order_by("id").values())
    return {
        "tables": [{k: v for k, v in table.items() if k != "version"} for table in tables],
        "table_versions": [(table["id"], table["version"]) for table in tables],
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
    return selectors.banked_hands(Round.objects.filter(table_id=table_id).order_by("number"))


def audit_table(table_id: int) -> list[Violation]:
    """``audit_rotation`` over the recorded rounds, each with its own frozen options."""
    rounds_ = list(Round.objects.filter(table_id=table_id).order_by("number"))
    games = {g.pk: g.opened_at for g in Game.objects.filter(table_id=table_id)}
    policies = {r.pk: table_options.rotation_policy(r.options) for r in rounds_}
    return audit_rotation(banked_hands(table_id), games, policies)
