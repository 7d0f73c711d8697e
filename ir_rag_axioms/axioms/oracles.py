"""Oracle axioms: preferences read from crowd judgments, TREC RAG 2024 nugget scores, or LLM ratings (matched by response id)."""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any, ClassVar, Literal

import numpy as np
import pandas as pd

from ir_rag_axioms.axioms.base import ConfigurableAxiom, compare
from ir_rag_axioms.axioms.registry import register
from ir_rag_axioms.model import GenerationRequest, GenerationResponse

UTILITIES: Mapping[str, tuple[str, ...]] = {
    "overall": ("quality_overall",),
    "logical coherence": ("coherence_logical",),
    "stylistic coherence": ("coherence_stylistic",),
    "coherence": ("coherence_logical", "coherence_stylistic"),
    "internal consistency": ("consistency_internal",),
    "consistency": ("consistency_internal",),
    "topical correctness": ("correctness_topical",),
    "correctness": ("correctness_topical",),
    "broad coverage": ("coverage_broad",),
    "deep coverage": ("coverage_deep",),
    "coverage": ("coverage_broad", "coverage_deep"),
}
"""Crowd utility dimension -> the ratings-file dimensions whose probabilities are averaged."""

_ALIASES = {dims[0]: name for name, dims in UTILITIES.items() if len(dims) == 1}


def utility_columns(utility: str) -> tuple[str, ...]:
    """The ratings dimensions of a utility name (``"overall"``, ``"broad coverage"``, ``"coverage_broad"``, ...)."""
    key = utility.strip().lower().replace("-", " ")
    key = _ALIASES.get(key.replace(" ", "_"), key)
    if key not in UTILITIES:
        raise ValueError(f"unknown crowd utility {utility!r}; choose one of {sorted(UTILITIES)}")
    return UTILITIES[key]


class CrowdJudgments:
    """Crowd pairwise judgments keyed by (topic, response id A, response id B), plus (topic, kind-style name) -> id aliases."""

    def __init__(self, ratings: pd.DataFrame, responses: pd.DataFrame | None = None):
        missing = [c for c in ("query_id", "response_a", "response_b") if c not in ratings.columns]
        if missing:
            raise ValueError(f"the ratings frame lacks the column(s) {missing}")
        self.ratings = ratings.reset_index(drop=True)
        self.aliases: dict[tuple[str, str], str] = {}
        if responses is not None:
            names = responses["name"] if "name" in responses else responses["kind"] + "-" + responses["style"]
            for topic, name, rid in zip(responses["topic"].astype(str), names, responses["response"].astype(str)):
                self.aliases[(topic, str(name))] = rid
        self._tables: dict[tuple[tuple[str, ...], str], dict[tuple[str, str, str], tuple[float, float]]] = {}

    @property
    def topics(self) -> set[str]:
        """Topics with at least one judgment."""
        return set(self.ratings["query_id"].astype(str))

    def table(self, utility: str, duplicates: str = "mean") -> dict[tuple[str, str, str], tuple[float, float]]:
        """(topic, a, b) -> (P(a better), P(b better)), averaged over the utility's dimensions and (``"mean"``) over repeated judgments or (``"last"``) from the later row."""
        columns = utility_columns(utility)
        key = (columns, duplicates)
        if key not in self._tables:
            r = self.ratings
            for c in columns:
                if f"{c}_p_a" not in r or f"{c}_p_b" not in r:
                    raise ValueError(f"the ratings frame lacks {c}_p_a / {c}_p_b for utility {utility!r}")
            p_a = np.mean([r[f"{c}_p_a"].to_numpy(float) for c in columns], axis=0)
            p_b = np.mean([r[f"{c}_p_b"].to_numpy(float) for c in columns], axis=0)
            sums: dict[tuple[str, str, str], list[float]] = {}
            for topic, a, b, pa, pb in zip(r["query_id"].astype(str), r["response_a"].astype(str),
                                           r["response_b"].astype(str), p_a, p_b):
                if a > b:
                    a, b, pa, pb = b, a, pb, pa
                entry = sums.setdefault((topic, a, b), [0.0, 0.0, 0])
                if duplicates == "last":
                    entry[:] = [pa, pb, 1]
                else:
                    entry[0] += pa
                    entry[1] += pb
                    entry[2] += 1
            table = {}
            for (topic, a, b), (sa, sb, n) in sums.items():
                table[(topic, a, b)] = (sa / n, sb / n)
                table[(topic, b, a)] = (sb / n, sa / n)
            self._tables[key] = table
        return self._tables[key]

    def canonical(self, topic: str, response_id: str) -> str:
        """The response id behind a kind-style name of this topic (else the id itself)."""
        return self.aliases.get((topic, response_id), response_id)


