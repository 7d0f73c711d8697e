"""Runs from data: response frames, AutoNuggetizer scores and qrels, TREC run files, Kendall's tau."""

from __future__ import annotations

import gzip
import json
import math
import os
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from ir_rag_axioms.datasets.runs import (
    nugget_answers,
    nugget_qrels,
    nugget_score,
    read_jsonl,
    responses_frame,
    write_trec_run,
)
from ir_rag_axioms.evaluation.run_measures import check_run, kendall_tau

NUGGETS = Path("trec-rag-24-nuggets") / "nugget_assignment.dev20.jsonl.gz"
EXAMPLE = [
    {"text": "n1", "importance": "vital", "assignment": "support"},
    {"text": "n2", "importance": "vital", "assignment": "partial_support"},
    {"text": "n3", "importance": "okay", "assignment": "support"},
    {"text": "n4", "importance": "okay", "assignment": "not_support"},
]


@pytest.mark.parametrize(("score", "strict", "expected"), [
    ("all", False, (1 + 0.5 + 1 + 0) / 4),
    ("all", True, (1 + 0 + 1 + 0) / 4),
    ("vital", False, (1 + 0.5) / 2),
    ("vital", True, 1 / 2),
    ("weighted", False, (1 * 1 + 1 * 0.5 + 0.5 * 1 + 0.5 * 0) / (1 + 1 + 0.5 + 0.5)),
    ("weighted", True, (1 * 1 + 0.5 * 1) / 3),
])
def test_nugget_scores_follow_the_autonuggetizer_formulas(score: str, strict: bool, expected: float) -> None:
    assert nugget_score(EXAMPLE, score, strict) == pytest.approx(expected)


def test_nugget_score_edge_cases(tmp_path: Path) -> None:
    from ir_rag_axioms.datasets import files, nuggets

    assert nugget_score is nuggets.nugget_score and read_jsonl is files.read_jsonl  # one of each
    okay_only = [{"importance": "okay", "assignment": "support"}]
    assert math.isnan(nugget_score(okay_only, "vital"))  # undefined: no vital nugget
    assert math.isnan(nugget_score([], "all"))
    assert nugget_score(okay_only, "all") == 1.0
    with pytest.raises(ValueError, match="unknown nugget score"):
        nugget_score(EXAMPLE, "strict")
    path = tmp_path / "nuggets.jsonl"
    path.write_text("".join(json.dumps({"qid": "q", "run_id": r, "nuggets": n}) + "\n"
                            for r, n in [("a", EXAMPLE), ("b", okay_only)]))
    # as in the registered dataset: no qrel where the score is undefined (ir_measures: unjudged, gain 0)
    assert nugget_qrels(path, "vital").values.tolist() == [["q", "q/a", 3, 0.75]]  # grade round(4 x score)
    assert nugget_qrels(path, "all").values.tolist() == [["q", "q/a", 2, 0.625], ["q", "q/b", 4, 1.0]]
    assert nugget_qrels(path, "all", scale=100)["label"].tolist() == [62, 100]


def test_responses_frame_from_records_jsonl_and_frame(tmp_path: Path) -> None:
    records = [
        {"topic": 1, "q": "why", "system": "s2", "answer": "b", "refs": ["p1"]},
        {"topic": 1, "q": "why", "system": "s1", "answer": "a", "refs": ["p1"]},
        {"topic": 2, "q": "how", "system": "s1", "answer": "c", "refs": None},
    ]
    path = tmp_path / "answers.jsonl.gz"
    with gzip.open(path, "wt") as out:
        out.writelines(json.dumps(r) + "\n" for r in records)
    mapping = {"qid": "topic", "query": "q", "docno": "system", "text": "answer", "context": "refs"}
    for source in (records, path, pd.DataFrame(records)):
        frame = responses_frame(source, **mapping)
        assert list(frame.columns) == ["qid", "query", "docno", "text", "context", "rank", "score"]
        assert frame["qid"].tolist() == ["1", "1", "2"] and frame["docno"].tolist() == ["s2", "s1", "s1"]
        assert frame["rank"].tolist() == [0, 1, 0] and frame["score"].tolist() == [0.0, -1.0, 0.0]
    assert read_jsonl(path) == records
    with pytest.raises(KeyError, match=r"missing field\(s\) \['query'\]"):
        responses_frame(records, qid="topic", docno="system", text="answer")
    with pytest.raises(ValueError, match="duplicate docno"):
        responses_frame(records + records[:1], **mapping)


