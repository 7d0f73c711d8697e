"""pyterrier-rag as a companion: its own Reader, OpenAIBackend and Concatenator, and its measures, beside ours.

The reader is pyterrier-rag's real ``Reader(OpenAIBackend(...))``; the LLM is the only stand-in: a deterministic
OpenAI-compatible server on 127.0.0.1 (no LLM runs here), answering ``/v1/chat/completions`` and ``/v1/completions``.
Model "extractive" answers with the context it was given, "closed-book" with a sentence that ignores it. No glue code
between the pipelines and our transformers: the Reader's output (``qid, query_0, prompt, qanswer``, no ``qcontext``)
goes into ``Pool`` as it is.

Skipped unless pyterrier-rag is installed (``make install``, or ``pip install 'ir_rag_axioms[rag]'`` then
``pip install --no-deps pyterrier-rag==0.3.0``: README, "pyterrier-rag beside ir_rag_axioms").
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator

import numpy as np
import pandas as pd
import pyterrier as pt
import pytest
from conftest import JsonHandler, loopback_server

pyterrier_rag = pytest.importorskip(
    "pyterrier_rag", reason="pyterrier-rag is not installed (make install, or pip install 'ir_rag_axioms[rag]' and "
                            "pip install --no-deps pyterrier-rag==0.3.0)")
pytest.importorskip("openai", reason="pyterrier-rag's OpenAIBackend needs openai")

from pyterrier_rag._measures import f1_score  # noqa: E402
from pyterrier_rag.backend import OpenAIBackend  # noqa: E402
from pyterrier_rag.measures import EM, F1, AnswerLen  # noqa: E402
from pyterrier_rag.prompt import Concatenator  # noqa: E402
from pyterrier_rag.readers import Reader  # noqa: E402

from ir_rag_axioms import CONS2, COV1, AnswerRelevancy, Faithfulness  # noqa: E402
from ir_rag_axioms.evaluation import with_gold_answers  # noqa: E402
from ir_rag_axioms.evaluation.run_measures import GOLD_ONLY_DOCNO, KendallTau  # noqa: E402
from ir_rag_axioms.evaluation.systems import compare_systems  # noqa: E402
from ir_rag_axioms.pyterrier import AxiomaticReranker, BestOfN, Pool, WithContext  # noqa: E402
from ir_rag_axioms.pyterrier.metrics import MetricScorer  # noqa: E402
from ir_rag_axioms.pyterrier.pool import NoContextWarning  # noqa: E402
from ir_rag_axioms.pyterrier.transformers import AbstentionWarning  # noqa: E402

TOPICS = pd.DataFrame({"qid": ["1", "2"], "query": ["What causes ocean tides?", "Why is the sky blue?"]})
PASSAGES = pd.DataFrame({
    "qid": ["1", "1", "1", "2", "2", "2"],
    "docno": ["t1", "t2", "t3", "s1", "s2", "s3"],
    "text": ["Ocean tides are caused by the gravitational pull of the Moon and the Sun on the oceans.",
             "The Moon's gravity raises a bulge of water on the side of the Earth facing it.",
             "Many sailors enjoy the ocean on a calm day.",
             "The sky is blue because air molecules scatter blue sunlight more than red light (Rayleigh scattering).",
             "Shorter wavelengths of sunlight are scattered more strongly by the gases of the atmosphere.",
             "Some people paint their ceilings blue."],
    "score": [3.0, 2.0, 1.0, 3.0, 2.0, 1.0], "rank": [0, 1, 2, 0, 1, 2],
}).merge(TOPICS, on="qid")
CLOSED_BOOK = "Nobody can tell for sure, and it is different every single day."
QRELS = pd.DataFrame({  # graded answers of the pooled systems
    "qid": ["1"] * 4 + ["2"] * 4,
    "docno": [f"{q}/{s}" for q in "12" for s in ("top1", "top2", "offtopic", "closedbook")],
    "label": [2, 2, 0, 0] * 2,
})
ANSWERS = pd.DataFrame({  # pyterrier-rag's get_answers(): one row per gold answer (two for topic 1)
    "qid": ["1", "1", "2"],
    "gold_answer": ["the gravitational pull of the Moon and the Sun", "the Moon", "Rayleigh scattering of sunlight"],
})


def _answer(model: str, prompt: str, sample: int = 0) -> str:
    """The stand-in LLM: the prompt's context as one line ("extractive"), or a fixed sentence ("closed-book").

    "sampler" gives its n samples in turn: the closed-book sentence, the context, the context's first sentence
    followed by an unsupported one (``SAMPLES``).
    """
    if model == "closed-book":
        return CLOSED_BOOK
    context = " ".join(re.findall(r"Context: (.*?) \n Question:", prompt, re.S)[-1].split())
    if model == "sampler":
        return [CLOSED_BOOK, context, context.split(". ")[0] + ". " + UNSUPPORTED][sample % 3]
    return context


UNSUPPORTED = "Penguins build their nests out of copper wire every spring."


class OpenAICompatible(JsonHandler):
    """``/v1/chat/completions`` and ``/v1/completions`` in OpenAI's response shapes; records each request."""

    requests: list[dict] = []

    def do_POST(self) -> None:  # noqa: N802 - http.server's name
        body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        type(self).requests.append({"path": self.path, **body})
        n = int(body.get("n") or 1)
        if self.path == "/v1/chat/completions":
            choices = [{"index": k, "message": {"role": "assistant", "content": _answer(
                body["model"], body["messages"][-1]["content"], k)}, "finish_reason": "stop"} for k in range(n)]
            kind = "chat.completion"
        elif self.path == "/v1/completions":
            choices = [{"index": k, "text": _answer(body["model"], body["prompt"], k), "logprobs": None,
                        "finish_reason": "stop"} for k in range(n)]
            kind = "text_completion"
        else:
            self.send_error(404)
            return
        self.send_json(json.dumps({"id": "cmpl-0", "object": kind, "created": 0, "model": body["model"],
                                   "choices": choices}).encode())


