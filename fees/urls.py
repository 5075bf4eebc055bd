"""The fees API's routes (included under ``api/fees/``)."""

from django.urls import path, re_path

from fees import apis

app_name = "fees"

urlpatterns = [
    path("schedules/", apis.ScheduleListApi.as_view(), name="schedule-list"),
    path("schedules/<id:schedule_id>/", apis.ScheduleDetailApi.as_view(), name="schedule-detail"),
    path(
        "schedules/<id:schedule_id>/versions/",
        apis.ScheduleVersionListApi.as_view(),
        name="schedule-versions",
    ),
    path("versions/<id:version_id>/", apis.VersionDetailApi.as_view(), name="version-detail"),
    re_path(
        r"^versions/(?P<version_id>[0-9]{1,19})/filing\.(?P<kind>csv|pdf)$",
        apis.VersionFilingApi.as_view(),
        name="version-filing",
    ),
    path("tables/<id:table_id>/schedule/", apis.TableScheduleApi.as_view(), name="table-schedule"),
    re_path(r"^filing\.(?P<kind>csv|pdf)$", apis.FilingApi.as_view(), name="filing"),
    path("rounds/<id:round_id>/", apis.RoundFeesApi.as_view(), name="round-fees"),
    path("lines/<id:fee_line_id>/waiver/", apis.FeeLineWaiverApi.as_view(), name="waiver"),
    path("drop-boxes/", apis.DropBoxListApi.as_view(), name="drop-box-list"),
    path("drop-boxes/<id:box_id>/", apis.DropBoxDetailApi.as_view(), name="drop-box-detail"),
    path("drop-boxes/<id:box_id>/counts/", apis.DropBoxCountApi.as_view(), name="drop-box-counts"),
]
