"""Command line: ``ir-rag-axioms list | explain | preferences | rerank | evaluate | compare | demo``.

Argument parsing only; the work is done by the library.

Data: ``ir_rag_axioms.datasets``; preferences, cache and measures: ``ir_rag_axioms.evaluation``; files and figures:
``ir_rag_axioms.evaluation.report``.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, cast

if TYPE_CHECKING:
    from ir_rag_axioms.axioms.oracles import Duplicates, NuggetScore


# -- oracles -------------------------------------------------------------------------------------------
def parse_oracle(spec: str, data: str | None, duplicates: Duplicates = "mean", responses: str | None = None) -> Any:
    """The oracle axiom of a spec, reading its files from ``data``.

    Specs: ``crowd:<utility>``, ``nugget:<all|vital|weighted>[-strict]`` or ``llm:<model>``.
    """
    from ir_rag_axioms.axioms.oracles import CrowdOracle, LlmRatingOracle, NuggetOracle

    kind, _, option = spec.partition(":")
    kind = kind.strip().lower()
    if kind == "crowd":
        return CrowdOracle(utility=option.replace("_", " ") or "overall", duplicates=duplicates, data_dir=data)
    if kind == "nugget":
        score, strict = (option or "vital").lower(), False
        if score.endswith("-strict") or score.endswith("_strict"):
            score, strict = score[:-7], True
        # NuggetOracle checks the score type (ValueError naming the allowed ones)
        return NuggetOracle(score_type=cast("NuggetScore", score), strict=strict, data_dir=data)
    if kind == "llm":
        return LlmRatingOracle(model=option or LlmRatingOracle.model, data_dir=data, responses_path=responses)
    raise ValueError(
        f"unknown oracle {spec!r}: use crowd:<utility>, nugget:<all|vital|weighted>[-strict] or llm:<model>"
    )


# -- axioms --------------------------------------------------------------------------------------------
def split_specs(text: str) -> list[str]:
    """Split a comma-separated list of axiom specs at top-level commas (not inside parentheses or quotes)."""
    parts: list[str] = []
    current: list[str] = []
    depth = 0
    quote: str | None = None
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


def parse_axioms(text: str) -> dict[str, Any]:
    """Named axioms from comma-separated items.

    Items: ``ictir2025`` (the preset), ``NAME=SPEC`` or a spec for ``registry.parse`` (short names as in Python).
    """
    import re

    from ir_rag_axioms.axioms import registry
    from ir_rag_axioms.axioms.naming import axiom_columns

    axioms: dict[str, Any] = {}

    def add(name: str, axiom: Any) -> None:
        if name in axioms:
            raise ValueError(f"duplicate axiom name {name!r} in --axioms; give each axiom its own name (NAME=SPEC)")
        axioms[name] = axiom

    for item in split_specs(text):
        if item.lower() in ("ictir2025", "ictir"):
            from ir_rag_axioms.axioms import presets

            for name, axiom in presets.ICTIR2025.items():
                add(name, axiom)
            continue
        named = re.match(r"^\s*([\w.-]+)\s*=(?!=)(.+)$", item)
        if named:
            add(named.group(1), registry.parse(named.group(2), allow_paths=True))
        else:  # named as in the transformers' columns: the canonical repr without an empty "()"
            axiom = registry.parse(item, allow_paths=True)
            add(axiom_columns([axiom])[0], axiom)
    if not axioms:
        raise ValueError(f"--axioms {text!r} names no axiom; e.g. --axioms ictir2025 or --axioms 'COH1,CORR1'")
    return axioms


# -- commands ------------------------------------------------------------------------------------------
def evaluate(args: argparse.Namespace) -> int:
    """Evaluate axioms against an oracle: print the table and write the report in OUT.

    The report: table.csv/.md, agreement.png, votes.png (+ csv).
    """
    from ir_rag_axioms import evaluation
    from ir_rag_axioms.datasets import judged_items
    from ir_rag_axioms.evaluation import report
    from ir_rag_axioms.output import writable_file, writable_folder

    oracle = parse_oracle(args.oracle, args.data, args.duplicates, args.responses)
    axioms = parse_axioms(args.axioms)
    evaluation.check_samples(args.bootstrap)
    out = writable_folder(args.out, "report (--out)")  # before any work: nothing is computed for nothing
    if args.report:
        writable_file(args.report, "HTML report (--report)")
    cache = _usable_cache(args.cache)
    items = judged_items(oracle, args.data, args.responses)
    if args.topics:
        items = items[: args.topics]
    if not items:
        print("no judged topics found", file=sys.stderr)
        return 1
    truth = oracle.preferences_batch(items)
    execution = {"backend": args.backend, "workers": args.workers, "chunk_size": args.chunk_size,
                 "ray_address": args.ray_address}
    if cache:  # the persistent analysis store, shared by every axiom and configuration
        from ir_rag_axioms.analysis.cache import Analysis

        if args.backend == "local":
            execution["analysis"] = Analysis(workers=args.workers, store=cache, max_texts=200_000)
    matrices = Path(cache) / "matrices" if cache else None
    preferences = evaluation.compute_preferences(axioms, items, not args.quiet, matrices, **execution)
    table = evaluation.evaluation_table(preferences, truth, samples=args.bootstrap, seed=args.seed)
    text = report.write_report(out, table, preferences, truth, args.oracle, args.figures)
    if args.report:
        report.write_html(args.report, table, preferences, truth, args.oracle, axioms, items)
    print(f"{repr(oracle)} on {len(items)} topics ({sum(len(r) for _, r in items)} responses)")
    print(text, end="")
    return 0


def dimensions(args: argparse.Namespace) -> int:
    """Axioms against every crowd dimension (and Kendall's tau on nugget topics): write the agreement table to OUT."""
    from ir_rag_axioms import dimensions as agreement
    from ir_rag_axioms import evaluation
    from ir_rag_axioms.axioms.oracles import CrowdOracle, NuggetOracle
    from ir_rag_axioms.datasets import judged_items
    from ir_rag_axioms.output import writable_folder

    axioms = agreement.default_axioms() if args.axioms == "all" else parse_axioms(args.axioms)
    evaluation.check_samples(args.bootstrap)
    out = writable_folder(args.out, "agreement table (--out)")
    cache = _usable_cache(args.cache)
    matrices = Path(cache) / "matrices" if cache else None
    execution: dict[str, Any] = {"workers": args.workers}
    if cache:
        from ir_rag_axioms.analysis.cache import Analysis

        execution["analysis"] = Analysis(workers=args.workers, store=cache, max_texts=200_000)
    oracles = {d: CrowdOracle(utility=d, duplicates=args.duplicates, data_dir=args.data)
               for d in agreement.CROWD_DIMENSIONS}
    items = judged_items(oracles["overall"], args.data)[: args.topics or None]
    preferences = evaluation.compute_preferences(axioms, items, not args.quiet, matrices, **execution)
    truths = {d: oracle.preferences_batch(items) for d, oracle in oracles.items()}
    long = agreement.dimension_table(preferences, truths, samples=args.bootstrap, seed=args.seed)
    tau = None
    if args.nuggets:
        nugget = NuggetOracle(score_type="vital", data_dir=args.nuggets)
        nugget_items = judged_items(nugget, args.nuggets)
        nugget_preferences = evaluation.compute_preferences(axioms, nugget_items, not args.quiet, matrices,
                                                            **execution)
        scores = nugget.load()
        tau = agreement.nugget_tau(nugget_preferences, [scores.values(r, list(rs)) for r, rs in nugget_items])
    table = agreement.agreement_table(long, tau)
    long.to_csv(out / "dimensions.csv", index=False)
    table.to_csv(out / "agreement.csv", index=False)
    text = agreement.markdown(table)
    (out / "agreement.md").write_text(text, encoding="utf-8")
    print(f"{len(preferences)} axioms on {len(items)} crowd topics, {len(truths)} dimensions"
          + (f"; nugget tau on {len(nugget_items)} topics" if args.nuggets else ""))
    print(text, end="")
    return 0


def _usable_cache(cache: str | None) -> str | None:
    """The cache folder, checked before the work: an explicit --cache that cannot be written is an error."""
    from ir_rag_axioms.output import writable_folder

    if not cache:
        return None
    writable_folder(Path(cache) / "matrices", "cache (--cache)")  # OutputError: the user asked for this cache
    return cache


def count(minimum: int) -> Any:
    """An argparse type: a whole number >= ``minimum`` (argparse names the option in its error)."""
    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
        if value < minimum:
            raise argparse.ArgumentTypeError(f"must be at least {minimum}, got {value}")
        return value
    parse.__name__ = f"whole number >= {minimum}"
    return parse


def _system_answers(args: argparse.Namespace) -> Any:
    """The answers to compare: a JSONL file with a system field, or the nugget file's answers (system = run_id)."""
    from ir_rag_axioms.datasets import runs
    from ir_rag_axioms.datasets.files import NUGGET_ASSIGNMENTS, resolve

    if args.answers:
        frame = runs.read_answers(args.answers)
        if args.system_column not in frame.columns:
            raise KeyError(f"{args.answers}: no field {args.system_column!r} naming each answer's system "
                           f"(fields: {list(frame.columns)}; choose one with --system-column)")
        return frame.rename(columns={args.system_column: "system"})
    return runs.nugget_answers(resolve(NUGGET_ASSIGNMENTS, args.data))  # system = run_id


def compare(args: argparse.Namespace) -> int:
    """Compare systems by axioms: print the overall ranking and write systems.csv/.md/.png in OUT."""
    from ir_rag_axioms import evaluation
    from ir_rag_axioms.evaluation import report, systems
    from ir_rag_axioms.output import writable_folder

    if not args.answers and not args.data:
        raise ValueError("give --answers FILE (JSONL with qid, query, text, system) or --data NUGGET_FOLDER")
    axioms = parse_axioms(args.axioms)  # specs, reference, samples and outputs first: nothing computed for nothing
    reference = _reference_spec(args.reference) if args.reference else None
    evaluation.check_samples(args.bootstrap)
    writable_folder(args.out, "report (--out)")
    cache = _usable_cache(args.cache)
    answers = _system_answers(args)
    reference_scores = _reference_scores(reference, args.data) if reference else None
    table = systems.compare_systems(
        axioms, answers, samples=args.bootstrap, seed=args.seed,
        cache_dir=Path(cache) / "matrices" if cache else None, progress=not args.quiet,
        workers=args.workers,
    )
    correlations = None
    if reference_scores is not None:
        correlations = systems.rank_correlation(table, reference_scores)
    print(report.write_systems(args.out, table, correlations, args.figures), end="")
    return 0


def _reference_spec(spec: str) -> tuple[str, bool]:
    """The (score, strict) of a ``--reference nugget:<all|vital|weighted>[-strict]``; ValueError otherwise."""
    from ir_rag_axioms.datasets.nuggets import NUGGET_SCORES

    kind, _, option = spec.partition(":")
    score, strict = (option or "vital").lower(), False
    if score.endswith("-strict"):
        score, strict = score[:-7], True
    if kind != "nugget" or score not in NUGGET_SCORES:
        raise ValueError(f"unknown --reference {spec!r}: use nugget:<all|vital|weighted>[-strict]")
    return score, strict


def _reference_scores(reference: tuple[str, bool], data: str | None) -> dict[str, float]:
    """Each system's mean official score over the topics (``_reference_spec``'s score and strictness)."""
    from ir_rag_axioms.datasets.nuggets import load_nugget_assignments, score_column

    score, strict = reference
    frame = load_nugget_assignments(data)
    means = frame.groupby("run_id")[score_column(score, strict)].mean()
    return {str(k): float(v) for k, v in means.items()}


def list_axioms(args: argparse.Namespace) -> int:
    """Print the catalogue: name, dimension, one-line rule, defaults and citation of every axiom (``--json``)."""
    import json

    from ir_rag_axioms.catalogue import catalogue

    entries = catalogue()
    if args.markdown:
        from ir_rag_axioms.catalogue import markdown

        print(markdown(entries), end="")
        return 0
    if args.json:
        print(json.dumps(entries, indent=1))
        return 0
    for entry in entries:
        if not args.verbose:
            print(f"{entry['name']:<16} {entry['dimension']:<12} {_one_line(entry['rule'], entry['name'])}")
            continue
        print(f"{entry['name']} ({entry['dimension']}): {entry['rule']}")
        defaults = ", ".join(f"{k}={v!r}" for k, v in entry["defaults"].items())
        print(f"    defaults: {defaults or '(none)'}" + (f"; {entry['direction']}" if entry["direction"] else ""))
        if entry["citation"]:
            print(f"    citation: {entry['citation']}")
    return 0


def _one_line(rule: str, name: str, width: int = 88) -> str:
    """The rule's first sentence without the leading ``NAME:`` and the citation, cut to ``width``."""
    import re

    text = re.sub(rf"^{re.escape(name)}\s*:\s*", "", rule)
    text = re.sub(r"\s*\[[^\[\]]*\d{4}[^\[\]]*\]\.?$", "", text)
    return text if len(text) <= width else text[: width - 1] + "…"


def _one_axiom(spec: str) -> Any:
    """One axiom from a spec (a registered name or an expression), or the preset's axiom of that name."""
    from ir_rag_axioms.axioms import registry

    return registry.parse(spec, allow_paths=True)


def explain(args: argparse.Namespace) -> int:
    """Explain an axiom (rule, parameters, direction, citation, an example), or its decision on one pair of a file."""
    import json

    from ir_rag_axioms.catalogue import defaults_of, dimension_of
    from ir_rag_axioms.explanation import citation_of, rule_of

    axiom = _one_axiom(args.axiom)
    if args.pair:
        if not args.input:
            raise ValueError("--pair A B needs --input FILE (JSONL requests with responses) to find A and B in")
        why = _explain_pair(axiom, args.pair, args.input, args.request)
        print(json.dumps(why.to_dict(), indent=1) if args.json else why)
        return 0
    print(f"{axiom!r} ({dimension_of(axiom)})")
    print(f"  rule: {rule_of(axiom)}")
    defaults = defaults_of(axiom)
    if defaults:
        print("  parameters (current values):")
        hints = _field_docs(axiom)
        for name, value in defaults.items():
            print(f"    {name} = {value!r}" + (f"  -- {hints[name]}" if hints.get(name) else ""))
    from ir_rag_axioms.axioms.base import FeatureAxiom

    if isinstance(axiom, FeatureAxiom):
        print(f"  direction: {'higher' if axiom.prefers_higher() else 'lower'} value is better; "
              f"ties within a relative margin of {axiom.margin_fraction:g}")
    if citation_of(axiom):
        print(f"  citation: {citation_of(axiom)}")
    if args.example:
        _print_example(axiom)
    return 0


def _field_docs(axiom: Any) -> dict[str, str]:
    """Parameter name -> the first line of its attribute docstring in the class source (best effort)."""
    import ast
    import inspect
    import textwrap

    docs: dict[str, str] = {}
    for cls in reversed(type(axiom).__mro__):
        try:
            tree = ast.parse(textwrap.dedent(inspect.getsource(cls)))
        except (OSError, TypeError, SyntaxError):
            continue
        body = tree.body[0].body if tree.body and isinstance(tree.body[0], ast.ClassDef) else []
        for node, after in zip(body, body[1:], strict=False):
            if (isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name)
                    and isinstance(after, ast.Expr) and isinstance(after.value, ast.Constant)
                    and isinstance(after.value.value, str)):
                docs[node.target.id] = after.value.value.strip().splitlines()[0]
    return docs


