"""A patron's own view of their money (docs/rules.md §3.8): signed in with the sign-in a
floor supervisor issued them, a player-dealer or a TPPP reads their own bankroll, ledger
lines and theo, and nobody else's (there is no id to ask for another's). Staff, and any
account that is no patron's, are answered 403."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.exceptions import PermissionDenied
from rest_framework.permissions import IsAuthenticated
from rest_framework.response import Response
from rest_framework.views import APIView

from cardroom.api import READ_ERRORS, Timestamp
from tables.selectors.players import patron_player
from wagers import selectors

from .serializers import BankrollSerializer


class LedgerLineSerializer(serializers.Serializer):
    at = Timestamp(source="transaction.at")
    table = serializers.CharField(source="account.table.name", allow_null=True)
    kind = serializers.CharField(source="transaction.kind")
    what = serializers.CharField(source="transaction.get_kind_display")
    amount_cents = serializers.IntegerField(help_text="+ to the player's chips, - from them")


class MyBankrollSerializer(serializers.Serializer):
    name = serializers.CharField(source="player.name")
    player_number = serializers.CharField(source="player.player_number")
    bankroll = BankrollSerializer()
    ledger = LedgerLineSerializer(many=True, help_text="the newest 200 lines, newest first")


class MyBankrollApi(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(
        description=(
            "The signed-in patron's own bankroll (chips at the tables, movements, hands "
            "banked, theo beside actual) and their newest ledger lines. Only a patron's own "
            "sign-in (issued by a floor supervisor) is answered; staff get 403."
        ),
        responses={200: MyBankrollSerializer, **READ_ERRORS},
    )
    def get(self, request):
        player = patron_player(request.user)
        if player is None:
            raise PermissionDenied("only a patron's own sign-in reads its bankroll here")
        data = {
            "player": player,
            "bankroll": selectors.bankroll(player),
            "ledger": list(selectors.ledger_lines(player)),
        }
        return Response(MyBankrollSerializer(data).data)
