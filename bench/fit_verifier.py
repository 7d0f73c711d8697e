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
4. ``--ablation``: each signal family removed in turn, LODO again. ``--variants``: other model classes for
   P(supported) (regularisation, class weights, L1, quantile bins, a linear spline, pairwise products, squares,
   gradient-boosted trees as a reference), LODO and a nested pick among them; prints only (docs/metrics-development.md).
5. The model fitted on every set is written as JSON (``--out``, default the packaged ``verifier.json``).
6. ``--held-out FILES``: realistic RAG answers written blind from CrowdRAG-25 passages
   (``tests/data/rag_answers_*.json``) are judged too; every setting above (each ablation included) is fitted on the
   six sets and measured on them once. Such a run writes no model.
"""

from __future__ import annotations

import argparse
import dataclasses
import itertools
import json
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np
from tqdm import tqdm

sys.path.insert(0, str(Path(__file__).resolve().parent))
import verifier_data  # noqa: E402

from ir_rag_axioms.metrics.interface import RubricCase  # noqa: E402


def checked_rows(examples: list, caches: list[Path], batch: int = 16) -> list[list[dict]]:
    """The checks' rows of every example (cached by claim and passages; read from every cache, written to the first)."""
    from ir_rag_axioms.metrics.judges import HEURISTIC_JUDGE as judge

    cache, stored = caches[0], dict[str, list[dict]]()
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
HELD_OUT = "rag-"
"""The prefix of the realistic batches' names (``--held-out``): never in a fit; each setting is fitted on the six sets,
measured on them."""


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


@dataclasses.dataclass(frozen=True)
class Variant:
    """Another model class for P(supported) (``--variants``): regularisation, weighting, expanded features, trees."""

    name: str
    C: float = 0.5
    weighting: str = "dataset-class"
    """"dataset-class": each (dataset, class) the same total weight (as shipped); "class": each class; "none"."""
    l1: bool = False
    bins: int = 0
    """Quantile bins of each similarity feature, one-hot beside the features (edges from the training claims)."""
    hinges: int = 0
    """max(0, x - knot) at the quantile knots of each similarity feature beside the features (a linear spline)."""
    products: bool = False
    """The pairwise products of the standardised ``STRONGEST`` features beside the features."""
    squares: bool = False
    """The squares of the standardised similarity features beside the features."""
    depth: int = 0
    """> 0: 100 gradient-boosted trees of this depth instead of the regression (a reference, not a JSON model)."""


VARIANTS = (Variant("as shipped (L2, C 0.5)"), Variant("C 0.1", C=0.1), Variant("C 2", C=2.0),
            Variant("C 10", C=10.0), Variant("class weights only", weighting="class"),
            Variant("no weights", weighting="none"), Variant("L1, C 0.5", l1=True),
            Variant("L1, C 0.1", C=0.1, l1=True), Variant("4 quantile bins", bins=4),
            Variant("8 quantile bins, C 0.1", C=0.1, bins=8), Variant("linear spline, 2 knots", hinges=3),
            Variant("pairwise products", products=True), Variant("squares", squares=True),
            Variant("4 bins and products", bins=4, products=True), Variant("trees, depth 2", depth=2),
            Variant("trees, depth 3", depth=3))
"""The variants ``--variants`` compares (leave one dataset out, then a nested pick among the regressions)."""
STRONGEST = ("match", "overlap_best", "overlap_context", "claim_words", "new_words")
"""The features of the largest weights, whose pairwise products a variant may add."""


def _design(variant: Variant, fitted: np.ndarray, mean: np.ndarray, scale: np.ndarray):
    """A variant's design matrix of raw feature rows: standardised, then its expansions (knots from ``fitted``)."""
    from ir_rag_axioms.metrics.verifier.signals import FEATURES, SIMILARITY

    similar = [FEATURES.index(f) for f in SIMILARITY]
    k = variant.bins or variant.hinges
    knots = {j: np.unique(np.quantile(fitted[:, j], np.linspace(0, 1, k + 1)[1:-1])) for j in similar} if k else {}
    pairs = list(itertools.combinations([FEATURES.index(f) for f in STRONGEST], 2)) if variant.products else []

    def design(rows: np.ndarray) -> np.ndarray:
        z = (rows - mean) / scale
        parts = [z, *(z[:, [a]] * z[:, [b]] for a, b in pairs)] + ([z[:, similar] ** 2] if variant.squares else [])
        for j, edges in knots.items():
            if variant.bins:
                found = np.searchsorted(edges, rows[:, j], side="right")
                parts.append((found[:, None] == np.arange(1, len(edges) + 1)).astype(float))
            if variant.hinges:
                parts.append(np.maximum(0.0, rows[:, [j]] - edges) / scale[j])
        return np.hstack(parts)

    return design


