"""Players, tables and their options, seating, and games."""

from __future__ import annotations

from datetime import date, datetime
from typing import Any

from django.db import IntegrityError, transaction
from django.db.models import F, Q
from django.utils import timezone

from cardroom.clock import now
from cardroom.errors import Rule, RuleError, State, StateError
from games import catalog
from tables import options as table_options
from tables.guards import (
    require_closable,
    require_no_round_in_play,
    require_not_excluded,
    require_open_game,
    require_table_open,
)
from tables.models import (
    TPPP_REGISTRATION_FIELDS,
    ButtonOffer,
    Game,
    GameEndReason,
    HoldEnd,
    IdType,
    OfferAnswer,
    OfferRound,
    OfferRoundStatus,
    Player,
    PlayerIdentificationChange,
    SeatHold,
    Seating,
    Table,
    TableOptionChange,
    TPPPRegistration,
    TPPPRegistrationChange,
    Waitlist,
)
from tables.rules import seat_requests as seat_rules
from tables.rules import waitlist as waitlist_rules
from tables.rules.identity import require_identification
from tables.rules.rotation import tppp_excess
from tables.rules.seats import require_seat
from tables.selectors.exclusions import exclusion_in_force
from tables.selectors.floor import active_round, open_game

from . import contracts, listing, seat_requests
from .locks import lock_table

IDENTIFICATION_FIELDS = ("id_type", "id_number", "id_issued_by", "date_of_birth")


def _identification(values: dict[str, Any], *, registered_on: date) -> dict[str, Any]:
    """The identification fields of ``values`` (blank when missing), checked as a whole
    (docs/rules.md §3.3, ``floor.identification``)."""
    fields = {name: (values.get(name) or "").strip() for name in IDENTIFICATION_FIELDS[:3]}
    fields["date_of_birth"] = values.get("date_of_birth")
    require_identification(
        **fields,
        types=IdType.values,
        today=timezone.localdate(now()),
        registered_on=registered_on,
    )
    return fields


def create_player(
    *,
    player_number: str,
    name: str,
    tppp: dict[str, Any] | None = None,
    id_type: str = "",
    id_number: str = "",
    id_issued_by: str = "",
    date_of_birth: date | None = None,
) -> Player:
    """A new player, with a TPPP's registration and the identification a currency
    transaction log needs (both optional)."""
    moment = now()
    identification = _identification(
        {
            "id_type": id_type,
            "id_number": id_number,
            "id_issued_by": id_issued_by,
            "date_of_birth": date_of_birth,
        },
        registered_on=timezone.localdate(moment),
    )
    with transaction.atomic():
        if Player.objects.filter(player_number=player_number).exists():
            raise RuleError(
                f"player number {player_number} is already in use",
                rule=Rule.PLAYER_NUMBER,
                field="player_number",
            )
        player = Player.objects.create(
            player_number=player_number, name=name, created_at=moment, **identification
        )
        if tppp:
            TPPPRegistration.objects.create(player=player, **tppp)
        return player


NAMING_FIELDS = ("name", "player_number")


def _naming(player: Player, values: dict[str, Any]) -> dict[str, str]:
    """The player's name and number after a correction: neither empty, the number unique."""
    named = {name: (values.get(name) or "").strip() for name in NAMING_FIELDS}
    if not named["name"]:
        raise RuleError("a player has a name", rule=Rule.IDENTIFICATION, field="name")
    if not named["player_number"]:
        raise RuleError(
            "a player has a player number", rule=Rule.PLAYER_NUMBER, field="player_number"
        )
    taken = Player.objects.filter(player_number=named["player_number"]).exclude(pk=player.pk)
    if taken.exists():
        raise RuleError(
            f"player number {named['player_number']} is already in use",
            rule=Rule.PLAYER_NUMBER,
            field="player_number",
        )
    return named


