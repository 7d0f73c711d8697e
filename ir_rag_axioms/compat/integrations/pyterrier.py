"""``ir_axioms.integrations.pyterrier``: the reference's PyTerrier transformers and experiment, on our axioms.

Frames need ``qid`` and ``docno`` only; ``query``, ``text`` (``text_field``), ``score``, ``rank`` and ``label`` are
read where present (a document without text can still be compared by ids, scores, ranks and labels; an axiom that
reads its text raises ``MissingTextError``). Our own transformers (``ir_rag_axioms.pyterrier``) keep their
call forms.
"""

from __future__ import annotations

import statistics
import warnings
import zlib
from collections.abc import Callable, Mapping, Sequence
from functools import cached_property, reduce
from operator import or_
from typing import Any

import numpy as np
import pandas as pd
import pyterrier as pt
from pyterrier.model import add_ranks
from pyterrier.model import query_columns as _query_columns

from ir_rag_axioms.aggregation import kwiksort
from ir_rag_axioms.axioms.base import Axiom
from ir_rag_axioms.axioms.utility import OriginalAxiom
from ir_rag_axioms.compat.axiom.base import RelevanceOracleAxiom, ScikitLearnEstimatorAxiom
from ir_rag_axioms.compat.model import Document, Query
from ir_rag_axioms.compat.tools import MiddlePivotSelection, RandomPivotSelection, Tool
from ir_rag_axioms.pyterrier import AxiomaticReranker


# -- frames <-> the data model ------------------------------------------------------------------------------------
def require_columns(frame: pd.DataFrame, expected: set[str], who: str = "") -> None:
    """Refuse a frame that lacks one of the ``expected`` columns, naming them."""
    missing = sorted(expected - set(frame.columns))
    if missing:
        raise ValueError(f"{who + ': ' if who else ''}expected columns {sorted(expected)}, missing {missing} "
                         f"(got {list(frame.columns)})")


def _number(value: Any) -> Any:
    return None if value is None or (isinstance(value, float) and np.isnan(value)) or pd.isna(value) else value


def load_document(row: Mapping[Any, Any], text_column: str | None = "text") -> Document:
    """A ``Document`` of a frame row: docno; text (``text_column``), score, rank and label where present."""
    text = row[text_column] if text_column is not None and text_column in row else None
    score, rank, label = (_number(row[c]) if c in row else None for c in ("score", "rank", "label"))
    return Document(str(row["docno"]), None if _number(text) is None else str(text),
                    score=None if score is None else float(score), rank=None if rank is None else int(rank),
                    relevance=None if label is None else float(label))


def load_documents(frame: pd.DataFrame, text_column: str | None = "text") -> list[Document]:
    """One ``Document`` per row."""
    return [load_document(row, text_column) for row in frame.to_dict("records")]


def load_query(row: Mapping[Any, Any]) -> Query:
    """A ``Query`` of a row (or group keys): qid, and the ``query`` text where present."""
    text = row.get("query") if hasattr(row, "get") else None
    return Query(str(row["qid"]), None if _number(text) is None else str(text))


def query_columns(frame: pd.DataFrame) -> list[str]:
    """The columns that identify a query (PyTerrier's ``query_columns``: qid, query, ...)."""
    return list(_query_columns(frame, qid=True))


def _groups(frame: pd.DataFrame) -> tuple[list[str], list[tuple[dict[str, Any], pd.DataFrame]]]:
    columns = query_columns(frame)
    grouped = frame.groupby(columns, sort=False, dropna=False)
    return columns, [(dict(zip(columns, key if isinstance(key, tuple) else (key,), strict=True)), group.copy())
                     for key, group in grouped]


def _pivot(pivot_selection: Any) -> tuple[str, int | None]:
    """Our pivot strategy and seed for a pivot-selection tool."""
    chosen = RandomPivotSelection() if pivot_selection is None else pivot_selection
    if not isinstance(chosen, (MiddlePivotSelection, RandomPivotSelection)):
        raise TypeError(f"pivot_selection must be MiddlePivotSelection() or RandomPivotSelection(seed=...), got "
                        f"{chosen!r:.60} (ours: AxiomaticReranker(axiom, pivot='middle' | 'random', seed=...))")
    return chosen.to_parameter(), getattr(chosen, "seed", 0)


def _check_axiom(axiom: Any, who: str) -> None:
    if not isinstance(axiom, Axiom):
        raise TypeError(f"{who}: expected an axiom, got {type(axiom).__name__} {axiom!r:.40}")


