"""The floor's words (docs/console.md): every console page, as each role sees it in every
state of a hand, and every API refusal speak as the floor does. No count of cents, no
``snake_case`` identifier, no ISO duration, no words run together from an internal name.

The visible text of each page is scanned (not its attributes, scripts or styles); the API's
refusals are scanned in their ``message``.
"""

from __future__ import annotations

import re
from html.parser import HTMLParser

import pytest
from django.urls import reverse

from fees.models import FeeLine, FeeSchedule
from rounds import services as rounds
from tables.models import ButtonOffer, OfferAnswer, Seating, Waitlist
from tables.services import waitlists
from tests.builders.fees import table_schedule
from tests.builders.floor import make_player
from tests.builders.rules import APPENDIX_REQUEST, STANDARD
from tests.console.test_forms import act, wagering

pytestmark = pytest.mark.django_db

# A wager or an amount named with a bare number beside it is a count of cents that missed
# the dollars formatter (cardroom/money.py): "Ante (1000)", "the Ante of 1000". Seats, hands,
# rounds, years and times are not amounts, and "Play 4x", "a Play of 4 times the Ante" or
# "(3 of 4 wagers)" are not bare numbers.
_AMOUNT_WORDS = (
    r"ante|blind|play|trips|bad beat|bank|wager|bet|stake|amount|payout|fee|balance|bankroll"
    r"|buy-in|cash-out|fill|credit|drop|minimum|maximum"
)
_WAGERS = r"ante|blind|play|trips|bad beat|bank"

INTERNAL = [
    (re.compile(r"\b\d[\d,]*\s*cents\b"), "a count of cents"),
    (
        re.compile(rf"\b(?:{_AMOUNT_WORDS})\s*\(\s*[+-]?\d[\d,]*(?:\.\d+)?\s*\)", re.I),
        "a count of cents in parentheses",
    ),
    (
        re.compile(rf"\b(?:{_WAGERS})\s+of\s+[+-]?\d[\d,]*\b(?!\s*(?:times\b|%|to 1\b))", re.I),
        "a count of cents",
    ),
    (re.compile(r"\b[a-z][a-z0-9]*(?:_[a-z0-9]+)+\b"), "a snake_case identifier"),
    (re.compile(r"\bP(?:\d+[YMWD])*T\d+(?:\.\d+)?[HMS]\b"), "an ISO duration"),
    (
        re.compile(r"\b(?:startround|turnriver|perbettingsquare|notconfigured)\b"),
        "words run together",
    ),
]


class _Text(HTMLParser):
    """The text a person reads: outside <script>, <style>, <template> and <textarea> (the
    settlement calculator's input is its JSON format, as the API's)."""

    HIDDEN = {"script", "style", "template", "textarea"}

    def __init__(self) -> None:
        super().__init__()
        self.parts: list[str] = []
        self.hidden = 0

    def handle_starttag(self, tag, attrs):
        if tag in self.HIDDEN:
            self.hidden += 1

    def handle_endtag(self, tag):
        if tag in self.HIDDEN and self.hidden:
            self.hidden -= 1

    def handle_data(self, data):
        if not self.hidden:
            self.parts.append(data)


def visible_text(html: str) -> str:
    parser = _Text()
    parser.feed(html)
    return " ".join(" ".join(parser.parts).split())


def internal_names(text: str) -> list[str]:
    found = []
    for pattern, what in INTERNAL:
        for match in pattern.finditer(text):
            start = max(match.start() - 40, 0)
            found.append(f"{what}: {match.group(0)!r} in …{text[start : match.end() + 40]}…")
    return found


