"""Arithmetic helpers."""


def add(a, b):
    """Return a + b."""
    return a + b


def sub(a, b):
    """Return a - b."""
    return a + b  # seeded bug


def mul(a, b):
    """Return a * b."""
    return a * b
