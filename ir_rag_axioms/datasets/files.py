"""Data files: where they come from (a path, ``$IR_RAG_AXIOMS_DATA`` or a checksummed download) and how they are read.

``read_jsonl`` reads one JSON-lines file; ``load_frame`` gives one cached frame per file version.
"""

from __future__ import annotations

import contextlib
import gzip
import hashlib
import json
import os
import warnings
import zlib
from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

import pandas as pd

from ir_rag_axioms import settings
from ir_rag_axioms.model import is_missing

ENV_VAR = "IR_RAG_AXIOMS_DATA"
"""Environment variable: a folder holding the data files (or their sub-folders ``trec-rag-24-crowd/`` etc.)."""

BASE_URL = "https://raw.githubusercontent.com/webis-de/ir_axioms/main/data/"
"""The public download location of the data files (the ir_axioms repository's ``data/`` folder)."""


class DataFileError(ValueError):
    """A data file is missing, unreadable or corrupt; the message names the file and how to provide it.

    A ValueError, not a FileNotFoundError: ir_datasets treats the latter as "no such file" and swallows it.
    """


RecordCheck = Callable[[dict[str, Any]], "str | None"]
"""A check of one JSONL record: None if it is valid, else what is wrong with it."""


@dataclass(frozen=True)
class DataFile:
    """One data file: its local folder and name patterns, and its public URL and MD5 checksum."""

    key: str
    """Short key, e.g. ``"crowd/ratings"``."""
    folder: str
    """Sub-folder name in a data root, e.g. ``"trec-rag-24-crowd"``."""
    patterns: tuple[str, ...]
    """Accepted file names in a given folder (glob patterns, first match wins)."""
    url: str | None = None
    """Public download URL (``None``: the file must be given locally)."""
    md5: str | None = None
    """Expected MD5 of the downloaded file (``None``: not verified)."""
    hint: str = ""
    """How the user passes a local copy (parameter names), quoted in errors."""
    content_md5: str | None = None
    """MD5 of the decompressed content of a gzipped published file: a re-compressed identical copy is the same file."""

    @property
    def download_name(self) -> str:
        """The name of the cached download."""
        return self.url.rsplit("/", 1)[-1] if self.url else self.patterns[0]


CROWD_RESPONSES = DataFile(
    "crowd/responses", "trec-rag-24-crowd", ("responses.jsonl.gz", "responses.jsonl"),
    BASE_URL + "crowd/responses.jsonl.gz", "36f71d164befa760fa0763be52a1781e", "data_dir=... or responses_path=...",
    "8071ad6d82cf6bd755d14ceedb180a3b",
)
CROWD_RATINGS = DataFile(
    "crowd/ratings", "trec-rag-24-crowd", ("ratings.jsonl.gz", "ratings.jsonl"),
    BASE_URL + "crowd/ratings.jsonl.gz", "c63c06902a80cdf4feb2061b562462dd", "data_dir=... or ratings_path=...",
    "4341eeea3e9837a6cff4f04ea0abd0f5",
)
CROWD_TOPICS = DataFile(
    "crowd/topics", "trec-rag-24-crowd", ("topics.rag24.test.txt",),
    BASE_URL + "topics.rag24.test.txt", "234113ab626a5ca31d57d4c0c7a87b6e", "data_dir=...",
)
NUGGET_ASSIGNMENTS = DataFile(
    "nuggets", "trec-rag-24-nuggets",
    ("nugget_assignment*.jsonl.gz", "nugget_assignment*.jsonl", "nugget_assignment*.jl"),
    BASE_URL + "nugget_assignment.20241108.jl", None, "data_dir=..., or table= with the assignments as a frame",
)


def llm_ratings_file(model: str) -> DataFile:
    """The LLM ratings file of ``model`` (e.g. ``"Qwen-Qwen2.5-0.5B-Instruct"``)."""
    md5 = {"HuggingFaceTB-SmolLM-135M-Instruct": None, "Qwen-Qwen2.5-0.5B-Instruct": None}.get(model)
    return DataFile(
        f"llm/{model}", "trec-rag-24-llm-ratings", (f"ratings-{model}.jsonl.gz", f"ratings-{model}.jsonl"),
        BASE_URL + f"ratings-{model}.jsonl", md5, "data_dir=..., or table= with the ratings as a frame",
    )


def cache_root() -> Path:
    """Our folder in ir_datasets' home (``$IR_DATASETS_HOME``, default ``~/.ir_datasets``); it must be a folder."""
    home = settings.env_text("IR_DATASETS_HOME")
    root = Path(home).expanduser() if home else Path.home() / ".ir_datasets"
    if root.exists() and not root.is_dir():
        name = "environment variable IR_DATASETS_HOME" if home else "ir_datasets' home"
        raise DataFileError(f"{name}={str(root)!r} is a file, not a folder: point it at a folder (where "
                            "ir_datasets keeps downloads and caches)")
    return root / "ir-rag-axioms"


def _find_in(folder: Path, spec: DataFile) -> Path | None:
    for candidate in (folder, folder / spec.folder):
        if candidate.is_dir():
            for pattern in spec.patterns:
                matches = sorted(candidate.glob(pattern))
                if matches:
                    return matches[0]
    return None


