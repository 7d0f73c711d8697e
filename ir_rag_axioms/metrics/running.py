"""What every judged metric shares, as DeepEval users expect: ``include_reason``, ``strict_mode``, async measuring.

``a_measure`` / ``a_measure_many`` run ``measure`` / ``measure_many`` in a worker thread; the LLM judge's
``max_concurrency`` bounds the requests in flight however many are awaited at once.
"""

from __future__ import annotations

import asyncio
import contextlib
import math
import numbers
import warnings
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ir_rag_axioms.analysis.cache import lone_surrogate
from ir_rag_axioms.metrics.dataset import DatasetItem, MetricEvaluationResult, check_listed
from ir_rag_axioms.metrics.interface import Judge
from ir_rag_axioms.metrics.judges import HeuristicJudge
from ir_rag_axioms.metrics.llm import JudgeOutputError, metered
from ir_rag_axioms.metrics.results import Usage
from ir_rag_axioms.metrics.statements import FOREIGN_SHARE, foreign_script, non_latin_share


@dataclass(frozen=True, kw_only=True)
class JudgedMetric:
    """Options of every judged metric: a written reason, a binary strict mode; async forms of the measure methods."""

    include_reason: bool = True
    """Keep a written reason in the result (AnswerRelevancy with the LLM judge asks for it: one more request)."""
    strict_mode: bool = False
    """DeepEval's strict mode: pass only on a perfect score (threshold 1, or level 5), score 1 or 0."""
    verbose_mode: bool = False
    """DeepEval's verbose mode: print each result's intermediate steps (statements, verdicts, matches, score)."""

    def __post_init__(self) -> None:
        for name in ("include_reason", "strict_mode", "verbose_mode"):
            if not isinstance(getattr(self, name), bool):
                raise TypeError(f"{type(self).__name__}: {name} must be True or False, got "
                                f"{getattr(self, name)!r:.40}")

    def measure(self, *args: Any, **kwargs: Any) -> Any:
        """Score one observation (each metric defines its arguments)."""
        raise NotImplementedError

    def measure_many(self, cases: Sequence[Any]) -> list[Any]:
        """Score many observations with batched judge calls."""
        raise NotImplementedError

    def measure_items(self, items: Sequence[DatasetItem]) -> list[Any]:
        """Score many ``DatasetItem``s (each metric reads the fields it needs) with batched judge calls."""
        raise NotImplementedError

    async def execute(self, item: DatasetItem) -> MetricEvaluationResult:
        """Seed 002's ``await metric.execute(item)``: the result with ``score``, ``pretty()`` and ``signals``."""
        if not isinstance(item, DatasetItem):
            raise TypeError(f"{type(self).__name__}.execute: expected a DatasetItem, got {type(item).__name__}")
        (result,) = await asyncio.to_thread(self.measure_items, [item])
        return MetricEvaluationResult.of(type(self).__name__, result)

    def _log(self, results: list[Any]) -> list[Any]:
        """Print each result's intermediate steps when ``verbose_mode`` is on; return the results."""
        if self.verbose_mode:
            for result in results:
                print(verbose_log(type(self).__name__, result), flush=True)
        return results

    async def a_measure(self, *args: Any, **kwargs: Any) -> Any:
        """``measure`` awaited: runs in a worker thread (the judge's concurrency limit holds across calls)."""
        return await asyncio.to_thread(self.measure, *args, **kwargs)

    async def a_measure_many(self, cases: Sequence[Any]) -> list[Any]:
        """``measure_many`` awaited: one batched pass in a worker thread."""
        return await asyncio.to_thread(self.measure_many, cases)


def with_usage(judge: Judge, cases: int, run: Callable[[], list[Any]]) -> tuple[list[Any], list[Usage | None]]:
    """``run()`` and the LLM judge's usage per case (None for judges that report none, e.g. the offline judge)."""
    with metered(cases) as meter:
        out = run()
    return out, [usage if judge.reports_usage else None for usage in meter]


@contextlib.contextmanager
def case_of(asked: Sequence[int], cases: int, owner: str, unit: str = "case") -> Iterator[None]:
    """A malformed judge answer inside the block names the metric and the case or turn (request k's: ``asked[k]``).

    ``unit="turn"``: the requests are turns of one conversation (``error.case_index`` 0, the turn in the message).
    """
    try:
        yield
    except JudgeOutputError as error:
        k = error.batch_index if error.batch_index is not None else 0 if len(asked) == 1 else None
        if k is not None and k < len(asked):
            error.case_index = asked[k] if unit == "case" else 0
            error.locate(f"{owner}: {unit} {asked[k] + 1} of {cases}" if cases > 1 else owner)
        raise


def passages(value: Any, owner: str, what: str = "context") -> tuple[str, ...]:
    """A list of passages (texts, or dicts with a text "text" as MetricScorer takes) as a tuple of texts.

    TypeError names the position of a passage that is not a text. A ``None`` or NaN passage (a missing value of a
    data frame) is refused, not read as the text "None" or "nan".
    """
    named = f"{owner}: " if owner else ""
    check_listed(value, f"{named}a {what} must be a text or a list of passages")
    found = tuple(_passage_text(p) for p in value)
    for k, passage in enumerate(found):
        if not isinstance(passage, str):
            missing = " (a missing value: drop missing passages, or convert them)" if passage is None or (
                isinstance(passage, float) and math.isnan(passage)) else " without a text 'text' (a passage may be a " \
                "dict with its text under 'text')" if isinstance(passage, Mapping) else ""
            raise TypeError(f"{named}a {what} must be a text or a list of texts: item {k} is "
                            f"{type(passage).__name__} {passage!r:.40}{missing}")
        check_unicode(passage, f"{named}{what} item {k}")
    return tuple(map(str, found))  # np.str_ -> str


