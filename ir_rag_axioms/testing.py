"""Checks for test suites: ``check_axiom(MY_AXIOM)`` (axiom properties) and DeepEval-style metric assertions.

``assert_test(RagTestCase(...), [AnswerRelevancy(), Faithfulness()])`` and ``assert_metric(result)`` come from
``ir_rag_axioms.metrics.assertions``; the pytest plugin ``ir_rag_axioms.pytest_plugin`` adds the ``rag_assert``
fixture.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from ir_rag_axioms.axioms.base import Axiom
from ir_rag_axioms.metrics.assertions import RagTestCase, assert_metric, assert_test, check_test

__all__ = ["SAMPLE_REQUEST", "SAMPLE_RESPONSES", "RagTestCase", "assert_metric", "assert_test", "check_axiom",
           "check_test"]
from ir_rag_axioms.model import GenerationRequest, GenerationResponse

SAMPLE_REQUEST = GenerationRequest(
    "q1", "Why do domestic cats sleep so much during the day?",
    ("Domestic cats sleep between 12 and 16 hours a day. Cats are crepuscular animals.",
     "Sleeping saves energy for hunting. Kittens and old cats sleep even more."),
)
"""A request with two context passages."""
SAMPLE_RESPONSES = [
    GenerationResponse(f"r{i}", text, rank=i + 1, score=float(6 - i)) for i, text in enumerate([
        "Cats sleep 12 to 16 hours a day to save energy for hunting [1]. Kittens sleep even more [2].",
        "Domestic cats are crepuscular, so they are active at dawn and dusk and sleep during the day [1].",
        "Cats sleep. Cats sleep a lot. Sleep is what cats do, and cats do not sleep at night in Paris!",
        "- Energy saving [1]\n- Hunting instincts [2]\n- Crepuscular rhythm [1,2]",
        "Notwithstanding considerable interindividual heterogeneity, feline somnolence is pronounced!!",
        "   ",
    ])
]
"""Six responses of different kinds, one of them blank."""


def check_axiom(axiom: Axiom, request: GenerationRequest = SAMPLE_REQUEST,
                responses: Sequence[GenerationResponse] = SAMPLE_RESPONSES, deterministic: bool = True) -> np.ndarray:
    """Assert the properties every axiom has; return the matrix.

    Antisymmetry, zero diagonal, finite entries, permutation equivariance, determinism and a repr that parses back.
    """
    from ir_rag_axioms.axioms.registry import parse

    responses = list(responses)
    matrix = axiom.preferences(request, responses)
    n = len(responses)
    assert matrix.shape == (n, n), f"{axiom!r}: shape {matrix.shape}, expected {(n, n)}"
    assert np.isfinite(matrix).all(), f"{axiom!r}: non-finite preferences"
    assert not np.diag(matrix).any(), f"{axiom!r}: a response is preferred over itself"
    assert np.array_equal(matrix, -matrix.T), f"{axiom!r}: P[i, j] != -P[j, i]{_product_note(axiom)}"
    order = np.random.default_rng(0).permutation(n)
    permuted = axiom.preferences(request, [responses[i] for i in order])
    if deterministic:
        assert np.array_equal(permuted, matrix[np.ix_(order, order)]), f"{axiom!r}: depends on the response order"
        assert np.array_equal(axiom.preferences(request, responses), matrix), f"{axiom!r}: not deterministic"
    assert parse(repr(axiom), allow_paths=True) == axiom, f"{axiom!r}: its repr does not parse back to it"
    return matrix


PRODUCT_NOTE = ("; it holds a product (`*`, `Product`), which multiplies the preferences entry by entry as the "
                "reference's ProductAxiom does: a product of two (an even number of) antisymmetric matrices is "
                "symmetric, P[j, i] = P[i, j], so it prefers each answer of a pair over the other and is no preference "
                "matrix (only a weight, 2 * a, or an odd number of factors keeps the sign). Combine axioms with "
                "+, %, | or & instead (a & b: prefer where both agree)")
"""What ``check_axiom`` adds when an axiom holding a ``Product`` is not antisymmetric."""


def _product_note(axiom: Axiom) -> str:
    """``PRODUCT_NOTE`` if ``axiom`` is or holds a ``Product`` of two or more axioms (not only numbers), else ""."""
    from ir_rag_axioms.axioms.combinators import Constant, Product

    todo: list[object] = [axiom]
    while todo:
        part = todo.pop()
        children = getattr(part, "axioms", ())
        if isinstance(part, Product) and sum(not isinstance(c, Constant) for c in children) >= 2:
            return PRODUCT_NOTE
        todo.extend(c for c in (children if isinstance(children, tuple) else ()) if isinstance(c, Axiom))
        inner = getattr(part, "axiom", None)
        if isinstance(inner, Axiom):
            todo.append(inner)
    return ""
