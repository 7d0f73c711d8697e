"""Preference stacks for many requests with bounded memory: in chunks of topics locally, or on a pool of Ray actors.

Both backends give identical matrices: each chunk of topics gets one batched analysis pass (``analyse``) in the
analysis in effect (the given one, else an enclosing ``with`` block's, else the process default), whose LRU bound
keeps peak memory flat whatever the number of topics, while the texts of recent chunks stay for the next call (a
second aggregation, another pipeline of a ``pt.Experiment``, a re-run cell) so that it analyses nothing again.
The Ray backend sends the chunks round-robin to ``workers`` actors (each loads the models once)
with at most ``IN_FLIGHT_PER_WORKER`` chunks per actor queued, and yields the stacks in input order.
``compute_preferences`` gives named axioms' matrices through the matrix cache of a directory (what the evaluation and
a learned axiom's ``fit`` compute).
"""

from __future__ import annotations

import itertools
import os
import sys
import warnings
from collections import deque
from collections.abc import Iterable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any, Literal, cast, get_args

import numpy as np

from ir_rag_axioms import settings
from ir_rag_axioms.analysis.cache import Analysis, default_analysis
from ir_rag_axioms.axioms.base import Axiom, Item, analyse, check_responses
from ir_rag_axioms.model import GenerationRequest, GenerationResponse

Backend = Literal["local", "ray"]
"""Where the matrices are computed: this process (``local``) or a pool of Ray actors (``ray``)."""
BACKENDS: tuple[str, ...] = get_args(Backend)
IN_FLIGHT_PER_WORKER = 2
"""Chunks submitted per Ray actor before the driver waits for the oldest one (bounds the driver's memory)."""
RAY_INSTALL_HINT = "pip install ir_rag_axioms[ray]"
CheckedItem = tuple[GenerationRequest, list[GenerationResponse]]
"""An item after ``_checked``: the responses as a list of GenerationResponse."""


def preference_stacks(
    axioms: Sequence[Axiom], items: Iterable[Item], *, backend: Backend = "local",
    chunk_size: int = 16, workers: int | None = None, ray_address: str | None = None,
    analysis: Analysis | None = None, progress: bool = False,
) -> Iterator[np.ndarray]:
    """For each (request, responses) item in input order, the (k, n, n) stack of the k axioms' preference matrices.

    ``local``: chunks of ``chunk_size`` topics, each analysed in one batched pass inside ``analysis``, else the
    analysis in effect (``default_analysis()``: bounded, kept for later calls). ``ray``: the chunks go to
    ``workers`` Ray actors (default: the CPUs Ray reports) of the cluster at ``ray_address`` or ``$RAY_ADDRESS``,
    else of a local Ray started (and stopped) here. Lazy: items are read one chunk ahead (Ray: a bounded window ahead).
    """
    axioms = _check_arguments(axioms, backend, chunk_size, workers, analysis)
    total = _texts(items) if progress else None
    chunks = _chunks(items, chunk_size)
    per_chunk: Iterable[list[np.ndarray]]
    if backend == "local":
        per_chunk = (_chunk_stacks(axioms, chunk, analysis) for chunk in chunks)
    else:
        per_chunk = _ray_stacks(axioms, chunks, _import_ray(), workers, ray_address)
    if not progress:
        return itertools.chain.from_iterable(per_chunk)
    if backend == "local":
        _load_models(axioms, analysis)  # before the bar starts: its ETA then covers the analysis only
    from tqdm.auto import tqdm

    hidden = bool(os.environ.get("TQDM_DISABLE"))  # read now: tqdm reads it only on import
    return _counted(per_chunk, tqdm(total=total, desc="axioms", unit="text", smoothing=0, disable=hidden))


def _counted(per_chunk: Iterable[list[np.ndarray]], bar: Any) -> Iterator[np.ndarray]:
    """The stacks, with the bar counting texts (responses), moved once per chunk when the chunk is done.

    The bar's rate is the mean since its start (``smoothing=0``), so its ETA is elapsed / done x left: a chunk's
    stacks arrive together, and a bar moved per topic would show the first topic's ETA (the whole chunk's time
    for one topic) until the next chunk.
    """
    try:
        for stacks in per_chunk:
            bar.update(sum(int(stack.shape[-1]) for stack in stacks))
            yield from stacks
    finally:
        bar.close()


