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

from ir_rag_axioms.axioms import oracles, utility
from ir_rag_axioms.axioms.base import Axiom as _OurAxiom
from ir_rag_axioms.axioms.base import ConfigurableAxiom
from ir_rag_axioms.axioms.generative import GENERATIVE_AXIOMS, Generative
from ir_rag_axioms.axioms.registry import REGISTRY, names
from ir_rag_axioms.axioms.retrieval.base import StatisticsTermAxiom
from ir_rag_axioms.axioms.wrappers import Cached, Parallel
from ir_rag_axioms.compat import tools
from ir_rag_axioms.compat.axiom import base
from ir_rag_axioms.compat.axiom.base import (
    Axiom,
    EstimatorAxiom,  # noqa: F401  (exported: __all__)
    PreconditionMixin,  # noqa: F401  (exported: __all__)
    RelevanceOracleAxiom,
    ScikitLearnEstimator,  # noqa: F401  (exported: __all__)
)
from ir_rag_axioms.compat.axiom.proximity import ReferenceProx4Axiom

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
    if isinstance(inner, StatisticsTermAxiom) and "statistics" not in out:
        statistics = bound_statistics()
        if statistics is not None:
            out["statistics"] = statistics
        elif inner.label in NEEDS_INDEX and not isinstance(axiom, Generative):
            raise ValueError(
                f"{inner.label} needs collection statistics (idf) and none are bound: bind them as the reference does, "
                "injector.binder.bind(interface=IndexStatistics, to=...) with compat.dependency_injection.injector and "
                "compat.tools.IndexStatistics, or `with compat.tools.bind_index(pyterrier_index): ...`, or pass "
                f"statistics= (ours: {inner.label}(statistics=IndexStatistics.of(index)) or ContextStatistics())")
    return out


NEEDS_INDEX = frozenset({"TFC3", "M_TDC", "LEN_M_TDC", "TDC"})
"""The retrieval axioms that compat refuses to build without bound collection statistics (as the reference does):
their idf over the candidates of one call would decide on a two-document collection."""


def bound_statistics() -> Any:
    """The statistics in effect: ``bind_index``'s, else the ``IndexStatistics`` bound in the injector, else None."""
    index = tools.bound_index()
    if index is not None:
        return index
    try:
        from ir_rag_axioms.compat.dependency_injection import bound_statistics as injected
    except ImportError:  # the injector library is not installed: nothing can be bound in it
        return None
    found = injected()
    return None if found is None else tools.InjectedStatistics.of(found)


class SpecName:
    """A name of the specification: ``NAME(**keywords)`` builds our axiom with the reference's behaviours."""

    def __init__(self, name: str, build: Callable[..., _OurAxiom], doc: str = "") -> None:
        self.name, self._build = name, build
        self.__doc__ = doc or f"{name}: see the catalogue of ir_rag_axioms."

    def __call__(self, *args: Any, **keywords: Any) -> _OurAxiom:
        """Our axiom, configured by the specification's keywords (keywords only: no positional arguments)."""
        if args and not _takes_positional(self._build):
            raise TypeError(f"{self.name} takes keyword arguments only, got {len(args)} positional ({args[0]!r}"
                            f"{', ...' if len(args) > 1 else ''}); name each setting, e.g. "
                            f"{self.name}(margin_fraction={args[0]!r})")
        return self._build(*args, **keywords)

    def __repr__(self) -> str:
        return f"<ir_axioms name {self.name}>"


def _takes_positional(build: Callable[..., Any]) -> bool:
    """Whether ``build`` accepts a positional argument."""
    import inspect

    try:
        parameters = inspect.signature(build).parameters.values()
    except (TypeError, ValueError):
        return True
    return any(p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD, p.VAR_POSITIONAL) for p in parameters)


def _configurable(ours: ConfigurableAxiom, name: str) -> SpecName:
    def build(**keywords: Any) -> _OurAxiom:
        changes = {**reference_defaults(ours), **translate(ours, keywords)}
        return ours(**changes)

    return SpecName(name, build, f"{name}: {type(_inner(ours)).__doc__ or ''}".strip())


_NAMES: dict[str, SpecName] = {}


def _add(name: str, spec: SpecName) -> None:
    _NAMES[name] = spec


