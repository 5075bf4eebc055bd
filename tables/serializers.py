"""How the floor's objects are shown by every API that shows them (the floor's own, the
money's, the fees', the round lifecycle's). The floor's API nests its own inputs."""

from __future__ import annotations

from rest_framework import serializers

from cardroom.api import Timestamp, username_field
from tables.models import DealMode, IdType


class PlayerSummarySerializer(serializers.Serializer):
    id = serializers.IntegerField()
    player_number = serializers.CharField()
    name = serializers.CharField()


class SeatingSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    table = serializers.IntegerField(source="table_id")
    seat = serializers.IntegerField()
    player = PlayerSummarySerializer()
    is_tppp = serializers.BooleanField()
    sat_at = Timestamp()
    seated_by = username_field("seated_by")
    left_at = Timestamp(allow_null=True)
    unseated_by = username_field("unseated_by")


class TPPPSerializer(serializers.Serializer):
    business_name = serializers.CharField()
    badge_number = serializers.CharField()
    badge_expires_on = serializers.DateField()


class PlayerSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    player_number = serializers.CharField()
    name = serializers.CharField()
    created_at = Timestamp()
    is_tppp = serializers.SerializerMethodField()
    tppp = TPPPSerializer(allow_null=True, default=None)
    # The identification (docs/rules.md §3.3): the number only ever masked.
    id_type = serializers.ChoiceField(
        choices=[("", "not recorded"), *IdType.choices], allow_blank=True
    )
    id_number_masked = serializers.CharField(
        allow_blank=True,
        help_text="the ID number, all but its last four characters hidden; empty: none recorded",
    )
    id_issued_by = serializers.CharField(
        allow_blank=True, help_text="the state or country that issued the ID"
    )
    date_of_birth = serializers.DateField(allow_null=True)

    def get_is_tppp(self, player) -> bool:
        return getattr(player, "tppp", None) is not None


class OptionsSerializer(serializers.Serializer):
    """A table's options sheet (docs/rules.md §3.4), or the snapshot a round froze."""

    minimum_cents = serializers.IntegerField()
    maximum_cents = serializers.IntegerField()
    chip_unit_cents = serializers.IntegerField()
    # Ultimate Texas Hold'em's own options (a frozen EZ Baccarat sheet has none of them).
    preflop_multiples = serializers.ListField(child=serializers.IntegerField(), required=False)
    trips_paytable = serializers.JSONField(
        help_text="a pay table's name, or its odds in full", required=False
    )
    bad_beat_paytable = serializers.JSONField(allow_null=True, required=False)
    backline_allowed = serializers.BooleanField(required=False)
    deal_mode = serializers.ChoiceField(choices=DealMode.choices)
    max_consecutive_hands = serializers.IntegerField()
    offer_every_hand = serializers.BooleanField()
    max_tppp_per_table = serializers.IntegerField(allow_null=True)
    tppp_may_bank_twice_in_a_row = serializers.BooleanField()
    rotation_window_minutes = serializers.IntegerField(allow_null=True)
    min_non_tppp_dealers_in_window = serializers.IntegerField()
