"""The player-dealer button: offers clockwise, answers, keeping it, taking it for a hand
(docs/rules.md §8).

Every offer and answer is a row with its timestamp, seat, player and staff member. A seat
the rules pass over is recorded too, with the reason, so the rotation record shows why
the button skipped it. What may happen is decided by ``tables.selectors.button.button_state``,
read here under the table's lock: the table view and these services never disagree.

A refusal that is itself a record (an exhausted offer round, an acceptance cancelled, a
game ended by the 40-minute rule) is returned as ``Refused``, not raised: the record
commits with the caller's transaction, and the caller answers the refusal.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from django.db import connection, transaction

from cardroom.clock import now
from cardroom.errors import Refused, Rule, State, StateError
from tables import sql
from tables.guards import require_not_excluded
from tables.models import (
    ButtonOffer,
    Game,
    GameEndReason,
    OfferAnswer,
    OfferRound,
    OfferRoundStatus,
    Seating,
    Table,
)
from tables.rules.deck import next_deck
from tables.rules.rotation import (
    SeatedPlayer,
    consecutive_hands,
    ineligibility,
    tppp_excess,
    window_shortfall,
)
from tables.selectors.button import NO_PLAYER_DEALER_STATUS, button_state
from tables.selectors.exclusions import exclusion_in_force

from .floor import end_game
from .locks import lock_table

BARRED_BUTTON = "the player-dealer button (a floor supervisor unseats the patron)"


def offer_button(*, table_id: int, by) -> ButtonOffer | Refused:
    """Offer the position to the next eligible seat clockwise, or record that none is left.

    Answers the offer, or ``Refused`` (409 ``no_player_dealer``) when every seat has
    declined or been passed over: the exhausted offer round is kept on the record.
    """
    with transaction.atomic():
        table = lock_table(table_id)
        button = button_state(table)
        plan = button.require_offer()
        if plan.seating is not None:  # a barred patron is not offered the button (§3.9)
            require_not_excluded(
                exclusion_in_force(player_id=plan.seating.player_id), action=BARRED_BUTTON
            )
        moment = now()
        offer_round = button.offer_round
        if offer_round is None or offer_round.status != OfferRoundStatus.OPEN:
            offer_round = OfferRound(
                table=table,
                game=button.game,
                start_seat=plan.start_seat,
                started_at=moment,
                started_by=by,
                status=OfferRoundStatus.OPEN,
            )

        def offer(seating: Seating, **answer) -> ButtonOffer:
            return ButtonOffer(
                offer_round=offer_round,
                seat=seating.seat,
                player_id=seating.player_id,
                is_tppp=seating.is_tppp,
                offered_at=moment,
                offered_by=by,
                **answer,
            )

        offers = [
            offer(seating, answer=OfferAnswer.INELIGIBLE, answered_at=moment, reason=str(breach))
            for seating, breach in plan.passed_over
        ]
        if plan.seating is not None:
            offers.append(offer(plan.seating))
        _record(offer_round, offers)
        if plan.seating is not None:
            return offers[-1]
        offer_round.status = OfferRoundStatus.EXHAUSTED
        offer_round.closed_at = moment
        offer_round.detail = NO_PLAYER_DEALER_STATUS
        offer_round.save(update_fields=["status", "closed_at", "detail"])
        return Refused(
            StateError(
                NO_PLAYER_DEALER_STATUS, state=State.NO_PLAYER_DEALER, rule=Rule.NO_PLAYER_DEALER
            )
        )


def answer_offer(*, table_id: int, offer_id: int, accept: bool, by) -> ButtonOffer:
    with transaction.atomic():
        table = lock_table(table_id)
        moment = now()
        if connection.vendor == "postgresql":
            answered = sql.answer_offer(table.pk, offer_id, accept, by, moment)
            if answered is not None:
                return answered
        # Elsewhere, or refused (the same reads and words on PostgreSQL: nothing was written).
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
                state=State.OFFER_ROUND_CLOSED,
                rule=Rule.OFFER_ROUND,
            )
        if offer.answer != OfferAnswer.PENDING:
            raise StateError(
                f"this offer was already {offer.get_answer_display().lower()}",
                state=State.OFFER_ANSWERED,
                rule=Rule.OFFER_ROUND,
            )
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


KEPT = "kept the position for a second consecutive hand (offer every hand off)"


def keep_button(*, table_id: int, by) -> ButtonOffer:
    """With "offer every hand" off, the player-dealer keeps the position for a second hand,
    before any offer round for it has begun (docs/rules.md §8.4)."""
    with transaction.atomic():
        table = lock_table(table_id)
        button = button_state(table)
        seating = button.require_keeper()
        require_not_excluded(exclusion_in_force(player_id=seating.player_id), action=BARRED_BUTTON)
        moment = now()
        offer_round = OfferRound(
            table=table,
            game=button.game,
            start_seat=seating.seat,
            started_at=moment,
            started_by=by,
            status=OfferRoundStatus.ACCEPTED,
            kept_without_offers=True,
            closed_at=moment,
            detail=KEPT,
        )
        kept = ButtonOffer(
            offer_round=offer_round,
            seat=seating.seat,
            player_id=seating.player_id,
            is_tppp=seating.is_tppp,
            offered_at=moment,
            offered_by=by,
            answer=OfferAnswer.ACCEPTED,
            answered_at=moment,
            answered_by=by,
            reason=KEPT,
        )
        _record(offer_round, [kept])
        return kept


@dataclass(frozen=True)
class PlayerDealer:
    """Who banks the hand about to start, and what the rotation record keeps with it."""

    game: Game
    offer_round: OfferRound
    seating: Seating
    consecutive_count: int  # hands in a row banked, this one too
    tppps_seated: int
    number: int  # the hand's number at the table (the table's latest round's, plus one)
    deck: str  # the hand's deck (decks alternate hand by hand)


def take_position(table: Table, *, by, moment: datetime) -> PlayerDealer | Refused:
    """The accepting player takes the position for the hand about to start (the caller
    holds the table's lock and starts the hand in the same transaction).

    The rules are checked again now: an acceptance they no longer allow (the options
    changed, a TPPP sat down) is cancelled, and a start the 40-minute rule forbids ends the
    game; both are recorded and answered as ``Refused``. What they need (the table's latest
    hands, the game's hands in the window, the latest round's number and deck) comes with
    the button's one read.
    """
    button = button_state(table, moment=moment)
    accepted = button.require_start()
    offer_round = button.offer_round
    seating = next(
        (s for s in button.seated if s.seat == accepted.seat and s.player_id == accepted.player_id),
        None,
    )
    if seating is None:  # unseating cancels an acceptance, so this is only a safeguard
        raise StateError(
            f"the player who accepted left seat {accepted.seat}",
            state=State.NO_PLAYER_DEALER,
            rule=Rule.OFFER_ROUND,
        )
    history = button.history
    candidate = SeatedPlayer(seating.seat, seating.player_id, seating.is_tppp)
    tppps = sum(1 for s in button.seated if s.is_tppp)
    breach = ineligibility(candidate, history, button.policy) or tppp_excess(tppps, button.policy)
    if breach is not None:
        offer_round.status = OfferRoundStatus.CANCELLED
        offer_round.closed_at = moment
        offer_round.detail = f"acceptance no longer valid: {breach}"
        offer_round.save(update_fields=["status", "closed_at", "detail"])
        return Refused(
            StateError(
                f"{breach.message}; the acceptance is cancelled: offer the button again",
                state=State.NO_PLAYER_DEALER,
                rule=breach.rule,
            )
        )
    if button.policy.window is not None:
        game = button.game
        shortfall = window_shortfall(
            game.opened_at, moment, button.window_history, candidate, button.policy
        )
        if shortfall is not None:
            detail = str(shortfall)
            end_game(
                game, by=by, reason=GameEndReason.ROTATION_WINDOW, detail=detail, moment=moment
            )
            return Refused(
                StateError(
                    f"the game has ended: {shortfall.message}",
                    state=State.GAME_ENDED,
                    rule=Rule.WINDOW,
                )
            )
    latest = button.latest
    return PlayerDealer(
        game=button.game,
        offer_round=offer_round,
        seating=seating,
        consecutive_count=consecutive_hands(history, seating.player_id) + 1,
        tppps_seated=tppps,
        number=1 if latest is None else latest.number + 1,
        deck=next_deck(None if latest is None else latest.deck),
    )


# --- The writes in one statement (PostgreSQL: the floor's SQL home, ``tables.sql``) --------


def _record(offer_round: OfferRound, offers: list[ButtonOffer]) -> None:
    """Insert ``offers``, with ``offer_round`` first if it is new (not yet saved)."""
    if connection.vendor == "postgresql" and offers:
        sql.insert_offers(offer_round, offers)
        return
    if offer_round.pk is None:
        offer_round.save(force_insert=True)
    for offer in offers:
        offer.save(force_insert=True)
