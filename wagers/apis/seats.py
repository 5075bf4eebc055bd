"""Leaving a seat with the chips settled in the same step (``wagers.services.leaving``).

``DELETE /api/tables/{table_id}/seats/{seat}/`` for a player with no chips at the table;
``POST .../seats/{seat}/leave/`` for any player: the chips cashed out or carried to the
player's next seat at another table. A player with chips is never simply unseated (400,
``chips.in_front``, naming ``chips``).
"""

from __future__ import annotations

from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.response import Response
from rest_framework.views import APIView

from cardroom.api import RUN_TABLE_OR_READ, count, idempotent, identifier, write_schema
from tables.selectors.floor import seating_get
from tables.serializers import SeatingSerializer
from wagers import selectors
from wagers.services import leaving

from .serializers import LedgerTransactionSerializer


class LeftSerializer(serializers.Serializer):
    seating = SeatingSerializer(help_text="the seat left")
    chips = serializers.IntegerField(help_text="cents in chips the player had at the table")
    chips_went = serializers.CharField(
        allow_null=True, help_text="`cash_out` or `carry`; null with no chips"
    )
    transactions = LedgerTransactionSerializer(
        many=True, help_text="the cash-out (or credit), or the carry's two transactions"
    )
    next_seating = SeatingSerializer(allow_null=True, help_text="the seat taken next (a carry)")
    message = serializers.CharField(help_text="what happened, in the floor's words")


def left_data(left: leaving.Left, chips_went: str | None) -> dict:
    """A seat left, read back for ``LeftSerializer`` (also the closing of a table's)."""
    return {
        "seating": seating_get(seating_id=left.seating.pk),
        "chips": left.chips_cents,
        "chips_went": chips_went if left.chips_cents else None,
        "transactions": [selectors.transaction_get(transaction_id=t.pk) for t in left.settled],
        "next_seating": (
            seating_get(seating_id=left.next_seating.pk) if left.next_seating else None
        ),
        "message": left.message,
    }


def _answer(left: leaving.Left, chips_went: str | None) -> Response:
    return Response(LeftSerializer(left_data(left, chips_went)).data)


class SeatDeleteApi(APIView):
    permission_classes = RUN_TABLE_OR_READ

    @extend_schema(
        operation_id="tables_seats_destroy",
        request=None,
        description="The player leaves the seat. A player with chips at the table is refused "
        "(400, `chips.in_front`): use `leave/` to cash them out or carry them.",
        **write_schema(200, LeftSerializer),
    )
    @idempotent
    def delete(self, request, table_id: int, seat: int):
        left = leaving.leave_seat(table_id=table_id, seat=seat, by=request.user)
        return _answer(left, None)


class SeatLeaveApi(APIView):
    permission_classes = RUN_TABLE_OR_READ

    class InputSerializer(serializers.Serializer):
        chips = serializers.ChoiceField(
            choices=[(c.value, c.label) for c in leaving.Chips],
            required=False,
            allow_null=True,
            default=None,
            help_text="`cash_out` or `carry`; needed when the player has chips at the table",
        )
        currency = serializers.BooleanField(
            required=False,
            default=False,
            help_text="a cash-out paid in currency (Title 31 records, docs/rules.md §10.7)",
        )
        to_table = identifier(
            required=False, allow_null=True, default=None, help_text="a carry: the next table"
        )
        to_seat = count(
            required=False, allow_null=True, default=None, help_text="a carry: the next seat"
        )

        class Meta:
            ref_name = "LeaveSeatInput"

    @extend_schema(
        request=InputSerializer,
        description="The player leaves the seat, their chips cashed out or carried to their "
        "next seat at another table in the same step (docs/rules.md §4.6).",
        **write_schema(200, LeftSerializer),
    )
    @idempotent
    def post(self, request, table_id: int, seat: int):
        serializer = self.InputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        left = leaving.leave_seat(
            table_id=table_id,
            seat=seat,
            by=request.user,
            chips=data["chips"],
            currency=data["currency"],
            to_table_id=data["to_table"],
            to_seat=data["to_seat"],
        )
        return _answer(left, data["chips"])
