"""Top-level URL routes."""

from django.contrib import admin
from django.urls import include, path
from django.views.generic import TemplateView
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerView
from rest_framework.authtoken.views import obtain_auth_token

urlpatterns = [
    path("", TemplateView.as_view(template_name="home.html"), name="home"),
    path("admin/", admin.site.urls),
    path("console/", include("console.urls")),
    path("api/auth/token/", obtain_auth_token, name="api-token"),
    path("api/", include("tables.urls")),
    path("api/", include("wagers.urls")),
    path("api/", include("rounds.urls")),
    path("api/fees/", include("fees.urls")),
    path("api/", include("reports.urls")),
    path("api/schema/", SpectacularAPIView.as_view(), name="schema"),
    # Swagger UI assets come from drf-spectacular-sidecar (see SPECTACULAR_SETTINGS), so the
    # docs page works on a network without CDN access.
    path("api/docs/", SpectacularSwaggerView.as_view(url_name="schema"), name="swagger-ui"),
]
