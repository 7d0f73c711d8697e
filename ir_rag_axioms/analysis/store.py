"""A persistent, content-addressed store of per-text analysis results: one SQLite file in WAL mode.

The file ``<directory>/analysis.sqlite3`` (``PRAGMA user_version`` = ``SCHEMA_VERSION``) holds three tables::

    entries(id INTEGER PRIMARY KEY, namespace TEXT, key TEXT, tag TEXT, checksum BLOB, value BLOB,
            UNIQUE(namespace, key))
    usage(id INTEGER PRIMARY KEY, used INTEGER, size INTEGER)     -- one row per entry; index on used
    state(bytes INTEGER, clock INTEGER)                             -- exactly one row

* ``namespace`` names the producer of a value (tool, model, package versions, configuration; see
  ``namespace()``) and ``key`` its input, usually ``text_key(text)``: the same key in two namespaces is two entries.
* ``tag`` says how ``value`` is encoded: ``npy`` is one numpy array written by ``np.save(allow_pickle=False)``,
  ``json`` is a JSON document in which every object is a marker: ``{"t": [...]}`` a tuple, ``{"d": [[k, v], ...]}``
  a dict with string keys. Nothing is ever pickled, so a cache directory cannot run code.
* ``checksum`` is the BLAKE2b digest of tag and value: a row that does not match, or does not decode, is reported,
  deleted and treated as missing.
* Triggers on ``entries`` keep ``usage`` and ``state.bytes`` (the sum of ``usage.size``, the value lengths) in step.
* ``usage.used`` is the ``state.clock`` value of the last put or get of the entry (the clock advances once per
  call); it lives in its own narrow table so that marking 50,000 reads rewrites kilobytes, not the values. When a
  put takes ``state.bytes`` over the size limit, the least recently used entries go, down to 90 % of it.

Batched calls run one SQL statement (``executemany`` or a ``json_each`` list) in one transaction. Writers take the
lock up front (``BEGIN IMMEDIATE``) and wait up to ``BUSY_TIMEOUT_S`` for one another, so several processes can share
a directory. A corrupt file is moved aside and replaced by an empty one; a store that cannot write keeps serving
reads and drops writes. Either way the caller only sees a ``StoreWarning`` and recomputes what is missing.
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import re
import sqlite3
import threading
import time
import warnings
from collections.abc import Callable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any, TypeVar

import numpy as np

from ir_rag_axioms import settings
from ir_rag_axioms.analysis._hashing import content_hash
from ir_rag_axioms.settings import CACHE_ENV

T = TypeVar("T")

FILE_NAME = "analysis.sqlite3"
"""The database file inside a store directory."""

SCHEMA_VERSION = 1
"""``PRAGMA user_version`` of files this module writes; a file with another version is not touched."""

DEFAULT_MAX_BYTES = 2 * 1024**3
"""Default limit of the value bytes a store holds (2 GiB)."""

EVICT_TO = 0.9
"""Share of the size limit that eviction brings the store down to."""

BUSY_TIMEOUT_S = 60.0
"""Seconds a call waits for another connection's write lock before it gives up."""

MAX_BYTES_ENV = "IR_RAG_AXIOMS_CACHE_MAX_BYTES"
"""Environment variable with the size limit of ``default_store()``: bytes, K/M/G/T suffix, or ``none``."""

_SCHEMA = """
CREATE TABLE IF NOT EXISTS entries (
    id INTEGER PRIMARY KEY,
    namespace TEXT NOT NULL,
    key TEXT NOT NULL,
    tag TEXT NOT NULL,
    checksum BLOB NOT NULL,
    value BLOB NOT NULL,
    UNIQUE (namespace, key)
);
CREATE TABLE IF NOT EXISTS usage (id INTEGER PRIMARY KEY, used INTEGER NOT NULL, size INTEGER NOT NULL);
CREATE INDEX IF NOT EXISTS usage_used ON usage (used);
CREATE TABLE IF NOT EXISTS state (bytes INTEGER NOT NULL, clock INTEGER NOT NULL);
INSERT INTO state SELECT 0, 0 WHERE NOT EXISTS (SELECT 1 FROM state);
CREATE TRIGGER IF NOT EXISTS entries_insert AFTER INSERT ON entries BEGIN
    INSERT INTO usage (id, used, size) SELECT NEW.id, clock, length(NEW.value) FROM state;
    UPDATE state SET bytes = bytes + length(NEW.value);
END;
CREATE TRIGGER IF NOT EXISTS entries_update AFTER UPDATE ON entries BEGIN
    UPDATE usage SET used = (SELECT clock FROM state), size = length(NEW.value) WHERE id = NEW.id;
    UPDATE state SET bytes = bytes - length(OLD.value) + length(NEW.value);
END;
CREATE TRIGGER IF NOT EXISTS entries_delete AFTER DELETE ON entries BEGIN
    DELETE FROM usage WHERE id = OLD.id;
    UPDATE state SET bytes = bytes - length(OLD.value);
END;
"""

