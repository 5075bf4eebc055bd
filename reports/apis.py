"""The reports API: request a report, list and filter requests, see status, download.

Compliance officers (and administrators) only: 403 for every other role.
"""

from __future__ import annotations

from django.http import FileResponse
from drf_spectacular.utils import OpenApiResponse, extend_schema, extend_schema_field
from rest_framework import serializers, status
from rest_framework.permissions import IsAuthenticated
from rest_framework.response import Response
from rest_framework.views import APIView

from cardroom.api import (
    READ_ERRORS,
    StateErrorSerializer,
    Timestamp,
    idempotent,
    list_parameters,
    paginated,
    paginated_response,
    role_permission,
    write_schema,
)
from cardroom.roles import COMPLIANCE
from reports.models import (
    QUEUE_UNREACHABLE,
    QueueState,
    ReportDownload,
    ReportRequest,
    ReportType,
)

from . import selectors, services

COMPLIANCE_ONLY = [IsAuthenticated, role_permission(*COMPLIANCE)]
ERRORS = {**READ_ERRORS, 403: OpenApiResponse(description="compliance or administrator only")}


class ReportRequestSerializer(serializers.ModelSerializer):
    requested_by = serializers.CharField(source="requested_by.username")
    requested_at = Timestamp()
    started_at = Timestamp()
    finished_at = Timestamp()
    lease_expires_at = Timestamp()
    file_purged_at = Timestamp(
        help_text="the file was deleted when its retention passed; null while it is kept"
    )
    queue = serializers.SerializerMethodField(
        help_text=(
            "while queued: `sent` (the broker took the task), `unreachable` (the report queue "
            "cannot be reached: the request is saved and runs when it is back), `pending` "
            "(not handed over yet); null once running"
        )
    )
    queue_message = serializers.SerializerMethodField(
        help_text="a sentence for people while the queue is unreachable, else null"
    )
    queue_status = serializers.SerializerMethodField(
        help_text=(
            "while queued, what is happening, for people: queued since when, handed to the "
            "queue how many times, whether the queue has it, lost it (a broker restarted "
            "empty) or cannot be reached, and by when it is handed over next; null once running"
        )
    )
    queued_since = serializers.SerializerMethodField(
        help_text="while queued: when it was (last) queued; null once running"
    )
    hand_overs = serializers.IntegerField(
        help_text="how many times its task was handed to the report queue, in all"
    )
    message_missing_since = Timestamp(
        help_text="while queued: when the queue was found no longer holding its task; null "
        "while it does"
    )
    next_hand_over = serializers.SerializerMethodField(
        help_text="while queued: by when the sweeper hands its task over (again); null while "
        "the queue has it"
    )
    enqueued_at = Timestamp(help_text="when the broker last took the request's task")
    enqueue_error = serializers.CharField(
        help_text="why the last hand-over to the queue failed; empty once taken"
    )
    heartbeat_at = Timestamp(help_text="the running worker's latest sign of life")
    runner = serializers.CharField(help_text="the process running it: `<host> pid <n>`")
    download_url = serializers.SerializerMethodField()

    class Meta:
        model = ReportRequest
        fields = [
            "id", "report_type", "parameters", "requested_by", "requested_at", "scheduled",
            "status", "queue", "queue_message", "queue_status", "queued_since", "hand_overs",
            "enqueued_at", "message_missing_since", "next_hand_over", "enqueue_error", "attempts",
            "started_at", "runner", "heartbeat_at", "lease_expires_at", "finished_at",
            "period_open", "row_count", "file_name", "content_type", "size_bytes", "sha256",
            "failure_reason", "retention_until", "file_purged_at", "download_url",
        ]  # fmt: skip

    def _queue(self, report) -> QueueState | None:
        # The answer to a request may know more than the row yet (services.Requested.queue).
        return self.context.get("queue", {}).get(report.pk, report.queue_state)

    @extend_schema_field(serializers.ChoiceField(choices=QueueState.choices, allow_null=True))
    def get_queue(self, report) -> str | None:
        state = self._queue(report)
        return None if state is None else QueueState(state).value

    def get_queue_message(self, report) -> str | None:
        return QUEUE_UNREACHABLE if self._queue(report) == QueueState.UNREACHABLE else None

    def _status(self, report) -> selectors.QueueStatus | None:
        return selectors.queue_status(report, state=self._queue(report))

    def get_queue_status(self, report) -> str | None:
        status = self._status(report)
        return None if status is None else status.words

    @extend_schema_field(Timestamp(allow_null=True))
    def get_queued_since(self, report) -> str | None:
        status = self._status(report)
        return None if status is None else Timestamp().to_representation(status.queued_since)

    @extend_schema_field(Timestamp(allow_null=True))
    def get_next_hand_over(self, report) -> str | None:
        status = self._status(report)
        return None if status is None else Timestamp().to_representation(status.next_hand_over)

    def get_download_url(self, report) -> str | None:
        if report.status != "done" or report.file_purged_at is not None:
            return None
        return f"/api/reports/{report.pk}/download/"


