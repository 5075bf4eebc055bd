"""Game math (docs/rules.md §13): each wager's exact house edge, standard deviation and hit
frequency, for a table's options sheet in force or for an options object given in full.

``GET /api/tables/{table_id}/game-math/`` answers for the table's options now;
``POST /api/game-math/`` takes the settlement calculator's ``options`` object (pay tables by
name or in full) as the body, with the calculator's errors (400 naming the rule and field).
Nothing is stored. Figures are decimal strings of the exact fractions (a standard
deviation, a square root, to 20 significant digits).
"""

from __future__ import annotations

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework.permissions import IsAuthenticated
from rest_framework.response import Response
from rest_framework.views import APIView

from cardroom.api import READ_ERRORS, JSONParser, RuleErrorSerializer, role_permission
from cardroom.roles import READ_FLOOR
from games import registry
from tables import options as table_options
from tables.selectors.floor import table_get

_ANSWER = OpenApiResponse(
    OpenApiTypes.OBJECT,
    description=(
        '{"trips": {"house_edge", "std_dev", "hit_frequency"}, "bad_beat": {...} or null, '
        '"base_game": {"house_edge", "element_of_risk", "std_dev"}}: decimal strings; a '
        "house edge is the player-dealer's expected gain per unit wagered (the base game's "
        "per unit of Ante)"
    ),
)


class TableGameMathApi(APIView):
    permission_classes = [IsAuthenticated, role_permission(*READ_FLOOR, read=READ_FLOOR)]

    @extend_schema(
        operation_id="table_game_math",
        description="The exact figures of the table's wagers under its options sheet in force.",
        responses={200: _ANSWER, **READ_ERRORS},
    )
    def get(self, request, table_id: int):
        table = table_get(table_id=table_id)
        return Response(registry.game(table.game).sheet_math(table_options.snapshot(table)))


class GameMathApi(APIView):
    # Anyone who may read the floor: it changes nothing (a POST only because options are a body).
    permission_classes = [IsAuthenticated, role_permission(*READ_FLOOR, read=READ_FLOOR)]
    parser_classes = [JSONParser]

    @extend_schema(
        operation_id="game_math",
        request=OpenApiTypes.OBJECT,
        description=(
            "The exact figures of the wagers under an options object in the settlement "
            "calculator's format (docs/rules.md §11). A broken rule answers 400 naming the "
            "rule and the field."
        ),
        responses={
            200: _ANSWER,
            **READ_ERRORS,
            400: OpenApiResponse(RuleErrorSerializer, description="the rule and field broken"),
        },
    )
    def post(self, request):
        return Response(registry.game_math(request.data))
