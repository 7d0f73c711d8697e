"""The notebooks in notebooks/ run without errors and the examples work.

Run by nbclient, kernel ``python3`` of this interpreter.
"""

from __future__ import annotations

import os
import pickle
import re
import subprocess
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
import pytest

ROOT = Path(__file__).resolve().parents[1]
NOTEBOOKS = sorted((ROOT / "notebooks").glob("*.ipynb"))
SHARED_DATA = Path(os.environ.get("IR_RAG_AXIOMS_SHARED", ROOT.parent / "shared")) / "data"
NEEDS_SHARED = {"03_evaluating_axioms_against_humans.ipynb", "04_write_your_own_axiom.ipynb",
                "05_learned_axioms.ipynb", "07_which_system_is_better.ipynb"}
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


# -- the notebooks' printed figures, checked against an independent computation -----------------------------------
EXPORT = """
import os as _os
import pickle as _pickle
import pandas as _pd
_export = {{name: globals()[name] for name in {names!r} if name in globals()}}
_export["Out"] = {{k: v for k, v in Out.items() if isinstance(v, _pd.DataFrame)}}
with open(_os.environ["IR_RAG_AXIOMS_NOTEBOOK_EXPORT"], "wb") as _f:
    _pickle.dump(_export, _f)
"""
"""The last cell appended to a checked notebook: its variables and displayed frames into a pickle."""


def _ir(frame: pd.DataFrame) -> pd.DataFrame:
    """ir_measures' column names to ours (qid, docno, label)."""
    return frame.rename(columns={"query_id": "qid", "doc_id": "docno", "relevance": "label"})


def _per_query(run: pd.DataFrame, qrels: pd.DataFrame, measure: Callable[[np.ndarray, np.ndarray], float]) -> float:
    """The mean over the run's queries of measure(labels in score order (unjudged 0), the query's judged labels)."""
    run, qrels = _ir(run), _ir(qrels)
    values = []
    for qid, group in run.groupby(run["qid"].astype(str)):
        judged = qrels[qrels["qid"].astype(str) == qid]
        labels = dict(zip(judged["docno"].astype(str), judged["label"].astype(float), strict=True))
        ordered = group.sort_values("score", ascending=False, kind="stable")
        value = measure(np.array([labels.get(str(d), 0.0) for d in ordered["docno"]]), judged["label"].to_numpy(float))
        if not np.isnan(value):
            values.append(value)
    return float(np.mean(values))


def ndcg(k: int) -> Callable[[np.ndarray, np.ndarray], float]:
    """nDCG@k with linear gains (trec_eval's): sum_i g_i / log2(i + 2) over the top k, over the ideal order's."""
    def measure(gains: np.ndarray, judged: np.ndarray) -> float:
        discount = 1 / np.log2(np.arange(2, k + 2))
        ideal = (np.sort(np.clip(judged, 0, None))[::-1][:k] * discount[:len(judged[:k])]).sum()
        return float((np.clip(gains[:k], 0, None) * discount[:len(gains[:k])]).sum() / ideal) if ideal > 0 else 0.0
    return measure


def rr(rel: int) -> Callable[[np.ndarray, np.ndarray], float]:
    """1 / the rank of the first answer with label >= rel, 0 without one."""
    def measure(gains: np.ndarray, judged: np.ndarray) -> float:
        hits = np.flatnonzero(gains >= rel)
        return 1.0 / (hits[0] + 1) if hits.size else 0.0
    return measure


def kendall(run: pd.DataFrame, qrels: pd.DataFrame) -> float:
    """Mean over the run's queries of scipy's tau-b of score and label (unjudged 0), constant sides left out."""
    from scipy.stats import kendalltau

    run, qrels = _ir(run), _ir(qrels)
    values = []
    for qid, group in run.groupby(run["qid"].astype(str)):
        judged = qrels[qrels["qid"].astype(str) == qid]
        labels = group["docno"].astype(str).map(dict(zip(judged["docno"].astype(str), judged["label"], strict=True)))
        tau = kendalltau(group["score"].to_numpy(float), labels.fillna(0).to_numpy(float)).statistic
        if not np.isnan(tau):
            values.append(tau)
    return float(np.mean(values))


def _shown(notebook: Any, marker: str, out: dict[int, pd.DataFrame]) -> pd.DataFrame:
    """The frame displayed by the code cell whose source contains marker."""
    cell = next(c for c in notebook.cells if c.cell_type == "code" and marker in c.source)
    return out[cell.execution_count]


def _printed(notebook: Any, pattern: str) -> list[str]:
    """Every match of pattern in the notebook's printed (stream) output."""
    text = "".join(o.get("text", "") for c in notebook.cells if c.cell_type == "code" for o in c.get("outputs", [])
                   if o.get("output_type") == "stream")
    return re.findall(pattern, text)


