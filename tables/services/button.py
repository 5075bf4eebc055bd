"""The player-dealer button: offers clockwise, answers, keeping the position (RULEBOOK §6).

Every offer and answer is a row with its timestamp, seat, player and staff
member. A seat the rules pass over is recorded too, with the reason, so the
rotation record shows why the button skipped it.
"""

from __future__ import annotations

from django.db import transaction

from cardroom.clock import now
from tables import options as table_options
from tables.models import (
    ButtonOffer,
    Game,
    OfferAnswer,
    OfferRound,
    OfferRoundStatus,
    Round,
    Seating,
    Table,
)
from tables.rules.errors import StateError
from tables.rules.rotation import (
    BankedHand,
    SeatedPlayer,
    ineligibility,
    may_keep_without_offers,
    offer_order,
    offers_start_at,
)

from .locks import active_round, lock_table, open_game

BUTTON_RULE = "RULEBOOK §6: the player-dealer position rotates clockwise"
NO_ACCEPT_MESSAGE = (
    "no eligible seated player accepted the player-dealer position, so no round can start "
    "at this table until one does: begin a new offer round (RULEBOOK §6)"
)


def banked_history(table: Table, *, last: int = 8) -> list[BankedHand]:
    """The table's most recent hands (voided ones too: their player-dealer held the position)."""
    rounds = Round.objects.filter(table=table).order_by("-number")[:last]
    return [r.banked_hand() for r in reversed(rounds)]


def game_history_since(game: Game, since) -> list[BankedHand]:
    rounds = Round.objects.filter(game=game, started_at__gt=since).order_by("number")
    return [r.banked_hand() for r in rounds]


def _require_between_hands(table: Table) -> Game:
    game = open_game(table)
    if game is None:
        raise StateError(f"no game is open at {table}; a floor supervisor opens it", state="closed")
    current = active_round(table)
    if current is not None:
        raise StateError(
            f"round {current.number} is {current.get_state_display().lower()}; "
            "the button moves between hands",
            state=current.state,
        )
    return game


def _unplayed_acceptance(table: Table) -> OfferRound | None:
    return OfferRound.objects.filter(
        table=table, status=OfferRoundStatus.ACCEPTED, round__isnull=True
    ).first()


def _seated(table: Table) -> dict[int, Seating]:
    return {s.seat: s for s in Seating.objects.filter(table=table, left_at__isnull=True)}


def offer_button(*, table_id: int, by) -> ButtonOffer:
    """Offer the position to the next eligible seat clockwise, or record that none is left."""
    with transaction.atomic():
        table = lock_table(table_id)
        game = _require_between_hands(table)
        accepted = _unplayed_acceptance(table)
        if accepted is not None:
            seat = accepted.offers.get(answer=OfferAnswer.ACCEPTED).seat
            raise StateError(
                f"seat {seat} has accepted the player-dealer position; start the round",
                state="accepted",
            )
        moment = now()
        offer_round = OfferRound.objects.filter(table=table, status=OfferRoundStatus.OPEN).first()
        if offer_round is None:
            last = Round.objects.filter(game=game).order_by("-number").first()
            offer_round = OfferRound.objects.create(
                table=table,
                game=game,
                start_seat=offers_start_at(
                    last.player_dealer_seat if last else None, game.first_offer_seat
                ),
                started_at=moment,
                started_by=by,
                status=OfferRoundStatus.OPEN,
            )
        pending = offer_round.offers.filter(answer=OfferAnswer.PENDING).first()
        if pending is not None:
            raise StateError(
                f"seat {pending.seat} has not yet answered the offer", state="offer_pending"
            )
        offered = set(offer_round.offers.values_list("player_id", flat=True))
        seated = _seated(table)
        history = banked_history(table)
        policy = table_options.rotation_policy(table_options.snapshot(table))
        for seat in offer_order(seated, offer_round.start_seat):
            seating = seated[seat]
            if seating.player_id in offered:
                continue
            candidate = SeatedPlayer(seat, seating.player_id, seating.is_tppp)
            reason = ineligibility(candidate, history, policy)
            offer = ButtonOffer(
                offer_round=offer_round,
                seat=seat,
                player_id=seating.player_id,
                is_tppp=seating.is_tppp,
                offered_at=moment,
                offered_by=by,
            )
            if reason is None:
                offer.save()
                return offer
            offer.answer = OfferAnswer.INELIGIBLE
            offer.answered_at = moment
            offer.reason = reason
            offer.save()
        offer_round.status = OfferRoundStatus.EXHAUSTED
        offer_round.closed_at = moment
        offer_round.detail = NO_ACCEPT_MESSAGE
        offer_round.save(update_fields=["status", "closed_at", "detail"])
    # Raised after the commit: the exhausted offer round stays on the record.
    raise StateError(NO_ACCEPT_MESSAGE, state="no_player_dealer", rule=BUTTON_RULE)


