"""The judge interface: what every judge answers (statements, verdicts, 1-5 rubric levels, pairwise choices).

The bottom of ``metrics/``: ``Judge`` and its inputs (``Statement``, ``RubricCase``), and the offline pairwise decision
that ``Judge.pairwise`` falls back on (the better 1-5 level of the criterion's metric). The heuristic judge
(``judges.py``), the LLM judge (``llm.py``), the metrics and the axioms import it; it imports none of them.
"""

from __future__ import annotations

import re
from abc import ABC, abstractmethod
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal, NamedTuple

from ir_rag_axioms.axioms.base import Reads
from ir_rag_axioms.metrics.prompts import RubricName
from ir_rag_axioms.metrics.results import Preferred, RubricJudgment, Verdict
from ir_rag_axioms.metrics.statements import Facts

PairCase = tuple[str | None, tuple[str, ...] | None, str, str]
"""(question, context, first response, second response) of one pairwise question."""
OFFLINE_CRITERIA: tuple[tuple[tuple[str, ...], RubricName], ...] = (
    (("faithful", "support", "grounded", "hallucinat", "fabricat"), "faithfulness"),
    (("recall", "cover", "complete", "use of the context", "uses the context"), "context_recall"),
    (("relevan", "on topic", "on-topic", "answers the question", "addresses the question"), "answer_relevancy"),
)
"""Words of a criterion -> the metric whose 1-5 level the offline judge compares (the first match wins)."""
FAILURE_WORDS: tuple[str, ...] = ("hallucinat", "fabricat", "unfaithful", "unsupported", "ungrounded", "made up",
                                  "made-up", "irrelevan", "off topic", "off-topic", "incomplete", "omit", "missing",
                                  "misses")
"""Word starts naming the failure a metric measures the absence of: "hallucinates more" prefers the lower level."""
REVERSING_WORDS: tuple[str, ...] = ("less", "fewer", "fewest", "least", "lower", "lowest", "worse", "worst", "not",
                                    "no", "never", "without", "lack", "lacks", "lacking", "avoid", "avoids",
                                    "avoiding", "free")
"""Words that turn a criterion around ("less faithful", "fewer hallucinations", "hallucination-free")."""


RelevancyMode = Literal["task", "strict"]
"""``task``: helpful related information counts as relevant; ``strict``: only direct answers."""


class Statement(NamedTuple):
    """An atomic statement; when the heuristic judge extracted it, also its terms, resolved text and facts."""

    text: str
    terms: tuple[str, ...] | None = None
    resolved: str | None = None
    """The text with a leading subject pronoun replaced by the subject before ("It has" -> "The laptop has")."""
    facts: Facts | None = None
    """Entities, numbers, negations, lemmas and comparisons the heuristic judge checks."""

    @property
    def matched_text(self) -> str:
        """The text that is embedded and matched: the resolved text if there is one."""
        return self.resolved or self.text


@dataclass(frozen=True)
class RubricCase:
    """One observation for a rubric: the output, and the question or the reference (a text or a list of facts)."""

    output: str
    question: str | None = None
    reference: str | tuple[str, ...] | None = None


class Judge(ABC):
    """Statements, verdicts and 1-5 rubric levels, each for a batch of inputs."""

    @property
    @abstractmethod
    def name(self) -> str:
        """Which judge produced a result (kept in every result)."""

    @abstractmethod
    def statements(self, texts: Sequence[str]) -> list[list[Statement]]:
        """The atomic statements of each text."""

    @abstractmethod
    def verdicts(self, cases: Sequence[tuple[str, Sequence[Statement]]],
                 mode: RelevancyMode) -> list[list[tuple[Verdict, str]]]:
        """For each (query, statements): one (verdict, reason) per statement."""

    @abstractmethod
    def rubric(self, metric: RubricName, cases: Sequence[RubricCase]) -> list[RubricJudgment]:
        """One 1-5 judgment of ``metric`` per case."""

    def attributions(self, cases: Sequence[tuple[str, tuple[str, ...]]]) -> list[list[tuple[str, Verdict, str]]]:
        """For each (reference answer, retrieved passages): its statements, each "yes" if the passages support it.

        (statement, verdict, reason) per statement: ContextualRecall's question. Default: this judge cannot say.
        """
        raise NotImplementedError(f"{type(self).__name__} does not judge attributions (ContextualRecall)")

    def node_relevance(self, cases: Sequence[tuple[str, str, tuple[str, ...]]]) -> list[list[tuple[Verdict, str]]]:
        """For each (question, reference answer, ranked passages): per passage "yes" if it helps give that answer.

        ContextualPrecision's question. Default: this judge cannot say.
        """
        raise NotImplementedError(f"{type(self).__name__} does not judge passage relevance (ContextualPrecision)")

    def reads(self, metric: str) -> tuple[Reads, ...]:
        """The spaCy features this judge reads for a metric (data for the planner); default: none."""
        return ()

    # -- used by the LLM path (llm.py, running.py, pairwise.py); the offline judge keeps these defaults ---------------
    reports_usage: bool = False
    """Whether results carry the judge's token usage (the LLM judge: True)."""
    writes_reasons: bool = False
    """Whether ``reason`` writes its own explanation (the LLM judge: one request); else metrics compose it."""

    def reason(self, query: str, score: float, verdicts: Sequence[tuple[str, str, str]]) -> str:
        """A written reason for an AnswerRelevancy score from its (statement, verdict, reason); default: a template."""
        shown = [f"'{s}' ({v}: {r})" for s, v, r in verdicts if v != "yes"]
        return (f"The score is {score:.2f}: " + ("; ".join(shown) if shown else "every statement is relevant") + ".")

    def pairwise(self, criterion: str, cases: Sequence[PairCase]) -> list[tuple[Preferred, str]]:
        """For each (question, context, first, second): "first", "second" or "tie" on the criterion, and why.

        Default: the offline decision of ``offline_pairwise`` (the rubric level of the criterion's metric).
        """
        return offline_pairwise(self, criterion, cases)


