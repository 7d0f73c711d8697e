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

from ir_rag_axioms.evaluation import evaluate as evaluation
from ir_rag_axioms.evaluation.evaluate import MEASURES

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


def plot_effort(curves: Mapping[str, pd.DataFrame], path: str | os.PathLike, title: str,
                correct: float = 0.9) -> dict[str, float]:
    """Share of human judgments needed (x) against share of preferences correct (y), one line per judge.

    ``curves``: name -> ``effort.effort_curve`` (or ``coin_curve``); each line is marked where it reaches ``correct``
    and labelled with ``effort.saved_at``, which is returned per name.
    """
    from ir_rag_axioms.evaluation.effort import saved_at

    plt = _pyplot()
    saved = {name: saved_at(curve, correct) for name, curve in curves.items()}
    fig, ax = plt.subplots(figsize=(6.4, 4.4))
    for name, curve in curves.items():
        style = {"linestyle": ":", "color": "grey"} if name.startswith("coin") else {}
        line, = ax.plot(curve["human"], curve["correct"], label=f"{name}: saves {saved[name]:.0%}", **style)
        ax.plot([1 - saved[name]], [correct], marker="o", color=line.get_color())
    ax.axhline(correct, color="black", linewidth=0.6, linestyle="--")
    ax.set_xlabel("share of human judgments needed")
    ax.set_ylabel("share of preferences correct (vs. the human gold)")
    ax.set_xlim(0, 1.0)
    ax.set_ylim(0.5, 1.005)
    ax.grid(alpha=0.3)
    ax.legend(fontsize=7, loc="lower right")
    ax.set_title(title, fontsize=8)
    fig.tight_layout()
    fig.savefig(path, dpi=120, format="png", metadata={"Software": None})
    plt.close(fig)
    return saved


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


def _write_effort(out: Path, preferences: Mapping[str, list[np.ndarray]], truth: list[np.ndarray],
                  oracle_name: str) -> None:
    """effort.csv / effort.png: the vote of the axioms deciding its most confident pairs, the oracle the rest."""
    from ir_rag_axioms.evaluation import effort
    from ir_rag_axioms.output import atomic_write, write_text

    votes = [effort.vote(np.stack([preferences[name][t] for name in preferences])) for t in range(len(truth))]
    decisions, confidence, gold = effort.oracle_pairs([d for d, _ in votes], [c for _, c in votes], truth)
    if not len(gold):
        return
    curve = effort.effort_curve(decisions, confidence, gold)
    write_text(out / "effort.csv", curve.to_csv(index=False))
    title = f"Vote of {len(preferences)} axioms: {len(gold)} pairs {oracle_name} decides, {len(truth)} topics"
    atomic_write(out / "effort.png", lambda path: plot_effort({f"vote of {len(preferences)} axioms": curve,
                                                               "coin": effort.coin_curve()}, path, title))