def _how(spec: DataFile) -> str:
    return (
        f"pass its path ({spec.hint}), set ${ENV_VAR} to a folder holding '{spec.folder}/{spec.patterns[0]}'"
        + (f", or allow the download from {spec.url}" if spec.url else "")
    )


def resolve(spec: DataFile, path: str | os.PathLike | None = None, download: bool = True) -> Path:
    """The local file of a data file spec.

    ``path`` (a file or a folder holding it), else ``$IR_RAG_AXIOMS_DATA``, else the cached download.
    """
    if path is not None:
        given = Path(path)
        if given.is_file():
            return verified(spec, given)
        found = _find_in(given, spec)
        if found is None:
            raise DataFileError(
                f"{spec.key}: no file {' or '.join(spec.patterns)} in {given} "
                f"(also looked in {given / spec.folder}); {_how(spec)}"
            )
        return verified(spec, found)
    env = settings.env_text(ENV_VAR)
    if env:
        found = _find_in(Path(env), spec)
        if found is None:
            raise DataFileError(
                f"{spec.key}: ${ENV_VAR}={env} holds no file {' or '.join(spec.patterns)}; {_how(spec)}"
            )
        return verified(spec, found)
    cached = cache_root() / spec.folder / spec.download_name
    if cached.is_file():
        if spec.md5 is None or file_md5(str(cached), *_version(cached)) == spec.md5:
            return cached
        warnings.warn(f"{spec.key}: the cached download {cached} does not match its checksum; downloading it again",
                      DataFileWarning, stacklevel=2)
        cached.unlink()
    if not download or spec.url is None:
        raise DataFileError(f"{spec.key}: no local copy of {spec.patterns[0]}; {_how(spec)}")
    return _download(spec, cached)


class DataFileWarning(UserWarning):
    """A data file differs from the published one (checksum); it is read, and the warning says how to accept it."""


ACCEPT_MODIFIED_ENV = "IR_RAG_AXIOMS_ACCEPT_MODIFIED_DATA"
"""Set to 1 to read locally modified copies of the published data files without a warning."""


def verified(spec: DataFile, file: Path) -> Path:
    """``file``, after checking a copy of a published file (same name) against its MD5; warn if it differs.

    The warning names the file, both checksums and ``$IR_RAG_AXIOMS_ACCEPT_MODIFIED_DATA=1`` (accept on purpose).
    """
    if spec.md5 is None or file.name != spec.download_name or settings.env_flag(ACCEPT_MODIFIED_ENV):
        return file
    actual = file_md5(str(file), *_version(file))
    if actual != spec.md5 and spec.content_md5 and file.suffix == ".gz":
        with contextlib.suppress(OSError, EOFError, zlib.error):  # a damaged file is reported when it is read
            if content_md5(str(file), *_version(file)) == spec.content_md5:
                return file  # the same content, compressed anew (another gzip level, time stamp or tool)
    if actual != spec.md5:
        warnings.warn(
            f"{spec.key}: {file} differs from the published file (MD5 {actual}, published {spec.md5}): results "
            f"will differ from the published ones. Replace it with a fresh copy ({_how(spec)}), or set "
            f"{ACCEPT_MODIFIED_ENV}=1 if you modified it on purpose", DataFileWarning, stacklevel=3)
    return file


def _version(file: Path) -> tuple[int, int]:
    stat = file.stat()
    return stat.st_mtime_ns, stat.st_size


