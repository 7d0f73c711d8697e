"""The heuristic judge and the LLM judge path on hand-written contradictions, paraphrases, refusals, evasions, recall.

Each offline metric must be right on at least 90 % of the cases of each kind (``tests/data/contradictions.json``).
The LLM judge path (``LlmJudge``: prompts, HTTP client, JSON reading, scoring) must be right on every case against a
loopback server that plays a correct judge: it recognises the task and the case from the prompt and answers what the
case's expected outcome says. The per-kind table of both paths is printed side by side (``pytest -s``). Also:
undefined observations are NaN, never the worst level.
"""

from __future__ import annotations

import functools
import json
import math
import re
import threading
import warnings
from collections import defaultdict
from pathlib import Path
from typing import Any

import pytest
from conftest import JsonHandler, loopback_server
from test_metrics_llm import SHAPES, completion

from ir_rag_axioms.metrics import AnswerRelevancy, ContextRecall, Faithfulness, LlmJudge, RubricAnswerRelevancy
from ir_rag_axioms.metrics.judges import HeuristicJudge, Judge
from ir_rag_axioms.metrics.prompts import RUBRIC_ANCHORS

CHECKS = HeuristicJudge(verified=False)
"""The checks alone (the verifier's signals): their verdicts on the crafted cases and their development figures
(the verifier that reads them: tests/test_verifier.py)."""
CHECKED = Faithfulness(judge=CHECKS)
CASES = json.loads((Path(__file__).parent / "data" / "contradictions.json").read_text())["cases"]


@pytest.fixture(autouse=True)
def _offline(monkeypatch):
    for name in ("IR_RAG_AXIOMS_JUDGE_BASE_URL", "OPENAI_BASE_URL", "IR_RAG_AXIOMS_JUDGE_MODEL", "OPENAI_MODEL"):
        monkeypatch.delenv(name, raising=False)


Outcomes = dict[tuple[str, str], list[tuple[bool, str]]]


def outcomes(judge: Judge | None = None) -> Outcomes:
    """(kind, metric) -> [(right, what happened)] over every case and every metric it has an expectation for.

    ``judge=None``: the heuristic judge (no LLM judge is configured here), its Faithfulness on the checks alone.
    """
    out: dict[tuple[str, str], list[tuple[bool, str]]] = defaultdict(list)
    by_metric: dict[str, list[dict]] = defaultdict(list)
    for case in CASES:
        for metric in case["expected"]:
            by_metric[metric].append(case)
    def answers(cs: list[dict], other: str) -> list[tuple[str, Any]]:
        return [(c["answer"], [c["context"]] if other == "context" else c[other]) for c in cs]

    def queries(cs: list[dict]) -> list[tuple[str, str]]:
        return [(c["query"], c["answer"]) for c in cs]

    runs = {
        "faithfulness": lambda cs: Faithfulness(judge=judge or CHECKS).measure_many(answers(cs, "context")),
        "context_recall": lambda cs: ContextRecall(judge=judge).measure_many(answers(cs, "context")),
        "context_recall_level": lambda cs: ContextRecall(judge=judge).measure_many(answers(cs, "reference")),
        "answer_relevancy": lambda cs: AnswerRelevancy(judge=judge).measure_many(queries(cs)),
        "rubric_answer_relevancy": lambda cs: RubricAnswerRelevancy(judge=judge).measure_many(queries(cs)),
    }
    for metric, cases in by_metric.items():
        for case, result in zip(cases, runs[metric](cases), strict=True):
            expected = case["expected"][metric]
            if metric == "context_recall_level":
                right = result.level == expected
            else:
                right = result.passed == expected
                if metric == "faithfulness" and "reason" in case:
                    right = right and case["reason"] in result.explanation
            out[(case["kind"], metric)].append((right, f"{case['answer']!r}: {result.explanation}"))
    return out


@functools.cache
def offline_outcomes() -> Outcomes:
    """The outcomes of the default (heuristic) judge, computed once for both tests that show them."""
    return outcomes()


def _share(rows: list[tuple[bool, str]]) -> str:
    right = sum(r for r, _ in rows)
    return f"{right}/{len(rows)} ({right / len(rows):.0%})"


def table(**paths: Outcomes) -> str:
    """The per-kind table: one row per (kind, metric), one column per judge path."""
    first = next(iter(paths.values()))
    lines = [f"{'kind':<22} {'metric':<24} " + " ".join(f"{name:<16}" for name in paths), "-" * (47 + 17 * len(paths))]
    lines += [f"{kind:<22} {metric:<24} " + " ".join(f"{_share(found[(kind, metric)]):<16}" for found in paths.values())
              for kind, metric in sorted(first)]
    return "\n".join(lines)


KNOWN_MISSES = {("partial_recall", "context_recall_level"): "'The Moon orbits the Earth, and the Earth orbits the Sun."}
"""(kind, metric) -> the start of a case's outcome that is known wrong, left out of its kind's 90 %: ContextRecall's
verifier credits "The Sun is a star." to "... the Earth orbits the Sun." (P(supported) 0.63; docs/metrics.md)."""


def test_each_metric_is_right_on_90_percent_of_each_kind():
    found = offline_outcomes()
    print("\n" + table(offline=found))
    for key, start in KNOWN_MISSES.items():  # strict: a known miss that is now right is to be taken off the list
        assert [r for r, what in found[key] if what.startswith(start)] == [False], found[key]
        found = {**found, key: [(r, what) for r, what in found[key] if not what.startswith(start)]}
    wrong = {key: [what for r, what in rows if not r] for key, rows in found.items()}
    below = {key: wrong[key] for key, rows in found.items() if sum(r for r, _ in rows) < 0.9 * len(rows)}
    assert not below, below
    assert len(CASES) >= 40 and {c["kind"] for c in CASES} >= {
        "entity_swap", "number_change", "date_change", "negation", "antonym", "comparative_flip",
        "superlative_flip", "faithful_paraphrase", "refusal", "evasion", "partial_recall"}


# -- the LLM judge path against a loopback server that plays a correct judge ---------------------------------------
_FIELD = re.compile(r"(Question|Context|Reference facts|Output):\n(.*?)(?=\n\n(?:Question|Context|Reference facts"
                    r"|Output):\n|\Z)", re.DOTALL)


def _sentences(text: str) -> list[str]:
    """The correct judge's statements of a response: its sentences."""
    return [s.strip() for s in re.split(r"(?<=[.!?])\s+", text) if s.strip()]


def _listed(reference: str | list[str]) -> str:
    """A context or reference as the rubric prompt writes it: a text as is, passages/facts as "- " lines."""
    return reference if isinstance(reference, str) else "\n".join(f"- {r}" for r in reference)