@pytest.mark.shared
def test_nugget_answers_and_qrels_from_the_shared_file(data_dir: Path) -> None:
    path = data_dir / NUGGETS
    answers = nugget_answers(path)
    assert answers.shape == (883, 7)
    assert list(answers.columns) == ["qid", "query", "docno", "text", "rank", "score", "system"]
    assert answers["qid"].nunique() == 20 and not answers.duplicated(["qid", "docno"]).any()
    assert (answers.groupby("qid")["rank"].max() + 1).tolist() == answers.groupby("qid").size().tolist()
    first = read_jsonl(path)[0]
    assert answers.iloc[0][["qid", "docno", "text", "system"]].tolist() == [
        first["qid"], f"{first['qid']}/{first['run_id']}", first["answer_text"], first["run_id"]]
    for score in ("all", "vital", "weighted"):
        for strict in (False, True):
            qrels = nugget_qrels(path, score, strict)
            assert list(qrels.columns) == ["qid", "docno", "label", "nugget_score"] and len(qrels) == 883
            assert qrels["label"].dtype == np.int64 and qrels["label"].between(0, 4).all()
            assert qrels["nugget_score"].iloc[0] == nugget_score(first["nuggets"], score, strict)
            assert qrels["label"].iloc[0] == round(4 * nugget_score(first["nuggets"], score, strict))
            assert check_run(answers, qrels) == 1.0
    assert (nugget_qrels(path, "all", True)["label"] <= nugget_qrels(path, "all")["label"]).all()


def test_write_trec_run_exact_lines_and_round_trip(tmp_path: Path) -> None:
    frame = pd.DataFrame({"qid": ["2", "1", "1"], "docno": ["x", "b", "a"], "score": [0.5, 1.0, 2.0],
                          "rank": [0, 1, 0]})
    path = write_trec_run(frame, tmp_path / "run.txt", "axioms")
    assert path.read_text().splitlines() == ["1 Q0 a 1 2.0 axioms", "1 Q0 b 2 1.0 axioms", "2 Q0 x 1 0.5 axioms"]
    gz = write_trec_run(frame.drop(columns=["rank"]), tmp_path / "run.txt.gz")
    with gzip.open(gz, "rt") as lines:
        assert lines.read().splitlines()[0] == "1 Q0 a 1 2.0 ir_rag_axioms"
    ranks_only = write_trec_run(frame.drop(columns=["score"]), tmp_path / "ranks.txt")
    assert ranks_only.read_text().splitlines()[:2] == ["1 Q0 a 1 2.0 ir_rag_axioms", "1 Q0 b 2 1.0 ir_rag_axioms"]
    ties = pd.DataFrame({"qid": ["1"] * 3, "docno": ["c", "b", "a"], "score": [1.0, 1.0, 0.25], "rank": [1, 0, 2]})
    assert write_trec_run(ties, tmp_path / "ties.txt").read_text().splitlines() == [
        "1 Q0 b 1 1.1875 ir_rag_axioms", "1 Q0 c 2 1.0 ir_rag_axioms", "1 Q0 a 3 0.25 ir_rag_axioms"]  # tie folded
    ir_measures = pytest.importorskip("ir_measures")
    run = list(ir_measures.read_trec_run(str(path)))
    assert [(r.query_id, r.doc_id, r.score) for r in run] == [("1", "a", 2.0), ("1", "b", 1.0), ("2", "x", 0.5)]
    with pytest.raises(ValueError, match="run_name"):
        write_trec_run(frame, tmp_path / "bad.txt", "two words")
    with pytest.raises(KeyError, match="docno"):
        write_trec_run(frame.drop(columns=["docno"]), tmp_path / "bad.txt")


def test_kendall_tau_b_exact_values() -> None:
    assert kendall_tau([1, 2, 3, 4], [10, 20, 30, 40]) == 1.0
    assert kendall_tau([1, 2, 3, 4], [4, 3, 2, 1]) == -1.0
    assert np.isnan(kendall_tau([1, 2, 3], [5, 5, 5]))  # undefined, not 0
    # x = [1, 2, 3], y = [1, 1, 2]: pairs (C, D, ties in y) = (2, 0, 1) -> 2 / sqrt(3 * 2)
    assert kendall_tau([1, 2, 3], [1, 1, 2]) == pytest.approx(2 / np.sqrt(6))
    stats = pytest.importorskip("scipy.stats")
    rng = np.random.default_rng(1)
    x, y = rng.integers(0, 5, 30), rng.integers(0, 4, 30)
    assert kendall_tau(x, y) == pytest.approx(stats.kendalltau(x, y).statistic)


