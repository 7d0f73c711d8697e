"""Hardening of tables and files: settings from the environment, frames, matrices and aggregation, data files."""

from __future__ import annotations

import gzip
import json
import os
import subprocess
import sys
import tempfile
import warnings
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from conftest import ROOT
from hardening import (
    CROWD,
    GOOD,
    Unclear,
    Wrong,
    env,
    needs_data,
    refuses,
)

from ir_rag_axioms import (
    COH1,
    CONS2,
    CORR1,
    AxiomaticReranker,
)


# == environment ========================================================================================
def _import_with(**values: str) -> subprocess.CompletedProcess:
    """Run COV1 (spaCy, the encoder, the cache if set) and CLAR1's URL lookup in a fresh process with ``values``."""
    code = ("import ir_rag_axioms\n"
            "from ir_rag_axioms import CLAR1, COV3, GenerationRequest as Q, GenerationResponse as R\n"
            "from ir_rag_axioms.analysis.resources import languagetool_url, ToolUnavailableError\n"
            "from ir_rag_axioms.datasets.crowd import load_crowd_topics\n"
            f"load_crowd_topics({str(CROWD)!r})\nlanguagetool_url()\n"
            "try:\n    CLAR1(languagetool_url='http://127.0.0.1:1').prefetch([], ir_rag_axioms.default_analysis())\n"
            "except ToolUnavailableError:\n    pass\n"
            "COV3.preferences(Q('q','Why do cats purr?'), [R('a','Cats purr. Yes.'), R('b','Dogs bark.')])\n")
    with tempfile.TemporaryDirectory() as cache:
        return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                              env={**os.environ, "IR_RAG_AXIOMS_CACHE": cache, **values},
                              cwd=ROOT, timeout=120)


@pytest.mark.slow
@pytest.mark.parametrize(("name", "value"), [
    ("IR_RAG_AXIOMS_MAX_TEXT_CHARS", "lots"), ("IR_RAG_AXIOMS_MAX_TEXT_CHARS", "-5"),
    ("IR_RAG_AXIOMS_TORCH_THREADS", "two"), ("IR_RAG_AXIOMS_WORKERS", "1.5"), ("IR_RAG_AXIOMS_CACHE_MAX_BYTES", "big"),
    ("IR_RAG_AXIOMS_LANGUAGETOOL", "not a url"), ("IR_RAG_AXIOMS_LANGUAGETOOL_TIMEOUT", "soon"),
    ("IR_RAG_AXIOMS_ACCEPT_MODIFIED_DATA", "maybe")])
@needs_data
def test_a_bad_setting_is_refused_naming_its_variable(name: str, value: str) -> None:
    result = _import_with(**{name: value})
    if result.returncode == 0:
        raise Wrong(f"{name}={value!r} accepted")
    last = result.stderr.strip().splitlines()[-1] if result.stderr.strip() else ""
    if name not in last:
        raise Unclear(last)


# == frames =============================================================================================
def _frame(**columns: object) -> pd.DataFrame:
    base = {"qid": ["1", "1"], "query": ["Why do cats purr?"] * 2, "docno": ["a", "b"],
            "text": [GOOD[0].text, GOOD[1].text]}
    base.update(columns)
    return pd.DataFrame(base)


def test_nan_qid_refused() -> None:
    refuses(lambda: AxiomaticReranker(CORR1)(_frame(qid=["1", float("nan")])), ValueError, "qid")


def test_na_docno_refused() -> None:
    refuses(lambda: AxiomaticReranker(CORR1)(_frame(docno=pd.array(["a", pd.NA], dtype="string"))),
            ValueError, "docno")


def test_none_qid_refused() -> None:
    refuses(lambda: AxiomaticReranker(CORR1)(_frame(qid=[None, "1"])), ValueError, "qid")


def test_string_dtype_na_text_abstains() -> None:
    frame = _frame(qid=["1"] * 3, query=["Why?"] * 3, docno=["a", "b", "c"],
                   text=pd.array([GOOD[0].text, GOOD[1].text, pd.NA], dtype="string"))
    out = AxiomaticReranker(CORR1)(frame)
    if len(out) != 3:
        raise Wrong("rows lost")


def test_numeric_text_column() -> None:
    refuses(lambda: AxiomaticReranker(CORR1)(_frame(text=[1.5, 2.5])), TypeError, "text")


