"""The learned axiom: antisymmetry, determinism, fitting, thresholds, files, cross-validation without topic leakage."""

from __future__ import annotations

import json

import numpy as np
import pandas as pd
import pytest

from ir_rag_axioms import CORR1, RANDOM, LearnedAxiom, ResponseLength, ValueDifference, evaluation, parse
from ir_rag_axioms.axioms.learned import pretrained_names, threshold_for, training_pairs
from ir_rag_axioms.evaluation.learning import cross_validate, human_ceiling, judged_twice, topic_folds
from ir_rag_axioms.model import GenerationRequest, GenerationResponse
from ir_rag_axioms.testing import SAMPLE_REQUEST, SAMPLE_RESPONSES, check_axiom

pytest.importorskip("sklearn")

LENGTH = ResponseLength()
FEATURES = (LENGTH, ValueDifference(axiom=LENGTH), CORR1, RANDOM)


def _antisymmetric(rng: np.random.Generator, n: int, values=(-1.0, 0.0, 1.0)) -> np.ndarray:
    m = np.triu(rng.choice(values, size=(n, n)), k=1)
    return m - m.T + 0.0


def synthetic(topics: int = 30, n: int = 6, seed: int = 0) -> tuple[list[np.ndarray], list[np.ndarray]]:
    """Three features; the oracle follows feature 0 with 20 % of pairs flipped, feature 1 is noise, 2 is -feature 0."""
    rng = np.random.default_rng(seed)
    stacks, oracle = [], []
    for _ in range(topics):
        f0 = _antisymmetric(rng, n, (-1.0, 1.0))
        noise = _antisymmetric(rng, n)
        flip = np.ones((n, n))
        upper = np.triu(rng.random((n, n)) < 0.2, k=1)
        flip[upper | upper.T] = -1  # symmetric flips keep the oracle antisymmetric
        stacks.append(np.stack([f0, noise, -f0]))
        oracle.append(f0 * flip)
    return stacks, oracle


def test_training_pairs_are_antisymmetric_and_only_decided_pairs():
    stacks, oracle = synthetic(topics=3)
    oracle[0][0, 1], oracle[0][1, 0] = 0.0, 0.0  # an oracle tie is not a training pair
    x, y = training_pairs(stacks, oracle)
    half = len(y) // 2
    assert np.array_equal(x[half:], -x[:half]) and np.array_equal(y[half:], -y[:half])
    assert half == sum(int(np.triu(o != 0, k=1).sum()) for o in oracle)
    assert set(np.unique(y)) == {-1.0, 1.0}


def test_fit_finds_the_informative_axiom_and_is_deterministic():
    stacks, oracle = synthetic()
    model = LearnedAxiom(axioms=(CORR1, RANDOM, LENGTH))  # the axioms only name the three synthetic features
    fitted = model.fit_stacks(stacks, oracle)
    again = model.fit_stacks(stacks, oracle)
    assert fitted == again and repr(fitted) == repr(again)
    w = np.array(fitted.weights)
    assert w[0] - w[2] > 1.0 and abs(w[1]) < 0.5 * abs(w[0] - w[2])  # follows feature 0, ignores the noise
    predicted = [fitted.decide(fitted.scores(s)) for s in stacks]
    assert evaluation.consistency(predicted, oracle, strict=True) > 0.7
    assert "weights=(" in repr(fitted) and parse(repr(fitted)) == fitted
    table = fitted.weights_table()
    assert list(table.columns) == ["axiom", "weight"] and table["weight"].abs().is_monotonic_decreasing


def test_learned_axiom_has_every_axiom_property():
    learned = LearnedAxiom(axioms=FEATURES, weights=(0.7, 1.3, -0.4, 0.05), threshold=0.1)
    matrix = check_axiom(learned)  # antisymmetry, zero diagonal, permutation equivariance, determinism, repr
    assert not matrix[5].any()  # the blank response: every feature abstains, so does the learned axiom
    scores = learned.scores(np.stack([a.preferences(SAMPLE_REQUEST, SAMPLE_RESPONSES) for a in FEATURES]))
    assert np.array_equal(scores, -scores.T)
    assert np.array_equal(matrix, np.where(np.abs(scores) > 0.1, np.sign(scores), 0.0))


