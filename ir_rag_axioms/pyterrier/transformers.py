"""PyTerrier transformers.

Rerank responses by aggregated axiom preferences, list pairwise preferences, emit LTR features.
"""

from __future__ import annotations

import hashlib
import sys
import warnings
from collections.abc import Sequence
from types import FrameType
from typing import Any

import numpy as np
import pandas as pd
import pyterrier as pt

from ir_rag_axioms.aggregation import AGGREGATIONS, PIVOTS, Pivot, scored_ranking
from ir_rag_axioms.analysis.cache import Analysis
from ir_rag_axioms.axioms.base import Axiom
from ir_rag_axioms.axioms.execution import Backend
from ir_rag_axioms.axioms.naming import Axioms, AxiomSpec, as_axioms, named_axioms
from ir_rag_axioms.pyterrier import frames
from ir_rag_axioms.pyterrier.equality import ByParameters

DECIDED_COLUMN = "decided"
"""The reranker's column: how many of the query's unordered answer pairs the axioms (or the tie-breaker) decided."""


class AbstentionWarning(UserWarning):
    """The axioms decided no pair of a query (or of the whole run): its order is the input order, not a ranking."""


def decided_pairs(stack: np.ndarray, breaker: np.ndarray | None = None) -> int:
    """The number of unordered pairs i < j that some axiom of a (k, n, n) stack, or the tie-breaker, decides."""
    decided = (np.nan_to_num(np.asarray(stack, dtype=np.float64)) != 0).any(axis=0)
    if breaker is not None:
        decided |= np.nan_to_num(np.asarray(breaker, dtype=np.float64)) != 0
    decided = decided | decided.T
    return int(np.triu(decided, k=1).sum())


def _warn_abstained(transformer: Any, groups: list[frames.Group], counts: list[int]) -> None:
    """One AbstentionWarning naming the queries of several answers where nothing was decided (louder if all)."""
    warn_abstained(type(transformer).__name__, [(g.request.id, len(g.responses)) for g in groups], counts,
                   f"Column {DECIDED_COLUMN!r} counts the decided pairs per query.", f"column {DECIDED_COLUMN!r} = 0")


def warn_abstained(name: str, queries: Sequence[tuple[str, int]], counts: Sequence[int], hint: str = "",
                   where: str = "") -> None:
    """One AbstentionWarning naming the queries (qid, answers) of several answers with no decided pair (louder if all).

    ``name`` (the transformer's, or "" for none) prefixes the message; ``counts``: each query's decided pairs
    (``decided_pairs``); ``hint`` ends the run-wide message, ``where`` the per-query one (where the count shows).
    """
    comparable = [(qid, c) for (qid, size), c in zip(queries, counts, strict=True) if size > 1]
    name = f"{name}: " if name else ""
    undecided = [qid for qid, c in comparable if c == 0]
    if not undecided:
        return
    shown = ", ".join(repr(q) for q in undecided[:5]) + (f" and {len(undecided) - 5} more" if len(undecided) > 5
                                                        else "")
    if len(undecided) == len(comparable):
        warnings.warn(f"{name}the axioms decided no pair in this run ({len(undecided)} queries: {shown}); the "
                      "output is the input order (rank, else score, else docno), not a ranking. Do the axioms read "
                      f"something the answers lack (the context for CONS1/CONS2, citations)? {hint}".rstrip(),
                      AbstentionWarning, stacklevel=4)
    else:
        warnings.warn(f"{name}the axioms decided no pair of {len(undecided)} of {len(comparable)} queries "
                      f"(qid {shown}); those keep their input order (rank, else score, else docno)"
                      + (f", {where}." if where else "."), AbstentionWarning, stacklevel=4)


