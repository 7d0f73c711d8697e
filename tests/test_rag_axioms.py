"""Exact values of the RAG axioms on short crafted texts that a reader can check by hand."""

from __future__ import annotations

import numpy as np
import pytest

from ir_rag_axioms import (
    CLAR2,
    COH1,
    COH2,
    CONS1,
    CONS2,
    CONS3,
    CORR1,
    COV1,
    COV2,
    COV3,
    GenerationRequest,
    GenerationResponse,
    parse,
)
from ir_rag_axioms.analysis.cache import default_analysis
from ir_rag_axioms.analysis.text import aspects, terms
from ir_rag_axioms.axioms.correctness import LIST_CITATION_PATTERN
from ir_rag_axioms.axioms.presets import ICTIR2025

REQUEST = GenerationRequest("q1", "Why do cats sleep so much?", ["The cat sat on the mat."])


def responses(*texts: str) -> list[GenerationResponse]:
    return [GenerationResponse(f"r{i}", t) for i, t in enumerate(texts)]


def parsed(text: str):
    return default_analysis().parse([text], "en_core_web_sm", ["parse", "lemmas", "ents"])[0]


def test_coh1_standard_deviation_of_mean_term_length():
    # "Cats run." -> cat, run: mean 3; "Elephants sleep." -> elephant, sleep: mean 6.5 -> sigma 1.75.
    assert [terms(s) for s in parsed("Cats run. Elephants sleep.").sents] == [["cat", "run"], ["elephant", "sleep"]]
    rs = responses("Cats run. Elephants sleep.", "Cats run. Cats run.")
    assert COH1.values(REQUEST, rs, default_analysis()) == pytest.approx([1.75, 0.0])
    assert COH1.preferences(REQUEST, rs).tolist() == [[0, -1], [1, 0]]
    # Within a 100 % margin, any two deviations tie... except against exactly 0 (0 vs 1.75: |d| <= 1.75).
    assert COH1(margin_fraction=1.0).preferences(REQUEST, rs).tolist() == [[0, 0], [0, 0]]


def test_coh2_mean_of_maximum_subject_verb_distance():
    # cat(1) -> chased(8): 7. "Cats and dogs chased": subjects 0 and 2, verb 3 -> max 3.
    # Two triples cat(1)-chased(2), dog(7)-ate(8): mean 1. "Sleep." has no triple -> undefined.
    rs = responses(
        "The cat, which was very old, chased the mouse.",
        "Cats and dogs chased the mouse.",
        "The cat chased the mouse and the dog ate the bone.",
        "Sleep.",
    )
    values = COH2.values(REQUEST, rs, default_analysis())
    assert values[:3].tolist() == [7.0, 3.0, 1.0]
    assert np.isnan(values[3])
    assert COH2.preferences(REQUEST, rs).tolist() == [
        [0, -1, -1, 0], [1, 0, -1, 0], [1, 1, 0, 0], [0, 0, 0, 0]
    ]


def test_cov1_counts_distinct_noun_chunks_or_entities():
    text = "The big cat chased a small mouse in the garden. The big cat slept."
    assert aspects(parsed(text), "noun_chunks") == ["the big cat", "a small mouse", "the garden"]
    rs = responses(text, "The cat slept.")
    assert COV1.values(REQUEST, rs, default_analysis()).tolist() == [3.0, 1.0]
    assert COV1.preferences(REQUEST, rs).tolist() == [[0, 1], [-1, 0]]
    ents = COV1(aspect_extraction="entities")
    values = ents.values(REQUEST, responses("Barack Obama visited Berlin and Paris in 2013.", "Nobody came."),
                         default_analysis())
    assert values.tolist() == [4.0, 0.0]


def test_cov2_mean_similarity_includes_self_pairs():
    rs = responses("The cat saw the cat.", "The cat saw the economy.", "Run!")
    values = COV2.values(REQUEST, rs, default_analysis())
    assert values[0] == pytest.approx(1.0, abs=1e-5)  # one aspect: its similarity to itself
    assert 0.5 < values[1] < 1.0  # (1 + 1 + 2 sim) / 4
    assert np.isnan(values[2])  # no aspect: undefined, ties with all
    assert COV2.preferences(REQUEST, rs).tolist() == [[0, -1, 0], [1, 0, 0], [0, 0, 0]]


def test_cov3_and_cons1_abstain_without_reference_aspects():
    no_aspects = GenerationRequest("q", "Why?", None)
    rs = responses("Cats sleep a lot.", "Dogs bark.")
    assert np.isnan(COV3.values(no_aspects, rs, default_analysis())).all()
    assert not COV3.preferences(no_aspects, rs).any()
    assert not CONS1.preferences(no_aspects, rs).any()


