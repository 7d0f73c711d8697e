"""The README and the documentation pages run: every Python block (with the shared data) and every command-line
command that needs no server, in the order of the site's navigation."""

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
NAV = re.compile(r"^\s*- [^:]+: ([\w-]+\.md)$", re.M)
PAGES = [README] + [ROOT / "docs" / name for name in NAV.findall((ROOT / "mkdocs.yml").read_text())]
"""The README, then the site's Markdown pages in the order of its navigation (the pages include README sections
with ``--8<--``: those blocks run once, from the README)."""
BLOCK = re.compile(r"^```(\w+)\n(.*?)^```", re.S | re.M)
PRINTS = re.compile(r"^```python\n.*?^```\nprints\n```text\n(.*?)^```", re.S | re.M)
"""A Python block followed by ``prints`` and the output it shows."""
QUICK = {"evaluate": ["--topics", "3"]}
"""Options appended to slow commands so the test stays short (the README's own command evaluates every topic)."""


def text() -> str:
    """The README and the pages, one after the other."""
    return "\n".join(page.read_text() for page in PAGES)


def blocks(language: tuple[str, ...], source: str | None = None) -> list[str]:
    """The code blocks in these languages of the README and the pages (or of ``source``), in order."""
    return [code for lang, code in BLOCK.findall(text() if source is None else source) if lang in language]


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


def test_the_readme_and_the_pages_have_the_blocks_this_test_runs() -> None:
    assert len(PAGES) >= 11 and all(page.is_file() for page in PAGES)
    assert len(blocks(("python",))) >= 5
    assert [c[0] for c in commands()] == ["evaluate", "evaluate", "evaluate", "demo", "list", "explain", "explain",
                                          "preferences", "rerank", "compare"]
    assert len(PRINTS.findall(text())) >= 2  # the quick start and the explanation show their output
    assert len(PRINTS.findall(README.read_text())) == 1  # the quick start, shown in the README and its page


def test_the_pages_include_the_readme_sections_they_show() -> None:
    readme = README.read_text()
    for page in PAGES[1:]:
        for name in re.findall(r'^--8<-- "README\.md:(\w+)"$', page.read_text(), re.M):
            assert f"<!-- --8<-- [start:{name}] -->" in readme and f"<!-- --8<-- [end:{name}] -->" in readme, name
    assert '--8<-- "README.md:quickstart"' in (ROOT / "docs" / "getting-started.md").read_text()
    assert len(readme.splitlines()) <= 200  # the README is the front door; the documentation is in docs/


def test_the_readme_cites_this_version() -> None:
    from ir_rag_axioms import __version__

    bibtex = blocks(("bibtex",), README.read_text())
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
    for shown in PRINTS.findall(text()):  # the output a page shows is what its block prints
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
