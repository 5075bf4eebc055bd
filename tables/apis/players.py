"""Players: the cardroom's patrons, some of them registered TPPP players."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.response import Response
from rest_framework.views import APIView

from cardroom.api import (
    READ,
    READ_ERRORS,
    SUPERVISE_OR_READ,
    idempotent,
    list_parameters,
    paginated,
    paginated_response,
    write_schema,
)
from tables import selectors
from tables.filters import PlayerFilter
from tables.serializers import PlayerSerializer
from tables.services import floor


class PlayerListApi(APIView):
    permission_classes = SUPERVISE_OR_READ

    class InputSerializer(serializers.Serializer):
        class TPPPInputSerializer(serializers.Serializer):
            business_name = serializers.CharField(max_length=200)
            badge_number = serializers.CharField(max_length=64)
            badge_expires_on = serializers.DateField()

            class Meta:
                ref_name = "TPPPRegistrationInput"

        player_number = serializers.CharField(max_length=32)
        name = serializers.CharField(max_length=200)
        tppp = TPPPInputSerializer(
            required=False, allow_null=True, help_text="a TPPP player's registration"
        )

        class Meta:
            ref_name = "PlayerCreateInput"

    @extend_schema(
        operation_id="players_list",
        parameters=list_parameters(PlayerFilter),
        responses={200: paginated(PlayerSerializer), **READ_ERRORS},
    )
    def get(self, request):
        players = selectors.player_list(filters=request.query_params)
        return paginated_response(
            queryset=players, serializer_class=PlayerSerializer, request=request, view=self
        )

    @extend_schema(
        operation_id="players_create",
        request=InputSerializer,
        **write_schema(201, PlayerSerializer),
    )
    @idempotent
    def post(self, request):
        serializer = self.InputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        player = floor.create_player(**serializer.validated_data)
        player = selectors.player_get(player_id=player.pk)
        return Response(PlayerSerializer(player).data, status=status.HTTP_201_CREATED)


class PlayerDetailApi(APIView):
    permission_classes = READ

    @extend_schema(responses={200: PlayerSerializer, **READ_ERRORS})
    def get(self, request, player_id: int):
        player = selectors.player_get(player_id=player_id)
        return Response(PlayerSerializer(player).data)
