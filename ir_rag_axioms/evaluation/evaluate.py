"""Decisiveness, consistency and effectiveness of axioms against an oracle (ICTIR 2025).

Also bootstrap CIs, vote sweep, agreement.

For preference matrices P (axiom) and O (oracle), normalised to their signs, over the off-diagonal pairs:
decisiveness = #{P != 0} / #pairs; consistency = #{P != 0 and |P - O| <= 1} / #{P != 0} (relaxed: an oracle
tie contradicts nothing); strict consistency = #{P != 0 and P = O} / #{P != 0}; effectiveness = harmonic mean of
decisiveness and (relaxed) consistency. Sums run over all topics (micro average), as in the reference walkthrough.
"""

from __future__ import annotations

import os
import warnings
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from ir_rag_axioms import pair_counts
from ir_rag_axioms.axioms.execution import compute_preferences
from ir_rag_axioms.pair_counts import (
    MEASURES,
    Matrices,
    _as_list,
    _counts,
    harmonic_mean,  # noqa: F401  (evaluation.harmonic_mean, evaluation.evaluate.harmonic_mean)
    topic_counts,
)


def _measures(sums: np.ndarray) -> np.ndarray:
    """The four measures (rows) of count sums (..., 4): ``pair_counts._measures``, all NaN where there is no pair.

    Without a pair (no topic, or topics of one response) decisiveness is 0/0, undefined as consistency is, and so is
    effectiveness, their harmonic mean: NaN, never 0 (0 is an axiom that abstains on every pair it is given).
    """
    out = pair_counts._measures(sums)
    pairs = np.asarray(sums, dtype=np.float64)[..., 0]
    return np.where(pairs > 0, out, np.nan)


def scores_from_counts(counts: np.ndarray) -> dict[str, float]:
    """The four measures from summed topic counts.

    Consistency (relaxed and strict) is NaN when the axiom decides no pair (0/0: undefined, not 0), and
    effectiveness is then 0 (decisiveness 0); without any pair, all four are NaN (decisiveness 0/0 too).
    """
    sums = np.asarray(counts, dtype=np.float64).reshape(-1, 4).sum(axis=0)
    return {name: float(value) for name, value in zip(MEASURES, _measures(sums), strict=True)}


def decisiveness(preferences: Matrices) -> float:
    """#{P[i, j] != 0, i != j} / #{i != j}."""
    abstaining = [np.zeros_like(p) for p in _as_list(preferences)]
    return scores_from_counts(topic_counts(preferences, abstaining))["decisiveness"]


def consistency(preferences: Matrices, oracle: Matrices, strict: bool = False) -> float:
    """#{P != 0 and |sign P - sign O| <= 1} / #{P != 0} (strict: sign P = sign O), off-diagonal."""
    return scores_from_counts(topic_counts(preferences, oracle))["consistency_strict" if strict else "consistency"]


def effectiveness(preferences: Matrices, oracle: Matrices) -> float:
    """Harmonic mean of decisiveness and relaxed consistency."""
    return scores_from_counts(topic_counts(preferences, oracle))["effectiveness"]


def evaluate_preferences(preferences: Matrices, oracle: Matrices) -> dict[str, float]:
    """Decisiveness, consistency, strict consistency and effectiveness of one axiom's matrices against the oracle's."""
    return scores_from_counts(topic_counts(preferences, oracle))


def bootstrap(
    preferences: Matrices, oracle: Matrices, samples: int = 1000, confidence: float = 0.95, seed: int = 0
) -> dict[str, tuple[float, float]]:
    """Percentile confidence intervals of the four measures, resampling topics with replacement.

    Seeded, deterministic; consistency over the samples where the axiom decides.
    """
    counts = topic_counts(preferences, oracle)
    return _bootstrap_counts(counts, check_samples(samples), confidence, check_seed(seed))


MAX_BOOTSTRAP_SAMPLES = 100_000
"""The most bootstrap samples ``evaluation_table`` and the CLI accept (memory grows with samples x topics)."""


