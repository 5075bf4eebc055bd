"""What the layout puts at stake before the tap (docs/rules.md §4.3, §7.2-§7.3).

- A Play is the Ante times the multiple, taken from the bettor's chips at the table: the
  seated player's and each backline bettor's (who plays the seat's multiple of their own
  Ante). A multiple any of them cannot cover is refused (rule wagers.chips_in_front).
- The action against the bank (``exposure``): the most the bank can lose on this layout is
  every bettor's largest possible win, added up. A bettor wins the most when its hand is a
  Royal Flush beating the player-dealer's qualifying Straight Flush: the Ante at even money,
  the largest Play (the Ante times the largest pre-flop multiple) at even money, the Blind at
  its best pay (500 to 1), the Trips at the top odds of its pay table and, if the bettor made
  one and the table offers it, the Bad Beat at the top odds of its pay table (the beaten hand
  is the player-dealer's). Each payout is rounded down to the chip, as settlement rounds it
  (docs/rules.md §6.3). The bank covers every one of these wagers (§7.2); a backline bettor
  counts like the seated player, on the seat's hand, with its own Ante, Blind and Trips (no
  Bad Beat, §4.7). Seats share the board, so not every hand can win at its best at once:
  the figure is an upper bound that no deal reaches beyond, and for one seat with the named
  pay tables it is reached.
- With the bank W, those wins are paid in settlement order (``settlement_order``,
  ``apply_coverage``): the bank pays until it is exhausted, and what it cannot pay goes
  unpaid, uncovered (§7.3). Nothing else the cards can do leaves more unpaid.
- The likely case (``likely_case``, docs/rules.md §7.5): every hand beats a qualifying
  player-dealer with less than Three of a Kind, the bank's usual bad hand. Each bettor wins
  its Ante and its largest Play at even money, its Blind pushes (below a Straight), its Trips
  loses (below Three of a Kind) and so does its Bad Beat (the beaten hand, the
  player-dealer's, is below Three of a Kind too); the losing stakes are collected in their
  place in the settlement order. ``action_against_the_bank`` gives both figures: the likely
  case and the worst; the likely case never owes more, nor leaves more uncovered.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from enum import Enum
from fractions import Fraction
from typing import NamedTuple

from tables.rules.options import GameOptions
from tables.rules.paytables import PayTable, payout

from .resolution import Outcome, Resolution
from .settlement import Settlement, apply_coverage, settlement_order
from .wagers import Stakes, WagerKind


def play_stake(ante: int, multiple: int) -> int:
    """The Play of a bettor with ``ante`` cents on the Ante, at ``multiple`` times."""
    return ante * multiple


def play_covered(ante: int, multiple: int, chips: int) -> bool:
    """Whether ``chips`` cents at the table cover the Play (a bettor with no Ante has none)."""
    return play_stake(ante, multiple) <= chips


class Bettor(NamedTuple):
    """One bettor of a seat as the layout shows it: the Ante, chips at the table, a name."""

    ante: int
    chips: int
    name: str


def play_shortfall(bettors: Sequence[Bettor], multiple: int) -> Bettor | None:
    """The first bettor of a seat (the seated player, then the backline) who cannot cover
    a Play of ``multiple`` times their Ante, or None when every one can."""
    for bettor in bettors:
        if bettor.ante and not play_covered(bettor.ante, multiple, bettor.chips):
            return bettor
    return None


class Win(NamedTuple):
    """One bettor's win on the layout in a case (cents): its largest in the worst case."""

    seat: int
    bettor: int  # 0: the seated player; 1, 2, ...: the backline bettors, as they stand
    amount: int


