"""Money placed in a round: the player-dealer's bank and the players' wagers (the money
services), each answering the round in full, or under ``Prefer: return=minimal`` only
``{"id", "state"}``: the bank and the wagers leave the round in wagering, the one state they
are taken in, so the state is known without reading the round back. A round's wagers may be
sent in one call (``wagers/batch/``)."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.views import APIView

from cardroom.api import RUN_TABLE_OR_READ, cents, count, idempotent, primary_key
from cardroom.errors import RuleError, State
from rounds import services as rounds
from tables.models import Player
from wagers.services import wagering

from .rounds import list_of, round_answer, round_schema, row_error

BETS_MAX = 64  # bettors' wagers in one call (six seats and their backline bettors)


class RoundBankApi(APIView):
    permission_classes = RUN_TABLE_OR_READ

    class InputSerializer(serializers.Serializer):
        amount = cents(
            help_text="the bank W in cents: above zero, in the table's chips, at most the "
            "player-dealer's chips at the table less the least collection fee they will owe "
            'at "no more bets"'
        )

        class Meta:
            ref_name = "BankPostInput"

    @extend_schema(
        request=InputSerializer,
        description=(
            "The player-dealer posts the bank W from their chips (docs/rules.md §7.1), once, "
            'before "no more bets". 409 if it is already posted or wagering is closed. 400 '
            "(field amount, rule fees.collection) if it leaves fewer chips than the least "
            'collection fee the player-dealer will owe at "no more bets" (docs/rules.md §9.4).'
        ),
        **round_schema(status.HTTP_201_CREATED),
    )
    @idempotent
    def post(self, request, round_id: int):
        serializer = self.InputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        rounds.post_bank(round_id=round_id, by=request.user, **serializer.validated_data)
        return round_answer(request, round_id, State.WAGERING, status.HTTP_201_CREATED)


class RoundWagerApi(APIView):
    permission_classes = RUN_TABLE_OR_READ

    class InputSerializer(serializers.Serializer):
        seat = count(help_text="the seat wagered on, 1 to 6")
        ante = cents(default=0, help_text="cents (Ultimate Texas Hold'em)")
        blind = cents(default=0, help_text="cents, equal to the Ante (Ultimate Texas Hold'em)")
        trips = cents(default=0, help_text="cents; 0 for none (Ultimate Texas Hold'em)")
        bad_beat = cents(
            default=0,
            help_text="cents; 0 for none; only with Ante and Blind (Ultimate Texas Hold'em)",
        )
        player = cents(default=0, help_text="cents; the base wager on Player (EZ Baccarat)")
        banker = cents(
            default=0, help_text="cents; the base wager on Banker, not with Player (EZ Baccarat)"
        )
        tie = cents(default=0, help_text="cents; 0 for none (EZ Baccarat)")
        dragon_7 = cents(default=0, help_text="cents; 0 for none (EZ Baccarat)")
        panda_8 = cents(default=0, help_text="cents; 0 for none (EZ Baccarat)")
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
            "A bettor's opening wagers on a seat (docs/rules.md §4, §14.4): the seated player's "
            "own, which makes the seat's hand, or a backline bettor's behind it, on the squares "
            "of the table's game (a square of another game: 400, `wagers.squares`). The chips "
            "move from the bettor's chips into play. Nothing is increased or withdrawn "
            "afterwards (409)."
        ),
        **round_schema(status.HTTP_201_CREATED),
    )
    @idempotent
    def post(self, request, round_id: int):
        serializer = self.InputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        wagering.place_bets(
            round_id=round_id, bets=[_bet(serializer.validated_data)], by=request.user
        )
        return round_answer(request, round_id, State.WAGERING, status.HTTP_201_CREATED)


def _bet(data) -> wagering.BetRequest:
    backline = data["backline_player"]
    return wagering.BetRequest(
        seat=data["seat"],
        backline_player_id=backline.pk if backline else None,
        **{name: data[name] for name in wagering.BET_SQUARES},
    )


class RoundWagerBatchApi(APIView):
    permission_classes = RUN_TABLE_OR_READ

    class InputSerializer(serializers.Serializer):
        bets = list_of(
            RoundWagerApi.InputSerializer(),
            most=BETS_MAX,
            help_text="bettors' opening wagers, each as `POST .../wagers/` takes them",
        )

        class Meta:
            ref_name = "WagerBatchInput"

    @extend_schema(
        request=InputSerializer,
        description=(
            "Several bettors' opening wagers in one call, all or none (docs/rules.md §4): each "
            "is checked as if placed alone; a refusal names its row (`bets.1.ante`) and "
            "places nothing."
        ),
        **round_schema(status.HTTP_201_CREATED),
    )
    @idempotent
    def post(self, request, round_id: int):
        serializer = self.InputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        bets = [_bet(row) for row in serializer.validated_data["bets"]]
        try:
            wagering.place_bets(round_id=round_id, bets=bets, by=request.user)
        except RuleError as error:
            raise row_error(error, "bets", len(bets)) from None
        return round_answer(request, round_id, State.WAGERING, status.HTTP_201_CREATED)
