"""system_leaderboard: exact win rates and headlines on a crafted set, aggregates, refusals, the packaged model."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest

from ir_rag_axioms.evaluation import leaderboard as lb

ANSWERS = pd.DataFrame({
    "run_id": ["a", "b", "c", "a", "b", "c"],
    "topic": ["t1", "t1", "t1", "t2", "t2", "t2"],
    "query": ["What do cats and dogs do?"] * 3 + ["Why is the sky blue?"] * 3,
    "text": ["Cats sleep. Dogs bark.", "Cats sleep a lot.", "Dogs bark loudly.",
             "Light scatters in the air.", "Blue light scatters more in the air.", "   "],
})


def _value(frame, run, topic, measure):
    row = frame[(frame.run_id == run) & (frame.topic == topic) & (frame.measure == measure)]
    assert len(row) == 1, row
    return float(row["value"].iloc[0])


def test_win_rates_count_ties_half_and_abstain():
    matrix = np.array([[0, 1, 1], [-1, 0, 0], [-1, 0, 0]])
    assert lb.win_rates(matrix).tolist() == [1.0, 0.25, 0.25]
    assert np.isnan(lb.win_rates(matrix, np.array([True, False, True]))[1])
    assert np.isnan(lb.win_rates(np.zeros((1, 1)))).all()


def test_standardize_is_a_within_topic_z_score():
    assert lb.standardize(np.array([1.0, 3.0, np.nan])).tolist() == [-1.0, 1.0, 0.0]
    assert lb.standardize(np.array([2.0, 2.0])).tolist() == [0.0, 0.0]


def test_win_rate_leaderboard_exact():
    frame = lb.system_leaderboard(ANSWERS, ["AGREE1"], method="win_rate", progress=False)
    assert list(frame.columns) == list(lb.COLUMNS)
    assert list(dict.fromkeys(frame.measure)) == ["AXIOM_WIN_RATE", "AGREE1"]  # the headline first
    # t1: AGREE1 values [4, 2, 2] -> win rates [1, 0.25, 0.25]
    assert [_value(frame, r, "t1", "AGREE1") for r in "abc"] == [1.0, 0.25, 0.25]
    # t2: c is blank (no value, not an "other"); a: {light, scatter, air} and b shares all three -> 3 vs 3: tie
    assert [_value(frame, r, "t2", "AGREE1") for r in "ab"] == [0.5, 0.5]
    assert math.isnan(_value(frame, "c", "t2", "AGREE1")) and math.isnan(_value(frame, "c", "t2", "AXIOM_WIN_RATE"))
    assert _value(frame, "a", "all", "AGREE1") == 0.75 and _value(frame, "c", "all", "AGREE1") == 0.25
    assert frame.equals(lb.system_leaderboard(ANSWERS, ["AGREE1"], method="win_rate", progress=False))


def test_bradley_terry_headline_orders_like_the_wins():
    frame = lb.system_leaderboard(ANSWERS, ["AGREE1"], method="bradley_terry", progress=False)
    overall = {r: _value(frame, r, "all", "AXIOM_BT") for r in "abc"}
    assert overall["a"] > overall["b"] and overall["a"] > overall["c"]


def test_default_headline_is_the_packaged_formula():
    model = lb.packaged_model()
    frame = lb.system_leaderboard(ANSWERS.iloc[:3], progress=False)
    assert list(dict.fromkeys(frame.measure)) == [lb.HEADLINES["default"], *model["axioms"], *lb.NUGGET_MEASURES]
    from ir_rag_axioms.analysis.cache import default_analysis
    from ir_rag_axioms.axioms.base import analyse
    from ir_rag_axioms.axioms.naming import named_axioms

    runs, items = lb.answer_items(ANSWERS.iloc[:3])
    axioms = list(named_axioms(model["axioms"]).values())
    analyse(axioms, items)
    request, responses = items[0]
    z = np.column_stack([lb.standardize(lb.answer_values(a, request, responses, default_analysis())[1])
                         for a in axioms])
    nuggets = lb.nugget_values(request, responses, default_analysis())
    z = np.column_stack([z, lb.nugget_features(nuggets, lb.model_nugget_features())])
    expected = z @ np.array(model["weights"]) + model["intercept"]
    for k, name in enumerate(lb.NUGGET_MEASURES):  # the nugget scores are reported beside the axioms
        found_scores = [_value(frame, r, "t1", name) for r in "abc"]
        assert np.allclose(found_scores, nuggets[:, k], equal_nan=True)
    found = [_value(frame, r, "t1", lb.HEADLINES["default"]) for r in "abc"]
    # the leaderboard analyses in its own cache: sentence embeddings batched with other texts differ in float32's
    # last digits, so the formula is checked to 1e-6 (a wrong weight or feature moves it by far more)
    assert found == pytest.approx(expected.tolist(), abs=1e-6)


def test_a_topic_with_one_answer_has_no_headline():
    """Nothing to compare with and no consensus: NaN (it was the model's intercept, which entered the run's mean)."""
    answers = pd.concat([ANSWERS.iloc[:3], pd.DataFrame({"run_id": ["a"], "topic": ["t3"], "query": ["Why?"],
                                                         "text": ["Because the light scatters."]})])
    frame = lb.system_leaderboard(answers, progress=False)
    assert math.isnan(_value(frame, "a", "t3", lb.HEADLINES["default"]))
    assert _value(frame, "a", "all", lb.HEADLINES["default"]) == pytest.approx(
        _value(frame, "a", "t1", lb.HEADLINES["default"]))
    assert math.isnan(_value(frame, "a", "t3", "NUGGET_A"))  # no nugget without two voices


def test_refusals_name_the_problem():
    with pytest.raises(KeyError, match="text"):
        lb.system_leaderboard(ANSWERS.drop(columns="text"), ["AGREE1"], method="win_rate", progress=False)
    with pytest.raises(ValueError, match="more than once"):
        lb.system_leaderboard(pd.concat([ANSWERS, ANSWERS.iloc[:1]]), ["AGREE1"], method="win_rate",
                              progress=False)
    with pytest.raises(ValueError, match="packaged model"):
        lb.system_leaderboard(ANSWERS, ["AGREE1"], progress=False)
    with pytest.raises(ValueError, match="unknown method"):
        lb.system_leaderboard(ANSWERS, ["AGREE1"], method="median", progress=False)


@pytest.mark.slow
@pytest.mark.shared
def test_leaderboard_of_two_real_nugget_topics():
    from ir_rag_axioms.datasets.files import NUGGET_ASSIGNMENTS, resolve
    from ir_rag_axioms.datasets.nuggets import load_nugget_assignments

    path = resolve(NUGGET_ASSIGNMENTS, "../shared/data/trec-rag-24-nuggets")
    data = load_nugget_assignments(path).rename(columns={"qid": "topic", "answer_text": "text"})
    data = data[data.topic.isin(list(dict.fromkeys(data.topic))[:2])]
    frame = lb.system_leaderboard(data, progress=False)
    measures = list(dict.fromkeys(frame.measure))
    assert measures[0] == lb.HEADLINES["default"] and measures[1:] == [*lb.default_axioms(), *lb.NUGGET_MEASURES]
    per_topic, total = frame[frame.topic != lb.ALL], frame[frame.topic == lb.ALL]
    assert len(per_topic) == len(data) * len(measures) and len(total) == data.run_id.nunique() * len(measures)
    means = per_topic.groupby(["run_id", "measure"])["value"].mean()
    assert np.allclose(total.set_index(["run_id", "measure"])["value"].reindex(means.index), means, equal_nan=True)
    head = per_topic[per_topic.measure == measures[0]]
    assert head["value"].notna().all()  # no blank answer among these
    rates = per_topic[per_topic.measure != measures[0]]["value"].dropna()
    assert rates.between(0, 1).all()


def test_a_context_string_is_one_passage_and_axioms_may_be_a_comma_string():
    passage = "Tides are caused by the pull of the Moon and the Sun on the oceans."
    answers = pd.DataFrame({"run_id": ["a", "b"], "topic": "1", "query": "What causes tides?",
                            "text": [passage, "Tides come from strong winds blowing over the sea."],
                            "context": [passage, passage]})
    system_leaderboard = lb.system_leaderboard
    as_string = system_leaderboard(answers, ["CONS2"], method="win_rate", progress=False)
    as_list = system_leaderboard(answers.assign(context=[[passage], [passage]]), ["CONS2"], method="win_rate",
                                 progress=False)
    pd.testing.assert_frame_equal(as_string, as_list)
    cons2 = as_string[(as_string["measure"] == "CONS2") & (as_string["topic"] == "1")]
    assert cons2.set_index("run_id")["value"].to_dict() == {"a": 1.0, "b": 0.0}
    pd.testing.assert_frame_equal(system_leaderboard(answers, "CONS2, COH1", method="win_rate", progress=False),
                                  system_leaderboard(answers, ["CONS2", "COH1"], method="win_rate", progress=False))
    with pytest.raises(TypeError, match="the context of run 'a' on topic '1' is a int"):
        system_leaderboard(answers.assign(context=[3, passage]), ["CONS2"], method="win_rate", progress=False)
