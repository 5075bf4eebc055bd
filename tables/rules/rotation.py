"""The player-dealer button (RULEBOOK §6), as pure functions over a table's history.

Penal Code 330.11 allows a player-dealer game only if the position is
"continuously and systematically rotated". Each limit below is a setting of
``RotationPolicy`` (the California 2026 policy is the default), so a cardroom
can match its approved game rules, and the same functions both enforce the
rules before a hand and audit the recorded history afterwards.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta

from .deck import SEATS

ROTATION_RULE = "RULEBOOK §6"
CONSECUTIVE_RULE = "no one may be the player-dealer for more than two consecutive hands"
ONE_TPPP_RULE = "at most one TPPP player per table"
TPPP_TWICE_RULE = "after a hand banked by a TPPP, the next hand must be banked by another player"
WINDOW_RULE = (
    "within every 40 minutes of play, at least two players other than the TPPP must have "
    "held the position, or the game ends"
)


@dataclass(frozen=True)
class RotationPolicy:
    """The rotation limits in force at a table; ``None`` turns a limit off."""

    max_consecutive_hands: int = 2
    offer_every_hand: bool = True
    max_tppp_per_table: int | None = 1
    tppp_may_bank_twice_in_a_row: bool = False
    window_minutes: int | None = 40
    min_non_tppp_dealers_in_window: int = 2

    @property
    def window(self) -> timedelta | None:
        return None if self.window_minutes is None else timedelta(minutes=self.window_minutes)


@dataclass(frozen=True, slots=True)
class SeatedPlayer:
    seat: int
    player_id: int
    is_tppp: bool = False


@dataclass(frozen=True, slots=True)
class BankedHand:
    """A hand that started at a table, and who held the position for it."""

    hand_id: int
    game_id: int
    started_at: datetime
    seat: int
    player_id: int
    is_tppp: bool
    tppps_seated: int = 0


def consecutive_hands(history: Sequence[BankedHand], player_id: int) -> int:
    """How many of the table's most recent hands in a row ``player_id`` banked."""
    count = 0
    for hand in reversed(history):
        if hand.player_id != player_id:
            break
        count += 1
    return count


def ineligibility(
    player: SeatedPlayer, history: Sequence[BankedHand], policy: RotationPolicy
) -> str | None:
    """Why ``player`` may not bank the next hand, or None if they may."""
    if consecutive_hands(history, player.player_id) >= policy.max_consecutive_hands:
        limit = policy.max_consecutive_hands
        return (
            f"seat {player.seat} has banked {limit} consecutive hand{'s' if limit > 1 else ''}, "
            f"the most this table allows (RULEBOOK §6: {CONSECUTIVE_RULE})"
        )
    if (
        player.is_tppp
        and not policy.tppp_may_bank_twice_in_a_row
        and history
        and history[-1].is_tppp
    ):
        return f"seat {player.seat} is a TPPP and a TPPP banked the last hand: {TPPP_TWICE_RULE}"
    return None


def offer_order(seats: Iterable[int], start_seat: int) -> tuple[int, ...]:
    """Occupied ``seats`` clockwise, starting at ``start_seat`` (inclusive)."""
    return tuple(sorted(seats, key=lambda seat: (seat - start_seat) % len(SEATS)))


def offers_start_at(last_player_dealer_seat: int | None, named_start_seat: int) -> int:
    """Offers start left of the last player-dealer (who is asked last), or where the
    floor supervisor said when the game opened."""
    if last_player_dealer_seat is None:
        return named_start_seat
    return last_player_dealer_seat % len(SEATS) + 1


def may_keep_without_offers(
    player: SeatedPlayer, history: Sequence[BankedHand], policy: RotationPolicy
) -> bool:
    """With "offer every hand" off, the player-dealer may keep the position for a second
    consecutive hand before the offers go round; never beyond the limits."""
    if policy.offer_every_hand or not history or history[-1].player_id != player.player_id:
        return False
    return ineligibility(player, history, policy) is None


