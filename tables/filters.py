"""Query filters for the floor's list endpoints (applied by the selectors).

Ids are plain numbers: filtering by a table or player that does not exist
answers an empty list, not an error. A malformed value (a state that is not a
state, a date that is not a date) is a 400 naming the parameter.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import django_filters
from django.db.models import QuerySet
from django_filters.utils import translate_validation

from tables.models import Game, OfferRound, OfferRoundStatus, Player, Round, RoundState, Seating


def filter_queryset(
    filterset_class: type[django_filters.FilterSet],
    data: Mapping[str, Any] | None,
    queryset: QuerySet,
) -> QuerySet:
    """``queryset`` narrowed by ``data`` (query parameters); invalid values raise a DRF 400."""
    filterset = filterset_class(data or {}, queryset=queryset)
    if not filterset.is_valid():
        raise translate_validation(filterset.errors)
    return filterset.qs


class PlayerFilter(django_filters.FilterSet):
    player_number = django_filters.CharFilter(help_text="exact player number")
    name = django_filters.CharFilter(lookup_expr="icontains", help_text="part of the name")
    is_tppp = django_filters.BooleanFilter(
        method="filter_is_tppp", help_text="registered third-party proposition players only"
    )

    class Meta:
        model = Player
        fields = ["player_number", "name", "is_tppp"]

    def filter_is_tppp(self, queryset, name, value):
        return queryset.filter(tppp__isnull=not value)


class SeatingFilter(django_filters.FilterSet):
    table = django_filters.NumberFilter(field_name="table_id", help_text="table id")
    player = django_filters.NumberFilter(field_name="player_id", help_text="player id")
    active = django_filters.BooleanFilter(
        field_name="left_at",
        lookup_expr="isnull",
        help_text="true: still seated; false: left the seat",
    )

    class Meta:
        model = Seating
        fields = ["table", "player", "active"]


class GameFilter(django_filters.FilterSet):
    table = django_filters.NumberFilter(field_name="table_id", help_text="table id")
    open = django_filters.BooleanFilter(
        field_name="ended_at", lookup_expr="isnull", help_text="true: open; false: ended"
    )

    class Meta:
        model = Game
        fields = ["table", "open"]


class OfferRoundFilter(django_filters.FilterSet):
    table = django_filters.NumberFilter(field_name="table_id", help_text="table id")
    game = django_filters.NumberFilter(field_name="game_id", help_text="game id")
    status = django_filters.ChoiceFilter(choices=OfferRoundStatus.choices)

    class Meta:
        model = OfferRound
        fields = ["table", "game", "status"]


class RoundFilter(django_filters.FilterSet):
    table = django_filters.NumberFilter(field_name="table_id", help_text="table id")
    game = django_filters.NumberFilter(field_name="game_id", help_text="game id")
    state = django_filters.ChoiceFilter(choices=RoundState.choices)
    player_dealer = django_filters.NumberFilter(
        field_name="player_dealer_id", help_text="id of the player who banked the round"
    )
    started_after = django_filters.IsoDateTimeFilter(
        field_name="started_at", lookup_expr="gte", help_text="started at or after (ISO 8601)"
    )
    started_before = django_filters.IsoDateTimeFilter(
        field_name="started_at", lookup_expr="lt", help_text="started before (ISO 8601)"
    )

    class Meta:
        model = Round
        fields = ["table", "game", "state", "player_dealer", "started_after", "started_before"]
