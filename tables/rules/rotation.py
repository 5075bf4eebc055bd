"""The player-dealer button (docs/rules.md §8), as pure functions over a table's history.

Penal Code 330.11 allows a player-dealer game only if the position is "continuously and
systematically rotated". Each limit below is a setting of ``RotationPolicy`` (the
California 2026 policy is the default), so a cardroom can match its approved game rules,
and the same functions both enforce the rules before a hand and audit the recorded
history afterwards.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta

from cardroom.errors import Rule, RuleError

from .seats import SEAT_COUNT, clockwise_from, left_of


@dataclass(frozen=True)
class RotationPolicy:
    """The rotation limits in force at a table; ``None`` turns a limit off."""

    max_consecutive_hands: int = 2
    offer_every_hand: bool = True
    max_tppp_per_table: int | None = 1
    tppp_may_bank_twice_in_a_row: bool = False
    window_minutes: int | None = 40
    min_non_tppp_dealers_in_window: int = 2
    # The table's seats: the button goes round 1 to ``seat_count`` (every game, §14.6).
    seat_count: int = SEAT_COUNT

    @property
    def window(self) -> timedelta | None:
        return None if self.window_minutes is None else timedelta(minutes=self.window_minutes)

    def limits_in_force(self) -> list[str]:
        """The limits in force, in the floor's words: what the table shows (docs/rules.md §8.8)."""
        limits = [
            f"at most {self.max_consecutive_hands} consecutive hand"
            f"{'s' if self.max_consecutive_hands > 1 else ''}",
            "offer every hand" if self.offer_every_hand else "keeping for a second hand allowed",
        ]
        if self.max_tppp_per_table is not None:
            limits.append(f"at most {self.max_tppp_per_table} TPPP per table")
        if not self.tppp_may_bank_twice_in_a_row:
            limits.append("no TPPP twice in a row")
        if self.window_minutes is not None:
            limits.append(
                f"{self.window_minutes}-minute rule ({self.min_non_tppp_dealers_in_window} "
                "non-TPPP player-dealers)"
            )
        return limits


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


@dataclass(frozen=True, slots=True)
class Breach:
    """A rotation rule that forbids something, with the floor's explanation."""

    rule: Rule
    message: str

    def __str__(self) -> str:
        return f"{self.message} ({self.rule.citation})"

    def rule_error(self, field: str | None = None) -> RuleError:
        return RuleError(self.message, rule=self.rule, field=field)


def consecutive_hands(history: Sequence[BankedHand], player_id: int) -> int:
    """How many of the table's most recent hands in a row ``player_id`` banked."""
    count = 0
    for hand in reversed(history):
        if hand.player_id != player_id:
            break
        count += 1
    return count


def consecutive_excess(
    player: SeatedPlayer, history: Sequence[BankedHand], policy: RotationPolicy
) -> Breach | None:
    """At most two consecutive hands (§8.2): ``player`` has banked the most in a row."""
    limit = policy.max_consecutive_hands
    if consecutive_hands(history, player.player_id) < limit:
        return None
    return Breach(
        Rule.CONSECUTIVE_HANDS,
        f"seat {player.seat} has banked {limit} consecutive hand{'s' if limit > 1 else ''}, "
        "the most this table allows",
    )


def tppp_twice(
    player: SeatedPlayer, history: Sequence[BankedHand], policy: RotationPolicy
) -> Breach | None:
    """After a hand banked by a TPPP, the next is banked by another player (§8.11)."""
    if policy.tppp_may_bank_twice_in_a_row or not player.is_tppp:
        return None
    if not history or not history[-1].is_tppp:
        return None
    return Breach(
        Rule.TPPP_TWICE,
        f"seat {player.seat} is a TPPP and a TPPP banked the last hand: the next hand is "
        "banked by another player",
    )


def ineligibility(
    player: SeatedPlayer, history: Sequence[BankedHand], policy: RotationPolicy
) -> Breach | None:
    """Why ``player`` may not bank the next hand, or None if they may."""
    return consecutive_excess(player, history, policy) or tppp_twice(player, history, policy)


