"""Barred and self-restricted patrons (docs/rules.md §3.9): the list and its history, kept by
floor supervisors and compliance officers; every floor role reads it."""

from __future__ import annotations

from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import serializers, status
from rest_framework.permissions import IsAuthenticated
from rest_framework.response import Response
from rest_framework.views import APIView

from cardroom.api import (
    PAGE_PARAMETERS,
    READ_ERRORS,
    Timestamp,
    idempotent,
    paginated,
    paginated_response,
    primary_key,
    role_permission,
    username_field,
    write_schema,
)
from cardroom.clock import today
from cardroom.roles import KEEP_RECORDS, READ_FLOOR
from tables.models import ExclusionKind, Player
from tables.selectors.exclusions import exclusion_list
from tables.serializers import PlayerSummarySerializer
from tables.services import exclusions

KEEP_LIST = [
    IsAuthenticated,
    role_permission(*KEEP_RECORDS, read=READ_FLOOR),
]


class ExclusionSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    player = PlayerSummarySerializer()
    kind = serializers.ChoiceField(choices=ExclusionKind.choices)
    reason = serializers.CharField()
    starts_on = serializers.DateField()
    ends_on = serializers.DateField(allow_null=True, help_text="null: until lifted")
    in_force = serializers.SerializerMethodField()
    recorded_at = Timestamp()
    recorded_by = username_field("recorded_by")
    lifted_at = Timestamp(allow_null=True)
    lifted_by = username_field("lifted_by")
    lift_reason = serializers.CharField(allow_blank=True)

    def get_in_force(self, entry) -> bool:
        return entry.in_force_on(today())


class ExclusionListApi(APIView):
    permission_classes = KEEP_LIST

    class InputSerializer(serializers.Serializer):
        player = primary_key(Player.objects.all(), help_text="the player's id")
        kind = serializers.ChoiceField(choices=ExclusionKind.choices)
        reason = serializers.CharField(max_length=exclusions.REASON_MAX)
        starts_on = serializers.DateField(required=False, help_text="default: today")
        ends_on = serializers.DateField(
            required=False, allow_null=True, help_text="null: until lifted"
        )

        class Meta:
            ref_name = "ExclusionInput"

    @extend_schema(
        operation_id="exclusions_list",
        parameters=[
            OpenApiParameter("player", int, description="player id"),
            OpenApiParameter("in_force", bool, description="true: only the entries in force"),
            *PAGE_PARAMETERS,
        ],
        responses={200: paginated(ExclusionSerializer), **READ_ERRORS},
    )
    def get(self, request):
        player = request.query_params.get("player")
        rows = exclusion_list(
            player_id=int(player) if player and player.isdigit() else None,
            in_force_only=request.query_params.get("in_force") == "true",
        )
        return paginated_response(
            queryset=rows, serializer_class=ExclusionSerializer, request=request, view=self
        )

    @extend_schema(
        request=InputSerializer,
        description=(
            "Put a patron on the list: barred, or self-restricted (the Bureau's program, with "
            "the last day of its term). From then on the patron is refused a waitlist, a seat, "
            "a buy-in and the button (400 `floor.excluded`)."
        ),
        **write_schema(201, ExclusionSerializer),
    )
    @idempotent
    def post(self, request):
        data = self.InputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        values = dict(data.validated_data)
        entry = exclusions.exclude(player_id=values.pop("player").pk, by=request.user, **values)
        return Response(ExclusionSerializer(entry).data, status=status.HTTP_201_CREATED)


class ExclusionLiftApi(APIView):
    permission_classes = KEEP_LIST

    class InputSerializer(serializers.Serializer):
        reason = serializers.CharField(max_length=exclusions.REASON_MAX)

        class Meta:
            ref_name = "ExclusionLiftInput"

    @extend_schema(
        request=InputSerializer,
        description="End an entry before its term, with why (once; it stays on the history).",
        **write_schema(200, ExclusionSerializer),
    )
    @idempotent
    def post(self, request, exclusion_id: int):
        data = self.InputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        entry = exclusions.lift(exclusion_id=exclusion_id, by=request.user, **data.validated_data)
        return Response(ExclusionSerializer(entry).data)
