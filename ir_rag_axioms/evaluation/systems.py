"""Which RAG system is better, by axioms and without human labels: pairwise win rates and Bradley-Terry strengths.

Each topic's answers (one per system) are compared by every axiom; ``overall`` is the sign of the axioms' summed
preferences. Per axiom and system: the win rate (wins + ties / 2 over every comparison with another system's
answer to the same topic), the Bradley-Terry log-strength fitted to the pairwise wins of all topics (prior 0.1
win per pair), a percentile bootstrap interval of it over topics, and the rank by strength (1 = best).

Nothing depends on the order of the rows or on the ids' names: the systems are taken in an order of their answers'
contents (``content_order``: systems with the same answers are interchangeable), the topics in an order of their
own contents (their answers' presence and preferences; topics alike in every respect are interchangeable), and the
bootstrap draws its topic resamples from the seed alone, so the same answers give the same frame, bit for bit,
however the rows are ordered or the qids and systems named. A topic that one system answered warns (a single
candidate: nothing to compare). Ranks: by strength (rounded to 9 decimals), then win rate; tied systems share the
best rank of their tie ("min" ranking: 1, 2, 2, 4), and the rows are sorted by rank, then system name.
"""

from __future__ import annotations

import os
import warnings
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
import pandas as pd

from ir_rag_axioms.aggregation import bradley_terry
from ir_rag_axioms.axioms.base import Axiom, Item

OVERALL = "overall"
"""The name of the combined comparison: the sign of the sum of every axiom's preferences."""
COLUMNS = ("axiom", "system", "rank", "strength", "strength_low", "strength_high", "win_rate", "comparisons", "topics")
"""The columns of ``compare_systems``; ``topics``: the topics a system answered of all, e.g. "3/20" (and, with a
baseline, ``win_rate_vs_baseline``: its win rate against the baseline's answers to the same topics)."""


def system_items(frame: pd.DataFrame, system_column: str = "system") -> tuple[list[str], list[Item]]:
    """The systems (sorted by name) and one (request, answers) item per topic (by qid); answer id = system.

    The frame has qid, query, an answer column (``text`` or ``qanswer``), optional ``context``/``qcontext`` per row,
    and ``system_column``; a system with several answers to one topic is refused.
    """
    from ir_rag_axioms.pyterrier import frames

    if system_column not in frame.columns:
        raise KeyError(f"compare_systems: no column {system_column!r} naming the system of each answer; found "
                       f"{list(frame.columns)} (pass system_column=, or pool pipelines with Pool)")
    text = next((c for c in frames.TEXT_COLUMNS if c in frame.columns), None)
    if "query" not in frame.columns and "query_0" in frame.columns:  # a pyterrier-rag Reader's output
        frame = frame.rename(columns={"query_0": "query"})
    if text is None or not {"qid", "query"} <= set(frame.columns):
        raise KeyError(f"compare_systems needs qid, query (or query_0) and text (or qanswer) columns; found "
                       f"{list(frame.columns)}")
    answers = frame.drop(columns=[c for c in ("docno", "rank", "score") if c in frame.columns])
    answers = answers.assign(docno=answers[system_column].astype(str))
    systems = sorted(set(answers["docno"]))
    return systems, [(g.request, g.responses) for g in frames.groups(answers, text)]


def _as_frame(source: pd.DataFrame | Mapping[str, Any], topics: pd.DataFrame | None,
              system_column: str) -> pd.DataFrame:
    """A frame of answers with a system column, from a frame or by pooling ``{name: pipeline}`` on ``topics``."""
    if isinstance(source, pd.DataFrame):
        return source
    if topics is None:
        raise ValueError("compare_systems: pipelines need topics= (a qid, query frame) to run on")
    from ir_rag_axioms.pyterrier.pool import SYSTEM_COLUMN, Pool

    return Pool(source).transform(topics).rename(columns={SYSTEM_COLUMN: system_column})