def test_cov3_sums_sentence_similarities_per_request_aspect():
    request = GenerationRequest("q", "Tell me about the Eiffel Tower", None)
    rs = responses("The Eiffel Tower is in Paris. The Eiffel Tower is tall.", "Bananas are yellow.")
    values = COV3.values(request, rs, default_analysis())
    assert values[0] > 2 * values[1]
    assert COV3.preferences(request, rs).tolist() == [[0, 1], [-1, 0]]


def test_cons2_rouge_lsum_against_the_context():
    # Context "The cat sat on the mat." (6 tokens); "The cat sat." -> LCS 3: P = 1, R = 0.5, F = 2/3.
    rs = responses("The cat sat.", "A dog ran.", "")
    values = CONS2.values(REQUEST, rs, default_analysis())
    assert values[:2] == pytest.approx([2 / 3, 0.0])
    assert np.isnan(values[2])
    assert CONS2.preferences(REQUEST, rs).tolist() == [[0, 1, 0], [-1, 0, 0], [0, 0, 0]]
    assert not CONS2.preferences(GenerationRequest("q", "cats", None), rs).any()


def test_cons3_share_of_entities_both_negated_and_affirmed():
    rs = responses(
        "She likes Google. She does not like Google.",
        "Anna visited Berlin. Anna did not visit Berlin.",
        "Anna visited Berlin and Paris.",
    )
    assert CONS3.values(REQUEST, rs, default_analysis()).tolist() == [1.0, 0.5, 0.0]
    assert CONS3.preferences(REQUEST, rs).tolist() == [[0, -1, -1], [1, 0, -1], [1, 1, 0]]


def test_corr1_share_of_citing_sentences_and_direction():
    rs = responses("Cats sleep a lot [1]. They hunt at night. They purr [2].", "Cats sleep [1,2].")
    # [1,2] is not the published form
    assert CORR1.values(REQUEST, rs, default_analysis()) == pytest.approx([2 / 3, 0.0])
    assert CORR1.preferences(REQUEST, rs).tolist() == [[0, 1], [-1, 0]]
    assert CORR1(higher_is_better=False).preferences(REQUEST, rs).tolist() == [[0, -1], [1, 0]]
    lists = CORR1(citation_pattern=LIST_CITATION_PATTERN)
    assert lists.values(REQUEST, rs, default_analysis()) == pytest.approx([2 / 3, 1.0])
    with pytest.raises(ValueError, match="citation_pattern"):
        CORR1(citation_pattern="[")


def test_clar2_flesch_reading_ease_and_direction():
    # "The cat sat.": 3 words, 1 sentence, 3 syllables -> 206.835 - 1.015 * 3 - 84.6 * 1 = 119.19.
    rs = responses("The cat sat.", "Elephants are magnificent animals.")
    values = CLAR2.values(REQUEST, rs, default_analysis())
    assert values[0] == pytest.approx(119.19)
    assert values[1] < values[0]
    assert CLAR2.preferences(REQUEST, rs).tolist() == [[0, 1], [-1, 0]]  # easier text preferred
    assert ICTIR2025["CLAR2"].preferences(REQUEST, rs).tolist() == [[0, -1], [1, 0]]  # the paper's Eq. 11


def test_margin_is_relative_and_symmetric():
    rs = responses("Cats sleep a lot [1]. They purr.", "Cats sleep [1]. They purr [2]. They run.")
    # shares 1/2 and 2/3: |d| = 1/6 <= m * 2/3 iff m >= 0.25
    assert CORR1(margin_fraction=0.24).preferences(REQUEST, rs).tolist() == [[0, -1], [1, 0]]
    assert CORR1(margin_fraction=0.25).preferences(REQUEST, rs).tolist() == [[0, 0], [0, 0]]


def test_configuration_is_validated_and_repr_round_trips():
    assert repr(COV1(aspect_extraction="entities", margin_fraction=0.5)) == (
        "COV1(aspect_extraction='entities', margin_fraction=0.5)"
    )
    for axiom in ICTIR2025.values():
        assert parse(repr(axiom)) == axiom
    assert COH1() == COH1 and COH1(margin_fraction=0.75).margin_fraction == 0.75
    with pytest.raises(ValueError, match="margin_fraction"):
        COH1(margin_fraction=-0.1)
    with pytest.raises(ValueError, match="aspect_extraction"):
        COV1(aspect_extraction="keywords")
    with pytest.raises(TypeError, match="no parameter"):
        COH1(margin=0.1)
