"""preference_stacks: identical matrices for every chunk size and on Ray.

Also lazy streaming, the chunks' analysis (the one in effect, kept for later calls), input checks.
"""

from __future__ import annotations

import sys
import time
from dataclasses import field

import numpy as np
import pytest

from ir_rag_axioms import (
    CLAR2,
    CORR1,
    COV1,
    COV3,
    GenerationRequest,
    GenerationResponse,
)
from ir_rag_axioms.analysis import resources
from ir_rag_axioms.analysis.cache import Analysis, default_analysis
from ir_rag_axioms.axioms.base import Axiom
from ir_rag_axioms.axioms.execution import BACKENDS, driver_import_path, preference_stacks, worker_environment
from ir_rag_axioms.demo import load_demo

AXIOMS = [COV1, CORR1, CLAR2, COV3]  # three cheap axioms and one that embeds (COV3)


class TopicNumber(Axiom):
    """Every cell holds the request id as a number (shows the order); records the analysis each prefetch ran in."""

    seen: list | None = field(default=None, compare=False)

    def prefetch(self, items, analysis):
        if self.seen is not None:
            self.seen.append((id(default_analysis()), [request.id for request, _ in items]))

    def matrix(self, request, responses, analysis):
        return np.full((len(responses), len(responses)), float(request.id))


def numbered(count: int, consumed: list | None = None):
    """A generator of ``count`` items with ids 0..count-1 and two responses.

    Appends each id it hands out to ``consumed``.
    """
    for i in range(count):
        if consumed is not None:
            consumed.append(i)
        yield GenerationRequest(str(i), f"query {i}"), [GenerationResponse("a", "one"), GenerationResponse("b", "two")]


@pytest.fixture(scope="module")
def mixed_items(judged_items):
    """The demo topics and five judged crowd topics (20 passages, 6 responses each)."""
    return load_demo() + judged_items[:5]


@pytest.fixture(scope="module")
def one_chunk(mixed_items):
    """The stacks from a single chunk holding every item."""
    return list(preference_stacks(AXIOMS, mixed_items, chunk_size=len(mixed_items)))


def assert_identical(expected: list[np.ndarray], actual: list[np.ndarray]) -> None:
    assert len(actual) == len(expected)
    for want, got in zip(expected, actual, strict=True):
        assert got.dtype == np.float64 and np.array_equal(want, got)


@pytest.mark.shared
@pytest.mark.parametrize("chunk_size", [1, 5])
def test_every_chunk_size_gives_the_matrices_of_one_chunk(mixed_items, one_chunk, chunk_size):
    assert_identical(one_chunk, list(preference_stacks(AXIOMS, mixed_items, chunk_size=chunk_size)))


@pytest.mark.shared
def test_stacks_equal_the_per_axiom_batch_matrices(mixed_items, one_chunk):
    with Analysis():
        per_axiom = [axiom.preferences_batch(mixed_items) for axiom in AXIOMS]
    expected = [np.stack([matrices[t] for matrices in per_axiom]) for t in range(len(mixed_items))]
    assert_identical(expected, one_chunk)
    assert any(np.any(stack != 0) for stack in one_chunk)
    assert [s.shape for s in one_chunk] == [(len(AXIOMS), len(r), len(r)) for _, r in mixed_items]


@pytest.mark.shared
def test_ray_with_two_workers_gives_the_local_matrices(mixed_items, one_chunk):
    ray = pytest.importorskip("ray", reason="Ray is not installed (pip install ir_rag_axioms[ray])")
    assert not ray.is_initialized()
    stacks = list(preference_stacks(AXIOMS, mixed_items, backend="ray", workers=2, chunk_size=2))
    assert_identical(one_chunk, stacks)
    assert not ray.is_initialized()  # the Ray started for the call is stopped afterwards


