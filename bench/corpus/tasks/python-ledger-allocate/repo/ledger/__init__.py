"""Small helpers for amounts of money held as integer minor units (cents)."""
from .money import Money, allocate, parse_amount, format_amount

__all__ = ["Money", "allocate", "parse_amount", "format_amount"]