_UPSERT = """
INSERT INTO entries (namespace, key, tag, checksum, value) VALUES (?, ?, ?, ?, ?)
ON CONFLICT (namespace, key) DO UPDATE SET tag = excluded.tag, checksum = excluded.checksum, value = excluded.value
"""
_SELECT = (
    "SELECT id, key, tag, checksum, value FROM entries "
    "WHERE namespace = ? AND key IN (SELECT value FROM json_each(?))"
)
_TOUCH = "UPDATE usage SET used = ? WHERE id IN (SELECT value FROM json_each(?))"
_EVICT = "DELETE FROM entries WHERE id IN (SELECT value FROM json_each(?))"

_CORRUPT_CODES = frozenset({11, 26})  # SQLITE_CORRUPT, SQLITE_NOTADB
_PLAIN = frozenset({str, int, float, bool, type(None)})
_SIZE_SUFFIXES = {"": 1, "K": 1024, "M": 1024**2, "G": 1024**3, "T": 1024**4}


class StoreWarning(UserWarning):
    """A store problem the caller survives: a corrupt file or row, or a directory it cannot read or write."""


def text_key(text: str) -> str:
    """The content address of a text: hex BLAKE2b-256 of its UTF-8 bytes (lone surrogates kept)."""
    return content_hash(text)


def namespace(*parts: object) -> str:
    """A stable name for a producer from JSON-compatible parts (dicts by sorted keys); any other part: TypeError."""

    def reject(part: object) -> object:
        raise TypeError(f"namespace parts must be JSON-compatible, not {_type_name(part)}")

    return json.dumps(list(parts), sort_keys=True, separators=(",", ":"), default=reject)


def default_store() -> DiskStore | None:
    """The store in the directory named by IR_RAG_AXIOMS_CACHE (one per setting and process), or None if unset."""
    directory = settings.env_text(CACHE_ENV)
    if not directory:
        return None
    max_bytes = parse_max_bytes(settings.env_text(MAX_BYTES_ENV))
    where = (os.path.abspath(os.path.expanduser(directory)), max_bytes)
    with _DEFAULT_LOCK:
        if where not in _DEFAULT_STORES:
            _DEFAULT_STORES[where] = DiskStore(*where)
        return _DEFAULT_STORES[where]


def parse_max_bytes(text: str | None) -> int | None:
    """A size limit from IR_RAG_AXIOMS_CACHE_MAX_BYTES: ``123`` bytes, ``500M``, ``2G`` (powers of 1024), ``none``."""
    if text is None or not text.strip():
        return DEFAULT_MAX_BYTES
    if text.strip().lower() in ("none", "unlimited"):
        return None
    match = re.fullmatch(r"(\d+)\s*([KMGT]?)(?:I?B)?", text.strip().upper())
    if match is None:
        raise ValueError(
            f"{MAX_BYTES_ENV}={text!r} is not a size: use bytes (123), a K/M/G/T suffix (500M, 2G) or 'none'"
        )
    return int(match.group(1)) * _SIZE_SUFFIXES[match.group(2)]


_DEFAULT_STORES: dict[tuple[str, int | None], DiskStore] = {}
_DEFAULT_LOCK = threading.Lock()


