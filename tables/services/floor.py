"""Players, tables and their options, seating, and games."""

from __future__ import annotations

from datetime import date
from typing import Any

from django.db import IntegrityError, transaction
from django.db.models import Q
from django.utils import timezone

from cardroom.clock import now
from cardroom.errors import Rule, RuleError, State, StateError
from tables import options as table_options
from tables.guards import require_no_round_in_play, require_open_game
from tables.models import (
    ButtonOffer,
    Game,
    GameEndReason,
    OfferAnswer,
    OfferRound,
    OfferRoundStatus,
    Player,
    Seating,
    Table,
    TableOptionChange,
    TPPPRegistration,
)
from tables.rules.rotation import tppp_excess
from tables.rules.seats import require_seat
from tables.selectors import active_round, open_game

from .locks import lock_table


def create_player(*, player_number: str, name: str, tppp: dict[str, Any] | None = None) -> Player:
    with transaction.atomic():
        if Player.objects.filter(player_number=player_number).exists():
            raise RuleError(
                f"player number {player_number} is already in use",
                rule=Rule.PLAYER_NUMBER,
                field="player_number",
            )
        player = Player.objects.create(player_number=player_number, name=name, created_at=now())
        if tppp:
            TPPPRegistration.objects.create(player=player, **tppp)
        return player


def create_table(*, name: str, by, options: dict[str, Any] | None = None) -> Table:
    """A new table with the default options sheet, overridden by ``options``."""
    options = options or {}
    with transaction.atomic():
        if Table.objects.filter(name=name).exists():
            raise RuleError(f"a table named {name!r} exists", rule=Rule.TABLE_NAME, field="name")
        table = Table(name=name, created_at=now())
        values = {**table_options.snapshot(table), **options}
        unknown = set(options) - set(table_options.EDITABLE_OPTIONS)
        if unknown:
            name_ = sorted(unknown)[0]
            raise RuleError(f"unknown option {name_}", rule=Rule.OPTIONS, field=name_)
        for field, value in table_options.validate(values).items():
            setattr(table, field, value)
        table.save()
        return table


def change_table_options(*, table_id: int, by, changes: dict[str, Any]) -> Table:
    """Change options between rounds only; every changed option is logged with old and new."""
    with transaction.atomic():
        table = lock_table(table_id)
        require_no_round_in_play(active_round(table), action="options change")
        unknown = set(changes) - set(table_options.EDITABLE_OPTIONS)
        if unknown:
            name = sorted(unknown)[0]
            raise RuleError(f"unknown option {name}", rule=Rule.OPTIONS, field=name)
        old = table_options.snapshot(table)
        new = table_options.validate({**old, **changes})
        moment = now()
        for name in table_options.EDITABLE_OPTIONS:
            if old[name] != new[name]:
                TableOptionChange.objects.create(
                    table=table,
                    option=name,
                    old_value=old[name],
                    new_value=new[name],
                    changed_at=moment,
                    changed_by=by,
                )
                setattr(table, name, new[name])
        table.save()
        return table


def _tppp_badge_valid(player: Player, on: date) -> bool | None:
    """True for a TPPP with a valid badge, False for an expired one, None for a patron."""
    registration = getattr(player, "tppp", None)
    if registration is None:
        return None
    return registration.badge_expires_on >= on


def seat_player(*, table_id: int, seat: int, player_id: int, by) -> Seating:
    with transaction.atomic():
        table = lock_table(table_id)
        require_seat(seat)
        player = Player.objects.select_related("tppp").filter(pk=player_id).first()
        if player is None:
            raise RuleError(f"no player {player_id}", rule=Rule.KNOWN_PLAYER, field="player")
        seated = list(Seating.objects.filter(table=table, left_at__isnull=True))
        if any(s.seat == seat for s in seated):
            raise RuleError(f"seat {seat} is taken", rule=Rule.SEATS, field="seat")
        elsewhere = (
            Seating.objects.filter(player=player, left_at__isnull=True)
            .select_related("table")
            .first()
        )
        if elsewhere is not None:
            raise RuleError(
                f"{player.name} is already seated at {elsewhere.table}, seat {elsewhere.seat}",
                rule=Rule.ONE_SEAT_PER_PLAYER,
                field="player",
            )
        moment = now()
        badge = _tppp_badge_valid(player, timezone.localdate(moment))
        if badge is False:
            raise RuleError(
                f"{player.name}'s TPPP badge expired on {player.tppp.badge_expires_on}",
                rule=Rule.TPPP_REGISTERED,
                field="player",
            )
        if badge:
            policy = table_options.rotation_policy(table_options.snapshot(table))
            breach = tppp_excess(1 + sum(1 for s in seated if s.is_tppp), policy)
            if breach is not None:
                raise breach.rule_error(field="player")
        try:
            with transaction.atomic():
                return Seating.objects.create(
                    table=table,
                    seat=seat,
                    player=player,
                    is_tppp=bool(badge),
                    sat_at=moment,
                    seated_by=by,
                )
        except IntegrityError:
            raise RuleError(
                f"seat {seat} or player is already taken", rule=Rule.SEATS, field="seat"
            ) from None


