"""Every settled hand played again from its records (``verify_ledger``; docs/money.md, "What
``verify_ledger`` checks").

The leg checks (``wagers.verification``) prove that the ledger posted what the records say;
this proves that the records say what the hand was. Each settled round is played again with
the rules core from what is stored of it:

- **its cards**: at an RNG table, the stored deck dealt in the documented order
  (``tables.rules.deck.deal``): the board, the player-dealer's cards and each hand's must be
  the deck's, and the hand is played from the deck's; at a card-entry table, the cards as
  entered, real cards, each once (a folded hand may have none: a fold without cards, whose
  Trips, if any, would need them);
- **each hand's decisions**, in street order, by the rules (``DecisionRecord.then``) under
  the round's frozen options, and complete (a Play or a fold); each bettor's Play is the
  decision's multiple of its own Ante (``wagers.rules.layout.play_stake``);
- **the hand played out** (``wagers.rules.showdown.play_out``) on those cards with the bets
  and the bank W: the player-dealer's category and whether it qualifies, each hand's
  category and result, each settlement line in its order (pass, seat, bettor, wager, stake,
  outcome, paid, collected, returned and unpaid uncovered, the fraction rounded off), the
  bank's net and whether it was exhausted.

A hand of a game dealt from a shoe (EZ Baccarat, ``games.interface.Game.cards``) is played
again from its coup: the Player and Banker hands as stored, dealt again in dealing order by the
drawing rules, a run of the cards recorded against its shoe; each bettor's wagers; the bank W;
every line and the bank's net by the game's settlement (``Game.settle``, docs/rules.md §14.6).

A round whose cards are not a deal, or whose decisions break the rules, is reported and not
played again (there is nothing sound to play it from). Rounds stream in batches of ``BATCH``
(five queries a batch, in the caller's snapshot); each options sheet is read once.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass, field
from decimal import ROUND_HALF_EVEN, Decimal
from fractions import Fraction

from django.db.models import TextField
from django.db.models.functions import Cast

from cardroom.errors import RuleError, State
from cardroom.money import dollars
from games.interface import Game, RoundCards, SeatWagers
from games.registry import OPENING_SQUARES
from games.registry import game as game_of_key
from tables import options as table_options
from tables.models import DealMode, Hand, HandDecision, HandResultChoice, Round
from tables.rules.cards import Card, ensure_distinct, parse_cards
from tables.rules.decisions import Action, Decision, DecisionRecord, Street
from tables.rules.deck import deal
from tables.rules.hands import Category
from wagers.math_sheet import hand_words
from wagers.models import Bet, SettlementLine
from wagers.rules.layout import play_stake
from wagers.rules.settlement import Settlement
from wagers.rules.showdown import HandOutcome, SeatHand, play_out
from wagers.rules.wagers import Stakes, bettor_label
from wagers.verification import CENTS, WORDS, Difference, Recomputation

BATCH = 500

NOT_A_DEAL = "settled round's cards are not a deal"
NOT_THE_DECKS = "settled round's cards are not its deck's"
DECISIONS = "hand's decisions break the rules"
PLAY = "bet's Play is not its hand's decision"
NO_BANK = "settled round has no bank"
DEALER = "player-dealer's hand differs from the cards"
HAND = "hand differs from the cards"
LINE = "settlement line differs from the hand played again"
LINE_AMOUNT = "settlement line's amount differs from the hand played again"
BANK = "bank's result differs from the hand played again"
EXHAUSTED = "bank's exhaustion differs from the hand played again"
CHECKS = {
    NOT_A_DEAL: WORDS,
    NOT_THE_DECKS: WORDS,
    DECISIONS: WORDS,
    PLAY: CENTS,
    NO_BANK: WORDS,
    DEALER: WORDS,
    HAND: WORDS,
    LINE: WORDS,
    LINE_AMOUNT: CENTS,
    BANK: CENTS,
    EXHAUSTED: WORDS,
}

# A settlement line's figures: (stored column, the rules core's field, in words).
LINE_WORDS = (
    ("settlement_pass", "pass_", "pass"),
    ("seat", "seat", "seat"),
    ("bettor", "bettor", "bettor"),
    ("wager", "wager", "wager"),
    ("outcome", "outcome", "outcome"),
)
LINE_AMOUNTS = (
    ("stake_cents", "stake", "stake"),
    ("paid_cents", "paid", "paid"),
    ("collected_cents", "collected", "collected"),
    ("returned_uncovered_cents", "returned_uncovered", "returned uncovered"),
    ("unpaid_uncovered_cents", "unpaid_uncovered", "unpaid uncovered"),
)
LINE_FIELDS = (
    "pk", "round_id", "order", "settlement_pass", "seat", "bettor", "wager", "stake_cents",
    "outcome", "paid_cents", "collected_cents", "returned_uncovered_cents",
    "unpaid_uncovered_cents", "rounded_off_cents", "bet__account_id",
)  # fmt: skip
# The squares of the games after the first, each a ``Bet`` column read after the Play.
OTHER_SQUARES = tuple(
    square for square in OPENING_SQUARES if square not in ("ante", "blind", "trips", "bad_beat")
)
ROUNDED_OFF = Decimal("0.000001")  # SettlementLine.rounded_off_cents: six places
NOTHING_ROUNDED = Decimal("0.000000")


@dataclass
class _Hand:
    pk: int
    seat: int
    hole: object
    category: str
    result: str
    decisions: list[tuple[str, str, int]] = field(default_factory=list)
    # (pk, bettor, account, ante, blind, trips, bad beat, play, then the other games'
    # squares: ``OTHER_SQUARES``), by bettor
    bets: list[tuple] = field(default_factory=list)


@dataclass
class _Round:
    pk: int
    player_dealer_seat: int
    options: str  # the frozen options sheet, as its JSON text
    deal_mode: str
    deck: object
    dealer_hole: object
    board: object
    dealer_category: str
    dealer_qualifies: bool | None
    bank: tuple[int, int | None, bool | None] | None  # W, net, exhausted
    player_cards: object = None  # a coup's hands (a game dealt from a shoe)
    banker_cards: object = None
    shoe_dealt: object = None  # the cards recorded against the round's shoe, in order
    hands: list[_Hand] = field(default_factory=list)
    lines: list[tuple] = field(default_factory=list)


# --- Words ------------------------------------------------------------------------------------


def _cards_text(cards) -> str:
    if not cards:
        return "none"
    if isinstance(cards, list | tuple):
        return " ".join(str(card) for card in cards)
    return str(cards)


def _category(label) -> str:
    if not label:
        return "none"
    try:
        return hand_words(Category.from_label(label)).lower()
    except (RuleError, AttributeError):
        return str(label)


def _result(value) -> str:
    return HandResultChoice(value).label if value in HandResultChoice.values else value or "none"


def _who(seat: int, bettor: int = 0) -> str:
    return f"seat {seat}" if bettor == 0 else f"seat {seat} {bettor_label(bettor)}"


def _line_words(order, seat, bettor, wager, stake, outcome, paid, collected) -> str:
    """A settlement line in words: "#3 seat 2 ante of $10.00, win, paid $10.00"."""
    money = (
        f"paid {dollars(paid)}"
        if outcome == "win"
        else f"collected {dollars(collected)}"
        if outcome == "lose"
        else "returned"
    )
    return f"#{order} {_who(seat, bettor)} {wager} of {dollars(stake)}, {outcome}, {money}"


# --- Reading the settled rounds, a batch at a time -----------------------------------------------


def _batches() -> Iterator[list[_Round]]:
    last = 0
    while True:
        rows = list(
            Round.objects.filter(state=State.SETTLED, pk__gt=last)
            .annotate(options_text=Cast("options", TextField()))
            .order_by("pk")
            .values_list(
                "pk", "player_dealer_seat", "options_text", "deal_mode", "shuffled_deck",
                "dealer_hole", "board", "dealer_category", "dealer_qualifies",
                "bank__amount_cents", "bank__net_cents", "bank__exhausted", "bank__pk",
                "player_cards", "banker_cards", "shoe__dealt",
            )[:BATCH]
        )  # fmt: skip
        if not rows:
            return
        rounds = {
            pk: _Round(
                pk, seat, options, mode, deck, hole, board, category, qualifies,
                None if bank_pk is None else (amount, net, exhausted),
                player, banker, dealt,
            )
            for (
                pk, seat, options, mode, deck, hole, board, category, qualifies, amount, net,
                exhausted, bank_pk, player, banker, dealt,
            ) in rows
        }  # fmt: skip
        ids = list(rounds)
        hands: dict[int, _Hand] = {}
        for pk, round_id, seat, hole, category, result in (
            Hand.objects.filter(round_id__in=ids)
            .order_by("round_id", "seat")
            .values_list("pk", "round_id", "seat", "hole", "category", "result")
        ):
            hands[pk] = _Hand(pk, seat, hole, category, result)
            rounds[round_id].hands.append(hands[pk])
        for hand_id, street, action, multiple in (
            HandDecision.objects.filter(hand__round_id__in=ids)
            .order_by("hand_id", "id")
            .values_list("hand_id", "street", "action", "multiple")
        ):
            hands[hand_id].decisions.append((street, action, multiple))
        for hand_id, *bet in (
            Bet.objects.filter(hand__round_id__in=ids)
            .order_by("hand_id", "bettor")
            .values_list(
                "hand_id", "pk", "bettor", "account_id", "ante_cents", "blind_cents",
                "trips_cents", "bad_beat_cents", "play_cents",
                *(f"{square}_cents" for square in OTHER_SQUARES),
            )
        ):  # fmt: skip
            hands[hand_id].bets.append(tuple(bet))
        for line in (
            SettlementLine.objects.filter(round_id__in=ids)
            .order_by("round_id", "order")
            .values_list(*LINE_FIELDS)
        ):
            rounds[line[1]].lines.append(line)
        yield list(rounds.values())
        last = ids[-1]


# --- Playing a round again ------------------------------------------------------------------------


class _Options:
    """Each options sheet read once (a floor plays thousands of rounds under a few sheets),
    by the JSON text the database gives."""

    def __init__(self) -> None:
        self._read: dict[str, tuple[Game, object]] = {}

    def __call__(self, options: str) -> tuple[Game, object]:
        """The sheet's game and its rules core's options."""
        if options not in self._read:
            values = json.loads(options)
            self._read[options] = (
                game_of_key(values.get("game")),
                table_options.rules_options(values),
            )
        return self._read[options]


@dataclass
class _Replay:
    """One round being played again: the differences found so far."""

    round: _Round
    found: list[Difference] = field(default_factory=list)

    def differs(self, check: str, what: str, expected, found, **where) -> None:
        self.found.append(
            Difference(
                check=check,
                row=where.pop("row", "round"),
                row_id=where.pop("row_id", self.round.pk),
                expected=expected,
                found=found,
                round_id=self.round.pk,
                unit=CHECKS[check],
                what=what,
                **where,
            )
        )


def _records(replay: _Replay, options) -> dict[int, DecisionRecord] | None:
    """Each hand's decisions by the rules, complete; None if any breaks them."""
    order = {street.value: index for index, street in enumerate(Street)}
    records, sound = {}, True
    for hand in replay.round.hands:
        made = sorted(hand.decisions, key=lambda decision: order.get(decision[0], len(order)))
        record = DecisionRecord()
        problem = ""
        try:
            for street, action, multiple in made:
                record = record.then(
                    Decision(Street(street), Action(action), multiple),
                    options.allowed_preflop_multiples,
                )
        except (RuleError, ValueError) as error:
            problem = error.message if isinstance(error, RuleError) else str(error)
        if not problem and not record.complete:
            problem = "a Play or a fold by the river"
        if problem:
            sound = False
            replay.differs(
                DECISIONS,
                f"seat {hand.seat}'s decisions",
                problem,
                ", ".join(f"{s} {a}" + (f" {m}x" if m else "") for s, a, m in made) or "none",
            )
        records[hand.seat] = record
    return records if sound else None


