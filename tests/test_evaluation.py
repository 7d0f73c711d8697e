"""Evaluation measures: exact small cases, reproduction of the reference tables from the golden matrices.

Also bootstrap, votes, agreement.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from ir_rag_axioms import evaluation as ev
from ir_rag_axioms.evaluation import evaluate

# One topic, 3 responses. Off-diagonal pairs: 6.
P = np.array([[0, 1, -1], [-1, 0, 0], [1, 0, 0]], dtype=float)
ORC = np.array([[0, 1, 1], [-1, 0, 0], [-1, 0, 0]], dtype=float)


def test_exact_small_case():
    # decisive: (0,1), (0,2), (1,0), (2,0) -> 4 / 6
    # relaxed consistent: (0,1), (1,0) agree; (0,2), (2,0) contradict -> 2 / 4; strict: the same 2 / 4
    scores = ev.evaluate_preferences([P], [ORC])
    assert scores["decisiveness"] == pytest.approx(4 / 6)
    assert scores["consistency"] == pytest.approx(0.5)
    assert scores["consistency_strict"] == pytest.approx(0.5)
    assert scores["effectiveness"] == pytest.approx(2 * (4 / 6) * 0.5 / (4 / 6 + 0.5))
    # an oracle tie contradicts nothing (relaxed) but is not matched (strict)
    tie = np.zeros((3, 3))
    assert ev.consistency([P], [tie]) == 1.0
    assert ev.consistency([P], [tie], strict=True) == 0.0
    assert ev.decisiveness(np.stack([P, np.zeros((3, 3))])) == pytest.approx(4 / 12)


def test_never_deciding_axiom_has_undefined_consistency():
    scores = ev.evaluate_preferences([np.zeros((3, 3))], [ORC])
    assert scores["decisiveness"] == scores["effectiveness"] == 0.0
    assert np.isnan(scores["consistency"]) and np.isnan(scores["consistency_strict"])  # 0/0, not 0


def test_diagonal_and_magnitudes_are_ignored():
    noisy = P * 3.5 + np.eye(3)
    assert ev.evaluate_preferences([noisy], [ORC]) == ev.evaluate_preferences([P], [ORC])


def test_topics_of_different_sizes_sum_micro():
    big = np.zeros((4, 4))
    big[0, 1], big[1, 0] = 1, -1
    scores = ev.evaluate_preferences([P, big], [ORC, -big])
    assert scores["decisiveness"] == pytest.approx(6 / 18)
    assert scores["consistency"] == pytest.approx(2 / 6)


def test_shape_mismatch_is_an_error():
    with pytest.raises(ValueError, match="differ in shape"):
        ev.evaluate_preferences([P], [np.zeros((2, 2))])
    with pytest.raises(ValueError, match="2 axiom matrices but 1 oracle"):
        ev.evaluate_preferences([P, P], [ORC])


def _read_md(path: Path) -> pd.DataFrame:
    lines = [line.strip().strip("|").split("|") for line in path.read_text().splitlines() if line.startswith("|")]
    header = [c.strip() for c in lines[0]]
    rows = [[c.strip() for c in line] for line in lines[2:]]
    frame = pd.DataFrame(rows, columns=header)
    for column in header[1:]:
        frame[column] = frame[column].astype(float)
    return frame.set_index("axiom")


@pytest.mark.parametrize("oracle_key, table", [("overall", "table.md"), ("overall@averaged", "table_averaged.md")])
def test_reproduces_the_reference_tables(reference_dir: Path, oracle_key, table):
    ictir = np.load(reference_dir / "prefs_ictir.npz")
    default = np.load(reference_dir / "prefs_default.npz")
    prefs = {k: ictir[k] for k in ictir.files} | {k: default[k] for k in default.files if k.startswith("GEN-")}
    ours = ev.evaluation_table(prefs, np.load(reference_dir / "oracle.npz")[oracle_key]).set_index("axiom")
    reference = _read_md(reference_dir / table)
    assert set(ours.index) == set(reference.index) and len(ours) == 24
    for ours_column, ref_column in [("decisiveness", "decisiveness"), ("consistency", "consistency"),
                                    ("consistency_strict", "strict consistency"), ("effectiveness", "effectiveness")]:
        difference = (ours[ours_column] - reference.loc[ours.index, ref_column]).abs()
        assert difference.max() <= 0.005, f"{ours_column}: {difference.idxmax()} differs by {difference.max()}"
    # the same order by effectiveness
    assert list(ours.index[:6]) == list(reference.index[:6])


def test_bootstrap_is_seeded_and_brackets_the_estimate(reference_dir: Path):
    prefs = np.load(reference_dir / "prefs_ictir.npz")["CORR1"]
    oracle = np.load(reference_dir / "oracle.npz")["overall"]
    first = ev.bootstrap(prefs, oracle, samples=300, seed=7)
    assert first == ev.bootstrap(prefs, oracle, samples=300, seed=7)
    assert first != ev.bootstrap(prefs, oracle, samples=300, seed=8)
    point = ev.evaluate_preferences(prefs, oracle)
    for measure, (low, high) in first.items():
        assert low < point[measure] < high
    table = ev.evaluation_table({"CORR1": prefs}, oracle, samples=300, seed=7)
    assert table.loc[0, "consistency_low"] == first["consistency"][0]


def test_vote_sweep_trade_off():
    rng = np.random.default_rng(0)
    def random_prefs():
        upper = np.triu(rng.integers(-1, 2, size=(10, 5, 5)), 1)
        return (upper - upper.transpose(0, 2, 1)).astype(float)
    axioms = {f"A{k}": random_prefs() for k in range(5)}
    oracle = random_prefs()
    sweep = ev.vote_sweep(axioms, oracle, minimum_votes=[0.0, 0.2, 0.4, 0.6])
    assert list(sweep.columns) == ["minimum_votes", *ev.MEASURES, "judgments_saved", "correct"]
    assert sweep["decisiveness"].is_monotonic_decreasing
    assert (sweep["judgments_saved"] == sweep["decisiveness"]).all()
    never = ev.vote_sweep(axioms, oracle, minimum_votes=[1.0])
    assert never.loc[0, "decisiveness"] == 0 and np.isnan(never.loc[0, "correct"])
    # with one axiom, the vote is that axiom
    single = ev.vote_sweep({"A0": axioms["A0"]}, oracle, minimum_votes=[0.0])
    assert single.loc[0, "consistency"] == ev.consistency(axioms["A0"], oracle)


def test_vote_rule_minimum_votes():
    one = np.array([[0, 1], [-1, 0]], dtype=float)
    none = np.zeros((2, 2))
    stacks = {"a": [one], "b": [one], "c": [none], "d": [-one]}
    # 2 of 4 vote for 0 > 1, 1 against: decided while 2 >= m * 4
    assert ev.majority_vote_preferences(stacks, 0.5)[0][0, 1] == 1
    assert ev.majority_vote_preferences(stacks, 0.6)[0][0, 1] == 0


def test_agreement():
    a = np.array([[[0, 1, 1], [-1, 0, 0], [-1, 0, 0]]], dtype=float)
    b = np.array([[[0, 1, -1], [-1, 0, 1], [1, -1, 0]]], dtype=float)
    table = ev.agreement({"a": a, "b": b})
    assert table.loc["a", "b"] == table.loc["b", "a"] == pytest.approx(0.5)  # jointly decided: 4 pairs, 2 agree
    assert table.loc["a", "a"] == 1.0
    everything = ev.agreement({"a": a, "b": b}, decided_only=False)
    assert everything.loc["a", "b"] == pytest.approx(2 / 6)


def test_frame_api_matches_matrix_api(reference_dir: Path):
    ictir = np.load(reference_dir / "prefs_ictir.npz")
    oracle = np.load(reference_dir / "oracle.npz")["overall"]
    rows = []
    for t in range(oracle.shape[0]):
        for i in range(6):
            for j in range(6):
                if i != j:
                    rows.append({"qid": f"t{t}", "docno_a": f"d{i}", "docno_b": f"d{j}", "ORACLE": oracle[t, i, j],
                                 "COV1": ictir["COV1"][t, i, j], "CORR1": ictir["CORR1"][t, i, j]})
    frame = pd.DataFrame(rows)
    from_frame = ev.evaluate_frame(frame, "ORACLE").set_index("axiom")
    from_matrices = ev.evaluation_table({"COV1": ictir["COV1"], "CORR1": ictir["CORR1"]}, oracle).set_index("axiom")
    pd.testing.assert_frame_equal(from_frame.loc[from_matrices.index], from_matrices)


def test_ir_measures_in_pt_experiment():
    pt = pytest.importorskip("pyterrier")
    measures = ev.measures()
    run = pd.DataFrame({"qid": ["q"] * 4, "query": ["x"] * 4, "docno": ["a", "b", "c", "d"],
                        "score": [4.0, 3.0, 3.0, 1.0]})
    qrels = pd.DataFrame({"qid": ["q"] * 3, "docno": ["a", "b", "c"], "label": [2, 0, 1]})
    result = pt.Experiment([pt.Transformer.from_df(run)], run[["qid", "query"]].drop_duplicates(), qrels,
                           eval_metrics=measures, names=["run"])
    # 12 ordered pairs; b and c tie in the run -> 10 decisive. Oracle: a > c > b, d unjudged (ties with all).
    # Relaxed: no run preference contradicts the oracle (b > c is not expressed) -> 10 / 10.
    # Strict: only a > b, a > c and their mirrors match the oracle exactly -> 4 / 10.
    row = result.iloc[0]
    assert row["AxiomDecisiveness"] == pytest.approx(10 / 12)
    assert row["AxiomConsistency"] == pytest.approx(1.0)
    assert row["AxiomConsistencyStrict"] == pytest.approx(4 / 10)


def test_bootstrap_consistency_ignores_samples_without_decisions():
    # the axiom decides only in topic 0, always correctly: consistency is 1 in every sample where it decides
    prefs = [P * 0 for _ in range(20)]
    prefs[0] = ORC.copy()
    oracle = [ORC] * 20
    intervals = ev.bootstrap(prefs, oracle, samples=200, seed=0)
    assert intervals["consistency"] == (1.0, 1.0)
    assert intervals["decisiveness"][0] == 0.0
    never = ev.bootstrap([np.zeros((3, 3))], [ORC], samples=10)
    assert np.isnan(never["consistency"][0]) and never["decisiveness"] == (0.0, 0.0)


def test_compute_preferences_caches_by_version_and_skips_unavailable_tools(tmp_path: Path, monkeypatch):
    import ir_rag_axioms._version
    from ir_rag_axioms import CORR1, ArgUC
    from ir_rag_axioms.analysis.matrices import MatrixCache
    from ir_rag_axioms.demo import load_demo

    items = load_demo()
    with pytest.warns(UserWarning, match="skipped ArgUC: .*tagger"):  # no argument tagger configured
        first = ev.compute_preferences({"CORR1": CORR1, "ArgUC": ArgUC}, items, cache_dir=tmp_path)
    assert list(first) == ["CORR1"] and len(first["CORR1"]) == len(items)
    cache = MatrixCache(tmp_path)
    assert len(cache.store) == len(items)  # one entry per item, none for the skipped axiom
    assert all(np.array_equal(m, s) for m, s in zip(cache.load(CORR1, items), first["CORR1"], strict=True))
    cache.save(CORR1, items, [np.zeros_like(m) for m in first["CORR1"]])  # doctored
    reused = ev.evaluate_axioms({"CORR1": CORR1}, items, first["CORR1"], cache_dir=tmp_path)
    assert reused.loc[0, "decisiveness"] == 0.0
    monkeypatch.setattr(ir_rag_axioms._version, "__version__", "0.0.0+other")  # another version: another cache entry
    assert cache.load(CORR1, items) == [None] * len(items)
    fresh = ev.evaluate_axioms({"CORR1": CORR1}, items, first["CORR1"], cache_dir=tmp_path)
    assert fresh.loc[0, "decisiveness"] > 0 and fresh.loc[0, "consistency_strict"] == 1.0
    assert len(cache.store) == 2 * len(items)


def test_bootstrap_uses_scipy_with_the_same_resamples(reference_dir: Path):
    # scipy.stats.bootstrap draws rng.integers(0, T, (samples, T)), as the hand-written bootstrap did
    prefs = np.load(reference_dir / "prefs_ictir.npz")["COV1"]
    oracle = np.load(reference_dir / "oracle.npz")["overall"]
    counts = ev.topic_counts(prefs, oracle)
    draws = np.random.default_rng(3).integers(0, len(counts), size=(400, len(counts)))
    sums = counts[draws].sum(axis=1)
    expected, alpha = {}, (1 - 0.9) / 2
    for name, values in zip(ev.MEASURES, evaluate._measures(sums), strict=True):
        values = values[~np.isnan(values)]
        expected[name] = (float(np.quantile(values, alpha)), float(np.quantile(values, 1 - alpha)))
    assert ev.bootstrap(prefs, oracle, samples=400, confidence=0.9, seed=3) == expected


def test_an_undecided_axiom_is_named_in_a_warning_and_nan_in_the_table():
    with pytest.warns(ev.UndecidedAxiomWarning, match="SILENT decided no pair"):
        table = ev.evaluation_table({"SILENT": [np.zeros((3, 3))], "P": [P]}, [ORC]).set_index("axiom")
    assert np.isnan(table.loc["SILENT", "consistency"]) and table.loc["SILENT", "effectiveness"] == 0.0
    assert not np.isnan(table.loc["P", "consistency"])
