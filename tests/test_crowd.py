"""The CrowdRAG-25 readers: impossible ratings, unknown responses, modified published files refused or reported."""

from __future__ import annotations

import gzip
import json
import warnings
from pathlib import Path

import pytest
from conftest import write_jsonl

from ir_rag_axioms.datasets.files import DataFileError, DataFileWarning


def _ratings_file(folder: Path, **changes: object) -> Path:
    row = {"query_id": "t", "response_a": "r1", "response_b": "r2", "quality_overall_p_a": 0.7,
           "quality_overall_p_b": 0.2, "quality_overall_p_n": 0.1, **changes}
    with gzip.open(folder / "ratings.jsonl.gz", "wt") as out:
        out.write(json.dumps({"query_id": "t", "response_a": "r1", "response_b": "r3", "quality_overall_p_a": 0.5,
                              "quality_overall_p_b": 0.5}) + "\n" + json.dumps(row) + "\n")
    return folder


# -- each answer's own context in the CLI's input files (issue 20) -------------------------------------------


@pytest.mark.parametrize("changes, message", [
    ({"quality_overall_p_a": -0.5}, r"line 2: quality_overall_p_a must be a probability in \[0, 1\].*-0.5"),
    ({"quality_overall_p_a": "0.9"}, "line 2: quality_overall_p_a must be a probability"),
    ({"quality_overall_p_b": True}, "line 2: quality_overall_p_b must be a probability"),
    ({"response_b": "r1"}, "line 2: response_a and response_b are the same response 'r1'"),
])
def test_impossible_crowd_ratings_are_refused_with_file_and_line(tmp_path: Path, changes, message):
    from ir_rag_axioms.datasets.crowd import load_crowd_ratings

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DataFileWarning)
        with pytest.raises(DataFileError, match=message):
            load_crowd_ratings(_ratings_file(tmp_path, **changes))


def test_ratings_of_unknown_responses_are_refused(tmp_path: Path):
    from ir_rag_axioms.datasets.crowd import read_judgments

    _ratings_file(tmp_path, response_a="nope")
    with gzip.open(tmp_path / "responses.jsonl.gz", "wt") as out:
        for rid in ("r1", "r2", "r3"):
            out.write(json.dumps({"response": rid, "topic": "t", "query": "q", "kind": "human", "style": "bullet",
                                  "raw_text": "x", "references_texts": []}) + "\n")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DataFileWarning)
        with pytest.raises(DataFileError, match=r"1 judged \(topic, response\) pair\(s\).*\('t', 'nope'\)"):
            read_judgments(data_dir=tmp_path)


def test_a_modified_copy_of_a_published_file_is_reported(tmp_path: Path, data_dir: Path, monkeypatch):
    from ir_rag_axioms.datasets.crowd import load_crowd_topics

    crowd_dir = data_dir / "trec-rag-24-crowd"
    text = (crowd_dir / "topics.rag24.test.txt").read_text()
    (tmp_path / "topics.rag24.test.txt").write_text(text.replace("\t", "\t ", 1))
    with pytest.warns(DataFileWarning, match="differs from the published file.*IR_RAG_AXIOMS_ACCEPT_MODIFIED_DATA=1"):
        load_crowd_topics(tmp_path)
    monkeypatch.setenv("IR_RAG_AXIOMS_ACCEPT_MODIFIED_DATA", "1")
    with warnings.catch_warnings():
        warnings.simplefilter("error", DataFileWarning)
        assert len(load_crowd_topics(tmp_path)) == 301
    with warnings.catch_warnings():
        warnings.simplefilter("error", DataFileWarning)
        assert len(load_crowd_topics(crowd_dir)) == 301  # the published file: no warning


def test_a_duplicated_response_id_names_file_and_line(tmp_path: Path, data_dir: Path):
    from ir_rag_axioms.datasets.crowd import load_crowd_responses
    from ir_rag_axioms.datasets.requests import read_requests, read_run

    flat = write_jsonl(tmp_path / "flat.jsonl", [{"qid": "q", "query": "Q?", "docno": "a", "text": "x"},
                                            {"qid": "q", "query": "Q?", "docno": "a", "text": "y"}])
    with pytest.raises(DataFileError, match=r"flat.jsonl line 2: response id 'a' of request 'q' is duplicated "
                                            r"\(first on line 1\)"):
        read_requests(flat)
    nested = write_jsonl(tmp_path / "nested.jsonl", [{"id": "q", "query": "Q?", "responses": [
        {"id": "a", "text": "x"}, {"id": "a", "text": "y"}]}])
    with pytest.raises(DataFileError, match=r"nested.jsonl line 1, response 2: response id 'a'"):
        read_requests(nested)
    (tmp_path / "run").write_text("q Q0 a 1 2.0 r\nq Q0 a 2 1.0 r\n")
    with pytest.raises(DataFileError, match=r"run line 2: document 'a' is listed twice"):
        read_run(tmp_path / "run")
    lines = gzip.decompress((data_dir / "trec-rag-24-crowd" / "responses.jsonl.gz").read_bytes()).splitlines()
    copy = tmp_path / "crowd" / "responses.jsonl"
    copy.parent.mkdir()
    copy.write_bytes(b"\n".join([lines[0], lines[1], lines[0]]) + b"\n")
    with pytest.raises(DataFileError, match=r"responses.jsonl line 3: response='.*' is duplicated \(first on line 1"):
        load_crowd_responses(copy)