def write_report(
    out: str | os.PathLike, table: pd.DataFrame, preferences: Mapping[str, list[np.ndarray]], truth: list[np.ndarray],
    oracle_name: str, figures: bool = True,
) -> str:
    """Write the report in ``out`` (each file atomically); return the markdown.

    Files: table.csv/.md, agreement.png/.csv, votes.png/.csv and effort.png/.csv (the share of the oracle's
    pairs the axioms' vote saves, ``effort``; if ``figures``) and preferences.npz
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
        _write_effort(out, preferences, truth, oracle_name)
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
    if "topics" in part.columns:  # coverage: a system that answered few topics is marked
        cells["topics"] = part["topics"].astype(str).to_numpy()
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


# -- the HTML report -------------------------------------------------------------------------------------------
def _png_data_uri(draw: Any) -> str:
    """A figure drawn by ``draw(path)`` as a base64 PNG data URI (the page needs no network and no other file)."""
    import base64
    import tempfile

    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "figure.png"
        draw(path)
        return "data:image/png;base64," + base64.b64encode(path.read_bytes()).decode("ascii")


def example_pairs(matrix: list[np.ndarray], truth: list[np.ndarray], count: int = 2
                  ) -> dict[str, list[tuple[int, int, int]]]:
    """(topic, i, j) of the first ``count`` pairs where the axiom agreed and disagreed with the oracle (i < j)."""
    found: dict[str, list[tuple[int, int, int]]] = {"agreed": [], "disagreed": []}
    for t, (p, o) in enumerate(zip(matrix, truth, strict=True)):
        for i, j in zip(*np.triu_indices(len(p), 1), strict=True):
            if p[i, j] == 0 or o[i, j] == 0:
                continue
            kind = "agreed" if np.sign(p[i, j]) == np.sign(o[i, j]) else "disagreed"
            if len(found[kind]) < count:
                found[kind].append((t, int(i), int(j)))
        if all(len(v) >= count for v in found.values()):
            break
    return found


def write_html(path: str | os.PathLike, table: pd.DataFrame, preferences: Mapping[str, list[np.ndarray]],
               truth: list[np.ndarray], oracle_name: str, axioms: Mapping[str, Any] | None = None,
               items: Any = None, examples: int = 2) -> Path:
    """One self-contained HTML page: the table with intervals, agreement heatmap, vote curve, explained examples.

    Examples (``axioms`` and ``items`` given): per axiom, ``examples`` pairs where it agreed and where it disagreed
    with the oracle, each with ``axiom.explain``.
    """
    import html

    from ir_rag_axioms.output import write_text

    esc = html.escape
    parts = [f"<h1>Axioms vs. {esc(oracle_name)}</h1>",
             f"<p>{len(truth)} topics. Decisiveness: share of pairs an axiom decides; consistency: share of "
             "decided pairs on which it agrees with the oracle; effectiveness: their harmonic mean "
             "(95% bootstrap intervals in brackets where computed).</p>",
             '<h2>Evaluation</h2><table id="evaluation">' + _html_table(table) + "</table>"]
    if preferences:
        agreement = evaluation.agreement(preferences)
        uri = _png_data_uri(lambda p: plot_agreement(agreement, p, f"Inter-axiom agreement ({len(truth)} topics)"))
        parts.append(f'<h2>Agreement between axioms</h2><img id="agreement" alt="agreement heatmap" src="{uri}">')
        sweep = evaluation.vote_sweep(preferences, truth)
        uri = _png_data_uri(lambda p: plot_votes(sweep, p, f"Majority vote of {len(preferences)} axioms"))
        parts.append(f'<h2>Majority vote trade-off</h2><img id="votes" alt="vote trade-off" src="{uri}">')
    if axioms and items is not None:
        parts.append("<h2>Explained examples</h2>")
        for name, matrices in preferences.items():
            if name not in axioms:
                continue
            parts.append(f"<h3>{esc(name)}</h3>")
            for kind, pairs in example_pairs(matrices, truth, examples).items():
                for t, i, j in pairs:
                    request, responses = items[t]
                    why = axioms[name].explain(request, responses[i], responses[j], responses=list(responses))
                    human = "prefer " + (responses[i].id if truth[t][i, j] > 0 else responses[j].id)
                    parts.append(f'<details class="{kind}"><summary>{kind} with the humans ({esc(human)}), '
                                 f"topic {esc(str(request.id))}</summary><pre>{esc(str(why))}</pre></details>")
    style = ("body{font-family:sans-serif;max-width:1100px;margin:2em auto;padding:0 1em}"
             "table{border-collapse:collapse}td,th{border:1px solid #ccc;padding:3px 8px;text-align:right}"
             "td:first-child,th:first-child{text-align:left}img{max-width:100%}pre{white-space:pre-wrap;"
             "background:#f6f6f6;padding:.5em}.agreed summary{color:#060}.disagreed summary{color:#a00}")
    page = ("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
            f"<title>ir_rag_axioms report: {esc(oracle_name)}</title><style>{style}</style></head><body>"
            + "\n".join(parts) + "</body></html>\n")
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    write_text(path, page)
    return path


def _html_table(table: pd.DataFrame) -> str:
    import html

    headers = ["axiom", *(HEADERS[m] for m in MEASURES)]
    rows = ["<tr>" + "".join(f"<th>{html.escape(h)}</th>" for h in headers) + "</tr>"]
    for record in table.to_dict("records"):
        cells = [html.escape(str(record["axiom"]))]
        for measure in MEASURES:
            cell = f"{record[measure]:.3f}"
            if f"{measure}_low" in record:
                cell += f" [{record[measure + '_low']:.3f}, {record[measure + '_high']:.3f}]"
            cells.append(cell)
        rows.append("<tr>" + "".join(f"<td>{c}</td>" for c in cells) + "</tr>")
    return "".join(rows)
