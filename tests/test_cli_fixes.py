"""Adversarial findings on the command line: rerank's tie order and warnings, compare's answer texts, evaluate's
topic choice, the bootstrap's least count, judge's help."""

from __future__ import annotations

import random
from pathlib import Path

import pandas as pd
import pytest
from conftest import run_cli, write_jsonl

from ir_rag_axioms import cli

QUERY = "What causes tides?"
TEXTS = {"a": "Tides are caused by the Moon.", "b": "Tides are caused by the Moon [1].", "c": "Wind, mostly.",
         "d": "Tides are caused by the gravitational pull of the Moon [1].", "e": "Tides are caused by the Moon."}


def _rerank(tmp_path: Path, rows: list[dict], name: str, *options: str) -> list[str]:
    source = write_jsonl(tmp_path / f"{name}.jsonl", rows)
    out = tmp_path / f"{name}.run"
    assert cli.main(["rerank", "--input", str(source), "--quiet", "-o", str(out), *options]) == 0
    return out.read_text().splitlines()


@pytest.mark.filterwarnings("ignore")
@pytest.mark.parametrize("axioms", ["CORR1", "COH1,CORR1"])
def test_rerank_output_does_not_depend_on_the_order_of_the_lines(tmp_path: Path, axioms: str):
    rows = [{"qid": q, "query": QUERY, "docno": d, "text": t, "context": ["The Moon pulls the oceans."]}
            for q in ("q2", "q1") for d, t in TEXTS.items()]
    first = _rerank(tmp_path, rows, "first", "--axioms", axioms)
    for k in range(3):
        shuffled = random.Random(k).sample(rows, len(rows))
        assert _rerank(tmp_path, shuffled, f"shuffled{k}", "--axioms", axioms) == first
    assert [line.split()[0] for line in first] == ["q1"] * 5 + ["q2"] * 5  # requests by qid


@pytest.mark.filterwarnings("ignore")
def test_rerank_ties_keep_rank_else_score_else_docno_whatever_the_line(tmp_path: Path):
    """The same texts: no pair decided, so the run is the documented input order, not the file's."""
    same = [{"qid": "q1", "query": QUERY, "docno": d, "text": "Tides are caused by the Moon."} for d in "abcde"]
    assert [line.split()[2] for line in _rerank(tmp_path, same[::-1], "docno", "--axioms", "CORR1")] == list("abcde")
    ranked = [dict(row, rank=r) for row, r in zip(same, [3, 1, 5, 2, 4], strict=True)]
    assert [line.split()[2] for line in _rerank(tmp_path, ranked[::-1], "rank", "--axioms", "CORR1")] == list("bdaec")
    scored = [dict(row, score=s) for row, s in zip(same, [0.5, 0.9, 0.1, 0.7, 0.3], strict=True)]
    assert [line.split()[2] for line in _rerank(tmp_path, scored, "score", "--axioms", "CORR1")] == list("bdaec")


def test_rerank_warns_about_requests_without_or_with_one_response(tmp_path: Path):
    rows = [{"id": "q0", "query": "x", "responses": []}, {"id": "q9", "query": "y", "responses": []},
            {"id": "q1", "query": QUERY, "responses": [{"id": "a", "text": TEXTS["a"]}]},
            {"id": "q2", "query": QUERY, "responses": [{"id": "a", "text": TEXTS["d"]}, {"id": "b", "text": "No."}]}]
    source = write_jsonl(tmp_path / "in.jsonl", rows)
    with pytest.warns(UserWarning) as caught:
        assert cli.main(["rerank", "--input", str(source), "--axioms", "CORR1", "--quiet",
                         "-o", str(tmp_path / "run")]) == 0
    messages = [str(w.message) for w in caught]
    assert "2 of 4 requests have no responses: they are left out of the run (id 'q0', 'q9')" in messages
    assert ("1 of 4 requests have a single response, which nothing can be compared with: it is written with "
            "rank 1 (id 'q1')") in messages
    assert [line.split()[:3] for line in (tmp_path / "run").read_text().splitlines()] == [
        ["q1", "Q0", "a"], ["q2", "Q0", "a"], ["q2", "Q0", "b"]]


@pytest.mark.parametrize("record, words", [
    ({"qid": "1", "query": "q", "system": "s"}, "line 2: no answer text: give the field 'text' or 'qanswer'"),
    ({"qid": "1", "query": "q", "system": "s", "text": None}, "line 2: the answer text 'text' is NoneType None, "
                                                              "not a string"),
    ({"qid": "1", "query": "q", "system": "s", "qanswer": 3}, "line 2: the answer text 'qanswer' is int 3"),
])
def test_compare_refuses_an_answer_without_a_text_naming_file_and_line(tmp_path: Path, record: dict, words: str):
    source = write_jsonl(tmp_path / "answers.jsonl", [{"qid": "1", "query": "q", "system": "t", "text": "Fine."},
                                                      record])
    code, err = run_cli("compare", "--answers", str(source), "--axioms", "COH1", "--bootstrap", "0", "--quiet",
                        "--no-figures", "--out", str(tmp_path / "out"))
    assert code == 2 and f"{source} {words}" in err, err
    assert not (tmp_path / "out" / "systems.csv").exists()


def test_compare_refuses_a_single_bootstrap_sample(tmp_path: Path, data_dir: Path):
    code, err = run_cli("compare", "--data", str(data_dir / "trec-rag-24-nuggets"), "--axioms", "CORR1", "--quiet",
                        "--bootstrap", "1", "--out", str(tmp_path / "out"))
    assert code == 2 and "argument --bootstrap: must be 0 (no intervals) or at least 2" in err


def test_evaluate_topics_are_the_first_by_topic_id_whatever_the_order_of_the_data(data_dir: Path, tmp_path: Path,
                                                                                 monkeypatch, capsys):
    import ir_rag_axioms.datasets as datasets

    args = ["evaluate", "--data", str(data_dir / "trec-rag-24-crowd"), "--axioms", "CORR1", "--topics", "2",
            "--quiet", "--no-figures"]
    assert cli.main([*args, "--out", str(tmp_path / "a")]) == 0
    first = capsys.readouterr().out
    chosen: list[list[str]] = []
    original = datasets.judged_items

    def reversed_items(*a, **k):
        items = original(*a, **k)[::-1]
        chosen.append(sorted(request.id for request, _ in items)[:2])
        return items

    monkeypatch.setattr(datasets, "judged_items", reversed_items)
    assert cli.main([*args, "--out", str(tmp_path / "b")]) == 0
    assert capsys.readouterr().out == first
    pd.testing.assert_frame_equal(pd.read_csv(tmp_path / "a" / "table.csv"), pd.read_csv(tmp_path / "b" / "table.csv"))
    assert len(chosen) == 1 and len(chosen[0]) == 2


def test_judge_help_names_the_packaged_models_axiom_count(capsys):
    from ir_rag_axioms.cli.judge import packaged_axiom_count
    from ir_rag_axioms.evaluation.leaderboard import default_axioms

    assert packaged_axiom_count() == len(default_axioms()) == 16
    with pytest.raises(SystemExit):
        cli.main(["judge", "--help"])
    assert f"packaged model's {len(default_axioms())};" in " ".join(capsys.readouterr().out.split())