class ReportCreateSerializer(serializers.Serializer):
    report_type = serializers.ChoiceField(choices=ReportType.choices)
    parameters = serializers.DictField(
        help_text=(
            "gaming_day (YYYY-MM-DD) or from_day and to_day; table (id, omit for all); "
            "format (csv or pdf)"
        )
    )


class ReportDownloadSerializer(serializers.ModelSerializer):
    downloaded_by = serializers.CharField(source="downloaded_by.username")
    downloaded_at = Timestamp()

    class Meta:
        model = ReportDownload
        fields = ["id", "downloaded_by", "downloaded_at", "sha256", "remote_addr"]


REQUEST_SCHEMA = write_schema(202, ReportRequestSerializer)
REQUEST_SCHEMA["responses"][200] = ReportRequestSerializer


class ReportListApi(APIView):
    permission_classes = COMPLIANCE_ONLY

    @extend_schema(
        operation_id="reports_list",
        parameters=list_parameters(selectors.ReportRequestFilter),
        responses={200: paginated(ReportRequestSerializer), **ERRORS},
    )
    def get(self, request):
        return paginated_response(
            queryset=selectors.report_list(filters=request.query_params),
            serializer_class=ReportRequestSerializer,
            request=request,
            view=self,
        )

    @extend_schema(
        operation_id="reports_request",
        request=ReportCreateSerializer,
        description=(
            "Queue a report. 202 with the new request; 200 with the request already queued "
            "or running for the same report type and parameters. Answered at once whether or "
            "not the report queue can be reached: the request is saved either way, and "
            "`queue` is `unreachable` (with `queue_message`) when it cannot; it runs once the "
            "queue is back. With an `Idempotency-Key`, a repeat replays the first answer and "
            "makes no second request; another body with the same key answers 422 "
            "`key_reused`."
        ),
        **REQUEST_SCHEMA,
    )
    @idempotent
    def post(self, request):
        data = ReportCreateSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        requested = services.request_report(
            report_type=data.validated_data["report_type"],
            parameters=data.validated_data["parameters"],
            by=request.user,
        )
        context = {"queue": {requested.report.pk: requested.queue}}
        return Response(
            ReportRequestSerializer(requested.report, context=context).data,
            status=status.HTTP_202_ACCEPTED if requested.created else status.HTTP_200_OK,
        )


class ReportDetailApi(APIView):
    permission_classes = COMPLIANCE_ONLY

    @extend_schema(responses={200: ReportRequestSerializer, **ERRORS})
    def get(self, request, report_id: int):
        return Response(ReportRequestSerializer(selectors.report_get(report_id=report_id)).data)


class ReportDownloadApi(APIView):
    permission_classes = COMPLIANCE_ONLY

    @extend_schema(
        operation_id="reports_download",
        description=(
            "The stored file, served only if its SHA-256 matches the recorded one (409 "
            "`checksum_mismatch` otherwise). Every download is recorded."
        ),
        responses={
            (200, "text/csv"): OpenApiResponse(description="the report (CSV or PDF)"),
            409: StateErrorSerializer,
            **ERRORS,
        },
    )
    def get(self, request, report_id: int):
        report, copy = services.download(
            report_id=report_id, by=request.user, remote_addr=request.META.get("REMOTE_ADDR", "")
        )
        response = FileResponse(
            copy, as_attachment=True, filename=report.file_name, content_type=report.content_type
        )
        response["X-Content-SHA256"] = report.sha256
        return response


class ReportDownloadListApi(APIView):
    permission_classes = COMPLIANCE_ONLY

    @extend_schema(responses={200: ReportDownloadSerializer(many=True), **ERRORS})
    def get(self, request, report_id: int):
        downloads = selectors.download_list(report_id=report_id)
        return Response(ReportDownloadSerializer(downloads, many=True).data)
