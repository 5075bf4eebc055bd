"""Money placed in a round: the player-dealer's bank and the players' wagers (the money
services), each answering the round in full."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.response import Response
from rest_framework.views import APIView

from cardroom.api import RUN_TABLE_OR_READ, cents, count, idempotent, primary_key, write_schema
from rounds import selectors
from tables.models import Player
from wagers.services import wagering

from .serializers import RoundDetailSerializer


def _round_detail(round_id: int, code: int = status.HTTP_201_CREATED) -> Response:
    round_ = selectors.round_detail(round_id=round_id)
    return Response(RoundDetailSerializer(round_).data, status=code)


class RoundBankApi(APIView):
    permission_classes = RUN_TABLE_OR_READ

    class InputSerializer(serializers.Serializer):
        amount = cents(
            help_text="the bank W in cents: above zero, in the table's chips, at most the "
            "player-dealer's chips at the table"
        )

        class Meta:
            ref_name = "BankPostInput"

    @extend_schema(
        request=InputSerializer,
        description=(
            "The player-dealer posts the bank W from their chips (docs/rules.md §7.1), once, "
            'before "no more bets". 409 if it is already posted or wagering is closed.'
        ),
        **write_schema(201, RoundDetailSerializer),
    )
    @idempotent
    def post(self, request, round_id: int):
        serializer = self.InputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        wagering.post_bank(round_id=round_id, by=request.user, **serializer.validated_data)
        return _round_detail(round_id)


class RoundWagerApi(APIView):
    permission_classes = RUN_TABLE_OR_READ

    class InputSerializer(serializers.Serializer):
        seat = count(help_text="the seat wagered on, 1 to 6")
        ante = cents(help_text="cents")
        blind = cents(help_text="cents, equal to the Ante")
        trips = cents(default=0, help_text="cents; 0 for none")
        bad_beat = cents(default=0, help_text="cents; 0 for none; only with Ante and Blind")
        backline_player = primary_key(
            Player.objects.all(),
            required=False,
            allow_null=True,
            default=None,
            help_text="a backline bettor's player id; omitted for the seated player's own wagers",
        )

        class Meta:
            ref_name = "WagerInput"

    @extend_schema(
        request=InputSerializer,
        description=(
            "A bettor's opening wagers on a seat (docs/rules.md §4): the seated player's own, "
            "which makes the seat's hand, or a backline bettor's behind it. The chips move from "
            "the bettor's chips into play. Nothing is increased or withdrawn afterwards (409)."
        ),
        **write_schema(201, RoundDetailSerializer),
    )
    @idempotent
    def post(self, request, round_id: int):
        serializer = self.InputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = dict(serializer.validated_data)
        backline = data.pop("backline_player")
        wagering.place_bet(
            round_id=round_id,
            by=request.user,
            backline_player_id=backline.pk if backline else None,
            **data,
        )
        return _round_detail(round_id)
