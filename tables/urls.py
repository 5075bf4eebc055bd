"""The floor API's routes (included under ``api/``)."""

from django.urls import path

from tables import apis

app_name = "tables"

table = "tables/<id:table_id>/"
waitlist = "waitlists/<id:waitlist_id>/"
listed = f"{waitlist}players/<id:player_id>/"

urlpatterns = [
    path("players/", apis.PlayerListApi.as_view(), name="player-list"),
    path("players/<id:player_id>/", apis.PlayerDetailApi.as_view(), name="player-detail"),
    path("exclusions/", apis.ExclusionListApi.as_view(), name="exclusion-list"),
    path("tppp-contracts/", apis.ContractListApi.as_view(), name="tppp-contract-list"),
    path(
        "exclusions/<id:exclusion_id>/lift/",
        apis.ExclusionLiftApi.as_view(),
        name="exclusion-lift",
    ),
    path("tables/", apis.TableListApi.as_view(), name="table-list"),
    path(table, apis.TableDetailApi.as_view(), name="table-detail"),
    path(
        f"{table}option-changes/",
        apis.TableOptionChangeListApi.as_view(),
        name="table-option-changes",
    ),
    path(f"{table}seats/", apis.SeatCreateApi.as_view(), name="seat-create"),
    path(f"{table}game/open/", apis.GameOpenApi.as_view(), name="game-open"),
    path(f"{table}game/close/", apis.GameCloseApi.as_view(), name="game-close"),
    path(f"{table}button/offer/", apis.ButtonOfferApi.as_view(), name="button-offer"),
    path(
        f"{table}button/offers/<id:offer_id>/answer/",
        apis.ButtonAnswerApi.as_view(),
        name="button-answer",
    ),
    path(f"{table}button/keep/", apis.ButtonKeepApi.as_view(), name="button-keep"),
    path(f"{table}seats/<id:seat>/hold/", apis.SeatHoldApi.as_view(), name="seat-hold"),
    path("waitlists/", apis.WaitlistListApi.as_view(), name="waitlist-list"),
    path(waitlist, apis.WaitlistDetailApi.as_view(), name="waitlist-detail"),
    path(f"{waitlist}events/", apis.WaitlistEventListApi.as_view(), name="waitlist-events"),
    path(f"{waitlist}players/", apis.WaitlistJoinApi.as_view(), name="waitlist-join"),
    path(f"{waitlist}calls/", apis.WaitlistCallApi.as_view(), name="waitlist-call"),
    path(listed, apis.WaitlistPlayerApi.as_view(), name="waitlist-player"),
    path(f"{listed}check-in/", apis.WaitlistCheckInApi.as_view(), name="waitlist-check-in"),
    path(f"{listed}answer/", apis.WaitlistAnswerApi.as_view(), name="waitlist-answer"),
    path(f"{listed}pass-over/", apis.WaitlistPassOverApi.as_view(), name="waitlist-pass-over"),
    path(f"{listed}withdraw/", apis.WaitlistWithdrawApi.as_view(), name="waitlist-withdraw"),
    path(f"{table}seats/<id:seat>/pass/", apis.SeatPassApi.as_view(), name="seat-pass"),
    path("seat-offers/", apis.SeatOfferListApi.as_view(), name="seat-offer-list"),
    path("must-moves/", apis.MustMoveListApi.as_view(), name="must-move-list"),
    path("must-moves/<id:must_move_id>/end/", apis.MustMoveEndApi.as_view(), name="must-move-end"),
    path("table-changes/", apis.TableChangeListApi.as_view(), name="table-change-list"),
    path(
        "table-changes/<id:table_change_id>/cancel/",
        apis.TableChangeCancelApi.as_view(),
        name="table-change-cancel",
    ),
    path("seatings/", apis.SeatingListApi.as_view(), name="seating-list"),
    path("games/", apis.GameListApi.as_view(), name="game-list"),
    path("offer-rounds/", apis.OfferRoundListApi.as_view(), name="offer-round-list"),
]