def tppp_excess(tppps_seated: int, policy: RotationPolicy) -> Breach | None:
    """The TPPP-per-table limit: ``tppps_seated`` TPPP players at the table at once."""
    limit = policy.max_tppp_per_table
    if limit is None or tppps_seated <= limit:
        return None
    return Breach(
        Rule.TPPP_PER_TABLE,
        f"{tppps_seated} TPPP player{'s' if tppps_seated != 1 else ''} would be seated; "
        f"this table allows {limit}",
    )


def offer_order(
    seats: Iterable[int], start_seat: int, *, seat_count: int = SEAT_COUNT
) -> tuple[int, ...]:
    """Occupied ``seats`` clockwise, starting at ``start_seat`` (inclusive), at a table of
    ``seat_count`` seats."""
    return clockwise_from(start_seat, seats, seat_count=seat_count)


def offers_start_at(
    last_player_dealer_seat: int | None, named_start_seat: int, *, seat_count: int = SEAT_COUNT
) -> int:
    """Offers start left of the last player-dealer (who is asked last), or where the
    floor supervisor said when the game opened."""
    if last_player_dealer_seat is None:
        return named_start_seat
    return left_of(last_player_dealer_seat, seat_count=seat_count)


def keeper(
    last: BankedHand | None,
    seated: Iterable[SeatedPlayer],
    history: Sequence[BankedHand],
    policy: RotationPolicy,
    *,
    offers_begun: bool,
) -> SeatedPlayer | None:
    """Who may keep the position for the next hand without an offer round, or None.

    Only with "offer every hand" off (§8.4): the last player-dealer of the game, still in
    the seat they banked from, for a second consecutive hand within every limit, and only
    while no offer round for the next hand has begun; once one has, the position is taken
    only by accepting an offer in it.
    """
    if policy.offer_every_hand or last is None or offers_begun:
        return None
    if not history or history[-1].player_id != last.player_id:
        return None
    player = next(
        (s for s in seated if s.seat == last.seat and s.player_id == last.player_id), None
    )
    if player is None or ineligibility(player, history, policy) is not None:
        return None
    return player


def window_shortfall(
    game_started_at: datetime,
    now: datetime,
    game_history: Sequence[BankedHand],
    candidate: SeatedPlayer,
    policy: RotationPolicy,
) -> Breach | None:
    """The 40-minute rule, checked when a hand would start (§8.12).

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
    return Breach(
        Rule.WINDOW,
        f"only {len(dealers)} player(s) other than a TPPP held the position in the last "
        f"{policy.window_minutes} minutes; this table needs "
        f"{policy.min_non_tppp_dealers_in_window}",
    )


@dataclass(frozen=True, slots=True)
class Violation:
    rule: Rule
    hand_ids: tuple[int, ...]
    detail: str


AUDITED_RULES = (Rule.CONSECUTIVE_HANDS, Rule.TPPP_PER_TABLE, Rule.TPPP_TWICE, Rule.WINDOW)


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
        banker = SeatedPlayer(hand.seat, hand.player_id, hand.is_tppp)
        if consecutive_excess(banker, earlier, policy):
            run = consecutive_hands(earlier, hand.player_id) + 1
            hands = tuple(h.hand_id for h in history[index - run + 1 : index + 1])
            violations.append(
                Violation(
                    Rule.CONSECUTIVE_HANDS, hands, f"player {hand.player_id} banked {run} in a row"
                )
            )
        if tppp_excess(hand.tppps_seated, policy):
            violations.append(
                Violation(
                    Rule.TPPP_PER_TABLE,
                    (hand.hand_id,),
                    f"{hand.tppps_seated} TPPP players seated",
                )
            )
        if tppp_twice(banker, earlier, policy):
            violations.append(
                Violation(
                    Rule.TPPP_TWICE,
                    (earlier[-1].hand_id, hand.hand_id),
                    "TPPP banked two hands in a row",
                )
            )
        game_history = [h for h in earlier if h.game_id == hand.game_id]
        shortfall = window_shortfall(
            game_starts[hand.game_id],
            hand.started_at,
            game_history,
            banker,
            policy,
        )
        if shortfall:
            window = policy.window
            in_window = tuple(
                h.hand_id for h in game_history if h.started_at > hand.started_at - window
            )
            violations.append(Violation(Rule.WINDOW, (*in_window, hand.hand_id), shortfall.message))
    return violations
