"""The console's waitlist page, its actions and the seat holds on the table page
(docs/rules.md §3.6): floor supervisors run the lists; house dealers and compliance read."""

from __future__ import annotations

import pytest

from tables.models import SeatHold, Seating, Waitlist, WaitlistEvent
from tables.selectors import waitlist_view
from tables.services import waitlists
from tests.builders.floor import make_player, open_floor

pytestmark = pytest.mark.django_db

URL = "/console/waitlists/"


@pytest.fixture
def room(staff, clock):
    """A $5-$500 table with seats 5 and 6 open, its list with three players, the third a
    call-in not checked in yet."""
    f = open_floor("PPPP..", staff=staff, minimum_cents=500, maximum_cents=50_000)
    row = waitlists.open_waitlist(minimum_cents=500, maximum_cents=50_000, by=staff.supervisor)
    ana = make_player(name="Ana Alvarez")
    ben = make_player(name="Ben Brown")
    cy = make_player(name="Cy Cole")
    for p in (ana, ben):
        waitlists.join(waitlist_id=row.pk, player_id=p.pk, by=staff.supervisor)
    waitlists.join(waitlist_id=row.pk, player_id=cy.pk, by=staff.supervisor, by_phone=True)
    return {"floor": f, "list": row, "ana": ana, "ben": ben, "cy": cy}


def _post(client, room, action, **data):
    return client.post(f"{URL}{room['list'].pk}/{action}/", data)


def test_the_page_shows_every_list_its_players_and_the_proposed_call(as_user, room):
    response = as_user("supervisor").get(URL)
    assert response.status_code == 200
    html = response.content.decode()
    assert "$5.00 - $500.00" in html
    assert "answer within 3 minutes" in html
    for text in ("Ana Alvarez", "Ben Brown", "Cy Cole", "phone — not checked in"):
        assert text in html
    assert html.index("Ana Alvarez") < html.index("Ben Brown") < html.index("Cy Cole")
    assert "Call Ana Alvarez" in html  # the first eligible player, for each open seat
    assert 'href="/console/waitlists/"' in html  # in the console's navigation
    assert 'hx-trigger="every 5s"' in html


def test_the_refresh_answers_the_lists_alone(as_user, room):
    response = as_user("supervisor").get(URL, HTTP_HX_REQUEST="true")
    assert response.status_code == 200
    html = response.content.decode()
    assert "Ana Alvarez" in html and "<html" not in html and "Open a list" not in html


@pytest.mark.parametrize("role", ["dealer", "compliance"])
def test_other_staff_read_without_a_form_and_are_refused_every_action(as_user, room, role):
    client = as_user(role)
    response = client.get(URL)
    assert response.status_code == 200
    html = response.content.decode()
    assert "Ana Alvarez" in html
    assert "Call Ana Alvarez" not in html and "Open a list" not in html
    assert "/console/waitlists/" + str(room["list"].pk) not in html  # no action forms
    for action, data in [
        ("call", {"table": room["floor"].table_id, "seat": 5}),
        ("join", {"player": room["ana"].pk}),
        ("remove", {"player": room["ana"].pk}),
        ("policy", {"response_minutes": 2, "call_in_minutes": 30, "pass_over": "keep_place"}),
    ]:
        assert _post(client, room, action, **data).status_code == 403
    assert client.post(f"{URL}open/", {"stakes": "500-50000"}).status_code == 403
    assert client.post(f"{URL}join/", {"waitlist": room["list"].pk}).status_code == 403
    assert not WaitlistEvent.objects.filter(kind="called").exists()


def test_signed_out_is_sent_to_sign_in(client, room):
    response = client.get(URL)
    assert response.status_code == 302
    assert response["Location"].startswith("/console/sign-in/")


def test_a_call_a_miss_the_next_call_and_a_seating(as_user, room, clock):
    client = as_user("supervisor")
    table_id = room["floor"].table_id
    response = _post(client, room, "call", table=table_id, seat=5, player=room["ana"].pk)
    assert response.status_code == 302
    html = client.get(URL).content.decode()
    assert "seat 5</strong>" in html and "calling <strong>Ana Alvarez" in html
    assert "data-answer-by" in html
    # No answer before the time ran out: refused naming the rule, 400.
    refused = _post(client, room, "no_answer", player=room["ana"].pk)
    assert refused.status_code == 400
    assert "answering a seat call" in refused.content.decode()
    clock.advance(minutes=3)
    assert _post(client, room, "no_answer", player=room["ana"].pk).status_code == 302
    view = waitlist_view(waitlist_id=room["list"].pk)
    assert view.now.entry(room["ben"].pk).call.seat == 5  # the next is called
    assert view.now.entry(room["ana"].pk).misses == 1
    assert _post(client, room, "seated", player=room["ben"].pk).status_code == 302
    assert Seating.objects.filter(
        table_id=table_id, seat=5, player=room["ben"], left_at__isnull=True
    ).exists()
    assert room["ben"].pk not in waitlist_view(waitlist_id=room["list"].pk).now.players


def test_calling_anyone_but_the_first_eligible_is_refused(as_user, room):
    client = as_user("supervisor")
    response = _post(
        client, room, "call", table=room["floor"].table_id, seat=5, player=room["ben"].pk
    )
    assert response.status_code == 400
    assert "calls in waitlist order" in response.content.decode()


def test_a_decline_calls_the_next_player(as_user, room):
    client = as_user("supervisor")
    _post(client, room, "call", table=room["floor"].table_id, seat=5, player=room["ana"].pk)
    assert _post(client, room, "declined", player=room["ana"].pk).status_code == 302
    assert waitlist_view(waitlist_id=room["list"].pk).now.entry(room["ben"].pk).call is not None
    # Answering for a player who is not called is the wrong state: 409.
    assert _post(client, room, "declined", player=room["ana"].pk).status_code == 409


