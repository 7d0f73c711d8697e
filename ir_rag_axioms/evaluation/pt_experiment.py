"""pt.Experiment's mean table with each measure averaged by its own aggregator, systems named by a dict, a baseline.

``Experiment`` takes pt.Experiment's arguments; undefined queries of our measures are counted and left out of the
means and of the baseline's tests (pt.Experiment itself shows their mean in their place).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
import pandas as pd

_REFUSED = ("correction", "correction_alpha", "highlight", "perquery", "dataframe")
"""pt.Experiment options that ``Experiment`` does not take (multiple-testing correction, styling, per-query output)."""


def _systems(retr_systems: Any, names: Sequence[str] | None) -> tuple[list[Any], list[str]]:
    """The systems and their names: a dict's keys, else ``names``, else pt.Experiment's ``str(system)``; no duplicate.

    Two systems under one name would be averaged into one row: refused, also where their reprs coincide.
    """
    if isinstance(retr_systems, Mapping):
        if names is not None:
            raise ValueError("Experiment: the systems are a dict, whose keys name them; drop names= (or pass a list)")
        names, retr_systems = [str(k) for k in retr_systems], list(retr_systems.values())
    elif not isinstance(retr_systems, (list, tuple)):
        raise TypeError(f"Experiment takes a list or a dict {{name: system}} of systems, got "
                        f"{type(retr_systems).__name__}")
    systems = list(retr_systems)
    if not systems:
        raise ValueError("Experiment: no system to evaluate")
    named = names is not None
    names = [str(n) for n in names] if names is not None else [str(s) for s in systems]  # pt.Experiment's default
    if len(names) != len(systems):
        raise ValueError(f"Experiment: {len(names)} names for {len(systems)} systems")
    twice = sorted({n for n in names if names.count(n) > 1})
    if twice:
        raise ValueError(f"Experiment: the name(s) {twice} stand for several systems, whose queries would be "
                         "averaged into one row; give each system its own name" + (
                             "" if named else " (names=[...] or a dict {name: system}; unnamed, a system is "
                             "named by its repr)"))
    return systems, names


def _baseline(baseline: int | str | None, names: list[str]) -> int | None:
    """The baseline's position: a system's name (its key in a dict of systems) or its index."""
    if baseline is None:
        return None
    if isinstance(baseline, str):
        if baseline not in names:
            raise ValueError(f"Experiment: unknown baseline {baseline!r}; the systems are {names}")
        return names.index(baseline)
    if isinstance(baseline, bool) or not isinstance(baseline, (int, np.integer)) or not 0 <= baseline < len(names):
        raise ValueError(f"Experiment: baseline must be a system's name or an index below {len(names)}, got "
                         f"{baseline!r}")
    return int(baseline)


def _test(test: Any) -> Any:
    """The paired test: "t" (scipy's ttest_rel), "wilcoxon", or a function (x, y) -> (statistic, p)."""
    from scipy import stats

    if callable(test):
        return test
    tests = {"t": stats.ttest_rel, "wilcoxon": stats.wilcoxon}
    if test not in tests:
        raise ValueError(f"Experiment: unknown test {test!r}; use 't', 'wilcoxon' or a function (x, y) -> (s, p)")
    return tests[test]


def _compared(values: pd.Series, base: pd.Series, test: Any) -> tuple[int, int, float]:
    """(queries better, worse, p-value) of a system against the baseline, over the queries both have defined."""
    both = pd.concat([values, base], axis=1, join="inner").dropna()
    x, y = both.iloc[:, 0].to_numpy(float), both.iloc[:, 1].to_numpy(float)
    if len(x) < 2 or np.array_equal(x, y):
        return int((x > y).sum()), int((x < y).sum()), float("nan")
    return int((x > y).sum()), int((x < y).sum()), float(test(x, y)[1])


def Experiment(retr_systems: Any, topics: pd.DataFrame, qrels: pd.DataFrame, eval_metrics: Any,  # noqa: N802
               names: Sequence[str] | None = None, *, baseline: int | str | None = None, test: Any = "t",
               round: int | None = None, **options: Any) -> pd.DataFrame:  # noqa: A002
    """pt.Experiment's table with each measure's mean by its ir_measures aggregator: ``calc_aggregate``'s numbers.

    Runs ``pt.Experiment(..., perquery=True)`` once; per system and measure the mean by ``measure.aggregator()``
    over the queries the qrels judge (ours: over the queries where the measure is defined), and for each of our
    measures a column ``"<measure> undefined"``: how many queries it left out. ``retr_systems``: a list (named by
    ``names``, unique) or a dict ``{name: system}``; measures: objects or names (``"KendallTau"``, ``"map"``).
    ``baseline`` (a name or an index): columns ``"<m> +"``, ``"<m> -"`` (queries better / worse than the baseline)
    and ``"<m> p-value"`` (``test``: paired "t" or "wilcoxon" over the queries both systems have defined). Other
    pt.Experiment arguments pass through (batch_size, filter_by_qrels, plan, ...; ``round``: digits of the means).
    """
    import pyterrier as pt

    from ir_rag_axioms.evaluation.run_measures import _IMPUTE, DefinedMean, _ir_names, named_measures

    refused = sorted(set(options) & set(_REFUSED))
    if refused:
        raise ValueError(f"Experiment gives the mean table; {refused} are pt.Experiment's: call pt.Experiment for "
                         "multiple-testing correction, styling or per-query values")
    systems, names = _systems(retr_systems, names)
    metrics = [eval_metrics] if isinstance(eval_metrics, str) else list(eval_metrics)
    if not metrics:
        raise ValueError("Experiment: no measure given (eval_metrics is empty)")
    if any(isinstance(m, str) and m == "mrt" for m in metrics):
        raise ValueError("Experiment: 'mrt' is pt.Experiment's timing column, not a measure; call pt.Experiment")
    named = named_measures(metrics)
    test_fn = _test(test)
    token = _IMPUTE.set(False)  # undefined queries stay NaN: counted here, left out of the means and the tests
    try:
        per_query = pt.Experiment(systems, topics, qrels, [m for _, m in named], names=names, perquery=True,
                                  **options)
    finally:
        _IMPUTE.reset(token)
    judged = set(_ir_names(qrels, "qrels")["query_id"].astype(str))
    per_query = per_query[per_query["qid"].astype(str).isin(judged)]  # pt backfills unjudged topics with NaN
    order = names
    base = _baseline(baseline, order)
    table = per_query.assign(qid=per_query["qid"].astype(str)).pivot_table(
        index="qid", columns=["name", "measure"], values="value", aggfunc="first", dropna=False)
    rows = []
    for k, system in enumerate(order):
        row: dict[str, Any] = {"name": system}
        for column, measure in named:
            values = table.get((system, str(measure)), pd.Series(dtype=float))
            aggregator = measure.aggregator()
            for value in values:
                aggregator.add(value)
            result = aggregator.result()
            row[column] = result if round is None or result != result else _round_to(result, round)
            if isinstance(aggregator, DefinedMean):
                row[f"{column} undefined"] = int(values.isna().sum())
            if base is not None:
                better, worse, p = _compared(values, table.get((order[base], str(measure)), pd.Series(dtype=float)),
                                             test_fn) if k != base else (None, None, None)
                row |= {f"{column} +": better, f"{column} -": worse, f"{column} p-value": p}
        rows.append(row)
    _warn_undefined(rows, named)
    return pd.DataFrame(rows)


def _warn_undefined(rows: list[dict[str, Any]], named: list[tuple[str, Any]]) -> None:
    """One UndefinedMeasureWarning naming the measures some system's queries left undefined."""
    from ir_rag_axioms.evaluation.run_measures import UndefinedMeasureWarning

    counts = {column: max(row.get(f"{column} undefined", 0) for row in rows) for column, _ in named}
    left = {c: n for c, n in counts.items() if n}
    if left:
        import warnings

        warnings.warn("Experiment: " + ", ".join(f"{c} is undefined for up to {n} queries of a system" for c, n in
                                                 left.items()) + "; they are left out of its mean and tests "
                      "(columns '<measure> undefined' count them)", UndefinedMeasureWarning, stacklevel=3)


def _round_to(value: float, digits: int) -> float:
    """Python's ``round`` (shadowed in ``Experiment`` by pt.Experiment's argument name)."""
    return round(value, digits)


__all__ = ["Experiment"]