def _print_example(axiom: Any) -> None:
    """The axiom's decision on the demo sample's first request, first vs last response, explained."""
    from ir_rag_axioms.analysis.resources import ToolUnavailableError
    from ir_rag_axioms.datasets.files import DataFileError
    from ir_rag_axioms.demo import load_demo

    request, responses = load_demo()[0]
    print(f"  example (the demo sample, request {request.id!r}: {request.text}):")
    try:
        why = axiom.explain(request, responses[0], responses[-1], responses=responses)
    except (ToolUnavailableError, DataFileError) as error:
        print(f"    (no example: {str(error)[:200]})")
        return
    print("\n".join("    " + line for line in str(why).splitlines()))


def _explain_pair(axiom: Any, pair: Sequence[str], path: str, request_id: str | None) -> Any:
    """The explanation of the pair (A, B) within the request of the file that holds both."""
    from ir_rag_axioms.datasets.requests import read_requests

    first, second = pair
    found = [(request, responses) for request, responses in read_requests(path)
             if (request_id is None or request.id == request_id)
             and {first, second} <= {r.id for r in responses}]
    if not found:
        where = f"request {request_id!r}" if request_id else "any one request"
        raise ValueError(f"{path}: no {where} has both responses {first!r} and {second!r}")
    if len(found) > 1:
        raise ValueError(f"{path}: responses {first!r} and {second!r} are in several requests "
                         f"({[r.id for r, _ in found][:5]}); choose one with --request QID")
    request, responses = found[0]
    by_id = {r.id: r for r in responses}
    return axiom.explain(request, by_id[first], by_id[second], responses=responses)


