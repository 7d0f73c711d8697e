"""Round 3 of the PyTerrier side: qid types in our measures, duplicate qrels, NaN scores, clashing axiom names,
evaluations without pairs, and frames whose ``text`` and ``qanswer`` disagree."""

from __future__ import annotations

import warnings

import numpy as np
import pandas as pd
import pyterrier as pt
import pytest

from ir_rag_axioms import ResponseLength
from ir_rag_axioms.model import GenerationRequest, GenerationResponse

NAMES = ["KendallTau", "AxiomDecisiveness", "AxiomConsistency", "AxiomConsistencyStrict", "AxiomEffectiveness"]


def _our_measures() -> list:
    from ir_rag_axioms.evaluation import measures
    from ir_rag_axioms.evaluation.run_measures import KendallTau

    return [KendallTau, *measures()]


def _perfect(typ: type) -> tuple[pt.Transformer, pd.DataFrame, pd.DataFrame]:
    """Two queries of three answers each, scored in the qrels' order: every measure is 1.0."""
    run = pd.DataFrame({"qid": [typ(1)] * 3 + [typ(2)] * 3, "query": "q", "docno": list("abc") * 2,
                        "score": [3.0, 2.0, 1.0] * 2})
    qrels = pd.DataFrame({"qid": [typ(1)] * 3 + [typ(2)] * 3, "docno": list("abc") * 2, "label": [2, 1, 0] * 2})
    topics = pd.DataFrame({"qid": [typ(1), typ(2)], "query": "q"})
    return pt.Transformer.from_df(run), topics, qrels


# -- 01: int qids are counted once -------------------------------------------------------------------------------
@pytest.mark.parametrize("typ", [int, str])
def test_int_and_str_qids_give_every_measure_the_same_figure(typ: type) -> None:
    from ir_rag_axioms.evaluation import Experiment

    system, topics, qrels = _perfect(typ)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        table = pt.Experiment([system], topics, qrels, _our_measures(), names=["s"])
        ours = Experiment([system], topics, qrels, _our_measures(), names=["s"])
        per_query = pt.Experiment([system], topics, qrels, _our_measures()[:1], names=["s"], perquery=True)
    assert {n: table.iloc[0][n] for n in NAMES} == dict.fromkeys(NAMES, 1.0)
    assert {n: ours.iloc[0][n] for n in NAMES} == dict.fromkeys(NAMES, 1.0)
    assert sorted(per_query["qid"].astype(str)) == ["1", "2"] and per_query["value"].tolist() == [1.0, 1.0]


def test_int_qids_give_metric_measures_the_figure_of_str_qids() -> None:
    from ir_rag_axioms import Faithfulness
    from ir_rag_axioms.pyterrier.metrics import metric_measures

    run = pd.DataFrame({"qid": [1, 1, 2, 2], "query": "q", "docno": ["a", "b", "a", "b"],
                        "score": [2.0, 1.0, 2.0, 1.0], "x_score": [1.0, 0.0, 0.5, 0.0]})
    qrels = pd.DataFrame({"qid": run.qid, "docno": run.docno, "label": [1, 0, 1, 0]})
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        table = pt.Experiment([pt.Transformer.from_df(run)], pd.DataFrame({"qid": [1, 2], "query": "q"}), qrels,
                              metric_measures({"x": Faithfulness()}), names=["s"])
    assert table.iloc[0]["x_score"] == 0.75  # the top answers' 1.0 and 0.5, each query once


# -- 02: a (qid, docno) judged twice --------------------------------------------------------------------------
RUN4 = pd.DataFrame({"qid": "1", "query": "q", "docno": list("abcd"), "score": [4.0, 3.0, 2.0, 1.0]})
TOPIC = pd.DataFrame({"qid": ["1"], "query": ["q"]})


@pytest.mark.parametrize("index", [0, 1])  # KendallTau, AxiomDecisiveness
def test_qrels_judging_an_answer_twice_are_refused_by_name(index: int) -> None:
    qrels = pd.DataFrame({"qid": "1", "docno": list("abcda"), "label": [3, 2, 1, 0, 2]})
    with pytest.raises(ValueError, match=r"the qrels judge \(qid '1', docno 'a'\) 2 times, labels \[3, 2\]"):
        pt.Experiment([pt.Transformer.from_df(RUN4)], TOPIC, qrels, [_our_measures()[index]], names=["s"])


