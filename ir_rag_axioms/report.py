"""The report of an evaluation.

The table as CSV and markdown, inter-axiom agreement and majority-vote figures, the matrices.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from ir_rag_axioms import evaluation
from ir_rag_axioms.evaluation import MEASURES

HEADERS = {"axiom": "axiom", "decisiveness": "decisiveness", "consistency": "consistency",
           "consistency_strict": "strict consistency", "effectiveness": "effectiveness"}
"""Column -> markdown header."""


def markdown(table: pd.DataFrame) -> str:
    """The table as markdown (``DataFrame.to_markdown``; 3 decimals, bootstrap intervals in brackets when present)."""
    cells = pd.DataFrame({"axiom": table["axiom"].astype(str)})
    for measure in MEASURES:
        cells[measure] = [f"{value:.3f}" for value in table[measure]]
        if f"{measure}_low" in table:
            cells[measure] += [f" [{low:.3f}, {high:.3f}]" for low, high in
                               zip(table[f"{measure}_low"], table[f"{measure}_high"], strict=True)]
    return cells.rename(columns=HEADERS).to_markdown(index=False, tablefmt="github", disable_numparse=True) + "\n"


def _pyplot():
    import matplotlib

    matplotlib.use("Agg", force=True)
    import matplotlib.pyplot as plt

    return plt


def plot_agreement(agreement: pd.DataFrame, path: str | os.PathLike, title: str) -> None:
    """Heatmap of inter-axiom agreement (share of jointly decided pairs with the same preference)."""
    plt = _pyplot()
    n = len(agreement)
    labels = [name if len(name) <= 24 else name[:23] + "…" for name in map(str, agreement.columns)]
    fig, ax = plt.subplots(figsize=(max(4.0, 0.42 * n + 2), max(3.5, 0.42 * n + 1.5)))
    image = ax.imshow(agreement.to_numpy(float), vmin=0, vmax=1, cmap="viridis")
    ax.set_xticks(range(n), labels, rotation=90, fontsize=7)
    ax.set_yticks(range(n), labels, fontsize=7)
    fig.colorbar(image, ax=ax, label="agreement on jointly decided pairs")
    ax.set_title(title, fontsize=9)
    fig.tight_layout()
    fig.savefig(path, dpi=120, format="png")
    plt.close(fig)


def plot_votes(sweep: pd.DataFrame, path: str | os.PathLike, title: str) -> None:
    """Trade-off of the majority vote, per minimum vote share.

    Human judgments saved (decisiveness) vs. preferences correct.
    """
    plt = _pyplot()
    fig, ax = plt.subplots(figsize=(5, 4))
    sweep = sweep[sweep["correct"].notna()]  # a vote that decides nothing has no correctness
    ax.plot(sweep["judgments_saved"], sweep["correct"], marker="o")
    for row in sweep.itertuples():
        ax.annotate(f"{row.minimum_votes:.2f}", (row.judgments_saved, row.correct), fontsize=6,
                    textcoords="offset points", xytext=(3, 3))
    ax.set_xlabel("human judgments saved (share of pairs the vote decides)")
    ax.set_ylabel("preferences correct (strict consistency)")
    ax.set_xlim(-0.02, 1.02)
    ax.set_ylim(-0.02, 1.02)
    ax.grid(alpha=0.3)
    ax.set_title(title, fontsize=9)
    fig.tight_layout()
    fig.savefig(path, dpi=120, format="png")
    plt.close(fig)


def padded(matrices: list[np.ndarray]) -> tuple[np.ndarray, np.ndarray]:
    """Topics of different sizes as one (T, n_max, n_max) array padded with NaN, and each topic's size n_t."""
    sizes = np.array([len(m) for m in matrices], dtype=np.int64)
    top = int(sizes.max()) if len(sizes) else 0
    out = np.full((len(matrices), top, top), np.nan)
    for t, m in enumerate(matrices):
        out[t, : len(m), : len(m)] = m
    return out, sizes


def write_preferences(path: str | os.PathLike, matrices: Mapping[str, list[np.ndarray]]) -> Path:
    """Write named per-topic matrices atomically as ``names``, ``sizes`` and NaN-padded ``matrices`` (K, T, n, n).

    Names are data (any string), topics may have different sizes; ``read_preferences`` reads it back.
    """
    from ir_rag_axioms.output import atomic_write

    names = list(matrices)
    stacks = [padded(list(matrices[name])) for name in names]
    sizes = stacks[0][1] if stacks else np.zeros(0, dtype=np.int64)
    if any(not np.array_equal(s, sizes) for _, s in stacks):
        raise ValueError("write_preferences needs the same topics (and sizes) for every name")
    arrays: dict[str, Any] = {"names": np.array(names, dtype=str), "sizes": sizes,
              "matrices": np.stack([m for m, _ in stacks]) if stacks else np.zeros((0, 0, 0, 0))}

    def save(temporary: Path) -> None:
        with open(temporary, "wb") as handle:
            np.savez_compressed(handle, **arrays)
    return atomic_write(path, save)


