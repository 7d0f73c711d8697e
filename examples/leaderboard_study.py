"""Can axioms rank the TREC RAG 2024 systems? Leaderboards of 45 runs on the 20 nugget topics, meta-evaluated.

Usage: python examples/leaderboard_study.py [DATA_DIR] [OUT_DIR] [--fit]
  DATA_DIR: ../shared/data/trec-rag-24-nuggets; OUT_DIR: out-leaderboard (values.csv there is reused on a rerun).
  --fit: also write the axioms-only model (fitted on all 20 topics) to OUT_DIR/leaderboard-nugget.json; the
  packaged model, with the consensus nugget features, is written by examples/consensus_nugget_study.py --fit.

Judges: the baselines (mean answer length in words, distinct words per answer, AGREE1 = the content-consensus
count), every single axiom (its mean win rate over topics), the consensus axioms, and the learned combination
(ridge regression of each answer's vital-strict nugget score on the within-topic standardised axiom values, as
``system_leaderboard(method="default")`` computes it). The combination's figures are out-of-fold: each topic's
answers are scored by a model fitted on the other folds' topics (GroupKFold by topic, 5 folds; the ridge penalty
chosen by the Kendall tau of an inner topic-grouped CV on the training topics only). Kendall tau-b and tau_ap_b
against the official nugget leaderboards (each run's mean over topics), with 95 % bootstrap intervals over topics
(1000 resamples) and paired differences to the baselines. Writes results.csv, results.md, leaderboards (tot format)
and leaderboard.png.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
import warnings
from pathlib import Path

import numpy as np
import pandas as pd

from ir_rag_axioms.analysis.cache import default_analysis
from ir_rag_axioms.axioms.base import analyse
from ir_rag_axioms.axioms.registry import get
from ir_rag_axioms.datasets.files import NUGGET_ASSIGNMENTS, resolve
from ir_rag_axioms.datasets.nuggets import load_nugget_assignments
from ir_rag_axioms.evaluation import leaderboard as lb
from ir_rag_axioms.evaluation.meta import CORRELATIONS, bootstrap_correlation, kendall, topic_means

RAG_AXIOMS = ["COH1", "COH2", "COH3", "COH4", "COH5", "COV1", "COV2", "COV3", "COV4", "CONS3", "CORR1", "CORR2",
              "CLAR2", "CLAR3", "CLAR4", "CLAR5"]
"""The RAG axioms that read no context (the nugget answers have none) and need no LanguageTool or LLM."""
CONSENSUS = ["AGREE1", "AGREE2", "AGREE3", "AGREE4"]
COMBINED = RAG_AXIOMS + CONSENSUS
"""The axioms the learned combination reads."""
BASELINES = {"length": "mean answer length (words)", "distinct": "distinct words per answer",
             "AGREE1": "content-consensus count (AGREE1)"}
TRUTH = {"vital_strict": "V_strict (primary)", "vital": "V", "all_strict": "A_strict", "all": "A",
         "weighted": "W"}
ALPHAS = (0.3, 1.0, 3.0, 10.0, 30.0, 100.0)
FOLDS, SAMPLES, SEED = 5, 1000, 0


def answers_frame(data: str) -> pd.DataFrame:
    """The nugget file's answers as system_leaderboard input, with every nugget score per answer."""
    assignments = load_nugget_assignments(resolve(NUGGET_ASSIGNMENTS, data))
    return assignments.rename(columns={"qid": "topic", "answer_text": "text"})


