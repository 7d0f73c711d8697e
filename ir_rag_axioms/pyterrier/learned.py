"""A PyTerrier estimator that fits a ``LearnedAxiom`` to qrels and reranks with KwikSort over its preferences."""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd
import pyterrier as pt

from ir_rag_axioms.analysis.cache import Analysis
from ir_rag_axioms.axioms.base import compare
from ir_rag_axioms.axioms.execution import Backend
from ir_rag_axioms.axioms.learned import LearnedAxiom
from ir_rag_axioms.axioms.naming import Axioms, as_axioms
from ir_rag_axioms.pyterrier import frames
from ir_rag_axioms.pyterrier.transformers import AxiomaticReranker, _AxiomTransformer

_QRELS_COLUMNS = (("qid", "docno", "label"), ("query_id", "doc_id", "relevance"))


def qrels_labels(qrels: pd.DataFrame) -> dict[tuple[str, str], float]:
    """(qid, docno) -> label of a qrels frame: ``qid, docno, label`` or ``query_id, doc_id, relevance``."""
    for qid, docno, label in _QRELS_COLUMNS:
        if {qid, docno, label} <= set(qrels.columns):
            values = pd.to_numeric(qrels[label], errors="coerce").to_numpy(float)
            return dict(zip(zip(qrels[qid].astype(str), qrels[docno].astype(str), strict=True), values, strict=True))
    raise ValueError("qrels need the columns qid, docno, label (or query_id, doc_id, relevance), got "
                     f"{list(qrels.columns)}")


class LearnedReranker(_AxiomTransformer, pt.Estimator):
    """Fit a ``LearnedAxiom`` to the qrels' label order, then rerank by KwikSort of its preferences.

    Training pairs: the responses of a query with different labels; ``aggregation`` may be any of the reranker's.
    """

    def __init__(
        self,
        axioms: Axioms,
        estimator: Any = None,
        *,
        learned: LearnedAxiom | None = None,
        decisiveness: float | None = None,
        regularization: float = 1.0,
        aggregation: str = "kwiksort",
        pivot: str = "middle",
        seed: int | None = 0,
        verbose: bool | None = None,
        analysis: Analysis | None = None,
        backend: Backend = "local",
        workers: int | None = None,
    ) -> None:
        """Rerank with a learned combination of ``axioms``.

        estimator: any scikit-learn classifier (None: logistic, readable weights); learned: an already fitted model
        (e.g. ``LearnedAxiom.pretrained("crowd-overall")``) to rerank without fit.
        """
        self.axioms = axioms
        self.estimator = estimator
        self.learned = learned
        self.decisiveness = decisiveness
        self.regularization = regularization
        self.aggregation = aggregation
        self.pivot = pivot
        self.seed = seed
        self.verbose = verbose
        self.analysis, self.backend, self.workers = analysis, backend, workers
        as_axioms(axioms)
        if learned is not None and not isinstance(learned, LearnedAxiom):
            raise TypeError(f"learned must be a LearnedAxiom, got {type(learned).__name__}")

    schematic = {"label": "LearnedReranker", "help_url": None}

    @classmethod
    def pretrained(cls, name: str = "crowd-overall", **options: Any) -> LearnedReranker:
        """A reranker with a shipped model (``LearnedAxiom.pretrained``): no fitting needed."""
        learned = LearnedAxiom.pretrained(name)
        return cls(list(learned.axioms), learned=learned, **options)

    def fit(self, tr_topics: pd.DataFrame, tr_qrels: pd.DataFrame, va_topics: pd.DataFrame | None = None,
            va_qrels: pd.DataFrame | None = None) -> LearnedReranker:
        """Fit on the training answers (qid, query, docno, text) and qrels; the validation data is not used.

        Target: P[i, j] = sign(label_i - label_j) for judged responses with different labels (unjudged: no pair).
        """
        text_column = frames.validate(tr_topics, self)
        groups = frames.groups(tr_topics, text_column)
        if not groups:
            raise ValueError("LearnedReranker.fit: no training answers")
        labels = qrels_labels(tr_qrels)
        oracle = [compare(np.array([labels.get((g.request.id, r.id), np.nan) for r in g.responses]), True, 0.0)
                  for g in groups]
        axioms = tuple(as_axioms(self.axioms))
        stacks = self._stacks(axioms, groups, self.verbose)
        self.learned = LearnedAxiom(axioms=axioms, estimator=self.estimator).fit_stacks(
            stacks, oracle, decisiveness=self.decisiveness, regularization=self.regularization,
            seed=0 if self.seed is None else self.seed, topics=[g.request.id for g in groups])
        return self

    def transform(self, inp: pd.DataFrame) -> pd.DataFrame:
        """The input rows with ``score`` and ``rank`` by the aggregation of the fitted axiom's preferences."""
        if self.learned is None:
            raise ValueError("LearnedReranker is not fitted: call fit(train_answers, train_qrels) or give learned=")
        reranker = AxiomaticReranker(self.learned, aggregation=self.aggregation, pivot=self.pivot,  # type: ignore[arg-type]
                                     seed=self.seed, verbose=self.verbose, analysis=self.analysis,
                                     backend=self.backend, workers=self.workers)
        return reranker.transform(inp)


__all__ = ["LearnedReranker", "qrels_labels"]
