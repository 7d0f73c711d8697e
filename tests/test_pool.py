"""Pool: each pipeline's answers stacked with their own context, reranked under any docno names."""

from __future__ import annotations

import pytest
from rag_pipelines import OFF_TOPIC, PIPELINES, TOPICS

from ir_rag_axioms import CONS2
from ir_rag_axioms.pyterrier import AxiomaticPreferences, AxiomaticReranker, AxiomFeatures, Pool


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


# -- 3. abstention is visible ------------------------------------------------------------------------------
def test_a_reranker_that_decides_nothing_says_so_and_keeps_the_input_order() -> None:
    from ir_rag_axioms.pyterrier.transformers import AbstentionWarning

    pooled = Pool(PIPELINES)(TOPICS).drop(columns=["context", "qcontext"])  # CONS2 reads the context: none here
    with pytest.warns(AbstentionWarning, match=r"decided no pair in this run \(2 queries: '1', '2'\)"):
        ranked = AxiomaticReranker([CONS2])(pooled)
    assert ranked["decided"].tolist() == [0] * 6
    assert ranked.groupby("qid")["docno"].apply(list).to_dict() == {  # the input order: by docno (no score)
        q: ["grounded", "partial", "ungrounded"] for q in ("1", "2")}
    # one query without context, the other with: only the first is named
    mixed = Pool(PIPELINES)(TOPICS)
    mixed.loc[mixed["qid"] == "1", ["context", "qcontext"]] = None
    with pytest.warns(AbstentionWarning, match=r"no pair of 1 of 2 queries \(qid '1'\)"):
        ranked = AxiomaticReranker([CONS2])(mixed)
    assert ranked.groupby("qid")["decided"].first().to_dict() == {"1": 0, "2": 3}


def test_a_reranker_that_decides_pairs_does_not_warn() -> None:
    import warnings

    from ir_rag_axioms.pyterrier.transformers import AbstentionWarning

    with warnings.catch_warnings():
        warnings.simplefilter("error", AbstentionWarning)
        ranked = (Pool(PIPELINES) >> AxiomaticReranker([CONS2]))(TOPICS)
    assert (ranked["decided"] == 3).all()


def test_an_axiom_that_decides_nothing_beside_others_is_named() -> None:
    from ir_rag_axioms import COV1
    from ir_rag_axioms.pyterrier.transformers import AbstentionWarning

    pooled = Pool(PIPELINES)(TOPICS).drop(columns=["context", "qcontext"])
    with pytest.warns(AbstentionWarning, match=r"CONS2\(\) decided no pair of this run's 2 queries"):
        ranked = AxiomaticReranker([COV1, CONS2])(pooled)
    assert ranked["decided"].max() > 0  # COV1 decided some