def _handwritten_kendall_tau(x, y) -> float:
    """The implementation before scipy: (C - D) / sqrt((C + D + T_x)(C + D + T_y)); 0 when either side is constant."""
    x, y = np.asarray(x, dtype=np.float64), np.asarray(y, dtype=np.float64)
    i, j = np.triu_indices(len(x), k=1)
    dx, dy = np.sign(x[i] - x[j]), np.sign(y[i] - y[j])
    untied_x, untied_y = float(np.count_nonzero(dx)), float(np.count_nonzero(dy))
    if untied_x == 0 or untied_y == 0:
        return 0.0
    return float((dx * dy).sum()) / float(np.sqrt(untied_x * untied_y))


@pytest.mark.shared
def test_kendall_tau_equals_the_handwritten_one_on_the_nugget_runs(data_dir: Path) -> None:
    path = data_dir / NUGGETS
    answers = nugget_answers(path)
    compared = 0
    for score in ("all", "vital", "weighted"):
        labelled = answers.merge(nugget_qrels(path, score), on=["qid", "docno"], how="left")
        for _, run in labelled.groupby("qid"):
            x, y = run["score"].to_numpy(), run["label"].fillna(0).to_numpy()
            assert kendall_tau(x, y) == pytest.approx(_handwritten_kendall_tau(x, y), abs=1e-12)
            compared += 1
    assert compared == 60


def test_kendall_tau_measure_in_ir_measures() -> None:
    ir_measures = pytest.importorskip("ir_measures")
    from ir_rag_axioms.evaluation.run_measures import KendallTau

    qrels = pd.DataFrame({"query_id": ["1"] * 3, "doc_id": ["a", "b", "c"], "relevance": [2, 1, 0]})
    run = pd.DataFrame({"query_id": ["1"] * 3, "doc_id": ["a", "b", "c"], "score": [3.0, 2.0, 1.0]})
    assert ir_measures.calc_aggregate([KendallTau], qrels, run)[KendallTau] == pytest.approx(1.0)
    run["score"] = [1.0, 2.0, 3.0]
    assert ir_measures.calc_aggregate([KendallTau], qrels, run)[KendallTau] == pytest.approx(-1.0)


def test_written_files_follow_the_umask(tmp_path) -> None:

    from ir_rag_axioms.output import write_text

    old = os.umask(0o027)
    try:
        mode = write_text(tmp_path / "a.txt", "x").stat().st_mode & 0o777
        plain = tmp_path / "b.txt"
        plain.write_text("x")
        assert mode == plain.stat().st_mode & 0o777 == 0o640
        run = write_trec_run(pd.DataFrame({"qid": ["1"], "docno": ["a"], "score": [1.0]}), tmp_path / "run.txt")
        assert run.stat().st_mode & 0o777 == 0o640
    finally:
        os.umask(old)


def test_tool_errors_are_brief() -> None:
    from ir_rag_axioms.analysis.resources import brief_error

    raw = ("HTTPConnectionPool(host='localhost', port=8081): Max retries exceeded with url: /v2/check (Caused by "
           "NewConnectionError('<urllib3.connection.HTTPConnection object at 0x7f00aa>: Failed to establish a new "
           "connection: [Errno 111] Connection refused'))")
    assert brief_error(ConnectionError(raw)) == "ConnectionError: [Errno 111] Connection refused"
    assert len(brief_error(ValueError("x" * 500))) == len("ValueError: ") + 160


