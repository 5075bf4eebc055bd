"""The round lifecycle (docs/rules.md §2-§7): one service function per step of a hand.

Each step locks the table and reads the round with what the step needs of it (one statement
on PostgreSQL: ``wagers.services.round_lock.lock_round_state``), checks the state, moves it,
and records who and when, in one transaction. A hand starts when the floor's button gives it a
player-dealer (``tables.services.button.take_position``), with the collection schedule in
force frozen (``fees``); "no more bets" assesses the fees; decisions place the Plays; the
settlement runs the money rules (``wagers``); a void returns every wager and fee. Cards
come from the RNG deal (the shuffled deck is stored, so the round can be replayed) or from
the house dealer's card entry: the board as it is turned, the hole cards only at the
showdown, as they are turned face up (docs/rules.md §2.3).
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence

from django.db import connection, transaction

from cardroom.clock import now
from cardroom.errors import Refused, Row, Rule, RuleError, State, StateError
from fees.services import assessment as fee_assessment
from games.interface import Game
from games.registry import game as game_of_key
from tables import options as table_options
from tables.guards import require_state
from tables.models import DealMode, Hand, HandDecision, Round, RoundTransition, decision_record
from tables.rules.cards import ensure_keyed_once, format_cards, parse_card, parse_keyed_cards
from tables.rules.decisions import Action, Decision, DecisionRecord, Street
from tables.rules.deck import deal as deal_cards
from tables.rules.deck import shuffled_deck
from tables.rules.hands import evaluate
from tables.services import shoes
from tables.services.button import take_position
from tables.services.locks import lock_table
from wagers.models import PlayerDealerBank
from wagers.rules.resolution import HandResult, dealer_qualifies, hand_result
from wagers.rules.showdown import turned_face_up
from wagers.services import wagering
from wagers.services.round_lock import RoundState, lock_round_state
from wagers.services.settlement import return_round_money, settle_round_money
from wagers.services.theo import record_theo
from wagers.services.wagering import place_plays

from . import sql
from .selectors import STREET_OF_STATE, turned_up_words


def _move(round_: Round, to_state: State, by, moment=None, fields: Sequence[str] = ()) -> Round:
    """The round moves to ``to_state``: its transition recorded (who and when) and the round's
    state, end and ``fields`` saved."""
    moment = moment or now()
    from_state = round_.state
    round_.state = to_state
    if to_state in (State.SETTLED, State.VOIDED):
        round_.ended_at = moment
    saved = ["state", "ended_at", *fields]
    # On PostgreSQL one statement (``rounds.sql.move``), proved to write what the ORM's two
    # write by tests/rounds/services/test_move_statement.py.
    write = sql.move if connection.vendor == "postgresql" else _move_with_orm
    write(round_, from_state, by, moment, saved)
    return round_


def _move_with_orm(round_: Round, from_state: str, by, moment, saved: Sequence[str]) -> None:
    RoundTransition.objects.create(
        round=round_, from_state=from_state, to_state=round_.state, at=moment, by=by
    )
    round_.save(update_fields=saved)


def start_round(*, table_id: int, by) -> Round | Refused:
    """Open wagering for a new hand, banked by the player who accepted the button.

    Answers ``Refused`` when the rotation rules stop the hand at the last moment (an
    acceptance they no longer allow is cancelled; the 40-minute rule ends the game): both
    are recorded, and commit with the caller's transaction.
    """
    with transaction.atomic():
        table = lock_table(table_id)
        moment = now()
        taken = take_position(table, by=by, moment=moment)
        if isinstance(taken, Refused):
            return taken
        fees = fee_assessment.fix_schedule(table, moment)
        options = table_options.snapshot(table)
        seating = taken.seating
        round_ = Round.objects.create(
            table=table,
            game=taken.game,
            number=taken.number,
            deck=taken.deck,
            state=State.WAGERING,
            offer_round=taken.offer_round,
            player_dealer_id=seating.player_id,
            player_dealer_seat=seating.seat,
            player_dealer_is_tppp=seating.is_tppp,
            consecutive_count=taken.consecutive_count,
            tppps_seated=taken.tppps_seated,
            options=options,
            deal_mode=options["deal_mode"],
            started_at=moment,
            started_by=by,
        )
        RoundTransition.objects.create(
            round=round_, from_state="", to_state=State.WAGERING, at=moment, by=by
        )
        fee_assessment.freeze_schedule(round_, fees)
        return round_


def post_bank(*, round_id: int, amount: int, by) -> PlayerDealerBank:
    """The player-dealer's bank W (docs/rules.md §7.1), posted from their chips while wagering
    is open, leaving beside it the chips for the least collection fee they will owe at "no
    more bets" under the schedule frozen when the hand started (§9.4): one transaction, the
    table's lock, the schedule read in the lock's statement."""
    return wagering.post_bank(
        round_id=round_id, amount=amount, by=by, keep=fee_assessment.FEES_KEPT
    )


def close_wagering(*, round_id: int, by) -> Round:
    """ "No more bets": nothing is made, increased or withdrawn after this.

    The hand's collection fees are assessed and posted to the drop here, before the deal
    (docs/rules.md §9.4), and the hand's theo is stored (§13.5); the wagers, read with the
    lock in its statement, serve the checks, the fees and the theo.
    """
    with transaction.atomic():
        state = lock_round_state(round_id, bets=True, bank=True, also=fee_assessment.AT_CLOSE)
        round_ = state.round
        require_state(round_, State.WAGERING, action='call "no more bets"')
        wagers = fee_assessment.wagers_at_close(state)
        if wagers.bank_account_id is None:
            raise StateError(
                'the player-dealer has not posted the bank; it is posted before "no more bets"',
                state=State(round_.state),
                rule=Rule.BANK,
            )
        if not wagers.bets:
            raise StateError(
                "no seat has wagered in this round",
                state=State(round_.state),
                rule=Rule.ROUND_SEQUENCE,
            )
        fee_assessment.collect(round_, wagers, by=by)
        moment = now()
        record_theo(round_, wagers.bets, moment=moment)  # one INSERT
        return _move(round_, State.NO_MORE_BETS, by, moment)


def _refuse_cards_at_an_rng_table(entry: object) -> None:
    """An RNG table deals every card itself: cards keyed there are refused (§2.2)."""
    if entry is not None:
        raise RuleError(
            "this table deals by RNG; cards are not entered", rule=Rule.DEAL_MODE, field="cards"
        )


CARDS_AT_THE_DEAL = (
    "no card is keyed at the deal of a card-entry table: the hole cards are dealt face down and "
    "keyed at the showdown, when they are turned face up (nothing was recorded)"
)


def game_of(round_: Round) -> Game:
    """The round's game (``games.interface.Game``), as its frozen options name it."""
    return game_of_key(round_.options.get("game"))


