"""The citation parser: a pattern that would backtrack catastrophically is an error within seconds."""

from __future__ import annotations

import time

import pytest

from ir_rag_axioms import (
    COH1,
    CORR1,
    GenerationRequest,
    GenerationResponse,
)

REQUEST = GenerationRequest("q", "Why do cats purr?", ["Cats purr when they are content or stressed."])


def test_a_catastrophically_backtracking_citation_pattern_is_an_error_within_seconds():
    axiom = CORR1(citation_pattern=r"(a|aa)+$")
    # (a|aa)+$ takes about 1.6^n steps on n a's and a "!": 30 ran in 0.7 s on an idle machine, under the 1 s bound
    responses = [GenerationResponse("a", "a" * 40 + "!"), GenerationResponse("b", "Dogs bark.")]
    COH1.preferences(REQUEST, responses)  # the parse is ready: the time below is the pattern's
    start = time.monotonic()
    with pytest.raises(ValueError, match=r"CORR1: citation_pattern .* backtracks catastrophically"):
        axiom.preferences(REQUEST, responses)
    assert time.monotonic() - start < 30
    with pytest.raises(ValueError, match="over the limit of 1,000"):
        CORR1(citation_pattern="a" * 1001)
