"""Benchmark the AutoJudge cold at TREC RAG 2026's size: about 83 runs x 119 topics (9,877 answers), 2 cores.

Usage (from the repository root)::

    HF_HUB_OFFLINE=1 python bench/bench_autojudge.py [--runs 83] [--topics 119] [--measure 12] [--by-topic]
        [--workers 2] [--encoder] [--floor-only] [--json out.json]

The answers are built from the shared data's texts by resampling (seeded, so every run of the bench judges the same
set): 119 topics, the 20 of the nugget data (45 answers each) and the first 99 other topics of the crowd data (6
responses each). Run k's answer to topic j is a fresh draw of the topic's sentences (Punkt), without replacement,
until it has as many words as one of the topic's answers drawn at random (at most 1,024: TREC RAG 2026's limit);
each sentence cites 0 to 3 of the report's 20 references. So every answer is on topic and a new string (no cache
hit). They are written as TREC RAG 2026 reports (``narrative_id``, one file per run) and a topics file.

Two fresh processes on the topics measured (``--measure``: every k-th topic, about a tenth by default; 0: all):
- judge: ``evaluation.autojudge.judge_files`` cold with the default scorer (``--by-topic``: one topic at a time):
  imports and model loading timed first, then reading, scoring and writing; its peak memory (max RSS, MiB);
- floor: one spaCy pass (the library's pipeline, every component) over the same texts and queries with the same
  worker count (``--encoder``: then the sentence encoder over their sentences, timed apart); model loading apart.
The judge's figures are printed as soon as it ends (``--floor-only``: the floor alone). Wall times on a busy
machine are inflated; the CPU seconds (user + system of every process) much less.
The judge's time is extrapolated to all topics as loading + scoring x (topics / topics measured), labelled
"extrapolated"; the target is <= 20 minutes (1,200 s) on 2 cores.
"""

from __future__ import annotations

import argparse
import gzip
import json
import os
import random
import resource
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
CROWD = SHARED / "data" / "trec-rag-24-crowd" / "responses.jsonl.gz"
TARGET_S = 1200.0
MAX_WORDS = 1024
REFERENCES = 20
SEED = 2026


def topic_pools(topics: int) -> list[tuple[str, list[str]]]:
    """(query, the topic's answer texts) of ``topics`` topics: the nugget data's, then the crowd data's others."""
    from ir_rag_axioms.datasets.nuggets import load_nugget_assignments

    frame = load_nugget_assignments(NUGGETS)
    pools: dict[str, tuple[str, list[str]]] = {}
    for qid, query, text in zip(frame["qid"], frame["query"], frame["answer_text"], strict=True):
        pools.setdefault(str(qid), (str(query), []))[1].append(str(text or ""))
    with gzip.open(CROWD, "rt", encoding="utf-8") as lines:
        for line in lines:
            row = json.loads(line)
            topic = f"crowd-{row['topic']}"
            if str(row["topic"]) not in pools:
                pools.setdefault(topic, (str(row["query"]), []))[1].append(str(row["cleaned_text"] or ""))
    if len(pools) < topics:
        raise SystemExit(f"only {len(pools)} topics can be built, asked for {topics}")
    return list(pools.values())[:topics]


def answers(runs: int, topics: int) -> list[dict]:
    """``runs`` x ``topics`` answers (run_id, qid, query, sentences with citations), resampled (module docstring)."""
    import punkt

    rows = []
    for j, (query, texts) in enumerate(topic_pools(topics)):
        sentences = sorted({" ".join(s.split()) for t in texts for s in punkt.sent_tokenize(t) if s.strip()})
        lengths = [min(len(t.split()), MAX_WORDS) for t in texts if t.strip()]
        for k in range(runs):
            rng = random.Random(f"{SEED}/{j}/{k}")
            order = rng.sample(sentences, len(sentences))
            wanted, chosen, words = rng.choice(lengths), [], 0
            for sentence in order:
                size = len(sentence.split())
                if words + size > min(wanted, MAX_WORDS) and chosen:
                    break
                chosen.append({"text": sentence, "citations": sorted(rng.sample(range(REFERENCES),
                                                                                rng.randint(0, 3)))})
                words += size
            rows.append({"run_id": f"run{k:02d}", "qid": f"topic{j:03d}", "query": query, "answer": chosen})
    return rows


