"""Aggregation functions: exact values on small matrices and properties (order recovery, ties, determinism)."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ir_rag_axioms import (
    COH1,
    CONS2,
    CORR1,
    AxiomaticReranker,
)
from ir_rag_axioms.aggregation import (
    AGGREGATIONS,
    PIVOTS,
    aggregate,
    borda,
    bradley_terry,
    combine,
    copeland,
    kwiksort,
    majority_vote,
    rank_by_scores,
)


def order_matrix(order: list[int] | np.ndarray) -> np.ndarray:
    """The complete, transitive matrix of a ranking: P[i, j] = 1 if i is ranked before j."""
    n = len(order)
    position = np.empty(n, dtype=int)
    position[np.asarray(order)] = np.arange(n)
    return np.sign(position[None, :] - position[:, None]).astype(float)


def random_antisymmetric(rng: np.random.Generator, n: int, zeros: float = 0.3) -> np.ndarray:
    upper = rng.choice([-1.0, 0.0, 1.0], size=(n, n), p=[(1 - zeros) / 2, zeros, (1 - zeros) / 2])
    upper = np.triu(upper, 1)
    return upper - upper.T


# -- exact values -----------------------------------------------------------------------------------
def test_majority_vote_counts_weighted_votes_and_threshold() -> None:
    a = np.array([[0, 1], [-1, 0]], float)
    z = np.zeros((2, 2))
    stack = np.stack([a, a, -a])
    assert majority_vote(stack).tolist() == [[0, 1], [-1, 0]]
    assert majority_vote(stack, weights=[1, 1, 3]).tolist() == [[0, -1], [1, 0]]
    # 1 of 3 votes for i and 2 abstain: a relative majority (minimum_votes=0), but not at the default 0.5
    assert majority_vote(np.stack([a, z, z]), minimum_votes=0.0).tolist() == [[0, 1], [-1, 0]]
    assert majority_vote(np.stack([a, z, z])).tolist() == [[0, 0], [0, 0]]
    assert majority_vote(np.stack([a, -a])).tolist() == [[0, 0], [0, 0]]


def test_borda_copeland_and_combine_exact() -> None:
    p = np.array([[0, 1, 1], [-1, 0, 0], [-1, 0, 0]], float)
    q = np.array([[0, -1, 0], [1, 0, 1], [0, -1, 0]], float)
    assert combine(np.stack([p, q]), [2, 1]).tolist() == (2 * p + q).tolist()
    assert borda(p).tolist() == [2, -1, -1]
    assert borda(np.stack([p, q])).tolist() == [1, 1, -2]
    assert borda(np.stack([p, q]), [2, 1]).tolist() == [3, 0, -3]
    # Copeland counts pairwise majorities: C = p + q = [[0,0,1],[0,0,1],[-1,-1,0]]
    assert copeland(np.stack([p, q])).tolist() == [1, 1, -2]
    assert copeland(np.stack([3 * p, q])).tolist() == [2, 0, -2]  # Borda would give [5, -2, -3]


def test_bradley_terry_orders_by_wins_and_is_centred() -> None:
    p = order_matrix([2, 0, 1])
    scores = bradley_terry(p)
    assert np.argsort(-scores).tolist() == [2, 0, 1]
    assert scores.mean() == pytest.approx(0.0, abs=1e-12)
    # symmetric situation: equal strengths
    assert np.allclose(bradley_terry(np.zeros((3, 3))), 0.0)
    # more wins -> larger gap; prior keeps an undefeated item finite
    assert np.isfinite(bradley_terry(order_matrix([0, 1]))).all()
    assert bradley_terry(np.stack([order_matrix([0, 1])] * 5))[0] > bradley_terry(order_matrix([0, 1]))[0]
    with pytest.raises(ValueError, match="prior"):
        bradley_terry(p, prior=0.0)


def test_rank_by_scores_ties_use_tie_breaker_then_original_order() -> None:
    assert rank_by_scores(np.array([1.0, 2.0, 1.0, 2.0])).tolist() == [1, 3, 0, 2]
    breaker = order_matrix([3, 2, 1, 0])  # prefers higher indices
    assert rank_by_scores(np.array([1.0, 2.0, 1.0, 2.0]), breaker).tolist() == [3, 1, 2, 0]
    assert rank_by_scores(np.array([np.nan, 0.0])).tolist() == [1, 0]


def test_kwiksort_pivots_exact() -> None:
    # a cycle 0 > 1 > 2 > 0: the pivot decides the result
    cycle = np.array([[0, 1, -1], [-1, 0, 1], [1, -1, 0]], float)
    assert kwiksort(cycle, "rank").tolist() == [2, 0, 1]  # pivot 0: 2 before it, 1 after
    assert kwiksort(cycle, "middle").tolist() == [0, 1, 2]  # pivot 1: 0 before, 2 after
    assert kwiksort(cycle, "wins").tolist() == [2, 0, 1]  # all tie on wins: first, i.e. item 0
    draws = {tuple(kwiksort(cycle, "random", seed=s)) for s in range(30)}
    assert draws == {(2, 0, 1), (0, 1, 2), (1, 2, 0)}


def test_kwiksort_ties_fall_back_to_tie_breaker_then_original_order() -> None:
    none = np.zeros((4, 4))
    for pivot in PIVOTS:
        assert kwiksort(none, pivot, seed=7).tolist() == [0, 1, 2, 3]
        assert kwiksort(none, pivot, seed=7, tie_breaker=order_matrix([3, 1, 2, 0])).tolist() == [3, 1, 2, 0]
    partial = np.zeros((3, 3))
    partial[2, 0], partial[0, 2] = 1, -1  # only 2 > 0 is known
    assert kwiksort(partial, "rank").tolist() == [2, 0, 1]


def test_invalid_arguments_raise_clear_errors() -> None:
    with pytest.raises(ValueError, match="pivot"):
        kwiksort(np.zeros((2, 2)), "best")
    with pytest.raises(ValueError, match="aggregation"):
        aggregate(np.zeros((1, 2, 2)), "plurality")
    with pytest.raises(ValueError, match="weight"):
        borda(np.zeros((2, 3, 3)), [1.0])
    with pytest.raises(ValueError, match="square"):
        kwiksort(np.zeros((2, 3)))
    with pytest.raises(ValueError, match="minimum_votes"):
        majority_vote(np.zeros((1, 2, 2)), minimum_votes=2)


def test_empty_and_single_item() -> None:
    for method in AGGREGATIONS:
        assert aggregate(np.zeros((2, 0, 0)), method).tolist() == []
        assert aggregate(np.zeros((2, 1, 1)), method).tolist() == [0]
    assert kwiksort(np.zeros((0, 0))).tolist() == []


# -- properties ------------------------------------------------------------------------------------
@settings(max_examples=60, deadline=None)
@given(st.permutations(list(range(9))), st.sampled_from(PIVOTS), st.integers(0, 2**32 - 1))
def test_transitive_complete_order_is_recovered(order: list[int], pivot: str, seed: int) -> None:
    p = order_matrix(order)
    assert kwiksort(p, pivot, seed=seed).tolist() == order
    assert np.argsort(-borda(p), kind="stable").tolist() == order
    for method in AGGREGATIONS:
        assert aggregate(np.stack([p, p]), method, pivot=pivot, seed=seed).tolist() == order


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 2**32 - 1), st.integers(0, 10), st.sampled_from(AGGREGATIONS), st.sampled_from(PIVOTS))
def test_ties_never_raise_and_result_is_a_permutation(seed: int, n: int, method: str, pivot: str) -> None:
    rng = np.random.default_rng(seed)
    stack = np.stack([random_antisymmetric(rng, n, zeros=0.8) for _ in range(3)])
    order = aggregate(stack, method, pivot=pivot, seed=seed)
    assert sorted(order.tolist()) == list(range(n))
    assert aggregate(stack, method, pivot=pivot, seed=seed).tolist() == order.tolist()  # deterministic


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 2**32 - 1), st.sampled_from(AGGREGATIONS))
def test_score_aggregations_are_permutation_equivariant(seed: int, method: str) -> None:
    """Relabelling items permutes the ranking the same way when there are no score ties."""
    rng = np.random.default_rng(seed)
    n = 7
    stack = np.stack([order_matrix(rng.permutation(n)) for _ in range(3)])
    order = aggregate(stack, method)
    scores = {"borda": borda, "copeland": copeland, "bradley_terry": bradley_terry, "kwiksort": None}[method]
    if scores is not None and len(np.unique(np.round(scores(stack), 9))) < n:
        return  # ties are broken by original order, which relabelling changes by design
    if method == "kwiksort":
        stack = np.stack([order_matrix(rng.permutation(n))] * 3)  # a consistent majority: unique answer
        order = aggregate(stack, method)
    perm = rng.permutation(n)  # new item k is old item perm[k]
    permuted = stack[:, perm][:, :, perm]
    assert perm[aggregate(permuted, method, pivot="random", seed=seed)].tolist() == order.tolist()


# -- errors and edge cases ----------------------------------------------------------------------------
def test_a_second_tie_breaker_is_refused():
    with pytest.raises(ValueError, match="tie_breaker takes one axiom.*CORR1 | CONS2"):
        AxiomaticReranker(COH1, tie_breaker=[CORR1, CONS2])


@pytest.mark.parametrize("prior", [float("nan"), float("inf"), 0.0, -1.0])
def test_bradley_terry_refuses_a_non_finite_prior(prior):
    from ir_rag_axioms.aggregation import bradley_terry

    with pytest.raises(ValueError, match="prior must be a finite number > 0"):
        bradley_terry(np.array([[0, 1], [-1, 0.0]]), prior=prior)


@pytest.mark.parametrize("method", AGGREGATIONS)
def test_an_axiom_that_decides_no_pair_casts_no_vote(method: str) -> None:
    """KwikSort's majority counts only the axioms that decide some pair: one voter of three ranks alone, as in Borda."""
    from ir_rag_axioms.aggregation import scored_ranking

    silent = np.zeros((3, 3))
    voter = order_matrix([1, 2, 0])
    for weights in (None, [1.0, 5.0, 5.0]):
        order, _ = scored_ranking(np.stack([voter, silent, silent]), method, weights)
        assert order.tolist() == [1, 2, 0]
    # two axioms that each decide the pair both count: 1 vote against 1 is no majority, the original order stays
    split = np.stack([order_matrix([1, 0]), order_matrix([0, 1])])
    assert scored_ranking(split, method)[0].tolist() == [0, 1]
