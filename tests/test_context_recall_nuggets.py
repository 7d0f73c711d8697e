"""bench/context_recall_nuggets.py's measures on crafted rows: balanced accuracy, the system tau, the threshold
chosen leave one topic out, and the check that the judge's verdicts are the shipped rule."""

from __future__ import annotations

import numpy as np
import pytest
from conftest import ROOT, load_script

BENCH = load_script("context_recall_nuggets", ROOT / "bench" / "context_recall_nuggets.py")


def _rows(covered: dict[str, list[bool]], gold: dict[str, float]) -> list[dict]:
    """Two topics; each run's answer to a topic has the given nuggets covered (per topic, the same list)."""
    return [{"run": run, "topic": topic, "answer": f"{run} on {topic}", "vital": k == 0, "all": gold[run],
             "vital_score": gold[run], "label": "support" if c else "not_support"}
            for run, found in covered.items() for topic in ("t1", "t2") for k, c in enumerate(found)]


def test_balanced_accuracy_is_the_mean_recall_of_both_classes():
    assert BENCH.balanced(np.array([1, 0, 0, 0]), np.array([1, 1, 0, 0])) == pytest.approx((0.5 + 1.0) / 2)


def test_system_tau_orders_runs_by_their_mean_covered_share():
    covered = {"a": [True, True, True], "b": [True, False, True], "c": [False, False, True]}
    rows = _rows(covered, {"a": 0.9, "b": 0.5, "c": 0.1})
    decided = np.array([r["label"] == "support" for r in rows], dtype=float)
    assert BENCH.system_tau(rows, decided, False) == pytest.approx(1.0)
    assert BENCH.system_tau(rows, 1 - decided, False) == pytest.approx(-1.0)
    assert BENCH.system_tau(rows, decided, True) == pytest.approx(2 / np.sqrt(6))  # vital only: a, b tie (tau-b)
    low, high = BENCH.tau_gain(rows, decided, 1 - decided, draws=20)
    assert low == pytest.approx(2.0) and high == pytest.approx(2.0)  # every resample: 1 - (-1)


def test_a_threshold_left_one_topic_out_is_chosen_on_the_other_topics():
    score = np.array([0.2, 0.8, 0.3, 0.9, 0.6, 0.7])
    label = np.array([False, True, False, True, False, True])
    topic = np.array(["t1", "t1", "t2", "t2", "t3", "t3"])
    decided = BENCH.lotto(score, label, topic)
    assert decided.tolist() == [0, 1, 0, 1, 1, 1]  # t3 held out: the lowest cut best on t1 and t2 is 0.6
    assert BENCH.lotto(np.array([0.5, 0.5, 0.5, 0.5]), label[:4], topic[:4]).tolist() == [1, 1, 1, 1]
