"""Tables and their options sheet, seats, and games."""

from __future__ import annotations

from collections.abc import Mapping

from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.response import Response
from rest_framework.views import APIView

from cardroom.api import (
    PAGE_PARAMETERS,
    READ,
    READ_ERRORS,
    RUN_TABLE_OR_READ,
    SUPERVISE_OR_READ,
    JSONValue,
    cents,
    count,
    idempotent,
    list_parameters,
    paginated,
    paginated_response,
    primary_key,
    write_schema,
)
from cardroom.errors import Rule, RuleError
from games.catalog import CHOICES as GAME_CHOICES
from tables.filters import GameFilter, SeatingFilter
from tables.models import DealMode, Player
from tables.selectors.counters import table_floor
from tables.selectors.floor import (
    game_get,
    game_list,
    seating_get,
    seating_list,
    table_list,
    table_option_change_list,
)
from tables.serializers import SeatingSerializer
from tables.services import floor

from .serializers import (
    GameSerializer,
    OptionChangeSerializer,
    TableDetailSerializer,
    TableSerializer,
)


class OptionsInputSerializer(serializers.Serializer):
    """Options given flat, each optional: their types are checked here, their rules by the
    service. A key that is no option is refused as the service refuses it, naming the rule
    (checked here so that no body key can clash with the service's own arguments)."""

    minimum_cents = cents(required=False)
    maximum_cents = cents(required=False)
    chip_unit_cents = cents(required=False)
    preflop_multiples = serializers.ListField(child=count(), required=False)
    trips_paytable = JSONValue(
        required=False, help_text='a name ("UTH-01".."UTH-04") or the odds in full'
    )
    bad_beat_paytable = JSONValue(
        required=False, allow_null=True, help_text='"option-1", "option-2", odds in full, or null'
    )
    backline_allowed = serializers.BooleanField(required=False)
    deal_mode = serializers.ChoiceField(choices=DealMode.choices, required=False)
    max_consecutive_hands = count(required=False)
    offer_every_hand = serializers.BooleanField(required=False)
    max_tppp_per_table = count(required=False, allow_null=True)
    tppp_may_bank_twice_in_a_row = serializers.BooleanField(required=False)
    rotation_window_minutes = count(required=False, allow_null=True)
    min_non_tppp_dealers_in_window = count(required=False)
    # A game of several seat counts, and EZ Baccarat's own options (docs/rules.md §14.1); the
    # service refuses an option that is not of the table's game.
    seats = count(required=False)
    decks = count(required=False)
    tie_pays = count(required=False)
    dragon_7_pays = count(required=False)
    panda_8_pays = count(required=False)
    cut_card = count(required=False)
    side_wager_maximum_cents = cents(required=False, allow_null=True)

    class Meta:
        ref_name = "TableOptionsInput"

    def to_internal_value(self, data):
        if isinstance(data, Mapping):
            unknown = sorted(str(key) for key in data if key not in self.fields)
            if unknown:
                raise RuleError(
                    f"unknown option {unknown[0]}",
                    rule=Rule.OPTIONS,
                    field=unknown[0],
                )
        return super().to_internal_value(data)


class TableListApi(APIView):
    permission_classes = SUPERVISE_OR_READ

    class InputSerializer(OptionsInputSerializer):
        name = serializers.CharField(max_length=64)
        game = serializers.ChoiceField(
            choices=GAME_CHOICES, required=False, help_text="Ultimate Texas Hold'em by default"
        )

        class Meta:
            ref_name = "TableCreateInput"

    @extend_schema(
        operation_id="tables_list",
        parameters=PAGE_PARAMETERS,
        responses={200: paginated(TableSerializer), **READ_ERRORS},
    )
    def get(self, request):
        return paginated_response(
            queryset=table_list(),
            serializer_class=TableSerializer,
            request=request,
            view=self,
        )

    @extend_schema(
        operation_id="tables_create",
        request=InputSerializer,
        **write_schema(201, TableDetailSerializer),
    )
    @idempotent
    def post(self, request):
        serializer = self.InputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = dict(serializer.validated_data)
        table = floor.create_table(
            name=data.pop("name"), game=data.pop("game", None), by=request.user, options=data
        )
        floor_view = table_floor(table_id=table.pk)
        return Response(TableDetailSerializer(floor_view).data, status=status.HTTP_201_CREATED)