def unseat_player(*, table_id: int, seat: int, by) -> Seating:
    """A player leaves; never while in the hand in play or holding its player-dealer position."""
    with transaction.atomic():
        table = lock_table(table_id)
        seating = Seating.objects.filter(table=table, seat=seat, left_at__isnull=True).first()
        if seating is None:
            raise RuleError(f"seat {seat} is empty", rule=Rule.SEATS, field="seat")
        current = active_round(table)
        if current is not None:
            if current.player_dealer_id == seating.player_id:
                raise StateError(
                    f"seat {seat} holds the player-dealer position for round {current.number}, "
                    f"which is {current.get_state_display().lower()}; the player-dealer stays "
                    "for the whole hand",
                    state=State(current.state),
                    rule=Rule.STAYS_SEATED,
                )
            if current.hands.filter(player_id=seating.player_id).exists():
                raise StateError(
                    f"seat {seat} is in round {current.number}, which is "
                    f"{current.get_state_display().lower()}; a player leaves between hands",
                    state=State(current.state),
                    rule=Rule.ROUND_SEQUENCE,
                )
        moment = now()
        _release_button(table, seating, moment)
        seating.left_at = moment
        seating.unseated_by = by
        seating.save(update_fields=["left_at", "unseated_by"])
        return seating


def _release_button(table: Table, seating: Seating, moment) -> None:
    """A leaving player's pending offer is withdrawn; an acceptance not yet played is cancelled."""
    for offer_round in OfferRound.objects.filter(
        table=table,
        status__in=[OfferRoundStatus.OPEN, OfferRoundStatus.ACCEPTED],
        round__isnull=True,
    ):
        offers = offer_round.offers.filter(player_id=seating.player_id)
        offers.filter(answer=OfferAnswer.PENDING).update(
            answer=OfferAnswer.WITHDRAWN, answered_at=moment, reason="the player left the table"
        )
        if offers.filter(answer=OfferAnswer.ACCEPTED).exists():
            offer_round.status = OfferRoundStatus.CANCELLED
            offer_round.closed_at = moment
            offer_round.detail = f"seat {seating.seat} accepted, then left before the hand started"
            offer_round.save(update_fields=["status", "closed_at", "detail"])


def open_game_at(*, table_id: int, first_offer_seat: int, by) -> Game:
    with transaction.atomic():
        table = lock_table(table_id)
        if open_game(table) is not None:
            raise StateError(
                f"a game is already open at {table}", state=State.GAME_OPEN, rule=Rule.GAME
            )
        require_seat(first_offer_seat, field="first_offer_seat")
        return Game.objects.create(
            table=table, opened_at=now(), opened_by=by, first_offer_seat=first_offer_seat
        )


def end_game(game: Game, *, by, reason: str, detail: str = "", moment=None) -> Game:
    """Record the end of a game (the caller holds the table lock)."""
    moment = moment or now()
    ButtonOffer.objects.filter(offer_round__game=game, answer=OfferAnswer.PENDING).update(
        answer=OfferAnswer.WITHDRAWN, answered_at=moment, reason="the game ended"
    )
    OfferRound.objects.filter(
        Q(status=OfferRoundStatus.OPEN) | Q(status=OfferRoundStatus.ACCEPTED, round__isnull=True),
        game=game,
    ).update(status=OfferRoundStatus.CANCELLED, closed_at=moment, detail="the game ended")
    game.ended_at = moment
    game.ended_by = by
    game.end_reason = reason
    game.end_detail = detail
    game.save(update_fields=["ended_at", "ended_by", "end_reason", "end_detail"])
    return game


def close_game(*, table_id: int, by, detail: str = "") -> Game:
    with transaction.atomic():
        table = lock_table(table_id)
        game = require_open_game(table, open_game(table))
        require_no_round_in_play(active_round(table), action="a game closes")
        return end_game(game, by=by, reason=GameEndReason.CLOSED, detail=detail)
