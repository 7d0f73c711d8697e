"""A system leaderboard from axioms: per run and topic, each axiom's win rate and a headline score; ``all`` = the mean.

Within one topic the axioms compare the answers of all runs (the candidate set: consensus axioms agree with the
other runs' answers). The win rate of run i on topic t under axiom k is

    w_k(i, t) = (#{j != i : P_k[i, j] > 0} + #{j != i : P_k[i, j] = 0} / 2) / (n_t - 1),

NaN where the axiom's value for the answer is undefined (a feature axiom abstaining on it) or the topic has one
answer. The headline (the first measure) depends on ``method``:

- ``"default"``: the packaged nugget combination (``data/leaderboard-nugget.json``): sum_k b_k z_k(i, t) + b_0,
  z_k the axiom's value (negated where lower is better; the win rate for an axiom without values) standardised
  within the topic, (v - mean) / std over the topic's defined values, 0 where undefined or constant, followed by
  the model's consensus nugget features (``consensus_nuggets``' four scores, reported as ``NUGGET_V_STRICT``,
  ``NUGGET_V``, ``NUGGET_A_STRICT``, ``NUGGET_A`` after the axioms; each standardised or raw, NaN as 0); the
  weights are fitted by ridge regression to the TREC RAG 2024 vital-strict nugget score of each answer on 20 topics
  (``examples/consensus_nugget_study.py --fit`` refits them and reports the out-of-fold figures); no headline for
  a blank answer or a topic with fewer than two answers;
- ``"win_rate"``: the mean over the axioms of the defined win rates;
- ``"bradley_terry"``: per topic and over all topics, the Bradley-Terry log-strength of the summed preferences
  (``aggregation.bradley_terry``); ``all`` is the strength fitted to every topic's comparisons, not a mean. The
  runs are fitted in an order of their answers' contents, and the same answers (a topic's equal texts, runs with
  equal answers everywhere) get one value (``alike_equal``); a single run has no strength (NaN).

``all`` rows of the win rates and the other headlines are the means over the run's topics of the defined values
(NaN if none is defined), summed exactly (``exact_mean``: two tied runs stay tied whatever they are called); the
headline of an answer no axiom has a value for, or of a topic with fewer than two such answers (nothing to compare
with) is NaN. An empty answer (None, NaN, only whitespace) abstains: every measure of its (run, topic) is NaN, one
``AbstentionWarning`` names them, and the topic's other answers are compared as if it were absent (the judge's rule:
``ir-rag-axioms judge`` leaves it out before scoring). Bad input (``consensus_nuggets.checked_answers``): a missing
or blank run_id or topic, the topic id ``all`` (the aggregate rows'), a (run_id, topic) twice or a text that is no
string is refused, naming the column and the row.
Deterministic: the same answers give the same table. Each topic is analysed on its own (an analysis of the
leaderboard's own, cleared before each topic; only a persistent store is shared), so a topic's values do not depend
on the other topics, their order or their ids, not even in the last bit (a persistent store returns its vectors).
"""

from __future__ import annotations

import contextlib
import math
import os
import sys
import warnings
from collections.abc import Iterator, Mapping, Sequence
from functools import cache
from pathlib import Path
from types import FrameType
from typing import Any

import numpy as np
import pandas as pd

from ir_rag_axioms.axioms.base import Axiom, FeatureAxiom, check_responses
from ir_rag_axioms.evaluation.consensus_nuggets import blank_answer, checked_answers
from ir_rag_axioms.model import GenerationRequest, GenerationResponse
from ir_rag_axioms.settings import LEADERBOARD_MODEL_FILE, packaged_json

ALL = "all"
"""The topic of a run's aggregate rows."""
COLUMNS = ("run_id", "topic", "measure", "value")
"""The columns of a leaderboard frame (long format, one value per run, topic and measure)."""
METHODS = ("default", "win_rate", "bradley_terry")
"""Headline methods of ``system_leaderboard``."""
HEADLINES = {"default": "AXIOM_NUGGET", "win_rate": "AXIOM_WIN_RATE", "bradley_terry": "AXIOM_BT"}
"""The name of the headline measure of each method."""
MODEL_FILE = LEADERBOARD_MODEL_FILE
"""The packaged weights of the ``default`` headline (in ``ir_rag_axioms/data``)."""
NUGGET_MEASURES = {"NUGGET_V_STRICT": "vital_strict", "NUGGET_V": "vital", "NUGGET_A_STRICT": "all_strict",
                   "NUGGET_A": "all"}