def read_preferences(path: str | os.PathLike) -> dict[str, list[np.ndarray]]:
    """Name -> one matrix per topic, from a file of ``write_preferences``."""
    with np.load(path, allow_pickle=False) as stored:
        names, sizes, matrices = stored["names"], stored["sizes"], stored["matrices"]
    return {str(name): [matrices[k, t, :n, :n] for t, n in enumerate(sizes)] for k, name in enumerate(names)}


def write_report(
    out: str | os.PathLike, table: pd.DataFrame, preferences: Mapping[str, list[np.ndarray]], truth: list[np.ndarray],
    oracle_name: str, figures: bool = True,
) -> str:
    """Write the report in ``out`` (each file atomically); return the markdown.

    Files: table.csv/.md, agreement.png/.csv and votes.png/.csv (if ``figures``) and preferences.npz
    (``read_preferences``: the oracle as ``ORACLE``, then each axiom).
    """
    from ir_rag_axioms.output import atomic_write, writable_folder, write_text

    out = writable_folder(out, "report")
    write_text(out / "table.csv", table.to_csv(index=False))
    text = markdown(table)
    write_text(out / "table.md", text)
    if figures and preferences:
        agreement = evaluation.agreement(preferences)
        write_text(out / "agreement.csv", agreement.to_csv())
        title = f"Inter-axiom agreement ({len(truth)} topics)"
        atomic_write(out / "agreement.png", lambda path: plot_agreement(agreement, path, title))
        sweep = evaluation.vote_sweep(preferences, truth)
        write_text(out / "votes.csv", sweep.to_csv(index=False))
        title = f"Majority vote of {len(preferences)} axioms vs. {oracle_name}"
        atomic_write(out / "votes.png", lambda path: plot_votes(sweep, path, title))
    write_preferences(out / "preferences.npz", {"ORACLE": truth, **preferences})
    return text


# -- system comparison ---------------------------------------------------------------------------------
def systems_markdown(table: pd.DataFrame, axiom: str = "overall") -> str:
    """One axiom's system ranking as markdown: rank, system, strength [interval], win rate."""
    part = table[table["axiom"] == axiom]
    cells = pd.DataFrame({"rank": part["rank"].astype(str), "system": part["system"].astype(str)})
    cells["Bradley-Terry strength"] = [
        f"{s:.2f}" + ("" if np.isnan(lo) else f" [{lo:.2f}, {hi:.2f}]")
        for s, lo, hi in zip(part["strength"], part["strength_low"], part["strength_high"], strict=True)
    ]
    cells["win rate"] = [f"{w:.3f}" for w in part["win_rate"]]
    return cells.to_markdown(index=False, tablefmt="github", disable_numparse=True) + "\n"


def plot_systems(table: pd.DataFrame, path: str | os.PathLike, axiom: str = "overall") -> None:
    """Bradley-Terry strengths of the systems (best at the top) with their bootstrap intervals."""
    plt = _pyplot()
    part = table[table["axiom"] == axiom].iloc[::-1]
    fig, ax = plt.subplots(figsize=(6, max(3.0, 0.2 * len(part) + 1)))
    y = np.arange(len(part))
    strength = part["strength"].to_numpy(float)
    low, high = part["strength_low"].to_numpy(float), part["strength_high"].to_numpy(float)
    errors = None if np.isnan(low).all() else np.stack([strength - low, high - strength])
    ax.errorbar(strength, y, xerr=errors, fmt="o", markersize=3, capsize=2)
    ax.set_yticks(y, part["system"].astype(str), fontsize=6)
    ax.set_xlabel("Bradley-Terry log-strength\n(95% bootstrap interval over topics)", fontsize=8)
    ax.set_title(f"Systems by axiomatic preference ({axiom})", fontsize=9)
    ax.grid(axis="x", alpha=0.3)
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)


def write_systems(out: str | os.PathLike, table: pd.DataFrame,
                  correlations: pd.DataFrame | list[pd.DataFrame] | None = None, figures: bool = True) -> str:
    """Write systems.csv, systems.md (the overall ranking), correlation.csv and systems.png; return the markdown."""
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    table.to_csv(out / "systems.csv", index=False)
    text = systems_markdown(table)
    if correlations is not None and len(correlations):
        frame = pd.concat(correlations) if isinstance(correlations, list) else correlations
        frame.to_csv(out / "correlation.csv", index=False)
        text += "\n" + frame.round(3).to_markdown(index=False, tablefmt="github") + "\n"
    (out / "systems.md").write_text(text)
    if figures:
        plot_systems(table, out / "systems.png")
    return text
