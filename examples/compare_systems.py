"""Rank the 45 TREC RAG 2024 systems of the 20 nugget topics by axioms; compare with their official nugget scores.

Usage: python examples/compare_systems.py [DATA_DIR] [OUT_DIR]   (DATA_DIR: ../shared/data/trec-rag-24-nuggets)
"""

from __future__ import annotations

import sys
from pathlib import Path

from ir_rag_axioms.datasets import runs
from ir_rag_axioms.datasets.files import NUGGET_ASSIGNMENTS, resolve
from ir_rag_axioms.datasets.nuggets import NUGGET_SCORES, load_nugget_assignments, score_column
from ir_rag_axioms.evaluation import report, systems

AXIOMS = ["COH1", "COH2", "COV1", "COV2", "COV3", "CONS3", "CORR1", "CLAR2"]
"""The RAG axioms that read no context (the nugget answers have none) and need no LanguageTool."""


def main(data: str = "../shared/data/trec-rag-24-nuggets", out: str = "out-systems") -> None:
    """Write systems.csv/.md, correlation.csv and systems.png to ``out`` and print the tables."""
    path = resolve(NUGGET_ASSIGNMENTS, data)
    answers = runs.nugget_answers(path)  # system = run_id
    table = systems.compare_systems(AXIOMS, answers, samples=1000, cache_dir=Path(out) / "matrices", progress=True)
    assignments = load_nugget_assignments(path)
    correlations = []
    for score in NUGGET_SCORES:
        for strict in (False, True):
            column = score_column(score, strict)
            official = assignments.groupby("run_id")[column].mean().to_dict()  # macro over topics, NaN skipped
            correlations.append(systems.rank_correlation(table, official).assign(nugget_score=column))
    text = report.write_systems(out, table, correlations)
    print(text)


if __name__ == "__main__":
    main(*sys.argv[1:3])