@lru_cache(maxsize=8)
def _crowd_from_files(responses: str | None, ratings: str | None, data_dir: str | None) -> CrowdJudgments:
    from ir_rag_axioms.datasets.files import DataFileError
    from ir_rag_axioms.datasets.loaders import load_crowd_ratings, load_crowd_responses

    ratings_frame = load_crowd_ratings(ratings or data_dir)
    try:
        responses_frame = load_crowd_responses(responses or data_dir)
    except DataFileError:
        if responses is not None:
            raise
        responses_frame = None  # ids only: no kind-style aliases
    return CrowdJudgments(ratings_frame, responses_frame)


def _path(value: str | os.PathLike | None) -> str | None:
    return None if value is None else os.fspath(value)


class CrowdOracle(ConfigurableAxiom):
    """Prefer the response the crowd judged better: compare (mean P(A better), mean P(B better)) with a relative margin; abstain on unjudged pairs."""

    name: ClassVar[str] = "CROWD"
    utility: str = "overall"
    """Utility dimension: overall, logical/stylistic coherence, coherence, (internal) consistency, (topical) correctness, broad/deep coverage, coverage."""
    margin_fraction: float = 0.1
    """Tie when |p_a - p_b| <= margin_fraction * max(p_a, p_b)."""
    duplicates: Literal["mean", "last"] = "mean"
    """Pairs judged twice: average both judgments (``"mean"``) or keep the later row, as the reference does (``"last"``)."""
    data_dir: str | None = None
    """Folder with ``responses.jsonl.gz`` and ``ratings.jsonl.gz`` (``None``: $IR_RAG_AXIOMS_DATA or download)."""
    ratings_path: str | None = None
    """Explicit ratings file (overrides ``data_dir``)."""
    responses_path: str | None = None
    """Explicit responses file (for kind-style names as response ids)."""
    judgments: CrowdJudgments | None = field(default=None, compare=False, repr=False)
    """In-memory judgments (see ``from_frames``); overrides the paths."""

    def __post_init__(self) -> None:
        super().__post_init__()
        utility_columns(self.utility)
        if self.duplicates not in ("mean", "last"):
            raise ValueError(f"CROWD: duplicates must be 'mean' or 'last', got {self.duplicates!r}")
        for name in ("data_dir", "ratings_path", "responses_path"):
            object.__setattr__(self, name, _path(getattr(self, name)))

    @classmethod
    def from_frames(cls, ratings: pd.DataFrame, responses: pd.DataFrame | None = None, **params: Any) -> CrowdOracle:
        """An oracle over in-memory ratings (and responses for kind-style aliases), e.g. from ``load_crowd_ratings``."""
        return cls(judgments=CrowdJudgments(ratings, responses), **params)

    @classmethod
    def from_irds(cls, dataset: str = "ir-rag-axioms/crowdrag-25", **params: Any) -> CrowdOracle:
        """An oracle over a registered ir_datasets dataset's docpairs (probabilities) and docs (kind-style names)."""
        import ir_datasets

        import ir_rag_axioms.datasets  # noqa: F401  (registers our datasets)

        loaded = ir_datasets.load(dataset)
        ratings = pd.DataFrame([p._asdict() for p in loaded.docpairs_iter()]).rename(
            columns={"doc_id_a": "response_a", "doc_id_b": "response_b"})
        responses = pd.DataFrame(
            [{"response": d.doc_id, "topic": d.query_id, "name": d.name} for d in loaded.docs_iter()])
        return cls.from_frames(ratings, responses, **params)

    def load(self) -> CrowdJudgments:
        """The judgments (loaded once per set of paths)."""
        if self.judgments is not None:
            return self.judgments
        return _crowd_from_files(self.responses_path, self.ratings_path, self.data_dir)

    @property
    def topics(self) -> set[str]:
        """Topics with judgments."""
        return self.load().topics

    def matrix(self, request: GenerationRequest, responses: list[GenerationResponse]) -> np.ndarray:
        """P[i, j] = compare((p_i, p_j), margin) from the judgment of (i, j); 0 if the pair is unjudged."""
        judgments = self.load()
        table = judgments.table(self.utility, self.duplicates)
        ids = [judgments.canonical(request.id, r.id) for r in responses]
        n = len(ids)
        out = np.zeros((n, n))
        for i in range(n):
            for j in range(i + 1, n):
                probabilities = table.get((request.id, ids[i], ids[j]))
                if probabilities is not None:
                    value = compare(np.asarray(probabilities), True, self.margin_fraction)[0, 1]
                    out[i, j], out[j, i] = value, -value
        return out