def test_mixed_int_str_qids() -> None:
    frame = _frame(qid=[1, "1"])
    out = AxiomaticReranker(CORR1)(frame)
    if len(out) != 2:
        raise Wrong("rows lost")


def test_mixed_int_str_qids_with_one_docno_each_are_refused_saying_why() -> None:
    frame = _frame(qid=[1, "1", 1, "1"], docno=["a", "a", "b", "b"], query=["Why do cats purr?"] * 4,
                   text=[GOOD[0].text, GOOD[1].text, GOOD[0].text + " Yes.", GOOD[1].text + " No."])
    refuses(lambda: AxiomaticReranker(CORR1)(frame), ValueError, "duplicate docno", "types int, str print alike")
    refuses(lambda: AxiomaticReranker(CORR1)(_frame(docno=["a", "a"])), ValueError, "duplicate docno", "{'1': ['a']}")


def test_dict_context_cell_refused() -> None:
    frame = _frame(context=[{"Cats purr.": 1}, {"Cats purr.": 1}])
    refuses(lambda: AxiomaticReranker(CONS2)(frame), TypeError, "context")


def test_categorical_qid() -> None:
    out = AxiomaticReranker(CORR1)(_frame(qid=pd.Categorical(["1", "1"])))
    if len(out) != 2:
        raise Wrong("rows lost")


def test_na_query_abstains() -> None:
    out = AxiomaticReranker(CORR1)(_frame(query=pd.array([pd.NA, pd.NA], dtype="string")))
    if len(out) != 2:
        raise Wrong("rows lost")


def test_second_tie_breaker_refused() -> None:
    refuses(lambda: AxiomaticReranker(COH1, tie_breaker=[CORR1, CONS2]), (TypeError, ValueError), "tie_breaker")


def test_write_trec_run_whitespace_ids() -> None:
    from ir_rag_axioms.datasets.runs import write_trec_run
    with tempfile.TemporaryDirectory() as tmp:
        frame = pd.DataFrame({"qid": ["1", "1"], "docno": ["a b", "c\n1 Q0 evil 1 99 x"], "score": [2.0, 1.0]})
        refuses(lambda: write_trec_run(frame, Path(tmp) / "run.txt"), ValueError, "docno")


def test_write_trec_run_empty_qid() -> None:
    from ir_rag_axioms.datasets.runs import write_trec_run
    with tempfile.TemporaryDirectory() as tmp:
        frame = pd.DataFrame({"qid": ["", "1"], "docno": ["a", "b"], "score": [2.0, 1.0]})
        refuses(lambda: write_trec_run(frame, Path(tmp) / "run.txt"), ValueError, "qid")


def test_responses_frame_nan_qid() -> None:
    from ir_rag_axioms.datasets.runs import responses_frame
    refuses(lambda: responses_frame([{"qid": float("nan"), "query": "q", "docno": "a", "text": "t"}]),
            ValueError, "qid")


def test_preferences_transformer_na_docno() -> None:
    from ir_rag_axioms import AxiomaticPreferences
    frame = _frame(docno=["a", None])
    refuses(lambda: AxiomaticPreferences(CORR1)(frame), ValueError, "docno")


def test_features_transformer_na_text() -> None:
    from ir_rag_axioms import AxiomFeatures
    out = AxiomFeatures([CORR1, COH1])(_frame(text=pd.array([GOOD[0].text, pd.NA], dtype="string")))
    if len(out) != 2:
        raise Wrong("rows lost")


def test_string_rank_column() -> None:
    refuses(lambda: AxiomaticReranker(CORR1)(_frame(rank=["first", "second"])), TypeError, "rank")


def test_integer_docnos() -> None:
    out = AxiomaticReranker(CORR1)(_frame(docno=[1, 2]))
    if sorted(out["docno"].tolist()) != [1, 2]:
        raise Wrong("docnos changed")


# == matrices and aggregation ===========================================================================
def test_bradley_terry_nan_prior() -> None:
    from ir_rag_axioms.aggregation import bradley_terry
    refuses(lambda: bradley_terry(np.array([[0, 1], [-1, 0.0]]), prior=float("nan")), ValueError, "prior")


