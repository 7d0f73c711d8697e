"""``ir_axioms.axiom.base``: the reference's way of writing an axiom, on our machinery.

``class Mine(Axiom[Query, Document])`` overrides ``preference(input, output1, output2)`` (or
``preferences(input, outputs)``, or both); a subclass may be a mutable ``@dataclass`` (or none). The class is one of
ours too (``matrix()`` is its ``preferences()``), so our rerankers, ``Cached``, ``Parallel`` and our combinators
take it; inputs and outputs may be any objects (strings, ids), as in the reference.

The operators of these axioms (``+ - * / % & |``, unary ``-`` and ``+``) build the combinators of this module,
which combine the *full* matrices, diagonal included (the reference's arithmetic: ``UniformAxiom(scalar=2)`` has 2 on
the diagonal, and a sum of uniform axioms their sum). Our own combinators keep a zero diagonal.
"""

from __future__ import annotations

import contextlib
import hashlib
import math
import os
import pickle
import sqlite3
import threading
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, fields, is_dataclass
from pathlib import Path
from typing import Any, Generic, Protocol

import numpy as np

from ir_rag_axioms.analysis.cache import Analysis
from ir_rag_axioms.axioms.base import Axiom as _OurAxiom
from ir_rag_axioms.compat.model import Input, Output, Preference, PreferenceMatrix


def _overrides(cls: type, name: str) -> bool:
    """Whether ``cls`` (or a base below ``Axiom``) defines ``name`` itself."""
    for klass in cls.__mro__:
        if klass is Axiom:
            return False
        if name in klass.__dict__:
            return True
    return False


