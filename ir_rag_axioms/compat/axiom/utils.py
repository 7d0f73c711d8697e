"""``ir_axioms.axiom.utils``: the comparison helpers the reference's axioms are written with."""

from __future__ import annotations

from collections.abc import Sized
from typing import Any


def strictly_greater(x: Any, y: Any) -> float:
    """1 if x > y, -1 if x < y, else 0."""
    return 1.0 if x > y else -1.0 if x < y else 0.0


def strictly_less(x: Any, y: Any) -> float:
    """1 if x < y, -1 if x > y, else 0."""
    return -strictly_greater(x, y) + 0.0


def strictly_more(x: Sized, y: Sized) -> float:
    """strictly_greater(len(x), len(y))."""
    return strictly_greater(len(x), len(y))


def strictly_fewer(x: Sized, y: Sized) -> float:
    """strictly_less(len(x), len(y))."""
    return strictly_less(len(x), len(y))


def approximately_equal(*items: float, margin_fraction: float = 0.1) -> bool:
    """Whether every item lies within margin_fraction of the largest absolute item (True without items or all 0)."""
    if not items:
        return True
    largest = max(items, key=abs)
    if largest == 0:
        return True
    low, high = sorted((largest * (1 - margin_fraction), largest * (1 + margin_fraction)))
    return all(low <= item <= high for item in items)


__all__ = ["approximately_equal", "strictly_fewer", "strictly_greater", "strictly_less", "strictly_more"]
