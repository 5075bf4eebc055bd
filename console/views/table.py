"""The dealer's table view and its actions.

Each action is one form and one call of the service the API calls. A RuleError comes back
as the form's field error naming the rule (400), a StateError as the form's error naming
the state (409). Nothing here decides a rule.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass

from django.contrib import messages
from django.core.exceptions import ObjectDoesNotExist
from django.http import Http404
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.views.decorators.http import require_POST

from cardroom.errors import Refused, Rule, RuleError, StateError
from cardroom.money import dollars
from fees import selectors as fee_selectors
from fees.models import FeeLine
from fees.services import waivers
from rounds import selectors as round_selectors
from rounds import services as rounds
from tables.models import DealMode, Player, Round, Table
from tables.rules.identity import masked
from tables.services import button, floor, waitlists
from wagers import selectors as money_selectors
from wagers.services import chips, closing, leaving, wagering

from .. import forms, selectors, waitlist_forms
from ..audit import KEYED_CARDS_NOT_RECORDED
from ..permissions import console_view, require
from ..refusals import heading, refuse


@dataclass(frozen=True)
class Action:
    label: str  # what the audit trail and the messages call it
    capability: str
    form: type
    run: Callable  # (cleaned_data, table, round, user) -> success message
    aliases: tuple[tuple[str, str], ...] = ()  # service field prefix -> form field


def _seat(data, table, round_, by):
    seating = floor.seat_player(
        table_id=table.pk, seat=data["seat"], player_id=data["player"].pk, by=by
    )
    return f"{seating.player.name} sits in seat {seating.seat}"


def _unseat(data, table, round_, by):
    to_table = data.get("to_table")
    left = leaving.leave_seat(
        table_id=table.pk,
        seat=data["seat"],
        by=by,
        chips=data.get("chips") or None,
        currency=data.get("currency", False),
        to_table_id=to_table.pk if to_table is not None else None,
        to_seat=data.get("to_seat"),
    )
    return left.message


def _buy_in(data, table, round_, by):
    chips.buy_in(
        table_id=table.pk,
        player_id=data["player_id"],
        amount=data["amount"],
        currency=data["currency"],
        by=by,
    )
    return "chips bought in"


def _fill(data, table, round_, by):
    chips.fill(table_id=table.pk, player_id=data["player_id"], amount=data["amount"], by=by)
    return "bankroll filled"


def _cash_out(data, table, round_, by):
    chips.cash_out(
        table_id=table.pk,
        player_id=data["player_id"],
        amount=data["amount"],
        currency=data["currency"],
        by=by,
    )
    return "chips cashed out"


def _identify(data, table, round_, by):
    """Record the patron's ID (a floor supervisor, on the spot), then the cash buy-in or
    cash-out that was refused for want of it."""
    player = floor.update_player_identification(
        player_id=data["player_id"],
        by=by,
        changes={name: data[name] for name in forms.IdentificationForm.FIELDS},
    )
    run = _buy_in if data["then"] == "buy_in" else _cash_out
    done = run(data, table, round_, by)
    return f"{player.name}'s identification recorded; {done}"


def _credit(data, table, round_, by):
    chips.credit(table_id=table.pk, player_id=data["player_id"], amount=data["amount"], by=by)
    return "bankroll credited back to the cage"


def _open_game(data, table, round_, by):
    floor.open_game_at(table_id=table.pk, first_offer_seat=data["first_offer_seat"], by=by)
    return f"game open; offers start at seat {data['first_offer_seat']}"


def _close_game(data, table, round_, by):
    floor.close_game(table_id=table.pk, by=by, detail=data["detail"])
    return "game closed"


def _close_table(data, table, round_, by):
    closed = closing.close_table(
        table_id=table.pk,
        by=by,
        currency_seats=data["currency_seats"],
        currency_players=data["currency_players"],
    )
    return closed.message


def _reopen_table(data, table, round_, by):
    floor.reopen_table(table_id=table.pk, by=by)
    return f"{table.name} is open again: seat the players, then open the game"


def _offer(data, table, round_, by):
    offer = button.offer_button(table_id=table.pk, by=by)
    if isinstance(offer, Refused):
        raise offer.error  # the exhausted offer round is already on the record
    return f"the player-dealer position is offered to seat {offer.seat}"


def _answer(data, table, round_, by):
    accept = data["answer"] == "accept"
    offer = button.answer_offer(table_id=table.pk, offer_id=data["offer_id"], accept=accept, by=by)
    return f"seat {offer.seat} {'accepted' if accept else 'declined'} the position"


def _keep(data, table, round_, by):
    offer = button.keep_button(table_id=table.pk, by=by)
    return f"seat {offer.seat} keeps the position for a second hand"


def _start(data, table, round_, by):
    started = rounds.start_round(table_id=table.pk, by=by)
    if isinstance(started, Refused):
        raise started.error  # the cancelled acceptance or the ended game is on the record
    return f"round {started.number} started: wagering is open"


def _bank(data, table, round_, by):
    rounds.post_bank(round_id=round_.pk, amount=data["amount"], by=by)
    return "the player-dealer's bank is posted"


def _bet(data, table, round_, by):
    behind = data.get("backline_player")
    wagering.place_bet(
        round_id=round_.pk,
        by=by,
        seat=data["seat"],
        backline_player_id=behind.pk if behind else None,
        **{name: data.get(forms.BetForm.field_of(name)) or 0 for name in forms.BetForm.SQUARES},
    )
    return f"wagers placed at seat {data['seat']}" + (" (backline)" if behind else "")


def _no_more_bets(data, table, round_, by):
    rounds.close_wagering(round_id=round_.pk, by=by)
    fees = fee_selectors.round_fees(round_)
    return f"no more bets; the hand's fees, {dollars(fees.assessed)}, are in the drop"


def _waive(data, table, round_, by):
    line = FeeLine.objects.filter(pk=data["fee_line_id"], round__table=table).first()
    if line is None:
        raise Http404("no such fee line at this table")
    waivers.waive_fee(fee_line_id=line.pk, reason=data["reason"], by=by)
    return f"fee of {dollars(line.amount_cents)} (seat {line.seat}, {line.square}) waived"


def _typed(data) -> list[str]:
    """The card codes typed or picked into the form's ``cards`` field."""
    return (data.get("cards") or "").replace(",", " ").split()