def _verify_02(notebook: Any, data: dict[str, Any]) -> None:
    table = _shown(notebook, "eval_metrics=[nDCG @ 3, RR(rel=3), KendallTau]", data["Out"]).set_index("name")
    assert len(table) == len(data["runs"]) == 5
    for name, run in data["runs"].items():
        assert table.loc[name, "nDCG@3"] == pytest.approx(_per_query(run, data["qrels"], ndcg(3)), abs=1e-9), name
        assert table.loc[name, "RR(rel=3)"] == pytest.approx(_per_query(run, data["qrels"], rr(3)), abs=1e-9), name
        assert table.loc[name, "KendallTau"] == pytest.approx(kendall(run, data["qrels"]), abs=1e-9), name
    said = next(c.source for c in notebook.cells if "the pairwise view" in c.source)  # the text above the pairs
    assert "by\ndocno (ascending" in said and "row order" not in said
    for _, part in data["pairs"].groupby("qid"):
        assert list(part["docno_a"]) == sorted(part["docno_a"])  # what the output shows: docno order
    best = data["best"]
    assert best["qid"].tolist() == sorted(data["samples"]["qid"].unique())  # one sampled answer per query
    assert all(d.startswith(f"{q}/") for q, d in zip(best["qid"], best["docno"], strict=True))


def _verify_03(notebook: Any, data: dict[str, Any]) -> None:
    table = _shown(notebook, "evaluation.evaluation_table(preferences, truth", data["Out"]).set_index("axiom")
    for name, matrices in data["preferences"].items():
        pairs = decided = agree = same = 0
        for p, o in zip(matrices, data["truth"], strict=True):
            for i in range(len(p)):
                for j in range(len(p)):
                    if i != j:
                        pairs += 1
                        if np.sign(p[i, j]) != 0:
                            decided += 1
                            agree += abs(np.sign(p[i, j]) - np.sign(o[i, j])) <= 1
                            same += np.sign(p[i, j]) == np.sign(o[i, j])
        d, c = decided / pairs, (agree / decided if decided else float("nan"))  # 0/0: undefined
        e = 2 * d * c / (d + c) if decided else 0.0
        expected = {"decisiveness": d, "consistency": c,
                    "consistency_strict": same / decided if decided else float("nan"), "effectiveness": e}
        for measure, value in expected.items():
            assert table.loc[name, measure] == pytest.approx(round(value, 3), abs=1e-9, nan_ok=True), (name, measure)


def _verify_05(notebook: Any, data: dict[str, Any]) -> None:
    printed = dict(_printed(notebook, r"(file order|learned, KwikSort): nDCG@10 = ([0-9.]+)"))
    runs = {"file order": data["answers"], "learned, KwikSort": data["reranked"]}
    assert set(printed) == set(runs)
    for name, run in runs.items():
        assert float(printed[name]) == pytest.approx(round(_per_query(run, data["qrels"], ndcg(10)), 3), abs=1e-9)
    assert set(_ir(data["qrels"])["qid"]) == set(data["answers"]["qid"])  # the run's topics only


@dataclass(frozen=True)
class Figures:
    """What a notebook's appended cell exports (``names``, after ``prelude``) and the check of its printed figures."""

    names: tuple[str, ...]
    verify: Callable[[Any, dict[str, Any]], None]
    prelude: str = ""


FIGURES = {
    "02_pyterrier_reranking.ipynb": Figures(("qrels", "runs", "pairs", "best", "samples"), _verify_02, prelude="""
_names = [">> CORR1", ">> COH1+CONS2+CORR1 (Borda)", ">> CONS2+CORR1 (Borda)", ">> CONS2+CORR1 (KwikSort)"]
_rerankers = [AxiomaticReranker(CORR1), AxiomaticReranker([COH1, CONS2, CORR1]), AxiomaticReranker([CONS2, CORR1]),
              AxiomaticReranker([CONS2, CORR1], aggregation="kwiksort")]
runs = {"shuffled": first_stage(topics)} | {n: (first_stage >> r)(topics) for n, r in zip(_names, _rerankers)}
"""),
    "03_evaluating_axioms_against_humans.ipynb": Figures(("preferences", "truth"), _verify_03),
    "05_learned_axioms.ipynb": Figures(("answers", "reranked", "qrels"), _verify_05),
}
"""Notebooks whose printed measures the test recomputes: 02 (pt.Experiment), 03 (evaluation table), 05 (nDCG)."""


@pytest.mark.parametrize("path", [
    pytest.param(p, id=p.name, marks=[pytest.mark.shared] if p.name in NEEDS_SHARED else []) for p in NOTEBOOKS
])
def test_notebook_runs(path: Path, monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
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
    export = tmp_path / "export.pickle"
    monkeypatch.setenv("IR_RAG_AXIOMS_NOTEBOOK_EXPORT", str(export))
    check = FIGURES.get(path.name)
    if check is not None:
        notebook.cells.append(nbformat.v4.new_code_cell(check.prelude + EXPORT.format(names=check.names)))
    client = nbclient.NotebookClient(
        notebook, kernel_name="python3", timeout=TIMEOUT, resources={"metadata": {"path": str(path.parent)}},
    )
    client.execute()  # raises CellExecutionError, naming the cell, on any error
    if check is not None:
        with open(export, "rb") as handle:
            check.verify(client.nb, pickle.load(handle))


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
