"""Utility axioms: ORIG, ORACLE (qrels), NOP, RANDOM, GT / LT / DIST (response scores)."""

from __future__ import annotations

import functools
import hashlib
import os
from dataclasses import field
from typing import Any, ClassVar

import numpy as np

from ir_rag_axioms.analysis.cache import Analysis
from ir_rag_axioms.axioms.base import ConfigurableAxiom, compare
from ir_rag_axioms.axioms.explanation import BASELINE
from ir_rag_axioms.axioms.registry import register
from ir_rag_axioms.model import GenerationRequest, GenerationResponse


class OriginalAxiom(ConfigurableAxiom):
    """ORIG: prefer the better (lower) original rank where both ranks are known, else the higher score; else 0.

    [Hagen et al., 2016]
    """

    name: ClassVar[str] = "ORIG"
    dimension: ClassVar[str] = "utility"
    citation: ClassVar[str] = "Hagen et al., 2016"

    def matrix(self, request: GenerationRequest, responses: list[GenerationResponse], analysis: Analysis) -> np.ndarray:
        """Rank comparison where both ranks exist, score comparison where only scores do."""
        ranks = np.array([np.nan if r.rank is None else float(r.rank) for r in responses])
        scores = np.array([np.nan if r.score is None else float(r.score) for r in responses])
        by_rank = compare(ranks, higher_is_better=False)
        both_ranked = ~np.isnan(ranks)[:, None] & ~np.isnan(ranks)[None, :]
        return np.where(both_ranked, by_rank, compare(scores))


class NopAxiom(ConfigurableAxiom):
    """NOP: never prefer any response (all zeros)."""

    name: ClassVar[str] = "NOP"
    no_precondition: ClassVar[bool] = True
    """As a precondition: none (every pair is compared)."""
    dimension: ClassVar[str] = "utility"
    citation: ClassVar[str] = BASELINE

    def matrix(self, request: GenerationRequest, responses: list[GenerationResponse], analysis: Analysis) -> np.ndarray:
        """The zero matrix."""
        return np.zeros((len(responses), len(responses)))


class RandomAxiom(ConfigurableAxiom):
    """RANDOM: a seeded random antisymmetric preference.

    P[i, j] uniform in {-1, 0, 1} per unordered pair, P[j, i] = -P[i, j]; seeded by (seed, request id, response ids).
    """

    name: ClassVar[str] = "RANDOM"
    dimension: ClassVar[str] = "utility"
    citation: ClassVar[str] = BASELINE
    seed: int | None = 0
    """Seed; the same seed gives the same preference for the same pair of ids in any order. None: fresh randomness."""

    def _draw(self, request: GenerationRequest, a: str, b: str, rng: np.random.Generator | None) -> float:
        if rng is not None:
            return float(rng.integers(-1, 2))
        digest = hashlib.blake2b(f"{self.seed}\x00{request.id}\x00{a}\x00{b}".encode(), digest_size=8).digest()
        return float(int.from_bytes(digest, "little") % 3 - 1)

    def matrix(self, request: GenerationRequest, responses: list[GenerationResponse], analysis: Analysis) -> np.ndarray:
        """Antisymmetric random matrix with a zero diagonal."""
        n = len(responses)
        rng = np.random.default_rng() if self.seed is None else None
        prefs = np.zeros((n, n))
        for i in range(n):
            for j in range(i + 1, n):
                a, b = responses[i].id, responses[j].id
                value = self._draw(request, min(a, b), max(a, b), rng)
                prefs[i, j] = value if a <= b else -value
                prefs[j, i] = -prefs[i, j]
        return prefs + 0.0


def _scores(responses: list[GenerationResponse]) -> np.ndarray:
    return np.array([np.nan if r.score is None else float(r.score) for r in responses], dtype=np.float64)


class GreaterThanAxiom(ConfigurableAxiom):
    """GT: prefer the response with the greater ``score`` (a response without a score abstains)."""

    name: ClassVar[str] = "GT"
    dimension: ClassVar[str] = "utility"
    citation: ClassVar[str] = BASELINE

    def matrix(self, request: GenerationRequest, responses: list[GenerationResponse], analysis: Analysis) -> np.ndarray:
        """sign(s_i - s_j)."""
        return compare(_scores(responses))


