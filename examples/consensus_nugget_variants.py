"""Variants of the consensus nugget score and of the headline, each chosen by nested topic-grouped CV.

Usage: python examples/consensus_nugget_variants.py [DATA_DIR] [OUT_DIR] [--samples N]
  DATA_DIR: ../shared/data/trec-rag-24-nuggets; OUT_DIR: out-leaderboard (values.csv there, the axiom values of
  ``leaderboard_study.py``, is reused; nugget-variants.pkl caches the variant scores). Writes nugget-variants.md.

Variants (the grid, all of it offered to the selection):
- unit: Punkt sentences (``claims_of``, as shipped) or the statements the metrics extract (``statement_feature``:
  sentences, bullet items, clauses of long sentences, a leading pronoun resolved), both of at least 4 words;
- cosine distance threshold of the clustering: 0.35, 0.45, 0.55 (3 voices, a fifth for vital, partial at 0.5);
- score: vital strict, all (partial counts half), importance-weighted strict recall (each nugget weighted by its
  distinct voices), soft recall (a nugget not stated scores the answer's best cosine to its centroid), the same
  weighted; and cluster-free "kernel" scores: the share of the other voices' claims stated by at least 3 voices
  that the answer covers (a claim within cosine 0.55 / 0.65 / 0.75), the same weighted by their voices, and the
  mean best cosine.

The selection: 5 topic-grouped folds (the study's); for each fold the variant with the best mean of the four
measures (Kendall tau of the run means against vital strict and all strict, per-topic tau, tau over all (topic,
run) pairs) on the other folds' topics scores the fold's topics. For the headline the same, each candidate feature
set judged by its own out-of-fold predictions inside the training topics. Figures of a fixed setting on all 20
topics are *development* figures; those of the nested selection are out of fold for every choice made here.
"""

from __future__ import annotations

import re
import sys
import warnings
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pandas as pd

sys.path.insert(0, str(Path(__file__).resolve().parent))

import leaderboard_study as study  # noqa: E402

from ir_rag_axioms.evaluation import consensus_nuggets as cn  # noqa: E402
from ir_rag_axioms.evaluation import leaderboard as lb  # noqa: E402
from ir_rag_axioms.evaluation.meta import bootstrap_correlation, level_correlation  # noqa: E402

UNITS, THRESHOLDS, TAUS = ("sentences", "statements"), (0.35, 0.45, 0.55), (0.55, 0.65, 0.75)
CLUSTER_SCORES = ("vital_strict", "vital", "all_strict", "all", "weighted_strict", "soft", "weighted_soft")
TRACK, SOFT = ["vital_strict", "vital", "all_strict", "all"], ["soft", "weighted_soft", "weighted_strict"]
MEASURES = (("vital_strict", "run"), ("all_strict", "run"), ("vital_strict", "topic"), ("vital_strict", "pairs"))
MIN_WORDS, MIN_SUPPORT, VITAL_SHARE, PARTIAL, SEED = 4, 3, 0.2, 0.5, 0
_WORD = re.compile(r"\w+")


def unit_splitter(texts: list[str]) -> dict[str, Callable[[str], list[str]]]:
    """Per unit name: text -> its claims (statements parsed once for all ``texts``)."""
    from ir_rag_axioms.analysis.cache import default_analysis
    from ir_rag_axioms.analysis.resources import DEFAULT_SPACY_MODEL
    from ir_rag_axioms.metrics.statements import statement_feature

    analysis = default_analysis()
    values = [v for k in range(0, len(texts), 50)
              for v in analysis.features(DEFAULT_SPACY_MODEL, statement_feature(25), texts[k:k + 50])]
    found = {t: [s[2] for s in (v or ()) if len(_WORD.findall(s[2])) >= MIN_WORDS] for t, v in
             zip(texts, values, strict=True)}
    return {"sentences": lambda t: cn.claims_of(t, MIN_WORDS), "statements": lambda t: found.get(t, [])}


def topic_matrix(claims: dict[str, list[str]], embed: Callable[[list[str]], np.ndarray]) -> tuple[np.ndarray, ...]:
    """(owners' run ids, unit vectors) of a topic's claims in (run, position) order."""
    owners = np.array([r for r in claims for _ in claims[r]], dtype=object)
    texts = [c for r in claims for c in claims[r]]
    m = embed(texts).astype(np.float64) if texts else np.zeros((0, 1))
    return owners, m / np.maximum(np.linalg.norm(m, axis=1, keepdims=True), 1e-12)


