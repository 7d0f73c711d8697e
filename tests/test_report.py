"""The evaluation report: the markdown table (DataFrame.to_markdown) and the files write_report leaves."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pandas as pd
from conftest import run_cli

from ir_rag_axioms.evaluation import report

TABLE = pd.DataFrame({"axiom": ["COV1", "A-long-name"], "decisiveness": [0.5, 1.0], "consistency": [1 / 3, 0.0],
                      "consistency_strict": [0.25, 0.0], "effectiveness": [0.4, 0.0]})


def test_markdown_exact_text():
    assert report.markdown(TABLE).splitlines() == [
        "| axiom       | decisiveness   | consistency   | strict consistency   | effectiveness   |",
        "|-------------|----------------|---------------|----------------------|-----------------|",
        "| COV1        | 0.500          | 0.333         | 0.250                | 0.400           |",
        "| A-long-name | 1.000          | 0.000         | 0.000                | 0.000           |",
    ]


def test_markdown_with_intervals():
    bounds = {f"{m}_{side}": [0.125, 0.0] if side == "low" else [0.875, 0.0]
              for m in ("decisiveness", "consistency", "consistency_strict", "effectiveness")
              for side in ("low", "high")}
    line = report.markdown(TABLE.assign(**bounds)).splitlines()[2]
    assert [cell.strip() for cell in line.strip("|").split("|")] == [
        "COV1", "0.500 [0.125, 0.875]", "0.333 [0.125, 0.875]", "0.250 [0.125, 0.875]", "0.400 [0.125, 0.875]"]


def test_write_report_without_figures(tmp_path: Path):
    matrices = [np.array([[0.0, 1.0], [-1.0, 0.0]])]
    text = report.write_report(tmp_path, TABLE, {"COV1": matrices}, matrices, "crowd:overall", figures=False)
    assert (tmp_path / "table.md").read_text() == text == report.markdown(TABLE)
    pd.testing.assert_frame_equal(pd.read_csv(tmp_path / "table.csv"), TABLE)
    stored = report.read_preferences(tmp_path / "preferences.npz")
    assert list(stored) == ["ORACLE", "COV1"] and [m.tolist() for m in stored["COV1"]] == [matrices[0].tolist()]
    assert not (tmp_path / "votes.png").exists()


def test_write_report_draws_what_the_vote_saves_of_the_oracles_pairs(tmp_path: Path):
    truth = [np.array([[0.0, 1, 1], [-1, 0, 0], [-1, 0, 0]])]  # decides (0, 1) and (0, 2); (1, 2) is a tie
    right = [np.array([[0.0, 1, 1], [-1, 0, 1], [-1, -1, 0]])]
    wrong = [np.array([[0.0, 1, -1], [-1, 0, 1], [1, -1, 0]])]
    report.write_report(tmp_path, TABLE, {"A": right, "B": right, "C": wrong}, truth, "crowd:overall")
    curve = pd.read_csv(tmp_path / "effort.csv")
    # the vote: (0, 1) 3 of 3 for, right; (0, 2) 2 of 3 for, right: both pairs saved, none wrong
    assert curve["confidence"].tolist()[1:] == [1.0, 2 / 3]
    assert curve["automatic"].tolist() == [0.0, 0.5, 1.0] and curve["correct"].tolist() == [1.0, 1.0, 1.0]
    assert (tmp_path / "effort.png").read_bytes()[:4] == b"\x89PNG"


def test_preferences_keep_ragged_topics_and_any_name(tmp_path: Path):
    small, large = np.array([[0.0, 1.0], [-1.0, 0.0]]), np.array([[0.0, 1, -1], [-1, 0, 0], [1, 0, 0]])
    named = {"ORACLE": [small, large], "file": [small, large], "allow_pickle": [-small, -large]}
    report.write_preferences(tmp_path / "p.npz", named)
    stored = report.read_preferences(tmp_path / "p.npz")
    assert list(stored) == ["ORACLE", "file", "allow_pickle"]
    assert [m.tolist() for m in stored["allow_pickle"]] == [(-small).tolist(), (-large).tolist()]
    assert [p.name for p in tmp_path.iterdir()] == ["p.npz"]  # no temporary file left


# -- errors and edge cases ----------------------------------------------------------------------------


def test_nugget_topics_of_different_sizes_and_numpy_keyword_names_are_kept(tmp_path: Path):
    from ir_rag_axioms.evaluation import report

    nuggets = [{"text": "n", "importance": "vital", "assignment": "support"}]
    records = [{"qid": qid, "query": "Why do cats purr?", "run_id": f"r{k}", "answer_text": f"Cats purr{' [1]' * k}.",
                "nuggets": nuggets if k % 2 else [{**nuggets[0], "assignment": "not_support"}]}
               for qid, count in (("1", 2), ("2", 3)) for k in range(count)]
    (tmp_path / "nugget_assignment.test.jsonl").write_text("".join(json.dumps(r) + "\n" for r in records))
    code, err = run_cli("evaluate", "--data", str(tmp_path), "--oracle", "nugget:vital", "--axioms",
                     "file=CORR1,allow_pickle=CORR1(margin_fraction=0.5)", "--quiet", "--no-figures",
                     "--out", str(tmp_path / "out"))
    assert code == 0, err
    stored = report.read_preferences(tmp_path / "out" / "preferences.npz")
    assert list(stored) == ["ORACLE", "file", "allow_pickle"]
    assert [len(m) for m in stored["ORACLE"]] == [len(m) for m in stored["file"]] == [2, 3]
    assert stored["ORACLE"][0].tolist() == [[0, -1], [1, 0]]  # r1 supports the vital nugget, r0 does not
