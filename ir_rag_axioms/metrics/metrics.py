"""AnswerRelevancy (statement verdicts) and the 1-5 judged Faithfulness, RubricAnswerRelevancy and ContextRecall.

Each metric is a frozen configuration with ``measure(...)`` for one observation and ``measure_many(...)`` for a batch
(one batched judge call per step). ``judge=None`` uses ``default_judge()``: an LLM judge when the environment
configures one, else the heuristic (offline) judge.
"""

from __future__ import annotations

import dataclasses
import math
import numbers
import warnings
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import ClassVar, Literal

from ir_rag_axioms.analysis.cache import max_text_chars
from ir_rag_axioms.metrics.dataset import DatasetItem
from ir_rag_axioms.metrics.interface import Judge, RelevancyMode, RubricCase, Statement
from ir_rag_axioms.metrics.llm import default_judge
from ir_rag_axioms.metrics.prompts import RubricName
from ir_rag_axioms.metrics.relevance import WORD
from ir_rag_axioms.metrics.results import (
    AnswerRelevancyResult,
    RubricJudgment,
    RubricResult,
    StatementVerdict,
    Usage,
    Verdict,
)
from ir_rag_axioms.metrics.running import (
    JudgedMetric,
    at_case,
    case_of,
    check_number,
    check_text,
    check_unicode,
    foreign_reasons,
    passages,
    with_usage,
)
from ir_rag_axioms.metrics.statements import foreign_script, has_statement_text

MultiTurnStrategy = Literal["last_turn", "all_turns"]
"""Conversations: evaluate the last user -> assistant exchange, or all of them (micro-averaged)."""
Conversation = Sequence[tuple[str, str]] | Sequence[Mapping[str, str]]
"""(role, content) messages or ``{"role": ..., "content": ...}`` dicts; roles ``user``/``human`` and
``assistant``/``ai``."""

_USER, _ASSISTANT = frozenset({"user", "human"}), frozenset({"assistant", "ai"})


class EvaluationMode(StrEnum):
    """The seed's detail level: GRANULAR keeps every statement's verdict and reason (the default).

    SUMMARY (our addition) keeps only the counts, score and explanation.
    """

    GRANULAR = "granular"
    SUMMARY = "summary"


def too_long(texts: Sequence[str], what: str, kind: str = "output") -> list[bool]:
    """Which texts (``kind``: what they are) are over the analysis limit (warned once, naming how many): NaN."""
    flags = [len(t) > max_text_chars() for t in texts]
    if any(flags):
        warnings.warn(f"{what}: {sum(flags)} {kind}(s) longer than {max_text_chars()} characters are not judged "
                      "(NaN, as the axioms abstain; set IR_RAG_AXIOMS_MAX_TEXT_CHARS to raise the limit)",
                      stacklevel=3)
    return flags


LONG_ANSWER, NO_QUERY = "long answer", "no query"
"""Why an AnswerRelevancy observation is not judged (NaN)."""
BLANK_ANSWER = "(blank answer)"
"""The statement of a blank answer among answered turns (``all_turns``): verdict "no", as it addresses nothing."""


def turns(conversation: Conversation, owner: str = "AnswerRelevancy") -> list[tuple[str, str]]:
    """The (user message, assistant answer) exchanges: each assistant message with the user message before it.

    A message is a (role, text) pair or a ``{"role": ..., "content": ...}`` dict (OpenAI's form). Anything else, a
    content that is not a text, an unknown role, an assistant message without a user message before it (first, or
    right after another assistant message) and a last user message without an answer are errors naming the metric,
    ``conversation`` and the message.
    """
    if isinstance(conversation, str | bytes | Mapping) or not isinstance(conversation, Iterable):
        raise TypeError(f"{owner}: conversation must be a list of (role, text) messages or {{'role': ..., 'content': "
                        f"...}} dicts, got {type(conversation).__name__} {conversation!r:.60}")
    messages = list(conversation)
    out: list[tuple[str, str]] = []
    question, previous = None, None
    for k, message in enumerate(messages):
        where = f"{owner}: conversation: message {k + 1} of {len(messages)}"
        role, content = _message(message, where)
        if role in _USER:
            question = content
        elif question is None:
            after = "right after another assistant message" if previous in _ASSISTANT else "before any user message"
            raise ValueError(f"{where} is an assistant message {after}: each answer needs the user message it answers")
        else:
            out.append((question, content))
            question = None
        previous = role
    if not out:
        raise ValueError(f"{owner}: conversation: no user -> assistant exchange to evaluate")
    if question is not None:
        raise ValueError(f"{owner}: conversation: message {len(messages)} of {len(messages)} is a user message with no "
                         "answer after it: end the conversation with the assistant message to evaluate")
    return out


