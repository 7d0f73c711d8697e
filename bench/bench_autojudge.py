"""Benchmark the AutoJudge cold at TREC RAG 2026's size: about 83 runs x 119 topics (9,877 answers), 2 cores.

Usage (from the repository root)::

    HF_HUB_OFFLINE=1 python bench/bench_autojudge.py [--runs 83] [--topics 119] [--measure 12] [--by-topic]
        [--workers 2] [--encoder] [--floor-only] [--before ../main] [--keep DIR] [--json out.json]

The answers are built from the shared data's texts by resampling (seeded, so every run of the bench judges the same
set): 119 topics, the 20 of the nugget data (45 answers each) and the first 99 other topics of the crowd data (6
responses each). Run k's answer to topic j is a fresh draw of the topic's sentences (Punkt), without replacement,
until it has as many words as one of the topic's answers drawn at random (at most 1,024: TREC RAG 2026's limit);
each sentence cites 0 to 3 of the report's 20 references. So every answer is on topic and a new string (no cache
hit). They are written as TREC RAG 2026 reports (``narrative_id``, one file per run) and a topics file.

Two fresh processes on the topics measured (``--measure``: every k-th topic, about a tenth by default; 0: all):
- judge: ``evaluation.autojudge.judge_files`` cold with the default scorer (``--by-topic``: one topic at a time):
  imports and model loading timed first, then reading, scoring and writing; its peak memory (max RSS, MiB);
- ``--before DIR``: first the judge of the checkout DIR (e.g. main's) on the same answers; the two leaderboards are
  compared byte for byte and the scoring's CPU seconds divided (after / before);
- floor: one spaCy pass (the library's pipeline, every component) over the judge's own texts (citation markers
  in) and queries with the same worker count (``--encoder``: then the library's encoder batching over their
  sentences, timed apart); model loading apart.
The judge's figures are printed as soon as it ends (``--floor-only``: the floor alone). Wall times on a busy
machine are inflated; the CPU seconds (user + system of every process) much less.
The judge's time is extrapolated to all topics as loading + scoring x (topics / topics measured), labelled
"extrapolated", in CPU seconds (all processes) / min(workers, 2) for 2 free cores (and the wall time here); the
target is <= 20 minutes (1,200 s) on 2 cores.
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
    from ir_rag_axioms.analysis.cache import default_analysis
    from ir_rag_axioms.analysis.resources import load_sentence_encoder, load_spacy
    from ir_rag_axioms.evaluation import autojudge

    load_spacy()
    load_sentence_encoder()
    load_s, load_cpu = time.perf_counter() - start, _cpu_s() - cpu
    start, cpu = time.perf_counter(), _cpu_s()
    autojudge.judge_files([spec["reports"]], spec["topics"], spec["out"], by_topic=spec["by_topic"], progress=False)
    default_analysis().close()  # its worker processes end: their CPU seconds and memory are counted (RUSAGE_CHILDREN)
    judge_s, judge_cpu = time.perf_counter() - start, _cpu_s() - cpu
    with open(spec["out"], encoding="utf-8") as lines:
        count = sum(1 for _ in lines)
    return {"judge_load_s": load_s, "judge_scoring_s": judge_s, "judge_s": load_s + judge_s, "lines": count,
            "judge_load_cpu_s": load_cpu, "judge_scoring_cpu_s": judge_cpu, "load_average": os.getloadavg()[0],
            "judge_peak_mib": _peak_mib()}


def child_floor(spec: dict) -> dict:
    """spaCy over the judge's texts and queries, (``encoder``) the encoder over their sentences; models timed apart.

    The texts are the judge's own (read from the report files as it reads them: citations as ``[k]`` markers); the
    encoder runs the library's batching (``workers.encode``: sorted by length, ``EMBEDDING_BATCH`` per batch).
    """
    from ir_rag_axioms.analysis import workers
    from ir_rag_axioms.analysis.cache import EMBEDDING_BATCH
    from ir_rag_axioms.analysis.resources import DEFAULT_SENTENCE_MODEL, load_sentence_encoder, load_spacy
    from ir_rag_axioms.evaluation.autojudge.reports import (
        answers_frame,
        index_reports,
        load_topics,
        read_reports,
        report_files,
    )

    topics = load_topics(spec["topics"])
    index = index_reports(report_files([spec["reports"]]), topics)
    frame, _ = answers_frame(read_reports([where for lines in index.values() for where in lines]), topics)
    texts = sorted(set(frame["text"]) | set(frame["query"]))
    start = time.perf_counter()
    nlp = load_spacy()
    if spec["encoder"]:
        load_sentence_encoder()
    load_s = time.perf_counter() - start
    start, cpu = time.perf_counter(), _cpu_s()
    sentences: set[str] = set()
    for doc in nlp.pipe(texts, batch_size=64, n_process=spec["workers"]):
        sentences.update(s.text for s in doc.sents if s.text.strip())
    spacy_s, spacy_cpu = time.perf_counter() - start, _cpu_s() - cpu
    start, cpu = time.perf_counter(), _cpu_s()
    if spec["encoder"]:
        workers.encode(DEFAULT_SENTENCE_MODEL, sorted(sentences), EMBEDDING_BATCH, spec["workers"])
    encoder_s, encoder_cpu = time.perf_counter() - start, _cpu_s() - cpu
    return {"floor_load_s": load_s, "floor_spacy_s": spacy_s, "floor_encoder_s": encoder_s,
            "floor_s": spacy_s + encoder_s, "floor_spacy_cpu_s": spacy_cpu, "floor_encoder_cpu_s": encoder_cpu,
            "floor_cpu_s": spacy_cpu + encoder_cpu, "texts": len(texts),
            "sentences": len(sentences) if spec["encoder"] else 0}


def run_child(kind: str, spec: dict, workers: int, code: Path = ROOT) -> dict:
    """A fresh process (``code``: the checkout whose ``ir_rag_axioms`` it imports) running ``child_<kind>``."""
    env = {**os.environ, "IR_RAG_AXIOMS_WORKERS": str(workers), "PYTHONPATH": str(code)}
    env.pop("IR_RAG_AXIOMS_CACHE", None)  # cold: no persistent store
    done = subprocess.run([sys.executable, __file__, "--child", kind, json.dumps(spec)], capture_output=True,
                          text=True, env=env, check=False)
    if done.returncode:
        raise SystemExit(f"{kind} failed:\n{done.stderr[-4000:]}")
    return json.loads(done.stdout.strip().splitlines()[-1])


def _print_judge(f: dict, label: str) -> None:
    """One judge's measured figures (``label``: before or after)."""
    print(f"  judge {label}: {f['judge_s']:8.1f} s (imports and models {f['judge_load_s']:.1f} s, reading, scoring "
          f"and writing {f['judge_scoring_s']:.1f} s); CPU seconds (all processes) {f['judge_load_cpu_s']:.0f} + "
          f"{f['judge_scoring_cpu_s']:.0f}; peak memory {f['judge_peak_mib']:.0f} MiB; load average "
          f"{f['load_average']:.1f} when it ended (a busy machine inflates the wall times)", flush=True)


