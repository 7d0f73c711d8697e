"""Oracle axioms: preferences read from crowd judgments, TREC RAG 2024 nugget scores, or LLM ratings.

Responses are matched by response id.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping
from dataclasses import field
from typing import Any, ClassVar, Literal, TypeVar, cast

import numpy as np
import pandas as pd

from ir_rag_axioms.analysis.cache import Analysis
from ir_rag_axioms.axioms.base import ConfigurableAxiom, compare
from ir_rag_axioms.axioms.registry import register
from ir_rag_axioms.datasets import crowd, llm, nuggets
from ir_rag_axioms.datasets.crowd import UTILITIES, CrowdJudgments, utility_columns
from ir_rag_axioms.model import GenerationRequest, GenerationResponse

_T = TypeVar("_T")
Duplicates = Literal["mean", "last"]
"""How the crowd oracle treats pairs judged twice."""
NuggetScore = Literal["all", "vital", "weighted"]
"""Which nuggets the nugget oracle's score counts."""


def _path(value: str | os.PathLike | None) -> str | None:
    return None if value is None else os.fspath(value)


def _loaded(oracle: Any, build: Callable[[], _T]) -> _T:
    """The oracle's data, built once per instance (outside its fields: a reconfigured copy builds its own)."""
    if "_data" not in oracle.__dict__:
        object.__setattr__(oracle, "_data", build())
    return oracle.__dict__["_data"]


class CrowdOracle(ConfigurableAxiom):
    """Prefer the response the crowd judged better; abstain on unjudged pairs.

    Compare (mean P(A better), mean P(B better)) with a relative margin.
    """

    name: ClassVar[str] = "CROWD"
    dimension: ClassVar[str] = "oracle"
    citation: ClassVar[str] = "Merker et al., 2025"
    utility: str = "overall"
    """Utility dimension.

    One of: overall, logical/stylistic coherence, coherence, (internal) consistency, (topical) correctness, broad/deep
    coverage, coverage.
    """
    margin_fraction: float = 0.1
    """Tie when |p_a - p_b| <= margin_fraction * max(p_a, p_b)."""
    duplicates: Duplicates = "mean"
    """Pairs judged twice: average both judgments or keep the later row.

    Average (``"mean"``) or keep the later row, as the reference does (``"last"``).
    """
    data_dir: str | None = None
    """Folder with ``responses.jsonl.gz`` and ``ratings.jsonl.gz`` (``None``: $IR_RAG_AXIOMS_DATA or download)."""
    ratings_path: str | None = None
    """Explicit ratings file (overrides ``data_dir``)."""
    responses_path: str | None = None
    """Explicit responses file (for kind-style names as response ids)."""
    judgments: CrowdJudgments | pd.DataFrame | None = field(default=None, compare=False, repr=False)
    """In-memory judgments: a ratings frame (``query_id``, ``response_a``, ``response_b``, ``<dim>_p_a/_p_b``) or
    ``CrowdJudgments`` (see ``from_frames``); overrides the paths. A frame is checked when the oracle is built, as
    the ratings file is (DataFileError naming the row: a probability outside [0, 1], a self-pair)."""

    def __post_init__(self) -> None:
        super().__post_init__()
        utility_columns(self.utility)
        if self.duplicates not in ("mean", "last"):
            raise ValueError(f"CROWD: duplicates must be 'mean' or 'last', got {self.duplicates!r}")
        for name in ("data_dir", "ratings_path", "responses_path"):
            object.__setattr__(self, name, _path(getattr(self, name)))
        judgments = self.judgments
        if isinstance(judgments, pd.DataFrame):  # checked now (as the ratings file is when read): DataFileError
            _loaded(self, lambda: CrowdJudgments(judgments, what=f"{self.name} judgments"))

    @classmethod
    def from_frames(cls, ratings: pd.DataFrame, responses: pd.DataFrame | None = None, **params: Any) -> CrowdOracle:
        """An oracle over in-memory ratings (and responses for kind-style aliases), e.g. from ``load_crowd_ratings``."""
        return cls(judgments=CrowdJudgments(ratings, responses, what=f"{cls.name} ratings"), **params)

    @classmethod
    def from_irds(cls, dataset: str = "ir-rag-axioms/crowdrag-25", **params: Any) -> CrowdOracle:
        """An oracle over a registered ir_datasets dataset's docpairs (probabilities) and docs (kind-style names).

        ``dataset``: a registered name; the aliases ``crowdrag-25`` and ``trec-rag-24-crowd`` warn (DeprecationWarning).
        """
        import ir_datasets

        from ir_rag_axioms.datasets import register
        from ir_rag_axioms.datasets.irds import canonical_name

        register()
        loaded = ir_datasets.load(canonical_name(dataset))
        ratings = pd.DataFrame([p._asdict() for p in loaded.docpairs_iter()]).rename(
            columns={"doc_id_a": "response_a", "doc_id_b": "response_b"})
        responses = pd.DataFrame(
            [{"response": d.doc_id, "topic": d.query_id, "name": d.name} for d in loaded.docs_iter()])
        return cls.from_frames(ratings, responses, **params)

    def load(self) -> CrowdJudgments:
        """The judgments: in memory, or read from the files (once per oracle)."""
        judgments = self.judgments
        if isinstance(judgments, CrowdJudgments):
            return judgments
        if isinstance(judgments, pd.DataFrame):
            return _loaded(self, lambda: CrowdJudgments(judgments))
        return _loaded(self, lambda: crowd.read_judgments(self.ratings_path, self.responses_path, self.data_dir))

    @property
    def topics(self) -> set[str]:
        """Topics with judgments."""
        return self.load().topics

    def judged_items(self, data: str | os.PathLike | None = None, responses: str | os.PathLike | None = None
                     ) -> list[tuple[GenerationRequest, list[GenerationResponse]]]:
        """The crowd responses (from ``responses``, else ``data``) of the topics this oracle judges."""
        return crowd.items(crowd.load_crowd_responses(responses or data), self.topics)

    def matrix(self, request: GenerationRequest, responses: list[GenerationResponse], analysis: Analysis) -> np.ndarray:
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
        """The responses' scores for this request's topic (NaN where unknown)."""
        return np.array([self.scores.get((request.id, r.id), np.nan) for r in responses], dtype=np.float64)