def cluster_scores(owners: np.ndarray, m: np.ndarray, voice: dict[str, int], threshold: float) -> dict[str, dict]:
    """Per run: the cluster-nugget scores (``CLUSTER_SCORES``) at one threshold; runs without a claim are absent."""
    labels = cn._clusters(m, threshold)
    n_voices = len({voice[r] for r in set(owners)})
    groups = [(at, len({voice[r] for r in set(owners[at])})) for at in
              (np.flatnonzero(labels == lab) for lab in dict.fromkeys(labels.tolist()))]
    groups = [(at, s) for at, s in groups if s >= MIN_SUPPORT]
    if not groups:
        return {}
    support = np.array([s for _, s in groups], dtype=np.float64)
    vital = support >= max(MIN_SUPPORT, int(np.ceil(VITAL_SHARE * n_voices)))
    centroids = np.stack([m[at].mean(axis=0) for at, _ in groups])
    centroids /= np.linalg.norm(centroids, axis=1, keepdims=True)
    out = {}
    for run in dict.fromkeys(owners.tolist()):
        mine = np.flatnonzero(owners == run)
        strict = np.array([np.isin(mine, at).any() for at, _ in groups], dtype=np.float64)
        best = np.array([(m[mine] @ m[at].T).max() for at, _ in groups])
        half = ((strict == 0) & (best >= PARTIAL)) / 2
        soft = np.clip(np.maximum(strict, (m[mine] @ centroids.T).max(axis=0)), 0, 1)
        share = (lambda v, w: float((v * w).sum() / w.sum()) if w.sum() else np.nan)  # noqa: E731
        out[run] = {"vital_strict": share(strict, vital), "vital": share(strict + half, vital),
                    "all_strict": strict.mean(), "all": (strict + half).mean(),
                    "weighted_strict": share(strict, support), "soft": soft.mean(),
                    "weighted_soft": share(soft, support)}
    return out


def kernel_scores(owners: np.ndarray, m: np.ndarray, voice: dict[str, int]) -> dict[str, dict]:
    """Per run: cluster-free consensus coverage of the other voices' claims stated by >= 3 voices (``TAUS``)."""
    voices = np.array([voice[r] for r in owners])
    ids = sorted(set(voices.tolist()))
    best = np.stack([(m @ m[voices == v].T).max(axis=1) for v in ids], axis=1)  # claim x voice
    out: dict[str, dict] = {}
    for tau in TAUS:
        support = (best >= tau).sum(axis=1)
        for run in dict.fromkeys(owners.tolist()):
            others = (support >= MIN_SUPPORT) & (voices != voice[run])
            if not others.any():
                continue
            cover = best[others, ids.index(voice[run])]
            out.setdefault(run, {})
            out[run] |= {f"kernel {tau}": float((cover >= tau).mean()),
                         f"kernel weighted {tau}": float(((cover >= tau) * support[others]).sum()
                                                         / support[others].sum()),
                         f"kernel soft {tau}": float(np.clip(cover, 0, 1).mean())}
    return out


def variant_table(answers: pd.DataFrame, cache: Path) -> pd.DataFrame:
    """(answers x variants) scores, aligned with ``answers`` (cached in ``cache``)."""
    from tqdm.auto import tqdm

    from ir_rag_axioms.analysis.cache import default_analysis

    if cache.exists():
        return pd.read_pickle(cache)
    texts = [t if isinstance(t, str) else "" for t in answers["text"]]
    split, analysis = unit_splitter(list(dict.fromkeys(texts))), default_analysis()
    columns: dict[str, np.ndarray] = {}
    for rows in tqdm(list(answers.groupby("topic", sort=False).indices.values()), desc="variants"):
        runs = answers["run_id"].to_numpy()[rows]
        by_run = {r: texts[i] for r, i in zip(runs, rows, strict=True)}
        voice = cn._voices(sorted(by_run), by_run, 0.5, None)
        for unit in UNITS:
            owners, m = topic_matrix({r: split[unit](by_run[r]) for r in sorted(by_run)}, analysis.embed)
            found = [(f"{unit} {t} {{}}", cluster_scores(owners, m, voice, t)) for t in THRESHOLDS]
            found.append((f"{unit} {{}}", kernel_scores(owners, m, voice)))
            for name, scores in found:
                for i, run in zip(rows, runs, strict=True):
                    for key, value in scores.get(run, {}).items():
                        columns.setdefault(name.format(key), np.full(len(answers), np.nan))[i] = value
    table = pd.DataFrame(columns)
    table.to_pickle(cache)
    return table


