"""Rounds: the lifecycle of a hand, one endpoint per step (docs/rules.md §2-§7).

Every transition answers the round in full (the player-dealer's cards stay withheld until
the showdown), or under ``Prefer: return=minimal`` only ``{"id", "state"}``, built from what
the service returned without reading the round back (``cardroom.api.write_answer``). A
street's decisions may be sent in one call (``decisions/street/``).
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
    MinimalSerializer,
    count,
    idempotent,
    list_parameters,
    paginated,
    paginated_response,
    refused_response,
    write_answer,
    write_schema,
)
from cardroom.errors import Refused, Row, RuleError
from rounds import selectors
from rounds import services as rounds
from rounds.filters import RoundFilter
from tables.models import ROUND_STATE_CHOICES
from tables.rules.decisions import Action
from tables.rules.seats import MAX_PLAYERS

from .serializers import RoundDetailSerializer, RoundSerializer


def _cards(**kwargs) -> serializers.ListField:
    kwargs.setdefault("help_text", 'card codes, e.g. ["As", "Kd"]')
    return serializers.ListField(child=serializers.CharField(), **kwargs)


def _detail(round_id: int, code: int = status.HTTP_200_OK) -> Response:
    round_ = selectors.round_detail(round_id=round_id)
    return Response(RoundDetailSerializer(round_).data, status=code)


class RoundMinimalSerializer(MinimalSerializer):
    """A round write's answer under ``Prefer: return=minimal``: the round and the state the
    write left it in."""

    id = serializers.IntegerField()
    state = serializers.ChoiceField(choices=ROUND_STATE_CHOICES)


def round_schema(status_code: int = status.HTTP_200_OK, **extra) -> dict:
    """``extend_schema`` arguments of a round write: the round in full, or minimal."""
    return write_schema(status_code, RoundDetailSerializer, minimal=RoundMinimalSerializer, **extra)


def round_answer(request, round_id: int, state: str, code: int = status.HTTP_200_OK) -> Response:
    """The round in full (read back), or under ``Prefer: return=minimal`` its id and ``state``
    as the service left it (no read)."""
    return write_answer(
        request,
        minimal={"id": round_id, "state": str(state)},
        full=lambda: RoundDetailSerializer(selectors.round_detail(round_id=round_id)).data,
        status_code=code,
    )


def row_error(error: RuleError, name: str, rows: int) -> RuleError:
    """A service's refusal of one row of the list ``name`` (``decisions``, ``bets``) of
    ``rows`` rows, naming the row as the input's own errors do (``decisions.2.action``,
    ``cardroom.errors.Row.path``); one row alone is row 0."""
    if error.row is not None:
        return RuleError(error.message, rule=error.rule, field=error.row.path(error.inner or ""))
    if rows == 1:
        return RuleError(
            error.message, rule=error.rule, field=Row(name, 0, 1).path(error.field or "")
        )
    return error


def list_of(serializer: serializers.Serializer, *, most: int, **kwargs) -> serializers.ListField:
    """A list of 1 to ``most`` objects; an invalid one is named by its index (``bets.1.ante``)."""
    return serializers.ListField(child=serializer, min_length=1, max_length=most, **kwargs)


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
        **round_schema(status.HTTP_201_CREATED),
    )
    @idempotent
    def post(self, request, table_id: int):
        round_ = rounds.start_round(table_id=table_id, by=request.user)
        if isinstance(round_, Refused):
            return refused_response(round_)
        return round_answer(request, round_.pk, round_.state, status.HTTP_201_CREATED)


class RoundNoMoreBetsApi(APIView):
    permission_classes = RUN_TABLE_OR_READ

    @extend_schema(request=None, **round_schema())
    @idempotent
    def post(self, request, round_id: int):
        round_ = rounds.close_wagering(round_id=round_id, by=request.user)
        return round_answer(request, round_id, round_.state)


class SeatCardsField(serializers.DictField):
    """Two cards keyed for each seat by its number (``{"1": ["As", "Kd"]}``). Every key is
    checked as a seat number before anything else, and no refusal repeats what was typed: a
    card keyed at the showdown is secret until it is accepted (docs/rules.md §2.6)."""

    def __init__(self, **kwargs) -> None:
        super().__init__(child=_cards(), **kwargs)

    @staticmethod
    def _seat(key) -> int:
        try:  # ASCII digits only: a superscript or another script's digit is no seat
            return bounds.strict_int(key, minimum=1, maximum=bounds.COUNT_MAX)
        except bounds.OutOfBounds:
            raise serializers.ValidationError(
                "each hand's cards are keyed by its seat number, in the digits 0-9"
            ) from None

    def to_internal_value(self, data):
        if isinstance(data, dict):
            seats = [self._seat(key) for key in data]
            if len(set(seats)) < len(seats):  # "1" and "01": one seat, never one dropped
                raise serializers.ValidationError("each hand's seat is keyed once")
        return {self._seat(key): cards for key, cards in super().to_internal_value(data).items()}


class ShowdownCardsSerializer(serializers.Serializer):
    player_dealer = _cards(help_text="the player-dealer's two cards")
    hands = SeatCardsField(
        required=False,
        help_text=(
            'two cards for each seat turned face up, by seat, e.g. {"1": ["As", "Kd"]}: every '
            "hand still in and every folded hand with a Trips wager on it (a folded hand with "
            "none is mucked and not keyed)"
        ),
    )

    class Meta:
        ref_name = "ShowdownCardEntry"


class CoupSerializer(serializers.Serializer):
    cards = _cards(
        help_text=(
            "the coup's cards as they are turned face up, in dealing order: Player, Banker, "
            "Player, Banker, then the third cards as drawn"
        )
    )
    cut_card_out = serializers.BooleanField(
        default=False, help_text="the cut card came out during this hand: the shoe is finished"
    )

    class Meta:
        ref_name = "CoupCardEntry"


class RoundDealApi(APIView):
    permission_classes = RUN_TABLE_OR_READ

    class InputSerializer(serializers.Serializer):
        cards = serializers.JSONField(
            required=False,
            help_text=(
                "never taken: an RNG table deals by itself, and a card-entry table deals face "
                "down and keys the hole cards at the showdown (`showdown/`); a body naming "
                "`cards` is refused (400, rule `deal.mode` or `deal.card_entry`) and nothing "
                "is recorded"
            ),
        )

        class Meta:
            ref_name = "RoundDealInput"

    @extend_schema(
        request=InputSerializer,
        description=(
            "Deal the hole cards (docs/rules.md §2.2-§2.3): an RNG table shuffles and deals "
            "(the deck is stored, withheld until the showdown); at a card-entry table the house "
            "dealer deals face down and this records that the cards were dealt. No card is "
            "keyed here."
        ),
        **round_schema(),
    )
    @idempotent
    def post(self, request, round_id: int):
        serializer = self.InputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        round_ = rounds.deal(
            round_id=round_id, by=request.user, entry=serializer.validated_data.get("cards")
        )
        return round_answer(request, round_id, round_.state)


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
        **round_schema(status.HTTP_201_CREATED),
    )
    @idempotent
    def post(self, request, round_id: int):
        serializer = self.InputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        decision = rounds.decide(round_id=round_id, by=request.user, **serializer.validated_data)
        # A decision leaves the round on its street, whose name is the state's.
        return round_answer(request, round_id, decision.street, status.HTTP_201_CREATED)


class RoundStreetDecisionsApi(APIView):
    permission_classes = RUN_TABLE_OR_READ

    class InputSerializer(serializers.Serializer):
        decisions = list_of(
            RoundDecisionApi.InputSerializer(),
            most=MAX_PLAYERS,
            help_text="the hands' decisions on the current street, a hand at most once",
        )

        class Meta:
            ref_name = "StreetDecisionsInput"

    @extend_schema(
        request=InputSerializer,
        description=(
            "Record several hands' decisions on the current street in one call, all or none "
            "(docs/rules.md §5): each is checked as if made alone; a refusal names its row "
            "(`decisions.1.action`) and records nothing."
        ),
        **round_schema(status.HTTP_201_CREATED),
    )
    @idempotent
    def post(self, request, round_id: int):
        serializer = self.InputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        rows = serializer.validated_data["decisions"]
        street = [(row["seat"], row["action"], row["multiple"]) for row in rows]
        try:
            made = rounds.decide_street(round_id=round_id, decisions=street, by=request.user)
        except RuleError as error:
            raise row_error(error, "decisions", len(rows)) from None
        return round_answer(request, round_id, made[0].street, status.HTTP_201_CREATED)


class RoundFlopApi(APIView):
    permission_classes = RUN_TABLE_OR_READ

    class InputSerializer(serializers.Serializer):
        cards = _cards(required=False, help_text="card entry tables only: the three flop cards")

        class Meta:
            ref_name = "FlopInput"

    @extend_schema(request=InputSerializer, **round_schema())
    @idempotent
    def post(self, request, round_id: int):
        serializer = self.InputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        round_ = rounds.reveal_flop(
            round_id=round_id, by=request.user, cards=serializer.validated_data.get("cards")
        )
        return round_answer(request, round_id, round_.state)


class RoundTurnRiverApi(APIView):
    permission_classes = RUN_TABLE_OR_READ

    class InputSerializer(serializers.Serializer):
        cards = _cards(required=False, help_text="card entry tables only: the turn and river")

        class Meta:
            ref_name = "TurnRiverInput"

    @extend_schema(request=InputSerializer, **round_schema())
    @idempotent
    def post(self, request, round_id: int):
        serializer = self.InputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        round_ = rounds.reveal_turn_and_river(
            round_id=round_id, by=request.user, cards=serializer.validated_data.get("cards")
        )
        return round_answer(request, round_id, round_.state)


class RoundShowdownApi(APIView):
    permission_classes = RUN_TABLE_OR_READ

    class InputSerializer(serializers.Serializer):
        cards = ShowdownCardsSerializer(
            required=False,
            help_text=(
                "Ultimate Texas Hold'em, card-entry tables only: the cards turned face up; an "
                "RNG table has them"
            ),
        )
        coup = CoupSerializer(
            required=False,
            help_text=(
                "EZ Baccarat, card-entry tables only: the coup keyed as it is dealt; an RNG "
                "table deals it from its shoe"
            ),
        )

        class Meta:
            ref_name = "ShowdownInput"

        def validate(self, attrs):
            if "cards" in attrs and "coup" in attrs:
                raise serializers.ValidationError(
                    {"coup": "a hand is keyed as one game's: `cards` or `coup`, not both"}
                )
            return attrs

    @extend_schema(
        request=InputSerializer,
        description=(
            "Turn the hands face up and resolve them (docs/rules.md §2.3, §6). At a card-entry "
            "table the body keys the cards turned face up: the player-dealer's two and two for "
            "each hand still in or folded with a Trips wager on it; a folded hand without one "
            "is mucked and not keyed. A refusal (400 `cards.card`, `cards.once` or "
            "`deal.card_entry`) names the field and where a card is twice, never a card, and "
            'records nothing. EZ Baccarat (docs/rules.md §14.2-§14.3): right after "no more '
            "bets\", the coup is dealt from the table's shoe (RNG) or keyed in `coup` with "
            "whether the cut card came out (card entry; 400 `baccarat.drawing`, "
            "`baccarat.shoe`)."
        ),
        **round_schema(),
    )
    @idempotent
    def post(self, request, round_id: int):
        serializer = self.InputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        if "coup" in data:
            try:
                round_ = rounds.showdown(round_id=round_id, by=request.user, entry=data["coup"])
            except RuleError as error:
                raise error.with_field("coup") from None
        else:
            round_ = rounds.showdown(round_id=round_id, by=request.user, entry=data.get("cards"))
        return round_answer(request, round_id, round_.state)


class RoundSettleApi(APIView):
    permission_classes = RUN_TABLE_OR_READ

    @extend_schema(request=None, **round_schema())
    @idempotent
    def post(self, request, round_id: int):
        round_ = rounds.settle(round_id=round_id, by=request.user)
        return round_answer(request, round_id, round_.state)


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
        **round_schema(),
    )
    @idempotent
    def post(self, request, round_id: int):
        serializer = self.InputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        round_ = rounds.void_round(round_id=round_id, by=request.user, **serializer.validated_data)
        return round_answer(request, round_id, round_.state)