def _items(args: argparse.Namespace) -> list[Any]:
    """The requests with responses of --input (JSONL), or of --run with --texts."""
    from ir_rag_axioms.datasets.requests import read_requests, read_run_requests

    if getattr(args, "run", None):
        if not args.texts:
            raise ValueError("--run RUN needs --texts FILE (JSONL with qid, query, docno, text)")
        return read_run_requests(args.run, args.texts)
    if not args.input:
        raise ValueError("give --input FILE (JSONL requests with responses)"
                         + (" or --run RUN --texts FILE" if hasattr(args, "run") else ""))
    return read_requests(args.input)


def preferences(args: argparse.Namespace) -> int:
    """Pairwise preferences of the axioms for every ordered pair of each request's responses: CSV or JSONL."""
    import json

    import numpy as np
    import pandas as pd

    from ir_rag_axioms.execution import preference_stacks

    axioms = parse_axioms(args.axioms)
    _check_output(args)
    items = _items(args)
    columns = list(axioms)
    rows = []
    stacks = preference_stacks(list(axioms.values()), items, workers=args.workers, progress=not args.quiet)
    for (request, responses), stack in zip(items, stacks, strict=True):
        n = len(responses)
        a, b = np.nonzero(~np.eye(n, dtype=bool))
        explained = {}
        if args.explain:
            pairs = list(zip(a.tolist(), b.tolist(), strict=True))
            explained = {c: axiom.explanations(request, responses, pairs) for c, axiom in axioms.items()}
        for k, (i, j) in enumerate(zip(a, b, strict=True)):
            row: dict[str, Any] = {"qid": request.id, "docno_a": responses[i].id, "docno_b": responses[j].id}
            row |= {c: float(stack[m][i, j]) for m, c in enumerate(columns)}
            row |= {f"{c}_explanation": json.dumps(e[k].to_dict()) for c, e in explained.items()}
            rows.append(row)
    table = pd.DataFrame(rows, columns=["qid", "docno_a", "docno_b", *columns,
                                        *(f"{c}_explanation" for c in explained or ())])
    out_format = args.format or ("jsonl" if args.output and args.output.endswith((".jsonl", ".json")) else "csv")
    text = table.to_json(orient="records", lines=True) if out_format == "jsonl" else table.to_csv(index=False)
    _write(text, args.output)
    return 0