"""The consensus nugget scores the ``default`` leaderboard reports (``consensus_nuggets``; measure -> score)."""


class AbstentionWarning(UserWarning):
    """A (run, topic) the leaderboard (and the judge) abstains on (empty answer): NaN for every measure, named."""


_PACKAGE = str(Path(__file__).resolve().parents[1]) + os.sep
"""The package's folder: warnings name the first frame outside it (the user's call)."""


def warn_outside(message: str, category: type[Warning]) -> None:
    """``warnings.warn`` pointing at the first caller outside this package (the user's line, or the runner's)."""
    frame: FrameType | None = sys._getframe(0)
    level = 1
    while frame is not None and frame.f_code.co_filename.startswith(_PACKAGE):
        frame, level = frame.f_back, level + 1
    warnings.warn(message, category, stacklevel=level)


def warn_abstentions(abstained: Sequence[tuple[str, str]], why: str = "empty answer(s)",
                     who: str = "the judge") -> None:
    """One AbstentionWarning naming the (run, topic) pairs (the first ten) and why ``who`` abstains on them."""
    if abstained:
        shown = ", ".join(f"run {r!r} topic {t!r}" for r, t in abstained[:10])
        more = f" and {len(abstained) - 10} more" if len(abstained) > 10 else ""
        warn_outside(f"{who} abstains on {len(abstained)} {why} (every measure NaN; the other runs are scored as "
                     f"if they were absent): {shown}{more}", AbstentionWarning)


@cache
def packaged_model() -> dict[str, Any]:
    """The packaged ``default`` combination: ``{"axioms": [spec, ...], "weights": [...], "intercept": b0, ...}``."""
    return packaged_json(MODEL_FILE)


def nugget_settings() -> Any:
    """The packaged model's ``NuggetSettings`` (the consensus nuggets its headline reads; the defaults if none)."""
    from ir_rag_axioms.evaluation.consensus_nuggets import NuggetSettings

    return NuggetSettings(**packaged_model().get("nugget_settings", {}))


def nugget_values(request: GenerationRequest, responses: Sequence[GenerationResponse], analysis: Any) -> np.ndarray:
    """(responses x NUGGET_MEASURES) consensus nugget scores of one topic's answers (NaN: abstention)."""
    from ir_rag_axioms.evaluation.consensus_nuggets import answer_scores, topic_nuggets

    texts = {r.id: r.text for r in responses}
    found = topic_nuggets(request.id, request.text, texts, lambda s: analysis.embed(s), nugget_settings())
    scores = answer_scores(found).set_index("run_id")
    return scores.loc[[r.id for r in responses], list(NUGGET_MEASURES.values())].to_numpy(dtype=np.float64)


def nugget_features(values: np.ndarray, transforms: Sequence[tuple[int, str]]) -> np.ndarray:
    """The model's nugget features of one topic: per (column, transform) ``z`` (standardize) or ``raw`` (NaN: 0)."""
    columns = [standardize(values[:, k]) if how == "z" else np.nan_to_num(values[:, k]) for k, how in transforms]
    return np.column_stack(columns) if columns else np.zeros((len(values), 0))


def model_nugget_features() -> list[tuple[int, str]]:
    """(column in NUGGET_MEASURES, transform) of each nugget feature of the packaged model, in its weights' order."""
    names = list(NUGGET_MEASURES)
    return [(names.index(f["measure"]), f["transform"]) for f in packaged_model().get("nugget_features", [])]


def default_axioms() -> list[str]:
    """The axiom specs the ``default`` headline reads (in the packaged model's order)."""
    return list(packaged_model()["axioms"])


