"""Locked-out sign-ins: a floor supervisor (or an administrator) sees them and unlocks one.

django-axes locks a user name from one address after repeated failed sign-ins
(``cardroom.lockouts``); this page lists the pairs locked now, with when the lock began,
how many failures and when it ends by itself, and unlocks one on request. The unlock is
recorded on the staff-action trail (the middleware records every write; the detail names the
user name and the address unlocked).
"""

from __future__ import annotations

import json

from axes.helpers import get_cool_off, get_failure_limit
from django import forms
from django.contrib import messages
from django.shortcuts import redirect, render
from django.views.decorators.http import require_POST

from cardroom import lockouts
from cardroom.money import duration

from ..permissions import console_view


class UnlockForm(forms.Form):
    username = forms.CharField(max_length=255)
    ip_address = forms.GenericIPAddressField()


def _page(request, status=200):
    cool_off = get_cool_off()
    context = {
        "lockouts": lockouts.locked_out(),
        "limit": get_failure_limit(None, None),
        "cool_off": duration(cool_off) if cool_off is not None else "an unlock",
    }
    return render(request, "console/locked_sign_ins.html", context, status=status)


@console_view("unlock_sign_ins")
def locked_sign_ins(request):
    return _page(request)


@require_POST
@console_view("unlock_sign_ins")
def unlock_sign_in(request):
    request.audit_action = "unlock a sign-in"
    form = UnlockForm(request.POST)
    if not form.is_valid():
        request.audit_message = "; ".join(" ".join(e) for e in form.errors.values())
        messages.error(request, f"nothing unlocked: {request.audit_message}")
        return _page(request, status=400)
    username, address = form.cleaned_data["username"], form.cleaned_data["ip_address"]
    request.audit_detail = json.dumps({"username": username, "ip_address": address})
    if lockouts.unlock(username=username, ip_address=address):
        messages.success(request, f"{username} may sign in again from {address}")
    else:
        messages.info(request, f"{username} from {address} was not locked out: nothing to unlock")
    return redirect("console:locked-sign-ins")
