"""The reports API's routes (included under ``api/``)."""

from django.urls import path

from . import apis

app_name = "reports"

urlpatterns = [
    path("reports/", apis.ReportListApi.as_view(), name="list"),
    path("reports/<id:report_id>/", apis.ReportDetailApi.as_view(), name="detail"),
    path("reports/<id:report_id>/download/", apis.ReportDownloadApi.as_view(), name="download"),
    path(
        "reports/<id:report_id>/downloads/",
        apis.ReportDownloadListApi.as_view(),
        name="downloads",
    ),
]