@pytest.mark.parametrize(
    ("text", "found"),
    [
        ("Ante $10.00 · Blind $10.00", False),
        ("Ante (1000)", True),
        ("Ante (1000) and Blind (500) must be equal", True),
        ("Ante ($10.00) and Blind ($5.00) must be equal", False),
        ("the bank (10,000) is posted", True),
        ("Play of 4000 is not 4x the Ante of 1000", True),
        ("Play of $40.00 is not 4x the Ante of $10.00", False),
        ("a Play of 4 times the Ante · Play 4x · Play (4x the Ante)", False),
        ("seat 3 (2 hands) · round 12 (3 of 4 wagers) · Hands (12) · 2026 (year) · 14:05", False),
        ("Trips pays 50 to 1 · Bad Beat (10,000 to 1)", False),
        ("500000 cents", True),
        ("(rate1_wager_from_cents)", True),
        ("gaming_day", True),
        ("Wait PT15M", True),
        ("startround", True),
        ("two_pair fold", True),
        ("turn and river · per betting square · two pair", False),
    ],
)
def test_the_scan_finds_internal_names(text, found):
    assert bool(internal_names(text)) is found


@pytest.fixture
def busy_floor(on_floor, staff, clock):
    """A card-entry table with a settled hand and a hand at the flop, a fee schedule, a
    waitlist with a call, a player with identification, and a refused action on the trail."""
    table = on_floor.ready_table()
    table_schedule(table, by=staff.supervisor)
    settled = on_floor.round_in("settled", table)
    in_play = on_floor.round_in("flop", table)
    row = waitlists.open_waitlist(
        minimum_cents=table.minimum_cents, maximum_cents=table.maximum_cents, by=staff.supervisor
    )
    waiting = make_player(name="Wanda Waits")
    waitlists.join(waitlist_id=row.pk, player_id=waiting.pk, by=staff.supervisor)
    waitlists.call(waitlist_id=row.pk, table_id=table.pk, seat=6, by=staff.supervisor)
    return {"table": table, "settled": settled, "in_play": in_play, "player": waiting}


def _pages(floor_):
    table = floor_["table"]
    return [
        reverse("console:floor"),
        reverse("console:table", args=[table.pk]),
        reverse("console:table-options", args=[table.pk]),
        reverse("console:table-math", args=[table.pk]),
        reverse("console:players"),
        reverse("console:bankroll", args=[floor_["in_play"].player_dealer_id]),
        reverse("console:bankroll", args=[floor_["player"].pk]),
        reverse("console:audit"),
        reverse("console:fees"),
        reverse("console:reports"),
        reverse("console:calculator") + f"?round={floor_['settled'].pk}",
        reverse("console:waitlists"),
    ]


def test_the_table_board_speaks_the_floors_words(client, busy_floor, settings):
    settings.CARDROOM_BOARD_TOKEN = "words-board"
    problems = []
    for url in ("/board/words-board/", "/board/words-board/panel/"):
        response = client.get(url)
        assert response.status_code == 200, url
        problems += [f"{url}: {p}" for p in internal_names(visible_text(response.content.decode()))]
    assert problems == []
    assert "Wanda W." in client.get("/board/words-board/panel/").content.decode()


@pytest.mark.parametrize("role", ["supervisor", "dealer", "compliance"])
def test_every_page_speaks_the_floors_words(as_user, busy_floor, role):
    client = as_user(role)
    problems = []
    for url in _pages(busy_floor):
        response = client.get(url)
        if response.status_code == 403:
            continue
        assert response.status_code == 200, url
        problems += [f"{url}: {p}" for p in internal_names(visible_text(response.content.decode()))]
    assert problems == []


def test_every_state_of_a_hand_on_the_table_view(as_user, on_floor, clock):
    client = as_user("dealer")
    problems = []
    for state in ("wagering", "no_more_bets", "preflop", "flop", "river", "showdown", "settled"):
        round_ = on_floor.round_in(state, on_floor.ready_table())
        html = client.get(reverse("console:table", args=[round_.table_id])).content.decode()
        problems += [f"{state}: {p}" for p in internal_names(visible_text(html))]
    assert problems == []


