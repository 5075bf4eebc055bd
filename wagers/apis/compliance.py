"""Title 31 for the compliance office (docs/rules.md §10.7): the Multiple Transaction Log,
the CTRs due and filed, the review queue. Compliance officers (and administrators) only.
Amounts are integer cents, as everywhere in the API."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.permissions import IsAuthenticated
from rest_framework.response import Response
from rest_framework.views import APIView

from cardroom.api import (
    READ_ERRORS,
    Pagination,
    Timestamp,
    idempotent,
    list_parameters,
    paginated,
    role_permission,
    username_field,
    write_schema,
)
from cardroom.clock import today
from cardroom.roles import COMPLIANCE
from tables.serializers import PlayerSummarySerializer
from wagers import selectors
from wagers.filters import CtrFilter, MtlFilter, ReviewFilter
from wagers.models import CurrencyDirection, ReviewKind, TransactionKind
from wagers.rules import title31 as rules
from wagers.services import title31

COMPLIANCE_ONLY = [IsAuthenticated, role_permission(*COMPLIANCE)]


class IdentifiedPlayerSerializer(PlayerSummarySerializer):
    """The patron as the compliance office sees them: the ID number masked (§3.3)."""

    id_type = serializers.CharField(allow_blank=True)
    id_number_masked = serializers.CharField(allow_blank=True)
    id_issued_by = serializers.CharField(allow_blank=True)
    date_of_birth = serializers.DateField(allow_null=True)


class MtlEntrySerializer(serializers.Serializer):
    id = serializers.IntegerField()
    gaming_day = serializers.DateField()
    at = Timestamp()
    table = serializers.IntegerField(source="table_id")
    table_name = serializers.CharField(source="table.name")
    player = IdentifiedPlayerSerializer()
    identified = serializers.BooleanField(help_text="the patron's ID was on record at the time")
    description = serializers.CharField(
        allow_blank=True, help_text="how the patron was described (a patron without ID)"
    )
    direction = serializers.ChoiceField(choices=CurrencyDirection.choices)
    amount = serializers.IntegerField(source="amount_cents", help_text="cents")
    staff = username_field("by")
    transaction = serializers.IntegerField(source="cage_slip.transaction_id")


class CtrTransactionSerializer(serializers.Serializer):
    at = Timestamp(source="transaction.at")
    direction = serializers.SerializerMethodField()
    amount = serializers.IntegerField(source="amount_cents", help_text="cents")
    table_name = serializers.CharField(source="table.name")
    staff = username_field("transaction.by")
    transaction = serializers.IntegerField(source="transaction_id")

    def get_direction(self, slip) -> str:
        return (
            CurrencyDirection.IN if slip.kind == TransactionKind.BUY_IN else CurrencyDirection.OUT
        )


class CtrSerializer(serializers.Serializer):
    """A casino CTR (FinCEN Form 112) as far as the system knows it: the patron and their ID,
    the day's cash in and cash out, each transaction's time, table, amount and staff."""

    id = serializers.IntegerField()
    gaming_day = serializers.DateField()
    due_on = serializers.DateField(help_text="the last day to file: 15 days after the day")
    status = serializers.SerializerMethodField(help_text="due, overdue or filed")
    player = IdentifiedPlayerSerializer()
    cash_in = serializers.IntegerField(source="currency_day.cash_in_cents", help_text="cents")
    cash_out = serializers.IntegerField(source="currency_day.cash_out_cents", help_text="cents")
    over = serializers.SerializerMethodField(help_text='"cash in", "cash out" or both')
    transactions = serializers.SerializerMethodField()
    opened_at = Timestamp()
    filed_at = Timestamp(allow_null=True)
    filed_by = username_field("filed_by")
    filing_number = serializers.CharField(allow_blank=True)

    def get_status(self, ctr) -> str:
        if ctr.filed_at is not None:
            return "filed"
        return "overdue" if ctr.due_on < today() else "due"

    def get_over(self, ctr) -> str:
        day = ctr.currency_day
        return " and ".join(rules.Totals(day.cash_in_cents, day.cash_out_cents).over())

    @extend_schema(responses=CtrTransactionSerializer(many=True))
    def get_transactions(self, ctr) -> list:
        slips = self.context.get("transactions", {}).get(ctr.pk, [])
        return CtrTransactionSerializer(slips, many=True).data


class ReviewSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    gaming_day = serializers.DateField()
    kind = serializers.ChoiceField(choices=ReviewKind.choices)
    player = PlayerSummarySerializer()
    evidence = serializers.CharField()
    raised_at = Timestamp()
    closed_at = Timestamp(allow_null=True)
    closed_by = username_field("closed_by")
    note = serializers.CharField(allow_blank=True)


class MtlListApi(APIView):
    permission_classes = COMPLIANCE_ONLY

    @extend_schema(
        operation_id="compliance_mtl_list",
        description=(
            "The Multiple Transaction Log: every currency transaction of $3,000 or more "
            "(CARDROOM_MTL_THRESHOLD_CENTS), oldest first; `?gaming_day=YYYY-MM-DD` for a day."
        ),
        parameters=[*list_parameters(MtlFilter)],
        responses={200: paginated(MtlEntrySerializer), **READ_ERRORS},
    )
    def get(self, request):
        paginator = Pagination()
        page = paginator.paginate_queryset(
            selectors.mtl_list(filters=request.query_params), request, view=self
        )
        return paginator.get_paginated_response(MtlEntrySerializer(page, many=True).data)


class CtrListApi(APIView):
    permission_classes = COMPLIANCE_ONLY

    @extend_schema(
        operation_id="compliance_ctrs_list",
        description=(
            "Currency Transaction Reports: each patron whose cash in or cash out in a gaming "
            "day went over $10,000, with the day's transactions, the due date and whether it "
            "was filed; `?gaming_day=`, `?status=due|overdue|filed`."
        ),
        parameters=[*list_parameters(CtrFilter)],
        responses={200: paginated(CtrSerializer), **READ_ERRORS},
    )
    def get(self, request):
        paginator = Pagination()
        page = paginator.paginate_queryset(
            selectors.ctr_list(filters=request.query_params), request, view=self
        )
        context = {"transactions": selectors.ctr_transactions(page)}
        return paginator.get_paginated_response(
            CtrSerializer(page, many=True, context=context).data
        )


class CtrFiledApi(APIView):
    permission_classes = COMPLIANCE_ONLY

    class InputSerializer(serializers.Serializer):
        filing_number = serializers.CharField(
            max_length=title31.FILING_NUMBER_MAX, help_text="the BSA identifier of the filing"
        )

        class Meta:
            ref_name = "CtrFiledInput"

    @extend_schema(
        request=InputSerializer,
        description="Compliance marks the CTR filed with FinCEN, with the filing's number.",
        **write_schema(200, CtrSerializer),
    )
    @idempotent
    def post(self, request, ctr_id: int):
        data = self.InputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        ctr = title31.mark_ctr_filed(ctr_id=ctr_id, by=request.user, **data.validated_data)
        ctr = selectors.ctr_list().get(pk=ctr.pk)
        context = {"transactions": selectors.ctr_transactions([ctr])}
        return Response(CtrSerializer(ctr, context=context).data)


class ReviewListApi(APIView):
    permission_classes = COMPLIANCE_ONLY

    @extend_schema(
        operation_id="compliance_reviews_list",
        description=(
            "Patterns for a compliance officer to review (not filings): cash just under the "
            "thresholds (structuring), chips bought in cash and cashed out with little play."
        ),
        parameters=[*list_parameters(ReviewFilter)],
        responses={200: paginated(ReviewSerializer), **READ_ERRORS},
    )
    def get(self, request):
        paginator = Pagination()
        page = paginator.paginate_queryset(
            selectors.review_list(filters=request.query_params), request, view=self
        )
        return paginator.get_paginated_response(ReviewSerializer(page, many=True).data)


class ReviewCloseApi(APIView):
    permission_classes = COMPLIANCE_ONLY

    class InputSerializer(serializers.Serializer):
        note = serializers.CharField(max_length=title31.NOTE_MAX)

        class Meta:
            ref_name = "ReviewCloseInput"

    @extend_schema(
        request=InputSerializer,
        description="Close a review with what was decided.",
        **write_schema(200, ReviewSerializer),
    )
    @idempotent
    def post(self, request, review_id: int):
        data = self.InputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        review = title31.close_review(review_id=review_id, by=request.user, **data.validated_data)
        return Response(ReviewSerializer(review).data)
