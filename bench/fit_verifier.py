"""Fit the claim verifier of the heuristic judge on human-labelled sets; leave-one-dataset-out figures; ablation.

Usage (from the repository root, about 40 minutes on 2 cores, most of it the first pass of the checks)::

    HF_HUB_OFFLINE=1 python bench/fit_verifier.py [--cache /tmp/verifier-rows.json] [--out PATH] [--ablation]

1. Every example of ``verifier_data.examples`` (WiCE dev, SummEdits, BEGIN dev, FaithDial audit, DialFact sample, the
   project's batches) goes through the judge's checks (``HeuristicJudge.signals``): each claim with its best evidence,
   match score and the reasons of the checks that failed. Rows are cached (``--cache``).
2. "Before": the rubric level of the checks alone (level 5 = supported), balanced accuracy per dataset.
3. Features of each claim (``metrics.verifier.signals``), a logistic regression for P(supported) and one for
   P(contradicted | not supported); an answer is supported when its weakest claim is. Each dataset is held out in turn
   (leave one dataset out, LODO): balanced accuracy and false alarms (supported answers called unsupported).
4. ``--ablation``: each signal family removed in turn, LODO again.
5. The model fitted on every set is written as JSON (``--out``, default the packaged ``verifier.json``).
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import sys
import time
from pathlib import Path

import numpy as np
from tqdm import tqdm

sys.path.insert(0, str(Path(__file__).resolve().parent))
import verifier_data  # noqa: E402

from ir_rag_axioms.metrics.interface import RubricCase  # noqa: E402


def checked_rows(examples: list, caches: list[Path], batch: int = 16) -> list[list[dict]]:
    """The checks' rows of every example (cached by claim and passages; read from every cache, written to the first)."""
    from ir_rag_axioms.metrics.judges import HEURISTIC_JUDGE as judge

    cache, stored = caches[0], {}
    for path in caches:
        stored.update(json.loads(path.read_text()) if path.exists() else {})
    key = [json.dumps([e[1], list(e[2])]) for e in examples]
    todo = [k for k in range(len(examples)) if key[k] not in stored]
    for start in tqdm(range(0, len(todo), batch), desc="checks", unit="batch"):
        part = todo[start:start + batch]
        found = judge.signals([RubricCase(examples[k][1], reference=examples[k][2]) for k in part])
        for k, rows in zip(part, found, strict=True):
            stored[key[k]] = rows
        if start // batch % 5 == 4:
            cache.write_text(json.dumps(stored))
    cache.write_text(json.dumps(stored))
    return [stored[k] for k in key]


def balanced(truth: np.ndarray, predicted: np.ndarray) -> float:
    """Mean recall of the two classes (NaN when one is absent)."""
    if truth.all() or not truth.any():
        return float("nan")
    return float((predicted[truth].mean() + (~predicted[~truth]).mean()) / 2)


def before(examples: list, rows: list[list[dict]]) -> dict[str, dict[str, float]]:
    """The checks alone: the old rubric level 5 = supported."""
    from ir_rag_axioms.metrics.judges import HEURISTIC_JUDGE as judge

    names = sorted({e[0] for e in examples})
    truth = np.array([e[3] == "supported" for e in examples])
    levels = np.array([judge._faithfulness_level(r).level or 0 for r in rows])
    contradicted = np.array([any(row["verdict"] == "contradicted" for row in found) for found in rows])
    wrong = np.array([e[3] == "contradicted" for e in examples])
    out = {}
    for name in names:
        mine = np.array([e[0] == name for e in examples])
        out[name] = {"balanced_accuracy": balanced(truth[mine], levels[mine] == 5),
                     "false_alarms": float((levels[mine & truth] < 5).mean()),
                     "false_contradictions": float(contradicted[mine & truth].mean())}
        if wrong[mine].any():
            out[name]["contradictions_found"] = float(contradicted[mine & wrong].mean())
    return out


