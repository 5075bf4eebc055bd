"""Top-level URL routes."""

from django.contrib import admin
from django.http import HttpResponsePermanentRedirect
from django.templatetags.static import static
from django.urls import include, path, register_converter
from django.views.generic import TemplateView
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerSplitView

from cardroom import tokens
from cardroom.converters import IdConverter
from cardroom.docs import api_docs

# `<id:...>` in every app's routes: an id beyond the largest 64-bit id is a 404, not a 500.
register_converter(IdConverter, "id")

# Under /api/ Django's own error pages answer the API's error body, in JSON (cardroom/api.py).


def favicon(request):
    """The console's icon, for a browser that asks ``/favicon.ico`` of its own accord (its
    static URL is looked up per request: a collected, hashed name in production)."""
    return HttpResponsePermanentRedirect(static("console/favicon.svg"))


handler400 = "cardroom.api.bad_request"
handler404 = "cardroom.api.not_found"
handler500 = "cardroom.api.server_error"

urlpatterns = [
    path("", TemplateView.as_view(template_name="home.html"), name="home"),
    # The icon a browser asks for on its own (the pages name it in their <head>): the console's.
    path("favicon.ico", favicon, name="favicon"),
    path("admin/", admin.site.urls),
    path("console/", include("console.urls")),
    path("board/", include("console.board_urls")),
    path("api/auth/token/", tokens.TokenSignIn.as_view(), name="api-token"),
    path("api/auth/logout/", tokens.TokenSignOut.as_view(), name="api-token-logout"),
    path(
        "api/auth/logoutall/",
        tokens.TokenSignOutEverywhere.as_view(),
        name="api-token-logout-all",
    ),
    path("api/", include("tables.urls")),
    path("api/", include("wagers.urls")),
    path("api/", include("rounds.urls")),
    path("api/fees/", include("fees.urls")),
    path("api/", include("reports.urls")),
    path("api/schema/", SpectacularAPIView.as_view(), name="schema"),
    # Swagger UI assets come from drf-spectacular-sidecar (see SPECTACULAR_SETTINGS), so the
    # docs page works on a network without CDN access; its script is a file of its own (the
    # split view), so the Content-Security-Policy needs no inline script (cardroom/docs.py).
    path(
        "api/docs/",
        api_docs(SpectacularSwaggerSplitView.as_view(url_name="schema")),
        name="swagger-ui",
    ),
]
