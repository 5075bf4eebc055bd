"""The dealer's table view shaped like the table: six seats, the one next action, in-place
(htmx) answers, decisions the chips do not cover shown disabled with the rule, and the action
on the layout against the bank before "no more bets" (docs/console.md)."""

from __future__ import annotations

import random
import re

import pytest
from django.urls import reverse

from cardroom.errors import State
from cardroom.money import dollars
from tables.models import DealMode
from tests.builders.money import Wager, money_table, play_round
from wagers.rules.layout import Bettor, exposure, play_shortfall

pytestmark = pytest.mark.django_db

HX = {"HTTP_HX_REQUEST": "true"}


def page_of(client, table, **headers):
    return client.get(reverse("console:table", args=[table.pk]), **headers)


def act(client, table, action, data=None, **headers):
    return client.post(
        reverse("console:table-action", args=[table.pk, action]), data or {}, **headers
    )


def test_six_seats_around_the_table_and_the_next_action_on_top(as_user, card_table):
    response = page_of(as_user("dealer"), card_table.table)
    assert response.status_code == 200
    body = response.content.decode()
    seats = re.findall(r'<div class="seat pos-(\d)[^"]*" data-seat="(\d)"', body)
    assert [int(s) for s, _ in seats] == [1, 2, 3, 4, 5, 6]
    assert body.count('class="seat pos-') == 6
    assert 'data-seat="5"' in body and "open</span>" in body  # seats 5 and 6 are free
    # The next action comes before the layout, and it is offering the button.
    assert body.index('id="next-action"') < body.index('id="seats"')
    assert 'data-next="offer"' in body
    assert "Offer the button" in body
    # Chips, buy-ins and leaving sit behind each seat's own panel.
    assert body.count("<summary>Chips and seat</summary>") == 4


def test_an_action_posted_by_htmx_answers_the_table_area_in_place(as_user, card_table):
    client = as_user("dealer")
    response = act(client, card_table.table, "offer", **HX)
    assert response.status_code == 200
    body = response.content.decode()
    assert body.lstrip().startswith('<div id="table-area"')
    assert "<html" not in body
    assert "the player-dealer position is offered to seat 1" in body  # the message, in place
    assert 'data-next="answer"' in body
    # Without htmx a form answers with the redirect it always had; a refusal, with the page.
    assert act(client, card_table.table, "offer").status_code == 409  # an offer awaits
    offer = card_table.table.offer_rounds.get().offers.get()
    response = act(client, card_table.table, "answer", {"offer_id": offer.pk, "answer": "accept"})
    assert response.status_code == 302
    assert response.url == reverse("console:table", args=[card_table.table.pk])


def test_a_refusal_posted_by_htmx_is_the_table_area_with_the_rule(as_user, card_table):
    round_ = play_round(card_table, pd_seat=2, bank=10_000, wagers=[], until=State.WAGERING)
    response = act(
        as_user("dealer"),
        card_table.table,
        "bet",
        {"round_id": round_.pk, "seat": 1, "ante": "10", "blind": "5"},
        **HX,
    )
    assert response.status_code == 400
    body = response.content.decode()
    assert "<html" not in body and 'id="refusal"' in body
    assert "(rule: Ante and Blind, docs/rules.md §4.1)" in body


def test_a_play_the_chips_do_not_cover_is_shown_disabled_with_the_rule(as_user, staff):
    # Seat 1 keeps $15 after its $10 Ante and Blind: Check only (Play 3x is $30).
    mt = money_table(staff, {1: 3_500, 2: 50_000, 3: 50_000}, deal_mode=DealMode.RNG)
    play_round(
        mt,
        pd_seat=2,
        bank=10_000,
        wagers=[Wager(1, 1_000), Wager(3, 1_000)],
        until=State.PREFLOP,
        rng=random.Random(4),
    )
    response = page_of(as_user("dealer"), mt.table)
    assert response.status_code == 200
    body = response.content.decode()
    assert 'data-next="decisions"' in body
    seat1 = body.split('data-seat="1"><strong class="who">')[1].split("</div>")[0]
    assert '<button type="submit">Check</button>' in seat1
    assert re.search(r"<button type=\"submit\" disabled title=\"[^\"]+\">Play 3x</button>", seat1)
    assert re.search(r"<button type=\"submit\" disabled title=\"[^\"]+\">Play 4x</button>", seat1)
    assert (
        "Play 3x: " + mt.seated[1].name + " has $15.00: a Play of $30.00 is more than that "
        "(rule: only the chips in front of the player play, docs/rules.md §4.6)"
    ) in seat1
    seat3 = body.split('data-seat="3"><strong class="who">')[1].split("</div>")[0]
    assert "disabled" not in seat3  # $480 covers any Play
    # The service refuses what the page shows disabled, naming the same rule.
    refused = act(
        as_user("dealer"),
        mt.table,
        "decide",
        {"round_id": mt.table.rounds.get().pk, "seat": 1, "action": "play", "multiple": 3},
    )
    assert refused.status_code == 400
    assert (
        "(rule: only the chips in front of the player play, docs/rules.md §4.6)"
        in refused.content.decode()
    )


