"""A player's money: bankroll, the banks posted as player-dealer, sessions, the playing book."""

from __future__ import annotations

import re

from django.http import HttpResponse
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import serializers
from rest_framework.response import Response
from rest_framework.views import APIView

from cardroom.api import (
    PAGE_PARAMETERS,
    READ,
    READ_ERRORS,
    GamingDay,
    paginated,
    paginated_response,
)
from cardroom.gaming_day import gaming_day_window
from tables.selectors.players import player_get
from wagers import selectors

from .serializers import BankrollSerializer, PlayerBankSerializer, SessionSerializer


class PlayerBankrollApi(APIView):
    permission_classes = READ

    @extend_schema(
        description=(
            "Chips the player holds at the tables now, the chips moved in and out, the "
            "settled hands banked as player-dealer, and those hands' actual result beside "
            "their theo (docs/rules.md §13.5): theo, actual, the difference and the "
            "difference in standard deviations."
        ),
        responses={200: BankrollSerializer, **READ_ERRORS},
    )
    def get(self, request, player_id: int):
        player = player_get(player_id=player_id)
        return Response(BankrollSerializer(selectors.bankroll(player)).data)


class PlayerBankListApi(APIView):
    permission_classes = READ

    @extend_schema(
        operation_id="players_banks_list",
        description="Every bank the player posted as player-dealer, newest first.",
        parameters=PAGE_PARAMETERS,
        responses={200: paginated(PlayerBankSerializer), **READ_ERRORS},
    )
    def get(self, request, player_id: int):
        player = player_get(player_id=player_id)
        return paginated_response(
            queryset=selectors.banks(player),
            serializer_class=PlayerBankSerializer,
            request=request,
            view=self,
        )


class PlayerSessionListApi(APIView):
    permission_classes = READ

    @extend_schema(
        operation_id="players_sessions_list",
        description="Each stay at a table, oldest first: chips moved and hands banked there.",
        parameters=PAGE_PARAMETERS,
        responses={200: paginated(SessionSerializer), **READ_ERRORS},
    )
    def get(self, request, player_id: int):
        player = player_get(player_id=player_id)
        return paginated_response(
            queryset=selectors.sessions(player),
            serializer_class=SessionSerializer,
            request=request,
            view=self,
        )


class PlayerPlayingBookApi(APIView):
    permission_classes = READ

    class QuerySerializer(serializers.Serializer):
        since = GamingDay(required=False, help_text="first gaming day (ISO date)")
        until = GamingDay(required=False, help_text="last gaming day (ISO date)")

        class Meta:
            ref_name = "PlayingBookQuery"

        def validate(self, data):
            if "since" in data and "until" in data and data["since"] > data["until"]:
                raise serializers.ValidationError({"until": ["is before since"]})
            return data

    @extend_schema(
        operation_id="players_playing_book_retrieve",
        description=(
            "The TPPP playing book (4 CCR §12260) as CSV: every bank the player posted, its "
            "result and uncovered amounts, one row per bank, oldest first. `since` and `until` "
            "are gaming days, both included (a gaming day starts at GAMING_DAY_START, local "
            "time)."
        ),
        parameters=[
            OpenApiParameter("since", OpenApiTypes.DATE, description="first gaming day"),
            OpenApiParameter("until", OpenApiTypes.DATE, description="last gaming day"),
        ],
        responses={
            (200, "text/csv"): OpenApiResponse(
                OpenApiTypes.STR, description="an attachment, with a header row"
            ),
            **READ_ERRORS,
        },
    )
    def get(self, request, player_id: int):
        query = self.QuerySerializer(data=request.query_params)
        query.is_valid(raise_exception=True)
        since, until = query.validated_data.get("since"), query.validated_data.get("until")
        player = player_get(player_id=player_id)
        text = selectors.playing_book_csv(
            player,
            since=gaming_day_window(since)[0] if since else None,
            until=gaming_day_window(until)[1] if until else None,
        )
        name = "playing-book-" + re.sub(r"[^A-Za-z0-9_-]", "_", player.player_number)
        if since:
            name += f"-from-{since.isoformat()}"
        if until:
            name += f"-to-{until.isoformat()}"
        response = HttpResponse(text, content_type="text/csv; charset=utf-8")
        response["Content-Disposition"] = f'attachment; filename="{name}.csv"'
        return response