@pytest.fixture(scope="module")
def llm() -> Iterator[str]:
    """The loopback server's base URL (``.../v1``), with proxies bypassed for it."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("NO_PROXY", "127.0.0.1,localhost")
        patch.setenv("no_proxy", "127.0.0.1,localhost")
        with loopback_server(OpenAICompatible) as url:
            yield f"{url}/v1"


def reader(url: str, model: str = "extractive", api: str = "chat/completions") -> Reader:
    """pyterrier-rag's Reader over its OpenAIBackend, pointed at the loopback server."""
    return Reader(OpenAIBackend(model, api_key="test-key", base_url=url, api=api, max_retries=0, parallel=1))


def systems(url: str, api: str = "chat/completions") -> dict[str, pt.Transformer]:
    """Four RAG pipelines as pyterrier-rag users write them: retriever % k >> Concatenator() >> Reader(...)."""
    retriever = pt.Transformer.from_df(PASSAGES)
    worst = pt.Transformer.from_df(PASSAGES[PASSAGES["docno"].isin(["t3", "s3"])])
    return {"top1": retriever % 1 >> Concatenator() >> reader(url, api=api),
            "top2": retriever % 2 >> Concatenator() >> reader(url, api=api),
            "offtopic": worst >> Concatenator() >> reader(url, api=api),
            "closedbook": retriever % 2 >> Concatenator() >> reader(url, "closed-book", api)}


def test_the_real_reader_gives_query_0_and_no_qcontext(llm: str) -> None:
    """What the pool has to accept: pyterrier-rag 0.3.0's Reader output as it is."""
    out = systems(llm)["top2"](TOPICS)
    assert sorted(out.columns) == ["prompt", "qanswer", "qid", "query_0"]
    assert out["qanswer"].iloc[0] == " ".join(PASSAGES["text"].iloc[:2])


@pytest.mark.parametrize("api", ["chat/completions", "completions"])
def test_pool_keeps_the_context_the_concatenator_gave_the_reader(llm: str, api: str) -> None:
    OpenAICompatible.requests.clear()
    pooled = Pool(systems(llm, api), docno="{qid}/{system}")(TOPICS)
    assert {r["path"] for r in OpenAICompatible.requests} == {f"/v1/{api}"}
    assert len(OpenAICompatible.requests) == 8  # four systems, two topics
    assert pooled["query"].tolist() == [TOPICS["query"].iloc[0]] * 4 + [TOPICS["query"].iloc[1]] * 4
    expected = (pt.Transformer.from_df(PASSAGES) % 2 >> Concatenator())(TOPICS).set_index("qid")["qcontext"]
    top2 = pooled[pooled["system"] == "top2"].set_index("qid")
    assert top2["qcontext"].to_dict() == expected.to_dict()  # the joined text the reader saw
    passages = PASSAGES.groupby("qid")["text"].apply(lambda t: list(t)[:2]).to_dict()
    assert top2["context"].to_dict() == passages  # each passage the Concatenator joined, best first
    assert top2["qanswer"].to_dict() == {q: " ".join(c.split()) for q, c in expected.items()}
    assert (pooled[pooled["system"] == "closedbook"]["qanswer"] == CLOSED_BOOK).all()


