"""Hardening at the boundaries: each answer's own context, specs that reach too far, outputs, waits, settings."""

from __future__ import annotations

import contextlib
import gzip
import json
import os
import sqlite3
import subprocess
import sys
import tempfile
import warnings
from pathlib import Path

import numpy as np
import pytest
from conftest import DATA, ROOT
from hardening import (
    CROWD,
    EVAL,
    GOOD,
    REQUEST,
    Hang,
    Insecure,
    Lost,
    Unclear,
    Wrong,
    cli,
    env,
    needs_data,
    refuses,
    within,
)

from ir_rag_axioms import COH1, GenerationResponse, parse


# == issue 20: caches, each answer's own context, parse, outputs, waits, boundaries ==========================
def _jsonl_file(folder: str, name: str, rows: list[dict]) -> Path:
    path = Path(folder) / name
    path.write_text("".join(json.dumps(r) + "\n" for r in rows))
    return path


_CATS, _LIONS = ["Cats purr when they are content."], ["Lions roar at night."]


def test_flat_jsonl_keeps_each_rows_context() -> None:
    from ir_rag_axioms.datasets.requests import read_requests
    with tempfile.TemporaryDirectory() as folder:
        path = _jsonl_file(folder, "flat.jsonl", [
            {"qid": "q", "query": "Why?", "docno": "a", "text": "Cats purr.", "context": _CATS},
            {"qid": "q", "query": "Why?", "docno": "b", "text": "Lions roar.", "context": _LIONS}])
        [(request, responses)] = read_requests(path)
    from ir_rag_axioms.model import context_of
    if context_of(request, responses[1]) != tuple(_LIONS):
        raise Wrong(f"row 2's context became {context_of(request, responses[1])}")


def test_nested_jsonl_keeps_a_responses_context() -> None:
    from ir_rag_axioms.datasets.requests import read_requests
    from ir_rag_axioms.model import context_of
    with tempfile.TemporaryDirectory() as folder:
        path = _jsonl_file(folder, "nested.jsonl", [{"id": "q", "query": "Why?", "context": _CATS, "responses": [
            {"id": "a", "text": "Cats purr."}, {"id": "b", "text": "Lions roar.", "context": _LIONS}]}])
        [(request, responses)] = read_requests(path)
    if context_of(request, responses[1]) != tuple(_LIONS):
        raise Wrong(f"response b's context became {context_of(request, responses[1])}")


def test_two_query_texts_for_one_qid_refused() -> None:
    from ir_rag_axioms.datasets.requests import read_requests
    with tempfile.TemporaryDirectory() as folder:
        path = _jsonl_file(folder, "flat.jsonl", [{"qid": "q", "query": q, "docno": d, "text": "x"}
                                                  for d, q in (("a", "Why do cats purr?"), ("b", "Why do dogs bark?"))])
        refuses(lambda: read_requests(path), ValueError, "flat.jsonl line 2", "line 1")


def test_duplicated_response_id_names_file_and_line() -> None:
    from ir_rag_axioms.datasets.requests import read_requests
    with tempfile.TemporaryDirectory() as folder:
        path = _jsonl_file(folder, "flat.jsonl", [{"qid": "q", "query": "Q?", "docno": "a", "text": "x"},
                                                  {"qid": "q", "query": "Q?", "docno": "a", "text": "y"}])
        refuses(lambda: read_requests(path), ValueError, "flat.jsonl line 2", "'a'")


@needs_data
def test_duplicated_crowd_response_id_names_file_and_line() -> None:
    from ir_rag_axioms.datasets.crowd import load_crowd_responses
    lines = gzip.decompress((CROWD / "responses.jsonl.gz").read_bytes()).splitlines()
    with tempfile.TemporaryDirectory() as folder:
        copy = Path(folder) / "responses.jsonl"
        copy.write_bytes(b"\n".join([lines[0], lines[1], lines[0]]) + b"\n")
        refuses(lambda: load_crowd_responses(copy), ValueError, "responses.jsonl line 3", "duplicated")