def reads_packaged_axioms(axioms: Sequence[Axiom | str] | Mapping[str, Axiom | str] | None) -> bool:
    """Whether ``axioms`` (None: the default) are the packaged model's, the only ones ``method="default"`` reads."""
    from ir_rag_axioms.axioms.naming import named_axioms

    if axioms is None:
        return True
    wanted = [repr(a) for a in named_axioms(default_axioms()).values()]
    return [repr(a) for a in named_axioms(axioms).values()] == wanted


def answer_items(answers: pd.DataFrame) -> tuple[list[str], list[tuple[GenerationRequest, list[GenerationResponse]]]]:
    """The runs (first-appearance order) and one (request, answers) item per topic; a response's id is its run_id.

    ``answers`` needs run_id, topic, query and text; ``context`` (a list of passages per answer, or one passage as a
    string) is the answer's own context; other columns (``citations``: the axioms read citation markers in the
    text, which the AutoJudge writes from a report's citations) are not read.
    Checked by ``consensus_nuggets.checked_answers`` (a missing column, a missing or blank run_id or topic, the
    topic id ``all``, a duplicate (run_id, topic), a text that is no string), and a topic with two different
    queries is refused, naming the rows. An empty answer (None, NaN, only whitespace) is left out of its topic's
    item: ``abstentions`` names them.
    """
    runs, items, _ = _answer_items(answers)
    return runs, items


def abstentions(answers: pd.DataFrame) -> list[tuple[str, str]]:
    """The (run_id, topic) of the empty answers (None, NaN, only whitespace), which every measure abstains on."""
    return _answer_items(answers)[2]


def _answer_items(answers: pd.DataFrame) -> tuple[list[str], list[tuple[GenerationRequest, list[GenerationResponse]]],
                                                   list[tuple[str, str]]]:
    """``answer_items`` and the abstentions (empty answers, in row order); a topic of empty answers has no item."""
    frame = checked_answers(answers, "system_leaderboard", ("run_id", "topic", "query", "text"), reserved=(ALL,))
    runs = list(dict.fromkeys(frame["run_id"]))
    blank = frame["text"].map(blank_answer).to_numpy(dtype=bool)
    abstained = list(zip(frame["run_id"][blank], frame["topic"][blank], strict=True))
    items = []
    for topic, group in frame.groupby("topic", sort=False):
        queries = set(group["query"].astype(str))
        if len(queries) > 1:
            raise ValueError(f"system_leaderboard: topic {topic!r} has {len(queries)} different queries: "
                             f"{sorted(queries)[:3]}")
        contexts = group["context"] if "context" in group.columns else [None] * len(group)
        cells = [(run, text, _context(c, run, str(topic)))  # every context checked, an empty answer's too
                 for run, text, c in zip(group["run_id"], group["text"], contexts, strict=True)]
        responses = [GenerationResponse(run, text, context=c) for run, text, c in cells if not blank_answer(text)]
        if responses:
            items.append((GenerationRequest(str(topic), str(group["query"].iloc[0])), check_responses(responses)))
    return runs, items, abstained


def _context(cell: Any, run: str, topic: str) -> tuple[str, ...] | None:
    """An answer's context cell as passages: a list of texts, one text (one passage), or missing (None)."""
    if cell is None or (isinstance(cell, float) and cell != cell):
        return None
    if isinstance(cell, str):
        return (cell,)
    if isinstance(cell, (list, tuple, np.ndarray)):
        return tuple(str(p) for p in cell)
    raise TypeError(f"system_leaderboard: the context of run {run!r} on topic {topic!r} is a "
                    f"{type(cell).__name__}; give a list of passages (or one passage as a string)")


def win_rates(matrix: np.ndarray, defined: np.ndarray | None = None) -> np.ndarray:
    """(wins + ties / 2) / (n - 1) per response; NaN where ``defined`` is False or n < 2."""
    m = np.sign(np.nan_to_num(np.asarray(matrix, dtype=np.float64)))
    n = len(m)
    if n < 2:
        return np.full(n, np.nan)
    wins, losses = (m > 0).sum(axis=1), (m < 0).sum(axis=1)
    rates = (wins + (n - 1 - wins - losses) / 2) / (n - 1)
    if defined is not None:
        rates = np.where(defined, rates, np.nan)
    return rates


