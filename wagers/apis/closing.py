"""Closing a table at the end of play, and reopening it (``wagers.services.closing``).

``POST /api/tables/{table_id}/close/``: between hands, the open game ends, every seated
player leaves with their chips cashed out (in currency only for the seats named in
``currency_seats``), anyone else with chips at the table is cashed out too, and the table
is closed: it seats no one and opens no game (409 ``table_closed``) until
``POST .../reopen/``. Here, not in the floor's API, because closing moves chips.
"""

from __future__ import annotations

from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.response import Response
from rest_framework.views import APIView

from cardroom.api import (
    SUPERVISE_OR_READ,
    Timestamp,
    count,
    idempotent,
    identifier,
    username_field,
    write_schema,
)
from tables.services import floor
from wagers import selectors
from wagers.services import closing, leaving

from .seats import LeftSerializer, left_data
from .serializers import LedgerTransactionSerializer


class TableStatusSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()
    is_closed = serializers.SerializerMethodField()
    closed_at = Timestamp(allow_null=True, help_text="null: the table is open")
    closed_by = username_field("closed_by")

    def get_is_closed(self, table) -> bool:
        return table.closed_at is not None


class ClosedSerializer(serializers.Serializer):
    table = TableStatusSerializer()
    ended_game = serializers.IntegerField(
        source="game.id", allow_null=True, default=None, help_text="the game ended; null: none"
    )
    left = LeftSerializer(many=True, help_text="each seat left, its chips cashed out")
    cashed_out = LedgerTransactionSerializer(
        many=True, help_text="the chips of players not seated (backline bettors), cashed out"
    )
    chips = serializers.IntegerField(help_text="cents in chips cashed out in all")
    message = serializers.CharField(help_text="what happened, in the floor's words")


class TableCloseApi(APIView):
    permission_classes = SUPERVISE_OR_READ

    class InputSerializer(serializers.Serializer):
        currency_seats = serializers.ListField(
            child=count(),
            required=False,
            default=list,
            help_text="the seats whose cash-out is paid in currency (Title 31, docs/rules.md "
            "§10.7); every other seat's is not",
        )
        currency_players = serializers.ListField(
            child=identifier(),
            required=False,
            default=list,
            help_text="players not seated who hold chips at the table (backline bettors) "
            "whose cash-out is paid in currency",
        )

        class Meta:
            ref_name = "TableCloseInput"

    @extend_schema(
        request=InputSerializer,
        description="Close the table between hands (docs/rules.md §3.7): the open game ends, "
        "every seated player leaves with their chips cashed out, anyone else with chips at "
        "the table is cashed out, and the table is closed until it is reopened. Refused "
        "while a round is in play (409, the round's state) or when already closed (409 "
        "`table_closed`); nothing changes.",
        **write_schema(200, ClosedSerializer),
    )
    @idempotent
    def post(self, request, table_id: int):
        serializer = self.InputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        closed = closing.close_table(
            table_id=table_id,
            by=request.user,
            currency_seats=data["currency_seats"],
            currency_players=data["currency_players"],
        )
        return Response(
            ClosedSerializer(
                {
                    "table": closed.table,
                    "game": closed.game,
                    "left": [left_data(left, leaving.Chips.CASH_OUT) for left in closed.left],
                    "cashed_out": [
                        selectors.transaction_get(transaction_id=t.pk) for t in closed.cashed_out
                    ],
                    "chips": closed.chips_cents,
                    "message": closed.message,
                }
            ).data
        )


class TableReopenApi(APIView):
    permission_classes = SUPERVISE_OR_READ

    @extend_schema(
        request=None,
        description="Reopen a closed table: it seats players and opens games again. An open "
        "table is refused (409 `table_open`).",
        **write_schema(200, TableStatusSerializer),
    )
    @idempotent
    def post(self, request, table_id: int):
        table = floor.reopen_table(table_id=table_id, by=request.user)
        return Response(TableStatusSerializer(table).data)