def test_before_no_more_bets_the_action_against_the_bank_in_dollars(as_user, card_table):
    play_round(
        card_table,
        pd_seat=2,
        bank=1_000,
        wagers=[Wager(1, 1_000, trips=500, bad_beat=500), Wager(3, 500)],
        until=State.WAGERING,
    )
    response = page_of(as_user("dealer"), card_table.table)
    assert response.status_code == 200
    body = response.content.decode()
    assert 'data-next="wagers"' in body
    assert "Action against the bank of $10.00" in body
    # Likely: every hand wins with less than Three of a Kind, in settlement order from the
    # player-dealer's left: seat 3's $5 Ante and $20 Play (the $10 bank pays $5 and $5), then
    # seat 1's $10 and $40: $75 owed, $65 of it uncovered. The bank is short even here: red.
    assert re.search(r'id="exposure-likely-owed">\$75\.00<', body)
    assert re.search(r'id="exposure-likely-uncovered">\$65\.00 could go uncovered<', body)
    assert 'class="exposure likely" id="exposure" data-alarm="likely"' in body
    # Worst: every hand at its best (UTH-01 Trips, Bad Beat option 1, 4x Plays): seat 3 ($5 +
    # $20 + $2,500 on the Blind) = $2,525, then seat 1 ($10 + $40 + $5,000 + Trips $250 + Bad
    # Beat $50,000) = $55,300.
    assert re.search(r'id="exposure-most">\$57,825\.00<', body)
    assert re.search(r'id="exposure-paid">\$10\.00<', body)
    assert re.search(r'id="exposure-uncovered">\$57,815\.00 could go uncovered<', body)
    # Seat 3's Ante is paid, its Play in part; everything after goes unpaid.
    assert "(7 of 8 wagers, in settlement order)" in body


@pytest.mark.parametrize(
    ("bank", "alarm", "likely", "worst"),
    [
        (
            30_000,
            "worst",
            "$175.00</strong> owed to the winners, covered",
            "$17,375.00 could go uncovered",
        ),
        (10_000, "likely", "$75.00 could go uncovered", "$17,575.00 could go uncovered"),
        (
            2_000_000,
            "covered",
            "$175.00</strong> owed to the winners, covered",
            "$17,675.00</strong>",
        ),
    ],
)
def test_the_line_is_red_only_when_the_likely_case_is_short(
    as_user, staff, bank, alarm, likely, worst
):
    """The issue's layout: $10 and $25 Antes. Every hand winning owes $175; at worst $17,675.
    Red (likely) when the bank cannot pay the likely case, amber (worst) when only the worst
    case goes uncovered, green (covered) when even that is paid."""
    mt = money_table(staff, {1: 2_500_000, 2: 50_000, 3: 50_000}, deal_mode=DealMode.RNG)
    play_round(
        mt, pd_seat=1, bank=bank, wagers=[Wager(2, 1_000), Wager(3, 2_500)], until=State.WAGERING
    )
    body = page_of(as_user("dealer"), mt.table).content.decode()
    assert f'class="exposure {alarm}" id="exposure" data-alarm="{alarm}"' in body
    assert likely in body.split('id="exposure-likely"')[1].split("</p>")[0]
    assert worst in body.split('id="exposure-worst"')[1].split("</p>")[0]


def test_the_exposure_follows_the_settlement_order_and_coverage_rule():
    # Seats clockwise from the player-dealer's left (seat 4): 5 (and its backline), then 1.
    found = exposure(3_000, 4, {1: [1_000], 5: [500, 200]}, 4)
    # Each bettor: Ante + 4x Play at even money + the Blind at 500 to 1.
    assert found.owed == 505 * 500 + 505 * 200 + 505 * 1_000
    assert [(w.seat, w.bettor, w.amount) for w in found.wins] == [
        (5, 0, 505 * 500),
        (5, 1, 505 * 200),
        (1, 0, 505 * 1_000),
    ]
    assert found.paid == 3_000 and found.uncovered == found.owed - 3_000
    # Seat 5's Ante ($5) and Play ($20) are paid, its Blind ($2,500) in part: the rest goes
    # unpaid, the backline's and seat 1's three wagers each.
    assert found.wagers == 9 and found.uncovered_wagers == 7
    covered = exposure(1_000_000, 4, {1: [1_000]}, 3)
    assert covered.paid == covered.owed == 504 * 1_000 and covered.uncovered == 0


def test_play_shortfall_names_the_first_bettor_short():
    seat = [Bettor(1_000, 5_000, "Seated"), Bettor(500, 1_000, "Behind")]
    assert play_shortfall(seat, 2) is None
    assert play_shortfall(seat, 3).name == "Behind"  # $15 > $10
    assert play_shortfall(seat, 4).name == "Behind"
    assert play_shortfall([Bettor(0, 0, "Trips only")], 4) is None


def test_the_settlement_lines_carry_the_running_net(as_user, staff):
    """The last settled hand's lines, two passes, each with the player-dealer's net after it
    (the same partial as the baccarat tablet's, docs/rules.md §7.3)."""
    mt = money_table(staff, {1: 50_000, 2: 50_000, 3: 50_000}, deal_mode=DealMode.RNG)
    round_ = play_round(
        mt,
        pd_seat=2,
        bank=5_000,
        wagers=[Wager(1, 1_000, trips=500), Wager(3, 500)],
        rng=random.Random(7),
    )
    body = page_of(as_user("dealer"), mt.table).content.decode()
    table = body.split('id="settlement-lines">', 1)[1].split("</table>", 1)[0]
    head = re.findall(r"<th(?: [^>]*)?>(.*?)</th>", table)
    assert head[:2] == ["#", "Pass"] and head[-1] == "Running net"
    nets = [
        re.findall(r"<td[^>]*>(.*?)</td>", row, re.S)[-1]
        for row in re.findall(r'data-order="\d+">(.*?)</tr>', table, re.S)
    ]
    running, expected = 0, []
    for line in round_.settlement_lines.order_by("order"):
        running += line.collected_cents - line.paid_cents
        expected.append(
            ("+" if running > 0 else "-" if running < 0 else "") + dollars(abs(running))
        )
    assert nets == expected and len(nets) >= 5  # each Ante and Blind, the Trips, any Play
    round_.bank.refresh_from_db()
    assert running == round_.bank.net_cents
    assert "Check it in the settlement calculator" in body
