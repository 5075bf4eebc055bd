"""Players: the cardroom's patrons, some of them registered TPPP players, and their
identification (docs/rules.md §3.3: the number is taken in full and shown only masked)."""

from __future__ import annotations

from django.db import transaction
from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.response import Response
from rest_framework.views import APIView

from cardroom.api import (
    READ_ERRORS,
    SUPERVISE_OR_READ,
    idempotent,
    list_parameters,
    paginated,
    paginated_response,
    write_schema,
)
from cardroom.errors import RuleError
from tables.filters import PlayerFilter
from tables.models import IdType
from tables.selectors.players import player_get, player_list
from tables.serializers import PlayerSerializer
from tables.services import floor


class IdentificationInputSerializer(serializers.Serializer):
    """A player's identification (docs/rules.md §3.3): a type and a number together, or
    neither; the number is never shown again in full."""

    id_type = serializers.ChoiceField(
        choices=IdType.choices, required=False, allow_blank=True, help_text="empty: none"
    )
    id_number = serializers.CharField(max_length=64, required=False, allow_blank=True)
    id_issued_by = serializers.CharField(
        max_length=64,
        required=False,
        allow_blank=True,
        help_text="the state or country that issued the ID",
    )
    date_of_birth = serializers.DateField(
        required=False, allow_null=True, help_text="the player is at least 21"
    )

    class Meta:
        ref_name = "PlayerIdentificationInput"


class TPPPRegistrationChangeInputSerializer(serializers.Serializer):
    """A TPPP's registration renewed or corrected (docs/rules.md §8.7): the fields sent
    replace the recorded ones; an empty one is refused by the rule ``tppp.registered``."""

    business_name = serializers.CharField(max_length=200, required=False, allow_blank=True)
    badge_number = serializers.CharField(max_length=64, required=False, allow_blank=True)
    badge_expires_on = serializers.DateField(
        required=False, help_text="a renewed badge's new expiry; valid through this date"
    )

    class Meta:
        ref_name = "TPPPRegistrationChangeInput"


class PlayerCorrectionInputSerializer(IdentificationInputSerializer):
    """A correction: the player's name and number as well as the identification, and a
    TPPP's registration."""

    name = serializers.CharField(max_length=200, required=False)
    player_number = serializers.CharField(max_length=32, required=False)
    tppp = TPPPRegistrationChangeInputSerializer(
        required=False,
        help_text="a TPPP player's registration renewed or corrected (only a TPPP player's)",
    )

    class Meta:
        ref_name = "PlayerCorrectionInput"


class PlayerListApi(APIView):
    permission_classes = SUPERVISE_OR_READ

    class InputSerializer(IdentificationInputSerializer):
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
        players = player_list(filters=request.query_params)
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
        player = player_get(player_id=player.pk)
        return Response(PlayerSerializer(player).data, status=status.HTTP_201_CREATED)


class PlayerDetailApi(APIView):
    permission_classes = SUPERVISE_OR_READ

    @extend_schema(responses={200: PlayerSerializer, **READ_ERRORS})
    def get(self, request, player_id: int):
        player = player_get(player_id=player_id)
        return Response(PlayerSerializer(player).data)

    @extend_schema(
        operation_id="players_identification_update",
        request=PlayerCorrectionInputSerializer,
        description="Correct the player's name or number, or record or correct their "
        "identification: the fields sent replace the recorded ones (a type and a number "
        "together; both empty clear them). A TPPP player's registration is renewed or "
        "corrected with `tppp` (any of `business_name`, `badge_number`, `badge_expires_on`; "
        "docs/rules.md §8.7): a patron has none to change. All that is sent is recorded, or "
        "nothing is; every correction is kept with what it replaced.",
        **write_schema(200, PlayerSerializer),
    )
    @idempotent
    def patch(self, request, player_id: int):
        serializer = PlayerCorrectionInputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        changes = dict(serializer.validated_data)
        registration = changes.pop("tppp", None)
        with transaction.atomic():
            if changes or registration is None:
                floor.update_player_identification(
                    player_id=player_id, by=request.user, changes=changes
                )
            if registration is not None:
                try:
                    floor.update_tppp_registration(
                        player_id=player_id, by=request.user, changes=registration
                    )
                except RuleError as error:
                    raise error.with_field("tppp") from None
        return Response(PlayerSerializer(player_get(player_id=player_id)).data)