def window_shortfall(
    game_started_at: datetime,
    now: datetime,
    game_history: Sequence[BankedHand],
    candidate: SeatedPlayer,
    policy: RotationPolicy,
) -> str | None:
    """The 40-minute rule, checked when a hand would start.

    Once the game has run the window, the hands started within the window, with
    this one, must have had enough different non-TPPP player-dealers.
    """
    window = policy.window
    if window is None or now - game_started_at < window:
        return None
    dealers = {
        hand.player_id
        for hand in game_history
        if hand.started_at > now - window and not hand.is_tppp
    }
    if not candidate.is_tppp:
        dealers.add(candidate.player_id)
    if len(dealers) >= policy.min_non_tppp_dealers_in_window:
        return None
    return (
        f"only {len(dealers)} player(s) other than a TPPP held the position in the last "
        f"{policy.window_minutes} minutes; this table needs "
        f"{policy.min_non_tppp_dealers_in_window} (RULEBOOK §6: {WINDOW_RULE})"
    )


def tppp_seating_refusal(
    seated: Iterable[SeatedPlayer], newcomer_is_tppp: bool, policy: RotationPolicy
) -> str | None:
    if not newcomer_is_tppp or policy.max_tppp_per_table is None:
        return None
    seated_tppps = sum(1 for player in seated if player.is_tppp)
    if seated_tppps >= policy.max_tppp_per_table:
        return (
            f"{seated_tppps} TPPP player(s) seated; this table allows "
            f"{policy.max_tppp_per_table} (RULEBOOK §6: {ONE_TPPP_RULE})"
        )
    return None


@dataclass(frozen=True, slots=True)
class Violation:
    rule: str
    hand_ids: tuple[int, ...]
    detail: str


def audit_rotation(
    history: Sequence[BankedHand],
    game_starts: dict[int, datetime],
    policy_for: dict[int, RotationPolicy] | None = None,
    default_policy: RotationPolicy = RotationPolicy(),
) -> list[Violation]:
    """Every rotation rule checked hand by hand over a table's recorded history.

    ``history`` is the table's hands in order; ``game_starts`` maps each game to
    when it opened; ``policy_for`` maps a hand to the policy in force for it.
    """
    policies = policy_for or {}
    violations: list[Violation] = []
    for index, hand in enumerate(history):
        policy = policies.get(hand.hand_id, default_policy)
        earlier = history[:index]
        run = consecutive_hands(earlier, hand.player_id) + 1
        if run > policy.max_consecutive_hands:
            hands = tuple(h.hand_id for h in history[index - run + 1 : index + 1])
            violations.append(
                Violation(CONSECUTIVE_RULE, hands, f"player {hand.player_id} banked {run} in a row")
            )
        if policy.max_tppp_per_table is not None and hand.tppps_seated > policy.max_tppp_per_table:
            violations.append(
                Violation(
                    ONE_TPPP_RULE, (hand.hand_id,), f"{hand.tppps_seated} TPPP players seated"
                )
            )
        if (
            hand.is_tppp
            and earlier
            and earlier[-1].is_tppp
            and not policy.tppp_may_bank_twice_in_a_row
        ):
            violations.append(
                Violation(
                    TPPP_TWICE_RULE,
                    (earlier[-1].hand_id, hand.hand_id),
                    "TPPP banked two hands in a row",
                )
            )
        game_history = [h for h in earlier if h.game_id == hand.game_id]
        shortfall = window_shortfall(
            game_starts[hand.game_id],
            hand.started_at,
            game_history,
            SeatedPlayer(hand.seat, hand.player_id, hand.is_tppp),
            policy,
        )
        if shortfall:
            window = policy.window
            in_window = tuple(
                h.hand_id for h in game_history if h.started_at > hand.started_at - window
            )
            violations.append(Violation(WINDOW_RULE, (*in_window, hand.hand_id), shortfall))
    return violations
