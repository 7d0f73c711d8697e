"""The AutoJudge on adversarial input: settings, scorers, measure names, citations, long answers, lone topics, ties,
TREC RAG 2026 reports, and the nugget data written as reports (runs never lost)."""

from __future__ import annotations

import gzip
import json
import math
import random
import warnings
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

pytest.importorskip("autojudge_base")

from autojudge_scorers import win_rate_scorer  # noqa: E402
from test_autojudge import NEUCLIR, RAG24, RAGTIME, TOPICS, _auto_judge, read_tot, write_jsonl  # noqa: E402

from ir_rag_axioms.evaluation import autojudge as aj  # noqa: E402
from ir_rag_axioms.evaluation import leaderboard as lb  # noqa: E402


@pytest.fixture(name="reports")
def _reports(tmp_path: Path) -> tuple[list[Path], Path]:
    """Runs A (TREC RAG 2024 shape), B (RAGTIME) and C (NeuCLIR, t1 only) on topics t1 and t2 (test_autojudge's)."""
    files = [write_jsonl(tmp_path / "runs" / f"{run}.jsonl", rows) for run, rows in (("A", RAG24), ("B", RAGTIME),
                                                                                     ("C", NEUCLIR))]
    return files, write_jsonl(tmp_path / "topics.jsonl", TOPICS)


# --------------------------------------------------------------------------------------------------------- settings


def _responses(files, topics_file):
    topics = aj.load_topics(topics_file)
    return aj.read_reports([w for ws in aj.index_reports(files, topics).values() for w in ws]), topics


def _all_42(answers, axioms=None, *, method="default", progress=True):
    """win_rate_scorer with every ``all`` row 42: the judge keeps them unless it scores by topic (then: the mean)."""
    scores = win_rate_scorer(answers, axioms, method=method, progress=progress)
    return scores.assign(value=scores["value"].where(scores["topic"] != "all", 42.0))


@pytest.mark.parametrize(("word", "by_topic"), [("false", False), ("False", False), ("no", False), ("0", False),
                                                 ("true", True), ("yes", True), (True, True), (False, False)])
def test_a_yes_no_setting_given_as_a_word_means_what_it_says(reports, word, by_topic):
    responses, topics = _responses(*reports)
    board = aj.AxiomJudge(scorer=_all_42).judge(responses, topics, by_topic=word, progress="false")
    alls = [e.values["headline"] for e in board.entries if e.topic_id == "all"]
    assert (alls == [42.0] * 3) is not by_topic


def test_a_yes_no_setting_that_is_neither_is_named(reports):
    responses, topics = _responses(*reports)
    with pytest.raises(aj.JudgeSettingsError, match=r"AxiomJudge: by_topic='maybe' is no yes/no value"):
        aj.AxiomJudge(scorer=_all_42).judge(responses, topics, by_topic="maybe")


def test_a_bad_scorer_setting_is_named_through_auto_judge_run_without_a_traceback(reports, tmp_path):
    files, topics = reports
    for setting, message in [("scorer=no_such_module_here.score", "module 'no_such_module_here' does not import"),
                             ("scorer=autojudge_scorers.nothing", "module 'autojudge_scorers' has no 'nothing'"),
                             ("scorer=autojudge_scorers.LIVE", "is a list, not a function")]:
        done = _auto_judge(files, topics, tmp_path / "out", setting, "progress=false")
        assert done.returncode == 1, done.stderr[-2000:]
        assert "Traceback" not in done.stderr and f"Error: AxiomJudge: scorer {setting[7:]!r}" in done.stderr
        assert message in done.stderr
        assert not (tmp_path / "out" / "axioms.eval.txt").exists()


# ------------------------------------------------------------------------------------------------ a scorer's frame


def _frame_of(rows):
    return lambda answers, axioms=None, **kwargs: pd.DataFrame(rows, columns=["run_id", "topic", "measure", "value"])


