"""Adversarial findings on the judge: Bradley-Terry values under renamed or reordered runs, a single run."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from ir_rag_axioms import GenerationRequest, GenerationResponse
from ir_rag_axioms.axioms.base import FeatureAxiom
from ir_rag_axioms.evaluation import leaderboard as lb


class Length(FeatureAxiom):
    """Prefer the longer text."""

    def values(self, request: GenerationRequest, responses: list[GenerationResponse], analysis) -> np.ndarray:
        return np.array([len(r.text) for r in responses], dtype=float)


def _answers(seed: int) -> pd.DataFrame:
    """9 runs on 7 topics, some answers missing; run8 a copy of run3 (two tied runs)."""
    rng = np.random.default_rng(seed)
    rows = [{"run_id": f"run{k}", "topic": f"t{t}", "query": f"query {t}", "text": "x" * int(rng.integers(1, 9))}
            for t in range(7) for k in range(8) if rng.random() >= 0.15]
    frame = pd.DataFrame(rows)
    return pd.concat([frame, frame[frame["run_id"] == "run3"].assign(run_id="run8")], ignore_index=True)


def _strengths(answers: pd.DataFrame) -> pd.Series:
    board = lb.system_leaderboard(answers, {"long": Length()}, method="bradley_terry", progress=False)
    return board[board["measure"] == "AXIOM_BT"].set_index(["run_id", "topic"])["value"].sort_index()


@pytest.mark.parametrize("seed", [0, 2])
def test_bradley_terry_values_do_not_change_in_their_last_bit_under_shuffled_rows_or_renamed_runs(seed: int):
    answers = _answers(seed)
    first = _strengths(answers)
    shuffled = _strengths(answers.sample(frac=1, random_state=1))
    renamed = {f"run{k}": f"z{8 - k}" for k in range(9)}  # the names' sorted order reversed
    back = {v: k for k, v in renamed.items()}
    again = _strengths(answers.assign(run_id=answers["run_id"].map(renamed))).rename(index=back, level=0)
    assert shuffled.tolist() == first.tolist() and shuffled.index.equals(first.index)
    assert again.sort_index().tolist() == first.tolist()
    assert first.xs("run3", level=0).tolist() == first.xs("run8", level=0).tolist()  # tied runs: one value
    assert np.isfinite(first.xs("all", level=1)).all()


def test_alike_equal_gives_equal_keys_their_exact_mean():
    assert lb.alike_equal(np.array([1.0, 2.0, 0.1 + 0.2, 0.3]), ["a", "b", "c", "c"]).tolist() == [
        1.0, 2.0, (0.1 + 0.2 + 0.3) / 2, (0.1 + 0.2 + 0.3) / 2]


def test_a_single_run_has_no_overall_bradley_terry_strength():
    answers = pd.DataFrame({"run_id": "a", "topic": ["t1", "t2"], "query": "q", "text": ["xx", "xxx"]})
    board = lb.system_leaderboard(answers, {"long": Length()}, method="bradley_terry", progress=False)
    assert board[board["measure"] == "AXIOM_BT"]["value"].isna().all()  # was 0.0 for "all": nothing compared


def _write(path: Path, rows: list[dict]) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    return path


@pytest.mark.parametrize("format", ["tot", "jsonl"])
def test_judging_a_single_run_warns_that_it_cannot_be_compared(tmp_path: Path, format: str):
    from conftest import run_cli

    report = [{"metadata": {"run_id": "A", "team_id": "ta", "topic_id": "t1"}, "references": [],
               "answer": [{"text": "Cats sleep a lot.", "citations": []}]}]
    files = _write(tmp_path / "A.jsonl", report)
    topics = _write(tmp_path / "topics.jsonl", [{"request_id": "t1", "title": "what do cats do"}])
    with pytest.warns(UserWarning, match=r"^the leaderboard holds a single run \('A'\): the axioms compare runs with "
                                         r"each other, so one run cannot be compared"):
        code, _ = run_cli("judge", str(files), "--topics", str(topics), "--out", str(tmp_path / f"b.{format}"),
                          "--format", format, "--axioms", "CLAR4", "--quiet")
    assert code == 0


def test_judging_two_runs_does_not_warn_about_a_single_run(tmp_path: Path):
    import warnings

    from conftest import run_cli

    reports = [{"metadata": {"run_id": run, "team_id": run, "topic_id": "t1"}, "references": [],
                "answer": [{"text": text, "citations": []}]} for run, text in (("A", "Cats sleep."), ("B", "Cats."))]
    files = _write(tmp_path / "r.jsonl", reports)
    topics = _write(tmp_path / "topics.jsonl", [{"request_id": "t1", "title": "what do cats do"}])
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        code, _ = run_cli("judge", str(files), "--topics", str(topics), "--out", str(tmp_path / "b.tot"),
                          "--axioms", "CLAR4", "--quiet")
    assert code == 0 and not [w for w in caught if "single run" in str(w.message)]