def _message(message: object, where: str) -> tuple[str, str]:
    """A message's role (lower case) and content; TypeError or ValueError naming the message (``where``) if bad."""
    if isinstance(message, Mapping) and {"role", "content"} <= set(message):
        role, content = message["role"], message["content"]
    elif isinstance(message, tuple | list) and len(message) == 2:
        role, content = message
    else:
        raise TypeError(f"{where} must be a (role, text) pair or a {{'role': ..., 'content': ...}} dict, got "
                        f"{type(message).__name__} {message!r:.60}")
    if not isinstance(role, str) or role.lower() not in _USER | _ASSISTANT:
        raise ValueError(f"{where}: unknown role {role!r:.40}; use 'user' and 'assistant' (drop system and tool "
                         "messages)")
    if not isinstance(content, str):
        missing = " (a missing value)" if content is None or (isinstance(content, float) and math.isnan(content)) \
            else ""
        raise TypeError(f"{where}: the content must be a text, got {type(content).__name__} {content!r:.40}{missing}")
    return role.lower(), content


def _quoted(statements: Sequence[str], limit: int = 3) -> str:
    """'a', 'b' and 'c' (at most ``limit`` quoted, then "and n more")."""
    shown = [f"'{s.rstrip('.')}'" for s in statements[:limit]]
    if len(statements) > limit:
        shown.append(f"{len(statements) - limit} more")
    return shown[0] if len(shown) == 1 else ", ".join(shown[:-1]) + " and " + shown[-1]


def explain_relevancy(score: float, breakdown: Sequence[StatementVerdict], query: str, penalize_ambiguity: bool,
                      strict_mode: bool, relevancy_mode: str = "task", asked: str | None = None) -> str:
    """A written explanation of an AnswerRelevancy score: which statements address the query (``asked``) and not."""
    on = [r.statement for r in breakdown if r.verdict == "yes"]
    off = [r.statement for r in breakdown if r.verdict == "no"]
    unsure = [r.statement for r in breakdown if r.verdict == "idk"]
    asked = asked or (f"the query '{query.strip().splitlines()[-1].rstrip('?')}?'" if query.strip() else "the query")
    base = "directly answer" if relevancy_mode == "strict" else "address"
    if not off and not unsure:
        because = (f"every statement of the response {_verb(base, 1)} {asked}" if len(on) > 1 else
                   f"the response's one statement {_verb(base, 1)} {asked}")
    elif not on and not off:  # only ambiguous statements: say what the score counts, not what is absent
        counted = "so the score counts it as 0" if penalize_ambiguity else "which the score counts"
        because = (f"{_quoted(unsure)} {'is' if len(unsure) == 1 else 'are'} only ambiguously relevant to {asked}, "
                   + (counted if len(unsure) == 1 else counted.replace("counts it", "counts them")))
    else:
        because = _mixed(on, off, unsure, asked, base, penalize_ambiguity)
    strict = " (strict mode: a score below 1 is 0)" if strict_mode and score < 1 else ""
    return f"The score is {score:.2f} because {because}{strict}."


def _verb(base: str, n: int) -> str:
    """The verb for n statements: "address" for several statements, "addresses" for one ("directly answers")."""
    return base if n != 1 else base + ("es" if base.endswith("s") else "s")


