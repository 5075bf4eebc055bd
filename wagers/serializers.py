"""How the money's objects are shown by every API that shows them (a round's bets and bank
appear in the round lifecycle's round detail too). Amounts are integer cents, as in the
settlement calculator's JSON (docs/rules.md §11)."""

from __future__ import annotations

from rest_framework import serializers

from cardroom.api import Timestamp, username_field
from tables.serializers import PlayerSummarySerializer
from wagers.rules.wagers import bettor_label

# A bet's squares by game, as the answer names them: a bet is on one game's squares (a
# database check), and shows only those.
UTH_FIELDS = ("ante", "blind", "trips", "bad_beat", "play")
BACCARAT_FIELDS = ("player_wager", "banker", "tie", "dragon_7", "panda_8")


class BetSerializer(serializers.Serializer):
    """One bettor's wagers on a hand, in cents: the seated player's own or a backline bettor's,
    on the squares of its hand's game (Ultimate Texas Hold'em's Ante, Blind, Trips, Bad Beat
    and Play; EZ Baccarat's Player, as ``player_wager``, Banker, Tie, Dragon 7, Panda 8)."""

    bettor = serializers.SerializerMethodField(help_text='"seat" or "backline-N" (N from 1)')
    player = PlayerSummarySerializer()
    ante = serializers.IntegerField(required=False, source="ante_cents")
    blind = serializers.IntegerField(required=False, source="blind_cents")
    trips = serializers.IntegerField(required=False, source="trips_cents")
    bad_beat = serializers.IntegerField(required=False, source="bad_beat_cents")
    play = serializers.IntegerField(
        required=False, source="play_cents", help_text="0 until a Play is made"
    )
    player_wager = serializers.IntegerField(
        required=False,
        source="player_cents",
        help_text="EZ Baccarat: the base wager on Player, 0 for none (`player` is the bettor)",
    )
    banker = serializers.IntegerField(
        required=False,
        source="banker_cents",
        help_text="EZ Baccarat: the base wager on Banker (0 for none)",
    )
    tie = serializers.IntegerField(
        required=False, source="tie_cents", help_text="EZ Baccarat: 0 for none"
    )
    dragon_7 = serializers.IntegerField(
        required=False, source="dragon_7_cents", help_text="EZ Baccarat: 0 for none"
    )
    panda_8 = serializers.IntegerField(
        required=False, source="panda_8_cents", help_text="EZ Baccarat: 0 for none"
    )
    placed_at = Timestamp()

    def get_bettor(self, bet) -> str:
        return bettor_label(bet.bettor)

    def to_representation(self, bet):
        answer = super().to_representation(bet)
        baccarat = any(answer[name] for name in BACCARAT_FIELDS)
        for name in UTH_FIELDS if baccarat else BACCARAT_FIELDS:
            del answer[name]
        return answer


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