def test_qrels_judging_each_answer_once_still_score() -> None:
    qrels = pd.DataFrame({"qid": "1", "docno": list("abcde"), "label": [3, 2, 1, 0, 2]})  # 'e': not in the run
    table = pt.Experiment([pt.Transformer.from_df(RUN4)], TOPIC, qrels, _our_measures()[:2], names=["s"])
    assert table.iloc[0]["KendallTau"] == 1.0 and table.iloc[0]["AxiomDecisiveness"] == 1.0


# -- 03: a NaN score abstains -----------------------------------------------------------------------------------
def test_kendall_tau_is_over_the_answers_with_a_score() -> None:
    qrels = pd.DataFrame({"qid": "1", "docno": list("abcd"), "label": [3, 2, 1, 0]})
    for scores in ([4.0, np.nan, 2.0, 1.0], [np.nan, 3.0, np.nan, 1.0]):
        run = RUN4.assign(score=scores)
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            table = pt.Experiment([pt.Transformer.from_df(run)], TOPIC, qrels, _our_measures()[:1], names=["s"])
        assert table.iloc[0]["KendallTau"] == 1.0, scores
        assert not [w for w in caught if "KendallTau is undefined" in str(w.message)]


def test_kendall_tau_with_one_scored_answer_says_why_it_is_undefined() -> None:
    run = pd.concat([RUN4, RUN4.assign(qid="2", score=[np.nan, np.nan, np.nan, 1.0])])
    qrels = pd.DataFrame({"qid": ["1"] * 4 + ["2"] * 4, "docno": list("abcd") * 2, "label": [3, 2, 1, 0] * 2})
    topics = pd.DataFrame({"qid": ["1", "2"], "query": "q"})
    with pytest.warns(UserWarning, match=r"KendallTau is undefined for 1 of 2 queries \(e.g. qid 2: fewer than two "
                                         r"answers with a score"):
        table = pt.Experiment([pt.Transformer.from_df(run)], topics, qrels, _our_measures()[:1], names=["s"])
    assert table.iloc[0]["KendallTau"] == 1.0  # the defined query's


# -- 09: axiom names that are id columns --------------------------------------------------------------------------
PASSAGES = ["Tides are caused mainly by the gravitational pull of the Moon and the Sun on the oceans."]
ANSWERS = pd.DataFrame({"qid": "q1", "query": "What causes tides?", "docno": ["d0", "d1", "d2"],
                        "context": [PASSAGES] * 3,
                        "text": ["Tides are caused by the gravitational pull of the Moon and the Sun.",
                                 "Tides come from the wind.", "The Moon."]})


@pytest.mark.parametrize(("names", "explain", "message"), [
    ({"qid": ResponseLength()}, False, "the axiom name 'qid' is an id column of the preferences table"),
    ({"LEN": ResponseLength(), "docno_a": ResponseLength()}, False, "the axiom name 'docno_a' is an id column"),
    ({"A": ResponseLength(), "A_explanation": ResponseLength()}, True,
     "the axiom name 'A_explanation' is the explanation column of axiom 'A'"),
])
def test_axiom_names_that_would_overwrite_a_column_are_refused(names: dict, explain: bool, message: str) -> None:
    from ir_rag_axioms.pyterrier import AxiomaticPreferences

    with pytest.raises(ValueError, match=message):
        AxiomaticPreferences(names, explain=explain)


def test_axiomatic_experiment_refuses_the_names_orig_and_oracle() -> None:
    from ir_rag_axioms.evaluation.experiment import AxiomaticExperiment

    with pytest.raises(ValueError, match="AxiomaticExperiment: the axiom name 'ORACLE' is an id column"):
        AxiomaticExperiment(ANSWERS, pd.DataFrame(), {"ORACLE": ResponseLength()})
    AxiomaticExperiment(ANSWERS, pd.DataFrame(), {"LEN": ResponseLength()})  # another name: fine


def test_other_axiom_names_keep_the_id_columns() -> None:
    from ir_rag_axioms.pyterrier import AxiomaticPreferences

    out = AxiomaticPreferences({"LEN": ResponseLength(), "A_explanation": ResponseLength()})(ANSWERS)  # no explain
    assert list(out.columns) == ["qid", "query", "docno_a", "docno_b", "LEN", "A_explanation"]
    assert set(out["qid"]) == {"q1"} and out["docno_a"].tolist()[:2] == ["d0", "d0"]
    assert out.loc[(out.docno_a == "d0") & (out.docno_b == "d1"), "LEN"].tolist() == [1.0]


