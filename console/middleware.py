"""Every write request, from the console or the API, leaves a StaffAction row."""

from __future__ import annotations

from .audit import WRITE_METHODS, api_body, record


class AuditMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        if request.method not in WRITE_METHODS or request.path.startswith("/static/"):
            return self.get_response(request)
        # Who was signed in before the view ran: a sign-out view clears request.user.
        user_before = request.user if hasattr(request, "user") else None
        if user_before is not None:
            user_before.is_authenticated  # noqa: B018  (resolve the lazy user now)
        body = api_body(request) if request.path.startswith("/api/") else ""
        response = self.get_response(request)
        record(request, response, user_before=user_before, body=body)
        return response