def answer_values(axiom: Axiom, request: GenerationRequest, responses: list[GenerationResponse],
                  analysis: Any) -> tuple[np.ndarray, np.ndarray]:
    """(the preference matrix, one value per response: higher is better, NaN undefined) of one axiom on one topic.

    A feature axiom's values (negated where lower is better), its matrix ``compare``d from them; any other axiom's
    value is its win rate.
    """
    from ir_rag_axioms.axioms._compare import compare

    if isinstance(axiom, FeatureAxiom):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            values = axiom.checked_values(request, responses, analysis)
        matrix = compare(values, axiom.prefers_higher(), axiom.margin_fraction)
        return matrix, values if axiom.prefers_higher() else -values
    matrix = np.asarray(axiom.matrix(request, responses, analysis), dtype=np.float64)
    return matrix, win_rates(matrix)


def exact_mean(values: Any) -> float:
    """The mean of the defined (non-NaN) values, summed exactly (``math.fsum``): the same in any order; NaN if none."""
    v = np.asarray(values, dtype=np.float64)
    v = v[~np.isnan(v)]
    return math.fsum(v.tolist()) / len(v) if len(v) else math.nan


def standardize(values: np.ndarray) -> np.ndarray:
    """(v - mean) / std (population) over the defined values; 0 where undefined or all defined values are equal.

    Mean and variance are exact sums (``exact_mean``), so an answer's z does not depend on the answers' order.
    """
    v = np.asarray(values, dtype=np.float64)
    defined = ~np.isnan(v)
    if defined.sum() < 2:
        return np.zeros(len(v))
    mean = exact_mean(v)
    std = math.sqrt(exact_mean((v[defined] - mean) ** 2))
    return np.where(defined & (std > 0), (v - mean) / (std if std > 0 else 1.0), 0.0)


def headline(z: np.ndarray, weights: Sequence[float], intercept: float) -> np.ndarray:
    """sum_k b_k z_k + b_0 over the standardised values ``z`` (answers x axioms), summed exactly per answer."""
    terms = np.asarray(z, dtype=np.float64) * np.asarray(weights, dtype=np.float64)
    return np.array([math.fsum([*row.tolist(), float(intercept)]) for row in terms], dtype=np.float64)


def _leaderboard_axioms(axioms: Sequence[Axiom | str] | Mapping[str, Axiom | str] | str | None,
                        method: str) -> dict[str, Axiom]:
    """The named axioms of a leaderboard; ``method="default"`` takes exactly the packaged model's."""
    from ir_rag_axioms.axioms.naming import named_axioms

    if method not in METHODS:
        raise ValueError(f"system_leaderboard: unknown method {method!r}; use one of {METHODS}")
    if isinstance(axioms, str):
        from ir_rag_axioms.axioms.presets import parse_axioms

        axioms = parse_axioms(axioms)
    named = named_axioms(default_axioms() if axioms is None else axioms)
    if method == "default" and not reads_packaged_axioms(named):
        raise ValueError(f"system_leaderboard: method='default' reads the packaged model's axioms "
                         f"{packaged_model()['axioms']}; for other axioms use method='win_rate' or 'bradley_terry'")
    return named


