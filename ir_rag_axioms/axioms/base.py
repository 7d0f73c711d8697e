"""Axiom base classes: a preference matrix per request, and per-response features compared by one rule.

Every subclass of ``Axiom`` is a frozen dataclass with keyword-only fields (applied once, here), so an axiom is
its configuration. Kinds of axiom and their one hook each:

- ``Axiom.matrix(request, responses, analysis)``: the (n, n) preference matrix;
- ``FeatureAxiom.values(request, responses, analysis)``: one number per response, compared with
  ``higher_is_better`` and ``margin_fraction``;
- ``ParsedAxiom.feature()``: the ``Feature`` of each response's parse that is that number (configuration, no
  analysis: it is data for the planner).

Every hook receives the ``Analysis`` it runs under (passed down from ``preferences(..., analysis=)``) and hands it to
the tools it calls; none looks up a process default. A hook written before (without the ``analysis`` parameter)
still works: the class warns once (DeprecationWarning) and the hook runs inside ``with analysis:``.

What an axiom reads from spaCy is data (``reads()``), executed by the one planner ``analyse()``; ``prefetch()``
serves the tools that are not spaCy (the encoder, ROUGE, LanguageTool).
"""

from __future__ import annotations

import dataclasses
import functools
import math
import os
import typing
import warnings
from abc import ABC, abstractmethod
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, dataclass_transform

import numpy as np

from ir_rag_axioms.analysis.cache import Analysis, default_analysis, is_analysable, max_text_chars
from ir_rag_axioms.analysis.features import Feature
from ir_rag_axioms.analysis.resources import DEFAULT_SPACY_MODEL
from ir_rag_axioms.axioms._compare import compare, within_margin
from ir_rag_axioms.axioms._fields import field_default, field_error, options, plain, type_hints
from ir_rag_axioms.axioms.explanation import Explanation, index_pair, rule_of, summary_of
from ir_rag_axioms.model import GenerationRequest, GenerationResponse, all_contexts

Item = tuple[GenerationRequest, Sequence[GenerationResponse]]
"""One request with its candidate responses."""


@dataclass(frozen=True)
class Reads:
    """What an axiom reads from one spaCy model: features of the request, of each response, of each context passage."""

    model: str = DEFAULT_SPACY_MODEL
    request: tuple[Feature, ...] = ()
    responses: tuple[Feature, ...] = ()
    context: tuple[Feature, ...] = ()
    encoder: str | None = None
    """The sentence encoder the axiom embeds with afterwards (its ``prefetch``), if any."""


def analyse(axioms: Iterable[Axiom], items: Sequence[Item], analysis: Analysis | None = None,
            tools: bool = True) -> None:
    """The one planner: every feature the axioms read, in one spaCy pass per text.

    Then (``tools``) each axiom's ``prefetch``.
    """
    axioms, items = list(axioms), list(items)
    analysis = default_analysis() if analysis is None else analysis
    wanted: list[tuple[str, Feature, str]] = []
    for axiom in axioms:
        for reads in axiom.reads():
            for request, responses in items:
                wanted += [(reads.model, f, request.text) for f in reads.request]
                wanted += [(reads.model, f, r.text) for r in responses for f in reads.responses]
                passages = dict.fromkeys(p for c in all_contexts(request, responses) for p in c)
                wanted += [(reads.model, f, p) for p in passages for f in reads.context]
    with analysis:
        analysis.compute_features(wanted)
        for axiom in axioms if tools else ():
            axiom.prefetch(items, analysis)


def check_responses(responses: Sequence[GenerationResponse]) -> list[GenerationResponse]:
    """Return the responses as a list; raise on a bare response, non-response items or duplicate ids."""
    if isinstance(responses, (GenerationResponse, str)):
        raise TypeError("responses must be a list of GenerationResponse, got a single "
                        f"{type(responses).__name__}: wrap it in a list")
    responses = list(responses)
    for response in responses:
        if not isinstance(response, GenerationResponse):
            raise TypeError(f"expected GenerationResponse, got {type(response).__name__}")
    ids = [r.id for r in responses]
    if len(set(ids)) != len(ids):
        duplicates = sorted({i for i in ids if ids.count(i) > 1})
        raise ValueError(f"duplicate response ids within one request: {duplicates}")
    return responses


