"""The console's long lists, a page at a time (the audit trail, the players, Title 31's
lists, the barred list): ``page_of`` gives the page asked for and what its links keep.

A page is one COUNT and one SELECT of its rows, however many rows there are. Its links keep
every other parameter of the request (the filters, another list's page on the same page),
so paging one list changes nothing else that is shown. Several lists on one page each have
their own parameter (``mtl_page``, ``reviews_page``...); ``templates/console/_pager.html``
draws the links.
"""

from __future__ import annotations

from django.core.paginator import Page, Paginator

from cardroom import bounds


def page_number(request, param: str = "page") -> int:
    """The page asked for, in the ASCII digits; anything else is the first page."""
    try:
        return bounds.strict_int(request.GET.get(param, "1"), minimum=1, maximum=bounds.ID_MAX)
    except bounds.OutOfBounds:
        return 1


def page_of(request, rows, per_page: int, *, param: str = "page", anchor: str = "") -> Page:
    """The page of ``rows`` (ordered, ending with a unique key) asked for by ``param``;
    ``page.query`` is the request's other parameters, ``page.param`` the page's own, and
    ``page.anchor`` the section its links return to (``#mtl``)."""
    page = Paginator(rows, per_page).get_page(page_number(request, param))
    others = request.GET.copy()
    others.pop(param, None)
    page.query = bounds.storable(others.urlencode())
    page.param = param
    page.anchor = f"#{anchor}" if anchor else ""
    return page
