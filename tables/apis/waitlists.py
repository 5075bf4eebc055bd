"""Waitlists, seat calls and seat holds (docs/rules.md §3.6): floor supervisors run them,
house dealers and compliance read them. Every change is an event; ``events/`` is a list's
whole history, in the order it was recorded."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.response import Response
from rest_framework.views import APIView

from cardroom.api import READ_ERRORS, SUPERVISE_OR_READ, cents, idempotent, write_schema
from cardroom.money import dollar_range
from games import catalog
from tables.rules.waitlist import PassOver
from tables.selectors.waitlists import ListView, waitlist_event_list, waitlist_view, waitlist_views
from tables.services import waitlists

MINUTES = {"min_value": -(10**6), "max_value": 10**6}  # the rule refuses out of range


class WaitlistEntrySerializer(serializers.Serializer):
    position = serializers.IntegerField()
    player = serializers.IntegerField()
    name = serializers.CharField()
    player_number = serializers.CharField()
    joined_at = serializers.DateTimeField()
    by_phone = serializers.BooleanField()
    in_the_room = serializers.BooleanField()
    lapses_at = serializers.DateTimeField(allow_null=True)
    called_to_table = serializers.IntegerField(allow_null=True)
    called_to_seat = serializers.IntegerField(allow_null=True)
    called_at = serializers.DateTimeField(allow_null=True)
    answer_by = serializers.DateTimeField(allow_null=True)
    misses = serializers.IntegerField()


class OpenSeatSerializer(serializers.Serializer):
    table = serializers.IntegerField()
    table_name = serializers.CharField()
    seat = serializers.IntegerField()
    hold_ran_out = serializers.BooleanField(help_text="a held seat whose time ran out")
    called = serializers.IntegerField(allow_null=True, help_text="the player called to it")


class WaitlistSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    game = serializers.ChoiceField(choices=list(catalog.LISTINGS))
    game_name = serializers.CharField(help_text="the game as the floor names it")
    stakes = serializers.CharField(help_text="the limits in dollars")
    name = serializers.CharField(
        help_text='the list as the floor names it: "$20.00 - $2,000.00 EZ Baccarat"'
    )
    minimum_cents = serializers.IntegerField()
    maximum_cents = serializers.IntegerField()
    response_minutes = serializers.IntegerField()
    call_in_minutes = serializers.IntegerField()
    pass_over = serializers.ChoiceField(choices=[p.value for p in PassOver])
    entries = WaitlistEntrySerializer(many=True)
    open_seats = OpenSeatSerializer(many=True)


def _data(view: ListView) -> dict:
    row = view.waitlist
    entries = []
    for position, entry in enumerate(view.now.entries, start=1):
        player = view.player(entry.player)
        entries.append(
            {
                "position": position,
                "player": player.pk,
                "name": player.name,
                "player_number": player.player_number,
                "joined_at": entry.joined_at,
                "by_phone": entry.by_phone,
                "in_the_room": entry.in_the_room,
                "lapses_at": entry.lapses_at(view.policy),
                "called_to_table": entry.call.table if entry.call else None,
                "called_to_seat": entry.call.seat if entry.call else None,
                "called_at": entry.call.at if entry.call else None,
                "answer_by": entry.call.answer_by if entry.call else None,
                "misses": entry.misses,
            }
        )
    return {
        "id": row.pk,
        "game": row.game,
        "game_name": row.game_listing.name,
        "stakes": dollar_range(row.minimum_cents, row.maximum_cents),
        "name": str(row),
        "minimum_cents": row.minimum_cents,
        "maximum_cents": row.maximum_cents,
        "response_minutes": row.response_seconds // 60,
        "call_in_minutes": row.call_in_seconds // 60,
        "pass_over": row.pass_over,
        "entries": entries,
        "open_seats": [
            {
                "table": s.table.pk,
                "table_name": s.table.name,
                "seat": s.seat,
                "hold_ran_out": s.hold is not None,
                "called": s.called,
            }
            for s in view.open_seats
        ],
    }


def _list_response(waitlist_id: int, code: int = status.HTTP_200_OK) -> Response:
    return Response(
        WaitlistSerializer(_data(waitlist_view(waitlist_id=waitlist_id))).data,
        status=code,
    )


class PolicyInputSerializer(serializers.Serializer):
    response_minutes = serializers.IntegerField(
        required=False, help_text="how long a called player has to answer", **MINUTES
    )
    call_in_minutes = serializers.IntegerField(
        required=False, help_text="how long a call-in holds its place unchecked", **MINUTES
    )
    pass_over = serializers.CharField(
        required=False, help_text="keep_place or to_bottom: where a passed-over player goes"
    )

    class Meta:
        ref_name = "WaitlistPolicyInput"


class WaitlistListApi(APIView):
    permission_classes = SUPERVISE_OR_READ

    class InputSerializer(PolicyInputSerializer):
        game = serializers.CharField(
            required=False, help_text="the game of the list; none: Ultimate Texas Hold'em"
        )
        minimum_cents = cents()
        maximum_cents = cents()

        class Meta:
            ref_name = "WaitlistOpenInput"

    @extend_schema(
        operation_id="waitlists_list",
        responses={200: WaitlistSerializer(many=True), **READ_ERRORS},
    )
    def get(self, request):
        return Response(WaitlistSerializer([_data(v) for v in waitlist_views()], many=True).data)

    @extend_schema(
        operation_id="waitlists_open",
        request=InputSerializer,
        **write_schema(201, WaitlistSerializer),
    )
    @idempotent
    def post(self, request):
        serializer = self.InputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        row = waitlists.open_waitlist(by=request.user, **serializer.validated_data)
        return _list_response(row.pk, status.HTTP_201_CREATED)


class WaitlistDetailApi(APIView):
    permission_classes = SUPERVISE_OR_READ

    @extend_schema(responses={200: WaitlistSerializer, **READ_ERRORS})
    def get(self, request, waitlist_id: int):
        return _list_response(waitlist_id)

    @extend_schema(
        operation_id="waitlists_policy_update",
        request=PolicyInputSerializer,
        description="Change the list's timers or where a passed-over player goes, from now on.",
        **write_schema(200, WaitlistSerializer),
    )
    @idempotent
    def patch(self, request, waitlist_id: int):
        serializer = PolicyInputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        waitlists.change_policy(
            waitlist_id=waitlist_id, by=request.user, **serializer.validated_data
        )
        return _list_response(waitlist_id)


class WaitlistEventSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    kind = serializers.CharField()
    player = serializers.IntegerField(source="player_id")
    name = serializers.CharField(source="player.name")
    at = serializers.DateTimeField()
    by = serializers.CharField(source="by.username", allow_null=True, help_text="empty: the clock")
    by_phone = serializers.BooleanField()
    table = serializers.IntegerField(source="table_id", allow_null=True)
    seat = serializers.IntegerField(allow_null=True)
    skipped = serializers.ListField(child=serializers.IntegerField())
    reason = serializers.CharField(
        help_text="why a call was withdrawn (seat_filled, table_closed, limits_changed, "
        "player_returned, by_floor) or a player moved with a list (list_moved); empty otherwise"
    )


class WaitlistEventListApi(APIView):
    permission_classes = SUPERVISE_OR_READ

    @extend_schema(
        operation_id="waitlists_events",
        responses={200: WaitlistEventSerializer(many=True), **READ_ERRORS},
    )
    def get(self, request, waitlist_id: int):
        waitlist_view(waitlist_id=waitlist_id)  # 404 for no such list
        events = waitlist_event_list(waitlist_id=waitlist_id)
        return Response(WaitlistEventSerializer(events, many=True).data)


class WaitlistJoinApi(APIView):
    permission_classes = SUPERVISE_OR_READ

    class InputSerializer(serializers.Serializer):
        player = serializers.IntegerField(min_value=1, max_value=2**63 - 1)
        by_phone = serializers.BooleanField(default=False, help_text="a call-in")

        class Meta:
            ref_name = "WaitlistJoinInput"

    @extend_schema(
        operation_id="waitlists_join",
        request=InputSerializer,
        **write_schema(201, WaitlistSerializer),
    )
    @idempotent
    def post(self, request, waitlist_id: int):
        serializer = self.InputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        waitlists.join(
            waitlist_id=waitlist_id,
            player_id=data["player"],
            by_phone=data["by_phone"],
            by=request.user,
        )
        return _list_response(waitlist_id, status.HTTP_201_CREATED)


class WaitlistPlayerApi(APIView):
    """A player on a list: taken off it."""

    permission_classes = SUPERVISE_OR_READ

    @extend_schema(operation_id="waitlists_remove", **write_schema(200, WaitlistSerializer))
    @idempotent
    def delete(self, request, waitlist_id: int, player_id: int):
        waitlists.remove(waitlist_id=waitlist_id, player_id=player_id, by=request.user)
        return _list_response(waitlist_id)


class WaitlistCheckInApi(APIView):
    permission_classes = SUPERVISE_OR_READ

    @extend_schema(
        operation_id="waitlists_check_in", request=None, **write_schema(200, WaitlistSerializer)
    )
    @idempotent
    def post(self, request, waitlist_id: int, player_id: int):
        waitlists.check_in(waitlist_id=waitlist_id, player_id=player_id, by=request.user)
        return _list_response(waitlist_id)


class WaitlistCallApi(APIView):
    permission_classes = SUPERVISE_OR_READ

    class InputSerializer(serializers.Serializer):
        table = serializers.IntegerField(min_value=1, max_value=2**63 - 1)
        seat = serializers.IntegerField(min_value=-(2**31), max_value=2**31 - 1)
        player = serializers.IntegerField(
            required=False,
            min_value=1,
            max_value=2**63 - 1,
            help_text="the player the floor means to call: refused unless first eligible",
        )

        class Meta:
            ref_name = "WaitlistCallInput"

    @extend_schema(
        operation_id="waitlists_call",
        request=InputSerializer,
        description="Call the first eligible player to an open seat at a table of the "
        "list's stakes.",
        **write_schema(201, WaitlistSerializer),
    )
    @idempotent
    def post(self, request, waitlist_id: int):
        serializer = self.InputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        waitlists.call(
            waitlist_id=waitlist_id,
            table_id=data["table"],
            seat=data["seat"],
            player_id=data.get("player"),
            by=request.user,
        )
        return _list_response(waitlist_id, status.HTTP_201_CREATED)


class WaitlistAnswerApi(APIView):
    permission_classes = SUPERVISE_OR_READ

    class InputSerializer(serializers.Serializer):
        take = serializers.BooleanField(help_text="true: the player sits; false: declines")

        class Meta:
            ref_name = "WaitlistAnswerInput"

    @extend_schema(
        operation_id="waitlists_answer",
        request=InputSerializer,
        description="The called player takes the seat (seated, off every list) or declines "
        "(the next eligible player is called).",
        **write_schema(200, WaitlistSerializer),
    )
    @idempotent
    def post(self, request, waitlist_id: int, player_id: int):
        serializer = self.InputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        waitlists.answer(
            waitlist_id=waitlist_id,
            player_id=player_id,
            take=serializer.validated_data["take"],
            by=request.user,
        )
        return _list_response(waitlist_id)


class WaitlistPassOverApi(APIView):
    permission_classes = SUPERVISE_OR_READ

    @extend_schema(
        operation_id="waitlists_pass_over",
        request=None,
        description="Pass over a called player whose time to answer ran out; the next "
        "eligible player is called to the seat.",
        **write_schema(200, WaitlistSerializer),
    )
    @idempotent
    def post(self, request, waitlist_id: int, player_id: int):
        waitlists.pass_over(waitlist_id=waitlist_id, player_id=player_id, by=request.user)
        return _list_response(waitlist_id)


class WaitlistWithdrawApi(APIView):
    permission_classes = SUPERVISE_OR_READ

    @extend_schema(
        operation_id="waitlists_withdraw",
        request=None,
        description="Withdraw a player's call (the seat is no longer open): the player keeps "
        "their place and the call is not counted against them.",
        **write_schema(200, WaitlistSerializer),
    )
    @idempotent
    def post(self, request, waitlist_id: int, player_id: int):
        waitlists.withdraw(waitlist_id=waitlist_id, player_id=player_id, by=request.user)
        return _list_response(waitlist_id)


class SeatHoldSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    table = serializers.IntegerField(source="table_id")
    seat = serializers.IntegerField()
    player = serializers.IntegerField(source="player_id")
    held_at = serializers.DateTimeField()
    until = serializers.DateTimeField()
    ended_at = serializers.DateTimeField(allow_null=True)
    end = serializers.CharField()


class SeatHoldApi(APIView):
    permission_classes = SUPERVISE_OR_READ

    class InputSerializer(serializers.Serializer):
        minutes = serializers.IntegerField(
            default=15, min_value=-(2**31), max_value=2**31 - 1, help_text="1 to 120"
        )

        class Meta:
            ref_name = "SeatHoldInput"

    @extend_schema(
        operation_id="seat_hold",
        request=InputSerializer,
        description="A seated player stepped away: their seat is held; once the hold runs "
        "out the seat is offered to the list.",
        **write_schema(201, SeatHoldSerializer),
    )
    @idempotent
    def post(self, request, table_id: int, seat: int):
        serializer = self.InputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        hold = waitlists.hold_seat(
            table_id=table_id, seat=seat, by=request.user, **serializer.validated_data
        )
        return Response(SeatHoldSerializer(hold).data, status=status.HTTP_201_CREATED)

    @extend_schema(
        operation_id="seat_hold_release",
        description="The player came back: the hold ends.",
        **write_schema(200, SeatHoldSerializer),
    )
    @idempotent
    def delete(self, request, table_id: int, seat: int):
        hold = waitlists.release_hold(table_id=table_id, seat=seat, by=request.user)
        return Response(SeatHoldSerializer(hold).data)
