"""Output serializers of the fees API (amounts in integer cents)."""

from __future__ import annotations

from rest_framework import serializers

from cardroom.api import Timestamp, username_field


class FeeRateSerializer(serializers.Serializer):
    position = serializers.IntegerField()
    wager_from_cents = serializers.IntegerField(allow_null=True)
    wager_to_cents = serializers.IntegerField(allow_null=True)
    player_fee_cents = serializers.IntegerField(allow_null=True)
    player_dealer_fee_cents = serializers.IntegerField(allow_null=True)
    action_from_cents = serializers.IntegerField(allow_null=True)
    action_to_cents = serializers.IntegerField(
        allow_null=True, help_text="null: and above (total table action)"
    )


class FeeScheduleVersionSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    schedule = serializers.IntegerField(source="schedule_id")
    number = serializers.IntegerField()
    effective_at = Timestamp()
    player_dealer_basis = serializers.CharField()
    charged_squares = serializers.ListField(child=serializers.CharField())
    table_minimum_cents = serializers.IntegerField()
    table_maximum_cents = serializers.IntegerField()
    note = serializers.CharField()
    created_at = Timestamp()
    created_by = username_field("created_by")
    rates = FeeRateSerializer(many=True, source="rates.all")


class FeeScheduleSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()
    table = serializers.IntegerField(source="table_id", allow_null=True)
    class_minimum_cents = serializers.IntegerField(allow_null=True)
    class_maximum_cents = serializers.IntegerField(allow_null=True)
    created_at = Timestamp()
    created_by = username_field("created_by")


class FeeScheduleDetailSerializer(FeeScheduleSerializer):
    versions = FeeScheduleVersionSerializer(many=True)


class FeeWaiverSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    fee_line = serializers.IntegerField(source="fee_line_id")
    reason = serializers.CharField()
    waived_at = Timestamp()
    waived_by = username_field("waived_by")
    reversal = serializers.IntegerField(source="reversal_id", help_text="ledger transaction")


class FeeLineSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    order = serializers.IntegerField()
    payer_kind = serializers.CharField()
    player = serializers.IntegerField(source="player_id")
    player_name = serializers.CharField(source="player.name")
    seat = serializers.IntegerField()
    bettor = serializers.IntegerField(help_text="0: the seated player; 1, 2...: backline")
    square = serializers.CharField(help_text="ante, blind, trips, bad_beat or table_action")
    wager_cents = serializers.IntegerField(help_text="the wager (or table action) rated")
    version = serializers.IntegerField(source="version_id")
    rate_position = serializers.IntegerField()
    amount_cents = serializers.IntegerField()
    transaction = serializers.IntegerField(source="transaction_id")
    waived = serializers.SerializerMethodField()
    waiver = serializers.SerializerMethodField()

    def get_waived(self, line) -> bool:
        return hasattr(line, "waiver")

    def get_waiver(self, line) -> dict | None:
        return FeeWaiverSerializer(line.waiver).data if hasattr(line, "waiver") else None


class RoundFeesSerializer(serializers.Serializer):
    round = serializers.IntegerField()
    state = serializers.CharField()
    fee_schedule_version = serializers.IntegerField(allow_null=True)
    assessed_cents = serializers.IntegerField()
    waived_cents = serializers.IntegerField()
    returned_cents = serializers.IntegerField(help_text="a voided hand's fees, given back")
    collected_cents = serializers.IntegerField()
    lines = FeeLineSerializer(many=True)


class DropCountSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    amount_cents = serializers.IntegerField()
    counters = serializers.ListField(child=serializers.CharField())
    counted_at = Timestamp()
    entered_at = Timestamp()
    entered_by = username_field("entered_by")
    note = serializers.CharField()


class DropBoxSerializer(serializers.Serializer):
    id = serializers.IntegerField(source="box.id")
    box_number = serializers.CharField(source="box.box_number")
    table = serializers.IntegerField(source="box.table_id")
    table_name = serializers.CharField(source="box.table.name")
    gaming_day = serializers.DateField(source="box.gaming_day")
    shift = serializers.CharField(source="box.shift")
    shift_start = Timestamp(source="start")
    shift_end = Timestamp(source="end")
    recorded_cents = serializers.IntegerField(help_text="net fees into the drop in the shift")
    counted_cents = serializers.IntegerField(allow_null=True, help_text="the latest count")
    difference_cents = serializers.IntegerField(
        allow_null=True, help_text="counted minus recorded (null until counted)"
    )
    counts = serializers.IntegerField(help_text="counts entered (the first and any recounts)")
    count = DropCountSerializer(allow_null=True, help_text="the latest count")