# -- the transformers ---------------------------------------------------------------------------------------------
class KwikSortReranker(pt.Transformer):
    """``KwikSortReranker(axiom=..., pivot_selection=RandomPivotSelection())``: KwikSort by ``axiom | ORIG``.

    The reranked frame has score = -position (0, -1, ...) and PyTerrier's ranks; an empty frame is returned as is.
    The random pivot is seeded per query (from ``seed`` and the qid): reruns give the same ranking.
    """

    def __init__(self, axiom: Any = None, pivot_selection: Tool | None = None, text_field: str | None = "text",
                 verbose: bool = False, **options: Any) -> None:
        """The reference's keywords; our ``AxiomaticReranker`` options are refused here (they are ours)."""
        if options:
            raise TypeError(f"KwikSortReranker(axiom=, pivot_selection=, text_field=, verbose=) takes no "
                            f"{sorted(options)}: for our options use ir_rag_axioms.pyterrier.AxiomaticReranker(axiom, "
                            f"aggregation='kwiksort', ...)")
        _check_axiom(axiom, "KwikSortReranker(axiom=...)")
        self.axiom, self.pivot_selection, self.text_field, self.verbose = axiom, pivot_selection, text_field, verbose
        self.pivot, self.seed = _pivot(pivot_selection)

    def __repr__(self) -> str:
        return f"KwikSortReranker(axiom={self.axiom!r}, pivot_selection={self.pivot_selection!r})"

    @cached_property
    def _with_fallback(self) -> Any:
        return self.axiom | OriginalAxiom()

    def _order(self, qid: str, matrix: np.ndarray) -> np.ndarray:
        seed = None if self.seed is None else zlib.crc32(f"{self.seed}\x00{qid}".encode())
        return kwiksort(matrix, pivot=self.pivot, seed=seed)  # type: ignore[arg-type]

    def transform(self, inp: pd.DataFrame) -> pd.DataFrame:
        """Rerank each query's documents."""
        require_columns(inp, {"qid", "docno"}, "KwikSortReranker")
        if len(inp) == 0:
            return inp
        _, groups = _groups(inp)
        out = []
        for keys, group in groups:
            query, documents = load_query(keys), load_documents(group, self.text_field)
            order = self._order(query.id, np.asarray(self._with_fallback.preferences(query, documents)))
            ranks = pd.DataFrame({"docno": [documents[i].id for i in order], "score": -np.arange(len(order))})
            group = group.drop(columns=[c for c in ("rank", "score") if c in group.columns])
            merged = add_ranks(group.merge(ranks, on="docno"), single_query=True)
            out.append(merged.sort_values(by="rank"))
        return pd.concat(out)


class AxiomaticPreferences(pt.Transformer):
    """``AxiomaticPreferences(axioms=[...], axiom_names=[...])``: one row per ordered document pair of a query.

    The pair's columns (``docno_a``, ``docno_b``, the other columns suffixed ``_a``/``_b``) with
    ``<name>_preference`` per axiom, the diagonal pairs included.
    """

    def __init__(self, axioms: Sequence[Any], axiom_names: Sequence[str] | None = None,
                 text_field: str | None = "text", verbose: bool = False) -> None:
        """The axioms and, optionally, their column names (default: ``str(axiom)``)."""
        self.axioms = list(axioms)
        for axiom in self.axioms:
            _check_axiom(axiom, "AxiomaticPreferences(axioms=[...])")
        if axiom_names is not None and len(axiom_names) != len(self.axioms):
            raise ValueError(f"AxiomaticPreferences: {len(self.axioms)} axioms but {len(axiom_names)} axiom_names")
        self.axiom_names = [str(a) for a in self.axioms] if axiom_names is None else list(axiom_names)
        self.text_field, self.verbose = text_field, verbose

    def transform(self, inp: pd.DataFrame) -> pd.DataFrame:
        """The pairs and their preferences."""
        require_columns(inp, {"qid", "docno"}, "AxiomaticPreferences")
        columns, groups = _groups(inp)
        if not groups:
            empty = inp.merge(inp, on=columns, suffixes=("_a", "_b"), sort=False)
            for name in self.axiom_names:
                empty[f"{name}_preference"] = None
            return empty
        out = []
        for keys, group in groups:
            query, documents = load_query(keys), load_documents(group, self.text_field)
            pairs = group.merge(group, on=list(keys), suffixes=("_a", "_b"), sort=False)
            for name, axiom in zip(self.axiom_names, self.axioms, strict=True):
                pairs[f"{name}_preference"] = np.asarray(axiom.preferences(query, documents),
                                                         dtype=np.float64).reshape(-1)
            out.append(pairs)
        return pd.concat(out)


