"""CLAR2's readability formulas: Flesch reading ease (textacy, default) and the textstat formulas, with direction."""

from __future__ import annotations

import pytest

from ir_rag_axioms import CLAR2, GenerationRequest, GenerationResponse
from ir_rag_axioms.axioms.clarity import READABILITY_FORMULAS

REQUEST = GenerationRequest("q", "Why do cats sleep?")
EASY = GenerationResponse("easy", "The cat sat on the mat. It was a sunny day.")
HARD = GenerationResponse(
    "hard", "Notwithstanding considerable interindividual heterogeneity, feline somnolence is pronounced.")


def test_gunning_fog_by_hand():
    # 0.4 * (words / sentences + 100 * complex words / words)
    # easy: 11 words, 2 sentences, no word of 3+ syllables -> 0.4 * 5.5 = 2.2
    # hard: 8 words, 1 sentence, 5 complex (notwithstanding, considerable, interindividual, heterogeneity,
    # somnolence) -> 0.4 * (8 + 62.5) = 28.2
    why = CLAR2(formula="gunning_fog").explain(REQUEST, EASY, HARD)
    assert why.values == pytest.approx((2.2, 28.2))
    assert why.higher_is_better is False and why.decision == 1 and why.winner == "easy"
    assert why.meaning.startswith("Gunning fog index")


@pytest.mark.parametrize("formula", sorted(READABILITY_FORMULAS))
def test_every_formula_prefers_the_easier_text_unless_told_otherwise(formula):
    assert CLAR2(formula=formula).preference(REQUEST, EASY, HARD) == 1
    assert CLAR2(formula=formula, higher_is_better=False).preference(REQUEST, EASY, HARD) == -1
    assert CLAR2(formula=formula).prefers_higher() == READABILITY_FORMULAS[formula][1]


def test_no_words_abstains_and_bad_formula_is_refused():
    symbols = GenerationResponse("symbols", "... !! ??")
    why = CLAR2(formula="smog_index").explain(REQUEST, EASY, symbols)
    assert why.decision == 0 and why.abstention == "symbols: no words or sentences"
    with pytest.raises(ValueError, match="formula must be one of"):
        CLAR2(formula="lix")


def test_default_stays_textacy_flesch_and_parses_back():
    from ir_rag_axioms import parse

    assert CLAR2.formula == "flesch_reading_ease" and repr(CLAR2) == "CLAR2()"
    assert parse("CLAR2(formula='gunning_fog')") == CLAR2(formula="gunning_fog")
    assert CLAR2.explain(REQUEST, EASY, HARD).meaning.startswith("Flesch reading ease (textacy")
