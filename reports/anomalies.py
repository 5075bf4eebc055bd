"""Report 7: player-dealer results against theo, the anomalies (docs/rules.md §13.6).

For compliance: the player-dealers whose actual result (the banks' settlement net, before
fees) lies more than ``THRESHOLD`` standard deviations from the theo of the same hands
(§13.5), above or below, among those with at least the minimum number of settled hands
banked in the window (``min_hands``, a parameter; ``REPORTS_ANOMALY_MIN_HANDS`` by
default). TPPPs apart from other player-dealers.

Three windows, each ending with the period's gaming days: (a) each gaming day of the
period, (b) the seven gaming days ending with the period's last, (c) all time up to the
period's end. A hand belongs to the gaming day its bank was posted in, as in the banking
report; only settled hands with a theo count. Each window is one SQL aggregate per
player-dealer and table; whether a result is beyond the threshold is decided exactly
(``wagers.rules.theo.Comparison.beyond``).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import date, datetime, timedelta
from decimal import Decimal

from django.conf import settings
from django.db.models import Count, DecimalField, F, Max, Min, Sum

from cardroom import bounds
from cardroom.errors import Rule, RuleError
from cardroom.gaming_day import gaming_day_window
from wagers.models import PlayerDealerBank
from wagers.rules.theo import NO_HANDS, Comparison, std_devs_text
from wagers.selectors import WITH_THEO

from .common import header
from .document import Document, Section
from .parameters import Period

TITLE = "Player-dealer results against theo (anomalies)"
THRESHOLD = 3  # standard deviations, either way (docs/rules.md §13.6)
SEVEN_DAYS = 7
MIN_HANDS = "min_hands"  # the report's own parameter

ANOMALY_COLUMNS = [
    "window", "from_day", "to_day", "player", "player_name", "hands", "hands_banked",
    "theo_cents", "actual_cents", "difference_cents", "std_dev_cents", "std_devs_from_theo",
]  # fmt: skip
ANOMALY_WIDTHS = {
    "window": 17, "from_day": 10, "to_day": 10, "player": 10, "player_name": 16, "hands": 22,
    "hands_banked": 6, "theo_cents": 12, "actual_cents": 13, "difference_cents": 13,
    "std_dev_cents": 12, "std_devs_from_theo": 7,
}  # fmt: skip
CHECK_COLUMNS = [
    "window", "from_day", "to_day", "tppp", "player_dealers", "player_dealers_checked",
    "hands_checked", "beyond_threshold",
]  # fmt: skip
CHECK_WIDTHS = {
    "window": 18, "from_day": 10, "to_day": 10, "tppp": 5, "player_dealers": 14,
    "player_dealers_checked": 14, "hands_checked": 10, "beyond_threshold": 10,
}  # fmt: skip


# --- The report's own parameter -------------------------------------------------------------


def normalise_filters(raw: dict) -> dict:
    """``min_hands``: a whole number of hands, at least 1; absent: the setting applies (and
    is not stored, so the daily request and one without it are the same request)."""
    unknown = sorted(set(raw) - {MIN_HANDS})
    if unknown:
        raise RuleError(
            f"unknown parameter(s): {', '.join(unknown)}", rule=Rule.REPORTS, field=unknown[0]
        )
    value = raw.get(MIN_HANDS)
    if value is None:
        return {}
    try:
        return {MIN_HANDS: bounds.strict_int(value, minimum=1, maximum=bounds.COUNT_MAX)}
    except bounds.OutOfBounds:
        raise RuleError(
            f"min_hands must be a whole number of hands from 1 to {bounds.COUNT_MAX}",
            rule=Rule.REPORTS,
            field=MIN_HANDS,
        ) from None


def filter_words(parameters: dict) -> str:
    """The parameter in words for the list of requested reports."""
    value = parameters.get(MIN_HANDS)
    return "" if value is None else f"at least {value} banked hands"


def min_hands(period: Period) -> int:
    return dict(period.filters).get(MIN_HANDS, settings.REPORTS_ANOMALY_MIN_HANDS)


# --- Windows --------------------------------------------------------------------------------


@dataclass(frozen=True)
class Window:
    kind: str  # gaming_day, seven_gaming_days, all_time
    from_day: date | None  # None: from the first hand
    to_day: date

    @property
    def start(self) -> datetime | None:
        return None if self.from_day is None else gaming_day_window(self.from_day)[0]

    @property
    def end(self) -> datetime:
        return gaming_day_window(self.to_day)[1]


def windows(period: Period) -> list[Window]:
    each = [
        period.from_day + timedelta(days=n)
        for n in range((period.to_day - period.from_day).days + 1)
    ]
    days = [Window("gaming_day", day, day) for day in each]
    week = Window(
        "seven_gaming_days", period.to_day - timedelta(days=SEVEN_DAYS - 1), period.to_day
    )
    return [*days, week, Window("all_time", None, period.to_day)]


# --- Figures ----------------------------------------------------------------------------------


@dataclass
class PlayerDealer:
    """One player-dealer's hands in a window (as a TPPP or not), table by table."""

    player: str  # the player number
    name: str
    tppp: bool
    theo: Comparison = NO_HANDS
    tables: list[tuple[str, int, int]] = field(default_factory=list)  # name, first, last

    @property
    def hands(self) -> str:
        """The tables and hands, as the floor names them: ``UTH-3 hands 12\u201340``
        (an en dash between the first and the last hand number)."""
        return "; ".join(
            f"{name} hand {first}" if first == last else f"{name} hands {first}\u2013{last}"
            for name, first, last in sorted(self.tables)
        )


