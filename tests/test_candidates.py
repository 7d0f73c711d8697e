"""Candidates: a registered dataset's topics in, each topic's responses out as the rerankers take them."""

from __future__ import annotations

import warnings

import numpy as np
import pandas as pd
import pyterrier as pt
import pytest

from ir_rag_axioms import COH1, AxiomaticReranker, Candidates

pytestmark = pytest.mark.shared


@pytest.fixture(scope="module")
def crowd(data_dir, tmp_path_factory):
    from ir_rag_axioms.datasets import crowd as crowd_files
    from ir_rag_axioms.datasets.irds import register_crowd

    folder = data_dir / "trec-rag-24-crowd"
    register_crowd(folder, name="test-candidates/crowd", cache_dir=tmp_path_factory.mktemp("irds"))
    return pt.get_dataset("irds:test-candidates/crowd"), crowd_files.load_crowd_responses(folder)


def test_every_response_of_each_topic_once_by_docno_with_its_context(crowd) -> None:
    dataset, responses = crowd
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # PyTerrier: "There are multiple query fields available"
        topics = dataset.get_topics().head(4)
    candidates = Candidates(dataset)
    out = candidates(topics)
    assert list(out.columns) == ["qid", "query", "docno", "text", "context", "system", "rank", "score",
                                 "context_ids"]
    assert list(out.columns) == pt.inspect.transformer_outputs(candidates, list(topics.columns))
    expected = responses[responses["topic"].astype(str).isin(topics["qid"])]
    assert len(out) == len(expected) and set(out["docno"]) == set(expected["response"].astype(str))
    assert list(pd.unique(out["qid"])) == list(topics["qid"])  # topics in input order
    for _, group in out.groupby("qid", sort=False):
        assert group["docno"].tolist() == sorted(group["docno"])  # the defined input order: by docno
        assert group["rank"].tolist() == list(range(len(group))) and (group["score"] == -group["rank"]).all()
    row = out.iloc[0]
    source = expected.set_index(expected["response"].astype(str)).loc[row["docno"]]
    assert row["text"] == source["raw_text"] and row["context"] == list(source["references_texts"])
    assert row["system"] == source["name"] and row["query"] == topics.set_index("qid").loc[row["qid"], "query"]


def test_shuffled_topics_rerank_to_the_same_rankings(crowd) -> None:
    dataset, _ = crowd
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        topics = dataset.get_topics().head(3)
    pipeline = Candidates(dataset) >> AxiomaticReranker(COH1)
    first = pipeline(topics)
    again = pipeline(topics.sample(frac=1.0, random_state=1))
    by_qid = {q: g["docno"].tolist() for q, g in first.groupby("qid")}
    assert {q: g["docno"].tolist() for q, g in again.groupby("qid")} == by_qid
    by_name = Candidates("irds:test-candidates/crowd")(topics)
    assert np.array_equal(by_name["docno"], Candidates(dataset)(topics)["docno"])


def test_unknown_topics_warn_and_bad_datasets_are_refused(crowd) -> None:
    dataset, _ = crowd
    topics = pd.DataFrame({"qid": ["no-such-topic"], "query": ["cats"]})
    with pytest.warns(UserWarning, match="1 of 1 topics have no responses in the dataset.*'no-such-topic'"):
        assert Candidates(dataset)(topics).empty
    with pytest.raises(ValueError, match="no dataset 'irds:no/such' is registered"):
        Candidates("irds:no/such")
    with pytest.raises(TypeError, match="not a dataset with documents"):
        Candidates(42)


def test_nugget_candidates_match_the_qrels_in_pt_experiment(data_dir, tmp_path) -> None:
    from ir_measures import nDCG

    from ir_rag_axioms.datasets.irds import register_nuggets

    register_nuggets(data_dir / "trec-rag-24-nuggets", name="test-candidates/nuggets", cache_dir=tmp_path)
    dataset = pt.get_dataset("irds:test-candidates/nuggets")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        topics, qrels = dataset.get_topics().head(2), dataset.get_qrels()
    candidates = Candidates(dataset)(topics)
    assert candidates["context"].isna().all()  # the nugget answers come without their passages
    assert all(d.startswith(f"{q}/") for q, d in zip(candidates["qid"], candidates["docno"], strict=True))
    assert candidates["docno"].isin(qrels["docno"]).mean() > 0.9  # the qrels' docnos: pt.Experiment joins them
    assert (candidates["system"] == candidates["docno"].str.split("/", n=1).str[1]).all()
    table = pt.Experiment([Candidates(dataset), Candidates(dataset) >> AxiomaticReranker(COH1)], topics,
                          qrels[qrels["qid"].isin(topics["qid"])], eval_metrics=[nDCG @ 10], names=["docno", "COH1"])
    assert table["nDCG@10"].between(0, 1).all()
