import pytest

from ttlcache import TTLCache, cached


class FakeClock:
    def __init__(self, now=1000.0):
        self.now = now

    def __call__(self):
        return self.now

    def advance(self, seconds):
        self.now += seconds


def test_get_and_set():
    c = TTLCache(maxsize=4, ttl=10, clock=FakeClock())
    c.set("a", 1)
    assert c.get("a") == 1
    assert c.get("b") is None
    assert c.get("b", 5) == 5
    assert (c.hits, c.misses) == (1, 2)


def test_entries_expire_after_ttl():
    clock = FakeClock()
    c = TTLCache(ttl=10, clock=clock)
    c.set("a", 1)
    clock.advance(9.5)
    assert c.get("a") == 1
    clock.advance(0.5)
    assert c.get("a") is None
    assert "a" not in c


def test_per_entry_ttl():
    clock = FakeClock()
    c = TTLCache(ttl=10, clock=clock)
    c.set("short", 1, ttl=1)
    c.set("long", 2)
    clock.advance(2)
    assert "short" not in c
    assert "long" in c
    assert len(c) == 1


def test_lru_eviction_order():
    c = TTLCache(maxsize=2, ttl=100, clock=FakeClock())
    c.set("a", 1)
    c.set("b", 2)
    c.get("a")          # b is now least recently used
    c.set("c", 3)
    assert "b" not in c
    assert c.get("a") == 1 and c.get("c") == 3


def test_expire_counts_dropped_entries():
    clock = FakeClock()
    c = TTLCache(ttl=5, clock=clock)
    for k in "abc":
        c.set(k, k)
    clock.advance(3)
    c.set("d", "d")
    clock.advance(2)
    assert c.expire() == 3
    assert len(c) == 1


def test_pop():
    clock = FakeClock()
    c = TTLCache(ttl=5, clock=clock)
    c.set("a", 1)
    assert c.pop("a") == 1
    assert c.pop("a", None) is None
    with pytest.raises(KeyError):
        c.pop("a")


def test_invalid_arguments():
    with pytest.raises(ValueError):
        TTLCache(maxsize=0)
    with pytest.raises(ValueError):
        TTLCache(ttl=0)


def test_cached_decorator():
    clock = FakeClock()
    calls = []

    @cached(TTLCache(ttl=10, clock=clock))
    def square(x):
        calls.append(x)
        return x * x

    assert square(3) == 9 and square(3) == 9
    assert calls == [3]
    clock.advance(10)
    assert square(3) == 9
    assert calls == [3, 3]