def write_reports(rows: list[dict], folder: Path) -> tuple[Path, Path]:
    """TREC RAG 2026 reports (one file per run) and the topics file of ``rows``."""
    (folder / "reports").mkdir(parents=True, exist_ok=True)
    by_run: dict[str, list[str]] = {}
    topics: dict[str, str] = {}
    for row in rows:
        topics.setdefault(row["qid"], row["query"])
        by_run.setdefault(row["run_id"], []).append(json.dumps({
            "metadata": {"run_id": row["run_id"], "team_id": row["run_id"], "narrative_id": row["qid"],
                         "narrative": row["query"], "run_desc": "resampled"},
            "references": [f"shard_{row['qid'][5:]}_{m}" for m in range(REFERENCES)], "answer": row["answer"]}))
    for run_id, lines in by_run.items():
        (folder / "reports" / f"{run_id}.jsonl").write_text("\n".join(lines) + "\n", encoding="utf-8")
    topics_file = folder / "topics.jsonl"
    topics_file.write_text("".join(json.dumps({"request_id": q, "title": t}) + "\n" for q, t in topics.items()),
                           encoding="utf-8")
    return folder / "reports", topics_file


def _cpu_s() -> float:
    """CPU seconds (user + system) of this process and its finished children (spaCy's worker processes)."""
    own, children = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


def _peak_mib() -> float:
    """The peak resident memory of this process and of its finished children, MiB (Linux reports KiB)."""
    own = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    children = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    return max(own, children) / 1024


def child_judge(spec: dict) -> dict:
    """The judge, cold in this process: imports and models (timed apart), then reading, scoring, writing."""
    start, cpu = time.perf_counter(), _cpu_s()
    from ir_rag_axioms.analysis.resources import load_sentence_encoder, load_spacy
    from ir_rag_axioms.evaluation import autojudge

    load_spacy()
    load_sentence_encoder()
    load_s, load_cpu = time.perf_counter() - start, _cpu_s() - cpu
    start, cpu = time.perf_counter(), _cpu_s()
    autojudge.judge_files([spec["reports"]], spec["topics"], spec["out"], by_topic=spec["by_topic"], progress=False)
    judge_s, judge_cpu = time.perf_counter() - start, _cpu_s() - cpu
    with open(spec["out"], encoding="utf-8") as lines:
        count = sum(1 for _ in lines)
    return {"judge_load_s": load_s, "judge_scoring_s": judge_s, "judge_s": load_s + judge_s, "lines": count,
            "judge_load_cpu_s": load_cpu, "judge_scoring_cpu_s": judge_cpu, "load_average": os.getloadavg()[0],
            "judge_peak_mib": _peak_mib()}


def child_floor(spec: dict) -> dict:
    """spaCy over the answer texts and queries, (``encoder``) the encoder over their sentences; models timed apart."""
    from ir_rag_axioms.analysis import workers
    from ir_rag_axioms.analysis.resources import load_sentence_encoder, load_spacy

    rows = json.loads(Path(spec["rows"]).read_text())
    texts = sorted({" ".join(s["text"] for s in r["answer"]) for r in rows if r["answer"]} | {r["query"] for r in rows})
    start = time.perf_counter()
    nlp = load_spacy()
    encoder = load_sentence_encoder() if spec["encoder"] else None
    load_s = time.perf_counter() - start
    start, cpu = time.perf_counter(), _cpu_s()
    sentences = set()
    for doc in nlp.pipe(texts, batch_size=64, n_process=spec["workers"]):
        sentences.update(s.text for s in doc.sents)
    spacy_s, spacy_cpu = time.perf_counter() - start, _cpu_s() - cpu
    start, cpu = time.perf_counter(), _cpu_s()
    if encoder is not None:
        with workers.torch_threads(spec["workers"]):
            encoder.encode(sorted(sentences | set(texts)), batch_size=32, convert_to_numpy=True,
                           normalize_embeddings=True, show_progress_bar=False)
    encoder_s, encoder_cpu = time.perf_counter() - start, _cpu_s() - cpu
    return {"floor_load_s": load_s, "floor_spacy_s": spacy_s, "floor_encoder_s": encoder_s,
            "floor_s": spacy_s + encoder_s, "floor_spacy_cpu_s": spacy_cpu, "floor_encoder_cpu_s": encoder_cpu,
            "texts": len(texts), "strings": len(sentences | set(texts))}


def run_child(kind: str, spec: dict, workers: int) -> dict:
    env = {**os.environ, "IR_RAG_AXIOMS_WORKERS": str(workers), "PYTHONPATH": str(ROOT)}
    done = subprocess.run([sys.executable, __file__, "--child", kind, json.dumps(spec)], capture_output=True,
                          text=True, env=env, check=False)
    if done.returncode:
        raise SystemExit(f"{kind} failed:\n{done.stderr[-4000:]}")
    return json.loads(done.stdout.strip().splitlines()[-1])


