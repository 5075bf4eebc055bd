"""The player-dealer button: offers clockwise, answers, keeping it (docs/rules.md §8).

Each write answers the offer in full, or under ``Prefer: return=minimal`` only its id, offer
round, seat and answer, as the service returned it (no read back).
"""

from __future__ import annotations

from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.views import APIView

from cardroom.api import (
    READ,
    READ_ERRORS,
    RUN_TABLE_OR_READ,
    MinimalSerializer,
    idempotent,
    list_parameters,
    paginated,
    paginated_response,
    refused_response,
    write_answer,
    write_schema,
)
from cardroom.errors import Refused
from tables.filters import OfferRoundFilter
from tables.models import ButtonOffer, OfferAnswer
from tables.selectors.button import button_offer_get, offer_round_list
from tables.services import button

from .serializers import ButtonOfferSerializer, OfferRoundSerializer


class ButtonOfferMinimalSerializer(MinimalSerializer):
    """A button write's answer under ``Prefer: return=minimal``: the offer, its offer round,
    the seat asked and its answer."""

    id = serializers.IntegerField()
    offer_round = serializers.IntegerField()
    seat = serializers.IntegerField()
    answer = serializers.ChoiceField(choices=OfferAnswer.choices)


def _schema(status_code: int, **extra) -> dict:
    return write_schema(
        status_code, ButtonOfferSerializer, minimal=ButtonOfferMinimalSerializer, **extra
    )


def _answer(request, offer: ButtonOffer, code: int = status.HTTP_200_OK):
    """The offer in full (read back), or minimal from the row the service returned."""
    return write_answer(
        request,
        minimal={
            "id": offer.pk,
            "offer_round": offer.offer_round_id,
            "seat": offer.seat,
            "answer": str(offer.answer),
        },
        full=lambda: ButtonOfferSerializer(button_offer_get(offer_id=offer.pk)).data,
        status_code=code,
    )


class ButtonOfferApi(APIView):
    permission_classes = RUN_TABLE_OR_READ

    @extend_schema(
        request=None,
        description=(
            "Offer the position to the next eligible seat clockwise (seats the rules pass "
            "over are recorded with the reason). 409 `no_player_dealer` when no one is left."
        ),
        **_schema(status.HTTP_201_CREATED),
    )
    @idempotent
    def post(self, request, table_id: int):
        offer = button.offer_button(table_id=table_id, by=request.user)
        if isinstance(offer, Refused):
            return refused_response(offer)
        return _answer(request, offer, status.HTTP_201_CREATED)


class ButtonAnswerApi(APIView):
    permission_classes = RUN_TABLE_OR_READ

    class InputSerializer(serializers.Serializer):
        accept = serializers.BooleanField(help_text="true: accepts the position; false: declines")

        class Meta:
            ref_name = "ButtonAnswerInput"

    @extend_schema(request=InputSerializer, **_schema(status.HTTP_200_OK))
    @idempotent
    def post(self, request, table_id: int, offer_id: int):
        serializer = self.InputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        offer = button.answer_offer(
            table_id=table_id, offer_id=offer_id, by=request.user, **serializer.validated_data
        )
        return _answer(request, offer)


class ButtonKeepApi(APIView):
    permission_classes = RUN_TABLE_OR_READ

    @extend_schema(
        request=None,
        description=(
            'With "offer every hand" off, the last player-dealer keeps the position for a '
            "second consecutive hand without an offer round."
        ),
        **_schema(status.HTTP_201_CREATED),
    )
    @idempotent
    def post(self, request, table_id: int):
        offer = button.keep_button(table_id=table_id, by=request.user)
        return _answer(request, offer, status.HTTP_201_CREATED)


class OfferRoundListApi(APIView):
    permission_classes = READ

    @extend_schema(
        operation_id="offer_rounds_list",
        parameters=list_parameters(OfferRoundFilter),
        responses={200: paginated(OfferRoundSerializer), **READ_ERRORS},
    )
    def get(self, request):
        return paginated_response(
            queryset=offer_round_list(filters=request.query_params),
            serializer_class=OfferRoundSerializer,
            request=request,
            view=self,
        )