class Axiom(_OurAxiom, Generic[Input, Output]):
    """An axiom written the reference's way: override ``preference()`` and/or ``preferences()``.

    ``preferences(input, outputs)`` defaults to ``preference`` on every ordered pair (the diagonal included);
    ``preference(input, output1, output2)`` defaults to entry [0, 1] of ``preferences(input, [output1, output2])``.
    """

    def __init_subclass__(cls, **kwargs: Any) -> None:
        """Leave subclasses as written (our axioms make every subclass a frozen dataclass; this kind does not)."""
        super(_OurAxiom, cls).__init_subclass__(**kwargs)

    # -- the reference's two methods ---------------------------------------------------------------------------
    def preference(self, input: Input, output1: Output, output2: Output,  # type: ignore[override]  # noqa: A002
                   *args: Any, **kwargs: Any) -> Preference:
        """The preference of ``output1`` over ``output2`` (> 0: output1), from ``preferences`` by default."""
        _no_extra("preference", args, kwargs)
        if not _overrides(type(self), "preferences"):
            raise TypeError(f"{type(self).__name__} overrides neither preference() nor preferences(): an axiom written "
                            "the reference's way defines at least one of them")
        return float(np.asarray(self.preferences(input, [output1, output2]))[0, 1])

    def preferences(self, input: Input, outputs: Sequence[Output],  # type: ignore[override]  # noqa: A002
                    *args: Any, **kwargs: Any) -> PreferenceMatrix:
        """The (n, n) matrix of ``preference`` on every ordered pair, the diagonal included (the reference's rule)."""
        _no_extra("preferences", args, kwargs)
        if not _overrides(type(self), "preference"):
            raise TypeError(f"{type(self).__name__} overrides neither preference() nor preferences(): an axiom written "
                            "the reference's way defines at least one of them")
        outputs = list(outputs)
        n = len(outputs)
        values = [self.preference(input, a, b) for a in outputs for b in outputs]
        return np.asarray(values, dtype=np.float64).reshape(n, n)

    # -- ours, on top of them ----------------------------------------------------------------------------------
    def matrix(self, request: Any, responses: list[Any], analysis: Analysis) -> np.ndarray:
        """Our hook: this axiom's ``preferences(request, responses)``."""
        return np.asarray(self.preferences(request, responses), dtype=np.float64)

    def preferences_batch(self, items: Iterable[tuple[Any, Sequence[Any]]], progress: bool = False,
                          analysis: Analysis | None = None) -> list[np.ndarray]:
        """One ``preferences`` matrix per (input, outputs) item."""
        items = list(items)
        if progress:
            from tqdm.auto import tqdm

            items = tqdm(items, desc=repr(self), leave=False)
        return [np.asarray(self.preferences(request, list(outputs)), dtype=np.float64) for request, outputs in items]

    def cached(self, path: str | os.PathLike) -> Axiom:
        """This axiom with each pair's preference kept in the SQLite file under ``path`` (computed once per pair)."""
        return CachedAxiom(axiom=self, cache_path=Path(path))

    def __repr__(self) -> str:
        if is_dataclass(self):
            shown = ", ".join(f"{f.name}={getattr(self, f.name)!r}" for f in fields(self) if f.repr)
            return f"{type(self).__name__}({shown})"
        return f"{type(self).__name__}()"

    # -- the reference's operators: combinators of full matrices ---------------------------------------------
    def __add__(self, other: Any) -> Axiom:
        return SumAxiom(axioms=[*_parts(self, SumAxiom), _axiom(other)])

    def __radd__(self, other: Any) -> Axiom:
        return SumAxiom(axioms=[_axiom(other), self])

    def __sub__(self, other: Any) -> Axiom:
        return self + -_axiom(other)

    def __rsub__(self, other: Any) -> Axiom:
        return _axiom(other) + -self

    def __mul__(self, other: Any) -> Axiom:
        return ProductAxiom(axioms=[*_parts(self, ProductAxiom), _axiom(other)])

    def __rmul__(self, other: Any) -> Axiom:
        return ProductAxiom(axioms=[_axiom(other), self])

    def __truediv__(self, other: Any) -> Axiom:
        return self * MultiplicativeInverseAxiom(axiom=_axiom(other))

    def __rtruediv__(self, other: Any) -> Axiom:
        return _axiom(other) * MultiplicativeInverseAxiom(axiom=self)

    def __mod__(self, other: Any) -> Axiom:
        if isinstance(self, VoteAxiom) and math.isclose(self.minimum_votes, 0.5):
            return VoteAxiom(axioms=[*self.axioms, _axiom(other)])
        return VoteAxiom(axioms=[self, _axiom(other)])

    def __rmod__(self, other: Any) -> Axiom:
        return VoteAxiom(axioms=[_axiom(other), self])

    def __and__(self, other: Any) -> Axiom:
        return ConjunctionAxiom(axioms=[*_parts(self, ConjunctionAxiom), _axiom(other)])

    def __rand__(self, other: Any) -> Axiom:
        return ConjunctionAxiom(axioms=[_axiom(other), self])

    def __or__(self, other: Any) -> Axiom:
        return CascadeAxiom(axioms=[*_parts(self, CascadeAxiom), _axiom(other)])

    def __ror__(self, other: Any) -> Axiom:
        return CascadeAxiom(axioms=[_axiom(other), self])

    def __neg__(self) -> Axiom:
        return NegatedAxiom(axiom=self)

    def __pos__(self) -> Axiom:
        return NormalizedAxiom(axiom=self)

    def normalized(self) -> Axiom:
        """``+self``: preferences mapped to their sign."""
        return NormalizedAxiom(axiom=self)


# The dataclass machinery our base applied to this class is taken off again, so that a subclass may be a mutable
# dataclass (``@dataclass class Mine(Axiom[...])``) or no dataclass at all.
for _name in ("__dataclass_fields__", "__dataclass_params__", "__init__", "__setattr__", "__delattr__", "__eq__",
              "__hash__", "__match_args__"):
    if _name in Axiom.__dict__:
        delattr(Axiom, _name)
Axiom.__hash__ = object.__hash__  # type: ignore[method-assign]


def _no_extra(name: str, args: tuple[Any, ...], kwargs: dict[str, Any]) -> None:
    """Refuse our extra arguments (``analysis``) on the reference's methods, naming both forms."""
    if args or kwargs:
        raise TypeError(f"{name}() of an axiom written the reference's way takes (input, outputs...) only, got extra "
                        f"{list(kwargs) or len(args)}: ours is {name}(request, responses, analysis=...) on our axioms")


def _parts(axiom: Axiom, kind: type) -> list[Any]:
    """The operands of ``axiom`` if it is already a ``kind`` (so that ``a + b + c`` is one sum)."""
    return list(axiom.axioms) if type(axiom) is kind else [axiom]  # type: ignore[attr-defined]


