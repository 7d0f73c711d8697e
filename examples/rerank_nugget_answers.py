"""Rerank TREC RAG 2024 answers with axioms and write a TREC run file.

Usage:
    python examples/rerank_nugget_answers.py NUGGETS.jsonl[.gz] [RUN_FILE] [--topics N] [--axioms COH1,COV1]

NUGGETS is an AutoNuggetizer assignment file (one answer per line: qid, query, run_id, answer_text, nuggets),
e.g. ../shared/data/trec-rag-24-nuggets/nugget_assignment.dev20.jsonl.gz. Each topic's answers (one per
participating system) are reranked with ``AxiomaticReranker``; the run file lists the systems' answers per
topic in the axiomatic order (docno = <qid>/<run_id>, as in the registered dataset). The answers carry no
citations and the file no context passages, so the default axioms are COH1 (coherence) and COV1 (coverage).
The nugget scores themselves are only used to report nDCG@10 of the file order and of the reranked order.
"""

from __future__ import annotations

import argparse
import os
import sys

os.environ.setdefault("HF_HUB_OFFLINE", "1")

import ir_rag_axioms
from ir_rag_axioms import AxiomaticReranker
from ir_rag_axioms.datasets.runs import nugget_answers, nugget_qrels, write_trec_run


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("nuggets", help="AutoNuggetizer assignment JSONL (.gz allowed)")
    parser.add_argument("run", nargs="?", default="axiomatic.run", help="output TREC run file (default: axiomatic.run)")
    parser.add_argument("--topics", type=int, default=0, help="only the first N topics (default: all)")
    parser.add_argument("--axioms", default="COH1,COV1", help="comma-separated axiom names (default: COH1,COV1)")
    parser.add_argument("--aggregation", default="borda", help="borda | copeland | kwiksort | bradley_terry")
    args = parser.parse_args(argv)

    answers = nugget_answers(args.nuggets)
    if args.topics > 0:
        keep = sorted(answers["qid"].unique())[: args.topics]
        answers = answers[answers["qid"].isin(keep)].reset_index(drop=True)
    axioms = [ir_rag_axioms.parse(name.strip()) for name in args.axioms.split(",") if name.strip()]
    reranker = AxiomaticReranker(axioms, aggregation=args.aggregation)
    run = reranker(answers)
    path = write_trec_run(run, args.run, run_name="axiomatic")
    print(f"{reranker!r}: {run['qid'].nunique()} topics, {len(run)} answers -> {path}")

    try:
        import ir_measures
        from ir_measures import nDCG
    except ImportError:  # evaluation is optional
        return 0
    qrels = nugget_qrels(args.nuggets).rename(columns={"qid": "query_id", "docno": "doc_id", "label": "relevance"})
    qrels = qrels[qrels["query_id"].isin(set(run["qid"]))]
    for name, frame in (("file order", answers), ("reranked", run)):
        scored = frame.rename(columns={"qid": "query_id", "docno": "doc_id"})[["query_id", "doc_id", "score"]]
        value = ir_measures.calc_aggregate([nDCG @ 10], qrels, scored)[nDCG @ 10]
        print(f"  nDCG@10 against nugget scores (vital), {name}: {value:.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
