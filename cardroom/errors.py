"""Typed refusals: every rule the system enforces, every state that can forbid an action.

Plain Python (no Django): the rules packages raise these, and one translator each turns
them into an API answer (``cardroom.api``), a console message and a command-line error
(``describe``).

- ``Rule``: each rule by a stable identifier and the section of ``docs/rules.md`` that
  states it. A refusal names its rule, so staff and a regulator can look it up.
- ``State``: every state an action can be refused in (a round's state, the game's, the
  button's, a fee's, a report's), one enum.
- ``RuleError`` (400): a broken rule, naming the rule and the input (``field``) that broke it.
- ``StateError`` (409): an action not allowed in the current state, naming the state.
- ``Refused``: a refusal a service has already recorded (an exhausted offer round, an
  ended game) and returns instead of raising, so the record commits with the caller's
  transaction; the caller answers it.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

RULES_DOCUMENT = "docs/rules.md"


class Rule(StrEnum):
    """A rule of ``docs/rules.md``: its identifier (the value) and its section."""

    section: str

    def __new__(cls, value: str, section: str) -> Rule:
        member = str.__new__(cls, value)
        member._value_ = value
        member.section = section
        return member

    @property
    def anchor(self) -> str:
        """The stable anchor of the rule's section in ``docs/rules.md``."""
        return "s" + self.section.replace(".", "-")

    @property
    def title(self) -> str:
        """The rule in the floor's words: ``one seat per player``."""
        return RULE_TITLES[self]

    @property
    def citation(self) -> str:
        """How a message names the rule, in the floor's words, and where it is written:
        ``rule: one seat per player, docs/rules.md §3.1``. (The API names it by its
        identifier too, in the ``rule`` field of a refusal.)"""
        return f"rule: {self.title}, {RULES_DOCUMENT} §{self.section}"

    # 1. Cards and hands
    CARD = "cards.card", "1.1"
    CARD_ONCE = "cards.once", "1.2"
    HAND_EVALUATION = "hands.evaluation", "1.3"
    # 2. Decks, dealing and the order of a hand
    DECKS = "deal.decks", "2.1"
    DEAL_MODE = "deal.mode", "2.2"
    CARD_ENTRY = "deal.card_entry", "2.3"
    ROUND_SEQUENCE = "round.sequence", "2.4"
    VOID_REASON = "round.void_reason", "2.5"
    SECRET_CARDS = "cards.secret", "2.6"
    # 3. The floor: seats, players, tables, games
    SEATS = "seats.numbered", "3.1"
    ONE_SEAT_PER_PLAYER = "seats.one_per_player", "3.1"
    FIVE_PLAYERS = "seats.five_players", "3.2"
    PLAYER_DEALER_SEAT = "seats.player_dealer", "3.2"
    PLAYER_NUMBER = "floor.player_number", "3.3"
    KNOWN_PLAYER = "floor.known_player", "3.3"
    TABLE_NAME = "floor.table_name", "3.3"
    IDENTIFICATION = "floor.identification", "3.3"
    OPTIONS = "options.sheet", "3.4"
    GAME = "floor.game", "3.5"
    WAITLIST_ONCE = "waitlist.once", "3.6"
    WAITLIST_ORDER = "waitlist.order", "3.6"
    WAITLIST_CALL = "waitlist.call", "3.6"
    WAITLIST_CALL_IN = "waitlist.call_in", "3.6"
    WAITLIST_POLICY = "waitlist.policy", "3.6"
    WAITLIST_STAKES = "waitlist.stakes", "3.6"
    SEAT_HOLD = "seats.hold", "3.6"
    MUST_MOVE = "waitlist.must_move", "3.6"
    TABLE_CHANGE = "waitlist.table_change", "3.6"
    CLOSED_TABLE = "floor.closed_table", "3.7"
    PATRON_SIGN_IN = "floor.patron_sign_in", "3.8"
    EXCLUDED = "floor.excluded", "3.9"
    # 4. Wagers
    ANTE_BLIND = "wagers.ante_blind", "4.1"
    BAD_BEAT = "wagers.bad_beat", "4.2"
    LIMITS = "wagers.limits", "4.3"
    CHIP_UNIT = "wagers.chips", "4.4"
    NO_MORE_BETS = "wagers.no_more_bets", "4.5"
    CHIPS_IN_FRONT = "chips.in_front", "4.6"
    BACKLINE = "wagers.backline", "4.7"
    WAGER_SQUARES = "wagers.squares", "4.8"
    # 5. Decisions
    DECISIONS = "decisions.each_once", "5.1"
    PREFLOP_MULTIPLES = "decisions.preflop_multiples", "5.2"
    # 6. Resolution and pay tables
    PAYTABLES = "paytables.table", "6.2"
    # 7. The player-dealer's bank and coverage
    BANK = "bank.amount", "7.1"
    # 8. Rotation of the player-dealer position
    ROTATION = "rotation.clockwise", "8.1"
    CONSECUTIVE_HANDS = "rotation.consecutive_hands", "8.2"
    OFFER_ROUND = "rotation.offer_round", "8.3"
    KEEP = "rotation.keep", "8.4"
    NO_PLAYER_DEALER = "rotation.no_player_dealer", "8.5"
    STAYS_SEATED = "rotation.stays_seated", "8.6"
    TPPP_REGISTERED = "tppp.registered", "8.7"
    TPPP_BANKROLL = "tppp.bankroll", "8.7"
    TPPP_BANKS_ONLY = "tppp.banks_only", "8.7"
    TPPP_CONTRACT = "tppp.contract", "8.7"
    OFFER_EVERY_HAND = "rotation.offer_every_hand", "8.9"
    TPPP_PER_TABLE = "rotation.tppp_per_table", "8.10"
    TPPP_TWICE = "rotation.tppp_twice", "8.11"
    WINDOW = "rotation.window", "8.12"
    # 9. Collection fees
    FEES_FLAT = "fees.flat", "9.1"
    FEE_RATES = "fees.rates", "9.2"
    FEE_RANGES = "fees.ranges", "9.3"
    FEE_COLLECTION = "fees.collection", "9.4"
    FEE_VERSIONS = "fees.versions", "9.5"
    FEE_SCHEDULE_LIMITS = "fees.schedule_limits", "9.5"
    FEE_WAIVER = "fees.waiver", "9.6"
    # 10. Records
    HISTORY = "records.history", "10.1"
    LEDGER = "ledger.balanced", "10.2"
    CHIP_AMOUNT = "chips.amount", "10.3"
    DROP_COUNT = "drop.count", "10.4"
    SHIFTS = "drop.shift", "10.4"
    REPORTS = "reports.request", "10.5"
    REPORT_INTEGRITY = "reports.integrity", "10.5"
    RETENTION = "reports.retention", "10.6"
    CTR_IDENTIFICATION = "title31.identification", "10.7"
    CTR_FILING = "title31.filing", "10.7"
    # 11. The settlement calculator
    CALCULATOR_FORMAT = "calculator.format", "11"
    # 14. EZ Baccarat
    BACCARAT_OPTIONS = "baccarat.options", "14.1"
    BACCARAT_SHOE = "baccarat.shoe", "14.2"
    BACCARAT_DRAWING = "baccarat.drawing", "14.3"
    BACCARAT_BASE_WAGER = "baccarat.base_wager", "14.4"
    BACCARAT_SIDE_WAGERS = "baccarat.side_wagers", "14.4"
    BACCARAT_SEATS = "baccarat.seats", "14.6"