class DiskStore:
    """Content-addressed, process-safe store of analysis results in one SQLite file (WAL).

    Thread contract: one connection per store, used under a lock, so a store can be shared by threads (their calls
    take turns). Processes each open their own store on the same directory; a pickled store reopens by path, and a
    forked child opens a new connection. ``close()`` is optional; a later call reopens the file.
    """

    def __init__(self, path: str | os.PathLike[str], max_bytes: int | None = DEFAULT_MAX_BYTES) -> None:
        """Open (or create) the store in directory ``path``; ``max_bytes`` limits the value bytes (None: no limit)."""
        if max_bytes is not None and max_bytes < 0:
            raise ValueError(f"max_bytes must be None or >= 0, not {max_bytes}")
        self.directory = Path(path)
        self.file = self.directory / FILE_NAME
        self.max_bytes = max_bytes
        self.writable = True
        self._broken = False
        self._conn: sqlite3.Connection | None = None
        self._identity: tuple[int, int] | None = None
        self._pid = os.getpid()
        self._inherited: list[sqlite3.Connection] = []
        self._lock = threading.RLock()
        self._warned: set[str] = set()
        self._run(False, lambda conn: None, None)  # open now: problems with the path are reported here

    def __repr__(self) -> str:
        """``DiskStore('<directory>', max_bytes=...)``."""
        return f"DiskStore({str(self.directory)!r}, max_bytes={self.max_bytes})"

    def __reduce__(self) -> tuple[type[DiskStore], tuple[Path, int | None]]:
        """Pickle as (directory, max_bytes): the copy opens its own connection."""
        return (DiskStore, (self.directory, self.max_bytes))

    # -- public API -----------------------------------------------------------------------------------
    def get_many(self, namespace: str, keys: Sequence[str]) -> dict[str, Any]:
        """The stored values of ``keys`` in ``namespace``: only keys found intact; one query, one access update."""
        wanted = list(dict.fromkeys(_check_keys(namespace, keys)))
        if not wanted:
            return {}
        rows: list[tuple[int, str, str, bytes, bytes]] = self._run(
            False, lambda conn: conn.execute(_SELECT, (namespace, json.dumps(wanted))).fetchall(), []
        )
        found: dict[str, Any] = {}
        found_ids: list[int] = []
        damaged: list[tuple[int, bytes]] = []
        for rowid, key, tag, checksum, blob in rows:
            try:
                found[key] = _decode(tag, blob, checksum)
                found_ids.append(rowid)
            except _Damaged:
                damaged.append((rowid, checksum))
        if damaged:
            self._warn_once(
                "damaged",
                f"{len(damaged)} damaged entr{'y' if len(damaged) == 1 else 'ies'} in {namespace!r} of "
                f"analysis store {self.file} deleted; they will be recomputed (later ones are dropped silently)",
            )
        if found_ids or damaged:
            self._run(True, lambda conn: self._after_read(conn, found_ids, damaged), None)
        return found

    def put_many(self, namespace: str, values: Mapping[str, Any]) -> None:
        """Store ``values`` under their keys in ``namespace`` in one transaction, then evict down to the size limit."""
        keys = _check_keys(namespace, list(values))
        encoded = [(namespace, key, *_encode(values[key])) for key in keys]
        if encoded:
            self._run(True, lambda conn: self._insert(conn, encoded), None)

    def get(self, namespace: str, key: str, default: Any = None) -> Any:
        """The stored value of ``key`` in ``namespace``, or ``default``."""
        return self.get_many(namespace, [key]).get(key, default)

    def put(self, namespace: str, key: str, value: Any) -> None:
        """Store ``value`` under ``key`` in ``namespace``."""
        self.put_many(namespace, {key: value})

    def __len__(self) -> int:
        """The number of entries in all namespaces."""
        return self._run(False, lambda conn: conn.execute("SELECT COUNT(*) FROM entries").fetchone()[0], 0)

    def size_bytes(self) -> int:
        """The total size of the stored values in bytes: what ``max_bytes`` limits."""
        return self._run(False, lambda conn: conn.execute("SELECT bytes FROM state").fetchone()[0], 0)

    def clear(self) -> None:
        """Delete every entry of every namespace (the file keeps its pages for new entries)."""

        def clear(conn: sqlite3.Connection) -> None:
            with _transaction(conn):
                conn.execute("DELETE FROM entries")

        self._run(True, clear, None)

    def close(self) -> None:
        """Close the connection (a later call reopens it)."""
        with self._lock:
            if self._conn is not None:
                self._conn.close()
                self._conn = None

    # -- statements ----------------------------------------------------------------------------------
    def _insert(self, conn: sqlite3.Connection, encoded: list[tuple[Any, ...]]) -> None:
        """Upsert encoded rows with one ``executemany`` in one transaction, evicting if over the limit."""
        with _transaction(conn):
            _tick(conn)
            conn.executemany(_UPSERT, encoded)
            if self.max_bytes is not None:
                self._evict(conn, self.max_bytes)

    @staticmethod
    def _evict(conn: sqlite3.Connection, max_bytes: int) -> None:
        """Delete the least recently used rows until the value bytes are at most ``EVICT_TO * max_bytes``."""
        total = conn.execute("SELECT bytes FROM state").fetchone()[0]
        if total <= max_bytes:
            return
        excess = total - int(max_bytes * EVICT_TO)
        doomed: list[int] = []
        cursor = conn.execute("SELECT id, size FROM usage ORDER BY used, id")
        while excess > 0:
            row = cursor.fetchone()
            if row is None:
                break
            doomed.append(row[0])
            excess -= row[1]
        cursor.close()
        conn.execute(_EVICT, (json.dumps(doomed),))

    @staticmethod
    def _after_read(conn: sqlite3.Connection, found_ids: list[int], damaged: list[tuple[int, bytes]]) -> None:
        """Mark the rows read as used now and delete the damaged ones (unless rewritten since), in one transaction."""
        with _transaction(conn):
            if found_ids:
                conn.execute(_TOUCH, (_tick(conn), json.dumps(found_ids)))
            if damaged:
                conn.executemany("DELETE FROM entries WHERE id = ? AND checksum = ?", damaged)

    # -- connection and failures ---------------------------------------------------------------------
    def _run(self, write: bool, operation: Callable[[sqlite3.Connection], T], fallback: T) -> T:
        """Run ``operation`` under the lock; a corrupt file is set aside once, any other failure degrades the store."""
        with self._lock:
            for attempt in (1, 2):
                try:
                    conn = self._connection()
                    if conn is None or (write and not self.writable):
                        return fallback
                    return operation(conn)
                except sqlite3.DatabaseError as exc:
                    if attempt == 1 and _is_corrupt(exc) and self._set_aside(exc):
                        continue
                    self._degrade(exc, write)
                    return fallback
            return fallback

    def _connection(self) -> sqlite3.Connection | None:
        """The open connection (opened on first use and anew in a forked child), or None if the store is unusable."""
        if self._pid != os.getpid():  # forked: the parent's connection must be neither used nor closed here
            if self._conn is not None:
                self._inherited.append(self._conn)
            self._conn, self._pid = None, os.getpid()
        if self._conn is None and not self._broken:
            self._conn = self._open()
        return self._conn

    def _open(self) -> sqlite3.Connection | None:
        """A prepared connection, or None (after a warning) when the directory or file cannot be created.

        A populated store whose folder or file may not be written (a read-only file system, another user's cache) is
        opened read-only (``immutable``: WAL needs a writable folder): it serves reads and drops writes.
        """
        if self.file.is_file() and not _may_write(self.directory, self.file):
            return self._open_read_only(None)
        try:
            self.directory.mkdir(parents=True, exist_ok=True)
            conn = sqlite3.connect(self.file, timeout=BUSY_TIMEOUT_S, isolation_level=None, check_same_thread=False)
            stat = os.stat(self.file)
        except OSError as exc:
            self._degrade(exc, write=True)
            return None
        except sqlite3.OperationalError as exc:
            if self.file.is_file():
                return self._open_read_only(exc)
            raise
        self._identity = (stat.st_dev, stat.st_ino)
        try:
            _prepare(conn)
        except sqlite3.OperationalError as exc:
            conn.close()
            if self.file.is_file() and not _is_corrupt(exc) and "schema version" not in str(exc):
                return self._open_read_only(exc)
            raise
        except BaseException:
            conn.close()
            raise
        return conn

    def _open_read_only(self, cause: BaseException | None) -> sqlite3.Connection | None:
        """The file opened read-only and immutable (nothing is written, not even the WAL index); None if it fails."""
        uri = f"{self.file.resolve().as_uri()}?mode=ro&immutable=1"
        try:
            conn = sqlite3.connect(uri, uri=True, timeout=BUSY_TIMEOUT_S, isolation_level=None,
                                   check_same_thread=False)
            version = conn.execute("PRAGMA user_version").fetchone()[0]
        except (OSError, sqlite3.DatabaseError) as exc:
            self._degrade(exc, write=True)
            return None
        if version != SCHEMA_VERSION:
            conn.close()
            self._degrade(sqlite3.OperationalError(f"schema version {version}, this module reads {SCHEMA_VERSION}"),
                          write=True)
            return None
        self.writable = False
        reason = f" ({cause})" if cause else ""
        self._warn_once("write", f"analysis store {self.file} is read-only{reason}: it serves the stored results, "
                                 "new ones are not persisted")
        return conn

    def _set_aside(self, exc: sqlite3.DatabaseError) -> bool:
        """Move a corrupt file (unless another process already did) aside; whether a fresh file can be opened."""
        self.close()
        moved = "another process moved it aside"
        try:
            stat = os.stat(self.file)
            if self._identity == (stat.st_dev, stat.st_ino):
                stamp = time.strftime("%Y%m%dT%H%M%S", time.gmtime()) + f"-{os.getpid()}"
                aside = self.file.with_name(f"{FILE_NAME}.corrupt-{stamp}")
                os.replace(self.file, aside)
                moved = f"moved it to {aside.name}"
                for suffix in ("-wal", "-shm"):
                    with contextlib.suppress(FileNotFoundError):
                        os.replace(f"{self.file}{suffix}", f"{aside}{suffix}")
        except FileNotFoundError:
            pass
        except OSError:
            return False
        warnings.warn(
            f"analysis store {self.file} is corrupt ({exc}); {moved} and started an empty store",
            StoreWarning,
            stacklevel=4,
        )
        return True

    def _degrade(self, exc: BaseException, write: bool) -> None:
        """After a failed open or write: stop writing (and, if not open, reading); after a failed read: skip it."""
        if write or self._conn is None:
            self.writable = False
            self._broken = self._broken or self._conn is None
            self._warn_once("write", f"cannot write analysis store {self.file} ({exc}); results are not persisted")
        else:
            self._warn_once("read", f"cannot read analysis store {self.file} ({exc}); missing results are recomputed")

    def _warn_once(self, kind: str, message: str) -> None:
        """Warn with a ``StoreWarning`` the first time a kind of problem occurs in this store."""
        if kind not in self._warned:
            self._warned.add(kind)
            warnings.warn(message, StoreWarning, stacklevel=4)