def test_bradley_terry_inf_prior() -> None:
    from ir_rag_axioms.aggregation import bradley_terry
    refuses(lambda: bradley_terry(np.array([[0, 1], [-1, 0.0]]), prior=float("inf")), ValueError, "prior")


def test_nan_in_preferences_abstains() -> None:
    from ir_rag_axioms.aggregation import aggregate
    for method in ("borda", "copeland", "kwiksort", "bradley_terry"):
        order = aggregate(np.array([[0, np.nan, 1], [np.nan, 0.0, np.inf], [-1, -np.inf, 0]]), method)
        if sorted(order.tolist()) != [0, 1, 2]:
            raise Wrong(f"{method}: {order}")


def test_nan_weights() -> None:
    from ir_rag_axioms.aggregation import aggregate
    refuses(lambda: aggregate(np.array([[[0, 1], [-1, 0.0]]]), "borda", [float("nan")]), ValueError, "weight")


def test_evaluation_nan_matrix_abstains() -> None:
    from ir_rag_axioms.evaluation import evaluate_preferences
    scores = evaluate_preferences([np.array([[0, np.nan], [np.nan, 0.0]])], [np.array([[0, 1], [-1, 0.0]])])
    if scores["decisiveness"] != 0.0 or scores["effectiveness"] != 0.0:
        raise Wrong(f"{scores}")


def test_evaluation_shape_mismatch() -> None:
    from ir_rag_axioms.evaluation import evaluate_preferences
    refuses(lambda: evaluate_preferences([np.zeros((2, 2))], [np.zeros((3, 3))]), ValueError, "shape")


def test_bootstrap_absurd_samples() -> None:
    from ir_rag_axioms.evaluation import evaluation_table
    m = [np.array([[0, 1], [-1, 0.0]])]
    refuses(lambda: evaluation_table({"A": m}, m, samples=10**9), ValueError, "samples")


# == files ==============================================================================================
def _gz(path: Path, lines: list[str]) -> Path:
    with gzip.open(path, "wt", encoding="utf-8") as out:
        out.write("\n".join(lines) + "\n")
    return path


def _ratings(rows: list[dict]) -> list[str]:
    base = {"query_id": "t", "response_a": "r1", "response_b": "r2", "quality_overall_p_a": 0.7,
            "quality_overall_p_b": 0.2, "quality_overall_p_n": 0.1}
    return [json.dumps({**base, **row}) for row in rows]


def _crowd_with(rows: list[dict]) -> Callable[[], object]:
    from ir_rag_axioms.datasets.crowd import load_crowd_ratings
    tmp = Path(tempfile.mkdtemp())
    _gz(tmp / "ratings.jsonl.gz", _ratings(rows))
    return lambda: load_crowd_ratings(tmp)


def test_ratings_negative_probability() -> None:
    refuses(_crowd_with([{"quality_overall_p_a": -0.5}]), ValueError, "line 1", "quality_overall_p_a")


def test_ratings_string_probability() -> None:
    refuses(_crowd_with([{"quality_overall_p_a": "high"}]), ValueError, "line 1", "quality_overall_p_a")


def test_ratings_probability_over_one() -> None:
    refuses(_crowd_with([{}, {"quality_overall_p_b": 3}]), ValueError, "line 2", "quality_overall_p_b")


def test_ratings_self_pair() -> None:
    refuses(_crowd_with([{"response_b": "r1"}]), ValueError, "line 1", "response_b")


def test_ratings_unknown_response_ids() -> None:
    from ir_rag_axioms.datasets.crowd import read_judgments
    tmp = Path(tempfile.mkdtemp())
    _gz(tmp / "ratings.jsonl.gz", _ratings([{"response_a": "nope"}]))
    _gz(tmp / "responses.jsonl.gz", [json.dumps({"response": r, "topic": "t", "query": "q", "kind": "human",
                                                  "style": "bullet", "raw_text": "x", "references_texts": []})
                                      for r in ("r1", "r2")])
    refuses(lambda: read_judgments(data_dir=tmp), ValueError, "nope")


def test_ratings_not_an_object() -> None:
    from ir_rag_axioms.datasets.crowd import load_crowd_ratings
    tmp = Path(tempfile.mkdtemp())
    _gz(tmp / "ratings.jsonl.gz", ["[1, 2, 3]"])
    refuses(lambda: load_crowd_ratings(tmp), ValueError, "line 1")