def _axiom(value: Any) -> Any:
    """An axiom operand; a number is ``UniformAxiom(scalar=number)`` (the reference's constant)."""
    if isinstance(value, _OurAxiom):
        return value
    if isinstance(value, (int, float, np.number)) and not isinstance(value, bool):
        return UniformAxiom(scalar=float(value))
    raise TypeError(f"cannot combine an axiom with {type(value).__name__} {value!r:.40}: give an axiom or a number")


def _matrices(axioms: Iterable[Any], input: Any, outputs: Sequence[Any]) -> np.ndarray:  # noqa: A002
    """The operands' full matrices, stacked: shape (k, n, n)."""
    outputs = list(outputs)
    stacked = [np.asarray(a.preferences(input, outputs), dtype=np.float64) for a in axioms]
    return np.stack(stacked) if stacked else np.zeros((0, len(outputs), len(outputs)))


# -- the reference's combinators ------------------------------------------------------------------------------
@dataclass(frozen=True, kw_only=True)
class UniformAxiom(Axiom[Any, Any]):
    """UniformAxiom(scalar=c): c for every pair, the diagonal included."""

    scalar: float

    def preference(self, input: Any, output1: Any, output2: Any, *args: Any, **kwargs: Any) -> Preference:  # type: ignore[override]  # noqa: A002
        """C."""
        return float(self.scalar)

    def preferences(self, input: Any, outputs: Sequence[Any], *args: Any, **kwargs: Any) -> PreferenceMatrix:  # type: ignore[override]  # noqa: A002
        """The (n, n) matrix full of c."""
        return np.full((len(outputs), len(outputs)), float(self.scalar))


@dataclass(frozen=True, kw_only=True)
class _Many(Axiom[Input, Output]):
    axioms: Sequence[Any]

    def __post_init__(self) -> None:
        object.__setattr__(self, "axioms", tuple(self.axioms))

    def combine(self, stacked: np.ndarray) -> np.ndarray:
        """The combined matrix of the operands' (k, n, n) stack."""
        raise NotImplementedError

    def preferences(self, input: Any, outputs: Sequence[Any], *args: Any, **kwargs: Any) -> PreferenceMatrix:  # type: ignore[override]  # noqa: A002
        """The operands' full matrices, combined entry by entry (the diagonal included)."""
        return self.combine(_matrices(self.axioms, input, outputs)) + 0.0


@dataclass(frozen=True, kw_only=True)
class SumAxiom(_Many[Input, Output]):
    """P = sum_k P_k."""

    def combine(self, stacked: np.ndarray) -> np.ndarray:
        """Sum over the operands."""
        return stacked.sum(axis=0)


@dataclass(frozen=True, kw_only=True)
class ProductAxiom(_Many[Input, Output]):
    """P = prod_k P_k."""

    def combine(self, stacked: np.ndarray) -> np.ndarray:
        """Product over the operands."""
        return stacked.prod(axis=0)


@dataclass(frozen=True, kw_only=True)
class ConjunctionAxiom(_Many[Input, Output]):
    """P = 1 where every operand is > 0, -1 where every operand is < 0, else 0."""

    def combine(self, stacked: np.ndarray) -> np.ndarray:
        """Agreement of all operands."""
        return np.asarray((stacked > 0).all(axis=0) * 1.0 - (stacked < 0).all(axis=0) * 1.0)


@dataclass(frozen=True, kw_only=True)
class CascadeAxiom(_Many[Input, Output]):
    """P = the first operand's non-zero preference (0 if all are 0)."""

    def combine(self, stacked: np.ndarray) -> np.ndarray:
        """First decisive operand, entry by entry."""
        out = np.zeros(stacked.shape[1:])
        for layer in stacked[::-1]:
            out = np.where(layer != 0, layer, out)
        return out


@dataclass(frozen=True, kw_only=True)
class VoteAxiom(_Many[Input, Output]):
    """1 where the positive votes outnumber the negative ones and reach ceil(minimum_votes * k); -1 likewise; else 0."""

    minimum_votes: float = 0.5

    def combine(self, stacked: np.ndarray) -> np.ndarray:
        """The majority of the operands' votes."""
        needed = math.ceil(self.minimum_votes * stacked.shape[0])
        positive, negative = (stacked > 0).sum(axis=0), (stacked < 0).sum(axis=0)
        wins = (positive > negative) & (positive >= needed)
        losses = (negative > positive) & (negative >= needed)
        return wins * 1.0 - losses * 1.0


MajorityVoteAxiom = VoteAxiom
"""The reference's other name of ``VoteAxiom``."""


