"""Meta-evaluation: the correlations of autojudge-evaluate (checked against it), the three levels, the bootstrap."""

from __future__ import annotations

import json
import math

import numpy as np
import pytest

from ir_rag_axioms.evaluation.meta import (
    CORRELATIONS,
    bootstrap_correlation,
    kendall,
    kendall_at,
    level_correlation,
    tau_ap_b,
    tau_gap,
    topic_means,
)


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
    with pytest.raises(ValueError, match=r"unknown correlation 'pearsn': use one of \['kendall', 'kendall@10', "
                                         r"'pearson', 'spearman', 'tau_ap_b', 'tau_gap'\]"):
        bootstrap_correlation(scores, truth, method="pearsn")


def _write_tot(path, table, runs, measure):
    lines = [f"{run} {measure} t{i} {float(table[i, j])!r}" for i in range(len(table)) for j, run in enumerate(runs)]
    lines += [f"{run} {measure} all {float(m)!r}" for run, m in zip(runs, topic_means(table), strict=True)]
    path.write_text("\n".join(lines) + "\n")


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_every_correlation_matches_auto_judge_evaluate_on_the_same_leaderboards(tmp_path, seed):
    """Both leaderboards written as tot files and meta-evaluated by autojudge-evaluate's own command (in process)."""
    try:
        from autojudge_evaluate import main
        from click.testing import CliRunner
    except (ImportError, LookupError) as error:
        pytest.skip(f"autojudge-evaluate does not import here: {error!r:.80}")
    rng = np.random.default_rng(seed)
    runs = [f"run{k:02d}" for k in range(15)]  # sorted ids: autojudge-evaluate's order (tau_gap's tie-break)
    truth = np.round(rng.random((6, len(runs))), 1)  # rounded: ties in both leaderboards
    judge = np.round(truth + rng.normal(0, 0.25, truth.shape), 1)
    _write_tot(tmp_path / "truth.tot", truth, runs, "V")
    _write_tot(tmp_path / "judge.tot", judge, runs, "J")
    result = CliRunner().invoke(main, [
        "meta-evaluate", "--truth-leaderboard", str(tmp_path / "truth.tot"), "--truth-format", "tot", "--eval-format",
        "tot", "--no-truth-header", "--no-eval-header", "--output", str(tmp_path / "m.jsonl"), "--input",
        str(tmp_path / "judge.tot"), "--silent"])
    assert result.exit_code == 0, result.output
    theirs = json.loads((tmp_path / "m.jsonl").read_text().splitlines()[0])
    ours = {name: level_correlation(judge, truth, name) for name in CORRELATIONS}
    names = {"tau_ap_b": "tauap_b"}
    assert set(names.get(n, n) for n in ours) <= set(theirs)
    for name, value in ours.items():
        assert value == pytest.approx(theirs[names.get(name, name)], abs=1e-9), name


def test_tau_gap_by_hand_and_its_asymmetry():
    truth = [3.0, 2.0, 0.0]
    # judge order 2nd, 1st, 3rd: position 2 has gap 1 above it, wrong (0/1); position 3 gaps 2 + 3, both right (5/5)
    assert tau_gap([2.0, 3.0, 1.0], truth) == pytest.approx(2 / 2 * (0 + 1) - 1)
    assert tau_gap(truth, truth) == pytest.approx(1.0)
    # head-weighted: the swap at the top (gap 1) costs more than the swap at the bottom (gap 2): 0 vs 1/3
    assert tau_gap([3.0, 1.0, 2.0], truth) == pytest.approx(2 / 2 * (1 + 1 / 3) - 1)
    assert kendall([3.0, 1.0, 2.0], truth) == pytest.approx(kendall([2.0, 3.0, 1.0], truth))
    # ties in the judge: by position
    assert tau_gap([1.0, 1.0, 0.0], truth) == pytest.approx(1.0)
    assert tau_gap([1.0, 1.0, 0.0], [2.0, 3.0, 0.0]) == pytest.approx(2 / 2 * (0 + 1) - 1)
    assert math.isnan(tau_gap([1, 2, 3], [1, 1, 1]))


def test_kendall_at_k_keeps_the_truths_top_k():
    truth = np.arange(12.0)[::-1]  # run 0 best
    judge = truth.copy()
    judge[10], judge[11] = 100.0, 99.0  # the judge puts the truth's two worst runs on top: outside the top 10
    assert kendall_at(10)(judge, truth) == pytest.approx(1.0)
    assert kendall(judge, truth) < 1.0
    with pytest.raises(ValueError, match="k >= 3"):
        kendall_at(2)


def test_levels_topic_and_pairs():
    truth = np.array([[1.0, 2.0, 3.0], [3.0, 2.0, 1.0]])
    judge = np.array([[1.0, 2.0, 3.0], [10.0, 20.0, 30.0]])
    # run means agree in order only on run 0 vs 2 being tied in truth: truth means are all 2
    assert math.isnan(level_correlation(judge, truth, level="run"))
    assert level_correlation(judge, truth, level="topic") == pytest.approx((1.0 + -1.0) / 2)
    assert level_correlation(judge, truth, level="topic", weights=np.array([3.0, 1.0])) == pytest.approx(0.5)
    pairs = level_correlation(judge, truth, level="pairs")
    assert pairs == pytest.approx(kendall(judge.ravel(), truth.ravel()))
    doubled = level_correlation(judge, truth, level="pairs", weights=np.array([2.0, 0.0]))
    assert doubled == pytest.approx(1.0)
    with pytest.raises(ValueError, match="level"):
        level_correlation(judge, truth, level="system")
    with pytest.raises(ValueError, match="shapes"):
        level_correlation(judge, truth[:, :2])


def test_bootstrap_at_the_topic_and_pairs_levels_is_seeded():
    rng = np.random.default_rng(4)
    truth = rng.random((12, 9))
    judge = truth + rng.normal(0, 0.3, truth.shape)
    for level in ("topic", "pairs"):
        out = bootstrap_correlation(judge, truth, samples=100, seed=1, level=level)
        assert out["low"] <= out["value"] <= out["high"]
        assert out == bootstrap_correlation(judge, truth, samples=100, seed=1, level=level)
