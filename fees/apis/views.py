"""Views of the fees API: parse input, call one service or selector, answer."""

from __future__ import annotations

import re

from django.http import HttpResponse
from django.shortcuts import get_object_or_404
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import serializers, status
from rest_framework.exceptions import NotFound
from rest_framework.response import Response
from rest_framework.views import APIView

from cardroom.api import (
    PAGE_PARAMETERS,
    READ,
    READ_ERRORS,
    SUPERVISE_OR_READ,
    WRITE_ERRORS,
    GamingDay,
    Instant,
    JSONValue,
    Pagination,
    cents,
    idempotent,
    identifier,
    paginated,
    paginated_response,
    write_schema,
)
from cardroom.clock import now
from fees import filing, selectors
from fees.models import DropBox, FeeSchedule, FeeScheduleVersion
from fees.services import drop, schedules, waivers
from tables.models import Round, Table

from .serializers import (
    DropBoxSerializer,
    DropCountSerializer,
    FeeScheduleDetailSerializer,
    FeeScheduleSerializer,
    FeeScheduleVersionSerializer,
    FeeWaiverSerializer,
    RoundFeesSerializer,
)

FILE_RESPONSES = {
    (200, "text/csv"): OpenApiResponse(OpenApiTypes.BINARY, description="CSV attachment"),
    (200, "application/pdf"): OpenApiResponse(OpenApiTypes.BINARY, description="PDF attachment"),
}


def _version(version_id: int) -> FeeScheduleVersion:
    return get_object_or_404(
        FeeScheduleVersion.objects.select_related("schedule__table", "created_by").prefetch_related(
            "rates"
        ),
        pk=version_id,
    )


