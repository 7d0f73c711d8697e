"""Pool: each pipeline's answers stacked with their own context, reranked under any docno names."""

from __future__ import annotations

import pandas as pd
import pyterrier as pt
import pytest

from ir_rag_axioms import CONS2
from ir_rag_axioms.pyterrier import AxiomaticPreferences, AxiomaticReranker, AxiomFeatures, Pool

PASSAGES = {
    "1": ["The Eiffel Tower in Paris was completed in 1889 for the World's Fair.",
          "Gustave Eiffel's company designed and built the tower from wrought iron."],
    "2": ["Photosynthesis converts light energy, water and carbon dioxide into glucose and oxygen.",
          "It takes place in the chloroplasts of plant cells, which contain chlorophyll."],
}

OFF_TOPIC = ["Bananas are yellow fruits that are rich in potassium and grow in tropical climates."]

TOPICS = pd.DataFrame({"qid": ["1", "2"], "query": ["When was the Eiffel Tower built?", "What is photosynthesis?"]})

def _rag(answer, context):
    """A toy pyterrier-rag pipeline: one ``qanswer`` and its ``qcontext`` per query, no docno."""
    return pt.apply.generic(lambda topics: topics.assign(
        qanswer=[answer(q) for q in topics["qid"]], qcontext=[context(q) for q in topics["qid"]]))

PIPELINES = {
    # copies its own retrieved passages: the best-supported answer
    "grounded": _rag(lambda q: " ".join(PASSAGES[q]), lambda q: PASSAGES[q]),
    # half of it supported
    "partial": _rag(lambda q: PASSAGES[q][0] + " It is also very popular with tourists and students.",
                    lambda q: PASSAGES[q]),
    # the same facts, but generated from an off-topic context: unsupported by what it retrieved
    "ungrounded": _rag(lambda q: " ".join(PASSAGES[q]), lambda q: OFF_TOPIC),
}

# -- 2. pooling pipelines ------------------------------------------------------------------------------
def test_pool_stacks_each_pipelines_answer_with_its_context() -> None:
    pooled = Pool(PIPELINES)(TOPICS)
    assert pooled["qid"].tolist() == ["1", "1", "1", "2", "2", "2"]
    assert pooled["docno"].tolist() == ["grounded", "partial", "ungrounded"] * 2
    assert pooled["system"].tolist() == pooled["docno"].tolist()
    assert pooled["context"].iloc[2] == OFF_TOPIC and (pooled["score"] == 0.0).all()  # no score given
    assert Pool(PIPELINES, docno="{qid}/{system}")(TOPICS)["docno"].iloc[3] == "2/grounded"

def test_pooled_reranking_puts_the_best_supported_answer_first_under_any_names() -> None:
    ranked = (Pool(PIPELINES) >> AxiomaticReranker([CONS2]))(TOPICS)
    assert ranked.groupby("qid")["docno"].apply(list).to_dict() == {q: ["grounded", "partial", "ungrounded"]
                                                                    for q in ("1", "2")}
    renamed = {"grounded": "z-system", "partial": "m-system", "ungrounded": "a-system"}
    again = (Pool({renamed[k]: v for k, v in PIPELINES.items()}) >> AxiomaticReranker([CONS2]))(TOPICS)
    assert again["docno"].tolist() == ranked["docno"].map(renamed).tolist()
    assert again["score"].tolist() == ranked["score"].tolist()  # Borda points: 2, 0, -2

def test_frames_without_docno_name_the_pool_and_single_candidates_warn() -> None:
    answers = PIPELINES["grounded"](TOPICS)
    for transformer in (AxiomaticReranker([CONS2]), AxiomFeatures([CONS2]), AxiomaticPreferences([CONS2])):
        with pytest.raises(ValueError, match=r"Pool\(\{"):
            transformer(answers)
    single = Pool({"grounded": PIPELINES["grounded"]})(TOPICS)
    with pytest.warns(UserWarning, match="2 of 2 queries have a single candidate"):
        AxiomFeatures([CONS2])(single)