def test_threshold_abstains_and_reaches_the_asked_decisiveness():
    stacks, oracle = synthetic()
    for wanted in (0.5, 0.9, 1.0):
        fitted = LearnedAxiom(axioms=(CORR1, RANDOM, LENGTH)).fit_stacks(stacks, oracle, decisiveness=wanted)
        reached = evaluation.decisiveness([fitted.decide(fitted.scores(s)) for s in stacks])
        assert reached >= wanted - 1e-9
        if wanted == 0.5:  # three score magnitudes of about equal frequency: the smallest one abstains
            assert fitted.threshold > 0 and reached < 0.75
    assert threshold_for(np.array([3.0, 2.0, 2.0, 1.0]), 0.5) == 1.0  # ties at the boundary: decide both
    assert threshold_for(np.array([3.0, 2.0, 2.0, 1.0]), 1.0) == 0.0


def test_votes_explain_the_decision():
    learned = LearnedAxiom(axioms=FEATURES, weights=(0.7, 1.3, -0.4, 0.05))
    first, second = SAMPLE_RESPONSES[0], SAMPLE_RESPONSES[2]
    decision = learned.votes(SAMPLE_REQUEST, first, second)
    assert [v.axiom for v in decision.votes] == [repr(a) for a in FEATURES]
    assert decision.score == pytest.approx(sum(v.contribution for v in decision.votes))
    assert decision.preference == learned.preference(SAMPLE_REQUEST, first, second)
    assert decision.frame()["contribution"].abs().is_monotonic_decreasing


def test_any_scikit_learn_classifier_is_antisymmetric_by_construction():
    from sklearn.ensemble import RandomForestClassifier

    stacks, oracle = synthetic()
    model = LearnedAxiom(axioms=(CORR1, RANDOM, LENGTH), estimator=RandomForestClassifier(n_estimators=20))
    assert not model.fitted
    with pytest.raises(ValueError, match="not fitted"):
        model.scores(stacks[0])
    fitted = model.fit_stacks(stacks, oracle, seed=3)
    scores = fitted.scores(stacks[0])
    assert np.array_equal(scores, -scores.T) and np.abs(scores).max() > 0
    again = model.fit_stacks(stacks, oracle, seed=3)
    assert np.array_equal(again.scores(stacks[1]), fitted.scores(stacks[1]))  # seeded: deterministic
    with pytest.raises(ValueError, match="weights"):
        fitted.save("never.json")


def test_save_load_round_trip(tmp_path):
    stacks, oracle = synthetic()
    fitted = LearnedAxiom(axioms=(CORR1(margin_fraction=0.5), ValueDifference(axiom=LENGTH), LENGTH)).fit_stacks(
        stacks, oracle, decisiveness=0.8)
    path = fitted.save(tmp_path / "model.json")
    loaded = LearnedAxiom.load(path)
    assert loaded == fitted and loaded.info == fitted.info and repr(loaded) == repr(fitted)
    assert np.array_equal(loaded.preferences(SAMPLE_REQUEST, SAMPLE_RESPONSES),
                          fitted.preferences(SAMPLE_REQUEST, SAMPLE_RESPONSES))
    (tmp_path / "bad.json").write_text(json.dumps({"format": "something else"}))
    with pytest.raises(ValueError, match="not a saved LearnedAxiom"):
        LearnedAxiom.load(tmp_path / "bad.json")


def test_bad_configuration_is_refused():
    with pytest.raises(ValueError, match="not fitted"):
        LearnedAxiom(axioms=FEATURES).preferences(SAMPLE_REQUEST, SAMPLE_RESPONSES)
    with pytest.raises(ValueError, match="4 axioms"):
        LearnedAxiom(axioms=FEATURES, weights=(1.0,))
    with pytest.raises(ValueError, match="finite"):
        LearnedAxiom(axioms=FEATURES, weights=(1.0, float("nan"), 0.0, 0.0))
    with pytest.raises(ValueError, match="threshold"):
        LearnedAxiom(axioms=FEATURES, weights=(1.0, 1.0, 1.0, 1.0), threshold=-1.0)
    with pytest.raises(ValueError, match="at least one"):
        LearnedAxiom(axioms=())
    with pytest.raises(ValueError, match="nothing to learn"):
        LearnedAxiom(axioms=(LENGTH,)).fit_stacks([np.zeros((1, 3, 3))], [np.zeros((3, 3))])


def test_pretrained_model_runs_without_training_data():
    assert "crowd-overall" in pretrained_names()
    model = LearnedAxiom.pretrained("crowd-overall")
    assert model.fitted and len(model.weights) == len(model.axioms) > 10
    assert all(parse(repr(a)) == a for a in model.axioms)
    assert "data_dir" not in repr(model)  # nothing in it points at the training data
    assert model.info and "target" in model.info
    check_axiom(model)
    with pytest.raises(ValueError, match="available"):
        LearnedAxiom.pretrained("no-such-model")