def _parsed(replay: _Replay, what: str, stored, count: int) -> tuple[Card, ...] | None:
    try:
        return parse_cards(stored, count=count)
    except RuleError:
        replay.differs(NOT_A_DEAL, what, f"{count} cards", _cards_text(stored))
        return None


def _entered_cards(replay: _Replay, records: dict[int, DecisionRecord]):
    """A card-entry round's cards as entered: (player-dealer's, board, {seat: hole})."""
    round_ = replay.round
    dealer = _parsed(replay, "the player-dealer's cards", round_.dealer_hole, 2)
    board = _parsed(replay, "the board", round_.board, 5)
    holes = {}
    for hand in round_.hands:
        mucked = hand.hole in (None, []) and records[hand.seat].folded
        if mucked and not any(bet[5] for bet in hand.bets):
            holes[hand.seat] = ()  # a fold without cards
            continue
        why = "2 cards (the hand has a Trips wager)" if mucked else "2 cards"
        try:
            holes[hand.seat] = parse_cards(hand.hole, count=2)
        except RuleError:
            replay.differs(NOT_A_DEAL, f"seat {hand.seat}'s cards", why, _cards_text(hand.hole))
            holes[hand.seat] = None
    if dealer is None or board is None or None in holes.values():
        return None
    try:
        ensure_distinct([*dealer, *board, *(c for cards in holes.values() for c in cards)])
    except RuleError as error:
        replay.differs(NOT_A_DEAL, "the cards dealt", "each card once", error.message)
        return None
    return dealer, board, holes


