"""How the money's objects are shown by every API that shows them (a round's bets and bank
appear in the round lifecycle's round detail too). Amounts are integer cents, as in the
settlement calculator's JSON (docs/rules.md §11)."""

from __future__ import annotations

from rest_framework import serializers

from cardroom.api import Timestamp, username_field
from tables.serializers import PlayerSummarySerializer
from wagers.rules.wagers import bettor_label


class BetSerializer(serializers.Serializer):
    """One bettor's wagers on a hand, in cents: the seated player's own or a backline bettor's."""

    bettor = serializers.SerializerMethodField(help_text='"seat" or "backline-N" (N from 1)')
    player = PlayerSummarySerializer()
    ante = serializers.IntegerField(source="ante_cents")
    blind = serializers.IntegerField(source="blind_cents")
    trips = serializers.IntegerField(source="trips_cents")
    bad_beat = serializers.IntegerField(source="bad_beat_cents")
    play = serializers.IntegerField(source="play_cents", help_text="0 until a Play is made")
    placed_at = Timestamp()

    def get_bettor(self, bet) -> str:
        return bettor_label(bet.bettor)


class BankSerializer(serializers.Serializer):
    """The player-dealer's bank W for a round (cents) and, once settled, its result."""

    player = PlayerSummarySerializer()
    amount = serializers.IntegerField(source="amount_cents", help_text="the bank W")
    posted_at = Timestamp()
    posted_by = username_field("posted_by")
    net = serializers.IntegerField(
        source="net_cents",
        allow_null=True,
        help_text="the player-dealer's result; null until settled",
    )
    remaining = serializers.SerializerMethodField(
        help_text="amount + net: what came back to the player-dealer; null until settled"
    )
    exhausted = serializers.BooleanField(allow_null=True, help_text="null until settled")

    def get_remaining(self, bank) -> int | None:
        return None if bank.net_cents is None else bank.amount_cents + bank.net_cents
