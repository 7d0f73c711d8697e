"""``ir_axioms.axiom``: every axiom name of the specification, building our axioms with the reference's behaviours.

A name (``TFC1``, ``Tfc1Axiom``, ``COH1``, ``GEN_TFC1``, ``TrecRagCrowdAxiom``, ...) is a ``SpecName``: calling it
with the specification's keywords returns our axiom, configured as the reference computes it:

- CORR1 and CLAR2 prefer fewer citing sentences and lower Flesch reading ease (``higher_is_better=False``);
- TFC1, TFC3, REG, ANTI-REG, aSL, ArgUC, QTArg and QTPArg (and their GEN_ forms) skip their length precondition
  (``reference_preconditions=True``); STMC2 returns the reference's raw, not antisymmetric answer
  (``reference_asymmetry=True``) and divides its term frequencies by the length twice (``reference_relative_tf=True``);
- the crowd oracle keeps the later of two judgments of a pair (``duplicates="last"``).

Keywords: ``language_name`` is our ``spacy_model`` (``model`` for term axioms); tool objects from ``compat.tools``
become our parameters; axioms that read collection statistics use the index bound by ``tools.bind_index``.
"""

from __future__ import annotations

import dataclasses
import os
from collections.abc import Callable, Iterable
from typing import Any

from ir_rag_axioms.axioms import combinators, oracles, utility
from ir_rag_axioms.axioms.base import Axiom, ConfigurableAxiom
from ir_rag_axioms.axioms.generative import GENERATIVE_AXIOMS, Generative
from ir_rag_axioms.axioms.registry import REGISTRY, names
from ir_rag_axioms.axioms.retrieval.base import StatisticsTermAxiom
from ir_rag_axioms.axioms.wrappers import Cached, Parallel
from ir_rag_axioms.compat import tools

# The reference's behaviours by our parameter (set where the axiom has the parameter).
_REFERENCE_FLAGS = {"reference_preconditions": True, "reference_asymmetry": True, "reference_relative_tf": True}
_REFERENCE_DIRECTIONS = {"CORR1": {"higher_is_better": False}, "CLAR2": {"higher_is_better": False}}


def _inner(axiom: ConfigurableAxiom) -> ConfigurableAxiom:
    return axiom.axiom if isinstance(axiom, Generative) else axiom


def reference_defaults(axiom: ConfigurableAxiom) -> dict[str, Any]:
    """Our parameters that give ``axiom`` the reference's behaviour (for a GEN_ axiom: of the wrapped axiom)."""
    inner = _inner(axiom)
    fields = {f.name for f in dataclasses.fields(inner)}
    out = {k: v for k, v in _REFERENCE_FLAGS.items() if k in fields}
    if not getattr(type(inner), "reference_skips_precondition", False):
        out.pop("reference_preconditions", None)  # no effect on the others: keep their repr canonical
    out.update(_REFERENCE_DIRECTIONS.get(inner.label, {}))
    return out


def translate(axiom: ConfigurableAxiom, keywords: dict[str, Any]) -> dict[str, Any]:
    """The specification's keywords as ours: ``language_name`` -> ``spacy_model``/``model``, tools -> values."""
    inner = _inner(axiom)
    fields = {f.name for f in dataclasses.fields(inner)}
    out: dict[str, Any] = {}
    for key, value in keywords.items():
        if key == "language_name":
            key = "spacy_model" if "spacy_model" in fields else "model"
        if isinstance(value, tools.Tool):
            key, value = value.parameter, value.to_parameter()
        out[key] = value
    if isinstance(inner, StatisticsTermAxiom) and "statistics" not in out and tools.bound_index() is not None:
        out["statistics"] = tools.bound_index()
    return out


class SpecName:
    """A name of the specification: ``NAME(**keywords)`` builds our axiom with the reference's behaviours."""

    def __init__(self, name: str, build: Callable[..., Axiom], doc: str = "") -> None:
        self.name, self._build = name, build
        self.__doc__ = doc or f"{name}: see the catalogue of ir_rag_axioms."

    def __call__(self, *args: Any, **keywords: Any) -> Axiom:
        """Our axiom, configured by the specification's keywords."""
        return self._build(*args, **keywords)

    def __repr__(self) -> str:
        return f"<ir_axioms name {self.name}>"


def _configurable(ours: ConfigurableAxiom, name: str) -> SpecName:
    def build(**keywords: Any) -> Axiom:
        changes = {**reference_defaults(ours), **translate(ours, keywords)}
        return ours(**changes)

    return SpecName(name, build, f"{name}: {type(_inner(ours)).__doc__ or ''}".strip())


_NAMES: dict[str, SpecName] = {}


def _add(name: str, spec: SpecName) -> None:
    _NAMES[name] = spec


# -- every registered axiom, under its short name and its class name (GEN_: the reference's class names) ---------
for _short in names():
    _ours = REGISTRY[_short]
    if not isinstance(_ours, ConfigurableAxiom) or _short in ("CROWD", "NUGGET", "LLM_ORIG"):
        continue
    _add(_short, _configurable(_ours, _short))
    if not isinstance(_ours, Generative):
        _add(type(_ours).__name__, _configurable(_ours, type(_ours).__name__))


def _generative_class_name(inner: ConfigurableAxiom) -> str:
    """GenerativeTfc1Axiom, GenerativeArgumentativeUnitsCountAxiom, ... (the reference's GEN_ class names)."""
    return "Generative" + type(inner).__name__


