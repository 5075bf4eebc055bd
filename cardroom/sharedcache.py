"""A cache shared by the server processes that never stops a page.

The floor map's parts live in the ``floor`` cache (Redis when configured). A cache that is
down or slow (a socket timeout of ``FLOOR_CACHE_TIMEOUT``) answers "nothing cached" and
stores nothing: the page is rendered from the database as if the cache were empty, and the
failure is logged.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable, Mapping

from django.core.cache import caches
from redis.exceptions import RedisError

log = logging.getLogger(__name__)

UNAVAILABLE = (RedisError, OSError)


def get_many(alias: str, keys: Iterable[str]) -> dict[str, object]:
    try:
        return caches[alias].get_many(list(keys))
    except UNAVAILABLE as error:
        log.warning("cache %s unavailable, rendering without it: %s", alias, error)
        return {}


def set_many(alias: str, values: Mapping[str, object], timeout: float) -> None:
    try:
        caches[alias].set_many(dict(values), timeout)
    except UNAVAILABLE as error:
        log.warning("cache %s unavailable, nothing stored: %s", alias, error)


def get(alias: str, key: str) -> object | None:
    """The value kept under ``key``, or None (nothing kept, or the cache unavailable)."""
    return get_many(alias, [key]).get(key)


def put(alias: str, key: str, value: object, timeout: float) -> None:
    """Keep ``value`` under ``key`` for ``timeout`` seconds (nothing kept if unavailable)."""
    set_many(alias, {key: value}, timeout)