def _extrapolate(f: dict, scale: float, workers: int) -> dict:
    """One judge's figures extrapolated linearly per topic to every topic: loading + scoring x ``scale``."""
    wall = f["judge_load_s"] + f["judge_scoring_s"] * scale
    cpu = f["judge_load_cpu_s"] + f["judge_scoring_cpu_s"] * scale
    # on 2 free cores a run that keeps both busy takes CPU / 2; a single-threaded one takes its CPU seconds
    cores = min(workers, 2)
    return {"extrapolated_wall_s": wall, "extrapolated_cpu_s": cpu, "extrapolated_2_cores_s": cpu / cores,
            "extrapolated_2_cores_min": cpu / cores / 60}


def _print_floor(f: dict) -> None:
    encoder = (f" + encoder {f['floor_encoder_s']:.1f} s over {f['sentences']} sentences"
               if f["floor_encoder_s"] > 0.01 else "")
    print(f"  floor: spaCy pass {f['floor_spacy_s']:.1f} s{encoder} ({f['floor_spacy_cpu_s']:.0f} + "
          f"{f['floor_encoder_cpu_s']:.0f} CPU seconds; models {f['floor_load_s']:.1f} s apart) over "
          f"{f['texts']} texts (the judge's texts, citation markers in)", flush=True)