def _deal(data, table, round_, by):
    # Nothing is keyed at the deal (docs/rules.md §2.3): cards typed anyway go to the
    # service, which refuses them (an RNG table's and a card-entry table's alike).
    cards = _typed(data)
    rounds.deal(round_id=round_.pk, by=by, entry=cards or None)
    if round_.deal_mode == DealMode.CARD_ENTRY:
        return "the cards are dealt face down: they are keyed at the showdown"
    return "hole cards dealt"


def _cards_or_none(data, round_):
    """The cards typed, or None to let the RNG deal (only at a table dealing by RNG)."""
    cards = _typed(data)
    return cards if (round_.deal_mode == DealMode.CARD_ENTRY or cards) else None


def _flop(data, table, round_, by):
    rounds.reveal_flop(round_id=round_.pk, by=by, cards=_cards_or_none(data, round_))
    return "the flop is shown"


def _turn_river(data, table, round_, by):
    rounds.reveal_turn_and_river(round_id=round_.pk, by=by, cards=_cards_or_none(data, round_))
    return "the turn and river are shown"


def _turned_up_entry(cards: list[str], seats: list[int]) -> dict:
    """The cards typed or picked at the showdown, in picker order: the player-dealer's two,
    then two for each hand turned face up, by seat. Every card typed must find its place: a
    count that does not fit is refused, never cut or padded, and names no card."""
    needed = 2 + 2 * len(seats)
    if len(cards) != needed:
        raise RuleError(
            f"{len(cards)} cards keyed; the showdown needs {needed}: "
            f"{round_selectors.turned_up_words(seats)}",
            rule=Rule.CARD_ENTRY,
            field="cards",
        )
    hands = {str(seat): cards[2 + 2 * i : 4 + 2 * i] for i, seat in enumerate(seats)}
    return {"player_dealer": cards[:2], "hands": hands}


