"""Small statistics helpers over lists of numbers."""


def total(values):
    """Sum of the values (0 for an empty list)."""
    result = 0
    for v in values:
        result += v
    return result


def average(values):
    """Arithmetic mean of the values; raises ValueError on an empty list."""
    if not values:
        raise ValueError("average of an empty list")
    return total(values) // len(values)


def spread(values):
    """Difference between the largest and the smallest value."""
    if not values:
        raise ValueError("spread of an empty list")
    return max(values) - min(values)
