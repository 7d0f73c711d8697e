"""Combinators: axioms built from axioms (+ - * | & % unary - and +), each forwarding ``prefetch`` to its children."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

import numpy as np

from ir_rag_axioms.axioms.base import Axiom, Item, SpacyNeed
from ir_rag_axioms.model import GenerationRequest, GenerationResponse


@dataclass(frozen=True)
class Constant(Axiom):
    """Constant(c): every off-diagonal entry is c (a weight in sums and products)."""

    value: float

    def matrix(self, request: GenerationRequest, responses: list[GenerationResponse]) -> np.ndarray:
        """c off the diagonal, 0 on it."""
        n = len(responses)
        return np.full((n, n), float(self.value)) * (1 - np.eye(n))

    def __repr__(self) -> str:
        return repr(float(self.value)) if not float(self.value).is_integer() else repr(int(self.value))


def as_axiom(value: Axiom | float) -> Axiom:
    """An axiom as is; a number as ``Constant(number)``."""
    if isinstance(value, Axiom):
        return value
    if isinstance(value, (int, float, np.number)) and not isinstance(value, bool):
        if not np.isfinite(value):
            raise ValueError(f"cannot combine axioms with the non-finite number {value!r}")
        return Constant(float(value))
    raise TypeError(f"cannot combine an axiom with {type(value).__name__} {value!r}")


def _tuple(axioms: Sequence[Axiom | float]) -> tuple[Axiom, ...]:
    result = tuple(as_axiom(a) for a in axioms)
    if not result:
        raise ValueError("a combinator needs at least one axiom")
    return result


@dataclass(frozen=True)
class _Combination(Axiom):
    """Several child axioms; ``prefetch`` runs each child's batched analysis."""

    axioms: tuple[Axiom, ...]

    def __post_init__(self) -> None:
        object.__setattr__(self, "axioms", _tuple(self.axioms))

    def spacy_needs(self, items: Sequence[Item]) -> Iterable[SpacyNeed]:
        """Every child's texts (``prefetch_all`` merges them into one spaCy pass)."""
        for axiom in self.axioms:
            yield from axiom.spacy_needs(items)

    def prefetch(self, items: Sequence[Item]) -> None:
        """Forward to every child (each analysis is memoised, so shared texts are analysed once)."""
        for axiom in self.axioms:
            axiom.prefetch(items)

    def _matrices(self, request: GenerationRequest, responses: list[GenerationResponse]) -> list[np.ndarray]:
        return [np.asarray(a.matrix(request, responses), dtype=np.float64) for a in self.axioms]

    def _join(self, symbol: str) -> str:
        return "(" + f" {symbol} ".join(repr(a) for a in self.axioms) + ")"


@dataclass(frozen=True, repr=False)
class Sum(_Combination):
    """Sum: P = sum_k P_k (weighted with ``w * axiom``; ``a - b`` is ``a + (-b)``)."""

    def matrix(self, request, responses):
        """Element-wise sum."""
        return np.sum(self._matrices(request, responses), axis=0)

    def __repr__(self) -> str:
        return self._join("+")


@dataclass(frozen=True, repr=False)
class Product(_Combination):
    """Product: P = prod_k P_k (``2 * axiom`` doubles, ``a * b`` prefers where both agree in sign)."""

    def matrix(self, request, responses):
        """Element-wise product."""
        return np.prod(self._matrices(request, responses), axis=0)

    def __repr__(self) -> str:
        return self._join("*")


@dataclass(frozen=True, repr=False)
class Cascade(_Combination):
    """Cascade (a | b): the first child with a non-zero preference for the pair decides."""

    def matrix(self, request, responses):
        """First non-zero entry along the children."""
        result = None
        for prefs in self._matrices(request, responses):
            result = prefs if result is None else np.where(result != 0, result, prefs)
        return result

    def __repr__(self) -> str:
        return self._join("|")


@dataclass(frozen=True, repr=False)
class Conjunction(_Combination):
    """Conjunction (a & b): prefer only where all children prefer the same direction (their common sign), else 0."""

    def matrix(self, request, responses):
        """sign if all signs equal and non-zero."""
        signs = np.sign(np.stack(self._matrices(request, responses)))
        agree = np.all(signs == signs[0], axis=0) & (signs[0] != 0)
        return np.where(agree, signs[0], 0.0)

    def __repr__(self) -> str:
        return self._join("&")


@dataclass(frozen=True, repr=False)
class MajorityVote(_Combination):
    """MajorityVote: sign(#pro - #contra) if the winning side has more than ``minimum_votes`` of all child votes (>= when 0)."""

    minimum_votes: float = 0.5
    """Fraction of the axioms that must agree: 0.5 absolute majority, 0 relative majority, 1 consensus."""

    def __post_init__(self) -> None:
        super().__post_init__()
        if not 0 <= self.minimum_votes <= 1:
            raise ValueError(f"MajorityVote: minimum_votes must be in [0, 1], got {self.minimum_votes!r}")

    def matrix(self, request, responses):
        """Votes counted per pair; the winning side needs > minimum_votes * k votes (all k if minimum_votes = 1)."""
        signs = np.sign(np.stack(self._matrices(request, responses)))
        pro, contra = (signs > 0).sum(axis=0), (signs < 0).sum(axis=0)
        k = len(self.axioms)
        winner = np.maximum(pro, contra)
        if self.minimum_votes >= 1:
            enough = winner >= k
        else:
            enough = winner > self.minimum_votes * k
        return np.where(enough & (pro != contra), np.sign(pro - contra), 0.0).astype(np.float64)

    def __repr__(self) -> str:
        inner = ", ".join(repr(a) for a in self.axioms)
        extra = "" if self.minimum_votes == 0.5 else f", minimum_votes={self.minimum_votes!r}"
        inner = inner + "," if len(self.axioms) == 1 else inner
        return f"MajorityVote(({inner}){extra})"


@dataclass(frozen=True)
class _Unary(Axiom):
    """One child axiom; ``prefetch`` forwards to it."""

    axiom: Axiom

    def spacy_needs(self, items: Sequence[Item]) -> Iterable[SpacyNeed]:
        """The child's texts."""
        return self.axiom.spacy_needs(items)

    def prefetch(self, items: Sequence[Item]) -> None:
        """Forward to the child."""
        self.axiom.prefetch(items)


@dataclass(frozen=True, repr=False)
class Negated(_Unary):
    """Negated (-a): P = -P_a."""

    def matrix(self, request, responses):
        """Flip every preference."""
        return -np.asarray(self.axiom.matrix(request, responses), dtype=np.float64) + 0.0

    def __repr__(self) -> str:
        return f"-{self.axiom!r}"


@dataclass(frozen=True, repr=False)
class Normalized(_Unary):
    """Normalized (+a): P = sign(P_a), in {-1, 0, 1}."""

    def matrix(self, request, responses):
        """Sign of every preference."""
        return np.sign(np.asarray(self.axiom.matrix(request, responses), dtype=np.float64)) + 0.0

    def __repr__(self) -> str:
        return f"+{self.axiom!r}"
