"""Seed 002's input and output shapes: ``await metric.execute(DatasetItem(...))`` and ``result.signals``.

``DatasetItem`` holds one observation (``query``, ``actual_output``, the ``retrieved_content`` passages, a
``reference`` or ``expected_output``, or a ``MultiTurnConversation`` of ``HumanMessage`` / ``AIMessage``);
``MetricEvaluationResult`` is what ``execute`` returns: ``score``, ``passed``, ``explanation``, ``pretty()`` and
``signals``, the metric's full diagnostic result (``AnswerRelevancyResult`` for AnswerRelevancy).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar


def check_listed(value: Any, message: str) -> None:
    """TypeError (``message``, then the type) unless ``value`` is a list of passages in order.

    A mapping, bytes, a set (no order: a ranking would follow the hash), a non-iterable value and a data frame (it
    iterates its column names) are refused; the passages themselves are checked where they are read.
    """
    if isinstance(value, Mapping | bytes | bytearray | set | frozenset) or not isinstance(value, Iterable) \
            or getattr(value, "ndim", 1) != 1:
        unordered = " (a set has no order: pass a list, in rank order)" if isinstance(value, set | frozenset) else ""
        raise TypeError(f"{message}, got {type(value).__name__}{unordered}")


@dataclass(frozen=True)
class HumanMessage:
    """A user's message of a conversation."""

    content: str
    role: ClassVar[str] = "user"


@dataclass(frozen=True)
class AIMessage:
    """The assistant's message of a conversation."""

    content: str
    role: ClassVar[str] = "assistant"


@dataclass(frozen=True)
class MultiTurnConversation:
    """Messages in order, as (role, content) pairs through ``pairs()``."""

    messages: Sequence[HumanMessage | AIMessage] = field(default_factory=tuple)

    def __post_init__(self) -> None:
        bad = [m for m in self.messages if not isinstance(m, HumanMessage | AIMessage)]
        if bad:
            raise TypeError(f"MultiTurnConversation: messages must be HumanMessage or AIMessage, got {bad[0]!r:.60}")
        object.__setattr__(self, "messages", tuple(self.messages))

    def pairs(self) -> list[tuple[str, str]]:
        """The messages as (role, content): the conversation form of ``AnswerRelevancy.measure``."""
        return [(m.role, m.content) for m in self.messages]


@dataclass(frozen=True, kw_only=True)
class DatasetItem:
    """One observation with seed 002's field names; each metric reads the fields it needs (ValueError if missing)."""

    query: str | None = None
    actual_output: str | None = None
    retrieved_content: Sequence[str] | None = None
    """The passages the answer was generated from (Faithfulness; ContextRecall without ``reference``)."""
    reference: str | Sequence[str] | None = None
    """Reference facts (ContextRecall: are they used in the output?)."""
    expected_output: str | None = None
    """The reference answer (ContextualRecall, ContextualPrecision: is it found in, and ranked high by, the context)."""
    conversation: MultiTurnConversation | None = None
    id: str | None = None  # noqa: A003  (the seed's field name)

    def __post_init__(self) -> None:
        for name in ("query", "actual_output", "expected_output", "id"):
            value = getattr(self, name)
            if value is not None and not isinstance(value, str):
                raise TypeError(f"DatasetItem: {name} must be a string, got {type(value).__name__}")
        if isinstance(self.retrieved_content, str):
            raise TypeError("DatasetItem: retrieved_content must be a list of passages, not one string")
        if self.retrieved_content is not None:  # a set would be read in hash order: refused, as measure() refuses it
            check_listed(self.retrieved_content, "DatasetItem: retrieved_content must be a list of passages")
            object.__setattr__(self, "retrieved_content", tuple(self.retrieved_content))
        if self.reference is not None and not isinstance(self.reference, str):
            check_listed(self.reference, "DatasetItem: reference must be a text or a list of facts")
        if self.conversation is not None and not isinstance(self.conversation, MultiTurnConversation):
            raise TypeError("DatasetItem: conversation must be a MultiTurnConversation")

    def label(self) -> str:
        """The item's id, else the start of its query."""
        return self.id or f"item {(self.query or '')[:60]!r}"

    def need(self, owner: str, *names: str) -> None:
        """ValueError naming the fields of ``names`` that are missing (blank texts count as given)."""
        missing = [n for n in names if getattr(self, n) is None]
        if missing:
            raise ValueError(f"{owner}: {self.label()} needs the DatasetItem field(s) {', '.join(missing)}")


@dataclass(frozen=True)
class MetricEvaluationResult:
    """What ``await metric.execute(item)`` returns: the score, pass/fail, the explanation and the full ``signals``."""

    name: str
    score: float
    passed: bool | None
    threshold: float
    explanation: str
    signals: Any
    """The metric's diagnostic result (``AnswerRelevancyResult``: counts, per-statement breakdown, turns)."""

    @classmethod
    def of(cls, name: str, result: Any) -> MetricEvaluationResult:
        """Wrap a metric's result."""
        return cls(name, result.score, result.passed, float(result.threshold), result.explanation, result)

    def pretty(self) -> str:
        """The signals' readable summary."""
        return str(self.signals.pretty())

    def to_dict(self) -> dict[str, Any]:
        """Plain dict: name, score, passed, threshold, explanation and the signals as a dict."""
        return {"name": self.name, "score": self.score, "passed": self.passed, "threshold": self.threshold,
                "explanation": self.explanation, "signals": self.signals.to_dict()}