def global_matrices(systems: Sequence[str], items: Sequence[Item], matrices: Sequence[np.ndarray]) -> np.ndarray:
    """(topics, S, S) preferences indexed by the systems' global order; 0 where a system has no answer."""
    index = {s: k for k, s in enumerate(systems)}
    out = np.zeros((len(items), len(systems), len(systems)))
    for t, ((_, responses), matrix) in enumerate(zip(items, matrices, strict=True)):
        at = np.array([index[r.id] for r in responses], dtype=np.int64)
        out[t][np.ix_(at, at)] = np.sign(np.nan_to_num(matrix))
    return out


def _presence(systems: Sequence[str], items: Sequence[Item]) -> np.ndarray:
    """(topics, S): whether each system answered each topic."""
    index = {s: k for k, s in enumerate(systems)}
    present = np.zeros((len(items), len(systems)), dtype=bool)
    for t, (_, responses) in enumerate(items):
        present[t, [index[r.id] for r in responses]] = True
    return present


def _bootstrap(prefs: np.ndarray, present: np.ndarray, samples: int, seed: int,
               confidence: float) -> tuple[np.ndarray, np.ndarray]:
    """Percentile interval of the strengths over topic resamples (a system absent from a resample has no draw)."""
    rng = np.random.default_rng(seed)
    draws = np.empty((samples, prefs.shape[1]))
    for k in range(samples):
        weights = np.bincount(rng.integers(len(prefs), size=len(prefs)), minlength=len(prefs))
        draws[k] = np.where(weights @ present > 0, bradley_terry(prefs, weights), np.nan)
    alpha = (1 - confidence) / 2
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)  # all-NaN column: a system in no resample
        return np.nanquantile(draws, alpha, axis=0), np.nanquantile(draws, 1 - alpha, axis=0)


def _against(prefs: np.ndarray, present: np.ndarray, baseline: int) -> np.ndarray:
    """Each system's win rate against the baseline (wins + ties / 2 over the topics both answered; NaN: none)."""
    both = (present & present[:, [baseline]]).sum(axis=0).astype(np.float64)
    wins, losses = (prefs[:, :, baseline] > 0).sum(axis=0), (prefs[:, :, baseline] < 0).sum(axis=0)
    with np.errstate(invalid="ignore", divide="ignore"):
        rates = (wins + (both - wins - losses) / 2) / both
    rates[baseline] = np.nan
    return rates


def system_table(name: str, systems: Sequence[str], prefs: np.ndarray, present: np.ndarray, samples: int = 1000,
                 seed: int = 0, confidence: float = 0.95, baseline: int | None = None) -> pd.DataFrame:
    """One axiom's rows: win rate, Bradley-Terry strength with its bootstrap interval over topics, rank, coverage."""
    pairs = (present[:, :, None] & present[:, None, :]).sum(axis=0)
    np.fill_diagonal(pairs, 0)
    comparisons = pairs.sum(axis=1)
    wins, losses = (prefs > 0).sum(axis=(0, 2)), (prefs < 0).sum(axis=(0, 2))
    with np.errstate(invalid="ignore", divide="ignore"):
        win_rate = (wins + (comparisons - wins - losses) / 2) / comparisons
    strength = bradley_terry(prefs)
    low = high = np.full(len(systems), np.nan)
    if samples > 0 and len(prefs) > 1:
        low, high = _bootstrap(prefs, present, samples, seed, confidence)
    table = pd.DataFrame({"axiom": name, "system": list(systems), "rank": min_ranks(strength, win_rate),
                          "strength": strength, "strength_low": low, "strength_high": high, "win_rate": win_rate,
                          "comparisons": comparisons,
                          "topics": [f"{n}/{len(present)}" for n in present.sum(axis=0)]})
    if baseline is not None:
        table["win_rate_vs_baseline"] = _against(prefs, present, baseline)
    return table.sort_values(["rank", "system"], kind="stable").reset_index(drop=True)