HOOKS: dict[str, int] = {"matrix": 2, "values": 2, "explain_pairs": 3, "details": 2, "prefetch": 1, "core": 4}
"""Hook name -> number of arguments before the ``analysis`` every hook receives last."""


def _adapt_old_hooks(cls: type) -> None:
    """Wrap hooks a subclass wrote without the ``analysis`` parameter (the old signature), with a DeprecationWarning.

    The wrapped hook accepts the analysis as its last argument and runs the old body inside ``with analysis:``, so
    the tools it calls read that analysis; called the old way (without it), it runs as written.
    """
    for hook, count in HOOKS.items():
        func = cls.__dict__.get(hook)
        if not callable(func) or getattr(func, "__isabstractmethod__", False) or _takes_analysis(func):
            continue
        warnings.warn(f"{cls.__module__}.{cls.__qualname__}.{hook}() has no 'analysis' parameter: hooks receive the "
                      f"analysis they run under (write {hook}(self, ..., analysis) and pass it to the tools); the old "
                      "signature is deprecated", DeprecationWarning, stacklevel=4)
        setattr(cls, hook, _adapted(func, count))


def _takes_analysis(func: Any) -> bool:
    """Whether a hook has an ``analysis`` parameter (or takes any arguments: ``*args``)."""
    import inspect

    try:
        parameters = inspect.signature(func).parameters.values()
    except (TypeError, ValueError):
        return True
    return any(p.name == "analysis" or p.kind is p.VAR_POSITIONAL for p in parameters)


def _adapted(func: Any, count: int) -> Any:
    @functools.wraps(func)
    def hook(self: Any, *args: Any, **kwargs: Any) -> Any:
        analysis = kwargs.pop("analysis", None)
        if analysis is None and len(args) > count:
            *args, analysis = args  # type: ignore[assignment]
        if analysis is None:
            return func(self, *args, **kwargs)
        with analysis:
            return func(self, *args, **kwargs)

    hook.__deprecated_hook__ = True  # type: ignore[attr-defined]
    return hook


def check_shape(axiom: Any, hook: str, result: Any, shape: tuple[int, ...]) -> np.ndarray:
    """``result`` of ``axiom``'s ``hook`` as float64 of ``shape``; ValueError naming the axiom and that shape."""
    expected = "an (n, n) matrix" if len(shape) == 2 else "one value per response, shape (n,)"
    try:
        array = np.asarray(result, dtype=np.float64)
    except (TypeError, ValueError) as error:
        raise ValueError(f"{axiom!r}: {hook}() returned {type(result).__name__} {result!r:.80}, not numbers; "
                         f"expected {expected} = {shape} for {shape[0]} responses") from error
    if result is None or array.shape != shape:
        got = "None" if result is None else f"shape {array.shape}"
        raise ValueError(f"{axiom!r}: {hook}() returned {got} for {shape[0]} responses; expected {expected} = "
                         f"{shape}")
    return array


def _shape_checked(func: Any) -> Any:
    """Wrap a ``matrix`` hook: its result must be (n, n) for the n responses it was given (``check_shape``)."""
    @functools.wraps(func)
    def matrix(self: Any, *args: Any, **kwargs: Any) -> Any:
        result = func(self, *args, **kwargs)
        responses = kwargs["responses"] if "responses" in kwargs else args[1]
        check_shape(self, "matrix", result, (len(responses), len(responses)))
        return result

    matrix.__shape_checked__ = True  # type: ignore[attr-defined]
    return matrix


def _check_matrix_shapes(cls: type) -> None:
    """Make a class's own ``matrix`` hook check its result's shape wherever the library (or a user) calls it."""
    func = cls.__dict__.get("matrix")
    if callable(func) and not getattr(func, "__isabstractmethod__", False) \
            and not getattr(func, "__shape_checked__", False):
        setattr(cls, "matrix", _shape_checked(func))  # noqa: B010  (cls is a type: no attribute to assign for mypy)


