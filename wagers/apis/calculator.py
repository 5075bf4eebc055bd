"""The settlement calculator (docs/rules.md §11): one complete hand resolved and settled
without touching the database, for dispute resolution, training and audits.

The body is the hand in the calculator's JSON format, the answer its settlement; a broken
rule answers 400 naming the rule and the JSON field, as ``manage.py settle_hand`` does.
"""

from __future__ import annotations

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework.permissions import IsAuthenticated
from rest_framework.response import Response
from rest_framework.views import APIView

from cardroom.api import READ_ERRORS, JSONParser, RuleErrorSerializer, role_permission
from cardroom.roles import READ_FLOOR
from games.registry import settle_request


class SettlementCalculatorApi(APIView):
    # Anyone who may read the floor: it changes nothing (a POST only because a hand is a body).
    permission_classes = [IsAuthenticated, role_permission(*READ_FLOOR, read=READ_FLOOR)]
    parser_classes = [JSONParser]

    @extend_schema(
        operation_id="settlement_calculator",
        request=OpenApiTypes.OBJECT,
        description=(
            "Resolve and settle one complete hand given in the calculator's JSON format "
            "(docs/rules.md §11, §14.7; amounts in integer cents, cards such as `As`); the "
            "hand's `options.game` (`ultimate_texas_holdem`, the default, or `ez_baccarat`) "
            "chooses the game and its format. Nothing is "
            "stored. A broken rule answers 400 naming the rule and the JSON field."
        ),
        responses={
            200: OpenApiResponse(OpenApiTypes.OBJECT, description="the settlement, in order"),
            **READ_ERRORS,
            400: OpenApiResponse(RuleErrorSerializer, description="the rule and field broken"),
        },
    )
    def post(self, request):
        return Response(settle_request(request.data))


@extend_schema(exclude=True)
class SettlementCalculatorAliasApi(SettlementCalculatorApi):
    """``POST /api/calculator/settle/``, the calculator's first address: the same view, kept
    so that nothing calling it breaks. The schema documents ``POST /api/calculator/`` only
    (one operation, one id)."""
