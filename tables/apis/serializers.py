"""Output serializers of the floor's API (each view nests its own input)."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from cardroom.api import Timestamp, username_field
from cardroom.errors import State
from tables.models import ROUND_STATE_CHOICES, GameEndReason, OfferAnswer, OfferRoundStatus
from tables.rules.counters import one_decimal
from tables.serializers import OptionsSerializer, PlayerSummarySerializer

BUTTON_STATES = [
    State.NO_GAME,
    State.GAME_ENDED,
    State.ROUND_IN_PLAY,
    State.OFFER_PENDING,
    State.OFFERING,
    State.ACCEPTED,
    State.NO_PLAYER_DEALER,
    State.NO_PLAYERS,
    State.OFFER_NEEDED,
]


class SeatedSerializer(serializers.Serializer):
    seat = serializers.IntegerField()
    player = PlayerSummarySerializer()
    is_tppp = serializers.BooleanField()
    sat_at = Timestamp()


class GameSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    table = serializers.IntegerField(source="table_id")
    is_open = serializers.BooleanField()
    opened_at = Timestamp()
    opened_by = username_field("opened_by")
    first_offer_seat = serializers.IntegerField()
    ended_at = Timestamp(allow_null=True)
    ended_by = username_field("ended_by")
    end_reason = serializers.ChoiceField(
        choices=[("", "still open"), *GameEndReason.choices], allow_blank=True
    )
    end_detail = serializers.CharField(allow_blank=True)


class ButtonOfferSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    offer_round = serializers.IntegerField(source="offer_round_id")
    seat = serializers.IntegerField()
    player = PlayerSummarySerializer()
    is_tppp = serializers.BooleanField()
    offered_at = Timestamp()
    offered_by = username_field("offered_by")
    answer = serializers.ChoiceField(choices=OfferAnswer.choices)
    answered_at = Timestamp(allow_null=True)
    answered_by = username_field("answered_by")
    reason = serializers.CharField(allow_blank=True)


class OfferRoundSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    table = serializers.IntegerField(source="table_id")
    game = serializers.IntegerField(source="game_id")
    start_seat = serializers.IntegerField()
    started_at = Timestamp()
    started_by = username_field("started_by")
    status = serializers.ChoiceField(choices=OfferRoundStatus.choices)
    kept_without_offers = serializers.BooleanField()
    closed_at = Timestamp(allow_null=True)
    detail = serializers.CharField(allow_blank=True)
    round = serializers.IntegerField(
        source="round.id", allow_null=True, default=None, help_text="the round it led to"
    )
    offers = ButtonOfferSerializer(many=True, source="offers.all")


class ActiveRoundSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    number = serializers.IntegerField()
    state = serializers.ChoiceField(choices=ROUND_STATE_CHOICES)


class TableSerializer(serializers.Serializer):
    """A table in the list: its options, who is seated, its open game and round in play."""

    id = serializers.IntegerField()
    name = serializers.CharField()
    created_at = Timestamp()
    closed_at = Timestamp(
        allow_null=True, help_text="a closed table (docs/rules.md §3.7); null: open"
    )
    closed_by = username_field("closed_by")
    game_played = serializers.CharField(
        source="game", help_text="the table's game: ultimate_texas_holdem, ez_baccarat"
    )
    game_name = serializers.CharField(source="game_listing.name", help_text="the game in words")
    seats = serializers.IntegerField(source="seat_count", help_text="the table's seats, 1 to n")
    game_options = serializers.JSONField(
        help_text="the options that are the game's own and no column (EZ Baccarat's decks, "
        "pays, cut card, side wagers' maximum); {} for Ultimate Texas Hold'em"
    )
    options = OptionsSerializer(source="*")
    seated = SeatedSerializer(many=True)
    open_game = serializers.SerializerMethodField(help_text="id of the open game")
    active_round = serializers.SerializerMethodField()

    def get_open_game(self, table) -> int | None:
        return table.open[0].id if table.open else None

    @extend_schema_field(ActiveRoundSerializer(allow_null=True))
    def get_active_round(self, table):
        return ActiveRoundSerializer(table.in_play[0]).data if table.in_play else None


class CountersSerializer(serializers.Serializer):
    """The open game's counters (``tables.rules.counters``)."""

    game_open_minutes = serializers.IntegerField()
    hands = serializers.IntegerField(help_text="hands of this game")
    hands_last_hour = serializers.IntegerField(help_text="hands started in the last 60 minutes")
    hands_per_hour = serializers.SerializerMethodField(
        help_text="hands of the game per hour it has been open, to one decimal; null for its "
        "first 10 minutes"
    )
    minutes_since_last_hand = serializers.IntegerField(
        allow_null=True, help_text="null before the first hand"
    )
    minutes_to_window_limit = serializers.IntegerField(
        allow_null=True,
        help_text="minutes before the 40-minute rule (docs/rules.md §8.12) would refuse a hand "
        "unless a new player other than a TPPP banks; null when the rule is off",
    )
    seated_minutes = serializers.DictField(
        child=serializers.IntegerField(), help_text="seat -> minutes its player has sat"
    )

    @extend_schema_field(serializers.CharField(allow_null=True))
    def get_hands_per_hour(self, counters) -> str | None:
        rate = counters.hands_per_hour
        return None if rate is None else one_decimal(rate)


class TableDetailSerializer(serializers.Serializer):
    """A table as the floor sees it now (``tables.selectors.counters.TableFloor``)."""

    id = serializers.IntegerField(source="table.id")
    name = serializers.CharField(source="table.name")
    created_at = Timestamp(source="table.created_at")
    closed_at = Timestamp(
        source="table.closed_at",
        allow_null=True,
        help_text="a closed table (docs/rules.md §3.7): it seats no one and opens no game "
        "until reopened; null: open",
    )
    closed_by = username_field("table.closed_by")
    game_played = serializers.CharField(
        source="table.game", help_text="the table's game: ultimate_texas_holdem, ez_baccarat"
    )
    game_name = serializers.CharField(source="table.game_listing.name")
    seats = serializers.IntegerField(source="table.seat_count")
    game_options = serializers.JSONField(source="table.game_options")
    options = OptionsSerializer(source="table")
    seated = SeatedSerializer(many=True)
    game = GameSerializer(allow_null=True)
    active_round = ActiveRoundSerializer(allow_null=True)
    offer_round = OfferRoundSerializer(
        allow_null=True, help_text="the offers for the next hand, or for the hand in play"
    )
    button_state = serializers.ChoiceField(choices=[state.value for state in BUTTON_STATES])
    button_status = serializers.CharField(help_text="where the button stands, in plain words")
    may_offer = serializers.BooleanField(
        source="button.may_offer", help_text="offering the button to the next seat is allowed now"
    )
    keeper_seat = serializers.IntegerField(
        allow_null=True,
        help_text="the seat that may keep the button without offers (offer every hand off); "
        "null: nobody may",
    )
    may_start = serializers.BooleanField(
        source="button.may_start", help_text="a player accepted: the round may start"
    )
    counters = CountersSerializer(allow_null=True, help_text="null with no game open")


class OptionChangeSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    table = serializers.IntegerField(source="table_id")
    option = serializers.CharField()
    old_value = serializers.JSONField(allow_null=True)
    new_value = serializers.JSONField(allow_null=True)
    changed_at = Timestamp()
    changed_by = username_field("changed_by")