MIN_OVERLAPS = (0.0, 0.25, 0.4, 0.5, 0.6)
"""The guards tried: P(supported) 0 where at most this share of the claim's content words is in the context."""
CONTRADICTION_SETS = ("summedits", "dialfact", "project")
"""The sets with a contradicted label apart from unsupported (P(contradicted | not supported) is fitted on them)."""


def claim_features(examples: list, rows: list[list[dict]]) -> tuple[np.ndarray, np.ndarray]:
    """Features of every claim and the index of its example."""
    from ir_rag_axioms.metrics.verifier import features

    matrix = [features(row, e[2]) for e, found in zip(examples, rows, strict=True) for row in found]
    owner = [k for k, found in enumerate(rows) for _ in found]
    return np.array(matrix, dtype=float).reshape(-1, len(features.__globals__["FEATURES"])), np.array(owner, dtype=int)


def _weights(datasets: np.ndarray, labels: np.ndarray) -> np.ndarray:
    """Each (dataset, class) the same total weight."""
    out = np.zeros(len(labels))
    for d in np.unique(datasets):
        for c in np.unique(labels):
            mine = (datasets == d) & (labels == c)
            out[mine] = 1 / mine.sum() if mine.any() else 0
    return out * len(labels) / out.sum()


def _regression(x: np.ndarray, y: np.ndarray, w: np.ndarray, columns: list[int], width: int) -> np.ndarray:
    from sklearn.linear_model import LogisticRegression

    coefficients = np.zeros(width + 1)
    if len(np.unique(y)) < 2:
        coefficients[-1] = -20.0 if not y.any() else 20.0
        return coefficients
    model = LogisticRegression(C=0.5, max_iter=2000).fit(x[:, columns], y, sample_weight=w)
    coefficients[columns] = model.coef_[0]
    coefficients[-1] = model.intercept_[0]
    return coefficients


def weakest(verifier, x: np.ndarray, owner: np.ndarray, n: int) -> np.ndarray:
    """Index of each example's claim with the lowest P(supported) (-1 for an example without claims)."""
    p = verifier.probabilities(x)[0] if len(x) else np.zeros(0)
    out = np.full(n, -1)
    low = np.full(n, np.inf)
    for i, (k, value) in enumerate(zip(owner, p, strict=True)):
        if value < low[k]:
            low[k], out[k] = value, i
    return out


def answer_scores(verifier, x: np.ndarray, owner: np.ndarray, n: int) -> tuple[np.ndarray, np.ndarray]:
    """Per example: the lowest P(supported) and the highest P(contradicted) of its claims (1, 0 without claims)."""
    supported, contradicted = verifier.probabilities(x) if len(x) else (np.zeros(0), np.zeros(0))
    low, high = np.ones(n), np.zeros(n)
    np.minimum.at(low, owner, supported)
    np.maximum.at(high, owner, contradicted)
    return low, high


