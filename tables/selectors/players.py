"""The players: the list and one player (with their TPPP registration), and the player whose
own sign-in a user is (a patron's own pages)."""

from __future__ import annotations

from django.db.models import QuerySet

from cardroom.filtering import Filters, filter_queryset
from tables.filters import PlayerFilter
from tables.models import PatronSignIn, Player


def player_list(*, filters: Filters = None) -> QuerySet[Player]:
    return filter_queryset(PlayerFilter, filters, Player.objects.select_related("tppp"))


def player_get(*, player_id: int) -> Player:
    return Player.objects.select_related("tppp").get(pk=player_id)


# --- A patron's own sign-in (docs/rules.md §3.8) ----------------------------------------------


def patron_player(user) -> Player | None:
    """The player whose own sign-in ``user`` is (``tables.models.PatronSignIn``); None for
    staff, a signed-out visitor, an inactive account and everyone else."""
    if user is None or not user.is_authenticated or user.is_staff or not user.is_active:
        return None
    link = PatronSignIn.objects.select_related("player").filter(user=user).first()
    return link.player if link else None