def _load_models(axioms: Sequence[Axiom], analysis: Analysis | None) -> None:
    """Load the spaCy pipelines and sentence encoders the axioms read (on the analysis' device and precision).

    A model that fails to load is skipped here: the axiom reports it where it loads it (error or abstention).
    """
    from ir_rag_axioms.analysis.resources import load_sentence_encoder, load_spacy

    analysis = analysis or default_analysis()
    for reads in dict.fromkeys(r for axiom in axioms for r in axiom.reads()):
        try:
            if reads.request or reads.responses or reads.context:
                load_spacy(reads.model)
            if reads.encoder:
                load_sentence_encoder(reads.encoder, analysis.encoder_device(), analysis.encoder_precision())
        except Exception:  # noqa: BLE001, S112 - reported by the axiom at its first use
            continue


def _check_arguments(
    axioms: Sequence[Axiom], backend: str, chunk_size: int, workers: int | None, analysis: Analysis | None
) -> list[Axiom]:
    """The axioms as a non-empty list, after checking the options.

    ValueError on an unknown backend, chunk_size < 1, workers < 1, or analysis with Ray.
    """
    if backend not in BACKENDS:
        raise ValueError(f"unknown backend {backend!r}; use one of {BACKENDS}")
    if isinstance(axioms, Axiom):
        axioms = [axioms]
    axioms = list(axioms)
    if not axioms:
        raise ValueError("need at least one axiom")
    for axiom in axioms:
        if not isinstance(axiom, Axiom):
            raise TypeError(f"expected Axiom instances, got {type(axiom).__name__}: {axiom!r}")
    if isinstance(chunk_size, bool) or not isinstance(chunk_size, int) or chunk_size < 1:
        raise ValueError(f"chunk_size must be an integer >= 1, got {chunk_size!r}")
    if workers is not None and (isinstance(workers, bool) or not isinstance(workers, int) or workers < 1):
        raise ValueError(f"workers must be an integer >= 1 (or None: all CPUs), got {workers!r}")
    if analysis is not None and backend != "local":
        raise ValueError("analysis= is shared in this process only; use it with backend='local'")
    return axioms


def _chunks(items: Iterable[Item], size: int) -> Iterator[list[CheckedItem]]:
    """Consecutive lists of ``size`` checked items (the last one shorter), read lazily."""
    iterator = iter(items)
    while chunk := list(itertools.islice(iterator, size)):
        yield [_checked(item) for item in chunk]


def _checked(item: Item) -> CheckedItem:
    """(request, responses as a list); TypeError on a non-request, ValueError on duplicate response ids."""
    request, responses = item
    if not isinstance(request, GenerationRequest):
        raise TypeError(f"expected GenerationRequest, got {type(request).__name__}")
    return request, check_responses(responses)


def _texts(items: Iterable[Item]) -> int | None:
    """The number of responses of all items if ``items`` is a sequence (the bar's total), else None (unknown)."""
    if not isinstance(items, Sequence):
        return None
    return sum(len(responses) if isinstance(responses, Sequence) else 0 for _, responses in items)


def _chunk_stacks(
    axioms: Sequence[Axiom], chunk: Sequence[CheckedItem], analysis: Analysis | None = None,
) -> list[np.ndarray]:
    """One chunk's stacks: ``analyse`` in ``analysis``, then the matrices.

    Without ``analysis``: the one of an enclosing ``with`` block, else the process default (bounded LRU).
    """
    with analysis or default_analysis() as current:
        analyse(axioms, chunk, current)
        return [_stack(axioms, request, responses, current) for request, responses in chunk]


def _stack(axioms: Sequence[Axiom], request: GenerationRequest, responses: list[GenerationResponse],
           analysis: Analysis) -> np.ndarray:
    """The (k, n, n) float64 stack of the axioms' matrices; (k, 0, 0) for no responses.

    Assumes the analysis is prefetched.
    """
    if not responses:
        return np.zeros((len(axioms), 0, 0))
    return np.stack([np.asarray(axiom.matrix(request, responses, analysis), dtype=np.float64) for axiom in axioms])


# -- Ray ------------------------------------------------------------------------------------------------------
def _import_ray() -> Any:
    """The ``ray`` module; ImportError naming the extra to install if it is missing."""
    try:
        import ray
    except ImportError as error:
        raise ImportError(f"backend='ray' needs Ray: {RAY_INSTALL_HINT} (or pip install ray)") from error
    return ray


class StackWorker:
    """A Ray actor's state: the axioms.

    Models load once per actor; the chunks share the actor's default analysis (bounded memory).
    """

    def __init__(self, axioms: Sequence[Axiom]) -> None:
        self.axioms = list(axioms)

    def stacks(self, chunk: list[CheckedItem]) -> list[np.ndarray]:
        """The chunk's (k, n, n) stacks, as the local backend computes them."""
        return _chunk_stacks(self.axioms, chunk)