def _check_output(args: argparse.Namespace) -> None:
    """Before the work: -o/--output can be written and is none of the inputs (--input, --run, --texts)."""
    from ir_rag_axioms.output import writable_file

    if args.output and args.output != "-":
        inputs = tuple(getattr(args, name, None) for name in ("input", "run", "texts"))
        writable_file(args.output, "output (-o/--output)", inputs)


def _write(text: str, output: str | None) -> None:
    """Write to a file atomically (its folder created) or to standard output."""
    from ir_rag_axioms.output import write_text

    if output and output != "-":
        Path(output).parent.mkdir(parents=True, exist_ok=True)
        write_text(output, text)
    else:
        sys.stdout.write(text)


def rerank(args: argparse.Namespace) -> int:
    """Rerank each request's responses by aggregated axiom preferences and write a TREC run."""
    import numpy as np
    import pandas as pd

    from ir_rag_axioms.aggregation import scored_ranking
    from ir_rag_axioms.datasets.runs import write_trec_run
    from ir_rag_axioms.execution import preference_stacks

    axioms = parse_axioms(args.axioms)
    weights = _weights(args.weights, len(axioms))
    _check_output(args)
    items = _items(args)
    rows = []
    stacks = preference_stacks(list(axioms.values()), items, workers=args.workers, progress=not args.quiet)
    for (request, responses), stack in zip(items, stacks, strict=True):
        order, scores = scored_ranking(stack, args.aggregation, weights, seed=args.seed)
        for place, i in enumerate(order):
            rows.append({"qid": request.id, "docno": responses[i].id, "rank": place, "score": float(scores[i])})
    frame = pd.DataFrame(rows, columns=["qid", "docno", "rank", "score"])
    frame["score"] = frame["score"].astype(np.float64)
    if args.output and args.output != "-":
        write_trec_run(frame, args.output, args.run_name)
    else:
        import tempfile

        with tempfile.TemporaryDirectory() as folder:
            sys.stdout.write(write_trec_run(frame, Path(folder) / "run", args.run_name).read_text())
    return 0


