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


# -- inspection and checks before any work -------------------------------------------------------------------
def _counting(calls: list, name: str):
    """The pipeline ``name`` of PIPELINES, recording the qids of each call."""
    import pyterrier as pt

    def run(topics):
        calls.append((name, list(topics["qid"])))
        return PIPELINES[name](topics)
    return pt.apply.generic(run)


def test_pool_and_metric_scorer_are_inspectable_as_they_transform() -> None:
    import pyterrier as pt

    from ir_rag_axioms import AnswerRelevancy, Faithfulness, MetricScorer

    pool = Pool(PIPELINES)
    assert pt.inspect.transformer_inputs(pool) == [["qid", "query"]]
    assert pt.inspect.transformer_outputs(pool, ["qid", "query"]) == list(pool(TOPICS).columns)
    assert list(pt.inspect.subtransformers(pool)) == list(PIPELINES)
    with pytest.raises(pt.validate.InputValidationError):
        pt.inspect.transformer_outputs(pool, ["qid"])
    scorer = MetricScorer([AnswerRelevancy(), Faithfulness()])
    assert pt.inspect.transformer_inputs(scorer) == [["qid", "query", "text"], ["qid", "query", "qanswer"],
                                                     ["qid", "query_0", "text"], ["qid", "query_0", "qanswer"]]
    answers = PIPELINES["grounded"](TOPICS)
    assert pt.inspect.transformer_outputs(scorer, list(answers.columns)) == list(scorer(answers).columns)
    pipeline = pool >> scorer
    assert pt.inspect.transformer_outputs(pipeline, ["qid", "query"]) == list(pipeline(TOPICS).columns)


def test_pt_experiment_with_the_metric_scorer_prints_no_validation_report(recwarn) -> None:
    import pandas as pd
    import pyterrier as pt

    from ir_rag_axioms import Faithfulness, MetricScorer

    scorer = MetricScorer([Faithfulness()])
    qrels = pd.DataFrame({"qid": ["1", "2"], "docno": ["grounded", "grounded"], "label": [1, 1]})
    table = pt.Experiment([Pool(PIPELINES) >> AxiomaticReranker([CONS2]) >> scorer], TOPICS, qrels,
                          eval_metrics=scorer.measures(), names=["pooled"])
    assert table.loc[0, "faithfulness_score"] == 1.0  # the grounded answer is on top of both queries
    assert not [w for w in recwarn if "Validation Report" in str(w.message)]


def test_a_retriever_cache_around_a_pool_runs_every_query_at_once(tmp_path) -> None:
    pytest.importorskip("pyterrier_caching")
    import warnings

    from pyterrier_caching import RetrieverCache

    calls: list = []
    cached = RetrieverCache(str(tmp_path / "cache"), Pool({n: _counting(calls, n) for n in PIPELINES}))
    with warnings.catch_warnings():
        warnings.simplefilter("error", UserWarning)  # "Running retriever one query at a time ..."
        first = cached(TOPICS)
    assert calls == [(name, ["1", "2"]) for name in PIPELINES]  # one call per pipeline, both queries
    again = cached(TOPICS)
    assert len(calls) == len(PIPELINES) and again["docno"].tolist() == first["docno"].tolist()  # served cached


def test_the_docno_rule_is_checked_before_any_pipeline_runs() -> None:
    with pytest.raises(ValueError, match=r"docno template '\{system\}/\{q\}' does not format"):
        Pool(PIPELINES, docno="{system}/{q}")
    with pytest.raises(ValueError, match=r"names \['qid.upper'\]"):
        Pool(PIPELINES, docno="{system}/{qid.upper}")
    calls: list = []
    with pytest.raises(ValueError, match="the docno rule gave ''"):
        Pool({n: _counting(calls, n) for n in PIPELINES}, docno=lambda qid, system: "" if qid == "2" else system)(
            TOPICS)
    assert calls == []  # refused before any pipeline ran