def _correct_answers() -> dict[tuple[str, ...], dict[str, Any]]:
    """(task, what identifies the case in the prompt...) -> the JSON a correct judge answers, from the expected labels.

    Faithfulness / ContextRecall / RubricAnswerRelevancy: level 5 where the case must pass, 1 where it must fail, the
    expected level for partial recall; a contradiction's reason names the case's reason. AnswerRelevancy: the answer's
    sentences as its statements, each "yes" where the case must pass and "no" where it must fail, and a written
    reason for the score 1.00 or 0.00 (``include_reason``).
    """
    answers: dict[tuple[str, ...], dict[str, Any]] = {}

    def add(key: tuple[str, ...], answer: dict[str, Any]) -> None:
        assert answers.setdefault(key, answer) == answer, f"two cases ask {key} with different answers"

    def level(passed: bool, why: str) -> dict[str, Any]:
        return {"score": 5, "reason": f"{why}: yes"} if passed else {"score": 1, "reason": f"{why}: no"}

    for case in CASES:
        expected, answer = case["expected"], case["answer"]
        if "faithfulness" in expected:
            reason = "every statement is supported by the context" if expected["faithfulness"] else \
                f"the output contradicts the context ({case.get('reason', case['kind'])})"
            add(("faithfulness", _listed([case["context"]]), answer),
                {"score": 5 if expected["faithfulness"] else 1, "reason": reason})
        if "context_recall" in expected:
            add(("context_recall", _listed([case["context"]]), answer),
                level(expected["context_recall"], "the reference fact is covered"))
        if "context_recall_level" in expected:
            add(("context_recall", _listed(case["reference"]), answer),
                {"score": expected["context_recall_level"], "reason": "the share of reference facts covered"})
        if "rubric_answer_relevancy" in expected:
            add(("answer_relevancy", case["query"], answer),
                level(expected["rubric_answer_relevancy"], "the output answers the question"))
        if "answer_relevancy" in expected:
            statements = _sentences(answer)
            add(("statements", answer), {"statements": statements})
            verdict = "yes" if expected["answer_relevancy"] else "no"
            add(("verdicts", case["query"], json.dumps(statements, ensure_ascii=False)), {"verdicts": [
                {"verdict": verdict, "reason": "answers the query" if expected["answer_relevancy"] else
                 "does not answer the query: a refusal or an evasion"} for _ in statements]})
            add(("reason", case["query"], "1.00" if expected["answer_relevancy"] else "0.00",
                 json.dumps([[verdict, s] for s in statements])),
                {"reason": "every statement answers the query" if expected["answer_relevancy"] else
                 "no statement answers the query"})
    return answers


def _request_key(messages: list[dict[str, str]]) -> tuple[str, ...]:
    """The task and the case a request of the project's prompts asks about (read from its system and user message)."""
    system, user = messages[0]["content"], messages[-1]["content"]
    if "atomic statements" in system:
        return "statements", user.removeprefix("Response:\n")
    if "relevant to the query" in system:
        query, statements = user.removeprefix("Query:\n").split("\n\nStatements:\n", 1)
        return "verdicts", query, statements
    if "explain an answer-relevancy score" in system:
        query, rest = user.removeprefix("Query:\n").split("\n\nScore: ", 1)
        score, lines = rest.split("\n\nStatements with verdicts:\n", 1)
        return "reason", query, score, json.dumps(re.findall(r"^- \[(\w+)\] (.*) \([^()]*\)$", lines, re.MULTILINE))
    fields = dict(_FIELD.findall(user))
    for metric, (question, _) in RUBRIC_ANCHORS.items():
        if question in system:
            what = fields.get("Question") if metric == "answer_relevancy" else \
                fields.get("Context" if metric == "faithfulness" else "Reference facts")
            return metric, what or "", fields.get("Output", "")
    return ("unknown task", system[:80])


class _CorrectJudge(JsonHandler):
    """Answers each chat completion as a correct judge (rotating through the vLLM, Ollama and llama.cpp shapes)."""

    answers: dict[tuple[str, ...], dict[str, Any]] = {}
    asked: list[tuple[str, ...]] = []
    lock = threading.Lock()

    def do_POST(self) -> None:
        body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        key = _request_key(body["messages"])
        with self.lock:
            self.asked.append(key)
            shape = SHAPES[len(self.asked) % len(SHAPES)]
        if key not in self.answers:  # a prompt that names no case: the client's error says which
            payload = json.dumps({"error": {"message": f"no case matches {key!r:.300}"}}).encode()
            self.send_response(400)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(payload)))
            self.end_headers()
            self.wfile.write(payload)
            return
        self.send_json(json.dumps(completion(shape, json.dumps(self.answers[key]))).encode())


@pytest.fixture(scope="module")
def llm_outcomes() -> tuple[Outcomes, list[tuple[str, ...]], dict[tuple[str, ...], dict[str, Any]]]:
    """The outcomes of the LLM judge path against the correct judge, the requests it got and its answers."""
    answers = _correct_answers()
    handler = type("CorrectJudge", (_CorrectJudge,), {"answers": answers, "asked": [], "lock": threading.Lock()})
    with loopback_server(handler) as url:
        judge = LlmJudge(f"{url}/v1", "correct-judge", cache_dir=None, retries=0, max_concurrency=8)
        found = outcomes(judge)
    return found, handler.asked, answers


def test_the_llm_judge_path_is_right_on_every_case_against_a_correct_judge(llm_outcomes):
    found, asked, answers = llm_outcomes
    print("\n" + table(offline=offline_outcomes(), llm=found))
    wrong = {key: [what for r, what in rows if not r] for key, rows in found.items() if not all(r for r, _ in rows)}
    assert not wrong, wrong
    assert set(found) == set(offline_outcomes())  # the same kinds and metrics as the offline path
    assert sum(map(len, found.values())) == sum(len(c["expected"]) for c in CASES)
    assert set(asked) == set(answers)  # every case was asked about; nothing else was asked
    assert len(asked) == len(answers)  # once each (no retries, nothing asked twice)


def test_the_issue_examples_are_named_in_the_evidence():
    context = ["The Eiffel Tower is in Paris and was completed in 1889."]
    faithful = CHECKED.measure("The Eiffel Tower is in Paris and was completed in 1889.", context)
    assert (faithful.level, faithful.passed, faithful.confidence) == (5, True, 1.0)
    for answer, reason in (
            ("The Eiffel Tower is in Berlin and was completed in 1889.", "entity 'berlin' vs 'paris'"),
            ("The Eiffel Tower is in Paris and was completed in 1925.", "number 1925 vs 1889 in passage 1"),
            ("The Eiffel Tower is not in Paris.", "negation")):
        result = CHECKED.measure(answer, context)
        assert (result.level, result.passed) == (1, False) and reason in result.explanation
        (row,) = result.breakdown
        assert row["verdict"] == "contradicted" and row["passage"] == 1 and any(reason in r for r in row["reasons"])


def test_undefined_is_nan_never_the_worst_level():
    answer = "The Eiffel Tower is in Paris."
    for result in (CHECKED.measure(answer, []), CHECKED.measure(answer, ["  "]),
                   ContextRecall().measure(answer, ["  "]), ContextRecall().measure(answer, "")):
        assert result.level is None and math.isnan(result.score) and result.passed is None
        assert result.explanation.startswith("undefined: no ")
    refusal = CHECKED.measure("I don't know.", ["The Eiffel Tower is in Paris."])
    assert refusal.level is None and "no claim" in refusal.explanation
    long = "The Eiffel Tower is in Paris. " * 7000
    with pytest.warns(UserWarning, match="longer than 200000 characters"):
        faithfulness = CHECKED.measure(long, ["The Eiffel Tower is in Paris."])
    with pytest.warns(UserWarning, match="longer than 200000 characters"):
        relevancy = AnswerRelevancy().measure("Where is the Eiffel Tower?", long)
    assert faithfulness.level is None and math.isnan(relevancy.score) and not relevancy.passed
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # within the limit: no warning
        assert ContextRecall().measure(answer, ["The Eiffel Tower is in Paris."]).level == 5


