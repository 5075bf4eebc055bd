"""Query filters for the rounds list (applied by ``cardroom.filtering``)."""

from __future__ import annotations

import django_filters

from cardroom.filtering import IdFilter, InstantFilter
from tables.models import ROUND_STATE_CHOICES, Round


class RoundFilter(django_filters.FilterSet):
    table = IdFilter(field_name="table_id", help_text="table id")
    game = IdFilter(field_name="game_id", help_text="game id")
    state = django_filters.ChoiceFilter(choices=ROUND_STATE_CHOICES)
    player_dealer = IdFilter(
        field_name="player_dealer_id", help_text="id of the player who banked the round"
    )
    started_after = InstantFilter(
        field_name="started_at", lookup_expr="gte", help_text="started at or after (ISO 8601)"
    )
    started_before = InstantFilter(
        field_name="started_at", lookup_expr="lt", help_text="started before (ISO 8601)"
    )

    class Meta:
        model = Round
        fields = ["table", "game", "state", "player_dealer", "started_after", "started_before"]
