"""Rounds: the lifecycle of a hand, one endpoint per step (docs/rules.md §2-§7).

Every transition answers the round in full; the player-dealer's cards stay
withheld until the showdown.
"""

from __future__ import annotations

from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.response import Response
from rest_framework.views import APIView

from cardroom import bounds
from cardroom.api import (
    READ,
    READ_ERRORS,
    RUN_TABLE_OR_READ,
    SUPERVISE_OR_READ,
    count,
    idempotent,
    list_parameters,
    paginated,
    paginated_response,
    refused_response,
    write_schema,
)
from cardroom.errors import Refused
from rounds import selectors
from rounds import services as rounds
from rounds.filters import RoundFilter
from tables.rules.decisions import Action

from .serializers import RoundDetailSerializer, RoundSerializer


def _cards(**kwargs) -> serializers.ListField:
    kwargs.setdefault("help_text", 'card codes, e.g. ["As", "Kd"]')
    return serializers.ListField(child=serializers.CharField(), **kwargs)


def _detail(round_id: int, code: int = status.HTTP_200_OK) -> Response:
    round_ = selectors.round_detail(round_id=round_id)
    return Response(RoundDetailSerializer(round_).data, status=code)


class RoundListApi(APIView):
    permission_classes = READ

    @extend_schema(
        operation_id="rounds_list",
        parameters=list_parameters(RoundFilter),
        responses={200: paginated(RoundSerializer), **READ_ERRORS},
    )
    def get(self, request):
        return paginated_response(
            queryset=selectors.round_list(filters=request.query_params),
            serializer_class=RoundSerializer,
            request=request,
            view=self,
        )


class RoundDetailApi(APIView):
    permission_classes = READ

    @extend_schema(responses={200: RoundDetailSerializer, **READ_ERRORS})
    def get(self, request, round_id: int):
        return _detail(round_id)


class RoundStartApi(APIView):
    permission_classes = RUN_TABLE_OR_READ

    @extend_schema(
        request=None,
        description=(
            "Open wagering for a new hand, banked by the player who accepted the button. "
            "409 `no_player_dealer` when no one has; 409 `game_ended` when the 40-minute "
            "rotation rule ends the game instead."
        ),
        **write_schema(201, RoundDetailSerializer),
    )
    @idempotent
    def post(self, request, table_id: int):
        round_ = rounds.start_round(table_id=table_id, by=request.user)
        if isinstance(round_, Refused):
            return refused_response(round_)
        return _detail(round_.pk, status.HTTP_201_CREATED)


class RoundNoMoreBetsApi(APIView):
    permission_classes = RUN_TABLE_OR_READ

    @extend_schema(request=None, **write_schema(200, RoundDetailSerializer))
    @idempotent
    def post(self, request, round_id: int):
        rounds.close_wagering(round_id=round_id, by=request.user)
        return _detail(round_id)


class RoundDealApi(APIView):
    permission_classes = RUN_TABLE_OR_READ

    class InputSerializer(serializers.Serializer):
        class CardEntrySerializer(serializers.Serializer):
            hands = serializers.DictField(
                child=_cards(), help_text='hole cards by seat, e.g. {"1": ["As", "Kd"]}'
            )
            player_dealer = _cards()

            class Meta:
                ref_name = "HoleCardEntry"

            def validate_hands(self, hands):
                seats = {}
                for seat, cards in hands.items():
                    try:  # ASCII digits only: a superscript or another script's digit is no seat
                        seats[bounds.strict_int(seat, minimum=1, maximum=bounds.COUNT_MAX)] = cards
                    except bounds.OutOfBounds:
                        raise serializers.ValidationError(
                            f"{seat!r} is not a seat number"
                        ) from None
                return seats

        cards = CardEntrySerializer(
            required=False, help_text="card entry tables only; an RNG table deals by itself"
        )

        class Meta:
            ref_name = "RoundDealInput"

    @extend_schema(request=InputSerializer, **write_schema(200, RoundDetailSerializer))
    @idempotent
    def post(self, request, round_id: int):
        serializer = self.InputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        rounds.deal(
            round_id=round_id, by=request.user, entry=serializer.validated_data.get("cards")
        )
        return _detail(round_id)


class RoundDecisionApi(APIView):
    permission_classes = RUN_TABLE_OR_READ

    class InputSerializer(serializers.Serializer):
        seat = count()
        action = serializers.ChoiceField(choices=[a.value for a in Action])
        multiple = count(
            min_value=0, default=0, help_text="the Play as a multiple of the Ante; 0 otherwise"
        )

        class Meta:
            ref_name = "HandDecisionInput"

    @extend_schema(
        request=InputSerializer,
        description="Record a hand's decision on the current street (docs/rules.md §5).",
        **write_schema(201, RoundDetailSerializer),
    )
    @idempotent
    def post(self, request, round_id: int):
        serializer = self.InputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        rounds.decide(round_id=round_id, by=request.user, **serializer.validated_data)
        return _detail(round_id, status.HTTP_201_CREATED)


class RoundFlopApi(APIView):
    permission_classes = RUN_TABLE_OR_READ

    class InputSerializer(serializers.Serializer):
        cards = _cards(required=False, help_text="card entry tables only: the three flop cards")

        class Meta:
            ref_name = "FlopInput"

    @extend_schema(request=InputSerializer, **write_schema(200, RoundDetailSerializer))
    @idempotent
    def post(self, request, round_id: int):
        serializer = self.InputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        rounds.reveal_flop(
            round_id=round_id, by=request.user, cards=serializer.validated_data.get("cards")
        )
        return _detail(round_id)


class RoundTurnRiverApi(APIView):
    permission_classes = RUN_TABLE_OR_READ

    class InputSerializer(serializers.Serializer):
        cards = _cards(required=False, help_text="card entry tables only: the turn and river")

        class Meta:
            ref_name = "TurnRiverInput"

    @extend_schema(request=InputSerializer, **write_schema(200, RoundDetailSerializer))
    @idempotent
    def post(self, request, round_id: int):
        serializer = self.InputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        rounds.reveal_turn_and_river(
            round_id=round_id, by=request.user, cards=serializer.validated_data.get("cards")
        )
        return _detail(round_id)


class RoundShowdownApi(APIView):
    permission_classes = RUN_TABLE_OR_READ

    @extend_schema(request=None, **write_schema(200, RoundDetailSerializer))
    @idempotent
    def post(self, request, round_id: int):
        rounds.showdown(round_id=round_id, by=request.user)
        return _detail(round_id)


class RoundSettleApi(APIView):
    permission_classes = RUN_TABLE_OR_READ

    @extend_schema(request=None, **write_schema(200, RoundDetailSerializer))
    @idempotent
    def post(self, request, round_id: int):
        rounds.settle(round_id=round_id, by=request.user)
        return _detail(round_id)


class RoundVoidApi(APIView):
    permission_classes = SUPERVISE_OR_READ

    class InputSerializer(serializers.Serializer):
        reason = serializers.CharField(
            required=False, allow_blank=True, default="", help_text="why the round is void"
        )

        class Meta:
            ref_name = "RoundVoidInput"

    @extend_schema(
        request=InputSerializer,
        description="A misdeal: the round ends with nothing resolved (floor supervisor).",
        **write_schema(200, RoundDetailSerializer),
    )
    @idempotent
    def post(self, request, round_id: int):
        serializer = self.InputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        rounds.void_round(round_id=round_id, by=request.user, **serializer.validated_data)
        return _detail(round_id)