def axiom_values(answers: pd.DataFrame, names: list[str], cache: Path) -> pd.DataFrame:
    """Per (topic, run_id) and axiom: the value system_leaderboard standardises, and the win rate (cached in csv)."""
    done = pd.read_csv(cache, dtype={"topic": str, "run_id": str}) if cache.exists() else pd.DataFrame()
    have = set(done["axiom"]) if len(done) else set()
    runs, items = lb.answer_items(answers)
    analysis = default_analysis()
    frames = [done]
    for name in [n for n in names if n not in have]:
        axiom = get(name)
        print(f"computing {name} ...", flush=True)
        analyse([axiom], items, analysis)
        rows = []
        with analysis:
            for request, responses in items:
                matrix, values = lb.answer_values(axiom, request, responses, analysis)
                rates = lb.win_rates(matrix, ~np.isnan(values))
                rows += [(request.id, r.id, name, v, w) for r, v, w in zip(responses, values, rates, strict=True)]
        frames.append(pd.DataFrame(rows, columns=["topic", "run_id", "axiom", "value", "win_rate"]))
        pd.concat(frames, ignore_index=True).to_csv(cache, index=False)
    out = pd.concat(frames, ignore_index=True)
    return out[out["axiom"].isin(names)]


def topic_matrix(answers: pd.DataFrame, column: pd.Series) -> pd.DataFrame:
    """(topics x runs) of a per-answer series indexed like ``answers``."""
    return pd.DataFrame({"topic": answers["topic"], "run_id": answers["run_id"], "v": column.to_numpy()}) \
        .pivot(index="topic", columns="run_id", values="v")


def standardized(answers: pd.DataFrame, values: pd.DataFrame, names: list[str]) -> np.ndarray:
    """(answers x axioms) within-topic standardised values, as system_leaderboard computes them."""
    wide = values.pivot_table(index=["topic", "run_id"], columns="axiom", values="value", dropna=False)
    wide = wide.reindex(pd.MultiIndex.from_frame(answers[["topic", "run_id"]]))[names]
    z = np.zeros(wide.shape)
    for idx in answers.groupby("topic", sort=False).indices.values():
        for k in range(len(names)):
            z[idx, k] = lb.standardize(wide.to_numpy()[idx, k])
    return z


def system_tau(pred: np.ndarray, y: np.ndarray, runs: np.ndarray) -> float:
    """Kendall tau between the runs' mean predictions and their mean nugget scores."""
    frame = pd.DataFrame({"run": runs, "p": pred, "y": y}).groupby("run")[["p", "y"]].mean()
    return kendall(frame["p"].to_numpy(), frame["y"].to_numpy())


def fit_ridge(z: np.ndarray, y: np.ndarray, groups: np.ndarray, runs: np.ndarray) -> tuple[object, float]:
    """Ridge with the penalty that ranks the runs best (Kendall tau) in a topic-grouped CV on (z, y) alone."""
    from sklearn.linear_model import Ridge
    from sklearn.model_selection import GroupKFold

    def cv_tau(alpha: float) -> float:
        pred = np.zeros(len(y))
        for tr, te in GroupKFold(n_splits=min(FOLDS, len(set(groups)))).split(z, y, groups):
            pred[te] = Ridge(alpha=alpha).fit(z[tr], y[tr]).predict(z[te])
        return system_tau(pred, y, runs)

    alpha = max(ALPHAS, key=cv_tau)  # ties: the first (smallest) penalty
    return Ridge(alpha=alpha).fit(z, y), alpha


def out_of_fold(z: np.ndarray, y: np.ndarray, groups: np.ndarray, runs: np.ndarray) -> tuple[np.ndarray, list[float]]:
    """Each answer's prediction by a model fitted (penalty included) on the other folds' topics only."""
    from sklearn.model_selection import GroupKFold

    pred, alphas = np.full(len(y), np.nan), []
    for tr, te in GroupKFold(n_splits=FOLDS).split(z, y, groups):
        model, alpha = fit_ridge(z[tr], y[tr], groups[tr], runs[tr])
        pred[te] = model.predict(z[te])  # type: ignore[attr-defined]
        alphas.append(alpha)
    return pred, alphas


