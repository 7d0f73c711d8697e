"""The LLM judge's prompts: statement extraction, relevancy verdicts, and the three 1-5 RAG rubrics with debiasing.

Every prompt asks for one JSON object; ``parse_json`` reads it strictly.
"""

from __future__ import annotations

import json
import string
from collections.abc import Sequence
from typing import Literal

RubricName = Literal["faithfulness", "answer_relevancy", "context_recall"]
"""The three 1-5 judged RAG metrics of the specification."""
RUBRICS: tuple[RubricName, ...] = ("faithfulness", "answer_relevancy", "context_recall")

RAG_LENGTH_DEBIAS = (
    "## 重要：长度不是质量信号\n"
    "评分时聚焦内容实质，不要因输出更长就给更高分。\n"
    "简洁正确的回答与冗长正确的回答应得相同分数。"
)
"""The short length-debias paragraph, byte for byte as the specification quotes it (its three lines, nothing else)."""
RAG_LENGTH_DEBIAS_EN = (
    "(Important: length is not a quality signal. Judge the substance; do not give a higher score because the "
    "output is longer. A concise correct answer and a verbose correct answer get the same score.)"
)
"""Our addition, not the specification's: an English rendering of ``RAG_LENGTH_DEBIAS``, on the line after it."""
RAG_PRESENTATION_NEUTRALITY = (
    "## Presentation is neutral\n"
    "Formatting (bullet points, headings, bold text, citations markers), tone and style are not quality signals: "
    "score the same content the same way however it is presented."
)
"""Our text: the specification names RAG_PRESENTATION_NEUTRALITY but does not quote it."""
SPEC_RUBRIC_ANCHORS: dict[str, str] = {
    "faithfulness": "5 = 全部陈述都有 context 支持，无编造\n4 = 多数有支持，有 1-2 处不重要的编造\n3 = 一半有支持\n"
                    "2 = 多数无支持\n1 = 完全编造或与 context 矛盾",
    "answer_relevancy": "5 = 完整切题回答，无冗余无遗漏\n4 = 切题但有少量冗余或小遗漏\n"
                        "3 = 部分切题，部分跑题或避而不答\n2 = 大部分跑题\n1 = 完全跑题或拒答",
    "context_recall": "5 = 全部关键事实被覆盖\n4 = 大部分覆盖，缺 1-2 条次要事实\n3 = 一半覆盖\n"
                      "2 = 仅覆盖少量\n1 = 完全未覆盖",
}
"""The 1-5 anchors as the specification writes them (verbatim); ``RUBRIC_ANCHORS`` is our English translation."""

STATEMENT_EXTRACTION = (
    "You split a response into atomic statements. Each statement is one self-contained claim (resolve pronouns to "
    "what they refer to), in the order the response makes them; drop citation markers such as [1]. "
    'Answer with JSON only: {"statements": ["...", "..."]}.'
)
_VERDICT_MODES = {
    "task": "Answer \"yes\" when the statement addresses the query or gives closely related information that helps "
            "with it, \"no\" when it is off-topic, \"idk\" when its relevance is ambiguous.",
    "strict": "Answer \"yes\" only when the statement directly answers the query, \"no\" when it is off-topic or only "
              "related, \"idk\" when it is ambiguous.",
}
VERDICTS_TEMPLATE = (
    "You judge whether each statement of a response is relevant to the query. {mode} "
    "Give exactly one verdict per statement, in order. "
    'Answer with JSON only: {{"verdicts": [{{"verdict": "yes" | "no" | "idk", "reason": "..."}}, ...]}}.'
)
RUBRIC_ANCHORS: dict[RubricName, tuple[str, str]] = {  # ours: the question, and SPEC_RUBRIC_ANCHORS in English
    "faithfulness": (
        "Is the output supported by the given reference context?",
        "5 = every statement is supported by the context, nothing fabricated\n"
        "4 = mostly supported, 1-2 unimportant fabrications\n"
        "3 = about half supported\n"
        "2 = mostly unsupported\n"
        "1 = entirely fabricated or contradicts the context",
    ),
    "answer_relevancy": (
        "Does the output answer the input question?",
        "5 = answers the question completely and on topic, nothing redundant, nothing missing\n"
        "4 = on topic with a little redundancy or a small omission\n"
        "3 = partly on topic, partly off topic or evasive\n"
        "2 = mostly off topic\n"
        "1 = entirely off topic or a refusal",
    ),
    "context_recall": (
        "Are the given reference facts used in the output?",
        "5 = every key fact is covered\n"
        "4 = most are covered, 1-2 minor facts missing\n"
        "3 = about half are covered\n"
        "2 = only a few are covered\n"
        "1 = none is covered",
    ),
}
RUBRIC_TEMPLATE = (
    "You are a strict evaluator of a retrieval-augmented generation output. {question} Score it on this 1-5 scale:\n"
    "{anchors}\n\n{debias}\n\n{neutrality}\n\n"
    'Answer with JSON only: {{"score": <integer 1-5>, "reason": "<one or two sentences>"}}.'
)