class TableDetailApi(APIView):
    permission_classes = SUPERVISE_OR_READ

    class InputSerializer(OptionsInputSerializer):
        class Meta:
            ref_name = "TableOptionsChangeInput"

    @extend_schema(responses={200: TableDetailSerializer, **READ_ERRORS})
    def get(self, request, table_id: int):
        return Response(
            TableDetailSerializer(table_floor(table_id=table_id, with_counters=True)).data
        )

    @extend_schema(
        request=InputSerializer,
        description="Change options between rounds; every change is logged (option-changes).",
        **write_schema(200, TableDetailSerializer),
    )
    @idempotent
    def patch(self, request, table_id: int):
        serializer = self.InputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        floor.change_table_options(
            table_id=table_id, by=request.user, changes=serializer.validated_data
        )
        return Response(
            TableDetailSerializer(table_floor(table_id=table_id, with_counters=True)).data
        )


class TableOptionChangeListApi(APIView):
    permission_classes = READ

    @extend_schema(
        operation_id="tables_option_changes_list",
        parameters=PAGE_PARAMETERS,
        responses={200: paginated(OptionChangeSerializer), **READ_ERRORS},
    )
    def get(self, request, table_id: int):
        return paginated_response(
            queryset=table_option_change_list(table_id=table_id),
            serializer_class=OptionChangeSerializer,
            request=request,
            view=self,
        )


# --- Seats ------------------------------------------------------------------------------


class SeatCreateApi(APIView):
    permission_classes = RUN_TABLE_OR_READ

    class InputSerializer(serializers.Serializer):
        seat = count(help_text="1 to 6, clockwise")
        player = primary_key(Player.objects.all(), help_text="the player's id")

        class Meta:
            ref_name = "SeatPlayerInput"

    @extend_schema(request=InputSerializer, **write_schema(201, SeatingSerializer))
    @idempotent
    def post(self, request, table_id: int):
        serializer = self.InputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        seating = floor.seat_player(
            table_id=table_id, seat=data["seat"], player_id=data["player"].pk, by=request.user
        )
        seating = seating_get(seating_id=seating.pk)
        return Response(SeatingSerializer(seating).data, status=status.HTTP_201_CREATED)


class SeatingListApi(APIView):
    permission_classes = READ

    @extend_schema(
        operation_id="seatings_list",
        parameters=list_parameters(SeatingFilter),
        responses={200: paginated(SeatingSerializer), **READ_ERRORS},
    )
    def get(self, request):
        return paginated_response(
            queryset=seating_list(filters=request.query_params),
            serializer_class=SeatingSerializer,
            request=request,
            view=self,
        )


# --- Games ------------------------------------------------------------------------------


class GameOpenApi(APIView):
    permission_classes = SUPERVISE_OR_READ

    class InputSerializer(serializers.Serializer):
        first_offer_seat = count(help_text="the seat where the button offers start")

        class Meta:
            ref_name = "GameOpenInput"

    @extend_schema(request=InputSerializer, **write_schema(201, GameSerializer))
    @idempotent
    def post(self, request, table_id: int):
        serializer = self.InputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        game = floor.open_game_at(table_id=table_id, by=request.user, **serializer.validated_data)
        game = game_get(game_id=game.pk)
        return Response(GameSerializer(game).data, status=status.HTTP_201_CREATED)


class GameCloseApi(APIView):
    permission_classes = SUPERVISE_OR_READ

    class InputSerializer(serializers.Serializer):
        detail = serializers.CharField(required=False, allow_blank=True, default="")

        class Meta:
            ref_name = "GameCloseInput"

    @extend_schema(request=InputSerializer, **write_schema(200, GameSerializer))
    @idempotent
    def post(self, request, table_id: int):
        serializer = self.InputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        game = floor.close_game(table_id=table_id, by=request.user, **serializer.validated_data)
        game = game_get(game_id=game.pk)
        return Response(GameSerializer(game).data)


class GameListApi(APIView):
    permission_classes = READ

    @extend_schema(
        operation_id="games_list",
        parameters=list_parameters(GameFilter),
        responses={200: paginated(GameSerializer), **READ_ERRORS},
    )
    def get(self, request):
        return paginated_response(
            queryset=game_list(filters=request.query_params),
            serializer_class=GameSerializer,
            request=request,
            view=self,
        )