def _may_write(directory: Path, file: Path) -> bool:
    """Whether this process may write the store's folder and file (a read-only file system says no)."""
    return os.access(directory, os.W_OK) and os.access(file, os.W_OK)


class _Damaged(Exception):
    """A stored value whose checksum does not match or that does not decode."""


def _prepare(conn: sqlite3.Connection) -> None:
    """Switch to WAL and create the schema in a new file (idempotent); refuse a file of another schema version."""
    conn.execute("PRAGMA journal_mode=WAL").fetchall()
    conn.execute("PRAGMA synchronous=NORMAL")
    version = conn.execute("PRAGMA user_version").fetchone()[0]
    if version == 0:
        conn.executescript(f"BEGIN IMMEDIATE; {_SCHEMA} PRAGMA user_version = {SCHEMA_VERSION}; COMMIT;")
    elif version != SCHEMA_VERSION:
        raise sqlite3.OperationalError(f"schema version {version}, this module reads {SCHEMA_VERSION}")


@contextlib.contextmanager
def _transaction(conn: sqlite3.Connection) -> Iterator[None]:
    """A write transaction that takes the lock at once (no deadlock on upgrade) and rolls back on any error."""
    conn.execute("BEGIN IMMEDIATE")
    try:
        yield
    except BaseException:
        if conn.in_transaction:
            conn.rollback()
        raise
    conn.execute("COMMIT")


