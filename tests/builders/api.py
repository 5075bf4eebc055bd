"""The API tests' floor (the ``on_floor`` fixture), over ``tests.builders.floor``."""

from __future__ import annotations

import random
from dataclasses import dataclass

from cardroom.errors import State
from rounds import services as rounds
from tables.models import ButtonOffer, Player, Round, Seating, Table
from tables.services import floor
from tests.builders.floor import (
    PLAY_4X,
    PLAY_RIVER,
    Staff,
    advance,
    bring_chips,
    give_button,
    layout_of,
    make_player,
    open_floor,
    start_with_hands,
    unique,
)
from wagers.services.wagering import BetRequest


@dataclass
class Floor:
    """Floor state made with the services, as staff would make it.

    Money comes in as it does at a real table: every player seated brings ``chips`` (a
    patron buys in, a TPPP's bankroll is filled), the player-dealer posts ``bank_cents``
    and each seat joining a hand wagers ``ante_cents`` on Ante and on Blind.
    """

    staff: Staff
    seed: int = 7
    chips: int = 100_000
    bank_cents: int = 20_000
    ante_cents: int = 500

    @property
    def supervisor(self):
        return self.staff.supervisor

    @property
    def dealer(self):
        return self.staff.dealer

    def table(self, **options) -> Table:
        """A table with no one seated and no game."""
        return self.ready_table(seats=(), open_game=False, **options)

    def seat(self, table: Table, seat: int, player: Player | None = None) -> Seating:
        player = player or make_player()
        seating = floor.seat_player(
            table_id=table.pk, seat=seat, player_id=player.pk, by=self.dealer
        )
        self.bring_chips(table, player)
        return seating

    def bring_chips(self, table: Table, player: Player, amount: int | None = None) -> None:
        amount = self.chips if amount is None else amount
        bring_chips(table.pk, player, amount, by=self.dealer)

    def ready_table(
        self, seats=(1, 2, 3, 4), first_offer_seat: int = 1, open_game: bool = True, **options
    ) -> Table:
        """A table with players seated (each with ``chips``) and a game open."""
        return open_floor(
            layout_of(seats),
            staff=self.staff,
            first_offer_seat=first_offer_seat,
            open_game=open_game,
            chips=self.chips,
            name=unique("API"),
            **options,
        ).table

    def bank(self, table: Table, seat: int) -> ButtonOffer:
        """Offer the button round until ``seat`` is asked; everyone before declines."""
        return give_button(table.pk, seat, by=self.dealer)

    def start(self, table: Table, banker_seat: int = 1, join=(2, 3)) -> Round:
        """A round in wagering: the bank posted, and each seat of ``join`` has wagered."""
        self.bank(table, banker_seat)
        ante = self.ante_cents
        round_, _ = start_with_hands(
            table.pk,
            by=self.dealer,
            bank=self.bank_cents,
            bets=[BetRequest(seat, ante, ante) for seat in join],
        )
        return round_

    def round_in(self, state: str, table: Table | None = None, join=(2, 3)) -> Round:
        """A round (PD seat 1, hands at seats 2 and 3) brought to ``state``.

        Seat 2 plays 4x pre-flop; seat 3 (and any other seat joined) checks, checks, then
        plays 1x on the river. In ``preflop``, ``flop`` and ``river`` seat 3 has yet to decide.
        """
        round_ = self.start(table or self.ready_table(), join=join)
        if state == State.VOIDED:
            rounds.void_round(round_id=round_.pk, by=self.supervisor, reason="misdeal")
        else:
            plans = {seat: PLAY_4X if seat == 2 else PLAY_RIVER for seat in join}
            advance(round_, State(state), by=self.dealer, plans=plans, rng=random.Random(self.seed))
        round_.refresh_from_db()
        assert round_.state == state
        return round_


def auth_header(user) -> dict[str, str]:
    """The ``Authorization`` header of an API token for ``user`` (a terminal's or a script's
    credentials), for clients that send raw headers rather than ``force_authenticate``."""
    from knox.models import AuthToken

    _, token = AuthToken.objects.create(user=user)  # django-rest-knox: expires (docs/api.md)
    return {"Authorization": f"Token {token}"}