def min_ranks(strength: np.ndarray, win_rate: np.ndarray) -> np.ndarray:
    """1 + the systems better by (strength rounded to 9 decimals, then win rate): tied systems share a rank."""
    s, w = np.round(strength, 9), np.nan_to_num(win_rate)
    better = (s[None, :] > s[:, None]) | ((s[None, :] == s[:, None]) & (w[None, :] > w[:, None]))
    return 1 + better.sum(axis=1).astype(np.int64)


def canonical_topics(present: np.ndarray, stacks: Mapping[str, np.ndarray]) -> np.ndarray:
    """The topics' order by their contents (presence, then each stack's preferences by name): not by qid or row."""
    keys = np.column_stack([present.astype(np.int8),
                            *(stacks[name].reshape(len(present), -1).astype(np.int8) for name in sorted(stacks))])
    return np.lexsort(keys.T[::-1]) if keys.size else np.arange(len(present), dtype=np.int64)


def compare_systems(
    axioms: Mapping[str, Axiom | str] | Sequence[Axiom | str], source: pd.DataFrame | Mapping[str, Any],
    topics: pd.DataFrame | None = None, *, system_column: str = "system", samples: int = 1000, seed: int = 0,
    confidence: float = 0.95, cache_dir: str | os.PathLike | None = None, progress: bool = False,
    baseline: str | None = None, **execution: Any,
) -> pd.DataFrame:
    """Per axiom and ``overall``: each system's win rate, Bradley-Terry strength [bootstrap interval] and rank.

    ``source``: a frame of answers with a ``system_column`` (qid, query, text/qanswer, optional context), or
    ``{system name: pipeline}`` run on ``topics`` through ``Pool``. ``axioms``: ``{name: axiom}`` or a list
    (named by ``axiom_columns``). ``topics`` column: the topics each system answered, of all; a system that
    answered fewer than others is warned about (its figures rest on its topics only). ``baseline``: a system's
    name; adds ``win_rate_vs_baseline``. Independent of the rows' order and the ids' names (module docstring).
    Execution options as for ``evaluation.compute_preferences``.
    """
    from ir_rag_axioms.axioms.naming import named_axioms
    from ir_rag_axioms.evaluation.evaluate import check_samples, check_seed, compute_preferences

    samples, seed = check_samples(samples), check_seed(seed)  # before the work: bounded, valid
    named = named_axioms(axioms)
    systems, items = system_items(_as_frame(source, topics, system_column), system_column)
    if len(systems) < 2:
        raise ValueError(f"compare_systems needs at least two systems, got {systems}")
    systems = [systems[k] for k in content_order(systems, items)]  # by their answers: the same under any names
    present = _presence(systems, items)
    base = _baseline_index(baseline, systems)
    _warn_single(items)
    _warn_coverage(systems, present)
    if len(items) > 1 and present.sum(axis=0).max() == 1:
        warnings.warn(f"compare_systems: every one of the {len(systems)} systems answers a single topic; does "
                      f"{system_column!r} name the system (not the answer's docno)?", stacklevel=2)
    preferences = compute_preferences(named, items, progress, cache_dir, **execution)
    stacks = {name: global_matrices(systems, items, matrices) for name, matrices in preferences.items()}
    stacks[OVERALL] = np.sign(sum(stacks.values()))
    order = canonical_topics(present, stacks)  # the bootstrap resamples topics in this order
    present, stacks = present[order], {name: prefs[order] for name, prefs in stacks.items()}
    named_stacks: Any = stacks.items()
    if progress:  # the bootstrap refits Bradley-Terry ``samples`` times per axiom: minutes for many systems
        from tqdm.auto import tqdm

        named_stacks = tqdm(named_stacks, desc=f"Bradley-Terry strengths ({samples} bootstrap samples)",
                            unit="axiom", total=len(stacks))
    tables = [system_table(name, systems, prefs, present, samples, seed, confidence, base)
              for name, prefs in named_stacks]
    return pd.concat(tables, ignore_index=True)