# -- the structural checks: crafted development cases, exact verdicts; the held-out measurement ---------------------
DATA = Path(__file__).parent / "data"
STRUCTURE = json.loads((DATA / "contradictions_structure.json").read_text())["cases"]
FIRST_BATCH = json.loads((DATA / "contradictions_heldout.json").read_text())["cases"]  # held out, then development
SECOND_BATCH = json.loads((DATA / "contradictions_heldout2.json").read_text())["cases"]  # held out, then development
DEV3 = json.loads((DATA / "contradictions_dev3.json").read_text())["cases"]  # development (h34 author's own texts)
THIRD_BATCH = json.loads((DATA / "contradictions_heldout3.json").read_text())["cases"]  # held out once, then dev.
FOURTH_BATCH = json.loads((DATA / "contradictions_heldout4.json").read_text())["cases"]  # held out once, then dev.
FIFTH_BATCH = json.loads((DATA / "contradictions_heldout5.json").read_text())["cases"]  # held out once, then dev.
SIXTH_BATCH = json.loads((DATA / "contradictions_heldout6.json").read_text())["cases"]  # held out once, then dev.
SEVENTH_BATCH = json.loads((DATA / "contradictions_heldout7.json").read_text())["cases"]  # held out once, then dev.
EIGHTH_BATCH = json.loads((DATA / "contradictions_heldout8.json").read_text())["cases"]  # held out once, then dev.
NINTH_BATCH = json.loads((DATA / "contradictions_heldout9.json").read_text())["cases"]  # held out once, then dev.
TENTH_BATCH = json.loads((DATA / "contradictions_heldout10.json").read_text())["cases"]  # held out once, then dev.
ELEVENTH_BATCH = json.loads((DATA / "contradictions_heldout11.json").read_text())["cases"]  # held out once, then dev.
TWELFTH_BATCH = json.loads((DATA / "contradictions_heldout12.json").read_text())["cases"]  # held out once, stop 40


@functools.cache
def _faithfulness(name: str) -> tuple[tuple[dict, Any], ...]:
    """(case, Faithfulness result) of a case set, measured in one batch."""
    old = [c for c in CASES if c.get("split") == "heldout" and "faithfulness" in c["expected"]]
    cases = {"structure": STRUCTURE, "second_batch": SECOND_BATCH, "first_batch": FIRST_BATCH, "old_held_out": old,
             "dev3": DEV3, "third_batch": THIRD_BATCH, "fourth_batch": FOURTH_BATCH, "fifth_batch": FIFTH_BATCH,
             "sixth_batch": SIXTH_BATCH, "seventh_batch": SEVENTH_BATCH,
             "eighth_batch": EIGHTH_BATCH, "ninth_batch": NINTH_BATCH, "tenth_batch": TENTH_BATCH,
             "eleventh_batch": ELEVENTH_BATCH, "twelfth_batch": TWELFTH_BATCH}[name]
    results = CHECKED.measure_many([(c["answer"], [c["context"]]) for c in cases])
    return tuple(zip(cases, results, strict=True))


def _flagged(result: Any) -> bool:
    """Whether a check flagged a claim: a verdict "contradicted" or "unsupported" ("cannot tell" is not a flag)."""
    return any(row["verdict"] in ("contradicted", "unsupported") for row in result.breakdown or ())


def rates(name: str) -> tuple[float, float, dict[str, str]]:
    """(share of negatives flagged, share of supported answers flagged, per kind "right/n") of a case set."""
    found = _faithfulness(name)
    negatives = [_flagged(r) for c, r in found if not c["expected"]["faithfulness"]]
    positives = [_flagged(r) for c, r in found if c["expected"]["faithfulness"]]
    kinds: dict[str, list[bool]] = defaultdict(list)
    for c, r in found:
        kinds[c["kind"]].append(_flagged(r) != c["expected"]["faithfulness"])
    return (sum(negatives) / len(negatives), sum(positives) / len(positives),
            {k: f"{sum(v)}/{len(v)}" for k, v in sorted(kinds.items())})


DELETED_RULES = frozenset({"price_for_free"})
"""Kinds of crafted case whose rule was deleted (it paid on no data it was not written on): now missed."""


def test_the_structural_checks_give_the_exact_verdict_on_each_crafted_case():
    wrong = []
    for case, result in _faithfulness("structure"):
        expected = case["expected"]["faithfulness"] or case["kind"] in DELETED_RULES
        right = _flagged(result) != expected  # the claims' verdicts (a glued claim fails one of two: level 3)
        if "reason" in case and case["kind"] not in DELETED_RULES:
            right = right and case["reason"] in result.explanation
        if not right:
            wrong.append(f"{case['kind']}: {case['answer']!r}: {result.explanation}")
    assert not wrong, wrong
    assert {c["kind"] for c in STRUCTURE} >= {"voice_change", "causal_same", "comparison_swap", "modality",
                                              "no_longer_failed_to", "clock_time", "unit_conversion", "number_words",
                                              "alias", "glued_sentence", "hedged_wrong", "arithmetic"}


def test_each_failed_check_is_named_and_a_contradiction_is_level_1():
    context = ["The committee appointed Maria Lopez as chair in 2019. Entry to the museum is free. The train "
               "leaves at 23:40."]
    result = CHECKED.measure("The train leaves at 21:40.", context)
    assert (result.level, result.passed) == (1, False), result.explanation
    assert "number time 21:40 vs time 23:40 in passage 1" in result.explanation, result.explanation
    hedged = CHECKED.measure("I'm not sure, but I think the train leaves at 23:40.", context)
    assert (hedged.level, hedged.passed) == (5, True), hedged.explanation  # a hedge is a claim, not a refusal
    assert hedged.breakdown[0]["statement"] == "The train leaves at 23:40."
    relevant = AnswerRelevancy().measure("When does the train leave?", "I'm not sure, but I think it leaves at 23:40.")
    assert relevant.score == 1.0, relevant.explanation
    refusal = CHECKED.measure("I'm not sure.", context)
    assert refusal.level is None and "no claim" in refusal.explanation  # a bare "not sure" stays a refusal
    computed = CHECKED.measure("The school gained 90 pupils between 2010 and 2020.",
                                      ["The school had 420 pupils in 2010 and 510 pupils in 2020."])
    (row,) = computed.breakdown
    # arithmetic: cannot tell, never unsupported
    assert row["verdict"] == "idk" and "510 pupil - 420 pupil" in row["reasons"][0]


@pytest.mark.slow
def test_development_detection_and_false_alarms_stay_at_their_measured_level():
    """Development sets (tuned on: development figures, docs/metrics-development.md): detection and false alarms.

    The first and second batches were each held out once (50/58 and 12/69; 28/31 and 8/36), then read and tuned
    on. Measured now (no check reads roles, causes or quantifiers, and the rules that did not pay in the sub-check
    ablation are deleted, docs/metrics-development.md; comparisons read by word order): first batch 40/58 detected,
    1/69 flagged (41/58 before the deletion, 42/58 and 0/69 before the word order); second batch 22/31 (24/31, 25/31),
    0/36 (1/36 before: a "supported" case whose passage lacks the answer); dev3 12/14 (13/14 before the word order),
    0/17; the old set's held-out third 24/25, 0/8. The floors sit just under / over. No held-out figure here.
    """
    for name, floor, ceiling in (("first_batch", 0.68, 0.02), ("second_batch", 0.70, 0.03), ("dev3", 0.85, 0.06),
                                 ("old_held_out", 0.95, 0.13)):
        detected, flagged, kinds = rates(name)
        print(f"\n{name} (development): detected {detected:.1%}, flagged {flagged:.1%}; {kinds}")
        assert detected >= floor and flagged <= ceiling, (name, kinds)


