"""Explanations: the decision of every registered axiom's explanation equals its matrix entry; the numbers shown."""

from __future__ import annotations

import json

import numpy as np
import pytest

from ir_rag_axioms import COH1, CONS2, CORR1, COV1, COV3, GenerationRequest, GenerationResponse
from ir_rag_axioms.analysis.resources import ToolUnavailableError
from ir_rag_axioms.axioms.registry import get, names
from ir_rag_axioms.datasets.files import DataFileError
from ir_rag_axioms.demo import load_demo

ITEMS = load_demo()


@pytest.mark.parametrize("name", names())
def test_explanation_decision_equals_matrix_entry_on_the_demo_sample(name):
    axiom = get(name)
    for request, responses in ITEMS:
        try:
            matrix = axiom.preferences(request, responses)
        except (ToolUnavailableError, DataFileError) as error:
            pytest.skip(f"{name} needs a tool or data that is not available here: {str(error)[:80]}")
        explanations = axiom.explanations(request, responses)
        n = len(responses)
        assert len(explanations) == n * (n - 1)
        for e in explanations:
            i = [r.id for r in responses].index(e.first)
            j = [r.id for r in responses].index(e.second)
            assert e.decision == matrix[i, j], (name, e.first, e.second)
            assert e.winner == (e.first if matrix[i, j] > 0 else e.second if matrix[i, j] < 0 else None)
            json.dumps(e.to_dict())  # serialisable
            assert str(e).startswith(repr(axiom))


def test_pair_form_equals_preference():
    request, responses = ITEMS[0]
    for axiom in (COV1, CONS2, COH1 | CORR1, COV1 % CORR1 % COH1):
        for a, b in ((0, 3), (3, 0), (1, 2)):
            e = axiom.explain(request, responses[a], responses[b])
            assert e.decision == axiom.preference(request, responses[a], responses[b])


REQUEST = GenerationRequest("q", "What do cats eat?", ["Cats eat meat. Cats hunt mice and birds."])


def test_cov1_counts_and_lists_the_aspects():
    a = GenerationResponse("a", "Cats eat meat, fish and mice.")
    b = GenerationResponse("b", "Cats eat.")
    e = COV1.explain(REQUEST, a, b)
    aspects_a, aspects_b = e.details["aspects"]
    assert e.values == (len(aspects_a), len(aspects_b))
    assert e.values[0] > e.values[1] and e.decision == 1 and e.winner == "a"
    assert {"meat", "fish", "mice"} <= set(aspects_a)
    assert e.within_margin is False and e.higher_is_better is True
    assert "Number of distinct aspects: a 5 vs b 1" in str(e) or f"a {len(aspects_a)} vs b" in str(e)


def test_margin_and_abstention_reasons():
    a = GenerationResponse("a", "Cats eat meat [1] and fish. They hunt at night.")  # 3 sentences for spaCy
    b = GenerationResponse("b", "Cats eat meat [1] and fish. They hunt mice [2] at night.")
    e = CORR1(margin_fraction=0.6).explain(REQUEST, a, b)
    assert e.details["sentences with a citation"] == ("1 of 3", "2 of 3")
    assert e.values == (1 / 3, 2 / 3) and e.within_margin is True and e.decision == 0  # 1/3 <= 0.6 * 2/3
    assert "inside the margin" in str(e)
    e = CORR1(margin_fraction=0.4).explain(REQUEST, a, b)
    assert e.within_margin is False and e.decision == -1 and e.winner == "b"  # 1/3 > 0.4 * 2/3
    blank = GenerationResponse("c", "   ")
    e = CORR1.explain(REQUEST, a, blank)
    assert e.decision == 0 and e.abstention == "c: blank response" and np.isnan(e.values[1])
    assert e.to_dict()["values"] == [1 / 3, None]
    no_context = GenerationRequest("q", "What do cats eat?")
    e = CONS2.explain(no_context, a, b)
    assert e.decision == 0 and e.abstention == "a: no context; b: no context"
    e = get("CONS1").explain(no_context, a, b)
    assert e.abstention == "a: no context; b: no context"
    e = COV3.explain(GenerationRequest("q", "the of and"), a, b)  # no noun chunk in the request
    assert e.abstention == "a: no request aspects; b: no request aspects"


def test_cov3_best_sentence_per_aspect():
    a = GenerationResponse("a", "Cats eat meat. The weather is nice.")
    b = GenerationResponse("b", "Dogs bark.")
    e = COV3.explain(REQUEST, a, b)
    (best_a, best_b), = e.details.values()
    assert len(best_a) == len(best_b) == 2  # the request's noun chunks: 'what', 'cats'
    assert best_a[1].startswith("'cats' ~") and best_a[1].endswith(": Cats eat meat.")
    assert best_b[1].endswith(": Dogs bark.")


def test_cascade_names_the_deciding_part_and_vote_lists_votes():
    a = GenerationResponse("a", "Cats eat meat [1]. They hunt mice [2].")
    b = GenerationResponse("b", "Cats eat meat, fish, mice, birds and insects.")
    cascade = CORR1 | COV1
    e = cascade.explain(REQUEST, a, b)
    assert e.decision == 1 and e.note == "decided by part 1 of 2: CORR1()"
    assert [p.axiom for p in e.parts] == ["CORR1()", "COV1()"]
    vote = CORR1 % COV1 % COH1
    e = vote.explain(REQUEST, a, b)
    pro = sum(p.decision > 0 for p in e.parts)
    contra = sum(p.decision < 0 for p in e.parts)
    assert e.note.startswith(f"votes: {pro} for a, {contra} for b")


def test_term_axiom_shows_the_precondition():
    tfc1 = get("TFC1")
    a = GenerationResponse("a", "Cats eat meat. Cats eat fish. Cats eat mice.")
    b = GenerationResponse("b", "Cats eat.")
    e = tfc1.explain(REQUEST, a, b)
    assert e.precondition is False and e.decision == 0  # lengths differ by more than 10 %
    assert "before the precondition LEN()" in e.note


def test_explain_checks_its_input():
    request, responses = ITEMS[0]
    with pytest.raises(ValueError, match="not among the responses"):
        COV1.explain(request, responses[0], GenerationResponse("x", "text"), responses=responses[:3])
    with pytest.raises(TypeError):
        COV1.explain("not a request", responses[0], responses[1])