def test_cross_validation_never_shares_a_topic_between_training_and_test():
    stacks, oracle = synthetic(topics=24)
    topics = [f"t{k // 2}" for k in range(24)]  # every topic twice: both items must land in the same fold
    cv = cross_validate(LearnedAxiom(axioms=(CORR1, RANDOM, LENGTH)), stacks, oracle, topics, folds=4,
                        repetitions=2, seed=5)
    assert len(cv.folds) == 8 and len(cv.predictions) == 2 and len(cv.predictions[0]) == 24
    for repetition in (0, 1):
        folds = [f for f in cv.folds if f.repetition == repetition]
        tested = [t for f in folds for t in f.test_topics]
        assert sorted(tested) == sorted(set(topics))  # each topic tested exactly once
        for fold in folds:
            assert not set(fold.train_topics) & set(fold.test_topics)
            assert set(fold.train_topics) | set(fold.test_topics) == set(topics)
    assert [f.test_topics for f in cv.folds[:4]] != [f.test_topics for f in cv.folds[4:]]  # new seed, new split
    for train, test in topic_folds(topics, folds=3, seed=1):
        assert not {topics[i] for i in train} & {topics[i] for i in test}
    with pytest.raises(ValueError, match="topics"):
        topic_folds(["a", "a", "b"], folds=3)
    with pytest.raises(ValueError, match="repetitions must be an integer >= 1, got 0"):  # was an empty result
        cross_validate(LearnedAxiom(axioms=(CORR1, RANDOM, LENGTH)), stacks, oracle, topics, folds=4, repetitions=0)


def test_cross_validated_predictions_come_from_models_that_did_not_see_the_topic():
    stacks, oracle = synthetic(topics=20)
    topics = [f"t{k}" for k in range(20)]
    cv = cross_validate(LearnedAxiom(axioms=(CORR1, RANDOM, LENGTH)), stacks, oracle, topics, folds=5)
    for fold in cv.folds:
        for topic in fold.test_topics:
            t = topics.index(topic)
            assert np.array_equal(cv.predictions[0][t], fold.model.decide(fold.model.scores(stacks[t])))
            train = [topics.index(u) for u in fold.train_topics]
            retrained = LearnedAxiom(axioms=(CORR1, RANDOM, LENGTH)).fit_stacks(
                [stacks[i] for i in train], [oracle[i] for i in train])
            assert retrained == fold.model


def test_fit_on_real_crowd_judgments_and_the_human_ceiling(data_dir):
    from ir_rag_axioms import CrowdOracle
    from ir_rag_axioms.datasets import crowd

    folder = data_dir / "trec-rag-24-crowd"
    oracle = CrowdOracle(utility="overall", data_dir=str(folder))
    items = crowd.items(crowd.load_crowd_responses(folder), oracle.topics)[:4]
    fitted = LearnedAxiom(axioms=(LENGTH, ValueDifference(axiom=LENGTH))).fit(items, oracle)
    assert fitted.info["topics"] == 4 and fitted.info["pairs"] > 20
    assert len(evaluation.evaluate_axioms({"learned": fitted}, items, oracle)) == 1

    ratings = crowd.load_crowd_ratings(folder)
    keys = ratings.apply(lambda r: (r["query_id"], *sorted((r["response_a"], r["response_b"]))), axis=1)
    repeated = int((keys.value_counts() >= 2).sum())
    twice = judged_twice(ratings)
    assert len(twice) == repeated
    ceiling = human_ceiling(ratings, samples=50)
    agree = sum(v1 == v2 for v1, v2 in twice.values())
    assert ceiling["pairs"] == repeated and ceiling["differ"] == repeated - agree
    assert ceiling["consistency_low"] <= ceiling["consistency"] <= ceiling["consistency_high"]
    assert ceiling["consistency_strict"] <= ceiling["consistency"] < 1