def _learner(variant: Variant, d: np.ndarray, y: np.ndarray, w: np.ndarray):
    """A variant's fitted log-odds of supported, a function of design rows."""
    if variant.depth:
        from sklearn.ensemble import HistGradientBoostingClassifier

        return HistGradientBoostingClassifier(max_depth=variant.depth, max_iter=100, learning_rate=0.05,
                                              min_samples_leaf=20, random_state=0).fit(d, y, sample_weight=w
                                                                                       ).decision_function
    from sklearn.linear_model import LogisticRegression

    options = {"solver": "liblinear", "l1_ratio": 1.0} if variant.l1 else {}
    model = LogisticRegression(C=variant.C, max_iter=5000, **options).fit(d, y, sample_weight=w)
    return lambda rows: rows @ model.coef_[0] + model.intercept_[0]


@dataclasses.dataclass(frozen=True)
class VariantModel:
    """A variant's P(supported) with the shipped P(contradicted | not supported) and the ``Verifier``'s decisions."""

    design: Any
    logit: Any
    mean: np.ndarray
    scale: np.ndarray
    contradicted: np.ndarray
    threshold: float = 0.5
    contradiction_threshold: float = 0.5
    min_overlap: float = 0.0

    def probabilities(self, rows: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """(P(supported), P(contradicted)) of raw feature rows, as ``Verifier.probabilities``."""
        from ir_rag_axioms.metrics.verifier import FEATURES

        supported = 1 / (1 + np.exp(-np.clip(self.logit(self.design(rows)), -50, 50)))
        z = np.clip((rows - self.mean) / self.scale @ self.contradicted[:-1] + self.contradicted[-1], -50, 50)
        contradicted = (1 - supported) / (1 + np.exp(-z))
        if self.min_overlap > 0:
            guarded = rows[:, FEATURES.index("overlap_context")] <= self.min_overlap
            supported, contradicted = np.where(guarded, 0.0, supported), np.where(guarded, 0.0, contradicted)
        return supported, contradicted


def variant_model(variant: Variant, x: np.ndarray, keep: np.ndarray, y: np.ndarray, names: np.ndarray,
                  fitted: np.ndarray, shipped) -> VariantModel:
    """A variant fitted on the claims ``keep`` (labels ``y``, their datasets ``names``; knots from ``fitted``)."""
    weights = {"dataset-class": lambda: _weights(names, y), "class": lambda: _weights(np.zeros(len(y)), y),
               "none": lambda: np.ones(len(y))}[variant.weighting]()
    design = _design(variant, x[fitted], shipped.mean, shipped.scale)
    return VariantModel(design, _learner(variant, design(x[keep]), y, weights), shipped.mean, shipped.scale,
                        shipped.contradicted)


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
        metadata: dict | None = None, variant: Variant | None = None):
    """The verifier fitted on the examples marked ``train`` (features ``columns`` only; None: all; ``variant``: another
    model class for P(supported), ``--variants``)."""
    from ir_rag_axioms.metrics.verifier import FEATURES, Verifier

    width = x.shape[1]
    columns = list(range(width)) if columns is None else columns
    labels, names = np.array([e[3] for e in examples]), np.array([e[0] for e in examples])
    mean, scale = x[train[owner]].mean(axis=0), x[train[owner]].std(axis=0) + 1e-6
    z = (x - mean) / scale
    empty = Verifier(FEATURES, mean, scale, np.zeros(width + 1), np.zeros(width + 1), 0.5, 0.5, metadata or {})

    def learn(keep: np.ndarray, y: np.ndarray):
        if variant is not None:
            return variant_model(variant, x, keep, y, names[owner[keep]], train[owner], empty)
        return dataclasses.replace(empty, supported=_regression(z[keep], y, _weights(names[owner[keep]], y), columns,
                                                                width))

    verifier = _rounds(learn, x, owner, train, labels)
    verifier = dataclasses.replace(verifier, contradicted=_contradiction_model(verifier, x, z, owner, train, labels,
                                                                               names, columns))
    guards = MIN_OVERLAPS if FEATURES.index("overlap_context") in columns else (0.0,)
    verifier = _threshold(verifier, x, owner, train, labels == "supported", names, guards)
    return dataclasses.replace(verifier, contradiction_threshold=_contradiction_threshold(
        verifier, x, owner, train, labels == "supported", names))


