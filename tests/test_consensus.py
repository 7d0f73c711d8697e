"""The consensus axioms (AGREE1-4): exact values on crafted candidate sets, abstention, candidate-set dependence."""

from __future__ import annotations

import math

import numpy as np
import pytest

from ir_rag_axioms import GenerationRequest, GenerationResponse, default_analysis, get
from ir_rag_axioms.axioms.base import analyse

REQUEST = GenerationRequest("q", "What do cats and dogs do?")


def _values(name, texts, **changes):
    axiom = get(name)(**changes) if changes else get(name)
    responses = [GenerationResponse(f"r{i}", t) for i, t in enumerate(texts)]
    analyse([axiom], [(REQUEST, responses)])
    return axiom.checked_values(REQUEST, responses, default_analysis())


def _same(found, expected):
    assert len(found) == len(expected), (found, expected)
    for a, b in zip(found, expected, strict=True):
        assert (math.isnan(a) and math.isnan(b)) or a == pytest.approx(b, abs=1e-6), (found, expected)


def _cosine(a, b):
    vectors = default_analysis().embed([a, b], get("AGREE2").sentence_model)
    return float(vectors[0] @ vectors[1])


def test_agree1_counts_the_content_words_others_share():
    texts = ["Cats sleep. Dogs bark.", "Cats sleep a lot.", "Dogs bark loudly."]
    # terms: {cat, sleep, dog, bark}, {cat, sleep, lot}, {dog, bark, loudly}; share 0.2 of 2 others: >= 1 other
    _same(_values("AGREE1", texts), [4, 2, 2])
    # share 1.0: both others must contain the word; no word of any answer is in both others
    _same(_values("AGREE1", texts, share=1.0), [0, 0, 0])
    # a blank answer is no "other" and has no value; the others' counts stay
    _same(_values("AGREE1", [*texts, "   "]), [4, 2, 2, math.nan])


def test_agree1_refuses_a_share_outside_0_1():
    with pytest.raises(ValueError, match="share"):
        get("AGREE1")(share=0.0)


def test_consensus_needs_another_answer():
    for name in ("AGREE1", "AGREE2", "AGREE3", "AGREE4"):
        _same(_values(name, ["Cats sleep a lot."]), [math.nan])
        _same(_values(name, ["Cats sleep a lot.", ""]), [math.nan, math.nan])


A, B = "Cats sleep sixteen hours a day.", "Dogs bark at strangers."


def test_agree2_is_the_mean_best_cosine_of_own_sentences():
    c = _cosine(A, B)
    # r0 = A B; r1 = A; r2 = B.  r0's A: best 1 in r1, c in r2 -> (1 + c) / 2; its B likewise
    _same(_values("AGREE2", [f"{A} {B}", A, B]), [(1 + c) / 2, (1 + c) / 2, (1 + c) / 2])


def test_agree3_is_the_mean_share_of_the_others_covered():
    c = _cosine(A, B)
    # r0 = A B states both others' sentences exactly: 1
    # r1 = A covers r0's (A: 1, B: c) -> (1 + c) / 2 and r2's B -> c: mean ((1 + c) / 2 + c) / 2
    _same(_values("AGREE3", [f"{A} {B}", A, B]), [1.0, ((1 + c) / 2 + c) / 2, ((1 + c) / 2 + c) / 2])


def test_agree4_weights_aspects_by_the_share_of_others_stating_them():
    texts = ["The cat chased the mouse.", "The cat slept.", "The mouse ran."]
    # aspects: {the cat, the mouse}, {the cat}, {the mouse}; threshold 1: the same string only
    _same(_values("AGREE4", texts, threshold=1.0), [0.5 + 0.5, 0.5, 0.5])


def test_consensus_depends_on_the_candidate_set():
    texts = ["Cats sleep. Dogs bark.", "Cats sleep a lot.", "Dogs bark loudly."]
    axiom = get("AGREE1")
    responses = [GenerationResponse(f"r{i}", t) for i, t in enumerate(texts)]
    full = axiom.preferences(REQUEST, responses)
    pair = axiom.preferences(REQUEST, responses[:2])
    assert full[0, 1] == 1 and pair[0, 1] == 0  # among three r0 shares 4 words, among two both share 2
    assert np.array_equal(full, -full.T) and not np.diag(full).any()
