"""DiskStore: round trips, batching, processes and threads, damaged rows and files, unwritable paths, size limit."""

from __future__ import annotations

import math
import multiprocessing
import os
import pickle
import sqlite3
import threading
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from ir_rag_axioms.analysis import store as store_module
from ir_rag_axioms.analysis.store import (
    FILE_NAME,
    DiskStore,
    StoreWarning,
    default_store,
    namespace,
    parse_max_bytes,
    text_key,
)

_CONNECT = sqlite3.connect


@pytest.fixture
def store(tmp_path: Path) -> Iterator[DiskStore]:
    """A fresh store in a temporary directory."""
    opened = DiskStore(tmp_path / "cache")
    yield opened
    opened.close()


def _raw(store: DiskStore) -> sqlite3.Connection:
    """A separate connection to the store's file, for tampering."""
    return _CONNECT(store.file, isolation_level=None)


def _assert_consistent(store: DiskStore) -> None:
    """The running byte total and the usage table match the entries."""
    with _raw(store) as raw:
        count, total = raw.execute("SELECT COUNT(*), COALESCE(SUM(length(value)), 0) FROM entries").fetchone()
        usage = raw.execute("SELECT COUNT(*) FROM usage JOIN entries USING (id)").fetchone()[0]
    assert (len(store), store.size_bytes(), usage) == (count, total, count)


def _same(a: Any, b: Any) -> bool:
    """Equality that also compares types (tuple vs list), arrays and NaN."""
    if isinstance(a, np.ndarray):
        return isinstance(b, np.ndarray) and a.dtype == b.dtype and np.array_equal(a, b, equal_nan=a.dtype.kind in "fc")
    if type(a) is not type(b):
        return False
    if isinstance(a, (list, tuple)):
        return len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b, strict=True))
    if isinstance(a, dict):
        return list(a) == list(b) and all(_same(a[k], b[k]) for k in a)
    if isinstance(a, float) and math.isnan(a):
        return math.isnan(b)
    return a == b


# -- keys and namespaces ------------------------------------------------------------------------------


def test_text_key_is_a_fixed_content_address() -> None:
    assert text_key("") == "0e5751c026e543b2e8ab2eb06099daa1d1e5df47778f7787faab45cdf12fe3a8"
    assert text_key("a") != text_key("a ")
    assert len(text_key("lone \ud800 surrogate")) == 64


def _namespace_in_child(queue: Any) -> None:
    queue.put(namespace("spacy", "en_core_web_sm", "3.8.0", {"b": 1, "a": [1.5, None]}, (2, True)))


def test_namespace_is_canonical_and_the_same_in_another_process() -> None:
    here = namespace("spacy", "en_core_web_sm", "3.8.0", {"a": [1.5, None], "b": 1}, (2, True))
    context = multiprocessing.get_context("spawn")
    queue = context.Queue()
    child = context.Process(target=_namespace_in_child, args=(queue,))
    child.start()
    there = queue.get(timeout=60)
    child.join(60)
    assert here == there
    assert namespace("a", "b") != namespace("a,b") != namespace("ab")
    with pytest.raises(TypeError, match="object"):
        namespace("tool", object())


# -- values -----------------------------------------------------------------------------------------


VALUES = [
    np.arange(384, dtype=np.float32) / 7,
    np.arange(6, dtype=np.int64).reshape(2, 3),
    np.asfortranarray(np.arange(12, dtype=np.float64).reshape(3, 4)),
    np.array([True, False]),
    np.array(7, dtype=np.uint8),
    np.zeros((0, 5), dtype=np.float16),
    np.array([1 + 2j, np.nan], dtype=np.complex128),
    np.array(["ab", "c"]),
    None,
    True,
    0,
    -(2**70),
    1.5,
    float("nan"),
    float("inf"),
    -float("inf"),
    "",
    "héllo \ud800 wörld",
    [],
    ["lemma", "list", "of", "strings"],
    (1, 2.5, "x", None),
    (),
    [("span", 0, 4), ("span", 5, 9)],
    {"t": [1], "d": ("not", "a", "marker"), "x": {"nested": [float("-inf")]}},
    {},
]