def _rounds(learn, x: np.ndarray, owner: np.ndarray, train: np.ndarray, labels: np.ndarray):
    """P(supported) fitted twice: the supported answers' claims against the weakest claim of each other answer
    (round 0: the lowest match)."""
    from ir_rag_axioms.metrics.verifier import FEATURES, Verifier

    n, width, index = len(labels), x.shape[1], np.arange(len(owner))
    pick = weakest(Verifier(FEATURES, np.zeros(width), np.ones(width), np.r_[np.eye(width)[0], 0.0],
                            np.zeros(width + 1), 0.5, 0.5, {}), x, owner, n)
    verifier = None
    for _ in range(2):
        keep = train[owner] & ((labels[owner] == "supported") | (pick[owner] == index))
        verifier = learn(keep, labels[owner[keep]] == "supported")
        pick = weakest(verifier, x, owner, n)
    return verifier


def _contradiction_model(verifier, x: np.ndarray, z: np.ndarray, owner: np.ndarray, train: np.ndarray,
                         labels: np.ndarray, names: np.ndarray, columns: list[int]) -> np.ndarray:
    """Coefficients of P(contradicted | not supported) on the weakest claims of the sets with that label."""
    pick = weakest(verifier, x, owner, len(labels))
    sets = np.array([i for i in pick if i >= 0 and train[owner[i]] and labels[owner[i]] != "supported"
                     and names[owner[i]] in CONTRADICTION_SETS], dtype=int)
    y = labels[owner[sets]] == "contradicted"
    return _regression(z[sets], y, _weights(names[owner[sets]], y), columns, z.shape[1])


GRID = np.round(np.arange(0.05, 0.96, 0.01), 2)
"""The thresholds tried."""


def _threshold(verifier, x: np.ndarray, owner: np.ndarray, train: np.ndarray, truth: np.ndarray, names: np.ndarray,
               guards: tuple[float, ...]):
    """The verifier with the threshold and overlap guard of the best mean balanced accuracy over the training sets."""
    train_sets = sorted(set(names[train]))
    best = (-1.0, 0.5, 0.0)
    for guard in guards:
        low, _ = answer_scores(dataclasses.replace(verifier, min_overlap=guard), x, owner, len(truth))
        mean_ba = [np.nanmean([balanced(truth[train & (names == d)], low[train & (names == d)] >= t)
                               for d in train_sets]) for t in GRID]
        k = int(np.nanargmax(mean_ba))
        if mean_ba[k] > best[0] + 1e-9:
            best = (float(mean_ba[k]), float(GRID[k]), guard)
    return dataclasses.replace(verifier, threshold=best[1], min_overlap=best[2])


def _contradiction_threshold(verifier, x: np.ndarray, owner: np.ndarray, train: np.ndarray, truth: np.ndarray,
                             names: np.ndarray) -> float:
    """The lowest P(contradicted) threshold from 0.5 on that calls at most 5% of each training set's supported answers
    contradicted (0.95 when none does)."""
    train_sets = sorted(set(names[train]))
    _, high = answer_scores(verifier, x, owner, len(truth))
    false = [np.mean(high[train & truth & (names == d)] >= t) for t in GRID for d in train_sets]
    worst = np.array(false).reshape(len(GRID), len(train_sets)).max(axis=1)
    return float(next((t for t, f in zip(GRID, worst, strict=True) if t >= 0.5 and f <= 0.05), 0.95))


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


def lodo(examples: list, x: np.ndarray, owner: np.ndarray, columns: list[int] | None = None,
         variant: Variant | None = None, among: list[str] | None = None) -> dict[str, dict]:
    """Each dataset (of ``among``; None: all) held out in turn: fitted on the others, measured on it."""
    names = np.array([e[0] for e in examples])
    among = sorted(n for n in set(names) if not n.startswith(HELD_OUT)) if among is None else among
    out = {}
    for name in tqdm(among, desc="leave one dataset out", leave=False):
        verifier = fit(examples, x, owner, (names != name) & np.isin(names, among), columns, variant=variant)
        out[name] = evaluate(verifier, examples, x, owner, names == name)
        out[name]["auc"] = _auc(verifier, examples, x, owner, names == name)
    realistic = sorted(n for n in set(names) if n.startswith(HELD_OUT))
    if variant is None and realistic:  # the realistic batches: fitted on every set, measured once
        verifier = fit(examples, x, owner, np.isin(names, among), columns)
        for name in realistic:
            out[name] = {**evaluate(verifier, examples, x, owner, names == name),
                         "auc": _auc(verifier, examples, x, owner, names == name)}
    return out


def _auc(verifier, examples: list, x: np.ndarray, owner: np.ndarray, mask: np.ndarray) -> float:
    """Area under the ROC curve of the answers' lowest P(supported) in ``mask`` (threshold-free)."""
    from sklearn.metrics import roc_auc_score

    truth = np.array([e[3] == "supported" for e in examples])[mask]
    low, _ = answer_scores(verifier, x, owner, len(examples))
    return float(roc_auc_score(truth, low[mask])) if 0 < truth.sum() < len(truth) else float("nan")