def _require_steps(round_: Round, action: str) -> Game:
    """The round's game, whose hands have steps between "no more bets" and the showdown (the
    deal, the streets and their decisions); a game without (EZ Baccarat: the coup is dealt at
    the showdown) refuses them in the round's state."""
    game = game_of(round_)
    if not game.steps:
        raise StateError(
            f'a hand of {game.name} has no step to {action}: after "no more bets" the coup is '
            "dealt at the showdown",
            state=State(round_.state),
            rule=Rule.ROUND_SEQUENCE,
        )
    return game


def deal(*, round_id: int, by, entry: object = None, rng: random.Random | None = None) -> Round:
    """Deal the hole cards: by the RNG (deck stored), or, at a card-entry table, record that
    the house dealer dealt them face down. No card is keyed then (``entry`` is refused): the
    hole cards are keyed at the showdown, as they are turned face up (docs/rules.md §2.3)."""
    with transaction.atomic():
        state = lock_round_state(round_id)
        round_, hands = state.round, state.hands
        _require_steps(round_, "deal")
        require_state(round_, State.NO_MORE_BETS, action="deal")
        if round_.deal_mode == DealMode.RNG:
            _refuse_cards_at_an_rng_table(entry)
            deck = shuffled_deck(rng)
            dealt = deal_cards(deck, round_.player_dealer_seat, [h.seat for h in hands])
            round_.shuffled_deck = format_cards(deck)
            holes = {seat: format_cards(cards) for seat, cards in dealt.hole_cards}
            round_.dealer_hole = format_cards(dealt.player_dealer)
            for hand in hands:
                hand.hole = holes[hand.seat]
            Hand.objects.bulk_update(hands, ["hole"])
            return _move(round_, State.PREFLOP, by, fields=["shuffled_deck", "dealer_hole"])
        if entry is not None:
            raise RuleError(CARDS_AT_THE_DEAL, rule=Rule.CARD_ENTRY, field="cards")
        return _move(round_, State.PREFLOP, by)


