"""Preconditions: one that cannot serve is refused when the axiom is built."""

from __future__ import annotations

import pytest

from ir_rag_axioms import GenerationRequest, GenerationResponse


def test_a_precondition_that_cannot_serve_is_refused_when_the_axiom_is_built() -> None:
    from ir_rag_axioms import NOP, TFC1
    from ir_rag_axioms.axioms.utility import NopAxiom

    with pytest.raises(TypeError, match=r"TFC1: precondition must be an instance, NopAxiom\(\)"):
        TFC1(precondition=NopAxiom)
    with pytest.raises(TypeError, match=r"LEN\(\.\.\.\), None or NOP\(\)"):
        TFC1(precondition="LEN")
    request = GenerationRequest("1", "cat")
    assert TFC1(precondition=NOP).preferences(request, [GenerationResponse("a", "cat cat"),
                                                        GenerationResponse("b", "dog")]).tolist() == [[0, 1], [-1, 0]]
