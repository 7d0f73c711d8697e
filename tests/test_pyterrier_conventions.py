"""PyTerrier 1.1 conventions: transformers equal by parameters (plan="tree" shares them), named systems and
baselines, measures by name, and clear errors for runs a measure cannot read."""

from __future__ import annotations

import warnings

import numpy as np
import pandas as pd
import pyterrier as pt
import pytest
from rag_pipelines import PIPELINES, TOPICS

from ir_rag_axioms import COH1, CONS2, COV1
from ir_rag_axioms.evaluation import Experiment
from ir_rag_axioms.evaluation.run_measures import KendallTau
from ir_rag_axioms.pyterrier import AxiomaticPreferences, AxiomaticReranker, AxiomFeatures, LearnedReranker, Pool
from ir_rag_axioms.pyterrier.metrics import MetricScorer

QRELS = pd.DataFrame({"qid": ["1"] * 3 + ["2"] * 3, "docno": ["grounded", "partial", "ungrounded"] * 2,
                      "label": [2, 1, 0, 2, 1, 0]})


@pytest.mark.parametrize(("make", "other"), [
    (lambda: AxiomaticReranker([COH1, CONS2]), lambda: AxiomaticReranker([COH1, CONS2], "kwiksort")),
    (lambda: AxiomaticReranker([COH1, CONS2], weights=[1.0, 2.0]),
     lambda: AxiomaticReranker([COH1, CONS2], weights=[2.0, 1.0])),
    (lambda: AxiomaticPreferences({"a": COH1, "b": CONS2}), lambda: AxiomaticPreferences({"a": CONS2, "b": COH1})),
    (lambda: AxiomFeatures([COV1]), lambda: AxiomFeatures([COV1, CONS2])),
    (lambda: LearnedReranker([COH1, CONS2]), lambda: LearnedReranker([COH1, CONS2], regularization=0.5)),
    (lambda: Pool(PIPELINES), lambda: Pool(PIPELINES, docno="{qid}/{system}")),
    (lambda: MetricScorer(), lambda: MetricScorer({"other": MetricScorer().metrics[0]})),
])
def test_transformers_built_apart_are_equal_by_their_parameters(make, other) -> None:
    a, b, c = make(), make(), other()
    assert a is not b and a == b and hash(a) == hash(b) and len({a, b}) == 1
    assert a != c and c != a and len({a, c}) == 2
    assert a != pt.Transformer.identity()


def test_plan_tree_computes_a_reranker_shared_by_two_pipelines_once(monkeypatch) -> None:
    calls: list[int] = []
    original = AxiomaticReranker.transform

    def counted(self, inp):
        if len(inp):  # pt.Experiment's validation runs each stage on an empty frame first
            calls.append(len(inp))
        return original(self, inp)

    monkeypatch.setattr(AxiomaticReranker, "transform", counted)
    pool = Pool(PIPELINES)
    systems = {"all": pool >> AxiomaticReranker([COH1, CONS2]),
               "best": pool >> AxiomaticReranker([COH1, CONS2]) % 1}  # equal rerankers, built apart
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        linear = Experiment(systems, TOPICS, QRELS, ["KendallTau", "ndcg_cut_3"])
        assert len(calls) == 2
        calls.clear()
        tree = Experiment(systems, TOPICS, QRELS, ["KendallTau", "ndcg_cut_3"], plan="tree", verbose=False)
    assert calls == [6]  # one reranking of the pool's six answers, shared by both pipelines
    pd.testing.assert_frame_equal(tree, linear)
    assert tree.set_index("name").loc["all", "ndcg_cut_3"] > 0


def test_experiment_takes_a_dict_of_systems_and_a_baseline_by_name() -> None:
    pool = Pool(PIPELINES)
    systems = {"reranked": pool >> AxiomaticReranker([CONS2]), "reversed": pool >> AxiomaticReranker([CONS2]) >>
               pt.apply.score(lambda row: -row["score"])}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        ours = Experiment(systems, TOPICS, QRELS, ["ndcg_cut_3", KendallTau], baseline="reranked").set_index("name")
        theirs = pt.Experiment(systems, TOPICS, QRELS, ["ndcg_cut_3", KendallTau], baseline="reranked")
    theirs = theirs.set_index("name")
    assert list(ours.index) == ["reranked", "reversed"]
    for column in ("ndcg_cut_3", "ndcg_cut_3 +", "ndcg_cut_3 -", "ndcg_cut_3 p-value", "KendallTau"):
        assert ours.loc["reversed", column] == pytest.approx(theirs.loc["reversed", column]), column
    assert ours.loc["reversed", "KendallTau"] == pytest.approx(-1.0) and ours.loc["reversed", "KendallTau -"] == 2
    assert np.isnan(ours.loc["reranked", "KendallTau p-value"])  # the baseline's own row
    with pytest.raises(ValueError, match=r"unknown baseline 'bm25'; the systems are \['reranked', 'reversed'\]"):
        Experiment(systems, TOPICS, QRELS, ["ndcg_cut_3"], baseline="bm25")
    with pytest.raises(ValueError, match="the systems are a dict, whose keys name them"):
        Experiment(systems, TOPICS, QRELS, ["ndcg_cut_3"], names=["a", "b"])


