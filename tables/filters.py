"""Query filters for the floor's list endpoints (applied by ``cardroom.filtering``)."""

from __future__ import annotations

import django_filters
from django.db.models import Q

from cardroom.filtering import IdFilter
from tables.models import Game, OfferRound, OfferRoundStatus, Player, Seating


class PlayerFilter(django_filters.FilterSet):
    q = django_filters.CharFilter(
        method="filter_q", help_text="part of the name or of the player number"
    )
    player_number = django_filters.CharFilter(help_text="exact player number")
    name = django_filters.CharFilter(lookup_expr="icontains", help_text="part of the name")
    is_tppp = django_filters.BooleanFilter(
        method="filter_is_tppp", help_text="registered third-party proposition players only"
    )

    class Meta:
        model = Player
        fields = ["player_number", "name", "is_tppp"]

    def filter_q(self, queryset, name, value):
        """The floor's search box: a name or a player number, or part of either."""
        return queryset.filter(Q(name__icontains=value) | Q(player_number__icontains=value))

    def filter_is_tppp(self, queryset, name, value):
        return queryset.filter(tppp__isnull=not value)


class SeatingFilter(django_filters.FilterSet):
    table = IdFilter(field_name="table_id", help_text="table id")
    player = IdFilter(field_name="player_id", help_text="player id")
    active = django_filters.BooleanFilter(
        field_name="left_at",
        lookup_expr="isnull",
        help_text="true: still seated; false: left the seat",
    )

    class Meta:
        model = Seating
        fields = ["table", "player", "active"]


class GameFilter(django_filters.FilterSet):
    table = IdFilter(field_name="table_id", help_text="table id")
    open = django_filters.BooleanFilter(
        field_name="ended_at", lookup_expr="isnull", help_text="true: open; false: ended"
    )

    class Meta:
        model = Game
        fields = ["table", "open"]


class OfferRoundFilter(django_filters.FilterSet):
    table = IdFilter(field_name="table_id", help_text="table id")
    game = IdFilter(field_name="game_id", help_text="game id")
    status = django_filters.ChoiceFilter(choices=OfferRoundStatus.choices)

    class Meta:
        model = OfferRound
        fields = ["table", "game", "status"]