@needs_data
def test_regzipped_identical_copy_does_not_warn() -> None:
    from ir_rag_axioms.datasets import files
    with tempfile.TemporaryDirectory() as folder:
        again = Path(folder) / "ratings.jsonl.gz"
        again.write_bytes(gzip.compress(gzip.decompress((CROWD / "ratings.jsonl.gz").read_bytes()), 1, mtime=1))
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            files.resolve(files.CROWD_RATINGS, again)
        if caught:
            raise Unclear(f"an identical content warned: {caught[0].message}")


def test_division_by_zero_refused() -> None:
    refuses(lambda: parse("COH1 / 0"), ValueError, "0")


@within(30)
def test_string_multiplication_in_a_spec_refused() -> None:
    try:
        result = parse("COH1(spacy_model='a' * 1000000 * 50)")
    except ValueError:
        return
    raise Insecure(f"built a {len(result.spacy_model):,}-character argument from a 40-character spec")


def test_cached_path_from_a_spec_refused() -> None:
    with tempfile.TemporaryDirectory() as folder:
        target = Path(folder) / "made-by-a-spec"
        with contextlib.suppress(ValueError, KeyError):
            parse(f"Cached(axiom=CORR1, path={str(target)!r})").preferences(REQUEST, GOOD)
        if target.exists():
            raise Insecure("a spec created a store at a path of its choosing")


@within(120)
def test_parse_does_not_depend_on_import_state() -> None:
    code = ("import ir_rag_axioms as i\nfrom ir_rag_axioms import parse\ndef outcome(s):\n    try:\n"
            "        parse(s)\n        return 'ok'\n    except Exception as e:\n        return type(e).__name__\n"
            "a = outcome('Parallel(CORR1, n_jobs=2)')\nimport ir_rag_axioms.axioms.wrappers\n"
            "print(a, outcome('Parallel(CORR1, n_jobs=2)'))")
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=100, cwd=ROOT,
                            env={**os.environ, "PYTHONPATH": str(ROOT)})
    words = result.stdout.split()
    if len(words) != 2 or words[0] != words[1]:
        raise Insecure(f"before and after importing the wrappers: {result.stdout.strip() or result.stderr[-200:]}")


def test_numpy_float_parameter_repr_parses_back() -> None:
    axiom = COH1(margin_fraction=np.float64(0.5))
    if parse(repr(axiom)) != axiom:
        raise Wrong(f"{axiom!r} does not parse back")


def test_numpy_bool_parameter_accepted() -> None:
    COH1(higher_is_better=np.bool_(True))


def test_nan_margin_message_names_nan() -> None:
    refuses(lambda: COH1(margin_fraction=float("nan")), ValueError, "margin_fraction", "nan")


def _must_not_work(module: str, name: str, kind: type[AssertionError] = Lost) -> contextlib.AbstractContextManager:
    """Patch ``module.name`` to raise ``kind``: a command that checks its arguments first never gets there."""
    import importlib
    from unittest import mock

    def started(*args: object, **kwargs: object) -> None:
        raise kind("the work started before the arguments and outputs were checked")

    return mock.patch.object(importlib.import_module(module), name, started)


def _requests(folder: str) -> Path:
    return _jsonl_file(folder, "in.jsonl", [{"qid": "q", "query": "Why?", "docno": d, "text": t}
                                           for d, t in (("a", "Cats purr [1]."), ("b", "Dogs bark."))])


def test_preferences_output_is_its_input() -> None:
    with tempfile.TemporaryDirectory() as folder:
        source = _requests(folder)
        before = source.read_bytes()
        code, _, _ = cli("preferences", "--input", str(source), "--axioms", "CORR1", "--quiet", "-o", str(source))
        if source.read_bytes() != before:
            raise Lost(f"the input was overwritten (exit {code})")