def test_learned_reranker_fits_on_qrels_and_reranks(tmp_path):
    pytest.importorskip("pyterrier")
    import pyterrier as pt

    from ir_rag_axioms.pyterrier import LearnedReranker

    rng = np.random.default_rng(0)
    rows, qrels = [], []
    for q in range(6):
        for d in range(5):
            words = int(rng.integers(3, 40))
            rows.append({"qid": f"q{q}", "query": "cats", "docno": f"q{q}d{d}", "text": " ".join(["cat"] * words)})
            qrels.append({"qid": f"q{q}", "docno": f"q{q}d{d}", "label": int(words > 20) + int(words > 30)})
    frame, labels = pd.DataFrame(rows), pd.DataFrame(qrels)
    reranker = LearnedReranker([LENGTH, ValueDifference(axiom=LENGTH), RANDOM])
    assert isinstance(reranker, pt.Estimator)
    with pytest.raises(ValueError, match="not fitted"):
        reranker.transform(frame)
    assert reranker.fit(frame[frame["qid"] < "q4"], labels) is reranker
    assert reranker.learned is not None and reranker.learned.weights[0] > 0  # longer is better here
    out = reranker.transform(frame[frame["qid"] >= "q4"])
    for _, group in out.groupby("qid"):
        lengths = group.sort_values("rank")["text"].str.split().str.len().to_list()
        assert lengths == sorted(lengths, reverse=True)
    assert len(out) == 10 and set(out.columns) >= {"score", "rank"}
    pretrained = LearnedReranker.pretrained("crowd-overall")
    assert pretrained.learned == LearnedAxiom.pretrained("crowd-overall")
    with pytest.raises(ValueError, match="qrels need"):
        reranker.fit(frame, labels.rename(columns={"label": "grade"}))


def test_single_response_pairs_give_an_empty_answer():
    learned = LearnedAxiom(axioms=(LENGTH,), weights=(1.0,))
    request = GenerationRequest("q", "cats")
    assert learned.preferences(request, [GenerationResponse("a", "one two")]).shape == (1, 1)


def test_explanation_of_a_learned_decision_lists_the_weighted_votes():
    """explain() agrees with the matrix and shows score = sum of weight x preference against the threshold."""
    model = LearnedAxiom(axioms=(LENGTH, CORR1), weights=(2.0, -0.5), threshold=1.0)
    request = GenerationRequest("q", "cats")
    a = GenerationResponse("a", "Cats purr. They sleep a lot [1].")
    b = GenerationResponse("b", "Cats.")
    explanation = model.explain(request, a, b)
    assert explanation.decision == model.preferences(request, [a, b])[0, 1]
    assert len(explanation.parts) == 2 and "threshold 1" in explanation.note
    assert "score +" in explanation.note or "score -" in explanation.note


# -- no in-sample figure: training topics in the metadata, a warning where they are evaluated ----------------------
def test_shipped_models_list_their_training_topics(data_dir):
    from ir_rag_axioms import CrowdOracle

    for name in pretrained_names():
        model = LearnedAxiom.pretrained(name)
        assert len(model.training_topics) == model.info["topics"] > 0, name
        assert parse(repr(model)).training_topics == model.training_topics  # a repr has no info: found by content
    crowd_topics = CrowdOracle(utility="overall", data_dir=str(data_dir / "trec-rag-24-crowd")).topics
    assert set(LearnedAxiom.pretrained("crowd-overall").training_topics) == set(map(str, crowd_topics))
    assert len(crowd_topics) == 65


def test_evaluating_a_model_on_its_training_topics_warns():
    import warnings

    pytest.importorskip("pyterrier")
    import pyterrier as pt
    from ir_measures import nDCG

    from ir_rag_axioms.axioms.learned import InSampleWarning
    from ir_rag_axioms.pyterrier import LearnedReranker

    rows, qrels = [], []
    for q in range(6):
        for d in range(4):
            text = " ".join(["cat"] * (3 + 7 * d))
            rows.append({"qid": f"q{q}", "query": "cats", "docno": f"q{q}d{d}", "text": text})
            qrels.append({"qid": f"q{q}", "docno": f"q{q}d{d}", "label": d})
    frame, labels = pd.DataFrame(rows), pd.DataFrame(qrels)
    reranker = LearnedReranker([LENGTH, ValueDifference(axiom=LENGTH)]).fit(frame[frame["qid"] < "q4"], labels)
    assert reranker.learned.training_topics == ("q0", "q1", "q2", "q3")
    with warnings.catch_warnings():
        warnings.simplefilter("error", InSampleWarning)
        reranker.transform(frame[frame["qid"] >= "q4"])  # held out: silent
    with pytest.warns(InSampleWarning, match=r"fitted on 1 of these 2 topics \(e.g. 'q3'\).*in-sample"):
        reranker.transform(frame[frame["qid"].isin(["q3", "q4"])])
    topics = frame[["qid", "query"]].drop_duplicates()
    with pytest.warns(InSampleWarning, match="fitted on 4 of these 6 topics"):
        pt.Experiment([pt.Transformer.from_df(frame) >> reranker], topics, labels, [nDCG @ 3])
    assert reranker.learned.held_out(topics)["qid"].tolist() == ["q4", "q5"]
    assert reranker.learned.held_out(["q1", "q5"]) == ["q5"]
    items = [(GenerationRequest(q, "cats"), [GenerationResponse(f"{q}d{d}", "cat " * (d + 1)) for d in range(3)])
             for q in ("q0", "q5")]
    with pytest.warns(InSampleWarning, match="evaluation: a LearnedAxiom was fitted on 1 of these 2 topics"):
        evaluation.evaluate_axioms({"L": reranker.learned}, items, LENGTH)