def test_ray_keeps_input_order_and_a_ray_the_caller_started():
    ray = pytest.importorskip("ray", reason="Ray is not installed (pip install ir_rag_axioms[ray])")
    ray.init(num_cpus=2, include_dashboard=False)
    try:
        stacks = list(preference_stacks([TopicNumber()], numbered(11), backend="ray", workers=2, chunk_size=1))
        assert [int(s[0, 0, 0]) for s in stacks] == list(range(11))
        assert ray.is_initialized()
    finally:
        ray.shutdown()


def test_local_streaming_reads_one_chunk_ahead_only():
    consumed: list[int] = []
    stacks = preference_stacks([TopicNumber()], numbered(100, consumed), chunk_size=4)
    assert consumed == []  # lazy: nothing read before the first stack is asked for
    assert [int(next(stacks)[0, 0, 0]) for _ in range(5)] == [0, 1, 2, 3, 4]
    assert consumed == list(range(8))


def test_chunks_share_the_analysis_in_effect_unless_one_is_given():
    seen: list = []
    outer = default_analysis()
    stacks = preference_stacks([TopicNumber(seen=seen)], numbered(5), chunk_size=2)
    next(stacks)
    assert default_analysis() is outer  # the chunk's ``with`` block does not leak to the caller between stacks
    list(stacks)
    assert [ids for _, ids in seen] == [["0", "1"], ["2", "3"], ["4"]]
    assert {analysis for analysis, _ in seen} == {id(outer)}  # the process default: kept for the next call
    seen.clear()
    shared = Analysis()
    list(preference_stacks([TopicNumber(seen=seen)], numbered(5), chunk_size=2, analysis=shared))
    assert {analysis for analysis, _ in seen} == {id(shared)}
    seen.clear()
    with Analysis() as block:
        list(preference_stacks([TopicNumber(seen=seen)], numbered(3), chunk_size=2))
    assert {analysis for analysis, _ in seen} == {id(block)}


def test_no_responses_give_an_empty_stack_per_axiom():
    items = [(GenerationRequest("q", "query"), [])]
    (stack,) = preference_stacks([TopicNumber(), TopicNumber()], items)
    assert stack.shape == (2, 0, 0)


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        ({"axioms": []}, "at least one axiom"),
        ({"chunk_size": 0}, "chunk_size"),
        ({"workers": 0}, "workers"),
        ({"backend": "spark"}, str(BACKENDS)),
        ({"backend": "ray", "analysis": Analysis()}, "backend='local'"),
    ],
)
def test_bad_arguments_raise_at_the_call(arguments, message):
    call = {"axioms": [TopicNumber()], "items": numbered(3), **arguments}
    with pytest.raises(ValueError, match=message.replace("(", r"\(").replace(")", r"\)").replace("[", r"\[")):
        preference_stacks(call.pop("axioms"), call.pop("items"), **call)


def test_bad_items_raise():
    with pytest.raises(TypeError, match="GenerationRequest"):
        list(preference_stacks([TopicNumber()], [("not a request", [])]))
    duplicate = [GenerationResponse("a", "x"), GenerationResponse("a", "y")]
    with pytest.raises(ValueError, match="duplicate"):
        list(preference_stacks([TopicNumber()], [(GenerationRequest("q", "query"), duplicate)]))


def test_missing_ray_names_the_extra(monkeypatch):
    monkeypatch.setitem(sys.modules, "ray", None)  # makes "import ray" raise ImportError
    with pytest.raises(ImportError, match=r"pip install ir_rag_axioms\[ray\]"):
        preference_stacks([TopicNumber()], numbered(2), backend="ray")


def test_actors_import_this_package_offline_with_one_thread():
    import ir_rag_axioms

    env = worker_environment()
    root = driver_import_path()[0]
    assert ir_rag_axioms.__file__.startswith(root) and env["PYTHONPATH"].split(":")[0] == root
    assert env["IR_RAG_AXIOMS_TORCH_THREADS"] == "1" and env["HF_HUB_OFFLINE"] == "1"