class Evaluation:
    """The four measures of a per-answer score on all or some topics, and the nested selections."""

    def __init__(self, answers: pd.DataFrame, samples: int) -> None:
        from sklearn.model_selection import GroupKFold

        self.answers, self.samples = answers, samples
        self.groups, self.runs = answers["topic"].to_numpy(), answers["run_id"].to_numpy()
        self.folds = list(GroupKFold(n_splits=study.FOLDS).split(np.zeros(len(answers)), groups=self.groups))

    def grid(self, values: np.ndarray, rows: np.ndarray | None = None) -> pd.DataFrame:
        frame = pd.DataFrame({"topic": self.groups, "run": self.runs, "v": values})
        return (frame if rows is None else frame.iloc[rows]).pivot(index="topic", columns="run", values="v")

    def criterion(self, values: np.ndarray, rows: np.ndarray | None = None) -> float:
        """The mean of the four measures (``MEASURES``) on ``rows``' topics."""
        g = self.grid(values, rows)
        return float(np.mean([level_correlation(g.to_numpy(), self.grid(self.answers[t].to_numpy(), rows)
                                                .reindex_like(g).to_numpy(), "kendall", level)
                              for t, level in MEASURES]))

    def cells(self, values: np.ndarray) -> list[str]:
        g = self.grid(values)
        out = []
        for truth, level in MEASURES:
            r = bootstrap_correlation(g.to_numpy(), self.grid(self.answers[truth].to_numpy()).reindex_like(g)
                                      .to_numpy(), "kendall", self.samples, SEED, level=level)
            out.append(f"{r['value']:.3f} [{r['low']:.2f}, {r['high']:.2f}]")
        return out

    def nested_scores(self, candidates: dict[str, np.ndarray]) -> tuple[np.ndarray, list[str]]:
        """Each fold's topics scored by the candidate best on the other folds' topics."""
        pred, picks = np.full(len(self.answers), np.nan), []
        for train, test in self.folds:
            best = max(candidates, key=lambda k: self.criterion(candidates[k], train))
            picks.append(best)
            pred[test] = candidates[best][test]
        return pred, picks

    def oof(self, x: np.ndarray, y: np.ndarray, rows: np.ndarray) -> np.ndarray:
        """Out-of-fold ridge predictions on ``rows`` (the study's ``out_of_fold``), NaN elsewhere."""
        out = np.full(len(y), np.nan)
        keep = rows[~np.isnan(y[rows])]
        out[keep], _ = study.out_of_fold(x[keep], y[keep], self.groups[keep], self.runs[keep])
        return out

    def nested_headline(self, candidates: dict[str, tuple[np.ndarray, np.ndarray]]) -> tuple[np.ndarray, list[str]]:
        """Per fold: the (features, target) pair whose training-topic out-of-fold figure is best, refitted there."""
        pred, picks = np.full(len(self.answers), np.nan), []
        for train, test in self.folds:
            best = max(candidates, key=lambda k: self.criterion(self.oof(*candidates[k], train), train))
            picks.append(best)
            x, y = candidates[best]
            keep = train[~np.isnan(y[train])]
            model, _ = study.fit_ridge(x[keep], y[keep], self.groups[keep], self.runs[keep])
            pred[test] = model.predict(x[test])  # type: ignore[attr-defined]
        return pred, picks


def features(answers: pd.DataFrame, table: pd.DataFrame, names: list[str]) -> np.ndarray:
    """Each score standardised within its topic, then each raw (NaN: 0), as the study's ``nugget_matrix``."""
    raw = table[names].to_numpy(dtype=np.float64)
    z = np.zeros_like(raw)
    for idx in answers.groupby("topic", sort=False).indices.values():
        for k in range(raw.shape[1]):
            z[idx, k] = lb.standardize(raw[idx, k])
    return np.hstack([z, np.nan_to_num(raw)])


def centred(answers: pd.DataFrame, y: np.ndarray) -> np.ndarray:
    """The target minus its topic's mean (the run means' order does not see topic offsets)."""
    out = y.copy()
    for idx in answers.groupby("topic", sort=False).indices.values():
        out[idx] = y[idx] - np.nanmean(y[idx])
    return out


