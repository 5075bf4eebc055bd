"""Query filters for the money API's list endpoints (applied by the selectors).

As on the floor (``tables.filters``): ids are plain numbers, an unknown one answers an
empty list; a malformed value is a 400 naming the parameter.
"""

from __future__ import annotations

import django_filters

from cardroom.filtering import IdFilter
from wagers.models import Account, AccountKind


class AccountFilter(django_filters.FilterSet):
    player = IdFilter(field_name="player_id", help_text="player id")
    table = IdFilter(field_name="table_id", help_text="table id")
    round = IdFilter(field_name="round_id", help_text="round id (its wagers and bank in play)")
    kind = django_filters.ChoiceFilter(choices=AccountKind.choices)
    open = django_filters.BooleanFilter(
        field_name="closed_at",
        lookup_expr="isnull",
        help_text="true: open; false: closed (a table session's chips all back at the cage)",
    )

    class Meta:
        model = Account
        fields = ["player", "table", "round", "kind", "open"]