@dataclass(frozen=True, kw_only=True)
class _One(Axiom[Input, Output]):
    axiom: Any

    def apply(self, matrix: np.ndarray) -> np.ndarray:
        """The transformed matrix."""
        raise NotImplementedError

    def preferences(self, input: Any, outputs: Sequence[Any], *args: Any, **kwargs: Any) -> PreferenceMatrix:  # type: ignore[override]  # noqa: A002
        """The operand's full matrix, transformed entry by entry."""
        return self.apply(_matrices([self.axiom], input, outputs)[0]) + 0.0


@dataclass(frozen=True, kw_only=True)
class NegatedAxiom(_One[Input, Output]):
    """P = -P_a."""

    def apply(self, matrix: np.ndarray) -> np.ndarray:
        """Flip every entry."""
        return -matrix


@dataclass(frozen=True, kw_only=True)
class NormalizedAxiom(_One[Input, Output]):
    """P = sign(P_a)."""

    def apply(self, matrix: np.ndarray) -> np.ndarray:
        """The sign of every entry."""
        return np.sign(matrix)


@dataclass(frozen=True, kw_only=True)
class MultiplicativeInverseAxiom(_One[Input, Output]):
    """P = 1 / P_a where P_a != 0, else 0 (the reference divides by zero there: inf or ZeroDivisionError)."""

    def apply(self, matrix: np.ndarray) -> np.ndarray:
        """1 / P_a off the zeros."""
        out = np.zeros_like(matrix)
        np.divide(1.0, matrix, out=out, where=matrix != 0)
        return out


# -- the persistent cache -------------------------------------------------------------------------------------
@dataclass(frozen=True, kw_only=True, eq=False)
class CachedAxiom(Axiom[Input, Output]):
    """The axiom's preference of each (input, output1, output2), kept in ``cache_path/preferences.sqlite``.

    A pair computed once is read back afterwards, also when the axiom was changed in between (the reference's
    rule: clear the folder to recompute). The key is the axiom's class and the pickled input and outputs.
    """

    axiom: Any
    cache_path: Path
    _lock: threading.Lock = field(default_factory=threading.Lock, repr=False, compare=False)

    def _connect(self) -> sqlite3.Connection:
        folder = Path(self.cache_path)
        if folder.exists() and not folder.is_dir():
            raise ValueError(f"Axiom.cached({str(folder)!r}): the cache path is a file; give a folder (the cache is "
                             "preferences.sqlite inside it)")
        folder.mkdir(parents=True, exist_ok=True)
        db = sqlite3.connect(folder / "preferences.sqlite", timeout=60)
        try:
            db.execute("CREATE TABLE IF NOT EXISTS preference (key TEXT PRIMARY KEY, value REAL NOT NULL)")
        except sqlite3.DatabaseError as error:  # not a SQLite file, or a damaged one: set it aside, start afresh
            db.close()
            damaged = folder / "preferences.sqlite"
            aside = damaged.with_name(f"preferences.sqlite.damaged-{os.getpid()}-{threading.get_ident()}")
            os.replace(damaged, aside)
            import warnings

            warnings.warn(f"Axiom.cached: {damaged} is damaged ({error}); moved it to {aside.name} and started an "
                          "empty cache (the pairs are computed again)", UserWarning, stacklevel=4)
            return self._connect()
        return db

    def _key(self, input: Any, output1: Any, output2: Any) -> str:  # noqa: A002
        kind = f"{type(self.axiom).__module__}.{type(self.axiom).__qualname__}"
        try:
            data = pickle.dumps((kind, input, output1, output2), protocol=4)
        except (pickle.PicklingError, TypeError, AttributeError) as error:
            raise TypeError(f"Axiom.cached keys each pair by its pickled input and outputs, and these cannot be "
                            f"pickled ({type(error).__name__}: {error}); cache inputs and outputs of plain data "
                            "(Query, Document, GenerationRequest, GenerationResponse) or use the axiom uncached"
                            ) from None
        return hashlib.sha256(data).hexdigest()

    def preferences(self, input: Any, outputs: Sequence[Any], *args: Any, **kwargs: Any) -> PreferenceMatrix:  # type: ignore[override]  # noqa: A002
        """Read every pair from the file; compute the matrix once if any is missing, and store the missing ones."""
        outputs = list(outputs)
        n = len(outputs)
        keys = [self._key(input, a, b) for a in outputs for b in outputs]
        with self._lock, contextlib.closing(self._connect()) as db, db:
            found: dict[str, float] = {}
            for start in range(0, len(keys), 500):
                chunk = keys[start:start + 500]
                rows = db.execute(f"SELECT key, value FROM preference WHERE key IN ({','.join('?' * len(chunk))})",
                                  chunk).fetchall()
                found.update(rows)
            if len(found) < len(set(keys)):
                computed = np.asarray(self.axiom.preferences(input, outputs), dtype=np.float64).reshape(-1)
                new = [(k, float(v)) for k, v in zip(keys, computed, strict=True) if k not in found]
                db.executemany("INSERT OR IGNORE INTO preference (key, value) VALUES (?, ?)", new)
                found.update(new)
        return np.array([found[k] for k in keys], dtype=np.float64).reshape(n, n)