def _warn_silent_axioms(transformer: Any, axioms: Sequence[Axiom], stacks: list[np.ndarray],
                        counts: list[int]) -> None:
    """An AbstentionWarning naming each of several axioms that decided no pair of the run while others did."""
    if len(axioms) < 2 or not any(counts):
        return  # one axiom, or nothing decided at all: _warn_abstained said so
    silent = [repr(axiom) for m, axiom in enumerate(axioms)
              if not any((np.nan_to_num(stack[m]) != 0).any() for stack in stacks)]
    if silent:
        warnings.warn(f"{type(transformer).__name__}: {', '.join(silent)} decided no pair of this run's "
                      f"{len(stacks)} queries: they cast no vote (not even in KwikSort's majority), and the ranking "
                      "is the other axioms' alone. Do the answers lack what it reads (the context for CONS1/CONS2, "
                      "citations for CORR1)?", AbstentionWarning, stacklevel=4)


def _check_weights(weights: Sequence[float], aggregation: str) -> None:
    """Raise ValueError for weights no aggregation can use: non-finite, summing past float64, negative for BT."""
    if not all(isinstance(w, (int, float)) and np.isfinite(w) for w in weights):
        raise ValueError(f"weights must be finite numbers, got {list(weights)!r}")
    with np.errstate(over="ignore"):
        total = float(np.abs(np.asarray(weights, dtype=np.float64)).sum())
    if not np.isfinite(total) or total > 1e300:
        raise ValueError(f"weights {list(weights)!r} are too large: the sum of their magnitudes ({total!r}) leaves "
                         "no room for the weighted sums of the preferences in float64; scale them down")
    if aggregation == "bradley_terry" and any(w < 0 for w in weights):
        raise ValueError(f"aggregation='bradley_terry' needs non-negative weights (it counts wins, not net "
                         f"preferences), got {list(weights)!r}; negate the axiom (-AXIOM) instead, or use borda, "
                         "copeland or kwiksort, which honour negative weights")


def _query_seed(seed: int | None, group: frames.Group) -> np.random.Generator:
    """A generator per query from the seed and the query's content (its text, its answers' texts sorted).

    Not from the qid, the docnos or the row order: the same candidates get the same draws under any naming.
    """
    if seed is None:
        return np.random.default_rng(None)
    digest = hashlib.blake2b(digest_size=8)
    for text in (group.request.text, *sorted(r.text for r in group.responses)):
        data = text.encode("utf-8", "surrogatepass")
        digest.update(len(data).to_bytes(8, "little") + data)  # length-prefixed: no two lists hash alike by joining
    return np.random.default_rng([seed, int.from_bytes(digest.digest(), "little")])