def fit(examples: list, x: np.ndarray, owner: np.ndarray, train: np.ndarray, columns: list[int] | None = None,
        metadata: dict | None = None):
    """The verifier fitted on the examples marked ``train`` (features ``columns`` only; None: all)."""
    from ir_rag_axioms.metrics.verifier import FEATURES, Verifier

    n, width = len(examples), x.shape[1]
    columns = list(range(width)) if columns is None else columns
    labels = np.array([e[3] for e in examples])
    names = np.array([e[0] for e in examples])
    mean, scale = x[train[owner]].mean(axis=0), x[train[owner]].std(axis=0) + 1e-6
    z = (x - mean) / scale
    verifier = Verifier(FEATURES, mean, scale, np.zeros(width + 1), np.zeros(width + 1), 0.5, 0.5, metadata or {})
    chosen = np.array([k for k in range(len(owner))])  # round 0: the lowest match stands for an unsupported answer
    pick = weakest(Verifier(FEATURES, np.zeros(width), np.ones(width), np.r_[np.eye(width)[0], 0.0],
                            np.zeros(width + 1), 0.5, 0.5, {}), x, owner, n)
    for _ in range(2):
        keep = np.array([train[owner[i]] and (labels[owner[i]] == "supported" or pick[owner[i]] == i)
                         for i in chosen])
        y = labels[owner[keep]] == "supported"
        coefficients = _regression(z[keep], y, _weights(names[owner[keep]], y), columns, width)
        verifier = Verifier(FEATURES, mean, scale, coefficients, verifier.contradicted, 0.5, 0.5, metadata or {})
        pick = weakest(verifier, x, owner, n)
    sets = [i for i in pick if i >= 0 and train[owner[i]] and labels[owner[i]] != "supported"
            and names[owner[i]] in CONTRADICTION_SETS]
    sets = np.array(sets, dtype=int)
    y = labels[owner[sets]] == "contradicted"
    contradicted = _regression(z[sets], y, _weights(names[owner[sets]], y), columns, width)
    verifier = Verifier(FEATURES, mean, scale, verifier.supported, contradicted, 0.5, 0.5, metadata or {})
    truth = labels == "supported"
    grid = np.round(np.arange(0.05, 0.96, 0.01), 2)
    train_sets = sorted(set(names[train]))
    best = (-1.0, 0.5, 0.0)
    for guard in MIN_OVERLAPS if FEATURES.index("overlap_context") in columns else (0.0,):
        guarded = dataclasses.replace(verifier, min_overlap=guard)
        low, high = answer_scores(guarded, x, owner, n)
        mean_ba = [np.nanmean([balanced(truth[train & (names == d)], low[train & (names == d)] >= t)
                               for d in train_sets]) for t in grid]
        k = int(np.nanargmax(mean_ba))
        if mean_ba[k] > best[0] + 1e-9:
            best = (float(mean_ba[k]), float(grid[k]), guard)
    _, threshold, guard = best
    verifier = dataclasses.replace(verifier, min_overlap=guard)
    low, high = answer_scores(verifier, x, owner, n)
    false = [np.mean(high[train & truth & (names == d)] >= t) for t in grid for d in train_sets]
    false = np.array(false).reshape(len(grid), len(train_sets)).max(axis=1)
    contradiction = float(next((t for t, f in zip(grid, false, strict=True) if t >= 0.5 and f <= 0.05), 0.95))
    return Verifier(FEATURES, mean, scale, verifier.supported, contradicted, threshold, contradiction, metadata or {},
                    guard)


def evaluate(verifier, examples: list, x: np.ndarray, owner: np.ndarray, mask: np.ndarray) -> dict[str, float]:
    """Balanced accuracy, false alarms and false contradictions of the answers in ``mask``."""
    low, high = answer_scores(verifier, x, owner, len(examples))
    labels = np.array([e[3] for e in examples])
    truth = labels == "supported"
    said = low >= verifier.threshold
    contradicted = high >= verifier.contradiction_threshold
    out = {"balanced_accuracy": balanced(truth[mask], said[mask]),
           "false_alarms": float((~said[mask & truth]).mean()),
           "false_contradictions": float(contradicted[mask & truth].mean())}
    if (labels[mask] == "contradicted").any():
        out["contradictions_found"] = float(contradicted[mask & (labels == "contradicted")].mean())
    return out


def lodo(examples: list, x: np.ndarray, owner: np.ndarray, columns: list[int] | None = None) -> dict[str, dict]:
    """Each dataset held out in turn: fitted on the others, measured on it."""
    names = np.array([e[0] for e in examples])
    out = {}
    for name in tqdm(sorted(set(names)), desc="leave one dataset out", leave=False):
        verifier = fit(examples, x, owner, names != name, columns)
        out[name] = evaluate(verifier, examples, x, owner, names == name)
    return out


