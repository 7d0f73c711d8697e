"""Combinators: axioms built from axioms (+ - * | & % unary - and +).

Sums, products, cascades and conjunctions stay flat; a vote chain ``a % b % c`` stays flat to the left only.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, ClassVar

import numpy as np

from ir_rag_axioms.analysis.cache import Analysis
from ir_rag_axioms.axioms.base import Axiom, Item, Reads
from ir_rag_axioms.axioms.explanation import Explanation, rule_of
from ir_rag_axioms.model import GenerationRequest, GenerationResponse


class Constant(Axiom, kw_only=False):
    """Constant(c): every off-diagonal entry is c (a weight in sums and products)."""

    value: float

    def matrix(self, request: GenerationRequest, responses: list[GenerationResponse], analysis: Analysis) -> np.ndarray:
        """The constant c off the diagonal, 0 on it."""
        n = len(responses)
        return np.full((n, n), float(self.value)) * (1 - np.eye(n))

    def __repr__(self) -> str:
        value = float(self.value)
        return repr(int(value)) if value.is_integer() and abs(value) < 1e15 else repr(value)  # 1e+180, not 180 digits


def as_axiom(value: Axiom | float) -> Axiom:
    """An axiom as is; a number as ``Constant(number)``."""
    if isinstance(value, Axiom):
        return value
    if isinstance(value, (int, float, np.number)) and not isinstance(value, bool):
        if not np.isfinite(value):
            raise ValueError(f"cannot combine axioms with the non-finite number {value!r}")
        return Constant(float(value))
    raise TypeError(f"cannot combine an axiom with {type(value).__name__} {value!r}")


MAX_DEPTH = 200
"""Deepest nesting of combinators (``(a + b) * c`` is 2 deep); chains of one operator stay flat at any length."""


def nesting_depth(axiom: Axiom) -> int:
    """How deeply combinators nest in ``axiom`` (0 for a plain axiom), known at construction."""
    return int(getattr(axiom, "_depth", 0))


def _set_depth(combinator: Axiom, children: Sequence[Axiom]) -> None:
    """Record the nesting depth; refuse more than ``MAX_DEPTH`` (repr, pickling and evaluation recurse over it)."""
    depth = 1 + max(nesting_depth(c) for c in children)
    if depth > MAX_DEPTH:
        raise ValueError(f"axiom expression nested {depth} levels deep, more than the limit of {MAX_DEPTH}; "
                         "write chains with one operator (a + b + c), which stay flat at any length")
    object.__setattr__(combinator, "_depth", depth)


class _Combination(Axiom, kw_only=False):
    """Several child axioms, read and prefetched together."""

    axioms: tuple[Axiom, ...]
    symbol: ClassVar[str] = ""

    def __post_init__(self) -> None:
        if isinstance(self.axioms, Axiom) or not isinstance(self.axioms, (tuple, list)):
            raise TypeError(f"{type(self).__name__} takes a tuple of axioms, got {self.axioms!r}")
        children = tuple(as_axiom(a) for a in self.axioms)
        if not children:
            raise ValueError("a combinator needs at least one axiom")
        object.__setattr__(self, "axioms", children)
        _set_depth(self, children)

    @classmethod
    def of(cls, *parts: Axiom | float, **options: Any) -> Axiom:
        """The combination of ``parts``, merging parts that are already this combination (so long chains stay flat)."""
        flat: list[Axiom] = []
        for part in map(as_axiom, parts):
            same = type(part) is cls and all(getattr(part, k) == v for k, v in options.items())
            if same and isinstance(part, cls) and cls.flattens(part):  # isinstance: the type checker's narrowing
                flat.extend(part.axioms)
            else:
                flat.append(part)
        return cls(tuple(flat), **options)

    @classmethod
    def flattens(cls, part: Axiom) -> bool:
        """Whether a child of the same type may be merged into its parent (default: yes)."""
        return True

    def reads(self) -> tuple[Reads, ...]:
        """Every child's reads."""
        return tuple(r for axiom in self.axioms for r in axiom.reads())

    def prefetch(self, items: Sequence[Item], analysis: Analysis) -> None:
        """Forward to every child (each analysis is memoised, so shared texts are analysed once)."""
        for axiom in self.axioms:
            axiom.prefetch(items, analysis)

    def _matrices(self, request: GenerationRequest, responses: list[GenerationResponse],
                  analysis: Analysis) -> np.ndarray:
        return np.stack([np.asarray(a.matrix(request, responses, analysis), dtype=np.float64) for a in self.axioms])

    def explain_pairs(self, request: GenerationRequest, responses: list[GenerationResponse],
                      pairs: Sequence[tuple[int, int]], analysis: Analysis) -> list[Explanation]:
        """The decision from this combination's matrix, explained through each part's explanation."""
        matrix = np.asarray(self.matrix(request, responses, analysis), dtype=np.float64)
        parts = [a.explain_pairs(request, responses, pairs, analysis) for a in self.axioms]
        out = []
        for k, (i, j) in enumerate(pairs):
            own = tuple(p[k] for p in parts)
            out.append(Explanation(repr(self), rule_of(self), responses[i].id, responses[j].id,
                                   float(matrix[i, j]) + 0.0, parts=own, note=self.how(own)))
        return out

    def how(self, parts: Sequence[Explanation]) -> str | None:
        """How the parts' decisions made this one (shown in explanations); default: nothing to add."""
        return None

    def __repr__(self) -> str:
        return "(" + f" {self.symbol} ".join(repr(a) for a in self.axioms) + ")"