@dataclass_transform(frozen_default=True, kw_only_default=True)
class Axiom(ABC):
    """A rule that prefers some responses to a request over others: ``preferences()`` gives P[i, j] in {-1, 0, 1}."""

    name: ClassVar[str | None] = None
    """The short name (e.g. ``"COH1"``) under which the registry knows the class's default instance."""
    dimension: ClassVar[str] = "user-defined"
    """The utility dimension shown in the catalogue (``"coherence"``, ..., ``"retrieval"``, ``"oracle"``)."""
    citation: ClassVar[str] = ""
    """The source of the rule, e.g. ``"Merker et al., 2025"`` (``explanation.NEW_IN_THIS_LIBRARY`` if none)."""

    def __init_subclass__(cls, kw_only: bool = True, positional: bool = False, **kwargs: Any) -> None:
        """Make every subclass a frozen dataclass (keyword-only fields unless ``kw_only=False``).

        ``kw_only`` is the dataclass parameter that type checkers read through ``dataclass_transform``;
        ``positional=True`` is the older spelling of ``kw_only=False``.
        """
        super().__init_subclass__(**kwargs)
        dataclass(frozen=True, repr=False, kw_only=kw_only and not positional)(cls)
        _adapt_old_hooks(cls)
        _check_matrix_shapes(cls)

    # -- the hook of matrix axioms ----------------------------------------------------------------------
    @abstractmethod
    def matrix(self, request: GenerationRequest, responses: list[GenerationResponse], analysis: Analysis) -> np.ndarray:
        """The (n, n) preference matrix, assuming ``analyse`` has run for this request in ``analysis``."""

    def reads(self) -> tuple[Reads, ...]:
        """The spaCy features this axiom reads (data for the planner ``analyse``); default: none."""
        return ()

    def prefetch(self, items: Sequence[Item], analysis: Analysis) -> None:
        """Batch the work of tools other than spaCy (embeddings, ROUGE, ...) after the planner ran; default: none."""
        return None  # an optional hook, not abstract: most axioms use spaCy only

    # -- public API ---------------------------------------------------------------------------------------
    def preferences(self, request: GenerationRequest | None = None,
                    responses: Sequence[GenerationResponse] | None = None, analysis: Analysis | None = None, *,
                    input: GenerationRequest | None = None,  # noqa: A002  (the specification's keyword)
                    outputs: Sequence[GenerationResponse] | None = None) -> np.ndarray:
        """The (n, n) preference matrix: P[i, j] > 0 means response i is preferred over response j.

        ``input=`` and ``outputs=`` are the specification's keywords for ``request`` and ``responses``.
        """
        request = _one_of("request", request, "input", input)
        responses = _one_of("responses", responses, "outputs", outputs)
        return self.preferences_batch([(request, responses)], analysis=analysis)[0]

    def preference(self, request: GenerationRequest | None = None, first: GenerationResponse | None = None,
                   second: GenerationResponse | None = None, analysis: Analysis | None = None, *,
                   input: GenerationRequest | None = None,  # noqa: A002  (the specification's keyword)
                   output1: GenerationResponse | None = None, output2: GenerationResponse | None = None) -> float:
        """Preference of ``first`` over ``second`` (> 0: first is better), read from the 2 x 2 matrix."""
        request = _one_of("request", request, "input", input)
        first = _one_of("first", first, "output1", output1)
        second = _one_of("second", second, "output2", output2)
        if first.id == second.id:
            second = dataclasses.replace(second, id=f"{second.id}\x00second")
        return float(self.preferences(request, [first, second], analysis=analysis)[0, 1])

    def preferences_batch(self, items: Iterable[Item], progress: bool = False,
                          analysis: Analysis | None = None) -> list[np.ndarray]:
        """Preference matrices for many requests: one batched analysis pass, then one matrix per request."""
        checked = [(_check_request(request), check_responses(responses)) for request, responses in items]
        analysis = default_analysis() if analysis is None else analysis
        analyse([self], checked, analysis)
        if progress:
            from tqdm.auto import tqdm

            checked = tqdm(checked, desc=repr(self), leave=False)
        with analysis:
            return [np.asarray(self.matrix(request, responses, analysis), dtype=np.float64) if responses
                    else np.zeros((0, 0)) for request, responses in checked]

    def batch_preferences(self, batch: Iterable[Item], progress: bool = False,
                          analysis: Analysis | None = None) -> list[np.ndarray]:
        """The specification's name of ``preferences_batch``: one matrix per (request, responses) item."""
        return self.preferences_batch(batch, progress=progress, analysis=analysis)

    # -- wrappers -----------------------------------------------------------------------------------------
    def cached(self, path: str | os.PathLike) -> Axiom:
        """This axiom with its matrices kept in the persistent store at ``path`` (shared across processes)."""
        from ir_rag_axioms.axioms.wrappers import Cached

        return Cached(self, path=os.fspath(path))

    def parallel(self, n_jobs: int | None = None) -> Axiom:
        """This axiom analysed by ``n_jobs`` workers: spaCy processes, encoder threads (None: the free cores)."""
        from ir_rag_axioms.axioms.wrappers import Parallel

        return Parallel(self, n_jobs=n_jobs)

    def as_precondition(self) -> Any:
        """A precondition that holds for the pairs on which this axiom has no preference (P[i, j] = 0)."""
        from ir_rag_axioms.axioms.preconditions import AxiomPrecondition

        return AxiomPrecondition(self)

    # -- explanations ----------------------------------------------------------------------------------
    def explain(self, request: GenerationRequest, first: GenerationResponse, second: GenerationResponse, *,
                responses: Sequence[GenerationResponse] | None = None,
                analysis: Analysis | None = None) -> Explanation:
        """Why P[first, second] is what it is: the numbers behind the decision (within ``responses`` if given)."""
        if responses is None:
            if first.id == second.id:
                second = dataclasses.replace(second, id=f"{second.id}\x00second")
            responses = [first, second]
        responses = check_responses(responses)
        return self.explanations(request, responses, [index_pair(responses, first, second)], analysis=analysis)[0]

    def explanations(self, request: GenerationRequest, responses: Sequence[GenerationResponse],
                     pairs: Iterable[tuple[int, int]] | None = None,
                     analysis: Analysis | None = None) -> list[Explanation]:
        """Explanations of the (i, j) pairs (default: every ordered pair i != j), after one analysis pass."""
        request, checked = _check_request(request), check_responses(responses)
        n = len(checked)
        pairs = [(i, j) for i in range(n) for j in range(n) if i != j] if pairs is None else list(pairs)
        for i, j in pairs:
            if not (0 <= i < n and 0 <= j < n):
                raise IndexError(f"pair ({i}, {j}) is out of range for {n} responses")
        analysis = default_analysis() if analysis is None else analysis
        analyse([self], [(request, checked)], analysis)
        with analysis:
            return self.explain_pairs(request, checked, pairs, analysis)

    def explain_pairs(self, request: GenerationRequest, responses: list[GenerationResponse],
                      pairs: Sequence[tuple[int, int]], analysis: Analysis) -> list[Explanation]:
        """The hook of explanations (after ``analyse``); default: the matrix entry with the rule."""
        matrix = np.asarray(self.matrix(request, responses, analysis), dtype=np.float64)
        return [Explanation(repr(self), rule_of(self), responses[i].id, responses[j].id, float(matrix[i, j]) + 0.0)
                for i, j in pairs]

    # -- composition --------------------------------------------------------------------------------------
    def __add__(self, other: Axiom | float) -> Axiom:
        from ir_rag_axioms.axioms.combinators import Sum

        return Sum.of(self, other)

    def __radd__(self, other: float) -> Axiom:
        from ir_rag_axioms.axioms.combinators import Sum

        return Sum.of(other, self)

    def __sub__(self, other: Axiom | float) -> Axiom:
        from ir_rag_axioms.axioms.combinators import Sum, as_axiom

        return Sum.of(self, -as_axiom(other))

    def __rsub__(self, other: float) -> Axiom:
        from ir_rag_axioms.axioms.combinators import Sum

        return Sum.of(other, -self)

    def __mul__(self, other: Axiom | float) -> Axiom:
        from ir_rag_axioms.axioms.combinators import Product

        return Product.of(self, other)

    def __rmul__(self, other: float) -> Axiom:
        from ir_rag_axioms.axioms.combinators import Product

        return Product.of(other, self)

    def __truediv__(self, other: Axiom | float) -> Axiom:
        """``a / b``: the product of a with the multiplicative inverse of b (1 / P_b where P_b != 0, else 0)."""
        from ir_rag_axioms.axioms.combinators import MultiplicativeInverse, Product, as_axiom

        if not isinstance(other, Axiom) and isinstance(other, (int, float, np.number)) and other == 0:
            raise ValueError(f"{self!r} / 0: dividing an axiom by the number 0 is undefined (like an "
                             "infinite weight); divide by a non-zero number")
        return Product.of(self, MultiplicativeInverse(as_axiom(other)))

    def __rtruediv__(self, other: float) -> Axiom:
        from ir_rag_axioms.axioms.combinators import MultiplicativeInverse, Product

        return Product.of(other, MultiplicativeInverse(self))

    def __neg__(self) -> Axiom:
        from ir_rag_axioms.axioms.combinators import Constant, Negated

        if isinstance(self, Constant):
            return Constant(-self.value)
        return self.axiom if isinstance(self, Negated) else Negated(self)  # --a is a: negation chains stay flat

    def __pos__(self) -> Axiom:
        return self.normalized()

    def __or__(self, other: Axiom) -> Axiom:
        from ir_rag_axioms.axioms.combinators import Cascade

        return Cascade.of(self, other)

    def __and__(self, other: Axiom) -> Axiom:
        from ir_rag_axioms.axioms.combinators import Conjunction

        return Conjunction.of(self, other)

    def __mod__(self, other: Axiom) -> Axiom:
        """Majority vote; ``a % b % c`` is one vote of three axioms, ``a % (b % c)`` a vote of a and the vote b % c."""
        from ir_rag_axioms.axioms.combinators import MajorityVote

        return MajorityVote.of(self, other)

    def normalized(self) -> Axiom:
        """This axiom with preferences mapped to their sign in {-1, 0, 1}."""
        from ir_rag_axioms.axioms.combinators import Normalized

        return self if isinstance(self, Normalized) else Normalized(self)  # ++a is +a


