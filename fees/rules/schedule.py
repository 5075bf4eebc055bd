"""A collection schedule and its validation (docs/rules.md §9; the Bureau's posting, "Wagering
Limits and Collection").

A schedule is at most five rows ("collection rates"). Each row is a line of the Bureau's
Example Table: a player wager range with the player's flat fee and, for the player-dealer,
either a flat fee per betting square (same range) or a flat fee on total table action (the
row's own action range). Every amount is a whole number of cents: there is no way to write a
percentage, and anything that looks like one is refused with a message saying why.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from itertools import pairwise

from cardroom.bounds import BIGINT_MAX, CENTS_MAX, NotAnInteger, OutOfRange, strict_int
from cardroom.errors import Rule, RuleError
from cardroom.money import dollar_range, dollars
from games.registry import OPENING_SQUARES as ALL_SQUARES
from wagers.rules.wagers import OPENING_SQUARES

MAX_RATES = 5
# The betting squares a schedule charges when it names none: Ultimate Texas Hold'em's, the
# room's first game's (a version of a table of another game is filed with its game's,
# ``fees.services.schedules.create_version``).
SQUARES = OPENING_SQUARES
# The betting squares a fee can be charged on (``ALL_SQUARES``): every game's squares wagered
# before "no more bets" (``games.registry.OPENING_SQUARES``). At a table, a schedule charges
# those of its squares that are the table's game's: a bet has no other.
RATE_KEYS = (
    "wager_from_cents",
    "wager_to_cents",
    "player_fee_cents",
    "player_dealer_fee_cents",
    "action_from_cents",
    "action_to_cents",
)  # the betting squares wagered before the deal


class Basis(StrEnum):
    """What the player-dealer's fee is based on (the schedule says which)."""

    PER_BETTING_SQUARE = "per_betting_square"
    TOTAL_TABLE_ACTION = "total_table_action"


@dataclass(frozen=True, slots=True)
class Span:
    """An inclusive range of cents; ``high`` None means "and above"."""

    low: int
    high: int | None

    def holds(self, amount: int) -> bool:
        return amount >= self.low and (self.high is None or amount <= self.high)


@dataclass(frozen=True, slots=True)
class Rate:
    """One row of the schedule (``position`` 1 to 5)."""

    position: int
    wager: Span | None  # the player wager range; None for an action-only row
    player_fee: int | None
    player_dealer_fee: int | None
    action: Span | None = None  # total table action range (TOTAL_TABLE_ACTION only)


@dataclass(frozen=True, slots=True)
class Schedule:
    basis: Basis
    rates: tuple[Rate, ...]
    table_minimum: int
    table_maximum: int
    charged_squares: tuple[str, ...] = SQUARES

    def player_rate(self, wager: int) -> Rate | None:
        return next((r for r in self.rates if r.wager and r.wager.holds(wager)), None)

    def action_rate(self, action: int) -> Rate | None:
        return next((r for r in self.rates if r.action and r.action.holds(action)), None)


def _cents(value, field: str, *, allow_none: bool = False) -> int | None:
    """A whole, non-negative number of cents; refuse percentages and fractions plainly."""
    if value is None and allow_none:
        return None
    if isinstance(value, str):
        text = value.strip()
        if "%" in text or "percent" in text.lower():
            raise RuleError(
                f"{text!r} is a percentage; a fee is a flat amount in cents (e.g. 100 for $1)",
                rule=Rule.FEES_FLAT,
                field=field,
            )
        try:  # the ASCII digits only (cardroom/bounds.py): a superscript two is no amount
            value = strict_int(text, minimum=-BIGINT_MAX, maximum=BIGINT_MAX)
        except NotAnInteger:
            pass  # refused below, as text
        except OutOfRange:
            raise RuleError(
                f"{text[:24]}... is out of range: amounts are $0.00 to {dollars(CENTS_MAX)}",
                rule=Rule.FEE_RATES,
                field=field,
            ) from None
    if isinstance(value, float):
        raise RuleError(
            f"{value!r} is not a whole number of cents; fees are flat amounts in cents, "
            "never a rate or a fraction of a wager",
            rule=Rule.FEES_FLAT,
            field=field,
        )
    if isinstance(value, bool) or not isinstance(value, int):
        raise RuleError(
            f"{value!r} is not a whole number of cents", rule=Rule.FEE_RATES, field=field
        )
    if value < 0:
        raise RuleError(
            f"{dollars(value)} is negative; amounts are zero or more",
            rule=Rule.FEE_RATES,
            field=field,
        )
    if value > CENTS_MAX:
        raise RuleError(
            f"{dollars(value)} is more than {dollars(CENTS_MAX)}", rule=Rule.FEE_RATES, field=field
        )
    return value


