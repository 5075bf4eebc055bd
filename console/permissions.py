"""Who may see and do what in the console: the API's role tuples, named by capability.

A capability a user lacks is not shown (templates read ``can``) and is refused with 403
if tried (the ``console_view`` decorator and the action registry check it again).
"""

from __future__ import annotations

from functools import wraps

from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied

from cardroom.roles import (
    COMPLIANCE,
    KEEP_RECORDS,
    READ_FLOOR,
    RUN_TABLE,
    SUPERVISE,
    Role,
    roles_of,
)

CAPABILITIES: dict[str, tuple[Role, ...]] = {
    "view_floor": READ_FLOOR,  # floor map, table view (read), bankrolls, fee schedules (read)
    "run_table": RUN_TABLE,  # seat, chips, button, wagers, deal, decisions, settle
    "supervise": SUPERVISE,  # open and close games, void a round
    "audit": (*SUPERVISE, *COMPLIANCE),  # the staff-action trail
    "reports": COMPLIANCE,  # request and download compliance reports
    "unlock_sign_ins": SUPERVISE,  # see the locked-out sign-ins and unlock one
    "compliance": COMPLIANCE,  # Title 31: CTRs, the MTL, the review queue
    "keep_list": KEEP_RECORDS,  # bar, self-restrict, lift (docs/rules.md §3.9)
    "keep_contracts": KEEP_RECORDS,  # record a TPPP contract, as the API's
    # The drop count: read as the API's drop-box list is read; a box registered and a count
    # entered by a floor supervisor ("supervise"), as the API's writes.
    "drop": READ_FLOOR,
}


def capabilities(user, held: set[Role] | None = None) -> dict[str, bool]:
    """What ``user`` may do: from the roles it holds (``cardroom.roles.roles_of``: none for an
    account that is not active staff, whatever its groups)."""
    if held is None:
        held = roles_of(user)  # one query for every capability, not one each
    admin = Role.ADMINISTRATOR in held
    return {name: admin or bool(held & set(roles)) for name, roles in CAPABILITIES.items()}


def request_capabilities(request) -> dict[str, bool]:
    """The signed-in user's capabilities, worked out once per request (one groups query)."""
    if getattr(request, "_console_can_user", None) is not request.user:
        user = request.user
        request._console_roles = roles_of(user)
        request._console_can = capabilities(user, request._console_roles)
        request._console_can_user = user
    return request._console_can


def require(request, capability: str) -> None:
    if not request_capabilities(request)[capability]:
        raise PermissionDenied(f"your role may not do this ({capability.replace('_', ' ')})")


def console_view(capability: str):
    """Sign-in required (redirect), then staff status and the capability (403)."""

    def decorator(view):
        @wraps(view)
        def wrapper(request, *args, **kwargs):
            if not request.user.is_authenticated:
                return redirect_to_login(request.get_full_path())
            require(request, capability)
            return view(request, *args, **kwargs)

        return wrapper

    return decorator


def context(request) -> dict:
    """Template context processor: ``can`` and the user's role names."""
    user = getattr(request, "user", None)
    if user is None or not user.is_authenticated:
        return {"can": capabilities(None), "staff_roles": []}
    can = request_capabilities(request)
    return {"can": can, "staff_roles": sorted(r.group_name for r in request._console_roles)}
