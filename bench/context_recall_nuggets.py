"""ContextRecall against the TREC RAG 2024 nugget assignments: is each nugget covered by the answer?

Usage (from the repository root)::

    HF_HUB_OFFLINE=1 python bench/context_recall_nuggets.py [--runs 45] [--seed 2026] [--cache rows.json]

The nuggets of 20 topics and their assignments to 45 systems' answers (AutoNuggetizer, Pradeep et al., 2024; GPT-4o
assigned them, not people, and nobody here wrote them) are the reference facts and labels: a nugget is covered when
it is assigned *support* (*partial_support* is reported apart and left out of the nugget-level figures). ``--runs``
systems are drawn (seeded) and judged on all 20 topics by ``HeuristicJudge.coverage``; each nugget's row is decided
several ways from the same rows:
- the checks' verdict ("covered": no check failed and the match reaches ``recall_threshold``), as ContextRecall
  decided before;
- the packaged verifier (``verifier/verifier.json``, fitted on other data) on the row, the answer as the context:
  P(supported) >= its threshold;
- ContextRecall as shipped: a fact a check fails is not covered, the verifier decides the others (the two above
  combined; the script asserts that the judge's verdicts are these);
- trivial baselines: the share of the nugget's content words in the answer, thresholded at the value that is best
  on the other topics (leave one topic out), and the answer's length (longer answer = covers more).
Nugget level: balanced accuracy and ROC AUC. System level, the unit autojudge-evaluate reports: Kendall's tau between
the systems ordered by the mean share of covered nuggets (ours) and by AutoNuggetizer's ``all`` score (support 1,
partial 0.5), over the topics judged, and the same for the vital nuggets.
"""

from __future__ import annotations

import argparse
import json
import os
import random
from pathlib import Path

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")

import numpy as np
from scipy.stats import kendalltau
from sklearn.metrics import balanced_accuracy_score, roc_auc_score

ROOT = Path(__file__).resolve().parents[1]
SHARED = Path(os.environ.get("IR_RAG_AXIOMS_SHARED", ROOT.parent / "shared"))
NUGGETS = SHARED / "data" / "trec-rag-24-nuggets"


def rows_of(runs: int, seed: int, cache: Path | None) -> list[dict]:
    """One row per (answer, nugget): the coverage row of the judge with the label, topic, run and importance."""
    if cache is not None and cache.is_file():
        return json.loads(cache.read_text(encoding="utf-8"))
    from ir_rag_axioms.datasets.nuggets import load_nugget_assignments
    from ir_rag_axioms.metrics.interface import RubricCase
    from ir_rag_axioms.metrics.judges import HEURISTIC_JUDGE

    frame = load_nugget_assignments(NUGGETS)
    chosen = set(random.Random(seed).sample(sorted(set(frame["run_id"])), runs))
    frame = frame[frame["run_id"].isin(chosen) & frame["answer_text"].fillna("").str.strip().astype(bool)]
    cases = [RubricCase(str(a), reference=tuple(n["text"] for n in ns))
             for a, ns in zip(frame["answer_text"], frame["nuggets"], strict=True)]
    out = []
    for (_, answer), found in zip(frame.iterrows(), HEURISTIC_JUDGE.coverage(cases), strict=True):
        for nugget, row in zip(answer["nuggets"], found, strict=True):
            out.append({**row, "label": nugget["assignment"], "vital": nugget["importance"] == "vital",
                        "topic": str(answer["qid"]), "run": str(answer["run_id"]), "answer": str(answer["answer_text"]),
                        "all": float(answer["all"]), "vital_score": float(answer["vital"])})
    if cache is not None:
        cache.write_text(json.dumps(out), encoding="utf-8")
    return out


def decisions(rows: list[dict]) -> dict[str, np.ndarray]:
    """Per row: each setting's score (higher = covered) and decision."""
    from ir_rag_axioms.metrics.verifier import features, load_verifier
    from ir_rag_axioms.metrics.verifier.signals import content_words

    model = load_verifier(None)
    x = np.array([features(r, r["answer"]) for r in rows])
    supported, _ = model.probabilities(x)
    share = np.array([len(content_words(r["reference fact"]) & content_words(r["answer"]))
                      / max(1, len(content_words(r["reference fact"]))) for r in rows])
    decided = supported >= model.threshold
    failed = np.array([r["checks_failed"] for r in rows])
    shipped = np.array([r["verdict"] == "covered" for r in rows])
    if any("signals" in r for r in rows) and not (shipped == (decided & ~failed)).all():
        raise SystemExit("the judge's verdicts are not 'verifier unless a check failed': rows from other code?")
    return {"checks": np.array([r.get("signals", r)["verdict"] == "covered" for r in rows], dtype=float),
            "verifier": supported, "verifier_decision": decided.astype(float),
            "shipped": decided & ~failed,
            "share": share, "length": np.array([len(r["answer"].split()) for r in rows], dtype=float)}