def _print_judge(f: dict, scale: float) -> None:
    """The judge's figures, and (``scale`` > 1) extrapolated to every topic."""
    print(f"  judge: {f['judge_s']:8.1f} s (imports and models {f['judge_load_s']:.1f} s, reading, scoring and "
          f"writing {f['judge_scoring_s']:.1f} s); peak memory {f['judge_peak_mib']:.0f} MiB; CPU seconds (all "
          f"processes) {f['judge_load_cpu_s']:.0f} + {f['judge_scoring_cpu_s']:.0f}; load average "
          f"{f['load_average']:.1f} when it ended (a busy machine inflates the wall times)", flush=True)
    if scale != 1:
        f["extrapolated_judge_s"] = f["judge_load_s"] + f["judge_scoring_s"] * scale
        f["extrapolated_judge_cpu_s"] = f["judge_load_cpu_s"] + f["judge_scoring_cpu_s"] * scale
        verdict = "within" if f["extrapolated_judge_s"] <= TARGET_S else "over"
        print(f"  extrapolated linearly per topic to {f['topics']} topics ({f['answers']} answers), not measured: "
              f"judge {f['extrapolated_judge_s']:.0f} s ({verdict} the {TARGET_S:.0f} s target), "
              f"{f['extrapolated_judge_cpu_s']:.0f} CPU seconds (on 2 free cores at most that long, at least half)",
              flush=True)


def _print_floor(f: dict, scale: float) -> None:
    """The floor's figures beside the judge's (where it ran)."""
    encoder = f" + encoder {f['floor_encoder_s']:.1f} s" if f["floor_encoder_s"] > 0.01 else ""
    print(f"  floor: spaCy pass {f['floor_spacy_s']:.1f} s{encoder} ({f['floor_spacy_cpu_s']:.0f} CPU seconds; "
          f"models {f['floor_load_s']:.1f} s apart) over {f['texts']} texts")
    if "judge_scoring_s" in f:
        f["ratio_scoring_to_spacy"] = f["judge_scoring_s"] / f["floor_spacy_s"]
        print(f"  judge scoring / spaCy pass: x{f['ratio_scoring_to_spacy']:.2f} (wall), "
              f"x{f['judge_scoring_cpu_s'] / max(f['floor_spacy_cpu_s'], 1e-9):.2f} (CPU)")
    if scale != 1:
        f["extrapolated_spacy_s"] = f["floor_spacy_s"] * scale
        print(f"  spaCy pass extrapolated to {f['topics']} topics: {f['extrapolated_spacy_s']:.0f} s")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=83, help="runs (TREC RAG 2026: about 83)")
    parser.add_argument("--topics", type=int, default=119, help="topics (TREC RAG 2026: 119)")
    parser.add_argument("--measure", type=int, default=12, help="topics measured, every k-th (0: all)")
    parser.add_argument("--by-topic", action="store_true", help="judge one topic at a time (bounded memory)")
    parser.add_argument("--workers", type=int, default=2, help="worker processes (the issue's 2 cores)")
    parser.add_argument("--encoder", action="store_true", help="the floor adds the sentence encoder over every "
                        "sentence (default: one spaCy pass only)")
    parser.add_argument("--floor-only", action="store_true", help="time the floor alone (no judge)")
    parser.add_argument("--json", help="write the figures here")
    parser.add_argument("--child", nargs=2, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        kind, spec = args.child
        print(json.dumps((child_judge if kind == "judge" else child_floor)(json.loads(spec))))
        return
    rows = answers(args.runs, args.topics)
    topics = list(dict.fromkeys(r["qid"] for r in rows))
    step = max(1, round(len(topics) / args.measure)) if args.measure else 1
    chosen = set(topics[::step])
    measured = [r for r in rows if r["qid"] in chosen]
    scale = len(topics) / len(chosen)
    words = [sum(len(s["text"].split()) for s in r["answer"]) for r in measured]
    figures: dict = {"answers": len(rows), "answers_measured": len(measured), "topics": len(topics),
                     "topics_measured": len(chosen), "runs": args.runs, "workers": args.workers,
                     "by_topic": args.by_topic, "mean_words": sum(words) / len(words), "max_words": max(words)}
    print(f"{len(measured)} of {len(rows)} answers ({len(chosen)} of {len(topics)} topics x {args.runs} runs; "
          f"{figures['mean_words']:.0f} words on average, at most {figures['max_words']}), {args.workers} workers, "
          f"cold, {'by topic' if args.by_topic else 'all topics at once'}", flush=True)
    with tempfile.TemporaryDirectory() as tmp:
        reports, topics_file = write_reports(measured, Path(tmp))
        rows_file = Path(tmp) / "rows.json"
        rows_file.write_text(json.dumps(measured))
        if not args.floor_only:
            figures.update(run_child("judge", {"reports": str(reports), "topics": str(topics_file),
                                               "out": str(Path(tmp) / "b.tot"), "by_topic": args.by_topic},
                                     args.workers))
            _print_judge(figures, scale)
        figures.update(run_child("floor", {"rows": str(rows_file), "workers": args.workers,
                                           "encoder": args.encoder}, args.workers))
    _print_floor(figures, scale)
    if args.json:
        Path(args.json).write_text(json.dumps(figures, indent=2))


if __name__ == "__main__":
    main()
