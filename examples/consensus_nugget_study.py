"""Consensus nuggets in the AutoJudge headline: the field's measures before and after, out of fold over topics.

Usage: python examples/consensus_nugget_study.py [DATA_DIR] [OUT_DIR] [--fit] [--axioms A,B,...] [--samples N]
  DATA_DIR: ../shared/data/trec-rag-24-nuggets; OUT_DIR: out-leaderboard (values.csv there, the axiom values of
  ``leaderboard_study.py``, is reused; nuggets.csv caches the consensus nugget scores).
  --fit: also write the packaged model ir_rag_axioms/data/leaderboard-nugget.json (fitted on all 20 topics).
  --axioms: the axioms of the combination (default: leaderboard_study's 20).

Judges: the baselines (mean answer length, distinct words, AGREE1's consensus count), the consensus nugget scores
alone (no fit), the ridge combination of the axioms (before) and of the axioms and the nugget features (after: each
nugget score standardised within the topic and raw). Combinations are out of fold: each topic's answers scored by a
model fitted on the other folds' topics (GroupKFold by topic, 5 folds, the penalty by an inner topic-grouped CV), so
they are held-out topics for the fit; the nugget settings (one value each, ``NuggetSettings``) were chosen on these
20 topics: the whole is a *development* figure for them. Measures: Kendall tau-b of the run means against vital
strict and all strict, tau_ap_b, tau_gap and kendall@10 against vital strict, the per-topic tau averaged and the tau
over all (topic, run) pairs, each with a 95 % bootstrap interval over topics (``evaluation.meta``).
"""

from __future__ import annotations

import json
import re
import sys
import warnings
from pathlib import Path

import numpy as np
import pandas as pd

sys.path.insert(0, str(Path(__file__).resolve().parent))

import leaderboard_study as study  # noqa: E402

from ir_rag_axioms.evaluation import leaderboard as lb  # noqa: E402
from ir_rag_axioms.evaluation.consensus_nuggets import SCORES, consensus_nuggets, nugget_score_table  # noqa: E402
from ir_rag_axioms.evaluation.meta import bootstrap_correlation  # noqa: E402

SETTINGS = {"distance_threshold": 0.45, "min_support": 3, "vital_share": 0.2, "partial_similarity": 0.5}
"""The consensus nugget settings (chosen on the 20 development topics)."""
MEASURES = [("kendall", "vital_strict", "run"), ("kendall", "all_strict", "run"), ("tau_ap_b", "vital_strict", "run"),
            ("tau_gap", "vital_strict", "run"), ("kendall@10", "vital_strict", "run"),
            ("kendall", "vital_strict", "topic"), ("kendall", "vital_strict", "pairs")]
"""(correlation, truth, level) of each column of the table."""
SEED = 0


def nugget_scores(answers: pd.DataFrame, cache: Path) -> pd.DataFrame:
    """The four consensus nugget scores per answer (cached in ``cache``), aligned with ``answers``."""
    from ir_rag_axioms.evaluation.consensus_nuggets import NuggetSettings

    if cache.exists():
        table = pd.read_csv(cache, dtype={"topic": str, "run_id": str})
    else:
        topics = consensus_nuggets(answers[["run_id", "topic", "query", "text"]], NuggetSettings(**SETTINGS))
        table = nugget_score_table(topics)
        table.to_csv(cache, index=False)
    return table.set_index(["topic", "run_id"]).reindex(pd.MultiIndex.from_frame(answers[["topic", "run_id"]]))


def nugget_matrix(answers: pd.DataFrame, scores: pd.DataFrame) -> np.ndarray:
    """(answers x 8) nugget features: each score standardised within its topic, then each raw (NaN: 0)."""
    raw = scores[list(SCORES)].to_numpy(dtype=np.float64)
    z = np.zeros_like(raw)
    for idx in answers.groupby("topic", sort=False).indices.values():
        for k in range(raw.shape[1]):
            z[idx, k] = lb.standardize(raw[idx, k])
    return np.hstack([z, np.nan_to_num(raw)])


def out_of_fold(x: np.ndarray, y: np.ndarray, groups: np.ndarray, runs: np.ndarray) -> np.ndarray:
    """Each answer's out-of-fold prediction (NaN where the target is undefined)."""
    defined = ~np.isnan(y)
    pred = np.full(len(y), np.nan)
    pred[defined], _ = study.out_of_fold(x[defined], y[defined], groups[defined], runs[defined])
    return pred