def _dealt_cards(replay: _Replay):
    """An RNG round's cards: the stored deck dealt in order; the stored cards must be its."""
    round_ = replay.round
    try:
        deck = parse_cards(round_.deck, count=52)
    except RuleError:
        replay.differs(NOT_A_DEAL, "the deck", "52 cards, each once", _cards_text(round_.deck))
        return None
    try:
        dealt = deal(deck, round_.player_dealer_seat, [hand.seat for hand in round_.hands])
    except RuleError as error:
        replay.differs(NOT_A_DEAL, "the deal", "a deal by the rules", error.message)
        return None
    shown = [
        ("the player-dealer's cards", dealt.player_dealer, round_.dealer_hole),
        ("the board", dealt.board, round_.board),
        *(
            (f"seat {hand.seat}'s cards", dealt.hole_for(hand.seat), hand.hole)
            for hand in round_.hands
        ),
    ]
    for what, cards, stored in shown:
        if list(stored or ()) != [str(card) for card in cards]:
            replay.differs(NOT_THE_DECKS, what, _cards_text(cards), _cards_text(stored))
    return dealt.player_dealer, dealt.board, dict(dealt.hole_cards)


def _stakes(bet: tuple) -> Stakes:
    _, _, _, ante, blind, trips, bad_beat, play, *_ = bet
    return Stakes(ante=ante, blind=blind, play=play, trips=trips, bad_beat=bad_beat)