@pytest.mark.parametrize("aggregation", ["borda", "copeland", "kwiksort", "bradley_terry"])
def test_cli_rerank_runs_have_strictly_decreasing_scores(tmp_path, aggregation) -> None:
    from conftest import ROOT

    from ir_rag_axioms import cli

    run = tmp_path / "run.txt"
    assert cli.main(["rerank", "--input", str(ROOT / "examples" / "requests.jsonl"), "--axioms", "CORR1",
                     "--aggregation", aggregation, "-o", str(run), "--quiet"]) == 0
    lines = pd.DataFrame([line.split() for line in run.read_text().splitlines()],
                         columns=["qid", "q0", "docno", "rank", "score", "name"])
    lines = lines.astype({"rank": int, "score": float})
    assert lines["qid"].nunique() >= 2
    for _, group in lines.groupby("qid"):  # CORR1 ties often: the ties are folded into the score
        assert group["rank"].tolist() == list(range(1, len(group) + 1))
        assert (np.diff(group["score"].to_numpy()) < 0).all(), group


# -- errors and edge cases ----------------------------------------------------------------------------
@pytest.mark.parametrize("column, value", [("docno", "a b"), ("docno", "c\n1 Q0 evil 1 99 x"), ("qid", ""),
                                           ("qid", "1 2")])
def test_the_trec_run_writer_refuses_ids_with_whitespace(tmp_path: Path, column, value):
    from ir_rag_axioms.datasets.runs import write_trec_run

    frame = pd.DataFrame({"qid": ["1", "1"], "docno": ["a", "b"], "score": [2.0, 1.0]})
    frame.loc[0, column] = value
    with pytest.raises(ValueError, match=f"{column}s must be non-empty and without whitespace"):
        write_trec_run(frame, tmp_path / "run.txt")
    assert not (tmp_path / "run.txt").exists()


def test_pt_experiments_own_table_equals_calc_aggregate_when_a_query_is_undefined() -> None:
    """Query 3 has constant scores: KendallTau and AxiomConsistency are undefined there, and left out of every mean.

    Topic 4 has no qrels: no measure (ours or ir_measures') gives it a value.
    """
    import warnings

    import ir_measures
    import pyterrier as pt
    from ir_measures import nDCG

    from ir_rag_axioms.evaluation import Experiment, UndefinedMeasureWarning, measures
    from ir_rag_axioms.evaluation.run_measures import KendallTau

    run = pd.DataFrame({"qid": ["1"] * 3 + ["2"] * 3 + ["3"] * 3 + ["4"] * 2, "docno": list("abcdefghijk"),
                        "score": [3.0, 2.0, 1.0, 1.0, 2.0, 3.0, 5.0, 5.0, 5.0, 2.0, 1.0]})
    qrels = pd.DataFrame({"qid": ["1"] * 3 + ["2"] * 3 + ["3"] * 3, "docno": list("abcdefghi"),
                          "label": [2, 1, 0, 2, 0, 1, 0, 1, 2]})
    topics = pd.DataFrame({"qid": ["1", "2", "3", "4"], "query": ["x", "y", "z", "w"]})
    metrics = [nDCG @ 3, KendallTau, *measures()]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        truth = ir_measures.calc_aggregate(metrics, qrels.rename(columns={"qid": "query_id", "docno": "doc_id",
                                                                           "label": "relevance"}),
                                           run.rename(columns={"qid": "query_id", "docno": "doc_id"}))
    with pytest.warns(UndefinedMeasureWarning, match=r"KendallTau is undefined for 1 of 3 queries.*mean of the 2 "
                                                     r"others \(0\.3333\)"):
        plain = pt.Experiment([run], topics, qrels, metrics, names=["run"]).set_index("name")
    for measure in metrics:
        assert plain.loc["run", str(measure)] == pytest.approx(truth[measure]), measure
    assert truth[KendallTau] == pytest.approx((1.0 + -1 / 3) / 2)  # queries 1 and 2; 3 left out, 4 unjudged
    with pytest.warns(UndefinedMeasureWarning, match="KendallTau is undefined for up to 1 queries"):
        table = Experiment([run], topics, qrels, metrics, names=["run"]).set_index("name")
    for measure in metrics:
        assert table.loc["run", str(measure)] == pytest.approx(truth[measure]), measure
    assert table.loc["run", "KendallTau undefined"] == 1 and table.loc["run", "AxiomDecisiveness undefined"] == 0
    assert "nDCG@3 undefined" not in table.columns  # ir_measures' own measures are defined on every judged query
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assert Experiment([run], topics, qrels, metrics, names=["run"], round=2).loc[0, "KendallTau"] == 0.33
        per_query = pt.Experiment([run], topics, qrels, [KendallTau], perquery=True)
    assert per_query.set_index("qid")["value"].isna().tolist() == [False, False, False, True]  # 4: pt backfills
