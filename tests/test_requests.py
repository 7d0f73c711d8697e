"""Requests from JSONL and runs: each answer's own context, conflicting query texts refused with file and line."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from conftest import run_cli, write_jsonl

from ir_rag_axioms import (
    CONS2,
    GenerationRequest,
    GenerationResponse,
)
from ir_rag_axioms.datasets.files import DataFileError

# -- each answer's own context in the CLI's input files (issue 20) -------------------------------------------


def test_flat_and_nested_inputs_keep_each_answers_own_context(tmp_path: Path):
    from ir_rag_axioms.datasets.requests import read_requests

    cats, lions = ["Cats purr when they are content."], ["Lions roar at night."]
    flat = write_jsonl(tmp_path / "flat.jsonl", [
        {"qid": "q", "query": "Why do cats purr?", "docno": "a", "text": "Cats purr.", "context": cats},
        {"qid": "q", "query": "Why do cats purr?", "docno": "b", "text": "Lions roar.", "context": lions}])
    nested = write_jsonl(tmp_path / "nested.jsonl", [{"id": "q", "query": "Why do cats purr?", "context": cats,
                                                 "responses": [{"id": "a", "text": "Cats purr."},
                                                               {"id": "b", "text": "Lions roar.", "context": lions}]}])
    request = GenerationRequest("q", "Why do cats purr?", cats)
    own = CONS2.preferences(request, [GenerationResponse("a", "Cats purr.", context=cats),
                                      GenerationResponse("b", "Lions roar.", context=lions)])
    shared = CONS2.preferences(request, [GenerationResponse("a", "Cats purr."), GenerationResponse("b", "Lions roar.")])
    assert not np.array_equal(own, shared)  # the first row's context for both answers decides otherwise
    for path in (flat, nested):
        [(read, (a, b))] = read_requests(path)
        assert read.context == tuple(cats) and a.context is None and b.context == tuple(lions)
        assert np.array_equal(CONS2.preferences(read, [a, b]), own)
        code, err = run_cli("preferences", "--input", str(path), "--axioms", "CONS2", "--quiet",
                         "-o", str(tmp_path / "out.csv"))
        assert code == 0, err
        assert pd.read_csv(tmp_path / "out.csv")["CONS2"].tolist() == [own[0, 1], own[1, 0]]


def test_two_query_texts_for_one_qid_are_refused_with_file_and_line(tmp_path: Path):
    from ir_rag_axioms.datasets.requests import read_requests, read_run_requests

    rows = [{"qid": "q", "query": "Why do cats purr?", "docno": "a", "text": "x"},
            {"qid": "q", "query": "Why do dogs bark?", "docno": "b", "text": "y"}]
    path = write_jsonl(tmp_path / "flat.jsonl", rows)
    with pytest.raises(DataFileError, match=r"flat.jsonl line 2: query 'q' has the text .*but line 1 gave it"):
        read_requests(path)
    (tmp_path / "run").write_text("q Q0 a 1 2.0 r\nq Q0 b 2 1.0 r\n")
    with pytest.raises(DataFileError, match=r"flat.jsonl line 2: query 'q'"):
        read_run_requests(tmp_path / "run", path)