def check_samples(samples: object) -> int:
    """``samples`` as a whole number in [0, MAX_BOOTSTRAP_SAMPLES]; ValueError/TypeError saying so otherwise."""
    if isinstance(samples, bool) or not isinstance(samples, (int, np.integer)):
        raise TypeError(f"bootstrap samples must be a whole number, got {type(samples).__name__} {samples!r}")
    if not 0 <= samples <= MAX_BOOTSTRAP_SAMPLES:
        raise ValueError(f"bootstrap samples must be between 0 (none) and {MAX_BOOTSTRAP_SAMPLES:,}, got {samples}")
    return int(samples)


def check_seed(seed: object) -> int:
    """``seed`` as a whole number >= 0 (what numpy's generators take); ValueError/TypeError naming it otherwise."""
    if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)):
        raise TypeError(f"seed must be a whole number, got {type(seed).__name__} {seed!r}")
    if seed < 0:
        raise ValueError(f"seed must be at least 0, got {seed}")
    return int(seed)


def _bootstrap_counts(counts: np.ndarray, samples: int, confidence: float, seed: int) -> dict[str, tuple[float, float]]:
    """Percentile intervals by ``scipy.stats.bootstrap`` over topics.

    NaN samples (no decision) are left out of the quantiles.
    """
    from scipy import stats

    if not 0 < confidence < 1:
        raise ValueError(f"confidence must be in (0, 1), got {confidence}")
    if len(counts) < 2:  # one topic: every resample is that topic
        distribution = np.repeat(_measures(counts.sum(axis=0))[:, None], samples, axis=1)
    else:
        with warnings.catch_warnings():  # NaN samples make scipy's own interval NaN; ours leaves them out
            warnings.simplefilter("ignore", stats.DegenerateDataWarning)
            distribution = stats.bootstrap(
                (np.arange(len(counts)),), lambda topics, axis=-1: _measures(counts[topics].sum(axis=-2)),
                n_resamples=samples, vectorized=True, method="percentile", confidence_level=confidence,
                rng=np.random.default_rng(seed),
            ).bootstrap_distribution
    alpha = (1 - confidence) / 2
    return {name: _interval(values, alpha) for name, values in zip(MEASURES, distribution, strict=True)}


def _interval(values: np.ndarray, alpha: float) -> tuple[float, float]:
    values = values[~np.isnan(values)]
    if not values.size:
        return (np.nan, np.nan)
    return (float(np.quantile(values, alpha)), float(np.quantile(values, 1 - alpha)))


class UndecidedAxiomWarning(UserWarning):
    """An axiom decided no pair of the evaluation: its consistency is NaN (0/0), not 0."""


def _table(counts: Mapping[str, np.ndarray], samples: int, confidence: float, seed: int, sort: bool) -> pd.DataFrame:
    """One row per name from its topic counts.

    Measures (+ intervals if ``samples`` > 0), by effectiveness descending if ``sort``.
    """
    check_samples(samples)
    check_seed(seed)
    sums = {name: np.asarray(topic_rows).reshape(-1, 4).sum(axis=0) for name, topic_rows in counts.items()}
    if any(total[0] == 0 for total in sums.values()):
        warnings.warn("no pair to evaluate (no topic, or topics of a single response): decisiveness, consistency "
                      "and effectiveness are undefined (NaN). Give each topic at least two responses",
                      UndecidedAxiomWarning, stacklevel=3)
    silent = [name for name, total in sums.items() if total[0] > 0 and total[1] == 0]
    if silent:
        warnings.warn(f"{', '.join(silent)} decided no pair: consistency is undefined (NaN), effectiveness 0. An "
                      "axiom abstains where its condition never holds: one that reads the context (CONS1, CONS2, "
                      "...) on answers without one (e.g. the nugget answers), QPHRA without quoted phrases in the "
                      "query, LNC2 without k-fold concatenations, LB2 without its equal-idf instance",
                      UndecidedAxiomWarning, stacklevel=3)
    rows = []
    for name, topic_rows in counts.items():
        row: dict[str, Any] = {"axiom": name, **scores_from_counts(topic_rows)}
        if samples > 0:
            for measure, (low, high) in _bootstrap_counts(topic_rows, samples, confidence, seed).items():
                row[f"{measure}_low"], row[f"{measure}_high"] = low, high
        rows.append(row)
    table = pd.DataFrame(rows, columns=None if rows else ["axiom", *MEASURES])
    if sort and rows:
        table = table.sort_values(["effectiveness", "axiom"], ascending=[False, True], kind="stable")
    return table.reset_index(drop=True)