_T = typing.TypeVar("_T")


def _one_of(name: str, value: _T | None, alias: str, alias_value: _T | None) -> _T:
    """The argument given under our name or under the specification's keyword; TypeError if both or neither."""
    if value is not None and alias_value is not None:
        raise TypeError(f"give {name} or {alias}=, not both")
    chosen = value if value is not None else alias_value
    if chosen is None:
        raise TypeError(f"missing argument {name} (or {alias}=)")
    return chosen


def _check_request(request: GenerationRequest) -> GenerationRequest:
    if not isinstance(request, GenerationRequest):
        raise TypeError(f"expected GenerationRequest, got {type(request).__name__}")
    return request


class ConfigurableAxiom(Axiom):
    """An axiom whose configuration is its fields.

    Calling it returns a reconfigured copy (``COH1(margin_fraction=.5)``).
    """

    def __call__(self, *args: Any, **changes: Any) -> typing.Self:
        """A copy with the given parameters changed; parameters by keyword only."""
        if args:
            raise TypeError(f"{self.label} takes keyword arguments only, e.g. {self.label}(margin_fraction=0.5); "
                            f"its parameters: {sorted(self.parameters())}")
        unknown = sorted(set(changes) - set(self.parameters()))
        if unknown:
            raise TypeError(f"{self.label} has no parameter(s) {unknown}; it takes {sorted(self.parameters())}")
        return dataclasses.replace(self, **changes)

    def parameters(self) -> dict[str, Any]:
        """Parameter name -> current value."""
        return {f.name: getattr(self, f.name) for f in dataclasses.fields(self)}

    ranges: ClassVar[dict[str, tuple[float, float]]] = {}
    """Parameter name -> inclusive (low, high) range of its value, checked at construction (NaN is refused)."""

    def __post_init__(self) -> None:
        hints = type_hints(type(self))
        for f in dataclasses.fields(self):
            value = plain(getattr(self, f.name))
            object.__setattr__(self, f.name, value)  # numpy scalars as Python numbers: the repr parses back
            if isinstance(value, float) and math.isnan(value):
                raise ValueError(f"{self.label}: {f.name} must be a number, got NaN")
            error = field_error(self.label, f.name, hints.get(f.name), value)
            if error:
                is_choice = any(typing.get_origin(o) is typing.Literal for o in options(hints.get(f.name)))
                raise (ValueError if is_choice and isinstance(value, str) else TypeError)(error)
            low, high = self.ranges.get(f.name, (-math.inf, math.inf))
            if isinstance(value, int | float) and not low <= value <= high:
                raise ValueError(f"{self.label}: {f.name} must be in [{low:g}, {high:g}], got {value!r}")

    @property
    def label(self) -> str:
        """The short name if registered, else the class name."""
        return self.name or type(self).__name__

    def __repr__(self) -> str:
        """Canonical and parseable: the short name and the parameters that differ from the defaults, by name."""
        changed = sorted(f"{f.name}={getattr(self, f.name)!r}" for f in dataclasses.fields(self)
                         if f.repr and getattr(self, f.name) != field_default(f))
        return f"{self.label}({', '.join(changed)})"