def development_grid(ev: Evaluation, table: pd.DataFrame) -> str:
    """Every variant's four measures on all 20 topics (development figures, no interval), best mean first."""
    rows = []
    for name in table.columns:
        g = ev.grid(table[name].to_numpy())
        values = [level_correlation(g.to_numpy(), ev.grid(ev.answers[t].to_numpy()).reindex_like(g).to_numpy(),
                                    "kendall", level) for t, level in MEASURES]
        rows.append((float(np.mean(values)), name, values))
    lines = ["| variant (development) | tau vs V_strict | tau vs A_strict | per-topic tau | pairs tau | mean |",
             "|---|---|---|---|---|---|"]
    lines += [f"| {name} | " + " | ".join(f"{v:.3f}" for v in values) + f" | {mean:.3f} |"
              for mean, name, values in sorted(rows, key=lambda r: -r[0])]
    return "\n".join(lines) + "\n"


def main(data: str, out_dir: str, samples: int) -> None:
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    answers = study.answers_frame(data).reset_index(drop=True)
    axioms = list(lb.packaged_model()["axioms"])
    z_axioms = study.standardized(answers, study.axiom_values(answers, axioms, out / "values.csv"), axioms)
    table = variant_table(answers, out / "nugget-variants.pkl")
    ev = Evaluation(answers, samples)
    y = answers["vital_strict"].to_numpy(dtype=np.float64)
    everything = np.arange(len(answers))
    words = np.array([len(_WORD.findall(str(t))) for t in answers["text"]], dtype=np.float64)
    lines = ["| judge | tau vs V_strict | tau vs A_strict | per-topic tau | pairs tau |", "|---|---|---|---|---|"]
    notes = []

    def row(name: str, values: np.ndarray) -> None:
        lines.append(f"| {name} | " + " | ".join(ev.cells(values)) + " |")
        print(lines[-1], flush=True)

    row("mean answer length (words)", words)
    agree = study.axiom_values(answers, ["AGREE1"], out / "values.csv").set_index(["topic", "run_id"])["value"]
    row("content-consensus count (AGREE1)", agree.reindex(pd.MultiIndex.from_frame(answers[["topic", "run_id"]]))
        .to_numpy())
    for name in ("sentences 0.45 all", "sentences 0.45 vital_strict"):
        row(f"{name} (shipped, development)", table[name].to_numpy())
    alone, picks = ev.nested_scores({c: table[c].to_numpy() for c in table.columns})
    row(f"nugget score alone, nested choice of {table.shape[1]} variants", alone)
    notes.append(f"nugget score alone, the folds' choices: {picks}")
    heads: dict[str, tuple[np.ndarray, np.ndarray]] = {}
    for unit in UNITS:
        for t in THRESHOLDS:
            for kind, names in (("track", TRACK), ("track+soft", TRACK + SOFT)):
                x = np.hstack([z_axioms, features(answers, table, [f"{unit} {t} {n}" for n in names])])
                heads[f"{unit} {t} {kind}"] = (x, y)
                heads[f"{unit} {t} {kind}, centred target"] = (x, centred(answers, y))
    row("before: axioms (16), out-of-fold", ev.oof(z_axioms, y, everything))
    row("after: axioms + sentences 0.45 track (shipped), out-of-fold", ev.oof(*heads["sentences 0.45 track"],
                                                                            everything))
    head, picks = ev.nested_headline(heads)
    row(f"headline, nested choice of {len(heads)} nugget feature sets and targets", head)
    notes.append(f"headline, the folds' choices: {picks}")
    text = "\n".join(lines) + "\n\n" + "\n".join(notes) + "\n\n" + development_grid(ev, table)
    (out / "nugget-variants.md").write_text(text)
    print("\n".join(notes))


if __name__ == "__main__":
    warnings.simplefilter("ignore", FutureWarning)
    args = sys.argv[1:]
    count = int(args[args.index("--samples") + 1]) if "--samples" in args else 1000
    rest = [a for k, a in enumerate(args) if a != "--samples" and (k == 0 or args[k - 1] != "--samples")]
    main(rest[0] if rest else "../shared/data/trec-rag-24-nuggets", rest[1] if len(rest) > 1 else "out-leaderboard",
         count)