class Sum(_Combination):
    """Sum: P = sum_k P_k (weighted with ``w * axiom``; ``a - b`` is ``a + (-b)``)."""

    symbol: ClassVar[str] = "+"

    def matrix(self, request: GenerationRequest, responses: list[GenerationResponse], analysis: Analysis) -> np.ndarray:
        """Element-wise sum."""
        return self._matrices(request, responses, analysis).sum(axis=0)


class Product(_Combination):
    """Product: P = prod_k P_k entry by entry, as the reference's ProductAxiom (``2 * axiom`` doubles: a weight).

    Not a preference matrix for two axioms: the product of two antisymmetric matrices is symmetric (both answers of a
    pair get the same sign), as the reference warns; ``check_axiom`` says so. ``a & b`` prefers where both agree.
    """

    symbol: ClassVar[str] = "*"

    def matrix(self, request: GenerationRequest, responses: list[GenerationResponse], analysis: Analysis) -> np.ndarray:
        """Element-wise product."""
        return self._matrices(request, responses, analysis).prod(axis=0)


class Cascade(_Combination):
    """Cascade (a | b): the first child with a non-zero preference for the pair decides."""

    symbol: ClassVar[str] = "|"

    def matrix(self, request: GenerationRequest, responses: list[GenerationResponse], analysis: Analysis) -> np.ndarray:
        """First non-zero entry along the children."""
        stack = self._matrices(request, responses, analysis)
        first = np.argmax(stack != 0, axis=0)
        return np.take_along_axis(stack, first[None], axis=0)[0]

    def how(self, parts: Sequence[Explanation]) -> str | None:
        """Which part decided: the first with a non-zero preference."""
        deciding = [k for k, part in enumerate(parts) if part.decision != 0]
        if not deciding:
            return "no part prefers either response"
        return f"decided by part {deciding[0] + 1} of {len(parts)}: {parts[deciding[0]].axiom}"


class Conjunction(_Combination):
    """Conjunction (a & b): prefer only where all children prefer the same direction (their common sign), else 0."""

    symbol: ClassVar[str] = "&"

    def matrix(self, request: GenerationRequest, responses: list[GenerationResponse], analysis: Analysis) -> np.ndarray:
        """The common sign if all signs are equal and non-zero, 0 otherwise."""
        signs = np.sign(self._matrices(request, responses, analysis))
        agree = np.all(signs == signs[0], axis=0) & (signs[0] != 0)
        return np.where(agree, signs[0], 0.0)

    def how(self, parts: Sequence[Explanation]) -> str | None:
        """Whether all parts agree."""
        signs = {int(np.sign(p.decision)) for p in parts}
        return "all parts agree" if len(signs) == 1 and 0 not in signs else "the parts do not all prefer the same"