def _passage_text(passage: Any) -> Any:
    """A passage's text: the "text" of a dict (as ir_datasets and MetricScorer give passages), else the passage."""
    return passage.get("text", passage) if isinstance(passage, Mapping) else passage


@contextlib.contextmanager
def at_case(k: int, cases: int, owner: str) -> Iterator[None]:
    """Bad input of case k (a TypeError or ValueError raised inside) names the case; ``case_index`` keeps k."""
    try:
        yield
    except (TypeError, ValueError) as error:
        if cases > 1 and getattr(error, "case_index", None) is None and error.args \
                and isinstance(error.args[0], str):
            message = error.args[0].removeprefix(f"{owner}: ")
            error.args = (f"{owner}: case {k + 1} of {cases}: {message}", *error.args[1:])
            setattr(error, "case_index", k)  # noqa: B010 - an attribute the built-in exceptions do not declare
        raise


def foreign_reasons(judge: Judge, owner: str, cases: Sequence[Mapping[str, Sequence[str]]], stacklevel: int = 4
                    ) -> list[str | None]:
    """Per case, why the heuristic judge does not read it (None: it does); one warning for the batch.

    The rule, the same for every metric: a case is undefined (NaN with this reason) when one of its parts (the
    output, the question, the passages or reference facts together: ``cases`` maps each part's name to its texts) has
    a quarter of its words or more in a script other than Latin (``statements.foreign_script``). Judges that read
    every script (the LLM judge) judge every case.
    """
    if not isinstance(judge, HeuristicJudge):
        return [None for _ in cases]
    out: list[str | None] = []
    for parts in cases:
        joined = {part: "\n".join(t for t in texts if isinstance(t, str)) for part, texts in parts.items()}
        found = next(((part, text) for part, text in joined.items() if foreign_script(text)), None)
        out.append(None if found is None else
                   f"undefined: the {found[0]} is in a script other than Latin ({non_latin_share(found[1]):.0%} of "
                   "its words); the heuristic judge reads English (use an LLM judge)")
    if any(out):
        warnings.warn(f"{owner}: {sum(r is not None for r in out)} of {len(out)} case(s) have a text in a script "
                      f"other than Latin ({FOREIGN_SHARE:.0%} of its words or more) and are not judged (NaN): the "
                      "heuristic judge reads English; use an LLM judge (LlmJudge) for other languages",
                      UserWarning, stacklevel=stacklevel)
    return out


def check_number(owner: str, name: str, value: Any, low: float, high: float = math.inf,
                 integer: bool = False) -> None:
    """TypeError naming the parameter unless it is a number (``integer``: an integer; never a bool or a string).

    ValueError unless low <= value <= high (NaN is out of every range).
    """
    kind = numbers.Integral if integer else numbers.Real
    bounds = f"in [{low:g}, {high:g}]" if high < math.inf else f">= {low:g}"
    what = f"{'an integer' if integer else 'a number'} {bounds}"
    if isinstance(value, bool) or not isinstance(value, kind):
        raise TypeError(f"{owner}: {name} must be {what}, got {type(value).__name__} {value!r:.40}")
    if not low <= float(value) <= high:
        raise ValueError(f"{owner}: {name} must be {what}, got {value!r:.40}")


def check_text(owner: str, **values: Any) -> None:
    """TypeError naming the argument unless each value is a string; ValueError for one that is not valid Unicode."""
    for name, value in values.items():
        if not isinstance(value, str):
            raise TypeError(f"{owner}: {name} must be a string, got {type(value).__name__} {value!r:.60}")
        check_unicode(value, f"{owner}: {name}")


def check_unicode(text: str, where: str) -> None:
    """ValueError naming ``where`` if the text holds a lone surrogate (not valid Unicode: no judge can read it)."""
    at = lone_surrogate(text)
    if at is not None:
        raise ValueError(f"{where} holds a lone surrogate {text[at]!r} at character {at} (half of an emoji or other "
                         "character, as a text cut inside a JSON escape leaves): it is not valid Unicode; drop it or "
                         "decode the source with errors='replace'")


def verbose_log(name: str, result: Any) -> str:
    """DeepEval-style verbose logs of one result: the intermediate steps, then the score and the reason."""
    bar = "*" * 50
    lines = [bar, f"{name} Verbose Logs", bar, ""]
    breakdown = getattr(result, "statement_breakdown", None)
    if breakdown is not None:
        lines += ["Statements:", *[f"  - {s.statement}" for s in breakdown], "", "Verdicts:",
                  *[f"  - [{s.verdict}] {s.statement} ({s.reason})" for s in breakdown], ""]
    else:
        rows = list(getattr(result, "breakdown", ()) or ())
        if rows:
            lines.append("Steps:")
            for row in rows:
                unit = next((str(v) for k, v in row.items() if k in ("statement", "reference fact", "sentence",
                                                                      "node")), "")
                found = f" best match: {row['best_match']!r}" if row.get("best_match") else ""
                reasons = "; ".join(row.get("reasons", ()) or ())
                lines.append(f"  - [{row.get('verdict')}] {unit}{found}{' - ' + reasons if reasons else ''}")
            lines.append("")
    level = getattr(result, "level", None)
    lines += [f"Score: {result.score:.4g}" + (f" (level {level}/5)" if level is not None else ""),
              f"Reason: {result.explanation}", "=" * 70]
    return "\n".join(lines)
