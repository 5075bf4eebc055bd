"""API tokens (django-rest-knox): signed in with a password, expiring, ended with the access.

- ``POST /api/auth/token/`` (``api-token``): user name and password in, a new token and its
  expiry out, the token then sent as ``Authorization: Bearer <token>`` or ``Token <token>``
  (``cardroom.authentication``). A token lasts ``API_TOKEN_TTL_HOURS`` (one shift, 10 hours,
  by default) and use never lengthens it. Only its hash is stored: the token is shown once,
  in this answer.
- ``POST /api/auth/logout/`` ends the token it is called with; ``POST /api/auth/logoutall/``
  ends every token of its user. Both answer 204.
- A changed password ends every token of its user, the way Django ends the user's other
  sessions; so does removing the user's staff status or deactivating the account
  (``end_tokens_when_access_ends``): whatever saves the user (the admin, a command, a
  service), the tokens are deleted in the same save.

Sign-ins go through django-axes like the console's (a locked-out user name answers 429) and
are recorded on the audit trail (``console.audit``) without the password.
"""

from __future__ import annotations

from axes.helpers import get_cool_off
from django.conf import settings
from django.contrib.auth import authenticate
from django.db.models.signals import post_save, pre_save
from django.http import HttpResponse, JsonResponse
from django.shortcuts import render
from drf_spectacular.extensions import OpenApiAuthenticationExtension
from drf_spectacular.utils import OpenApiExample, OpenApiResponse, extend_schema
from knox import views as knox
from knox.models import get_token_model
from rest_framework import serializers
from rest_framework.permissions import AllowAny

from cardroom.api import WRITE_ERRORS, ErrorSerializer, error_body
from cardroom.authentication import ExpiringTokenAuthentication
from cardroom.money import duration


class SignInSerializer(serializers.Serializer):
    username = serializers.CharField(min_length=1, max_length=150, write_only=True)
    password = serializers.CharField(
        min_length=1,
        max_length=1024,
        trim_whitespace=False,
        write_only=True,
        style={"input_type": "password"},
    )

    def validate(self, attrs):
        request = self.context.get("request")
        user = authenticate(
            # Django's own request: django-axes marks a locked-out attempt on it, and its
            # middleware then answers 429, as for the console's sign-in.
            request=getattr(request, "_request", request),
            username=attrs["username"],
            password=attrs["password"],
        )
        if user is None:
            raise serializers.ValidationError(
                "unable to sign in with these credentials", code="authorization"
            )
        attrs["user"] = user
        return attrs


class TokenSerializer(serializers.Serializer):
    token = serializers.CharField(
        help_text="send it as `Authorization: Bearer <token>` (or `Authorization: Token <token>`)"
    )
    expiry = serializers.DateTimeField(help_text="when the token stops working")


class TokenSignIn(knox.LoginView):
    """A new API token for a user name and password."""

    authentication_classes = []
    permission_classes = [AllowAny]

    @extend_schema(
        operation_id="auth_token_create",
        request=SignInSerializer,
        # The documentation page's "Try it out" body: the two fields to fill in.
        examples=[
            OpenApiExample(
                "sign in",
                value={"username": "your user name", "password": "your password"},
                request_only=True,
            )
        ],
        responses={
            200: TokenSerializer,
            400: OpenApiResponse(
                WRITE_ERRORS[400].response, description="wrong user name or password"
            ),
            415: WRITE_ERRORS[415],
            429: OpenApiResponse(ErrorSerializer, description="locked after repeated failures"),
            503: WRITE_ERRORS[503],
        },
        auth=[],
    )
    def post(self, request, format=None):
        serializer = SignInSerializer(data=request.data, context={"request": request})
        serializer.is_valid(raise_exception=True)
        request.user = serializer.validated_data["user"]
        return super().post(request, format=format)


