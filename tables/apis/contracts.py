"""TPPP contracts (docs/rules.md §8.7, ``tppp.contract``): a TPPP's contract with the cardroom,
its tables, hours, dates and the Bureau's approval, recorded by a floor supervisor or a
compliance officer; every floor role reads them. A renewal is a new contract."""

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
from cardroom.roles import KEEP_RECORDS, READ_FLOOR
from tables.models import Player, Table
from tables.selectors.contracts import contract_list
from tables.serializers import PlayerSummarySerializer
from tables.services import contracts

KEEP_CONTRACTS = [
    IsAuthenticated,
    role_permission(*KEEP_RECORDS, read=READ_FLOOR),
]


class ContractSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    player = PlayerSummarySerializer(source="registration.player")
    tables = serializers.SerializerMethodField(help_text="the tables' names; empty: every table")
    starts_on = serializers.DateField()
    ends_on = serializers.DateField()
    opens_at = serializers.TimeField(allow_null=True, help_text="null: any hour")
    closes_at = serializers.TimeField(allow_null=True, help_text="null: any hour")
    approved_on = serializers.DateField()
    approval_number = serializers.CharField()
    recorded_at = Timestamp()
    recorded_by = username_field("recorded_by")

    def get_tables(self, contract) -> list[str]:
        return [table.name for table in contract.tables.all()]


class ContractListApi(APIView):
    permission_classes = KEEP_CONTRACTS

    class InputSerializer(serializers.Serializer):
        player = primary_key(Player.objects.all(), help_text="the TPPP's player id")
        tables = serializers.ListField(
            child=primary_key(Table.objects.all()),
            required=False,
            max_length=200,
            help_text="table ids; empty or absent: every table",
        )
        starts_on = serializers.DateField()
        ends_on = serializers.DateField()
        opens_at = serializers.TimeField(required=False, allow_null=True)
        closes_at = serializers.TimeField(required=False, allow_null=True)
        approved_on = serializers.DateField()
        approval_number = serializers.CharField(max_length=64)

        class Meta:
            ref_name = "TPPPContractInput"

    @extend_schema(
        operation_id="tppp_contracts_list",
        parameters=[OpenApiParameter("player", int, description="player id"), *PAGE_PARAMETERS],
        responses={200: paginated(ContractSerializer), **READ_ERRORS},
    )
    def get(self, request):
        player = request.query_params.get("player")
        player_id = int(player) if player and player.isdigit() else None
        rows = contract_list(player_id=player_id)
        return paginated_response(
            queryset=rows, serializer_class=ContractSerializer, request=request, view=self
        )

    @extend_schema(
        request=InputSerializer,
        description=(
            "Record a TPPP's contract with the cardroom (a renewal is a new contract). A TPPP "
            "is refused a seat outside its contract's tables, hours and dates (400 "
            "`tppp.contract`); a contract ending within 90 days is flagged for renewal."
        ),
        **write_schema(201, ContractSerializer),
    )
    @idempotent
    def post(self, request):
        data = self.InputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        values = dict(data.validated_data)
        contract = contracts.record_contract(
            player_id=values.pop("player").pk,
            table_ids=[table.pk for table in values.pop("tables", [])],
            by=request.user,
            **values,
        )
        return Response(ContractSerializer(contract).data, status=status.HTTP_201_CREATED)