def test_experiment_refuses_two_systems_under_one_name() -> None:
    pool = Pool(PIPELINES)
    with pytest.raises(ValueError, match=r"the name\(s\) \['x'\] stand for several systems"):
        Experiment([pool >> AxiomaticReranker([CONS2]), pool >> AxiomaticReranker([COH1])], TOPICS, QRELS,
                   ["ndcg_cut_3"], names=["x", "x"])


def test_our_measures_by_name_where_ir_measures_parses_names() -> None:
    import ir_measures

    from ir_rag_axioms.evaluation import measures
    from ir_rag_axioms.evaluation.run_measures import register_measures

    ours = register_measures()
    assert [str(m) for m in ours] == ["KendallTau", *[str(m) for m in measures()]]
    for measure in ours:
        parsed = ir_measures.parse_measure(str(measure))
        assert parsed == measure and parsed.aggregator().__class__.__name__ == "DefinedMean"
    run = pd.DataFrame({"query_id": ["1"] * 3, "doc_id": ["a", "b", "c"], "score": [3.0, 2.0, 1.0]})
    qrels = pd.DataFrame({"query_id": ["1"] * 3, "doc_id": ["a", "b", "c"], "relevance": [0, 1, 2]})
    assert ir_measures.calc_aggregate([ir_measures.parse_measure("KendallTau")], qrels, run) == {KendallTau: -1.0}
    with pytest.raises(ValueError, match="unknown measure 'KendalTau'"):
        Experiment([pt.Transformer.from_df(run.rename(columns={"query_id": "qid", "doc_id": "docno"}))],
                   pd.DataFrame({"qid": ["1"], "query": ["q"]}), QRELS, ["KendalTau"])


def test_a_run_without_scores_under_kendall_tau_is_a_clear_error() -> None:
    from ir_rag_axioms.evaluation import measures

    unscored = Pool(PIPELINES) >> pt.apply.generic(lambda frame: frame.drop(columns="score"))
    for measure in (KendallTau, measures()[1]):
        with pytest.raises(ValueError, match=f"{measure} compares the run's scores with the qrels' labels, but the "
                                             "run has no score column"):
            pt.Experiment([unscored], TOPICS, QRELS, [measure], validate="ignore")


def test_a_subclass_whose_parameters_cannot_be_read_is_equal_only_to_itself() -> None:
    class Opaque(AxiomaticReranker):
        def __init__(self, axioms, secret: int = 0) -> None:  # secret is not kept as an attribute
            super().__init__(axioms)

    a, b = Opaque([COH1], 1), Opaque([COH1], 2)
    assert a == a and a != b and hash(a) == hash(b)  # same repr, unknown parameters: never merged


def test_experiment_refuses_unnamed_systems_whose_reprs_coincide() -> None:
    """pt.Experiment names an unnamed system by its repr: two pools of other answers under one name were one row."""
    flipped = {name: PIPELINES[other] for name, other in zip(PIPELINES, reversed(list(PIPELINES)), strict=True)}
    systems = [Pool(PIPELINES) >> AxiomaticReranker([CONS2]), Pool(flipped) >> AxiomaticReranker([CONS2])]
    assert str(systems[0]) == str(systems[1])
    with pytest.raises(ValueError, match=r"stand for several systems.*names=\[\.\.\.\] or a dict"):
        Experiment(systems, TOPICS, QRELS, ["ndcg_cut_3"], verbose=False)
    table = Experiment(systems, TOPICS, QRELS, ["ndcg_cut_3"], names=["a", "b"], verbose=False)
    assert list(table["name"]) == ["a", "b"]
    with pytest.raises(ValueError, match="no system to evaluate"):
        Experiment({}, TOPICS, QRELS, ["ndcg_cut_3"])
    with pytest.raises(ValueError, match="no measure given"):  # was pt.Experiment's AssertionError
        Experiment({"a": systems[0]}, TOPICS, QRELS, [])
