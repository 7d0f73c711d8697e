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


def test_a_cell_run_again_replaces_its_axiom_with_a_warning_and_unregister_is_exported():
    from ir_rag_axioms import REGISTRY, unregister

    source = ("from typing import ClassVar\nfrom ir_rag_axioms import ParsedAxiom, Feature, register\n"
              "class Shout(ParsedAxiom):\n    '''SHOUT_CELL: prefer fewer capitals.'''\n"
              "    name: ClassVar[str] = 'SHOUT_CELL'\n    higher_is_better: bool = False\n"
              "    def feature(self):\n        return Feature('capitals', ('tokens',), lambda doc: sum("
              "c.isupper() for c in doc.text))\nSHOUT = register(Shout())\n")
    cell: dict = {"__name__": "__main__"}  # a notebook's namespace
    code = compile(source, "<cell>", "exec", dont_inherit=True)  # as a notebook runs it: annotations evaluated
    try:
        exec(code, cell)  # noqa: S102 - the cell, run once
        first = REGISTRY["SHOUT_CELL"]
        with pytest.warns(UserWarning, match=r"'SHOUT_CELL' now names the new definition of Shout.*unregister"):
            exec(code, cell)  # noqa: S102 - and again: a new class of the same name
        assert REGISTRY["SHOUT_CELL"] is cell["SHOUT"] and type(REGISTRY["SHOUT_CELL"]) is not type(first)
        with pytest.raises(ValueError, match=r"already registered .* unregister\('SHOUT_CELL'\) first"):
            register(_renamed(CalmnessAxiom, "SHOUT_CELL")())
    finally:
        unregister("SHOUT_CELL")
    assert "SHOUT_CELL" not in REGISTRY


def _renamed(cls, name):
    """A subclass of ``cls`` registered under another short name (a different axiom than the one there)."""
    return type(cls.__name__ + "Renamed", (cls,), {"name": name, "__annotations__": {}, "__module__": __name__})


def test_a_plain_axiom_subclass_is_told_to_subclass_configurable_axiom():
    from ir_rag_axioms import Axiom

    class _Longer(Axiom):
        """LONGER_TEST: prefer the longer text."""

        name: ClassVar[str] = "LONGER_TEST"

        def matrix(self, request, responses, analysis):
            n = np.array([len(r.text) for r in responses])
            return np.sign(n[:, None] - n[None, :]).astype(float)

    with pytest.raises(TypeError, match="subclass ConfigurableAxiom instead"):
        register(_Longer())