class NuggetOracle(ConfigurableAxiom):
    """Prefer the response that covers more information nuggets; abstain on unscored responses.

    The score is the TREC RAG 2024 AutoNuggetizer score.
    """

    name: ClassVar[str] = "NUGGET"
    dimension: ClassVar[str] = "oracle"
    citation: ClassVar[str] = "Pradeep et al., 2024"
    score_type: NuggetScore = "vital"
    """all: mean credit over all nuggets; vital: over vital nuggets; weighted: vital weight 1, okay 0.5."""
    strict: bool = False
    """Strict: partial support earns 0 instead of 0.5."""
    margin_fraction: float = 0.0
    """Tie when |s_i - s_j| <= margin_fraction * max(s_i, s_j)."""
    data_dir: str | None = None
    """The assignments file or its folder (``None``: $IR_RAG_AXIOMS_DATA or download).

    Response ids: run_id or ``<qid>/<run_id>``.
    """
    table: pd.DataFrame | None = field(default=None, compare=False, repr=False)
    """In-memory assignments or scores; overrides ``data_dir``.

    Assignments: ``qid``, ``run_id``, ``nuggets``; scores: ``qid``, ``run_id``, ``score``. Checked when the oracle
    is built, as the assignments file is (``nuggets.check_nugget_table``: DataFileError naming the column and row).
    """

    def __post_init__(self) -> None:
        super().__post_init__()
        if self.score_type not in ("all", "vital", "weighted"):
            raise ValueError(f"NUGGET: score_type must be 'all', 'vital' or 'weighted', got {self.score_type!r}")
        object.__setattr__(self, "data_dir", _path(self.data_dir))
        if self.table is not None:  # checked now, as the assignments file is when read (DataFileError)
            nuggets.check_nugget_table(self.table, "NUGGET table")

    @classmethod
    def from_frame(cls, assignments: pd.DataFrame, **params: Any) -> NuggetOracle:
        """An oracle over an in-memory assignments frame (``qid``, ``run_id``, ``nuggets``)."""
        return cls(table=assignments, **params)

    @classmethod
    def from_irds(cls, dataset: str = "ir-rag-axioms/trec-rag-2024-nuggets", **params: Any) -> NuggetOracle:
        """An oracle over a registered nugget dataset's qrels ``score``.

        The sub-dataset fixes the score type, e.g. ``.../all-strict``.
        """
        import ir_datasets

        from ir_rag_axioms.datasets import register
        from ir_rag_axioms.datasets.irds import canonical_name

        register()
        qrels = ir_datasets.load(canonical_name(dataset)).qrels_iter()
        table = pd.DataFrame([(q.query_id, q.doc_id, float(getattr(q, "score", q.relevance))) for q in qrels],
                             columns=["qid", "run_id", "score"])
        return cls(table=table, **params)

    def load(self) -> _Scores:
        """The nugget scores of the answers (computed once per oracle)."""
        def build() -> _Scores:
            table = self.table if self.table is not None else nuggets.load_nugget_assignments(self.data_dir)
            return _Scores(nuggets.answer_scores(table, self.score_type, self.strict))

        return _loaded(self, build)

    @property
    def topics(self) -> set[str]:
        """Topics with nugget assignments."""
        return self.load().topics

    def judged_items(self, data: str | os.PathLike | None = None, responses: str | os.PathLike | None = None
                     ) -> list[tuple[GenerationRequest, list[GenerationResponse]]]:
        """The nugget answers of ``data`` (``responses`` is not used: the answers come with their assignments)."""
        return nuggets.items(nuggets.load_nugget_assignments(data))

    def matrix(self, request: GenerationRequest, responses: list[GenerationResponse], analysis: Analysis) -> np.ndarray:
        """compare(nugget scores, higher is better, margin); NaN (unknown response) abstains."""
        return compare(self.load().values(request, responses), True, self.margin_fraction)


