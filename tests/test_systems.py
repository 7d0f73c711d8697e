"""compare_systems: win rates and Bradley-Terry strengths, names that decide nothing, the bootstrap's bar."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from rag_pipelines import PIPELINES, TOPICS

from ir_rag_axioms import CONS2, GenerationRequest, GenerationResponse
from ir_rag_axioms.axioms.base import FeatureAxiom
from ir_rag_axioms.evaluation import evaluate_axioms
from ir_rag_axioms.evaluation.systems import compare_systems
from ir_rag_axioms.pyterrier import AxiomaticPreferences, AxiomFeatures, Pool


# -- 4. names ------------------------------------------------------------------------------------------
class Length(FeatureAxiom):
    """Prefer the longer text."""

    def values(self, request: GenerationRequest, responses: list[GenerationResponse], analysis) -> np.ndarray:
        return np.array([len(r.text) for r in responses], dtype=float)


# -- 3. system comparison ------------------------------------------------------------------------------
def test_compare_systems_ranks_the_grounded_system_first_and_ignores_names() -> None:
    table = compare_systems({"CONS2": CONS2}, PIPELINES, TOPICS, samples=50)
    cons2 = table[table["axiom"] == "CONS2"].set_index("system")
    assert cons2["rank"].to_dict() == {"grounded": 1, "partial": 2, "ungrounded": 3}
    assert cons2["win_rate"].to_dict() == {"grounded": 1.0, "partial": 0.5, "ungrounded": 0.0}
    assert (cons2["comparisons"] == 4).all()
    assert cons2.loc["grounded", "strength"] > cons2.loc["partial", "strength"] > cons2.loc["ungrounded", "strength"]
    assert (cons2["strength_low"] <= cons2["strength"]).all() and (cons2["strength"] <= cons2["strength_high"]).all()
    renamed = {"grounded": "z", "partial": "m", "ungrounded": "a"}
    again = compare_systems({"CONS2": CONS2}, {renamed[k]: v for k, v in PIPELINES.items()}, TOPICS, samples=50)
    again = again[again["axiom"] == "CONS2"].set_index("system")
    for name, new in renamed.items():
        assert again.loc[new, ["rank", "win_rate"]].tolist() == cons2.loc[name, ["rank", "win_rate"]].tolist()
        assert again.loc[new, "strength"] == pytest.approx(cons2.loc[name, "strength"])


def test_compare_systems_shows_the_bootstrap_in_a_progress_bar(capsys) -> None:
    """After the preference bar, the Bradley-Terry bootstrap (minutes for 45 systems) has a bar of its own."""
    quiet = compare_systems({"CONS2": CONS2}, PIPELINES, TOPICS, samples=20)
    assert "Bradley-Terry" not in capsys.readouterr().err
    shown = compare_systems({"CONS2": CONS2}, PIPELINES, TOPICS, samples=20, progress=True)
    assert "Bradley-Terry strengths (20 bootstrap samples): 100%" in capsys.readouterr().err
    pd.testing.assert_frame_equal(quiet, shown)


def test_a_system_column_that_names_answers_warns() -> None:
    frame = Pool(PIPELINES)(TOPICS)
    with pytest.warns(UserWarning, match="answers a single topic"):
        compare_systems([CONS2], frame.assign(system=frame["qid"] + "/" + frame["system"]), samples=0)


def test_axioms_as_a_mapping_or_with_axiom_names_name_the_columns() -> None:
    frame = pd.DataFrame({"qid": "1", "query": "q", "docno": ["a", "b"], "text": ["xx", "x"]})
    assert list(AxiomaticPreferences({"long": Length()})(frame).columns)[-1] == "long"
    assert list(AxiomaticPreferences([Length()], axiom_names=["long"])(frame).columns)[-1] == "long"
    assert AxiomFeatures({"long": Length(), "c": CONS2}).feature_names == ["long", "c"]
    with pytest.raises(ValueError, match="1 axiom_names for 2 axioms"):
        AxiomaticPreferences([Length(), CONS2], axiom_names=["long"])
    with pytest.raises(ValueError, match="not both"):
        AxiomFeatures({"long": Length()}, axiom_names=["x"])
    request = GenerationRequest("1", "q")
    items = [(request, [GenerationResponse("a", "xx"), GenerationResponse("b", "x")])]
    oracle = [np.array([[0.0, 1.0], [-1.0, 0.0]])]
    assert evaluate_axioms([Length()], items, oracle, axiom_names=["long"])["axiom"].tolist() == ["long"]
    assert evaluate_axioms({"long": Length()}, items, oracle)["consistency"].tolist() == [1.0]


def test_a_system_that_answered_few_topics_is_marked_and_warned() -> None:
    topics = pd.DataFrame({"qid": [str(q) for q in range(1, 21)], "query": "q"})
    rows = [{"qid": q, "query": "q", "system": s, "text": "x" * n} for q in topics["qid"]
            for s, n in (("full-a", 2), ("full-b", 3))]
    rows += [{"qid": q, "query": "q", "system": "sparse", "text": "x" * 9} for q in ("1", "2", "3")]
    with pytest.warns(UserWarning, match=r"1 of 3 systems answered fewer of the 20 topics with two or more answers "
                                         r"than 'full-a' and 1 other\(s\) \(20/20\): 'sparse' \(3/20 topics\);"):
        table = compare_systems({"long": Length()}, pd.DataFrame(rows), samples=0)
    overall = table[table["axiom"] == "overall"].set_index("system")
    assert overall.loc["sparse", "rank"] == 1  # it wins every comparison it took part in
    assert overall["topics"].to_dict() == {"sparse": "3/20", "full-b": "20/20", "full-a": "20/20"}
    from ir_rag_axioms.evaluation.report import systems_markdown

    assert "| 1      | sparse   |" in systems_markdown(table) and "3/20" in systems_markdown(table)


def test_compare_systems_takes_a_baseline_by_name() -> None:
    table = compare_systems({"CONS2": CONS2}, PIPELINES, TOPICS, samples=0, baseline="partial")
    cons2 = table[table["axiom"] == "CONS2"].set_index("system")
    assert cons2["win_rate_vs_baseline"].fillna(-1).to_dict() == {"grounded": 1.0, "partial": -1, "ungrounded": 0.0}
    with pytest.raises(ValueError, match=r"unknown baseline 'bm25'; the systems are \['grounded', 'partial', "):
        compare_systems({"CONS2": CONS2}, PIPELINES, TOPICS, samples=0, baseline="bm25")


def test_the_compare_command_marks_a_system_that_answered_few_topics(tmp_path) -> None:
    import json

    from conftest import run_cli

    lines = [{"qid": str(q), "query": "What causes tides?", "system": s, "text": t} for q in range(1, 21)
             for s, t in (("full-a", "Tides are caused by the Moon. It pulls water."), ("full-b", "Wind."))]
    lines += [{"qid": str(q), "query": "What causes tides?", "system": "sparse",
               "text": "Tides are caused by the gravitational pull of the Moon and the Sun."} for q in (1, 2, 3)]
    (tmp_path / "answers.jsonl").write_text("".join(json.dumps(line) + "\n" for line in lines))
    with pytest.warns(UserWarning, match=r"'sparse' \(3/20 topics\)"):
        code, _ = run_cli("compare", "--answers", str(tmp_path / "answers.jsonl"), "--axioms", "COV1", "--out",
                          str(tmp_path / "out"), "--bootstrap", "0", "--no-figures", "--quiet")
    assert code == 0
    table = (tmp_path / "out" / "systems.md").read_text()
    sparse = next(line for line in table.splitlines() if "| sparse" in line)
    assert "| topics" in table and sparse.rstrip().endswith("| 3/20     |")


def test_row_order_and_qid_names_change_nothing_and_tied_systems_share_a_rank() -> None:
    """Reversed or shuffled rows and renamed qids: the very same frame; the tie of 'b' and 'd' is one rank."""
    lengths = {"a": [5, 1, 4, 2, 6], "b": [3, 3, 3, 3, 3], "c": [1, 6, 2, 5, 1], "d": [3, 3, 3, 3, 3]}
    rows = [{"qid": f"q{t}", "query": "q", "system": s, "text": "x" * n[t]} for s, n in lengths.items()
            for t in range(5)]
    frame = pd.DataFrame(rows)
    renamed = {f"q{t}": str(9 - t) for t in range(5)}  # the qids' sorted order reversed
    tables = [compare_systems({"long": Length()}, f, samples=50, seed=3)
              for f in (frame, frame.iloc[::-1], frame.sample(frac=1, random_state=1),
                        frame.assign(qid=frame["qid"].map(renamed)))]
    for table in tables[1:]:
        pd.testing.assert_frame_equal(table, tables[0], check_exact=True)
    for axiom in ("long", "overall"):  # "min" ranks; within the tie, rows by system name
        part = tables[0][tables[0]["axiom"] == axiom]
        assert list(zip(part["system"], part["rank"], strict=True)) == [("a", 1), ("b", 2), ("d", 2), ("c", 4)]


# -- adversarial findings: bootstrap under renamed systems, single candidates, true coverage warnings -------------
def _length_rows(lengths: dict[str, list[int]]) -> pd.DataFrame:
    return pd.DataFrame([{"qid": f"q{t}", "query": "q", "system": s, "text": "x" * n[t]}
                         for s, n in lengths.items() for t in range(len(n))])


def test_renaming_systems_changes_no_bootstrap_interval_even_when_their_sorted_order_changes() -> None:
    """The topics' order and the fits follow the systems' answers, not their names: every value renames along."""
    lengths = {"a": [5, 1, 4, 2, 6, 3], "b": [3, 4, 3, 1, 3, 2], "c": [1, 6, 2, 5, 1, 4], "d": [2, 2, 6, 3, 5, 1]}
    frame = _length_rows(lengths)
    renamed = {"a": "z", "b": "y", "c": "x", "d": "w"}  # the sorted order of the names reversed
    table = compare_systems({"long": Length()}, frame, samples=40, seed=1)
    again = compare_systems({"long": Length()}, frame.assign(system=frame["system"].map(renamed)), samples=40, seed=1)
    back = again.assign(system=again["system"].map({v: k for k, v in renamed.items()}))
    key = ["axiom", "system"]
    pd.testing.assert_frame_equal(back.sort_values(key).reset_index(drop=True),
                                  table.sort_values(key).reset_index(drop=True), check_exact=True)
    assert np.isfinite(table["strength_low"]).all()


def test_a_topic_one_system_answered_warns_naming_it_and_no_system_is_called_incomplete() -> None:
    """A single candidate warns (nothing to compare); coverage counts only topics with two or more answers."""
    frame = pd.concat([_length_rows({"a": [5, 1], "b": [3, 4], "c": [1, 6]}),
                       pd.DataFrame([{"qid": "q9", "query": "q", "system": "a", "text": "xyz"}])], ignore_index=True)
    with pytest.warns(UserWarning) as caught:
        table = compare_systems({"long": Length()}, frame, samples=0)
    messages = [str(w.message) for w in caught]
    assert messages == ["compare_systems: a single system answered 1 of 3 topics: qid 'q9' (only 'a'); a single "
                        "candidate, nothing to compare it with: those topics count in no win rate or strength (only "
                        "in column 'topics')"]
    overall = table[table["axiom"] == "overall"].set_index("system")
    assert overall["topics"].to_dict() == {"a": "3/3", "b": "2/3", "c": "2/3"}
    assert overall["comparisons"].to_dict() == {"a": 4, "b": 4, "c": 4}