def test_the_progress_bar_starts_after_the_models_are_loaded(monkeypatch):
    """Model loading stays outside the bar's ETA: spaCy and the encoder load before tqdm starts, then the stacks."""
    import tqdm.auto


    events: list[str] = []

    def recording(name, real):
        def load(*args, **kwargs):
            events.append(name)
            return real(*args, **kwargs)
        return load

    class Bar(tqdm.auto.tqdm):  # a subclass: huggingface_hub subclasses tqdm.auto.tqdm on import
        def __init__(self, *args, **kwargs):
            events.append("bar")
            super().__init__(*args, **kwargs)

    monkeypatch.setattr(resources, "load_spacy", recording("spacy", resources.load_spacy))
    monkeypatch.setattr(resources, "load_sentence_encoder", recording("encoder", resources.load_sentence_encoder))
    monkeypatch.setattr(tqdm.auto, "tqdm", Bar)
    items = load_demo()[:1]
    stacks = preference_stacks([COV1, COV3], items, progress=True)
    assert events[-1] == "bar" and {"spacy", "encoder"} <= set(events[:-1])
    assert_identical(list(preference_stacks([COV1, COV3], items)), list(stacks))


# -- errors and edge cases ----------------------------------------------------------------------------
REQUEST = GenerationRequest("q", "Why do cats purr?", ["Cats purr when they are content or stressed."])


GOOD = [GenerationResponse("a", "Cats purr when they are content [1]. They also purr when stressed."),
        GenerationResponse("b", "Purring is a sound. It is made by cats, lions do not purr.")]


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


def test_the_bar_counts_texts_and_moves_once_per_chunk_with_the_mean_rate(monkeypatch):
    """An honest ETA: the total is the number of texts, each update a whole chunk's texts, the rate the mean."""
    import tqdm.auto

    bars: list = []

    class Bar(tqdm.auto.tqdm):
        def __init__(self, *args, **kwargs):
            self.steps: list[int] = []
            self.options = kwargs
            bars.append(self)
            super().__init__(*args, **kwargs)

        def update(self, n=1):
            self.steps.append(n)
            return super().update(n)

    monkeypatch.setattr(tqdm.auto, "tqdm", Bar)
    monkeypatch.delenv("TQDM_DISABLE", raising=False)
    items = [(GenerationRequest(str(i), "q"), [GenerationResponse(str(k), "x") for k in range(2 + i % 2)])
             for i in range(7)]  # 2 or 3 responses: 17 texts
    stacks = list(preference_stacks([TopicNumber()], items, chunk_size=3, progress=True))
    assert len(stacks) == 7 and len(bars) == 1
    bar = bars[0]
    assert bar.total == 17 and bar.unit == "text" and bar.options["smoothing"] == 0
    assert bar.steps == [7, 8, 2] and bar.n == 17  # one update per chunk of 3 topics (2+3+2, 3+2+3, 2)


def test_the_reranker_shows_the_bar_for_long_work_unless_told(monkeypatch):
    """verbose=None (the default): a bar from PROGRESS_MIN_ITEMS texts on; verbose=False: never; True: always."""
    import pandas as pd
    import tqdm.auto

    from ir_rag_axioms.analysis import cache
    from ir_rag_axioms.pyterrier import AxiomaticReranker

    bars: list = []

    class Bar(tqdm.auto.tqdm):
        def __init__(self, *args, **kwargs):
            bars.append(kwargs.get("total"))
            super().__init__(*args, **kwargs)

    monkeypatch.setattr(tqdm.auto, "tqdm", Bar)
    frame = pd.DataFrame({"qid": ["1", "1", "2", "2"], "query": "q", "docno": ["a", "b", "a", "b"],
                          "text": ["one", "two", "three", "four"]})
    AxiomaticReranker(TopicNumber())(frame)
    assert bars == []  # 4 texts: below the default of 500
    monkeypatch.setattr(cache, "PROGRESS_MIN_ITEMS", 4)
    AxiomaticReranker(TopicNumber())(frame)
    AxiomaticReranker(TopicNumber(), verbose=False)(frame)
    monkeypatch.setattr(cache, "PROGRESS_MIN_ITEMS", 500)
    AxiomaticReranker(TopicNumber(), verbose=True)(frame)
    assert bars == [4, 4]