def table(answers: pd.DataFrame, judges: dict[str, pd.DataFrame], samples: int) -> pd.DataFrame:
    """Per judge and measure: value and 95 % interval over topic resamples."""
    truth = {t: study.topic_matrix(answers, answers[t]) for t in ("vital_strict", "all_strict")}
    index, runs = truth["vital_strict"].index, truth["vital_strict"].columns  # runs sorted by id (tau_gap's ties)
    rows = []
    for judge, frame in judges.items():
        scores = frame.reindex(index=index, columns=runs).to_numpy()
        for method, target, level in MEASURES:
            gold = truth[target].reindex(index=index, columns=runs).to_numpy()
            r = bootstrap_correlation(scores, gold, method, samples, SEED, level=level)
            rows.append({"judge": judge, "method": method, "truth": target, "level": level, **r})
    return pd.DataFrame(rows)


def differences(answers: pd.DataFrame, judges: dict[str, pd.DataFrame], samples: int) -> str:
    """Paired differences (after - before, after - AGREE1) of Kendall tau on the same topic resamples."""
    truth = study.topic_matrix(answers, answers["vital_strict"])
    after = next(j for j in judges if j.startswith("after:"))
    lines = ["| paired difference vs V_strict | run level | per topic | pairs |", "|---|---|---|---|"]
    for base in (next(j for j in judges if j.startswith("before:")), "content-consensus count (AGREE1)"):
        cells = []
        for level in ("run", "topic", "pairs"):
            grid = [judges[j].reindex(index=truth.index, columns=truth.columns).to_numpy() for j in (after, base)]
            r = bootstrap_correlation(grid[0], truth.to_numpy(), "kendall", samples, SEED, baseline=grid[1],
                                      level=level)
            cells.append(f"{r['difference']:+.3f} [{r['difference_low']:+.2f}, {r['difference_high']:+.2f}]")
        lines.append(f"| after - {base} | " + " | ".join(cells) + " |")
    return "\n".join(lines) + "\n"


def markdown(results: pd.DataFrame) -> str:
    """The table: one row per judge, one column per measure (value [95 % interval])."""
    heads = {("kendall", "vital_strict", "run"): "tau vs V_strict", ("kendall", "all_strict", "run"): "tau vs A_strict",
             ("tau_ap_b", "vital_strict", "run"): "tau_ap_b", ("tau_gap", "vital_strict", "run"): "tau_gap",
             ("kendall@10", "vital_strict", "run"): "kendall@10",
             ("kendall", "vital_strict", "topic"): "per-topic tau", ("kendall", "vital_strict", "pairs"): "pairs tau"}
    lines = ["| judge | " + " | ".join(heads[m] for m in MEASURES) + " |", "|---" * (len(MEASURES) + 1) + "|"]
    for judge, part in results.groupby("judge", sort=False):
        cells = []
        for method, target, level in MEASURES:
            r = part[(part.method == method) & (part.truth == target) & (part.level == level)].iloc[0]
            cells.append(f"{r.value:.3f} [{r.low:.2f}, {r.high:.2f}]")
        lines.append(f"| {judge} | " + " | ".join(cells) + " |")
    return "\n".join(lines) + "\n"


