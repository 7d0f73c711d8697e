"""Axiom base classes: a preference matrix per request, and per-response features compared by one rule."""

from __future__ import annotations

import dataclasses
import math
import warnings
from abc import ABC, abstractmethod
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

import numpy as np

from ir_rag_axioms.model import GenerationRequest, GenerationResponse

Item = tuple[GenerationRequest, Sequence[GenerationResponse]]
"""One request with its candidate responses."""
SpacyNeed = tuple[str, str, tuple[str, ...]]
"""(spaCy model, text, needs such as ``("parse", "lemmas")``) that an axiom will read."""


def parse_all(axioms: Iterable[Axiom], items: Sequence[Item]) -> None:
    """One spaCy pass over every text the axioms read, each text with the union of all axioms' needs."""
    from ir_rag_axioms.analysis.cache import default_analysis

    plan: dict[tuple[str, str], set[str]] = {}
    for axiom in axioms:
        for model, text, needs in axiom.spacy_needs(items):
            plan.setdefault((model, text), set()).update(needs)
    groups: dict[tuple[str, frozenset[str]], list[str]] = {}
    for (model, text), needs in plan.items():
        groups.setdefault((model, frozenset(needs)), []).append(text)
    for (model, needs), texts in groups.items():
        default_analysis().parse(texts, model, needs)


def prefetch_all(axioms: Iterable[Axiom], items: Sequence[Item]) -> None:
    """Analyse everything the axioms read: ``parse_all``, then each axiom's own prefetch (embeddings, ROUGE, ...)."""
    axioms = list(axioms)
    items = list(items)
    parse_all(axioms, items)
    for axiom in axioms:
        axiom.prefetch(items)


def compare(values: np.ndarray, higher_is_better: bool = True, margin_fraction: float = 0.0) -> np.ndarray:
    """P[i, j] = sign(v_i - v_j) (negated if lower is better), 0 where |v_i - v_j| <= m * max(|v_i|, |v_j|) or a value is NaN."""
    v = np.asarray(values, dtype=np.float64)
    if v.ndim != 1:
        raise ValueError(f"compare() needs one value per response, got shape {v.shape}")
    a, b = v[:, None], v[None, :]
    with np.errstate(invalid="ignore"):
        diff = a - b
        tie = np.abs(diff) <= margin_fraction * np.maximum(np.abs(a), np.abs(b))
        prefs = np.where(tie | np.isnan(diff), 0.0, np.sign(diff))
    return (prefs if higher_is_better else -prefs) + 0.0  # + 0.0 turns -0.0 into 0.0


def check_responses(responses: Sequence[GenerationResponse]) -> list[GenerationResponse]:
    """Return the responses as a list; raise ``ValueError`` on duplicate ids or non-response items."""
    responses = list(responses)
    for response in responses:
        if not isinstance(response, GenerationResponse):
            raise TypeError(f"expected GenerationResponse, got {type(response).__name__}")
    ids = [r.id for r in responses]
    if len(set(ids)) != len(ids):
        duplicates = sorted({i for i in ids if ids.count(i) > 1})
        raise ValueError(f"duplicate response ids within one request: {duplicates}")
    return responses


def _format_value(value: Any) -> str:
    if isinstance(value, float) and value.is_integer():
        return repr(value)
    return repr(value)


