"""Agreement of axioms with people per crowd dimension, and Kendall's tau against nugget scores.

``dimension_table``: decisiveness and consistency (with bootstrap intervals over topics) of every axiom against
the crowd judgments of each utility dimension; ``agreement_table``: one row per axiom, the consistency per
dimension and the dimension it agrees with best; ``nugget_tau``: Kendall's tau-b per topic between an axiom's
Borda scores and the nugget scores of the answers, averaged over topics. ``crowd_agreement`` computes all of them
on the shared data and ``write_agreement`` writes them (``ir-rag-axioms dimensions``).
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

import numpy as np
import pandas as pd

from ir_rag_axioms.evaluation.evaluate import Matrices, evaluation_table

CROWD_DIMENSIONS = ("overall", "logical coherence", "stylistic coherence", "internal consistency",
                    "topical correctness", "broad coverage", "deep coverage")
"""The seven utility dimensions the crowd judged (CrowdRAG-25)."""


def default_axioms() -> dict[str, Any]:
    """Every package axiom that applies to RAG responses offline: the RAG axioms and the GEN_ axioms.

    Left out: oracles, metrics, utility baselines, the plain retrieval axioms (their GEN_ twins run on responses),
    the argument axioms (they need an argument tagger) and axioms whose tool is missing (skipped later).
    """
    from ir_rag_axioms.axioms.catalogue import RAG_DIMENSIONS, dimension_of
    from ir_rag_axioms.axioms.registry import get, names

    rag = [n for n in names() if dimension_of(get(n)) in RAG_DIMENSIONS]
    generative = [n for n in names() if n.startswith("GEN_") and "Arg" not in n]
    return {name: get(name) for name in rag + generative}


def dimension_table(preferences: Mapping[str, Matrices], truths: Mapping[str, Matrices], samples: int = 0,
                    seed: int = 0) -> pd.DataFrame:
    """Long table: one row per (axiom, dimension) with the evaluation measures (and intervals if ``samples``)."""
    frames = []
    for dimension, truth in truths.items():
        table = evaluation_table(preferences, truth, samples=samples, seed=seed, sort=False)
        frames.append(table.assign(dimension=dimension))
    return pd.concat(frames, ignore_index=True)[["axiom", "dimension", *frames[0].columns.drop(["axiom",
                                                                                                  "dimension"])]]


def agreement_table(long: pd.DataFrame, tau: Mapping[str, float] | None = None) -> pd.DataFrame:
    """One row per axiom: decisiveness (on "overall" judgments), consistency per dimension, the best dimension.

    The best dimension is the one with the highest consistency; ``tau`` adds the mean Kendall tau on nugget topics.
    """
    wide = long.pivot(index="axiom", columns="dimension", values="consistency")
    dimensions = [d for d in long["dimension"].drop_duplicates()]
    wide = wide[dimensions]
    first = long[long["dimension"] == dimensions[0]].set_index("axiom")
    out = pd.DataFrame({"axiom": wide.index, "decisiveness": first.loc[wide.index, "decisiveness"].to_numpy()})
    for dimension in dimensions:
        out[dimension] = wide[dimension].to_numpy()
    values = wide.to_numpy(dtype=np.float64)
    defined = ~np.isnan(values).all(axis=1)
    best = np.full(len(wide), "", dtype=object)
    best[defined] = [dimensions[k] for k in np.nanargmax(values[defined], axis=1)]
    out["best dimension"] = best
    if tau is not None:
        out["nugget tau"] = [tau.get(name, np.nan) for name in wide.index]
    order = list(dict.fromkeys(long["axiom"]))
    return out.set_index("axiom").loc[order].reset_index()


def borda_scores(matrix: np.ndarray) -> np.ndarray:
    """Row sums of a preference matrix: wins minus losses of each response."""
    return np.asarray(matrix, dtype=np.float64).sum(axis=1)


def nugget_tau(preferences: Mapping[str, Matrices], scores: Sequence[np.ndarray]) -> dict[str, float]:
    """Mean over topics of Kendall's tau-b between each axiom's Borda scores and the answers' nugget scores.

    Answers without a nugget score are left out of their topic; a topic where either side is constant counts 0.
    """
    from ir_rag_axioms.evaluation.run_measures import kendall_tau

    out = {}
    for name, matrices in preferences.items():
        taus = []
        for matrix, truth in zip(matrices, scores, strict=True):
            known = ~np.isnan(np.asarray(truth, dtype=np.float64))
            taus.append(kendall_tau(borda_scores(matrix)[known], np.asarray(truth)[known]) if known.sum() > 1
                        else 0.0)
        out[name] = float(np.mean(taus)) if taus else float("nan")
    return out


def markdown(table: pd.DataFrame) -> str:
    """The agreement table as Markdown (three decimals; the best dimension's consistency in bold)."""
    columns = list(table.columns)
    lines = ["| " + " | ".join(columns) + " |", "|" + "---|" * len(columns)]
    for _, row in table.iterrows():
        cells = []
        for column in columns:
            value = row[column]
            if isinstance(value, float | np.floating):
                text = "" if np.isnan(value) else f"{value:.3f}"
                cells.append(f"**{text}**" if column == row.get("best dimension") and text else text)
            else:
                cells.append(str(value))
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines) + "\n"


