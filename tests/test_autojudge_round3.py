"""Round 3 of the judge's inputs: answers frames of system_leaderboard / consensus_nuggets, oracles' in-memory tables.

One check per kind of bad input, shared by every reader (``consensus_nuggets.checked_answers``; the oracle files'
record checks through ``datasets.files.check_frame``), each with a near case that still works.
"""

from __future__ import annotations

import json
import math
import warnings

import numpy as np
import pandas as pd
import pytest

from ir_rag_axioms.axioms.oracles import CrowdOracle, LlmRatingOracle, NuggetOracle
from ir_rag_axioms.datasets.files import DataFileError
from ir_rag_axioms.evaluation import leaderboard as lb
from ir_rag_axioms.evaluation.consensus_nuggets import (
    NuggetSettings,
    blank_answer,
    checked_answers,
    consensus_nuggets,
    nugget_score_table,
)
from ir_rag_axioms.model import GenerationRequest, GenerationResponse

TEXTS = ["The Eiffel Tower is made of wrought iron.", "It is in Paris, France.",
         "The famous tower stands in the city of Paris.", "The tower was built from wrought iron."]
ANSWERS = pd.DataFrame({"run_id": list("abcd"), "topic": "t1", "query": "What is the Eiffel Tower made of?",
                        "text": TEXTS})


def _nuggets(answers):
    return nugget_score_table(consensus_nuggets(answers, NuggetSettings(min_support=2), progress=False))


def _board(answers, method="win_rate"):
    return lb.system_leaderboard(answers, "COV1", method=method, progress=False)


def _values(board, measure="COV1", topic="t1"):
    rows = board[(board.measure == measure) & (board.topic == topic)]
    assert not rows.duplicated(["run_id"]).any()
    return rows.set_index("run_id")["value"].to_dict()


def _with(column, k, value, frame=ANSWERS):
    cells = list(frame[column])
    cells[k] = value
    return frame.assign(**{column: pd.Series(cells, index=frame.index, dtype=object)})


# -- 04, 05: a missing topic or run_id cell is refused, naming the column and the row ------------------------------
@pytest.mark.parametrize("column", ["topic", "run_id"])
@pytest.mark.parametrize("missing", [np.nan, None, "  "])
def test_a_missing_id_cell_is_refused_naming_column_and_row(column, missing):
    bad = _with(column, 1, missing)
    for call in (lambda: checked_answers(bad, "consensus_nuggets"), lambda: _nuggets(bad), lambda: _board(bad)):
        with pytest.raises(ValueError, match=rf"column '{column}' has missing or blank values at row position\(s\) "
                                             r"\[1\]"):
            call()


def test_integer_ids_still_work():
    answers = ANSWERS.assign(run_id=[1, 2, 3, 4], topic=7)
    table = _nuggets(answers)
    assert table["run_id"].tolist() == ["1", "2", "3", "4"] and set(table["topic"]) == {"7"}
    assert _values(_board(answers), topic="7") == {"1": 1 / 6, "2": 5 / 6, "3": 5 / 6, "4": 1 / 6}


# -- 06: an empty answer abstains and the others are scored as if it were absent ----------------------------------
ABSENT = {"a": 0.25, "c": 1.0, "d": 0.25}
FULL = {"a": 1 / 6, "b": 5 / 6, "c": 5 / 6, "d": 1 / 6}  # b's text present: compared with the others


@pytest.mark.parametrize("empty", [np.nan, None, "", "  \n"])
def test_an_empty_answer_abstains_and_leaves_the_others_as_if_absent(empty):
    with pytest.warns(lb.AbstentionWarning, match=r"system_leaderboard abstains on 1 empty answer\(s\).*"
                                                  r"run 'b' topic 't1'"):
        board = _board(_with("text", 1, empty))
    values = _values(board)
    assert math.isnan(values.pop("b")) and values == ABSENT
    assert all(math.isnan(v) for v in board[board.run_id == "b"]["value"])  # every measure, `all` too
    assert lb.abstentions(_with("text", 1, empty)) == [("b", "t1")]


def test_without_an_empty_answer_no_abstention_and_the_same_values():
    with warnings.catch_warnings():
        warnings.simplefilter("error", lb.AbstentionWarning)
        assert _values(_board(ANSWERS[ANSWERS.run_id != "b"])) == ABSENT
        assert _values(_board(ANSWERS)) == FULL