class LlmRatingOracle(ConfigurableAxiom):
    """Prefer the response that an LLM rated higher; abstain on unrated responses.

    The rating is the probability that the response is good; an ORIG-like baseline.
    """

    name: ClassVar[str] = "LLM_ORIG"
    dimension: ClassVar[str] = "oracle"
    citation: ClassVar[str] = "Merker et al., 2025"
    model: str = "Qwen-Qwen2.5-0.5B-Instruct"
    """Which ratings file: ``ratings-<model>.jsonl[.gz]``."""
    margin_fraction: float = 0.0
    """Tie when |r_i - r_j| <= margin_fraction * max(r_i, r_j)."""
    data_dir: str | None = None
    """The ratings file or its folder (``None``: $IR_RAG_AXIOMS_DATA or download)."""
    responses_path: str | None = None
    """Optional crowd responses file or folder, to accept kind-style names as response ids."""
    table: pd.DataFrame | None = field(default=None, compare=False, repr=False)
    """In-memory ratings (``topic``, ``response``, ``probability``; see ``from_frame``); overrides ``data_dir``.

    Checked when the oracle is built, as the ratings file is (``llm.check_llm_ratings``: DataFileError naming the row).
    """

    def __post_init__(self) -> None:
        super().__post_init__()
        object.__setattr__(self, "data_dir", _path(self.data_dir))
        object.__setattr__(self, "responses_path", _path(self.responses_path))
        if self.table is not None:  # checked now, as the ratings file is when read (DataFileError)
            llm.check_llm_ratings(self.table, f"{self.name} table")

    @classmethod
    def from_frame(cls, ratings: pd.DataFrame, responses: pd.DataFrame | None = None, **params: Any) -> LlmRatingOracle:
        """An oracle over an in-memory ratings frame (``topic``, ``response``, ``probability``), checked as the file."""
        llm.check_llm_ratings(ratings, f"{cls.name} ratings")
        scores = llm.rating_scores(ratings, responses)
        table = pd.DataFrame([(t, r, p) for (t, r), p in scores.items()], columns=["topic", "response", "probability"])
        return cls(table=table, **params)

    def load(self) -> _Scores:
        """The ratings, with kind-style names if ``responses_path`` is given (read once per oracle)."""
        def build() -> _Scores:
            ratings = self.table if self.table is not None else llm.load_llm_ratings(self.model, self.data_dir)
            responses = crowd.load_crowd_responses(self.responses_path) if self.responses_path else None
            return _Scores(llm.rating_scores(ratings, responses))

        return _loaded(self, build)

    @property
    def topics(self) -> set[str]:
        """Topics with ratings."""
        return self.load().topics

    def judged_items(self, data: str | os.PathLike | None = None, responses: str | os.PathLike | None = None
                     ) -> list[tuple[GenerationRequest, list[GenerationResponse]]]:
        """The crowd responses of ``responses`` on the rated topics, else the rated responses of ``data``."""
        if responses:
            return crowd.items(crowd.load_crowd_responses(responses), self.topics)
        return llm.items(llm.load_llm_ratings(self.model, data))

    def matrix(self, request: GenerationRequest, responses: list[GenerationResponse], analysis: Analysis) -> np.ndarray:
        """compare(LLM probabilities, higher is better, margin); NaN (unrated) abstains."""
        return compare(self.load().values(request, responses), True, self.margin_fraction)


ORACLE_SPECS = f"crowd:<utility>, nugget:{nuggets.NUGGET_SPEC} or llm:<model>"
"""The oracle specs ``oracle_from_spec`` reads."""


def oracle_from_spec(spec: str, data_dir: str | None = None, duplicates: Duplicates = "mean",
                     responses_path: str | None = None) -> CrowdOracle | NuggetOracle | LlmRatingOracle:
    """The oracle of a spec (``ORACLE_SPECS``), reading its files from ``data_dir``.

    ``crowd:broad_coverage`` is the utility "broad coverage" (default overall); ``nugget:`` defaults to vital,
    ``llm:`` to ``LlmRatingOracle.model``; ``duplicates`` is the crowd's, ``responses_path`` the LLM oracle's.
    """
    kind, _, option = spec.partition(":")
    kind = kind.strip().lower()
    if kind == "crowd":
        return CrowdOracle(utility=option.replace("_", " ") or "overall", duplicates=duplicates, data_dir=data_dir)
    if kind == "nugget":
        score, strict = nuggets.parse_nugget_score(option)
        return NuggetOracle(score_type=cast("NuggetScore", score), strict=strict, data_dir=data_dir)
    if kind == "llm":
        return LlmRatingOracle(model=option or LlmRatingOracle.model, data_dir=data_dir,
                               responses_path=responses_path)
    raise ValueError(f"unknown oracle {spec!r}: use {ORACLE_SPECS}")


CROWD = register(CrowdOracle())
NUGGET = register(NuggetOracle())
LLM_ORIG = register(LlmRatingOracle())

__all__ = [
    "CROWD", "LLM_ORIG", "NUGGET", "ORACLE_SPECS", "UTILITIES", "CrowdJudgments", "CrowdOracle", "LlmRatingOracle",
    "NuggetOracle", "oracle_from_spec",
]