def evaluation_table(
    axiom_preferences: Mapping[str, Matrices], oracle: Matrices, samples: int = 0, confidence: float = 0.95,
    seed: int = 0, sort: bool = True,
) -> pd.DataFrame:
    """One row per axiom, by effectiveness descending.

    Columns: ``axiom`` + MEASURES (+ ``<measure>_low/_high`` if ``samples`` > 0).
    """
    counts = {name: topic_counts(preferences, oracle) for name, preferences in axiom_preferences.items()}
    return _table(counts, samples, confidence, seed, sort)


# -- majority votes and agreement ----------------------------------------------------------------------
def majority_vote_preferences(
    axiom_preferences: Mapping[str, Matrices] | Sequence[Matrices], minimum_votes: float,
) -> list[np.ndarray]:
    """Per topic, ``aggregation.majority_vote`` of the axioms' sign matrices.

    i > j if more axioms prefer i and at least minimum_votes * #axioms do.
    """
    from ir_rag_axioms.aggregation import majority_vote

    stacks = list(axiom_preferences.values()) if isinstance(axiom_preferences, Mapping) else list(axiom_preferences)
    if not stacks:
        raise ValueError("a majority vote needs at least one axiom")
    per_axiom = [_as_list(p) for p in stacks]
    topics = len(per_axiom[0])
    if any(len(p) != topics for p in per_axiom):
        raise ValueError("all axioms need matrices for the same topics")
    return [majority_vote(np.sign(np.nan_to_num(np.stack([p[t] for p in per_axiom]))), minimum_votes=minimum_votes)
            for t in range(topics)]


def vote_sweep(
    axiom_preferences: Mapping[str, Matrices], oracle: Matrices,
    minimum_votes: Iterable[float] = tuple(np.round(np.arange(0.0, 0.51, 0.05), 2)),
) -> pd.DataFrame:
    """For each minimum vote share: the vote's measures.

    judgments_saved = decisiveness (pairs the vote decides), correct = strict consistency (NaN if it decides nothing).
    """
    rows = []
    for m in minimum_votes:
        scores = evaluate_preferences(majority_vote_preferences(axiom_preferences, float(m)), oracle)
        rows.append({"minimum_votes": float(m), **scores, "judgments_saved": scores["decisiveness"],
                     "correct": scores["consistency_strict"] if scores["decisiveness"] > 0 else float("nan")})
    return pd.DataFrame(rows)


def agreement(axiom_preferences: Mapping[str, Matrices], decided_only: bool = True) -> pd.DataFrame:
    """Agreement of axioms a and b: the share of pairs with equal signs; NaN if none.

    A[a, b] = #{sign P_a = sign P_b} / #pairs over off-diagonal pairs where both decide (``decided_only``) or over all.
    """
    names = list(axiom_preferences)
    flat = []
    for name in names:
        parts = [np.sign(np.nan_to_num(m[~np.eye(m.shape[0], dtype=bool)])) for m in _as_list(axiom_preferences[name])]
        flat.append(np.concatenate(parts) if parts else np.zeros(0))
    out = np.full((len(names), len(names)), np.nan)
    for a in range(len(names)):
        for b in range(len(names)):
            if flat[a].shape != flat[b].shape:
                raise ValueError(f"{names[a]} and {names[b]} cover different pairs")
            mask = (flat[a] != 0) & (flat[b] != 0) if decided_only else np.ones(flat[a].shape, dtype=bool)
            if mask.any():
                out[a, b] = float((flat[a][mask] == flat[b][mask]).mean())
    return pd.DataFrame(out, index=names, columns=names)


