"""Ledger accounts and their statements: every transaction touching an account, in order."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema
from rest_framework.response import Response
from rest_framework.views import APIView

from cardroom.api import (
    PAGE_PARAMETERS,
    READ,
    READ_ERRORS,
    Pagination,
    list_parameters,
    paginated,
    paginated_response,
)
from wagers import selectors
from wagers.filters import AccountFilter

from .serializers import AccountSerializer, StatementLineSerializer


class AccountListApi(APIView):
    permission_classes = READ

    @extend_schema(
        operation_id="accounts_list",
        parameters=list_parameters(AccountFilter),
        responses={200: paginated(AccountSerializer), **READ_ERRORS},
    )
    def get(self, request):
        return paginated_response(
            queryset=selectors.account_list(filters=request.query_params),
            serializer_class=AccountSerializer,
            request=request,
            view=self,
        )


class AccountDetailApi(APIView):
    permission_classes = READ

    @extend_schema(responses={200: AccountSerializer, **READ_ERRORS})
    def get(self, request, account_id: int):
        return Response(AccountSerializer(selectors.account_get(account_id=account_id)).data)


class AccountTransactionListApi(APIView):
    permission_classes = READ

    @extend_schema(
        operation_id="accounts_transactions_list",
        description=(
            "The account's statement: the ledger transactions touching it, oldest first, each "
            "with all its entries, its change to this account and the balance after it."
        ),
        parameters=PAGE_PARAMETERS,
        responses={200: paginated(StatementLineSerializer), **READ_ERRORS},
    )
    def get(self, request, account_id: int):
        account = selectors.account_get(account_id=account_id)
        paginator = Pagination()
        page = paginator.paginate_queryset(
            selectors.account_transactions(account.pk), request, view=self
        )
        context = {
            "account_id": account.pk,
            "balances": selectors.balances_after(account.pk, page),
        }
        return paginator.get_paginated_response(
            StatementLineSerializer(page, many=True, context=context).data
        )