@pytest.mark.parametrize(("rows", "message"), [
    ([("A", "t1", "m", 1.0), ("A", "t9", "m", 1.0)], r"topics it was not given: \['t9'\]"),
    ([("A", "t1", "m", 1.0), ("A", "t1", "m", 0.0)], r"1 \(run, topic, measure\) more than once.*\('A', 't1', 'm'\)"),
    ([("A", "t1", "a b", 1.0), ("A", "t1", "ab", 0.0)], r"differ only in whitespace: \['a b', 'ab'\]"),
    ([("A", "t1", " ", 1.0)], "a measure without a name"),
])
def test_a_scorer_frame_with_an_unknown_topic_a_duplicate_or_clashing_names_is_refused(reports, tmp_path, rows,
                                                                                          message):
    files, topics = reports
    for by_topic in (False, True):
        with pytest.raises(ValueError, match=message):
            aj.judge_files(files, topics, tmp_path / "b.tot", scorer=_frame_of(rows), by_topic=by_topic,
                           progress=False)
    assert not (tmp_path / "b.tot").exists()


def test_an_axiom_expression_with_spaces_is_a_measure_autojudge_base_reads_back(reports, tmp_path):
    from autojudge_base import Leaderboard

    files, topics = reports
    out = aj.judge_files(files, topics, tmp_path / "b.tot", axioms="COV1 | CLAR4, CORR2", method="win_rate",
                         progress=False)
    loaded = Leaderboard.load(out, format="tot")
    assert list(loaded.measures) == ["AXIOM_WIN_RATE", "(COV1()|CLAR4())", "CORR2"]  # was "(COV1() | CLAR4())"
    assert {(e.run_id, e.topic_id) for e in loaded.entries} == {
        (r, t) for r, ts in {"A": ("t1", "t2", "all"), "B": ("t1", "t2", "all"), "C": ("t1", "all")}.items()
        for t in ts}


# ------------------------------------------------------------------------------------------------------- citations


def test_a_citation_position_outside_the_references_counts_as_an_invalid_citation(tmp_path):
    from ir_rag_axioms.axioms import registry
    from ir_rag_axioms.model import GenerationRequest, GenerationResponse

    report = {"metadata": {"run_id": "A", "team_id": "a", "narrative_id": "q1", "narrative": "cats"},
              "references": ["d1", "d2"], "documents": {"d1": {"id": "d1", "text": "Cats sit."},
                                                        "d2": {"id": "d2", "text": "Cats purr."}},
              "answer": [{"text": "Cats sit.", "citations": [0, 7]}, {"text": "Cats purr.", "citations": [1, -1]}]}
    files = [write_jsonl(tmp_path / "r.jsonl", [report])]
    topics = aj.load_topics(write_jsonl(tmp_path / "t.jsonl", [{"request_id": "q1", "title": "cats"}]))
    frame, _ = aj.answers_frame(aj.read_reports(aj.index_reports(files, topics)["q1"]), topics)
    row = frame.iloc[0]
    assert row["text"] == "Cats sit [1][3]. Cats purr [2][4]."  # 3 and 4: no reference, after every document
    assert row["citations"] == [["d1", "<no reference 7>"], ["d2", "<no reference -1>"]]
    corr3 = registry.get("CORR3")
    value = corr3.values(GenerationRequest("q1", "cats"), [GenerationResponse("A", row["text"],
                                                                              context=tuple(row["context"]))], None)
    assert value.tolist() == [0.5]  # 2 of the 4 citations name a passage


def test_a_trec_rag_2026_report_is_read_whole(tmp_path):
    words = " ".join(f"w{k}" for k in range(1, 1024 - 5 * 3 + 1))  # 3 sentences of 5 words, then these
    sentences = [{"text": f"Fact {k} is cited thrice.", "citations": [0, 1, 2]} for k in range(3)]
    sentences.append({"text": words + ".", "citations": []})
    rag26 = {"metadata": {"team_id": "t", "run_id": "R26", "narrative_id": "n1", "narrative": "what is cited",
                          "run_desc": "a run", "type": "automatic"},
             "references": ["shard_00459_61697", "shard_1_2", "shard_3_4"], "answer": sentences}
    by_id = {**rag26, "metadata": {**rag26["metadata"], "run_id": "S26"},
             "answer": [{**s, "citations": [rag26["references"][c] for c in s["citations"]]} for s in sentences]}
    files = [write_jsonl(tmp_path / "r.jsonl", [rag26, by_id])]
    topics = aj.load_topics(write_jsonl(tmp_path / "t.jsonl", [{"request_id": "n1", "title": "what is cited"}]))
    frame, abstained = aj.answers_frame(aj.read_reports(aj.index_reports(files, topics)["n1"]), topics)
    assert abstained == [] and list(frame["run_id"]) == ["R26", "S26"]
    for text in frame["text"]:
        assert len(text.replace(" [1][2][3]", "").split()) == 1024
        assert text.startswith("Fact 0 is cited thrice [1][2][3]. Fact 1") and text.endswith(" w1009.")
    assert frame["citations"].iloc[0] == frame["citations"].iloc[1] == [rag26["references"]] * 3 + [[]]


