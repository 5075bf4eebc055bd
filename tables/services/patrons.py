"""A patron's own sign-in (docs/rules.md §3.8): a floor supervisor issues it to one player (a
player-dealer, a TPPP), with a user name and a first password the supervisor hands over.

The account is never staff, so it holds no role (``cardroom.roles``): every staff page and
API answers it 403. It reads only its own player's bankroll (``/console/me/``, ``/api/me/``).
"""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.contrib.auth.password_validation import validate_password
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction

from cardroom.clock import now
from cardroom.errors import Rule, RuleError, State, StateError
from tables.models import PatronSignIn, Player


def issue_sign_in(*, player_id: int, username: str, password: str, by) -> PatronSignIn:
    """Issue ``player_id``'s own sign-in: refused (409) if the player has one, (400) for a
    user name taken or a password too weak (Django's validators, as for staff)."""
    user_model = get_user_model()
    username = str(username or "").strip()
    if not username:
        raise RuleError("a sign-in needs a user name", rule=Rule.PATRON_SIGN_IN, field="username")
    with transaction.atomic():
        player = Player.objects.select_for_update().filter(pk=player_id).first()
        if player is None:
            raise RuleError("no such player", rule=Rule.KNOWN_PLAYER, field="player")
        if PatronSignIn.objects.filter(player=player).exists():
            raise StateError(
                f"{player.name} already has a sign-in",
                state=State.ALREADY_RECORDED,
                rule=Rule.PATRON_SIGN_IN,
            )
        if user_model.objects.filter(username__iexact=username).exists():
            raise RuleError(
                f"the user name {username} is taken", rule=Rule.PATRON_SIGN_IN, field="username"
            )
        user = user_model(username=username, is_staff=False, is_superuser=False)
        try:
            validate_password(password, user)
        except ValidationError as error:
            raise RuleError(
                " ".join(error.messages), rule=Rule.PATRON_SIGN_IN, field="password"
            ) from None
        user.set_password(password)
        try:
            with transaction.atomic():
                user.save()
                return PatronSignIn.objects.create(
                    user=user, player=player, issued_at=now(), issued_by=by
                )
        except IntegrityError:
            raise RuleError(
                f"the user name {username} is taken", rule=Rule.PATRON_SIGN_IN, field="username"
            ) from None