def lotto(score: np.ndarray, label: np.ndarray, topic: np.ndarray) -> np.ndarray:
    """Leave-one-topic-out decisions: the score at the lowest cut of best balanced accuracy on the other topics."""
    out = np.zeros(len(score))
    cuts = np.unique(score)
    for t in np.unique(topic):
        train = topic != t
        best = max(cuts, key=lambda c: balanced(score[train] >= c, label[train]))
        out[~train] = score[~train] >= best
    return out


def balanced(decision: np.ndarray, label: np.ndarray) -> float:
    """Mean recall of both classes (scikit-learn's ``balanced_accuracy_score``)."""
    return float(balanced_accuracy_score(np.asarray(label, bool), np.asarray(decision, bool)))


def system_tau(rows: list[dict], covered: np.ndarray, vital: bool) -> float:
    """Kendall's tau of the systems by their mean covered share against AutoNuggetizer's score."""
    ours: dict[str, dict[tuple[str, str], list[float]]] = {}
    theirs: dict[str, dict[str, float]] = {}
    for r, c in zip(rows, covered, strict=True):
        if vital and not r["vital"]:
            continue
        ours.setdefault(r["run"], {}).setdefault((r["topic"], r["answer"]), []).append(float(c))
        theirs.setdefault(r["run"], {})[r["topic"]] = r["vital_score" if vital else "all"]
    runs = sorted(ours)
    mine = [np.mean([np.mean(v) for v in ours[run].values()]) for run in runs]
    gold = [np.mean(list(theirs[run].values())) for run in runs]
    return float(kendalltau(mine, gold).statistic)


def tau_gain(rows: list[dict], after: np.ndarray, before: np.ndarray, draws: int = 1000, seed: int = 0
             ) -> tuple[float, float]:
    """95 % interval of tau(after) - tau(before), topics resampled with replacement (paired bootstrap)."""
    topics = sorted({r["topic"] for r in rows})
    index: dict[str, list[int]] = {}
    for k, r in enumerate(rows):
        index.setdefault(r["topic"], []).append(k)
    rng, gains = np.random.default_rng(seed), []
    for _ in range(draws):
        drawn = rng.choice(len(topics), len(topics))
        picked = [k for j, t in enumerate(drawn) for k in index[topics[t]]]
        sample = [{**rows[k], "topic": f"{j}"} for j, t in enumerate(drawn) for k in index[topics[t]]]
        gains.append(system_tau(sample, after[picked], False) - system_tau(sample, before[picked], False))
    low, high = np.percentile(gains, [2.5, 97.5])
    return float(low), float(high)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=45, help="systems drawn (of 45)")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--cache", type=Path, help="JSON of the judged rows (read if it exists, else written)")
    args = parser.parse_args()
    rows = rows_of(args.runs, args.seed, args.cache)
    scores = decisions(rows)
    labels = np.array([r["label"] for r in rows])
    topic = np.array([r["topic"] for r in rows])
    keep = labels != "partial_support"
    y = labels[keep] == "support"
    print(f"{len({r['run'] for r in rows})} systems, {len({r['topic'] for r in rows})} topics, "
          f"{len({(r['run'], r['topic']) for r in rows})} answers, {len(rows)} nuggets "
          f"({int(y.sum())} support, {int((~y).sum())} not, {int((~keep).sum())} partial)")
    settings = {"checks' verdict (ContextRecall before)": (scores["checks"], scores["checks"]),
                "verifier alone, packaged threshold": (scores["verifier"], scores["verifier_decision"]),
                "**ContextRecall now**: verifier unless a check failed": (
                    np.where(scores["shipped"], scores["verifier"], 0.0), scores["shipped"].astype(float)),
                "verifier, threshold leave one topic out": (scores["verifier"], None),
                "content-word share in the answer (LOTO)": (scores["share"], None),
                "answer length (LOTO)": (scores["length"], None)}
    print("| setting | balanced accuracy | covered recall | not-covered recall | ROC AUC | partial called covered |"
          " Kendall tau (all) | tau (vital) |")
    print("|---|---|---|---|---|---|---|---|")
    for name, (score, decision) in settings.items():
        decided = decision if decision is not None else lotto(score, labels == "support", topic)
        d = decided[keep].astype(bool)
        print(f"| {name} | {balanced(d, y):.3f} | {d[y].mean():.3f} | {(~d[~y]).mean():.3f} | "
              f"{roc_auc_score(y, score[keep]):.3f} | {decided[~keep].mean():.3f} | "
              f"{system_tau(rows, decided, False):.3f} | {system_tau(rows, decided, True):.3f} |")
    low, high = tau_gain(rows, scores["shipped"].astype(float), scores["checks"])
    print(f"Kendall tau (all), ContextRecall now - before: 95 % interval {low:+.3f} to {high:+.3f} (topics "
          "resampled, 1,000 draws)")


if __name__ == "__main__":
    main()