class TokenScheme(OpenApiAuthenticationExtension):
    """The token scheme in the schema (``knoxApiToken``): HTTP bearer, so the documentation
    page's "Authorize" dialog takes the token alone and sends ``Authorization: Bearer <token>``
    (``cardroom.authentication`` also accepts the ``Token`` prefix)."""

    target_class = "cardroom.authentication.ExpiringTokenAuthentication"
    name = "knoxApiToken"

    def get_security_definition(self, auto_schema):
        return {
            "type": "http",
            "scheme": "bearer",
            "description": (
                "A token from `POST /api/auth/token/`, sent as `Authorization: Bearer <token>` "
                "or `Authorization: Token <token>`; it expires (API_TOKEN_TTL_HOURS)."
            ),
        }


SIGNED_OUT = {
    204: OpenApiResponse(description="the token no longer works"),
    401: OpenApiResponse(ErrorSerializer, description="no valid token"),
}


class TokenSignOut(knox.LogoutView):
    """End the token this request carries."""

    authentication_classes = (ExpiringTokenAuthentication,)

    @extend_schema(operation_id="auth_logout_create", request=None, responses=SIGNED_OUT)
    def post(self, request, format=None):
        return super().post(request, format=format)


class TokenSignOutEverywhere(knox.LogoutAllView):
    """End every token of the user this request's token belongs to."""

    authentication_classes = (ExpiringTokenAuthentication,)

    @extend_schema(operation_id="auth_logoutall_create", request=None, responses=SIGNED_OUT)
    def post(self, request, format=None):
        return super().post(request, format=format)


# --- A locked-out sign-in ----------------------------------------------------------------------

LOCKED = "too many failed sign-ins for this user name from this address; wait, or ask a supervisor"


def lockout_response(request, original_response=None, credentials=None) -> HttpResponse:
    """django-axes' answer to a locked-out sign-in (``AXES_LOCKOUT_CALLABLE``): the API's error
    body for the token sign-in, the console's page (``AXES_LOCKOUT_TEMPLATE``) otherwise;
    429 both."""
    if request.path.startswith("/api/"):
        return JsonResponse(error_body(code="throttled", message=LOCKED), status=429)
    cool_off = get_cool_off(request)
    context = {"cooloff_time": duration(cool_off) if cool_off else None}
    return render(request, settings.AXES_LOCKOUT_TEMPLATE, context, status=429)


# --- A changed password, a lost staff status, a deactivation end the user's tokens ------------

# What, changed in a user's save, ends the user's tokens: a new password hash; staff status or
# the account's activity taken away (an account that is not active staff holds no role:
# cardroom.roles). Granted back, they do not bring the tokens back: the user signs in again.
ACCESS_FIELDS = ("password", "is_staff", "is_active")


def _ends_access(stored: dict, user) -> bool:
    return (
        stored["password"] != user.password
        or (stored["is_staff"] and not user.is_staff)
        or (stored["is_active"] and not user.is_active)
    )


def _note_access_change(sender, instance, update_fields=None, **kwargs) -> None:
    """Before a user is saved: does the save end the user's access (``ACCESS_FIELDS``)?"""
    instance._cardroom_access_ends = False
    if instance.pk is None:
        return
    if update_fields is not None and not set(update_fields) & set(ACCESS_FIELDS):
        return
    stored = sender._default_manager.filter(pk=instance.pk).values(*ACCESS_FIELDS).first()
    instance._cardroom_access_ends = stored is not None and _ends_access(stored, instance)


def end_tokens_when_access_ends(sender, instance, **kwargs) -> None:
    """After a user is saved with a new password, or without the staff status or the activity
    it had: every token of theirs is deleted."""
    if getattr(instance, "_cardroom_access_ends", False):
        get_token_model().objects.filter(user_id=instance.pk).delete()
        instance._cardroom_access_ends = False


def connect() -> None:
    """Called once by ``CardroomConfig.ready``."""
    user = settings.AUTH_USER_MODEL
    pre_save.connect(_note_access_change, sender=user, dispatch_uid="cardroom.tokens.pre")
    post_save.connect(end_tokens_when_access_ends, sender=user, dispatch_uid="cardroom.tokens.post")