def figures(period: Period, window: Window) -> list[PlayerDealer]:
    """Every player-dealer with a settled hand with a theo banked in ``window`` (its bank
    posted in it), with the theo beside the actual of those hands: one query."""
    banks = PlayerDealerBank.objects.filter(WITH_THEO, posted_at__lt=window.end)
    if window.start is not None:
        banks = banks.filter(posted_at__gte=window.start)
    if period.table_id is not None:
        banks = banks.filter(round__table_id=period.table_id)
    rows = (
        banks.values(
            "player_id",
            "player__player_number",
            "player__name",
            "round__player_dealer_is_tppp",
            "round__table_id",
            "round__table__name",
        )
        .annotate(
            hands=Count("id"),
            theo=Sum("round__theo__theo_cents"),
            actual=Sum("net_cents"),
            variance=Sum(
                F("round__theo__std_dev_cents") * F("round__theo__std_dev_cents"),
                output_field=DecimalField(max_digits=50, decimal_places=8),
            ),
            first=Min("round__number"),
            last=Max("round__number"),
        )
        .order_by()
    )
    found: dict[tuple[int, bool], PlayerDealer] = {}
    for row in rows:
        key = (row["player_id"], row["round__player_dealer_is_tppp"])
        dealer = found.setdefault(
            key,
            PlayerDealer(row["player__player_number"], row["player__name"], key[1]),
        )
        dealer.theo += Comparison(
            row["hands"], Decimal(row["theo"]), row["actual"], Decimal(row["variance"])
        )
        dealer.tables.append((row["round__table__name"], row["first"], row["last"]))
    return sorted(found.values(), key=lambda dealer: dealer.player)


@dataclass(frozen=True)
class Checked:
    window: Window
    tppp: bool
    dealers: list[PlayerDealer]  # every player-dealer in the window
    minimum: int

    @property
    def checked(self) -> list[PlayerDealer]:
        return [d for d in self.dealers if d.theo.hands >= self.minimum]

    @property
    def beyond(self) -> list[PlayerDealer]:
        """Those checked whose result lies beyond the threshold, the furthest first."""
        found = [d for d in self.checked if d.theo.beyond(THRESHOLD)]
        return sorted(found, key=lambda d: (-abs(d.theo.std_devs or 0), d.player))


def check(period: Period) -> list[Checked]:
    """Each window, TPPPs first, then the other player-dealers."""
    minimum = min_hands(period)
    result = []
    for window in windows(period):
        dealers = figures(period, window)
        for tppp in (True, False):
            result.append(Checked(window, tppp, [d for d in dealers if d.tppp is tppp], minimum))
    return result


# --- The document -------------------------------------------------------------------------


def _days(window: Window) -> tuple[date | None, date]:
    return window.from_day, window.to_day


def _check_rows(results: list[Checked]) -> Iterator[tuple]:
    for found in results:
        yield (
            found.window.kind,
            *_days(found.window),
            found.tppp,
            len(found.dealers),
            len(found.checked),
            sum(d.theo.hands for d in found.checked),
            len(found.beyond),
        )


def _anomaly_rows(results: list[Checked], tppp: bool) -> Iterator[tuple]:
    for found in results:
        if found.tppp is not tppp:
            continue
        for dealer in found.beyond:
            theo = dealer.theo
            yield (
                found.window.kind,
                *_days(found.window),
                dealer.player,
                dealer.name,
                dealer.hands,
                theo.hands,
                theo.theo,
                theo.actual,
                theo.difference,
                theo.std_dev,
                std_devs_text(theo.std_devs),
            )


def build(period: Period, *, is_open: bool) -> Document:
    minimum = min_hands(period)
    source = "the report's parameter" if MIN_HANDS in dict(period.filters) else "the setting"
    extra = [
        (
            "threshold",
            f"actual result more than {THRESHOLD} standard deviations from theo, above or "
            "below (docs/rules.md §13.6)",
        ),
        (
            "minimum banked hands",
            f"{minimum} settled hands with a theo in the window ({source}; "
            "REPORTS_ANOMALY_MIN_HANDS)",
        ),
        (
            "windows",
            "each gaming day of the period; the seven gaming days ending with its last; all "
            "time to its end (a hand counts on the gaming day its bank was posted)",
        ),
        (
            "theo",
            "the player-dealer's expected result from the wagers on the layout, before fees, "
            "ignoring coverage; actual: the banks' settlement net, before fees (docs/rules.md "
            "§13.5)",
        ),
        ("amounts", "integer cents in CSV (theo to 1/10,000 of a cent); dollars in PDF"),
    ]

    def sections():
        results = check(period)
        yield Section("Windows checked", CHECK_COLUMNS, _check_rows(results), CHECK_WIDTHS)
        for tppp, who in ((True, "TPPP player-dealers"), (False, "Other player-dealers")):
            yield Section(
                f"{who} beyond {THRESHOLD} standard deviations",
                ANOMALY_COLUMNS,
                _anomaly_rows(results, tppp),
                ANOMALY_WIDTHS,
            )

    return Document(TITLE, header(TITLE, period, is_open=is_open, extra=extra), sections())