def table(results: dict[str, dict[str, dict]], key: str) -> str:
    """A markdown table: one row per setting, one column per dataset, and the mean over the external sets."""
    sets = sorted(next(iter(results.values())))
    lines = [f"| {key} | " + " | ".join(sets) + " | mean (external) |", "|---" * (len(sets) + 2) + "|"]
    for setting, found in results.items():
        values = [found[s].get(key, float("nan")) for s in sets]
        external = np.nanmean([v for s, v in zip(sets, values, strict=True) if s != "project"])
        lines.append(f"| {setting} | " + " | ".join(f"{v:.3f}" for v in values) + f" | {external:.3f} |")
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cache", type=Path, nargs="+", default=[Path("/tmp/verifier-rows.json")],
                        help="cache files of the checks' rows (read all, write the first)")
    parser.add_argument("--only", nargs="+", default=None, help="check only these datasets (stage rows)")
    parser.add_argument("--cached-only", action="store_true", help="only the examples whose rows are cached")
    parser.add_argument("--out", type=Path, default=None)
    parser.add_argument("--ablation", action="store_true")
    parser.add_argument("--stage", choices=("rows", "before", "fit"), default="fit")
    args = parser.parse_args()
    start = time.perf_counter()
    examples = [e for e in verifier_data.examples() if args.only is None or e[0] in args.only]
    if args.cached_only:
        stored = {k for path in args.cache if path.exists() for k in json.loads(path.read_text())}
        examples = [e for e in examples if json.dumps([e[1], list(e[2])]) in stored]
    rows = checked_rows(examples, args.cache)
    print(f"checked {len(examples)} examples in {time.perf_counter() - start:.0f} s")
    if args.stage == "rows":
        return
    results = {"checks alone (level 5)": before(examples, rows)}
    if args.stage == "before":
        print(json.dumps(results, indent=1))
        return
    from ir_rag_axioms.metrics.verifier import FAMILIES, FEATURES

    x, owner = claim_features(examples, rows)
    results["length baseline (LODO)"] = lodo(examples, x, owner, [FEATURES.index("claim_words")])
    results["verifier (LODO)"] = lodo(examples, x, owner)
    if args.ablation:
        for family in ("similarity", *FAMILIES):
            dropped = [k for k, f in enumerate(FEATURES) if (f in ("match", "overlap_best", "overlap_context")
                                                              if family == "similarity" else
                                                              f in (family, f"{family}_unsure"))]
            results[f"without {family}"] = lodo(examples, x, owner, [k for k in range(len(FEATURES))
                                                                       if k not in dropped])
    for key in ("balanced_accuracy", "false_alarms", "false_contradictions", "contradictions_found"):
        print(table(results, key), "\n")
    names = np.array([e[0] for e in examples])
    counts = {name: int((names == name).sum()) for name in sorted(set(names))}
    metadata = {"fitted_by": "bench/fit_verifier.py", "training_sets": counts,
                "licences": {k: verifier_data.LICENCES[k] for k in counts},
                "labels": "faithful = WiCE supported, SummEdits 1, BEGIN Fully attributable, FaithDial entailment, "
                          "DialFact SUPPORTS, a faithful case of the batches; the rest not supported",
                "held_out": {"method": "leave one dataset out", **{k: {m: round(v, 4) for m, v in found.items()}
                                                                  for k, found in results["verifier (LODO)"].items()}},
                "length_baseline": {k: round(v["balanced_accuracy"], 4)
                                    for k, v in results["length baseline (LODO)"].items()}}
    verifier = fit(examples, x, owner, np.ones(len(examples), dtype=bool), metadata=metadata)
    names_all = sorted(counts)
    development = {name: evaluate(verifier, examples, x, owner, names == name) for name in names_all}
    print(table({"verifier fitted on all sets (development)": development}, "balanced_accuracy"))
    print(table({"verifier fitted on all sets (development)": development}, "false_alarms"))
    verifier.metadata["development"] = {k: {m: round(v, 4) for m, v in found.items()}
                                        for k, found in development.items()}
    out = args.out or Path(__file__).resolve().parents[1] / "ir_rag_axioms/data/verifier.json"
    out.write_text(json.dumps(verifier.to_json(), indent=1) + "\n")
    print(f"wrote {out} (threshold {verifier.threshold}, contradiction threshold {verifier.contradiction_threshold}, "
          f"min_overlap {verifier.min_overlap}); "
          f"{time.perf_counter() - start:.0f} s in all")


if __name__ == "__main__":
    main()
