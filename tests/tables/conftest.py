"""API client fixtures and a floor built through the real services."""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, field
from itertools import count

import pytest
from rest_framework.test import APIClient

from cardroom.errors import Refused, State
from cardroom.roles import Role
from rounds import services as rounds
from tables.models import Player, Round, Seating, Table
from tables.services import button, floor
from tests.factories import PlayerFactory, UserFactory
from wagers.services import chips, wagering


@pytest.fixture(autouse=True)
def _fast_passwords(settings):
    """Staff users are made by the dozen here; hashing their passwords properly is slow."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture
def supervisor(db):
    return UserFactory(username="supervisor", role=Role.FLOOR_SUPERVISOR)


@pytest.fixture
def dealer(db):
    return UserFactory(username="dealer", role=Role.HOUSE_DEALER)


@pytest.fixture
def compliance(db):
    return UserFactory(username="compliance", role=Role.COMPLIANCE_OFFICER)


@pytest.fixture
def administrator(db):
    return UserFactory(username="administrator", role=Role.ADMINISTRATOR)


@pytest.fixture
def api() -> Callable[..., APIClient]:
    """``api(user)``: a client authenticated as ``user``; ``api()`` an anonymous one."""

    def client_for(user=None) -> APIClient:
        client = APIClient()
        if user is not None:
            client.force_authenticate(user)
        return client

    return client_for


@pytest.fixture
def as_supervisor(api, supervisor) -> APIClient:
    return api(supervisor)


@pytest.fixture
def as_dealer(api, dealer) -> APIClient:
    return api(dealer)


@pytest.fixture
def as_compliance(api, compliance) -> APIClient:
    return api(compliance)


_names = count(1)


@dataclass
class Floor:
    """Floor state made with the services, as staff would make it.

    Money comes in as it does at a real table: every player seated brings ``chips`` (a
    patron buys in, a TPPP's bankroll is filled), the player-dealer posts ``bank_cents``
    and each seat joining a hand wagers ``ante_cents`` on Ante and on Blind.
    """

    supervisor: object
    dealer: object
    seed: int = 7
    players: dict[int, Player] = field(default_factory=dict)
    chips: int = 100_000
    bank_cents: int = 20_000
    ante_cents: int = 500

    def table(self, **options) -> Table:
        return floor.create_table(name=f"API-{next(_names)}", by=self.supervisor, options=options)

    def seat(self, table: Table, seat: int, player: Player | None = None) -> Seating:
        player = player or PlayerFactory()
        seating = floor.seat_player(
            table_id=table.pk, seat=seat, player_id=player.pk, by=self.dealer
        )
        self.bring_chips(table, player)
        return seating

    def bring_chips(self, table: Table, player: Player, amount: int | None = None) -> None:
        amount = self.chips if amount is None else amount
        if hasattr(player, "tppp"):
            chips.fill(table_id=table.pk, player_id=player.pk, amount=amount, by=self.dealer)
        else:
            chips.buy_in(
                table_id=table.pk, player_id=player.pk, amount=amount, currency=True, by=self.dealer
            )

    def wager(self, round_: Round, seat: int) -> None:
        ante = self.ante_cents
        wagering.place_bet(round_id=round_.pk, seat=seat, ante=ante, blind=ante, by=self.dealer)

    def ready_table(self, seats=(1, 2, 3, 4), first_offer_seat: int = 1, **options) -> Table:
        """A table with players seated and a game open."""
        table = self.table(**options)
        for seat in seats:
            self.seat(table, seat)
        floor.open_game_at(table_id=table.pk, first_offer_seat=first_offer_seat, by=self.supervisor)
        return table

    def bank(self, table: Table, seat: int):
        """Offer the button round until ``seat`` is asked; everyone before declines."""
        while True:
            offer = button.offer_button(table_id=table.pk, by=self.dealer)
            assert not isinstance(offer, Refused), offer.error
            accept = offer.seat == seat
            button.answer_offer(table_id=table.pk, offer_id=offer.pk, accept=accept, by=self.dealer)
            if accept:
                return offer

    def start(self, table: Table, banker_seat: int = 1, join=(2, 3)) -> Round:
        """A round in wagering: the bank posted, and each seat of ``join`` has wagered."""
        self.bank(table, banker_seat)
        round_ = rounds.start_round(table_id=table.pk, by=self.dealer)
        assert not isinstance(round_, Refused), round_.error
        wagering.post_bank(round_id=round_.pk, amount=self.bank_cents, by=self.dealer)
        for seat in join:
            self.wager(round_, seat)
        return round_

    def round_in(self, state: str, table: Table | None = None, join=(2, 3)) -> Round:
        """A round (PD seat 1, hands at seats 2 and 3) brought to ``state``.

        Seat 2 plays 4x pre-flop; seat 3 (and any other seat joined) checks, checks, then
        plays 1x on the river. In ``preflop``, ``flop`` and ``river`` seat 3 has yet to decide.
        """
        table = table or self.ready_table()
        round_ = self.start(table, join=join)
        by = self.dealer
        others = [seat for seat in join if seat != 2]

        def each(action, multiple=0):
            for seat in others:
                rounds.decide(
                    round_id=round_.pk, seat=seat, action=action, multiple=multiple, by=by
                )

        steps = [
            (State.NO_MORE_BETS, lambda: rounds.close_wagering(round_id=round_.pk, by=by)),
            (
                State.PREFLOP,
                lambda: rounds.deal(round_id=round_.pk, by=by, rng=random.Random(self.seed)),
            ),
            (
                State.FLOP,
                lambda: (
                    rounds.decide(round_id=round_.pk, seat=2, action="play", multiple=4, by=by),
                    each("check"),
                    rounds.reveal_flop(round_id=round_.pk, by=by),
                ),
            ),
            (
                State.RIVER,
                lambda: (each("check"), rounds.reveal_turn_and_river(round_id=round_.pk, by=by)),
            ),
            (
                State.SHOWDOWN,
                lambda: (each("play", 1), rounds.showdown(round_id=round_.pk, by=by)),
            ),
            (State.SETTLED, lambda: rounds.settle(round_id=round_.pk, by=by)),
        ]
        if state == State.VOIDED:
            rounds.void_round(round_id=round_.pk, by=self.supervisor, reason="misdeal")
        elif state != State.WAGERING:
            for reached, step in steps:
                step()
                if reached == state:
                    break
        round_.refresh_from_db()
        assert round_.state == state
        return round_


@pytest.fixture
def on_floor(supervisor, dealer) -> Floor:
    return Floor(supervisor=supervisor, dealer=dealer)