@dataclass(frozen=True)
class Agreement:
    """What ``crowd_agreement`` computed: the long and the agreement table, and the data they rest on."""

    long: pd.DataFrame
    """``dimension_table``: one row per (axiom, dimension)."""
    table: pd.DataFrame
    """``agreement_table``: one row per axiom (with the nugget tau if nuggets were given)."""
    axioms: int
    """The number of axioms evaluated."""
    topics: int
    """Crowd topics judged."""
    nugget_topics: int | None = None
    """Nugget topics of the tau (None: no nuggets)."""


def crowd_agreement(axioms: Mapping[str, Any], data_dir: str | None = None, *,
                    nuggets_dir: str | None = None, duplicates: Literal["mean", "last"] = "mean",
                    topics: int = 0, samples: int = 0, seed: int = 0, progress: bool = False,
                    cache_dir: str | os.PathLike | None = None, **execution: Any) -> Agreement:
    """Every axiom against the crowd judgments of each of ``CROWD_DIMENSIONS`` on the judged topics.

    ``topics``: only the first N (0: all); ``samples``/``seed``: bootstrap intervals over topics; ``nuggets_dir``:
    also ``nugget_tau`` against the vital nugget scores of its answers; ``cache_dir`` and ``execution`` (workers,
    analysis, ...) as for ``evaluation.compute_preferences``.
    """
    from ir_rag_axioms.axioms.oracles import CrowdOracle, NuggetOracle
    from ir_rag_axioms.datasets import judged_items
    from ir_rag_axioms.evaluation.evaluate import compute_preferences

    oracles = {d: CrowdOracle(utility=d, duplicates=duplicates, data_dir=data_dir) for d in CROWD_DIMENSIONS}
    items = judged_items(oracles["overall"], data_dir)[: topics or None]
    preferences = compute_preferences(axioms, items, progress, cache_dir, **execution)
    truths = {d: oracle.preferences_batch(items) for d, oracle in oracles.items()}
    long = dimension_table(preferences, truths, samples=samples, seed=seed)
    tau, nugget_topics = None, None
    if nuggets_dir:
        nugget = NuggetOracle(score_type="vital", data_dir=nuggets_dir)
        nugget_items = judged_items(nugget, nuggets_dir)
        nugget_preferences = compute_preferences(axioms, nugget_items, progress, cache_dir, **execution)
        scores = nugget.load()
        tau = nugget_tau(nugget_preferences, [scores.values(r, list(rs)) for r, rs in nugget_items])
        nugget_topics = len(nugget_items)
    return Agreement(long, agreement_table(long, tau), len(preferences), len(items), nugget_topics)


def write_agreement(out: str | os.PathLike, agreement: Agreement) -> str:
    """Write dimensions.csv (long), agreement.csv and agreement.md into the folder ``out``; the Markdown table."""
    folder = Path(out)
    agreement.long.to_csv(folder / "dimensions.csv", index=False)
    agreement.table.to_csv(folder / "agreement.csv", index=False)
    text = markdown(agreement.table)
    (folder / "agreement.md").write_text(text, encoding="utf-8")
    return text