def _weights(text: str | None, count: int) -> list[float] | None:
    """--weights: one finite number per axiom; ValueError naming the option otherwise."""
    import math

    if not text:
        return None
    try:
        weights = [float(w) for w in text.split(",")]
    except ValueError:
        raise ValueError(f"--weights {text!r}: give comma-separated numbers, one per axiom") from None
    if len(weights) != count:
        raise ValueError(f"--weights gives {len(weights)} weights for {count} axioms")
    if not all(math.isfinite(w) for w in weights):
        raise ValueError(f"--weights {text!r}: every weight must be a finite number")
    return weights


def demo(argv: Sequence[str]) -> int:
    """Delegate to ``ir_rag_axioms.demo.main``."""
    from ir_rag_axioms import demo as demo_module

    result = demo_module.main(list(argv))
    return int(result or 0)


def build_parser() -> argparse.ArgumentParser:
    """The argument parser with the subcommands evaluate, compare, list and demo."""
    from ir_rag_axioms._version import __version__

    parser = argparse.ArgumentParser(prog="ir-rag-axioms", description="Axiomatic preferences for RAG responses.")
    parser.add_argument("--version", action="version", version=f"ir-rag-axioms {__version__}")
    sub = parser.add_subparsers(dest="command", required=True)
    ev = sub.add_parser("evaluate", help="decisiveness, consistency and effectiveness of axioms against an oracle")
    ev.add_argument("--data", help="folder with the oracle's files (crowd: ir-rag-axioms/crowdrag-25's "
                    "responses.jsonl.gz, ratings.jsonl.gz, e.g. trec-rag-24-crowd/; nugget: "
                    "ir-rag-axioms/trec-rag-2024-nuggets' nugget_assignment*.jsonl.gz); "
                    f"default: ${'IR_RAG_AXIOMS_DATA'} or download")
    ev.add_argument("--oracle", default="crowd:overall",
                    help="crowd:<utility> | nugget:<all|vital|weighted>[-strict] | llm:<model> (default crowd:overall)")
    ev.add_argument("--axioms", default="ictir2025",
                    help="comma-separated: 'ictir2025' (preset), NAME=SPEC or SPEC, "
                    "e.g. 'ictir2025,MY_ASL=GEN_aSL,CORR1(margin_fraction=0.75)'")
    ev.add_argument("--out", required=True, help="output folder for table.csv, table.md and the figures")
    ev.add_argument("--responses",
                    help="crowd responses file/folder (llm oracle: evaluate on the crowd responses with context)")
    ev.add_argument("--duplicates", choices=["mean", "last"], default="mean",
                    help="crowd pairs judged twice: average both (default) or keep the later row (reference)")
    ev.add_argument("--topics", type=count(0), default=0, help="evaluate only the first N judged topics")
    ev.add_argument("--bootstrap", type=count(0), default=0,
                    help="bootstrap samples for 95%% confidence intervals (0: none)")
    ev.add_argument("--seed", type=count(0), default=0, help="bootstrap seed")
    ev.add_argument("--cache", help="folder of the persistent analysis cache (default: $IR_RAG_AXIOMS_CACHE) and of "
                    "each axiom's matrices (keyed by everything they read: ids, texts, contexts, ranks, scores, "
                    "the axiom, its judge, package and tool versions, settings); one that cannot be written is an "
                    "error")
    ev.add_argument("--workers", type=count(1), help="analysis worker processes (default: the free cores)")
    ev.add_argument("--backend", choices=["local", "ray"], default="local",
                    help="where to compute (ray: a Ray cluster)")
    ev.add_argument("--ray-address", help="Ray cluster address (default: $RAY_ADDRESS, else a local Ray)")
    ev.add_argument("--chunk-size", type=count(1), default=16, help="topics analysed together (memory stays bounded)")
    ev.add_argument("--no-figures", dest="figures", action="store_false", help="skip the figures")
    ev.add_argument("--quiet", action="store_true", help="no progress bars")
    ev.add_argument("--report", metavar="HTML", help="also write one self-contained HTML page: table, figures and "
                    "explained example pairs per axiom")
    ev.set_defaults(func=evaluate)
    dim = sub.add_parser("dimensions", help="consistency of axioms with every crowd dimension (agreement table), "
                         "Kendall tau against nugget scores")
    dim.add_argument("--data", help="ir-rag-axioms/crowdrag-25 folder (responses.jsonl.gz, ratings.jsonl.gz); "
                     "default: $IR_RAG_AXIOMS_DATA")
    dim.add_argument("--nuggets", help="also: a folder with a nugget assignment file (mean Kendall tau-b per topic)")
    dim.add_argument("--axioms", default="all", help="'all' (every RAG and GEN_ axiom that runs offline) or specs "
                     "as in evaluate")
    dim.add_argument("--out", required=True, help="output folder for agreement.md/.csv and dimensions.csv")
    dim.add_argument("--duplicates", choices=["mean", "last"], default="mean", help="pairs judged twice")
    dim.add_argument("--topics", type=count(0), default=0, help="only the first N judged topics")
    dim.add_argument("--bootstrap", type=count(0), default=0, help="bootstrap samples over topics (95 % intervals)")
    dim.add_argument("--seed", type=int, default=0, help="bootstrap seed")
    dim.add_argument("--cache", help="folder of the persistent analysis cache and the axiom matrices")
    dim.add_argument("--workers", type=count(1), help="analysis worker processes (default: the free cores)")
    dim.add_argument("--quiet", action="store_true", help="no progress bars")
    dim.set_defaults(func=dimensions)

    cmp = sub.add_parser("compare", help="which system is better: win rates and Bradley-Terry strengths by axioms")
    cmp.add_argument("--answers", help="JSONL(.gz) of answers: qid, query, text (or qanswer), system[, context]")
    cmp.add_argument("--data", help="instead: a folder with the nugget assignment file of "
                     "ir-rag-axioms/trec-rag-2024-nuggets (system = run_id)")
    cmp.add_argument("--system-column", default="system", help="the answers' field naming the system")
    cmp.add_argument("--axioms", default="COH1,COH2,COV1,COV2,COV3,CONS1,CONS2,CONS3,CORR1,CLAR2",
                     help="comma-separated: 'ictir2025', NAME=SPEC or SPEC (default: the RAG axioms but CLAR1)")
    cmp.add_argument("--reference",
                     help="also Kendall's tau with official scores: nugget:<all|vital|weighted>[-strict]")
    cmp.add_argument("--out", required=True, help="output folder for systems.csv, systems.md and systems.png")
    cmp.add_argument("--bootstrap", type=count(0), default=1000,
                     help="bootstrap samples over topics (0: no intervals; at most 100,000)")
    cmp.add_argument("--seed", type=count(0), default=0, help="bootstrap seed")
    cmp.add_argument("--cache", help="folder for each axiom's matrices (reused across runs)")
    cmp.add_argument("--workers", type=count(1), help="analysis worker processes (default: the free cores)")
    cmp.add_argument("--no-figures", dest="figures", action="store_false", help="skip the figure")
    cmp.add_argument("--quiet", action="store_true", help="no progress bars")
    cmp.set_defaults(func=compare)
    ls = sub.add_parser("list", help="the axiom catalogue: name, dimension, rule (-v: defaults, citation)")
    ls.add_argument("-v", "--verbose", action="store_true", help="also the full rule, defaults and citation")
    ls.add_argument("--json", action="store_true", help="the catalogue as JSON")
    ls.add_argument("--markdown", action="store_true", help="the catalogue as Markdown tables (docs/axioms.md)")
    ls.set_defaults(func=list_axioms)
    ex = sub.add_parser("explain", help="an axiom's rule, parameters, direction and citation; or its decision on a "
                        "pair (--pair A B --input FILE)")
    ex.add_argument("axiom", help="a name or expression, e.g. COV1 or 'COV1(margin_fraction=0.5) | CONS2'")
    ex.add_argument("--pair", nargs=2, metavar=("A", "B"), help="explain the decision for responses A and B")
    ex.add_argument("--input", help="JSONL requests with responses holding A and B")
    ex.add_argument("--request", help="the request (qid) of the pair, if A and B occur in several")
    ex.add_argument("--json", action="store_true", help="the pair's explanation as JSON")
    ex.add_argument("--quiet", action="store_true", help="no progress bars")
    ex.add_argument("--no-example", dest="example", action="store_false",
                    help="skip the example on the demo sample (which loads the models)")
    ex.set_defaults(func=explain)
    for name, func, helptext in (
        ("preferences", preferences, "pairwise preferences of axioms for JSONL requests: a pair table (CSV/JSONL)"),
        ("rerank", rerank, "rerank responses (JSONL, or a TREC run plus texts) by axioms: a TREC run"),
    ):
        cmd = sub.add_parser(name, help=helptext)
        cmd.add_argument("--input", help="JSONL(.gz): one request per line with 'responses' [{id, text}], or one "
                         "response per line (qid, query, docno, text[, context])")
        if name == "rerank":
            cmd.add_argument("--run", help="instead of --input: a TREC run of the candidates ...")
            cmd.add_argument("--texts", help="... with a JSONL file of their texts (qid, query, docno, text)")
            cmd.add_argument("--aggregation", default="borda", choices=["borda", "copeland", "kwiksort",
                                                                          "bradley_terry"])
            cmd.add_argument("--weights", help="comma-separated weight per axiom")
            cmd.add_argument("--seed", type=count(0), default=0, help="seed of KwikSort's pivots")
            cmd.add_argument("--run-name", default="ir_rag_axioms", help="the run's tag column")
        else:
            cmd.add_argument("--format", choices=["csv", "jsonl"], help="default: by the output's suffix, else csv")
            cmd.add_argument("--explain", action="store_true", help="add an explanation (JSON) per pair and axiom")
        cmd.add_argument("--axioms", default="COV1,CONS2,CORR1",
                         help="comma-separated specs or presets, e.g. 'COV1(margin_fraction=0.5),CONS2' or ictir2025")
        cmd.add_argument("--output", "-o", help="output file (default: standard output)")
        cmd.add_argument("--workers", type=count(1), help="analysis worker processes (default: the free cores)")
        cmd.add_argument("--quiet", action="store_true", help="no progress bars")
        cmd.set_defaults(func=func)
    for name in ("evaluate", "compare", "preferences", "rerank"):  # the commands that may embed
        sub.choices[name].add_argument(
            "--device", help="sentence encoder device: auto (CUDA when torch sees one, else CPU), cpu, cuda, cuda:N "
            "(default: $IR_RAG_AXIOMS_DEVICE, else auto); spaCy always runs on the CPU")
    sub.add_parser("demo", help="a short demonstration (arguments go to the demo)", add_help=False)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``ir-rag-axioms`` console script."""
    argv = list(sys.argv[1:] if argv is None else argv)
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    if argv and argv[0] == "demo":
        return demo(argv[1:])
    args = build_parser().parse_args(argv)
    if getattr(args, "quiet", False):  # every bar, also those of the analysis (spaCy, encoder) and its workers
        os.environ["TQDM_DISABLE"] = "1"
    if getattr(args, "device", None) is not None:  # for every analysis of the run, as the variable would be
        from ir_rag_axioms import settings

        try:
            os.environ[settings.DEVICE_ENV] = settings.encoder_device(args.device)
        except ValueError as error:
            print(f"ir-rag-axioms {args.command}: error: --device: {error}", file=sys.stderr)
            return 2
    from ir_rag_axioms.analysis.resources import ToolUnavailableError
    from ir_rag_axioms.datasets.files import DataFileError

    try:
        return int(args.func(args))
    except BrokenPipeError:  # output piped into a reader that stopped (e.g. `| head`): not an error
        sys.stderr.close()
        return 0
    except (DataFileError, ValueError, TypeError, KeyError, OSError, ToolUnavailableError) as error:
        # bad files, specs or arguments, an unwritable output: a message, no traceback
        message = error.args[0] if isinstance(error, KeyError) and error.args else error
        print(f"ir-rag-axioms {args.command}: error: {message}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