def test_truncated_gzip_is_not_swallowed() -> None:
    from ir_rag_axioms.datasets.files import DataFileError
    if issubclass(DataFileError, FileNotFoundError):
        raise Wrong("DataFileError subclasses FileNotFoundError, which ir_datasets swallows")


@needs_data
def test_truncated_gzip_reported() -> None:
    from ir_rag_axioms.datasets.crowd import load_crowd_ratings
    tmp = Path(tempfile.mkdtemp())
    data = (CROWD / "ratings.jsonl.gz").read_bytes()
    (tmp / "ratings.jsonl.gz").write_bytes(data[: len(data) // 2])
    refuses(lambda: load_crowd_ratings(tmp), Exception, "ratings.jsonl.gz", "corrupt")


@needs_data
def test_modified_local_file_checked() -> None:
    from ir_rag_axioms.datasets.crowd import load_crowd_topics
    tmp = Path(tempfile.mkdtemp())
    text = (CROWD / "topics.rag24.test.txt").read_text()
    (tmp / "topics.rag24.test.txt").write_text(text.replace("\t", "\t ", 1))
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            load_crowd_topics(tmp)
        except Exception as error:
            if "checksum" not in str(error).lower() and "md5" not in str(error).lower():
                raise Unclear(str(error)) from error
            return
    if not any("checksum" in str(w.message).lower() or "md5" in str(w.message).lower() for w in caught):
        raise Wrong("a modified data file is read without a checksum warning")


def test_nugget_file_bad_record() -> None:
    from ir_rag_axioms.datasets.runs import nugget_qrels
    tmp = Path(tempfile.mkdtemp())
    path = _gz(tmp / "nugget_assignment.x.jsonl.gz", [json.dumps({"qid": "1", "run_id": "r", "nuggets": "none"})])
    refuses(lambda: nugget_qrels(path), ValueError, "line 1", "nuggets")


def test_crowd_responses_context_not_a_list() -> None:
    from ir_rag_axioms.datasets.crowd import load_crowd_responses
    tmp = Path(tempfile.mkdtemp())
    _gz(tmp / "responses.jsonl.gz", [json.dumps({"response": "r", "topic": "t", "query": "q", "kind": "human",
                                                  "style": "bullet", "raw_text": "x", "references_texts": {"a": 1}})])
    refuses(lambda: load_crowd_responses(tmp), ValueError, "line 1", "references_texts")


def test_llm_rating_string_probability() -> None:
    from ir_rag_axioms.datasets.llm import load_llm_ratings
    tmp = Path(tempfile.mkdtemp())
    (tmp / "ratings-m.jsonl").write_text(json.dumps({"topic": "t", "response": "r", "probability": "high"}) + "\n")
    refuses(lambda: load_llm_ratings("m", tmp), ValueError, "line 1", "probability")


def test_nugget_unknown_assignment() -> None:
    from ir_rag_axioms.datasets.nuggets import load_nugget_assignments
    tmp = Path(tempfile.mkdtemp())
    record = {"qid": "1", "query": "q", "run_id": "r", "answer_text": "a",
              "nuggets": [{"text": "n", "importance": "vital", "assignment": "supported"}]}
    (tmp / "nugget_assignment.x.jsonl").write_text(json.dumps(record) + "\n")
    refuses(lambda: load_nugget_assignments(tmp), ValueError, "line 1", "assignment")


def test_topics_without_tab() -> None:
    from ir_rag_axioms.datasets.crowd import load_crowd_topics
    tmp = Path(tempfile.mkdtemp())
    (tmp / "topics.rag24.test.txt").write_text("1 no tab here\n")
    refuses(lambda: load_crowd_topics(tmp), ValueError, "line 1")


def test_damaged_cached_download_replaced() -> None:
    from ir_rag_axioms.datasets import files
    with tempfile.TemporaryDirectory() as home, env(IR_DATASETS_HOME=home, IR_RAG_AXIOMS_DATA=""):
        cached = files.cache_root() / files.CROWD_TOPICS.folder / files.CROWD_TOPICS.download_name
        cached.parent.mkdir(parents=True)
        cached.write_text("1\ttruncated")
        try:
            files.resolve(files.CROWD_TOPICS, download=False)
        except files.DataFileError:
            pass
        if cached.exists():
            raise Wrong("a damaged cached download is used")