def _mean(values: Sequence[float]) -> float:
    return statistics.mean(values)


class AggregatedAxiomaticPreferences(pt.Transformer):
    """``AggregatedAxiomaticPreferences(axioms, aggregations=[max, min, mean])``: a ``features`` vector per document.

    Each aggregation of each axiom's preferences P[i, d] over the query's documents i (the diagonal included).
    """

    def __init__(self, axioms: Sequence[Any], aggregations: Sequence[Callable[[list[float]], float]] | None = None,
                 text_field: str | None = "text", verbose: bool = False) -> None:
        """The axioms and the aggregations (callables on a list of floats)."""
        self.axioms = list(axioms)
        for axiom in self.axioms:
            _check_axiom(axiom, "AggregatedAxiomaticPreferences(axioms=[...])")
        self.aggregations = [max, min, _mean] if aggregations is None else list(aggregations)
        if not self.aggregations:
            raise ValueError("AggregatedAxiomaticPreferences needs at least one aggregation (e.g. aggregations=[max, "
                             "min]; None: max, min and the mean), got none: the features would be empty")
        for f in self.aggregations:
            if not callable(f):
                raise TypeError(f"AggregatedAxiomaticPreferences: each aggregation must be a callable on a list of "
                                f"floats (e.g. max), got {type(f).__name__} {f!r}")
        self.text_field, self.verbose = text_field, verbose

    def transform(self, inp: pd.DataFrame) -> pd.DataFrame:
        """The documents with their ``features`` (order: per axiom, the aggregations)."""
        require_columns(inp, {"qid", "docno"}, "AggregatedAxiomaticPreferences")
        _, groups = _groups(inp)
        if not groups:
            empty = inp.copy()
            empty["features"] = None
            return empty
        out = []
        for keys, group in groups:
            query, documents = load_query(keys), load_documents(group, self.text_field)
            stack = np.stack([np.asarray(a.preferences(query, documents), dtype=np.float64) for a in self.axioms],
                             axis=-1)  # (n, n, k)
            aggregated = np.stack([np.apply_along_axis(lambda v, f=f: f(v.tolist()), 0, stack)  # type: ignore[call-overload]
                                   for f in self.aggregations], axis=-1)  # (n, k, a)
            group["features"] = list(aggregated.reshape(aggregated.shape[0], -1))  # type: ignore[assignment]
            out.append(group)
        return pd.concat(out)


