"""The player-dealer button: offers clockwise, answers, keeping it (docs/rules.md §8)."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.response import Response
from rest_framework.views import APIView

from cardroom.api import (
    READ,
    READ_ERRORS,
    RUN_TABLE_OR_READ,
    idempotent,
    list_parameters,
    paginated,
    paginated_response,
    refused_response,
    write_schema,
)
from cardroom.errors import Refused
from tables import selectors
from tables.filters import OfferRoundFilter
from tables.services import button

from .serializers import ButtonOfferSerializer, OfferRoundSerializer


class ButtonOfferApi(APIView):
    permission_classes = RUN_TABLE_OR_READ

    @extend_schema(
        request=None,
        description=(
            "Offer the position to the next eligible seat clockwise (seats the rules pass "
            "over are recorded with the reason). 409 `no_player_dealer` when no one is left."
        ),
        **write_schema(201, ButtonOfferSerializer),
    )
    @idempotent
    def post(self, request, table_id: int):
        offer = button.offer_button(table_id=table_id, by=request.user)
        if isinstance(offer, Refused):
            return refused_response(offer)
        offer = selectors.button_offer_get(offer_id=offer.pk)
        return Response(ButtonOfferSerializer(offer).data, status=status.HTTP_201_CREATED)


class ButtonAnswerApi(APIView):
    permission_classes = RUN_TABLE_OR_READ

    class InputSerializer(serializers.Serializer):
        accept = serializers.BooleanField(help_text="true: accepts the position; false: declines")

        class Meta:
            ref_name = "ButtonAnswerInput"

    @extend_schema(request=InputSerializer, **write_schema(200, ButtonOfferSerializer))
    @idempotent
    def post(self, request, table_id: int, offer_id: int):
        serializer = self.InputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        offer = button.answer_offer(
            table_id=table_id, offer_id=offer_id, by=request.user, **serializer.validated_data
        )
        offer = selectors.button_offer_get(offer_id=offer.pk)
        return Response(ButtonOfferSerializer(offer).data)


class ButtonKeepApi(APIView):
    permission_classes = RUN_TABLE_OR_READ

    @extend_schema(
        request=None,
        description=(
            'With "offer every hand" off, the last player-dealer keeps the position for a '
            "second consecutive hand without an offer round."
        ),
        **write_schema(201, ButtonOfferSerializer),
    )
    @idempotent
    def post(self, request, table_id: int):
        offer = button.keep_button(table_id=table_id, by=request.user)
        offer = selectors.button_offer_get(offer_id=offer.pk)
        return Response(ButtonOfferSerializer(offer).data, status=status.HTTP_201_CREATED)


class OfferRoundListApi(APIView):
    permission_classes = READ

    @extend_schema(
        operation_id="offer_rounds_list",
        parameters=list_parameters(OfferRoundFilter),
        responses={200: paginated(OfferRoundSerializer), **READ_ERRORS},
    )
    def get(self, request):
        return paginated_response(
            queryset=selectors.offer_round_list(filters=request.query_params),
            serializer_class=OfferRoundSerializer,
            request=request,
            view=self,
        )
