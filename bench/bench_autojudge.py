"""Benchmark the AutoJudge cold at the issue's size: 1,588 answers (36 topics x about 45 runs, no context).

Usage (from the repository root)::

    HF_HUB_OFFLINE=1 python bench/bench_autojudge.py [--answers 1588] [--limit 200] [--workers 2] [--json out.json]

The answers: the shared nugget data has 20 topics x 45 runs (883 answers, 7 of them empty: the judge abstains on
those). Topics 21-36 are built from them: derived topic j (j = 0..15) asks source topic j's query and each run's
answer to it is that run's answer to topic j followed by its answer to topic j + 1 (so every string is new: no
cache hit); the first 1,588 answers in that order are kept. They are written as TREC RAG 2024 reports (one file
per run) and a topics file, as ``ir-rag-axioms nugget-reports`` writes them.

Two fresh processes, side by side in one run, on the first ``--limit`` answers (all of them with ``--limit 0``):
- judge: ``evaluation.autojudge.judge_files`` cold (imports, model loading, reading the reports, scoring, writing);
- floor: spaCy (the library's pipeline, all components) over the same answer texts and queries, and the sentence
  encoder over their sentences, with the same worker count; model loading timed apart.
The machine is shared now, so the default measures a capped subset (``--limit 200``) and extrapolates both to
``--answers`` linearly per answer (labelled "extrapolated"); the target is <= 10 minutes on 2 cores.
The scorer is ``evaluation.leaderboard.system_leaderboard`` where it exists; before it is merged, the bench's
``fallback_scorer``: per-topic win rates of the ``compare`` command's ten default axioms and their mean (labelled).
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")
os.environ.setdefault("TQDM_DISABLE", "1")
ROOT = Path(__file__).resolve().parents[1]
SHARED = Path(os.environ.get("IR_RAG_AXIOMS_SHARED", ROOT.parent / "shared"))
NUGGETS = SHARED / "data" / "trec-rag-24-nuggets"
FALLBACK_AXIOMS = "COH1,COH2,COV1,COV2,COV3,CONS1,CONS2,CONS3,CORR1,CLAR2"
TARGET_S = 600.0


def answers(count: int) -> list[dict]:
    """``count`` answers (run_id, qid, query, text): the 20 nugget topics, then topics derived from them."""
    from ir_rag_axioms.datasets.nuggets import load_nugget_assignments

    frame = load_nugget_assignments(NUGGETS)
    topics = list(dict.fromkeys(frame["qid"]))
    text = {(r, q): str(t) for r, q, t in zip(frame["run_id"], frame["qid"], frame["answer_text"], strict=True)}
    query = dict(zip(frame["qid"], frame["query"], strict=False))
    rows = [{"run_id": r, "qid": q, "query": query[q], "text": text[(r, q)]} for r, q in text]
    for j, source in enumerate(topics[:16]):
        after = topics[(j + 1) % len(topics)]
        for run_id in sorted({r for r, q in text if q == source}):
            rows.append({"run_id": run_id, "qid": f"{source}-d{j}", "query": query[source],
                         "text": " ".join([text[(run_id, source)], text.get((run_id, after), "")]).strip()})
    if len(rows) < count:
        raise SystemExit(f"only {len(rows)} answers can be built, asked for {count}")
    return rows[:count]


def write_reports(rows: list[dict], folder: Path) -> tuple[Path, Path]:
    """TREC RAG 2024 reports (one file per run, Punkt sentences) and the topics file of ``rows``."""
    import punkt

    (folder / "reports").mkdir(parents=True, exist_ok=True)
    by_run: dict[str, list[str]] = {}
    topics: dict[str, str] = {}
    for row in rows:
        topics.setdefault(row["qid"], row["query"])
        sentences = [" ".join(s.split()) for s in punkt.sent_tokenize(row["text"]) if s.strip()]
        by_run.setdefault(row["run_id"], []).append(json.dumps({
            "metadata": {"run_id": row["run_id"], "team_id": row["run_id"], "topic_id": row["qid"]},
            "references": [], "answer": [{"text": s, "citations": []} for s in sentences]}))
    for k, lines in enumerate(by_run.values()):
        (folder / "reports" / f"run{k:03d}.jsonl").write_text("\n".join(lines) + "\n", encoding="utf-8")
    topics_file = folder / "topics.jsonl"
    topics_file.write_text("".join(json.dumps({"request_id": q, "title": t}) + "\n" for q, t in topics.items()),
                           encoding="utf-8")
    return folder / "reports", topics_file


def fallback_scorer(answers, axioms=None, *, method: str = "default", progress: bool = True):
    """Per topic and axiom the win rate (wins + ties / 2 over the other runs); ``mean`` of them first."""
    import numpy as np
    import pandas as pd

    from ir_rag_axioms.axioms.presets import parse_axioms
    from ir_rag_axioms.evaluation.evaluate import compute_preferences
    from ir_rag_axioms.model import GenerationRequest, GenerationResponse

    named = axioms or parse_axioms(FALLBACK_AXIOMS)
    groups = list(answers.groupby("topic", sort=False))
    items = [(GenerationRequest(str(t), str(g["query"].iloc[0])),
              [GenerationResponse(str(r), str(x)) for r, x in zip(g["run_id"], g["text"], strict=True)])
             for t, g in groups]
    matrices = compute_preferences(named, items, progress)
    rows = []
    for k, (topic, group) in enumerate(groups):
        n = len(group)
        rates = {}
        for name, stack in matrices.items():
            m = np.sign(np.nan_to_num(stack[k]))
            wins, losses = (m > 0).sum(axis=1), (m < 0).sum(axis=1)
            rates[name] = (wins + (n - 1 - wins - losses) / 2) / max(n - 1, 1)
        for i, run_id in enumerate(group["run_id"]):
            rows.append((run_id, topic, "mean", float(np.mean([r[i] for r in rates.values()]))))
            rows.extend((run_id, topic, name, float(r[i])) for name, r in rates.items())
    frame = pd.DataFrame(rows, columns=["run_id", "topic", "measure", "value"])
    means = frame.groupby(["run_id", "measure"], sort=False)["value"].mean().reset_index().assign(topic="all")
    return pd.concat([frame, means[frame.columns]], ignore_index=True)


def child_judge(spec: dict) -> dict:
    """The judge, cold in this process: imports, models, reading, scoring, writing."""
    start = time.perf_counter()
    from ir_rag_axioms.evaluation import autojudge

    scorer = None if spec["default_scorer"] else fallback_scorer
    autojudge.judge_files([spec["reports"]], spec["topics"], spec["out"], scorer=scorer, progress=False)
    total = time.perf_counter() - start
    with open(spec["out"], encoding="utf-8") as lines:
        count = sum(1 for _ in lines)
    return {"judge_s": total, "lines": count}


def child_floor(spec: dict) -> dict:
    """spaCy over the answer texts and queries, the encoder over their sentences (models loaded apart)."""
    from ir_rag_axioms.analysis import workers
    from ir_rag_axioms.analysis.resources import load_sentence_encoder, load_spacy

    rows = json.loads(Path(spec["rows"]).read_text())
    texts = sorted({r["text"] for r in rows if r["text"].strip()} | {r["query"] for r in rows})
    start = time.perf_counter()
    nlp = load_spacy()
    encoder = load_sentence_encoder()
    load_s = time.perf_counter() - start
    start = time.perf_counter()
    sentences = set()
    for doc in nlp.pipe(texts, batch_size=64, n_process=spec["workers"]):
        sentences.update(s.text for s in doc.sents)
    spacy_s = time.perf_counter() - start
    start = time.perf_counter()
    with workers.torch_threads(spec["workers"]):
        encoder.encode(sorted(sentences | set(texts)), batch_size=32, convert_to_numpy=True,
                       normalize_embeddings=True, show_progress_bar=False)
    encoder_s = time.perf_counter() - start
    return {"floor_load_s": load_s, "floor_spacy_s": spacy_s, "floor_encoder_s": encoder_s,
            "floor_s": spacy_s + encoder_s, "texts": len(texts), "strings": len(sentences | set(texts))}


def run_child(kind: str, spec: dict, workers: int) -> dict:
    env = {**os.environ, "IR_RAG_AXIOMS_WORKERS": str(workers), "PYTHONPATH": str(ROOT)}
    done = subprocess.run([sys.executable, __file__, "--child", kind, json.dumps(spec)], capture_output=True,
                          text=True, env=env, check=False)
    if done.returncode:
        raise SystemExit(f"{kind} failed:\n{done.stderr[-4000:]}")
    return json.loads(done.stdout.strip().splitlines()[-1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--answers", type=int, default=1588, help="the full set's size (extrapolated to)")
    parser.add_argument("--limit", type=int, default=200, help="answers measured (0: all)")
    parser.add_argument("--workers", type=int, default=2, help="worker processes (the issue's 2 cores)")
    parser.add_argument("--json", help="write the figures here")
    parser.add_argument("--child", nargs=2, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        kind, spec = args.child
        print(json.dumps((child_judge if kind == "judge" else child_floor)(json.loads(spec))))
        return
    rows = answers(args.answers)
    measured = rows[:args.limit] if args.limit else rows
    default = importlib.util.find_spec("ir_rag_axioms.evaluation.leaderboard") is not None
    with tempfile.TemporaryDirectory() as tmp:
        reports, topics = write_reports(measured, Path(tmp))
        rows_file = Path(tmp) / "rows.json"
        rows_file.write_text(json.dumps(measured))
        judge = run_child("judge", {"reports": str(reports), "topics": str(topics), "out": str(Path(tmp) / "b.tot"),
                                    "default_scorer": default}, args.workers)
        floor = run_child("floor", {"rows": str(rows_file), "workers": args.workers}, args.workers)
    scale = args.answers / len(measured)
    figures = {**judge, **floor, "answers_measured": len(measured), "answers_target": args.answers,
               "topics_measured": len({r["qid"] for r in measured}), "workers": args.workers,
               "scorer": "system_leaderboard" if default else f"bench fallback ({FALLBACK_AXIOMS})",
               "ratio_judge_to_floor": judge["judge_s"] / floor["floor_s"],
               "ratio_judge_to_floor_with_loading": judge["judge_s"] / (floor["floor_s"] + floor["floor_load_s"]),
               "extrapolated_judge_s": judge["judge_s"] * scale if scale != 1 else None,
               "extrapolated_floor_s": floor["floor_s"] * scale if scale != 1 else None}
    print(f"scorer: {figures['scorer']}; {len(measured)} answers on {figures['topics_measured']} topics, "
          f"{args.workers} workers, cold")
    print(f"  judge (cold: imports, models, reading, scoring, writing): {judge['judge_s']:8.1f} s")
    print(f"  floor (spaCy {floor['floor_spacy_s']:.1f} s + encoder {floor['floor_encoder_s']:.1f} s; models "
          f"{floor['floor_load_s']:.1f} s apart): {floor['floor_s']:8.1f} s")
    print(f"  ratio judge / floor: x{figures['ratio_judge_to_floor']:.2f} (x"
          f"{figures['ratio_judge_to_floor_with_loading']:.2f} against floor + model loading)")
    if scale != 1:
        verdict = "within" if judge["judge_s"] * scale <= TARGET_S else "over"
        print(f"  extrapolated linearly to {args.answers} answers: judge {judge['judge_s'] * scale:.0f} s, floor "
              f"{floor['floor_s'] * scale:.0f} s ({verdict} the {TARGET_S:.0f} s target; extrapolated, not measured)")
    if args.json:
        Path(args.json).write_text(json.dumps(figures, indent=2))


if __name__ == "__main__":
    main()
