"""Parallel analysis: spaCy features and large encoder jobs in worker processes, small encoder jobs on torch threads.

Work is split into the same units whatever the number of workers (spaCy: texts, each parsed alone of any other
state; encoder: batches formed here, whose matrix products torch splits over threads without changing their
sums), so 1 and N workers, threads or processes, give identical results. The forked processes belong to a
``WorkerPool`` that its owner (an ``Analysis``) starts on first use and closes (``Analysis.close()``, or when the
analysis is garbage collected); forking, unlike spawning, never re-runs the caller's script. Small spaCy jobs run
in-process.
"""

from __future__ import annotations

import contextlib
import multiprocessing
import os
import threading
from collections.abc import Callable, Iterable, Iterator, Sequence
from concurrent.futures import Executor, ProcessPoolExecutor
from functools import lru_cache
from typing import Any

import numpy as np

from ir_rag_axioms import settings
from ir_rag_axioms.analysis.features import Feature
from ir_rag_axioms.analysis.resources import load_sentence_encoder, load_spacy

MIN_TEXTS_PER_WORKER = 8
"""spaCy work below this many texts per worker runs in-process (a pool only pays for itself on larger jobs)."""

PROGRESS_MIN_ITEMS = 500
"""Batches of at least this many texts show a tqdm progress bar (set TQDM_DISABLE=1 to hide all bars)."""

_PIPES_FOR_NEED: dict[str, frozenset[str]] = {
    "lemmas": frozenset({"tok2vec", "tagger", "attribute_ruler", "lemmatizer"}),
    "parse": frozenset({"tok2vec", "tagger", "attribute_ruler", "lemmatizer", "parser"}),
    "ents": frozenset({"ner"}),
}
"""spaCy components per analysis need: lemmas (terms), parse (sentences, dependencies, noun chunks), ents."""


def pipes_for(needs: Iterable[str]) -> frozenset[str]:
    """The spaCy component names that produce the given needs (``lemmas``, ``parse``, ``ents``)."""
    pipes: set[str] = set()
    for need in needs:
        if need not in _PIPES_FOR_NEED:
            raise ValueError(f"unknown spaCy need {need!r}; use one of {sorted(_PIPES_FOR_NEED)}")
        pipes |= _PIPES_FOR_NEED[need]
    return frozenset(pipes)