def _records(state: RoundState) -> list[tuple[Hand, DecisionRecord]]:
    """The round's hands by seat, each with its decisions as the rules see them (read with
    the lock, ``lock_round_state(decisions=True)``; ``tables.models.decision_record``)."""
    return [(hand, decision_record(state.decisions.get(hand.pk, ()))) for hand in state.hands]


def decide(*, round_id: int, seat: int, action: str, multiple: int = 0, by) -> HandDecision:
    """Record one hand's decision on the current street (docs/rules.md §5)."""
    return decide_street(round_id=round_id, decisions=[(seat, action, multiple)], by=by)[0]


def decide_street(
    *, round_id: int, decisions: Sequence[tuple[int, str, int]], by
) -> list[HandDecision]:
    """Record several hands' decisions on the current street, all or none.

    ``decisions`` are (seat, action, multiple). The house dealer may enter a
    street's decisions one by one or together; each is validated as if alone,
    and each Play moves its chips (and its backline bettors') in the same
    transaction.
    """
    with transaction.atomic():
        state = lock_round_state(round_id, decisions=True, bets=True, accounts=True)
        round_ = state.round
        _require_steps(round_, "decide")
        require_state(round_, State.PREFLOP, State.FLOP, State.RIVER, action="decide")
        street = STREET_OF_STATE[State(round_.state)]
        records = {hand.seat: (hand, record) for hand, record in _records(state)}
        moment = now()
        created, plays, play_rows = [], [], {}
        for index, (seat, action, multiple) in enumerate(decisions):
            row = Row("decisions", index, len(decisions))
            if seat not in records:
                raise RuleError(
                    f"seat {seat} is not in this hand", rule=Rule.DECISIONS, field="seat"
                ).at_row(row)
            hand, record = records[seat]
            try:
                decision = Decision(street, Action(action), multiple)
            except ValueError:
                raise RuleError(
                    f"{action!r} is not a decision (check, play or fold)",
                    rule=Rule.DECISIONS,
                    field="action",
                ).at_row(row) from None
            try:
                records[seat] = (hand, record.then(decision, round_.options["preflop_multiples"]))
            except RuleError as error:
                raise error.at_row(row) from None
            created.append(
                HandDecision(
                    hand=hand,
                    street=street.value,
                    action=decision.action.value,
                    multiple=multiple,
                    at=moment,
                    by=by,
                )
            )
            if decision.action is Action.PLAY:
                plays.append((hand, multiple))
                play_rows[hand.pk] = row
        if plays:
            place_plays(state, plays, by=by, rows=play_rows)
        return HandDecision.objects.bulk_create(created)


def _require_decided(
    round_: Round, street: Street, records: Sequence[tuple[Hand, DecisionRecord]]
) -> None:
    waiting = [hand.seat for hand, record in records if record.next_street is street]
    if waiting:
        seats = ", ".join(str(seat) for seat in waiting)
        raise StateError(
            f"seat(s) {seats} have not made their {street.value} decision",
            state=State(round_.state),
            rule=Rule.ROUND_SEQUENCE,
        )


