"""pyterrier-rag as a companion: its transformers and measures and ours in one pt.Experiment, with no glue code.

Skipped unless pyterrier-rag is installed (``make install``, or ``pip install 'ir_rag_axioms[rag]'`` then
``pip install --no-deps pyterrier-rag==0.3.0``: README, "pyterrier-rag beside ir_rag_axioms").
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import pyterrier as pt
import pytest

pyterrier_rag = pytest.importorskip(
    "pyterrier_rag", reason="pyterrier-rag is not installed (make install, or pip install 'ir_rag_axioms[rag]' and "
                            "pip install --no-deps pyterrier-rag==0.3.0)")

from pyterrier_rag.measures import EM, F1, AnswerLen  # noqa: E402
from pyterrier_rag.prompt import Concatenator  # noqa: E402

from ir_rag_axioms import CONS2, COV1, AnswerRelevancy, Faithfulness  # noqa: E402
from ir_rag_axioms.evaluation.run_measures import KendallTau  # noqa: E402
from ir_rag_axioms.pyterrier import AxiomaticReranker, Pool  # noqa: E402
from ir_rag_axioms.pyterrier.metrics import MetricScorer  # noqa: E402

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
QRELS = pd.DataFrame({  # graded answers of the pooled systems, and the gold answers pyterrier-rag's measures read
    "qid": ["1", "1", "1", "2", "2", "2"],
    "docno": ["1/top1", "1/top2", "1/offtopic", "2/top1", "2/top2", "2/offtopic"],
    "label": [2, 2, 0, 2, 2, 0],
    "gold_answer": ["the gravitational pull of the Moon and the Sun"] * 3 + ["Rayleigh scattering of sunlight"] * 3,
})


def reader(topics_with_context: pd.DataFrame) -> pd.DataFrame:
    """An extractive reader: the answer is the concatenated context (no LLM here; pyterrier-rag's readers need one)."""
    return topics_with_context.assign(qanswer=topics_with_context["qcontext"].str.replace("\n", " "))


def systems() -> dict[str, pt.Transformer]:
    retriever = pt.Transformer.from_df(PASSAGES)
    read = pt.apply.generic(reader)
    worst = pt.Transformer.from_df(PASSAGES[PASSAGES["docno"].isin(["t3", "s3"])])
    return {"top1": retriever % 1 >> Concatenator() >> read,
            "top2": retriever % 2 >> Concatenator() >> read,
            "offtopic": worst >> Concatenator() >> read}


def test_pyterrier_rag_and_ours_in_one_experiment() -> None:
    pool = Pool(systems(), docno="{qid}/{system}")
    scorer = MetricScorer([AnswerRelevancy(), Faithfulness()])
    pipelines = [pool >> scorer,
                 pool >> AxiomaticReranker(COV1) >> scorer,
                 pool >> AxiomaticReranker([COV1, CONS2], "kwiksort") >> scorer]
    from ir_measures import nDCG

    with pytest.warns(UserWarning, match="one score for all their answers"):  # the unreranked pool: tied scores
        table = pt.Experiment(pipelines, TOPICS, QRELS,
                              [nDCG @ 3, KendallTau, F1, EM, AnswerLen, *scorer.measures()],
                              names=["pool", "COV1 (Borda)", "COV1+CONS2 (KwikSort)"])
    table = table.set_index("name")
    assert sorted(table.columns) == sorted(["nDCG@3", "KendallTau", "F1", "EM", "AnswerLen", "answer_relevancy_score",
                                   "faithfulness_score"])
    for k, name in ((1, "COV1 (Borda)"), (2, "COV1+CONS2 (KwikSort)")):
        ranked = pipelines[k](TOPICS)
        top = ranked[ranked["rank"] == 0].set_index("qid")
        assert top["system"].tolist() == ["top2", "top2"]  # more aspects of the question covered
        assert table.loc[name, "nDCG@3"] == pytest.approx(1.0)
        from pyterrier_rag._measures import f1_score

        expected_f1 = np.mean([f1_score(top.loc[q, "qanswer"], QRELS[QRELS.qid == q]["gold_answer"].iloc[0])
                               for q in ("1", "2")])
        assert table.loc[name, "F1"] == pytest.approx(expected_f1)
        assert table.loc[name, "AnswerLen"] == pytest.approx(top["qanswer"].str.len().mean())
        assert table.loc[name, "faithfulness_score"] == pytest.approx(top["faithfulness_score"].mean())
        assert table.loc[name, "EM"] == 0.0
    assert table.loc["COV1 (Borda)", "KendallTau"] > 0