def extraction_messages(text: str) -> list[dict[str, str]]:
    """Chat messages asking for the atomic statements of a response."""
    return [{"role": "system", "content": STATEMENT_EXTRACTION}, {"role": "user", "content": f"Response:\n{text}"}]


def verdict_messages(query: str, statements: Sequence[str], mode: str) -> list[dict[str, str]]:
    """Chat messages asking for one yes/no/idk verdict per statement, in ``task`` or ``strict`` mode."""
    system = VERDICTS_TEMPLATE.format(mode=_VERDICT_MODES[mode])
    user = f"Query:\n{query}\n\nStatements:\n{json.dumps(list(statements), ensure_ascii=False)}"
    return [{"role": "system", "content": system}, {"role": "user", "content": user}]


def rubric_messages(metric: RubricName, output: str, question: str | None = None,
                    reference: str | Sequence[str] | None = None) -> list[dict[str, str]]:
    """Chat messages asking for one 1-5 level of ``metric``, always with the debias and neutrality paragraphs."""
    goal, anchors = RUBRIC_ANCHORS[metric]
    system = RUBRIC_TEMPLATE.format(question=goal, anchors=anchors,
                                    debias=f"{RAG_LENGTH_DEBIAS}\n{RAG_LENGTH_DEBIAS_EN}",
                                    neutrality=RAG_PRESENTATION_NEUTRALITY)
    parts = [f"Question:\n{question}"] if question is not None else []
    if reference is not None:
        label = "Context" if metric == "faithfulness" else "Reference facts"
        body = reference if isinstance(reference, str) else "\n".join(f"- {r}" for r in reference)
        parts.append(f"{label}:\n{body}")
    parts.append(f"Output:\n{output}")
    return [{"role": "system", "content": system}, {"role": "user", "content": "\n\n".join(parts)}]


# -- pairwise preferences, written reasons and custom templates (LLM judge) --------------------------------------
PAIRWISE_SYSTEM = (
    "You compare two responses to the same question on ONE criterion only: {criterion}. Ignore every other quality "
    "(length, style, formatting, politeness) unless the criterion names it. Answer \"A\" if response A satisfies the "
    "criterion better, \"B\" if response B does, \"tie\" if neither does better.\n\n{neutrality}\n\n"
    'Answer with JSON only: {{"preferred": "A" | "B" | "tie", "reason": "<one sentence>"}}.'
)
"""The pairwise prompt: one named criterion, A/B/tie; the presentation-neutrality paragraph."""
REASON_SYSTEM = (
    "You explain an answer-relevancy score in one or two sentences: say why the score is what it is, naming the "
    "irrelevant or ambiguous statements if there are any. Do not change the score. "
    'Answer with JSON only: {"reason": "..."}.'
)
"""The prompt of AnswerRelevancy's written reason (``include_reason=True``)."""


def pairwise_messages(criterion: str, first: str, second: str, question: str | None = None,
                      context: str | Sequence[str] | None = None) -> list[dict[str, str]]:
    """Chat messages asking which of responses A (``first``) and B (``second``) better satisfies ``criterion``."""
    system = PAIRWISE_SYSTEM.format(criterion=criterion, neutrality=RAG_PRESENTATION_NEUTRALITY)
    parts = [f"Question:\n{question}"] if question is not None else []
    if context:
        parts.append("Context:\n" + (context if isinstance(context, str) else "\n".join(f"- {c}" for c in context)))
    parts += [f"Response A:\n{first}", f"Response B:\n{second}"]
    return [{"role": "system", "content": system}, {"role": "user", "content": "\n\n".join(parts)}]


def reason_messages(query: str, score: float, verdicts: Sequence[tuple[str, str, str]]) -> list[dict[str, str]]:
    """Chat messages asking for a written reason of an AnswerRelevancy score from its (statement, verdict, reason)."""
    lines = [f"- [{verdict}] {statement} ({reason})" for statement, verdict, reason in verdicts]
    user = f"Query:\n{query}\n\nScore: {score:.2f}\n\nStatements with verdicts:\n" + "\n".join(lines)
    return [{"role": "system", "content": REASON_SYSTEM}, {"role": "user", "content": user}]


ATTRIBUTION_SYSTEM = (
    "You check which statements of a reference answer can be attributed to the retrieved context. Split the "
    "reference answer into self-contained statements, in order (resolve pronouns); for each, answer \"yes\" if "
    "the context supports it and \"no\" if it does not. "
    'Answer with JSON only: {"verdicts": [{"statement": "...", "verdict": "yes" | "no", "reason": "..."}, ...]}.'
)
"""ContextualRecall's prompt (RAGAS / DeepEval context recall): is the reference answer found in the context?"""
NODE_RELEVANCE_SYSTEM = (
    "You judge each retrieved passage, in the order given: \"yes\" if it is useful to arrive at the expected answer "
    "to the question, \"no\" if it is not. Give exactly one verdict per passage, in order. "
    'Answer with JSON only: {"verdicts": [{"verdict": "yes" | "no", "reason": "..."}, ...]}.'
)
"""ContextualPrecision's prompt (RAGAS / DeepEval context precision): which ranked passages are relevant?"""


