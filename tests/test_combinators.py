"""Exact values of the combinators and utility axioms (ORIG, NOP, RANDOM) on fixed preference matrices."""

from __future__ import annotations

from dataclasses import field
from typing import ClassVar

import numpy as np
import pytest

from ir_rag_axioms.axioms.base import ConfigurableAxiom, FeatureAxiom
from ir_rag_axioms.axioms.combinators import (
    Cascade,
    Conjunction,
    Constant,
    MajorityVote,
    Negated,
    Normalized,
    Product,
    Sum,
    as_axiom,
)
from ir_rag_axioms.axioms.registry import REGISTRY
from ir_rag_axioms.axioms.utility import NOP, ORIG, RANDOM, RandomAxiom
from ir_rag_axioms.model import GenerationRequest, GenerationResponse

REQUEST = GenerationRequest("q", "query")
RESPONSES = [GenerationResponse(str(i), f"text {i}") for i in range(3)]


class Values(FeatureAxiom):
    """Prefers the higher of fixed values per response position."""

    name: ClassVar[str | None] = None
    values_: tuple[float, ...] = ()
    abstain_on_blank: ClassVar[bool] = False

    def values(self, request, responses, analysis):
        return np.array(self.values_[: len(responses)], dtype=np.float64)


class Recorder(ConfigurableAxiom):
    """Records the items it was asked to prefetch."""

    calls: list = field(default_factory=list, compare=False, hash=False)

    def prefetch(self, items, analysis):
        self.calls.append(len(list(items)))

    def matrix(self, request, responses, analysis):
        return np.zeros((len(responses), len(responses)))


A = Values(values_=(3, 2, 1))  # 0 > 1 > 2
B = Values(values_=(1, 1, 2))  # 2 > 0 = 1
Z = Values(values_=(0, 0, 0))  # no preference


def P(axiom):
    return axiom.preferences(REQUEST, RESPONSES).tolist()


def test_sum_difference_and_weights():
    assert P(A + B) == [[0, 1, 0], [-1, 0, 0], [0, 0, 0]]
    assert P(A - B) == [[0, 1, 2], [-1, 0, 2], [-2, -2, 0]]
    assert P(2 * A + B) == [[0, 2, 1], [-2, 0, 1], [-1, -1, 0]]
    assert P(A * 0.5) == [[0, 0.5, 0.5], [-0.5, 0, 0.5], [-0.5, -0.5, 0]]
    assert P(A + 1) == [[0, 2, 2], [0, 0, 2], [0, 0, 0]]  # a constant weight adds off the diagonal only


def test_product_negation_and_normalisation():
    assert P(A * B) == [[0, 0, -1], [0, 0, -1], [-1, -1, 0]]
    assert P(-A) == [[0, -1, -1], [1, 0, -1], [1, 1, 0]]
    assert P(+(2 * A + B)) == [[0, 1, 1], [-1, 0, 1], [-1, -1, 0]]
    assert P(Normalized(A - B)) == [[0, 1, 1], [-1, 0, 1], [-1, -1, 0]]


def test_cascade_conjunction():
    assert P(Z | B) == P(B)
    assert P(B | A) == [[0, 1, -1], [-1, 0, -1], [1, 1, 0]]  # B abstains on (0, 1): A decides
    assert P(A & B) == [[0, 0, 0], [0, 0, 0], [0, 0, 0]]
    assert P(A & A) == P(A)
    assert P(Conjunction((A, Values(values_=(3, 0, 1))))) == [[0, 1, 1], [-1, 0, 0], [-1, 0, 0]]


def test_majority_vote_minimum_votes():
    C = Values(values_=(1, 2, 3))  # 2 > 1 > 0
    axioms = (A, B, C)
    # pair (0, 1): A +, B 0, C -  -> tie; (0, 2): A +, B -, C - -> 2 of 3 against
    assert P(MajorityVote(axioms)) == [[0, 0, -1], [0, 0, -1], [1, 1, 0]]
    assert P(MajorityVote(axioms, minimum_votes=1.0)) == [[0, 0, 0], [0, 0, 0], [0, 0, 0]]
    assert P(MajorityVote((A, Values(values_=(3, 0, 1))), minimum_votes=1.0)) == [[0, 1, 1], [-1, 0, 0], [-1, 0, 0]]
    assert P(MajorityVote(axioms, minimum_votes=0.0)) == [[0, 0, -1], [0, 0, -1], [1, 1, 0]]
    # "at least minimum_votes of the votes" (the specification): 2 of 4 at 0.5 decide
    assert P(MajorityVote((A, B, C, Z), minimum_votes=0.5)) == [[0, 0, -1], [0, 0, -1], [1, 1, 0]]
    assert P(A % B) == [[0, 1, 0], [-1, 0, 0], [0, 0, 0]]  # 1 of 2 votes is at least half
    assert P(MajorityVote((A, B), minimum_votes=0.0)) == [[0, 1, 0], [-1, 0, 0], [0, 0, 0]]
    with pytest.raises(ValueError):
        MajorityVote(axioms, minimum_votes=1.5)