def _mixed(on: list[str], off: list[str], unsure: list[str], asked: str, base: str, penalize_ambiguity: bool) -> str:
    """The explanation of statements of several verdicts: those that address the query, while the others do not."""
    parts = [f"{_quoted(on)} {_verb(base, len(on))} {asked}" if on else f"no statement {_verb(base, 1)} {asked}"]
    if off:
        parts.append(f"{_quoted(off)} {'does' if len(off) == 1 else 'do'} not" + ("" if on else f" {base} it"))
    if unsure:
        counted = "so it counts as 0" if penalize_ambiguity else "which the score still counts"
        parts.append(f"{_quoted(unsure)} {'is' if len(unsure) == 1 else 'are'} only ambiguously relevant, "
                     f"{counted if len(unsure) == 1 else counted.replace('it counts', 'they count')}")
    return "; ".join(parts[:1]) + (", while " + "; ".join(parts[1:]) if len(parts) > 1 else "")


@dataclass(frozen=True, kw_only=True)
class AnswerRelevancy(JudgedMetric):
    """Share of an answer's statements relevant to the query: (yes + idk) / statements (idk 0 if penalised).

    A blank answer scores 0.0 and fails: it addresses nothing (DeepEval scores 1.0 there, since no statement is
    irrelevant). A non-blank answer in which the judge finds no statement, or one over the text limit, is not
    judged: NaN with the reason (and a warning for the limit).
    """

    relevancy_mode: RelevancyMode = "task"
    penalize_ambiguity: bool = False
    multi_turn_strategy: MultiTurnStrategy = "last_turn"
    window_size: int = 3
    """Multi-turn: how many previous user messages are judged with a turn's own (as DeepEval's ``window_size``;
    0: the turn's own message only). They resolve "its" in "What are its main uses?"."""
    mode: EvaluationMode | str = EvaluationMode.GRANULAR
    """GRANULAR: per-statement verdicts, reasons and turns in the result (the seed's default); SUMMARY: counts only."""
    threshold: float = 0.5
    judge: Judge | None = None
    name: ClassVar[str] = "answer_relevancy"

    def __post_init__(self) -> None:
        super().__post_init__()
        try:
            object.__setattr__(self, "mode", EvaluationMode(self.mode))
        except ValueError:
            raise ValueError(f"mode must be 'granular' or 'summary', got {self.mode!r}") from None
        if isinstance(self.window_size, bool) or not isinstance(self.window_size, int) or self.window_size < 0:
            raise ValueError(f"window_size must be an integer >= 0, got {self.window_size!r}")
        if self.relevancy_mode not in ("task", "strict"):
            raise ValueError(f"relevancy_mode must be 'task' or 'strict', got {self.relevancy_mode!r}")
        if self.multi_turn_strategy not in ("last_turn", "all_turns"):
            raise ValueError(f"multi_turn_strategy must be 'last_turn' or 'all_turns', got "
                             f"{self.multi_turn_strategy!r}")
        check_number(type(self).__name__, "threshold", self.threshold, 0, 1)

    def measure(self, query: str | None = None, answer: str | None = None, *,
                conversation: Conversation | None = None) -> AnswerRelevancyResult:
        """Score one answer to a query, or a conversation (``multi_turn_strategy`` picks the turns)."""
        if conversation is not None:
            if query is not None or answer is not None:
                raise TypeError("AnswerRelevancy.measure: give a query and an answer, or conversation=..., not both")
            exchanges = turns(conversation)
            first = len(exchanges) - 1 if self.multi_turn_strategy == "last_turn" else 0
            asked = [self._with_history(exchanges, k) for k in range(len(exchanges))]
            return self._log(self._score(asked[first:], first=first))[0]
        if query is None or answer is None:
            raise TypeError("AnswerRelevancy.measure needs a query and an answer, or conversation=[(role, text), ...]")
        return self.measure_many([(query, answer)])[0]

    def measure_many(self, cases: Sequence[tuple[str, str]]) -> list[AnswerRelevancyResult]:
        """Score many (query, answer) pairs with batched judge calls."""
        cases = list(cases)
        for k, case in enumerate(cases):
            if not isinstance(case, tuple | list) or len(case) != 2:
                raise TypeError(f"AnswerRelevancy.measure_many: case {k} must be a (query, answer) pair, got "
                                f"{case!r:.60}")
            check_text("AnswerRelevancy", query=case[0], answer=case[1])
        return self._log(self._score(cases, grouped=False))

    def measure_items(self, items: Sequence[DatasetItem]) -> list[AnswerRelevancyResult]:
        """Score ``DatasetItem``s: a conversation (``multi_turn_strategy``), else ``query`` and ``actual_output``."""
        out: dict[int, AnswerRelevancyResult] = {}
        single = []
        for k, item in enumerate(items):
            if item.conversation is not None:
                if item.query is not None or item.actual_output is not None:
                    raise ValueError(f"AnswerRelevancy: item {k} ({item.id!r}) gives a conversation and a query or "
                                     "actual_output: which to judge is ambiguous; give the conversation alone (its "
                                     "last answer is judged) or the query and actual_output alone")
                out[k] = self.measure(conversation=item.conversation.pairs())
            else:
                item.need("AnswerRelevancy", "query", "actual_output")
                single.append(k)
        pairs = [(items[k].query or "", items[k].actual_output or "") for k in single]
        for k, result in zip(single, self.measure_many(pairs), strict=True):
            out[k] = result
        return [out[k] for k in range(len(items))]

    @property
    def effective_threshold(self) -> float:
        """The threshold results use: 1.0 in ``strict_mode``, else ``threshold``."""
        return 1.0 if self.strict_mode else self.threshold

    def _with_history(self, exchanges: list[tuple[str, str]], k: int) -> tuple[str, str]:
        """Turn k's query with the ``window_size`` user messages before it, one per line (oldest first)."""
        history = [question for question, _ in exchanges[max(0, k - self.window_size): k]]
        return "\n".join([*history, exchanges[k][0]]), exchanges[k][1]

    def _score(self, exchanges: list[tuple[str, str]], grouped: bool = True, first: int = 0,
               cases: tuple[Sequence[int], int] | None = None) -> list[AnswerRelevancyResult]:
        """One result for all exchanges (``grouped``: turns micro-averaged, numbered from ``first``) or one each.

        ``cases``: the exchanges' positions among how many cases (for error messages; default: all of them).
        """
        judge = self.judge or default_judge()
        why = self._unjudged(exchanges, judge)
        if grouped and any(w not in (None, NO_QUERY) for w in why):  # a turn not judged: the conversation is not
            return [self._undefined(len(exchanges), judge.name, next(w for w in why if w not in (None, NO_QUERY)))]
        if grouped and all(w == NO_QUERY for w in why):
            return [self._undefined(len(exchanges), judge.name, NO_QUERY)]
        if not grouped and any(why):
            kept = [i for i, w in enumerate(why) if w is None]
            scored = iter(self._score([exchanges[i] for i in kept], False, 0, (kept, len(exchanges))) if kept else [])
            return [self._undefined(1, judge.name, w) if w else next(scored) for w in why]
        return self._judged(exchanges, judge, grouped, first, cases)

    def _unjudged(self, exchanges: list[tuple[str, str]], judge: Judge) -> list[str | None]:
        """Per exchange why it is not judged: a long answer, a blank query, another script (warned), else None."""
        long = too_long([answer for _, answer in exchanges], type(self).__name__)
        why: list[str | None] = [LONG_ANSWER if flag else NO_QUERY if not has_statement_text(query) else None
                                 for (query, _), flag in zip(exchanges, long, strict=True)]
        readable = [k for k, w in enumerate(why) if w is None]
        for k, reason in zip(readable, foreign_reasons(judge, type(self).__name__, [
                {"answer": [exchanges[k][1]], "query": [exchanges[k][0]]} for k in readable]), strict=True):
            why[k] = reason
        return why

    def _judged(self, exchanges: list[tuple[str, str]], judge: Judge, grouped: bool, first: int,
                cases: tuple[Sequence[int], int] | None) -> list[AnswerRelevancyResult]:
        """The judge's statements and verdicts for the exchanges, as one result (``grouped``) or one each."""
        def ask() -> list[list[tuple[Verdict, str]]]:
            found = [_once(f) for f in judge.statements([answer for _, answer in exchanges])]
            statements.extend(found)
            return judge.verdicts([(q, s) for (q, _), s in zip(exchanges, found, strict=True)], self.relevancy_mode)

        statements: list = []
        asked, count = cases or (range(first, first + len(exchanges)), first + len(exchanges))
        with case_of(asked, count, type(self).__name__, "turn" if grouped else "case"):
            verdicts, usages = with_usage(judge, 1 if grouped else len(exchanges), ask)
        idk_counts = not self.penalize_ambiguity
        rows = [[StatementVerdict(s.text, v, reason, turn, idk_counts) for s, (v, reason) in
                 zip(found, judged, strict=True)]
                for turn, (found, judged) in enumerate(zip(statements, verdicts, strict=True), start=first)]
        blank = all(not a.strip() for _, a in exchanges)
        if grouped:  # a blank answer among answered turns: one statement that addresses nothing (as a blank answer)
            rows = [row or [StatementVerdict(BLANK_ANSWER, "no", "the answer is blank: it addresses nothing", turn,
                                             idk_counts)] if not a.strip() and not blank else row
                    for turn, (row, (_, a)) in enumerate(zip(rows, exchanges, strict=True), start=first)]
            return [self._result([r for row in rows for r in row], len(exchanges), judge, exchanges[-1][0],
                                 usages[0], blank=blank, answer_text=exchanges[-1][1],
                                 asked="its turn's question" if len(exchanges) > 1 else None)]
        return [self._result([dataclasses.replace(r, turn_index=0) for r in row], 1, judge, query, usage,
                             blank=not answer.strip(), answer_text=answer)
                for row, (query, answer), usage in zip(rows, exchanges, usages, strict=True)]

    def _undefined(self, turns_count: int, judge: str, why: str) -> AnswerRelevancyResult:
        explanation = (f"Not judged: an answer is longer than {max_text_chars()} characters (NaN)."
                       if why == LONG_ANSWER else "Not judged: the query is blank (no letter or digit); no statement "
                       "can address it (NaN)."
                       if why == NO_QUERY else f"Not judged: {why.removeprefix('undefined: ')} (NaN).")
        return AnswerRelevancyResult(score=math.nan, passed=None, threshold=self.effective_threshold,
                                     explanation=explanation, statement_breakdown=(), evaluated_turns_count=turns_count,
                                     judge=judge, reason=explanation if self.include_reason else None)

    def _result(self, breakdown: list[StatementVerdict], turns_count: int, judge: Judge, query: str,
                usage: Usage | None, blank: bool, answer_text: str = "", asked: str | None = None
                ) -> AnswerRelevancyResult:
        """The score, strict mode, the explanation and (``include_reason``) the written reason of one result.

        No statements: a blank answer scores 0.0 (it addresses nothing; DeepEval scores 1, as no statement is
        irrelevant); a non-blank answer in which the judge finds no statement is undefined, NaN with the reason (the
        judge could not read it: 0 would report it as the worst answer).
        """
        yes = sum(r.verdict == "yes" for r in breakdown)
        idk = sum(r.verdict == "idk" for r in breakdown)
        counted = yes + (0 if self.penalize_ambiguity else idk)
        threshold = self.effective_threshold
        if not breakdown:
            blank_text = ("The score is 0.00 because the answer is blank (no statements): it addresses nothing "
                          "(DeepEval scores 1 here, as no statement is irrelevant).")
            unread_text = (f"The score is undefined (NaN) because the judge ({judge.name}) found no statements in "
                           "the answer: nothing to judge relevant or irrelevant." + (
                               " The answer is mostly in a script other than Latin; the heuristic judge reads "
                               "English (use an LLM judge)." if foreign_script(query + " " + answer_text) else ""))
            score, explanation = (0.0, blank_text) if blank else (math.nan, unread_text)
            return AnswerRelevancyResult(score=score, passed=False if blank else None, threshold=threshold,
                                         explanation=explanation,
                                         statement_breakdown=(), evaluated_turns_count=turns_count,
                                         judge=judge.name, counts=(0, 0, 0, 0),
                                         reason=explanation if self.include_reason else None, usage=usage)
        score = counted / len(breakdown)
        if self.strict_mode and score < threshold:
            score = 0.0
        explanation = explain_relevancy(score, breakdown, query, self.penalize_ambiguity, self.strict_mode,
                                        self.relevancy_mode, asked)
        reason = None
        if self.include_reason and judge.writes_reasons:
            triples = [(r.statement, r.verdict, r.reason) for r in breakdown]
            reasons, extra = with_usage(judge, 1, lambda: [judge.reason(query, score, triples)])
            reason = explanation = reasons[0]
            if usage is not None and extra[0] is not None:
                usage += extra[0]
        elif self.include_reason:
            reason = explanation
        counts = (yes, len(breakdown) - yes - idk, idk, len(breakdown))
        kept = tuple(breakdown) if self.mode is EvaluationMode.GRANULAR else ()
        return AnswerRelevancyResult(score=score, passed=score >= threshold, threshold=threshold,
                                     explanation=explanation, statement_breakdown=kept,
                                     evaluated_turns_count=turns_count, judge=judge.name, counts=counts,
                                     reason=reason, usage=usage)