def _compare(before: Path, after: Path) -> dict:
    """Whether two leaderboard files are byte for byte the same, and how many lines differ."""
    a, b = before.read_bytes(), after.read_bytes()
    lines_a, lines_b = a.splitlines(), b.splitlines()
    differ = sum(x != y for x, y in zip(lines_a, lines_b, strict=False)) + abs(len(lines_a) - len(lines_b))
    print(f"  leaderboards before and after: {'identical' if a == b else 'DIFFERENT'} ({len(lines_b)} lines, "
          f"{differ} differ)", flush=True)
    return {"identical": a == b, "lines": len(lines_b), "lines_differ": differ}


def _print_summary(figures: dict, topics: int, workers: int) -> None:
    """Ratios of the scoring's CPU seconds (after/before, after/floor) and the extrapolations against the target."""
    after, before = figures.get("after"), figures.get("before")
    floor_cpu = figures.get("floor_cpu_s")
    if after and before:
        ratio = after["judge_scoring_cpu_s"] / before["judge_scoring_cpu_s"]
        print(f"  after / before (scoring CPU seconds): x{ratio:.2f} "
              f"(wall x{after['judge_scoring_s'] / before['judge_scoring_s']:.2f})")
    for label, f in (("before", before), ("after", after)):
        if f and floor_cpu:
            print(f"  {label} / floor (scoring CPU seconds): x{f['judge_scoring_cpu_s'] / floor_cpu:.2f} (spaCy "
                  f"pass alone: x{f['judge_scoring_cpu_s'] / max(figures['floor_spacy_cpu_s'], 1e-9):.2f})")
    single = "" if workers >= 2 else " (single-threaded: 1 worker)"
    for label, f in (("before", before), ("after", after)):
        if f:
            verdict = "within" if f["extrapolated_2_cores_s"] <= TARGET_S else "over"
            print(f"  {label}, extrapolated linearly per topic to {topics} topics (not measured): "
                  f"{f['extrapolated_cpu_s']:.0f} CPU seconds, so {f['extrapolated_2_cores_min']:.1f} minutes on "
                  f"2 free cores{single} ({verdict} the {TARGET_S / 60:.0f}-minute target); wall here "
                  f"{f['extrapolated_wall_s'] / 60:.1f} minutes", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=83, help="runs (TREC RAG 2026: about 83)")
    parser.add_argument("--topics", type=int, default=119, help="topics (TREC RAG 2026: 119)")
    parser.add_argument("--measure", type=int, default=12, help="number of topics measured, every k-th (0: all)")
    parser.add_argument("--by-topic", action="store_true", help="judge one topic at a time (bounded memory)")
    parser.add_argument("--workers", type=int, default=2, help="worker processes (the issue's 2 cores)")
    parser.add_argument("--encoder", action="store_true", help="the floor adds the sentence encoder over every "
                        "sentence (default: one spaCy pass only)")
    parser.add_argument("--floor-only", action="store_true", help="time the floor alone (no judge)")
    parser.add_argument("--before", type=Path, help="another checkout (e.g. main's) whose judge runs first, on the "
                        "same answers: ratios after/before and a byte comparison of the two leaderboards")
    parser.add_argument("--keep", type=Path, help="copy the leaderboards written (before.tot, after.tot) here")
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
        judges = [] if args.floor_only else [("after", ROOT)]
        if args.before and not args.floor_only:
            judges.insert(0, ("before", args.before.resolve()))
        for label, code in judges:
            out = Path(tmp) / f"{label}.tot"
            f = run_child("judge", {"reports": str(reports), "topics": str(topics_file), "out": str(out),
                                    "by_topic": args.by_topic}, args.workers, code)
            f.update(_extrapolate(f, scale, args.workers), code=str(code))
            figures[label] = f
            _print_judge(f, f"{label} ({code})")
            if args.keep:
                args.keep.mkdir(parents=True, exist_ok=True)
                (args.keep / out.name).write_bytes(out.read_bytes())
        if len(judges) == 2:
            figures["comparison"] = _compare(Path(tmp) / "before.tot", Path(tmp) / "after.tot")
        figures.update(run_child("floor", {"reports": str(reports), "topics": str(topics_file),
                                           "workers": args.workers, "encoder": args.encoder}, args.workers))
    _print_floor(figures)
    _print_summary(figures, len(topics), args.workers)
    if args.json:
        Path(args.json).write_text(json.dumps(figures, indent=2))


if __name__ == "__main__":
    main()