def test_a_run_of_empty_answers_has_no_bradley_terry_strength():
    with pytest.warns(lb.AbstentionWarning):
        board = _board(_with("text", 1, ""), method="bradley_terry")
    strengths = _values(board, "AXIOM_BT", "all")
    absent = _values(_board(ANSWERS[ANSWERS.run_id != "b"], method="bradley_terry"), "AXIOM_BT", "all")
    assert math.isnan(strengths.pop("b")) and strengths == absent


def test_the_judge_and_the_leaderboard_share_the_abstention():
    from ir_rag_axioms.evaluation.autojudge import errors

    assert errors.AbstentionWarning is lb.AbstentionWarning
    assert [blank_answer(t) for t in (None, np.nan, pd.NA, "", " \t", "Yes.")] == [True] * 5 + [False]


# -- 07: a text that is no string is refused, naming the row ------------------------------------------------------
@pytest.mark.parametrize("bad, kind", [(5, "int"), (b"It is in Paris, France.", "bytes"),
                                       (["It is in Paris, France."], "list")])
def test_a_text_that_is_no_string_is_refused_naming_the_row(bad, kind):
    answers = _with("text", 1, bad)
    calls = (("consensus_nuggets", lambda: _nuggets(answers)), ("system_leaderboard", lambda: _board(answers)))
    for who, call in calls:
        with pytest.raises(TypeError, match=rf"{who}: answers row position 1 \(run_id 'b', topic 't1'\): column "
                                            rf"'text' must be a string, got {kind}"):
            call()


def test_a_numpy_string_is_a_text():
    answers = _with("text", 1, np.str_(TEXTS[1]))
    assert _values(_board(answers)) == _values(_board(ANSWERS))
    assert checked_answers(answers, "x")["text"].map(type).tolist() == [str] * 4


# -- 08: the topic id `all` is the aggregate rows' ---------------------------------------------------------------
def test_the_topic_all_is_refused_by_the_leaderboard():
    with pytest.raises(ValueError, match=r"system_leaderboard: topic id 'all' \(column 'topic', row position\(s\) "
                                         r"\[0, 1, 2, 3\]\) is reserved"):
        _board(ANSWERS.assign(topic="all"))
    board = _board(ANSWERS.assign(topic="All"))  # near: another id, one row per (run, topic, measure)
    assert not board.duplicated(["run_id", "topic", "measure"]).any()
    assert _values(board, topic="All") == FULL
    assert set(_nuggets(ANSWERS.assign(topic="all"))["topic"]) == {"all"}  # no aggregate rows there


# -- 10, 11: the oracles' in-memory tables get the files' checks ---------------------------------------------------
RATINGS = pd.DataFrame({"query_id": "q1", "response_a": ["r1", "r1", "r2"], "response_b": ["r2", "r3", "r3"],
                        "quality_overall_p_a": [0.9, 0.8, 0.7], "quality_overall_p_n": np.nan,
                        "quality_overall_p_b": [0.1, 0.2, 0.3]})
REQUEST = GenerationRequest("q1", "q?")
RESPONSES = [GenerationResponse(r, "x") for r in ("r3", "r2", "r1")]


def _nugget(importance="vital", assignment="support"):
    return {"text": "n", "importance": importance, "assignment": assignment}


NUGGETS = pd.DataFrame({"qid": "q1", "query": "q?", "run_id": ["r1", "r2", "r3"], "answer_text": ["A.", "B.", "C."],
                        "nuggets": [[_nugget()], [_nugget(assignment="partial_support")],
                                    [_nugget(assignment="not_support")]]})
LLM = pd.DataFrame({"topic": "q1", "query": "q?", "response": ["r1", "r2", "r3"], "raw_text": ["A.", "B.", "C."],
                    "probability": [0.9, 0.5, 0.1]})
BEST_FIRST = [[0, -1, -1], [1, 0, -1], [1, 1, 0]]  # r3 < r2 < r1