@lru_cache(maxsize=64)
def file_md5(file: str, mtime: int, size: int) -> str:
    """The MD5 of a file's bytes, computed once per file version (path, mtime, size)."""
    digest = hashlib.md5(usedforsecurity=False)
    with open(file, "rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


@lru_cache(maxsize=64)
def content_md5(file: str, mtime: int, size: int) -> str:
    """The MD5 of a gzipped file's decompressed content, computed once per file version (path, mtime, size)."""
    digest = hashlib.md5(usedforsecurity=False)
    with gzip.open(file, "rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def _download(spec: DataFile, target: Path) -> Path:
    """Download ``spec.url`` into ``target`` through ir_datasets (verifying the MD5 if known)."""
    from ir_datasets.util import Download, RequestsDownload

    target.parent.mkdir(parents=True, exist_ok=True)
    try:
        # ir_datasets reads with a socket timeout ($IR_DATASETS_DL_TIMEOUT, 15 s) and retries a bounded number of times
        download = Download([RequestsDownload(spec.url, tries=3)], expected_md5=spec.md5, cache_path=str(target))
        with download.stream():
            pass
    except Exception as error:  # network down, HTTP error or checksum mismatch
        raise DataFileError(f"{spec.key}: cannot download {spec.url} ({error}); {_how(spec)} (a slow server: raise "
                            "$IR_DATASETS_DL_TIMEOUT, seconds without data, default 15)") from error
    return target


def read_jsonl(
    path: str | os.PathLike[str], spec: DataFile | None = None, required: tuple[str, ...] = (),
    check: RecordCheck | None = None, unique: tuple[str, ...] = (),
) -> list[dict[str, Any]]:
    """The JSON objects of a (gzipped) JSONL file.

    A corrupt file, a line that is not an object, a missing ``required`` field, a record that fails ``check`` or
    a repeated value of the ``unique`` fields (e.g. a response id) raises DataFileError naming the file and line.
    """
    path, key = Path(path), spec.key if spec else "jsonl"
    fix = _how(spec) if spec else "check the file"
    if not path.exists():
        raise DataFileError(f"{key}: {path} does not exist; check the path" + (f" ({fix})" if spec else ""))
    if path.is_dir():
        raise DataFileError(f"{key}: {path} is a folder, not a JSONL file; give the file inside it")
    opener = gzip.open if path.suffix == ".gz" else open
    rows: list[dict[str, Any]] = []
    first_seen: dict[str, int] = {}
    number = 0
    try:
        with opener(path, "rt", encoding="utf-8") as lines:
            for number, line in enumerate(lines, start=1):
                if line.strip():
                    rows.append(json.loads(line))
                    _check_record(rows[-1], required, check, f"{key}: {path} line {number}", fix)
                    if unique:
                        _check_unique(rows[-1], unique, first_seen, number, f"{key}: {path} line {number}")
    except DataFileError:
        raise
    except (OSError, EOFError, UnicodeDecodeError, json.JSONDecodeError) as error:
        where = f" at line {number}" if number else ""
        raise DataFileError(
            f"{key}: {path} is corrupt or unreadable{where} ({type(error).__name__}: {error}); "
            f"replace it with a fresh copy: {fix}"
        ) from error
    return rows


def _check_record(row: Any, required: tuple[str, ...], check: RecordCheck | None, where: str, fix: str) -> None:
    if not isinstance(row, dict):
        raise DataFileError(f"{where} is not a JSON object but {type(row).__name__}; is it the right file? {fix}")
    missing = [name for name in required if name not in row]
    if missing:
        raise DataFileError(f"{where} lacks the field(s) {missing}; is it the right file? {fix}")
    problem = check(row) if check else None
    if problem:
        raise DataFileError(f"{where}: {problem}; correct or remove that record ({fix})")


def _check_unique(row: dict[str, Any], unique: tuple[str, ...], first_seen: dict[str, int], number: int,
                  where: str, unit: str = "line") -> None:
    value = json.dumps([row.get(name) for name in unique], default=str)
    first = first_seen.setdefault(value, number)
    if first != number:
        shown = ", ".join(f"{name}={row.get(name)!r}" for name in unique)
        raise DataFileError(f"{where}: {shown} is duplicated (first on {unit} {first}); each record once")


def check_frame(frame: pd.DataFrame, what: str, required: tuple[str, ...] = (), check: RecordCheck | None = None,
                unique: tuple[str, ...] = ()) -> None:
    """The checks ``read_jsonl`` runs on a file's records, run on the rows of an in-memory frame (``what``).

    A missing ``required`` column, a row that fails ``check`` (missing cells, NaN or NA, read as null) or a repeated
    value of the ``unique`` columns raises DataFileError naming ``what``, the column(s) and the row position.
    """
    if not isinstance(frame, pd.DataFrame):
        raise DataFileError(f"{what} must be a pandas DataFrame, got {type(frame).__name__}")
    missing = [name for name in required if name not in frame.columns]
    if missing:
        raise DataFileError(f"{what} lacks the column(s) {missing} (found {list(map(str, frame.columns))})")
    first_seen: dict[str, int] = {}
    for position, record in enumerate(frame.to_dict("records")):
        row = {str(k): None if is_missing(v) else v for k, v in record.items()}
        where = f"{what} row {position}"
        _check_record(row, (), check, where, "the row of the frame")
        if unique:
            _check_unique(row, unique, first_seen, position, where, "row")


def load_frame(
    spec: DataFile, path: str | os.PathLike[str] | None, required: tuple[str, ...], what: str,
    prepare: Callable[[pd.DataFrame], pd.DataFrame] | None = None, check: RecordCheck | None = None,
    unique: tuple[str, ...] = (),
) -> pd.DataFrame:
    """The JSONL file of ``spec`` as a frame, ``prepare``d; a copy each call.

    Read once per file version (path, mtime, size); records checked as by ``read_jsonl``.
    """
    file = resolve(spec, path)
    stat = file.stat()
    return _frame(str(file), stat.st_mtime_ns, stat.st_size, spec, required, what, prepare, check, unique).copy()


@lru_cache(maxsize=16)
def _frame(file: str, mtime: int, size: int, spec: DataFile, required: tuple[str, ...], what: str,
           prepare: Callable[[pd.DataFrame], pd.DataFrame] | None, check: RecordCheck | None,
           unique: tuple[str, ...] = ()) -> pd.DataFrame:
    frame = pd.DataFrame(read_jsonl(file, spec, required, check, unique))
    if frame.empty:
        raise DataFileError(f"{spec.key}: {file} holds no {what}")
    return prepare(frame) if prepare else frame
