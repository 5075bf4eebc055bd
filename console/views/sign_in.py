"""The console's sign-in: Django's, answering a refused sign-in 400 with why on the trail."""

from __future__ import annotations

from django.contrib.auth import views as auth_views
from django.urls import reverse

from tables.selectors.players import patron_player

from ..audit import INACTIVE, NOT_STAFF, bad_credentials
from ..forms import SignInForm

REASONS = {"not_staff": NOT_STAFF, "inactive": INACTIVE}


class SignIn(auth_views.LoginView):
    """A refused sign-in re-shows the form with 400 (as every refused console form does), so
    the audit trail records it as refused, with the reason the page does not tell: a bad
    password, an unknown user name, not staff (a lock-out is django-axes' 429)."""

    template_name = "console/login.html"
    redirect_authenticated_user = True
    authentication_form = SignInForm

    def get_success_url(self):
        """A patron goes to their own bankroll, whatever page they asked for (every other
        page is staff's); staff where they were going."""
        if not self.request.user.is_staff and patron_player(self.request.user) is not None:
            return reverse("console:me")
        return super().get_success_url()

    def form_invalid(self, form):
        codes = {error.code for error in form.non_field_errors().as_data()}
        reason = next((REASONS[code] for code in REASONS if code in codes), None)
        if reason is None and not codes:  # a field refused: empty, too long, a NUL
            fields = form.errors.items()
            reason = "; ".join(f"{name}: {' '.join(errors)}" for name, errors in fields)
        elif reason is None:  # the password check refused it
            typed = form.data.get("username", "")
            reason = bad_credentials(typed if isinstance(typed, str) else "")
        self.request.audit_message = reason
        response = super().form_invalid(form)
        response.status_code = 400
        return response