def _span(low, high, field: str, *, open_ended: bool = False) -> Span:
    lo = _cents(low, f"{field}_from_cents")
    hi = _cents(high, f"{field}_to_cents", allow_none=open_ended)
    if hi is not None and hi < lo:
        raise RuleError(
            f"the {field} range {dollar_range(lo, hi)} ends before it starts",
            rule=Rule.FEE_RANGES,
            field=field,
        )
    return Span(lo, hi)


def _contiguous(spans: Sequence[tuple[int, Span]], what: str, field: str) -> None:
    """Ranges in order, touching end to start (no overlap, no gap)."""
    ordered = sorted(spans, key=lambda item: item[1].low)
    for (_, before), (index, after) in pairwise(ordered):
        if before.high is None or after.low <= before.high:
            raise RuleError(
                f"{what} ranges overlap: {dollar_range(before.low, before.high)} and "
                f"{dollar_range(after.low, after.high)}",
                rule=Rule.FEE_RANGES,
                field=f"rates[{index}].{field}",
            )
        if after.low != before.high + 1:
            raise RuleError(
                f"{what} ranges leave a gap between {dollars(before.high)} and "
                f"{dollars(after.low)}",
                rule=Rule.FEE_RANGES,
                field=f"rates[{index}].{field}",
            )


def build_schedule(
    *,
    basis: str,
    rates: Sequence[Mapping],
    table_minimum: int,
    table_maximum: int,
    charged_squares: Iterable[str] = SQUARES,
) -> Schedule:
    """Validate a schedule as entered and answer it, or raise RuleError naming the field.

    Each rate is a mapping with ``wager_from_cents``, ``wager_to_cents``, ``player_fee_cents``,
    ``player_dealer_fee_cents`` and, on total table action, ``action_from_cents`` and
    ``action_to_cents`` (None: and above).
    """
    try:
        basis = Basis(basis)
    except ValueError:
        raise RuleError(
            f"{basis!r}: the player-dealer fee is either {Basis.PER_BETTING_SQUARE.value!r} or "
            f"{Basis.TOTAL_TABLE_ACTION.value!r}",
            rule=Rule.FEE_RATES,
            field="player_dealer_basis",
        ) from None
    squares = tuple(charged_squares)
    unknown = [s for s in squares if s not in ALL_SQUARES]
    if unknown or not squares or len(set(squares)) != len(squares):
        raise RuleError(
            f"charged squares are one or more of {', '.join(ALL_SQUARES)}, each once",
            rule=Rule.FEE_RATES,
            field="charged_squares",
        )
    if not isinstance(rates, Sequence) or isinstance(rates, str) or not rates:
        raise RuleError("a schedule needs at least one rate", rule=Rule.FEE_RATES, field="rates")
    if len(rates) > MAX_RATES:
        raise RuleError(
            f"{len(rates)} rates: no more than five collection rates per table",
            rule=Rule.FEE_RATES,
            field="rates",
        )
    built = []
    for index, row in enumerate(rates):
        try:
            built.append(_rate(index + 1, row, basis, table_minimum, table_maximum))
        except RuleError as error:
            raise error.with_field(f"rates[{index}]") from None
    wagers = [(i, r.wager) for i, r in enumerate(built) if r.wager is not None]
    _contiguous(wagers, "player wager", "wager")
    if not wagers:
        raise RuleError("the player wager ranges are missing", rule=Rule.FEE_RANGES, field="rates")
    low = min(s.low for _, s in wagers)
    high = max(s.high for _, s in wagers)
    if low != table_minimum or high != table_maximum:
        raise RuleError(
            f"the player wager ranges cover {dollar_range(low, high)}; they must cover the "
            f"table limits {dollar_range(table_minimum, table_maximum)} exactly, so every wager "
            "has one rate",
            rule=Rule.FEE_RANGES,
            field="rates",
        )
    if basis is Basis.TOTAL_TABLE_ACTION:
        actions = [(i, r.action) for i, r in enumerate(built) if r.action is not None]
        if not actions:
            raise RuleError(
                "a fee on total table action needs its action ranges",
                rule=Rule.FEE_RANGES,
                field="rates",
            )
        _contiguous(actions, "total table action", "action")
        first = min(s.low for _, s in actions)
        smallest_action = 2 * table_minimum  # the least a hand can hold: an Ante and a Blind
        if first > smallest_action:
            raise RuleError(
                f"the total table action ranges start at {dollars(first)}; a hand's action can "
                f"be {dollars(smallest_action)}, so they must start at or below it",
                rule=Rule.FEE_RANGES,
                field="rates",
            )
        if not any(s.high is None for _, s in actions):
            raise RuleError(
                'the last total table action range has no upper end ("and above"), so every '
                "hand's action has a rate",
                rule=Rule.FEE_RANGES,
                field="rates",
            )
    return Schedule(basis, tuple(built), table_minimum, table_maximum, squares)