def _deal_entry(data, round_) -> dict:
    """A hand dealt from a fresh deck: the cards turned face up, by whose they are."""
    seats = round_selectors.seats_turned_face_up(round_selectors.round_detail(round_id=round_.pk))
    return _turned_up_entry(_typed(data), seats)


def _coup_entry(data, round_) -> dict:
    """A coup dealt from a shoe: its cards in dealing order, and whether the cut card came out."""
    return {"cards": _typed(data), "cut_card_out": bool(data.get("cut_card_out"))}


# What a card-entry table keys at the showdown, by the kind of its game (``Game.cards``).
_SHOWDOWN_ENTRY = {"deck": _deal_entry, "shoe": _coup_entry}


def _showdown(data, table, round_, by):
    cards = _typed(data)
    entry = None
    if round_.deal_mode == DealMode.CARD_ENTRY:
        entry = _SHOWDOWN_ENTRY[rounds.game_of(round_).cards](data, round_)
    elif cards:
        entry = cards  # refused by the service: an RNG table has its cards
    rounds.showdown(round_id=round_.pk, by=by, entry=entry)
    return "the coup is dealt" if not rounds.game_of(round_).steps else "showdown"


def _decide(data, table, round_, by):
    rounds.decide(
        round_id=round_.pk,
        seat=data["seat"],
        action=data["action"],
        multiple=data["multiple"] or 0,
        by=by,
    )
    what = f"play {data['multiple']}x" if data["action"] == "play" else data["action"]
    return f"seat {data['seat']}: {what}"


def _settle(data, table, round_, by):
    rounds.settle(round_id=round_.pk, by=by)
    return f"round {round_.number} settled"


def _void(data, table, round_, by):
    rounds.void_round(round_id=round_.pk, by=by, reason=data["reason"])
    return f"round {round_.number} is void; every wager is returned"


RUN, SUPERVISE = "run_table", "supervise"
# The steps that key cards (docs/rules.md §2.3). A card keyed may be a hole card, secret until
# the showdown (§2.6): the audit trail records that cards were keyed, never which, and a
# refused entry's form comes back empty (the service's refusal names no card typed).
CARD_ENTRY_ACTIONS = frozenset({"deal", "flop", "turn_river", "showdown"})
CARD_FIELDS = (("hands", "cards"), ("player_dealer", "cards"))  # the showdown's, on one field
BOARD_FIELDS = (("cards", "cards"),)  # a card's place (``cards[2]``) on the field


def _hold(data, table, round_, by):
    hold = waitlists.hold_seat(table_id=table.pk, seat=data["seat"], by=by, minutes=data["minutes"])
    until = timezone.localtime(hold.until)
    return f"seat {hold.seat} held for {hold.player.name} until {until:%H:%M}"


def _release(data, table, round_, by):
    hold = waitlists.release_hold(table_id=table.pk, seat=data["seat"], by=by)
    return f"{hold.player.name} is back in seat {hold.seat}"


ACTIONS: dict[str, Action] = {
    "open_game": Action("open the game", SUPERVISE, forms.OpenGameForm, _open_game),
    "close_game": Action("close the game", SUPERVISE, forms.CloseGameForm, _close_game),
    "close_table": Action("close the table", SUPERVISE, forms.CloseTableForm, _close_table),
    "reopen_table": Action("reopen the table", SUPERVISE, forms.forms.Form, _reopen_table),
    "seat": Action("seat a player", RUN, forms.SeatForm, _seat),
    "unseat": Action("unseat a player", RUN, forms.UnseatForm, _unseat),
    "buy_in": Action("buy in", RUN, forms.ChipsForm, _buy_in),
    "fill": Action("fill a bankroll", RUN, forms.ChipsForm, _fill),
    "cash_out": Action("cash out", RUN, forms.ChipsOutForm, _cash_out),
    "credit": Action("credit a bankroll", RUN, forms.ChipsOutForm, _credit),
    "identify": Action("record ID and retry", SUPERVISE, forms.IdentifyForm, _identify),
    "offer": Action("offer the button", RUN, forms.forms.Form, _offer),
    "answer": Action("answer the offer", RUN, forms.AnswerForm, _answer),
    "keep": Action("keep the button", RUN, forms.forms.Form, _keep),
    "start_round": Action("start the round", RUN, forms.forms.Form, _start),
    "bank": Action("post the bank", RUN, forms.BankForm, _bank),
    "bet": Action("place wagers", RUN, forms.BetForm, _bet),
    "no_more_bets": Action('call "no more bets"', RUN, forms.RoundForm, _no_more_bets),
    "deal": Action("deal", RUN, forms.DealForm, _deal),
    "decide": Action("record a decision", RUN, forms.DecideForm, _decide),
    "flop": Action("show the flop", RUN, forms.RevealForm, _flop, BOARD_FIELDS),
    "turn_river": Action(
        "show the turn and river", RUN, forms.RevealForm, _turn_river, BOARD_FIELDS
    ),
    "showdown": Action("showdown", RUN, forms.ShowdownForm, _showdown, CARD_FIELDS),
    "settle": Action("settle", RUN, forms.RoundForm, _settle),
    "void": Action("void the round", SUPERVISE, forms.VoidForm, _void),
    "waive": Action("waive a fee", SUPERVISE, forms.WaiveForm, _waive),
    "hold_seat": Action("hold a seat", SUPERVISE, waitlist_forms.HoldForm, _hold),
    "release_hold": Action("release a seat hold", SUPERVISE, waitlist_forms.SeatForm, _release),
}