# -- every registered axiom, under its short name and its class name (GEN_: the reference's class names) ---------
def _ours_alone(axiom: object) -> bool:
    """Defined by this package (not one a user registered before importing this module): the names do not vary."""
    inner = axiom.axiom if isinstance(axiom, Generative) else axiom
    return all(type(a).__module__.startswith("ir_rag_axioms.") for a in (axiom, inner))


for _short in names():
    _ours = REGISTRY[_short]
    if not isinstance(_ours, ConfigurableAxiom) or _short in ("CROWD", "NUGGET", "LLM_ORIG") or not _ours_alone(_ours):
        continue
    _add(_short, _configurable(_ours, _short))
    if not isinstance(_ours, Generative):
        _add(type(_ours).__name__, _configurable(_ours, type(_ours).__name__))


def _generative_class_name(inner: ConfigurableAxiom) -> str:
    """GenerativeTfc1Axiom, GenerativeArgumentativeUnitsCountAxiom, ... (the reference's GEN_ class names)."""
    return "Generative" + type(inner).__name__


for _short, _gen in GENERATIVE_AXIOMS.items():
    _add(_generative_class_name(_gen.axiom), _NAMES[_short])

_add("PROX4", _configurable(ReferenceProx4Axiom(), "PROX4"))  # the reference's groupings (ours: minimal windows)
_add("Prox4Axiom", _NAMES["PROX4"])
_add("aSLDoc", _NAMES["aSL"])


def _oracle(qrels: Any = None) -> _OurAxiom:
    return RelevanceOracleAxiom() if qrels is None else utility.OracleAxiom(qrels=qrels)


_add("OracleAxiom", SpecName("OracleAxiom", _oracle, "ORACLE: the higher relevance label (Document.relevance, or "
                                                     "the qrels= frame, TrecQrel or file)."))
_add("ORACLE", _NAMES["OracleAxiom"])
_add("TrecOracleAxiom", SpecName("TrecOracleAxiom", lambda qrels: utility.OracleAxiom(qrels=qrels),
                                 "ORACLE from a trectools TrecQrel (or a qrels frame or file)."))
_add("DIST", SpecName("DIST", lambda: utility.DistanceAxiom(), "DIST: P[i, j] = score_i - score_j."))
_add("DistanceAxiom", _NAMES["DIST"])


# -- the oracles of the RAG axioms -------------------------------------------------------------------------------
def _path(value: str | os.PathLike | None) -> str | None:
    return None if value is None else os.fspath(value)


def _crowd(utility_type: str = "overall", responses_path: Any = None, ratings_path: Any = None,
           margin_fraction: float = 0.1, **keywords: Any) -> _OurAxiom:
    return oracles.CrowdOracle(utility=utility_type, responses_path=_path(responses_path),
                               ratings_path=_path(ratings_path), margin_fraction=margin_fraction,
                               duplicates=keywords.pop("duplicates", "last"), **keywords)


def _nugget(assignments_path: Any = None, score_type: oracles.NuggetScore = "vital", strict: bool = False,
            margin_fraction: float = 0.0, **keywords: Any) -> _OurAxiom:
    return oracles.NuggetOracle(data_dir=_path(assignments_path), score_type=score_type, strict=strict,
                                margin_fraction=margin_fraction, **keywords)


def _llm(ratings_path: Any = None, margin_fraction: float = 0.0, **keywords: Any) -> _OurAxiom:
    return oracles.LlmRatingOracle(data_dir=_path(ratings_path), margin_fraction=margin_fraction, **keywords)


_add("TrecRagCrowdAxiom", SpecName("TrecRagCrowdAxiom", _crowd, "Crowd oracle: CrowdOracle(duplicates='last')."))
_add("TrecRagNuggetAxiom", SpecName("TrecRagNuggetAxiom", _nugget, "Nugget oracle: NuggetOracle(data_dir=...)."))
_add("TrecRagLlmOrigAxiom", SpecName("TrecRagLlmOrigAxiom", _llm, "LLM ratings: LlmRatingOracle(data_dir=...)."))


# -- arithmetic and wrappers: the reference's combinators (full matrices, diagonal included) -----------------
def _axioms(axioms: Iterable[_OurAxiom]) -> list[_OurAxiom]:
    return list(axioms)