def _rate(position: int, row: Mapping, basis: Basis, minimum: int, maximum: int) -> Rate:
    if not isinstance(row, Mapping):
        raise RuleError("a rate is an object of amounts in cents", rule=Rule.FEE_RATES)
    for key, value in row.items():
        if "percent" in str(key).lower() or "rate_pct" in str(key).lower():
            raise RuleError(
                f"{key!r}: a schedule has no percentages; give a flat fee in cents",
                rule=Rule.FEES_FLAT,
                field=str(key),
            )
        if key not in RATE_KEYS:  # a misspelt amount must not become a fee of nothing
            raise RuleError(
                f"{key!r} is not part of a collection rate; a rate has {', '.join(RATE_KEYS)}",
                rule=Rule.FEE_RATES,
                field=str(key),
            )
        if isinstance(value, str) and "%" in value:
            _cents(value, str(key))
    if row.get("action_to_cents") is not None and row.get("action_from_cents") is None:
        raise RuleError(
            "a total table action range needs where it starts",
            rule=Rule.FEE_RANGES,
            field="action_from_cents",
        )
    has_wager = row.get("wager_from_cents") is not None or row.get("wager_to_cents") is not None
    wager = player_fee = None
    if has_wager or basis is Basis.PER_BETTING_SQUARE:
        wager = _span(row.get("wager_from_cents"), row.get("wager_to_cents"), "wager")
        if wager.low < minimum or wager.high > maximum:
            raise RuleError(
                f"the player wager range {dollar_range(wager.low, wager.high)} is outside the "
                f"table limits {dollar_range(minimum, maximum)}",
                rule=Rule.FEE_RANGES,
                field="wager",
            )
        player_fee = _cents(row.get("player_fee_cents"), "player_fee_cents")
    elif row.get("player_fee_cents") is not None:
        raise RuleError(
            "a player fee needs its player wager range",
            rule=Rule.FEE_RANGES,
            field="player_fee_cents",
        )
    action = None
    dealer_fee = _cents(
        row.get("player_dealer_fee_cents"), "player_dealer_fee_cents", allow_none=True
    )
    if basis is Basis.PER_BETTING_SQUARE:
        if row.get("action_from_cents") is not None or row.get("action_to_cents") is not None:
            raise RuleError(
                "action ranges belong to a fee on total table action; this schedule charges "
                "the player-dealer per betting square",
                rule=Rule.FEE_RATES,
                field="action_from_cents",
            )
        if dealer_fee is None:
            dealer_fee = 0
    else:
        has_action = row.get("action_from_cents") is not None
        if has_action:
            action = _span(
                row.get("action_from_cents"), row.get("action_to_cents"), "action", open_ended=True
            )
            if dealer_fee is None:
                raise RuleError(
                    "an action range needs its player-dealer fee",
                    rule=Rule.FEE_RATES,
                    field="player_dealer_fee_cents",
                )
        elif dealer_fee is not None:
            raise RuleError(
                "a player-dealer fee on total table action needs its action range",
                rule=Rule.FEE_RANGES,
                field="action_from_cents",
            )
        if wager is None and action is None:
            raise RuleError("an empty rate", rule=Rule.FEE_RATES)
    return Rate(position, wager, player_fee, dealer_fee, action)
