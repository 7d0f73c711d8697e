"""Properties of every registered axiom: antisymmetry, zero diagonal, permutation equivariance, determinism."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ir_rag_axioms import GenerationRequest, GenerationResponse
from ir_rag_axioms.analysis.resources import ToolUnavailableError
from ir_rag_axioms.axioms.registry import get, names
from ir_rag_axioms.datasets.files import DataFileError

REQUEST = GenerationRequest(
    "q1",
    "Why do domestic cats sleep so much during the day?",
    [
        "Domestic cats sleep between 12 and 16 hours a day. Cats are crepuscular animals.",
        "Sleeping saves energy for hunting. Kittens and old cats sleep even more.",
    ],
)
TEXTS = [
    "Cats sleep 12 to 16 hours a day to save energy for hunting [1]. Kittens sleep even more [2].",
    "Domestic cats are crepuscular, so they are active at dawn and dusk and sleep during the day [1].",
    "Cats sleep. Cats sleep a lot. Sleep is what cats do, and cats do not sleep at night in Paris.",
    "- Energy saving [1]\n- Hunting instincts [2]\n- Crepuscular rhythm [1,2]",
    "Notwithstanding considerable interindividual heterogeneity, feline somnolence is pronounced.",
    "   ",
    "Die Katze schläft den ganzen Tag, weil sie nachts jagt.",
]
RESPONSES = [
    GenerationResponse(f"r{i}", text, rank=i + 1, score=float(len(TEXTS) - i))
    for i, text in enumerate(TEXTS)
]


def _matrix(axiom, responses):
    try:
        return axiom.preferences(REQUEST, responses)
    except (ToolUnavailableError, DataFileError) as error:
        # CLAR1 without LanguageTool, argument axioms without a tagger, oracles without their judgments
        # (tests/test_oracles.py checks the oracles' properties on the shared data).
        pytest.skip(f"{axiom!r} needs a tool or data that is not available here: {str(error)[:80]}")


AXIOMS = names()


@pytest.mark.parametrize("name", AXIOMS)
def test_antisymmetric_zero_diagonal_in_range(name):
    matrix = _matrix(get(name), RESPONSES)
    assert matrix.shape == (len(RESPONSES), len(RESPONSES))
    assert np.isfinite(matrix).all()
    assert np.array_equal(np.diag(matrix), np.zeros(len(RESPONSES)))
    assert np.array_equal(matrix, -matrix.T)
    assert set(np.unique(matrix)) <= {-1.0, 0.0, 1.0}


@pytest.mark.parametrize("name", AXIOMS)
def test_deterministic(name):
    axiom = get(name)
    assert np.array_equal(_matrix(axiom, RESPONSES), _matrix(axiom, RESPONSES))


@pytest.mark.parametrize("name", [n for n in AXIOMS if n != "RANDOM"])
@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(order=st.permutations(range(len(RESPONSES))))
def test_permutation_equivariant(name, order):
    axiom = get(name)
    base = _matrix(axiom, RESPONSES)
    permuted = _matrix(axiom, [RESPONSES[i] for i in order])
    assert np.array_equal(permuted, base[np.ix_(order, order)])


def test_random_is_seeded_and_can_prefer_either_side():
    random = get("RANDOM")(seed=7)
    first = random.preferences(REQUEST, RESPONSES)
    assert np.array_equal(first, random.preferences(REQUEST, RESPONSES))
    assert (first == 1).any() and (first == -1).any()


@pytest.mark.parametrize("name", AXIOMS)
def test_repr_is_canonical_and_parses_back(name):
    from ir_rag_axioms import parse

    axiom = get(name)
    assert parse(repr(axiom)) == axiom


def test_composite_reprs_parse_back():
    from ir_rag_axioms import CLAR2, COH1, CORR1, COV1, LEN, TFC1, MajorityVote, parse
    from ir_rag_axioms.analysis.similarity import EmbeddingTermSimilarity

    vote = COH1 % CORR1 % CLAR2
    assert vote == MajorityVote((COH1, CORR1, CLAR2))  # one vote of three, not nested votes
    for axiom in (
        vote,
        TFC1(precondition=LEN(margin_fraction=0.2)),
        get("REG")(similarity=EmbeddingTermSimilarity()),
        (COH1 + 2 * CORR1) | -CLAR2,
        +COV1,
        MajorityVote((COH1, COV1), minimum_votes=0.3),
    ):
        assert parse(repr(axiom)) == axiom, repr(axiom)
