from django.contrib.auth import views as auth_views
from django.urls import path

from .views import (
    calculator,
    drop,
    fees,
    me,
    options,
    pages,
    reports,
    seat_requests,
    sign_in,
    sign_ins,
    table,
    waitlists,
)

app_name = "console"

urlpatterns = [
    path("sign-in/", sign_in.SignIn.as_view(), name="login"),
    path("sign-out/", auth_views.LogoutView.as_view(), name="logout"),
    path("", pages.floor, name="floor"),
    path("tables/new/", pages.create_table, name="tables-create"),
    path("tables/<id:table_id>/", table.table, name="table"),
    # Before the actions' route, whose slug would take "options" too.
    path("tables/<id:table_id>/options/", options.options_sheet, name="table-options"),
    path("tables/<id:table_id>/math/", options.game_math, name="table-math"),
    path("tables/<id:table_id>/<slug:action>/", table.table_action, name="table-action"),
    path("players/", pages.players, name="players"),
    path("players/new/", pages.create_player, name="players-create"),
    path("players/<id:player_id>/", pages.bankroll, name="bankroll"),
    path(
        "players/<id:player_id>/identification/",
        pages.edit_identification,
        name="player-identification",
    ),
    path("players/<id:player_id>/tppp/", pages.edit_tppp_registration, name="player-tppp"),
    path("players/<id:player_id>/sign-in/", me.issue_sign_in, name="player-sign-in"),
    path("me/", me.my_bankroll, name="me"),
    path("sign-ins/locked/", sign_ins.locked_sign_ins, name="locked-sign-ins"),
    path("sign-ins/locked/unlock/", sign_ins.unlock_sign_in, name="unlock-sign-in"),
    path("audit/", pages.audit, name="audit"),
    path("audit/export/", pages.audit_export, name="audit-export"),
    path("waitlists/", waitlists.waitlist_page, name="waitlists"),
    path("waitlists/open/", waitlists.open_list, name="waitlists-open"),
    path("waitlists/join/", waitlists.join_list, name="waitlists-join"),
    path(
        "waitlists/seat-requests/<slug:action>/",
        seat_requests.seat_request_action,
        name="seat-request-action",
    ),
    path(
        "waitlists/<id:waitlist_id>/<slug:action>/",
        waitlists.waitlist_action,
        name="waitlist-action",
    ),
    path("calculator/", calculator.calculator, name="calculator"),
    path("fees/", fees.fee_schedules, name="fees"),
    path("reports/", reports.reports, name="reports"),
    path("reports/request/", reports.request_report, name="reports-request"),
    path("reports/<id:report_id>/download/", reports.download, name="reports-download"),
    path("drop/", drop.drop_page, name="drop"),
    path("drop/boxes/", drop.register_box, name="drop-register"),
    path("drop/boxes/<id:box_id>/count/", drop.enter_count, name="drop-count"),
    path("fees/schedules/", fees.create_schedule, name="fees-create-schedule"),
    path("fees/versions/", fees.create_version, name="fees-create-version"),
]