def offline_metric(criterion: str) -> RubricName | None:
    """The metric the offline judge compares for a criterion (None: the offline judge cannot decide it)."""
    text = criterion.lower()
    return next((metric for words, metric in OFFLINE_CRITERIA if any(w in text for w in words)), None)


def offline_direction(criterion: str) -> int:
    """+1 if the criterion asks for more of its metric ("faithfulness", "fewer hallucinations"), -1 for less.

    The direction turns once for a failure word (``FAILURE_WORDS``: "hallucinates more") and once for each
    reversing word (``REVERSING_WORDS``: "less faithful"). A failure named without a reversing or comparing word
    ("hallucination") is ambiguous: ValueError, as the offline judge must not guess the direction.
    """
    text = criterion.lower()
    words = re.findall(r"[a-z]+", text)
    failure = any(re.search(rf"\b{re.escape(w)}", text) for w in FAILURE_WORDS)
    reversals = sum(w in REVERSING_WORDS for w in words)
    if failure and not reversals and not {"more", "most", "higher", "highest", "better"} & set(words):
        raise ValueError(f"the criterion {criterion!r} names a failure without saying which way is better: write "
                         "e.g. 'fewer hallucinations' (prefer the more faithful response) or 'hallucinates more'")
    return -1 if (failure + reversals) % 2 else 1


def offline_pairwise(judge: Judge, criterion: str, cases: Sequence[PairCase]) -> list[tuple[Preferred, str]]:
    """The better 1-5 level of the criterion's metric ("tie" on equal levels), one batched rubric call.

    The lower level is the better one when the criterion asks for less of the metric (``offline_direction``:
    "less faithful", "hallucinates more"). Faithfulness and context recall tie without context (undefined, not
    worse).
    """
    metric = offline_metric(criterion)
    if metric is None:
        raise ValueError(f"the offline judge cannot decide the criterion {criterion!r}: it compares faithfulness, "
                         "context recall or answer relevancy (name one of them in the criterion), or use judge='llm'")
    direction = offline_direction(criterion)
    lower = "" if direction > 0 else "; the lower level is better on this criterion"
    needs_context = metric != "answer_relevancy"

    def case(question: str | None, context: tuple[str, ...] | None, text: str) -> RubricCase:
        return RubricCase(text, reference=context) if needs_context else RubricCase(text, question=question)
    rubric_cases = list(dict.fromkeys(case(question, context, text) for question, context, first, second in cases
                                      if context or not needs_context for text in (first, second)))
    levels = dict(zip(rubric_cases, (j.level for j in judge.rubric(metric, rubric_cases)), strict=True))
    out: list[tuple[Preferred, str]] = []
    for question, context, first, second in cases:
        if needs_context and not context:
            out.append(("tie", f"no context to judge {metric} against"))
            continue
        a, b = (levels[case(question, context, text)] for text in (first, second))
        if a is None or b is None:  # the judge left a level undefined: no preference
            out.append(("tie", f"{metric} level {a} (A) vs {b} (B): undefined"))
            continue
        choice: Preferred = "first" if direction * (a - b) > 0 else "second" if direction * (b - a) > 0 else "tie"
        out.append((choice, f"{metric} level {a} (A) vs {b} (B){lower}"))
    return out