for _short, _gen in GENERATIVE_AXIOMS.items():
    _add(_generative_class_name(_gen.axiom), _NAMES[_short])

_add("aSLDoc", _NAMES["aSL"])
_add("OracleAxiom", SpecName("OracleAxiom", lambda qrels=None: utility.OracleAxiom(qrels=qrels),
                             "ORACLE: prefer the higher relevance label of the qrels."))
_add("ORACLE", _NAMES["OracleAxiom"])
_add("TrecOracleAxiom", SpecName("TrecOracleAxiom", lambda qrels=None: utility.OracleAxiom(qrels=qrels),
                                 "ORACLE from a trectools TrecQrel (or a qrels frame or file)."))
_add("DIST", SpecName("DIST", lambda: utility.DistanceAxiom(), "DIST: P[i, j] = score_i - score_j."))
_add("DistanceAxiom", _NAMES["DIST"])


# -- the oracles of the RAG axioms -------------------------------------------------------------------------------
def _path(value: str | os.PathLike | None) -> str | None:
    return None if value is None else os.fspath(value)


def _crowd(utility_type: str = "overall", responses_path: Any = None, ratings_path: Any = None,
           margin_fraction: float = 0.1, **keywords: Any) -> Axiom:
    return oracles.CrowdOracle(utility=utility_type, responses_path=_path(responses_path),
                               ratings_path=_path(ratings_path), margin_fraction=margin_fraction,
                               duplicates=keywords.pop("duplicates", "last"), **keywords)


def _nugget(assignments_path: Any = None, score_type: oracles.NuggetScore = "vital", strict: bool = False,
            margin_fraction: float = 0.0, **keywords: Any) -> Axiom:
    return oracles.NuggetOracle(data_dir=_path(assignments_path), score_type=score_type, strict=strict,
                                margin_fraction=margin_fraction, **keywords)


def _llm(ratings_path: Any = None, margin_fraction: float = 0.0, **keywords: Any) -> Axiom:
    return oracles.LlmRatingOracle(data_dir=_path(ratings_path), margin_fraction=margin_fraction, **keywords)


_add("TrecRagCrowdAxiom", SpecName("TrecRagCrowdAxiom", _crowd, "Crowd oracle: CrowdOracle(duplicates='last')."))
_add("TrecRagNuggetAxiom", SpecName("TrecRagNuggetAxiom", _nugget, "Nugget oracle: NuggetOracle(data_dir=...)."))
_add("TrecRagLlmOrigAxiom", SpecName("TrecRagLlmOrigAxiom", _llm, "LLM ratings: LlmRatingOracle(data_dir=...)."))


# -- arithmetic and wrappers ------------------------------------------------------------------------------------
def _axioms(axioms: Iterable[Axiom]) -> tuple[Axiom, ...]:
    return tuple(axioms)


def _vote(axioms: Iterable[Axiom] = (), minimum_votes: float = 0.5) -> Axiom:
    return combinators.MajorityVote(_axioms(axioms), minimum_votes=minimum_votes)


def _cached(axiom: Axiom, path: Any = None, cache_dir: Any = None) -> Axiom:
    return Cached(axiom, path=os.fspath(path if path is not None else cache_dir))


def _estimator(axioms: Iterable[Axiom] = (), estimator: Any = None, **keywords: Any) -> Axiom:
    from ir_rag_axioms.axioms.learned import LearnedAxiom

    return LearnedAxiom(axioms=_axioms(axioms), estimator=estimator, **keywords)


_ARITHMETIC: dict[str, tuple[Callable[..., Axiom], str]] = {
    "SumAxiom": (lambda axioms: combinators.Sum(_axioms(axioms)), "Sum of the preferences (+)."),
    "ProductAxiom": (lambda axioms: combinators.Product(_axioms(axioms)), "Product of the preferences (*)."),
    "ConjunctionAxiom": (lambda axioms: combinators.Conjunction(_axioms(axioms)), "Agreement of all (&)."),
    "CascadeAxiom": (lambda axioms: combinators.Cascade(_axioms(axioms)), "First non-zero preference (|)."),
    "VoteAxiom": (_vote, "Majority vote (%): at least minimum_votes of all votes."),
    "MajorityVoteAxiom": (_vote, "Majority vote: at least minimum_votes of all votes."),
    "NegatedAxiom": (lambda axiom: combinators.Negated(axiom), "Flipped preferences (unary -)."),
    "NormalizedAxiom": (lambda axiom: combinators.Normalized(axiom), "Signs of the preferences (unary +)."),
    "MultiplicativeInverseAxiom": (lambda axiom: combinators.MultiplicativeInverse(axiom), "1 / preference (/)."),
    "UniformAxiom": (lambda scalar: combinators.Uniform(scalar), "The constant preference scalar."),
    "CachedAxiom": (_cached, "axiom.cached(path): matrices kept in the persistent store at path."),
    "ParallelAxiom": (lambda axiom, n_jobs=None: Parallel(axiom, n_jobs=n_jobs), "axiom.parallel(n_jobs)."),
    "ScikitLearnEstimatorAxiom": (_estimator, "LearnedAxiom(axioms, estimator): a classifier over the axioms' "
                                  "preferences; fit with .fit(items, target)."),
}
for _name, (_build, _doc) in _ARITHMETIC.items():
    _add(_name, SpecName(_name, _build, _doc))

globals().update(_NAMES)
__all__ = sorted([*_NAMES, "Axiom", "SpecName", "reference_defaults", "translate"])
del _short, _ours, _gen, _name, _build, _doc
