"""Frames to requests and responses: columns checked by name, each answer's own context, docnos that decide nothing."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from rag_pipelines import OFF_TOPIC, PASSAGES

from ir_rag_axioms import (
    CONS2,
    CORR1,
    AxiomaticReranker,
    GenerationRequest,
    GenerationResponse,
    default_analysis,
)
from ir_rag_axioms.pyterrier import AxiomaticPreferences, AxiomFeatures

GOOD = [GenerationResponse("a", "Cats purr when they are content [1]. They also purr when stressed."),
        GenerationResponse("b", "Purring is a sound. It is made by cats, lions do not purr.")]


@pytest.mark.parametrize("qid", [float("nan"), None, pd.NA])
def test_a_missing_qid_is_refused_by_column_name(qid):
    frame = pd.DataFrame({"qid": ["1", qid], "query": ["Why?"] * 2, "docno": ["a", "b"],
                          "text": [GOOD[0].text, GOOD[1].text]})
    with pytest.raises(ValueError, match=r"AxiomaticReranker: column 'qid' has missing or blank values at row "
                                         r"position\(s\) \[1\]"):
        AxiomaticReranker(CORR1)(frame)


def test_na_text_in_a_string_column_abstains_like_nan():
    texts = pd.array([GOOD[0].text, GOOD[1].text, pd.NA], dtype="string")
    frame = pd.DataFrame({"qid": ["1"] * 3, "query": ["Why?"] * 3, "docno": ["a", "b", "c"], "text": texts})
    out = AxiomaticReranker(CORR1)(frame)
    assert out["docno"].tolist() == ["a", "c", "b"]  # Borda: a cites (+1), c abstains (0), b does not cite (-1)
    assert GenerationResponse("x", pd.NA).text == ""


# -- errors and edge cases ----------------------------------------------------------------------------


def _frame(names: dict[str, str]) -> pd.DataFrame:
    rows = []
    for q in ("1", "2"):
        for system, context in (("grounded", PASSAGES[q]), ("ungrounded", OFF_TOPIC)):
            rows.append({"qid": q, "query": "q", "docno": names[system], "text": " ".join(PASSAGES[q]),
                         "context": context})
    return pd.DataFrame(rows)


# -- 1. each answer's own context ----------------------------------------------------------------------
def test_an_answer_is_judged_against_its_own_context() -> None:
    request = GenerationRequest("1", "When was the Eiffel Tower built?", context=OFF_TOPIC)
    own = GenerationResponse("a", " ".join(PASSAGES["1"]), context=PASSAGES["1"])
    shared = GenerationResponse("b", " ".join(PASSAGES["1"]))  # no own context: the request's (off-topic)
    assert CONS2.preferences(request, [own, shared]).tolist() == [[0.0, 1.0], [-1.0, 0.0]]
    # without a request context the answer without its own abstains
    assert CONS2.preferences(GenerationRequest("1", "q"), [shared, own]).tolist() == [[0.0, 0.0], [0.0, 0.0]]


def test_cons1_reads_each_answers_own_context_aspects() -> None:
    from ir_rag_axioms import CONS1

    text = " ".join(PASSAGES["1"])
    request = GenerationRequest("1", "When was the Eiffel Tower built?")
    own = GenerationResponse("a", text, context=PASSAGES["1"])
    off = GenerationResponse("b", text, context=OFF_TOPIC)
    assert CONS1(margin_fraction=0.0).preferences(request, [own, off]).tolist() == [[0.0, 1.0], [-1.0, 0.0]]
    values = CONS1.values(request, [own, off, GenerationResponse("c", text)], default_analysis())
    assert values[0] > values[1] and np.isnan(values[2])  # no context of its own nor the request's: abstains


def test_renaming_or_reordering_docnos_changes_no_preference() -> None:
    plain = {"grounded": "a", "ungrounded": "b"}
    for names in (plain, {"grounded": "zz", "ungrounded": "aa"}):
        frame = _frame(names)
        for order in (frame, frame.iloc[::-1]):
            prefs = AxiomaticPreferences({"CONS2": CONS2})(order)
            won = prefs[prefs["CONS2"] > 0]
            assert sorted(zip(won["qid"], won["docno_a"], strict=True)) == [("1", names["grounded"]),
                                                                           ("2", names["grounded"])]
            assert len(prefs[prefs["CONS2"] != 0]) == 4  # decided both ways, for both queries


# -- one query per qid ----------------------------------------------------------------------------------
def _two_queries(docnos: list[str], queries: list[str]) -> pd.DataFrame:
    return pd.DataFrame({"qid": "q1", "query": queries, "docno": docnos,
                         "text": ["The moon moon pulls the water.", "The ocean ocean is big."]})


@pytest.mark.parametrize("transformer", [AxiomaticReranker(CORR1), AxiomaticPreferences(CORR1),
                                         AxiomFeatures(CORR1)], ids=repr)
@pytest.mark.parametrize("docnos", [["a", "b"], ["b", "a"]])
def test_two_query_texts_for_one_qid_are_refused(transformer, docnos) -> None:
    with pytest.raises(ValueError, match=r"^qid 'q1' has two query texts, 'moon' and 'ocean'; one text per qid$"):
        transformer(_two_queries(docnos, ["moon", "ocean"]))


def test_query_texts_that_differ_in_whitespace_are_refused_with_a_hint() -> None:
    with pytest.raises(ValueError, match=r"two query texts, ' moon' and 'moon'; one text per qid \(they differ only in "
                                         r"whitespace: e\.g\. frame\['query'\] = frame\['query'\]\.str\.strip\(\)\)"):
        AxiomaticReranker(CORR1)(_two_queries(["a", "b"], ["moon", " moon"]))


def test_a_query_text_that_is_not_a_string_is_refused_in_any_row() -> None:
    with pytest.raises(TypeError, match=r"qid 'q1' has int 7 in column 'query': a query must be a text"):
        AxiomaticReranker(CORR1)(_two_queries(["a", "b"], ["moon", 7]))
