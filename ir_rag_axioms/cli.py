"""Command line: ``ir-rag-axioms evaluate | list | demo``."""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from ir_rag_axioms.evaluation import MEASURES


# -- oracles and items ---------------------------------------------------------------------------------
def parse_oracle(spec: str, data: str | None, duplicates: str = "mean", responses: str | None = None) -> Any:
    """``crowd:<utility>``, ``nugget:<all|vital|weighted>[-strict]`` or ``llm:<model>``, reading its files from ``data``."""
    from ir_rag_axioms.axioms.oracles import CrowdOracle, LlmRatingOracle, NuggetOracle

    kind, _, option = spec.partition(":")
    kind = kind.strip().lower()
    if kind == "crowd":
        return CrowdOracle(utility=option.replace("_", " ") or "overall", duplicates=duplicates, data_dir=data)
    if kind == "nugget":
        score, strict = (option or "vital").lower(), False
        if score.endswith("-strict") or score.endswith("_strict"):
            score, strict = score[:-7], True
        return NuggetOracle(score_type=score, strict=strict, data_dir=data)
    if kind == "llm":
        return LlmRatingOracle(model=option or LlmRatingOracle.model, data_dir=data, responses_path=responses)
    raise ValueError(f"unknown oracle {spec!r}: use crowd:<utility>, nugget:<all|vital|weighted>[-strict] or llm:<model>")


def crowd_items(responses: pd.DataFrame, topics: set[str] | None = None) -> list:
    """(request with the 20 context passages, responses sorted by kind-style name; id = response id) per topic, in file order."""
    from ir_rag_axioms.model import GenerationRequest, GenerationResponse

    items = []
    for topic, group in responses.groupby("topic", sort=False):
        if topics is not None and str(topic) not in topics:
            continue
        group = group.sort_values("name", kind="stable")
        first = group.iloc[0]
        request = GenerationRequest(str(topic), first["query"], first["references_texts"])
        items.append((request, [GenerationResponse(str(r), t) for r, t in zip(group["response"], group["raw_text"])]))
    return items


def nugget_items(assignments: pd.DataFrame) -> list:
    """(request without context, the system answers; id = run_id) per topic, in file order."""
    from ir_rag_axioms.model import GenerationRequest, GenerationResponse

    return [
        (GenerationRequest(str(qid), group.iloc[0]["query"]),
         [GenerationResponse(str(r), t) for r, t in zip(group["run_id"], group["answer_text"])])
        for qid, group in assignments.groupby("qid", sort=False)
    ]


def llm_items(ratings: pd.DataFrame) -> list:
    """(request without context, the rated responses; id = response id) per topic, from the LLM ratings file."""
    from ir_rag_axioms.model import GenerationRequest, GenerationResponse

    return [
        (GenerationRequest(str(topic), group.iloc[0]["query"]),
         [GenerationResponse(str(r), t) for r, t in zip(group["response"], group["raw_text"])])
        for topic, group in ratings.groupby("topic", sort=False)
    ]


def load_items(oracle: Any, data: str | None, responses: str | None = None) -> list:
    """The (request, responses) items the oracle judges: its judged topics only."""
    from ir_rag_axioms.axioms.oracles import CrowdOracle, NuggetOracle
    from ir_rag_axioms.datasets import loaders

    if isinstance(oracle, CrowdOracle):
        return crowd_items(loaders.load_crowd_responses(responses or data), oracle.topics)
    if isinstance(oracle, NuggetOracle):
        return nugget_items(loaders.load_nugget_assignments(data))
    if responses:
        return crowd_items(loaders.load_crowd_responses(responses), oracle.topics)
    return llm_items(loaders.load_llm_ratings(oracle.model, data))


# -- axioms --------------------------------------------------------------------------------------------
def split_specs(text: str) -> list[str]:
    """Split a comma-separated list of axiom specs at top-level commas (not inside parentheses or quotes)."""
    parts, depth, quote, current = [], 0, None, []
    for char in text:
        if quote:
            quote = None if char == quote else quote
        elif char in "'\"":
            quote = char
        elif char in "([":
            depth += 1
        elif char in ")]":
            depth -= 1
        elif char == "," and depth == 0:
            parts.append("".join(current).strip())
            current = []
            continue
        current.append(char)
    parts.append("".join(current).strip())
    return [p for p in parts if p]


def _paper_name(name: str) -> str:
    """The paper's spelling of a preset name: ``GEN_TF_LNC`` -> ``GEN-TF-LNC`` (others unchanged)."""
    return name.replace("_", "-") if name.startswith("GEN_") else name


