"""Axioms on bad input: blank, missing, huge and non-English texts abstain or are clear errors, never a crash."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

from ir_rag_axioms import (
    CLAR2,
    COH1,
    CONS1,
    CONS2,
    CORR1,
    COV1,
    GenerationRequest,
    GenerationResponse,
)

REQUEST = GenerationRequest("q", "Why do cats purr?", ["Cats purr when they are content or stressed."])


GOOD = [
    GenerationResponse("a", "Cats purr when they are content [1]. They also purr when stressed."),
    GenerationResponse("b", "Purring is a sound. It is made by cats, lions do not purr."),
]


@pytest.mark.parametrize("blank", ["", "   ", "\n\t", float("nan"), None])
def test_blank_responses_abstain(blank):
    responses = [*GOOD, GenerationResponse("c", blank)]
    assert responses[2].text == ("" if blank is None or isinstance(blank, float) else blank)
    for axiom in (COH1, COV1, CONS2, CORR1, CLAR2):
        matrix = axiom.preferences(REQUEST, responses)
        assert not matrix[2].any() and not matrix[:, 2].any(), axiom


def test_missing_context_makes_context_axioms_abstain():
    for context in (None, [], ["", "  "], float("nan")):
        request = GenerationRequest("q", "Why do cats purr?", context if not isinstance(context, float) else None)
        assert request.context is None
        assert not CONS1.preferences(request, GOOD).any()
        assert not CONS2.preferences(request, GOOD).any()


def test_huge_response_abstains_with_a_warning():
    huge = GenerationResponse("huge", "Cats purr. " * 100_000)  # 1.1 MB
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        matrix = COV1.preferences(REQUEST, [*GOOD, huge])
    assert any("not analysed" in str(w.message) for w in caught)
    assert not matrix[2].any() and not matrix[:, 2].any()
    assert matrix[0, 1] != 0  # the others are still compared


def test_non_english_text_gives_a_defined_matrix():
    responses = [*GOOD, GenerationResponse("de", "Katzen schnurren, wenn sie zufrieden sind [1]."),
                 GenerationResponse("zh", "猫在满足时会发出呼噜声。")]
    for axiom in (COH1, COV1, CONS2, CORR1, CLAR2):
        matrix = axiom.preferences(REQUEST, responses)
        assert matrix.shape == (4, 4) and np.isfinite(matrix).all()
        assert np.array_equal(matrix, -matrix.T)


def test_duplicate_ids_and_wrong_types_are_clear_errors():
    with pytest.raises(ValueError, match="duplicate response ids.*'a'"):
        COH1.preferences(REQUEST, [GOOD[0], GenerationResponse("a", "Other text.")])
    with pytest.raises(TypeError, match="GenerationResponse"):
        COH1.preferences(REQUEST, ["just a string"])
    with pytest.raises(TypeError, match="GenerationRequest"):
        COH1.preferences("why?", GOOD)
    with pytest.raises(TypeError, match="must be a string"):
        GenerationResponse("x", 42)


def test_zero_and_one_response():
    assert COH1.preferences(REQUEST, []).shape == (0, 0)
    assert COH1.preferences(REQUEST, GOOD[:1]).tolist() == [[0.0]]
    assert COH1.preferences_batch([(REQUEST, []), (REQUEST, GOOD)])[0].shape == (0, 0)


def test_pairwise_preference_is_read_from_the_matrix():
    matrix = CORR1.preferences(REQUEST, GOOD)
    assert CORR1.preference(REQUEST, GOOD[0], GOOD[1]) == matrix[0, 1] == 1.0
    assert CORR1.preference(REQUEST, GOOD[0], GOOD[0]) == 0.0