def action_label(action: str, table: Table) -> str:
    """What the audit trail and a refusal's heading call ``action`` at ``table``: its game's
    own words where it has them (``Listing.action_labels``), else the action's label."""
    return table.game_listing.action_labels.get(action, ACTIONS[action].label)


def _make_form(name: str, view: selectors.TableView, data=None):
    form_class = ACTIONS[name].form
    kwargs = {}
    if form_class is forms.SeatForm:
        # The page offers the free seats and unseated players; a posted form accepts any
        # seat and player, so the service's own refusal (seat taken, seated elsewhere) shows.
        if data is None:
            kwargs = {"free_seats": view.free_seats, "players": selectors.players_to_seat()}
    elif form_class in (forms.ChipsForm, forms.BankForm, forms.UnseatForm):
        kwargs = {"table": view.table}
    elif form_class is forms.CloseTableForm:
        kwargs = {"behind": view.behind}
    elif form_class is forms.BetForm:
        # As for seating: the page lists the likely bettors; the service judges any player.
        behind = (
            selectors.backline_candidates(view.table, view.round)
            if data is None
            else Player.objects.all()
        )
        kwargs = {"table": view.table, "backliners": behind}
    initial = {"round_id": view.round.pk} if view.round is not None else None
    return form_class(data, initial=initial, **kwargs)


def _swapped(request) -> bool:
    """An action posted by htmx: answer the table area alone, swapped in place."""
    return request.headers.get("HX-Request") == "true"


SEAT_PANEL_ACTIONS = frozenset(
    {"buy_in", "fill", "cash_out", "credit", "unseat", "hold_seat", "release_hold"}
)


def _failed_seat(view: selectors.TableView, bound, failed: str) -> int | None:
    """The seat whose own panel holds a refused form (to show it open), if any."""
    if bound is None or failed not in SEAT_PANEL_ACTIONS:
        return None
    seat, player = bound.data.get("seat"), bound.data.get("player_id")
    for seating in view.floor.seated:
        if str(seating.seat) == seat or str(seating.player_id) == player:
            return seating.seat
    return None


def _refused_bet_form(view: selectors.TableView, bound):
    """A refused wager's form as it is shown again (docs/console.md): its picker offers only
    the eligible backline bettors, never the whole room. A refused backline wager is cleared
    whole, its bettor and its amounts, so nothing carries to the next seat's wager (a
    bettor left selected would put the next seat's chips on them); the refusal says whose
    wager it was. A seat's own wager keeps what was typed, to be corrected."""
    shown = _make_form("bet", view)
    cleaned = getattr(bound, "cleaned_data", {}) or {}
    behind = cleaned.get("backline_player")
    if behind is None and not bound.data.get("backline_player"):
        shown = forms.BetForm(
            bound.data, table=view.table, backliners=shown.fields["backline_player"].queryset
        )
    shown.cleaned_data = {}
    shown._errors = bound.errors.copy()
    if behind is not None:
        seat = str(bound.data.get("seat", ""))
        where = f"seat {seat}" if seat.isdigit() else "the seat"
        shown.add_error(
            None,
            f"{behind.name}'s wager behind {where} was not placed; the form is cleared for "
            "the next wager",
        )
    return shown


