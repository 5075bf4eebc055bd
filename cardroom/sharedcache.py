"""A cache shared by the server processes that never stops a page.

The floor map's parts and the table board's panels live in the ``floor`` cache (Redis when
configured), each under a key made by ``key``, which names the deployment (the database's
host, port and name): two rooms sharing one Redis never serve each other's tables. A cache
that is down or slow (a socket timeout of ``FLOOR_CACHE_TIMEOUT``) answers "nothing cached" and
stores nothing: the page is rendered from the database as if the cache were empty, and the
failure is logged.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable, Mapping

from django.core.cache import caches
from django.db import connection
from redis.exceptions import RedisError

log = logging.getLogger(__name__)

UNAVAILABLE = (RedisError, OSError)


def deployment() -> str:
    """The room this process serves, as its database names it: ``host:port/name``."""
    db = connection.settings_dict
    return f"{db.get('HOST') or ''}:{db.get('PORT') or ''}/{db['NAME']}"


def key(part: str, *names: object) -> str:
    """The shared cache's key of ``part`` (``floor``, ``board``) named by ``names``, in this
    deployment: the one key every shared part is kept under."""
    return ":".join([part, deployment(), *(str(name) for name in names)])


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