def _squares(bet: tuple) -> dict[str, int]:
    """A bet's stakes on the other games' squares, by name."""
    return dict(zip(OTHER_SQUARES, bet[8:], strict=True))


def _plays(replay: _Replay, records: dict[int, DecisionRecord]) -> None:
    for hand in replay.round.hands:
        multiple = records[hand.seat].play_multiple
        for _, bettor, account, ante, _, _, _, play, *_ in hand.bets:
            expected = play_stake(ante, multiple)
            if play != expected:
                replay.differs(
                    PLAY, f"{_who(hand.seat, bettor)}'s Play", expected, play, account_id=account
                )


def _compare_hands(replay: _Replay, outcome: HandOutcome) -> None:
    round_ = replay.round
    if outcome.dealer.category.label != round_.dealer_category:
        replay.differs(
            DEALER,
            "the player-dealer's category",
            _category(outcome.dealer.category.label),
            _category(round_.dealer_category),
        )
    if outcome.dealer_qualifies != round_.dealer_qualifies:
        words = {True: "qualifies", False: "does not qualify", None: "none"}
        replay.differs(
            DEALER,
            "whether the player-dealer qualifies",
            words[outcome.dealer_qualifies],
            words.get(round_.dealer_qualifies, str(round_.dealer_qualifies)),
        )
    stored = {hand.seat: hand for hand in round_.hands}
    for seat in outcome.seats:
        hand = stored[seat.seat]
        category = seat.value.category.label if seat.value is not None else ""
        if category != hand.category:
            replay.differs(
                HAND,
                f"seat {seat.seat}'s category",
                _category(category),
                _category(hand.category),
            )
        if seat.result.value != hand.result:
            replay.differs(
                HAND, f"seat {seat.seat}'s result", _result(seat.result.value), _result(hand.result)
            )