class _Scores:
    """(topic, response id) -> score, with NaN for unknown responses."""

    def __init__(self, scores: Mapping[tuple[str, str], float]):
        self.scores = dict(scores)
        self.topics = {topic for topic, _ in self.scores}

    def values(self, request: GenerationRequest, responses: list[GenerationResponse]) -> np.ndarray:
        return np.array([self.scores.get((request.id, r.id), np.nan) for r in responses], dtype=np.float64)


@lru_cache(maxsize=16)
def _nugget_scores(path: str | None, score_type: str, strict: bool) -> _Scores:
    from ir_rag_axioms.datasets.loaders import load_nugget_assignments

    return NuggetOracle._scores_from_frame(load_nugget_assignments(path), score_type, strict)


class NuggetOracle(ConfigurableAxiom):
    """Prefer the response that covers more information nuggets (TREC RAG 2024 AutoNuggetizer score); abstain on unscored responses."""

    name: ClassVar[str] = "NUGGET"
    score_type: Literal["all", "vital", "weighted"] = "vital"
    """all: mean credit over all nuggets; vital: over vital nuggets; weighted: vital weight 1, okay 0.5."""
    strict: bool = False
    """Strict: partial support earns 0 instead of 0.5."""
    margin_fraction: float = 0.0
    """Tie when |s_i - s_j| <= margin_fraction * max(s_i, s_j)."""
    data_dir: str | None = None
    """The assignments file or its folder (``None``: $IR_RAG_AXIOMS_DATA or download). Response ids: run_id or ``<qid>/<run_id>``."""
    scores: _Scores | None = field(default=None, compare=False, repr=False)
    """In-memory scores (see ``from_frame``); overrides ``data_dir``."""

    def __post_init__(self) -> None:
        super().__post_init__()
        if self.score_type not in ("all", "vital", "weighted"):
            raise ValueError(f"NUGGET: score_type must be 'all', 'vital' or 'weighted', got {self.score_type!r}")
        object.__setattr__(self, "data_dir", _path(self.data_dir))

    @staticmethod
    def _scores_from_frame(frame: pd.DataFrame, score_type: str, strict: bool) -> _Scores:
        from ir_rag_axioms.datasets.loaders import nugget_score

        scores = {}
        for qid, run_id, nuggets in zip(frame["qid"].astype(str), frame["run_id"].astype(str), frame["nuggets"]):
            score = nugget_score(nuggets, score_type, strict)
            scores[(qid, run_id)] = scores[(qid, f"{qid}/{run_id}")] = score
        return _Scores(scores)

    @classmethod
    def from_frame(cls, assignments: pd.DataFrame, **params: Any) -> NuggetOracle:
        """An oracle over an in-memory assignments frame (``qid``, ``run_id``, ``nuggets``)."""
        probe = cls(**params)
        return cls(scores=cls._scores_from_frame(assignments, probe.score_type, probe.strict), **params)

    @classmethod
    def from_irds(cls, dataset: str = "ir-rag-axioms/trec-rag-2024-nuggets", **params: Any) -> NuggetOracle:
        """An oracle over a registered nugget dataset's qrels ``score`` (the sub-dataset fixes the score type, e.g. ``.../all-strict``)."""
        import ir_datasets

        import ir_rag_axioms.datasets  # noqa: F401  (registers our datasets)

        scores: dict[tuple[str, str], float] = {}
        for qrel in ir_datasets.load(dataset).qrels_iter():
            score = float(getattr(qrel, "score", qrel.relevance))
            scores[(qrel.query_id, qrel.doc_id)] = score
            scores[(qrel.query_id, qrel.doc_id.removeprefix(f"{qrel.query_id}/"))] = score
        return cls(scores=_Scores(scores), **params)

    def load(self) -> _Scores:
        """The nugget scores (computed once per file and score type)."""
        return self.scores if self.scores is not None else _nugget_scores(self.data_dir, self.score_type, self.strict)

    @property
    def topics(self) -> set[str]:
        """Topics with nugget assignments."""
        return self.load().topics

    def matrix(self, request: GenerationRequest, responses: list[GenerationResponse]) -> np.ndarray:
        """compare(nugget scores, higher is better, margin); NaN (unknown response) abstains."""
        return compare(self.load().values(request, responses), True, self.margin_fraction)


