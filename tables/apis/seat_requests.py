"""Must-move tables and table changes (docs/rules.md §3.6): floor supervisors run them, house
dealers and compliance read them. ``seat-offers/`` says, for every open seat, who is offered
it before the list; the move itself is the player leaving their seat with their chips carried
there (``POST /api/tables/{id}/seats/{seat}/leave/``, chips ``carry``)."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.response import Response
from rest_framework.views import APIView

from cardroom.api import READ_ERRORS, SUPERVISE_OR_READ, idempotent, write_schema
from tables.models import MustMove, SeatPass
from tables.rules.seat_requests import End, Line
from tables.selectors import moves
from tables.services import seat_requests

ID = {"min_value": 1, "max_value": 2**63 - 1}


class MoverSerializer(serializers.Serializer):
    """A seated player in a line, in the order they are offered a seat."""

    player = serializers.IntegerField()
    name = serializers.CharField()
    line = serializers.ChoiceField(choices=[line.value for line in Line])
    since = serializers.DateTimeField(help_text="sat at the must-move table, or asked")
    from_table = serializers.IntegerField()
    from_table_name = serializers.CharField()
    from_seat = serializers.IntegerField()


def _mover(requests: moves.SeatRequests, player_id: int, line: Line, since) -> dict:
    seating = requests.seatings[player_id]
    return {
        "player": player_id,
        "name": seating.player.name,
        "line": line.value,
        "since": since,
        "from_table": seating.table_id,
        "from_table_name": seating.table.name,
        "from_seat": seating.seat,
    }


class MustMoveSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    table = serializers.IntegerField(source="table_id")
    table_name = serializers.CharField(source="table.name")
    main_table = serializers.IntegerField(source="main_table_id")
    main_table_name = serializers.CharField(source="main_table.name")
    started_at = serializers.DateTimeField()
    ended_at = serializers.DateTimeField(allow_null=True)
    end = serializers.CharField(help_text="empty while in force; " + ", ".join(End))


class MustMoveLineSerializer(MustMoveSerializer):
    players = MoverSerializer(many=True, help_text="in the order they move")


class TableChangeSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    player = serializers.IntegerField(source="player_id")
    name = serializers.CharField(source="player.name")
    from_table = serializers.IntegerField(source="from_table_id")
    to_table = serializers.IntegerField(
        source="to_table_id", allow_null=True, help_text="empty: any table of the stakes"
    )
    minimum_cents = serializers.IntegerField()
    maximum_cents = serializers.IntegerField()
    asked_at = serializers.DateTimeField()
    ended_at = serializers.DateTimeField(allow_null=True)
    end = serializers.CharField(help_text="empty while open; " + ", ".join(End))
    moved_to_table = serializers.IntegerField(source="moved_to.table_id", allow_null=True)
    moved_to_seat = serializers.IntegerField(source="moved_to.seat", allow_null=True)


class SeatOfferSerializer(serializers.Serializer):
    table = serializers.IntegerField()
    table_name = serializers.CharField()
    seat = serializers.IntegerField()
    offered = MoverSerializer(many=True, help_text="first offered first")


class SeatPassSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    table = serializers.IntegerField(source="table_id")
    seat = serializers.IntegerField()
    player = serializers.IntegerField(source="player_id")
    at = serializers.DateTimeField()


def _link_data(link: MustMove, requests: moves.SeatRequests) -> dict:
    players = requests.must_move_players.get(link.table_id, ())
    return {
        **MustMoveSerializer(link).data,
        "players": [_mover(requests, s.player_id, Line.MUST_MOVE, s.sat_at) for s in players],
    }


class MustMoveListApi(APIView):
    permission_classes = SUPERVISE_OR_READ

    class InputSerializer(serializers.Serializer):
        table = serializers.IntegerField(help_text="the must-move table", **ID)
        main_table = serializers.IntegerField(help_text="the main game it feeds", **ID)

        class Meta:
            ref_name = "MustMoveInput"

    @extend_schema(
        operation_id="must_moves_list",
        description="The must-move tables in force, each with its players in the order they "
        "move to the main game (first seated at the must-move table, first moved).",
        responses={200: MustMoveLineSerializer(many=True), **READ_ERRORS},
    )
    def get(self, request):
        requests = moves.seat_requests()
        return Response([_link_data(link, requests) for link in requests.must_moves])

    @extend_schema(
        operation_id="must_moves_start",
        request=InputSerializer,
        description="Make a table a must-move table feeding a main game of the same stakes.",
        **write_schema(201, MustMoveLineSerializer),
    )
    @idempotent
    def post(self, request):
        serializer = self.InputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        link = seat_requests.start_must_move(
            table_id=data["table"], main_table_id=data["main_table"], by=request.user
        )
        return Response(_link_data(link, moves.seat_requests()), status=status.HTTP_201_CREATED)


class MustMoveEndApi(APIView):
    permission_classes = SUPERVISE_OR_READ

    @extend_schema(
        operation_id="must_moves_end",
        request=None,
        description="The must-move table stops feeding its main game.",
        **write_schema(200, MustMoveSerializer),
    )
    @idempotent
    def post(self, request, must_move_id: int):
        link = seat_requests.end_must_move(must_move_id=must_move_id, by=request.user)
        return Response(MustMoveSerializer(link).data)


class TableChangeListApi(APIView):
    permission_classes = SUPERVISE_OR_READ

    class InputSerializer(serializers.Serializer):
        player = serializers.IntegerField(help_text="a seated player", **ID)
        to_table = serializers.IntegerField(
            required=False,
            allow_null=True,
            help_text="a named table of the stakes the player plays; empty: any of them",
            **ID,
        )

        class Meta:
            ref_name = "TableChangeInput"

    @extend_schema(
        operation_id="table_changes_list",
        description="The open table changes, first asked first.",
        responses={200: TableChangeSerializer(many=True), **READ_ERRORS},
    )
    def get(self, request):
        changes = moves.table_change_list().order_by("asked_at", "id")
        return Response(TableChangeSerializer(changes, many=True).data)

    @extend_schema(
        operation_id="table_changes_ask",
        request=InputSerializer,
        description="A seated player asks to move to another table of the stakes they play "
        "(a named one, or any); offered an open seat there after the must-move line and "
        "before the list.",
        **write_schema(201, TableChangeSerializer),
    )
    @idempotent
    def post(self, request):
        serializer = self.InputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        change = seat_requests.ask_table_change(
            player_id=data["player"], to_table_id=data.get("to_table"), by=request.user
        )
        return Response(TableChangeSerializer(change).data, status=status.HTTP_201_CREATED)


class TableChangeCancelApi(APIView):
    permission_classes = SUPERVISE_OR_READ

    @extend_schema(
        operation_id="table_changes_cancel",
        request=None,
        description="The player no longer wants the change.",
        **write_schema(200, TableChangeSerializer),
    )
    @idempotent
    def post(self, request, table_change_id: int):
        change = seat_requests.cancel_table_change(table_change_id=table_change_id, by=request.user)
        return Response(TableChangeSerializer(change).data)


class SeatOfferListApi(APIView):
    permission_classes = SUPERVISE_OR_READ

    @extend_schema(
        operation_id="seat_offers_list",
        description="Every open seat offered to a seated player before the list: the "
        "must-move line, then the table changes, in order (those who passed it left out).",
        responses={200: SeatOfferSerializer(many=True), **READ_ERRORS},
    )
    def get(self, request):
        requests = moves.seat_requests()
        offers = sorted(requests.offers.values(), key=lambda o: (o.table.name, o.seat))
        return Response(
            [
                {
                    "table": offer.table.pk,
                    "table_name": offer.table.name,
                    "seat": offer.seat,
                    "offered": [_mover(requests, m.player, m.line, m.since) for m in offer.movers],
                }
                for offer in offers
            ]
        )


class SeatPassApi(APIView):
    permission_classes = SUPERVISE_OR_READ

    class InputSerializer(serializers.Serializer):
        player = serializers.IntegerField(help_text="the player offered the seat first", **ID)

        class Meta:
            ref_name = "SeatPassInput"

    @extend_schema(
        operation_id="seat_offers_pass",
        request=InputSerializer,
        description="The player first offered the open seat passes it: they keep their "
        "place in their line; the seat goes to the next in line, then to the list.",
        **write_schema(201, SeatPassSerializer),
    )
    @idempotent
    def post(self, request, table_id: int, seat: int):
        serializer = self.InputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        passed: SeatPass = seat_requests.pass_seat(
            table_id=table_id,
            seat=seat,
            player_id=serializer.validated_data["player"],
            by=request.user,
        )
        return Response(SeatPassSerializer(passed).data, status=status.HTTP_201_CREATED)


__all__ = [
    "MustMoveEndApi",
    "MustMoveListApi",
    "SeatOfferListApi",
    "SeatPassApi",
    "TableChangeCancelApi",
    "TableChangeListApi",
]