def test_the_in_sample_warning_recognises_training_topics_under_other_ids(data_dir) -> None:
    import warnings

    from ir_rag_axioms.axioms.learned import InSampleWarning
    from ir_rag_axioms.datasets import crowd

    def topic(qid: str, query: str) -> tuple[GenerationRequest, list[GenerationResponse]]:
        return GenerationRequest(qid, query), [GenerationResponse(f"{qid}d{d}", "cat " * (1 + 3 * d)) for d in range(3)]

    train = [topic("t1", "Why do cats purr?"), topic("t2", "How do owls hunt?")]
    model = LearnedAxiom(axioms=(LENGTH, ValueDifference(axiom=LENGTH))).fit(train, LENGTH)
    renamed = [topic("x9", "why do  CATS purr?"), topic("x8", "What is rain?")]  # t1's query under another id
    with pytest.warns(InSampleWarning, match=r"fitted on 1 of these 2 topics \(e.g. 'x9'\), matched by id or by query"):
        evaluation.evaluate_axioms({"L": model}, renamed, LENGTH)
    with warnings.catch_warnings():
        warnings.simplefilter("error", InSampleWarning)
        evaluation.evaluate_axioms({"L": model}, renamed[1:], LENGTH)  # another query: silent
    assert model.held_out([request for request, _ in renamed]) == [renamed[1][0]]
    frame = pd.DataFrame({"qid": ["x9", "x8"], "query": ["why do  CATS purr?", "What is rain?"]})
    assert model.held_out(frame)["qid"].tolist() == ["x8"]
    from ir_rag_axioms.pyterrier import AxiomaticReranker

    answers = pd.DataFrame([{"qid": request.id, "query": request.text, "docno": response.id, "text": response.text}
                            for request, responses in renamed for response in responses])
    with pytest.warns(InSampleWarning, match=r"AxiomaticReranker: a LearnedAxiom was fitted on 1 of these 2 topics"):
        AxiomaticReranker([model]).transform(answers)  # the reranker matches by query text too
    # the shipped model knows its training queries too: a judged crowd topic under a new id is in-sample
    shipped = LearnedAxiom.pretrained("crowd-overall")
    responses = crowd.load_crowd_responses(data_dir / "trec-rag-24-crowd")
    request = crowd.items(responses, [shipped.training_topics[0]])[0][0]
    assert shipped.held_out([GenerationRequest("my-own-id", request.text)]) == []


def test_a_model_whose_features_changed_rule_since_its_fit_says_so() -> None:
    """The shipped crowd model, refitted after issue 28 changed five rules, loads quietly; an older rule is named."""
    import warnings

    from ir_rag_axioms.axioms.learned import StaleModelWarning

    with warnings.catch_warnings():
        warnings.simplefilter("error", StaleModelWarning)
        model = LearnedAxiom.pretrained("crowd-overall")
    data = model.to_dict()
    assert len(data["rules"]) == len(data["axioms"]) == 79
    for spec in ("GEN_LNC2()", "GEN_LB2()", "GEN_STMC3()", "GEN_QPHRA()", "GEN_QLEXRANK()"):
        assert spec in data["axioms"]  # the five changed rules are fitted under their new names and rules
    changed = [data["axioms"].index("GEN_QLEXRANK()"), data["axioms"].index("GEN_LNC2()")]
    for k in changed:
        data["rules"][k] = []  # as if saved under the old rules
    with pytest.warns(StaleModelWarning, match=r"2 of its 79 features changed rule since it was fitted "
                                               r"\(GEN_LNC2\(\), GEN_QLEXRANK\(\)\)"):
        LearnedAxiom.from_dict(data)
    del data["rules"]  # a model saved before rules were recorded: every axiom whose rule changed since is named
    with pytest.warns(StaleModelWarning, match=r"features changed rule"):
        LearnedAxiom.from_dict(data)
