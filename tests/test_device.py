"""The sentence encoder's device and precision: selection (CUDA mocked away or in), settings, CLI, half precision."""

from __future__ import annotations

import numpy as np
import pytest
import torch

from ir_rag_axioms import settings
from ir_rag_axioms.analysis import workers
from ir_rag_axioms.analysis.cache import Analysis
from ir_rag_axioms.analysis.resources import (
    ToolUnavailableError,
    encoder_batch_size,
    load_sentence_encoder,
    resolve_device,
)
from ir_rag_axioms.cli import main

STRINGS = ["The Moon pulls the oceans.", "Tides rise twice a day.", "Bees make honey from nectar.", "A"]


@pytest.fixture(autouse=True)
def no_device_setting(monkeypatch):
    monkeypatch.delenv(settings.DEVICE_ENV, raising=False)
    monkeypatch.delenv(settings.PRECISION_ENV, raising=False)


@pytest.mark.parametrize(("cuda", "expected"), [(True, "cuda"), (False, "cpu")])
def test_auto_is_cuda_when_torch_sees_one_else_cpu(monkeypatch, cuda, expected) -> None:
    monkeypatch.setattr(torch.cuda, "is_available", lambda: cuda)
    assert resolve_device() == expected == resolve_device("auto") == Analysis(store=None).encoder_device()
    assert resolve_device("cpu") == "cpu"


def test_the_setting_and_the_parameter_choose_the_device(monkeypatch) -> None:
    monkeypatch.setattr(torch.cuda, "is_available", lambda: True)
    monkeypatch.setenv(settings.DEVICE_ENV, "cpu")
    assert resolve_device() == "cpu" and Analysis(store=None).encoder_device() == "cpu"
    assert Analysis(store=None, device="cuda:1").encoder_device() == "cuda:1"  # the parameter wins
    monkeypatch.setenv(settings.DEVICE_ENV, "CUDA")
    assert resolve_device() == "cuda"


def test_an_explicit_cuda_device_without_cuda_is_a_clear_error(monkeypatch) -> None:
    monkeypatch.setattr(torch.cuda, "is_available", lambda: False)
    with pytest.raises(ToolUnavailableError, match="no CUDA device"):
        resolve_device("cuda")


def test_mps_where_torch_sees_none_is_a_clear_error(monkeypatch, capsys, tmp_path) -> None:
    monkeypatch.setattr(torch.backends.mps, "is_available", lambda: False)
    with pytest.raises(ToolUnavailableError, match="no Apple MPS device"):
        resolve_device("mps")
    with pytest.raises(ToolUnavailableError, match="no Apple MPS device"):
        Analysis(store=None, workers=1, device="mps").embed(STRINGS[:1], "all-MiniLM-L6-v2")
    monkeypatch.setenv(settings.DEVICE_ENV, "auto")  # restored after the test (the CLI sets it for its run)
    assert main(["rerank", "--device", "mps", "--input", str(tmp_path / "none.jsonl")]) == 2
    assert "--device: device 'mps' asked for, but torch sees no Apple MPS device" in capsys.readouterr().err


@pytest.mark.parametrize("bad", ["gpu", "cuda:x", "cpu:0", ""])
def test_bad_devices_are_named(monkeypatch, bad) -> None:
    if not bad:
        assert settings.encoder_device(bad) == "auto"  # blank: the default
        return
    with pytest.raises(ValueError, match="device"):
        Analysis(store=None, device=bad)
    monkeypatch.setenv(settings.DEVICE_ENV, bad)
    with pytest.raises(ValueError, match=settings.DEVICE_ENV):
        Analysis(store=None)


def test_bad_precisions_are_named(monkeypatch) -> None:
    with pytest.raises(ValueError, match="precision"):
        Analysis(store=None, precision="int4")
    monkeypatch.setenv(settings.PRECISION_ENV, "half")
    with pytest.raises(ValueError, match=settings.PRECISION_ENV):
        Analysis(store=None)


def test_batches_are_sized_for_the_device() -> None:
    assert encoder_batch_size("cpu") == 32 and encoder_batch_size("cuda") == 256 == encoder_batch_size("cuda:1")


def test_the_cli_takes_a_device_and_refuses_a_bad_one(monkeypatch, capsys, tmp_path) -> None:
    monkeypatch.setenv(settings.DEVICE_ENV, "auto")  # restored after the test (the CLI sets it for its run)
    assert main(["rerank", "--device", "tpu", "--input", str(tmp_path / "none.jsonl")]) == 2
    assert "--device" in capsys.readouterr().err
    main(["preferences", "--device", "cpu", "--input", str(tmp_path / "none.jsonl"), "--quiet"])
    import os

    assert os.environ[settings.DEVICE_ENV] == "cpu"


def test_cpu_float32_vectors_are_unit_length_and_loaded_once() -> None:
    assert load_sentence_encoder() is load_sentence_encoder("all-MiniLM-L6-v2", "cpu", "float32")
    vectors = np.stack(workers.encode("all-MiniLM-L6-v2", STRINGS, 32, 1))
    assert vectors.dtype == np.float32
    np.testing.assert_allclose(np.linalg.norm(vectors, axis=1), 1.0, atol=1e-5)


def test_half_precision_keeps_the_embedding_keys_apart_and_agrees_closely() -> None:
    """bfloat16 on CPU (the half precision torch runs here): float32 vectors, a separate memo key, cosine > 0.99."""
    full = Analysis(store=None, workers=1, device="cpu")
    half = Analysis(store=None, workers=1, device="cpu", precision="bfloat16")
    a, b = full.embed(STRINGS, "all-MiniLM-L6-v2"), half.embed(STRINGS, "all-MiniLM-L6-v2")
    assert b.dtype == np.float32 and not np.array_equal(a, b)
    np.testing.assert_allclose(np.linalg.norm(b, axis=1), 1.0, atol=1e-5)
    assert np.min(np.sum(a * b, axis=1)) > 0.99
    assert half.has(STRINGS[0], ("embedding", "all-MiniLM-L6-v2", "bfloat16"))
    assert not half.has(STRINGS[0], ("embedding", "all-MiniLM-L6-v2"))


@pytest.mark.skipif(not torch.cuda.is_available(), reason="no CUDA device here")
@pytest.mark.parametrize("precision", ["float32", "float16"])
def test_cuda_vectors_agree_with_cpu(precision) -> None:
    cpu = Analysis(store=None, workers=1, device="cpu").embed(STRINGS, "all-MiniLM-L6-v2")
    gpu = Analysis(store=None, workers=1, device="cuda", precision=precision).embed(STRINGS, "all-MiniLM-L6-v2")
    assert gpu.dtype == np.float32
    assert np.min(np.sum(cpu * gpu, axis=1)) > (0.9999 if precision == "float32" else 0.99)
