"""Regression tests of issue 8: each example of a crash, a silently wrong number, lost output, a hang, an unclear error.

The broader probe set is ``bench/probe_hardening.py``; the fuzz suite is ``tests/test_fuzz.py``.
"""

from __future__ import annotations

import gzip
import json
import os
import subprocess
import sys
import time
import warnings
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from conftest import JsonHandler, loopback_server

from ir_rag_axioms import (
    CLAR1,
    CLAR2,
    COH1,
    CONS2,
    CONS3,
    CORR1,
    AxiomaticReranker,
    GenerationRequest,
    GenerationResponse,
    parse,
)
from ir_rag_axioms import cli as cli_module
from ir_rag_axioms.analysis import resources
from ir_rag_axioms.analysis.resources import ToolUnavailableError
from ir_rag_axioms.datasets.files import DataFileError, DataFileWarning

REQUEST = GenerationRequest("q", "Why do cats purr?", ["Cats purr when they are content or stressed."])
GOOD = [GenerationResponse("a", "Cats purr when they are content [1]. They also purr when stressed."),
        GenerationResponse("b", "Purring is a sound. It is made by cats, lions do not purr.")]


def _abstains(matrix: np.ndarray, index: int) -> bool:
    return not matrix[index].any() and not matrix[:, index].any()


# -- crashes on input that passed validation ----------------------------------------------------------------
@pytest.mark.parametrize("text", ["...", "?", ":)"])
def test_clar2_on_punctuation_abstains(text):
    matrix = CLAR2.preferences(REQUEST, [*GOOD, GenerationResponse("p", text)])
    assert _abstains(matrix, 2) and matrix[0, 1] != 0


def test_numpy_strings_are_plain_strings():
    response = GenerationResponse(np.str_("n"), np.str_("Cats purr [1]. Really."))
    request = GenerationRequest("q", np.str_("Why?"), np.array(["Cats purr.", "Lions roar."]))
    assert type(response.text) is str and type(response.id) is str and type(request.text) is str
    assert request.context == ("Cats purr.", "Lions roar.") and all(type(p) is str for p in request.context)
    assert CONS2.preferences(request, [*GOOD, response]).shape == (3, 3)


@pytest.mark.parametrize("qid", [float("nan"), None, pd.NA])
def test_a_missing_qid_is_refused_by_column_name(qid):
    frame = pd.DataFrame({"qid": ["1", qid], "query": ["Why?"] * 2, "docno": ["a", "b"],
                          "text": [GOOD[0].text, GOOD[1].text]})
    with pytest.raises(ValueError, match=r"AxiomaticReranker: column 'qid' has missing or blank values at row "
                                         r"position\(s\) \[1\]"):
        AxiomaticReranker(CORR1)(frame)


def test_na_text_in_a_string_column_abstains_like_nan():
    texts = pd.array([GOOD[0].text, GOOD[1].text, pd.NA], dtype="string")
    frame = pd.DataFrame({"qid": ["1"] * 3, "query": ["Why?"] * 3, "docno": ["a", "b", "c"], "text": texts})
    out = AxiomaticReranker(CORR1)(frame)
    assert out["docno"].tolist() == ["a", "c", "b"]  # Borda: a cites (+1), c abstains (0), b does not cite (-1)
    assert GenerationResponse("x", pd.NA).text == ""


def test_a_1000_term_expression_and_the_repr_of_a_170_term_sum():
    long = parse(" + ".join(["COH1"] * 1000))
    assert len(long.axioms) == 1000
    total = COH1
    for k in range(170):
        total = total + (CORR1 if k % 2 else COH1)
    assert repr(parse(repr(total))) == repr(total) and len(total.axioms) == 171
    negated = COH1
    for _ in range(5000):
        negated = -negated
    assert repr(negated) == "COH1()"


def test_expressions_over_the_limits_are_refused():
    with pytest.raises(ValueError, match="over the limit of 200,000"):
        parse(" + ".join(["COH1"] * 50_000))
    with pytest.raises(ValueError, match="parser's limit"):
        parse(" + ".join(["COH1"] * 4000))
    nested = COH1
    with pytest.raises(ValueError, match="more than the limit of 200"):
        for _ in range(150):
            nested = (nested + CORR1) * COH1


# -- silently wrong -----------------------------------------------------------------------------------------
@pytest.mark.parametrize("context", [{"Cats purr.": 1}, {"Cats purr."}, b"Cats purr.", 42])
def test_a_dict_or_other_non_sequence_as_context_is_refused(context):
    with pytest.raises(TypeError, match="GenerationRequest 'q': context must be a string or a sequence"):
        GenerationRequest("q", "Why?", context)


def test_parameters_are_checked_for_type_choice_and_range():
    with pytest.raises(TypeError, match="COH1: higher_is_better must be bool, got str 'no'"):
        COH1(higher_is_better="no")
    with pytest.raises(TypeError, match="keyword arguments only"):
        COH1(0.5)
    with pytest.raises(ValueError, match="COV1: aspect_extraction must be one of 'noun_chunks', 'entities'"):
        parse("COV1(aspect_extraction='verbs')")
    with pytest.raises(ValueError, match=r"aSL: min_sentence_length must be in \[0, inf\], got -3"):
        parse("aSL(min_sentence_length=-3)")
    with pytest.raises(ValueError, match=r"b in \[0, 1\]"):
        parse("GEN_TFC3(statistics=ContextStatistics(b=5.0))")
    with pytest.raises(TypeError, match="REG: similarity must be TermSimilarity"):
        parse("REG(similarity=3)")
    with pytest.raises(ValueError, match="unknown negation_termset 'klingon'.*'en'"):
        CONS3(negation_termset="klingon")