def main(data: str, out_dir: str, fit: bool, axioms: list[str], samples: int) -> None:
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    answers = study.answers_frame(data).reset_index(drop=True)
    values = study.axiom_values(answers, axioms, out / "values.csv")
    nuggets = nugget_scores(answers, out / "nuggets.csv")
    z_axioms = study.standardized(answers, values, axioms)
    z_nuggets = nugget_matrix(answers, nuggets)
    y, groups = answers["vital_strict"].to_numpy(dtype=np.float64), answers["topic"].to_numpy()
    runs = answers["run_id"].to_numpy()
    words = [re.findall(r"\w+", t.lower()) for t in answers["text"]]
    raw = values.pivot_table(index=["topic", "run_id"], columns="axiom", values="value", dropna=False) \
        .reindex(pd.MultiIndex.from_frame(answers[["topic", "run_id"]]))
    column = lambda v: study.topic_matrix(answers, pd.Series(np.asarray(v)))  # noqa: E731
    judges = {
        "mean answer length (words)": column([len(w) for w in words]),
        "distinct words per answer": column([len(set(w)) for w in words]),
        "content-consensus count (AGREE1)": column(raw["AGREE1"].to_numpy()),
        "consensus nugget score, all (NUGGET_A, no fit)": column(nuggets["all"].to_numpy()),
        "consensus nugget score, vital strict (NUGGET_V_STRICT, no fit)": column(nuggets["vital_strict"].to_numpy()),
        f"before: axioms ({len(axioms)}), out-of-fold": column(out_of_fold(z_axioms, y, groups, runs)),
        "consensus nuggets alone (8 features), out-of-fold": column(out_of_fold(z_nuggets, y, groups, runs)),
        f"after: axioms ({len(axioms)}) + consensus nuggets, out-of-fold":
            column(out_of_fold(np.hstack([z_axioms, z_nuggets]), y, groups, runs)),
    }
    results = table(answers, judges, samples)
    results.to_csv(out / "nugget-results.csv", index=False)
    text = markdown(results) + "\n" + differences(answers, judges, samples)
    (out / "nugget-results.md").write_text(text)
    print(text)
    if fit:
        write_model(np.hstack([z_axioms, z_nuggets]), y, groups, runs, axioms, results)


def write_model(x: np.ndarray, y: np.ndarray, groups: np.ndarray, runs: np.ndarray, axioms: list[str],
                results: pd.DataFrame) -> None:
    """The packaged model: the ridge fit on all 20 topics, its out-of-fold figures as held-out-topic figures."""
    defined = ~np.isnan(y)
    model, alpha = study.fit_ridge(x[defined], y[defined], groups[defined], runs[defined])
    after = results[results.judge.str.startswith("after:")]
    names = list(lb.NUGGET_MEASURES)
    features = [{"measure": names[k], "transform": "z"} for k in range(4)] + \
               [{"measure": names[k], "transform": "raw"} for k in range(4)]
    payload = {
        "format": "ir_rag_axioms.system_leaderboard", "version": 2, "axioms": axioms,
        "nugget_features": features, "nugget_settings": SETTINGS,
        "weights": [round(float(w), 8) for w in model.coef_], "intercept": round(float(model.intercept_), 8),
        "features": "within-topic standardised axiom values (leaderboard.standardize), higher is better, then the "
                    "consensus nugget scores (NUGGET_V_STRICT, NUGGET_V, NUGGET_A_STRICT, NUGGET_A) standardised "
                    "within the topic, then the same raw (undefined: 0)",
        "target": "TREC RAG 2024 vital-strict nugget score per answer (AutoNuggetizer assignments)",
        "fitted_on": "20 topics x 45 runs of nugget_assignment.dev20 (883 answers)",
        "ridge_alpha": alpha,
        "out_of_fold": {f"{r.method} vs {r.truth} ({r.level})": [round(r.value, 4), round(r.low, 4), round(r.high, 4)]
                        for r in after.itertuples()},
        "out_of_fold_note": "out-of-fold figures (5 topic-grouped folds), [value, 95% low, high] over topic "
                            "resamples; the nugget settings were chosen on the same 20 topics: development figures",
    }
    path = Path(lb.__file__).resolve().parent.parent / "data" / lb.MODEL_FILE
    path.write_text(json.dumps(payload, indent=1) + "\n")
    print(f"wrote {path} (alpha={alpha})")


if __name__ == "__main__":
    warnings.simplefilter("ignore", FutureWarning)
    args = sys.argv[1:]
    fit = "--fit" in args
    chosen = study.COMBINED
    count = 1000
    rest: list[str] = []
    k = 0
    while k < len(args):
        if args[k] == "--axioms":
            chosen, k = args[k + 1].split(","), k + 2
        elif args[k] == "--samples":
            count, k = int(args[k + 1]), k + 2
        elif args[k] == "--fit":
            k += 1
        else:
            rest.append(args[k])
            k += 1
    main(rest[0] if rest else "../shared/data/trec-rag-24-nuggets", rest[1] if len(rest) > 1 else "out-leaderboard",
         fit, chosen, count)
