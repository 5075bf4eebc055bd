"""The wagering rules of docs/rules.md §4-§5 and the bank of §7.1, checked before anything
is resolved.

Each check raises a RuleError that names the rule and the wager (field), so
the API, the console and the calculator can all say exactly what was refused.
"""

from __future__ import annotations

from cardroom.errors import Rule, RuleError
from cardroom.money import dollars
from tables.rules.decisions import allowed_play_multiples
from tables.rules.options import GameOptions

from .wagers import OPENING_WAGERS, Stakes, WagerKind


def check_chips(amount: object, chip_unit: int, *, label: str, field: str) -> None:
    """A wager (``label``: "Ante", "Dragon 7") of whole cents, zero or more, in whole chips
    (docs/rules.md §4.4), for every game."""
    if isinstance(amount, bool) or not isinstance(amount, int) or amount < 0:
        raise RuleError(
            f"the {label} must be a whole number of cents, zero or more, not {amount!r}",
            rule=Rule.CHIP_UNIT,
            field=field,
        )
    if amount % chip_unit:
        raise RuleError(
            f"the {label} of {dollars(amount)} is not in whole chips of {dollars(chip_unit)}",
            rule=Rule.CHIP_UNIT,
            field=field,
        )


def check_limits(
    amount: int, minimum: int | None, maximum: int | None, *, label: str, field: str
) -> None:
    """A wager made (above zero) within the table minimum and maximum (docs/rules.md §4.3),
    for every game; ``None`` is no limit."""
    if not amount:
        return
    if minimum is not None and amount < minimum:
        raise RuleError(
            f"the {label} of {dollars(amount)} is below the table minimum of {dollars(minimum)}",
            rule=Rule.LIMITS,
            field=field,
        )
    if maximum is not None and amount > maximum:
        raise RuleError(
            f"the {label} of {dollars(amount)} is above the table maximum of {dollars(maximum)}",
            rule=Rule.LIMITS,
            field=field,
        )


def _check_amounts(stakes: Stakes, options: GameOptions) -> None:
    for kind in WagerKind:
        check_chips(stakes.of(kind), options.chip_unit, label=kind.label, field=kind.value)


def _check_limits(stakes: Stakes, options: GameOptions) -> None:
    for kind in OPENING_WAGERS:
        check_limits(
            stakes.of(kind),
            options.table_minimum,
            options.table_maximum,
            label=kind.label,
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
                rule=Rule.BACKLINE,
                field="bad_beat",
            )
        if options.bad_beat_paytable is None:
            raise RuleError(
                "this table offers no Bad Beat wager",
                rule=Rule.BAD_BEAT,
                field="bad_beat",
            )
        if stakes.ante == 0:
            raise RuleError(
                "a Bad Beat wager needs Ante and Blind", rule=Rule.BAD_BEAT, field="bad_beat"
            )
    if stakes.ante != stakes.blind:
        raise RuleError(
            f"Ante ({dollars(stakes.ante)}) and Blind ({dollars(stakes.blind)}) must be equal",
            rule=Rule.ANTE_BLIND,
            field="blind",
        )
    if stakes.ante == 0 and not backline:
        raise RuleError("Ante and Blind are both required", rule=Rule.ANTE_BLIND, field="ante")
    if stakes.ante == 0 and stakes.trips == 0:
        raise RuleError(
            "a backline bettor makes Ante and Blind, or a Trips wager",
            rule=Rule.ANTE_BLIND,
            field="ante",
        )
    _check_limits(stakes, options)


def validate_play_amount(stakes: Stakes, options: GameOptions, *, folded: bool) -> None:
    """The Play at the end of the hand: an allowed multiple of the Ante, none if folded."""
    if folded:
        if stakes.play:
            raise RuleError("a folded hand has no Play wager", rule=Rule.DECISIONS, field="play")
        return
    if stakes.ante == 0:
        if stakes.play:
            raise RuleError("a Play needs an Ante", rule=Rule.DECISIONS, field="play")
        return
    if stakes.play == 0:
        raise RuleError(
            "a hand still in at the showdown has made a Play; on the river it must Play 1x or fold",
            rule=Rule.DECISIONS,
            field="play",
        )
    multiples = allowed_play_multiples(options.allowed_preflop_multiples)
    if stakes.play % stakes.ante or stakes.play // stakes.ante not in multiples:
        allowed = ", ".join(f"{m}x" for m in sorted(multiples, reverse=True)[:-1])
        allowed += f" or {min(multiples)}x"
        raise RuleError(
            f"Play of {dollars(stakes.play)} is not {allowed} the Ante of {dollars(stakes.ante)}",
            rule=Rule.DECISIONS,
            field="play",
        )


def validate_backline_play(backline: Stakes, seat: Stakes) -> None:
    """A backline bettor's Play is the seat's multiple of the bettor's own Ante."""
    multiple = seat.play // seat.ante if seat.ante else 0
    expected = backline.ante * multiple
    if backline.play != expected:
        raise RuleError(
            f"backline Play must be {dollars(expected)}, {multiple}x its own Ante like the "
            f"seat's, not {dollars(backline.play)}",
            rule=Rule.BACKLINE,
            field="play",
        )


def validate_bank(amount: object, chip_unit: int, *, field: str = "amount") -> int:
    """The player-dealer's bank W (docs/rules.md §7.1): whole cents above zero, in the table's
    chips. There is no maximum; the chips in front of the player-dealer are checked where
    they are known (the ledger)."""
    if isinstance(amount, bool) or not isinstance(amount, int) or amount <= 0:
        raise RuleError(
            f"the player-dealer's bank must be a whole number of cents above zero, not {amount!r}",
            rule=Rule.BANK,
            field=field,
        )
    if amount % chip_unit:
        raise RuleError(
            f"a bank of {dollars(amount)} is not in whole chips of {dollars(chip_unit)}",
            rule=Rule.BANK,
            field=field,
        )
    return amount
