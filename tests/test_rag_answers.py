"""Faithfulness on realistic RAG answers: claims read against their best evidence among many passages.

Crafted texts for the rules that keep a claim to its own evidence (a number or name the other passages give does not
excuse a different one in the matched sentence; a conflict with a sentence that shares a word but is about something
else does not count), and the blind batches of realistic answers (``rag_answers_A.json``, development;
``rag_answers_B.json``, held out) at their measured levels.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from ir_rag_axioms.datasets import topic_passages
from ir_rag_axioms.metrics import Faithfulness
from ir_rag_axioms.metrics.judges import HeuristicJudge

CHECKED = Faithfulness(judge=HeuristicJudge(verified=False))
DATA = Path(__file__).parent / "data"
RESPONSES = Path(__file__).resolve().parents[2] / "shared/data/trec-rag-24-crowd/responses.jsonl.gz"


def _row(answer: str, context: list[str], metric: Faithfulness = CHECKED) -> dict:
    (row,) = metric.measure(answer, context).breakdown
    return row


SURVEYS = ["Smaller samples mean wider confidence intervals. Reducing samples from 100 to 50 can increase that "
           "confidence interval range by over 40%.",
           "About 20% of the surveys we run are done online."]


def test_a_hedged_number_given_elsewhere_does_not_excuse_another_in_the_matched_sentence():
    row = _row("Cutting a sample from 100 to 50 can widen the confidence interval range by over 20%.", SURVEYS)
    assert row["verdict"] == "contradicted" and "number 20 % vs 40 % in passage 1" in row["reasons"][0], row
    assert _row("Cutting a sample from 100 to 50 can widen the confidence interval range by over 40%.",
                SURVEYS)["verdict"] == "supported"
    assert _row("Cutting a sample from 100 to 50 can widen the confidence interval range by about 40%.",
                SURVEYS)["verdict"] == "supported"  # a hedge within 15 % agrees


INSTITUTES = ["Al Cross, Director of the Institute for Rural Journalism at the University of Kentucky, said local "
              "papers matter.",
              "Danilo Yanich is a media researcher at the University of Delaware."]


def test_a_name_sharing_a_word_with_the_matched_sentences_name_is_its_rival():
    row = _row("Al Cross, who directs the Institute for Rural Journalism at the University of Delaware, said local "
               "papers matter.", INSTITUTES)
    assert row["verdict"] == "contradicted", row
    assert "'the university of delaware' vs 'the university of kentucky' in passage 1" in row["reasons"][0]
    assert _row("Al Cross, who directs the Institute for Rural Journalism at the University of Kentucky, said local "
                "papers matter.", INSTITUTES)["verdict"] == "supported"


def test_a_shorter_form_of_the_claims_own_name_is_no_rival():
    context = ["In 1997, George W. signed the Texas parity law as governor.", "George W. Bush was a Republican."]
    assert _row("In 1997, George W. Bush signed the Texas parity law as governor.", context)["verdict"] != \
        "contradicted"


def test_a_negation_moved_to_another_word_is_not_a_contradiction():
    context = ["Dame Van Winkle has no dialogue in the story."]
    row = _row("Dame Van Winkle never speaks a line of dialogue in the story.", context)
    assert row["verdict"] == "idk" and "(both negate something; a paraphrase may move the negation)" in \
        row["reasons"][0], row
    assert _row("Dame Van Winkle never speaks a line of dialogue in the story.", context, Faithfulness())[
        "verdict"] != "contradicted"
    assert _row("Dame Van Winkle has dialogue in the story.", context)["verdict"] == "contradicted"


def test_a_conflict_with_a_sentence_that_matches_much_worse_does_not_count():
    context = ["People with high scores get lower interest rate bank loans and discounted utility bills.",
               "Those with low scores are forbidden from getting loans."]
    row = _row("High scorers can get cheaper bank loans.", context)
    assert row["verdict"] == "idk" and not any("another sentence" in r for r in row["reasons"]), row
    # nor in the same passage: "high" and "low" are said of two groups, not one claim reversed
    row = _row("High scorers can get cheaper bank loans.", [" ".join(context)])
    assert row["verdict"] == "idk" and not any("antonym" in r for r in row["reasons"]), row


REALISTIC_FLOORS = {
    # batch: (unfaithful answers caught at least, of, faithful answers flagged at most, of) by the default judge
    # (level below 5), each answer against its topic's 20 passages
    "rag_answers_A": (12, 38, 14, 38),  # development (13/38, 13/38): the rules above were written on its answers
    "rag_answers_B": (15, 38, 13, 38),  # held out (15/38, 12/38; 17/38 caught before the rules that did not pay
    # were deleted, 18/38 before comparisons were read by word order): measured before and after, never read
    "rag_answers_C": (19, 38, 14, 38),  # held out (20/38, 13/38): written blind, never read case by case
    "rag_answers_D": (22, 38, 15, 38),  # held out (23/38, 14/38): a fourth author, used in no choice
}


@pytest.mark.slow
@pytest.mark.skipif(not RESPONSES.exists(), reason="needs ../shared/data/trec-rag-24-crowd/responses.jsonl.gz")
@pytest.mark.parametrize("name", list(REALISTIC_FLOORS))
def test_the_realistic_batches_stay_at_their_measured_level(name):
    cases = json.loads((DATA / f"{name}.json").read_text())["cases"]
    passages = topic_passages(RESPONSES)
    results = Faithfulness().measure_many([(c["answer"], passages[c["topic"]]) for c in cases])
    flagged = [(c["faithful"], r.level is None or r.level < 5) for c, r in zip(cases, results, strict=True)]
    caught, negatives, false_alarms, positives = REALISTIC_FLOORS[name]
    assert sum(1 for f, _ in flagged if not f) == negatives and sum(1 for f, _ in flagged if f) == positives
    assert sum(x for f, x in flagged if not f) >= caught and sum(x for f, x in flagged if f) <= false_alarms


def test_the_realistic_batches_are_well_formed():
    for name in REALISTIC_FLOORS:
        cases = json.loads((DATA / f"{name}.json").read_text())["cases"]
        assert len({c["id"] for c in cases}) == len(cases) == 76
        for case in cases:
            assert case["faithful"] == (case["wrong_statement"] is None), case["id"]
            assert case["faithful"] or case["wrong_statement"] in case["answer"], case["id"]
            assert all(0 <= k < 20 for k in case["passages_used"]), case["id"]
