"""Data files: checksums over content, damaged downloads fetched again."""

from __future__ import annotations

import gzip
import warnings
from pathlib import Path

import pytest

from ir_rag_axioms.datasets.files import DataFileError, DataFileWarning


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
