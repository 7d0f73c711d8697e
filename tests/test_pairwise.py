"""LLM_PAIRWISE: both orders asked, ties on disagreement, cached by content; offline and against a loopback server."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from test_metrics_llm import _start, _stop, _url

from ir_rag_axioms import COH1, CORR1, LLM_PAIRWISE, GenerationRequest, GenerationResponse, parse
from ir_rag_axioms.analysis.resources import ToolUnavailableError
from ir_rag_axioms.evaluation import evaluate_axioms
from ir_rag_axioms.metrics.judges import OFFLINE_JUDGE
from ir_rag_axioms.metrics.pairwise import PairwiseJudgeAxiom, offline_pairwise
from ir_rag_axioms.testing import check_axiom

REQUEST = GenerationRequest("q1", "Where is the Eiffel Tower and when was it completed?",
                            ("The Eiffel Tower is in Paris.", "It was completed in 1889."))
RESPONSES = [GenerationResponse("full", "The Eiffel Tower is in Paris and was completed in 1889."),
             GenerationResponse("part", "The Eiffel Tower is in Berlin."),
             GenerationResponse("blank", "   "),
             GenerationResponse("off", "Bananas are yellow.")]
EXPECTED = [[0, 1, 0, 1], [-1, 0, 0, 1], [0, 0, 0, 0], [-1, -1, 0, 0]]
"""The fake judge prefers the response sharing more words with the context (9, 5 and 0 words); blank abstains."""


@pytest.fixture()
def llm(monkeypatch, tmp_path):
    """A vLLM-shaped loopback server configured as the environment's judge, with a fresh cache folder."""
    server = _start("vllm")
    monkeypatch.setenv("IR_RAG_AXIOMS_JUDGE_BASE_URL", _url(server))
    monkeypatch.setenv("IR_RAG_AXIOMS_JUDGE_MODEL", "fake-judge")
    monkeypatch.setenv("IR_RAG_AXIOMS_JUDGE_CACHE", str(tmp_path))
    from ir_rag_axioms.metrics.axioms import _llm_judge

    _llm_judge.cache_clear()
    yield server
    _llm_judge.cache_clear()
    _stop(server)


def test_exact_matrix_both_orders_and_cached_by_content(llm, tmp_path):
    axiom = LLM_PAIRWISE(criterion="support by the context", judge="llm")
    assert axiom.preferences(REQUEST, RESPONSES).tolist() == EXPECTED
    assert len(llm.requests) == 6  # 3 pairs of analysable responses, each asked in both orders
    system, user = (m["content"] for m in llm.requests[0]["body"]["messages"])
    assert "ONE criterion only: support by the context" in system and "It was completed in 1889." in user
    orders = {(r["body"]["messages"][1]["content"].split("Response A:\n")[1].split("\n")[0]) for r in llm.requests}
    assert orders == {r.text for r in RESPONSES if r.text.strip()}  # every response was shown first at least once
    from ir_rag_axioms.metrics.axioms import _llm_judge

    _llm_judge.cache_clear()  # a new judge (a new process): the answers come from the disk cache
    assert axiom.preferences(REQUEST, RESPONSES[::-1]).tolist() == np.array(EXPECTED)[::-1, ::-1].tolist()
    assert len(llm.requests) == 6


def test_position_bias_cancels_to_ties(llm):
    biased = LLM_PAIRWISE(criterion="POSITION-BIASED support", judge="llm")
    assert not biased.preferences(REQUEST, RESPONSES).any()
    explanation = biased.explain(REQUEST, RESPONSES[0], RESPONSES[1])
    assert explanation.decision == 0 and explanation.details["answer when shown as A"] == ("prefers full",
                                                                                          "prefers part")


def test_llm_pairwise_combines_reranks_and_evaluates(llm):
    axiom = LLM_PAIRWISE(criterion="support by the context", judge="llm")
    for combined in (axiom + COH1, axiom % COH1 % CORR1, axiom | COH1, 2 * axiom - COH1):
        matrix = combined.preferences(REQUEST, RESPONSES)
        assert np.array_equal(matrix, -matrix.T) and parse(repr(combined)) == combined
    assert np.array_equal(np.sign((axiom + 0.5 * COH1).preferences(REQUEST, RESPONSES)),
                          np.sign(np.array(EXPECTED) + 0.5 * COH1.preferences(REQUEST, RESPONSES)))
    from ir_rag_axioms.pyterrier import AxiomaticReranker

    frame = pd.DataFrame({"qid": "q1", "query": REQUEST.text, "docno": [r.id for r in RESPONSES],
                          "text": [r.text for r in RESPONSES], "context": [list(REQUEST.context)] * 4})
    ranked = AxiomaticReranker(axiom)(frame).sort_values("rank")
    assert ranked["docno"].tolist() == ["full", "blank", "part", "off"]  # part and blank tie: the input order, by docno
    table = evaluate_axioms({"pairwise": axiom}, [(REQUEST, RESPONSES)], [np.array(EXPECTED, dtype=float)])
    assert table.set_index("axiom").loc["pairwise", ["decisiveness", "consistency"]].tolist() == [0.5, 1.0]