def _ray_stacks(
    axioms: list[Axiom], chunks: Iterator[list[CheckedItem]], ray: Any, workers: int | None, address: str | None
) -> Iterator[list[np.ndarray]]:
    """Each chunk's stacks, in input order, from a pool of actors.

    Ray is started here (and stopped afterwards) unless already running.
    """
    started = _ray_start(ray, address, workers)
    actors: list[Any] = []
    try:
        count = workers or max(1, int(ray.cluster_resources().get("CPU", 1)))
        shared = ray.put(axioms)
        worker = ray.remote(StackWorker).options(num_cpus=1, runtime_env={"env_vars": worker_environment()})
        actors = [worker.remote(shared) for _ in range(count)]
        yield from _ordered_results(ray, actors, chunks)
    finally:
        for actor in actors:
            ray.kill(actor)
        if started:
            ray.shutdown()


def _ray_start(ray: Any, address: str | None, workers: int | None) -> bool:
    """Join or start Ray; False if Ray was already running.

    Join ``address`` (else ``$RAY_ADDRESS``) or start a local Ray with ``workers`` CPUs.
    """
    if ray.is_initialized():
        return False
    address = address or settings.env_text("RAY_ADDRESS")
    if address:
        _check_reachable(address)
        ray.init(address=address, log_to_driver=False)
    else:
        ray.init(num_cpus=workers or os.cpu_count() or 1, include_dashboard=False, log_to_driver=False)
    return True


RAY_CONNECT_TIMEOUT_ENV = "IR_RAG_AXIOMS_RAY_CONNECT_TIMEOUT"
"""Seconds to wait for a Ray cluster's address to accept a connection (default 10) before ``ray.init``."""


def _check_reachable(address: str) -> None:
    """ConnectionError within the connect timeout if a ``host:port`` (or ``ray://host:port``) address is unreachable.

    ``auto``/``local`` and addresses without a port are left to Ray (they name a cluster on this machine).
    """
    import socket
    import urllib.parse

    target = address if "://" in address else f"tcp://{address}"
    parsed = urllib.parse.urlsplit(target)
    try:
        host, port = parsed.hostname, parsed.port
    except ValueError:
        raise ValueError(f"ray_address {address!r} is not host:port (e.g. 10.0.0.5:6379 or ray://head:10001)") from None
    if not host or port is None:
        return
    timeout = settings.env_float(RAY_CONNECT_TIMEOUT_ENV, 10.0, minimum=0.1)
    try:
        with socket.create_connection((host, port), timeout=timeout) as connection:
            connection.settimeout(timeout)
            connection.sendall(_HTTP2_PREFACE)  # Ray's GCS (and Ray Client) speak gRPC: HTTP/2 answers SETTINGS
            reply = connection.recv(9)
        if len(reply) < 9 or reply[3] != 0x04:
            raise OSError(f"it does not answer as a Ray (gRPC) server: {reply[:9]!r}")
    except OSError as error:
        reason = "no answer" if isinstance(error, TimeoutError) else str(error)
        raise ConnectionError(f"cannot reach the Ray cluster at {address!r} within {timeout:g} s ({reason}); start "
                              f"it (ray start --head) or fix ray_address/$RAY_ADDRESS (wait longer: "
                              f"{RAY_CONNECT_TIMEOUT_ENV})") from error


_HTTP2_PREFACE = b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n" + b"\x00\x00\x00\x04\x00\x00\x00\x00\x00"
"""The HTTP/2 client connection preface and an empty SETTINGS frame; a server's first frame is its SETTINGS."""


def _ordered_results(
    ray: Any, actors: list[Any], chunks: Iterator[list[CheckedItem]],
) -> Iterator[list[np.ndarray]]:
    """Chunk i to actor i mod #actors, at most IN_FLIGHT_PER_WORKER * #actors pending; results in submission order."""
    pending: deque[Any] = deque()
    for index, chunk in enumerate(chunks):
        pending.append(actors[index % len(actors)].stacks.remote(chunk))
        if len(pending) >= IN_FLIGHT_PER_WORKER * len(actors):
            yield ray.get(pending.popleft())
    while pending:
        yield ray.get(pending.popleft())


def worker_environment() -> dict[str, str]:
    """Environment of the actors.

    Offline models, one torch/OpenMP thread and spaCy process, and the driver's import path.
    """
    env = {name: os.environ.get(name, "1") for name in ("HF_HUB_OFFLINE", "TRANSFORMERS_OFFLINE")}
    env.update(IR_RAG_AXIOMS_TORCH_THREADS="1", OMP_NUM_THREADS="1", IR_RAG_AXIOMS_WORKERS="1",
               TOKENIZERS_PARALLELISM="false", TQDM_DISABLE="1", PYTHONPATH=os.pathsep.join(driver_import_path()))
    return env