def _once(found: Sequence[Statement]) -> list[Statement]:
    """Each statement once: one said again (the same words of its resolved text, case aside) is not counted again."""
    seen: dict[tuple[str, ...], Statement] = {}
    keys = [tuple(WORD.findall(st.matched_text.lower())) for st in found]
    return [seen.setdefault(key, st) for key, st in zip(keys, found, strict=True) if key not in seen]


@dataclass(frozen=True, kw_only=True)
class RubricMetric(JudgedMetric):
    """A 1-5 judged RAG metric: one judge call per observation; passed = level >= threshold (inverted if negated)."""

    threshold: int = 3
    negate: bool = False
    judge: Judge | None = None
    name: ClassVar[str] = ""
    rubric: ClassVar[RubricName]

    def __post_init__(self) -> None:
        super().__post_init__()
        level = self.threshold
        if isinstance(level, bool) or not isinstance(level, numbers.Real) or not float(level).is_integer() \
                or not 1 <= level <= 5:  # a numpy integer or a whole float (3.0) is its level; NaN and 3.5 are not
            raise ValueError(f"{type(self).__name__}: threshold must be an integer level 1-5, got {level!r}")
        object.__setattr__(self, "threshold", int(level))

    needs_reference: ClassVar[str] = ""
    """What an observation is undefined without ("context", "reference facts"; "" for none)."""

    @property
    def effective_threshold(self) -> int:
        """The level results pass from: 5 in ``strict_mode``, else ``threshold``."""
        return 5 if self.strict_mode else self.threshold

    def measure_cases(self, cases: Sequence[RubricCase]) -> list[RubricResult]:
        """Judge many observations (one batched judge call).

        Undefined ones (no context or reference, an output over the text limit) are not sent to the judge and come
        back with level None (score NaN, passed None).
        """
        judge, cases = self.judge or default_judge(), list(cases)
        long = too_long([c.output for c in cases], type(self).__name__)
        long_reference = too_long_reference([c.reference for c in cases], type(self).__name__)
        why = [self._unjudged(c, flag, flag_reference)
               for c, flag, flag_reference in zip(cases, long, long_reference, strict=True)]
        blank = [w is None and not c.output.strip() for c, w in zip(cases, why, strict=True)]
        positions = [k for k, (w, b) in enumerate(zip(why, blank, strict=True)) if w is None and not b]
        foreign = foreign_reasons(judge, type(self).__name__, [self._parts(cases[k]) for k in positions])
        for k, reason in zip(positions, foreign, strict=True):
            why[k] = reason
        positions = [k for k, r in zip(positions, foreign, strict=True) if r is None]
        asked = [cases[k] for k in positions]
        with case_of(positions, len(cases), type(self).__name__):
            found, found_usage = with_usage(judge, len(asked),
                                            lambda: judge.rubric(self.rubric, asked) if asked else [])
        judged, usages = iter(found), iter(found_usage)
        threshold = self.effective_threshold
        out = []
        for reason, empty in zip(why, blank, strict=True):
            if empty:  # no judge is asked: the level follows from the rubric (the same with every judge)
                j, usage = self._blank(), None
            else:
                j, usage = (RubricJudgment(None, reason, ()), None) if reason else (next(judged), next(usages))
            out.append(RubricResult(metric=self.name, level=j.level, threshold=threshold, negated=self.negate,
                                    explanation=j.reason, judge=judge.name, breakdown=j.details,
                                    confidence=j.confidence, reason=j.reason if self.include_reason else None,
                                    strict=self.strict_mode, usage=usage))
        return self._log(out)

    def _unjudged(self, case: RubricCase, long: bool, long_reference: bool) -> str | None:
        """Why a case is not sent to the judge: a text over the limit, no context or reference, no question."""
        if long:
            return f"undefined: the output is longer than {max_text_chars()} characters (not judged)"
        if long_reference:
            return (f"undefined: a text of the {self.needs_reference} is longer than {max_text_chars()} characters "
                    "(not judged)")
        if self.needs_reference and not _has_text(case.reference):
            return f"undefined: no {self.needs_reference} to judge against"
        if self.rubric == "answer_relevancy" and not has_statement_text(case.question or ""):
            return "undefined: the question is blank (no letter or digit: nothing to answer)"
        return None

    def _parts(self, case: RubricCase) -> dict[str, Sequence[str]]:
        """The texts of a case by part name (the output, the question, the context or reference facts)."""
        reference = case.reference
        return {"output": [case.output], "question": [case.question or ""],
                self.needs_reference or "reference": [reference] if isinstance(reference, str) else reference or []}

    def _blank(self) -> RubricJudgment:
        """The judgment of a blank output, asked of no judge: Faithfulness undefined (no claim), else level 1."""
        if self.rubric == "faithfulness":
            return RubricJudgment(None, "undefined: the output is blank (no claim to check)", (), 0.0)
        what = "it uses none of the reference facts" if self.rubric == "context_recall" else "it answers nothing"
        return RubricJudgment(1, f"the output is blank: {what} -> level 1", (), 1.0)