def test_offline_judge_stands_in_with_the_registry_properties():
    matrix = check_axiom(LLM_PAIRWISE)
    assert matrix.shape == (6, 6) and not matrix[5].any()  # the blank sample response abstains
    assert LLM_PAIRWISE.preferences(REQUEST, RESPONSES)[0, 3] == 1  # the faithful answer beats the off-topic one
    relevance = LLM_PAIRWISE(criterion="answer relevancy to the question")
    assert relevance.preferences(REQUEST, RESPONSES)[0, 3] == 1
    assert offline_pairwise(OFFLINE_JUDGE, "faithfulness", [(None, None, "a b", "c d")]) == [
        ("tie", "no context to judge faithfulness against")]


def test_over_long_responses_abstain_with_a_warning(monkeypatch):
    monkeypatch.setenv("IR_RAG_AXIOMS_MAX_TEXT_CHARS", "40")  # read at call time
    with pytest.warns(UserWarning, match=r"\['full'\] longer than 40 characters"):
        matrix = LLM_PAIRWISE.preferences(REQUEST, RESPONSES)
    assert not matrix[0].any() and not matrix[:, 0].any()


def test_criteria_and_judges_are_checked():
    with pytest.raises(ValueError, match="offline judge cannot decide the criterion 'conciseness'.*judge='llm'"):
        LLM_PAIRWISE(criterion="conciseness")
    with pytest.raises(ValueError, match="criterion must be a non-blank text"):
        LLM_PAIRWISE(criterion="  ")
    with pytest.raises(ValueError, match="judge must be"):
        PairwiseJudgeAxiom(judge="gpt")
    assert LLM_PAIRWISE(criterion="conciseness", judge="llm").criterion == "conciseness"  # any criterion for an LLM


def test_an_unconfigured_llm_judge_says_how_to_configure(monkeypatch):
    for name in ("IR_RAG_AXIOMS_JUDGE_BASE_URL", "OPENAI_BASE_URL", "IR_RAG_AXIOMS_JUDGE_MODEL", "OPENAI_MODEL"):
        monkeypatch.delenv(name, raising=False)
    with pytest.raises(ToolUnavailableError, match="IR_RAG_AXIOMS_JUDGE_BASE_URL"):
        LLM_PAIRWISE(judge="llm").preferences(REQUEST, RESPONSES)


def test_the_offline_judge_reads_the_direction_of_the_criterion():
    """"less faithful", "hallucinates more" prefer the lower faithfulness level; "fewer hallucinations" the higher."""
    from ir_rag_axioms.metrics.interface import offline_direction

    faithful = LLM_PAIRWISE.preferences(REQUEST, RESPONSES)
    assert faithful[0, 1] == 1  # the supported answer beats the one that places the tower in Berlin
    for criterion in ("less faithful to the context", "hallucinates more", "more unsupported claims",
                      "not grounded in the context"):
        assert offline_direction(criterion) == -1, criterion
        assert np.array_equal(LLM_PAIRWISE(criterion=criterion).preferences(REQUEST, RESPONSES), -faithful), criterion
    for criterion in ("fewer hallucinations", "hallucination-free", "no fabricated facts", "faithfulness",
                      "support by the context", "more faithful"):
        assert offline_direction(criterion) == 1, criterion
    assert np.array_equal(LLM_PAIRWISE(criterion="fewer hallucinations").preferences(REQUEST, RESPONSES), faithful)
    reason = offline_pairwise(OFFLINE_JUDGE, "less faithful", [(None, REQUEST.context, RESPONSES[0].text,
                                                                 RESPONSES[1].text)])
    assert reason[0][0] == "second" and "lower level is better" in reason[0][1]
    with pytest.raises(ValueError, match="names a failure without saying which way is better"):
        LLM_PAIRWISE(criterion="hallucination")


def test_the_llm_judge_url_and_model_are_part_of_the_matrix_cache_key(llm, monkeypatch, tmp_path):
    """A second judge server (or model) is asked anew: the matrix cache does not serve it the first one's matrices."""
    from ir_rag_axioms.analysis.cache import axiom_identity
    from ir_rag_axioms.evaluation import compute_preferences
    from ir_rag_axioms.metrics.axioms import _llm_judge

    axiom = LLM_PAIRWISE(criterion="support by the context", judge="llm")
    first = axiom_identity(axiom)
    assert compute_preferences({"p": axiom}, [(REQUEST, RESPONSES)], cache_dir=tmp_path / "m")["p"][0].tolist() \
        == EXPECTED and len(llm.requests) == 6
    other = _start("vllm")
    try:
        monkeypatch.setenv("IR_RAG_AXIOMS_JUDGE_BASE_URL", _url(other))
        _llm_judge.cache_clear()
        assert axiom_identity(axiom) != first
        compute_preferences({"p": axiom}, [(REQUEST, RESPONSES)], cache_dir=tmp_path / "m")
        assert len(other.requests) == 6  # asked: not served from the first server's cached matrix
        monkeypatch.setenv("IR_RAG_AXIOMS_JUDGE_MODEL", "another-judge")
        assert axiom_identity(axiom) not in (first,) and axiom_identity(LLM_PAIRWISE) == axiom_identity(LLM_PAIRWISE())
    finally:
        _stop(other)