# -- the oracle of relevance labels ---------------------------------------------------------------------------
@dataclass(frozen=True, kw_only=True)
class RelevanceOracleAxiom(Axiom[Any, Any]):
    """ORACLE without qrels: the higher ``Document.relevance`` is preferred; an unjudged document is refused."""

    def preference(self, input: Any, output1: Any, output2: Any, *args: Any, **kwargs: Any) -> Preference:  # type: ignore[override]  # noqa: A002
        """sign(relevance(output1) - relevance(output2))."""
        for output in (output1, output2):
            if getattr(output, "relevance", None) is None:
                raise ValueError(f"ORACLE compares judged documents only: {getattr(output, 'id', output)!r} has no "
                                 "relevance; give Document(..., relevance=label) or ORACLE(qrels=frame)")
        return float(np.sign(output1.relevance - output2.relevance))


# -- learned combinations, the reference's way ------------------------------------------------------------------
class EstimatorAxiom(Axiom[Input, Output]):
    """An axiom fitted to a target axiom: ``fit(target, inputs_outputs)``."""

    def fit(self, target: Any, inputs_outputs: Iterable[tuple[Any, Sequence[Any]]]) -> None:
        """Fit to the target axiom's preferences on the (input, outputs) items."""
        raise NotImplementedError


class ScikitLearnEstimator(Protocol):
    """A scikit-learn estimator: ``fit(X, y)`` and ``predict(X)``."""

    def fit(self, X: np.ndarray, y: np.ndarray) -> Any:  # noqa: N803  (scikit-learn's names)
        """Fit to features X and targets y."""
        ...

    def predict(self, X: np.ndarray) -> np.ndarray:  # noqa: N803  (scikit-learn's names)
        """Predict the targets of X."""
        ...


@dataclass(frozen=True, kw_only=True, eq=False)
class ScikitLearnEstimatorAxiom(EstimatorAxiom[Input, Output]):
    """A scikit-learn estimator over the axioms' preferences: P[i, j] = estimator.predict([P_1[i, j], ..., P_k[i, j]]).

    ``fit(target, inputs_outputs)`` fits ``estimator`` itself (in place) on every ordered pair of each item's
    outputs, the diagonal included, to the target's preferences (their signs for a classifier). Our own learned
    combination with cross-validation and explanations is ``ir_rag_axioms.axioms.learned.LearnedAxiom``.
    """

    axioms: Sequence[Any]
    estimator: Any

    def __post_init__(self) -> None:
        object.__setattr__(self, "axioms", tuple(self.axioms))

    def _features(self, input: Any, outputs: Sequence[Any]) -> np.ndarray:  # noqa: A002
        return _matrices(self.axioms, input, outputs).reshape(len(self.axioms), -1).T

    def fit(self, target: Any = None, inputs_outputs: Any = None, **kwargs: Any) -> None:
        """Fit ``estimator`` to the target axiom's preferences on the (input, outputs) items."""
        if kwargs:
            raise TypeError(f"ScikitLearnEstimatorAxiom.fit(target, inputs_outputs) takes no {sorted(kwargs)}")
        if not isinstance(target, _OurAxiom) and isinstance(inputs_outputs, _OurAxiom):
            raise TypeError("ScikitLearnEstimatorAxiom.fit(target, inputs_outputs): the reference's order is the "
                            "target axiom first, then the (input, outputs) items; ours is "
                            "LearnedAxiom.fit(items, target)")
        if not isinstance(target, _OurAxiom) or inputs_outputs is None:
            raise TypeError("ScikitLearnEstimatorAxiom.fit(target=axiom, inputs_outputs=[(input, outputs), ...]) needs "
                            f"both, got target={target!r:.40}")
        from sklearn.base import is_classifier

        items = [(i, list(o)) for i, o in inputs_outputs]
        if not items:
            raise ValueError("ScikitLearnEstimatorAxiom.fit: no (input, outputs) items to fit to")
        x = np.concatenate([self._features(i, o) for i, o in items])
        goal = target.normalized() if is_classifier(self.estimator) else target
        y = np.concatenate([np.asarray(goal.preferences(i, o), dtype=np.float64).reshape(-1) for i, o in items])
        self.estimator.fit(x, y)

    def preferences(self, input: Any, outputs: Sequence[Any], *args: Any, **kwargs: Any) -> PreferenceMatrix:  # type: ignore[override]  # noqa: A002
        """The estimator's prediction for every ordered pair."""
        outputs = list(outputs)
        if not outputs:
            return np.zeros((0, 0))
        predicted = np.asarray(self.estimator.predict(self._features(input, outputs)), dtype=np.float64)
        return predicted.reshape(len(outputs), len(outputs))