class FeatureAxiom(ConfigurableAxiom):
    """One number per response, a direction and a relative margin.

    P = compare(values, higher_is_better, margin_fraction).
    """

    margin_fraction: float = 0.0
    """Relative margin within which two values tie: |a - b| <= margin_fraction * max(|a|, |b|)."""
    higher_is_better: bool = True
    """Whether a larger value makes a response better."""
    abstain_on_blank: ClassVar[bool] = True
    """Whether blank or over-long (unanalysable) responses abstain (value NaN: 0 against every response)."""

    def __post_init__(self) -> None:
        super().__post_init__()
        if not (math.isfinite(self.margin_fraction) and self.margin_fraction >= 0):
            raise ValueError(
                f"{self.label}: margin_fraction must be a finite number >= 0, got {self.margin_fraction!r}"
            )

    @abstractmethod
    def values(self, request: GenerationRequest, responses: list[GenerationResponse], analysis: Analysis) -> np.ndarray:
        """One value per response (NaN where undefined: the response then ties with all others)."""

    undefined: ClassVar[str] = "value undefined"
    """Why the value of an analysable response can be NaN (shown in explanations), e.g. ``"no aspects"``."""

    def prefers_higher(self) -> bool:
        """The direction the matrix uses: ``higher_is_better`` (an axiom may derive it from its configuration)."""
        return self.higher_is_better

    def checked_values(self, request: GenerationRequest, responses: list[GenerationResponse],
                       analysis: Analysis) -> np.ndarray:
        """values() with unanalysable responses as NaN: exactly what the matrix compares."""
        values = check_shape(self, "values", self.values(request, responses, analysis), (len(responses),)).copy()
        if self.abstain_on_blank:
            values[[not is_analysable(r.text) for r in responses]] = np.nan
            limit = max_text_chars()
            too_long = [r.id for r in responses if len(r.text) > limit]
            if too_long:
                warnings.warn(f"{self!r}: response(s) {too_long} longer than {limit} characters are not "
                              "analysed and abstain (set IR_RAG_AXIOMS_MAX_TEXT_CHARS to raise the limit)",
                              stacklevel=3)
        return values

    def matrix(self, request: GenerationRequest, responses: list[GenerationResponse], analysis: Analysis) -> np.ndarray:
        """compare(values, direction, margin_fraction); unanalysable responses abstain."""
        return compare(self.checked_values(request, responses, analysis), self.prefers_higher(), self.margin_fraction)

    def meaning(self) -> str:
        """What the value is (the first line of the ``values`` docstring), shown in explanations."""
        return summary_of(type(self).values)

    def abstention(self, request: GenerationRequest, response: GenerationResponse, value: float) -> str | None:
        """Why a response's value is undefined (blank, over-long, ``undefined``), None if it is defined."""
        if self.abstain_on_blank and not response.text.strip():
            return "blank response"
        if self.abstain_on_blank and len(response.text) > max_text_chars():
            return f"over-long response (more than {max_text_chars()} characters)"
        return self.undefined if math.isnan(value) else None

    def details(self, request: GenerationRequest, response: GenerationResponse, analysis: Analysis) -> dict[str, Any]:
        """Evidence behind one response's value for explanations (label -> evidence); default: none."""
        return {}

    def explain_pairs(self, request: GenerationRequest, responses: list[GenerationResponse],
                      pairs: Sequence[tuple[int, int]], analysis: Analysis) -> list[Explanation]:
        """The values compared, the direction, the margin test and the abstentions; the decision from ``compare``."""
        values = self.checked_values(request, responses, analysis)
        matrix = compare(values, self.prefers_higher(), self.margin_fraction)
        evidence: dict[int, dict[str, Any]] = {}
        out = []
        for i, j in pairs:
            for k in (i, j):
                if k not in evidence:
                    evidence[k] = self.details(request, responses[k], analysis) \
                        if is_analysable(responses[k].text) else {}
            reasons = [(responses[k].id, self.abstention(request, responses[k], float(values[k]))) for k in (i, j)]
            abstention = "; ".join(f"{rid}: {why}" for rid, why in reasons if why) or None
            defined = not (math.isnan(values[i]) or math.isnan(values[j]))
            labels = list(dict.fromkeys([*evidence[i], *evidence[j]]))
            out.append(Explanation(
                repr(self), rule_of(self), responses[i].id, responses[j].id, float(matrix[i, j]),
                meaning=self.meaning(), values=(float(values[i]), float(values[j])),
                higher_is_better=self.prefers_higher(), margin_fraction=self.margin_fraction,
                within_margin=bool(within_margin(values[i], values[j], self.margin_fraction)) if defined else None,
                abstention=abstention,
                details={label: (evidence[i].get(label), evidence[j].get(label)) for label in labels},
            ))
        return out


