"""Adding an axiom: about ten lines in any module make it known to parse, the checks, the reranker and evaluate."""

from __future__ import annotations

from typing import Any, ClassVar

import numpy as np
import pandas as pd
import pytest

from ir_rag_axioms import Feature, ParsedAxiom, register


def exclamations_per_sentence(doc: Any) -> float:
    """Exclamation marks per sentence (NaN without sentences)."""
    sentences = list(doc.sents)
    return sum(token.text.count("!") for token in doc) / len(sentences) if sentences else float("nan")


@register
class CalmnessAxiom(ParsedAxiom):
    """CALM: prefer fewer exclamation marks per sentence."""

    name: ClassVar[str] = "CALM"
    higher_is_better: bool = False

    def feature(self) -> Feature:
        """Exclamation marks per sentence."""
        return Feature("exclamations_per_sentence", ("parse",), exclamations_per_sentence)


def test_the_new_axiom_is_known_everywhere_at_once():
    from ir_rag_axioms import names, parse
    from ir_rag_axioms.testing import check_axiom

    assert "CALM" in names()
    calm = parse("CALM(margin_fraction=0.1)")
    assert calm == CalmnessAxiom(margin_fraction=0.1) and repr(calm) == "CALM(margin_fraction=0.1)"
    matrix = check_axiom(calm)
    assert matrix[0, 2] == 1 and matrix[2, 4] == 1 and not matrix[5].any()  # calm > one "!" > "!!"; blank abstains
    with pytest.raises(ValueError, match="already registered"):
        register(CalmnessAxiom(margin_fraction=0.3))


def test_the_new_axiom_reranks_and_is_evaluated():
    from ir_rag_axioms import COV1, AxiomaticReranker, evaluate_axioms
    from ir_rag_axioms.testing import SAMPLE_REQUEST, SAMPLE_RESPONSES

    frame = pd.DataFrame({"qid": "q1", "query": SAMPLE_REQUEST.text, "docno": [r.id for r in SAMPLE_RESPONSES],
                          "text": [r.text for r in SAMPLE_RESPONSES]})
    ranked = AxiomaticReranker(["CALM"]).transform(frame)
    assert list(ranked["docno"])[-2:] == ["r2", "r4"]  # one "!" in three sentences, then "!!" in one
    items = [(SAMPLE_REQUEST, SAMPLE_RESPONSES)]
    table = evaluate_axioms({"CALM": CalmnessAxiom()}, items, oracle=COV1)
    assert table.loc[0, "axiom"] == "CALM" and 0 < table.loc[0, "decisiveness"] <= 1
    assert np.isfinite(table.loc[0, "consistency"])