def test_a_second_tie_breaker_is_refused():
    with pytest.raises(ValueError, match="tie_breaker takes one axiom.*CORR1 | CONS2"):
        AxiomaticReranker(COH1, tie_breaker=[CORR1, CONS2])


@pytest.mark.parametrize("prior", [float("nan"), float("inf"), 0.0, -1.0])
def test_bradley_terry_refuses_a_non_finite_prior(prior):
    from ir_rag_axioms.aggregation import bradley_terry

    with pytest.raises(ValueError, match="prior must be a finite number > 0"):
        bradley_terry(np.array([[0, 1], [-1, 0.0]]), prior=prior)


@pytest.mark.parametrize("column, value", [("docno", "a b"), ("docno", "c\n1 Q0 evil 1 99 x"), ("qid", ""),
                                           ("qid", "1 2")])
def test_the_trec_run_writer_refuses_ids_with_whitespace(tmp_path: Path, column, value):
    from ir_rag_axioms.datasets.runs import write_trec_run

    frame = pd.DataFrame({"qid": ["1", "1"], "docno": ["a", "b"], "score": [2.0, 1.0]})
    frame.loc[0, column] = value
    with pytest.raises(ValueError, match=f"{column}s must be non-empty and without whitespace"):
        write_trec_run(frame, tmp_path / "run.txt")
    assert not (tmp_path / "run.txt").exists()


def _cli(*argv: str) -> tuple[int, str]:
    import contextlib
    import io

    err = io.StringIO()
    with contextlib.redirect_stderr(err), contextlib.redirect_stdout(io.StringIO()):
        try:
            code = cli_module.main(list(argv))
        except SystemExit as exit_:
            code = int(exit_.code or 0)
    return code, err.getvalue()


@pytest.mark.parametrize("args, message", [
    (["--axioms", ""], "names no axiom"),
    (["--axioms", "A=COH1,A=CORR1"], "duplicate axiom name 'A'"),
    (["--axioms", "CORR1,CORR1"], "duplicate axiom name 'CORR1'"),
    (["--axioms", "CORR1", "--topics", "-1"], "argument --topics: must be at least 0, got -1"),
    (["--axioms", "CORR1", "--bootstrap", "-5"], "argument --bootstrap: must be at least 0"),
    (["--axioms", "CORR1", "--bootstrap", "1000000000"], "bootstrap samples must be between 0 (none) and 100,000"),
    (["--axioms", "CORR1", "--workers", "0"], "argument --workers: must be at least 1"),
    (["--axioms", "CORR1", "--chunk-size", "0"], "argument --chunk-size: must be at least 1"),
    (["--axioms", "COH1(0.5)"], "keyword arguments only"),
])
def test_cli_arguments_are_refused_before_any_work(tmp_path: Path, args, message):
    start = time.monotonic()
    code, err = _cli("evaluate", "--data", str(tmp_path / "none"), "--out", str(tmp_path / "out"), *args)
    assert code == 2 and message in err and "Traceback" not in err
    assert time.monotonic() - start < 10 and not (tmp_path / "out").exists()


def _ratings_file(folder: Path, **changes: object) -> Path:
    row = {"query_id": "t", "response_a": "r1", "response_b": "r2", "quality_overall_p_a": 0.7,
           "quality_overall_p_b": 0.2, "quality_overall_p_n": 0.1, **changes}
    with gzip.open(folder / "ratings.jsonl.gz", "wt") as out:
        out.write(json.dumps({"query_id": "t", "response_a": "r1", "response_b": "r3", "quality_overall_p_a": 0.5,
                              "quality_overall_p_b": 0.5}) + "\n" + json.dumps(row) + "\n")
    return folder


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


def test_data_errors_are_not_swallowed_by_ir_datasets():
    assert not issubclass(DataFileError, FileNotFoundError) and issubclass(DataFileError, ValueError)


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


def test_a_damaged_cached_download_is_downloaded_again(tmp_path: Path, monkeypatch):
    from ir_rag_axioms.datasets import files

    monkeypatch.delenv(files.ENV_VAR, raising=False)
    monkeypatch.setenv("IR_DATASETS_HOME", str(tmp_path))
    cached = files.cache_root() / files.CROWD_TOPICS.folder / files.CROWD_TOPICS.download_name
    cached.parent.mkdir(parents=True)
    cached.write_text("1\ttruncated")
    with pytest.warns(DataFileWarning, match="does not match its checksum"):
        with pytest.raises(DataFileError, match="no local copy"):
            files.resolve(files.CROWD_TOPICS, download=False)
    assert not cached.exists()


def test_the_cache_key_includes_environment_settings(monkeypatch):
    from ir_rag_axioms.analysis.cache import axiom_identity, matrices_key

    plain, key = axiom_identity(CORR1), matrices_key(CORR1, [(REQUEST, GOOD)])
    monkeypatch.setenv("IR_RAG_AXIOMS_LANGUAGETOOL", "http://127.0.0.1:1")
    assert axiom_identity(CORR1) != plain and matrices_key(CORR1, [(REQUEST, GOOD)]) != key
    monkeypatch.setenv("IR_RAG_AXIOMS_LANGUAGETOOL", "not a url")
    with pytest.raises(ValueError, match="IR_RAG_AXIOMS_LANGUAGETOOL='not a url' must be an http"):
        axiom_identity(CORR1)