@pytest.mark.parametrize("value", VALUES, ids=[f"{type(v).__name__}-{i}" for i, v in enumerate(VALUES)])
def test_values_round_trip_with_their_types(store: DiskStore, value: Any) -> None:
    store.put("ns", "k", value)
    assert _same(value, store.get("ns", "k"))
    reopened = DiskStore(store.directory)
    assert _same(value, reopened.get("ns", "k"))
    reopened.close()


@pytest.mark.parametrize(
    ("value", "name"),
    [
        (np.array([object()]), "dtype object"),
        ({1, 2}, "set"),
        (b"bytes", "bytes"),
        (np.float32(1.0), "numpy.float32"),
        ([1, [2, object()]], "object"),
        ({1: "x"}, "int"),
        ([np.zeros(2)], "numpy.ndarray"),
    ],
)
def test_unsupported_values_raise_type_error_naming_the_type(store: DiskStore, value: Any, name: str) -> None:
    with pytest.raises(TypeError, match=name):
        store.put_many("ns", {"ok": 1, "bad": value})
    assert len(store) == 0


def test_keys_and_namespaces_must_be_strings(store: DiskStore) -> None:
    with pytest.raises(TypeError, match="text_key"):
        store.put("ns", 3, "x")  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="namespace"):
        store.get_many(("ns",), ["k"])  # type: ignore[arg-type]


def test_get_many_returns_only_found_keys(store: DiskStore) -> None:
    store.put_many("ns", {"a": 1, "b": [2]})
    assert store.get_many("ns", ["a", "missing", "a", "b"]) == {"a": 1, "b": [2]}
    assert store.get_many("ns", []) == {}
    assert store.get("ns", "missing", "default") == "default"
    store.put_many("ns", {})
    assert len(store) == 2


def test_namespaces_isolate_the_same_key(store: DiskStore) -> None:
    ns1, ns2 = namespace("encoder", "model-a"), namespace("encoder", "model-b")
    key = text_key("some text")
    store.put(ns1, key, np.ones(3, dtype=np.float32))
    store.put(ns2, key, np.zeros(3, dtype=np.float32))
    assert store.get(ns1, key).tolist() == [1, 1, 1]
    assert store.get(ns2, key).tolist() == [0, 0, 0]
    assert store.get("other", key) is None
    assert len(store) == 2


def test_replacing_a_value_keeps_the_byte_total_right(store: DiskStore) -> None:
    store.put("ns", "k", "x" * 100)
    assert store.size_bytes() == 102
    store.put("ns", "k", "y" * 10)
    assert store.get("ns", "k") == "y" * 10
    assert (len(store), store.size_bytes()) == (1, 12)
    _assert_consistent(store)
    store.clear()
    assert (len(store), store.size_bytes(), store.get("ns", "k")) == (0, 0, None)


def test_many_entries_in_one_transaction_and_one_query(store: DiskStore) -> None:
    values = {text_key(str(i)): [f"w{i}", i] for i in range(50_000)}
    statements: list[str] = []
    store.put("ns", "warm-up", 0)
    store._conn.set_trace_callback(statements.append)  # type: ignore[union-attr]
    store.put_many("ns", values)
    assert sum(s.startswith("BEGIN") for s in statements) == 1
    statements.clear()
    assert store.get_many("ns", list(values)) == values
    assert len(statements) <= 6  # one SELECT; BEGIN, clock, one UPDATE, COMMIT
    assert len(store) == 50_001


# -- concurrency ------------------------------------------------------------------------------------


def _value_of(key: str) -> Any:
    number = int(key[1:])
    return np.full(16, number, dtype=np.float32) if number % 2 else [key, number, (number,)]