# -- 12: no pair to evaluate ------------------------------------------------------------------------------------
def test_evaluation_without_a_pair_is_undefined_not_zero() -> None:
    from ir_rag_axioms import evaluation
    from ir_rag_axioms.evaluation import UndecidedAxiomWarning

    one = [(GenerationRequest("q1", "What causes tides?"), [GenerationResponse("d0", "The Moon.")])]
    for items, oracle in (([], []), (one, [np.zeros((1, 1))])):
        with pytest.warns(UndecidedAxiomWarning, match="no pair to evaluate"):
            table = evaluation.evaluate_axioms({"LEN": ResponseLength()}, items, oracle)
        assert table[["decisiveness", "consistency", "consistency_strict", "effectiveness"]].isna().all(axis=None)
    scores = evaluation.evaluate_preferences([np.zeros((1, 1))], [np.zeros((1, 1))])
    assert all(np.isnan(v) for v in scores.values())
    assert np.isnan(evaluation.decisiveness([np.zeros((1, 1))]))


def test_an_axiom_that_abstains_on_its_pairs_still_has_decisiveness_zero() -> None:
    from ir_rag_axioms import evaluation

    scores = evaluation.evaluate_preferences([np.zeros((1, 1)), np.zeros((2, 2))], [np.zeros((1, 1)),
                                                                                    np.array([[0, 1], [-1, 0.0]])])
    assert scores["decisiveness"] == 0.0 and scores["effectiveness"] == 0.0 and np.isnan(scores["consistency"])
    two = [(GenerationRequest("q1", "What causes tides?"),
            [GenerationResponse("d0", "The Moon and the Sun."), GenerationResponse("d1", "The Moon.")])]
    table = evaluation.evaluate_axioms({"LEN": ResponseLength()}, two, [np.array([[0, 1], [-1, 0.0]])])
    assert table.loc[0, ["decisiveness", "consistency", "effectiveness"]].tolist() == [1.0, 1.0, 1.0]


# -- 13: text and qanswer disagree ------------------------------------------------------------------------------
def _samples(qanswer: list) -> pd.DataFrame:
    return pd.DataFrame({"qid": "1", "query": "How tall is the Eiffel Tower?", "docno": ["a", "b"],
                         "text": ["It is 330 metres tall.", "Bananas are yellow and sweet, always."],
                         "qanswer": qanswer})


def test_text_and_qanswer_that_differ_are_refused_naming_the_row() -> None:
    from ir_rag_axioms.pyterrier import AxiomaticReranker, BestOfN
    from ir_rag_axioms.pyterrier.metrics import MetricScorer
    from ir_rag_axioms.pyterrier.pool import Pool

    frame = _samples(["It is 330 metres tall.", "It is 330 metres tall."])
    message = (r"the columns 'text' and 'qanswer' hold different answers at row position 1 \(qid '1', docno 'b': "
               r"text 'Bananas are yellow and sweet, always.', qanswer 'It is 330 metres tall.'; 1 row\(s\) in all\)")
    for transformer in (BestOfN(ResponseLength()), AxiomaticReranker(ResponseLength())):
        with pytest.raises(ValueError, match=f"{type(transformer).__name__}: {message}"):
            transformer(frame)
    with pytest.raises(ValueError, match=f"MetricScorer: {message}"):
        MetricScorer()(frame)
    with pytest.raises(ValueError, match=f"Pool: pipeline 'x': {message}"):
        Pool({"x": pt.Transformer.from_df(frame.drop(columns="query"))})(pd.DataFrame({"qid": ["1"], "query": "q"}))


def test_text_and_qanswer_that_agree_are_read() -> None:
    from ir_rag_axioms.pyterrier import BestOfN

    frame = _samples(["It is 330 metres tall.", "Bananas are yellow and sweet, always."])
    best = BestOfN(ResponseLength())(frame)
    assert best[["docno", "text", "qanswer"]].values.tolist() == [["b", *[frame.text[1]] * 2]]
    missing = _samples([np.nan, None]).assign(text=[None, np.nan], docno=["a", "b"])  # both missing: no answer
    assert len(BestOfN(ResponseLength())(pd.concat([frame.assign(qid="2"), missing]))) == 2
