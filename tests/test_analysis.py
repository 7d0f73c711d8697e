"""The explicit analysis: scoping, the LRU bound, threads, worker processes, the persistent store, lazy planning."""

from __future__ import annotations

import threading

import numpy as np
import pytest

from ir_rag_axioms import CONS1, CONS3, COV3, Analysis, GenerationRequest, GenerationResponse
from ir_rag_axioms.analysis import workers
from ir_rag_axioms.analysis.cache import default_analysis
from ir_rag_axioms.analysis.features import TERMS
from ir_rag_axioms.demo import load_demo, rag_axioms
from ir_rag_axioms.evaluation import compute_preferences


@pytest.fixture(scope="module")
def demo():
    return load_demo()


@pytest.fixture(scope="module")
def axioms():
    found = rag_axioms()
    found.pop("CLAR1", None)
    return found


def matrices(axioms, items, analysis):
    with analysis:
        return compute_preferences(axioms, items)


@pytest.fixture(scope="module")
def reference(axioms, demo):
    return matrices(axioms, demo, Analysis(workers=1, store=None))


def assert_same(first, second):
    assert first.keys() == second.keys()
    for name in first:
        for a, b in zip(first[name], second[name], strict=True):
            np.testing.assert_array_equal(a, b, err_msg=name)


def test_with_block_sets_the_analysis_that_axioms_fill(demo):
    request, responses = demo[0]
    outside = default_analysis()
    before = len(outside)
    with Analysis(store=None) as analysis:
        assert default_analysis() is analysis
        CONS3.preferences(request, responses)
    assert default_analysis() is outside and len(outside) == before
    assert len(analysis) >= len(responses)
    assert CONS3.preferences(request, responses, analysis=analysis).shape == (5, 5)


def test_bounded_analysis_evicts_least_recently_used_texts_and_gives_the_same_matrices(axioms, demo, reference):
    analysis = Analysis(workers=1, max_texts=8, store=None)
    assert_same(matrices(axioms, demo, analysis), reference)
    assert len(analysis) <= 8
    texts = [f"Text number {k} about cats." for k in range(20)]
    first = analysis.features("en_core_web_sm", TERMS, texts)
    assert len(analysis) == 8 and analysis.features("en_core_web_sm", TERMS, texts) == first


def test_two_workers_give_identical_matrices(axioms, demo, reference, monkeypatch):
    monkeypatch.setattr(workers, "MIN_TEXTS_PER_WORKER", 1)  # use the pools even for the small demo sample
    monkeypatch.setattr("ir_rag_axioms.analysis.cache.EMBEDDING_BATCH", 4)  # several batches, on 2 torch threads
    monkeypatch.setattr(workers, "MIN_BATCHES_PER_WORKER", 10**6)  # every encoder job counts as small: threads
    calls, threads = [], []
    original, encode_batches = workers.WorkerPool.executor, workers._encode_batches
    monkeypatch.setattr(workers.WorkerPool, "executor", lambda pool, n: calls.append(n) or original(pool, n))

    def counted(model, batches, threads_wanted=1):
        threads.append(threads_wanted)
        return encode_batches(model, batches, threads_wanted)

    monkeypatch.setattr(workers, "_encode_batches", lambda model, batches, threads=1: counted(model, batches, threads))
    single = matrices(axioms, demo, Analysis(workers=1, store=None))
    assert not calls and set(threads) == {1}
    threads.clear()
    assert_same(matrices(axioms, demo, Analysis(workers=2, store=None)), single)
    assert calls and set(calls) == {2}  # spaCy in 2 processes
    assert threads and set(threads) == {2}  # the encoder on 2 torch threads
    assert_same(single, reference)