def _cached(axiom: Axiom, path: Any = None, cache_path: Any = None, cache_dir: Any = None) -> _OurAxiom:
    chosen = next((p for p in (path, cache_path, cache_dir) if p is not None), None)
    if chosen is None:
        raise TypeError("CachedAxiom(axiom, cache_path=folder) needs the cache folder")
    return axiom.cached(chosen) if isinstance(axiom, Axiom) else Cached(axiom, path=os.fspath(chosen))


_ARITHMETIC: dict[str, tuple[Callable[..., _OurAxiom], str]] = {
    "SumAxiom": (lambda axioms: base.SumAxiom(axioms=_axioms(axioms)), "Sum of the preferences (+)."),
    "ProductAxiom": (lambda axioms: base.ProductAxiom(axioms=_axioms(axioms)), "Product of the preferences (*)."),
    "ConjunctionAxiom": (lambda axioms: base.ConjunctionAxiom(axioms=_axioms(axioms)), "Agreement of all (&)."),
    "CascadeAxiom": (lambda axioms: base.CascadeAxiom(axioms=_axioms(axioms)), "First non-zero preference (|)."),
    "VoteAxiom": (lambda axioms, minimum_votes=0.5: base.VoteAxiom(axioms=_axioms(axioms), minimum_votes=minimum_votes),
                  "Majority vote (%): more votes for than against, at least ceil(minimum_votes * k)."),
    "MajorityVoteAxiom": (lambda axioms, minimum_votes=0.5: base.VoteAxiom(axioms=_axioms(axioms),
                                                                          minimum_votes=minimum_votes),
                          "Majority vote: more votes for than against, at least ceil(minimum_votes * k)."),
    "NegatedAxiom": (lambda axiom: base.NegatedAxiom(axiom=axiom), "Flipped preferences (unary -)."),
    "NormalizedAxiom": (lambda axiom: base.NormalizedAxiom(axiom=axiom), "Signs of the preferences (unary +)."),
    "MultiplicativeInverseAxiom": (lambda axiom: base.MultiplicativeInverseAxiom(axiom=axiom),
                                   "1 / preference where it is not 0, else 0 (/)."),
    "UniformAxiom": (lambda scalar: base.UniformAxiom(scalar=scalar), "The constant preference scalar, diagonal "
                                                                      "included."),
    "CachedAxiom": (_cached, "axiom.cached(cache_path): each pair's preference kept in a SQLite file there."),
    "ParallelAxiom": (lambda axiom, n_jobs=None: Parallel(axiom, n_jobs=n_jobs), "axiom.parallel(n_jobs)."),
    "ScikitLearnEstimatorAxiom": (lambda axioms, estimator: base.ScikitLearnEstimatorAxiom(axioms=_axioms(axioms),
                                                                                           estimator=estimator),
                                  "estimator.predict over the axioms' preferences; fit(target, inputs_outputs)."),
}
for _name, (_build, _doc) in _ARITHMETIC.items():
    _add(_name, SpecName(_name, _build, _doc))