def test_join_check_in_remove_and_policy(as_user, room, staff):
    client = as_user("supervisor")
    dee = make_player(name="Dee Dunn")
    response = client.post(f"{URL}join/", {"waitlist": room["list"].pk, "player": dee.pk})
    assert response.status_code == 302
    again = client.post(f"{URL}join/", {"waitlist": room["list"].pk, "player": dee.pk})
    assert again.status_code == 400 and "once on each waitlist" in again.content.decode()
    assert client.post(f"{URL}join/", {"player": dee.pk}).status_code == 400
    assert _post(client, room, "check_in", player=room["cy"].pk).status_code == 302
    assert _post(client, room, "check_in", player=room["cy"].pk).status_code == 409
    assert _post(client, room, "remove", player=dee.pk).status_code == 302
    players = waitlist_view(waitlist_id=room["list"].pk).now.players
    assert dee.pk not in players
    policy = {"response_minutes": 1, "call_in_minutes": 20, "pass_over": "to_bottom"}
    assert _post(client, room, "policy", **policy).status_code == 302
    row = Waitlist.objects.get(pk=room["list"].pk)
    assert (row.response_seconds, row.call_in_seconds, row.pass_over) == (60, 1200, "to_bottom")
    bad = _post(client, room, "policy", response_minutes=0, call_in_minutes=20, pass_over="x")
    assert bad.status_code == 400


def test_the_join_picker_searches_players(as_user, room):
    make_player(name="Zelda Zimmer")
    html = as_user("supervisor").get(URL, {"q": "zelda"}).content.decode()
    assert '<option value="' in html and "Zelda Zimmer (" in html


def test_opening_a_list_for_the_stakes_of_an_open_table(as_user, room, staff):
    open_floor("PP....", staff=staff, minimum_cents=1_000, maximum_cents=100_000)
    client = as_user("supervisor")
    assert "$10.00 - $1,000.00" in client.get(URL).content.decode()
    assert client.post(f"{URL}open/", {"stakes": "1000-100000"}).status_code == 302
    assert Waitlist.objects.filter(minimum_cents=1_000, maximum_cents=100_000).exists()
    again = client.post(f"{URL}open/", {"stakes": "1000-100000"})
    assert again.status_code == 409
    nothing = client.post(f"{URL}open/", {"stakes": "7-9"})
    assert nothing.status_code == 400 and "a waitlist for each stakes" in nothing.content.decode()
    assert client.post(f"{URL}open/", {"stakes": "abc"}).status_code == 400


def test_unknown_lists_and_actions_are_404(as_user, room):
    client = as_user("supervisor")
    assert client.post(f"{URL}999999/call/", {}).status_code == 404
    assert _post(client, room, "shuffle").status_code == 404


# --- Seat holds on the table page and the floor map ----------------------------------------------


def test_a_supervisor_holds_a_seat_and_the_player_comes_back(as_user, room, clock):
    client = as_user("supervisor")
    table_id = room["floor"].table_id
    url = f"/console/tables/{table_id}/"
    page = client.get(url).content.decode()
    assert "Hold seat" in page
    response = client.post(f"{url}hold_seat/", {"seat": 2, "minutes": 10})
    assert response.status_code == 302
    page = client.get(url).content.decode()
    assert "10 min left" in page and ">Back</button>" in page
    floor_map = client.get("/console/").content.decode()
    assert "held 10 min" in floor_map
    clock.advance(minutes=11)
    assert "the hold ran out" in client.get(url).content.decode()
    assert "held: ran out" in client.get("/console/").content.decode()
    assert "hold ran out: pick up" in client.get(URL).content.decode()
    assert client.post(f"{url}hold_seat/", {"seat": 2, "minutes": 10}).status_code == 409
    assert client.post(f"{url}release_hold/", {"seat": 2}).status_code == 302
    assert not SeatHold.objects.filter(ended_at__isnull=True).exists()
    assert client.post(f"{url}release_hold/", {"seat": 2}).status_code == 400
    assert client.post(f"{url}hold_seat/", {"seat": 6, "minutes": 10}).status_code == 400
    assert client.post(f"{url}hold_seat/", {"seat": 2, "minutes": 0}).status_code == 400


def test_a_dealer_sees_a_hold_but_may_not_hold_or_release(as_user, room, staff):
    table_id = room["floor"].table_id
    waitlists.hold_seat(table_id=table_id, seat=1, by=staff.supervisor, minutes=5)
    client = as_user("dealer")
    url = f"/console/tables/{table_id}/"
    page = client.get(url).content.decode()
    assert "5 min left" in page and "Hold seat" not in page and ">Back</button>" not in page
    assert client.post(f"{url}hold_seat/", {"seat": 2, "minutes": 10}).status_code == 403
    assert client.post(f"{url}release_hold/", {"seat": 1}).status_code == 403


def test_a_call_withdrawn_keeps_the_place(as_user, room):
    client = as_user("supervisor")
    f = room["floor"]
    assert _post(client, room, "call", table=f.table_id, seat=5).status_code == 302
    assert "Withdraw call" in client.get(URL).content.decode()
    assert _post(client, room, "withdraw", player=room["ana"].pk).status_code == 302
    entry = waitlist_view(waitlist_id=room["list"].pk).now.entry(room["ana"].pk)
    assert (entry.call, entry.misses) == (None, 0)
    assert waitlist_view(waitlist_id=room["list"].pk).now.position(room["ana"].pk) == 1
    again = _post(client, room, "withdraw", player=room["ana"].pk)
    assert again.status_code == 409
    assert "is not being called" in again.content.decode()
