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


def test_hooks_receive_the_analysis_given_to_preferences():
    from ir_rag_axioms import Analysis, Axiom, GenerationRequest, GenerationResponse
    from ir_rag_axioms.analysis.features import TERMS
    from ir_rag_axioms.analysis.resources import DEFAULT_SPACY_MODEL
    from ir_rag_axioms.axioms.base import FeatureAxiom

    seen = []

    class _Seen(Axiom):
        """A matrix axiom that records the analysis it ran under."""

        def matrix(self, request, responses, analysis):
            seen.append(analysis)
            return np.zeros((len(responses), len(responses)))

    class _Words(FeatureAxiom):
        """A feature axiom: the number of terms, read from the analysis it is given."""

        def values(self, request, responses, analysis):
            seen.append(analysis)
            found = analysis.features(DEFAULT_SPACY_MODEL, TERMS, [r.text for r in responses])
            return np.array([len(t or ()) for t in found], dtype=np.float64)

    request = GenerationRequest("q", "cats")
    responses = [GenerationResponse("a", "Cats sleep."), GenerationResponse("b", "Cats sleep a lot, really.")]
    mine = Analysis(store=None)
    assert not _Seen().preferences(request, responses, analysis=mine).any()
    assert _Words().preferences(request, responses, analysis=mine).tolist() == [[0, -1], [1, 0]]
    (_Words() + _Seen()).preferences(request, responses, analysis=mine)
    assert seen and all(a is mine for a in seen)


def test_a_hook_of_the_old_signature_warns_and_runs_under_the_given_analysis():
    from ir_rag_axioms import Analysis, GenerationRequest, GenerationResponse
    from ir_rag_axioms.analysis.cache import scoped_analysis
    from ir_rag_axioms.axioms.base import FeatureAxiom

    scopes = []
    with pytest.warns(DeprecationWarning, match=r"values\(\) has no 'analysis' parameter"):
        class _Old(FeatureAxiom):
            """An axiom written before hooks received the analysis."""

            def values(self, request, responses):
                scopes.append(scoped_analysis())
                return np.array([len(r.text) for r in responses], dtype=np.float64)

    request = GenerationRequest("q", "cats")
    responses = [GenerationResponse("a", "short"), GenerationResponse("b", "a longer one")]
    mine = Analysis(store=None)
    assert _Old().preferences(request, responses, analysis=mine).tolist() == [[0, -1], [1, 0]]
    assert scopes == [mine]  # the old body ran inside ``with analysis:``, so its tools read that analysis
    assert _Old().values(request, responses).tolist() == [5.0, 12.0]  # called the old way, it runs as written