def _hammer(directory: str, worker: int, rounds: int) -> int:
    """Write and read overlapping keys; the number of wrong or missing values."""
    opened = DiskStore(directory)
    errors = 0
    for round_ in range(rounds):
        keys = [f"k{(worker * 7 + round_ * 13 + i) % 300}" for i in range(60)]
        opened.put_many("ns", {key: _value_of(key) for key in keys})
        found = opened.get_many("ns", keys)
        errors += sum(not _same(_value_of(key), found.get(key)) for key in keys)
    opened.close()
    return errors


def test_two_processes_write_and_read_the_same_keys(tmp_path: Path) -> None:
    directory = str(tmp_path / "cache")
    DiskStore(directory).close()
    with multiprocessing.get_context("spawn").Pool(2) as pool:
        errors = pool.starmap(_hammer, [(directory, 0, 40), (directory, 1, 40)])
    assert errors == [0, 0]
    opened = DiskStore(directory)
    found = opened.get_many("ns", [f"k{i}" for i in range(300)])
    assert found and all(_same(_value_of(key), value) for key, value in found.items())
    opened.close()


def test_threads_share_one_store(store: DiskStore) -> None:
    errors: list[int] = []
    threads = [
        threading.Thread(target=lambda w=w: errors.append(_hammer_shared(store, w))) for w in range(4)
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    assert errors == [0, 0, 0, 0]


def _hammer_shared(opened: DiskStore, worker: int) -> int:
    errors = 0
    for round_ in range(30):
        keys = [f"k{(worker * 5 + round_ * 11 + i) % 100}" for i in range(20)]
        opened.put_many("ns", {key: _value_of(key) for key in keys})
        found = opened.get_many("ns", keys)
        errors += sum(not _same(_value_of(key), found.get(key)) for key in keys)
    return errors


def _put_in_child(opened: DiskStore) -> None:
    opened.put("ns", "from-child", [os.getpid()])


@pytest.mark.skipif("fork" not in multiprocessing.get_all_start_methods(), reason="no fork on this platform")
def test_a_forked_child_opens_its_own_connection(store: DiskStore) -> None:
    store.put("ns", "from-parent", 1)
    child = multiprocessing.get_context("fork").Process(target=_put_in_child, args=(store,))
    child.start()
    child.join(60)
    assert child.exitcode == 0
    assert store.get("ns", "from-child") == [child.pid]
    store.put("ns", "after", 2)
    assert store.get_many("ns", ["from-parent", "after"]) == {"from-parent": 1, "after": 2}


def test_a_pickled_store_reopens_by_path(store: DiskStore) -> None:
    store.put("ns", "k", [1, 2])
    copy = pickle.loads(pickle.dumps(store))
    assert copy.get("ns", "k") == [1, 2] and copy.max_bytes == store.max_bytes
    copy.close()


# -- integrity --------------------------------------------------------------------------------------


def test_a_tampered_row_is_reported_deleted_and_missing(store: DiskStore) -> None:
    store.put_many("ns", {"a": np.arange(4.0), "b": "fine", "c": "also fine"})
    with _raw(store) as raw:
        raw.execute("UPDATE entries SET value = zeroblob(length(value)) WHERE key = 'a'")
        raw.execute("UPDATE entries SET value = 'text, not bytes' WHERE key = 'c'")
    with pytest.warns(StoreWarning, match=str(store.file)):
        found = store.get_many("ns", ["a", "b", "c"])
    assert found == {"b": "fine"}
    assert len(store) == 1
    _assert_consistent(store)
    store.put("ns", "a", np.arange(4.0))  # the caller recomputes
    assert store.get("ns", "a").tolist() == [0, 1, 2, 3]


def test_an_undecodable_row_with_a_valid_checksum_is_missing(store: DiskStore) -> None:
    store.put_many("ns", {"json": [1], "npy": np.ones(2), "tag": 1})
    rows = {"json": ("json", b'{"x": 1}'), "npy": ("npy", b"\x93NUMPY garbage"), "tag": ("pickle", b"\x80")}
    with _raw(store) as raw:
        for key, (tag, blob) in rows.items():
            raw.execute(
                "UPDATE entries SET tag = ?, value = ?, checksum = ? WHERE key = ?",
                (tag, blob, store_module._checksum(tag, blob), key),
            )
    with pytest.warns(StoreWarning, match="3 damaged entries"):
        assert store.get_many("ns", list(rows)) == {}
    assert len(store) == 0


def _fill(directory: Path, count: int) -> list[str]:
    opened = DiskStore(directory)
    keys = [text_key(str(i)) for i in range(count)]
    opened.put_many("ns", {key: np.full(64, i, dtype=np.float32) for i, key in enumerate(keys)})
    opened.close()
    return keys


def _assert_recovers(directory: Path, keys: list[str]) -> None:
    """Opening and using the damaged store warns, never raises, sets the file aside and then works."""
    with pytest.warns(StoreWarning, match="corrupt"):
        opened = DiskStore(directory)
        found = opened.get_many("ns", keys)
        len(opened)
    assert found == {}
    assert any(p.name.startswith(f"{FILE_NAME}.corrupt-") for p in directory.iterdir())
    opened.put("ns", "new", [1])
    assert opened.writable and opened.get("ns", "new") == [1] and len(opened) == 1
    opened.close()


def test_a_garbage_file_is_moved_aside(tmp_path: Path) -> None:
    directory = tmp_path / "cache"
    keys = _fill(directory, 100)
    (directory / FILE_NAME).write_bytes(os.urandom(50_000))
    _assert_recovers(directory, keys)


def test_a_truncated_file_is_moved_aside(tmp_path: Path) -> None:
    directory = tmp_path / "cache"
    keys = _fill(directory, 2000)
    file = directory / FILE_NAME
    os.truncate(file, file.stat().st_size // 2)
    _assert_recovers(directory, keys)


def test_an_empty_file_is_an_empty_store(tmp_path: Path) -> None:
    directory = tmp_path / "cache"
    directory.mkdir()
    (directory / FILE_NAME).write_bytes(b"")
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        opened = DiskStore(directory)
        assert len(opened) == 0
        opened.put("ns", "k", 1)
        assert opened.get("ns", "k") == 1
    opened.close()


def test_a_file_of_another_schema_version_is_left_alone(tmp_path: Path) -> None:
    directory = tmp_path / "cache"
    directory.mkdir()
    with _CONNECT(directory / FILE_NAME) as raw:
        raw.execute("PRAGMA user_version = 99")
    with pytest.warns(StoreWarning, match="schema version 99"):
        opened = DiskStore(directory)
    opened.put("ns", "k", 1)
    assert not opened.writable and opened.get("ns", "k") is None
    with _CONNECT(directory / FILE_NAME) as raw:
        assert raw.execute("PRAGMA user_version").fetchone()[0] == 99


# -- not writable -----------------------------------------------------------------------------------


@pytest.mark.parametrize("below", ["", "sub"])
def test_a_path_through_a_file_is_not_writable(tmp_path: Path, below: str) -> None:
    blocker = tmp_path / "a-file"
    blocker.write_text("not a directory")
    with pytest.warns(StoreWarning, match=str(blocker)):
        opened = DiskStore(blocker / below if below else blocker)
    assert not opened.writable
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # warned once only
        opened.put("ns", "k", 1)
        assert opened.get("ns", "k") is None and opened.get_many("ns", ["k"]) == {}
        assert (len(opened), opened.size_bytes()) == (0, 0)
        opened.clear()
    assert blocker.read_text() == "not a directory"


class _SmallDisk(sqlite3.Connection):
    """A connection to a 'disk' of 32 pages: SQLite itself reports 'database or disk is full'."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.execute("PRAGMA max_page_count = 32")


class _FailingDisk(sqlite3.Connection):
    """A connection whose inserts fail as on a failing disk."""

    def executemany(self, sql: str, *args: Any) -> sqlite3.Cursor:
        if "INSERT" in sql:
            raise sqlite3.OperationalError("disk I/O error")
        return super().executemany(sql, *args)


def _read_only(file: Any, **kwargs: Any) -> sqlite3.Connection:
    """Open the file read-only, as SQLite does when it may not write the file."""
    return _CONNECT(f"file:{file}?mode=ro", uri=True, **kwargs)


@pytest.mark.parametrize(
    ("connect", "message"),
    [
        (lambda *a, **k: _CONNECT(*a, factory=_SmallDisk, **k), "full"),
        (lambda *a, **k: _CONNECT(*a, factory=_FailingDisk, **k), "disk I/O error"),
        (_read_only, "readonly"),
    ],
    ids=["full", "io-error", "read-only"],
)
def test_a_failing_write_stops_writing_but_reads_go_on(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, connect: Any, message: str
) -> None:
    directory = tmp_path / "cache"
    keys = _fill(directory, 10)
    monkeypatch.setattr(store_module.sqlite3, "connect", connect)
    opened = DiskStore(directory)
    assert len(opened) == 10
    with pytest.warns(StoreWarning, match=message):
        opened.put("ns", "big", np.zeros(100_000))
        assert len(opened.get_many("ns", keys)) == 10
    assert not opened.writable and opened.get("ns", "big") is None
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # warned once only
        opened.put("ns", "small", 1)
        assert opened.get("ns", "small") is None
        assert len(opened.get_many("ns", keys)) == 10
    opened.close()


# -- size limit -------------------------------------------------------------------------------------


def test_least_recently_used_entries_go_when_over_the_limit(tmp_path: Path) -> None:
    opened = DiskStore(tmp_path / "cache", max_bytes=4500)
    for key in "abcd":
        opened.put("ns", key, key * 998)  # 1000 bytes of JSON each
    assert opened.size_bytes() == 4000
    opened.get("ns", "a")  # now b is the least recently used
    opened.put("ns", "e", "e" * 998)  # 5000 > 4500: evict down to 4050
    assert sorted(opened.get_many("ns", list("abcde"))) == ["a", "c", "d", "e"]
    assert (len(opened), opened.size_bytes()) == (4, 4000)
    opened.put_many("ns", {f"batch{i}": "x" * 998 for i in range(10)})
    assert opened.size_bytes() <= 0.9 * 4500
    assert opened.get("ns", "batch9") == "x" * 998
    _assert_consistent(opened)
    opened.close()


def test_no_limit_keeps_everything(tmp_path: Path) -> None:
    opened = DiskStore(tmp_path / "cache", max_bytes=None)
    opened.put_many("ns", {str(i): "x" * 1000 for i in range(100)})
    assert len(opened) == 100
    opened.close()


# -- default store ----------------------------------------------------------------------------------


def test_default_store_follows_the_environment(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("IR_RAG_AXIOMS_CACHE", raising=False)
    assert default_store() is None
    monkeypatch.setenv("IR_RAG_AXIOMS_CACHE", str(tmp_path / "env-cache"))
    monkeypatch.setenv("IR_RAG_AXIOMS_CACHE_MAX_BYTES", "3M")
    opened = default_store()
    assert opened is not None and opened is default_store()
    assert opened.directory == tmp_path / "env-cache" and opened.max_bytes == 3 * 1024**2
    monkeypatch.setenv("HOME", str(tmp_path))
    monkeypatch.setenv("IR_RAG_AXIOMS_CACHE", "~/home-cache")
    in_home = default_store()
    assert in_home is not None and in_home.directory == tmp_path / "home-cache"
    monkeypatch.setenv("IR_RAG_AXIOMS_CACHE_MAX_BYTES", "lots")
    with pytest.raises(ValueError, match="IR_RAG_AXIOMS_CACHE_MAX_BYTES"):
        default_store()


@pytest.mark.parametrize(
    ("text", "expected"),
    [(None, 2 * 1024**3), ("", 2 * 1024**3), ("123", 123), ("500M", 500 * 1024**2), ("2 GiB", 2 * 1024**3),
     ("1k", 1024), ("none", None)],
)
def test_parse_max_bytes(text: str | None, expected: int | None) -> None:
    assert parse_max_bytes(text) == expected


# -- a read-only file system (issue 20) -----------------------------------------------------------------------
def _read_only_file_system(file: Any, *args: Any, **kwargs: Any) -> sqlite3.Connection:
    """Connect as on a read-only file system: only a read-only open succeeds (WAL cannot create its index)."""
    if not (kwargs.get("uri") and "mode=ro" in str(file)):
        raise sqlite3.OperationalError("unable to open database file")
    return _CONNECT(file, *args, **kwargs)


@pytest.mark.parametrize("how", ["os.access says no", "the writable open fails"])
def test_a_populated_store_on_a_read_only_file_system_serves_reads(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, how: str
) -> None:
    directory = tmp_path / "cache"
    keys = _fill(directory, 10)
    before = {p.name: p.read_bytes() for p in directory.iterdir()}
    monkeypatch.setattr(store_module.sqlite3, "connect", _read_only_file_system)
    if how == "os.access says no":
        monkeypatch.setattr(store_module, "_may_write", lambda *_: False)
    with pytest.warns(StoreWarning, match="is read-only.*serves the stored results"):
        opened = DiskStore(directory)
    assert not opened.writable and len(opened.get_many("ns", keys)) == 10 and len(opened) == 10
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # no second warning, no write
        opened.put("ns", "new", 1)
        assert opened.get("ns", "new") is None
    opened.close()
    assert {p.name: p.read_bytes() for p in directory.iterdir()} == before


def test_a_named_tuple_is_stored_as_a_tuple(tmp_path):
    """The heuristic judge's statements hold Facts (a NamedTuple): the store keeps them as plain tuples."""
    from ir_rag_axioms.analysis.store import DiskStore
    from ir_rag_axioms.metrics.statements import Facts

    store = DiskStore(tmp_path)
    facts = Facts(entities=(("paris", "GPE"),), numbers=((1889.0, 1889.0, "", False),))
    store.put("ns", "k", ("text", facts))
    text, stored = store.get("ns", "k")
    assert text == "text" and Facts.of(stored) == facts


def test_every_content_address_is_the_one_hash_with_the_formats_stores_hold():
    """text_key, the row checksum, digest, item_key and matrices_key are ``content_hash``, byte-equal to the formats
    written before it existed (plain BLAKE2b), so an existing store and matrix cache keep their entries."""
    import hashlib

    from ir_rag_axioms import CORR1
    from ir_rag_axioms.analysis._hashing import content_hash
    from ir_rag_axioms.analysis.cache import axiom_identity, digest, item_key, matrices_key
    from ir_rag_axioms.model import GenerationRequest, GenerationResponse

    text = "Cats purr \udc80 ünïcode"
    raw = text.encode("utf-8", "surrogatepass")
    assert text_key(text) == hashlib.blake2b(raw, digest_size=32).hexdigest() == content_hash(text)
    assert digest(text) == hashlib.blake2b(raw, digest_size=16).hexdigest()
    blob = b"\x93NUMPY\x00 value with \x00 inside"
    assert store_module._checksum("npy", blob) == hashlib.blake2b(b"npy\0" + blob, digest_size=16).digest()
    request = GenerationRequest("q", "Why do cats purr?", ["Cats purr."])
    responses = [GenerationResponse("a", "They purr.", rank=1, score=2.0), GenerationResponse("b", "Lions roar.")]
    old_item = hashlib.blake2b(digest_size=32)
    old_item.update(repr((request.id, request.text, request.context)).encode())
    for r in responses:
        old_item.update(repr((r.id, r.text, r.context, r.rank, r.score)).encode())
    assert item_key(request, responses) == old_item.hexdigest()
    old_matrices = hashlib.blake2b(axiom_identity(CORR1).encode(), digest_size=32)
    for part in (item_key(request, responses), item_key(request, responses[:1])):
        old_matrices.update(b"\x00" + part.encode())
    assert matrices_key(CORR1, [(request, responses), (request, responses[:1])]) == old_matrices.hexdigest()
    assert content_hash("a\0", "b") != content_hash("a", "b") != content_hash("ab")  # parts are delimited
    assert content_hash(b"x", size=16) == hashlib.blake2b(b"x", digest_size=16).hexdigest()