@pytest.mark.parametrize("command", ["preferences", "rerank"])
def test_output_below_a_file_fails_first(command: str) -> None:
    with tempfile.TemporaryDirectory() as folder, _must_not_work("ir_rag_axioms.axioms.execution",
                                                                 "preference_stacks"):
        (Path(folder) / "afile").write_text("x")
        code, _, err = cli(command, "--input", str(_requests(folder)), "--axioms", "CORR1", "--quiet",
                           "-o", str(Path(folder) / "afile" / "out.csv"))
        if code != 2 or "afile" not in err:
            raise Unclear(f"exit {code}: {err[-200:]}")


def _compare_first(*extra: str, kind: type[AssertionError] = Lost) -> None:
    nuggets = str(DATA / "trec-rag-24-nuggets")
    with (tempfile.TemporaryDirectory() as folder,
          _must_not_work("ir_rag_axioms.evaluation.systems", "compare_systems", kind)):
        (Path(folder) / "afile").write_text("x")
        arguments = ["compare", "--data", nuggets, "--axioms", "CORR1", "--quiet", "--no-figures"]
        if "--out" not in extra:
            arguments += ["--out", str(Path(folder) / "out")]
        code, _, err = cli(*arguments, *[e.replace("AFILE", str(Path(folder) / "afile")) for e in extra])
        if code != 2 or "error" not in err:
            raise Unclear(f"exit {code}: {err[-200:]}")


def test_compare_out_naming_a_file_fails_first() -> None:
    _compare_first("--out", "AFILE")


def test_compare_bogus_reference_fails_first() -> None:
    _compare_first("--reference", "nugget:bogus")


@needs_data
def test_explicit_cache_naming_a_file_is_refused() -> None:
    with tempfile.TemporaryDirectory() as folder, _must_not_work("ir_rag_axioms.evaluation", "compute_preferences"):
        (Path(folder) / "afile").write_text("x")
        code, _, err = cli(*EVAL, "--axioms", "CORR1", "--cache", str(Path(folder) / "afile"),
                           "--out", str(Path(folder) / "out"))
        if code != 2 or "--cache" not in err:
            raise Unclear(f"exit {code}: {err[-200:]}")


def test_read_only_store_serves_reads() -> None:
    from unittest import mock

    from ir_rag_axioms.analysis import store as stores
    with tempfile.TemporaryDirectory() as folder:
        writer = stores.DiskStore(folder)
        writer.put("ns", "k", [1, 2])
        writer.close()
        connect = sqlite3.connect

        def read_only_fs(file: object, *args: object, **kwargs: object) -> sqlite3.Connection:
            if not (kwargs.get("uri") and "mode=ro" in str(file)):
                raise sqlite3.OperationalError("unable to open database file")
            return connect(file, *args, **kwargs)  # type: ignore[arg-type]

        with mock.patch.object(stores.sqlite3, "connect", read_only_fs), \
                mock.patch.object(os, "access", lambda *a, **k: False):
            value = stores.DiskStore(folder).get("ns", "k")
        if value != [1, 2]:
            raise Lost(f"a populated read-only store served {value!r}")


def test_compare_bootstrap_capped_up_front() -> None:
    _compare_first("--bootstrap", "1000000000", kind=Hang)  # a billion resamples: found only after the work


def test_compare_negative_bootstrap_up_front() -> None:
    _compare_first("--bootstrap", "-5", kind=Hang)


def test_rerank_negative_seed_up_front() -> None:
    with tempfile.TemporaryDirectory() as folder, _must_not_work("ir_rag_axioms.axioms.execution", "preference_stacks",
                                                                 Hang):
        code, _, err = cli("rerank", "--input", str(_requests(folder)), "--axioms", "CORR1", "--seed", "-1",
                           "--quiet")
        if code != 2 or "seed" not in err:
            raise Unclear(f"exit {code}: {err[-200:]}")


