"""Chips at a table: a patron's buy-ins and cash-outs, a TPPP bankroll's fills and credits."""

from __future__ import annotations

from collections.abc import Callable

from drf_spectacular.utils import extend_schema, extend_schema_view
from rest_framework import serializers, status
from rest_framework.response import Response
from rest_framework.views import APIView

from cardroom.api import RUN_TABLE_OR_READ, cents, idempotent, primary_key, write_schema
from tables.models import Player
from wagers import selectors
from wagers.models import LedgerTransaction
from wagers.services import chips

from .serializers import LedgerTransactionSerializer


def _player() -> serializers.PrimaryKeyRelatedField:
    return primary_key(Player.objects.all(), help_text="the player's id")


def _currency() -> serializers.BooleanField:
    return serializers.BooleanField(
        help_text="whether currency changed hands (Title 31 records, docs/rules.md §10.7)"
    )


def _amount(*, all_of: str | None = None) -> serializers.IntegerField:
    if all_of is None:
        return cents(help_text="cents, in the table's chips")
    return cents(
        required=False,
        allow_null=True,
        default=None,
        help_text=f"cents; omitted or null: {all_of} (the session's account closes when emptied)",
    )


def _description() -> serializers.CharField:
    return serializers.CharField(
        required=False,
        allow_blank=True,
        max_length=200,
        default="",
        help_text="a patron without ID as the Multiple Transaction Log describes them",
    )


class BuyInInput(serializers.Serializer):
    player = _player()
    amount = _amount()
    currency = _currency()
    description = _description()


class CashOutInput(serializers.Serializer):
    player = _player()
    amount = _amount(all_of="all the patron's chips")
    currency = _currency()
    description = _description()


class FillInput(serializers.Serializer):
    player = _player()
    amount = _amount()


class CreditInput(serializers.Serializer):
    player = _player()
    amount = _amount(all_of="the whole bankroll at the table")


class _ChipsApi(APIView):
    """One chip movement at a table: parse, call the chips service, answer the transaction."""

    permission_classes = RUN_TABLE_OR_READ
    input_serializer: type[serializers.Serializer]
    service: Callable[..., LedgerTransaction]

    @idempotent
    def post(self, request, table_id: int):
        serializer = self.input_serializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = dict(serializer.validated_data)
        posted = type(self).service(
            table_id=table_id, player_id=data.pop("player").pk, by=request.user, **data
        )
        posted = selectors.transaction_get(transaction_id=posted.pk)
        return Response(LedgerTransactionSerializer(posted).data, status=status.HTTP_201_CREATED)


def _endpoint(input_serializer, service, description: str) -> type[_ChipsApi]:
    """A chips endpoint with its own POST schema (a new view class, nothing shared)."""
    view = type(
        f"Chips{input_serializer.__name__.removesuffix('Input')}Api",
        (_ChipsApi,),
        {"input_serializer": input_serializer, "service": staticmethod(service)},
    )
    return extend_schema_view(
        post=extend_schema(
            request=input_serializer,
            description=description,
            **write_schema(201, LedgerTransactionSerializer),
        )
    )(view)


ChipsBuyInApi = _endpoint(
    BuyInInput,
    chips.buy_in,
    "Chips for a patron at the table; a TPPP's chips come by a fill (400). A currency "
    "buy-in that would take the patron's cash in for the gaming day over $10,000 is refused "
    "(400 `title31.identification`, nothing recorded) until the patron's identification is "
    "recorded; a barred or self-restricted patron is refused (400 `floor.excluded`).",
)
ChipsCashOutApi = _endpoint(
    CashOutInput,
    chips.cash_out,
    "A patron's chips back to the cage: at most the chips at the table (400), never while "
    "they are in play (409). A currency cash-out over $10,000 in the gaming day needs the "
    "patron's identification recorded (400 `title31.identification`).",
)
ChipsFillApi = _endpoint(
    FillInput,
    chips.fill,
    "Chips brought to the table for a TPPP player's bankroll; a patron buys in (400).",
)
ChipsCreditApi = _endpoint(
    CreditInput,
    chips.credit,
    "Chips from a TPPP player's bankroll back to the cage.",
)
