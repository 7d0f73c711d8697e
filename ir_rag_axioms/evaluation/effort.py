"""Human judgment effort saved by an automatic judge, and its agreement with the human gold (Krippendorff's alpha).

The ICTIR 2025 set-up: an automatic judge (a vote of axioms, a learned combination, a coin) decides the human
judgments where it is most confident, humans judge the rest (and are correct by definition: their gold is the
truth). Over the N judged pairs, with the judge deciding the k where its confidence is highest (ties in confidence
broken at random, in expectation), of which w disagree with the gold:

    human share = 1 - k / N,    correct share = 1 - w / N.

The correct share falls with k; ``saved_at(curve, 0.9)`` is the largest k / N whose correct share is at least
0.9. A coin decides every pair with expected accuracy 1/2, so it saves 2 (1 - 0.9) = 0.2 at 90 % correct.

Krippendorff's alpha (``krippendorff_alpha``) is 1 - D_o / D_e over a coincidence matrix (Krippendorff 2011,
"Computing Krippendorff's Alpha-Reliability"), for nominal, ordinal or interval values with missing entries (NaN).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import numpy.typing as npt
import pandas as pd

from ir_rag_axioms.model import GenerationRequest, GenerationResponse

LEVELS = ("nominal", "ordinal", "interval")
"""The levels of measurement ``krippendorff_alpha`` takes."""


# -- judgments ------------------------------------------------------------------------------------------------
def gold_judgments(ratings: pd.DataFrame, items: Sequence[tuple[GenerationRequest, Sequence[GenerationResponse]]],
                   dimension: str = "quality_overall") -> pd.DataFrame:
    """One row per human judgment of a pair of the items: ``topic`` (index), ``i``, ``j`` (positions), ``gold``.

    ``gold`` = +1 where the crowd's ``<dimension>_gold`` is "a" (response_a better), -1 where it is "b", 0 for a tie
    ("n"); the ratings' ``query_id``, ``response_a``, ``response_b`` name the items' request and response ids.
    ValueError naming a judgment whose topic or response is not among the items, or a gold label not a/b/n.
    """
    column = f"{dimension}_gold"
    missing = [c for c in ("query_id", "response_a", "response_b", column) if c not in ratings.columns]
    if missing:
        raise ValueError(f"the ratings lack the column(s) {missing}")
    where = {str(request.id): (t, {str(r.id): k for k, r in enumerate(responses)})
             for t, (request, responses) in enumerate(items)}
    labels = {"a": 1.0, "b": -1.0, "n": 0.0}
    rows = []
    for number, (topic, a, b, gold) in enumerate(zip(ratings["query_id"].astype(str), ratings["response_a"].astype(str),
                                                     ratings["response_b"].astype(str), ratings[column], strict=True)):
        if topic not in where:
            raise ValueError(f"judgment {number}: topic {topic!r} is not among the items")
        t, index = where[topic]
        if a not in index or b not in index:
            raise ValueError(f"judgment {number}: response {a if a not in index else b!r} is not among topic "
                             f"{topic!r}'s responses")
        label = str(gold).strip().lower()
        if label not in labels:
            raise ValueError(f"judgment {number}: {column} must be a, b or n, got {gold!r}")
        rows.append((t, index[a], index[b], labels[label]))
    return pd.DataFrame(rows, columns=["topic", "i", "j", "gold"])


def on_judgments(judgments: pd.DataFrame, matrices: Sequence[np.ndarray]) -> np.ndarray:
    """Each judgment's entry M_t[i, j] of its topic's matrix (a judge's decision or confidence on that pair)."""
    return np.array([float(np.nan_to_num(matrices[t][i, j])) for t, i, j in
                     zip(judgments["topic"], judgments["i"], judgments["j"], strict=True)])


def oracle_pairs(decisions: Sequence[np.ndarray], confidence: Sequence[np.ndarray],
                 oracle: Sequence[np.ndarray]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(decisions, confidence, gold) over the unordered pairs i < j the oracle decides, topic by topic.

    The unit where no per-judgment gold exists: the oracle's preference of each pair is its truth.
    """
    if not len(decisions) == len(confidence) == len(oracle):
        raise ValueError(f"{len(decisions)} decision, {len(confidence)} confidence and {len(oracle)} oracle "
                         "matrices differ in number")
    parts: list[tuple[np.ndarray, np.ndarray, np.ndarray]] = []
    for d, c, o in zip(decisions, confidence, oracle, strict=True):
        upper = np.triu_indices(len(o), 1)
        truth = np.sign(np.nan_to_num(np.asarray(o, dtype=np.float64)[upper]))
        keep = truth != 0
        parts.append((np.asarray(d, dtype=np.float64)[upper][keep], np.asarray(c, dtype=np.float64)[upper][keep],
                      truth[keep]))
    if not parts:
        return np.zeros(0), np.zeros(0), np.zeros(0)
    return tuple(np.concatenate([p[k] for p in parts]) for k in range(3))  # type: ignore[return-value]


def vote(stack: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(decision, confidence) of a vote of K axioms' (K, n, n) preference stack.

    decision = sign(#for - #against); confidence = max(#for, #against) / K where they differ, 0 where they tie
    (the pairs a vote with minimum share m decides are those with confidence >= m, as ``majority_vote``).
    """
    signs = np.sign(np.nan_to_num(np.asarray(stack, dtype=np.float64)))
    if signs.ndim != 3 or signs.shape[1] != signs.shape[2] or not len(signs):
        raise ValueError(f"a vote needs a (K, n, n) stack of K >= 1 preference matrices, got shape {signs.shape}")
    pro, contra = (signs > 0).sum(axis=0), (signs < 0).sum(axis=0)
    decision = np.sign(pro - contra).astype(np.float64)
    return decision, np.where(pro != contra, np.maximum(pro, contra) / len(signs), 0.0)


# -- the curve ------------------------------------------------------------------------------------------------
def effort_curve(decisions: npt.ArrayLike, confidence: npt.ArrayLike, gold: npt.ArrayLike) -> pd.DataFrame:
    """The judge decides its most confident judgments first: one row per confidence level, from the top.

    Columns: ``confidence`` (the level: the judge decides what is at least this confident), ``automatic`` (k / N),
    ``human`` (1 - k / N), ``correct`` (1 - w / N), ``judge_correct`` (1 - w / k, NaN at k = 0); the first row is
    the start (no automatic decision). A pair the judge does not decide (decision 0) stays with the humans.
    """
    d, c, g = (np.asarray(v, dtype=np.float64).reshape(-1) for v in (decisions, confidence, gold))
    if not len(d) == len(c) == len(g):
        raise ValueError(f"decisions ({len(d)}), confidence ({len(c)}) and gold ({len(g)}) differ in length")
    if not len(g):
        raise ValueError("an effort curve needs at least one judgment")
    if np.isnan(c).any() or (c < 0).any():
        raise ValueError("confidence must be a number >= 0 for every judgment")
    if np.isnan(g).any():
        raise ValueError(f"gold is NaN for {int(np.isnan(g).sum())} judgment(s) (e.g. position "
                         f"{int(np.flatnonzero(np.isnan(g))[0])}): leave unjudged pairs out, a decision on them "
                         "would count as wrong")
    decided = np.sign(np.nan_to_num(d)) != 0
    wrong = decided & (np.sign(np.nan_to_num(d)) != np.sign(g))
    levels = np.unique(c[decided])[::-1]
    n = float(len(g))
    k = np.array([0.0, *((decided & (c >= level)).sum() for level in levels)])
    w = np.array([0.0, *((wrong & (c >= level)).sum() for level in levels)])
    with np.errstate(invalid="ignore", divide="ignore"):
        judge = np.where(k > 0, 1 - w / np.maximum(k, 1), np.nan)
    return pd.DataFrame({"confidence": [np.inf, *levels], "automatic": k / n, "human": 1 - k / n,
                         "correct": 1 - w / n, "judge_correct": judge})


def coin_curve(accuracy: float = 0.5) -> pd.DataFrame:
    """The curve of a judge that decides every pair at one confidence with expected ``accuracy`` (a coin: 1/2)."""
    if not 0 <= accuracy <= 1:
        raise ValueError(f"accuracy must be in [0, 1], got {accuracy!r}")
    return pd.DataFrame({"confidence": [np.inf, 0.0], "automatic": [0.0, 1.0], "human": [1.0, 0.0],
                         "correct": [1.0, accuracy], "judge_correct": [np.nan, accuracy]})


def saved_at(curve: pd.DataFrame, correct: float = 0.9) -> float:
    """The largest automatic share whose correct share is at least ``correct``, linear within a confidence level.

    Within a level the judge's pairs come in random order, so the expected correct share falls linearly between
    two rows; the automatic share never exceeds the last row's (the pairs the judge decides at all).
    """
    if not 0 <= correct <= 1:
        raise ValueError(f"correct must be in [0, 1], got {correct!r}")
    a, r = curve["automatic"].to_numpy(float), curve["correct"].to_numpy(float)
    best = 0.0
    for k in range(1, len(a)):
        if r[k] >= correct:
            best = a[k]
            continue
        if r[k - 1] >= correct:  # crossed within this level
            best = a[k - 1] + (a[k] - a[k - 1]) * (r[k - 1] - correct) / (r[k - 1] - r[k])
        break
    return float(best)


# -- Krippendorff's alpha -------------------------------------------------------------------------------------
def _coincidences(data: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The values and their coincidence matrix o[c, k] over units with at least two values (Krippendorff 2011)."""
    values = np.unique(data[~np.isnan(data)])
    index = {v: k for k, v in enumerate(values)}
    o = np.zeros((len(values), len(values)))
    for unit in data.T:
        present = unit[~np.isnan(unit)]
        if len(present) < 2:
            continue
        counts = np.zeros(len(values))
        for v in present:
            counts[index[v]] += 1
        o += (np.outer(counts, counts) - np.diag(counts)) / (len(present) - 1)
    return values, o


def _distances(values: np.ndarray, totals: np.ndarray, level: str) -> np.ndarray:
    """delta^2[c, k]: nominal 1 if c != k; interval (c - k)^2; ordinal (sum of n_g from c to k - (n_c + n_k) / 2)^2."""
    if level == "nominal":
        return 1.0 - np.eye(len(values))
    if level == "interval":
        return np.subtract.outer(values, values) ** 2
    cumulative = np.concatenate([[0.0], np.cumsum(totals)])
    low, high = np.minimum.outer(np.arange(len(values)), np.arange(len(values))), np.maximum.outer(
        np.arange(len(values)), np.arange(len(values)))
    between = cumulative[high + 1] - cumulative[low]
    return (between - (totals[low] + totals[high]) / 2) ** 2


def krippendorff_alpha(data: npt.ArrayLike, level: str = "nominal") -> float:
    """Krippendorff's alpha of a (coders, units) array (NaN: missing) = 1 - D_o / D_e.

    D_o = sum o[c, k] delta^2[c, k] / n, D_e = sum n_c n_k delta^2[c, k] / (n (n - 1)), n the pairable values.
    NaN where nothing varies (D_e = 0) or fewer than two values are pairable; ValueError for an unknown level.
    """
    if level not in LEVELS:
        raise ValueError(f"unknown level {level!r}; choose one of {', '.join(LEVELS)}")
    array = np.asarray(data, dtype=np.float64)
    if array.ndim != 2:
        raise ValueError(f"expected a (coders, units) array, got shape {array.shape}")
    values, o = _coincidences(array)
    totals = o.sum(axis=1)
    n = totals.sum()
    if n < 2:
        return float("nan")
    delta = _distances(values, totals, level)
    expected = (np.outer(totals, totals) * delta).sum() / (n * (n - 1))
    if expected == 0:
        return float("nan")
    return float(1 - (o * delta).sum() / n / expected)


def agreement_with_gold(decisions: npt.ArrayLike, gold: npt.ArrayLike, level: str = "nominal") -> float:
    """Krippendorff's alpha of a judge's decisions (+1, 0 = no preference, -1) against the gold's, unit = judgment."""
    d, g = np.sign(np.nan_to_num(np.asarray(decisions, dtype=np.float64))), np.asarray(gold, dtype=np.float64)
    if d.shape != g.shape:
        raise ValueError(f"decisions {d.shape} and gold {g.shape} differ in shape")
    return krippendorff_alpha(np.stack([d, np.sign(g)]), level)


__all__ = ["LEVELS", "agreement_with_gold", "coin_curve", "effort_curve", "gold_judgments", "krippendorff_alpha",
           "on_judgments", "oracle_pairs", "saved_at", "vote"]