def test_two_workers_with_the_encoder_in_processes_give_identical_matrices(axioms, demo, reference, monkeypatch):
    monkeypatch.setattr(workers, "MIN_TEXTS_PER_WORKER", 1)
    monkeypatch.setattr("ir_rag_axioms.analysis.cache.EMBEDDING_BATCH", 4)
    monkeypatch.setattr(workers, "MIN_BATCHES_PER_WORKER", 1)  # every encoder job of 2+ batches: worker processes
    sent: list[bool] = []
    executor = workers.WorkerPool.executor

    def counted_map(pool, n):  # note each task handed to the processes: an encoder batch or not
        found = executor(pool, n)
        submit = found.submit
        found.submit = lambda fn, *a, **k: (sent.append(fn is workers._encode_in_worker), submit(fn, *a, **k))[1]
        return found

    monkeypatch.setattr(workers.WorkerPool, "executor", counted_map)
    assert_same(matrices(axioms, demo, Analysis(workers=2, store=None)), reference)
    assert any(sent)  # some encoder batches went to the worker processes


def test_encoder_batches_in_worker_processes_are_bit_identical():
    from ir_rag_axioms.analysis.resources import DEFAULT_SENTENCE_MODEL

    strings = [f"Sentence {k} is about {'cats and ' * (k % 7)}dogs [{k % 3}]." for k in range(40)]
    single = workers.encode(DEFAULT_SENTENCE_MODEL, strings, 4, 1)
    small, large = workers.WorkerPool(), workers.WorkerPool()
    try:
        threaded = workers.encode(DEFAULT_SENTENCE_MODEL, strings[:12], 4, 2, pool=small)  # 3 batches: threads
        assert small.running() == []
        routed = workers.encode(DEFAULT_SENTENCE_MODEL, strings, 4, 2, pool=large)  # 10 batches: 2 processes
        assert large.running() == [2]
    finally:
        small.close()
        large.close()
    assert all(np.array_equal(a, b) for a, b in zip(single, routed, strict=True))
    alone = workers.encode(DEFAULT_SENTENCE_MODEL, strings[:12], 4, 1)  # other batches (padding): its own reference
    # threads: MKL may pick other kernels for another thread count (the last bits; equal under MKL_CBWR=AUTO,STRICT)
    assert all(np.allclose(a, b, rtol=0, atol=1e-6) for a, b in zip(alone, threaded, strict=True))


THREADS_SCRIPT = """
import numpy as np
from ir_rag_axioms.analysis import workers
from ir_rag_axioms.analysis.resources import DEFAULT_SENTENCE_MODEL
strings = [f"Sentence {k} is about {'cats and ' * (k % 7)}dogs." for k in range(12)]
one, two = (workers.encode(DEFAULT_SENTENCE_MODEL, strings, 4, n) for n in (1, 2))
print(all(np.array_equal(a, b) for a, b in zip(one, two, strict=True)))
"""