def parse_axioms(text: str) -> dict[str, Any]:
    """Comma-separated items: ``ictir2025`` (the preset: paper name -> axiom), ``NAME=SPEC`` or a spec for ``registry.parse``."""
    import re

    from ir_rag_axioms.axioms import registry

    axioms: dict[str, Any] = {}
    for item in split_specs(text):
        if item.lower() in ("ictir2025", "ictir"):
            from ir_rag_axioms import presets

            axioms.update({_paper_name(name): axiom for name, axiom in presets.ICTIR2025.items()})
            continue
        named = re.match(r"^\s*([\w.-]+)\s*=(?!=)(.+)$", item)
        if named:
            axioms[named.group(1)] = registry.parse(named.group(2))
        else:
            axioms[item] = registry.parse(item)
    return axioms


def _cache_file(cache: Path, axiom: Any, items: list) -> Path:
    """cache/<sha1 of the axiom's repr and the items' ids and texts>.npz."""
    import hashlib

    digest = hashlib.sha1(repr(axiom).encode())
    for request, responses in items:
        digest.update(f"\x00{request.id}\x01{request.text}\x01{request.context}".encode())
        for response in responses:
            digest.update(f"\x02{response.id}\x03{response.text}".encode())
    return cache / f"{digest.hexdigest()}.npz"


def compute(axioms: dict[str, Any], items: list, quiet: bool = False, cache: str | None = None) -> dict[str, list[np.ndarray]]:
    """name -> matrices via ``preferences_batch`` (reused from ``cache`` if given); an axiom whose tool is unavailable (e.g. CLAR1) is skipped."""
    from ir_rag_axioms.analysis.resources import ToolUnavailableError
    from ir_rag_axioms.axioms.base import analyse

    out = {}
    files = {name: _cache_file(Path(cache), axiom, items) if cache else None for name, axiom in axioms.items()}
    analyse([a for name, a in axioms.items() if files[name] is None or not files[name].is_file()], items)
    for name, axiom in axioms.items():
        file = files[name]
        if file is not None and file.is_file():
            with np.load(file) as stored:
                out[name] = [stored[str(k)] for k in range(len(items))]
            continue
        try:
            out[name] = [np.asarray(m, dtype=np.float64) for m in axiom.preferences_batch(items, progress=not quiet)]
        except ToolUnavailableError as error:
            print(f"skipped {name}: {error}", file=sys.stderr)
            continue
        if file is not None:
            file.parent.mkdir(parents=True, exist_ok=True)
            np.savez_compressed(file, **{str(k): m for k, m in enumerate(out[name])})
    return out


# -- output --------------------------------------------------------------------------------------------
def markdown(table: pd.DataFrame) -> str:
    """The table as markdown (3 decimals; bootstrap intervals in brackets when present)."""
    header = ["axiom", "decisiveness", "consistency", "strict consistency", "effectiveness"]
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    for row in table.to_dict("records"):
        cells = [str(row["axiom"])]
        for measure in MEASURES:
            cell = f"{row[measure]:.3f}"
            if f"{measure}_low" in row:
                cell += f" [{row[f'{measure}_low']:.3f}, {row[f'{measure}_high']:.3f}]"
            cells.append(cell)
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines) + "\n"


def plot_agreement(agreement: pd.DataFrame, path: Path, title: str) -> None:
    """Heatmap of inter-axiom agreement (share of jointly decided pairs with the same preference)."""
    import matplotlib

    matplotlib.use("Agg", force=True)
    import matplotlib.pyplot as plt

    n = len(agreement)
    labels = [name if len(name) <= 24 else name[:23] + "…" for name in map(str, agreement.columns)]
    fig, ax = plt.subplots(figsize=(max(4.0, 0.42 * n + 2), max(3.5, 0.42 * n + 1.5)))
    image = ax.imshow(agreement.to_numpy(float), vmin=0, vmax=1, cmap="viridis")
    ax.set_xticks(range(n), labels, rotation=90, fontsize=7)
    ax.set_yticks(range(n), labels, fontsize=7)
    fig.colorbar(image, ax=ax, label="agreement on jointly decided pairs")
    ax.set_title(title, fontsize=9)
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)


def plot_votes(sweep: pd.DataFrame, path: Path, title: str) -> None:
    """Trade-off of the majority vote: human judgments saved (decisiveness) vs. preferences correct, per minimum vote share."""
    import matplotlib

    matplotlib.use("Agg", force=True)
    import matplotlib.pyplot as plt

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
    fig.savefig(path, dpi=120)
    plt.close(fig)