RULE_TITLES: dict[Rule, str] = {
    Rule.CARD: "cards are named by rank and suit",
    Rule.CARD_ONCE: "each card is dealt once",
    Rule.HAND_EVALUATION: "how hands rank",
    Rule.DECKS: "two decks in turn",
    Rule.DEAL_MODE: "how the cards are dealt",
    Rule.CARD_ENTRY: "entering the dealt cards",
    Rule.ROUND_SEQUENCE: "the order of a hand",
    Rule.VOID_REASON: "a misdeal is voided with its reason",
    Rule.SECRET_CARDS: "hole cards stay secret until the showdown",
    Rule.SEATS: "the seats, numbered from 1",
    Rule.ONE_SEAT_PER_PLAYER: "one seat per player",
    Rule.FIVE_PLAYERS: "players and the player-dealer at a table",
    Rule.PLAYER_DEALER_SEAT: "the seat of the player-dealer",
    Rule.PLAYER_NUMBER: "each player has their own number",
    Rule.KNOWN_PLAYER: "a registered player",
    Rule.TABLE_NAME: "each table has its own name",
    Rule.IDENTIFICATION: "identifying a player",
    Rule.OPTIONS: "the options sheet of a table",
    Rule.GAME: "a game is opened before play",
    Rule.WAITLIST_ONCE: "once on each waitlist",
    Rule.WAITLIST_ORDER: "calls in waitlist order",
    Rule.WAITLIST_CALL: "answering a seat call",
    Rule.WAITLIST_CALL_IN: "call-ins check in",
    Rule.WAITLIST_POLICY: "the timers of a waitlist",
    Rule.WAITLIST_STAKES: "a waitlist for each stakes",
    Rule.SEAT_HOLD: "holding a seat",
    Rule.MUST_MOVE: "a must-move table feeds its main game",
    Rule.TABLE_CHANGE: "a table change before the list",
    Rule.CLOSED_TABLE: "a closed table",
    Rule.PATRON_SIGN_IN: "a patron's own sign-in",
    Rule.EXCLUDED: "barred and self-restricted patrons stay off the tables",
    Rule.ANTE_BLIND: "Ante and Blind",
    Rule.BAD_BEAT: "the Bad Beat wager",
    Rule.LIMITS: "the table limits",
    Rule.CHIP_UNIT: "wagers in whole chips",
    Rule.NO_MORE_BETS: "no more bets",
    Rule.CHIPS_IN_FRONT: "only the chips in front of the player play",
    Rule.BACKLINE: "betting behind a seat",
    Rule.WAGER_SQUARES: "the betting squares of the table's game",
    Rule.DECISIONS: "one decision on each street",
    Rule.PREFLOP_MULTIPLES: "the pre-flop Play sizes",
    Rule.PAYTABLES: "the pay tables",
    Rule.BANK: "the bank of the player-dealer",
    Rule.ROTATION: "the button goes clockwise",
    Rule.CONSECUTIVE_HANDS: "at most two hands in a row",
    Rule.OFFER_ROUND: "the button offered round the table",
    Rule.KEEP: "keeping the button",
    Rule.NO_PLAYER_DEALER: "no hand without a player-dealer",
    Rule.STAYS_SEATED: "the player-dealer stays for the hand",
    Rule.TPPP_REGISTERED: "a registered TPPP",
    Rule.TPPP_BANKROLL: "the bankroll of a TPPP",
    Rule.TPPP_BANKS_ONLY: "a TPPP only banks",
    Rule.TPPP_CONTRACT: "a TPPP plays within its contract",
    Rule.OFFER_EVERY_HAND: "the button offered before every hand",
    Rule.TPPP_PER_TABLE: "TPPPs at a table",
    Rule.TPPP_TWICE: "no TPPP twice in a row",
    Rule.WINDOW: "the 40-minute rule",
    Rule.FEES_FLAT: "flat collection fees",
    Rule.FEE_RATES: "the collection rates",
    Rule.FEE_RANGES: "the fee ranges",
    Rule.FEE_COLLECTION: "fees collected before the deal",
    Rule.FEE_VERSIONS: "fee schedule versions",
    Rule.FEE_SCHEDULE_LIMITS: "a schedule filed for the table limits",
    Rule.FEE_WAIVER: "waiving a fee",
    Rule.HISTORY: "history is never edited",
    Rule.LEDGER: "every chip movement balances",
    Rule.CHIP_AMOUNT: "chip amounts",
    Rule.DROP_COUNT: "counting the drop",
    Rule.SHIFTS: "the shifts of the drop",
    Rule.REPORTS: "requesting a report",
    Rule.REPORT_INTEGRITY: "the checksum of a report",
    Rule.RETENTION: "how long reports are kept",
    Rule.CTR_IDENTIFICATION: "identification before a reportable cash transaction",
    Rule.CTR_FILING: "filing a Currency Transaction Report",
    Rule.CALCULATOR_FORMAT: "the format of the calculator",
    Rule.BACCARAT_OPTIONS: "the options sheet of an EZ Baccarat table",
    Rule.BACCARAT_SHOE: "the cards a shoe holds",
    Rule.BACCARAT_DRAWING: "the drawing rules of baccarat",
    Rule.BACCARAT_BASE_WAGER: "one base wager, on Player or on Banker",
    Rule.BACCARAT_SIDE_WAGERS: "the side wagers' maximum",
    Rule.BACCARAT_SEATS: "the seats of an EZ Baccarat table",
}