def answer_offer(*, table_id: int, offer_id: int, accept: bool, by) -> ButtonOffer:
    with transaction.atomic():
        table = lock_table(table_id)
        offer = (
            ButtonOffer.objects.select_related("offer_round")
            .filter(offer_round__table=table, pk=offer_id)
            .first()
        )
        if offer is None:
            raise ButtonOffer.DoesNotExist(f"no offer {offer_id} at {table}")
        if offer.offer_round.status != OfferRoundStatus.OPEN:
            raise StateError(
                f"this offer round is {offer.offer_round.get_status_display().lower()}; "
                "the offer can no longer be answered",
                state=offer.offer_round.status,
            )
        if offer.answer != OfferAnswer.PENDING:
            raise StateError(
                f"this offer was already {offer.get_answer_display().lower()}", state=offer.answer
            )
        moment = now()
        offer.answered_at = moment
        offer.answered_by = by
        offer.answer = OfferAnswer.ACCEPTED if accept else OfferAnswer.DECLINED
        offer.save(update_fields=["answer", "answered_at", "answered_by"])
        if accept:
            offer_round = offer.offer_round
            offer_round.status = OfferRoundStatus.ACCEPTED
            offer_round.closed_at = moment
            offer_round.save(update_fields=["status", "closed_at"])
        return offer


def keep_button(*, table_id: int, by) -> ButtonOffer:
    """With "offer every hand" off, the player-dealer keeps the position for a second hand."""
    with transaction.atomic():
        table = lock_table(table_id)
        game = _require_between_hands(table)
        policy = table_options.rotation_policy(table_options.snapshot(table))
        if policy.offer_every_hand:
            raise StateError(
                "this table offers the position before every hand; keeping it without offers "
                "is not allowed (rotation policy: offer every hand)",
                state="offer_every_hand",
                rule=BUTTON_RULE,
            )
        last = Round.objects.filter(game=game).order_by("-number").first()
        seating = _seated(table).get(last.player_dealer_seat) if last else None
        history = banked_history(table)
        if (
            seating is None
            or seating.player_id != last.player_dealer_id
            or _unplayed_acceptance(table) is not None
            or OfferRound.objects.filter(table=table, status=OfferRoundStatus.OPEN).exists()
            or not may_keep_without_offers(
                SeatedPlayer(seating.seat, seating.player_id, seating.is_tppp), history, policy
            )
        ):
            raise StateError(
                "the last player-dealer cannot keep the position without an offer round "
                "(only for a second consecutive hand, while seated, and within every limit)",
                state="offers_required",
                rule=BUTTON_RULE,
            )
        moment = now()
        offer_round = OfferRound.objects.create(
            table=table,
            game=game,
            start_seat=seating.seat,
            started_at=moment,
            started_by=by,
            status=OfferRoundStatus.ACCEPTED,
            kept_without_offers=True,
            closed_at=moment,
            detail="kept the position for a second consecutive hand (offer every hand off)",
        )
        return ButtonOffer.objects.create(
            offer_round=offer_round,
            seat=seating.seat,
            player_id=seating.player_id,
            is_tppp=seating.is_tppp,
            offered_at=moment,
            offered_by=by,
            answer=OfferAnswer.ACCEPTED,
            answered_at=moment,
            answered_by=by,
            reason=offer_round.detail,
        )
