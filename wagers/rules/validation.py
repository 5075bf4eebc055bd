"""The wagering rules of RULEBOOK §3, checked before anything is resolved.

Each check raises a RuleError that names the rule and the wager (field), so
the API, the console and the calculator can all say exactly what was refused.
"""

from __future__ import annotations

from tables.rules.decisions import allowed_play_multiples
from tables.rules.errors import RuleError

from .wagers import GameOptions, Stakes, WagerKind

WAGER_RULE = "RULEBOOK §3: Ante and Blind, equal and both required"
BAD_BEAT_RULE = "RULEBOOK §3: Bad Beat only with Ante and Blind"
LIMIT_RULE = "RULEBOOK §3: table minimum and maximum apply to each wager"
CHIP_RULE = "RULEBOOK §4: wagers are made in the table's chips"
PLAY_RULE = "RULEBOOK §3: decisions, each once, each final"
BACKLINE_RULE = "RULEBOOK §3: backline bettors follow the seated player"
PLACED_BEFORE_DEAL = (WagerKind.ANTE, WagerKind.BLIND, WagerKind.TRIPS, WagerKind.BAD_BEAT)


def _check_amounts(stakes: Stakes, options: GameOptions) -> None:
    for kind in WagerKind:
        amount = stakes.of(kind)
        if isinstance(amount, bool) or not isinstance(amount, int) or amount < 0:
            raise RuleError(
                f"{kind.value} must be a whole number of cents, zero or more, not {amount!r}",
                rule=CHIP_RULE,
                field=kind.value,
            )
        if amount % options.chip_unit:
            raise RuleError(
                f"{kind.value} of {amount} cents is not a multiple of the table's "
                f"{options.chip_unit}-cent chip",
                rule=CHIP_RULE,
                field=kind.value,
            )


def _check_limits(stakes: Stakes, options: GameOptions) -> None:
    for kind in PLACED_BEFORE_DEAL:
        amount = stakes.of(kind)
        if not amount:
            continue
        if options.table_minimum is not None and amount < options.table_minimum:
            raise RuleError(
                f"{kind.value} of {amount} cents is below the table minimum of "
                f"{options.table_minimum} cents",
                rule=LIMIT_RULE,
                field=kind.value,
            )
        if options.table_maximum is not None and amount > options.table_maximum:
            raise RuleError(
                f"{kind.value} of {amount} cents is above the table maximum of "
                f"{options.table_maximum} cents",
                rule=LIMIT_RULE,
                field=kind.value,
            )


def validate_opening_wagers(
    stakes: Stakes, options: GameOptions, *, backline: bool = False
) -> None:
    """The wagers made before "no more bets": Ante = Blind, Trips, Bad Beat.

    A seated player must make Ante and Blind. A backline bettor may instead
    make only a Trips wager (`004` Dealing Procedures 2: backline on the base
    game and/or the Trips bonus).
    """
    _check_amounts(stakes, options)
    if stakes.bad_beat:
        if backline:
            raise RuleError(
                "backline bettors make Ante, Blind and Trips only, not Bad Beat",
                rule="RULEBOOK §3: backline wagers",
                field="bad_beat",
            )
        if options.bad_beat_paytable is None:
            raise RuleError(
                "this table offers no Bad Beat wager",
                rule="RULEBOOK §4: options sheet",
                field="bad_beat",
            )
        if stakes.ante == 0:
            raise RuleError(
                "a Bad Beat wager needs Ante and Blind", rule=BAD_BEAT_RULE, field="bad_beat"
            )
    if stakes.ante != stakes.blind:
        raise RuleError(
            f"Ante ({stakes.ante}) and Blind ({stakes.blind}) must be equal",
            rule=WAGER_RULE,
            field="blind",
        )
    if stakes.ante == 0 and not backline:
        raise RuleError("Ante and Blind are both required", rule=WAGER_RULE, field="ante")
    if stakes.ante == 0 and stakes.trips == 0:
        raise RuleError(
            "a backline bettor makes Ante and Blind, or a Trips wager",
            rule=WAGER_RULE,
            field="ante",
        )
    _check_limits(stakes, options)


def validate_play_amount(stakes: Stakes, options: GameOptions, *, folded: bool) -> None:
    """The Play at the end of the hand: an allowed multiple of the Ante, none if folded."""
    if folded:
        if stakes.play:
            raise RuleError("a folded hand has no Play wager", rule=PLAY_RULE, field="play")
        return
    if stakes.ante == 0:
        if stakes.play:
            raise RuleError("a Play needs an Ante", rule=PLAY_RULE, field="play")
        return
    if stakes.play == 0:
        raise RuleError(
            "a hand still in at the showdown has made a Play; on the river it must Play 1x or fold",
            rule=PLAY_RULE,
            field="play",
        )
    multiples = allowed_play_multiples(options.allowed_preflop_multiples)
    if stakes.play % stakes.ante or stakes.play // stakes.ante not in multiples:
        allowed = ", ".join(f"{m}x" for m in sorted(multiples, reverse=True)[:-1])
        allowed += f" or {min(multiples)}x"
        raise RuleError(
            f"Play of {stakes.play} is not {allowed} the Ante of {stakes.ante}",
            rule=PLAY_RULE,
            field="play",
        )


def validate_backline_play(backline: Stakes, seat: Stakes) -> None:
    """A backline bettor's Play is the seat's multiple of the bettor's own Ante."""
    multiple = seat.play // seat.ante if seat.ante else 0
    expected = backline.ante * multiple
    if backline.play != expected:
        raise RuleError(
            f"backline Play must be {multiple}x its own Ante ({expected}), like the seat's, "
            f"not {backline.play}",
            rule=BACKLINE_RULE,
            field="play",
        )