class State(StrEnum):
    """Every state an action can be refused in; the value is the API's ``code`` (409)."""

    label: str

    def __new__(cls, value: str, label: str) -> State:
        member = str.__new__(cls, value)
        member._value_ = value
        member.label = label
        return member

    # A round (a hand at a table), in the order it moves
    WAGERING = "wagering", "Wagering open"
    NO_MORE_BETS = "no_more_bets", "No more bets"
    PREFLOP = "preflop", "Hole cards dealt: pre-flop decisions"
    FLOP = "flop", "Flop: flop decisions"
    RIVER = "river", "Turn and river: river decisions"
    SHOWDOWN = "showdown", "Showdown"
    SETTLED = "settled", "Settled"
    VOIDED = "voided", "Voided (misdeal)"
    # The game at a table
    NO_GAME = "no_game", "No game is open"
    GAME_OPEN = "game_open", "A game is open"
    GAME_ENDED = "game_ended", "The game has ended"
    # A player on a waitlist
    WAITING = "waiting", "On the list, waiting"
    CALLED = "called", "Called for a seat"
    NOT_LISTED = "not_listed", "Not on this list"
    NOBODY_TO_CALL = "nobody_to_call", "Nobody on the list can be called"
    # A seat
    SEAT_TAKEN = "seat_taken", "The seat is taken"
    SEAT_HELD = "seat_held", "The seat is held for a player who stepped away"
    SEAT_OFFERED = "seat_offered", "The seat is offered first to a must-move or table change"
    # A table
    TABLE_CLOSED = "table_closed", "The table is closed"
    TABLE_OPEN = "table_open", "The table is open"
    # The player-dealer button between hands
    ROUND_IN_PLAY = "round_in_play", "A round is in play"
    NO_PLAYERS = "no_players", "No player is seated"
    OFFER_NEEDED = "offer_needed", "The button must be offered"
    OFFERING = "offering", "Offers going round"
    OFFER_PENDING = "offer_pending", "An offer awaits its answer"
    ACCEPTED = "accepted", "A player accepted the position"
    NO_PLAYER_DEALER = "no_player_dealer", "No eligible player accepted"
    OFFERS_REQUIRED = "offers_required", "The position must be offered"
    OFFER_EVERY_HAND = "offer_every_hand", "Offered before every hand"
    OFFER_ROUND_CLOSED = "offer_round_closed", "The offer round is over"
    OFFER_ANSWERED = "offer_answered", "The offer was answered"
    # Collection fees and the drop
    FEE_SCHEDULE_MISMATCH = "fee_schedule_mismatch", "The schedule in force has other limits"
    FEE_VERSION_IN_FORCE = "in_force", "The version is in force"
    FEE_VERSION_SCHEDULED = "scheduled", "The version is scheduled"
    FEE_WAIVED = "waived", "The fee is waived"
    ALREADY_RECORDED = "exists", "Already recorded"
    # Compliance reports
    REPORT_QUEUED = "queued", "Queued"
    REPORT_RUNNING = "running", "Running"
    REPORT_DONE = "done", "Done"
    REPORT_FAILED = "failed", "Failed"
    REPORT_PURGED = "purged", "Kept past its retention period: its file was deleted"
    FILE_MISSING = "file_missing", "The stored file is missing"
    CHECKSUM_MISMATCH = "checksum_mismatch", "The stored file does not match its checksum"
    # An EZ Baccarat shoe
    SHOE_FINISHED = "shoe_finished", "The cut card is out: the next hand needs a new shoe"
    # API requests
    KEY_REUSED = "key_reused", "The Idempotency-Key was used for another request"