def _in_subprocess(code: str, timeout: float, **variables: str) -> subprocess.CompletedProcess:
    """Run ``code`` in a fresh interpreter on the probed checkout; over ``timeout``: a hang."""
    try:
        return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=timeout,
                              cwd=ROOT, env={**os.environ, "PYTHONPATH": str(ROOT), **variables})
    except subprocess.TimeoutExpired:
        raise Hang(f"over {timeout:.0f} s") from None


@within(90)
def test_silent_ray_address_fails_within_seconds() -> None:
    code = ("import socket\nfrom ir_rag_axioms import CORR1, GenerationRequest, GenerationResponse\n"
            "from ir_rag_axioms.axioms.execution import preference_stacks\n"
            "s = socket.socket(); s.bind(('127.0.0.1', 0)); s.listen(8)\n"
            "items = [(GenerationRequest('q', 'Why?'), [GenerationResponse('a', 'A.'), "
            "GenerationResponse('b', 'B.')])]\n"
            "try:\n    list(preference_stacks([CORR1], items, backend='ray', "
            "ray_address=f'127.0.0.1:{s.getsockname()[1]}'))\nexcept Exception as e:\n    print('refused:', e)")
    result = _in_subprocess(code, 60, IR_RAG_AXIOMS_RAY_CONNECT_TIMEOUT="3")
    if "refused:" not in result.stdout:
        raise Wrong(result.stdout[-200:] + result.stderr[-200:])


@within(100)
def test_backtracking_citation_pattern_is_bounded() -> None:
    code = ("from ir_rag_axioms import CORR1, GenerationRequest, GenerationResponse\n"
            "r = [GenerationResponse('a', 'a' * 32 + '!'), GenerationResponse('b', 'Dogs bark.')]\n"
            "for p in (r'(a+)+$', r'(a|aa)+$'):\n"
            "    try:\n        CORR1(citation_pattern=p).preferences(GenerationRequest('q', 'Why?'), r)\n"
            "        print('answered')\n    except ValueError as e:\n        print('refused:', e)")
    result = _in_subprocess(code, 75)  # each pattern answered or refused within its bound, not after minutes
    lines = [line for line in result.stdout.splitlines() if line.startswith(("answered", "refused:"))]
    if len(lines) != 2 or any(line.startswith("refused:") and "citation_pattern" not in line for line in lines):
        raise Unclear(result.stdout[-200:] + result.stderr[-200:])


@within(120)
def test_spacy_model_names_no_arbitrary_module() -> None:
    code = ("import sys\nfrom ir_rag_axioms import COH1, GenerationRequest, GenerationResponse\n"
            "sys.modules.pop('tabulate', None)\n"
            "try:\n    COH1(spacy_model='tabulate').preferences(GenerationRequest('q', 'Why?'), "
            "[GenerationResponse('a', 'A b.'), GenerationResponse('b', 'C d.')])\nexcept Exception as e:\n"
            "    print(type(e).__name__)\nprint('imported' if 'tabulate' in sys.modules else 'clean')")
    result = _in_subprocess(code, 100)
    if "clean" not in result.stdout:
        raise Insecure(f"spacy_model='tabulate' imported that module: {result.stdout.strip()[-200:]}")


def test_sentence_model_naming_a_folder_that_is_no_model() -> None:
    from ir_rag_axioms import COV2
    from ir_rag_axioms.analysis.resources import ToolUnavailableError
    responses = [GenerationResponse("a", "Cats purr and dogs bark."), GenerationResponse("b", "Mice squeak.")]
    refuses(lambda: COV2(sentence_model="/etc").preferences(REQUEST, responses), ToolUnavailableError,
            "sentence_model", "/etc")


def test_ir_datasets_home_naming_a_file() -> None:
    from ir_rag_axioms.datasets import files
    with tempfile.TemporaryDirectory() as folder:
        home = Path(folder) / "home"
        home.write_text("x")
        with env(IR_DATASETS_HOME=str(home), IR_RAG_AXIOMS_DATA=""):
            refuses(lambda: files.resolve(files.CROWD_TOPICS, download=False), ValueError, "IR_DATASETS_HOME")