def test_nesting_and_repr():
    nested = (A + B) | -(A * 2)
    assert isinstance(nested, Cascade)
    assert isinstance(nested.axioms[0], Sum) and isinstance(nested.axioms[1], Negated)
    assert isinstance(nested.axioms[1].axiom, Product)
    assert P(nested) == [[0, 1, -2], [-1, 0, -2], [2, 2, 0]]
    assert repr(Constant(2.0)) == "2"


def test_prefetch_is_forwarded_to_every_child():
    first, second = Recorder(), Recorder()
    combined = MajorityVote((first + second, -first, Normalized(second) | first, first & second))
    combined.preferences_batch([(REQUEST, RESPONSES), (REQUEST, RESPONSES)])
    assert first.calls == [2, 2, 2, 2] and second.calls == [2, 2, 2]


def test_as_axiom():
    assert as_axiom(A) is A
    assert as_axiom(2) == Constant(2.0)
    for bad in ("x", float("nan"), True):
        with pytest.raises((TypeError, ValueError)):
            as_axiom(bad)


def test_orig_follows_rank_then_score():
    ranked = [GenerationResponse("a", "x", rank=2), GenerationResponse("b", "y", rank=1),
              GenerationResponse("c", "z", score=0.5), GenerationResponse("d", "w", score=0.7)]
    assert ORIG.preferences(REQUEST, ranked).tolist() == [
        [0, -1, 0, 0], [1, 0, 0, 0], [0, 0, 0, -1], [0, 0, 1, 0]]


def test_nop():
    assert NOP.preferences(REQUEST, RESPONSES).tolist() == [[0] * 3] * 3


def test_random_is_antisymmetric_seeded_and_uses_all_values():
    many = [GenerationResponse(str(i), "t") for i in range(12)]
    p = RANDOM.preferences(REQUEST, many)
    assert (p == -p.T).all() and (np.diag(p) == 0).all()
    assert set(np.unique(p[~np.eye(12, dtype=bool)])) == {-1.0, 0.0, 1.0}
    assert (RANDOM.preferences(REQUEST, many) == p).all()  # deterministic for a seed
    order = [many[i] for i in (5, 3, 11, 0, 1, 2, 4, 6, 7, 8, 9, 10)]
    q = RANDOM.preferences(REQUEST, order)
    idx = [5, 3, 11, 0, 1, 2, 4, 6, 7, 8, 9, 10]
    assert (q == p[np.ix_(idx, idx)]).all()  # permutation equivariant
    assert not (RandomAxiom(seed=1).preferences(REQUEST, many) == p).all()
    unseeded = RandomAxiom(seed=None).preferences(REQUEST, many)
    assert (unseeded == -unseeded.T).all()


def test_utility_axioms_are_registered():
    assert REGISTRY["ORIG"] == ORIG and REGISTRY["NOP"] == NOP and REGISTRY["RANDOM"] == RANDOM


@pytest.mark.parametrize("minimum_votes", [0.0, 0.25, 0.3, 0.5, 0.51, 2 / 3, 0.75, 1.0])
def test_one_majority_vote_rule_for_the_combinator_and_the_aggregation(minimum_votes):
    """MajorityVote, ``%`` and aggregation.majority_vote decide alike: with at least minimum_votes * k votes."""
    from ir_rag_axioms.aggregation import majority_vote

    C = Values(values_=(1, 2, 3))
    D = Values(values_=(2, 3, 1))
    axioms = (A, B, C, Z, D, Values(values_=(0, 5, 5)), Values(values_=(9, 1, 1)), B, A, Z)
    stack = np.stack([a.preferences(REQUEST, RESPONSES) for a in axioms])
    expected = majority_vote(stack, minimum_votes=minimum_votes)
    assert P(MajorityVote(axioms, minimum_votes=minimum_votes)) == expected.tolist()
    pro, con = (stack > 0).sum(axis=0), (stack < 0).sum(axis=0)
    for i in range(3):
        for j in range(3):
            winner = max(pro[i, j], con[i, j])
            decides = i != j and pro[i, j] != con[i, j] and winner >= minimum_votes * len(axioms) - 1e-9
            assert expected[i, j] == (np.sign(pro[i, j] - con[i, j]) if decides else 0)
    assert majority_vote(stack).tolist() == P(MajorityVote(axioms))  # one default: 0.5
    assert P(A % B % C % Z) == P(MajorityVote((A, B, C, Z)))