def update_player_identification(*, player_id: int, by, changes: dict[str, Any]) -> Player:
    """A supervisor records or corrects a player's name, player number or identification:
    the fields in ``changes`` replace the recorded ones, and the result is checked as a
    whole (the age on the day the player was registered). The request is on the
    staff-action trail (``console.audit``, the number masked); the values replaced and
    recorded are kept as a ``PlayerIdentificationChange`` (history: a correction never
    erases what it replaced)."""
    fields = (*NAMING_FIELDS, *IDENTIFICATION_FIELDS)
    unknown = set(changes) - set(fields)
    if unknown:
        name = sorted(unknown)[0]
        raise RuleError(
            f"{name} is not an identification field", rule=Rule.IDENTIFICATION, field=name
        )
    with transaction.atomic():
        player = Player.objects.select_for_update().get(pk=player_id)
        recorded = {name: getattr(player, name) for name in fields}
        wanted = {**recorded, **changes}
        corrected = {
            **_naming(player, wanted),
            **_identification(wanted, registered_on=timezone.localdate(player.created_at)),
        }
        if corrected == recorded:
            return player
        for name, value in corrected.items():
            setattr(player, name, value)
        try:
            with transaction.atomic():
                player.save(update_fields=list(fields))
        except IntegrityError:
            raise RuleError(
                f"player number {corrected['player_number']} is already in use",
                rule=Rule.PLAYER_NUMBER,
                field="player_number",
            ) from None
        if corrected["name"] != recorded["name"]:
            # The floor map shows the name at the player's table: its part is drawn again.
            Table.objects.filter(seatings__player=player, seatings__left_at__isnull=True).update(
                version=F("version") + 1
            )
        PlayerIdentificationChange.objects.create(
            player=player,
            changed_at=now(),
            changed_by=by,
            old_value=_as_record(recorded),
            new_value=_as_record(corrected),
        )
        return player


def _as_record(values: dict[str, Any]) -> dict[str, Any]:
    date_of_birth = values.get("date_of_birth")
    return {**values, "date_of_birth": date_of_birth.isoformat() if date_of_birth else None}


TPPP_TEXT_LIMITS = {
    name: TPPPRegistration._meta.get_field(name).max_length
    for name in ("business_name", "badge_number")
}


def _registration(values: dict[str, Any]) -> dict[str, Any]:
    """A TPPP's registration as it would be recorded (docs/rules.md §8.7,
    ``tppp.registered``): the business's name, the badge number and the date the badge
    expires, each present; the texts trimmed."""
    checked: dict[str, Any] = {}
    for name, limit in TPPP_TEXT_LIMITS.items():
        value = values.get(name)
        text = value.strip() if isinstance(value, str) else ""
        if not text:
            what = "the business's name" if name == "business_name" else "the badge number"
            raise RuleError(
                f"a TPPP's registration records {what}", rule=Rule.TPPP_REGISTERED, field=name
            )
        if len(text) > limit:
            raise RuleError(f"at most {limit} characters", rule=Rule.TPPP_REGISTERED, field=name)
        checked[name] = text
    expires = values.get("badge_expires_on")
    if not isinstance(expires, date) or isinstance(expires, datetime):
        raise RuleError(
            "a TPPP's registration records the date the badge expires",
            rule=Rule.TPPP_REGISTERED,
            field="badge_expires_on",
        )
    checked["badge_expires_on"] = expires
    return checked


def update_tppp_registration(*, player_id: int, by, changes: dict[str, Any]) -> TPPPRegistration:
    """A supervisor renews a TPPP's badge (a new expiry) or corrects the business's name or
    the badge number (docs/rules.md §8.7): the fields in ``changes`` replace the recorded
    ones, in one transaction with the registration's row locked. The values replaced and
    recorded are kept as a ``TPPPRegistrationChange`` (history: a change never erases what
    it replaced). A renewed badge counts from that moment: the TPPP is seated again while it
    is valid (``seat_player``); an expiry set in the past is recorded too (a correction),
    and the TPPP is then refused a seat."""
    unknown = set(changes) - set(TPPP_REGISTRATION_FIELDS)
    if unknown:
        name = sorted(unknown)[0]
        raise RuleError(
            f"{name.replace('_', ' ')} is not part of a TPPP's registration",
            rule=Rule.TPPP_REGISTERED,
            field=name,
        )
    with transaction.atomic():
        registration = (
            TPPPRegistration.objects.select_for_update()
            .select_related("player")
            .filter(player_id=player_id)
            .first()
        )
        if registration is None:
            player = Player.objects.get(pk=player_id)  # no such player: DoesNotExist (404)
            raise RuleError(
                f"{player.name} is not a TPPP player: there is no registration to change",
                rule=Rule.TPPP_REGISTERED,
            )
        recorded = {name: getattr(registration, name) for name in TPPP_REGISTRATION_FIELDS}
        registered = _registration({**recorded, **changes})
        if registered == recorded:
            return registration
        for name, value in registered.items():
            setattr(registration, name, value)
        registration.save(update_fields=list(TPPP_REGISTRATION_FIELDS))
        TPPPRegistrationChange.objects.create(
            registration=registration,
            changed_at=now(),
            changed_by=by,
            old_value=_as_registration_record(recorded),
            new_value=_as_registration_record(registered),
        )
        return registration