BATCH_FLOORS: dict[str, tuple[str, int, int, int, int, str]] = {
    # name: (kind, detected, of negatives, flagged, of supported, when it was held out)
    "fourth_batch": ("development", 19, 48, 3, 57, "held out once (18/48, 5/57), then tuned on"),
    "fifth_batch": ("development", 33, 64, 1, 62, "held out once (36/64, 13/62), then tuned on"),
    "sixth_batch": ("development", 33, 64, 3, 62,
                    "held out once (37/64, 12/62), then tuned on; 38 before the both-negate rule, which made one "
                    "case undecided ('does not stop ... from bidding') and cleared a paraphrase of a false alarm"),
    "seventh_batch": ("development", 28, 64, 3, 62, "held out once (35/64, 13/62), then tuned on"),
    "eighth_batch": ("development", 24, 64, 4, 62, "held out once (29/64, 8/62), then tuned on"),
    "ninth_batch": ("development", 38, 64, 0, 62, "held out once (41/64, 8/62), then tuned on"),
    "tenth_batch": ("development", 35, 64, 3, 62, "held out once (37/64, 5/62), then tuned on"),
    "eleventh_batch": ("development", 34, 64, 2, 62, "held out once (37/64, 6/62), then tuned on"),
    "twelfth_batch": ("development", 33, 64, 6, 62,
                      "held out once (41/64, 7/62, with the role, cause and quantifier checks); no check was tuned on "
                      "it, but the checks were chosen by the verifier's ablation, which reads a sample of it"),
}
"""The batches of 105 or 126 cases (each from topics no earlier batch used, by a separate author): their floors.

A batch is held out until it has been measured once; then its failures are read and checks are made on them, so it
is development data from then on. The floors sit at the figures measured without the role, cause and quantifier
checks and the other rules that did not pay (deleted: the verifier's ablations, docs/metrics-development.md) and with
comparisons read by word order (the parse-based comparison check, with its value comparisons, was replaced: it paid
on these batches only): a change may improve on them, never fall below them.
"""


@pytest.mark.slow
@pytest.mark.parametrize("name", list(BATCH_FLOORS))
def test_each_batch_stays_at_its_measured_level(name: str):
    """Detection (share of the negatives flagged) and false alarms (share of the supported answers flagged) of a
    batch stay at its floor in ``BATCH_FLOORS``."""
    kind, detected_floor, negatives, flagged_ceiling, supported, history = BATCH_FLOORS[name]
    detected, flagged, kinds = rates(name)
    print(f"\n{name} ({kind}): detected {detected:.1%}, flagged {flagged:.1%}; {kinds}; {history}")
    assert detected >= detected_floor / negatives and flagged <= flagged_ceiling / supported, kinds


def test_the_third_batch_stays_at_its_development_level():
    """The third batch: held out once (33/64 detected, 25/73 flagged), then read and tuned on, so it is development
    data now (docs/metrics-development.md). Measured without the role, cause and quantifier checks and the rules that
    did not pay in the sub-check ablation: 31/64 detected (34/64 before that deletion), 0/73 flagged. Floors just
    under / over."""
    detected, flagged, kinds = rates("third_batch")
    print(f"\nthird batch (development): detected {detected:.1%}, flagged {flagged:.1%}; {kinds}")
    assert detected >= 31 / 64 and flagged <= 1 / 73, kinds


NOT_CHECKED = frozenset({"role_reversal", "causal_reversal", "quantifier"})
"""Kinds of case no check reads (roles, causes and quantifiers did not pay in the verifier's ablation)."""
UNREAD = frozenset({"Children who slept less showed lower levels of anxiety than children who slept at least nine "
                    "hours."})
"""Cases the word-order comparison check cannot read: the attribute compared decides ("lower levels of anxiety" of
one side, "higher test scores" of the other in one sentence)."""


def test_the_dev3_cases_give_their_exact_verdicts():
    """Each case of the h34 author's development set: flagged exactly when it is a negative; a role reversal (no
    check reads roles) is missed."""
    found = _faithfulness("dev3")
    wrong = [f"{c['kind']}: {c['answer']!r}: {r.explanation}" for c, r in found
             if _flagged(r) == c["expected"]["faithfulness"] and c["kind"] not in NOT_CHECKED
             and c["answer"] not in UNREAD]
    assert not wrong, wrong
    assert [_flagged(r) for c, r in found if c["kind"] in NOT_CHECKED or c["answer"] in UNREAD] == [False, False]


def _verdict(answer: str, context: str) -> tuple[str, str]:
    (row,) = CHECKED.measure(answer, [context]).breakdown
    return row["verdict"], "; ".join(row["reasons"])


def test_comparisons_are_read_in_one_direction_by_word_order_and_condition():
    """ "A smaller than B" is "B larger than A"; the sides swapped with the same word are a flip; a comparison with a
    than-side against one without is not read; two without, with the same word before them, are."""
    assert _verdict("The Atlantic Ocean is smaller than the Pacific Ocean.",
                    "The Pacific Ocean is larger than the Atlantic Ocean.")[0] == "supported"
    verdict, why = _verdict("The Atlantic Ocean is larger than the Pacific Ocean.",
                            "The Pacific Ocean is larger than the Atlantic Ocean.")
    assert verdict == "contradicted" and "comparison flipped" in why, why
    condition = "Bicycle thefts are much less likely if the bike is locked to a fixed rack."
    assert _verdict("Bicycle thefts are much more likely if the bike is left unlocked than if it is locked to a fixed "
                    "rack.", condition)[0] == "supported"
    assert _verdict("Bicycle thefts are much more likely if the bike is locked to a fixed rack.",
                    condition)[0] == "contradicted"


def test_periods_fractions_and_headers_are_read_and_computed_numbers_cannot_be_told():
    assert _verdict("Local masons built the cathedral in the fourteenth century.",
                    "The cathedral was built in the 14th century by local masons.")[0] == "supported"
    assert _verdict("Vinyl sales collapsed in the 1970s.", "Vinyl sales collapsed in the 1990s.") == (
        "contradicted", "number 1970-1979 vs 1990-1999 in passage 1")
    assert _verdict("The crossing takes one and a half hours.", "The crossing takes 90 minutes.")[0] == "supported"
    assert _verdict("The crossing takes two and a half hours.", "The crossing takes 90 minutes.")[0] == "contradicted"
    header = "Gardening forum\nmaplegrower\n14 March, 18:45\nHow deep should tulip bulbs be planted?"
    assert _verdict("User maplegrower asked on 14 March at 6:45 p.m. how deep tulip bulbs should be planted.",
                    header)[0] == "supported"
    verdict, why = _verdict("About 4 new bakeries open in the city each day.",
                            "On average, a new bakery opens in the city every 6 hours.")
    assert verdict == "idk" and "may be computed" in why and "per day" in why
    verdict, why = _verdict("The club signed 7 defenders and 5 strikers, 12 players in total.",
                            "The club signed 7 defenders and 5 strikers.")
    assert verdict == "idk" and "7 defender + 5 striker" in why
    assert _verdict("The club signed 7 defenders and 5 strikers, 15 players in total.",
                    "The club signed 7 defenders and 5 strikers.")[0] == "unsupported"