@lru_cache(maxsize=8)
def _llm_scores(model: str, path: str | None, responses_path: str | None) -> _Scores:
    from ir_rag_axioms.datasets.loaders import load_crowd_responses, load_llm_ratings

    responses = load_crowd_responses(responses_path) if responses_path else None
    return LlmRatingOracle._scores_from_frame(load_llm_ratings(model, path), responses)


class LlmRatingOracle(ConfigurableAxiom):
    """Prefer the response that an LLM rated higher (probability that the response is good), an ORIG-like baseline; abstain on unrated responses."""

    name: ClassVar[str] = "LLM_ORIG"
    model: str = "Qwen-Qwen2.5-0.5B-Instruct"
    """Which ratings file: ``ratings-<model>.jsonl[.gz]``."""
    margin_fraction: float = 0.0
    """Tie when |r_i - r_j| <= margin_fraction * max(r_i, r_j)."""
    data_dir: str | None = None
    """The ratings file or its folder (``None``: $IR_RAG_AXIOMS_DATA or download)."""
    responses_path: str | None = None
    """Optional crowd responses file or folder, to accept kind-style names as response ids."""
    scores: _Scores | None = field(default=None, compare=False, repr=False)
    """In-memory ratings (see ``from_frame``); overrides the paths."""

    def __post_init__(self) -> None:
        super().__post_init__()
        object.__setattr__(self, "data_dir", _path(self.data_dir))
        object.__setattr__(self, "responses_path", _path(self.responses_path))

    @staticmethod
    def _scores_from_frame(ratings: pd.DataFrame, responses: pd.DataFrame | None = None) -> _Scores:
        scores = {
            (str(t), str(r)): float(p)
            for t, r, p in zip(ratings["topic"], ratings["response"], ratings["probability"])
        }
        if responses is not None:
            names = responses["name"] if "name" in responses else responses["kind"] + "-" + responses["style"]
            for topic, name, rid in zip(responses["topic"].astype(str), names, responses["response"].astype(str)):
                if (topic, rid) in scores:
                    scores[(topic, str(name))] = scores[(topic, rid)]
        return _Scores(scores)

    @classmethod
    def from_frame(cls, ratings: pd.DataFrame, responses: pd.DataFrame | None = None, **params: Any) -> LlmRatingOracle:
        """An oracle over an in-memory ratings frame (``topic``, ``response``, ``probability``)."""
        return cls(scores=cls._scores_from_frame(ratings, responses), **params)

    def load(self) -> _Scores:
        """The ratings (loaded once per file)."""
        return self.scores if self.scores is not None else _llm_scores(self.model, self.data_dir, self.responses_path)

    @property
    def topics(self) -> set[str]:
        """Topics with ratings."""
        return self.load().topics

    def matrix(self, request: GenerationRequest, responses: list[GenerationResponse]) -> np.ndarray:
        """compare(LLM probabilities, higher is better, margin); NaN (unrated) abstains."""
        return compare(self.load().values(request, responses), True, self.margin_fraction)


CROWD = register(CrowdOracle())
NUGGET = register(NuggetOracle())
LLM_ORIG = register(LlmRatingOracle())

__all__ = ["CROWD", "LLM_ORIG", "NUGGET", "UTILITIES", "CrowdJudgments", "CrowdOracle", "LlmRatingOracle", "NuggetOracle"]