def _as_registration_record(values: dict[str, Any]) -> dict[str, Any]:
    return {**values, "badge_expires_on": values["badge_expires_on"].isoformat()}


def create_table(
    *, name: str, by, options: dict[str, Any] | None = None, game: str | None = None
) -> Table:
    """A new table of ``game`` (Ultimate Texas Hold'em when none is named) with the game's
    default options sheet, overridden by ``options``. The game never changes afterwards."""
    options = options or {}
    with transaction.atomic():
        if Table.objects.filter(name=name).exists():
            raise RuleError(f"a table named {name!r} exists", rule=Rule.TABLE_NAME, field="name")
        try:
            rules = catalog.listing(game)
        except RuleError as error:
            raise RuleError(error.message, rule=Rule.OPTIONS, field="game") from None
        table = Table(
            name=name,
            created_at=now(),
            game=rules.key,
            seat_count=rules.default_seats,
            game_options=dict(rules.own_defaults),
        )
        values = {**table_options.snapshot(table), **options}
        unknown = set(options) - set(table_options.editable_options(rules))
        if unknown:
            name_ = sorted(unknown)[0]
            raise RuleError(f"unknown option {name_}", rule=Rule.OPTIONS, field=name_)
        table_options.store(table, table_options.validate(values))
        table.save()
        return table


def change_table_options(*, table_id: int, by, changes: dict[str, Any]) -> Table:
    """Change options between rounds only; every changed option is logged with old and new."""
    with transaction.atomic():
        table = lock_table(table_id)
        require_no_round_in_play(active_round(table), action="options change")
        sheet = table_options.editable_options(table.game_listing)
        unknown = set(changes) - set(sheet)
        if unknown:
            name = sorted(unknown)[0]
            raise RuleError(f"unknown option {name}", rule=Rule.OPTIONS, field=name)
        old = table_options.snapshot(table)
        new = table_options.validate({**old, **changes})
        if new.get("seats", table.seat_count) < table.seat_count:
            _require_seats_empty_above(table, new["seats"])
        moment = now()
        for name in sheet:
            if old[name] != new[name]:
                TableOptionChange.objects.create(
                    table=table,
                    option=name,
                    old_value=old[name],
                    new_value=new[name],
                    changed_at=moment,
                    changed_by=by,
                )
        table_options.store(table, new)
        table.save()
        stakes = ("minimum_cents", "maximum_cents")
        table.waitlist_moved = None
        if any(old[name] != new[name] for name in stakes):
            table.waitlist_moved = _limits_changed(
                table, (old["minimum_cents"], old["maximum_cents"]), by=by, moment=moment
            )
        return table


def _require_seats_empty_above(table: Table, seats: int) -> None:
    """A table loses seats only when nobody sits in them."""
    taken = (
        Seating.objects.filter(table=table, left_at__isnull=True, seat__gt=seats)
        .order_by("seat")
        .values_list("seat", flat=True)
        .first()
    )
    if taken is not None:
        raise RuleError(
            f"seat {taken} is taken: the table keeps it until the player leaves",
            rule=Rule.OPTIONS,
            field="seats",
        )


def _limits_changed(table: Table, old: tuple[int, int], *, by, moment):
    """The table plays other stakes (docs/rules.md §3.6): calls to its seats are withdrawn
    (the players keep their places); if no other open table plays the old stakes, their list
    moves to the list of the new limits. Answers (old list, new list, players moved) or None."""
    listing.withdraw_calls(
        table.pk, by=by, moment=moment, reason=waitlist_rules.Reason.LIMITS_CHANGED
    )
    seat_requests.table_changed(table, by=by, moment=moment, end=seat_rules.End.LIMITS_CHANGED)
    source = Waitlist.objects.filter(
        game=table.game, minimum_cents=old[0], maximum_cents=old[1]
    ).first()
    if source is None or table.closed_at is not None:
        return None
    still_played = Table.objects.filter(
        game=table.game, minimum_cents=old[0], maximum_cents=old[1], closed_at__isnull=True
    ).exists()
    if still_played:
        return None
    moved = listing.move_list(
        source, table.minimum_cents, table.maximum_cents, by=by, moment=moment
    )
    return None if moved is None else (source, *moved)


def _tppp_badge_valid(player: Player, on: date) -> bool | None:
    """True for a TPPP with a valid badge, False for an expired one, None for a patron."""
    registration = getattr(player, "tppp", None)
    if registration is None:
        return None
    return registration.badge_expires_on >= on


