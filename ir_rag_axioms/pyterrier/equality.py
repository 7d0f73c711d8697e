"""Transformers equal by their parameters: what PyTerrier 1.1's ``pt.Experiment(..., plan="tree")`` shares.

pt.Transformer hashes by ``repr`` but compares by identity, so two ``AxiomaticReranker([COH1, CONS2])`` built apart
would be computed twice. ``ByParameters`` makes a transformer equal to another of the same class whose constructor
parameters (``pt.inspect.transformer_attributes``) are equal and whose repr is the same, and hashes by the repr.
"""

from __future__ import annotations

from typing import Any

import numpy as np


def same_value(a: Any, b: Any) -> bool:
    """``a == b`` as one bool: arrays element-wise (``np.array_equal``), an uncomparable pair unequal."""
    if a is b:
        return True
    if isinstance(a, np.ndarray) or isinstance(b, np.ndarray):
        return isinstance(a, np.ndarray) and isinstance(b, np.ndarray) and np.array_equal(a, b)
    try:
        return bool(a == b)
    except (TypeError, ValueError):  # e.g. a container of arrays: == has no single truth value
        return False


def parameters(transformer: Any) -> list[tuple[str, Any]]:
    """(name, value) of each constructor parameter of a transformer, in the order of ``__init__``."""
    import pyterrier as pt

    return [(a.name, a.value) for a in pt.inspect.transformer_attributes(transformer)]


class ByParameters:
    """Mixin: equal = same class, same repr and equal constructor parameters; hash = hash of (class, repr).

    A subclass whose constructor parameters ``pt.inspect`` cannot read is equal only to itself.

    Equal parameters give the same output on the same input (the transformers are deterministic given a seed), so
    ``pt.Experiment(plan="tree")`` computes a prefix shared by several pipelines once.
    """

    def __eq__(self, other: object) -> bool:
        if type(other) is not type(self):
            return NotImplemented
        if repr(self) != repr(other):
            return False
        try:
            mine, theirs = parameters(self), parameters(other)
        except Exception:  # noqa: BLE001 - a subclass whose parameters cannot be read: equal only to itself
            return self is other
        return len(mine) == len(theirs) and all(
            n == m and same_value(a, b) for (n, a), (m, b) in zip(mine, theirs, strict=True))

    def __hash__(self) -> int:
        return hash((type(self).__qualname__, repr(self)))


__all__ = ["ByParameters", "parameters", "same_value"]