def test_context_axioms_see_the_readers_context_and_refuse_silence_without_it(llm: str) -> None:
    pool = Pool(systems(llm), docno="{qid}/{system}")
    ranked = (pool >> AxiomaticReranker(CONS2))(TOPICS)
    assert (ranked["decided"] > 0).all()
    assert ranked.groupby("qid")["system"].last().tolist() == ["closedbook", "closedbook"]  # ignores its context
    # a pipeline whose stages Pool cannot see (one opaque transformer): warned, and CONS2 abstains loudly
    hidden = {name: pt.apply.generic(lambda t, p=p: p(t)) for name, p in systems(llm).items()}
    with pytest.warns(NoContextWarning, match="'top1' gives its answers without the passages"):
        blind = Pool(hidden, docno="{qid}/{system}")(TOPICS)
    assert blind["context"].isna().all()
    with pytest.warns(AbstentionWarning, match="decided no pair in this run"):
        again = AxiomaticReranker(CONS2)(blind)
    assert (again["decided"] == 0).all()


def test_one_experiment_with_pyterrier_rag_measures_and_ours(llm: str) -> None:
    from ir_measures import nDCG

    pool = Pool(systems(llm), docno="{qid}/{system}")
    scorer = MetricScorer([AnswerRelevancy(), Faithfulness()])
    qrels = with_gold_answers(QRELS, ANSWERS)
    assert len(qrels) == len(QRELS) and qrels.groupby("qid")["gold_answer"].apply(set).to_dict() == {
        "1": {"the gravitational pull of the Moon and the Sun", "the Moon"}, "2": {"Rayleigh scattering of sunlight"}}
    pipelines = [pool >> AxiomaticReranker(COV1) >> scorer,
                 pool >> AxiomaticReranker([COV1, CONS2], "kwiksort") >> scorer]
    table = pt.Experiment(pipelines, TOPICS, qrels, [nDCG @ 3, KendallTau, F1, EM, AnswerLen, *scorer.measures()],
                          names=["COV1 (Borda)", "COV1+CONS2 (KwikSort)"]).set_index("name")
    for k, name in enumerate(table.index):
        ranked = pipelines[k](TOPICS)
        top = ranked[ranked["rank"] == 0].set_index("qid")
        assert top["system"].tolist() == ["top2", "top2"]  # more aspects of the question covered
        assert table.loc[name, "nDCG@3"] == pytest.approx(1.0)
        expected_f1 = np.mean([max(f1_score(top.loc[q, "qanswer"], g) for g in ANSWERS[ANSWERS.qid == q].gold_answer)
                               for q in ("1", "2")])
        assert table.loc[name, "F1"] == pytest.approx(expected_f1) and expected_f1 > 0
        assert table.loc[name, "AnswerLen"] == pytest.approx(top["qanswer"].str.len().mean())
        assert table.loc[name, "faithfulness_score"] == pytest.approx(top["faithfulness_score"].mean())
        assert top["faithfulness_score"].notna().all()  # the reader's context reached Faithfulness
        assert table.loc[name, "EM"] == 0.0
    assert table.loc["COV1 (Borda)", "KendallTau"] > 0


def test_with_gold_answers_adds_rows_for_answers_beyond_the_qrels_and_refuses_unanswered_queries() -> None:
    few = QRELS[QRELS["docno"].isin(["1/top1", "2/top1"])]
    qrels = with_gold_answers(few, ANSWERS)
    assert qrels["docno"].tolist() == ["1/top1", "2/top1", GOLD_ONLY_DOCNO.format(k=1)]
    assert qrels["label"].tolist() == [2, 2, 0] and qrels["qid"].tolist() == ["1", "2", "1"]
    assert set(qrels[qrels.qid == "1"]["gold_answer"]) == set(ANSWERS[ANSWERS.qid == "1"]["gold_answer"])
    listed = ANSWERS.groupby("qid")["gold_answer"].apply(list).reset_index()  # one list per query
    pd.testing.assert_frame_equal(with_gold_answers(few, listed), qrels)
    with pytest.raises(ValueError, match="1 queries of the qrels have no gold answer.*'2'"):
        with_gold_answers(few, ANSWERS[ANSWERS.qid == "1"])


