"""The notebooks in notebooks/ run without errors and the examples work.

Run by nbclient, kernel ``python3`` of this interpreter.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
NOTEBOOKS = sorted((ROOT / "notebooks").glob("*.ipynb"))
SHARED_DATA = Path(os.environ.get("IR_RAG_AXIOMS_SHARED", ROOT.parent / "shared")) / "data"
NEEDS_SHARED = {"03_evaluating_axioms_against_humans.ipynb", "04_write_your_own_axiom.ipynb",
                "05_learned_axioms.ipynb"}
"""Notebooks that cannot run without the shared data folder (the others use it optionally)."""
TIMEOUT = 600
"""Seconds per cell: generous for a loaded machine (each notebook takes well under a minute when idle)."""


def _environment() -> dict[str, str]:
    """The child's environment: offline, the shared data folder, and the repository first on the path."""
    env = dict(os.environ)
    env.setdefault("HF_HUB_OFFLINE", "1")
    env.setdefault("TRANSFORMERS_OFFLINE", "1")
    env.setdefault("TOKENIZERS_PARALLELISM", "false")
    env.setdefault("MPLBACKEND", "Agg")
    if SHARED_DATA.is_dir():
        env.setdefault("IR_RAG_AXIOMS_DATA", str(SHARED_DATA))
    # The package may be installed editable from an older tree layout; the repository on the path wins.
    env["PYTHONPATH"] = os.pathsep.join(p for p in (str(ROOT), env.get("PYTHONPATH", "")) if p)
    return env


def _check_interpreter_cell(nbformat):
    """A first cell (not saved) that fails unless the kernel runs this test's Python environment."""
    return nbformat.v4.new_code_cell(
        f"import sys\nassert sys.prefix == {sys.prefix!r}, (sys.executable, {sys.executable!r})"
    )


@pytest.mark.parametrize("path", [
    pytest.param(p, id=p.name, marks=[pytest.mark.shared] if p.name in NEEDS_SHARED else []) for p in NOTEBOOKS
])
def test_notebook_runs(path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    nbformat = pytest.importorskip("nbformat")
    nbclient = pytest.importorskip("nbclient")
    pytest.importorskip("ipykernel")
    if path.name in NEEDS_SHARED and not (SHARED_DATA / "trec-rag-24-crowd").is_dir():
        pytest.skip(f"{path.name} needs {SHARED_DATA} (set IR_RAG_AXIOMS_SHARED to the shared folder)")
    for name, value in _environment().items():  # the kernel inherits the environment of this process
        monkeypatch.setenv(name, value)

    notebook = nbformat.read(path, as_version=4)
    assert all(not cell.get("outputs") for cell in notebook.cells if cell.cell_type == "code"), (
        f"{path.name} is stored with outputs; clear them before committing")
    notebook.cells.insert(0, _check_interpreter_cell(nbformat))
    # kernel "python3" resolves to this interpreter: jupyter_client replaces the kernelspec's "python" by sys.executable
    client = nbclient.NotebookClient(
        notebook, kernel_name="python3", timeout=TIMEOUT, resources={"metadata": {"path": str(path.parent)}},
    )
    client.execute()  # raises CellExecutionError, naming the cell, on any error


def test_notebooks_exist() -> None:
    assert {p.name for p in NOTEBOOKS} >= {
        "01_axioms_on_the_demo_sample.ipynb", "02_pyterrier_reranking.ipynb",
        "03_evaluating_axioms_against_humans.ipynb", "04_write_your_own_axiom.ipynb",
    }


def _run(*args: str, timeout: int = 600) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, *args], cwd=ROOT, env=_environment(), capture_output=True, text=True,
                          timeout=timeout)


def test_quickstart_example() -> None:
    result = _run(str(ROOT / "examples" / "quickstart.py"))
    assert result.returncode == 0, result.stderr[-3000:]
    out = result.stdout
    assert "Request: What causes ocean tides?" in out
    for name in ("COH1", "CONS2", "CORR1", "CLAR2"):
        assert f"  {name}\n" in out
    borda = out.split("Ranking by Borda count")[1].split("Ranking by KwikSort")[0]
    places = [line.split()[1] for line in borda.splitlines() if line.strip()[:2].rstrip(".").isdigit()]
    assert sorted(places) == ["cited", "off-topic", "terse", "uncited"]
    assert places[0] == "cited" and places[-1] == "off-topic"  # grounded and cited first, off-topic last
    assert "Ranking by KwikSort" in out


@pytest.mark.shared
def test_rerank_nugget_answers_example(tmp_path: Path) -> None:
    nuggets = SHARED_DATA / "trec-rag-24-nuggets" / "nugget_assignment.dev20.jsonl.gz"
    if not nuggets.is_file():
        pytest.skip(f"{nuggets} is not available")
    run = tmp_path / "axiomatic.run"
    result = _run(str(ROOT / "examples" / "rerank_nugget_answers.py"), str(nuggets), str(run), "--topics", "2")
    assert result.returncode == 0, result.stderr[-3000:]
    lines = [line.split() for line in run.read_text().splitlines()]
    assert lines and all(len(parts) == 6 and parts[1] == "Q0" and parts[5] == "axiomatic" for parts in lines)
    assert len({parts[0] for parts in lines}) == 2
    for qid in {parts[0] for parts in lines}:
        ranks = [int(parts[3]) for parts in lines if parts[0] == qid]
        assert ranks == list(range(1, len(ranks) + 1))
    assert "nDCG@10" in result.stdout