# -- every name, explicit (so a type checker sees each; tests/test_compat.py checks it lists exactly _NAMES) ---
CORR2 = _NAMES["CORR2"]
CitationFormatsCorrectnessAxiom = _NAMES["CitationFormatsCorrectnessAxiom"]
CORR3 = _NAMES["CORR3"]
CitationValidityCorrectnessAxiom = _NAMES["CitationValidityCorrectnessAxiom"]
CORR4 = _NAMES["CORR4"]
CitationSupportCorrectnessAxiom = _NAMES["CitationSupportCorrectnessAxiom"]
CLAR1 = _NAMES["CLAR1"]
LanguageToolGrammarErrorProportionClarityAxiom = _NAMES["LanguageToolGrammarErrorProportionClarityAxiom"]
CLAR2 = _NAMES["CLAR2"]
FleschReadingEaseClarityAxiom = _NAMES["FleschReadingEaseClarityAxiom"]
COH1 = _NAMES["COH1"]
WordLengthDeviationCoherenceAxiom = _NAMES["WordLengthDeviationCoherenceAxiom"]
COH2 = _NAMES["COH2"]
SubjectVerbClosenessCoherenceAxiom = _NAMES["SubjectVerbClosenessCoherenceAxiom"]
COV1 = _NAMES["COV1"]
AspectCountCoverageAxiom = _NAMES["AspectCountCoverageAxiom"]
COV2 = _NAMES["COV2"]
AspectRedundancyCoverageAxiom = _NAMES["AspectRedundancyCoverageAxiom"]
COV3 = _NAMES["COV3"]
AspectSimilaritySentenceCountCoverageAxiom = _NAMES["AspectSimilaritySentenceCountCoverageAxiom"]
CONS1 = _NAMES["CONS1"]
AspectSimilaritySentenceCountConsistencyAxiom = _NAMES["AspectSimilaritySentenceCountConsistencyAxiom"]
CONS2 = _NAMES["CONS2"]
RougeConsistencyAxiom = _NAMES["RougeConsistencyAxiom"]
CONS3 = _NAMES["CONS3"]
EntityContradictionConsistencyAxiom = _NAMES["EntityContradictionConsistencyAxiom"]
CORR1 = _NAMES["CORR1"]
CitationSentenceCorrectnessAxiom = _NAMES["CitationSentenceCorrectnessAxiom"]
CLAR3 = _NAMES["CLAR3"]
DiscourseStructureClarityAxiom = _NAMES["DiscourseStructureClarityAxiom"]
CLAR4 = _NAMES["CLAR4"]
SentenceOpeningVarietyClarityAxiom = _NAMES["SentenceOpeningVarietyClarityAxiom"]
CLAR5 = _NAMES["CLAR5"]
CoreferenceClarityAxiom = _NAMES["CoreferenceClarityAxiom"]
AGREE1 = _NAMES["AGREE1"]
ContentConsensusCountAxiom = _NAMES["ContentConsensusCountAxiom"]
AGREE2 = _NAMES["AGREE2"]
SemanticAgreementAxiom = _NAMES["SemanticAgreementAxiom"]
AGREE3 = _NAMES["AGREE3"]
ConsensusCoverageAxiom = _NAMES["ConsensusCoverageAxiom"]
AGREE4 = _NAMES["AGREE4"]
ConsensusAspectAxiom = _NAMES["ConsensusAspectAxiom"]
COV4 = _NAMES["COV4"]
QueryFacetCoverageAxiom = _NAMES["QueryFacetCoverageAxiom"]
ORIG = _NAMES["ORIG"]
OriginalAxiom = _NAMES["OriginalAxiom"]
NOP = _NAMES["NOP"]
NopAxiom = _NAMES["NopAxiom"]
RANDOM = _NAMES["RANDOM"]
RandomAxiom = _NAMES["RandomAxiom"]
GT = _NAMES["GT"]
GreaterThanAxiom = _NAMES["GreaterThanAxiom"]
LT = _NAMES["LT"]
LessThanAxiom = _NAMES["LessThanAxiom"]
TFC1 = _NAMES["TFC1"]
Tfc1Axiom = _NAMES["Tfc1Axiom"]
TFC3 = _NAMES["TFC3"]
Tfc3Axiom = _NAMES["Tfc3Axiom"]
M_TDC = _NAMES["M_TDC"]
ModifiedTdcAxiom = _NAMES["ModifiedTdcAxiom"]
LEN_M_TDC = _NAMES["LEN_M_TDC"]
LenModifiedTdcAxiom = _NAMES["LenModifiedTdcAxiom"]
LNC1 = _NAMES["LNC1"]
Lnc1Axiom = _NAMES["Lnc1Axiom"]
TF_LNC = _NAMES["TF_LNC"]
TfLncAxiom = _NAMES["TfLncAxiom"]
LB1 = _NAMES["LB1"]
Lb1Axiom = _NAMES["Lb1Axiom"]
REG = _NAMES["REG"]
RegAxiom = _NAMES["RegAxiom"]
ANTI_REG = _NAMES["ANTI_REG"]
AntiRegAxiom = _NAMES["AntiRegAxiom"]
ASPECT_REG = _NAMES["ASPECT_REG"]
AspectRegAxiom = _NAMES["AspectRegAxiom"]
AND = _NAMES["AND"]
AndAxiom = _NAMES["AndAxiom"]
LEN_AND = _NAMES["LEN_AND"]
LenAndAxiom = _NAMES["LenAndAxiom"]
M_AND = _NAMES["M_AND"]
ModifiedAndAxiom = _NAMES["ModifiedAndAxiom"]
LEN_M_AND = _NAMES["LEN_M_AND"]
LenModifiedAndAxiom = _NAMES["LenModifiedAndAxiom"]
DIV = _NAMES["DIV"]
DivAxiom = _NAMES["DivAxiom"]
LEN_DIV = _NAMES["LEN_DIV"]
LenDivAxiom = _NAMES["LenDivAxiom"]
STMC1 = _NAMES["STMC1"]
Stmc1Axiom = _NAMES["Stmc1Axiom"]
STMC2 = _NAMES["STMC2"]
Stmc2Axiom = _NAMES["Stmc2Axiom"]
aSL = _NAMES["aSL"]
AverageSentenceLengthAxiom = _NAMES["AverageSentenceLengthAxiom"]
ArgUC = _NAMES["ArgUC"]
ArgumentativeUnitsCountAxiom = _NAMES["ArgumentativeUnitsCountAxiom"]
QTArg = _NAMES["QTArg"]
QueryTermOccurrenceInArgumentativeUnitsAxiom = _NAMES["QueryTermOccurrenceInArgumentativeUnitsAxiom"]
QTPArg = _NAMES["QTPArg"]
QueryTermPositionInArgumentativeUnitsAxiom = _NAMES["QueryTermPositionInArgumentativeUnitsAxiom"]
PROX1 = _NAMES["PROX1"]
Prox1Axiom = _NAMES["Prox1Axiom"]
PROX2 = _NAMES["PROX2"]
Prox2Axiom = _NAMES["Prox2Axiom"]
PROX3 = _NAMES["PROX3"]
Prox3Axiom = _NAMES["Prox3Axiom"]
PROX4 = _NAMES["PROX4"]
Prox4Axiom = _NAMES["Prox4Axiom"]
PROX5 = _NAMES["PROX5"]
Prox5Axiom = _NAMES["Prox5Axiom"]
LOG_TF = _NAMES["LOG_TF"]
LogTfAxiom = _NAMES["LogTfAxiom"]
LNC2 = _NAMES["LNC2"]
Lnc2Axiom = _NAMES["Lnc2Axiom"]
LB2 = _NAMES["LB2"]
Lb2Axiom = _NAMES["Lb2Axiom"]
TDC = _NAMES["TDC"]
TdcAxiom = _NAMES["TdcAxiom"]
STMC3 = _NAMES["STMC3"]
Stmc3Axiom = _NAMES["Stmc3Axiom"]
BEST_SIM = _NAMES["BEST_SIM"]
BestSimAxiom = _NAMES["BestSimAxiom"]
SIM_TERMS = _NAMES["SIM_TERMS"]
SimTermsAxiom = _NAMES["SimTermsAxiom"]
QPHRA = _NAMES["QPHRA"]
QphraAxiom = _NAMES["QphraAxiom"]
CONSENSUS = _NAMES["CONSENSUS"]
ConsensusAxiom = _NAMES["ConsensusAxiom"]
QLEXRANK = _NAMES["QLEXRANK"]
QueryLexRankAxiom = _NAMES["QueryLexRankAxiom"]
GEN_TFC1 = _NAMES["GEN_TFC1"]
GEN_TFC3 = _NAMES["GEN_TFC3"]
GEN_M_TDC = _NAMES["GEN_M_TDC"]
GEN_LEN_M_TDC = _NAMES["GEN_LEN_M_TDC"]
GEN_LNC1 = _NAMES["GEN_LNC1"]
GEN_TF_LNC = _NAMES["GEN_TF_LNC"]
GEN_LB1 = _NAMES["GEN_LB1"]
GEN_REG = _NAMES["GEN_REG"]
GEN_ANTI_REG = _NAMES["GEN_ANTI_REG"]
GEN_AND = _NAMES["GEN_AND"]
GEN_LEN_AND = _NAMES["GEN_LEN_AND"]
GEN_M_AND = _NAMES["GEN_M_AND"]
GEN_LEN_M_AND = _NAMES["GEN_LEN_M_AND"]
GEN_DIV = _NAMES["GEN_DIV"]
GEN_LEN_DIV = _NAMES["GEN_LEN_DIV"]
GEN_STMC1 = _NAMES["GEN_STMC1"]
GEN_STMC2 = _NAMES["GEN_STMC2"]
GEN_aSL = _NAMES["GEN_aSL"]
GEN_PROX1 = _NAMES["GEN_PROX1"]
GEN_PROX2 = _NAMES["GEN_PROX2"]
GEN_PROX3 = _NAMES["GEN_PROX3"]
GEN_PROX4 = _NAMES["GEN_PROX4"]
GEN_PROX5 = _NAMES["GEN_PROX5"]
GEN_ArgUC = _NAMES["GEN_ArgUC"]
GEN_QTArg = _NAMES["GEN_QTArg"]
GEN_QTPArg = _NAMES["GEN_QTPArg"]
GEN_LOG_TF = _NAMES["GEN_LOG_TF"]
GEN_LNC2 = _NAMES["GEN_LNC2"]
GEN_LB2 = _NAMES["GEN_LB2"]
GEN_TDC = _NAMES["GEN_TDC"]
GEN_STMC3 = _NAMES["GEN_STMC3"]
GEN_BEST_SIM = _NAMES["GEN_BEST_SIM"]
GEN_SIM_TERMS = _NAMES["GEN_SIM_TERMS"]
GEN_QPHRA = _NAMES["GEN_QPHRA"]
GEN_CONSENSUS = _NAMES["GEN_CONSENSUS"]
GEN_QLEXRANK = _NAMES["GEN_QLEXRANK"]
CONS4 = _NAMES["CONS4"]
EntityGroundingConsistencyAxiom = _NAMES["EntityGroundingConsistencyAxiom"]
CONS5 = _NAMES["CONS5"]
NumberGroundingConsistencyAxiom = _NAMES["NumberGroundingConsistencyAxiom"]
COH3 = _NAMES["COH3"]
TenseConsistencyCoherenceAxiom = _NAMES["TenseConsistencyCoherenceAxiom"]
COH4 = _NAMES["COH4"]
SentenceLengthConsistencyCoherenceAxiom = _NAMES["SentenceLengthConsistencyCoherenceAxiom"]
COH5 = _NAMES["COH5"]
RegisterConsistencyCoherenceAxiom = _NAMES["RegisterConsistencyCoherenceAxiom"]
ANSWER_RELEVANCY = _NAMES["ANSWER_RELEVANCY"]
AnswerRelevancyAxiom = _NAMES["AnswerRelevancyAxiom"]
FAITHFULNESS = _NAMES["FAITHFULNESS"]
FaithfulnessAxiom = _NAMES["FaithfulnessAxiom"]
CONTEXT_RECALL = _NAMES["CONTEXT_RECALL"]
ContextRecallAxiom = _NAMES["ContextRecallAxiom"]
CONS6 = _NAMES["CONS6"]
ContradictionAxiom = _NAMES["ContradictionAxiom"]
LLM_PAIRWISE = _NAMES["LLM_PAIRWISE"]
PairwiseJudgeAxiom = _NAMES["PairwiseJudgeAxiom"]
GenerativeTfc1Axiom = _NAMES["GenerativeTfc1Axiom"]
GenerativeTfc3Axiom = _NAMES["GenerativeTfc3Axiom"]
GenerativeModifiedTdcAxiom = _NAMES["GenerativeModifiedTdcAxiom"]
GenerativeLenModifiedTdcAxiom = _NAMES["GenerativeLenModifiedTdcAxiom"]
GenerativeLnc1Axiom = _NAMES["GenerativeLnc1Axiom"]
GenerativeTfLncAxiom = _NAMES["GenerativeTfLncAxiom"]
GenerativeLb1Axiom = _NAMES["GenerativeLb1Axiom"]
GenerativeRegAxiom = _NAMES["GenerativeRegAxiom"]
GenerativeAntiRegAxiom = _NAMES["GenerativeAntiRegAxiom"]
GenerativeAndAxiom = _NAMES["GenerativeAndAxiom"]
GenerativeLenAndAxiom = _NAMES["GenerativeLenAndAxiom"]
GenerativeModifiedAndAxiom = _NAMES["GenerativeModifiedAndAxiom"]
GenerativeLenModifiedAndAxiom = _NAMES["GenerativeLenModifiedAndAxiom"]
GenerativeDivAxiom = _NAMES["GenerativeDivAxiom"]
GenerativeLenDivAxiom = _NAMES["GenerativeLenDivAxiom"]
GenerativeStmc1Axiom = _NAMES["GenerativeStmc1Axiom"]
GenerativeStmc2Axiom = _NAMES["GenerativeStmc2Axiom"]
GenerativeAverageSentenceLengthAxiom = _NAMES["GenerativeAverageSentenceLengthAxiom"]
GenerativeProx1Axiom = _NAMES["GenerativeProx1Axiom"]
GenerativeProx2Axiom = _NAMES["GenerativeProx2Axiom"]
GenerativeProx3Axiom = _NAMES["GenerativeProx3Axiom"]
GenerativeProx4Axiom = _NAMES["GenerativeProx4Axiom"]
GenerativeProx5Axiom = _NAMES["GenerativeProx5Axiom"]
GenerativeArgumentativeUnitsCountAxiom = _NAMES["GenerativeArgumentativeUnitsCountAxiom"]
GenerativeQueryTermOccurrenceInArgumentativeUnitsAxiom = _NAMES[
    "GenerativeQueryTermOccurrenceInArgumentativeUnitsAxiom"]