class EstimatorKwikSortReranker(pt.Estimator):
    """``EstimatorKwikSortReranker(axioms=[...], target=ORACLE(), estimator=..., pivot_selection=...)``.

    ``fit(res, qrels)`` fits the scikit-learn ``estimator`` (in place) to the target axiom's preferences over the
    axioms' preferences (``ScikitLearnEstimatorAxiom``); ``transform`` reranks by KwikSort on the estimate.
    """

    def __init__(self, axioms: Sequence[Any] | None = None, target: Any = None, estimator: Any = None,
                 pivot_selection: Tool | None = None, text_field: str | None = "text", verbose: bool = False) -> None:
        """The reference's keywords (``target`` default: ``ORACLE()`` on the qrels' labels)."""
        if axioms is None or estimator is None:
            raise TypeError("EstimatorKwikSortReranker(axioms=[...], estimator=scikit-learn estimator, target=axiom, "
                            "pivot_selection=...) needs axioms and an estimator (ours without an estimator: "
                            "ir_rag_axioms.pyterrier.learned.LearnedReranker(axioms))")
        self.axioms = list(axioms)
        self.target = RelevanceOracleAxiom() if target is None else target
        _check_axiom(self.target, "EstimatorKwikSortReranker(target=...)")
        self.estimator, self.pivot_selection = estimator, pivot_selection
        self.text_field, self.verbose = text_field, verbose
        self.estimator_axiom: ScikitLearnEstimatorAxiom = ScikitLearnEstimatorAxiom(axioms=self.axioms,
                                                                                    estimator=estimator)
        self._reranker = KwikSortReranker(axiom=self.estimator_axiom, pivot_selection=pivot_selection,
                                          text_field=text_field, verbose=verbose)

    def fit(self, topics_or_res_tr: pd.DataFrame, qrels_tr: pd.DataFrame,
            topics_or_res_va: pd.DataFrame | None = None,
            qrels_va: pd.DataFrame | None = None) -> EstimatorKwikSortReranker:
        """Fit on the training results joined with their qrels (validation data is not used: a warning)."""
        if topics_or_res_va is not None or qrels_va is not None:
            warnings.warn("EstimatorKwikSortReranker.fit: the validation data is not used", UserWarning, stacklevel=2)
        require_columns(topics_or_res_tr, {"qid", "docno"}, "EstimatorKwikSortReranker.fit (results)")
        require_columns(qrels_tr, {"qid", "docno", "label"}, "EstimatorKwikSortReranker.fit (qrels)")
        if len(topics_or_res_tr) == 0:
            raise ValueError("EstimatorKwikSortReranker.fit: no results to fit to")
        results = topics_or_res_tr
        if "label" in results.columns:
            warnings.warn("EstimatorKwikSortReranker.fit: the results' label column is replaced by the qrels'",
                          UserWarning, stacklevel=2)
            results = results.drop(columns=["label"])
        qrels = qrels_tr[["qid", "docno", "label"]].astype({"qid": str, "docno": str})
        joined = results.astype({"qid": str, "docno": str}).merge(qrels, on=["qid", "docno"], how="left")
        _, groups = _groups(joined)
        items = [(load_query(keys), load_documents(group, self.text_field)) for keys, group in groups]
        self.estimator_axiom.fit(target=self.target, inputs_outputs=items)
        return self

    def transform(self, inp: pd.DataFrame) -> pd.DataFrame:
        """Rerank by the fitted estimate."""
        return self._reranker.transform(inp)