def test_cache_file_is_a_deprecated_name_of_the_old_npz_path():
    from ir_rag_axioms.analysis.cache import matrices_key
    from ir_rag_axioms.evaluation import cache_file

    with pytest.warns(DeprecationWarning, match="MatrixCache"):
        file = cache_file("/c", CORR1, [(REQUEST, GOOD)])
    assert file == Path("/c") / f"{matrices_key(CORR1, [(REQUEST, GOOD)])}.npz"


# -- lost output --------------------------------------------------------------------------------------------
def test_out_naming_a_file_fails_before_the_work(tmp_path: Path, data_dir: Path):
    (tmp_path / "outfile").write_text("x")
    start = time.monotonic()
    code, err = _cli("evaluate", "--data", str(data_dir / "trec-rag-24-crowd"), "--axioms", "CORR1",
                     "--out", str(tmp_path / "outfile"))
    assert code == 2 and "cannot write the report (--out)" in err and "it is a file" in err
    assert time.monotonic() - start < 10 and (tmp_path / "outfile").read_text() == "x"


@pytest.mark.parametrize("command", ["evaluate", "compare"])
def test_an_explicit_cache_that_cannot_be_used_is_refused_before_the_work(tmp_path: Path, data_dir: Path,
                                                                          command: str):
    (tmp_path / "cachefile").write_text("x")
    data = data_dir / ("trec-rag-24-crowd" if command == "evaluate" else "trec-rag-24-nuggets")
    start = time.monotonic()
    code, err = _cli(command, "--data", str(data), "--axioms", "CORR1", "--quiet", "--no-figures",
                     "--cache", str(tmp_path / "cachefile"), "--out", str(tmp_path / "out"))
    assert code == 2 and "cannot write the cache (--cache)" in err and "it is a file" in err
    assert time.monotonic() - start < 10 and not (tmp_path / "out" / "table.csv").exists()


def test_a_truncated_or_empty_matrix_cache_entry_is_recomputed(tmp_path: Path):
    import sqlite3

    from ir_rag_axioms.analysis.store import FILE_NAME, DiskStore, StoreWarning
    from ir_rag_axioms.evaluation import compute_preferences

    items = [(REQUEST, GOOD)]
    first = compute_preferences({"CORR1": CORR1}, items, cache_dir=tmp_path)["CORR1"]
    file = tmp_path / FILE_NAME
    for damage in ("substr(value, 1, 10)", "x''"):
        with sqlite3.connect(file) as conn:
            conn.execute(f"UPDATE entries SET value = {damage}")
        with pytest.warns(StoreWarning, match="damaged entry .* recomputed"):
            again = compute_preferences({"CORR1": CORR1}, items, cache_dir=tmp_path)["CORR1"]
        assert np.array_equal(again[0], first[0])
        with sqlite3.connect(file) as conn:
            assert conn.execute("SELECT length(value) FROM entries").fetchall()[0][0] > 100  # stored again, whole
    assert len(DiskStore(tmp_path)) == 1


def test_a_cached_matrix_of_the_wrong_shape_is_reported_and_recomputed(tmp_path: Path):
    from ir_rag_axioms.analysis.cache import axiom_identity, item_key
    from ir_rag_axioms.analysis.store import DiskStore, StoreWarning

    DiskStore(tmp_path).put(axiom_identity(CORR1), item_key(REQUEST, GOOD), np.full((3, 3), 7.0))
    with pytest.warns(StoreWarning, match=r"is \(3, 3\), not \(2, 2\); it is recomputed"):
        again = CORR1.cached(str(tmp_path)).preferences(REQUEST, GOOD)
    assert np.array_equal(again, CORR1.preferences(REQUEST, GOOD))


def test_axiom_cached_and_compute_preferences_share_one_matrix_cache(tmp_path: Path):
    """What ``compute_preferences(cache_dir=)`` stored, ``axiom.cached(dir)`` reads, and the other way round."""
    from ir_rag_axioms.evaluation import compute_preferences

    other = (REQUEST, list(reversed(GOOD)))
    compute_preferences({"CORR1": CORR1}, [(REQUEST, GOOD)], cache_dir=tmp_path)
    CORR1.cached(str(tmp_path)).preferences(*other)
    _doctor("cached", tmp_path, CORR1, (REQUEST, GOOD))
    _doctor("cached", tmp_path, CORR1, other)
    assert (CORR1.cached(str(tmp_path)).preferences(REQUEST, GOOD) == 7).all()
    assert (compute_preferences({"CORR1": CORR1}, [other], cache_dir=tmp_path)["CORR1"][0] == 7).all()
    partial = compute_preferences({"CORR1": CORR1}, [other, (REQUEST, GOOD[:1])], cache_dir=tmp_path)["CORR1"]
    assert (partial[0] == 7).all() and partial[1].shape == (1, 1)  # only the missing item was computed


def test_nugget_topics_of_different_sizes_and_numpy_keyword_names_are_kept(tmp_path: Path):
    from ir_rag_axioms.evaluation import report

    nuggets = [{"text": "n", "importance": "vital", "assignment": "support"}]
    records = [{"qid": qid, "query": "Why do cats purr?", "run_id": f"r{k}", "answer_text": f"Cats purr{' [1]' * k}.",
                "nuggets": nuggets if k % 2 else [{**nuggets[0], "assignment": "not_support"}]}
               for qid, count in (("1", 2), ("2", 3)) for k in range(count)]
    (tmp_path / "nugget_assignment.test.jsonl").write_text("".join(json.dumps(r) + "\n" for r in records))
    code, err = _cli("evaluate", "--data", str(tmp_path), "--oracle", "nugget:vital", "--axioms",
                     "file=CORR1,allow_pickle=CORR1(margin_fraction=0.5)", "--quiet", "--no-figures",
                     "--out", str(tmp_path / "out"))
    assert code == 0, err
    stored = report.read_preferences(tmp_path / "out" / "preferences.npz")
    assert list(stored) == ["ORACLE", "file", "allow_pickle"]
    assert [len(m) for m in stored["ORACLE"]] == [len(m) for m in stored["file"]] == [2, 3]
    assert stored["ORACLE"][0].tolist() == [[0, -1], [1, 0]]  # r1 supports the vital nugget, r0 does not