# ------------------------------------------------------------------------------------ abstentions of the default


def test_an_answer_over_the_text_limit_abstains_with_the_warning_naming_run_and_topic(reports, tmp_path,
                                                                                         monkeypatch):
    files, topics = reports
    long = write_jsonl(tmp_path / "runs" / "L.jsonl", [
        {"metadata": {"run_id": "L", "team_id": "tl", "topic_id": "t1"},
         "answer": [{"text": "Cats sit on warm mats in the sun. " * 4, "citations": []}]}])
    monkeypatch.setenv("IR_RAG_AXIOMS_MAX_TEXT_CHARS", "100")
    for by_topic in (False, True):
        with pytest.warns(aj.AbstentionWarning, match=r"abstains on 1 answer\(s\) longer than 100 characters.*"
                                                       r"IR_RAG_AXIOMS_MAX_TEXT_CHARS.*run 'L' topic 't1'") as caught:
            board = read_tot(aj.judge_files([*files, long], topics, tmp_path / "b.tot", axioms="CLAR4,CORR2",
                                            by_topic=by_topic, progress=False))
        assert [Path(w.filename).name for w in caught if w.category is aj.AbstentionWarning] == [
            "test_autojudge_inputs.py"]
        assert board[board["run_id"] == "L"]["value"].isna().all()
        others = board[(board["run_id"] != "L") & (board["measure"] == "AXIOM_WIN_RATE")]
        assert len(others) == 8 and not others["value"].isna().any()


def test_a_custom_scorer_gets_no_text_limit_warning(reports, tmp_path, monkeypatch):
    files, topics = reports
    monkeypatch.setenv("IR_RAG_AXIOMS_MAX_TEXT_CHARS", "10")
    with warnings.catch_warnings():
        warnings.simplefilter("error", aj.AbstentionWarning)
        aj.judge_files(files, topics, tmp_path / "b.tot", scorer=win_rate_scorer, progress=False)


ANSWERS = pd.DataFrame({
    "run_id": ["A", "B", "C", "A", "B", "C", "A"],
    "topic": ["t1", "t1", "t1", "t2", "t2", "t2", "t3"],
    "query": ["what do cats do"] * 3 + ["why is the sky blue"] * 3 + ["how do tides work"],
    "text": ["Cats sit on mats and sleep for most of the day.", "Cats hunt mice at night [1].",
             "Cats sit on mats and sleep for most of the day.",
             "The sky is blue because air scatters blue light more than red light.",
             "Sunlight scatters off air molecules. Blue light scatters most, so the sky looks blue.",
             "The sky is blue because air scatters blue light more than red light.",
             "The Moon's gravity pulls the oceans, which makes the tides."]})


def test_a_topic_only_one_run_answered_has_no_headline_and_leaves_the_runs_mean(monkeypatch):
    board = lb.system_leaderboard(ANSWERS, progress=False).set_index(["run_id", "topic", "measure"])["value"]
    assert math.isnan(board[("A", "t3", "AXIOM_NUGGET")])  # nothing to compare with (was the intercept 0.4455)
    assert board[("A", "all", "AXIOM_NUGGET")] == lb.exact_mean([board[("A", t, "AXIOM_NUGGET")] for t in ("t1",
                                                                                                         "t2")])


