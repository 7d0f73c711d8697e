"""``evaluate(cases, metrics)``: every metric on every case, one DataFrame (a row per case, columns per metric).

As DeepEval's ``evaluate(test_cases, metrics)``, but the result is a table: ``case`` (the case's name or id, else
its position; two cases of one name, compared as text, are a ValueError naming them), then ``<metric>_score``,
``<metric>_pass`` and ``<metric>_reason`` for each metric (a mapping names the columns; two metrics of one class in a
list are refused with that fix). Each metric judges all cases in one batch. Cases are ``DatasetItem``s or
``RagTestCase``s (``input`` -> query, ``retrieval_context`` -> retrieved_content).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

import pandas as pd

from ir_rag_axioms.metrics.dataset import DatasetItem
from ir_rag_axioms.metrics.llm import JudgeOutputError


def named_metrics(metrics: Sequence[Any] | Mapping[str, Any], owner: str) -> list[tuple[str, Any]]:
    """(column prefix, metric) pairs: a mapping's keys, else each metric's ``name``; a name used twice is refused."""
    if isinstance(metrics, Mapping):
        named = list(metrics.items())
        for _, metric in named:
            _instance(metric, owner)
        bad = [k for k, _ in named if not isinstance(k, str) or not k.isidentifier()]
        if bad:
            raise ValueError(f"{owner}: column names must be identifiers such as 'faithfulness_t4', got {bad!r}")
    else:
        if isinstance(metrics, str) or not isinstance(metrics, Sequence):
            raise TypeError(f"{owner}: metrics must be a list of metrics or a mapping name -> metric")
        seen: dict[str, Any] = {}
        for metric in metrics:
            _instance(metric, owner)
            name = getattr(metric, "name", None)
            if not isinstance(name, str) or not hasattr(metric, "measure_items"):
                raise TypeError(f"{owner}: {metric!r:.80} is not a metric of ir_rag_axioms.metrics")
            if name in seen:
                raise ValueError(
                    f"{owner}: two {type(metric).__name__} metrics ({_difference(seen[name], metric)}) would both "
                    f"write the columns {name}_*; name them apart with a mapping, e.g. {{'{name}': ..., "
                    f"'{name}_2': ...}}")
            seen[name] = metric
        named = list(seen.items())
    if not named:
        raise ValueError(f"{owner} needs at least one metric")
    return named


def _instance(metric: Any, owner: str) -> None:
    """TypeError for a metric class where a configured metric is needed (``Faithfulness`` for ``Faithfulness()``)."""
    if isinstance(metric, type):
        raise TypeError(f"{owner}: {metric.__name__} is a metric class; pass a configured metric, e.g. "
                        f"{metric.__name__}() or {metric.__name__}(threshold=...)")


def _difference(first: Any, second: Any) -> str:
    """The parameters two metric configurations differ in ("threshold=3 vs 4"), or "the same parameters"."""
    if not (dataclasses.is_dataclass(first) and dataclasses.is_dataclass(second)):
        return "the same name"
    fields = [f.name for f in dataclasses.fields(first) if f.name in {g.name for g in dataclasses.fields(second)}]
    differ = [f"{n}={getattr(first, n)!r:.40} vs {getattr(second, n)!r:.40}" for n in fields
              if getattr(first, n) != getattr(second, n)]
    return ", ".join(differ) if differ else "the same parameters"


def as_item(case: Any) -> DatasetItem:
    """A ``DatasetItem`` from a ``DatasetItem`` or a ``RagTestCase`` (DeepEval's field names)."""
    if isinstance(case, DatasetItem):
        return case
    from ir_rag_axioms.metrics.assertions import RagTestCase

    if isinstance(case, RagTestCase):
        return DatasetItem(query=case.input, actual_output=case.actual_output,
                           retrieved_content=case.retrieval_context, reference=case.reference,
                           expected_output=getattr(case, "expected_output", None), id=case.name)
    raise TypeError(f"evaluate: a case must be a DatasetItem or a RagTestCase, got {type(case).__name__}")


def _case_names(items: Sequence[DatasetItem]) -> list[Any]:
    """Each case's id, else its position; a blank id and two cases of one name (as text) are ValueErrors naming them."""
    names = [item.id if item.id is not None else k for k, item in enumerate(items)]
    blank = [k for k, name in enumerate(names) if isinstance(name, str) and not name.strip()]
    if blank:
        raise ValueError(f"evaluate: the case at position {blank[0]} has a blank id {names[blank[0]]!r}: give it an "
                         "id, or none (None: the case is named by its position)")
    positions: dict[str, list[int]] = {}
    for k, name in enumerate(names):
        positions.setdefault(str(name), []).append(k)
    clashes = [(name, ks) for name, ks in positions.items() if len(ks) > 1]
    if clashes:
        described = "; ".join(f"{name!r} at positions " + " and ".join(
            f"{k}{' (no id: its position)' if items[k].id is None else ''}" for k in ks) for name, ks in clashes[:5])
        more = f" and {len(clashes) - 5} more" if len(clashes) > 5 else ""
        raise ValueError(f"evaluate: case ids must be unique, as the case column keys the table (a case without an "
                         f"id is named by its position): {described}{more}; give each case its own id")
    return names


def evaluate(cases: Sequence[Any], metrics: Sequence[Any] | Mapping[str, Any]) -> pd.DataFrame:
    """One row per case (in order) with ``case`` and ``<metric>_score`` / ``_pass`` / ``_reason`` for each metric.

    A metric that needs a field a case lacks raises ValueError naming the case and the field; an undefined score is
    NaN with pass NA and the reason.
    """
    if isinstance(cases, pd.DataFrame):
        raise TypeError("evaluate: cases is a pandas DataFrame, but evaluate takes a list of DatasetItem or "
                        "RagTestCase objects; to score a frame's rows use MetricScorer, the PyTerrier transformer "
                        "(from ir_rag_axioms import MetricScorer; MetricScorer(metrics)(frame); not for the "
                        "contextual metrics), or pass one DatasetItem or RagTestCase per row")
    if isinstance(cases, str | DatasetItem) or not isinstance(cases, Iterable):
        raise TypeError(f"evaluate: cases must be a list of DatasetItem or RagTestCase objects, got "
                        f"{type(cases).__name__}")
    items = [as_item(c) for c in cases]
    if not items:
        raise ValueError("evaluate needs at least one case")
    named = named_metrics(metrics, "evaluate")
    table: dict[str, Any] = {"case": _case_names(items)}
    for name, metric in named:
        try:
            results = metric.measure_items(items)
        except (TypeError, ValueError) as error:  # bad input or a malformed judge answer: name metric and case
            k = getattr(error, "case_index", None)
            case = "" if k is None or not 0 <= k < len(items) else \
                f", case {items[k].id!r} (position {k})" if items[k].id is not None else f", case {k}"
            if isinstance(error, JudgeOutputError):
                error.locate(f"evaluate: {name}{case}")
            elif error.args and isinstance(error.args[0], str):
                error.args = (f"evaluate: {name}{case}: {error.args[0]}", *error.args[1:])
            raise
        table[f"{name}_score"] = [float(r.score) for r in results]
        table[f"{name}_pass"] = pd.array([r.passed for r in results], dtype="boolean")
        table[f"{name}_reason"] = pd.array([r.explanation for r in results], dtype="string")
    return pd.DataFrame(table)