def _reveal(
    round_: Round, entry: Sequence[str] | None, count: int, hands: Sequence[Hand]
) -> list[str]:
    """The next ``count`` community cards: from the stored deal, or keyed and validated
    (``hands``: the round's, by seat). A refusal of keyed cards names a card only if it is
    already on the board: a card typed may be a hole card still face down (§2.6)."""
    shown = list(round_.board)
    if round_.deal_mode == DealMode.RNG:
        _refuse_cards_at_an_rng_table(entry)
        seats = [hand.seat for hand in hands]
        deck = [parse_card(c) for c in round_.shuffled_deck]
        board = format_cards(deal_cards(deck, round_.player_dealer_seat, seats).board)
        return shown + board[len(shown) : len(shown) + count]
    owner = "the flop" if not shown else "the turn and river"
    try:
        cards = format_cards(parse_keyed_cards(entry, count=count, owner=owner))
    except RuleError as error:
        raise error.with_field("cards") from None
    for card in cards:
        if card in shown:
            raise RuleError(
                f"card {card} is already on the board", rule=Rule.CARD_ONCE, field="cards"
            )
    return shown + cards


def reveal_flop(*, round_id: int, by, cards: Sequence[str] | None = None) -> Round:
    with transaction.atomic():
        state = lock_round_state(round_id, decisions=True)
        round_ = state.round
        _require_steps(round_, "show the flop")
        require_state(round_, State.PREFLOP, action="show the flop")
        records = _records(state)
        _require_decided(round_, Street.PREFLOP, records)
        round_.board = _reveal(round_, cards, 3, [hand for hand, _ in records])
        return _move(round_, State.FLOP, by, fields=["board"])


def reveal_turn_and_river(*, round_id: int, by, cards: Sequence[str] | None = None) -> Round:
    with transaction.atomic():
        state = lock_round_state(round_id, decisions=True)
        round_ = state.round
        _require_steps(round_, "show the turn and river")
        require_state(round_, State.FLOP, action="show the turn and river")
        records = _records(state)
        _require_decided(round_, Street.FLOP, records)
        round_.board = _reveal(round_, cards, 2, [hand for hand, _ in records])
        return _move(round_, State.RIVER, by, fields=["board"])


def _turned_face_up(state: RoundState, records: Sequence[tuple[Hand, DecisionRecord]]) -> list[int]:
    """The seats whose hands are turned face up at the showdown (docs/rules.md §2.3): every
    hand still in, and a folded one with a Trips wager on it (the seat's or behind it)."""
    trips: dict[int, list[int]] = {}
    for bet in state.bets:
        trips.setdefault(bet.hand.seat, []).append(bet.trips_cents)
    return [
        hand.seat
        for hand, record in records
        if turned_face_up(record.folded, trips.get(hand.seat, ()))
    ]