GenerativeQueryTermPositionInArgumentativeUnitsAxiom = _NAMES["GenerativeQueryTermPositionInArgumentativeUnitsAxiom"]
GenerativeLogTfAxiom = _NAMES["GenerativeLogTfAxiom"]
GenerativeLnc2Axiom = _NAMES["GenerativeLnc2Axiom"]
GenerativeLb2Axiom = _NAMES["GenerativeLb2Axiom"]
GenerativeTdcAxiom = _NAMES["GenerativeTdcAxiom"]
GenerativeStmc3Axiom = _NAMES["GenerativeStmc3Axiom"]
GenerativeBestSimAxiom = _NAMES["GenerativeBestSimAxiom"]
GenerativeSimTermsAxiom = _NAMES["GenerativeSimTermsAxiom"]
GenerativeQphraAxiom = _NAMES["GenerativeQphraAxiom"]
GenerativeConsensusAxiom = _NAMES["GenerativeConsensusAxiom"]
GenerativeQueryLexRankAxiom = _NAMES["GenerativeQueryLexRankAxiom"]
aSLDoc = _NAMES["aSLDoc"]
OracleAxiom = _NAMES["OracleAxiom"]
ORACLE = _NAMES["ORACLE"]
TrecOracleAxiom = _NAMES["TrecOracleAxiom"]
DIST = _NAMES["DIST"]
DistanceAxiom = _NAMES["DistanceAxiom"]
TrecRagCrowdAxiom = _NAMES["TrecRagCrowdAxiom"]
TrecRagNuggetAxiom = _NAMES["TrecRagNuggetAxiom"]
TrecRagLlmOrigAxiom = _NAMES["TrecRagLlmOrigAxiom"]
SumAxiom = _NAMES["SumAxiom"]
ProductAxiom = _NAMES["ProductAxiom"]
ConjunctionAxiom = _NAMES["ConjunctionAxiom"]
CascadeAxiom = _NAMES["CascadeAxiom"]
VoteAxiom = _NAMES["VoteAxiom"]
MajorityVoteAxiom = _NAMES["MajorityVoteAxiom"]
NegatedAxiom = _NAMES["NegatedAxiom"]
NormalizedAxiom = _NAMES["NormalizedAxiom"]
MultiplicativeInverseAxiom = _NAMES["MultiplicativeInverseAxiom"]
UniformAxiom = _NAMES["UniformAxiom"]
CachedAxiom = _NAMES["CachedAxiom"]
ParallelAxiom = _NAMES["ParallelAxiom"]
ScikitLearnEstimatorAxiom = _NAMES["ScikitLearnEstimatorAxiom"]

__all__ = sorted([*_NAMES, "NEEDS_INDEX", "Axiom", "EstimatorAxiom", "PreconditionMixin", "RelevanceOracleAxiom",
                  "ScikitLearnEstimator", "SpecName", "bound_statistics", "reference_defaults", "translate"])
del _short, _ours, _gen, _name, _build, _doc