class MajorityVote(_Combination):
    """MajorityVote: prefer what the majority prefers.

    Only if at least ``minimum_votes`` of all k axioms vote for it (``aggregation.majority_vote``).
    """

    minimum_votes: float = 0.5
    """Fraction of the axioms that must vote for the winner: 0.5 absolute majority, 0 relative majority, 1 consensus."""

    def __post_init__(self) -> None:
        super().__post_init__()
        if not (isinstance(self.minimum_votes, (int, float)) and 0 <= self.minimum_votes <= 1):
            raise ValueError(f"MajorityVote: minimum_votes must be in [0, 1], got {self.minimum_votes!r}")

    @classmethod
    def of(cls, *parts: Axiom | float, **options: Any) -> Axiom:
        """``a % b % c``, i.e. ``(a % b) % c``: one vote of three axioms; only a first part is merged.

        A majority vote is not associative, so a vote in a later place (``a % (b % c)``) and a vote with another
        threshold stay one voter each: only the left of a chain, a vote of the same threshold, is flattened.
        """
        options.setdefault("minimum_votes", _DEFAULT_MINIMUM_VOTES)
        voters = [as_axiom(part) for part in parts]
        head = voters[0] if voters else None
        if type(head) is cls and isinstance(head, MajorityVote) and head.minimum_votes == options["minimum_votes"]:
            voters[:1] = head.axioms
        return cls(tuple(voters), **options)

    def matrix(self, request: GenerationRequest, responses: list[GenerationResponse], analysis: Analysis) -> np.ndarray:
        """Votes counted per pair: +1 where pro > contra and pro >= minimum_votes * k (mirrored for contra)."""
        from ir_rag_axioms.aggregation import majority_vote

        return majority_vote(self._matrices(request, responses, analysis), minimum_votes=self.minimum_votes)

    def how(self, parts: Sequence[Explanation]) -> str | None:
        """The votes: for the first response, for the second, abstaining; and the votes needed."""
        pro = sum(p.decision > 0 for p in parts)
        contra = sum(p.decision < 0 for p in parts)
        return (f"votes: {pro} for {parts[0].first}, {contra} for {parts[0].second}, "
                f"{len(parts) - pro - contra} abstain; the winner needs more votes than the other and at least "
                f"{self.minimum_votes:.0%} of {len(parts)}")

    def __repr__(self) -> str:
        inner = ", ".join(repr(a) for a in self.axioms) + ("," if len(self.axioms) == 1 else "")
        extra = "" if self.minimum_votes == _DEFAULT_MINIMUM_VOTES else f", minimum_votes={self.minimum_votes!r}"
        return f"MajorityVote(({inner}){extra})"


_DEFAULT_MINIMUM_VOTES = 0.5


class _Unary(Axiom, kw_only=False):
    """One child axiom, read and prefetched as itself."""

    axiom: Axiom

    def __post_init__(self) -> None:
        if not isinstance(self.axiom, Axiom):
            raise TypeError(f"{type(self).__name__} takes an axiom, got {type(self.axiom).__name__} {self.axiom!r}")
        _set_depth(self, (self.axiom,))

    def reads(self) -> tuple[Reads, ...]:
        """The child's reads."""
        return self.axiom.reads()

    def prefetch(self, items: Sequence[Item], analysis: Analysis) -> None:
        """Forward to the child."""
        self.axiom.prefetch(items, analysis)

    def explain_pairs(self, request: GenerationRequest, responses: list[GenerationResponse],
                      pairs: Sequence[tuple[int, int]], analysis: Analysis) -> list[Explanation]:
        """The decision from this axiom's matrix, explained through the child's explanation."""
        matrix = np.asarray(self.matrix(request, responses, analysis), dtype=np.float64)
        child = self.axiom.explain_pairs(request, responses, pairs, analysis)
        return [Explanation(repr(self), rule_of(self), responses[i].id, responses[j].id, float(matrix[i, j]) + 0.0,
                            parts=(part,)) for (i, j), part in zip(pairs, child, strict=True)]


class Negated(_Unary):
    """Negated (-a): P = -P_a."""

    def matrix(self, request: GenerationRequest, responses: list[GenerationResponse], analysis: Analysis) -> np.ndarray:
        """Flip every preference."""
        return -np.asarray(self.axiom.matrix(request, responses, analysis), dtype=np.float64) + 0.0

    def __repr__(self) -> str:
        return f"-{self.axiom!r}"


class Normalized(_Unary):
    """Normalized (+a): P = sign(P_a), in {-1, 0, 1}."""

    def matrix(self, request: GenerationRequest, responses: list[GenerationResponse], analysis: Analysis) -> np.ndarray:
        """Sign of every preference."""
        return np.sign(np.asarray(self.axiom.matrix(request, responses, analysis), dtype=np.float64)) + 0.0

    def __repr__(self) -> str:
        return f"+{self.axiom!r}"


class MultiplicativeInverse(_Unary):
    """MultiplicativeInverse (the ``/`` in ``a / b``): P = 1 / P_b where P_b != 0, else 0."""

    def matrix(self, request: GenerationRequest, responses: list[GenerationResponse], analysis: Analysis) -> np.ndarray:
        """Element-wise inverse; a zero preference stays 0."""
        p = np.asarray(self.axiom.matrix(request, responses, analysis), dtype=np.float64)
        with np.errstate(divide="ignore", invalid="ignore"):
            return np.where(p != 0, 1.0 / np.where(p != 0, p, 1.0), 0.0) + 0.0

    def __repr__(self) -> str:
        return f"MultiplicativeInverse({self.axiom!r})"


def Uniform(scalar: float) -> Constant:  # noqa: N802  (named like the class it stands for)
    """The specification's UniformAxiom(scalar=c): the constant preference c off the diagonal (a weight)."""
    return Constant(float(scalar))