def attribution_messages(answer: str, passages: Sequence[str]) -> list[dict[str, str]]:
    """Chat messages asking which statements of a reference answer the passages support."""
    context = "\n".join(f"- {p}" for p in passages)
    return [{"role": "system", "content": ATTRIBUTION_SYSTEM},
            {"role": "user", "content": f"Reference answer:\n{answer}\n\nContext:\n{context}"}]


def node_relevance_messages(question: str, answer: str, passages: Sequence[str]) -> list[dict[str, str]]:
    """Chat messages asking, per ranked passage, whether it helps to arrive at the expected answer."""
    user = (f"Question:\n{question}\n\nExpected answer:\n{answer}\n\nPassages:\n"
            f"{json.dumps(list(passages), ensure_ascii=False)}")
    return [{"role": "system", "content": NODE_RELEVANCE_SYSTEM}, {"role": "user", "content": user}]


TEMPLATE_FIELDS: dict[str, tuple[frozenset[str], frozenset[str], str]] = {
    "statements": (frozenset({"response"}), frozenset({"response"}), "statements"),
    "verdicts": (frozenset({"query", "statements"}), frozenset({"query", "statements"}), "verdicts"),
    "faithfulness": (frozenset({"output", "reference"}), frozenset({"output", "reference", "question"}), "score"),
    "answer_relevancy": (frozenset({"output", "question"}), frozenset({"output", "question", "reference"}), "score"),
    "context_recall": (frozenset({"output", "reference"}), frozenset({"output", "reference", "question"}), "score"),
    "pairwise": (frozenset({"criterion", "first", "second"}),
                 frozenset({"criterion", "first", "second", "question", "context"}), "preferred"),
    "reason": (frozenset({"query", "score", "statements"}), frozenset({"query", "score", "statements"}), "reason"),
}
"""Custom template task -> (required placeholders, allowed placeholders, the JSON key the answer must have)."""


def check_template(task: str, template: str) -> str:
    """The template if its placeholders fit the task and it names the answer's JSON key; ValueError naming the fault.

    Placeholders are ``{name}`` (no positions, attributes, indexes, conversions or format specs); literal braces are
    doubled (``{{"score": 3}}``).
    """
    if task not in TEMPLATE_FIELDS:
        raise ValueError(f"prompt template for unknown task {task!r}; tasks: {', '.join(TEMPLATE_FIELDS)}")
    if not isinstance(template, str) or not template.strip():
        raise ValueError(f"prompt template {task!r} must be a non-empty string, got {template!r:.80}")
    required, allowed, key = TEMPLATE_FIELDS[task]
    try:
        fields = list(string.Formatter().parse(template))
    except ValueError as error:
        raise ValueError(f"prompt template {task!r}: {error} (write literal braces as {{{{ and }}}})") from None
    used = set()
    for _, name, spec, conversion in fields:
        if name is None:
            continue
        if not name.isidentifier() or spec or conversion:
            raise ValueError(f"prompt template {task!r}: placeholder {{{name}{'!' + conversion if conversion else ''}"
                             f"{':' + spec if spec else ''}}} is not a plain {{name}}; allowed: "
                             f"{', '.join(sorted(allowed))}")
        used.add(name)
    if used - allowed:
        raise ValueError(f"prompt template {task!r}: unknown placeholder(s) {sorted(used - allowed)}; allowed: "
                         f"{', '.join(sorted(allowed))}")
    if required - used:
        raise ValueError(f"prompt template {task!r}: missing placeholder(s) {sorted(required - used)}")
    if f'"{key}"' not in template.format(**dict.fromkeys(used, "")):
        raise ValueError(f'prompt template {task!r} must ask for JSON with the key "{key}" (write it as "{key}" '
                         f"in the template)")
    return template


RAG_PARAGRAPHS = f"{RAG_LENGTH_DEBIAS}\n{RAG_LENGTH_DEBIAS_EN}\n\n{RAG_PRESENTATION_NEUTRALITY}"
"""The paragraphs every RAG rubric prompt carries (the specification: "恒含", always), custom templates included."""


def template_messages(template: str, task: str | None = None, **values: str) -> list[dict[str, str]]:
    """A checked custom template filled in, as one user message.

    A RAG rubric's template (faithfulness, answer_relevancy, context_recall) is followed by each of the
    length-debias paragraph (with its English line) and the neutrality paragraph that it does not already have (both:
    ``RAG_PARAGRAPHS``): the specification keeps them in every RAG prompt, a custom template cannot switch them off,
    and none is said twice.
    """
    content = template.format(**values)
    if task in RUBRICS:
        missing = [paragraph for present, paragraph in (
            (RAG_LENGTH_DEBIAS, f"{RAG_LENGTH_DEBIAS}\n{RAG_LENGTH_DEBIAS_EN}"),
            (RAG_PRESENTATION_NEUTRALITY, RAG_PRESENTATION_NEUTRALITY)) if present not in template]
        content = "\n\n".join([content, *missing])
    return [{"role": "user", "content": content}]