def _file(filed, name: str, kind: str, title: str) -> HttpResponse:
    safe = re.sub(r"[^A-Za-z0-9_.-]", "_", name)
    if kind == "pdf":
        response = HttpResponse(
            filing.filing_pdf(filed, title=title), content_type="application/pdf"
        )
    else:
        response = HttpResponse(filing.filing_csv(filed), content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{safe}.{kind}"'
    return response


class MomentSerializer(serializers.Serializer):
    at = Instant(required=False, help_text="the moment (default: now)")

    class Meta:
        ref_name = "FeeFilingQuery"


# --- Schedules ------------------------------------------------------------------------------


class ScheduleListApi(APIView):
    permission_classes = SUPERVISE_OR_READ

    class InputSerializer(serializers.Serializer):
        name = serializers.CharField(max_length=100)
        table = identifier(
            required=False, allow_null=True, default=None, help_text="a table's own schedule"
        )
        class_minimum_cents = cents(
            required=False, allow_null=True, default=None, help_text="a limit class's minimum"
        )
        class_maximum_cents = cents(
            required=False, allow_null=True, default=None, help_text="a limit class's maximum"
        )

        class Meta:
            ref_name = "FeeScheduleInput"

    @extend_schema(
        operation_id="fees_schedules_list",
        parameters=PAGE_PARAMETERS,
        responses={200: paginated(FeeScheduleSerializer), **READ_ERRORS},
        description="Every collection schedule: a table's own, or a table-limit class's.",
    )
    def get(self, request):
        return paginated_response(
            queryset=selectors.schedules(),
            serializer_class=FeeScheduleSerializer,
            request=request,
            view=self,
        )

    @extend_schema(
        request=InputSerializer,
        description=(
            "A schedule for one table (`table`) or for every table whose limits are "
            "`class_minimum_cents`-`class_maximum_cents` (a table's own schedule comes first). "
            "Its rates come with its versions. 409 if the table or class has one."
        ),
        **write_schema(201, FeeScheduleSerializer),
    )
    @idempotent
    def post(self, request):
        data = self.InputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        values = data.validated_data
        schedule = schedules.create_schedule(
            name=values["name"],
            table_id=values["table"],
            class_minimum_cents=values["class_minimum_cents"],
            class_maximum_cents=values["class_maximum_cents"],
            by=request.user,
        )
        return Response(FeeScheduleSerializer(schedule).data, status=status.HTTP_201_CREATED)


class ScheduleDetailApi(APIView):
    permission_classes = READ

    @extend_schema(
        responses={200: FeeScheduleDetailSerializer, **READ_ERRORS},
        description="A schedule with every version, oldest first, and their rates.",
    )
    def get(self, request, schedule_id: int):
        schedule = get_object_or_404(selectors.schedules(), pk=schedule_id)
        data = FeeScheduleSerializer(schedule).data
        data["versions"] = FeeScheduleVersionSerializer(
            selectors.versions(schedule), many=True
        ).data
        return Response(data)


class ScheduleVersionListApi(APIView):
    permission_classes = SUPERVISE_OR_READ

    class InputSerializer(serializers.Serializer):
        effective_at = Instant(
            required=False, help_text="when it takes effect: now (default) or later"
        )
        player_dealer_basis = serializers.CharField(
            help_text="per_betting_square or total_table_action"
        )
        charged_squares = serializers.ListField(
            child=serializers.CharField(),
            required=False,
            help_text="betting squares charged (default: ante, blind, trips, bad_beat)",
        )
        rates = serializers.ListField(
            child=JSONValue(),
            help_text=(
                "at most five rows of flat amounts in cents: wager_from_cents, wager_to_cents, "
                "player_fee_cents, player_dealer_fee_cents, and on total table action "
                "action_from_cents, action_to_cents (null: and above)"
            ),
        )
        note = serializers.CharField(required=False, allow_blank=True, default="")

        class Meta:
            ref_name = "FeeScheduleVersionInput"

    @extend_schema(
        responses={200: FeeScheduleVersionSerializer(many=True), **READ_ERRORS},
        description="The versions of a schedule, oldest first.",
    )
    def get(self, request, schedule_id: int):
        schedule = get_object_or_404(FeeSchedule, pk=schedule_id)
        return Response(FeeScheduleVersionSerializer(selectors.versions(schedule), many=True).data)

    @extend_schema(
        request=InputSerializer,
        description=(
            "A new version of the schedule (docs/rules.md §9), validated against the table limits: "
            "at most five rates, flat amounts in cents (no percentage), player wager ranges "
            "covering the limits with no gap or overlap. A version is never edited: a change "
            "is a new version. Each hand uses the version in force when it starts."
        ),
        **write_schema(201, FeeScheduleVersionSerializer),
    )
    @idempotent
    def post(self, request, schedule_id: int):
        data = self.InputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        values = dict(data.validated_data)
        if "charged_squares" in values:
            values["charged_squares"] = tuple(values["charged_squares"])
        version = schedules.create_version(schedule_id=schedule_id, by=request.user, **values)
        return Response(
            FeeScheduleVersionSerializer(_version(version.pk)).data,
            status=status.HTTP_201_CREATED,
        )


class VersionDetailApi(APIView):
    permission_classes = SUPERVISE_OR_READ

    @extend_schema(responses={200: FeeScheduleVersionSerializer, **READ_ERRORS})
    def get(self, request, version_id: int):
        return Response(FeeScheduleVersionSerializer(_version(version_id)).data)

    def _refuse(self, request, version_id: int):
        schedules.refuse_edit(_version(version_id))

    _refusal = extend_schema(
        request=None,
        description="A version is never edited or deleted (409): create a new version.",
        responses={
            409: WRITE_ERRORS[409],
            401: WRITE_ERRORS[401],
            403: WRITE_ERRORS[403],
            404: WRITE_ERRORS[404],
        },
    )
    put = _refusal(_refuse)
    patch = _refusal(_refuse)
    delete = _refusal(_refuse)


class TableScheduleApi(APIView):
    permission_classes = READ

    @extend_schema(
        parameters=[OpenApiParameter("at", OpenApiTypes.DATETIME, description="default: now")],
        responses={200: FeeScheduleVersionSerializer, **READ_ERRORS},
        description="The version in force at a table at a moment (404 if the table has none).",
    )
    def get(self, request, table_id: int):
        query = MomentSerializer(data=request.query_params)
        query.is_valid(raise_exception=True)
        table = get_object_or_404(Table, pk=table_id)
        version = selectors.schedule_in_force(table, query.validated_data.get("at") or now())
        if version is None:
            raise NotFound(f"no collection schedule is in force at {table}")
        return Response(FeeScheduleVersionSerializer(_version(version.pk)).data)


class VersionFilingApi(APIView):
    permission_classes = READ

    @extend_schema(
        responses={**FILE_RESPONSES, **READ_ERRORS},
        description="One version in the layout of the Bureau's Example Table (.csv or .pdf).",
    )
    def get(self, request, version_id: int, kind: str):
        version = _version(version_id)
        name = f"collection-table-{version.schedule.name}-v{version.number}"
        return _file(
            selectors.filed_version(version),
            name,
            kind,
            "Collection Table",
        )


class FilingApi(APIView):
    permission_classes = READ

    @extend_schema(
        parameters=[OpenApiParameter("at", OpenApiTypes.DATETIME, description="default: now")],
        responses={**FILE_RESPONSES, **READ_ERRORS},
        description=(
            "The schedule in force at every table, in the layout of the Bureau's Example "
            "Table, for the game-approval application and for posting (CSV or PDF). The same "
            "schedules give the same bytes."
        ),
    )
    def get(self, request, kind: str):
        query = MomentSerializer(data=request.query_params)
        query.is_valid(raise_exception=True)
        moment = query.validated_data.get("at") or now()
        return _file(
            selectors.filed_in_force(moment),
            "collection-table",
            kind,
            "Collection Table",
        )


# --- Fees of a round, waivers ---------------------------------------------------------------


class RoundFeesApi(APIView):
    permission_classes = READ

    @extend_schema(
        responses={200: RoundFeesSerializer, **READ_ERRORS},
        description=(
            "The fee lines of a round in order (payer, seat, square, rate, amount, waiver) "
            "with the version that applied and the totals."
        ),
    )
    def get(self, request, round_id: int):
        round_ = get_object_or_404(Round, pk=round_id)
        totals = selectors.round_fees(round_)
        return Response(
            RoundFeesSerializer(
                {
                    "round": round_.pk,
                    "state": round_.state,
                    "fee_schedule_version": getattr(
                        selectors.round_schedule(round_), "version_id", None
                    ),
                    "assessed_cents": totals.assessed,
                    "waived_cents": totals.waived,
                    "returned_cents": totals.returned,
                    "collected_cents": totals.collected,
                    "lines": list(selectors.fee_lines(round_)),
                }
            ).data
        )


class FeeLineWaiverApi(APIView):
    permission_classes = SUPERVISE_OR_READ

    class InputSerializer(serializers.Serializer):
        reason = serializers.CharField(allow_blank=True, help_text="why the fee is waived")

        class Meta:
            ref_name = "FeeWaiverInput"

    @extend_schema(
        request=InputSerializer,
        description=(
            "A floor supervisor waives one fee before the deal (docs/rules.md §9): recorded with "
            "who and why, the fee goes back to the payer by a reversing ledger entry. 409 once "
            "the hand is dealt or if already waived."
        ),
        **write_schema(201, FeeWaiverSerializer),
    )
    @idempotent
    def post(self, request, fee_line_id: int):
        data = self.InputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        waiver = waivers.waive_fee(
            fee_line_id=fee_line_id, reason=data.validated_data["reason"], by=request.user
        )
        return Response(FeeWaiverSerializer(waiver).data, status=status.HTTP_201_CREATED)


# --- The drop -------------------------------------------------------------------------------


class DropBoxListApi(APIView):
    permission_classes = SUPERVISE_OR_READ

    class QuerySerializer(serializers.Serializer):
        table = identifier(required=False)
        gaming_day = GamingDay(required=False)
        shift = serializers.CharField(required=False)

        class Meta:
            ref_name = "DropBoxQuery"

    class InputSerializer(serializers.Serializer):
        box_number = serializers.CharField(max_length=32, help_text="the box identifier")
        table = identifier()
        gaming_day = GamingDay()
        shift = serializers.CharField(help_text="a shift of the cardroom (CARDROOM_SHIFTS)")

        class Meta:
            ref_name = "DropBoxInput"

    @extend_schema(
        operation_id="fees_drop_boxes_list",
        parameters=[
            OpenApiParameter("table", OpenApiTypes.INT),
            OpenApiParameter("gaming_day", OpenApiTypes.DATE),
            OpenApiParameter("shift", OpenApiTypes.STR),
            *PAGE_PARAMETERS,
        ],
        responses={200: paginated(DropBoxSerializer), **READ_ERRORS},
        description=(
            "Drop boxes with their reconciliation: the fees recorded for the table in the "
            "shift, the latest count and the difference (counted minus recorded)."
        ),
    )
    def get(self, request):
        query = self.QuerySerializer(data=request.query_params)
        query.is_valid(raise_exception=True)
        values = query.validated_data
        boxes = selectors.drop_boxes(
            table_id=values.get("table"),
            gaming_day=values.get("gaming_day"),
            shift=values.get("shift"),
        )
        paginator = Pagination()
        page = paginator.paginate_queryset(boxes, request, view=self)
        return paginator.get_paginated_response(
            DropBoxSerializer(selectors.reconciliations(page), many=True).data
        )

    @extend_schema(
        request=InputSerializer,
        description="Register a table's drop box for a shift of a gaming day (409 if taken).",
        **write_schema(201, DropBoxSerializer),
    )
    @idempotent
    def post(self, request):
        data = self.InputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        values = data.validated_data
        box = drop.register_box(
            box_number=values["box_number"],
            table_id=values["table"],
            gaming_day=values["gaming_day"],
            shift=values["shift"],
            by=request.user,
        )
        return Response(
            DropBoxSerializer(selectors.reconcile(box)).data, status=status.HTTP_201_CREATED
        )


class DropBoxDetailApi(APIView):
    permission_classes = READ

    @extend_schema(
        responses={200: DropBoxSerializer, **READ_ERRORS},
        description="A drop box with its reconciliation and every count (recounts included).",
    )
    def get(self, request, box_id: int):
        box = get_object_or_404(DropBox.objects.select_related("table"), pk=box_id)
        data = DropBoxSerializer(selectors.reconcile(box)).data
        data["all_counts"] = DropCountSerializer(selectors.counts(box), many=True).data
        return Response(data)


class DropBoxCountApi(APIView):
    permission_classes = SUPERVISE_OR_READ

    class InputSerializer(serializers.Serializer):
        amount_cents = cents(help_text="the amount counted, in cents")
        counters = serializers.ListField(
            child=serializers.CharField(), help_text="the count team: at least two names"
        )
        counted_at = Instant(help_text="when the box was counted")
        note = serializers.CharField(required=False, allow_blank=True, default="")

        class Meta:
            ref_name = "DropCountInput"

    @extend_schema(
        responses={200: DropCountSerializer(many=True), **READ_ERRORS},
        description="Every count of the box, oldest first.",
    )
    def get(self, request, box_id: int):
        box = get_object_or_404(DropBox, pk=box_id)
        return Response(DropCountSerializer(selectors.counts(box), many=True).data)

    @extend_schema(
        request=InputSerializer,
        description=(
            "Enter the count of a drop box (amount, counters, time). A count is never edited: "
            "a recount is a new count, and the latest one reconciles."
        ),
        **write_schema(201, DropBoxSerializer),
    )
    @idempotent
    def post(self, request, box_id: int):
        data = self.InputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        drop.enter_count(box_id=box_id, by=request.user, **data.validated_data)
        box = get_object_or_404(DropBox.objects.select_related("table"), pk=box_id)
        return Response(
            DropBoxSerializer(selectors.reconcile(box)).data, status=status.HTTP_201_CREATED
        )