def _rounded(value: Fraction) -> Decimal:
    """The fraction of a cent rounded off, as ``SettlementLine.rounded_off_cents`` keeps it."""
    if not value:
        return NOTHING_ROUNDED
    exact = Decimal(value.numerator) / Decimal(value.denominator)
    return exact.quantize(ROUNDED_OFF, rounding=ROUND_HALF_EVEN)


def _stored_form(line) -> tuple:
    """A line of the rules core as the columns ``LINE_FIELDS[3:13]`` store it."""
    return (
        line.pass_.value, line.seat, line.bettor, line.wager.value, line.stake,
        line.outcome.value, line.paid, line.collected, line.returned_uncovered,
        line.unpaid_uncovered,
    )  # fmt: skip


def _compare_lines(replay: _Replay, settlement: Settlement) -> None:
    stored = {line[2]: line for line in replay.round.lines}
    for line in settlement.lines:
        row = stored.pop(line.order, None)
        if row is None:
            words = _line_words(
                line.order, line.seat, line.bettor, line.wager.value, line.stake,
                line.outcome.value, line.paid, line.collected,
            )  # fmt: skip
            replay.differs(LINE, f"settlement line #{line.order}", words, "none")
            continue
        if row[3:13] == _stored_form(line) and row[13] == _rounded(line.rounded_off):
            continue  # the line as recorded (most lines): nothing to compare field by field
        values = dict(zip(LINE_FIELDS, row, strict=True))
        where = {
            "row": "settlement line",
            "row_id": values["pk"],
            "line": "settlement line",
            "line_id": values["pk"],
        }
        for column, name, words in LINE_WORDS:
            expected = getattr(line, name)
            expected = getattr(expected, "value", expected)
            if expected != values[column]:
                replay.differs(LINE, words, str(expected), str(values[column]), **where)
        if _rounded(line.rounded_off) != values["rounded_off_cents"]:
            replay.differs(
                LINE,
                "the fraction of a cent rounded off",
                str(_rounded(line.rounded_off)),
                str(values["rounded_off_cents"]),
                **where,
            )
        for column, name, words in LINE_AMOUNTS:
            if getattr(line, name) != values[column]:
                replay.differs(
                    LINE_AMOUNT,
                    words,
                    getattr(line, name),
                    values[column],
                    account_id=values["bet__account_id"],
                    **where,
                )
    for row in stored.values():
        replay.differs(
            LINE,
            "a line the hand does not have",
            "none",
            _line_words(row[2], *row[4:11]),  # order, then seat to collected
            row="settlement line",
            row_id=row[0],
            line="settlement line",
            line_id=row[0],
        )


def _compare_bank(replay: _Replay, settlement: Settlement) -> None:
    _, net, exhausted = replay.round.bank
    if settlement.player_dealer_net != net:
        replay.differs(BANK, "the bank's net", settlement.player_dealer_net, net)
    if settlement.exhausted != exhausted:
        words = {True: "exhausted", False: "not exhausted", None: "none"}
        replay.differs(
            EXHAUSTED, "the bank", words[settlement.exhausted], words.get(exhausted, exhausted)
        )