# -- commands ------------------------------------------------------------------------------------------
def evaluate(args: argparse.Namespace) -> int:
    """Evaluate axioms against an oracle: print the table, write table.csv/.md, agreement.png, votes.png (+ csv) in OUT."""
    from ir_rag_axioms import evaluation

    oracle = parse_oracle(args.oracle, args.data, args.duplicates, args.responses)
    items = load_items(oracle, args.data, args.responses)
    if args.topics:
        items = items[: args.topics]
    if not items:
        print("no judged topics found", file=sys.stderr)
        return 1
    axioms = parse_axioms(args.axioms)
    truth = oracle.preferences_batch(items)
    preferences = compute(axioms, items, quiet=args.quiet, cache=args.cache)
    table = evaluation.evaluation_table(preferences, truth, samples=args.bootstrap, seed=args.seed)
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    table.to_csv(out / "table.csv", index=False)
    text = markdown(table)
    (out / "table.md").write_text(text)
    print(f"{repr(oracle)} on {len(items)} topics ({sum(len(r) for _, r in items)} responses)")
    print(text, end="")
    if args.figures and preferences:
        agreement = evaluation.agreement(preferences)
        agreement.to_csv(out / "agreement.csv")
        plot_agreement(agreement, out / "agreement.png", f"Inter-axiom agreement ({len(items)} topics)")
        sweep = evaluation.vote_sweep(preferences, truth)
        sweep.to_csv(out / "votes.csv", index=False)
        plot_votes(sweep, out / "votes.png", f"Majority vote of {len(preferences)} axioms vs. {args.oracle}")
    np.savez_compressed(out / "preferences.npz", **{"ORACLE": np.stack(truth) if _same_shape(truth) else np.array([])},
                        **{n: np.stack(m) for n, m in preferences.items() if _same_shape(m)})
    return 0


def _same_shape(matrices: list[np.ndarray]) -> bool:
    return bool(matrices) and len({m.shape for m in matrices}) == 1


def list_axioms(args: argparse.Namespace) -> int:
    """Print the registered short names and their default configuration."""
    from ir_rag_axioms.axioms import registry

    for name in registry.names():
        print(f"{name}\t{registry.get(name)!r}" if args.verbose else name)
    return 0


def demo(argv: Sequence[str]) -> int:
    """Delegate to ``ir_rag_axioms.demo.main``."""
    from ir_rag_axioms import demo as demo_module

    result = demo_module.main(list(argv))
    return int(result or 0)


def build_parser() -> argparse.ArgumentParser:
    """The argument parser with the subcommands evaluate, list and demo."""
    parser = argparse.ArgumentParser(prog="ir-rag-axioms", description="Axiomatic preferences for RAG responses.")
    sub = parser.add_subparsers(dest="command", required=True)
    ev = sub.add_parser("evaluate", help="decisiveness, consistency and effectiveness of axioms against an oracle")
    ev.add_argument("--data", help="folder with the oracle's files (crowd: responses.jsonl.gz, ratings.jsonl.gz; "
                    f"nugget: nugget_assignment*.jsonl.gz); default: ${'IR_RAG_AXIOMS_DATA'} or download")
    ev.add_argument("--oracle", default="crowd:overall",
                    help="crowd:<utility> | nugget:<all|vital|weighted>[-strict] | llm:<model> (default crowd:overall)")
    ev.add_argument("--axioms", default="ictir2025", help="comma-separated: 'ictir2025' (preset), NAME=SPEC or SPEC, e.g. 'ictir2025,GEN-aSL=GEN_aSL,CORR1(margin_fraction=0.75)'")
    ev.add_argument("--out", required=True, help="output folder for table.csv, table.md and the figures")
    ev.add_argument("--responses", help="crowd responses file/folder (llm oracle: evaluate on the crowd responses with context)")
    ev.add_argument("--duplicates", choices=["mean", "last"], default="mean",
                    help="crowd pairs judged twice: average both (default) or keep the later row (reference)")
    ev.add_argument("--topics", type=int, default=0, help="evaluate only the first N judged topics")
    ev.add_argument("--bootstrap", type=int, default=0, help="bootstrap samples for 95%% confidence intervals (0: none)")
    ev.add_argument("--seed", type=int, default=0, help="bootstrap seed")
    ev.add_argument("--cache", help="folder to store and reuse each axiom's matrices, keyed by its repr and the texts (clear it after changing an axiom's code)")
    ev.add_argument("--no-figures", dest="figures", action="store_false", help="skip the figures")
    ev.add_argument("--quiet", action="store_true", help="no progress bars")
    ev.set_defaults(func=evaluate)
    ls = sub.add_parser("list", help="list the registered axioms")
    ls.add_argument("-v", "--verbose", action="store_true", help="also print each default configuration")
    ls.set_defaults(func=list_axioms)
    sub.add_parser("demo", help="a short demonstration (arguments go to the demo)", add_help=False)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``ir-rag-axioms`` console script."""
    argv = list(sys.argv[1:] if argv is None else argv)
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    if argv and argv[0] == "demo":
        return demo(argv[1:])
    args = build_parser().parse_args(argv)
    from ir_rag_axioms.datasets.files import DataFileError

    try:
        return int(args.func(args))
    except (DataFileError, ValueError, KeyError) as error:  # bad files, oracle or axiom specs: a message, no traceback
        print(f"ir-rag-axioms {args.command}: error: {error}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
