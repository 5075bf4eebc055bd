"""The API's documentation page (Swagger UI) under the Content-Security-Policy.

The page's scripts are files from this site (drf-spectacular-sidecar's Swagger UI, and the
split view's start-up script served from the page's own URL), as the policy requires. Two
relaxations, for this page only: its one inline ``<style>`` carries the request's nonce
(templates/drf_spectacular/swagger_ui.html), and Swagger UI's stylesheet draws its icons
as ``data:`` images.
"""

from __future__ import annotations

from csp.constants import NONCE
from csp.decorators import csp_update

DOCS_PAGE_POLICY = {"style-src": [NONCE], "img-src": ["data:"]}


def api_docs(view):
    """``view`` answering with the documentation page's additions to the policy."""
    return csp_update(DOCS_PAGE_POLICY)(view)