def test_metric_scorer_and_compare_systems_take_the_readers_output(llm: str) -> None:
    lone = systems(llm)["top2"]
    with pytest.warns(UserWarning, match=r"faithfulness_score is NaN for 2 of 2 answers \(no context to judge "
                                         r"against\)"):
        scored = (lone >> MetricScorer([AnswerRelevancy(), Faithfulness()]))(TOPICS)  # query_0, no qcontext
    assert scored["answer_relevancy_score"].notna().all() and scored["faithfulness_score"].isna().all()
    table = compare_systems([COV1, CONS2], systems(llm), TOPICS, samples=0)
    cons2 = table[table["axiom"] == "CONS2"].set_index("system")
    assert cons2.loc["closedbook", "rank"] == 4 and cons2["win_rate"].notna().all()
    assert table[table["axiom"] == "COV1"].iloc[0]["system"] == "top2"


def sampler(url: str, k: int = 3) -> pt.Transformer:
    """k answers per query from pyterrier-rag's own parts: the Reader's prompt, then OpenAIBackend's text generator.

    pyterrier-rag 0.3.0's ``Reader`` takes no ``num_responses``; its prompt and its backend's
    ``text_generator(num_responses=k)`` give what a sampling reader gives: k rows per query, no docno, rank or score.
    """
    backend = OpenAIBackend("sampler", api_key="test-key", base_url=url, max_retries=0, parallel=1)
    return Reader(backend).prompt >> backend.text_generator(num_responses=k)


def test_best_of_n_samples_of_the_real_reader_gives_one_answer_per_query_that_its_measures_score(llm: str) -> None:
    pipeline = pt.Transformer.from_df(PASSAGES) % 2 >> Concatenator() >> sampler(llm)
    samples = pipeline(TOPICS)
    assert len(samples) == 6 and not {"docno", "rank", "score"} & set(samples.columns)
    assert samples.groupby("qid")["qanswer"].nunique().tolist() == [3, 3]
    best = (pipeline >> BestOfN([COV1]))(TOPICS)
    cut = (pipeline >> AxiomaticReranker([COV1]) % 1)(TOPICS)
    pd.testing.assert_frame_equal(best, cut)
    assert best["qid"].tolist() == ["1", "2"] and best["docno"].tolist() == ["1/1", "2/1"]  # qid/position
    assert best["qanswer"].tolist() == [" ".join(PASSAGES["text"].iloc[k:k + 2]) for k in (0, 3)]  # the grounded one
    assert (best["rank"] == 0).all() and (best["decided"] == 3).all()
    qrels = with_gold_answers(pd.DataFrame({"qid": ["1", "2"], "docno": ["1/1", "2/1"], "label": [1, 1]}), ANSWERS)
    table = pt.Experiment({"best of 3": pipeline >> BestOfN([COV1])}, TOPICS, qrels, [F1, AnswerLen]).set_index("name")
    expected_f1 = np.mean([max(f1_score(best.set_index("qid").loc[q, "qanswer"], g)
                               for g in ANSWERS[ANSWERS.qid == q].gold_answer) for q in ("1", "2")])
    assert table.loc["best of 3", "F1"] == pytest.approx(expected_f1) and expected_f1 > 0
    assert table.loc["best of 3", "AnswerLen"] == pytest.approx(best["qanswer"].str.len().mean())


def test_with_context_keeps_the_passages_the_concatenator_joined_for_per_passage_axioms(llm: str) -> None:
    pipeline = pt.Transformer.from_df(PASSAGES) % 2 >> Concatenator() >> sampler(llm)
    kept = WithContext(pipeline)(TOPICS)
    passages = PASSAGES.groupby("qid")["text"].apply(lambda t: list(t)[:2]).to_dict()
    assert kept.groupby("qid")["context"].first().to_dict() == passages
    joined = (pt.Transformer.from_df(PASSAGES) % 2 >> Concatenator())(TOPICS).set_index("qid")["qcontext"]
    assert kept.groupby("qid")["qcontext"].first().to_dict() == joined.to_dict()
    best = (WithContext(pipeline) >> BestOfN([CONS2]))(TOPICS)
    assert best["docno"].tolist() == ["1/1", "2/1"] and (best["decided"] == 3).all()  # the supported sample
    with pytest.warns(AbstentionWarning, match="decided no pair in this run"):
        blind = (pipeline >> BestOfN([CONS2]))(TOPICS)  # the reader dropped the context: CONS2 cannot judge
    assert blind["docno"].tolist() == ["1/0", "2/0"]  # the sampling order, not a choice
    assert WithContext(pipeline) == WithContext(pipeline) and WithContext(pipeline) != WithContext(sampler(llm))