class AxiomaticExperiment:
    """The reference's experiment: ``AxiomaticExperiment(retrieval_systems=[...], topics=, qrels=, axioms=[...])``.

    ``preferences``: every ordered pair of each system's top ``depth`` results (only judged ones with
    ``filter_by_qrels``), with labels and the preferences of ORIG, ORACLE and the axioms, and the system ``name``;
    ``preference_distribution``, ``preference_consistency`` and ``inconsistent_pairs`` summarise it as the reference
    does. Ours (one run, agreement counts): ``ir_rag_axioms.evaluation.experiment.AxiomaticExperiment(run, qrels,
    axioms)``.
    """

    def __init__(self, *args: Any, retrieval_systems: Sequence[Any] | None = None, topics: pd.DataFrame | None = None,
                 qrels: pd.DataFrame | None = None, axioms: Sequence[Any] | None = None,
                 names: Sequence[str] | None = None, axiom_names: Sequence[str] | None = None, depth: int | None = 10,
                 filter_by_qrels: bool = True, filter_by_topics: bool = False, text_field: str | None = "text",
                 parallel_jobs: int = 1, parallel_backend: str = "joblib", verbose: bool = False) -> None:
        """The reference's keywords (all by name)."""
        if args or retrieval_systems is None or topics is None or qrels is None or axioms is None:
            raise TypeError("compat's AxiomaticExperiment is the reference's: AxiomaticExperiment("
                            "retrieval_systems=[...], topics=frame, qrels=frame, axioms=[...], names=, axiom_names=, "
                            "depth=10); ours is "
                            "ir_rag_axioms.evaluation.experiment.AxiomaticExperiment(run, qrels, axioms, depth=10)")
        if parallel_jobs != 1:
            raise ValueError("AxiomaticExperiment(parallel_jobs=...): compat computes the systems one after the other; "
                             "parallelise the axioms instead (axiom.parallel(n_jobs))")
        self.retrieval_systems, self.topics, self.qrels = list(retrieval_systems), topics, qrels
        self.axioms = list(axioms)
        if names is not None and len(names) != len(self.retrieval_systems):
            raise ValueError("AxiomaticExperiment: the numbers of retrieval_systems and names differ")
        if axiom_names is not None and len(axiom_names) != len(self.axioms):
            raise ValueError("AxiomaticExperiment: the numbers of axioms and axiom_names differ")
        self.names = [str(s) for s in self.retrieval_systems] if names is None else list(names)
        self.axiom_names = [str(a) for a in self.axioms] if axiom_names is None else list(axiom_names)
        self.depth, self.filter_by_qrels, self.filter_by_topics = depth, filter_by_qrels, filter_by_topics
        self.text_field, self.verbose = text_field, verbose

    @property
    def _all_names(self) -> list[str]:
        return ["ORIG", "ORACLE", *self.axiom_names]

    def _system_preferences(self, system: Any, name: str) -> pd.DataFrame:
        pipeline = system % self.depth if self.depth is not None else system  # PyTerrier's rank cutoff
        res = pipeline.transform(self.topics)
        if self.filter_by_topics:
            res = res[res["qid"].isin(self.topics["qid"])]
        if self.filter_by_qrels:
            res = res[res["qid"].isin(self.qrels["qid"]) & res["docno"].isin(self.qrels["docno"])]
        require_columns(self.qrels, {"qid", "docno", "label"}, "AxiomaticExperiment (qrels)")
        res = res.merge(self.qrels, on=["qid", "docno"], how="left")
        preferences = AxiomaticPreferences([OriginalAxiom(), RelevanceOracleAxiom(), *self.axioms], self._all_names,
                                           text_field=self.text_field, verbose=self.verbose).transform(res)
        preferences["name"] = name
        return preferences

    @cached_property
    def preferences(self) -> pd.DataFrame:
        """Each axiom's preference for each document pair, query and system (with ``name``)."""
        return pd.concat([self._system_preferences(s, n) for s, n in zip(self.retrieval_systems, self.names,
                                                                          strict=True)])

    @cached_property
    def preference_distribution(self) -> pd.DataFrame:
        """Over the pairs ORIG prefers: per axiom, how many it leaves at 0, agrees with, and opposes."""
        pref = self.preferences[self.preferences["ORIG_preference"] > 0]
        return pd.DataFrame([{"axiom": n, "axiom == 0": int((pref[f"{n}_preference"] == 0).sum()),
                              "axiom == ORIG": int((pref[f"{n}_preference"] > 0).sum()),
                              "axiom != ORIG": int((pref[f"{n}_preference"] < 0).sum())} for n in self._all_names])

    def _consistency(self, name: str, against: str, system: str | None = None) -> float:
        pref = self.preferences[self.preferences[f"{name}_preference"] > 0]
        if system is not None:
            pref = pref[pref["name"] == system]
        return float("nan") if len(pref) == 0 else float((pref[f"{against}_preference"] >= 0).sum() / len(pref))

    @cached_property
    def preference_consistency(self) -> pd.DataFrame:
        """Per axiom, the share of its positive preferences that ORIG (overall, per system) and ORACLE do not oppose."""
        systems = self.preferences["name"].unique().tolist()
        return pd.DataFrame([{"axiom": n, "ORIG_consistency": self._consistency(n, "ORIG"),
                              "ORACLE_consistency": self._consistency(n, "ORACLE"),
                              **{f"{s}_consistency": self._consistency(n, "ORIG", s) for s in systems}}
                             for n in self._all_names])

    @cached_property
    def inconsistent_pairs(self) -> pd.DataFrame:
        """The pairs ranked against the qrels (ORACLE > 0, ORIG < 0) that at least one axiom prefers correctly."""
        pref = self.preferences
        pref = pref[(pref["ORACLE_preference"] > 0) & (pref["ORIG_preference"] < 0)]
        hinted = reduce(or_, [pref[f"{n}_preference"] > 0 for n in self._all_names])
        return pref[hinted]


def inject_pyterrier(index_location: Any = None, text_field: str | None = "text", tokeniser: Any = None,
                     dataset: Any = None, injector: Any = None) -> None:
    """Not supported in compat: the reference binds a Terrier index, its tokeniser and texts in its injector.

    Use ``with compat.tools.bind_index(index): ...`` (index statistics of a PISA or Terrier-like index) and frames
    with a ``text`` column; raises ``NotImplementedError`` naming both.
    """
    raise NotImplementedError("inject_pyterrier(index_location=..., tokeniser=..., dataset=...) is not supported in "
                              "compat (it binds Terrier's tokeniser and texts in the reference's injector); ours: "
                              "`with compat.tools.bind_index(index): ...` for index statistics and a text column in "
                              "the frames")


__all__ = ["AggregatedAxiomaticPreferences", "AxiomaticExperiment", "AxiomaticPreferences", "AxiomaticReranker",
           "EstimatorKwikSortReranker", "KwikSortReranker", "inject_pyterrier", "load_document", "load_documents",
           "load_query", "query_columns", "require_columns"]