@pytest.mark.parametrize("build, match", [
    (lambda: CrowdOracle(judgments=RATINGS.assign(quality_overall_p_a=[9.0, 0.8, 0.7])),
     r"CROWD judgments row 0: quality_overall_p_a must be a probability in \[0, 1\] \(or null\), got 9.0"),
    (lambda: CrowdOracle.from_frames(RATINGS.assign(quality_overall_p_b=[0.1, -0.2, 0.3])),
     r"CROWD ratings row 1: quality_overall_p_b must be a probability"),
    (lambda: CrowdOracle(judgments=RATINGS.assign(response_b=["r1", "r3", "r3"])),
     r"CROWD judgments row 0: response_a and response_b are the same response 'r1' \(a self-pair\)"),
    (lambda: CrowdOracle(judgments=RATINGS.drop(columns="response_b")),
     r"CROWD judgments lacks the column\(s\) \['response_b'\]"),
    (lambda: NuggetOracle(table=NUGGETS.assign(nuggets=[[_nugget(assignment="yes")]] * 3)),
     r"NUGGET table row 0: nuggets\[0\].assignment is 'yes'"),
    (lambda: NuggetOracle(table=NUGGETS.assign(nuggets=[[_nugget("VITAL")]] * 3)),
     r"NUGGET table row 0: nuggets\[0\].importance is 'VITAL'"),
    (lambda: NuggetOracle.from_frame(NUGGETS.assign(run_id=["r1", "r1", "r3"])),
     r"NUGGET table row 1: qid='q1', run_id='r1' is duplicated \(first on row 0\)"),
    (lambda: LlmRatingOracle(table=LLM.assign(probability=[5.0, 0.5, 0.1])),
     r"LLM_ORIG table row 0: probability must be a number in \[0, 1\], got 5.0"),
    (lambda: LlmRatingOracle.from_frame(LLM.assign(probability=[0.5, np.nan, 0.1])),
     r"LLM_ORIG ratings row 1: probability must be a number in \[0, 1\], got None"),
    (lambda: LlmRatingOracle(table=LLM.assign(response=["r1", "r1", "r3"])),
     r"LLM_ORIG table row 1: topic='q1', response='r1' is duplicated \(first on row 0\)"),
])
def test_in_memory_oracle_tables_are_checked_as_their_files(build, match):
    with pytest.raises(DataFileError, match=match):
        build()


def test_valid_in_memory_tables_still_prefer():
    assert CrowdOracle(judgments=RATINGS).preferences(REQUEST, RESPONSES).tolist() == BEST_FIRST
    assert CrowdOracle.from_frames(RATINGS).preferences(REQUEST, RESPONSES).tolist() == BEST_FIRST
    assert NuggetOracle(table=NUGGETS).preferences(REQUEST, RESPONSES).tolist() == BEST_FIRST
    assert LlmRatingOracle(table=LLM).preferences(REQUEST, RESPONSES).tolist() == BEST_FIRST
    assert LlmRatingOracle.from_frame(LLM).preferences(REQUEST, RESPONSES).tolist() == BEST_FIRST


def test_the_llm_file_refuses_a_response_twice_as_the_table(tmp_path):
    from ir_rag_axioms.datasets.llm import load_llm_ratings

    rows = [{"topic": "q1", "response": r, "probability": 0.5} for r in ("r1", "r2", "r1")]
    (tmp_path / "ratings-m.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows))
    with pytest.raises(DataFileError, match=r"line 3: topic='q1', response='r1' is duplicated \(first on line 1\)"):
        load_llm_ratings("m", tmp_path)
    (tmp_path / "ratings-n.jsonl").write_text("".join(json.dumps({**r, "topic": f"q{k}"}) + "\n"
                                                      for k, r in enumerate(rows)))
    assert load_llm_ratings("n", tmp_path)["response"].tolist() == ["r1", "r2", "r1"]  # one per topic: fine


def test_a_nugget_table_without_nuggets_or_scores_is_refused_when_built():
    scores_only = NUGGETS.drop(columns="nuggets").assign(vital=[1.0, 0.5, 0.0], all=[1.0, 0.5, 0.0])
    with pytest.raises(DataFileError, match=r"NUGGET table lacks the column 'nuggets' .* or 'score' .*found "
                                            r"\['all', 'answer_text', 'qid', 'query', 'run_id', 'vital'\]"):
        NuggetOracle(table=scores_only)
    scored = NuggetOracle(table=scores_only.rename(columns={"vital": "score"}))  # near: a score column
    assert scored.preferences(REQUEST, RESPONSES).tolist() == BEST_FIRST
    with pytest.raises(DataFileError, match=r"NUGGET table lacks the column\(s\) \['run_id'\]"):
        NuggetOracle(table=NUGGETS.drop(columns="run_id"))
