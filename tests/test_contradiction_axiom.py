import numpy as np
import pytest

from ir_rag_axioms import GenerationRequest, GenerationResponse, default_analysis, parse
from ir_rag_axioms.metrics.axioms import CONS6

CONTEXT = ["The Eiffel Tower is in Paris and was completed in 1889."]


def test_cons6_prefers_the_answer_the_context_does_not_contradict():
    request = GenerationRequest("q", "Where is the Eiffel Tower and when was it completed?", context=CONTEXT)
    responses = [GenerationResponse("faithful", "The Eiffel Tower is in Paris and was completed in 1889."),
                 GenerationResponse("year", "The Eiffel Tower is in Paris and was completed in 1925."),
                 GenerationResponse("city", "The Eiffel Tower is in Berlin and was completed in 1889.")]
    values = CONS6.values(request, responses, default_analysis())
    assert values[0] == 0.0 and values[1] == 1.0 and values[2] == 1.0
    p = CONS6.preferences(request, responses)
    assert p.tolist() == [[0, 1, 1], [-1, 0, 0], [-1, 0, 0]]


def test_cons6_abstains_without_context_and_on_blank_answers():
    request = GenerationRequest("q", "Where is the Eiffel Tower?")
    responses = [GenerationResponse("a", "It is in Paris."), GenerationResponse("b", "It is in Berlin.")]
    assert np.all(CONS6.preferences(request, responses) == 0)
    with_context = GenerationRequest("q", "Where is the Eiffel Tower?", context=CONTEXT)
    blank = [GenerationResponse("a", "   "), GenerationResponse("b", "The Eiffel Tower is in Berlin.")]
    assert np.all(CONS6.preferences(with_context, blank) == 0)


def test_cons6_parses_and_refuses_the_llm_judge():
    assert repr(parse("CONS6")) == "CONS6()"
    with pytest.raises(ValueError, match="heuristic judge"):
        parse("CONS6(judge='llm')")