class LessThanAxiom(ConfigurableAxiom):
    """LT: prefer the response with the smaller ``score`` (a response without a score abstains)."""

    name: ClassVar[str] = "LT"
    dimension: ClassVar[str] = "utility"
    citation: ClassVar[str] = BASELINE

    def matrix(self, request: GenerationRequest, responses: list[GenerationResponse], analysis: Analysis) -> np.ndarray:
        """sign(s_j - s_i)."""
        return compare(_scores(responses), higher_is_better=False)


class DistanceAxiom(ConfigurableAxiom):
    """DIST: prefer the greater ``score`` by the difference, P[i, j] = s_i - s_j (0 where a score is missing).

    Not registered: its values are not in {-1, 0, 1} (``+DIST`` is ``GT``).
    """

    name: ClassVar[str] = "DIST"

    def matrix(self, request: GenerationRequest, responses: list[GenerationResponse], analysis: Analysis) -> np.ndarray:
        """s_i - s_j."""
        s = _scores(responses)
        return np.nan_to_num(s[:, None] - s[None, :], nan=0.0) + 0.0


def read_qrels(qrels: Any) -> dict[tuple[str, str], float]:
    """(qid, docno) -> label from a frame (qid, docno, label or relevance), a trectools TrecQrel or a TREC file."""
    import pandas as pd

    if isinstance(qrels, (str, os.PathLike)):
        frame = pd.read_csv(qrels, sep=r"\s+", header=None, names=["qid", "iteration", "docno", "label"],
                            dtype={"qid": str, "docno": str})
    elif hasattr(qrels, "qrels_data"):  # trectools.TrecQrel
        frame = qrels.qrels_data.rename(columns={"query": "qid", "docid": "docno", "rel": "label"})
    elif isinstance(qrels, pd.DataFrame):
        frame = qrels.rename(columns={"query_id": "qid", "doc_id": "docno", "relevance": "label"})
    else:
        raise TypeError(f"ORACLE: qrels must be a frame, a trectools TrecQrel or a qrels file path, got "
                        f"{type(qrels).__name__}")
    missing = {"qid", "docno", "label"} - set(frame.columns)
    if missing:
        raise ValueError(f"ORACLE: the qrels lack the column(s) {sorted(missing)}; they need qid, docno and label "
                         "(or relevance)")
    return {(str(q), str(d)): float(v) for q, d, v in zip(frame["qid"], frame["docno"], frame["label"], strict=True)}


class OracleAxiom(ConfigurableAxiom):
    """ORACLE: prefer the response with the higher relevance label in the qrels; unjudged responses abstain.

    Not registered (its qrels are data, not a parseable parameter): build it with ``OracleAxiom(qrels=...)``.

    [Bondarenko et al., 2022]
    """

    name: ClassVar[str] = "ORACLE"
    qrels: object = field(default=None, compare=False, repr=False)
    """A frame (qid, docno, label or relevance), a trectools ``TrecQrel`` or a TREC qrels file; labels by
    (request id, response id)."""

    def labels(self) -> dict[tuple[str, str], float]:
        """The qrels as (qid, docno) -> label (read once per instance)."""
        if self.qrels is None:
            raise ValueError("ORACLE needs qrels: ORACLE(qrels=frame with qid, docno, label)")
        return self._labels

    @functools.cached_property
    def _labels(self) -> dict[tuple[str, str], float]:
        """The qrels read once per instance (``labels()`` checks that there are qrels first)."""
        return read_qrels(self.qrels)

    def matrix(self, request: GenerationRequest, responses: list[GenerationResponse], analysis: Analysis) -> np.ndarray:
        """compare(labels); NaN (unjudged) abstains."""
        labels = self.labels()
        return compare(np.array([labels.get((request.id, r.id), np.nan) for r in responses], dtype=np.float64))


ORIG = register(OriginalAxiom())
NOP = register(NopAxiom())
RANDOM = register(RandomAxiom())
GT = register(GreaterThanAxiom())
LT = register(LessThanAxiom())
ORACLE = OracleAxiom()
DIST = DistanceAxiom()