def test_renamed_and_shuffled_runs_keep_two_tied_runs_exactly_tied():
    """A and C answer alike: whatever the runs are called and in whatever order, their values are equal bit for bit."""
    boards = []
    for names, seed in [({"A": "A", "B": "B", "C": "C"}, 0), ({"A": "zz", "B": "mm", "C": "aa"}, 1),
                        ({"A": "b", "B": "c", "C": "a"}, 2)]:
        answers = ANSWERS[ANSWERS["topic"] != "t3"]
        answers = answers.assign(run_id=answers["run_id"].map(names))
        answers = answers.sample(frac=1.0, random_state=seed)
        board = lb.system_leaderboard(answers, progress=False)
        back = {v: k for k, v in names.items()}
        boards.append(board.assign(run_id=board["run_id"].map(back)).set_index(["run_id", "topic", "measure"])
                      ["value"].sort_index())
    for board in boards:
        a, c = board.xs("A"), board.xs("C")
        assert a.to_numpy().tobytes() == c.to_numpy().tobytes()  # tied exactly, every topic and measure
        assert board.to_numpy().tobytes() == boards[0].to_numpy().tobytes()


def test_sums_are_exact_whatever_the_order():
    rng = random.Random(7)
    values = [rng.uniform(-1, 1) * 10 ** rng.randint(-3, 3) for _ in range(40)] + [math.nan]
    z, mean = lb.standardize(np.array(values)), lb.exact_mean(values)
    terms = np.array([[rng.uniform(-2, 2) for _ in range(9)] for _ in range(6)])
    weights = [rng.uniform(-1, 1) for _ in range(9)]
    heads = lb.headline(terms, weights, 0.4455)
    for _ in range(30):
        order = list(range(len(values)))
        rng.shuffle(order)
        shuffled = np.array([values[k] for k in order])
        assert lb.exact_mean(shuffled) == mean
        assert lb.standardize(shuffled).tobytes() == z[order].tobytes()
        columns = list(range(9))
        rng.shuffle(columns)
        assert lb.headline(terms[:, columns], [weights[k] for k in columns], 0.4455).tobytes() == heads.tobytes()
    per_topic = pd.DataFrame({"run_id": ["p"] * 3 + ["q"] * 3, "topic": ["t1", "t2", "t3", "t3", "t1", "t2"],
                              "measure": "m", "value": [0.1, 0.2, 0.3, 0.1, 0.2, 0.3]})
    means = aj.mean_rows(per_topic).set_index("run_id")["value"]
    assert means["p"] == means["q"] == math.fsum([0.1, 0.2, 0.3]) / 3  # (0.1+0.2)+0.3 != 0.1+(0.2+0.3)


# ------------------------------------------------------------------------------------------- nugget data as reports


def _nugget_data(path: Path, rows: list[tuple[str, str, str, str | None]]) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    with gzip.open(path, "wt", encoding="utf-8") as out:
        for run_id, qid, query, text in rows:
            out.write(json.dumps({"run_id": run_id, "qid": qid, "query": query, "answer_text": text,
                                  "nuggets": [{"text": "n", "importance": "vital", "assignment": "support"}]}) + "\n")
    return path


def test_nugget_reports_keep_every_run_whatever_its_id(tmp_path, capsys):
    from ir_rag_axioms.cli import main

    rows = [(run, qid, query, f"{run} says that {query}. It adds more.") for run in ("team/a", "team_a", ".hidden",
                                                                                     "Team_A", "plain")
            for qid, query in (("q1", "why cats sit"), ("q2", "why dogs run"))]
    rows[-1] = ("plain", "q2", "why dogs run", None)  # a null answer
    data = _nugget_data(tmp_path / "data" / "nugget_assignment.x.jsonl.gz", rows)
    first = _nugget_data(tmp_path / "old" / "nugget_assignment.x.jsonl.gz", [("stale", "q1", "why cats sit", "Old.")])
    out = tmp_path / "out"
    assert main(["nugget-reports", "--data", str(first), "--out", str(out)]) == 0
    assert main(["nugget-reports", "--data", str(data), "--out", str(out)]) == 0  # the same --out again
    captured = capsys.readouterr()
    assert "wrote 5 report files" in captured.out and "nugget-reports: runs" in captured.err
    names = sorted(p.name for p in (out / "reports").iterdir())
    assert len(names) == 5 and not [n for n in names if n.startswith(".")] and "stale.jsonl" not in names
    assert {"Team_A.jsonl", "plain.jsonl"} <= set(names)  # "team_a" and "Team_A" differ in case only: one hashed
    topics = aj.load_topics(out / "topics.jsonl")
    index = aj.index_reports(aj.report_files([out / "reports"]), topics)
    frame, abstained = aj.answers_frame(aj.read_reports([w for ws in index.values() for w in ws]), topics)
    assert sorted(set(frame["run_id"])) == sorted({".hidden", "Team_A", "plain", "team/a", "team_a"})
    assert abstained == [("plain", "q2")] and "nan" not in set(frame["text"])  # the null answer: no answer "nan"
    assert len(frame) == 9