class _AxiomTransformer(ByParameters, pt.Transformer):
    """Shared machinery: configuration repr, validation, one batched analysis pass over all queries.

    Equal parameters make equal transformers (``ByParameters``): ``pt.Experiment(plan="tree")`` computes them once.
    """

    schematic: dict[str, Any] = {"help_url": None}

    def __repr__(self) -> str:
        parts = []
        for attribute in pt.inspect.transformer_attributes(self, strict=False):  # unknown: MISSING
            if attribute.init_default_value is attribute.value or (
                attribute.init_default_value == attribute.value
                and type(attribute.init_default_value) is type(attribute.value)
            ):
                continue
            parts.append(f"{attribute.name}={attribute.value!r}")
        return f"{type(self).__name__}({', '.join(parts)})"

    __str__ = __repr__

    analysis: Analysis | None = None
    backend: Backend = "local"
    workers: int | None = None
    depends_on_candidate_set: bool = True
    """A response's output depends on the other candidates of its query: no per-(query, docno) score cache fits."""

    def _refuse_scorer_cache(self) -> None:
        """Raise TypeError when called by pyterrier-caching (ScorerCache): it would mix scores of other candidate sets.

        ScorerCache keys a score by (query, docno) and asks the scorer for the uncached rows only.
        """
        frame: FrameType | None = sys._getframe(2)
        for _ in range(40):
            if frame is None:
                return
            if str(frame.f_globals.get("__name__", "")).startswith("pyterrier_caching"):
                raise TypeError(
                    f"{type(self).__name__} cannot run inside pyterrier-caching's ScorerCache: its scores depend on "
                    "the whole candidate set of a query (Borda points, net wins, positions), while the cache keys a "
                    "score by (query, docno) and passes only the uncached candidates, so it would serve scores "
                    "computed for another set. Cache the stages before it (e.g. RetrieverCache around the pool) and "
                    "make reruns fast with a persistent analysis store: analysis=Analysis(store=DIR) or "
                    "IR_RAG_AXIOMS_CACHE.")
            frame = frame.f_back

    def _stacks(self, axioms: Sequence[Axiom], groups: list[frames.Group], verbose: bool | None) -> list[np.ndarray]:
        """One (k, n, n) stack per group, in chunks of queries (each chunk: one batched analysis, then the matrices).

        ``verbose``: a progress bar over the texts (True), none (False), or one when there are at least
        ``PROGRESS_MIN_ITEMS`` texts (None, the default: long work is never silent).
        """
        from ir_rag_axioms.analysis.cache import PROGRESS_MIN_ITEMS
        from ir_rag_axioms.axioms._training import warn_in_sample
        from ir_rag_axioms.axioms.execution import preference_stacks

        if verbose is None:
            verbose = sum(len(g.responses) for g in groups) >= PROGRESS_MIN_ITEMS

        single = [g.request.id for g in groups if len(g.responses) < 2]
        if single:
            warnings.warn(f"{type(self).__name__}: {len(single)} of {len(groups)} queries have a single candidate "
                          f"(e.g. qid {single[0]!r}), which nothing can be compared with: its preferences and "
                          "features are 0. Pool several systems' answers (ir_rag_axioms.pyterrier.Pool) to compare "
                          "them.", stacklevel=3)
        warn_in_sample(axioms, [g.request for g in groups], type(self).__name__)
        items = [(g.request, g.responses) for g in groups]
        return list(preference_stacks(axioms, items, backend=self.backend, workers=self.workers,
                                      analysis=self.analysis, progress=verbose))