class Exposure(NamedTuple):
    """The action on the layout against the bank in one case (the worst, or the likely):
    what the bank owes the winners, and what of it this bank could not pay (cents)."""

    bank: int
    owed: int  # every bettor's win in this case, added (the worst case: the most it can lose)
    paid: int  # what this bank would pay of it: never more than the bank (§7.3)
    uncovered: int  # what could go unpaid, uncovered: owed - paid
    wagers: int  # winning wagers counted
    uncovered_wagers: int  # of which some part would go unpaid, in settlement order
    collected: int = 0  # losing stakes the bank collects in this case (none in the worst)
    wins: tuple[Win, ...] = ()  # per bettor that wins, in settlement order
    case: str = ""  # the case in the floor's words, for a game whose cases are outcomes of
    # the cards (EZ Baccarat: "the Banker wins with a Dragon 7"); empty otherwise

    @property
    def net(self) -> int:
        """The player-dealer's result in this case (cents): what it collects less what it
        pays, between -W and +W (§7.3)."""
        return self.collected - self.paid


def _top_odds(table: PayTable) -> Fraction:
    return max(odds for _, odds in table.odds)


def _at_best(kind: WagerKind, stake: int, table: PayTable, chip_unit: int) -> Resolution:
    amount, rounded_off = payout(stake, _top_odds(table), chip_unit)
    return Resolution(kind, stake, Outcome.WIN, amount, rounded_off)


def best_case(
    stakes: Stakes, largest_multiple: int, options: GameOptions
) -> dict[WagerKind, Resolution]:
    """Each wager of one bettor, won at its best (see the module's docstring): the Play is
    the Ante times ``largest_multiple`` (a Play already on the layout is not consulted); a
    Bad Beat at a table that offers none can only lose, and is left out."""
    won: dict[WagerKind, Resolution] = {}
    if stakes.ante:
        play = play_stake(stakes.ante, largest_multiple)
        won[WagerKind.ANTE] = Resolution(WagerKind.ANTE, stakes.ante, Outcome.WIN, stakes.ante)
        won[WagerKind.PLAY] = Resolution(WagerKind.PLAY, play, Outcome.WIN, play)
    chip = options.chip_unit
    if stakes.blind:
        won[WagerKind.BLIND] = _at_best(WagerKind.BLIND, stakes.blind, options.blind_paytable, chip)
    if stakes.trips:
        won[WagerKind.TRIPS] = _at_best(WagerKind.TRIPS, stakes.trips, options.trips_paytable, chip)
    if stakes.bad_beat and options.bad_beat_paytable is not None:
        won[WagerKind.BAD_BEAT] = _at_best(
            WagerKind.BAD_BEAT, stakes.bad_beat, options.bad_beat_paytable, chip
        )
    return won


def likely_case(
    stakes: Stakes, largest_multiple: int, options: GameOptions
) -> dict[WagerKind, Resolution]:
    """Each wager of one bettor when its hand beats a qualifying player-dealer with less than
    Three of a Kind (see the module's docstring): the Ante and the Play (the Ante times
    ``largest_multiple``) win at even money, the Blind pushes, the Trips and the Bad Beat
    lose. ``options`` is not consulted: no pay table pays in this case."""
    case: dict[WagerKind, Resolution] = {}
    if stakes.ante:
        play = play_stake(stakes.ante, largest_multiple)
        case[WagerKind.ANTE] = Resolution(WagerKind.ANTE, stakes.ante, Outcome.WIN, stakes.ante)
        case[WagerKind.PLAY] = Resolution(WagerKind.PLAY, play, Outcome.WIN, play)
    if stakes.blind:
        case[WagerKind.BLIND] = Resolution(WagerKind.BLIND, stakes.blind, Outcome.PUSH)
    if stakes.trips:
        case[WagerKind.TRIPS] = Resolution(WagerKind.TRIPS, stakes.trips, Outcome.LOSE)
    if stakes.bad_beat:
        case[WagerKind.BAD_BEAT] = Resolution(WagerKind.BAD_BEAT, stakes.bad_beat, Outcome.LOSE)
    return case


def largest_win(stakes: Stakes, largest_multiple: int, options: GameOptions) -> int:
    """The most one bettor can win on the hand (cents): every wager at its best."""
    return sum(won.payout for won in best_case(stakes, largest_multiple, options).values())