def _keyed_at_showdown(
    entry: object, board: Sequence[str], seats: Sequence[int]
) -> tuple[list[str], dict[int, list[str]]]:
    """The cards turned face up, keyed by the house dealer: the player-dealer's two and two
    for each of ``seats``, each a real card, none twice nor on the board. A refusal names
    the field and where a card is twice, never a card (§2.6)."""
    if not isinstance(entry, Mapping):
        raise RuleError(
            f"key the cards turned face up: {turned_up_words(seats)}",
            rule=Rule.CARD_ENTRY,
            field="cards",
        )
    hands = entry.get("hands", {})
    if not isinstance(hands, Mapping):
        raise RuleError(
            "the hands' cards are keyed by seat number", rule=Rule.CARD_ENTRY, field="hands"
        )
    try:
        given = {int(seat): cards for seat, cards in hands.items()}
    except (TypeError, ValueError):
        raise RuleError(
            "the hands' cards are keyed by seat number", rule=Rule.CARD_ENTRY, field="hands"
        ) from None
    if sorted(given) != sorted(seats):
        raise RuleError(
            f"key the cards of exactly the hands turned face up: {turned_up_words(seats)}; "
            "a folded hand with no Trips wager is mucked, not keyed",
            rule=Rule.CARD_ENTRY,
            field="hands",
        )
    try:
        dealer = parse_keyed_cards(entry.get("player_dealer"), count=2, owner="the player-dealer")
    except RuleError as error:
        raise error.with_field("player_dealer") from None
    holes = {}
    for seat in sorted(given):
        try:
            holes[seat] = parse_keyed_cards(given[seat], count=2, owner=f"seat {seat}")
        except RuleError as error:
            raise error.with_field(f"hands.{seat}") from None
    ensure_keyed_once(
        [
            ("on the board", "cards", [parse_card(c) for c in board]),
            ("keyed for the player-dealer", "player_dealer", dealer),
            *((f"keyed for seat {seat}", f"hands.{seat}", cards) for seat, cards in holes.items()),
        ]
    )
    return format_cards(dealer), {seat: format_cards(cards) for seat, cards in holes.items()}


def showdown(*, round_id: int, by, entry: object = None, rng: random.Random | None = None) -> Round:
    """The showdown of the round's game (``games.interface.Game.cards``): a hand dealt from
    a fresh deck (Ultimate Texas Hold'em) turns its hands face up and resolves them
    (``_showdown_of_a_deal``); a coup dealt from the table's shoe (EZ Baccarat) is dealt now
    (``_showdown_of_a_coup``). A refused entry records nothing."""
    with transaction.atomic():
        state = lock_round_state(round_id, decisions=True, bets=True)
        game = game_of(state.round)
        after = State(game.steps[-1]) if game.steps else State.NO_MORE_BETS
        require_state(state.round, after, action="go to the showdown")
        return _SHOWDOWNS[game.cards](state, by=by, entry=entry, rng=rng)


COUP_ENTRY = (
    'key the coup as its cards are turned face up, in dealing order: {"cards": [Player, '
    "Banker, Player, Banker, then the third cards as drawn]}, and say whether the cut card "
    'came out ("cut_card_out": true)'
)


def _showdown_of_a_coup(state: RoundState, *, by, entry: object, rng) -> Round:
    """The coup (docs/rules.md §14.2-§14.3): at an RNG table dealt from the top of the
    table's shoe by the drawing rules (the hand that brings out the cut card finishes the
    shoe); at a card-entry table keyed by the house dealer as the cards are turned face up,
    in dealing order (``entry``: ``{"cards": [...], "cut_card_out": false}``), checked
    against the drawing rules and what the shoe can hold; the house dealer says when the cut
    card came out, which finishes the shoe. The Player and Banker hands are recorded on the
    round, and the round moves to the showdown; nothing is decided."""
    round_ = state.round
    moment = now()
    if round_.deal_mode == DealMode.RNG:
        _refuse_cards_at_an_rng_table(entry)
        shoe, dealt = shoes.deal_hand(round_, moment=moment, rng=rng)
    else:
        if not isinstance(entry, Mapping) or "cards" not in entry:
            raise RuleError(COUP_ENTRY, rule=Rule.CARD_ENTRY, field="cards")
        unknown = sorted(set(entry) - {"cards", "cut_card_out"})
        if unknown:
            raise RuleError(COUP_ENTRY, rule=Rule.CARD_ENTRY, field=str(unknown[0]))
        cut_card_out = entry.get("cut_card_out", False)
        if not isinstance(cut_card_out, bool):
            raise RuleError(
                "the cut card came out or not (true or false)",
                rule=Rule.CARD_ENTRY,
                field="cut_card_out",
            )
        cards = entry["cards"]
        if not isinstance(cards, list | tuple):
            raise RuleError(COUP_ENTRY, rule=Rule.CARD_ENTRY, field="cards")
        shoe, dealt = shoes.deal_hand(
            round_, moment=moment, cards=list(cards), cut_card_out=cut_card_out
        )
    round_.shoe = shoe
    round_.player_cards = list(dealt.hands["player"])
    round_.banker_cards = list(dealt.hands["banker"])
    return _move(
        round_, State.SHOWDOWN, by, moment, fields=["shoe", "player_cards", "banker_cards"]
    )