def test_any_thread_count_gives_bit_identical_vectors_under_mkls_strict_mode():
    import os
    import subprocess
    import sys

    env = {**os.environ, "MKL_CBWR": "AUTO,STRICT"}
    done = subprocess.run([sys.executable, "-c", THREADS_SCRIPT], env=env, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.split()[-1] == "True"


def test_threads_share_one_analysis(axioms, demo, reference):
    analysis = Analysis(workers=1, store=None)
    results: list = [None] * 4
    errors: list = []

    def run(k: int) -> None:
        try:
            results[k] = matrices(axioms, demo, analysis)
        except Exception as error:  # pragma: no cover - reported below
            errors.append(error)

    threads = [threading.Thread(target=run, args=(k,)) for k in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert not errors
    for result in results:
        assert_same(result, reference)


def test_persistent_store_makes_a_rerun_skip_spacy_and_the_encoder(axioms, demo, reference, tmp_path, monkeypatch):
    assert_same(matrices(axioms, demo, Analysis(workers=1, store=tmp_path)), reference)

    def refuse(*args, **kwargs):
        raise AssertionError("recomputed although the store holds the result")

    monkeypatch.setattr(workers, "feature_values", refuse)
    monkeypatch.setattr(workers, "encode", refuse)
    assert_same(matrices(axioms, demo, Analysis(workers=1, store=tmp_path)), reference)


def test_cached_parses_are_never_changed(demo):
    request, responses = demo[0]
    analysis = Analysis(store=None)
    (doc,) = analysis.parse([responses[0].text], "en_core_web_sm", ["parse", "ents"])
    before = doc.to_bytes()
    CONS3.preferences(request, responses, analysis=analysis)
    CONS1.preferences(request, responses, analysis=analysis)
    assert doc.to_bytes() == before


def test_no_sentence_embeddings_for_a_request_without_aspects(monkeypatch):
    request = GenerationRequest("q", "why?")  # no noun chunk, no entity
    responses = [GenerationResponse("a", "Cats sleep a lot. They purr."), GenerationResponse("b", "Dogs bark.")]
    encoded: list[str] = []
    original = workers.encode
    monkeypatch.setattr(workers, "encode", lambda model, strings, *a: encoded.extend(strings) or original(
        model, strings, *a))
    prefs = COV3.preferences(request, responses, analysis=Analysis(store=None))
    assert not prefs.any() and encoded == []


@pytest.mark.parametrize("bad", [{"workers": 0}, {"max_texts": -1}, {"workers": 1.5}, {"batch_size": True}])
def test_analysis_parameters_are_checked(bad):
    with pytest.raises((TypeError, ValueError), match=next(iter(bad))):
        Analysis(**bad)


def test_default_workers_leave_busy_cores_alone(monkeypatch):
    monkeypatch.delenv("IR_RAG_AXIOMS_WORKERS", raising=False)
    monkeypatch.setattr(workers, "available_cores", lambda: 8)
    monkeypatch.setattr(workers, "own_load", lambda: 1.0)
    monkeypatch.setattr(workers.os, "getloadavg", lambda: (0.9, 0.0, 0.0))
    assert workers.default_workers() == 8  # one unit of load is this process
    monkeypatch.setattr(workers.os, "getloadavg", lambda: (5.2, 0.0, 0.0))
    assert workers.default_workers() == 4
    monkeypatch.setattr(workers.os, "getloadavg", lambda: (30.0, 0.0, 0.0))
    assert workers.default_workers() == 1
    monkeypatch.setattr(workers.os, "getloadavg", lambda: (5.2, 0.0, 0.0))
    monkeypatch.setattr(workers, "own_load", lambda: 2.0)  # two of the 5.2 are this process' own threads
    assert workers.default_workers() == 5
    monkeypatch.setenv("IR_RAG_AXIOMS_WORKERS", "3")
    assert workers.default_workers() == 3
    monkeypatch.setenv("IR_RAG_AXIOMS_WORKERS", "many")
    with pytest.raises(ValueError, match="IR_RAG_AXIOMS_WORKERS"):
        workers.default_workers()


def test_more_texts_than_the_doc_cache_holds():
    texts = [f"Sentence number {k} mentions Paris." for k in range(12)]
    analysis = Analysis(max_docs=4, store=None, workers=1)
    docs = analysis.parse(texts, "en_core_web_sm", ["ents"])
    assert [d.text for d in docs] == texts
    assert analysis.features("en_core_web_sm", TERMS, texts)[11] == ("sentence", "number", "11", "mention", "paris")


def test_an_analysis_owns_its_worker_processes_and_close_stops_them(monkeypatch):
    monkeypatch.setattr(workers, "MIN_TEXTS_PER_WORKER", 1)
    texts = [f"Worker text {k} about Lyon and Paris." for k in range(6)]
    analysis = Analysis(workers=2, store=None)
    assert analysis.pool.running() == []  # nothing forked before the first job
    in_process = Analysis(workers=1, store=None).features("en_core_web_sm", TERMS, texts)
    assert analysis.features("en_core_web_sm", TERMS, texts) == in_process
    assert analysis.pool.running() == [2]
    executor = analysis.pool.executor(2)
    processes = list(getattr(executor, "_processes", {}).values())
    assert processes and all(p.is_alive() for p in processes)
    other = Analysis(workers=2, store=None)
    assert other.pool is not analysis.pool and other.pool.running() == []  # no pool shared between analyses
    analysis.close()
    assert analysis.pool.running() == [] and not any(p.is_alive() for p in processes)
    assert analysis.features("en_core_web_sm", TERMS, texts[:3]) == in_process[:3]  # usable again after close


def test_negex_leaves_the_shared_pipeline_unchanged():
    from ir_rag_axioms.analysis.resources import load_negex, load_spacy

    nlp = load_spacy()
    before = (list(nlp.component_names), list(nlp.pipe_names), list(nlp.disabled))
    negex = load_negex("en_core_web_sm", "en", False)
    assert load_negex("en_core_web_sm", "en", False) is negex  # one component per configuration
    assert load_negex("en_core_web_sm", "en", True) is not negex
    assert (list(nlp.component_names), list(nlp.pipe_names), list(nlp.disabled)) == before
    doc = negex(nlp("Paris is not in Germany. Lyon is in France."))
    assert {ent.text: ent._.negex for ent in doc.ents} == {"Paris": False, "Germany": True, "Lyon": False,
                                                           "France": False}


def test_own_load_is_this_process_cpu_use_over_the_window(monkeypatch):
    monkeypatch.setattr(workers, "_own_samples", [])
    assert workers.own_load(now=100.0, cpu=10.0) == 1.0  # no history: one busy thread assumed
    assert workers.own_load(now=100.5, cpu=10.4) == 1.0  # under a second of history
    assert workers.own_load(now=110.0, cpu=30.0) == pytest.approx(2.0)  # 20 CPU s in 10 s: two busy threads
    assert workers.own_load(now=170.0, cpu=36.0) == pytest.approx(6.0 / 60.0)  # the window: the last 60 s
    assert workers.own_load(now=240.0, cpu=36.0) == 0.0  # idle for the last 70 s
    assert len(workers._own_samples) == 2


def test_new_words_leave_nothing_behind_in_the_spacy_pipeline():
    """At the analysis' Doc bound, features of texts with never-seen words parse in a memory zone: the vocabulary and
    lemmatizer cache stay as they were (before, every new word stayed for the life of the process: memory grew with
    every new text). Below the bound the Docs are kept, so that the next axiom's features parse nothing."""
    from ir_rag_axioms.analysis.resources import DEFAULT_SPACY_MODEL, load_spacy

    nlp = load_spacy(DEFAULT_SPACY_MODEL)
    analysis = Analysis(store=None, workers=1, max_docs=1)
    analysis.features(DEFAULT_SPACY_MODEL, TERMS, ["Warm the pipeline up."])  # components loaded; the one Doc kept
    assert len(analysis._docs) == 1
    warm = GenerationRequest("w", "Who?", ("Ada Lovelace lived in London.",))
    compute_preferences({"CONS3": CONS3}, [(warm, [GenerationResponse("a", "Ada did not live in London."),
                                                   GenerationResponse("b", "Ada lived in London.")])],
                        analysis=analysis)
    strings, lemmas = len(nlp.vocab.strings), len(nlp.get_pipe("lemmatizer").cache)
    texts = [f"The zqxblorf{i} glimmers near the vrantholm{i}, and {i} snarfles ran away." for i in range(40)]
    terms = analysis.features(DEFAULT_SPACY_MODEL, TERMS, texts)
    assert all(f"zqxblorf{i}" in found and f"vrantholm{i}" in found for i, found in enumerate(terms))
    assert len(nlp.vocab.strings) == strings and len(nlp.get_pipe("lemmatizer").cache) <= lemmas
    responses = [GenerationResponse(str(k), t) for k, t in enumerate(texts[:3])]
    matrices = compute_preferences({"CONS3": CONS3}, [(GenerationRequest("q", "zqxblorf0?", (texts[0],)), responses)],
                                   analysis=analysis)
    assert np.array_equal(matrices["CONS3"][0], -matrices["CONS3"][0].T)  # negspaCy runs in the zone too
    assert len(nlp.vocab.strings) == strings