@pytest.fixture
def refusal_floor(busy_floor, on_floor, compliance):
    """``busy_floor`` and a second table with a round in wagering: the ids an API refusal
    names in its path, and the bodies it is sent."""
    table = busy_floor["table"]
    in_play = busy_floor["in_play"]
    wagering_round = on_floor.round_in("wagering")
    unbanked_table = on_floor.ready_table()
    on_floor.bank(unbanked_table, 1)
    unbanked = rounds.start_round(table_id=unbanked_table.pk, by=on_floor.dealer)
    return {
        "table": table.pk,
        "round": in_play.pk,
        "settled": busy_floor["settled"].pk,
        "wagering": wagering_round.pk,
        "wagering_table": wagering_round.table_id,
        "unbanked": unbanked.pk,
        "player": busy_floor["player"].pk,
        "player_number": busy_floor["player"].player_number,
        "seated": in_play.player_dealer_id,
        "seat_4": Seating.objects.get(table=table, seat=4, left_at__isnull=True).player_id,
        "waitlist": Waitlist.objects.get().pk,
        "offer": ButtonOffer.objects.filter(offer_round__table=table)
        .exclude(answer=OfferAnswer.PENDING)
        .latest("pk")
        .pk,
        "fee_line": FeeLine.objects.filter(round=in_play).first().pk,
        "schedule": FeeSchedule.objects.get(table=table).pk,
    }


OVERLAPPING = [dict(STANDARD[0], wager_to_cents=3_000), *STANDARD[1:]]
UNEQUAL_HAND = {
    **APPENDIX_REQUEST,
    "seats": [{**APPENDIX_REQUEST["seats"][0], "blind": 2_000}],
}