def _showdown_of_a_deal(state: RoundState, *, by, entry: object, rng) -> Round:
    """Turn the hands face up and resolve every hand with the rules core: at an RNG table
    the cards are the stored deal's; at a card-entry table the house dealer keys them now
    (``entry``: ``{"player_dealer": [2 cards], "hands": {seat: [2 cards]}}``), the
    player-dealer's and every hand turned face up, and a folded hand with no Trips wager is
    mucked: never keyed, resolved as a fold (docs/rules.md §2.3, §5.3)."""
    round_ = state.round
    records = _records(state)
    _require_decided(round_, Street.RIVER, records)
    fields, hand_fields = ["dealer_category", "dealer_qualifies"], ["category", "result"]
    if round_.deal_mode == DealMode.RNG:
        _refuse_cards_at_an_rng_table(entry)
    else:
        seats = _turned_face_up(state, records)
        round_.dealer_hole, holes = _keyed_at_showdown(entry, round_.board, seats)
        for hand, _ in records:
            if hand.seat in holes:
                hand.hole = holes[hand.seat]
        fields.append("dealer_hole")
        hand_fields.append("hole")
    board = [parse_card(c) for c in round_.board]
    dealer = evaluate([*(parse_card(c) for c in round_.dealer_hole), *board])
    hands = []
    for hand, record in records:
        if hand.hole is None:  # mucked (card entry): never turned face up, never valued
            hand.category, hand.result = "", HandResult.FOLD.value
        else:
            value = evaluate([*(parse_card(c) for c in hand.hole), *board])
            hand.category = value.category.label
            hand.result = hand_result(value, dealer, record.folded).value
        hands.append(hand)
    Hand.objects.bulk_update(hands, hand_fields)
    round_.dealer_category = dealer.category.label
    round_.dealer_qualifies = dealer_qualifies(dealer)
    return _move(round_, State.SHOWDOWN, by, fields=fields)


# The showdown of each kind of game, by ``games.interface.Game.cards``.
_SHOWDOWNS = {"deck": _showdown_of_a_deal, "shoe": _showdown_of_a_coup}


def settle(*, round_id: int, by) -> Round:
    with transaction.atomic():
        state = lock_round_state(round_id, decisions=True, bets=True, bank=True, accounts=True)
        round_ = state.round
        require_state(round_, State.SHOWDOWN, action="settle")
        folded = {hand.seat for hand, record in _records(state) if record.folded}
        settle_round_money(state, folded, by=by)
        return _move(round_, State.SETTLED, by)


def void_round(*, round_id: int, by, reason: str) -> Round:
    """A misdeal: the round ends with nothing resolved and every wager returned."""
    if not reason or not reason.strip():
        raise RuleError("say why the round is void", rule=Rule.VOID_REASON, field="reason")
    with transaction.atomic():
        state = lock_round_state(
            round_id, bets=True, bank=True, accounts=True, also=fee_assessment.AT_VOID
        )
        round_ = state.round
        require_state(
            round_,
            State.WAGERING,
            State.NO_MORE_BETS,
            State.PREFLOP,
            State.FLOP,
            State.RIVER,
            State.SHOWDOWN,
            action="void the round",
        )
        round_.void_reason = reason.strip()
        return_round_money(state, by=by)
        fee_assessment.return_fees(state, by=by)  # a misdeal's fees go back to the payers
        return _move(round_, State.VOIDED, by, fields=["void_reason"])
