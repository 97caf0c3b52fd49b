"""Money as integer minor units, with parsing, formatting and fair allocation."""
from __future__ import annotations

from dataclasses import dataclass

MINOR_DIGITS = {"USD": 2, "EUR": 2, "JPY": 0, "KWD": 3}


def _digits(currency: str) -> int:
    try:
        return MINOR_DIGITS[currency]
    except KeyError:
        raise ValueError(f"unknown currency {currency!r}") from None


def parse_amount(text: str, currency: str = "USD") -> int:
    """Parses "1,234.5" into minor units (123450 for USD).

    Thousands separators are accepted; more fractional digits than the
    currency has are refused rather than rounded.
    """
    digits = _digits(currency)
    s = text.strip().replace(",", "").replace("_", "")
    negative = s.startswith("-")
    if negative or s.startswith("+"):
        s = s[1:]
    if not s:
        raise ValueError(f"not an amount: {text!r}")
    whole, _, frac = s.partition(".")
    if not whole.isdigit() or (frac and not frac.isdigit()):
        raise ValueError(f"not an amount: {text!r}")
    if len(frac) > digits:
        raise ValueError(f"too many decimals for {currency}: {text!r}")
    units = int(whole) * 10 ** digits + int(frac.ljust(digits, "0") or 0)
    return -units if negative else units


def format_amount(units: int, currency: str = "USD", sep: str = ",") -> str:
    """Formats minor units as "1,234.50"."""
    digits = _digits(currency)
    sign = "-" if units < 0 else ""
    whole, frac = divmod(abs(units), 10 ** digits)
    groups = []
    w = str(whole)
    while len(w) > 3:
        groups.insert(0, w[-3:])
        w = w[:-3]
    groups.insert(0, w)
    text = sign + sep.join(groups)
    if digits:
        text += "." + str(frac).rjust(digits, "0")
    return text


def allocate(units: int, ratios: list[int]) -> list[int]:
    """Splits units in proportion to ratios without losing a cent.

    Each share is first rounded down; the remainder is then handed out one
    unit at a time to the shares with the largest fractional parts (earlier
    shares first on ties). The result always sums to units.
    """
    if not ratios or any(r < 0 for r in ratios):
        raise ValueError("ratios must be non-negative and not empty")
    total = sum(ratios)
    if total == 0:
        raise ValueError("ratios must not all be zero")
    if units < 0:
        return [-share for share in allocate(-units, ratios)]
    shares = [units * r // total for r in ratios]
    remainders = [units * r % total for r in ratios]
    left = units - sum(shares)
    order = sorted(range(len(ratios)), key=lambda i: (-remainders[i], i))
    for i in order[:left]:
        shares[i] += 1
    return shares


@dataclass(frozen=True)
class Money:
    units: int
    currency: str = "USD"

    @classmethod
    def parse(cls, text: str, currency: str = "USD") -> "Money":
        return cls(parse_amount(text, currency), currency)

    def __add__(self, other: "Money") -> "Money":
        self._same(other)
        return Money(self.units + other.units, self.currency)

    def __sub__(self, other: "Money") -> "Money":
        self._same(other)
        return Money(self.units - other.units, self.currency)

    def split(self, ratios: list[int]) -> list["Money"]:
        return [Money(u, self.currency) for u in allocate(self.units, ratios)]

    def _same(self, other: "Money") -> None:
        if self.currency != other.currency:
            raise ValueError(f"currency mismatch: {self.currency} and {other.currency}")

    def __str__(self) -> str:
        return f"{format_amount(self.units, self.currency)} {self.currency}"
