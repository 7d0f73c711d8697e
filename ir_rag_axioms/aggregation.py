"""Turn preference matrices into rankings: majority vote, Borda, Copeland, KwikSort and Bradley-Terry.

Numpy in, numpy out.

Conventions: a preference matrix ``P`` is (n, n) with ``P[i, j] > 0`` when item i is preferred over
item j; a stack is (k, n, n), one matrix per axiom. Item order (index 0 first) is the *original order*:
every tie that a rule cannot decide is broken by it. A ranking is an index array, best item first.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal

import numpy as np

Pivot = Literal["random", "middle", "rank", "wins"]
PIVOTS: tuple[str, ...] = ("random", "middle", "rank", "wins")
"""KwikSort pivot strategies: seeded random item, middle item, best original rank, most net wins."""


def _square(prefs: np.ndarray, what: str = "prefs") -> np.ndarray:
    p = np.asarray(prefs, dtype=np.float64)
    if p.ndim != 2 or p.shape[0] != p.shape[1]:
        raise ValueError(f"{what} must be a square (n, n) matrix, got shape {p.shape}")
    return np.nan_to_num(p, nan=0.0)


def _stack(prefs: np.ndarray, weights: Sequence[float] | np.ndarray | None) -> tuple[np.ndarray, np.ndarray]:
    """The (k, n, n) stack (NaN as 0) and k finite weights whose weighted sums cannot overflow."""
    s = np.asarray(prefs, dtype=np.float64)
    if s.ndim == 2:
        s = s[None]
    if s.ndim != 3 or s.shape[1] != s.shape[2]:
        raise ValueError(f"expected an (n, n) matrix or a (k, n, n) stack, got shape {s.shape}")
    w = np.ones(s.shape[0]) if weights is None else np.asarray(weights, dtype=np.float64)
    if w.shape != (s.shape[0],):
        raise ValueError(f"need one weight per matrix ({s.shape[0]}), got {w.shape[0] if w.ndim else w}")
    if not np.all(np.isfinite(w)):
        raise ValueError("weights must be finite")
    _refuse_overflow(s.shape[1], w)
    return np.nan_to_num(s, nan=0.0), w


def _refuse_overflow(n: int, w: np.ndarray) -> None:
    """Raise ValueError when the weights' sums overflow: 2 n sum_k |w_k| must be finite.

    Preferences are in [-1, 1], so that bounds every sum the aggregations form (Borda's row sums, the votes,
    Bradley-Terry's games): no aggregation silently turns huge finite weights into inf and a scrambled ranking.
    """
    with np.errstate(over="ignore"):
        bound = 2.0 * n * float(np.abs(w).sum())
    if not np.isfinite(bound):
        raise ValueError(f"weights {w.tolist()!r} are too large for these {n} items: their weighted sums overflow "
                         "float64 (2 n sum_k |w_k| must be finite); scale the weights down")


def _signed(s: np.ndarray, w: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Negative weights as positive weights on flipped matrices: w P = |w| (sign(w) P), so a vote honours the sign."""
    return s * np.where(w < 0, -1.0, 1.0)[:, None, None], np.abs(w)


def combine(prefs: np.ndarray, weights: Sequence[float] | np.ndarray | None = None) -> np.ndarray:
    """Weighted sum of a (k, n, n) stack: C = sum_k w_k P_k (an (n, n) matrix is returned unchanged)."""
    s, w = _stack(prefs, weights)
    return np.tensordot(w, s, axes=1)


def majority_vote(
    prefs: np.ndarray, weights: Sequence[float] | np.ndarray | None = None, minimum_votes: float = 0.5
) -> np.ndarray:
    """Weighted majority vote of a stack into one sign matrix M.

    M[i, j] = 1 if the weight voting i > j exceeds that voting j > i and is >= minimum_votes * total weight; -1
    mirrored; else 0. A negative weight -w votes with weight w for the opposite of its matrix (as -w P = w (-P)).
    """
    s, w = _signed(*_stack(prefs, weights))
    if not 0.0 <= minimum_votes <= 1.0:
        raise ValueError(f"minimum_votes must be a fraction in [0, 1], got {minimum_votes!r}")
    pro = np.tensordot(w, (s > 0).astype(np.float64), axes=1)
    con = np.tensordot(w, (s < 0).astype(np.float64), axes=1)
    need = minimum_votes * float(np.abs(w).sum()) * (1 - 1e-12)  # "at least": 0.3 * 10 must accept 3 votes
    out = np.where((pro > con) & (pro >= need), 1.0, 0.0) - np.where((con > pro) & (con >= need), 1.0, 0.0)
    np.fill_diagonal(out, 0.0)
    return out


def borda(prefs: np.ndarray, weights: Sequence[float] | np.ndarray | None = None) -> np.ndarray:
    """Borda count as net wins: s_i = sum_k w_k sum_j P_k[i, j] (for {-1, 0, 1} matrices: wins minus losses)."""
    return combine(prefs, weights).sum(axis=1)


def copeland(prefs: np.ndarray, weights: Sequence[float] | np.ndarray | None = None) -> np.ndarray:
    """Copeland score: s_i = sum_j sign(C[i, j]) with C the weighted sum (pairwise majority wins minus losses)."""
    return np.sign(combine(prefs, weights)).sum(axis=1)


def bradley_terry(
    prefs: np.ndarray,
    weights: Sequence[float] | np.ndarray | None = None,
    prior: float = 0.1,
    max_iter: int = 1000,
    tol: float = 1e-9,
) -> np.ndarray:
    """Bradley-Terry log-strengths (mean 0) by MM iterations.

    p_i <- W_i / sum_j N_ij / (p_i + p_j), W[i, j] = sum_k w_k [P_k[i, j] > 0] + prior.
    """
    s, w = _stack(prefs, weights)
    n = s.shape[1]
    if n < 2:
        return np.zeros(n)
    if not (isinstance(prior, (int, float)) and np.isfinite(prior) and prior > 0):
        raise ValueError(f"prior must be a finite number > 0 (it keeps the estimate finite when an item never loses), "
                         f"got {prior!r}")
    if np.any(w < 0):
        raise ValueError("bradley_terry needs non-negative weights (wins are counted, not netted)")
    wins = np.tensordot(w, (s > 0).astype(np.float64), axes=1) + prior
    np.fill_diagonal(wins, 0.0)
    games = wins + wins.T
    total_wins = wins.sum(axis=1)
    p = np.ones(n)
    for _ in range(max_iter):
        denom = (games / (p[:, None] + p[None, :])).sum(axis=1)
        new = total_wins / denom
        new /= np.exp(np.log(new).mean())  # fix the scale: geometric mean 1
        done = np.max(np.abs(np.log(new) - np.log(p))) < tol
        p = new
        if done:
            break
    return np.log(p)


def rank_by_scores(scores: np.ndarray, tie_breaker: np.ndarray | None = None) -> np.ndarray:
    """Indices by descending score; equal scores by the tie-breaker's net wins (sum_j T[i, j]), then original order."""
    v = np.nan_to_num(np.asarray(scores, dtype=np.float64), nan=-np.inf)
    n = v.shape[0]
    tb = np.zeros(n) if tie_breaker is None else np.sign(_square(tie_breaker, "tie_breaker")).sum(axis=1)
    # np.lexsort sorts by the last key first; every key ascending.
    return np.lexsort((np.arange(n), -tb, -v))


def fold_ties(scores: np.ndarray, order: np.ndarray) -> np.ndarray:
    """Scores made strictly decreasing along ``order`` (a ranking consistent with them), ties broken as ``order`` does.

    A group of m equal scores s at places k = 0..m-1 gets s + g (m - 1 - k) / (2m), g = the smallest gap between
    distinct scores (1 if all are equal): untied scores stay, no tie group reaches the score above it. NaN counts as
    -inf (last); if float precision cannot separate a tie, the scores become n - position.
    """
    v = np.nan_to_num(np.asarray(scores, dtype=np.float64), nan=-np.inf, posinf=np.inf, neginf=-np.inf)
    order = np.asarray(order, dtype=np.int64)
    n = v.shape[0]
    if order.shape != (n,) or (n and not np.array_equal(np.sort(order), np.arange(n))):
        raise ValueError(f"order must be a permutation of the {n} items")
    ranked = v[order]
    with np.errstate(invalid="ignore"):  # -inf - -inf
        rising = bool(n and np.any(np.diff(ranked) > 0))
    if rising:
        raise ValueError("order must rank higher scores first")
    finite = np.unique(ranked[np.isfinite(ranked)])
    if len(finite) < len(ranked) or not np.all(np.isfinite(ranked)):
        gap = float(np.diff(finite).min()) if len(finite) > 1 else 1.0
        start = np.flatnonzero(np.r_[True, ranked[1:] != ranked[:-1]])  # first place of each group of equal scores
        sizes = np.diff(np.r_[start, n])
        group = np.repeat(np.arange(len(start)), sizes)
        k = np.arange(n) - start[group]
        m = sizes[group]
        low, high = (finite.min() - gap, finite.max() + gap) if len(finite) else (-1.0, 1.0)
        base = np.where(np.isposinf(ranked), high, np.where(np.isneginf(ranked), low, ranked))
        folded = base + gap * (m - 1 - k) / (2 * m)
        if not np.all(np.diff(folded) < 0):
            folded = np.arange(n, 0, -1, dtype=np.float64)
        ranked = folded
    out = np.empty(n)
    out[order] = ranked
    return out + 0.0


def kwiksort(
    prefs: np.ndarray,
    pivot: Pivot = "random",
    seed: int | np.random.Generator | None = 0,
    tie_breaker: np.ndarray | None = None,
) -> np.ndarray:
    """KwikSort (Ailon et al. 2008): items preferred over the pivot go before it, others after.

    Items i with P[i, p] > 0 go before pivot p, others after; ties by T[i, p], then original order.
    """
    p = np.sign(_square(prefs))
    n = p.shape[0]
    t = np.zeros_like(p) if tie_breaker is None else np.sign(_square(tie_breaker, "tie_breaker"))
    if t.shape != p.shape:
        raise ValueError(f"tie_breaker shape {t.shape} does not match prefs shape {p.shape}")
    if pivot not in PIVOTS:
        raise ValueError(f"unknown pivot strategy {pivot!r}; use one of {PIVOTS}")
    rng = seed if isinstance(seed, np.random.Generator) else np.random.default_rng(seed)

    def before(i: int, q: int) -> bool:
        """Whether item i goes before pivot q."""
        if p[i, q] != 0:
            return bool(p[i, q] > 0)
        if t[i, q] != 0:
            return bool(t[i, q] > 0)
        return i < q

    def choose(items: list[int]) -> int:
        if pivot == "random":
            return items[int(rng.integers(len(items)))]
        if pivot == "middle":
            return items[(len(items) - 1) // 2]
        if pivot == "rank":
            return min(items)
        sub = p[np.ix_(items, items)].sum(axis=1)  # "wins": most net wins within the sub-list
        return items[int(np.argmax(sub))]

    out: list[int] = []
    stack: list[list[int] | int] = [list(range(n))]
    while stack:  # iterative quicksort: no recursion limit on long lists
        top = stack.pop()
        if isinstance(top, int):
            out.append(top)
            continue
        if len(top) <= 1:
            out.extend(top)
            continue
        q = choose(top)
        left = [i for i in top if i != q and before(i, q)]
        right = [i for i in top if i != q and not before(i, q)]
        stack.extend((right, q, left))  # popped in the order left, pivot, right
    return np.asarray(out, dtype=np.int64)


AGGREGATIONS: tuple[str, ...] = ("borda", "copeland", "kwiksort", "bradley_terry")
"""Names accepted by ``aggregate`` (and by ``AxiomaticReranker(aggregation=...)``)."""


def aggregate(
    stack: np.ndarray,
    method: str = "borda",
    weights: Sequence[float] | np.ndarray | None = None,
    tie_breaker: np.ndarray | None = None,
    pivot: Pivot = "middle",
    seed: int | np.random.Generator | None = 0,
) -> np.ndarray:
    """Ranking (indices, best first) of a (k, n, n) stack.

    Borda/Copeland/Bradley-Terry scores, or KwikSort on the weighted majority vote of the axioms that decide some pair.
    """
    return scored_ranking(stack, method, weights, tie_breaker, pivot, seed)[0]


def scored_ranking(
    stack: np.ndarray,
    method: str = "borda",
    weights: Sequence[float] | np.ndarray | None = None,
    tie_breaker: np.ndarray | None = None,
    pivot: Pivot = "middle",
    seed: int | np.random.Generator | None = 0,
) -> tuple[np.ndarray, np.ndarray]:
    """The ranking of ``aggregate`` and each item's score (index = item), strictly decreasing down the ranking.

    Borda points, Copeland score, Bradley-Terry log-strength (ties folded in by ``fold_ties``: the tie-breaker and
    the original order become part of the score), or n - position for KwikSort (an order, no score). KwikSort's
    majority vote leaves out an axiom whose matrix is all 0 (it decides no pair of these items), so that its weight
    does not raise the quorum: the others alone rank, as they do for the other aggregations, where it adds 0.
    """
    s, w = _stack(stack, weights)
    if method == "kwiksort":
        voting = np.any(s != 0, axis=(1, 2))
        if voting.any():
            s, w = s[voting], w[voting]
        order = kwiksort(majority_vote(s, w), pivot=pivot, seed=seed, tie_breaker=tie_breaker)
        scores = np.empty(len(order))
        scores[order] = np.arange(len(order), 0, -1, dtype=np.float64)
        return order, scores
    if method == "borda":
        scores = borda(s, w)
    elif method == "copeland":
        scores = copeland(s, w)
    elif method == "bradley_terry":
        scores = np.round(bradley_terry(s, w), 9)  # equal strengths must tie exactly despite float noise
    else:
        raise ValueError(f"unknown aggregation {method!r}; use one of {AGGREGATIONS}")
    order = rank_by_scores(scores, tie_breaker)
    return order, fold_ties(scores, order)