def too_long_reference(references: Sequence[str | tuple[str, ...] | None], owner: str) -> list[bool]:
    """Which cases have a context or reference text over the analysis limit (warned once); they are not judged."""
    flags = [any(len(r) > max_text_chars() for r in ((ref,) if isinstance(ref, str) else ref or ()))
             for ref in references]
    if any(flags):
        warnings.warn(f"{owner}: {sum(flags)} case(s) with a context or reference text longer than {max_text_chars()} "
                      "characters are not judged (NaN; set IR_RAG_AXIOMS_MAX_TEXT_CHARS to raise the limit, or split "
                      "the passage)", stacklevel=3)
    return flags


def _has_text(reference: str | tuple[str, ...] | None) -> bool:
    """Whether a context or reference has any text with a letter or digit (punctuation alone is blank)."""
    if reference is None:
        return False
    return has_statement_text(reference) if isinstance(reference, str) else any(
        has_statement_text(str(r)) for r in reference)


def as_reference(value: str | Sequence[str] | None, owner: str = "") -> str | tuple[str, ...] | None:
    """A context or reference as a text or a tuple of passages (facts); None stays None (the result is undefined).

    TypeError naming the type for anything else (a number, a mapping) and the position of a passage that is not a
    text (None or NaN: a missing value).
    """
    if isinstance(value, str):
        check_unicode(value, f"{owner}: context or reference" if owner else "context or reference")
    if value is None or isinstance(value, str):
        return value
    return passages(value, owner, "context or reference")