def feature_values(model: str, feature: Feature, texts: Sequence[str], analysis: Analysis) -> list[Any]:
    """The feature of each text from ``analysis`` (None for unanalysable texts)."""
    return analysis.features(model, feature, texts)


def as_float(value: Any) -> float:
    """A feature value as a float (None and missing values: NaN)."""
    return float("nan") if value is None else float(value)


class ParsedAxiom(FeatureAxiom):
    """A feature axiom whose value is one ``Feature`` of each response's parse (the hook: ``feature()``)."""

    spacy_model: str = DEFAULT_SPACY_MODEL
    """spaCy pipeline name or path (the offline mirror of en_core_web_sm is found automatically)."""

    @abstractmethod
    def feature(self) -> Feature:
        """The per-response feature that is this axiom's value (NaN where undefined)."""

    def reads(self) -> tuple[Reads, ...]:
        """The feature, of every response."""
        return (Reads(self.spacy_model, responses=(self.feature(),)),)

    def meaning(self) -> str:
        """What the value is: the first line of the ``feature`` docstring."""
        return summary_of(type(self).feature)

    def values(self, request: GenerationRequest, responses: list[GenerationResponse], analysis: Analysis) -> np.ndarray:
        """The feature of each response."""
        found = feature_values(self.spacy_model, self.feature(), [r.text for r in responses], analysis)
        return np.array([as_float(v) for v in found], dtype=np.float64)

