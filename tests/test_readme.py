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
PRINTS = re.compile(r"^```python\n.*?^```\nprints\n```text\n(.*?)^```", re.S | re.M)
"""A Python block followed by ``prints`` and the output it shows."""
CATALOGUE = re.compile(r"<!-- catalogue: start[^\n]*-->\n(.*?)<!-- catalogue: end -->", re.S)
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
    (tmp_path / "repo" / "examples").symlink_to(ROOT / "examples")  # the commands' examples/requests.jsonl
    return tmp_path / "repo"


def _run(argv: list[str], cwd: Path) -> subprocess.CompletedProcess:
    env = dict(os.environ, PYTHONPATH=str(ROOT), HF_HUB_OFFLINE="1", MPLBACKEND="Agg")
    return subprocess.run(argv, cwd=cwd, env=env, capture_output=True, text=True, timeout=1800)


def test_the_readme_has_the_blocks_this_test_runs() -> None:
    assert len(blocks(("python",))) >= 5
    assert [c[0] for c in commands()] == ["demo", "list", "explain", "explain", "preferences", "rerank", "compare",
                                          "evaluate", "evaluate", "evaluate"]
    assert len(PRINTS.findall(README.read_text())) >= 2  # the quick start and the explanation show their output


def test_the_readme_catalogue_is_the_catalogue() -> None:
    from ir_rag_axioms.catalogue import catalogue, markdown

    found = CATALOGUE.findall(README.read_text())
    assert len(found) == 1, "README: one block between <!-- catalogue: start --> and <!-- catalogue: end -->"
    assert found[0] == markdown(), "README catalogue out of date: paste `ir-rag-axioms list --markdown` over it"
    rows = [line for line in found[0].splitlines() if line.startswith("| ") and not line.startswith("| axiom |")]
    listed = {name.strip() for row in rows for name in row.split(" | ")[0][2:].split(",")}
    assert {e["name"] for e in catalogue() if e["dimension"] != "user-defined"} <= listed  # every axiom is there


def test_the_readme_cites_this_version() -> None:
    from ir_rag_axioms import __version__

    bibtex = blocks(("bibtex",))
    assert len(bibtex) == 1 and "Axioms for Retrieval-Augmented Generation" in bibtex[0]
    assert f"version = {{{__version__}}}" in bibtex[0]


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
    for shown in PRINTS.findall(README.read_text()):  # the output the README shows is what the block prints
        assert shown in done.stdout, shown


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