def play_again(round_: _Round, options: _Options) -> list[Difference]:
    """The differences between a settled round's records and the round played again, by the
    kind of its game (``games.interface.Game.cards``)."""
    replay = _Replay(round_)
    try:
        game, sheet = options(round_.options)
    except (RuleError, KeyError, TypeError, ValueError) as error:
        problem = error.message if isinstance(error, RuleError) else f"no {error}"
        replay.differs(NOT_A_DEAL, "the round's options", "an options sheet", problem)
        return replay.found
    return _PLAY_AGAIN[game.cards](replay, game, sheet)


def _in_order(cards: list, dealt: list) -> bool:
    """Whether ``cards`` are a run of ``dealt``, in order."""
    size = len(cards)
    return any(dealt[start : start + size] == cards for start in range(len(dealt) - size + 1))


def _play_again_a_coup(replay: _Replay, game: Game, sheet) -> list[Difference]:
    """A coup played again (docs/rules.md §14): its two hands dealt again by the drawing
    rules, a run of the cards recorded against its shoe, every wager settled again."""
    round_ = replay.round
    if round_.bank is None:
        replay.differs(NO_BANK, "the bank", "a bank", "none")
        return replay.found
    player, banker = list(round_.player_cards or ()), list(round_.banker_cards or ())
    order = [*player[:1], *banker[:1], *player[1:2], *banker[1:2], *player[2:], *banker[2:]]
    if not order or not _in_order(order, list(round_.shoe_dealt or ())):
        replay.differs(
            NOT_THE_DECKS, "the coup", "cards dealt from its shoe, in order", _cards_text(order)
        )
        return replay.found
    seats = [
        SeatWagers(seat=hand.seat, bettors=tuple(_squares(bet) for bet in hand.bets))
        for hand in round_.hands
        if hand.bets
    ]
    try:
        settlement = game.settle(
            sheet,
            round_.player_dealer_seat,
            round_.bank[0],
            seats,
            RoundCards(player=tuple(player), banker=tuple(banker)),
        )
    except RuleError as error:
        replay.differs(NOT_A_DEAL, "the coup", "a coup the rules can settle", error.message)
        return replay.found
    _compare_lines(replay, settlement)
    _compare_bank(replay, settlement)
    return replay.found


def _play_again_a_deal(replay: _Replay, game: Game, sheet) -> list[Difference]:
    """A hand dealt from a fresh deck played again (Ultimate Texas Hold'em)."""
    round_ = replay.round
    records = _records(replay, sheet)
    if records is None:
        return replay.found
    _plays(replay, records)
    if round_.bank is None:
        replay.differs(NO_BANK, "the bank", "a bank", "none")
        return replay.found
    if round_.deal_mode == DealMode.RNG:
        cards = _dealt_cards(replay)
    else:
        cards = _entered_cards(replay, records)
    if cards is None:
        return replay.found
    dealer, board, holes = cards
    seats = [
        SeatHand(
            seat=hand.seat,
            hole=tuple(holes[hand.seat]) or None,  # none: mucked, never keyed
            stakes=_stakes(hand.bets[0]) if hand.bets else Stakes(),
            folded=records[hand.seat].folded,
            backline=tuple(_stakes(bet) for bet in hand.bets[1:]),
        )
        for hand in round_.hands
    ]
    try:
        outcome = play_out(round_.player_dealer_seat, dealer, board, seats, round_.bank[0], sheet)
    except RuleError as error:
        replay.differs(NOT_A_DEAL, "the hand", "a hand the rules can settle", error.message)
        return replay.found
    _compare_hands(replay, outcome)
    _compare_lines(replay, outcome.settlement)
    _compare_bank(replay, outcome.settlement)
    return replay.found


# How a settled hand is played again, by the kind of its game (``Game.cards``).
_PLAY_AGAIN = {"deck": _play_again_a_deal, "shoe": _play_again_a_coup}


def settled_hands() -> Iterator[Difference]:
    """Every settled round played again, batch by batch (in the caller's snapshot)."""
    options = _Options()
    for batch in _batches():
        for round_ in batch:
            yield from play_again(round_, options)


SETTLED_HANDS = Recomputation(CHECKS, settled_hands)