# -- hangs --------------------------------------------------------------------------------------------------
class _LanguageTool(JsonHandler):
    """A LanguageTool stand-in: answers the connection check, then stalls or replies with ``body``."""

    body: bytes | None = None
    posts = 0

    def do_GET(self):  # noqa: N802 - http.server's naming
        self.send_json(json.dumps([{"name": "English", "code": "en", "longCode": "en-US"}]).encode())

    def do_POST(self):  # noqa: N802
        self.rfile.read(int(self.headers.get("Content-Length", 0)))
        type(self).posts += 1
        if type(self).body is None and type(self).posts > 1:
            time.sleep(5)  # stalls after the first check
            return
        self.send_json(type(self).body or b'{"matches": []}')


@pytest.fixture()
def languagetool(monkeypatch):
    monkeypatch.setenv("IR_RAG_AXIOMS_LANGUAGETOOL_TIMEOUT", "1")
    _LanguageTool.body, _LanguageTool.posts = None, 0
    with loopback_server(_LanguageTool) as url:
        resources.load_languagetool.cache_clear()
        yield url
        resources.load_languagetool.cache_clear()


def test_a_stalling_languagetool_server_times_out_with_a_clear_error(languagetool):
    start = time.monotonic()
    with pytest.raises(ToolUnavailableError, match=f"LanguageTool at {languagetool} gave no usable reply.*"
                                                   "IR_RAG_AXIOMS_LANGUAGETOOL_TIMEOUT"):
        CLAR1(languagetool_url=languagetool).preferences(REQUEST, GOOD)
    assert time.monotonic() - start < 8  # 2 tries of 1 s, not 600 s


def test_a_reply_without_the_expected_fields_is_reported_as_malformed(languagetool):
    _LanguageTool.body = json.dumps({"matches": [{"offset": 0}]}).encode()
    with pytest.raises(ToolUnavailableError, match=f"{languagetool}.*malformed reply"):
        CLAR1(languagetool_url=languagetool).preferences(REQUEST, GOOD)


def test_match_offsets_outside_the_text_are_clipped():
    from ir_rag_axioms.axioms.clarity import grammar_error_share

    class Match:
        def __init__(self, offset: int, length: int) -> None:
            self.offset, self.errorLength, self.ruleIssueType = offset, length, "grammar"

    text = "He go home."  # 11 characters
    assert grammar_error_share([Match(-5, 10**9)], text) == 1.0
    assert grammar_error_share([Match(10**6, 5), Match(3, -4)], text) == 0.0
    assert grammar_error_share([Match(-2, 5)], text) == 3 / 11


# -- unclear errors -----------------------------------------------------------------------------------------
@pytest.mark.parametrize("name, value", [("IR_RAG_AXIOMS_MAX_TEXT_CHARS", "lots"), ("IR_RAG_AXIOMS_WORKERS", "1.5")])
def test_garbage_environment_variables_are_named(name, value):
    result = subprocess.run([sys.executable, "-c", "import ir_rag_axioms; ir_rag_axioms.COH1.preferences("
                             "ir_rag_axioms.GenerationRequest('q', 'Why?'), [ir_rag_axioms.GenerationResponse("
                             "'a', 'A.')])"], capture_output=True, text=True,
                            env={**os.environ, name: value}, cwd=Path(__file__).resolve().parents[1], timeout=120)
    assert result.returncode != 0
    assert f"environment variable {name}={value!r}" in result.stderr.strip().splitlines()[-1]


def test_a_bare_response_is_a_clear_error():
    with pytest.raises(TypeError, match="got a single GenerationResponse: wrap it in a list"):
        COH1.preferences(REQUEST, GOOD[0])


def test_lone_surrogates_are_replaced_with_a_warning_naming_the_response():
    with pytest.warns(UserWarning, match="GenerationResponse 's': text holds lone surrogates"):
        response = GenerationResponse("s", "Cats \ud800 purr.")
    assert response.text == "Cats \ufffd purr."


