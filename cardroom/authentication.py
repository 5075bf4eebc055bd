"""The API's token authentication: django-rest-knox's expiring tokens, sent as
``Authorization: Token <token>`` or ``Authorization: Bearer <token>`` (docs/api.md).

knox reads one prefix (``REST_KNOX["AUTH_HEADER_PREFIX"]``, ``Token``); most HTTP clients and
API tools send ``Bearer`` (RFC 6750). Both name the same token here. A header with any other
scheme is left to the next authentication class (the session), as knox does; a ``Token`` or
``Bearer`` header whose token is wrong, expired or ended is refused 401, never passed on.

This module is imported by DRF's settings when ``rest_framework.views`` loads, so it imports
nothing of DRF's views (nor ``cardroom.tokens``, which does).
"""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _
from knox.auth import TokenAuthentication
from rest_framework import exceptions
from rest_framework.authentication import get_authorization_header

# The schemes that carry an API token, the first one named in the 401 challenge.
TOKEN_KEYWORDS = ("Token", "Bearer")


class ExpiringTokenAuthentication(TokenAuthentication):
    """knox's ``TokenAuthentication`` accepting both ``Token`` and ``Bearer``."""

    keywords = TOKEN_KEYWORDS

    def authenticate(self, request):
        auth = get_authorization_header(request).split()
        if not auth or auth[0].lower() not in {k.lower().encode() for k in self.keywords}:
            return None
        if len(auth) == 1:
            raise exceptions.AuthenticationFailed(_("Invalid token header. No token provided."))
        if len(auth) > 2:
            raise exceptions.AuthenticationFailed(
                _("Invalid token header. The token must not contain spaces.")
            )
        try:
            auth[1].decode("utf-8")
        except UnicodeDecodeError:
            raise exceptions.AuthenticationFailed(_("Invalid token.")) from None
        return self.authenticate_credentials(auth[1])

    def authenticate_header(self, request):
        return self.keywords[0]
