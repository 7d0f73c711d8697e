"""Benchmark AxiomaticReranker on the 20 TREC RAG 2024 nugget topics: one batched pass vs one query at a time.

The 20 topics hold 883 answers.

Usage (from the repository root)::

    PYTHONPATH=. IR_RAG_AXIOMS_WORKERS=1 HF_HUB_OFFLINE=1 \\
        python bench/bench_reranker.py [--axioms COH1,COV1] [--topics 20]

Both runs start from an empty analysis memo, after loading the models once (a warm-up on two unrelated texts),
so they time the same work: parsing, embedding and the axiom matrices. The outputs must be identical.
"""

from __future__ import annotations

import argparse
import os
import time
from pathlib import Path

import pandas as pd

RAG_AXIOMS = "COH1,COH2,COV1,COV2,COV3,CONS1,CONS2,CONS3,CORR1,CLAR2"
"""Every RAG axiom except CLAR1 (it needs a LanguageTool server)."""
DEFAULT_NUGGETS = (
    Path(__file__).resolve().parents[2] / "shared/data/trec-rag-24-nuggets/nugget_assignment.dev20.jsonl.gz"
)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--nuggets", type=Path, default=DEFAULT_NUGGETS, help="nugget_assignment JSONL(.gz) file")
    parser.add_argument("--axioms", default=RAG_AXIOMS, help=f"comma-separated axiom specs (default: {RAG_AXIOMS})")
    parser.add_argument("--aggregation", default="borda")
    parser.add_argument("--topics", type=int, default=None, help="only the first N topics")
    args = parser.parse_args()
    os.environ.setdefault("HF_HUB_OFFLINE", "1")

    from ir_rag_axioms.analysis.cache import default_analysis
    from ir_rag_axioms.axioms.registry import parse
    from ir_rag_axioms.pyterrier import AxiomaticReranker
    from ir_rag_axioms.runs import nugget_answers

    answers = nugget_answers(args.nuggets)
    if args.topics:
        answers = answers[answers["qid"].isin(answers["qid"].unique()[: args.topics])].reset_index(drop=True)
    axioms = [parse(spec) for spec in args.axioms.split(",")]
    reranker = AxiomaticReranker(axioms, args.aggregation)
    warmup = pd.DataFrame({"qid": "warm", "query": "why warm up", "docno": ["a", "b"],
                           "text": ["Models load once. Then they are fast.", "Loading is not part of the timing."]})
    reranker(warmup)  # load spaCy, the sentence encoder, etc.

    default_analysis().clear()
    start, cpu = time.perf_counter(), time.process_time()
    batched = reranker(answers)
    batched_seconds, batched_cpu = time.perf_counter() - start, time.process_time() - cpu

    default_analysis().clear()
    start, cpu = time.perf_counter(), time.process_time()
    alone = pd.concat([reranker(group) for _, group in answers.groupby("qid", sort=True)], ignore_index=True)
    alone_seconds, alone_cpu = time.perf_counter() - start, time.process_time() - cpu

    same = batched[["qid", "docno", "rank"]].equals(alone[["qid", "docno", "rank"]])
    n, q = len(answers), answers["qid"].nunique()
    print(f"axioms: {', '.join(map(repr, axioms))}; aggregation: {args.aggregation}")
    print(f"answers: {n} in {q} topics; spaCy processes: {os.environ.get('IR_RAG_AXIOMS_WORKERS', 'default')}")
    print(f"batched (all topics, one analysis pass): {batched_seconds:8.1f} s wall {n / batched_seconds:7.2f} answers/s"
          f"  ({batched_cpu:.1f} s CPU, {n / batched_cpu:.2f} answers/CPU-s)")
    print(f"one query at a time ({q} calls):        {alone_seconds:8.1f} s wall {n / alone_seconds:7.2f} answers/s"
          f"  ({alone_cpu:.1f} s CPU, {n / alone_cpu:.2f} answers/CPU-s)")
    print(f"one-at-a-time / batched: {alone_seconds / batched_seconds:.2f}x wall, {alone_cpu / batched_cpu:.2f}x CPU;"
          f" identical rankings: {same}")
    print("(wall time is noisy on a shared machine; CPU time counts this process's threads only)")


if __name__ == "__main__":
    main()