def test_a_zero_in_the_matched_sentence_computes_nothing_and_divides_nothing():
    from ir_rag_axioms.metrics._checks_numbers import _computed
    from ir_rag_axioms.metrics.statements import Facts

    sentence = Facts(numbers=((0.0, 0.0, "", False), (12.0, 12.0, "match", False), (72.0, 72.0, "point", False)))
    assert _computed((6.0, 6.0, "point", False), "They averaged 6 points per match.", sentence) == \
        "72 point / 12 match = 6"
    assert _computed((0.5, 0.5, "", False), "It is half the rate.", Facts(numbers=((0.0, 0.0, "", False),
                                                                                  (2.0, 2.0, "", False)))) == ""


def test_unsupported_needs_positive_evidence():
    verdict, why = _verdict("The Grand Canyon is about 1.6 kilometres deep.",
                            "The canyon is about 1.6 kilometres deep.")
    assert verdict == "idk" and "the canyon" in why  # a name for what the passage calls "the canyon"
    context = "The museum opened in 1998. It is located on the river bank. Its collection includes 4,000 paintings."
    result = CHECKED.measure("Opened in 1998 on the river bank, the museum holds 4,000 paintings.", [context])
    assert not _flagged(result), result.explanation  # a summary joining three sentences
    verdict, why = _verdict("The war left 9.7 million soldiers and about 8.9 million civilians dead.",
                            "The war left 9.7 million soldiers and about 6.8 million civilians dead.")
    # "about 8.9 million" is not near the statement's own 9.7 million
    assert verdict == "contradicted" and "number 8.9 million civilian vs 6.8 million civilian" in why
    verdict, why = _verdict("The library basement houses a large collection of old bicycles.",
                            "The library closes at 21:00 on weekdays.")
    assert verdict == "unsupported" and "content words not in it" in why


# -- h35: the general rules of precision first, on crafted texts (exact verdicts) ----------------------------------
def test_a_price_is_never_a_clock_time_and_a_sum_of_prices_cannot_be_told():
    verdict, why = _verdict("The ferry ticket and the bus ticket together cost $11.30.",
                            "A ferry ticket costs $7.80 and a bus ticket costs $3.50.")
    assert verdict == "idk" and "$7.8 + $3.5" in why and "time" not in why
    assert _verdict("A ferry ticket costs $7.80.", "A ferry ticket costs $7.80.")[0] == "supported"
    verdict, why = _verdict("A ferry ticket costs $9.80.", "A ferry ticket costs $7.80.")
    assert verdict == "contradicted" and "number $9.8 vs $7.8" in why


def test_ages_are_not_durations_and_bounds_on_ages_cannot_be_told():
    verdict, why = _verdict("Most of the patients were five years old or younger.",
                            "Most of the patients were younger than two years old.")
    assert verdict == "idk" and "age" not in why.split("cannot tell")[0]  # a bound: no value to contradict
    verdict, why = _verdict("The oldest tortoise in the zoo is 90 years old.",
                            "The oldest tortoise in the zoo is 70 years old.")
    assert verdict == "contradicted" and "(age)" in why


def test_a_temperature_change_is_a_difference_not_a_reading():
    assert _verdict("The lake has warmed by about 1.8 degrees Fahrenheit since 1950.",
                    "The lake has warmed by 1 degree Celsius since 1950.")[0] == "supported"
    verdict, why = _verdict("The lake has warmed by 3 degrees Celsius since 1950.",
                            "The lake has warmed by 1 degree Celsius since 1950.")
    assert verdict == "contradicted" and "K (change)" in why


def test_a_decade_or_century_is_matched_by_a_year_inside_it():
    assert _verdict("The bridge was finished in the 1880s.", "The bridge was finished in 1883.")[0] == "supported"
    assert _verdict("The abbey was founded in the early 12th century.",
                    "The abbey was founded in 1108.")[0] == "supported"
    assert _verdict("The bridge was finished in the 1920s.", "The bridge was finished in the 1930s.") == (
        "contradicted", "number 1920-1929 vs 1930-1939 in passage 1")


def test_aliases_short_forms_and_other_forms_of_names_are_not_contradictions():
    assert _verdict("Tea is the most popular hot drink in Britain.",
                    "Tea is the most popular hot drink in the UK.")[0] == "supported"
    assert _verdict("The EPA fined the company in 2015.",
                    "The U.S. Environmental Protection Agency fined the company in 2015.")[0] == "supported"
    verdict, why = _verdict("The Victorian reforms changed the schools.", "Victoria's reforms changed the schools.")
    assert verdict != "contradicted" and "another form of" in why or verdict == "supported", why
    verdict, why = _verdict("Tea is the most popular hot drink in France.",
                            "Tea is the most popular hot drink in the UK.")
    assert verdict == "contradicted" and "'france' vs 'uk'" in why


def test_a_name_with_another_ending_is_another_name_not_a_form_of_it():
    """ "Harry" and "Harris" share "harr" but end in no ending of a name's forms ("-ian", "-s", "-ic", ...)."""
    verdict, why = _verdict("Prince Harry visited Kenya in 2023.", "Kamala Harris visited Kenya in 2023.")
    assert verdict != "supported" and "another form of" not in why, (verdict, why)
    verdict, why = _verdict("The Brazilian team won the cup in 2002.", "Brazil won the cup in 2002.")
    assert verdict != "contradicted", (verdict, why)


def test_a_missing_word_alone_is_cannot_tell_with_the_reason():
    verdict, why = _verdict("The wage gap between the two towns was first measured by the county office.",
                            "The county office first measured the income disparity of the two towns in a survey.")
    assert verdict == "idk" and "the same role: 'measure' obj: 'gap' vs 'disparity'" in why, (verdict, why)
    verdict, why = _verdict("Seven in ten voters support the plan.", "70 percent of voters support the plan.")
    assert verdict == "idk" and "no conflicting counterpart" in why
    # a noun in the same role of the same verb as another noun: a swap, or a synonym ("gap" / "disparity"):
    # WordNet does not tell them apart, so cannot tell, with the role named
    verdict, why = _verdict("Insulin is made by the liver.", "Insulin is made by the pancreas.")
    assert verdict == "idk" and "the same role: 'make' subj: 'liver' vs 'pancrea'" in why, why
    # a name the whole context lacks, in none of its forms, stays unsupported
    verdict, why = _verdict("The bridge was designed by Gustave Eiffel in 1883.", "The bridge was finished in 1883.")
    assert verdict == "unsupported" and "entity 'gustave eiffel' is not in the context" in why


def test_antonyms_pair_only_within_one_part_of_speech_and_correlatives_from_the_other_side():
    passage = "The lower a household's income, the greater the share of it spent on food."
    verdict, why = _verdict("The higher a household's income, the smaller the share of it spent on food.", passage)
    assert verdict == "supported", why  # both parts of the correlative flipped: the same relation
    verdict, why = _verdict("The higher a household's income, the greater the share of it spent on food.", passage)
    assert verdict == "contradicted" and "comparison flipped" in why, why
    assert _verdict("The river is shallow near the bridge.", "The river is deep near the bridge.")[0] == \
        "contradicted"


