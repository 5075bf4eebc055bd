"""A patron's own page (docs/rules.md §3.8): the player-dealer's or TPPP's own bankroll, their
ledger lines and their theo, read only. The page takes no id: it shows the signed-in patron's
own player, so no other player's data can be asked for. Staff, and an account that is no
patron's, are answered 403; a supervisor issues the sign-in from the player's page."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.http import require_POST

from cardroom.errors import RuleError, StateError
from tables.models import Player
from tables.selectors.players import patron_player
from tables.services import patrons
from wagers import selectors as money_selectors

from .. import forms
from ..permissions import console_view, require
from ..refusals import refuse

LEDGER_SHOWN = 100


def my_bankroll(request):
    if not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path())
    player = patron_player(request.user)
    if player is None:
        raise PermissionDenied("this page is a patron's own bankroll")
    context = {
        "player": player,
        "bankroll": money_selectors.bankroll(player),
        "ledger": money_selectors.ledger_lines(player, limit=LEDGER_SHOWN),
        "ledger_shown": LEDGER_SHOWN,
    }
    return render(request, "console/me.html", context)


@require_POST
@console_view("view_floor")
def issue_sign_in(request, player_id: int):
    """A floor supervisor issues a player their own sign-in (on the audit trail)."""
    require(request, "supervise")
    request.audit_action = "issue a patron's sign-in"
    player = get_object_or_404(Player, pk=player_id)
    form = forms.PatronSignInForm(request.POST)
    from .pages import bankroll  # the player's page, re-shown with the refusal

    if not form.is_valid():
        return bankroll(request, player_id, sign_in_form=form, status=400)
    request.audit_detail = (
        f"player {player.player_number}, user name {form.cleaned_data['username']}"
    )
    try:
        issued = patrons.issue_sign_in(
            player_id=player.pk,
            username=form.cleaned_data["username"],
            password=form.cleaned_data["password"],
            by=request.user,
        )
    except (RuleError, StateError) as error:
        field = error.field if isinstance(error, RuleError) else None
        status = refuse(request, form, error, field)
        return bankroll(request, player_id, sign_in_form=form, status=status)
    messages.success(
        request, f"{player.name} can sign in as {issued.user.username} to see their own bankroll"
    )
    return redirect("console:bankroll", player_id=player.pk)