def test_nugget_reports_refuse_a_topic_with_two_queries_and_a_folder_of_other_files(tmp_path, capsys):
    from ir_rag_axioms.cli import main

    data = _nugget_data(tmp_path / "d" / "nugget_assignment.x.jsonl.gz", [("a", "q1", "why cats sit", "Yes."),
                                                                          ("b", "q1", "why cats purr", "No.")])
    assert main(["nugget-reports", "--data", str(data), "--out", str(tmp_path / "out")]) == 2
    assert "topic 'q1' has two query texts, 'why cats sit' and 'why cats purr'" in capsys.readouterr().err
    assert not (tmp_path / "out" / "reports").exists() and not (tmp_path / "out" / "topics.jsonl").exists()
    good = _nugget_data(tmp_path / "g" / "nugget_assignment.x.jsonl.gz", [("a", "q1", "why cats sit", "Yes.")])
    (tmp_path / "out" / "reports").mkdir(parents=True)
    (tmp_path / "out" / "reports" / "notes.txt").write_text("mine")
    assert main(["nugget-reports", "--data", str(good), "--out", str(tmp_path / "out")]) == 2
    assert "holds more than report files (['notes.txt'])" in capsys.readouterr().err
    assert (tmp_path / "out" / "reports" / "notes.txt").read_text() == "mine"


def test_run_file_names_are_distinct_visible_and_stable():
    names = aj.run_file_names(["team/a", "team_a", ".x", "..", "A", "a", "ok-1.2+3"])
    assert names["team_a"] == "team_a" and names["ok-1.2+3"] == "ok-1.2+3" and names["A"] == "A"
    assert names["team/a"].startswith("team_a-") and names[".x"].startswith("x-") and names[".."].startswith("run-")
    assert names["a"].startswith("a-")  # "A" and "a" are one file where case is ignored
    assert len({n.casefold() for n in names.values()}) == len(names)
    assert not any(n.startswith(".") for n in names.values())
    assert aj.run_file_names(["a", "A", "team_a", "team/a", "..", ".x", "ok-1.2+3"]) == names


# ------------------------------------------------------------------------------------------------------- progress


def test_the_judge_shows_its_progress_over_topics(reports, tmp_path, capsys):
    from ir_rag_axioms.cli import main

    files, topics = reports
    out = tmp_path / "b.tot"
    assert main(["judge", *map(str, files), "--topics", str(topics), "--out", str(out), "--axioms", "CLAR4"]) == 0
    err = capsys.readouterr().err
    assert "system leaderboard" in err and "2/2" in err
    assert main(["judge", *map(str, files), "--topics", str(topics), "--out", str(out), "--axioms", "CLAR4",
                 "--quiet"]) == 0
    assert "system leaderboard" not in capsys.readouterr().err


def test_an_empty_report_file_is_named_as_such_not_as_zero_empty_reports(reports, tmp_path):
    from conftest import run_cli

    _, topics = reports
    empty = tmp_path / "empty.jsonl"
    empty.write_text("")
    code, err = run_cli("judge", str(empty), "--topics", str(topics), "--out", str(tmp_path / "b.tot"), "--quiet")
    assert code == 2 and "no report was given (an empty file or folder?)" in err
    assert "every one of the 0 reports" not in err