class Axiom(ABC):
    """A rule that prefers some responses to a request over others: ``preferences()`` gives P[i, j] in {-1, 0, 1}."""

    name: ClassVar[str | None] = None
    """The short name (e.g. ``"COH1"``) under which the registry exports a default instance."""

    # -- the one method to implement --------------------------------------------------------------
    @abstractmethod
    def matrix(self, request: GenerationRequest, responses: list[GenerationResponse]) -> np.ndarray:
        """The (n, n) preference matrix, assuming ``prefetch`` has run for this request."""

    def prefetch(self, items: Sequence[Item]) -> None:
        """Analyse, in one batched pass, every text this axiom will read for these requests (default: nothing)."""

    def spacy_needs(self, items: Sequence[Item]) -> Iterable[SpacyNeed]:
        """(spaCy model, text, needs) for every text this axiom parses, so that ``prefetch_all`` parses each once."""
        return ()

    # -- public API ---------------------------------------------------------------------------------
    def preferences(
        self, request: GenerationRequest, responses: Sequence[GenerationResponse]
    ) -> np.ndarray:
        """The (n, n) preference matrix: P[i, j] > 0 means response i is preferred over response j."""
        responses = check_responses(responses)
        if not isinstance(request, GenerationRequest):
            raise TypeError(f"expected GenerationRequest, got {type(request).__name__}")
        if not responses:
            return np.zeros((0, 0))
        prefetch_all([self], [(request, responses)])
        return np.asarray(self.matrix(request, responses), dtype=np.float64)

    def preference(
        self, request: GenerationRequest, first: GenerationResponse, second: GenerationResponse
    ) -> float:
        """Preference of ``first`` over ``second`` (> 0: first is better), read from the 2 x 2 matrix."""
        if first.id == second.id:
            second = dataclasses.replace(second, id=f"{second.id}\x00second")
        return float(self.preferences(request, [first, second])[0, 1])

    def preferences_batch(self, items: Iterable[Item], progress: bool = False) -> list[np.ndarray]:
        """Preference matrices for many requests: one batched analysis pass, then one matrix per request."""
        checked = [(request, check_responses(responses)) for request, responses in items]
        prefetch_all([self], checked)
        if progress:
            from tqdm.auto import tqdm

            checked = tqdm(checked, desc=repr(self), leave=False)
        out = []
        for request, responses in checked:
            out.append(
                np.asarray(self.matrix(request, responses), dtype=np.float64)
                if responses
                else np.zeros((0, 0))
            )
        return out

    # -- composition --------------------------------------------------------------------------------
    def __add__(self, other: Axiom | float) -> Axiom:
        from ir_rag_axioms.axioms.combinators import Sum, as_axiom

        return Sum((self, as_axiom(other)))

    def __radd__(self, other: float) -> Axiom:
        from ir_rag_axioms.axioms.combinators import Sum, as_axiom

        return Sum((as_axiom(other), self))

    def __sub__(self, other: Axiom | float) -> Axiom:
        from ir_rag_axioms.axioms.combinators import Negated, Sum, as_axiom

        return Sum((self, Negated(as_axiom(other))))

    def __mul__(self, other: Axiom | float) -> Axiom:
        from ir_rag_axioms.axioms.combinators import Product, as_axiom

        return Product((self, as_axiom(other)))

    def __rmul__(self, other: float) -> Axiom:
        from ir_rag_axioms.axioms.combinators import Product, as_axiom

        return Product((as_axiom(other), self))

    def __neg__(self) -> Axiom:
        from ir_rag_axioms.axioms.combinators import Negated

        return Negated(self)

    def __pos__(self) -> Axiom:
        return self.normalized()

    def __or__(self, other: Axiom) -> Axiom:
        from ir_rag_axioms.axioms.combinators import Cascade

        return Cascade((self, other))

    def __and__(self, other: Axiom) -> Axiom:
        from ir_rag_axioms.axioms.combinators import Conjunction

        return Conjunction((self, other))

    def __mod__(self, other: Axiom) -> Axiom:
        """Majority vote; ``a % b % c`` is one vote of three axioms."""
        from ir_rag_axioms.axioms.combinators import MajorityVote

        default = MajorityVote.minimum_votes
        if isinstance(self, MajorityVote) and self.minimum_votes == default:
            return MajorityVote((*self.axioms, other))
        return MajorityVote((self, other))

    def normalized(self) -> Axiom:
        """This axiom with preferences mapped to their sign in {-1, 0, 1}."""
        from ir_rag_axioms.axioms.combinators import Normalized

        return Normalized(self)


@dataclass(frozen=True, repr=False)
class ConfigurableAxiom(Axiom):
    """An axiom whose configuration is its frozen dataclass fields; calling it returns a reconfigured copy."""

    def __call__(self, **changes: Any) -> ConfigurableAxiom:
        """A copy with the given parameters changed (``COH1(margin_fraction=0.75)``)."""
        names = {f.name for f in dataclasses.fields(self)}
        unknown = sorted(set(changes) - names)
        if unknown:
            raise TypeError(f"{self.label} has no parameter(s) {unknown}; it takes {sorted(names)}")
        return dataclasses.replace(self, **changes)

    def __post_init__(self) -> None:
        margin = getattr(self, "margin_fraction", None)
        if margin is not None and not (isinstance(margin, (int, float)) and 0 <= margin and math.isfinite(margin)):
            raise ValueError(f"{self.label}: margin_fraction must be a finite number >= 0, got {margin!r}")

    @property
    def label(self) -> str:
        """The short name if registered, else the class name."""
        return self.name or type(self).__name__

    def __repr__(self) -> str:
        changed = []
        for f in dataclasses.fields(self):
            if not f.repr:
                continue
            value = getattr(self, f.name)
            default = f.default if f.default is not dataclasses.MISSING else (
                f.default_factory() if f.default_factory is not dataclasses.MISSING else dataclasses.MISSING
            )
            if value != default:
                changed.append(f"{f.name}={_format_value(value)}")
        return f"{self.label}({', '.join(changed)})"


@dataclass(frozen=True, repr=False)
class FeatureAxiom(ConfigurableAxiom):
    """One number per response plus a direction and a relative margin: P = compare(values, higher_is_better, margin_fraction)."""

    higher_is_better: ClassVar[bool] = True
    """Whether a larger value makes a response better."""
    abstain_on_blank: ClassVar[bool] = True
    """Whether blank or over-long (unanalysable) responses abstain (value NaN: 0 against every response)."""

    @abstractmethod
    def values(self, request: GenerationRequest, responses: list[GenerationResponse]) -> np.ndarray:
        """One value per response (NaN where undefined: the response then ties with all others)."""

    def matrix(self, request: GenerationRequest, responses: list[GenerationResponse]) -> np.ndarray:
        """compare(values, higher_is_better, margin_fraction)."""
        values = np.array(self.values(request, responses), dtype=np.float64)
        if self.abstain_on_blank:
            from ir_rag_axioms.analysis.cache import MAX_TEXT_CHARS, is_analysable

            unanalysable = [not is_analysable(r.text) for r in responses]
            values[unanalysable] = np.nan
            too_long = [r.id for r in responses if len(r.text) > MAX_TEXT_CHARS]
            if too_long:
                warnings.warn(
                    f"{self!r}: response(s) {too_long} longer than {MAX_TEXT_CHARS} characters are not analysed "
                    "and abstain (set IR_RAG_AXIOMS_MAX_TEXT_CHARS to raise the limit)",
                    stacklevel=2,
                )
        return compare(values, self._higher_is_better(), float(getattr(self, "margin_fraction", 0.0)))

    def _higher_is_better(self) -> bool:
        return bool(self.higher_is_better)
