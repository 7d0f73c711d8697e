"""AnswerRelevancy with the heuristic judge knows the question: other questions, fillers, evasions, short answers."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from ir_rag_axioms.metrics import AnswerRelevancy
from ir_rag_axioms.metrics.relevance import FEATURES, RelevanceModel, load_model, non_answer, residual_texts

CASES = Path(__file__).parent / "data" / "relevancy_cases.json"
CASES_2 = Path(__file__).parent / "data" / "relevancy_cases_2.json"


@pytest.mark.parametrize("mode", ["task", "strict"])
@pytest.mark.parametrize(("query", "answer"), [
    ("When was the Eiffel Tower completed?", "In 1889."),
    ("Where is the Eiffel Tower?", "Paris."),
    ("How many planets are in the solar system?", "Eight."),
])
def test_short_direct_answers_are_relevant_in_both_modes(query: str, answer: str, mode: str) -> None:
    """The docs call these direct answers: strict mode scored them 0 (relevance under its "no" threshold)."""
    result = AnswerRelevancy(relevancy_mode=mode).measure(query, answer)
    assert result.score == 1.0
    assert "short answer that gives what" in result.statement_breakdown[0].reason


@pytest.mark.parametrize(("query", "answer", "why"), [
    ("When was the Eiffel Tower built?", "The Eiffel Tower is 330 metres tall and made of wrought iron.",
     "answers another question"),
    ("What are the symptoms of the flu?", "It is important to consider many factors.", "evasion"),
    ("Is it safe to take aspirin with alcohol?", "You should ask your doctor or pharmacist about that.", "evasion"),
])
def test_off_question_statements_are_no(query: str, answer: str, why: str) -> None:
    """A statement on the subject that answers another question, a filler and an evasion score 0."""
    result = AnswerRelevancy().measure(query, answer)
    assert result.score == 0.0
    assert [s.verdict for s in result.statement_breakdown] == ["no"]
    assert why in result.statement_breakdown[0].reason


def test_a_direct_answer_stays_relevant_beside_a_tangent() -> None:
    """The seed's laptop example keeps its verdicts: two features relevant, the founding year not."""
    result = AnswerRelevancy().measure("What features does this laptop have?",
                                       "The laptop has a 15-inch display. It has 16GB RAM. Our company was founded "
                                       "in 2010.")
    assert [s.verdict for s in result.statement_breakdown][:2] == ["yes", "yes"]
    assert result.statement_breakdown[2].verdict == "no"


FLOORS = {"dev": 0.85, "held-out": 0.75}
"""Accuracy measured when the model was shipped (docs/metrics.md, "AnswerRelevancy offline"), rounded down."""


def test_hand_made_cases_keep_their_accuracy() -> None:
    """Accuracy (pass = score >= 0.5 is relevant) on each half at least its floor (``FLOORS``)."""
    cases = json.loads(CASES.read_text())["cases"]
    results = AnswerRelevancy().measure_many([(c["query"], c["answer"]) for c in cases])
    for split in ("dev", "held-out"):
        mine = [(c, r) for c, r in zip(cases, results, strict=True) if c["split"] == split]
        right = sum((r.score >= 0.5) == c["relevant"] for c, r in mine)
        assert right / len(mine) >= FLOORS[split], (split, right, len(mine))


def test_second_batch_held_out_accuracy_floor() -> None:
    """HELD-OUT: the 60 cases of ``relevancy_cases_2.json`` (written before any tuning) at least 0.65 accurate.

    Measured once on the model as shipped: 40/60 = 0.667 (answers to another question caught 4/10); floor = that - 0.02.
    """
    cases = json.loads(CASES_2.read_text())["cases"]
    assert len(cases) == 60 and all(c["split"] == "held-out" for c in cases)
    results = AnswerRelevancy().measure_many([(c["query"], c["answer"]) for c in cases])
    right = sum((r.score >= 0.5) == c["relevant"] for c, r in zip(cases, results, strict=True))
    assert right / len(cases) >= 0.65, right

def test_residual_texts_take_the_subject_out() -> None:
    """What is left of the question is what it asks; of the statement, what it says about the subject."""
    assert residual_texts("When was the Eiffel Tower built?", "The Eiffel Tower is 330 metres tall.") == \
        ("when was built", "the is 330 metres tall")


def test_non_answer_cues() -> None:
    """Sending the user elsewhere or a stock phrase is a non-answer; a specific statement is not."""
    assert non_answer("You can look that up online.")
    assert non_answer("Everyone's situation is different.")
    assert not non_answer("Ask for the dessert menu after the main course; the tiramisu is the best.")


def test_model_probability_and_its_file() -> None:
    """The packaged model reads its own features; P is in (0, 1), higher for a closer statement."""
    model = load_model()
    assert model.metadata["fitted_by"] == "bench/fit_relevance.py"
    low = np.array([0.1, 0.0, 0.1, 0, 1, 1, 1, 1.0, 1, 0, 1.5])
    high = np.array([0.8, 1.0, 0.6, 1, 0, 0, 0, 0.0, 0, 1, 2.0])
    p = model.probability(np.vstack([low, high]))
    assert 0 < p[0] < p[1] < 1
    with pytest.raises(ValueError, match="features"):
        RelevanceModel.from_dict({"features": ["cos"], "coef": [1], "intercept": 0, "mean": [0], "scale": [1],
                                  "cutoff": 0.5})
    assert len(FEATURES) == len(model.coef)
