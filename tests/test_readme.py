"""The README runs: every Python block (with the shared data) and every command-line command that needs no server."""

from __future__ import annotations

import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import ROOT, SHARED

README = ROOT / "README.md"
BLOCK = re.compile(r"^```(\w+)\n(.*?)^```", re.S | re.M)
QUICK = {"evaluate": ["--topics", "3"]}
"""Options appended to slow commands so the test stays short (the README's own command evaluates every topic)."""


def blocks(language: tuple[str, ...]) -> list[str]:
    """The README's code blocks in these languages, in order."""
    return [code for lang, code in BLOCK.findall(README.read_text()) if lang in language]


def commands() -> list[list[str]]:
    """The ``ir-rag-axioms`` commands of the shell blocks (``make`` sets up the environment: not run here)."""
    out = []
    for code in blocks(("bash", "shell", "sh")):
        for line in code.splitlines():
            line = line.split("  #", 1)[0].strip()
            if line.startswith("ir-rag-axioms "):
                argv = shlex.split(line)[1:]
                out.append(argv + QUICK.get(argv[0], []))
    return out


@pytest.fixture()
def workdir(tmp_path: Path) -> Path:
    """A folder beside a link to the shared data, so that the README's ``../shared/...`` paths resolve."""
    if not SHARED.exists():
        pytest.skip(f"{SHARED} is not available")
    (tmp_path / "shared").symlink_to(SHARED)
    (tmp_path / "repo").mkdir()
    return tmp_path / "repo"


def _run(argv: list[str], cwd: Path) -> subprocess.CompletedProcess:
    env = dict(os.environ, PYTHONPATH=str(ROOT), HF_HUB_OFFLINE="1", MPLBACKEND="Agg")
    return subprocess.run(argv, cwd=cwd, env=env, capture_output=True, text=True, timeout=1800)


def test_the_readme_has_the_blocks_this_test_runs() -> None:
    assert len(blocks(("python",))) >= 5
    assert [c[0] for c in commands()] == ["demo", "list", "compare", "evaluate", "evaluate"]


@pytest.mark.shared
@pytest.mark.slow
def test_every_python_block_runs(workdir: Path) -> None:
    script = workdir / "readme_blocks.py"
    codes = blocks(("python",))
    script.write_text("codes = " + repr(codes) + "\nfor k, code in enumerate(codes):\n"
                      "    print(f'--- block {k}', flush=True)\n"
                      "    exec(compile(code, f'README block {k}', 'exec'), {})\n")
    done = _run([sys.executable, str(script)], workdir)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    assert done.stdout.count("--- block") == len(codes)
    assert "axioms" in done.stdout and "bm25-gpt" in done.stdout


@pytest.mark.shared
@pytest.mark.slow
@pytest.mark.parametrize("argv", commands(), ids=lambda argv: argv[0])
def test_every_command_runs(argv: list[str], workdir: Path) -> None:
    done = _run([sys.executable, "-m", "ir_rag_axioms.cli", *argv], workdir)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    if argv[0] == "compare":
        assert (workdir / "out-compare" / "systems.png").is_file()
        assert "kendall_tau" in done.stdout
        import pandas as pd

        table = pd.read_csv(workdir / "out-compare" / "systems.csv")
        assert table["system"].nunique() == 45 and table["comparisons"].max() > 100  # run_ids, not docnos
