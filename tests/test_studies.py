"""The study scripts' own logic: the learned study's pools, the headline variants' features and topic isolation."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import numpy as np
import pandas as pd

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"


def _load(name: str):
    if str(EXAMPLES) not in sys.path:
        sys.path.insert(0, str(EXAMPLES))  # leaderboard_variants imports leaderboard_study
    spec = importlib.util.spec_from_file_location(name, EXAMPLES / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


ANSWERS = pd.DataFrame({
    "run_id": ["a", "b", "c"], "topic": ["t1"] * 3, "query": ["What do cats and dogs do?"] * 3,
    "text": ["Cats sleep. Dogs bark.", "Cats sleep a lot.", "Dogs bark loudly."],
})


def test_the_consensus_pool_is_the_all_pool_and_agree1_4_and_all_is_unchanged():
    study = _load("learned_study")
    assert study.POOLS["consensus"] == study.POOLS["all"] + ["AGREE1", "AGREE2", "AGREE3", "AGREE4"]
    assert not set(study.POOLS["all"]) & set(study.CONSENSUS)
    assert len(study.POOLS["all"]) == 55 and len(study.POOLS["consensus"]) == 59  # + LENGTH: 56 and 60 axioms


def test_centred_ranks_average_ties_and_abstain_at_0():
    variants = _load("leaderboard_variants")
    assert variants.centred_ranks(np.array([3.0, 1.0, np.nan, 1.0])).tolist() == [0.5, -0.25, 0.0, -0.25]
    assert variants.centred_ranks(np.array([np.nan, 2.0])).tolist() == [0.0, 0.0]


def test_out_of_fold_predictions_come_from_models_without_the_topic():
    variants = _load("leaderboard_variants")
    topics = np.repeat([f"t{k}" for k in range(10)], 3)
    x, y, runs = np.zeros((30, 1)), np.arange(30, dtype=float), np.tile(["a", "b", "c"], 10)
    seen: list[set[str]] = []

    def fit(x_train, y_train, groups, runs_train):
        seen.append(set(groups))
        k = len(seen) - 1
        return lambda z: np.full(len(z), float(k))

    for seed in (None, 3):  # the study's GroupKFold, and shuffled topics
        seen.clear()
        pred = variants.oof(fit, x, y, topics, runs, seed=seed)
        assert len(seen) == variants.FOLDS and all(len(s) == 8 for s in seen)  # 10 topics: 2 held out per fold
        for topic, model in zip(topics, pred.astype(int), strict=True):
            assert topic not in seen[model]


def test_the_pairwise_fit_orders_by_the_informative_feature():
    variants = _load("leaderboard_variants")
    rng = np.random.default_rng(0)
    x = rng.normal(size=(40, 2))
    y = x[:, 0] + 0.01 * rng.normal(size=40)
    predict = variants.pairwise_fit(x, y, np.repeat(["t1", "t2"], 20), np.tile(np.arange(20), 2))
    score = predict(x)
    assert np.corrcoef(score, x[:, 0])[0, 1] > 0.95


def test_the_consensus_profile_counts_terms_by_the_share_of_the_others(tmp_path):
    variants = _load("leaderboard_variants")
    profile = variants.term_profile(ANSWERS, tmp_path / "profile.csv")
    # terms {cat, sleep, dog, bark}, {cat, sleep, lot}, {dog, bark, loudly}; 2 others: a shared term has share 0.5
    assert profile["h5"].tolist() == [4.0, 2.0, 2.0] and profile["h0"].tolist() == [0.0, 1.0, 1.0]
    assert profile.drop(columns=["h0", "h5"]).to_numpy().sum() == 0
    assert variants.term_profile(ANSWERS, tmp_path / "profile.csv").equals(profile)  # read back from the cache
    # round 0 of the quality-weighted count is AGREE1 (share 0.2): [4, 2, 2]
    assert variants.weighted_consensus(ANSWERS, iterations=0).tolist() == [4.0, 2.0, 2.0]
    assert variants.weighted_consensus(ANSWERS, iterations=3).tolist() == [4.0, 2.0, 2.0]


def test_the_nugget_variants_score_a_shared_claim_and_not_a_lone_one():
    variants = _load("consensus_nugget_variants")
    e1, e2 = [1.0, 0.0], [0.0, 1.0]
    owners = np.array(["a", "b", "c", "c", "d"], dtype=object)
    m = np.array([e1, e1, e1, e2, e2])
    voice = {"a": 0, "b": 1, "c": 2, "d": 3}
    found = variants.cluster_scores(owners, m, voice, 0.45)  # one nugget (a, b, c); {c, d} has 2 voices only
    assert found["a"] == {"vital_strict": 1.0, "vital": 1.0, "all_strict": 1.0, "all": 1.0, "weighted_strict": 1.0,
                          "soft": 1.0, "weighted_soft": 1.0}
    assert found["d"]["all_strict"] == 0.0 and found["d"]["all"] == 0.0 and found["d"]["soft"] == 0.0
    kernel = variants.kernel_scores(owners, m, voice)
    assert kernel["a"]["kernel 0.55"] == 1.0 and kernel["d"]["kernel 0.55"] == 0.0