def write_tot(path: Path, table: pd.DataFrame, measure: str) -> None:
    """A (topics x runs) table as a ``tot`` leaderboard (run measure topic value), with the ``all`` rows."""
    lines = [f"{run} {measure} {topic} {value:.6f}" for topic, row in table.iterrows() for run, value in row.items()
             if value == value]
    lines += [f"{run} {measure} all {value:.6f}" for run, value in table.mean(axis=0).items()]
    path.write_text("\n".join(lines) + "\n")


def meta_evaluate(out: Path, judges: list[str]) -> str:
    """``auto-judge-evaluate meta-evaluate`` of the judges' leaderboards against the nugget leaderboard."""
    exe = Path(sys.executable).with_name("auto-judge-evaluate")
    command = [str(exe), "meta-evaluate", "--truth-leaderboard", str(out / "truth.tot"), "--truth-format", "tot",
               "--eval-format", "tot", "--correlation", "kendall", "--correlation", "tauap_b",
               "--truth-measure", "vital_strict", "--on-missing", "warn", "--output", str(out / "meta.jsonl"),
               *[str(out / f"{j}.tot") for j in judges]]
    try:
        done = subprocess.run(command, capture_output=True, text=True, timeout=600, check=False)
    except (OSError, subprocess.TimeoutExpired) as error:
        return f"auto-judge-evaluate did not run: {error!r}"
    return done.stdout if done.returncode == 0 else f"auto-judge-evaluate failed ({done.returncode}): " \
                                                     f"{done.stderr[-2000:]}"


