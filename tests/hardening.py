"""What the hardening tests (tests/test_hardening_*.py) share: crafted inputs, the kinds of a broken contract, checks.

Each test states a contract for bad, odd or large input: a defined result, or an error of a documented type whose
message says what to fix, nothing written half, no wait beyond its bound. A break is an AssertionError that names its
kind: ``Wrong`` (a silently wrong result), ``Unclear`` (an error whose message does not say what to fix), ``Lost``
(output lost or overwritten, or work done before a failure it could have reported first), ``Insecure`` (a spec or
setting that reached beyond what it names) or ``Hang`` (over the test's time limit).
"""

from __future__ import annotations

import contextlib
import functools
import io
import os
import resource
import signal
import subprocess
import sys
from collections.abc import Callable, Iterator
from typing import Any

import numpy as np
import pytest
from conftest import DATA, ROOT

from ir_rag_axioms import GenerationRequest, GenerationResponse

CROWD = DATA / "trec-rag-24-crowd"
NUGGETS = DATA / "trec-rag-24-nuggets"
needs_data = pytest.mark.skipif(not CROWD.is_dir(), reason=f"{DATA} is not available (../shared/data)")
"""For a test that reads the shared data."""

REQUEST = GenerationRequest("q", "Why do cats purr?", ["Cats purr when they are content or stressed."])
GOOD = [GenerationResponse("a", "Cats purr when they are content [1]. They also purr when stressed."),
        GenerationResponse("b", "Purring is a sound. It is made by cats, lions do not purr.")]


class Wrong(AssertionError):
    """The test got a result, but a wrong one (or output was lost)."""


class Unclear(AssertionError):
    """The test got an error of the right kind whose message does not say what to fix."""


class Hang(AssertionError):
    """The test ran over its time limit."""


class Lost(Wrong):
    """Output was lost or overwritten, or the work ran before a failure it could have reported first."""


class Insecure(Wrong):
    """A spec or setting reached beyond what it names: code imported, a path written, memory without bound."""


def within(seconds: float) -> Callable[[Callable[..., None]], Callable[..., None]]:
    """The test fails with ``Hang`` when it runs over ``seconds`` (SIGALRM: the main thread, POSIX)."""
    def decorate(fn: Callable[..., None]) -> Callable[..., None]:
        @functools.wraps(fn)
        def limited(*args: Any, **kwargs: Any) -> None:
            def alarm(*_: object) -> None:
                raise Hang(f"over {seconds:.0f} s")
            previous = signal.signal(signal.SIGALRM, alarm)
            signal.alarm(int(np.ceil(seconds)))
            try:
                fn(*args, **kwargs)
            finally:
                signal.alarm(0)
                signal.signal(signal.SIGALRM, previous)
        return limited
    return decorate


def refuses(fn: Callable[[], object], types: type | tuple[type, ...], *words: str) -> None:
    """``fn`` must raise ``types`` with every word of ``words`` in its message (case-insensitive)."""
    try:
        result = fn()
    except types as error:
        message = str(error).lower()
        missing = [w for w in words if w.lower() not in message]
        if missing:
            raise Unclear(f"message lacks {missing}: {error}") from error
        return
    raise Wrong(f"accepted, returned {result!r:.200}")


def same(a: object, b: object) -> None:
    """Equal arrays (NaN equal to NaN), else ``Wrong``."""
    if not np.array_equal(np.asarray(a), np.asarray(b), equal_nan=True):
        raise Wrong(f"{a!r:.200} != {b!r:.200}")


def abstains(matrix: np.ndarray, index: int) -> None:
    """Response ``index`` has no preference in ``matrix`` (and every entry is finite)."""
    if matrix[index].any() or matrix[:, index].any() or not np.isfinite(matrix).all():
        raise Wrong(f"response {index} does not abstain: {matrix.tolist()}")


@contextlib.contextmanager
def env(**values: str) -> Iterator[None]:
    """Environment variables set for the block, restored after it."""
    old = {k: os.environ.get(k) for k in values}
    os.environ.update(values)
    try:
        yield
    finally:
        for k, v in old.items():
            if v is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = v


def cli(*argv: str) -> tuple[int, str, str]:
    """Run the CLI in-process; (exit code, stdout, stderr)."""
    from ir_rag_axioms import cli as module

    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            code = module.main(list(argv))
        except SystemExit as exit_:
            code = int(exit_.code or 0)
    return code, out.getvalue(), err.getvalue()


def cli_subprocess(*argv: str, env_vars: dict[str, str] | None = None, fsize: int | None = None,
                   timeout: float = 300) -> subprocess.CompletedProcess:
    """Run the CLI in a fresh process (optionally with a file size limit: a disk that fills up)."""
    def limit() -> None:
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
        if fsize is not None:
            resource.setrlimit(resource.RLIMIT_FSIZE, (fsize, fsize))
    environment = {**os.environ, "HF_HUB_OFFLINE": "1", "PYTHONPATH": str(ROOT), **(env_vars or {})}
    return subprocess.run([sys.executable, "-m", "ir_rag_axioms.cli", *argv], capture_output=True, text=True,
                          env=environment, timeout=timeout, preexec_fn=limit, cwd=ROOT)


EVAL = ("evaluate", "--data", str(CROWD), "--oracle", "crowd:overall", "--topics", "1", "--no-figures", "--quiet")
"""An evaluation of one crowd topic, for the command-line tests to add to."""