def test_a_negation_written_with_a_curly_apostrophe_is_read():
    verdict, why = _verdict("Districts say requests are on the rise.", "Districts say requests aren’t on the rise.")
    assert verdict == "contradicted" and "negation: passage 1 negates 'rise'" in why
    assert _verdict("Districts say requests aren’t on the rise.",
                    "Districts say requests are not on the rise.")[0] == "supported"


def test_a_number_from_another_sentence_against_the_matched_sentences_own_is_a_contradiction():
    context = ("The bakery opened on Mill Street in 1984. It moved to the harbour front in 1997, after a fire. "
               "The founder retired in 2009.")
    verdict, why = _verdict("The bakery moved to the harbour front in 1984, after a fire.", context)
    assert verdict == "contradicted" and "number 1984 vs 1997" in why and "only in sentences" in why, why
    assert _verdict("The bakery moved to the harbour front in 1997, after a fire.", context)[0] == "supported"
    # both years in one statement: the matched sentence's year is there, no rival
    assert _verdict("The bakery, opened in 1984, moved to the harbour front in 1997.", context)[0] != "contradicted"


def test_a_name_from_another_sentence_against_the_matched_sentences_own_is_a_contradiction():
    context = ("The bridge over the Avon was designed by Isambard Brunel. Thomas Telford later praised its "
               "elegance. The U.S. Army studied the bridge in 1950.")
    verdict, why = _verdict("The bridge over the Avon was designed by Thomas Telford.", context)
    assert verdict == "contradicted" and "entity 'thomas telford' vs 'isambard brunel'" in why, why
    assert _verdict("The bridge over the Avon was designed by Isambard Brunel.", context)[0] == "supported"
    # an alias of the sentence's own name is no rival
    assert _verdict("The US Army studied the bridge in 1950.", context)[0] == "supported"


def test_a_negation_of_the_same_verb_and_argument_in_another_sentence_is_a_contradiction():
    context = ("In 1990 the council proposed a ferry terminal at Bramble Point with a car park. "
               "Residents objected for two years, and the ferry terminal was never built.")
    verdict, why = _verdict("After the objections, the ferry terminal at Bramble Point was finally built.", context)
    assert verdict == "contradicted" and "affirms 'build' of 'terminal'" in why, why
    assert _verdict("The ferry terminal was never built.", context)[0] == "supported"


# -- this round: modality, joined sentences, titles (crafted texts) --------------------------------------------
def test_cannot_is_a_necessity_negated_and_an_affirmed_noun_is_not_negated():
    context = "Visitors cannot enter the tower without a guide."
    assert not _flagged(CHECKED.measure("Visitors cannot enter the tower without a guide.", [context]))
    context = "The plan was not about taxes; it was about taxes on imported steel."
    assert not _flagged(CHECKED.measure("The plan was about taxes on imported steel.", [context]))


def test_a_demonym_names_its_country_and_an_acronym_with_of_its_bank():
    context = "The Bank of England raised rates in March. Exports of the United Kingdom fell."
    assert not _flagged(CHECKED.measure("The BoE raised rates in March.", [context]))
    context = "The tariff was set by the government of Germany in 2019."
    assert not _flagged(CHECKED.measure("The German government set the tariff in 2019.", [context]))


def test_a_title_is_no_rival_name_and_a_surname_alone_cannot_tell_a_first_name():
    context = "Elizabeth Tudor reigned for decades. In 1974 the Queen opened the new bridge."
    assert not _flagged(CHECKED.measure("In 1974 Elizabeth Tudor opened the new bridge.", [context]))
    verdict, why = _verdict("Margaret Hollis founded the choir in 1931.", "Hollis founded the choir in 1931.")
    assert verdict == "idk" and "first name" in why, why


def test_a_daily_cost_is_converted_to_a_weekly_one():
    verdict, why = _verdict("Parking costs $70 every week.", "Parking costs $10 a day.")
    assert verdict != "contradicted", why
    assert _verdict("Parking costs $90 every week.", "Parking costs $10 a day.")[0] == "contradicted"


def test_wordnet_abbreviations_of_names_and_an_acronym_in_the_context_are_aliases():
    """ "USSR" / "the Soviet Union", "NY" / "New York", "D.C." / "the District of Columbia" (one WordNet synset, one
    side its abbreviation); "UNESCO" in the context for its full name in the answer. "Russia" is not "the Soviet
    Union" (no abbreviation: WordNet lumps them, a text may set them apart)."""
    from ir_rag_axioms.metrics.quantities import abbreviation_alias

    assert abbreviation_alias("USSR", "the Soviet Union") and abbreviation_alias("new york", "NY")
    assert not abbreviation_alias("Russia", "the Soviet Union")
    judge = Faithfulness(judge=CHECKS)
    for answer, context in [
            ("The USSR dissolved in December 1991.", "The Soviet Union dissolved in December 1991."),
            ("The band first met at a club in New York.", "The band first met at a club in NY."),
            ("The museum is run by the United Nations Educational, Scientific and Cultural Organization.",
             "The museum is run by UNESCO."),
            ("The think tank is based in Washington and has offices in the District of Columbia.",
             "The think tank is based in Washington, D.C."),
    ]:
        result = judge.measure(answer, [context])
        assert result.level == 5, (answer, result.explanation)


def test_number_words_with_decimals_and_halves_before_a_scale_are_read():
    """ "one and a half billion" = 1.5e9, "six point three million" = 6.3e6; a wrong one is still a contradiction."""
    context = ["Ridership grew from 740 million trips to 1.5 billion, and 6.3 million tickets were refunded."]
    judge = Faithfulness(judge=CHECKS)
    same = judge.measure("Ridership grew from seven hundred and forty million trips to one and a half billion, and "
                         "six point three million tickets were refunded.", context)
    assert same.level == 5, same.explanation
    wrong = judge.measure("Ridership grew from 740 million trips to two and a half billion.", context)
    assert wrong.level == 1 and "number" in wrong.explanation, wrong.explanation


def test_no_with_an_object_is_the_verb_negated_and_hyphenated_not_is_a_word():
    """ "has no PAC" = "does not have a PAC"; "not-for-profit" negates nothing; an elided "do not" is not compared;
    a hedge clause ("If I remember right") is no added claim."""
    judge = Faithfulness(judge=CHECKS)
    same = judge.measure("The union has no PAC.", ["The union does not have a PAC."])
    assert same.level == 5, same.explanation
    flipped = judge.measure("The union has a PAC.", ["The union does not have a PAC."])
    assert flipped.level == 1 and "negation" in flipped.explanation, flipped.explanation
    word = judge.measure("The stations went to the not-for-profit Network Rail.",
                         ["The stations went to Network Rail, a not-for-profit company."])
    assert "negation" not in word.explanation, word.explanation
    hedged = judge.measure("If I remember right, the survey found that 44% of the viewers were liberal.",
                           ["The survey found that 44% of the viewers were liberal."])
    assert hedged.level == 5, hedged.explanation