# One refused request, at least, for every family of the API that refuses (docs/api.md):
# (role, method, path, body, the status it is refused with). The path's {names} are filled
# from ``refusal_floor``; "{round}" is a hand at the flop, "{wagering}" one taking wagers.
API_REFUSALS = {
    # Tables: the options sheet, a round in play, a table already open
    "table-create": (
        "supervisor", "post", "/api/tables/",
        {"name": "X", "minimum_cents": 700, "maximum_cents": 500}, 400,
    ),
    "table-options-mid-hand": (
        "supervisor", "patch", "/api/tables/{table}/", {"maximum_cents": 60_000}, 409,
    ),
    "table-options-by-a-dealer": (
        "dealer", "patch", "/api/tables/{table}/", {"maximum_cents": 60_000}, 403,
    ),
    "table-close-mid-hand": ("supervisor", "post", "/api/tables/{table}/close/", {}, 409),
    "table-reopen-open": ("supervisor", "post", "/api/tables/{table}/reopen/", {}, 409),
    "game-open-twice": (
        "supervisor", "post", "/api/tables/{table}/game/open/", {"first_offer_seat": 1}, 409,
    ),
    "game-close-mid-hand": ("supervisor", "post", "/api/tables/{table}/game/close/", {}, 409),
    # Seats
    "seat-no-such-seat": (
        "supervisor", "post", "/api/tables/{table}/seats/", {"seat": 9, "player": 1}, 400,
    ),
    "seat-unseat-empty": ("supervisor", "delete", "/api/tables/{table}/seats/6/", None, 400),
    "seat-leave-mid-hand": (
        "supervisor", "post", "/api/tables/{table}/seats/1/leave/", {"chips": "cash_out"}, 409,
    ),
    "seat-hold-empty": (
        "supervisor", "post", "/api/tables/{table}/seats/5/hold/", {"minutes": 15}, 400,
    ),
    # The button: offers, answers, keeping it
    "button-offer-mid-hand": ("dealer", "post", "/api/tables/{table}/button/offer/", {}, 409),
    "button-answer-answered": (
        "dealer", "post", "/api/tables/{table}/button/offers/{offer}/answer/",
        {"accept": True}, 409,
    ),
    "button-keep-mid-hand": ("dealer", "post", "/api/tables/{table}/button/keep/", {}, 409),
    # Rounds and each of their actions
    "round-start-mid-hand": ("dealer", "post", "/api/tables/{table}/rounds/", {}, 409),
    "round-bank-in-part-chips": (
        "dealer", "post", "/api/rounds/{unbanked}/bank/", {"amount": 10_050}, 400,
    ),
    "round-bank-twice": ("dealer", "post", "/api/rounds/{wagering}/bank/", {"amount": 10_000}, 409),
    "round-bank-after-the-deal": (
        "dealer", "post", "/api/rounds/{round}/bank/", {"amount": 10_000}, 409,
    ),
    "round-wager-unequal": (
        "dealer", "post", "/api/rounds/{wagering}/wagers/",
        {"seat": 4, "ante": 1_000, "blind": 500}, 400,
    ),
    "round-wager-over-the-maximum": (
        "dealer", "post", "/api/rounds/{wagering}/wagers/",
        {"seat": 4, "ante": 60_000, "blind": 60_000}, 400,
    ),
    "round-wager-after-no-more-bets": (
        "dealer", "post", "/api/rounds/{round}/wagers/", {"seat": 4, "ante": 500, "blind": 500},
        409,
    ),
    "round-no-more-bets-twice": ("dealer", "post", "/api/rounds/{round}/no-more-bets/", {}, 409),
    "round-deal-twice": ("dealer", "post", "/api/rounds/{round}/deal/", {}, 409),
    "round-decision-multiple": (
        "dealer", "post", "/api/rounds/{round}/decisions/",
        {"seat": 3, "action": "play", "multiple": 9}, 400,
    ),
    "round-decision-before-the-deal": (
        "dealer", "post", "/api/rounds/{wagering}/decisions/",
        {"seat": 2, "action": "check"}, 409,
    ),
    "round-flop-twice": ("dealer", "post", "/api/rounds/{round}/flop/", {}, 409),
    "round-turn-river-undecided": ("dealer", "post", "/api/rounds/{round}/turn-river/", {}, 409),
    "round-showdown-early": ("dealer", "post", "/api/rounds/{round}/showdown/", {}, 409),
    "round-settle-early": ("dealer", "post", "/api/rounds/{round}/settle/", {}, 409),
    "round-void-without-a-reason": (
        "supervisor", "post", "/api/rounds/{round}/void/", {"reason": ""}, 400,
    ),
    "round-void-by-a-dealer": (
        "dealer", "post", "/api/rounds/{round}/void/", {"reason": "misdeal"}, 403,
    ),
    "round-void-settled": (
        "supervisor", "post", "/api/rounds/{settled}/void/", {"reason": "misdeal"}, 409,
    ),
    "round-settlement-in-play": ("dealer", "get", "/api/rounds/{round}/settlement/", None, 409),
    # Chips
    "chips-buy-in-part-chip": (
        "dealer", "post", "/api/tables/{table}/chips/buy-in/",
        {"player": "{player}", "amount": 1_050, "currency": True}, 400,
    ),
    "chips-cash-out-more-than-held": (
        "dealer", "post", "/api/tables/{table}/chips/cash-out/",
        {"player": "{seat_4}", "amount": 200_000, "currency": True}, 400,
    ),
    "chips-fill-a-patron": (
        "dealer", "post", "/api/tables/{table}/chips/fill/",
        {"player": "{player}", "amount": 10_000}, 400,
    ),
    "chips-by-compliance": (
        "compliance", "post", "/api/tables/{table}/chips/buy-in/",
        {"player": "{player}", "amount": 10_000, "currency": True}, 403,
    ),
    # Fees
    "fees-schedule-for-nothing": ("supervisor", "post", "/api/fees/schedules/", {"name": "X"}, 400),
    "fees-version-overlapping": (
        "supervisor", "post", "/api/fees/schedules/{schedule}/versions/",
        {"player_dealer_basis": "per_betting_square", "rates": OVERLAPPING}, 400,
    ),
    "fees-waiver-after-the-deal": (
        "supervisor", "post", "/api/fees/lines/{fee_line}/waiver/", {"reason": "comp"}, 409,
    ),
    "fees-drop-box-shift": (
        "supervisor", "post", "/api/fees/drop-boxes/",
        {"box_number": "B-1", "table": "{table}", "gaming_day": "2026-01-05", "shift": "brunch"},
        400,
    ),
    # Reports
    "reports-by-a-supervisor": (
        "supervisor", "post", "/api/reports/",
        {"report_type": "rotation", "parameters": {}}, 403,
    ),
    "reports-parameters": (
        "compliance", "post", "/api/reports/",
        {"report_type": "rotation", "parameters": {"gaming_day": "2099-01-01"}}, 400,
    ),
    # Waitlists
    "waitlist-stakes-of-no-table": (
        "supervisor", "post", "/api/waitlists/", {"minimum_cents": 123, "maximum_cents": 4567},
        400,
    ),
    "waitlist-policy": (
        "supervisor", "patch", "/api/waitlists/{waitlist}/", {"response_minutes": 0}, 400,
    ),
    "waitlist-join-twice": (
        "supervisor", "post", "/api/waitlists/{waitlist}/players/", {"player": "{player}"}, 400,
    ),
    "waitlist-call-taken-seat": (
        "supervisor", "post", "/api/waitlists/{waitlist}/calls/",
        {"table": "{table}", "seat": 2}, 409,
    ),
    "waitlist-check-in-not-a-call-in": (
        "supervisor", "post", "/api/waitlists/{waitlist}/players/{player}/check-in/", {}, 409,
    ),
    "waitlist-answer-not-listed": (
        "supervisor", "post", "/api/waitlists/{waitlist}/players/{seated}/answer/",
        {"take": True}, 409,
    ),
    "waitlist-pass-over-early": (
        "supervisor", "post", "/api/waitlists/{waitlist}/players/{player}/pass-over/", {}, 400,
    ),
    "waitlist-withdraw-not-listed": (
        "supervisor", "post", "/api/waitlists/{waitlist}/players/{seated}/withdraw/", {}, 409,
    ),
    "waitlist-remove-not-listed": (
        "supervisor", "delete", "/api/waitlists/{waitlist}/players/{seated}/", None, 409,
    ),
    # Players
    "player-number-taken": (
        "supervisor", "post", "/api/players/",
        {"player_number": "{player_number}", "name": "Twin"}, 400,
    ),
    "player-born-tomorrow": (
        "supervisor", "patch", "/api/players/{player}/",
        {"id_type": "passport", "id_number": "X1234567", "id_issued_by": "CA",
         "date_of_birth": "2099-01-01"}, 400,
    ),
    "player-not-a-tppp": (
        "supervisor", "patch", "/api/players/{player}/", {"tppp": {"badge_number": "B-1"}}, 400,
    ),
    "player-playing-book-window": (
        "supervisor", "get",
        "/api/players/{player}/playing-book.csv?since=2026-02-01&until=2026-01-01", None, 400,
    ),
    # The calculator and the game math
    "calculator-pay-table": (
        "supervisor", "post", "/api/calculator/",
        {**APPENDIX_REQUEST, "options": {"trips_paytable": "UTH-99"}}, 400,
    ),
    "calculator-unequal-blind": (
        "supervisor", "post", "/api/calculator/", UNEQUAL_HAND, 400,
    ),
    "game-math-multiples": (
        "supervisor", "post", "/api/game-math/", {"allowed_preflop_multiples": [2]}, 400,
    ),
}  # fmt: skip


