"""The money API's routes (included under ``api/``)."""

from django.urls import path

from wagers import apis

app_name = "wagers"

table = "tables/<id:table_id>/"
round_ = "rounds/<id:round_id>/"
player = "players/<id:player_id>/"
account = "accounts/<id:account_id>/"

urlpatterns = [
    path(f"{round_}settlement/", apis.RoundSettlementApi.as_view(), name="round-settlement"),
    path("calculator/", apis.SettlementCalculatorApi.as_view(), name="calculator"),
    # The calculator's first address, kept as an alias (not in the schema).
    path(
        "calculator/settle/",
        apis.SettlementCalculatorAliasApi.as_view(),
        name="calculator-settle",
    ),
    path("game-math/", apis.GameMathApi.as_view(), name="game-math"),
    # A patron's own bankroll (docs/rules.md §3.8): their own only, no id to name another's.
    path("me/bankroll/", apis.MyBankrollApi.as_view(), name="me-bankroll"),
    path(f"{table}game-math/", apis.TableGameMathApi.as_view(), name="table-game-math"),
    path(f"{table}chips/buy-in/", apis.ChipsBuyInApi.as_view(), name="chips-buy-in"),
    path(f"{table}chips/cash-out/", apis.ChipsCashOutApi.as_view(), name="chips-cash-out"),
    path(f"{table}chips/fill/", apis.ChipsFillApi.as_view(), name="chips-fill"),
    path(f"{table}chips/credit/", apis.ChipsCreditApi.as_view(), name="chips-credit"),
    # Leaving a seat settles the chips too (wagers.services.leaving), so it lives here.
    path(f"{table}seats/<id:seat>/", apis.SeatDeleteApi.as_view(), name="seat-delete"),
    path(f"{table}seats/<id:seat>/leave/", apis.SeatLeaveApi.as_view(), name="seat-leave"),
    # Closing a table cashes everyone out (wagers.services.closing), so it lives here too.
    path(f"{table}close/", apis.TableCloseApi.as_view(), name="table-close"),
    path(f"{table}reopen/", apis.TableReopenApi.as_view(), name="table-reopen"),
    path("accounts/", apis.AccountListApi.as_view(), name="account-list"),
    path(account, apis.AccountDetailApi.as_view(), name="account-detail"),
    path(
        f"{account}transactions/",
        apis.AccountTransactionListApi.as_view(),
        name="account-transactions",
    ),
    # Title 31 for the compliance office (docs/rules.md §10.7).
    path("compliance/mtl/", apis.MtlListApi.as_view(), name="compliance-mtl"),
    path("compliance/ctrs/", apis.CtrListApi.as_view(), name="compliance-ctrs"),
    path(
        "compliance/ctrs/<id:ctr_id>/filed/",
        apis.CtrFiledApi.as_view(),
        name="compliance-ctr-filed",
    ),
    path("compliance/reviews/", apis.ReviewListApi.as_view(), name="compliance-reviews"),
    path(
        "compliance/reviews/<id:review_id>/close/",
        apis.ReviewCloseApi.as_view(),
        name="compliance-review-close",
    ),
    path(f"{player}bankroll/", apis.PlayerBankrollApi.as_view(), name="player-bankroll"),
    path(f"{player}banks/", apis.PlayerBankListApi.as_view(), name="player-banks"),
    path(f"{player}sessions/", apis.PlayerSessionListApi.as_view(), name="player-sessions"),
    path(
        f"{player}playing-book.csv",
        apis.PlayerPlayingBookApi.as_view(),
        name="player-playing-book",
    ),
]
