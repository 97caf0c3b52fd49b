"""Pagination helpers.

paginate() cuts a sequence into the items of one page; page_links() gives
the numbers to show in a pager, with None standing for a gap ("…"):

    page_links(current=7, total=20, window=2, edges=1)
    -> [1, None, 5, 6, 7, 8, 9, None, 20]
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence


@dataclass(frozen=True)
class Page:
    number: int
    per_page: int
    total_items: int
    items: list

    @property
    def total_pages(self) -> int:
        return max(1, -(-self.total_items // self.per_page))

    @property
    def has_previous(self) -> bool:
        return self.number > 1

    @property
    def has_next(self) -> bool:
        return self.number < self.total_pages

    @property
    def first_index(self) -> int:
        """1-based index of the first item on this page (0 when empty)."""
        if self.total_items == 0:
            return 0
        return (self.number - 1) * self.per_page + 1

    @property
    def last_index(self) -> int:
        return min(self.number * self.per_page, self.total_items)


def paginate(items: Sequence, page: int | str | None, per_page: int = 20,
             clamp: bool = True) -> Page:
    """Returns page number `page` (1-based) of items.

    page may come straight from a query string; missing or malformed values
    mean page 1. Out-of-range pages are clamped into range unless clamp is
    False, in which case they raise ValueError.
    """
    if per_page < 1:
        raise ValueError("per_page must be at least 1")
    try:
        number = int(page) if page not in (None, "") else 1
    except (TypeError, ValueError):
        number = 1
    total = len(items)
    last = max(1, -(-total // per_page))
    if not 1 <= number <= last:
        if not clamp:
            raise ValueError(f"page {number} out of range 1..{last}")
        number = min(max(number, 1), last)
    start = (number - 1) * per_page
    return Page(number, per_page, total, list(items[start:start + per_page]))


def page_links(current: int, total: int, window: int = 2, edges: int = 1) -> list[int | None]:
    """Page numbers to show: `edges` pages at each end, `window` pages on each
    side of `current`, and None where pages are skipped. A gap of exactly one
    page is filled with that page instead of None."""
    if total < 1:
        return []
    current = min(max(current, 1), total)
    shown = set(range(1, min(edges, total) + 1))
    shown |= set(range(max(1, total - edges + 1), total + 1))
    shown |= set(range(max(1, current - window), min(total, current + window) + 1))
    links: list[int | None] = []
    prev = 0
    for n in sorted(shown):
        if n - prev == 2:
            links.append(n - 1)
        elif n - prev > 2:
            links.append(None)
        links.append(n)
        prev = n
    return links