def _topic_values(named: Mapping[str, Axiom], request: GenerationRequest, responses: list[GenerationResponse],
                  analysis: Any, method: str, model: Mapping[str, Any] | None
                  ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """One topic's headline per answer, its measure table (win rates, then nugget scores) and summed signs.

    ``model``: the packaged model, read for ``method="default"``.
    """
    from ir_rag_axioms.aggregation import bradley_terry

    rates, z, summed = [], [], np.zeros((len(responses), len(responses)))
    valued = np.zeros(len(responses), dtype=bool)  # whether any axiom has a value for the answer
    for axiom in named.values():
        matrix, values = answer_values(axiom, request, responses, analysis)
        summed += np.sign(np.nan_to_num(matrix))
        rates.append(win_rates(matrix, ~np.isnan(values)))
        z.append(standardize(values))
        valued |= ~np.isnan(values)
    table = np.column_stack(rates) if rates else np.zeros((len(responses), 0))
    if method == "default" and model is not None:
        found = nugget_values(request, responses, analysis)
        features = np.column_stack([*z, nugget_features(found, model_nugget_features())])
        head = headline(features, model["weights"], model["intercept"])
        blank = np.array([not r.text.strip() for r in responses])
        head[~valued | blank | (valued.sum() < 2)] = np.nan  # nothing to compare with: no headline
        table = np.column_stack([table, found])
    elif method == "win_rate":
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", RuntimeWarning)  # an answer no axiom has a value for: NaN
            head = np.nanmean(table, axis=1)
    else:
        head = bradley_terry(np.sign(summed)[None]) if len(responses) > 1 else np.full(len(responses), np.nan)
        head = alike_equal(head, [(r.text, r.context) for r in responses])
    return head, table, np.sign(summed)


def alike_equal(values: np.ndarray, keys: Sequence[Any]) -> np.ndarray:
    """``values`` with every group of equal ``keys`` (the same answers) set to the group's exact mean.

    Equal inputs get equal outputs, not merely equal up to the float noise of a fit's summation order.
    """
    v = np.asarray(values, dtype=np.float64).copy()
    groups: dict[Any, list[int]] = {}
    for k, key in enumerate(keys):
        groups.setdefault(key, []).append(k)
    for at in groups.values():
        if len(at) > 1:
            v[at] = exact_mean(v[at])
    return v


def system_leaderboard(answers: pd.DataFrame,
                       axioms: Sequence[Axiom | str] | Mapping[str, Axiom | str] | str | None = None,
                       *, method: str = "default", progress: bool = True) -> pd.DataFrame:
    """A long leaderboard (run_id, topic, measure, value): the headline first, then one win rate per axiom.

    Per topic and ``all`` (the run's mean over its topics; for ``bradley_terry`` the strength over all topics).
    An empty answer (None, NaN, only whitespace) abstains: NaN for every measure of its (run, topic), one
    ``AbstentionWarning`` naming them, and the other runs are scored as if it were absent (as ``ir-rag-axioms judge``
    scores them); a run with no answer but empty ones has no Bradley-Terry strength (NaN).
    ``axioms``: the axioms to report (default: those of the packaged model); ``method="default"`` needs exactly the
    packaged model's axioms (any others: use ``"win_rate"`` or ``"bradley_terry"``); a string is a comma-separated
    list as the command line takes it (``"CONS2,COV1"``, ``NAME=SPEC``, ``ictir2025``).
    """
    from ir_rag_axioms.analysis.cache import default_analysis
    from ir_rag_axioms.axioms.base import analyse

    named = _leaderboard_axioms(axioms, method)
    model = packaged_model() if method == "default" else None
    runs, items, abstained = _answer_items(answers)
    warn_abstentions(abstained, who="system_leaderboard")
    # one order of the answers whatever the runs are called: tied runs get the very same values
    items = [(request, sorted(responses, key=lambda r: (r.text, r.id))) for request, responses in items]
    analysis = _private_analysis(default_analysis())
    with_nuggets = method == "default"
    rows: list[tuple[str, str, str, float]] = []
    headline_name = HEADLINES[method]
    matrices: list[tuple[GenerationRequest, list[GenerationResponse], np.ndarray]] = []
    topics: Any = items
    if progress:
        from tqdm.auto import tqdm

        topics = tqdm(items, desc="system leaderboard", unit="topic")
    with _released(analysis), analysis:
        for request, responses in topics:
            analysis.clear()  # a topic's values from its own texts alone, whatever topics came before
            analyse(list(named.values()), [(request, responses)], analysis)  # per topic: the progress bar moves
            head, table, signs = _topic_values(named, request, responses, analysis, method, model)
            if method == "bradley_terry":
                matrices.append((request, responses, signs))
            for k, response in enumerate(responses):
                rows.append((response.id, request.id, headline_name, float(head[k])))
                rows += [(response.id, request.id, name, float(table[k, n]))
                         for n, name in enumerate([*named, *(NUGGET_MEASURES if with_nuggets else ())])]
    measures = [headline_name, *named, *(NUGGET_MEASURES if with_nuggets else ())]
    rows += [(run, topic, m, math.nan) for run, topic in abstained for m in measures]  # as if absent: NaN
    frame = pd.DataFrame(rows, columns=list(COLUMNS))
    means = frame.groupby(["run_id", "measure"], sort=False)["value"].agg(exact_mean)  # NaN skipped; all NaN: NaN
    totals = [(run, ALL, m, float(means.get((run, m), np.nan))) for run in runs for m in measures]
    if method == "bradley_terry":
        answered = list(dict.fromkeys(r.id for _, responses, _ in matrices for r in responses))
        strengths = _overall_strengths([run for run in runs if run in answered], matrices)
        totals = [(run, ALL, m, strengths.get(run, math.nan) if m == headline_name else v)
                  for run, _, m, v in totals]
    out = pd.concat([frame, pd.DataFrame(totals, columns=list(COLUMNS))], ignore_index=True)
    out["measure"] = pd.Categorical(out["measure"], categories=measures, ordered=True)
    out = out.sort_values(["measure", "run_id", "topic"], kind="stable").reset_index(drop=True)
    out["measure"] = out["measure"].astype(str)
    return out


def _private_analysis(shared: Any) -> Any:
    """An analysis of the leaderboard's own with ``shared``'s settings and persistent store, cleared per topic.

    The encoder's batches hold only the strings not yet cached, and a batch's company changes a vector's last bits:
    with a cache shared across topics, a topic's values would depend on the topics scored before it.
    """
    from ir_rag_axioms.analysis.cache import Analysis

    return Analysis(workers=shared.workers, max_texts=shared.max_texts, max_mb=shared.max_mb, store=shared.store,
                    batch_size=shared.batch_size, max_docs=shared.max_docs, device=shared.device,
                    precision=shared.precision)


@contextlib.contextmanager
def _released(analysis: Any) -> Iterator[None]:
    """On leaving: the private analysis' results forgotten and its workers stopped (the shared store stays open)."""
    try:
        yield
    finally:
        analysis.clear()
        analysis.pool.close()


def _overall_strengths(runs: Sequence[str], matrices: Sequence[tuple[Any, Any, np.ndarray]]) -> dict[str, float]:
    """Bradley-Terry log-strength per run from the summed preferences of every topic (absent pairs: no game).

    The runs are fitted in the order of their answers' contents (``systems.content_order``), not of their names or
    rows, and runs with the same answers get one value; a single run has none (NaN: nothing to compare it with).
    """
    from ir_rag_axioms.aggregation import bradley_terry
    from ir_rag_axioms.evaluation.systems import answer_fingerprints

    items = [(request, responses) for request, responses, _ in matrices]
    prints = answer_fingerprints(runs, items)
    index = {run: k for k, run in enumerate(sorted(runs, key=lambda run: (prints[run], run)))}
    stack = np.zeros((len(matrices), len(runs), len(runs)))
    for t, (_, responses, matrix) in enumerate(matrices):
        at = np.array([index[r.id] for r in responses], dtype=np.int64)
        stack[t][np.ix_(at, at)] = matrix
    strengths = bradley_terry(stack) if len(runs) > 1 else np.full(len(runs), np.nan)
    values = alike_equal(np.array([strengths[index[run]] for run in runs]), [prints[run] for run in runs])
    return {run: float(value) for run, value in zip(runs, values, strict=True)}


__all__ = ["ALL", "COLUMNS", "HEADLINES", "METHODS", "NUGGET_MEASURES", "AbstentionWarning", "abstentions",
           "alike_equal", "answer_items", "answer_values", "default_axioms", "exact_mean", "headline",
           "model_nugget_features", "nugget_features", "nugget_settings", "nugget_values", "packaged_model",
           "reads_packaged_axioms", "standardize", "system_leaderboard", "warn_abstentions", "warn_outside",
           "win_rates"]
