"""The round lifecycle API's routes (included under ``api/``)."""

from django.urls import path

from rounds import apis

app_name = "rounds"

table = "tables/<id:table_id>/"
round_ = "rounds/<id:round_id>/"

urlpatterns = [
    path(f"{table}rounds/", apis.RoundStartApi.as_view(), name="round-start"),
    path("rounds/", apis.RoundListApi.as_view(), name="round-list"),
    path(round_, apis.RoundDetailApi.as_view(), name="round-detail"),
    path(f"{round_}bank/", apis.RoundBankApi.as_view(), name="round-bank"),
    path(f"{round_}wagers/", apis.RoundWagerApi.as_view(), name="round-wagers"),
    path(f"{round_}wagers/batch/", apis.RoundWagerBatchApi.as_view(), name="round-wagers-batch"),
    path(f"{round_}no-more-bets/", apis.RoundNoMoreBetsApi.as_view(), name="round-no-more-bets"),
    path(f"{round_}deal/", apis.RoundDealApi.as_view(), name="round-deal"),
    path(f"{round_}decisions/", apis.RoundDecisionApi.as_view(), name="round-decisions"),
    path(
        f"{round_}decisions/street/",
        apis.RoundStreetDecisionsApi.as_view(),
        name="round-decisions-street",
    ),
    path(f"{round_}flop/", apis.RoundFlopApi.as_view(), name="round-flop"),
    path(f"{round_}turn-river/", apis.RoundTurnRiverApi.as_view(), name="round-turn-river"),
    path(f"{round_}showdown/", apis.RoundShowdownApi.as_view(), name="round-showdown"),
    path(f"{round_}settle/", apis.RoundSettleApi.as_view(), name="round-settle"),
    path(f"{round_}void/", apis.RoundVoidApi.as_view(), name="round-void"),
]
