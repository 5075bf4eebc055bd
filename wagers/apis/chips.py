"""Chips at a table: a patron's buy-ins and cash-outs, a TPPP bankroll's fills and credits."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.response import Response
from rest_framework.views import APIView

from cardroom.api import idempotent
from tables.apis.common import RUN_TABLE_OR_READ, write_schema
from tables.models import Player
from wagers import selectors
from wagers.services import chips

from .serializers import LedgerTransactionSerializer


def _player() -> serializers.PrimaryKeyRelatedField:
    return serializers.PrimaryKeyRelatedField(
        queryset=Player.objects.all(), help_text="the player's id"
    )


def _currency() -> serializers.BooleanField:
    return serializers.BooleanField(
        help_text="whether currency changed hands (Title 31 records, RULEBOOK §8)"
    )


def _answer(posted) -> Response:
    posted = selectors.transaction_get(transaction_id=posted.pk)
    return Response(LedgerTransactionSerializer(posted).data, status=status.HTTP_201_CREATED)


class ChipsBuyInApi(APIView):
    permission_classes = RUN_TABLE_OR_READ

    class InputSerializer(serializers.Serializer):
        player = _player()
        amount = serializers.IntegerField(help_text="cents, in the table's chips")
        currency = _currency()

        class Meta:
            ref_name = "BuyInInput"

    @extend_schema(
        request=InputSerializer,
        description="Chips for a patron at the table; a TPPP's chips come by a fill (400).",
        **write_schema(201, LedgerTransactionSerializer),
    )
    @idempotent
    def post(self, request, table_id: int):
        serializer = self.InputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        posted = chips.buy_in(
            table_id=table_id,
            player_id=data["player"].pk,
            amount=data["amount"],
            currency=data["currency"],
            by=request.user,
        )
        return _answer(posted)


class ChipsCashOutApi(APIView):
    permission_classes = RUN_TABLE_OR_READ

    class InputSerializer(serializers.Serializer):
        player = _player()
        amount = serializers.IntegerField(
            required=False,
            allow_null=True,
            default=None,
            help_text="cents; omitted or null: all the patron's chips (the session's account "
            "closes when it is emptied)",
        )
        currency = _currency()

        class Meta:
            ref_name = "CashOutInput"

    @extend_schema(
        request=InputSerializer,
        description="A patron's chips back to the cage; at most the chips at the table (400).",
        **write_schema(201, LedgerTransactionSerializer),
    )
    @idempotent
    def post(self, request, table_id: int):
        serializer = self.InputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        posted = chips.cash_out(
            table_id=table_id,
            player_id=data["player"].pk,
            amount=data["amount"],
            currency=data["currency"],
            by=request.user,
        )
        return _answer(posted)


class ChipsFillApi(APIView):
    permission_classes = RUN_TABLE_OR_READ

    class InputSerializer(serializers.Serializer):
        player = _player()
        amount = serializers.IntegerField(help_text="cents, in the table's chips")

        class Meta:
            ref_name = "FillInput"

    @extend_schema(
        request=InputSerializer,
        description="Chips brought to the table for a TPPP player's bankroll; a patron buys in.",
        **write_schema(201, LedgerTransactionSerializer),
    )
    @idempotent
    def post(self, request, table_id: int):
        serializer = self.InputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        posted = chips.fill(
            table_id=table_id, player_id=data["player"].pk, amount=data["amount"], by=request.user
        )
        return _answer(posted)


class ChipsCreditApi(APIView):
    permission_classes = RUN_TABLE_OR_READ

    class InputSerializer(serializers.Serializer):
        player = _player()
        amount = serializers.IntegerField(
            required=False,
            allow_null=True,
            default=None,
            help_text="cents; omitted or null: the whole bankroll at the table",
        )

        class Meta:
            ref_name = "CreditInput"

    @extend_schema(
        request=InputSerializer,
        description="Chips from a TPPP player's bankroll back to the cage.",
        **write_schema(201, LedgerTransactionSerializer),
    )
    @idempotent
    def post(self, request, table_id: int):
        serializer = self.InputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        posted = chips.credit(
            table_id=table_id, player_id=data["player"].pk, amount=data["amount"], by=request.user
        )
        return _answer(posted)