def _render(
    request,
    view: selectors.TableView,
    bound=None,
    failed: str = "",
    status=200,
    identify=None,
):
    page_forms = {name: _make_form(name, view) for name in ACTIONS}
    if failed == "bet" and bound is not None:
        bound = _refused_bet_form(view, bound)
    if bound is not None:
        page_forms[failed] = bound
    context = {
        "identify": identify,
        "ctr_words": money_selectors.approaching_ctr(s.player_id for s in view.floor.seated),
        "view": view,
        "forms": page_forms,
        "failed": failed,
        "refused_heading": heading(action_label(failed, view.table)) if failed in ACTIONS else "",
        "failed_seat": _failed_seat(view, bound, failed),
        "all_cards": selectors.all_cards(),
    }
    # The table's game chooses the tablet (``Listing.tablet``); an action posted by htmx gets
    # the same template on a bare page: the table area alone, swapped in place.
    context["page_base"] = "console/_bare.html" if _swapped(request) else "base.html"
    return render(request, view.table.game_listing.tablet, context, status=status)


@console_view("view_floor")
def table(request, table_id: int):
    try:
        view = selectors.table_view(table_id=table_id)
    except Table.DoesNotExist:
        raise Http404("no such table") from None
    return _render(request, view)


def _field_for(error: RuleError, form, aliases) -> str | None:
    name = error.field or ""
    for prefix, target in aliases:
        if name == prefix or name.startswith((prefix + ".", prefix + "[")):
            return target
    return name if name in form.fields else None


@require_POST
@console_view("view_floor")
def table_action(request, table_id: int, action: str):
    if action not in ACTIONS:
        raise Http404("no such action")
    spec = ACTIONS[action]
    require(request, spec.capability)
    request.audit_action = spec.label
    table_ = get_object_or_404(Table, pk=table_id)
    request.audit_action = action_label(action, table_)
    view = selectors.table_view(table_id=table_id)
    form = _make_form(action, view, request.POST)
    if not form.is_valid():
        request.audit_message = json.dumps(form.errors.get_json_data())
        return _render(request, view, form, action, status=400)
    data = form.cleaned_data
    detail = {k: getattr(v, "pk", v) for k, v in data.items()}
    if detail.get("id_number"):  # shown only masked, the trail included (docs/rules.md §3.3)
        detail["id_number"] = masked(str(detail["id_number"]))
    if action in CARD_ENTRY_ACTIONS and "cards" in detail:
        detail["cards"] = KEYED_CARDS_NOT_RECORDED
    request.audit_detail = json.dumps(detail, default=str, sort_keys=True)
    round_ = None
    if "round_id" in data:
        round_ = get_object_or_404(Round, pk=data["round_id"], table=table_)
    identify = None
    try:
        done = spec.run(data, table_, round_, request.user)
    except (RuleError, StateError) as error:
        field = _field_for(error, form, spec.aliases) if isinstance(error, RuleError) else None
        status = refuse(request, form, error, field)
        if getattr(error, "rule", None) == Rule.CTR_IDENTIFICATION and action != "identify":
            # The console offers to record the ID on the spot (a floor supervisor).
            identify = {
                "player": Player.objects.get(pk=data["player_id"]),
                "then": action,
                "amount": request.POST.get("amount", ""),
                "currency": data.get("currency", False),
            }
        if action in CARD_ENTRY_ACTIONS:
            form.data = form.data.copy()
            form.data["cards"] = ""  # never refilled with the cards typed
    except ObjectDoesNotExist as error:
        raise Http404(str(error)) from None
    else:
        messages.success(request, done)
        if _swapped(request):  # no redirect to follow: the table area as it is now
            return _render(request, selectors.table_view(table_id=table_id))
        return redirect(reverse("console:table", args=[table_id]))
    # The refusal may itself have changed the floor (an exhausted offer round is kept).
    return _render(request, selectors.table_view(table_id=table_id), form, action, status, identify)