class AxiomaticReranker(_AxiomTransformer):
    """Rerank each query's responses by aggregated axiom preferences; score = the aggregation's own score.

    Borda points, Copeland score, Bradley-Terry log-strength, KwikSort n - position; rank follows score, and ties
    keep the input order (rank, else score, else docno), after the tie-breaker axiom if one is given. Column
    ``decided``: the query's unordered pairs that some axiom (or the tie-breaker) decided; a query of several answers
    where it is 0 keeps its input order, with an ``AbstentionWarning`` naming it. An axiom that decides no pair of a
    query casts no vote there (KwikSort's majority counts only the others' weight).
    """

    def __init__(
        self,
        axioms: Axioms,
        aggregation: str = "borda",
        weights: Sequence[float] | None = None,
        *,
        pivot: Pivot = "middle",
        seed: int | None = 0,
        tie_breaker: AxiomSpec | None = None,
        verbose: bool | None = None,
        analysis: Analysis | None = None,
        backend: Backend = "local",
        workers: int | None = None,
    ) -> None:
        """Rerank by one or several axioms.

        axioms: one or several; aggregation: borda | copeland | kwiksort | bradley_terry; ties: tie_breaker axiom, then
        original order; weights: one per axiom, sign included (bradley_terry: >= 0); pivot / seed: KwikSort's pivot,
        the random one drawn per query from the seed and the query's texts (not its qid); analysis / backend
        ("local" or "ray") / workers: where the analysis runs; verbose: a progress bar over the texts (None: when
        there are at least 500).
        """
        self.axioms = axioms
        self.analysis, self.backend, self.workers = analysis, backend, workers
        self.aggregation = aggregation
        self.weights = weights
        self.pivot = pivot
        self.seed = seed
        self.tie_breaker = tie_breaker
        self.verbose = verbose
        count = len(as_axioms(axioms))
        if aggregation not in AGGREGATIONS:
            raise ValueError(f"unknown aggregation {aggregation!r}; use one of {AGGREGATIONS}")
        if pivot not in PIVOTS:
            raise ValueError(f"unknown pivot {pivot!r}; use one of {PIVOTS}")
        if weights is not None and len(weights) != count:
            raise ValueError(f"got {len(weights)} weights for {count} axioms")
        if weights is not None:
            _check_weights(weights, aggregation)
        if seed is not None and (isinstance(seed, bool) or not isinstance(seed, (int, np.integer)) or seed < 0):
            raise ValueError(f"seed must be a whole number >= 0 or None, got {seed!r}")
        if tie_breaker is not None and len(as_axioms(tie_breaker)) != 1:
            raise ValueError("tie_breaker takes one axiom; chain several into one with a cascade, e.g. "
                             "tie_breaker=CORR1 | CONS2")

    schematic = {"label": "AxiomaticReranker", "help_url": None}

    def transform(self, inp: pd.DataFrame) -> pd.DataFrame:
        """The input rows with new ``score`` and ``rank`` (0 = best), sorted by qid and rank."""
        self._refuse_scorer_cache()
        inp = frames.answer_candidates(inp)
        text_column = frames.validate(inp, self)
        if inp.empty:
            out = inp.copy()
            out["score"] = pd.Series(dtype="float64")
            out["rank"] = pd.Series(dtype="int64")
            out[DECIDED_COLUMN] = pd.Series(dtype="int64")
            return out
        groups = frames.groups(inp, text_column)
        stacks = self._stacks(as_axioms(self.axioms), groups, self.verbose)
        breakers: list[np.ndarray | None] = [None] * len(groups)
        if self.tie_breaker is not None:
            breakers = [s[0] for s in self._stacks(as_axioms(self.tie_breaker), groups, self.verbose)]
        positions, scores, ranks, decided = [], [], [], []
        counts = [decided_pairs(stack, breaker) for stack, breaker in zip(stacks, breakers, strict=True)]
        _warn_abstained(self, groups, counts)
        _warn_silent_axioms(self, as_axioms(self.axioms), stacks, counts)
        for group, stack, breaker, count in zip(groups, stacks, breakers, counts, strict=True):
            order, own = scored_ranking(
                stack, self.aggregation, self.weights, breaker, self.pivot,
                _query_seed(self.seed, group),
            )
            positions.append(group.rows[order])
            ranks.append(np.arange(len(order)))
            scores.append(own[order])
            decided.append(np.full(len(order), count, dtype=np.int64))
        out = inp.iloc[np.concatenate(positions)].reset_index(drop=True)
        out["score"] = np.concatenate(scores)
        out["rank"] = np.concatenate(ranks)
        out[DECIDED_COLUMN] = np.concatenate(decided)
        return out


class AxiomaticPreferences(_AxiomTransformer):
    """One row per ordered pair of a query's responses with one preference column per axiom.

    Columns: qid, query, docno_a, docno_b, then the axioms (and with ``explain=True`` an ``X_explanation`` per axiom).
    """

    def __init__(self, axioms: Axioms, *, axiom_names: Sequence[str] | None = None, verbose: bool | None = None,
                 analysis: Analysis | None = None, backend: Backend = "local", workers: int | None = None,
                 explain: bool = False) -> None:
        """Pairwise preferences of one or several axioms.

        axioms: one, several or ``{name: axiom}``; column ``X`` holds P_X[a, b] (> 0: a preferred over b), named by the
        mapping's keys, ``axiom_names`` or the axioms' reprs; analysis / backend / workers as for the reranker;
        explain: also a column ``X_explanation`` with each pair's ``Explanation`` (the numbers behind P_X[a, b]).
        """
        self.axioms = axioms
        self.axiom_names = axiom_names
        self.explain = explain
        self.verbose = verbose
        self.analysis, self.backend, self.workers = analysis, backend, workers
        frames.check_pair_columns(list(named_axioms(axioms, axiom_names)), explain)

    schematic = {"label": "AxiomPreferences", "help_url": None}

    def transform(self, inp: pd.DataFrame) -> pd.DataFrame:
        """One row per ordered pair: n (n - 1) rows per query with n responses, in original order of a, then of b."""
        inp = frames.answer_candidates(inp)
        text_column = frames.validate(inp, self)
        named = named_axioms(self.axioms, self.axiom_names)
        groups = frames.groups(inp, text_column)
        stacks = self._stacks(list(named.values()), groups, self.verbose) if groups else []
        keys = [(inp["qid"].iloc[g.rows[0]], inp["query"].iloc[g.rows[0]]) for g in groups]
        return frames.pair_table(named, [(g.request, g.responses) for g in groups], stacks, explain=self.explain,
                                 analysis=self.analysis, keys=keys)


