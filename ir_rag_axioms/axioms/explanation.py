"""Explanations: the numbers behind one axiom decision for one pair of responses (read, not recomputed).

An ``Explanation`` is built by the axiom's own ``explain_pairs`` hook from the same analysis and the same rule
(``compare`` / ``within_margin`` / the matrix) that builds its preference matrix, so the two cannot disagree.
"""

from __future__ import annotations

import inspect
import math
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

NEW_IN_THIS_LIBRARY = "new in this library"
"""The citation of an axiom this library introduces (no published source)."""
BASELINE = "baseline (no publication)"
"""The citation of a utility baseline (NOP, RANDOM, GT, LT): a reference point, not a published rule."""


def rule_of(axiom: Any) -> str:
    """The axiom's rule: its class docstring on one line."""
    doc = inspect.getdoc(type(axiom)) or type(axiom).__name__
    return " ".join(doc.split())


def citation_of(axiom: Any) -> str:
    """The axiom's ``citation`` class attribute (``""`` for objects without one)."""
    return str(getattr(type(axiom), "citation", "") or "")


def summary_of(function: Any) -> str:
    """The first line of a function's docstring, without a final period."""
    doc = inspect.getdoc(function) or ""
    first = doc.splitlines()[0].rstrip(".") if doc else ""
    return re.sub(r"\s*\((?:NaN|higher:)[^()]*\)$", "", first)


@dataclass(frozen=True, repr=False)
class Explanation:
    """Why an axiom prefers one response over another: the values compared, direction, margin, abstention, parts."""

    axiom: str
    """The axiom's canonical repr."""
    rule: str
    """The axiom's rule (its docstring on one line)."""
    first: str
    """Id of the first response (a)."""
    second: str
    """Id of the second response (b)."""
    decision: float
    """The matrix entry P[a, b]: > 0 prefers a, < 0 prefers b, 0 no preference."""
    meaning: str | None = None
    """What the compared values are (e.g. ``Number of distinct aspects``)."""
    values: tuple[float, float] | None = None
    """The value of a and of b (NaN: undefined, the axiom abstains)."""
    higher_is_better: bool | None = None
    """The direction: whether the higher value wins."""
    margin_fraction: float | None = None
    """The relative margin within which two values tie."""
    within_margin: bool | None = None
    """Whether the pair fell inside the margin (a tie)."""
    precondition: bool | None = None
    """Whether the axiom's precondition holds for the pair (None: the axiom has none)."""
    abstention: str | None = None
    """Why the axiom abstains (blank, over-long, no context, no aspects, ...), if it does."""
    details: Mapping[str, tuple[Any, Any]] = field(default_factory=dict)
    """Further evidence per response: label -> (a's, b's), e.g. the aspects counted."""
    parts: tuple[Explanation, ...] = ()
    """Explanations of the parts of a combined axiom."""
    note: str | None = None
    """How a combined axiom reached its decision (which part decided, the votes)."""

    @property
    def winner(self) -> str | None:
        """The id of the preferred response, None if the axiom does not prefer either."""
        return self.first if self.decision > 0 else self.second if self.decision < 0 else None

    def to_dict(self) -> dict[str, Any]:
        """A plain dict (JSON-serialisable: NaN becomes None, parts nested)."""
        def plain(value: Any) -> Any:
            if isinstance(value, float):
                return None if math.isnan(value) else value
            if isinstance(value, Mapping):
                return {str(k): plain(v) for k, v in value.items()}
            if isinstance(value, (tuple, list)):
                return [plain(v) for v in value]
            return value

        out: dict[str, Any] = {
            "axiom": self.axiom, "rule": self.rule, "first": self.first, "second": self.second,
            "decision": self.decision, "winner": self.winner,
        }
        for name in ("meaning", "values", "higher_is_better", "margin_fraction", "within_margin", "precondition",
                     "abstention", "note"):
            value = getattr(self, name)
            if value is not None:
                out[name] = plain(value)
        if self.details:
            out["details"] = plain(self.details)
        if self.parts:
            out["parts"] = [p.to_dict() for p in self.parts]
        return out

    def __str__(self) -> str:
        return "\n".join(self._lines(""))

    def __repr__(self) -> str:
        values = "" if self.values is None else f", {_value(self.values[0])} vs {_value(self.values[1])}"
        return f"<Explanation {self.axiom} {self.first} vs {self.second}: {_number(self.decision)}{values}>"

    def _repr_pretty_(self, printer: Any, cycle: bool) -> None:
        """IPython shows the readable form."""
        printer.text(str(self))

    def _lines(self, indent: str) -> list[str]:
        verdict = (f"prefers {self.first} over {self.second}" if self.decision > 0 else
                   f"prefers {self.second} over {self.first}" if self.decision < 0 else "no preference")
        lines = [f"{indent}{self.axiom}: {verdict} (P[{self.first}, {self.second}] = {_number(self.decision)})",
                 f"{indent}  rule: {self.rule}"]
        if self.values is not None:
            a, b = self.values
            lines.append(f"{indent}  {self.meaning or 'value'}: {self.first} {_value(a)} vs "
                         f"{self.second} {_value(b)}")
            direction = "higher" if self.higher_is_better else "lower"
            margin = "" if self.margin_fraction is None else f"; margin {self.margin_fraction:.0%}"
            inside = "" if self.within_margin is None else (
                ": inside the margin (a tie)" if self.within_margin else ": outside the margin")
            lines.append(f"{indent}  {direction} is better{margin}{inside}")
        if self.precondition is not None:
            lines.append(f"{indent}  precondition: {'holds' if self.precondition else 'fails (no decision)'}")
        if self.abstention:
            lines.append(f"{indent}  abstains: {self.abstention}")
        for label, (a, b) in self.details.items():
            lines.append(f"{indent}  {label}:")
            lines.append(f"{indent}    {self.first}: {_detail(a)}")
            lines.append(f"{indent}    {self.second}: {_detail(b)}")
        if self.note:
            lines.append(f"{indent}  {self.note}")
        for part in self.parts:
            lines += part._lines(indent + "    ")
        return lines


def _number(value: float | None) -> str:
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return "undefined"
    return f"{value:+.0f}" if float(value).is_integer() and abs(value) <= 1 else f"{value:.4g}"


def _value(value: float) -> str:
    return "undefined" if math.isnan(value) else f"{value:.4g}"


def _detail(value: Any) -> str:
    if isinstance(value, (list, tuple)):
        if not value:
            return "(none)"
        return "; ".join(_detail(v) if isinstance(v, (list, tuple)) and not isinstance(v, str) else
                         (f"{v:.3f}" if isinstance(v, float) else str(v)) for v in value)
    return f"{value:.3f}" if isinstance(value, float) else str(value)


def renamed(explanation: Explanation, axiom: str, rule: str | None = None) -> Explanation:
    """The explanation under another axiom's name (a wrapper that decides as its wrapped axiom)."""
    return replace(explanation, axiom=axiom, rule=rule or explanation.rule)


def index_pair(responses: Sequence[Any], first: Any, second: Any) -> tuple[int, int]:
    """Positions of two responses (by id) in a list of responses; ValueError naming a missing one."""
    ids = [r.id for r in responses]
    for response in (first, second):
        if response.id not in ids:
            raise ValueError(f"response {response.id!r} is not among the responses {ids}")
    return ids.index(first.id), ids.index(second.id)
