from decimal import Decimal

from django import template

from cardroom import money
from games.registry import GAMES
from tables.models import HandResultChoice
from tables.rules.counters import one_decimal
from wagers.rules.theo import std_devs_text
from wagers.rules.wagers import WagerKind

register = template.Library()

SUIT_SYMBOLS = {"s": "\u2660", "h": "\u2665", "d": "\u2666", "c": "\u2663"}
# Every game's betting squares by name, as its layout names them ("dragon_7" -> "Dragon 7").
SQUARE_LABELS = {square.name: square.label for each in GAMES.values() for square in each.squares}


@register.filter
def dollars(cents) -> str:
    """Integer cents as dollars, exactly: 123456 -> $1,234.56 (no float on the way); a
    fraction of a cent (a theo, a Decimal) to the nearest cent."""
    if cents is None or cents == "":
        return ""
    return money.dollars(cents if isinstance(cents, Decimal) else int(cents))


@register.filter
def signed_dollars(cents) -> str:
    """A result in dollars with its sign: ``+$10.00``, ``-$5.00``, ``$0.00``."""
    if cents is None or cents == "":
        return ""
    amount = int(cents)
    return ("+" if amount > 0 else "-" if amount < 0 else "") + money.dollars(abs(amount))


@register.filter
def std_devs(value) -> str:
    """A difference in standard deviations (docs/rules.md §13.5): ``Decimal("3.2")`` ->
    ``3.20``; ``""`` for none."""
    return std_devs_text(value)


@register.filter
def card(code) -> str:
    """'Ah' -> 'A♥' for display (the code itself is what forms carry)."""
    if not code or len(code) != 2:
        return code or ""
    rank = "10" if code[0] == "T" else code[0]
    return f"{rank}{SUIT_SYMBOLS.get(code[1], code[1])}"


@register.filter
def is_red(code) -> bool:
    return bool(code) and code[-1] in "hd"


@register.filter
def get(mapping, key):
    return mapping.get(key) if mapping else None


@register.filter
def rate(value) -> str:
    """An exact rate (a Fraction) to one decimal: hands an hour on the floor map."""
    return "" if value is None else one_decimal(value)


@register.filter
def words(identifier) -> str:
    """An identifier for people: a hand category "one_pair" -> "one pair"."""
    return str(identifier or "").replace("_", " ")


@register.filter
def wager(identifier) -> str:
    """A wager as the layout names it, any game's: "bad_beat" -> "Bad Beat", "play" ->
    "Play", "dragon_7" -> "Dragon 7"; anything else in words ("table_action")."""
    try:
        return WagerKind(identifier).label
    except ValueError:
        return SQUARE_LABELS.get(identifier) or words(identifier)


@register.filter
def bettor(label) -> str:
    """A bettor of the calculator's answer in words: "seat" -> "seated player",
    "backline-2" -> "backline 2" (``wagers.rules.wagers.bettor_label``)."""
    return "seated player" if label == "seat" else words(str(label).replace("-", " "))


@register.filter
def squares(names) -> str:
    """Betting squares as the layout names them: ["ante", "bad_beat"] -> "Ante, Bad Beat"."""
    return ", ".join(wager(name) for name in names or ())


@register.filter
def hand_result(category, result) -> str:
    """A hand's end in words: "Two pair: beats the player-dealer", or "folded"."""
    if result == HandResultChoice.FOLD:
        return HandResultChoice.FOLD.label
    label = HandResultChoice(result).label if result in HandResultChoice.values else words(result)
    return f"{words(category).capitalize()}: {label}" if category else label


@register.filter
def in_force(exclusion, day) -> bool:
    """A barring or self-restriction in force on ``day`` (docs/rules.md §3.9)."""
    return exclusion.in_force_on(day)