def _cases(cases: Sequence[tuple[str, str | Sequence[str] | None]], owner: str) -> list[RubricCase]:
    """RubricCases of (answer, context or reference) pairs; bad input names the metric and the case."""
    cases = list(cases)
    out = []
    for k, (answer, context) in enumerate(cases):
        with at_case(k, len(cases), owner):
            check_text(owner, answer=answer)
            out.append(RubricCase(answer, reference=as_reference(context, owner)))
    return out


@dataclass(frozen=True, kw_only=True)
class Faithfulness(RubricMetric):
    """Is the answer supported by the given context (a text or a list of passages)? 5 = all supported."""

    name: ClassVar[str] = "faithfulness"
    rubric: ClassVar[RubricName] = "faithfulness"
    needs_reference: ClassVar[str] = "context"

    def measure(self, answer: str, context: str | Sequence[str] | None) -> RubricResult:
        """Judge one answer against its context (None or empty: undefined, level None and NaN with the reason)."""
        check_text("Faithfulness", answer=answer)
        return self.measure_many([(answer, context)])[0]

    def measure_many(self, cases: Sequence[tuple[str, str | Sequence[str] | None]]) -> list[RubricResult]:
        """Judge many (answer, context) pairs."""
        return self.measure_cases(_cases(cases, "Faithfulness"))

    def measure_items(self, items: Sequence[DatasetItem]) -> list[RubricResult]:
        """Judge ``DatasetItem``s: ``actual_output`` against ``retrieved_content``."""
        for item in items:
            item.need("Faithfulness", "actual_output", "retrieved_content")
        return self.measure_many([(i.actual_output or "", list(i.retrieved_content or ())) for i in items])