class AxiomFeatures(_AxiomTransformer):
    """Append one feature per axiom to ``features``: normalised net wins f_i = sum_j P[i, j] / (n - 1), in [-1, 1]."""

    def __init__(self, axioms: Axioms, *, axiom_names: Sequence[str] | None = None, verbose: bool | None = None,
                 analysis: Analysis | None = None, backend: Backend = "local", workers: int | None = None) -> None:
        """Features from one or several axioms.

        axioms: one, several or ``{name: axiom}``; an existing ``features`` column is extended, otherwise created;
        ``feature_names`` lists the names (mapping keys, ``axiom_names`` or reprs); analysis / backend / workers as
        for the reranker.
        """
        self.axioms = axioms
        self.axiom_names = axiom_names
        named_axioms(axioms, axiom_names)
        self.verbose = verbose
        self.analysis, self.backend, self.workers = analysis, backend, workers
        as_axioms(axioms)

    schematic = {"label": "AxiomFeatures", "help_url": None}

    @property
    def feature_names(self) -> list[str]:
        """The names of the features this transformer appends, in order."""
        return list(named_axioms(self.axioms, self.axiom_names))

    def transform(self, inp: pd.DataFrame) -> pd.DataFrame:
        """The input rows in input order with a ``features`` vector (existing features first)."""
        self._refuse_scorer_cache()
        inp = frames.answer_candidates(inp)
        text_column = frames.validate(inp, self)
        axioms = list(named_axioms(self.axioms, self.axiom_names).values())
        out = inp.copy()
        if inp.empty:
            out["features"] = pd.Series(dtype=object)
            return out
        groups = frames.groups(inp, text_column)
        stacks = self._stacks(axioms, groups, self.verbose)
        values = np.zeros((len(inp), len(axioms)))
        for group, stack in zip(groups, stacks, strict=True):
            n = len(group.responses)
            values[group.rows] = (stack.sum(axis=2) / max(n - 1, 1)).T
        if "features" in inp.columns:
            old = [np.asarray(f, dtype=np.float64).ravel() for f in inp["features"]]
            features = [np.concatenate((o, v)) for o, v in zip(old, values, strict=True)]
        else:
            features = list(values)
        out["features"] = pd.Series(features, index=out.index, dtype=object)  # one vector per row
        return out


class BestOfN(AxiomaticReranker):
    """The best of each query's answers by aggregated axiom preferences: one row per query (rank 0).

    ``Concatenator() >> reader_of_k_samples >> BestOfN([COV1, CONS2])``: the k answers of a query (rows without
    docno get ``frames.SAMPLE_DOCNO``, ``qid/k`` by position) are reranked as by ``AxiomaticReranker`` (the same
    arguments), and the top one is kept with its docno, score, rank 0 and ``decided``; the same as
    ``AxiomaticReranker(...) % 1``. pyterrier-rag's measures read its ``qanswer``.
    """

    schematic = {"label": "BestOfN", "help_url": None}

    def transform(self, inp: pd.DataFrame) -> pd.DataFrame:
        """The top-ranked answer of each query, queries in the reranker's order (by qid)."""
        out = super().transform(inp)
        return out[out["rank"] == 0].reset_index(drop=True)