def main(data: str = "../shared/data/trec-rag-24-nuggets", out_dir: str = "out-leaderboard", fit: bool = False) -> None:
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    answers = answers_frame(data).reset_index(drop=True)
    values = axiom_values(answers, COMBINED, out / "values.csv")
    truth = {name: topic_matrix(answers, answers[name]) for name in TRUTH}
    runs = list(truth["vital_strict"].columns)
    words = [re.findall(r"\w+", t.lower()) for t in answers["text"]]
    judges: dict[str, pd.DataFrame] = {
        "length": topic_matrix(answers, pd.Series([len(w) for w in words])),
        "distinct": topic_matrix(answers, pd.Series([len(set(w)) for w in words])),
        "AGREE1": None,  # type: ignore[dict-item]
    }
    rates = values.pivot_table(index=["topic", "run_id"], columns="axiom", values="win_rate", dropna=False)
    rates = rates.reindex(pd.MultiIndex.from_frame(answers[["topic", "run_id"]]))
    raw = values.pivot_table(index=["topic", "run_id"], columns="axiom", values="value", dropna=False) \
        .reindex(pd.MultiIndex.from_frame(answers[["topic", "run_id"]]))
    judges["AGREE1"] = topic_matrix(answers, raw["AGREE1"].reset_index(drop=True))  # the count itself
    for name in COMBINED:
        judges[f"{name} (win rate)"] = topic_matrix(answers, rates[name].reset_index(drop=True))
    z = standardized(answers, values, COMBINED)
    y, groups = answers["vital_strict"].to_numpy(dtype=np.float64), answers["topic"].to_numpy()
    runs_of = answers["run_id"].to_numpy()
    defined = ~np.isnan(y)
    pred = np.full(len(y), np.nan)
    pred[defined], alphas = out_of_fold(z[defined], y[defined], groups[defined], runs_of[defined])
    pred[~defined] = np.nan
    judges["combination (out-of-fold)"] = topic_matrix(answers, pd.Series(pred))
    model, alpha = fit_ridge(z[defined], y[defined], groups[defined], runs_of[defined])
    judges["combination (fitted on all 20 topics: development)"] = topic_matrix(answers, pd.Series(model.predict(z)))
    consensus_only = [COMBINED.index(n) for n in CONSENSUS]
    pred_c = np.full(len(y), np.nan)
    pred_c[defined], _ = out_of_fold(z[defined][:, consensus_only], y[defined], groups[defined], runs_of[defined])
    judges["consensus combination (out-of-fold)"] = topic_matrix(answers, pd.Series(pred_c))
    axioms_only = [COMBINED.index(n) for n in RAG_AXIOMS]
    pred_a = np.full(len(y), np.nan)
    pred_a[defined], _ = out_of_fold(z[defined][:, axioms_only], y[defined], groups[defined], runs_of[defined])
    judges["RAG-axiom combination (out-of-fold)"] = topic_matrix(answers, pd.Series(pred_a))
    rows = []
    for judge, table in judges.items():
        table = table.reindex(index=truth["vital_strict"].index, columns=runs)
        for score in TRUTH:  # intervals for the primary score; point values for the others
            for method in ("kendall", "tau_ap_b"):
                if score == "vital_strict":
                    result = bootstrap_correlation(table.to_numpy(), truth[score].to_numpy(), method, SAMPLES, SEED)
                else:
                    result = {"value": CORRELATIONS[method](topic_means(table.to_numpy()),
                                                            topic_means(truth[score].to_numpy())),
                              "low": np.nan, "high": np.nan}
                rows.append({"judge": judge, "truth": score, "method": method, **result})
    head = judges["combination (out-of-fold)"].reindex(index=truth["vital_strict"].index, columns=runs).to_numpy()
    for base in BASELINES:
        base_table = judges[base].reindex(index=truth["vital_strict"].index, columns=runs).to_numpy()
        for method in ("kendall", "tau_ap_b"):
            result = bootstrap_correlation(head, truth["vital_strict"].to_numpy(), method, SAMPLES, SEED,
                                           baseline=base_table)
            rows.append({"judge": f"combination (out-of-fold) - {base}", "truth": "vital_strict", "method": method,
                         "value": result["difference"], "low": result["difference_low"],
                         "high": result["difference_high"]})
    results = pd.DataFrame(rows)
    results.to_csv(out / "results.csv", index=False)
    weights = pd.Series(model.coef_, index=COMBINED)
    print(f"out-of-fold penalties per fold: {alphas}; full fit: alpha={alpha}")
    print("weights (full fit):", weights.round(4).to_dict())
    # leaderboards for auto-judge-evaluate
    write_tot(out / "truth.tot", truth["vital_strict"], "vital_strict")
    tot_names = {"length": "length", "distinct": "distinct", "AGREE1": "AGREE1",
                 "combination (out-of-fold)": "combination_oof"}
    for judge, name in tot_names.items():
        write_tot(out / f"{name}.tot", judges[judge].reindex(columns=runs), name)
    meta = meta_evaluate(out, list(tot_names.values()))
    (out / "meta-evaluate.txt").write_text(meta)
    print(meta)
    text = markdown(results)
    (out / "results.md").write_text(text)
    print(text)
    figure(results, judges, truth, out / "leaderboard.png")
    if fit:
        path = out / lb.MODEL_FILE  # the packaged one: examples/consensus_nugget_study.py --fit
        oof = results[(results.judge == "combination (out-of-fold)") & (results.truth == "vital_strict")]
        payload = {
            "format": "ir_rag_axioms.system_leaderboard", "version": 1, "axioms": COMBINED,
            "weights": [round(float(w), 8) for w in model.coef_], "intercept": round(float(model.intercept_), 8),
            "features": "within-topic standardised axiom values (leaderboard.standardize), higher is better",
            "target": "TREC RAG 2024 vital-strict nugget score per answer (AutoNuggetizer assignments)",
            "fitted_on": "20 topics x 45 runs of nugget_assignment.dev20 (883 answers)",
            "ridge_alpha": alpha,
            "held_out": {f"{r.method}": [round(r.value, 4), round(r.low, 4), round(r.high, 4)]
                         for r in oof.itertuples()},
            "held_out_note": "out-of-fold figures (5 topic-grouped folds) against vital strict, [value, 95% low, "
                             "high] over 1000 topic resamples; figures of this fit on its own topics are development",
        }
        path.write_text(json.dumps(payload, indent=1) + "\n")
        print(f"wrote {path}")


