"""TTLCache: least-recently-used eviction plus per-entry expiry.

The clock is injectable (a zero-argument callable returning seconds) so
that expiry can be tested without sleeping.
"""
from __future__ import annotations

import functools
import time
from collections import OrderedDict
from typing import Any, Callable, Hashable

_MISSING = object()


class TTLCache:
    def __init__(self, maxsize: int = 128, ttl: float = 60.0,
                 clock: Callable[[], float] = time.monotonic):
        if maxsize < 1:
            raise ValueError("maxsize must be at least 1")
        if ttl <= 0:
            raise ValueError("ttl must be positive")
        self.maxsize = maxsize
        self.ttl = ttl
        self.clock = clock
        self._data: OrderedDict[Hashable, tuple[float, Any]] = OrderedDict()
        self.hits = 0
        self.misses = 0

    def _expired(self, expires_at: float, now: float) -> bool:
        # An entry is valid up to, but not including, its expiry instant.
        return now >= expires_at

    def get(self, key: Hashable, default: Any = None) -> Any:
        entry = self._data.get(key, _MISSING)
        if entry is _MISSING:
            self.misses += 1
            return default
        expires_at, value = entry
        if self._expired(expires_at, self.clock()):
            del self._data[key]
            self.misses += 1
            return default
        self._data.move_to_end(key)
        self.hits += 1
        return value

    def set(self, key: Hashable, value: Any, ttl: float | None = None) -> None:
        now = self.clock()
        expires_at = now + (self.ttl if ttl is None else ttl)
        if key in self._data:
            self._data.move_to_end(key)
        self._data[key] = (expires_at, value)
        self.expire(now)
        while len(self._data) > self.maxsize:
            self._data.popitem(last=False)

    def expire(self, now: float | None = None) -> int:
        """Drops every expired entry; returns how many were dropped."""
        now = self.clock() if now is None else now
        dead = [k for k, (exp, _) in self._data.items() if self._expired(exp, now)]
        for k in dead:
            del self._data[k]
        return len(dead)

    def pop(self, key: Hashable, default: Any = _MISSING) -> Any:
        entry = self._data.pop(key, _MISSING)
        if entry is _MISSING or self._expired(entry[0], self.clock()):
            if default is _MISSING:
                raise KeyError(key)
            return default
        return entry[1]

    def __contains__(self, key: Hashable) -> bool:
        entry = self._data.get(key, _MISSING)
        return entry is not _MISSING and not self._expired(entry[0], self.clock())

    def __len__(self) -> int:
        self.expire()
        return len(self._data)

    def clear(self) -> None:
        self._data.clear()


def cached(cache: TTLCache, key: Callable[..., Hashable] | None = None):
    """Decorator memoizing a function's results in cache."""
    def decorate(fn):
        @functools.wraps(fn)
        def wrapper(*args, **kwargs):
            k = key(*args, **kwargs) if key else (args, tuple(sorted(kwargs.items())))
            value = cache.get(k, _MISSING)
            if value is _MISSING:
                value = fn(*args, **kwargs)
                cache.set(k, value)
            return value
        wrapper.cache = cache
        return wrapper
    return decorate