def _filled(value, ids):
    """``value`` with every "{name}" of ``ids`` filled in (a whole "{name}" becomes the id)."""
    if isinstance(value, str):
        bare = value.strip("{}")
        if value == f"{{{bare}}}" and bare in ids:
            return ids[bare]
        return value.format(**ids)
    if isinstance(value, dict):
        return {key: _filled(item, ids) for key, item in value.items()}
    return value


@pytest.mark.parametrize("case", list(API_REFUSALS))
def test_api_refusals_speak_the_floors_words(api, users, refusal_floor, case):
    role, method, path, body, status = API_REFUSALS[case]
    client = api(users[role])
    url = _filled(path, refusal_floor)
    kwargs = {} if body is None else {"data": _filled(body, refusal_floor), "format": "json"}
    response = getattr(client, method)(url, **kwargs)
    answer = response.json()
    assert response.status_code == status, answer
    assert answer["message"], answer
    assert internal_names(answer["message"]) == [], answer


def test_api_refusals_name_amounts_in_dollars(api, users, refusal_floor):
    """The refusals that name an amount say it in dollars."""
    said = {}
    for case in ("round-wager-unequal", "round-bank-in-part-chips", "chips-buy-in-part-chip",
                 "chips-cash-out-more-than-held", "fees-version-overlapping",
                 "calculator-unequal-blind"):  # fmt: skip
        role, method, path, body, _ = API_REFUSALS[case]
        response = getattr(api(users[role]), method)(
            _filled(path, refusal_floor), _filled(body, refusal_floor), format="json"
        )
        said[case] = response.json()["message"]
    assert said["round-wager-unequal"] == "Ante ($10.00) and Blind ($5.00) must be equal"
    assert said["round-bank-in-part-chips"] == "a bank of $100.50 is not in whole chips of $1.00"
    assert said["chips-buy-in-part-chip"] == "the amount of $10.50 is not in whole chips of $1.00"
    assert re.fullmatch(
        r".+ has \$1,000\.00 in chips at .+, not \$2,000\.00", said["chips-cash-out-more-than-held"]
    )
    assert said["fees-version-overlapping"] == (
        "player wager ranges overlap: $5.00 - $30.00 and $25.01 - $100.00"
    )
    assert said["calculator-unequal-blind"] == "Ante ($25.00) and Blind ($20.00) must be equal"