def test_a_truncated_data_file_is_an_error_through_ir_datasets(tmp_path: Path, data_dir: Path):
    from ir_rag_axioms.datasets.irds import register_crowd

    data = (data_dir / "trec-rag-24-crowd" / "responses.jsonl.gz").read_bytes()
    (tmp_path / "responses.jsonl.gz").write_bytes(data[: len(data) // 2])
    dataset = register_crowd(tmp_path, name="hardening-truncated", cache_dir=tmp_path / "irds")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DataFileWarning)
        with pytest.raises(DataFileError, match="responses.jsonl.gz is corrupt or unreadable"):
            dataset.docs_count()  # ir_datasets swallowed the old FileNotFoundError subclass and gave None


def test_more_texts_than_the_doc_bound_in_one_call_in_process():
    from ir_rag_axioms.analysis.cache import Analysis

    responses = [GenerationResponse(f"r{k}", f"Cats purr {'loudly ' * k}when content. They sleep.") for k in range(7)]
    with Analysis(workers=1, max_docs=2) as analysis:  # one core free: parsed in-process, 7 texts > 2 Docs kept
        matrix = COH1.preferences(REQUEST, responses, analysis=analysis)
    assert matrix.shape == (7, 7) and np.array_equal(matrix, COH1.preferences(REQUEST, responses))


# -- one cache key rule (issue 20): every matrix cache misses when anything the axiom reads changes ------------
def _judge_handler(model_seen: list[str]) -> type:
    """An OpenAI-compatible judge: statements split at full stops, every verdict "yes"; records the model asked."""

    class Judge(JsonHandler):
        def do_POST(self) -> None:
            body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
            model_seen.append(body["model"])
            system, user = body["messages"][0]["content"], body["messages"][-1]["content"]
            if "atomic statements" in system:
                text = user.split("Response:\n", 1)[1]
                content = json.dumps({"statements": [s for s in text.split(". ") if s.strip()]})
            else:
                statements = json.loads(user.split("Statements:\n", 1)[1])
                content = json.dumps({"verdicts": [{"verdict": "yes", "reason": "r"} for _ in statements]})
            self.send_json(json.dumps({"choices": [{"message": {"role": "assistant", "content": content}}]}).encode())

    return Judge


def _matrices_of(cache: str, directory: Path, axiom, item) -> np.ndarray:
    from ir_rag_axioms.evaluation import compute_preferences

    if cache == "compute_preferences":
        return compute_preferences({"a": axiom}, [item], cache_dir=directory)["a"][0]
    return axiom.cached(str(directory)).preferences(*item)


def _doctor(cache: str, directory: Path, axiom, item) -> None:
    """Overwrite the cached matrix of (axiom, item) with 7s (a hit then returns 7s): one cache for both spellings."""
    from ir_rag_axioms.analysis.cache import axiom_identity, item_key
    from ir_rag_axioms.analysis.store import DiskStore

    sevens = np.full((len(item[1]), len(item[1])), 7.0)
    DiskStore(directory).put(axiom_identity(axiom), item_key(*item), sevens)


def _rr(text_a: str = "Cats purr [1]. They do.", text_b: str = "Purring is a sound.", **fields):
    return [GenerationResponse("a", text_a, **fields.get("a", {})),
            GenerationResponse("b", text_b, **fields.get("b", {}))]


CACHE_CASES = {
    "ORIG ranks swapped": ("ORIG", (REQUEST, _rr(a={"rank": 1}, b={"rank": 2})),
                           (REQUEST, _rr(a={"rank": 2}, b={"rank": 1}))),
    "GT scores swapped": ("GT", (REQUEST, _rr(a={"score": 1.0}, b={"score": 2.0})),
                          (REQUEST, _rr(a={"score": 2.0}, b={"score": 1.0}))),
    "text changed": ("CORR1", (REQUEST, _rr()), (REQUEST, _rr(text_b="Purring is a sound [1]."))),
    "request context changed": ("CONS2", (REQUEST, _rr()),
                                (GenerationRequest("q", REQUEST.text, ["Lions roar at night."]), _rr())),
    "response context changed": ("CONS2", (REQUEST, _rr(a={"context": ["Cats purr."]})),
                                 (REQUEST, _rr(a={"context": ["Lions roar."]}))),
    "response id changed": ("ORIG", (REQUEST, _rr(a={"rank": 1}, b={"rank": 2})),
                            (REQUEST, [GenerationResponse("z", "Cats purr [1]. They do.", rank=1),
                                       GenerationResponse("b", "Purring is a sound.", rank=2)])),
    "request id changed": ("CORR1", (REQUEST, _rr()), (GenerationRequest("q2", REQUEST.text, REQUEST.context), _rr())),
}


@pytest.mark.parametrize("cache", ["compute_preferences", "cached"])
@pytest.mark.parametrize("case", list(CACHE_CASES))
def test_every_matrix_cache_misses_when_an_input_changes(case: str, cache: str, tmp_path: Path):
    name, item, changed = CACHE_CASES[case]
    axiom = parse(name)
    first = _matrices_of(cache, tmp_path, axiom, item)
    _doctor(cache, tmp_path, axiom, item)
    assert (_matrices_of(cache, tmp_path, axiom, item) == 7).all()  # the doctored entry is a hit
    again = _matrices_of(cache, tmp_path, axiom, changed)
    assert not (again == 7).any() and np.array_equal(again, axiom.preferences(*changed))
    if name in ("ORIG", "GT") and "id" not in case:
        assert np.array_equal(again, -first)  # swapped ranks or scores: the opposite preference, not the old one


@pytest.mark.parametrize("cache", ["compute_preferences", "cached"])
def test_every_matrix_cache_misses_when_the_setting_or_the_judge_changes(cache: str, tmp_path: Path, monkeypatch):
    from ir_rag_axioms import ANSWER_RELEVANCY

    item = (GenerationRequest("q", "What does the laptop have?"),
            _rr("The laptop has a screen. It is light.", "The laptop has a screen."))
    seen_a: list[str] = []
    seen_b: list[str] = []
    monkeypatch.setenv("IR_RAG_AXIOMS_JUDGE_CACHE", "none")
    axiom = ANSWER_RELEVANCY(judge="llm")
    with loopback_server(_judge_handler(seen_a)) as url_a, loopback_server(_judge_handler(seen_b)) as url_b:
        monkeypatch.setenv("IR_RAG_AXIOMS_JUDGE_BASE_URL", url_a + "/v1")
        monkeypatch.setenv("IR_RAG_AXIOMS_JUDGE_MODEL", "model-1")
        _matrices_of(cache, tmp_path, axiom, item)
        asked = len(seen_a)
        assert asked > 0
        _doctor(cache, tmp_path, axiom, item)
        assert (_matrices_of(cache, tmp_path, axiom, item) == 7).all() and len(seen_a) == asked  # a hit asks nobody
        monkeypatch.setenv("IR_RAG_AXIOMS_JUDGE_MODEL", "model-2")  # another model: a miss, the server is asked
        assert not (_matrices_of(cache, tmp_path, axiom, item) == 7).any() and seen_a[-1] == "model-2"
        _doctor(cache, tmp_path, axiom, item)
        monkeypatch.setenv("IR_RAG_AXIOMS_JUDGE_BASE_URL", url_b + "/v1")  # another server: a miss
        assert not (_matrices_of(cache, tmp_path, axiom, item) == 7).any() and seen_b
    _matrices_of(cache, tmp_path / "corr1", CORR1, (REQUEST, _rr()))
    _doctor(cache, tmp_path / "corr1", CORR1, (REQUEST, _rr()))
    assert (_matrices_of(cache, tmp_path / "corr1", CORR1, (REQUEST, _rr())) == 7).all()
    monkeypatch.setenv("IR_RAG_AXIOMS_MAX_TEXT_CHARS", "12345")  # a setting that changes results: a miss
    assert not (_matrices_of(cache, tmp_path / "corr1", CORR1, (REQUEST, _rr())) == 7).any()


# -- each answer's own context in the CLI's input files (issue 20) -------------------------------------------
def _jsonl(path: Path, rows: list[dict], gz: bool = False) -> Path:
    text = "".join(json.dumps(r) + "\n" for r in rows)
    if gz:
        path.write_bytes(gzip.compress(text.encode(), mtime=0))
    else:
        path.write_text(text)
    return path


def test_flat_and_nested_inputs_keep_each_answers_own_context(tmp_path: Path):
    from ir_rag_axioms.datasets.requests import read_requests

    cats, lions = ["Cats purr when they are content."], ["Lions roar at night."]
    flat = _jsonl(tmp_path / "flat.jsonl", [
        {"qid": "q", "query": "Why do cats purr?", "docno": "a", "text": "Cats purr.", "context": cats},
        {"qid": "q", "query": "Why do cats purr?", "docno": "b", "text": "Lions roar.", "context": lions}])
    nested = _jsonl(tmp_path / "nested.jsonl", [{"id": "q", "query": "Why do cats purr?", "context": cats,
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
        code, err = _cli("preferences", "--input", str(path), "--axioms", "CONS2", "--quiet",
                         "-o", str(tmp_path / "out.csv"))
        assert code == 0, err
        assert pd.read_csv(tmp_path / "out.csv")["CONS2"].tolist() == [own[0, 1], own[1, 0]]


def test_two_query_texts_for_one_qid_are_refused_with_file_and_line(tmp_path: Path):
    from ir_rag_axioms.datasets.requests import read_requests, read_run_requests

    rows = [{"qid": "q", "query": "Why do cats purr?", "docno": "a", "text": "x"},
            {"qid": "q", "query": "Why do dogs bark?", "docno": "b", "text": "y"}]
    path = _jsonl(tmp_path / "flat.jsonl", rows)
    with pytest.raises(DataFileError, match=r"flat.jsonl line 2: query 'q' has the text .*but line 1 gave it"):
        read_requests(path)
    (tmp_path / "run").write_text("q Q0 a 1 2.0 r\nq Q0 b 2 1.0 r\n")
    with pytest.raises(DataFileError, match=r"flat.jsonl line 2: query 'q'"):
        read_run_requests(tmp_path / "run", path)


def test_a_duplicated_response_id_names_file_and_line(tmp_path: Path, data_dir: Path):
    from ir_rag_axioms.datasets.crowd import load_crowd_responses
    from ir_rag_axioms.datasets.requests import read_requests, read_run

    flat = _jsonl(tmp_path / "flat.jsonl", [{"qid": "q", "query": "Q?", "docno": "a", "text": "x"},
                                            {"qid": "q", "query": "Q?", "docno": "a", "text": "y"}])
    with pytest.raises(DataFileError, match=r"flat.jsonl line 2: response id 'a' of request 'q' is duplicated "
                                            r"\(first on line 1\)"):
        read_requests(flat)
    nested = _jsonl(tmp_path / "nested.jsonl", [{"id": "q", "query": "Q?", "responses": [
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


def test_a_regzipped_copy_with_identical_content_does_not_warn(tmp_path: Path, data_dir: Path):
    from ir_rag_axioms.datasets import files

    original = data_dir / "trec-rag-24-crowd" / "ratings.jsonl.gz"
    again = tmp_path / "ratings.jsonl.gz"
    again.write_bytes(gzip.compress(gzip.decompress(original.read_bytes()), compresslevel=1, mtime=12345))
    assert again.read_bytes() != original.read_bytes()
    with warnings.catch_warnings():
        warnings.simplefilter("error", DataFileWarning)
        assert files.resolve(files.CROWD_RATINGS, again) == again
    changed = tmp_path / "changed" / "ratings.jsonl.gz"
    changed.parent.mkdir()
    changed.write_bytes(gzip.compress(gzip.decompress(original.read_bytes())[:-200] + b"\n"))
    with pytest.warns(DataFileWarning, match="differs from the published file"):
        files.resolve(files.CROWD_RATINGS, changed)


def test_ir_datasets_home_naming_a_file_is_a_clear_error(tmp_path: Path, monkeypatch):
    from ir_rag_axioms.datasets import files

    (tmp_path / "home").write_text("x")
    monkeypatch.setenv("IR_DATASETS_HOME", str(tmp_path / "home"))
    monkeypatch.delenv("IR_RAG_AXIOMS_DATA", raising=False)
    with pytest.raises(DataFileError, match="environment variable IR_DATASETS_HOME=.* is a file, not a folder"):
        files.resolve(files.CROWD_TOPICS, download=False)


# -- parse: literal arguments, no paths, no division by zero, the same whatever was imported (issue 20) ------
@pytest.mark.parametrize("spec, words", [
    ("COH1 / 0", "dividing an axiom by the number 0"),
    ("COH1 / 0.0", "dividing an axiom by the number 0"),
    ("COH1(spacy_model='a' * 100000000 * 5)", "operators join axioms"),
    ("COH1(spacy_model='a' + 'b')", "operators join axioms"),
    ("COH1 * (10 ** 100)", "unsupported syntax"),
    ("COH1 * (999999999999999999999 * 999999999999999999999)", "operators join axioms"),
    ("COH1(margin_fraction=1j)", "is not a string, number"),
    ("COH1(margin_fraction=b'1')", "is not a string, number"),
    ("COH1(**{'margin_fraction': 0.5})", "unsupported syntax"),
    ("-'a' + COH1", "a sign applies to numbers and axioms"),
])
def test_parse_accepts_only_literal_arguments(spec: str, words: str):
    with pytest.raises(ValueError, match=words):
        parse(spec)


def test_parse_refuses_file_system_paths_unless_allowed(tmp_path: Path):
    target = tmp_path / "store"
    for spec in (f"Cached(axiom=CORR1, path={str(target)!r})", f"CORR1.cached({str(target)!r})",
                 f"CROWD(data_dir={str(tmp_path)!r})", "COH1(spacy_model='/etc')", "COV1(sentence_model='../x')"):
        with pytest.raises(ValueError, match="names a file system path"):
            parse(spec)
    assert not target.exists()  # refused before a store was created
    allowed = parse(f"Cached(axiom=CORR1, path={str(target)!r})", allow_paths=True)
    assert repr(allowed) == f"CORR1().cached({str(target)!r})" and parse(repr(allowed), allow_paths=True) == allowed
    assert parse("COV1(sentence_model='sentence-transformers/all-MiniLM-L6-v2')")  # a hub name is no path


def test_what_parse_accepts_does_not_depend_on_import_state():
    code = ("import sys, ir_rag_axioms; assert 'ir_rag_axioms.axioms.wrappers' not in sys.modules; "
            "from ir_rag_axioms import parse\n"
            "try:\n    parse(\"Cached(axiom=CORR1, path='/tmp/x')\")\nexcept ValueError as e:\n    print(e)\n"
            "p = parse('Parallel(CORR1, n_jobs=2)')\n"
            "print(p, parse('CORR1.parallel(2)') == p)")
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120,
                            cwd=Path(__file__).resolve().parents[1], env={**os.environ})
    assert result.returncode == 0, result.stderr
    assert "names a file system path" in result.stdout and "CORR1().parallel(2) True" in result.stdout


def test_numpy_scalars_are_numbers_and_print_parseably():
    axiom = COH1(margin_fraction=np.float64(0.5), higher_is_better=np.bool_(False))
    assert type(axiom.margin_fraction) is float and type(axiom.higher_is_better) is bool
    assert parse(repr(axiom)) == axiom and "margin_fraction=0.5" in repr(axiom)
    assert CORR1(margin_fraction=np.int64(1)).margin_fraction == 1
    with pytest.raises(ValueError, match="COH1: margin_fraction must be a number, got NaN"):
        COH1(margin_fraction=float("nan"))
    with pytest.raises(ValueError, match="must be a number, got NaN"):
        COH1(margin_fraction=np.float64("nan"))


# -- outputs checked before the work (issue 20) ---------------------------------------------------------------
def _requests_file(tmp_path: Path) -> Path:
    return _jsonl(tmp_path / "in.jsonl", [{"qid": "q", "query": "Why do cats purr?", "docno": d, "text": t}
                                          for d, t in (("a", "Cats purr [1]."), ("b", "Dogs bark."))])


@pytest.mark.parametrize("command", ["preferences", "rerank"])
def test_an_output_that_is_the_input_or_below_a_file_fails_before_the_work(tmp_path: Path, command: str):
    source = _requests_file(tmp_path)
    original = source.read_bytes()
    (tmp_path / "afile").write_text("x")
    for output, words in ((str(source), "it is the input"), (str(tmp_path / "afile" / "out.csv"), "it is a file"),
                          (str(tmp_path), "it is a folder")):
        start = time.monotonic()
        code, err = _cli(command, "--input", str(source), "--axioms", "CORR1", "--quiet", "-o", output)
        assert code == 2 and "cannot write the output (-o/--output)" in err and words in err, err
        assert time.monotonic() - start < 10
    assert source.read_bytes() == original and (tmp_path / "afile").read_text() == "x"


def test_compare_checks_reference_bootstrap_seed_and_out_before_the_work(tmp_path: Path, data_dir: Path):
    nuggets = str(data_dir / "trec-rag-24-nuggets")
    (tmp_path / "afile").write_text("x")
    for extra, words in ((["--reference", "nugget:bogus"], "unknown --reference 'nugget:bogus'"),
                         (["--bootstrap", "-5"], "--bootstrap: must be at least 0"),
                         (["--bootstrap", "100001"], "between 0 (none) and 100,000"),
                         (["--seed", "-1"], "--seed: must be at least 0"),
                         (["--out", str(tmp_path / "afile")], "cannot write the report (--out)")):
        start = time.monotonic()
        code, err = _cli("compare", "--data", nuggets, "--axioms", "CORR1", "--quiet", "--no-figures",
                         *(["--out", str(tmp_path / "out")] if "--out" not in extra else []), *extra)
        assert code == 2 and words in err, err
        assert time.monotonic() - start < 10 and not (tmp_path / "out" / "systems.csv").exists()


def test_rerank_seed_and_weights_are_checked_up_front(tmp_path: Path):
    source = _requests_file(tmp_path)
    code, err = _cli("rerank", "--input", str(source), "--axioms", "CORR1", "--seed", "-1", "--quiet")
    assert code == 2 and "--seed: must be at least 0" in err
    code, err = _cli("rerank", "--input", str(source), "--axioms", "CORR1", "--weights", "nan", "--quiet")
    assert code == 2 and "every weight must be a finite number" in err


def test_an_html_report_below_a_file_fails_before_the_work(tmp_path: Path, data_dir: Path):
    (tmp_path / "afile").write_text("x")
    code, err = _cli("evaluate", "--data", str(data_dir / "trec-rag-24-crowd"), "--axioms", "CORR1", "--quiet",
                     "--out", str(tmp_path / "out"), "--report", str(tmp_path / "afile" / "r.html"))
    assert code == 2 and "cannot write the HTML report (--report)" in err


# -- bounded waits (issue 20) --------------------------------------------------------------------------------
def test_an_unreachable_ray_address_fails_within_seconds(monkeypatch):
    import socket

    from ir_rag_axioms.axioms.execution import preference_stacks

    pytest.importorskip("ray", reason="Ray is not installed")
    monkeypatch.setenv("IR_RAG_AXIOMS_RAY_CONNECT_TIMEOUT", "2")
    with socket.socket() as silent:  # accepts connections (the kernel does) but never answers: Ray would wait
        silent.bind(("127.0.0.1", 0))
        silent.listen(8)
        address = f"127.0.0.1:{silent.getsockname()[1]}"
        start = time.monotonic()
        with pytest.raises(ConnectionError, match=f"cannot reach the Ray cluster at '{address}' within 2 s"):
            list(preference_stacks([CORR1], [(REQUEST, GOOD)], backend="ray", ray_address=address))
        assert time.monotonic() - start < 10
    with pytest.raises(ConnectionError, match="127.0.0.1:1"):  # nothing listens: refused at once
        list(preference_stacks([CORR1], [(REQUEST, GOOD)], backend="ray", ray_address="127.0.0.1:1"))
    with pytest.raises(ValueError, match="is not host:port"):
        list(preference_stacks([CORR1], [(REQUEST, GOOD)], backend="ray", ray_address="head:port"))


def test_a_catastrophically_backtracking_citation_pattern_is_an_error_within_seconds():
    axiom = CORR1(citation_pattern=r"(a|aa)+$")
    responses = [GenerationResponse("a", "a" * 30 + "!"), GenerationResponse("b", "Dogs bark.")]
    COH1.preferences(REQUEST, responses)  # the parse is ready: the time below is the pattern's
    start = time.monotonic()
    with pytest.raises(ValueError, match=r"CORR1: citation_pattern .* backtracks catastrophically"):
        axiom.preferences(REQUEST, responses)
    assert time.monotonic() - start < 30
    with pytest.raises(ValueError, match="over the limit of 1,000"):
        CORR1(citation_pattern="a" * 1001)


# -- errors at the boundary (issue 20) -----------------------------------------------------------------------
def test_a_model_name_never_imports_an_arbitrary_module():
    code = ("import sys; from ir_rag_axioms import COH1, GenerationRequest, GenerationResponse\n"
            "from ir_rag_axioms.analysis.resources import ToolUnavailableError\n"
            "sys.modules.pop('tabulate', None)\n"
            "try:\n    COH1(spacy_model='tabulate').preferences(GenerationRequest('q', 'Why?'), "
            "[GenerationResponse('a', 'A b.'), GenerationResponse('b', 'C d.')])\n"
            "except ToolUnavailableError as e:\n    print(e)\n"
            "print('imported' if 'tabulate' in sys.modules else 'not imported')")
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120,
                            cwd=Path(__file__).resolve().parents[1], env={**os.environ})
    assert result.returncode == 0, result.stderr
    assert "no spaCy pipeline package (no meta.json)" in result.stdout and "not imported" in result.stdout


def test_a_folder_that_is_no_model_is_a_clear_error(tmp_path: Path):
    from ir_rag_axioms import COV2

    responses = [GenerationResponse("a", "Cats purr and dogs bark."), GenerationResponse("b", "Mice squeak.")]
    with pytest.raises(ToolUnavailableError, match="sentence_model '/etc' is a path but no sentence-transformers"):
        COV2(sentence_model="/etc").preferences(REQUEST, responses)
    with pytest.raises(ToolUnavailableError, match="no spaCy pipeline folder"):
        COH1(spacy_model=str(tmp_path)).preferences(REQUEST, responses)


def test_max_text_chars_zero_is_a_clear_message_at_call_time_not_at_import():
    code = ("import ir_rag_axioms\nfrom ir_rag_axioms import COH1, GenerationRequest, GenerationResponse\n"
            "try:\n    COH1.preferences(GenerationRequest('q', 'Why?'), [GenerationResponse('a', 'A.')])\n"
            "except ValueError as e:\n    print('error:', e)")
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120,
                            cwd=Path(__file__).resolve().parents[1],
                            env={**os.environ, "IR_RAG_AXIOMS_MAX_TEXT_CHARS": "0"})
    assert result.returncode == 0, result.stderr
    assert "error: environment variable IR_RAG_AXIOMS_MAX_TEXT_CHARS='0' must be at least 1" in result.stdout
