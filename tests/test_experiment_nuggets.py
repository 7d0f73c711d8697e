"""A real pt.Experiment on the 20 TREC RAG 2024 nugget topics: identity vs axiomatic reranking vs random.

Run as a script for the README table with every RAG axiom except CLAR1 (slow, ~15 min on 2 cores):
``PYTHONPATH=. python tests/test_experiment_nuggets.py --all-axioms``. The test uses a cheaper subset.
"""

from __future__ import annotations

import os
import sys
import zlib
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

NUGGETS = Path("trec-rag-24-nuggets") / "nugget_assignment.dev20.jsonl.gz"
ALL_AXIOMS = ["COH1", "COH2", "COV1", "COV2", "COV3", "CONS1", "CONS2", "CONS3", "CORR1", "CLAR2"]
"""Every RAG axiom except CLAR1 (needs a LanguageTool server); CONS1/CONS2 abstain: the answers have no context."""
CHEAP_AXIOMS = ["COV1", "CORR1", "CLAR2"]
"""A subset that shares one spaCy parse and needs no sentence embeddings (keeps the test to a few minutes)."""
AGGREGATIONS = ["borda", "copeland", "kwiksort", "bradley_terry"]
LABELS = ["all", "vital", "weighted"]


def random_score(row: pd.Series, seed: int = 42) -> float:
    """A seeded random ranking: score = crc32(seed, qid, docno) / 2^32, independent of row order."""
    return zlib.crc32(f"{seed}\t{row['qid']}\t{row['docno']}".encode()) / 2**32


def run_experiment(path: Path, axiom_names: list[str], verbose: bool = False) -> pd.DataFrame:
    """nDCG@10 and Kendall's tau-b of each system against each nugget label (all, vital, weighted)."""
    import pyterrier as pt
    from ir_measures import nDCG

    from ir_rag_axioms.axioms.registry import get
    from ir_rag_axioms.datasets.runs import nugget_answers, nugget_qrels
    from ir_rag_axioms.evaluation.run_measures import KendallTau
    from ir_rag_axioms.pyterrier import AxiomaticReranker

    answers = nugget_answers(path)
    topics = answers[["qid", "query"]].drop_duplicates("qid").reset_index(drop=True)
    source = pt.Transformer.from_df(answers)
    axioms = [get(name) for name in axiom_names]
    systems = {"identity": source}
    for aggregation in AGGREGATIONS:
        systems[f"axioms-{aggregation}"] = source >> AxiomaticReranker(axioms, aggregation, verbose=verbose)
    systems["random"] = source >> pt.apply.doc_score(random_score)
    results = {name: system(topics) for name, system in systems.items()}
    tables = []
    for label in LABELS:
        table = pt.Experiment(
            list(results.values()), topics, nugget_qrels(path, label, scale=100), [nDCG @ 10, KendallTau],
            names=list(results), round=4,
        )
        tables.append(table.assign(labels=label))
    return pd.concat(tables, ignore_index=True)[["labels", "name", "nDCG@10", "KendallTau"]]


@pytest.mark.shared
@pytest.mark.slow
def test_experiment_on_nugget_topics(data_dir: Path) -> None:
    table = run_experiment(data_dir / NUGGETS, CHEAP_AXIOMS)
    names = ["identity", *(f"axioms-{a}" for a in AGGREGATIONS), "random"]
    assert table.shape == (len(LABELS) * len(names), 4)
    assert table["name"].tolist() == names * len(LABELS)
    assert table["labels"].tolist() == [label for label in LABELS for _ in names]
    assert np.isfinite(table[["nDCG@10", "KendallTau"]].to_numpy(dtype=float)).all()
    assert table["nDCG@10"].between(0, 1).all() and table["KendallTau"].between(-1, 1).all()
    print(table.to_string(index=False))


if __name__ == "__main__":
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    os.environ.setdefault("IR_RAG_AXIOMS_WORKERS", "1")
    shared = Path(os.environ.get("IR_RAG_AXIOMS_SHARED", Path(__file__).resolve().parents[2] / "shared"))
    names = ALL_AXIOMS if "--all-axioms" in sys.argv else CHEAP_AXIOMS
    result = run_experiment(shared / "data" / NUGGETS, names, verbose=True)
    pd.set_option("display.width", 200)
    print(f"axioms: {names}")
    print(result.pivot(index="name", columns="labels", values=["nDCG@10", "KendallTau"]).loc[result["name"].unique()])