def answer_fingerprints(names: Sequence[str], items: Sequence[Item]) -> dict[str, str]:
    """Per answer id (system or run): a digest of its answers' contents (query, text, context), not of any id."""
    import hashlib
    import json

    from ir_rag_axioms.model import context_of

    contents: dict[str, list[list[Any]]] = {name: [] for name in names}
    for request, responses in items:
        for r in responses:
            context = context_of(request, r)
            contents[r.id].append([request.text, r.text, list(context) if context is not None else None])
    return {name: hashlib.blake2b(json.dumps(sorted(found, key=json.dumps)).encode("utf-8", "surrogatepass"),
                                  digest_size=16).hexdigest() for name, found in contents.items()}


def content_order(names: Sequence[str], items: Sequence[Item]) -> list[int]:
    """Positions of ``names`` ordered by ``answer_fingerprints`` (then name: only systems with the same answers tie).

    The order the Bradley-Terry fits and the bootstrap see: renaming systems permutes nothing they compute.
    """
    prints = answer_fingerprints(names, items)
    return sorted(range(len(names)), key=lambda k: (prints[names[k]], names[k]))


def _baseline_index(baseline: str | None, systems: Sequence[str]) -> int | None:
    """The baseline's position among the systems (ValueError naming them for an unknown one)."""
    if baseline is None:
        return None
    if str(baseline) not in systems:
        raise ValueError(f"compare_systems: unknown baseline {baseline!r}; the systems are {sorted(systems)}")
    return list(systems).index(str(baseline))


def _warn_single(items: Sequence[Item]) -> None:
    """A warning naming the topics that a single system answered (nothing to compare its answer with)."""
    single = sorted((request.id, responses[0].id) for request, responses in items if len(responses) == 1)
    if single:
        shown = ", ".join(f"qid {q!r} (only {s!r})" for q, s in single[:5])
        warnings.warn(f"compare_systems: a single system answered {len(single)} of {len(items)} topics: {shown}"
                      f"{' ...' if len(single) > 5 else ''}; a single candidate, nothing to compare it with: those "
                      "topics count in no win rate or strength (only in column 'topics')", stacklevel=3)


def _warn_coverage(systems: Sequence[str], present: np.ndarray) -> None:
    """A warning naming the systems that answered fewer of the comparable topics (>= 2 answers) than the most."""
    comparable = present[present.sum(axis=1) > 1]
    answered = comparable.sum(axis=0)
    if not len(comparable) or answered.min() == answered.max():
        return
    total = len(comparable)
    most = sorted(s for s, n in zip(systems, answered, strict=True) if n == answered.max())
    partial = sorted((s, int(n)) for s, n in zip(systems, answered, strict=True) if n < answered.max())
    shown = ", ".join(f"{s!r} ({n}/{total} topics)" for s, n in partial[:5])
    others = f" and {len(most) - 1} other(s)" if len(most) > 1 else ""
    warnings.warn(f"compare_systems: {len(partial)} of {len(systems)} systems answered fewer of the {total} topics "
                  f"with two or more answers than {most[0]!r}{others} ({answered.max()}/{total}): {shown}"
                  f"{' ...' if len(partial) > 5 else ''}; their win rates and strengths rest on those topics only "
                  "(column 'topics'): compare systems on the topics all of them answered", stacklevel=3)


def rank_correlation(table: pd.DataFrame, reference: Mapping[str, float]) -> pd.DataFrame:
    """Kendall's tau-b between each axiom's system strengths and a reference score per system (e.g. nugget scores)."""
    from ir_rag_axioms.evaluation.run_measures import kendall_tau

    rows = []
    for name, part in table.groupby("axiom", sort=False):
        known = part[part["system"].isin(list(reference))]
        truth = known["system"].map(reference).to_numpy(dtype=np.float64)
        rows.append({"axiom": name, "kendall_tau": kendall_tau(known["strength"].to_numpy(), truth),
                     "systems": len(known)})
    return pd.DataFrame(rows)