def available_cores() -> int:
    """Cores this process may run on."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # pragma: no cover - not on Linux
        return os.cpu_count() or 1


def default_workers() -> int:
    """$IR_RAG_AXIOMS_WORKERS, else the available cores minus the load of other processes (at least 1).

    Other processes' load: the 1-minute load average less this process' own recent CPU use (``own_load()``, at
    least 1), so that the analysis' own threads never count as another job's and shrink its next call.
    """
    configured = settings.env_int(settings.WORKERS_ENV, 0, minimum=0)
    if configured:
        return configured
    cores = available_cores()
    try:
        load = os.getloadavg()[0]
    except OSError:  # pragma: no cover
        load = 0.0
    others = max(0, round(load - max(1.0, own_load())))
    return max(1, cores - others)


OWN_LOAD_WINDOW_S = 60.0
"""Seconds over which ``own_load()`` averages this process' CPU use (the load average's own time scale)."""
_own_samples: list[tuple[float, float]] = []


def own_load(now: float | None = None, cpu: float | None = None) -> float:
    """CPU seconds per second this process (all its threads) used over about the last ``OWN_LOAD_WINDOW_S``.

    Estimated from samples taken at each call (none yet, or less than a second apart: 1.0, one busy thread).
    """
    import time

    now = time.monotonic() if now is None else now
    if cpu is None:
        times = os.times()
        cpu = times.user + times.system
    _own_samples.append((now, cpu))
    while len(_own_samples) > 2 and now - _own_samples[1][0] >= OWN_LOAD_WINDOW_S:
        _own_samples.pop(0)
    first_wall, first_cpu = _own_samples[0]
    if now - first_wall < 1.0:
        return 1.0
    return max(0.0, (cpu - first_cpu) / (now - first_wall))


class WorkerPool:
    """Forked worker processes owned by one analysis: started on first use per worker count, stopped by ``close()``.

    Workers inherit the models loaded before the fork; a pool used in a forked child starts its own processes.
    """

    def __init__(self) -> None:
        """An empty pool: no process runs until ``executor()`` is first called."""
        self._executors: dict[int, Executor] = {}
        self._pid = os.getpid()
        self._lock = threading.Lock()

    def __repr__(self) -> str:
        return f"WorkerPool(running={sorted(self._executors)})"

    def running(self) -> list[int]:
        """The worker counts with started processes."""
        return sorted(self._executors)

    def executor(self, workers: int) -> Executor:
        """The executor of ``workers`` processes, forked on first use (they inherit the models loaded so far)."""
        with self._lock:
            if self._pid != os.getpid():  # inherited through a fork: those processes are the parent's
                self._executors, self._pid = {}, os.getpid()
            if workers not in self._executors:
                # Forked workers start at once and share the loaded pipelines and encoders; torch runs with one
                # thread in them (as in PyTorch's own DataLoader workers), which makes forking after torch safe.
                context = multiprocessing.get_context("fork")
                self._executors[workers] = ProcessPoolExecutor(workers, mp_context=context,
                                                               initializer=_init_worker)
            return self._executors[workers]

    def close(self) -> None:
        """Stop every worker process of this pool (a later job starts new ones)."""
        with self._lock:
            executors, self._executors = self._executors, {}
            if self._pid != os.getpid():
                return
        for executor in executors.values():
            executor.shutdown(wait=True, cancel_futures=True)


def _init_worker() -> None:
    os.environ["TOKENIZERS_PARALLELISM"] = "false"
    os.environ["TQDM_DISABLE"] = "1"
    try:
        import torch

        torch.set_num_threads(1)
    except ImportError:  # pragma: no cover - the encoder is optional
        pass


def _shards(items: Sequence[Any], size: int) -> list[Sequence[Any]]:
    return [items[i:i + size] for i in range(0, len(items), size)]


# -- spaCy --------------------------------------------------------------------------------------------------
@lru_cache(maxsize=64)
def spacy_version(model: str) -> str:
    """The versions of spaCy and of the installed pipeline package (part of persistent feature keys).

    Read from the package metadata, so that a run served from the persistent store never loads the pipeline.
    """
    from importlib import metadata

    from ir_rag_axioms.analysis.resources import spacy_candidates

    for candidate in spacy_candidates(model):
        try:
            return f"spacy{metadata.version('spacy')}/{candidate}-{metadata.version(candidate)}"
        except metadata.PackageNotFoundError:
            continue
    meta = load_spacy(model).meta  # a pipeline given by path: its own meta
    return f"spacy{metadata.version('spacy')}/{meta.get('name')}-{meta.get('version')}"


def use_pool(texts: int, workers: int) -> bool:
    """Whether spaCy work on this many texts goes to worker processes (else it runs in-process)."""
    return workers > 1 and texts >= 2 * MIN_TEXTS_PER_WORKER


def feature_values(model: str, features: Sequence[Feature], texts: Sequence[str], batch_size: int,
                   workers: int, pool: WorkerPool) -> list[tuple[Any, ...]]:
    """For each text, the values of ``features`` from one parse with the union of their needs, in ``pool``'s workers."""
    load_spacy(model)  # load before forking, so that workers inherit the pipeline
    rounds = max(1, min(4, len(texts) // (workers * MIN_TEXTS_PER_WORKER)))  # up to 4 shards per worker
    size = -(-len(texts) // (workers * rounds))  # equal shards: 20 texts on 2 workers are 10 + 10, not 8 + 8 + 4
    executor = pool.executor(workers)
    futures = [executor.submit(_feature_shard, model, tuple(features), list(s), batch_size)
               for s in _shards(texts, size)]
    return [values for future in futures for values in future.result()]


SPACY_LOCK = threading.RLock()
"""Held while this process's spaCy pipelines parse: a memory zone (``transient``) must see no other parse."""


@contextlib.contextmanager
def transient(nlp: Any) -> Iterator[None]:
    """A block whose parses leave nothing behind in the pipeline: spaCy's memory zone, then the lemmatizer's cache.

    Every new word of a text adds strings and lexemes to the pipeline's vocabulary and an entry to the lemmatizer's
    cache, which are never freed: a process that analyses ever new texts grows without bound (about 4 MB per 600
    responses) whatever the analysis' own bound. Inside the zone they are transient, freed when it ends, so a Doc
    made here must not outlive the block: only the plain feature values computed from it leave it.
    """
    with SPACY_LOCK:
        zone = getattr(nlp, "memory_zone", None)
        if zone is None or nlp.vocab.in_memory_zone:  # spaCy < 3.8, or already in one: zones do not nest
            yield
            return
        try:
            with zone():
                yield
        finally:
            for _, pipe in nlp.pipeline:
                cache = getattr(pipe, "cache", None)
                if isinstance(cache, dict):  # the lemmatizer's (orth, pos, morph) -> lemmas, keyed by freed strings
                    cache.clear()


def feature_rows(model: str, features: Sequence[Feature], texts: Sequence[str], batch_size: int) -> list[tuple]:
    """For each text, the values of ``features`` from one parse with the union of their needs, in this process.

    The parse runs in a memory zone (``transient``): the Docs are dropped, nothing stays in the pipeline.
    """
    return _feature_shard(model, tuple(features), list(texts), batch_size)


WARM_UP_TEXT = "Marie Curie did not live in Paris in 1890, but she lived there in 1900."
"""Parsed once per pipeline and features outside a memory zone: what a feature loads on first use (negspaCy's
component and its patterns) is then made with lasting strings, not with strings a zone frees."""
_WARMED: set[tuple[str, tuple[Feature, ...], frozenset[str]]] = set()


def parse_grouped(nlp: Any, fresh: Sequence[str], pipes: frozenset[str], cached: dict[str, tuple[frozenset[str], Any]],
                  batch_size: int, limit_of: Callable[[], int]) -> Iterator[tuple[str, frozenset[str], Any]]:
    """(text, components, Doc) per text, parsed grouped by ``pipes`` | its cached components; too long -> ""."""
    for done in {pipes | cached.get(t, (frozenset(), None))[0] for t in fresh}:
        batch = [t for t in fresh if pipes | cached.get(t, (frozenset(), None))[0] == done]
        disable = [name for name in nlp.pipe_names if name not in done]
        limit = limit_of()
        inputs = [str(t) if len(t) <= limit else "" for t in batch]  # np.str_: spaCy takes str only
        for text, doc in zip(batch, nlp.pipe(inputs, disable=disable, batch_size=batch_size), strict=True):
            yield text, done, doc


def _feature_shard(model: str, features: tuple[Feature, ...], texts: list[str], batch_size: int) -> list[tuple]:
    nlp = load_spacy(model)
    pipes = pipes_for(need for f in features for need in f.needs)
    disable = [name for name in nlp.pipe_names if name not in pipes]
    with SPACY_LOCK:
        if (model, features, pipes) not in _WARMED:
            warm = next(iter(nlp.pipe([WARM_UP_TEXT], disable=disable)))
            for feature in features:
                feature(warm)
            _WARMED.add((model, features, pipes))
    with transient(nlp):
        docs = nlp.pipe(map(str, texts), disable=disable, batch_size=batch_size)  # np.str_: spaCy takes str only
        docs = _progress(docs, len(texts), f"spaCy {model} ({', '.join(sorted(pipes & set(nlp.pipe_names)))})")
        return [tuple(feature(doc) for feature in features) for doc in docs]


def _progress(iterable: Any, total: int, desc: str) -> Any:
    if total < PROGRESS_MIN_ITEMS or os.environ.get("TQDM_DISABLE"):  # read now: tqdm reads it only on import
        return iterable
    from tqdm.auto import tqdm

    return tqdm(iterable, total=total, desc=desc, leave=False)


# -- sentence encoder ---------------------------------------------------------------------------------------
@lru_cache(maxsize=1)
def encoder_version() -> str:
    """sentence-transformers' and torch's versions (part of persistent embedding keys)."""
    from importlib import metadata

    return f"st{metadata.version('sentence-transformers')}/torch{metadata.version('torch')}"


MIN_BATCHES_PER_WORKER = 4
"""CPU encoder jobs of at least this many batches per worker run their batches in the worker processes."""


def encode(model: str, strings: Sequence[str], batch_size: int, workers: int, device: str = "cpu",
           precision: str = "float32", pool: WorkerPool | None = None) -> list[np.ndarray]:
    """Unit-length float32 vectors of ``strings`` on ``device``, batches formed here by length (longest first).

    On CPU, a job of at least ``MIN_BATCHES_PER_WORKER`` batches per worker with a ``pool`` runs its batches in the
    pool's ``workers`` processes, one torch thread each, each batch a task taken by the next free worker; smaller jobs
    run on ``workers`` torch threads in this process. Each batch is the same matrix products on every route, so the
    vectors are bit-identical at one thread; another thread count may change their last bits (below 1e-6) where MKL
    picks other kernels for it, unless MKL_CBWR=AUTO,STRICT is set before torch loads.
    Processes for large jobs: torch's threads run in lockstep, so on cores shared with other work one descheduled
    thread stalls the other (measured for 320 sentences on 2 cores at load 9: 2 threads 87 s and 18.7 CPU seconds,
    1 thread 21 s and 4.1, 2 processes 18 s and 4.6). ``precision`` float16/bfloat16 runs the model in half
    precision; the vectors are returned as float32.
    """
    order = sorted(range(len(strings)), key=lambda i: (-len(strings[i]), i))
    batches = [[strings[i] for i in chunk] for chunk in _shards(order, batch_size)]
    if pool is not None and device == "cpu" and workers > 1 and len(batches) >= workers * MIN_BATCHES_PER_WORKER:
        executor = pool.executor(workers)
        futures = [executor.submit(_encode_in_worker, model, batch, precision) for batch in batches]
        encoded = [future.result() for future in futures]
    else:
        on = {} if (device, precision) == ("cpu", "float32") else {"device": device, "precision": precision}
        encoded = _encode_batches(model, batches, threads=workers, **on)
    out: list[np.ndarray] = [np.empty(0, np.float32)] * len(strings)
    for chunk, vectors in zip(_shards(order, batch_size), encoded, strict=True):
        for index, vector in zip(chunk, vectors, strict=True):
            out[index] = vector
    return out


def _encode_in_worker(model: str, batch: list[str], precision: str) -> np.ndarray:
    """One batch's vectors in a worker process (one torch thread: ``_init_worker``)."""
    on = {} if precision == "float32" else {"device": "cpu", "precision": precision}
    return _encode_batches(model, [batch], threads=1, **on)[0]


def _encode_batches(model: str, batches: Sequence[Sequence[str]], threads: int = 1, device: str = "cpu",
                    precision: str = "float32") -> list[np.ndarray]:
    encoder = load_sentence_encoder(model, device, precision)
    with torch_threads(threads):
        return [_unit_float32(encoder.encode(list(batch), batch_size=len(batch), convert_to_numpy=True,
                                             normalize_embeddings=True, show_progress_bar=False),
                              renormalise=precision != "float32")
                for batch in batches]


def _unit_float32(vectors: Any, renormalise: bool) -> np.ndarray:
    """Vectors as float32; ``renormalise``: scaled to unit length in float32 (after a half-precision model)."""
    out = np.asarray(vectors, dtype=np.float32)
    if renormalise and len(out):
        out /= np.maximum(np.linalg.norm(out, axis=1, keepdims=True), np.float32(1e-12))
    return out


@contextlib.contextmanager
def torch_threads(threads: int = 1) -> Iterator[None]:
    """Run torch with $IR_RAG_AXIOMS_TORCH_THREADS threads (unset: ``threads``), then restore the previous setting.

    ``threads`` is the analysis' worker count, which counts only cores not busy with other work: with a busy
    machine torch's spinning threads slow it down tenfold.
    """
    import torch

    wanted = settings.torch_threads(threads)
    previous = torch.get_num_threads()
    if wanted > 0 and wanted != previous:
        torch.set_num_threads(wanted)
    try:
        yield
    finally:
        if wanted > 0 and wanted != previous:
            torch.set_num_threads(previous)