def test_a_specific_number_taken_from_another_sentence_makes_a_name_there_cannot_tell():
    """A specific number the statement takes from another sentence makes a name there "cannot tell", not a
    contradiction."""
    judge = Faithfulness(judge=CHECKS)
    joined = judge.measure("Roughly 2.1 million tons were shipped from the north to the capital, with perhaps "
                           "seven thousand a year leaving from the Blue Harbour alone.",
                           ["Roughly 2.1 million tons were shipped from the north to the capital and the south.",
                            "Perhaps 7,000 a year were shipped from the Blue Harbour alone."])
    assert joined.level > 1 and "only in sentences about something else" not in joined.explanation, \
        joined.explanation


def test_a_negation_with_an_antonym_a_comparative_from_the_other_side_and_hedges_are_not_false_alarms():
    """ "not treated fairly" / "treated unfairly" (a negation and an antonym: cannot tell); "lower than it is today"
    / "higher than it used to be" (the same comparison from the other side); "I might be wrong, but"
    and "If I'm reading this correctly," are hedges; "a lack of X" negates X; "do not consider" is no negation of
    the noun "studies"."""
    judge = Faithfulness(judge=CHECKS)
    fair = judge.measure("When workers feel they are treated unfairly, their motivation drops.",
                         ["When workers feel that they are not treated fairly, their motivation drops."])
    assert "(0 contradicted" in fair.explanation and "a negation and an antonym" in fair.explanation, \
        fair.explanation
    side = judge.measure("According to Lee, the barrier to entry used to be much lower than it is today.",
                         ['Adds Lee, "The barrier to entry is much higher than it used to be."'])
    assert "(0 contradicted" in side.explanation, side.explanation
    for hedge in ("I might be wrong, but the tower was finished in 1889.",
                  "If I'm reading this correctly, the tower was finished in 1889."):
        result = judge.measure(hedge, ["The tower was finished in 1889."])
        assert result.level == 5, (hedge, result.explanation)
    lack = judge.measure("The tribes had no written language.", ["With a lack of any written language, the tribes "
                                                                 "relied on carvings."])
    assert "negation" not in lack.explanation, lack.explanation
    study = judge.measure("Four joint committees carry out studies.",
                          ["Four joint committees carry out studies but do not consider legislation."])
    assert study.level == 5, study.explanation


def test_a_name_with_an_aliased_head_and_modal_adjectives_are_read():
    """ "the United States Constitution" = "the U.S. Constitution"; "Republican" = "GOP" (WordNet: of the
    Republican Party); "certain to accept" where the context says "more likely to accept" is unsupported."""
    judge = Faithfulness(judge=CHECKS)
    assert judge.measure("The police work within the framework of the United States Constitution.",
                         ["The police work within the framework of the U.S. Constitution."]).level == 5
    assert judge.measure("Leading Republican candidates turned to mental illness.",
                         ["Leading GOP candidates turned to mental illness."]).level == 5
    certain = judge.measure("When citizens are involved, they are certain to accept police procedures.",
                            ["When citizens are involved, they are more likely to accept police procedures."])
    assert certain.level <= 2 and "modality" in certain.explanation, certain.explanation


def test_a_verb_said_both_ways_and_an_elided_negation_are_read_by_their_objects():
    """ "regulates public railways but does not regulate private railways": the negation is of "private railways",
    not of "regulate"; the same verb and object both ways ("pupils who have a tutor ... who do not have a tutor")
    negates nothing; "a few say it isn't" (an elided predicate) negates nothing; "is not a physical sport" negates
    "physical"; "no longer has a station" negates the station."""
    judge = Faithfulness(judge=CHECKS)
    context = ["The agency regulates public railways but does not regulate private railways."]
    private = judge.measure("The agency regulates private railways.", context)
    assert private.level == 1 and "negation" in private.explanation, private.explanation
    assert judge.measure("The agency regulates public railways.", context).level == 5
    elided = judge.measure("Most members say the rule is fair.",
                           ["Most members say the rule is fair, and a few say it isn't."])
    assert elided.level == 5, elided.explanation
    sport = judge.measure("Chess is a physical sport.", ["Chess is not a physical sport."])
    assert sport.level == 1 and "negates 'physical'" in sport.explanation, sport.explanation
    station = judge.measure("The town still has a railway station.", ["The town no longer has a railway station."])
    assert station.level == 1 and "negates 'station'" in station.explanation, station.explanation


def test_certainty_against_possibility_is_an_overgeneralisation():
    """ "will inevitably make" / "may end up making", "is always more profitable" / "In many cases ... is more
    profitable", "is guaranteed to reduce" / "can reduce": modality. The same modality on both sides is no flag."""
    judge = Faithfulness(judge=CHECKS)
    for answer, context, reason in (
            ("Tired drivers will inevitably make dangerous mistakes.",
             "Tired drivers may end up making dangerous mistakes.", "modality"),
            ("A shop that sells one product is always more profitable than a shop that sells many.",
             "In many cases, a shop that sells one product is more profitable than a shop that sells many.",
             "modality"),
            ("Meditation is guaranteed to reduce anxiety.", "Meditation can reduce anxiety.", "modality")):
        result = judge.measure(answer, [context])
        assert result.level == 1 and reason in result.explanation, (answer, result.explanation)
    same = judge.measure("Tired drivers may end up making dangerous mistakes.",
                         ["Tired drivers may end up making dangerous mistakes."])
    assert same.level == 5, same.explanation


def test_comparisons_by_means_are_checked():
    """ "earn more by renting than by growing" against "more by growing than by renting": a comparison flipped."""
    judge = Faithfulness(judge=CHECKS)
    means = ["Farmers can earn more by growing wheat on their land than by renting it out."]
    flipped = judge.measure("Farmers earn more by renting out their land than by growing wheat on it.", means)
    assert flipped.level == 1 and "comparison flipped" in flipped.explanation, flipped.explanation
    assert judge.measure("Farmers earn more by growing wheat on their land than by renting it out.", means).level == 5


def test_a_number_against_another_sentence_said_word_for_word_and_point_as_a_noun():
    """A year in a statement that joins two sentences, against the other sentence said word for word but for its
    year: a contradiction; "at one point one hundred thousand" is 100,000 (not 1.1 hundred thousand; the
    "one point" is left to "cannot tell");
    "I'm not completely sure, but it seems that" and "I'm not sure, but the article says that" are hedges."""
    judge = Faithfulness(judge=CHECKS)
    year = judge.measure("The port was officially founded in 1625, while also trading with towns in the north.",
                         ["The port was officially founded in 1652. Apart from its southern routes, the port also "
                          "traded with towns in the north."])
    assert "number 1625 vs 1652" in year.explanation, year.explanation
    point = judge.measure("There were at one point one hundred thousand workers.",
                          ["At one point, there were 100,000 workers."])
    assert "110000" not in point.explanation and "(0 contradicted" in point.explanation, point.explanation
    for hedge in ("I'm not completely sure, but it seems that the tower was finished in 1889.",
                  "I'm not sure, but the article says that the tower was finished in 1889."):
        assert judge.measure(hedge, ["The tower was finished in 1889."]).level == 5, hedge