def _as_stakes(wager: int | Stakes) -> Stakes:
    """A bettor on the layout: its Stakes, or an Ante alone (its Blind equal, no Trips)."""
    return wager if isinstance(wager, Stakes) else Stakes(ante=wager, blind=wager)


Case = Callable[[Stakes, int, GameOptions], Mapping[WagerKind, Resolution]]


def exposure(
    bank: int,
    player_dealer_seat: int,
    layout: Mapping[int, Iterable[int | Stakes]],
    largest_multiple: int | None = None,
    options: GameOptions | None = None,
    *,
    case: Case = best_case,
) -> Exposure:
    """The action on the layout against a bank of ``bank`` cents in one case (see the
    module's docstring): by default the worst (``best_case``: every wager at its best),
    or ``likely_case``.

    ``layout[seat]`` lists the seat's bettors, the seated player first, each as its Stakes
    (the opening wagers: Ante, Blind, Trips, Bad Beat) or as an Ante alone.
    ``largest_multiple`` defaults to the largest pre-flop multiple ``options`` allow; the
    options default to the rules' (UTH-01 Trips, Bad Beat option 1, a 1-cent chip). Reuses
    the settlement order and the coverage rule, so the figures are what settlement would do.
    """
    options = options if options is not None else GameOptions()
    if largest_multiple is None:
        largest_multiple = max(options.allowed_preflop_multiples)
    resolutions = {
        seat: [case(_as_stakes(w), largest_multiple, options) for w in wagers]
        for seat, wagers in layout.items()
    }
    settled = apply_coverage(bank, settlement_order(player_dealer_seat, resolutions, ()))
    return exposure_of(settled)


def exposure_of(settled: Settlement, case: str = "") -> Exposure:
    """The figures of one case from the settlement the case would have (every wager resolved
    as the case has it, settled in order by the coverage law): what is owed to the winners,
    paid and left unpaid, and what is collected. Any game's cases are read here."""
    lines = settled.lines
    winning = [line for line in lines if line.outcome is Outcome.WIN]
    wins: dict[tuple[int, int], int] = {}
    for line in winning:
        key = (line.seat, line.bettor)
        wins[key] = wins.get(key, 0) + line.paid + line.unpaid_uncovered
    return Exposure(
        bank=settled.bank,
        owed=sum(line.paid + line.unpaid_uncovered for line in winning),
        paid=sum(line.paid for line in winning),
        uncovered=sum(line.unpaid_uncovered for line in winning),
        wagers=len(winning),
        uncovered_wagers=sum(1 for line in winning if line.unpaid_uncovered),
        collected=sum(line.collected for line in lines),
        wins=tuple(Win(seat, bettor, won) for (seat, bettor), won in wins.items()),
        case=case,
    )


class Alarm(Enum):
    """How the bank stands against the layout, as the tablet colours it (docs/rules.md §7.5)."""

    COVERED = "covered"  # even the worst case is paid in full
    WORST = "worst"  # only the worst case leaves something uncovered
    LIKELY = "likely"  # the likely case already leaves something uncovered


class BankAction(NamedTuple):
    """The action on the layout against the bank: the likely case and the worst."""

    likely: Exposure
    worst: Exposure

    @property
    def alarm(self) -> Alarm:
        if self.likely.uncovered:
            return Alarm.LIKELY
        return Alarm.WORST if self.worst.uncovered else Alarm.COVERED


def action_against_the_bank(
    bank: int,
    player_dealer_seat: int,
    layout: Mapping[int, Iterable[int | Stakes]],
    largest_multiple: int | None = None,
    options: GameOptions | None = None,
) -> BankAction:
    """Both figures of the layout against a bank of ``bank`` cents (``exposure``): the likely
    case (``likely_case``) and the worst (``best_case``)."""
    bettors = {seat: list(wagers) for seat, wagers in layout.items()}  # read twice
    figures = (bank, player_dealer_seat, bettors, largest_multiple, options)
    return BankAction(
        likely=exposure(*figures, case=likely_case), worst=exposure(*figures, case=best_case)
    )