# -- axioms and frames ---------------------------------------------------------------------------------
def cache_file(cache_dir: str | os.PathLike, axiom: Any, items: Sequence) -> Path:
    """Deprecated: the ``.npz`` file the matrix cache used to write (cache_dir/<matrices_key>.npz); nothing reads it.

    ``cache_dir`` now holds the one matrix cache (``analysis.matrices.MatrixCache``: the store of the directory, one
    entry per axiom and item under ``axiom_identity`` and ``item_key``), which ``axiom.cached(path)`` uses too.
    """
    from ir_rag_axioms.analysis.cache import matrices_key

    warnings.warn("evaluation.cache_file is deprecated: cache_dir holds the matrix cache of analysis.matrices "
                  "(MatrixCache), no .npz files", DeprecationWarning, stacklevel=2)
    return Path(cache_dir) / f"{matrices_key(axiom, items)}.npz"


def evaluate_axioms(
    axioms: Any, items: Sequence, oracle: Any, progress: bool = False, samples: int = 0, seed: int = 0,
    cache_dir: str | os.PathLike | None = None, *, axiom_names: Sequence[str] | None = None, **execution: Any,
) -> pd.DataFrame:
    """The evaluation table of axioms on (request, responses) items against an oracle axiom (or its matrices).

    ``axioms``: ``{name: axiom}``, or one or a list of axioms named by ``axiom_names`` or their reprs (as the
    transformers' columns). See ``compute_preferences`` for ``cache_dir`` and the execution options.
    """
    from ir_rag_axioms.axioms.naming import named_axioms

    named = named_axioms(axioms, axiom_names)
    oracle_matrices = oracle if isinstance(oracle, (list, np.ndarray)) else oracle.preferences_batch(items)
    preferences = compute_preferences(named, items, progress, cache_dir, **execution)
    return evaluation_table(preferences, oracle_matrices, samples=samples, seed=seed)


def frame_matrices(frame: pd.DataFrame, column: str) -> tuple[list[str], list[np.ndarray]]:
    """Topics and their matrices from a pairwise frame (qid, docno_a, docno_b, column).

    E.g. ``AxiomaticPreferences`` output.
    """
    missing = [c for c in ("qid", "docno_a", "docno_b", column) if c not in frame.columns]
    if missing:
        raise ValueError(f"the preferences frame lacks the column(s) {missing}")
    topics, matrices = [], []
    for qid, group in frame.groupby("qid", sort=False):
        docnos = list(dict.fromkeys([*group["docno_a"].astype(str), *group["docno_b"].astype(str)]))
        position = {d: k for k, d in enumerate(docnos)}
        m = np.zeros((len(docnos), len(docnos)))
        m[[position[d] for d in group["docno_a"].astype(str)], [position[d] for d in group["docno_b"].astype(str)]] = (
            pd.to_numeric(group[column], errors="coerce").fillna(0.0).to_numpy())
        np.fill_diagonal(m, 0.0)
        topics.append(str(qid))
        matrices.append(m)
    return topics, matrices


def evaluate_frame(
    preferences: pd.DataFrame, oracle: str, axioms: Sequence[str] | None = None, samples: int = 0, seed: int = 0,
) -> pd.DataFrame:
    """The evaluation table from one pairwise frame: each axiom column against the ``oracle`` column.

    Pairs absent from the frame are ignored.
    """
    columns = list(axioms) if axioms is not None else [
        c for c in preferences.columns if c not in ("qid", "query", "docno_a", "docno_b", oracle)]
    _, truth = frame_matrices(preferences, oracle)
    # absent pairs are 0 in both the axiom and oracle matrices: restrict the counts to the present ones
    _, present = frame_matrices(preferences[["qid", "docno_a", "docno_b"]].assign(_one=1.0), "_one")
    counts = {}
    for column in columns:
        _, matrices = frame_matrices(preferences, column)
        counts[column] = np.array(
            [_counts(p, o, k != 0) for p, o, k in zip(matrices, truth, present, strict=True)], dtype=np.int64
        )
    return _table(counts, samples, 0.95, seed, sort=True)
