"""Complete rounds played through the real service layer (``manage.py simulate``).

Everything goes through the same services as the API: buy-ins and fills,
seating, the button offered clockwise (some players decline), wagers and the
bank, RNG deals, decisions by the basic strategy of ``rounds.strategy``,
showdown and settlement. Randomness comes from one seeded ``random.Random``
and time from the controllable clock, so a seed reproduces the same floor.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime, timedelta

from django.contrib.auth.models import Group, User

from cardroom import clock
from cardroom.errors import Refused, State
from cardroom.roles import Role
from fees.services import schedules as fee_schedules
from rounds import services as rounds
from rounds.strategy import flop_plays, preflop_plays, river_plays
from tables.models import Player, Round, Table
from tables.rules.cards import parse_card
from tables.services import button, contracts, floor
from wagers.services import chips, wagering
from wagers.services.chips import chip_account
from wagers.services.wagering import BetRequest

DECLINE_CHANCE = 0.2
VOID_CHANCE = 0.005
PATRON_BUY_IN = 100_000  # $1,000 in chips
TPPP_FILL = 2_000_000  # $20,000 bankroll
SECONDS_PER_ROUND = 100
FEE_ROOM = 3_000  # chips kept back for the collection fees, collected before the deal
# Flat fees (docs/rules.md §9) for the simulated $5-$500 tables, whole dollars (the table's chip).
# Odd tables charge the player-dealer per betting square, even ones on total table action.
SIM_FEES_PER_SQUARE = [
    {
        "wager_from_cents": 500,
        "wager_to_cents": 2_500,
        "player_fee_cents": 100,
        "player_dealer_fee_cents": 100,
    },
    {
        "wager_from_cents": 2_501,
        "wager_to_cents": 10_000,
        "player_fee_cents": 200,
        "player_dealer_fee_cents": 100,
    },
    {
        "wager_from_cents": 10_001,
        "wager_to_cents": 50_000,
        "player_fee_cents": 300,
        "player_dealer_fee_cents": 200,
    },
]
SIM_FEES_ON_ACTION = [
    {
        "wager_from_cents": 500,
        "wager_to_cents": 2_500,
        "player_fee_cents": 100,
        "action_from_cents": 0,
        "action_to_cents": 9_999,
        "player_dealer_fee_cents": 100,
    },
    {
        "wager_from_cents": 2_501,
        "wager_to_cents": 50_000,
        "player_fee_cents": 200,
        "action_from_cents": 10_000,
        "action_to_cents": 49_999,
        "player_dealer_fee_cents": 200,
    },
    {"action_from_cents": 50_000, "action_to_cents": None, "player_dealer_fee_cents": 500},
]


@dataclass
class SimTable:
    table: Table
    seated: dict[int, Player]
    backliner: Player | None
    rounds_played: int = 0


@dataclass
class Simulation:
    """Simulated tables; ``play(rounds)`` deals that many rounds in all, table by table."""

    tables: int
    seed: int | None = None
    baccarat_tables: int = 0  # EZ Baccarat tables besides (dealt from a shoe, docs/rules.md §14)
    start: datetime | None = None
    prefix: str = "SIM"
    fees: bool = True  # each table gets a collection schedule (docs/rules.md §9)
    on_round: Callable[[Round], None] | None = None
    rng: random.Random = field(init=False)
    staff: User = field(init=False)
    floor_tables: list[SimTable] = field(init=False, default_factory=list)
    now: datetime = field(init=False)

    def __post_init__(self) -> None:
        self.rng = random.Random(self.seed)
        self.now = self.start or datetime.fromisoformat("2026-11-20T18:00:00-08:00")

    # --- the clock -----------------------------------------------------------------------

    def _tick(self, seconds: float) -> None:
        self.now += timedelta(seconds=seconds)
        clock.freeze(self.now)

    # --- set-up --------------------------------------------------------------------------

    def set_up(self) -> None:
        clock.freeze(self.now)
        self.staff = self._staff()
        run = self._unique_run_tag()
        for index in range(1, self.tables + self.baccarat_tables + 1):
            sim = self._set_up_table(
                f"{self.prefix}-{run}-{index}",
                with_tppp=index % 2 == 0,
                game="ez_baccarat" if index > self.tables else None,
            )
            if self.fees:
                self._file_fees(sim.table, on_action=index % 2 == 0)
            self.floor_tables.append(sim)

    def _unique_run_tag(self) -> str:
        tag = 1
        while Table.objects.filter(name__startswith=f"{self.prefix}-{tag}-").exists():
            tag += 1
        return str(tag)

    def _staff(self) -> User:
        user, created = User.objects.get_or_create(
            username="simulated-dealer", defaults={"is_staff": True}
        )
        if created:
            user.set_unusable_password()
            user.save()
            for role in (Role.FLOOR_SUPERVISOR, Role.HOUSE_DEALER):
                group, _ = Group.objects.get_or_create(name=role.group_name)
                user.groups.add(group)
        return user

    def _set_up_table(self, name: str, *, with_tppp: bool, game: str | None = None) -> SimTable:
        options = {"minimum_cents": 500, "maximum_cents": 50_000, "chip_unit_cents": 100}
        if game is not None:
            options["seats"] = 6
        table = floor.create_table(name=name, by=self.staff, options=options, game=game)
        seated: dict[int, Player] = {}
        for seat in range(1, 7):
            tppp = with_tppp and seat == 6
            player = floor.create_player(
                player_number=f"{name}-S{seat}",
                name=f"{'TPPP' if tppp else 'Patron'} {name} seat {seat}",
                tppp={
                    "business_name": f"{name} Proposition Services",
                    "badge_number": f"B-{name}",
                    "badge_expires_on": (self.now + timedelta(days=365)).date(),
                }
                if tppp
                else None,
            )
            if tppp:  # its contract with the cardroom: this table, any hour (§8.7)
                contracts.record_contract(
                    player_id=player.pk, table_ids=[table.pk],
                    starts_on=(self.now - timedelta(days=1)).date(),
                    ends_on=(self.now + timedelta(days=365)).date(),
                    approved_on=(self.now - timedelta(days=1)).date(),
                    approval_number=f"SIM-{name}", by=self.staff,
                )  # fmt: skip
            floor.seat_player(table_id=table.pk, seat=seat, player_id=player.pk, by=self.staff)
            if tppp:
                chips.fill(table_id=table.pk, player_id=player.pk, amount=TPPP_FILL, by=self.staff)
            else:
                chips.buy_in(
                    table_id=table.pk,
                    player_id=player.pk,
                    amount=PATRON_BUY_IN,
                    currency=True,
                    by=self.staff,
                )
            seated[seat] = player
        backliner = floor.create_player(player_number=f"{name}-BL", name=f"Backline bettor {name}")
        chips.buy_in(
            table_id=table.pk,
            player_id=backliner.pk,
            amount=PATRON_BUY_IN,
            currency=True,
            by=self.staff,
        )
        floor.open_game_at(
            table_id=table.pk, first_offer_seat=self.rng.randint(1, 6), by=self.staff
        )
        return SimTable(table, seated, backliner)

    def _file_fees(self, table: Table, *, on_action: bool) -> None:
        schedule = fee_schedules.create_schedule(
            name=f"{table.name} collection", table_id=table.pk, by=self.staff
        )
        fee_schedules.create_version(
            schedule_id=schedule.pk,
            rates=SIM_FEES_ON_ACTION if on_action else SIM_FEES_PER_SQUARE,
            player_dealer_basis="total_table_action" if on_action else "per_betting_square",
            note="simulated floor",
            by=self.staff,
        )

    # --- play ----------------------------------------------------------------------------

    def play(self, rounds_to_play: int) -> int:
        played = 0
        while played < rounds_to_play:
            for sim in self.floor_tables:
                if played >= rounds_to_play:
                    break
                self._tick(SECONDS_PER_ROUND / len(self.floor_tables))
                round_ = self._play_round(sim)
                if round_ is not None:
                    played += 1
                    sim.rounds_played += 1
                    if self.on_round:
                        self.on_round(round_)
        return played

    def _balance(self, sim: SimTable, player: Player) -> int:
        account = chip_account(player, sim.table)
        return account.balance_cents if account else 0

    def _top_up(self, sim: SimTable, player: Player, needed: int) -> None:
        if self._balance(sim, player) < needed:
            if hasattr(player, "tppp"):
                chips.fill(
                    table_id=sim.table.pk, player_id=player.pk, amount=TPPP_FILL, by=self.staff
                )
            else:
                chips.buy_in(
                    table_id=sim.table.pk,
                    player_id=player.pk,
                    amount=PATRON_BUY_IN,
                    currency=True,
                    by=self.staff,
                )

    def _find_player_dealer(self, sim: SimTable) -> None:
        """Offer the button round the table until someone accepts (a few decline)."""
        for _ in range(24):
            offer = button.offer_button(table_id=sim.table.pk, by=self.staff)
            if isinstance(offer, Refused):
                continue  # every seat declined or was passed over: a new offer round
            player = sim.seated[offer.seat]
            decline = not hasattr(player, "tppp") and self.rng.random() < DECLINE_CHANCE
            button.answer_offer(
                table_id=sim.table.pk, offer_id=offer.pk, accept=not decline, by=self.staff
            )
            if not decline:
                return
        raise RuntimeError(f"no one accepted the button at {sim.table}")

    def _play_round(self, sim: SimTable) -> Round | None:
        table_id = sim.table.pk
        self._find_player_dealer(sim)
        round_ = rounds.start_round(table_id=table_id, by=self.staff)
        if isinstance(round_, Refused):
            if round_.error.state is State.GAME_ENDED:
                # The 40-minute rule ended the game: the floor supervisor opens a new one.
                floor.open_game_at(
                    table_id=table_id, first_offer_seat=self.rng.randint(1, 6), by=self.staff
                )
            return None
        dealer = sim.seated[round_.player_dealer_seat]
        bank = (
            TPPP_FILL // 4
            if hasattr(dealer, "tppp")
            else self.rng.choice((20_000, 50_000, 100_000))
        )
        self._top_up(sim, dealer, bank + FEE_ROOM)  # the bank, and the fees besides
        rounds.post_bank(
            round_id=round_.pk,
            amount=min(bank, self._balance(sim, dealer) - FEE_ROOM),
            by=self.staff,
        )
        steps = bool(rounds.game_of(round_).steps)
        (self._place_wagers if steps else self._place_baccarat_wagers)(sim, round_)
        rounds.close_wagering(round_id=round_.pk, by=self.staff)
        if steps:
            rounds.deal(round_id=round_.pk, by=self.staff, rng=self.rng)
        if self.rng.random() < VOID_CHANCE:
            return rounds.void_round(
                round_id=round_.pk, by=self.staff, reason="misdeal: a card was exposed"
            )
        if steps:
            self._decide(round_)
        # A game without steps deals its coup from the table's shoe now (the simulation's rng).
        rounds.showdown(round_id=round_.pk, by=self.staff, rng=None if steps else self.rng)
        return rounds.settle(round_id=round_.pk, by=self.staff)

    def _place_baccarat_wagers(self, sim: SimTable, round_: Round) -> None:
        """EZ Baccarat: a base wager on Player or Banker, now and then a side wager."""
        bets = []
        for seat, player in sim.seated.items():
            if seat == round_.player_dealer_seat or hasattr(player, "tppp"):
                continue
            if self.rng.random() < 0.1:
                continue  # sits this hand out
            base = self.rng.choice((500, 1_000, 2_500))
            side = {
                name: 500 for name in ("tie", "dragon_7", "panda_8") if self.rng.random() < 0.15
            }
            self._top_up(sim, player, base + sum(side.values()) + FEE_ROOM)
            square = self.rng.choice(("player", "banker"))
            bets.append(BetRequest(seat, **{square: base}, **side))
        if bets:
            wagering.place_bets(round_id=round_.pk, bets=bets, by=self.staff)

    def _place_wagers(self, sim: SimTable, round_: Round) -> None:
        seats = [
            seat
            for seat, player in sim.seated.items()
            if seat != round_.player_dealer_seat and not hasattr(player, "tppp")
        ]
        bets = []
        for seat in seats:
            if self.rng.random() < 0.1:
                continue  # sits this hand out
            player = sim.seated[seat]
            ante = self.rng.choice((500, 1_000, 2_500))
            trips = 500 if self.rng.random() < 0.5 else 0
            bad_beat = 500 if self.rng.random() < 0.2 else 0
            self._top_up(sim, player, 6 * ante + trips + bad_beat + FEE_ROOM)
            bets.append(BetRequest(seat, ante, ante, trips, bad_beat))
        if sim.backliner is not None and bets and self.rng.random() < 0.2:
            self._top_up(sim, sim.backliner, 3_000 + FEE_ROOM)
            seat = self.rng.choice(bets).seat
            bets.append(BetRequest(seat, 500, 500, backline_player_id=sim.backliner.pk))
        if bets:
            wagering.place_bets(round_id=round_.pk, bets=bets, by=self.staff)

    def _decide(self, round_: Round) -> None:
        """The players decide by the basic strategy; the dealer enters each street at once."""
        hands = list(round_.hands.order_by("seat"))
        holes = {hand.seat: [parse_card(c) for c in hand.hole] for hand in hands}
        multiple = max(round_.options["preflop_multiples"])
        live = [hand.seat for hand in hands]
        live = self._street(round_.pk, live, lambda s: preflop_plays(holes[s]), multiple, "check")
        flop = [parse_card(c) for c in rounds.reveal_flop(round_id=round_.pk, by=self.staff).board]
        live = self._street(round_.pk, live, lambda s: flop_plays(holes[s], flop), 2, "check")
        round_ = rounds.reveal_turn_and_river(round_id=round_.pk, by=self.staff)
        board = [parse_card(c) for c in round_.board]
        self._street(round_.pk, live, lambda s: river_plays(holes[s], board), 1, "fold")

    def _street(
        self, round_id: int, live: list[int], plays, multiple: int, otherwise: str
    ) -> list[int]:
        """Record one street's decisions; answer the seats still to decide later."""
        decisions = [
            (seat, "play", multiple) if plays(seat) else (seat, otherwise, 0) for seat in live
        ]
        if decisions:
            rounds.decide_street(round_id=round_id, decisions=decisions, by=self.staff)
        return [seat for seat, action, _ in decisions if action == "check"]