# -- preconditions, the reference's way ----------------------------------------------------------------------------
class PreconditionMixin(Axiom[Input, Output]):
    """Mix into an axiom with a ``precondition`` field: pairs where it does not hold get preference 0.

    ``precondition`` is one of ours (``LEN(margin_fraction=...)``, ``NOP()``, ``axiom.as_precondition()``: read on
    the texts' terms) or an object with the reference's ``preconditions(input, outputs)`` (a boolean matrix).
    """

    precondition: Any

    def preferences(self, input: Any, outputs: Sequence[Any], *args: Any, **kwargs: Any) -> PreferenceMatrix:  # type: ignore[override]  # noqa: A002
        """The wrapped preferences where the precondition holds, 0 elsewhere."""
        outputs = list(outputs)
        mask = _precondition_mask(self.precondition, input, outputs)
        if not mask.any():
            return np.zeros((len(outputs), len(outputs)))
        return np.where(mask, np.asarray(super().preferences(input, outputs), dtype=np.float64), 0.0) + 0.0

    def preference(self, input: Any, output1: Any, output2: Any, *args: Any, **kwargs: Any) -> Preference:  # type: ignore[override]  # noqa: A002
        """The wrapped preference if the precondition holds for the pair, else 0."""
        if not _precondition_mask(self.precondition, input, [output1, output2])[0, 1]:
            return 0.0
        return float(super().preference(input, output1, output2))


def _precondition_mask(precondition: Any, input: Any, outputs: list[Any]) -> np.ndarray:  # noqa: A002
    if hasattr(precondition, "preconditions"):
        return np.asarray(precondition.preconditions(input=input, outputs=outputs), dtype=bool)
    from ir_rag_axioms.analysis.cache import default_analysis
    from ir_rag_axioms.analysis.features import TERMS
    from ir_rag_axioms.analysis.terms import term_statistics
    from ir_rag_axioms.axioms.preconditions import Precondition

    if not isinstance(precondition, Precondition):
        raise TypeError(f"precondition must be one of ours (LEN(), NOP(), axiom.as_precondition()) or have the "
                        f"reference's preconditions(input, outputs); got {type(precondition).__name__}")
    model = getattr(precondition, "model", None) or "en_core_web_sm"
    texts = [input.text, *(o.text for o in outputs)]
    analysis = default_analysis()
    with analysis:
        analysis.compute_features([(model, TERMS, t) for t in texts])
        query, *documents = term_statistics(texts, model, analysis=analysis)
        return np.asarray(precondition.mask(query, documents, input, outputs, analysis), dtype=bool)


__all__ = ["Axiom", "CachedAxiom", "EstimatorAxiom", "PreconditionMixin", "RelevanceOracleAxiom",
           "ScikitLearnEstimator", "ScikitLearnEstimatorAxiom", "CascadeAxiom", "ConjunctionAxiom", "MajorityVoteAxiom",
           "MultiplicativeInverseAxiom", "NegatedAxiom", "NormalizedAxiom", "ProductAxiom", "SumAxiom", "UniformAxiom",
           "VoteAxiom"]