def nested_pick(examples: list, x: np.ndarray, owner: np.ndarray, variants: tuple[Variant, ...]) -> dict[str, dict]:
    """Nested leave one dataset out: for each external set, the variant of the best inner LODO mean over the other
    external sets is fitted on the other five sets and measured on it (an honest figure for picking among many)."""
    names = np.array([e[0] for e in examples])
    everything = sorted(set(names))
    out = {}
    for held in (name for name in everything if name != "project"):
        rest = [name for name in everything if name != held]
        inner = [np.mean([found[s]["balanced_accuracy"] for s in rest if s != "project"])
                 for found in (lodo(examples, x, owner, variant=v, among=rest) for v in variants)]
        pick = variants[int(np.argmax(inner))]
        verifier = fit(examples, x, owner, names != held, variant=pick)
        out[held] = {**evaluate(verifier, examples, x, owner, names == held),
                     "auc": _auc(verifier, examples, x, owner, names == held)}
        print(f"{held}: picked {pick.name!r} (inner mean {max(inner):.3f})")
    return out


def table(results: dict[str, dict[str, dict]], key: str) -> str:
    """A markdown table: one row per setting, one column per dataset, and the mean over the external sets."""
    sets = sorted(next(iter(results.values())))
    lines = [f"| {key} | " + " | ".join(sets) + " | mean (external) |", "|---" * (len(sets) + 2) + "|"]
    for setting, found in results.items():
        values = [found.get(s, {}).get(key, float("nan")) for s in sets]
        external = np.nanmean([v for s, v in zip(sets, values, strict=True)
                               if s != "project" and not s.startswith(HELD_OUT)])
        lines.append(f"| {setting} | " + " | ".join(f"{v:.3f}" for v in values) + f" | {external:.3f} |")
    return "\n".join(lines)


def compare_variants(examples: list, x: np.ndarray, owner: np.ndarray) -> None:
    """``--variants``: each model class of ``VARIANTS`` left one dataset out, then the nested pick among the
    regressions; balanced accuracy, false alarms and AUC per set and their means over the external sets."""
    results = {v.name: lodo(examples, x, owner, variant=v) for v in tqdm(VARIANTS, desc="variants")}
    results["nested pick among the regressions"] = nested_pick(examples, x, owner,
                                                               tuple(v for v in VARIANTS if not v.depth))
    for key in ("balanced_accuracy", "false_alarms", "auc"):
        print(table(results, key), "\n")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cache", type=Path, nargs="+", default=[Path("/tmp/verifier-rows.json")],
                        help="cache files of the checks' rows (read all, write the first)")
    parser.add_argument("--only", nargs="+", default=None, help="check only these datasets (stage rows)")
    parser.add_argument("--cached-only", action="store_true", help="only the examples whose rows are cached")
    parser.add_argument("--out", type=Path, default=None)
    parser.add_argument("--ablation", action="store_true")
    parser.add_argument("--stage", choices=("rows", "before", "fit"), default="fit")
    parser.add_argument("--held-out", type=Path, nargs="*", default=[],
                        help="realistic RAG batches (tests/data/rag_answers_*.json): never fitted on; each setting "
                             "fitted on all six sets and measured on them")
    parser.add_argument("--variants", action="store_true",
                        help="compare other model classes (LODO, nested pick); nothing written")
    args = parser.parse_args()
    start = time.perf_counter()
    examples = [e for e in verifier_data.examples() if args.only is None or e[0] in args.only]
    examples += [e for path in args.held_out for e in verifier_data.realistic(path)]
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
    if args.variants:
        compare_variants(examples, x, owner)
        return
    results["length baseline (LODO)"] = lodo(examples, x, owner, [FEATURES.index("claim_words")])
    results["verifier (LODO)"] = lodo(examples, x, owner)
    if args.ablation:
        for family in ("similarity", *FAMILIES):
            dropped = [k for k, f in enumerate(FEATURES) if (f in ("match", "overlap_best", "overlap_context")
                                                              if family == "similarity" else
                                                              f in (family, f"{family}_unsure"))]
            results[f"without {family}"] = lodo(examples, x, owner, [k for k in range(len(FEATURES))
                                                                       if k not in dropped])
    for key in ("balanced_accuracy", "false_alarms", "false_contradictions", "contradictions_found", "auc"):
        print(table(results, key), "\n")
    if args.held_out:
        print("a run with --held-out writes no model (the realistic batches are never fitted on)")
        return
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