ROUND_STATES = (
    State.WAGERING,
    State.NO_MORE_BETS,
    State.PREFLOP,
    State.FLOP,
    State.RIVER,
    State.SHOWDOWN,
    State.SETTLED,
    State.VOIDED,
)
ACTIVE_ROUND_STATES = ROUND_STATES[:6]
FINISHED_ROUND_STATES = ROUND_STATES[6:]


@dataclass(frozen=True)
class Row:
    """Where an input is in a list of rows a service was given: row ``index`` of the list
    ``name`` (``bets``, ``decisions``) of ``rows`` rows. The one home of a row's field path,
    in the services' words and in the API's."""

    name: str
    index: int
    rows: int

    def field(self, inner: str = "") -> str:
        """The services' words (commands, the console): ``bets[2].ante``; one row alone is
        named by its field only (``ante``)."""
        if self.rows == 1:
            return inner
        where = f"{self.name}[{self.index}]"
        return f"{where}.{inner}" if inner else where

    def path(self, inner: str = "") -> str:
        """The API's, as the input's own errors name a row: ``bets.2.ante`` (one row alone
        is row 0: ``bets.0.ante``)."""
        return f"{self.name}.{self.index}" + (f".{inner}" if inner else "")


class RuleError(ValueError):
    """A rule was broken (400): the message, the ``Rule``, and the input that broke it.

    ``field`` names the input (a form field, a JSON path such as ``seats[0].hole``) so the
    API answers with the field and the calculator points at the offending value. A refusal
    of one row of a list also knows the row (``row``) and its field within the row
    (``inner``): ``at_row``.
    """

    def __init__(self, message: str, *, rule: Rule, field: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.rule = Rule(rule)
        self.field = field
        self.row: Row | None = None
        self.inner = field

    def at_row(self, row: Row) -> RuleError:
        """The same error, attributed to ``row`` (its field, if any, within the row)."""
        inner = self.field or ""
        error = RuleError(self.message, rule=self.rule, field=row.field(inner) or None)
        error.row, error.inner = row, inner
        return error

    def with_field(self, field: str) -> RuleError:
        """The same error, attributed to ``field`` (prefixing any inner field)."""
        inner = self.field
        if not inner:
            joined = field
        elif inner.startswith("["):
            joined = field + inner
        else:
            joined = f"{field}.{inner}"
        return RuleError(self.message, rule=self.rule, field=joined)

    def __str__(self) -> str:
        where = f"{self.field}: " if self.field else ""
        return f"{where}{self.message} [{self.rule.citation}]"


class StateError(Exception):
    """An action not allowed in the current state (409), naming the state and the rule."""

    def __init__(self, message: str, *, state: State, rule: Rule | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.state = State(state)
        self.rule = None if rule is None else Rule(rule)

    def __str__(self) -> str:
        return describe(self)


def describe(error: RuleError | StateError) -> str:
    """A refusal as staff read it: the message, then the rule it names (console, CLI)."""
    if error.rule is None:
        return error.message
    return f"{error.message} ({error.rule.citation})"


@dataclass(frozen=True)
class Refused:
    """A refusal a service recorded and committed (e.g. an exhausted offer round), returned
    instead of raised so the record survives; the caller answers it (API: 409)."""

    error: StateError
