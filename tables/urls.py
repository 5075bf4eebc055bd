"""The floor API's routes (included under ``api/``)."""

from django.urls import path

from tables import apis

app_name = "tables"

table = "tables/<int:table_id>/"
round_ = "rounds/<int:round_id>/"

urlpatterns = [
    path("players/", apis.PlayerListApi.as_view(), name="player-list"),
    path("players/<int:player_id>/", apis.PlayerDetailApi.as_view(), name="player-detail"),
    path("tables/", apis.TableListApi.as_view(), name="table-list"),
    path(table, apis.TableDetailApi.as_view(), name="table-detail"),
    path(
        f"{table}option-changes/",
        apis.TableOptionChangeListApi.as_view(),
        name="table-option-changes",
    ),
    path(f"{table}seats/", apis.SeatCreateApi.as_view(), name="seat-create"),
    path(f"{table}seats/<int:seat>/", apis.SeatDeleteApi.as_view(), name="seat-delete"),
    path(f"{table}game/open/", apis.GameOpenApi.as_view(), name="game-open"),
    path(f"{table}game/close/", apis.GameCloseApi.as_view(), name="game-close"),
    path(f"{table}button/offer/", apis.ButtonOfferApi.as_view(), name="button-offer"),
    path(
        f"{table}button/offers/<int:offer_id>/answer/",
        apis.ButtonAnswerApi.as_view(),
        name="button-answer",
    ),
    path(f"{table}button/keep/", apis.ButtonKeepApi.as_view(), name="button-keep"),
    path(f"{table}rounds/", apis.RoundStartApi.as_view(), name="round-start"),
    path("seatings/", apis.SeatingListApi.as_view(), name="seating-list"),
    path("games/", apis.GameListApi.as_view(), name="game-list"),
    path("offer-rounds/", apis.OfferRoundListApi.as_view(), name="offer-round-list"),
    path("rounds/", apis.RoundListApi.as_view(), name="round-list"),
    path(round_, apis.RoundDetailApi.as_view(), name="round-detail"),
    path(f"{round_}no-more-bets/", apis.RoundNoMoreBetsApi.as_view(), name="round-no-more-bets"),
    path(f"{round_}deal/", apis.RoundDealApi.as_view(), name="round-deal"),
    path(f"{round_}decisions/", apis.RoundDecisionApi.as_view(), name="round-decisions"),
    path(f"{round_}flop/", apis.RoundFlopApi.as_view(), name="round-flop"),
    path(f"{round_}turn-river/", apis.RoundTurnRiverApi.as_view(), name="round-turn-river"),
    path(f"{round_}showdown/", apis.RoundShowdownApi.as_view(), name="round-showdown"),
    path(f"{round_}settle/", apis.RoundSettleApi.as_view(), name="round-settle"),
    path(f"{round_}void/", apis.RoundVoidApi.as_view(), name="round-void"),
]
