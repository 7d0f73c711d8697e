"""Benchmark AxiomaticReranker on the 20 TREC RAG 2024 nugget topics (883 answers), in one process.

Usage (from the repository root)::

    PYTHONPATH=. HF_HUB_OFFLINE=1 python bench/bench_reranker.py [--cases batched,reuse] [--axioms COH1,COV1]
        [--topics 20]

Cases:
- ``batched``: one batched pass vs one query at a time. Both runs start from an empty analysis memo, after loading
  the models once (a warm-up on two unrelated texts), so they time the same work: parsing, embedding and the axiom
  matrices. The outputs must be identical.
- ``reuse``: what the process default analysis saves. The first reranking (``--aggregation``) from an empty
  analysis, then the same frame with two other aggregations (target: both together <= 20 % of the first); then,
  from an empty analysis again, ``pt.Experiment`` of the three aggregations against one reranker's time
  (target <= 1.3x). The answers/s of the first call and of the whole process since its start ("cold") are printed.
"""

from __future__ import annotations

import argparse
import os
import time
from pathlib import Path

import pandas as pd

START = time.perf_counter()

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
    parser.add_argument("--cases", default="batched,reuse", help="comma-separated: batched, reuse")
    args = parser.parse_args()
    os.environ.setdefault("HF_HUB_OFFLINE", "1")

    from ir_rag_axioms.axioms.registry import parse
    from ir_rag_axioms.datasets.runs import nugget_answers
    from ir_rag_axioms.pyterrier import AxiomaticReranker

    answers = nugget_answers(args.nuggets)
    if args.topics:
        answers = answers[answers["qid"].isin(answers["qid"].unique()[: args.topics])].reset_index(drop=True)
    axioms = [parse(spec) for spec in args.axioms.split(",")]
    reranker = AxiomaticReranker(axioms, args.aggregation)
    warmup = pd.DataFrame({"qid": "warm", "query": "why warm up", "docno": ["a", "b"],
                           "text": ["Models load once. Then they are fast.", "Loading is not part of the timing."]})
    reranker(warmup)  # load spaCy, the sentence encoder, etc.
    print(f"axioms: {', '.join(map(repr, axioms))}; answers: {len(answers)} in {answers['qid'].nunique()} topics; "
          f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
    if "reuse" in args.cases:
        reuse(answers, axioms, args.aggregation)
    if "batched" in args.cases:
        batched_vs_alone(answers, reranker)


def reuse(answers: pd.DataFrame, axioms: list, aggregation: str) -> None:
    """First reranking vs two more aggregations of the same frame; pt.Experiment of three vs one reranker."""
    import pyterrier as pt
    from ir_measures import nDCG

    from ir_rag_axioms.analysis.cache import default_analysis
    from ir_rag_axioms.pyterrier import AxiomaticReranker

    others = [a for a in ("borda", "kwiksort", "copeland", "bradley_terry") if a != aggregation][:2]
    default_analysis().clear()
    start = time.perf_counter()
    AxiomaticReranker(axioms, aggregation)(answers)
    first = time.perf_counter() - start
    cold = time.perf_counter() - START
    seconds = []
    for other in others:
        start = time.perf_counter()
        AxiomaticReranker(axioms, other)(answers)
        seconds.append(time.perf_counter() - start)
    n = len(answers)
    print(f"\nreuse in one process ({n} answers; default analysis {default_analysis()!r}):")
    print(f"  first reranking ({aggregation}): {first:7.1f} s  {n / first:6.2f} answers/s "
          f"(cold process, imports and models included: {cold:.1f} s, {n / cold:.2f} answers/s)")
    for other, s in zip(others, seconds, strict=True):
        print(f"  then {other:<14}      {s:7.2f} s")
    print(f"  second + third / first: {sum(seconds) / first:.1%} (target <= 20 %; before: 114 %)")

    source = pt.Transformer.from_df(answers)
    topics = answers[["qid", "query"]].drop_duplicates("qid").reset_index(drop=True)
    qrels = pd.DataFrame({"qid": answers["qid"], "docno": answers["docno"], "label": 1})
    aggregations = [aggregation, *others]
    default_analysis().clear()
    start = time.perf_counter()
    (source >> AxiomaticReranker(axioms, aggregation))(topics)
    one = time.perf_counter() - start
    default_analysis().clear()
    start = time.perf_counter()
    pt.Experiment([source >> AxiomaticReranker(axioms, a) for a in aggregations], topics, qrels, [nDCG @ 10],
                  names=aggregations)
    experiment = time.perf_counter() - start
    print(f"  one reranker from an empty analysis: {one:7.1f} s; pt.Experiment of {len(aggregations)} "
          f"aggregations: {experiment:7.1f} s = {experiment / one:.2f}x (target <= 1.3x); "
          f"load average {os.getloadavg()[0]:.1f}")


def batched_vs_alone(answers: pd.DataFrame, reranker: object) -> None:
    """One batched pass over all topics vs one reranker call per topic, each from an empty analysis."""
    from ir_rag_axioms.analysis.cache import default_analysis

    default_analysis().clear()
    start, cpu = time.perf_counter(), time.process_time()
    batched = reranker(answers)  # type: ignore[operator]
    batched_seconds, batched_cpu = time.perf_counter() - start, time.process_time() - cpu

    default_analysis().clear()
    start, cpu = time.perf_counter(), time.process_time()
    alone = pd.concat([reranker(group) for _, group in answers.groupby("qid", sort=True)], ignore_index=True)
    alone_seconds, alone_cpu = time.perf_counter() - start, time.process_time() - cpu

    same = batched[["qid", "docno", "rank"]].equals(alone[["qid", "docno", "rank"]])
    n, q = len(answers), answers["qid"].nunique()
    print(f"\nanswers: {n} in {q} topics; spaCy processes: {os.environ.get('IR_RAG_AXIOMS_WORKERS', 'default')}")
    print(f"batched (all topics, one analysis pass): {batched_seconds:8.1f} s wall {n / batched_seconds:7.2f} answers/s"
          f"  ({batched_cpu:.1f} s CPU, {n / batched_cpu:.2f} answers/CPU-s)")
    print(f"one query at a time ({q} calls):        {alone_seconds:8.1f} s wall {n / alone_seconds:7.2f} answers/s"
          f"  ({alone_cpu:.1f} s CPU, {n / alone_cpu:.2f} answers/CPU-s)")
    print(f"one-at-a-time / batched: {alone_seconds / batched_seconds:.2f}x wall, {alone_cpu / batched_cpu:.2f}x CPU;"
          f" identical rankings: {same}")
    print("(wall time is noisy on a shared machine; CPU time counts this process's threads only)")


if __name__ == "__main__":
    main()