def driver_import_path() -> list[str]:
    """This package's root, then the driver's sys.path folders outside the interpreter.

    So actors import the same code.
    """
    prefixes = tuple(str(Path(p).resolve()) for p in {sys.prefix, sys.base_prefix, sys.exec_prefix})
    paths = [str(Path(__file__).resolve().parents[1])]  # this file is ir_rag_axioms/execution.py
    for entry in sys.path:
        path = str(Path(entry or os.getcwd()).resolve())
        if Path(path).is_dir() and not path.startswith(prefixes) and path not in paths:
            paths.append(path)
    paths += [p for p in os.environ.get("PYTHONPATH", "").split(os.pathsep) if p and p not in paths]
    return paths


def compute_preferences(
    axioms: Mapping[str, Any], items: Sequence, progress: bool = False, cache_dir: str | os.PathLike | None = None,
    **execution: Any,
) -> dict[str, list[np.ndarray]]:
    """Name -> one matrix per item, computed together in chunks of topics.

    Computed by ``execution.preference_stacks``
    (``analysis``, ``backend``, ``chunk_size``, ``workers``, ``ray_address``); reused from / stored in the matrix cache
    of ``cache_dir`` (``analysis.matrices.MatrixCache``, per axiom and item: only missing items are computed); an
    axiom whose tool is unavailable (e.g. CLAR1 without LanguageTool) is skipped with a warning; when every one
    is, ToolUnavailableError (nothing to evaluate).
    """
    from ir_rag_axioms.analysis.cache import axiom_identity, item_key
    from ir_rag_axioms.analysis.matrices import MatrixCache
    from ir_rag_axioms.axioms._training import warn_in_sample

    items = list(items)
    warn_in_sample(list(axioms.values()), [request for request, _ in items], "evaluation")
    cache = MatrixCache(cache_dir) if cache_dir else None
    keys = [item_key(request, responses) for request, responses in items] if cache else []
    identities = {name: axiom_identity(axiom) for name, axiom in axioms.items()} if cache else {}
    stored: dict[str, list[np.ndarray | None]] = {
        name: cache.load(axiom, items, identity=identities[name], keys=keys) if cache else [None] * len(items)
        for name, axiom in axioms.items()}
    needed = [name for name in axioms if not items or any(m is None for m in stored[name])]
    skipped = {name for name in needed if not _usable(name, axioms[name])}
    if axioms and len(skipped) == len(axioms):
        from ir_rag_axioms.analysis.resources import ToolUnavailableError

        raise ToolUnavailableError(f"every axiom was skipped, their tools are unavailable ({', '.join(sorted(skipped))}"
                                   "; the warnings say why): nothing to compute; provide the tools or choose others")
    todo = {name: axioms[name] for name in needed if name not in skipped}
    _fill_missing(todo, items, stored, cache, identities, keys, progress, execution)
    return {name: cast(list[np.ndarray], stored[name]) for name in axioms if name not in skipped}


def _fill_missing(
    todo: Mapping[str, Any], items: list, stored: dict[str, list[np.ndarray | None]], cache: Any,
    identities: dict[str, Any], keys: list, progress: bool, execution: dict[str, Any],
) -> None:
    """Compute the items missing for any axiom of ``todo`` into ``stored``; save the new ones to ``cache``."""
    missing = sorted({k for name in todo for k, m in enumerate(stored[name]) if m is None})
    if not (todo and missing):
        return
    computed: dict[str, list[np.ndarray]] = {name: [] for name in todo}
    for stack in preference_stacks(list(todo.values()), [items[k] for k in missing], progress=progress,
                                   **execution):
        for n, name in enumerate(todo):
            computed[name].append(stack[n])
    for name, axiom in todo.items():
        new = [(k, m) for k, m in zip(missing, computed[name], strict=True) if stored[name][k] is None]
        for k, m in new:
            stored[name][k] = m
        if cache is not None and new:
            cache.save(axiom, [items[k] for k, _ in new], [m for _, m in new], identity=identities[name],
                       keys=[keys[k] for k, _ in new])


def _usable(name: str, axiom: Any) -> bool:
    """Whether the axiom's tools are available (checked by its ``prefetch`` on no items); warn and skip it if not."""
    from ir_rag_axioms.analysis.cache import Analysis
    from ir_rag_axioms.analysis.resources import ToolUnavailableError

    try:
        axiom.prefetch([], Analysis(store=None))  # no items: only the tools' availability is checked
    except ToolUnavailableError as error:
        warnings.warn(f"skipped {name}: {error}", stacklevel=3)
        return False
    return True