@dataclass(frozen=True, kw_only=True)
class ContextRecall(RubricMetric):
    """Are the given reference facts used in the answer? 5 = all covered.

    The facts: a list's items, or a text split as the specification writes them ("fact one; fact two; fact
    three": at ';' and line breaks, then into statements).
    """

    name: ClassVar[str] = "context_recall"
    rubric: ClassVar[RubricName] = "context_recall"
    needs_reference: ClassVar[str] = "reference facts"

    def measure(self, answer: str, reference: str | Sequence[str] | None) -> RubricResult:
        """Judge one answer against its reference facts (None or empty: undefined, level None and NaN with why)."""
        check_text("ContextRecall", answer=answer)
        return self.measure_many([(answer, reference)])[0]

    def measure_many(self, cases: Sequence[tuple[str, str | Sequence[str] | None]]) -> list[RubricResult]:
        """Judge many (answer, reference) pairs."""
        return self.measure_cases(_cases(cases, "ContextRecall"))

    def measure_items(self, items: Sequence[DatasetItem]) -> list[RubricResult]:
        """Judge ``DatasetItem``s: ``actual_output`` against ``reference`` (else the ``retrieved_content``)."""
        for item in items:
            item.need("ContextRecall", "actual_output")
            if item.reference is None and item.retrieved_content is None:
                raise ValueError(f"ContextRecall: {item.label()} needs the DatasetItem field reference (or "
                                 "retrieved_content)")
        return self.measure_many([(i.actual_output or "", i.reference if i.reference is not None else
                                   list(i.retrieved_content or ())) for i in items])


@dataclass(frozen=True, kw_only=True)
class RubricAnswerRelevancy(RubricMetric):
    """Does the answer answer the question? 5 = completely and on topic, 1 = off topic or a refusal."""

    name: ClassVar[str] = "rubric_answer_relevancy"
    rubric: ClassVar[RubricName] = "answer_relevancy"

    def measure(self, query: str, answer: str) -> RubricResult:
        """Judge one answer to a query."""
        return self.measure_many([(query, answer)])[0]

    def measure_many(self, cases: Sequence[tuple[str, str]]) -> list[RubricResult]:
        """Judge many (query, answer) pairs."""
        cases = list(cases)
        for k, (query, answer) in enumerate(cases):
            with at_case(k, len(cases), "RubricAnswerRelevancy"):
                check_text("RubricAnswerRelevancy", query=query, answer=answer)
        return self.measure_cases([RubricCase(answer, question=query) for query, answer in cases])

    def measure_items(self, items: Sequence[DatasetItem]) -> list[RubricResult]:
        """Judge ``DatasetItem``s: ``actual_output`` for ``query``."""
        for item in items:
            item.need("RubricAnswerRelevancy", "query", "actual_output")
        return self.measure_many([(i.query or "", i.actual_output or "") for i in items])
