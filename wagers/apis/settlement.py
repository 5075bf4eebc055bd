"""A settled round's settlement, line by line in the settlement order."""

from __future__ import annotations

from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework.response import Response
from rest_framework.views import APIView

from cardroom.api import READ, READ_ERRORS, StateErrorSerializer
from wagers import selectors

from .serializers import RoundSettlementSerializer


class RoundSettlementApi(APIView):
    permission_classes = READ

    @extend_schema(
        description=(
            "Every wager's settlement in the order of docs/rules.md §7.2 (fold pass, then "
            "showdown, clockwise from the player-dealer's left), with the bank; 409 until settled."
        ),
        responses={
            200: RoundSettlementSerializer,
            **READ_ERRORS,
            409: OpenApiResponse(
                StateErrorSerializer, description="the round is not settled; its state is named"
            ),
        },
    )
    def get(self, request, round_id: int):
        settlement = selectors.round_settlement(round_id)
        return Response(RoundSettlementSerializer(settlement).data)