def seat_player(*, table_id: int, seat: int, player_id: int, by) -> Seating:
    with transaction.atomic():
        table = lock_table(table_id)
        require_table_open(table, action="a player sits")
        require_seat(seat, seat_count=table.seat_count)
        player = Player.objects.select_related("tppp").filter(pk=player_id).first()
        if player is None:
            raise RuleError(f"no player {player_id}", rule=Rule.KNOWN_PLAYER, field="player")
        require_not_excluded(exclusion_in_force(player_id=player.pk), action="a seat")
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
            contracts.require_contract(player, table, moment)  # docs/rules.md §8.7
            policy = table_options.rotation_policy(table_options.snapshot(table))
            breach = tppp_excess(1 + sum(1 for s in seated if s.is_tppp), policy)
            if breach is not None:
                raise breach.rule_error(field="player")
        try:
            with transaction.atomic():
                seating = Seating.objects.create(
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
        # A player who takes a seat leaves every waitlist they are on (docs/rules.md §3.6).
        listing.seated(seating, by=by, moment=moment)
        seat_requests.seated(seating, by=by, moment=moment)
        return seating


def unseat_player(*, table_id: int, seat: int, by, moving: bool = False) -> Seating:
    """A player leaves; never while in the hand in play or holding its player-dealer position.
    ``moving``: to a seat at another table in the same step (their table change stays open
    until they sit there)."""
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
        _end_hold(seating, by, moment)
        seating.left_at = moment
        seating.unseated_by = by
        seating.save(update_fields=["left_at", "unseated_by"])
        if not moving:
            seat_requests.left(seating, by=by, moment=moment)
        return seating


def _end_hold(seating: Seating, by, moment) -> None:
    """A held seat's player leaves: picked up once the hold ran out, or left before."""
    hold = SeatHold.objects.filter(
        table_id=seating.table_id, seat=seating.seat, ended_at__isnull=True
    ).first()
    if hold is not None:
        hold.ended_at = moment
        hold.ended_by = by
        hold.end = HoldEnd.PICKED_UP if hold.until <= moment else HoldEnd.LEFT
        hold.save(update_fields=["ended_at", "ended_by", "end"])


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
        require_table_open(table, action="a game opens")
        if open_game(table) is not None:
            raise StateError(
                f"a game is already open at {table}", state=State.GAME_OPEN, rule=Rule.GAME
            )
        require_seat(first_offer_seat, field="first_offer_seat", seat_count=table.seat_count)
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


def mark_table_closed(*, table_id: int, by) -> Table:
    """The floor's last step of closing a table (docs/rules.md §3.7): with no round in play,
    no game open and nobody seated, the table is recorded as closed, by whom and when. The
    game and the seats are ended first, the chips settled, by the money layer's
    ``wagers.services.closing.close_table`` in the same transaction."""
    with transaction.atomic():
        table = lock_table(table_id)
        require_closable(table, active_round(table))
        if open_game(table) is not None:
            raise StateError(
                f"a game is open at {table}; it ends before the table closes",
                state=State.GAME_OPEN,
                rule=Rule.CLOSED_TABLE,
            )
        if Seating.objects.filter(table=table, left_at__isnull=True).exists():
            raise StateError(
                f"players are seated at {table}; each leaves, their chips settled, before "
                "the table closes",
                state=State.TABLE_OPEN,
                rule=Rule.CLOSED_TABLE,
            )
        table.closed_at = now()
        table.closed_by = by
        table.save(update_fields=["closed_at", "closed_by"])
        # Calls to its seats are withdrawn: the players keep their places (§3.6); its
        # must-move links and the table changes to it end.
        seat_requests.table_changed(
            table, by=by, moment=table.closed_at, end=seat_rules.End.TABLE_CLOSED
        )
        listing.withdraw_calls(
            table.pk, by=by, moment=table.closed_at, reason=waitlist_rules.Reason.TABLE_CLOSED
        )
        return table


def reopen_table(*, table_id: int, by) -> Table:
    """A floor supervisor reopens a closed table: it seats players and opens games again.
    Who closed it and when stay on the staff-action trail."""
    with transaction.atomic():
        table = lock_table(table_id)
        if table.closed_at is None:
            raise StateError(
                f"{table} is open; only a closed table is reopened",
                state=State.TABLE_OPEN,
                rule=Rule.CLOSED_TABLE,
            )
        table.closed_at = None
        table.closed_by = None
        table.save(update_fields=["closed_at", "closed_by"])
        return table