def markdown(results: pd.DataFrame) -> str:
    """The table: per judge, Kendall tau and tau_ap_b against vital strict [95 % interval], tau against the rest."""
    def cell(judge: str, truth: str, method: str) -> str:
        row = results[(results.judge == judge) & (results.truth == truth) & (results.method == method)]
        if not len(row):
            return ""
        r = row.iloc[0]
        return f"{r.value:.3f} [{r.low:.2f}, {r.high:.2f}]" if r.value == r.value else "undefined"

    lines = ["| judge | tau vs V_strict [95 %] | tau_ap_b vs V_strict [95 %] | tau vs V | tau vs A_strict | tau vs A | "
             "tau vs W |", "|---|---|---|---|---|---|---|"]
    for judge in dict.fromkeys(results.judge):
        if judge.startswith("combination (out-of-fold) - "):
            continue
        label = BASELINES.get(judge, judge)
        lines.append(f"| {label} | {cell(judge, 'vital_strict', 'kendall')} | "
                     f"{cell(judge, 'vital_strict', 'tau_ap_b')} | "
                     + " | ".join(cell(judge, t, "kendall").split(" [")[0] for t in list(TRUTH)[1:]) + " |")
    lines += ["", "| paired difference (out-of-fold combination - baseline), vs V_strict | Kendall tau [95 %] | "
              "tau_ap_b [95 %] |", "|---|---|---|"]
    for base, label in BASELINES.items():
        judge = f"combination (out-of-fold) - {base}"
        lines.append(f"| {label} | {cell(judge, 'vital_strict', 'kendall')} | "
                     f"{cell(judge, 'vital_strict', 'tau_ap_b')} |")
    return "\n".join(lines) + "\n"


def figure(results: pd.DataFrame, judges: dict[str, pd.DataFrame], truth: dict[str, pd.DataFrame],
           path: Path) -> None:
    """Left: Kendall tau vs V_strict with 95 % intervals per judge; right: the out-of-fold headline vs V_strict."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    part = results[(results.truth == "vital_strict") & (results.method == "kendall")
                   & ~results.judge.str.contains(" - ")].sort_values("value")
    fig, (left, right) = plt.subplots(1, 2, figsize=(13, 0.28 * len(part) + 1.5),
                                      gridspec_kw={"width_ratios": [1.3, 1]})
    colors = ["tab:red" if j in BASELINES else "tab:green" if "combination" in j else
              "tab:blue" if j.split(" ")[0] in CONSENSUS else "tab:gray" for j in part.judge]
    y = np.arange(len(part))
    left.barh(y, part.value, color=colors, alpha=0.8)
    left.errorbar(part.value, y, xerr=[part.value - part.low, part.high - part.value], fmt="none", ecolor="black",
                  capsize=2, lw=0.8)
    left.set_yticks(y, [BASELINES.get(j, j) for j in part.judge], fontsize=7)
    left.axvline(0.72, color="black", ls=":", lw=1)
    left.set_xlabel("Kendall tau vs the official V_strict leaderboard (95 % topic bootstrap)")
    left.set_title("red: baselines, blue: consensus axioms, gray: RAG axioms, green: combinations", fontsize=8)
    head = judges["combination (out-of-fold)"].reindex(columns=truth["vital_strict"].columns).mean(axis=0)
    official = truth["vital_strict"].mean(axis=0)
    right.scatter(official, head[official.index], s=14)
    right.set_xlabel("official V_strict (mean over 20 topics)")
    right.set_ylabel("axiom headline, out-of-fold (mean over topics)")
    right.set_title("45 TREC RAG 2024 runs", fontsize=9)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


if __name__ == "__main__":
    warnings.simplefilter("ignore", FutureWarning)
    arguments = [a for a in sys.argv[1:] if a != "--fit"]
    main(*arguments[:2], fit="--fit" in sys.argv[1:])