def test_without_not_only_and_not_before_a_preposition_negate_what_they_govern():
    """ "send emails without knowing" negates "know", not "send"; "hardly anything gets done" is "almost nothing gets
    done"; "it seems impossible to live" is "could not live"; "not just what to think" negates nothing; "not as a
    way to help" negates "way"."""
    judge = Faithfulness(judge=CHECKS)
    spam = judge.measure("Spammers send emails to millions of people without knowing who will reply.",
                         ["Spammers send emails to millions of people. They do not know who will reply."])
    assert "negates 'send'" not in spam.explanation and "(0 contradicted" in spam.explanation, spam.explanation
    done = judge.measure("These days hardly anything gets done without the Internet.",
                         ["Almost nothing gets done without the Internet nowadays."])
    assert "(0 contradicted" in done.explanation, done.explanation
    live = judge.measure("The more we depend on it, the more it seems we could not live without it.",
                         ["The more we rely on it, the more it seems impossible to live without it."])
    assert "(0 contradicted" in live.explanation, live.explanation
    think = judge.measure("Leaders must learn how to think, not just what to think.",
                          ["Leaders must learn how to think, not just what to think."])
    assert think.level == 5, think.explanation
    way = judge.measure("Coaching should be used only as a tool for weak performers, not as a way to help people "
                        "grow.", ["Coaching should not only be a tool for weak performers but also a way to help "
                                  "people grow."])
    assert way.level == 1 and "negates 'way'" in way.explanation, way.explanation


def test_rates_acronyms_of_name_runs_trimmed_entities_and_means_are_no_false_alarms():
    """ "about 100 every hour" against "2,400 each day" is a converted rate (cannot tell); "UNLV" for "the
    University of Nevada, Las Vegas"; "the Revolution ended in 1921" names "the Revolution"; "3 relational units"
    has the unit "unit"."""
    judge = Faithfulness(judge=CHECKS)
    rate = judge.measure("About 100 people lost their jobs every hour in 2018.",
                         ["In 2018, approximately 2,400 people lost their jobs each day."])
    assert "(0 contradicted" in rate.explanation and "a converted rate" in rate.explanation, rate.explanation
    unlv = judge.measure("Criminologists Ann Lee and Bo Chen of UNLV study risk assessment.",
                         ["Criminologists Ann Lee and Bo Chen of the University of Nevada, Las Vegas, study risk "
                          "assessment."])
    assert unlv.level == 5, unlv.explanation
    ended = judge.measure("After the Revolution ended in 1921, the government commissioned public murals.",
                          ["At the end of the Mexican Revolution in 1921, the government commissioned public murals."])
    assert "entity" not in ended.explanation, ended.explanation
    units = judge.measure("A team coach has to work within at least five relational units.",
                          ["The coach has to work within at least 3 relational units."])
    assert units.level == 1 and "number 5 unit" in units.explanation, units.explanation


def test_a_negated_passive_is_a_contradiction():
    """A negated passive ("is not allowed") conflicts with the affirmed one whichever role the parse gives the
    subject."""
    judge = Faithfulness(judge=CHECKS)
    allowed = judge.measure("A psychiatrist may write prescriptions, and a counselor is also allowed to write a "
                            "prescription.", ["A psychiatrist may write prescriptions. A counselor does not have a "
                                              "medical degree and is not allowed to write a prescription."])
    assert allowed.level == 1 and "negation" in allowed.explanation, allowed.explanation


def test_sides_told_apart_by_their_own_words():
    """ "running on grass ... easier than running on sand" is "running on sand ... harder than running on grass"
    (the sides share "running on": the words that tell them apart decide); the swap is flagged."""
    judge = Faithfulness(judge=CHECKS)
    context = ["Running on sand can be harder on your knees than running on grass."]
    assert judge.measure("Running on grass can be easier on your knees than running on sand.", context).level == 5
    swap = judge.measure("Running on sand can be easier on your knees than running on grass.", context)
    assert swap.level == 1, swap.explanation


def test_a_rival_number_beats_a_chance_sum_and_counted_units_in_other_sentences():
    """A number the matched sentence contradicts is a contradiction even when two other numbers happen to add up
    to it (unless the statement says it computed); "some two million enslaved people" against "These three million
    enslaved people" in the next sentence is a number conflict."""
    judge = Faithfulness(judge=CHECKS)
    genders = ["Mainstream culture recognizes only two genders. Bissu is one of the five genders recognized by the "
               "Bugis."]
    seven = judge.measure("Bissu is one of the seven genders recognized by the Bugis.", genders)
    assert seven.level == 1 and "number 7 gender vs 5 gender" in seven.explanation, seven.explanation
    summed = judge.measure("In all, the two cultures recognize seven genders.", genders)
    assert "(0 contradicted" in summed.explanation, summed.explanation
    freed = judge.measure("The Emancipation Proclamation declared some two million enslaved people in the states "
                          "in rebellion free.",
                          ["On January 1, 1863, Lincoln issued the Emancipation Proclamation, calling on the army to "
                           "free all enslaved people in states in rebellion. These three million enslaved people "
                           "were declared free."])
    assert freed.level == 1 and "vs 3 million people" in freed.explanation, freed.explanation


def test_a_comparison_of_two_doings_has_them_as_its_sides():
    """ "easier to oust a mayor than to get rid of a senator": the sides are the two infinitives, not the "to one's
    community" the adjective governs; the swap is a flipped comparison, the same order agrees."""
    judge = Faithfulness(judge=CHECKS)
    context = ["It is much easier for a town to oust a bad mayor than to get rid of a senator."]
    swap = judge.measure("It is much easier for a town to get rid of a senator than to oust a bad mayor.", context)
    assert swap.level == 1 and "comparison flipped" in swap.explanation, swap.explanation
    assert judge.measure("It is much easier for a town to oust a bad mayor than to get rid of a senator.",
                         context).level == 5


def test_comparisons_without_negation():
    """No negation: "did not receive as much training as" (a comparison), "people who do not like to shop ... than
    people who do" (the verb said both ways); "the later ..., the less effective" is "the sooner ..., the more
    effective"."""
    judge = Faithfulness(judge=CHECKS)
    training = judge.measure("White teachers received more training than black teachers did.",
                             ["Black teachers did not receive as much training as white teachers."])
    assert "negation" not in training.explanation, training.explanation
    shop = judge.measure("People who do not like to shop for fun are less likely to buy on impulse than people who do.",
                         ["People who like to shop for fun are more likely to buy on impulse."])
    assert "negation" not in shop.explanation, shop.explanation
    later = judge.measure("The later a correction is made, the less effective it is.",
                          ["The sooner a correction is made, the more effective it is."])
    assert "(0 contradicted" in later.explanation, later.explanation


def test_a_comparison_never_flips_against_itself_and_a_swap_flips_both_ways():
    """``flipped`` on the statement's own facts finds nothing; "A larger than B" against "B larger than A" is flipped
    read from either side, and "A larger than B" against "B smaller than A" from neither."""
    from ir_rag_axioms.analysis.resources import load_spacy
    from ir_rag_axioms.metrics._checks_contradictions import flipped
    from ir_rag_axioms.metrics.statements import facts

    nlp = load_spacy()
    texts = ["The Atlantic Ocean is larger than the Pacific Ocean.", "The Pacific Ocean is larger than the Atlantic "
             "Ocean.", "The Atlantic Ocean is smaller than the Pacific Ocean.", "Farmers earn more by renting out "
             "their land than by growing wheat on it.", "The higher the income, the smaller the share spent on food."]
    a, b, c, *rest = (facts(nlp(t)[:]) for t in texts)
    assert all(flipped(f, f, "passage 1") == [] for f in (a, b, c, *rest))
    assert flipped(a, b, "passage 1") and flipped(b, a, "passage 1")
    assert flipped(b, c, "passage 1") == [] and flipped(c, b, "passage 1") == []