@pytest.mark.parametrize(
    ("action", "data"),
    [
        ("bet", {"seat": 1, "ante": "10.50", "blind": "10.50"}),
        ("bet", {"seat": 1, "ante": "1", "blind": "1"}),
        ("bet", {"seat": 1, "ante": "10", "blind": "10", "bad_beat": "5000"}),
        ("bet", {"seat": 1, "ante": "9000", "blind": "9000"}),
        ("fill", {"seat": 9, "amount": "-3"}),
    ],
)
def test_refusals_on_the_table_view_speak_the_floors_words(as_user, card_table, action, data):
    round_ = wagering(card_table)
    response = act(as_user("dealer"), card_table.table, action, {"round_id": round_.pk, **data})
    assert response.status_code in (400, 409)
    assert internal_names(visible_text(response.content.decode())) == []


def test_refused_forms_elsewhere_speak_the_floors_words(as_user, busy_floor):
    client = as_user("supervisor")
    table = busy_floor["table"]
    posts = [
        (reverse("console:table-options", args=[table.pk]), {"chip_unit_cents": "3"}),
        (reverse("console:fees-create-version"), {"schedule": "1", "rate0_player_fee_cents": "x"}),
        (reverse("console:waitlists-open"), {"stakes": "1-2", "response_minutes": "-1"}),
        (reverse("console:tables-create"), {"name": "", "minimum_cents": "7"}),
        (reverse("console:players-create"), {"player_number": "", "name": ""}),
    ]
    problems = []
    for url, data in posts:
        response = client.post(url, data)
        assert response.status_code in (400, 409), (url, response.status_code)
        problems += [f"{url}: {p}" for p in internal_names(visible_text(response.content.decode()))]
    assert problems == []