def _tick(conn: sqlite3.Connection) -> int:
    """Advance the access clock (inside a write transaction) and return its new value."""
    conn.execute("UPDATE state SET clock = clock + 1")
    return int(conn.execute("SELECT clock FROM state").fetchone()[0])


def _is_corrupt(exc: sqlite3.DatabaseError) -> bool:
    """Whether an error means the file is damaged (not busy, read-only, full or failing)."""
    code = getattr(exc, "sqlite_errorcode", None)
    if code is not None:
        return code & 0xFF in _CORRUPT_CODES
    return type(exc) is sqlite3.DatabaseError


def _check_keys(namespace: str, keys: Sequence[str]) -> list[str]:
    """The keys as a list, after checking that the namespace and every key are strings."""
    if not isinstance(namespace, str):
        raise TypeError(f"namespace must be a str, not {_type_name(namespace)}")
    keys = list(keys)
    for key in keys:
        if not isinstance(key, str):
            raise TypeError(f"store keys must be str (see text_key), not {_type_name(key)}")
    return keys


def _encode(value: Any) -> tuple[str, bytes, bytes]:
    """(tag, checksum, bytes) of a value: ``npy`` for a numpy array, ``json`` for JSON-compatible data."""
    if isinstance(value, np.ndarray):
        if value.dtype.hasobject:
            raise TypeError(f"cannot store a numpy array of dtype {value.dtype} (it holds Python objects)")
        buffer = io.BytesIO()
        np.save(buffer, value, allow_pickle=False)
        tag, blob = "npy", buffer.getvalue()
    else:
        tag, blob = "json", json.dumps(_to_json(value), separators=(",", ":")).encode("ascii")
    return tag, _checksum(tag, blob), blob


