"""Cache keys from everything a computation reads, matrix caches that miss when an input changes, the text limit."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from conftest import JsonHandler, loopback_server

from ir_rag_axioms import (
    COH1,
    CORR1,
    GenerationRequest,
    GenerationResponse,
    parse,
)

REQUEST = GenerationRequest("q", "Why do cats purr?", ["Cats purr when they are content or stressed."])


GOOD = [GenerationResponse("a", "Cats purr when they are content [1]. They also purr when stressed."),
        GenerationResponse("b", "Purring is a sound. It is made by cats, lions do not purr.")]


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


def test_the_cache_key_includes_environment_settings(monkeypatch):
    from ir_rag_axioms.analysis.cache import axiom_identity, matrices_key

    plain, key = axiom_identity(CORR1), matrices_key(CORR1, [(REQUEST, GOOD)])
    monkeypatch.setenv("IR_RAG_AXIOMS_LANGUAGETOOL", "http://127.0.0.1:1")
    assert axiom_identity(CORR1) != plain and matrices_key(CORR1, [(REQUEST, GOOD)]) != key
    monkeypatch.setenv("IR_RAG_AXIOMS_LANGUAGETOOL", "not a url")
    with pytest.raises(ValueError, match="IR_RAG_AXIOMS_LANGUAGETOOL='not a url' must be an http"):
        axiom_identity(CORR1)


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


def test_more_texts_than_the_doc_bound_in_one_call_in_process():
    from ir_rag_axioms.analysis.cache import Analysis

    responses = [GenerationResponse(f"r{k}", f"Cats purr {'loudly ' * k}when content. They sleep.") for k in range(7)]
    with Analysis(workers=1, max_docs=2) as analysis:  # one core free: parsed in-process, 7 texts > 2 Docs kept
        matrix = COH1.preferences(REQUEST, responses, analysis=analysis)
    assert matrix.shape == (7, 7) and np.array_equal(matrix, COH1.preferences(REQUEST, responses))


def test_max_text_chars_zero_is_a_clear_message_at_call_time_not_at_import():
    code = ("import ir_rag_axioms\nfrom ir_rag_axioms import COH1, GenerationRequest, GenerationResponse\n"
            "try:\n    COH1.preferences(GenerationRequest('q', 'Why?'), [GenerationResponse('a', 'A.')])\n"
            "except ValueError as e:\n    print('error:', e)")
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120,
                            cwd=Path(__file__).resolve().parents[1],
                            env={**os.environ, "IR_RAG_AXIOMS_MAX_TEXT_CHARS": "0"})
    assert result.returncode == 0, result.stderr
    assert "error: environment variable IR_RAG_AXIOMS_MAX_TEXT_CHARS='0' must be at least 1" in result.stdout


def test_cache_file_is_a_deprecated_name_of_the_old_npz_path():
    from ir_rag_axioms.analysis.cache import matrices_key
    from ir_rag_axioms.evaluation import cache_file

    with pytest.warns(DeprecationWarning, match="MatrixCache"):
        file = cache_file("/c", CORR1, [(REQUEST, GOOD)])
    assert file == Path("/c") / f"{matrices_key(CORR1, [(REQUEST, GOOD)])}.npz"


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
