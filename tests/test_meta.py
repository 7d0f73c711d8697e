"""Meta-evaluation: Kendall tau-b, the symmetric tau_ap_b of autojudge-evaluate, the topic bootstrap."""

from __future__ import annotations

import math

import numpy as np
import pytest

from ir_rag_axioms.evaluation.meta import bootstrap_correlation, kendall, tau_ap_b, topic_means


def test_tau_ap_b_weights_the_top():
    truth = [4, 3, 2, 1]
    # one swap each: Kendall sees 4/6 concordant pairs either way, tau_ap_b (by hand) 7/9 at the bottom, 1/3 on top
    assert kendall(truth, [4, 3, 1, 2]) == pytest.approx(2 / 3)
    assert kendall(truth, [3, 4, 2, 1]) == pytest.approx(2 / 3)
    assert tau_ap_b(truth, [4, 3, 1, 2]) == pytest.approx(7 / 9)
    assert tau_ap_b(truth, [3, 4, 2, 1]) == pytest.approx(1 / 3)
    assert tau_ap_b(truth, truth) == pytest.approx(1.0) and tau_ap_b(truth, truth[::-1]) == pytest.approx(-1.0)


def test_tau_ap_b_matches_autojudge_evaluate_with_ties():
    try:  # autojudge-base (imported by autojudge_evaluate) loads NLTK data at import time
        from autojudge_evaluate import pyircore
    except (ImportError, LookupError) as error:
        pytest.skip(f"autojudge-evaluate does not import here: {error!r:.80}")
    rng = np.random.default_rng(1)
    for _ in range(20):
        x = rng.integers(0, 6, 12).astype(float)
        y = np.round(x + rng.normal(0, 2, 12))
        assert tau_ap_b(x, y) == pytest.approx(pyircore.tauap_b(x, y), abs=1e-12)


def test_undefined_correlations_are_nan():
    assert math.isnan(kendall([1, 1, 1], [1, 2, 3])) and math.isnan(tau_ap_b([1, 2], [1, 2]))


def test_topic_means_skip_nan_and_weigh_topics():
    values = np.array([[1.0, np.nan], [3.0, 4.0]])
    assert topic_means(values).tolist() == [2.0, 4.0]
    assert topic_means(values, np.array([3.0, 1.0])).tolist() == [1.5, 4.0]


def test_bootstrap_interval_and_paired_difference():
    rng = np.random.default_rng(0)
    truth = rng.random((10, 8)) + np.arange(8)
    good, noisy = truth + rng.normal(0, 0.1, truth.shape), truth + rng.normal(0, 3, truth.shape)
    out = bootstrap_correlation(good, truth, samples=200, baseline=noisy)
    assert out["low"] <= out["value"] <= out["high"] and out["value"] == pytest.approx(1.0)
    assert out["difference"] > 0 and out["difference_low"] <= out["difference"] <= out["difference_high"]
    assert bootstrap_correlation(good, truth, samples=50, seed=3) == bootstrap_correlation(good, truth, samples=50,
                                                                                          seed=3)


def test_runs_without_a_score_are_left_out():
    assert kendall([1, 2, 3, np.nan], [1, 2, 3, 4]) == pytest.approx(1.0)
    assert tau_ap_b([1, 2, 3, 4, np.nan], [1, 2, 4, 3, 0]) == pytest.approx(tau_ap_b([1, 2, 3, 4], [1, 2, 4, 3]))


def test_bootstrap_correlation_takes_spearman_and_names_the_choices():
    truth = np.array([[1.0, 2.0, 3.0, 4.0], [2.0, 3.0, 4.0, 5.0]])
    scores = np.array([[1.0, 3.0, 2.0, 4.0], [1.0, 3.0, 2.0, 4.0]])  # run means 1, 3, 2, 4: one swap
    out = bootstrap_correlation(scores, truth, method="spearman", samples=20)
    assert out["value"] == pytest.approx(0.8)  # 1 - 6 * 2 / (4 * 15)
    with pytest.raises(ValueError, match="unknown correlation method 'pearson'; choose one of kendall, spearman, "
                                         "tau_ap_b"):
        bootstrap_correlation(scores, truth, method="pearson")