def _to_json(value: Any) -> Any:
    """A JSON-ready form of a value in which tuples and dicts are marker objects; other types: TypeError."""
    kind = type(value)
    if kind in _PLAIN or isinstance(value, (str, int, float)):
        return value
    if kind is list or isinstance(value, tuple):  # a NamedTuple is stored as a plain tuple (its reader rebuilds it)
        items = value if all(type(item) in _PLAIN for item in value) else [_to_json(item) for item in value]
        return items if kind is list else {"t": list(items)}
    if isinstance(value, dict):
        for key in value:
            if not isinstance(key, str):
                raise TypeError(f"cannot store a dict with a key of type {_type_name(key)} (keys must be str)")
        return {"d": [[key, _to_json(item)] for key, item in value.items()]}
    raise TypeError(f"cannot store a value of type {_type_name(value)}: use a numpy array or JSON-compatible data")


def _from_json_object(marker: dict[str, Any]) -> Any:
    """Decode a marker object: ``{"t": [...]}`` is a tuple, ``{"d": [[k, v], ...]}`` a dict."""
    if marker.keys() == {"t"}:
        return tuple(marker["t"])
    if marker.keys() == {"d"}:
        return {key: item for key, item in marker["d"]}
    raise ValueError(f"unknown marker object with keys {sorted(marker)}")


def _decode(tag: str, blob: bytes, checksum: bytes) -> Any:
    """The value of a stored row; raises _Damaged on a checksum mismatch or an undecodable value."""
    if not isinstance(blob, bytes) or _checksum(str(tag), blob) != checksum:
        raise _Damaged("checksum mismatch")
    try:
        if tag == "npy":
            return _read_npy(blob)
        if tag == "json":
            return json.loads(blob, object_hook=_from_json_object)
    except Exception as exc:  # any failure to decode bytes read from disk means a damaged row
        raise _Damaged(str(exc)) from exc
    raise _Damaged(f"unknown tag {tag!r}")


_NPY_HEADER = re.compile(r"\{'descr': '([<>|=]?[a-zA-Z]\d*)', 'fortran_order': False, 'shape': \(([\d, ]*)\), \}\s*")


def _read_npy(blob: bytes) -> np.ndarray:
    """An array in ``.npy`` format; the common header (version 1.0, C order) parsed directly, others by numpy."""
    if blob[:8] == b"\x93NUMPY\x01\x00":
        end = 10 + int.from_bytes(blob[8:10], "little")
        header = _NPY_HEADER.fullmatch(blob[10:end].decode("latin1"))
        if header is not None:
            shape = tuple(int(n) for n in header.group(2).split(",") if n.strip())
            count = int(np.prod(shape, dtype=np.int64))
            array = np.frombuffer(blob, dtype=np.dtype(header.group(1)), count=count, offset=end)
            if array.nbytes == len(blob) - end:
                return array.reshape(shape).copy()
    return np.load(io.BytesIO(blob), allow_pickle=False)


def _checksum(tag: str, blob: bytes) -> bytes:
    """BLAKE2b-128 of a row's tag and value bytes (``content_hash(tag, blob)`` as bytes)."""
    return bytes.fromhex(content_hash(tag, blob, size=16))


def _type_name(value: object) -> str:
    """``module.QualifiedName`` of a value's type (just the name for builtins)."""
    kind = type(value)
    return kind.__qualname__ if kind.__module__ == "builtins" else f"{kind.__module__}.{kind.__qualname__}"
