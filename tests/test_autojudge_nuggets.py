"""The judge's consensus nuggets as autojudge-base nugget banks: written and read back with autojudge-base's own I/O."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

pytest.importorskip("autojudge_base")

from ir_rag_axioms.evaluation import autojudge as aj  # noqa: E402

TEXTS = {
    "t1": {"A-x": "The Eiffel Tower is made of wrought iron. It opened in 1889 for the World's Fair.",
           "B-y": "The Eiffel Tower was built from wrought iron. Tourists visit it every single day.",
           "C-z": "Built for the 1889 World's Fair, the tower opened that year. The Eiffel Tower is built of "
                  "wrought iron.",
           "D-w": ""},
    "t2": {"A-x": "Vaccines train the immune system to recognise germs.", "B-y": "Bananas are yellow fruit indeed."},
}


def _reports(tmp_path: Path) -> tuple[list[Path], Path]:
    folder = tmp_path / "runs"
    folder.mkdir()
    files = []
    for run in ("A-x", "B-y", "C-z", "D-w"):
        lines = [{"metadata": {"run_id": run, "team_id": run[0], "topic_id": topic}, "references": [],
                  "answer": [{"text": text, "citations": []}] if text else []}
                 for topic, answers in TEXTS.items() for r, text in answers.items() if r == run]
        path = folder / f"{run}.jsonl"
        path.write_text("".join(json.dumps(line) + "\n" for line in lines))
        files.append(path)
    topics = tmp_path / "topics.jsonl"
    topics.write_text(json.dumps({"request_id": "t1", "title": "eiffel tower"}) + "\n"
                      + json.dumps({"request_id": "t2", "title": "vaccines"}) + "\n")
    return files, topics


@pytest.fixture
def banks(tmp_path):
    files, topics_file = _reports(tmp_path)
    topics = aj.load_topics(topics_file)
    reports = aj.read_reports([w for ws in aj.index_reports(files, topics).values() for w in ws])
    return aj.AxiomJudge().create_nuggets(reports, topics, progress=False), topics


def test_one_bank_per_topic_with_the_consensus_claims(banks):
    from autojudge_base.nugget_data import NuggetBanks

    found, _ = banks
    assert isinstance(found, NuggetBanks) and sorted(found.banks) == ["t1", "t2"]
    claims = found.banks["t1"].claim_bank
    assert claims, "the tower's wrought iron is stated by three runs"
    iron = [c for c in claims.values() if "iron" in c.claim]
    assert iron and iron[0].importance in ("vital", "okay") and iron[0].claim_id == "t1-n1"
    assert set(iron[0].metadata["runs"]) >= {"A-x", "B-y"} and iron[0].metadata["support"] >= 2
    assert iron[0].metadata["evidence"]["A-x"]["assignment"] == "support"
    assert not found.banks["t2"].claim_bank  # two runs, nothing in common: no nugget, the query as a marked question
    (question,) = found.banks["t2"].nugget_bank.values()
    assert question.question == "vaccines" and question.metadata["consensus"] is False


def test_banks_round_trip_through_autojudge_base_io(banks, tmp_path):
    from autojudge_base.nugget_data import load_nugget_banks_from_file, write_nugget_banks

    found, topics = banks
    write_nugget_banks(found, tmp_path / "x.nuggets.jsonl")
    again = load_nugget_banks_from_file(tmp_path / "x.nuggets.jsonl")
    assert sorted(again.banks) == ["t1", "t2"]
    assert [c.claim for c in again.banks["t1"].claim_bank.values()] == [
        c.claim for c in found.banks["t1"].claim_bank.values()]
    again.verify([t.request_id for t in topics])  # autojudge-base's own checks


def test_the_judge_declares_the_banks_type(banks):
    found, _ = banks
    assert isinstance(found, aj.AxiomJudge().nugget_banks_type)
