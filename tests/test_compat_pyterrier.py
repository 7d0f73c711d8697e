"""The reference's PyTerrier call forms on compat: frames with only qid and docno, empty frames, ``target=``,
``AxiomaticExperiment(retrieval_systems=...)``; and the call forms compat refuses, naming the reference's and ours."""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd
import pytest

pt = pytest.importorskip("pyterrier")

from ir_rag_axioms.compat.axiom import Axiom, UniformAxiom  # noqa: E402
from ir_rag_axioms.compat.axiom.utils import strictly_greater, strictly_less  # noqa: E402
from ir_rag_axioms.compat.integrations import (  # noqa: E402
    AggregatedAxiomaticPreferences,
    AxiomaticExperiment,
    AxiomaticPreferences,
    EstimatorKwikSortReranker,
    KwikSortReranker,
    inject_pyterrier,
)
from ir_rag_axioms.compat.model import Document  # noqa: E402
from ir_rag_axioms.compat.tools import MiddlePivotSelection, RandomPivotSelection  # noqa: E402


class _ShorterId(Axiom[Any, Document]):
    """Prefers the shorter docno, then the alphabetically smaller one."""

    def preference(self, input: Any, output1: Document, output2: Document) -> float:  # noqa: A002
        return strictly_less((len(output1.id), output1.id), (len(output2.id), output2.id))


def _frame() -> pd.DataFrame:
    return pd.DataFrame({"qid": ["t1"] * 4 + ["t2"] * 2, "docno": ["ccc", "a", "bb", "ab", "zz", "y"]})


def test_kwiksort_on_ids_only():
    out = KwikSortReranker(axiom=_ShorterId(), pivot_selection=MiddlePivotSelection()).transform(_frame())
    assert list(out.columns) == ["qid", "docno", "score", "rank"]
    assert out[out.qid == "t1"].docno.tolist() == ["a", "ab", "bb", "ccc"]
    assert out[out.qid == "t1"].score.tolist() == [0, -1, -2, -3] and out[out.qid == "t2"]["rank"].tolist() == [0, 1]
    empty = pd.DataFrame(columns=["qid", "docno"])
    pd.testing.assert_frame_equal(KwikSortReranker(axiom=_ShorterId()).transform(empty), empty)


def test_kwiksort_falls_back_to_the_original_ranking_and_seeds_the_random_pivot():
    frame = pd.DataFrame({"qid": ["t"] * 5, "docno": list("vwxyz"), "score": [0.1, 0.9, 0.5, 0.7, 0.3]})
    out = KwikSortReranker(axiom=UniformAxiom(scalar=0)).transform(frame)  # no preference: ORIG decides
    assert out.docno.tolist() == ["w", "y", "x", "z", "v"]
    reranker = KwikSortReranker(axiom=_ShorterId(), pivot_selection=RandomPivotSelection(seed=5))
    assert (reranker.pivot, reranker.seed) == ("random", 5)
    assert reranker.transform(frame).docno.tolist() == reranker.transform(frame).docno.tolist() == list("vwxyz")


def test_axiomatic_preferences_every_ordered_pair():
    out = AxiomaticPreferences(axioms=[_ShorterId()], axiom_names=["short"]).transform(_frame())
    assert list(out.columns) == ["qid", "docno_a", "docno_b", "short_preference"]
    assert len(out) == 4 * 4 + 2 * 2
    pairs = dict(zip(zip(out.docno_a, out.docno_b, strict=True), out.short_preference, strict=True))
    assert (pairs["a", "ccc"], pairs["ccc", "a"], pairs["bb", "bb"], pairs["zz", "y"]) == (1.0, -1.0, 0.0, -1.0)
    empty = AxiomaticPreferences(axioms=[_ShorterId()], axiom_names=["short"]).transform(
        pd.DataFrame(columns=["qid", "docno"]))
    assert list(empty.columns) == ["qid", "docno_a", "docno_b", "short_preference"] and len(empty) == 0
    with pytest.raises(ValueError, match="2 axiom_names"):
        AxiomaticPreferences(axioms=[_ShorterId()], axiom_names=["a", "b"])


def test_aggregated_preferences_aggregate_each_column():
    out = AggregatedAxiomaticPreferences(axioms=[_ShorterId()], aggregations=[max, min, sum]).transform(_frame())
    features = dict(zip(out.docno, (list(f) for f in out.features), strict=True))
    # column of "a" in t1: the others' preferences over it (all -1) and its own 0
    assert features["a"] == [0.0, -1.0, -3.0] and features["ccc"] == [1.0, 0.0, 3.0]
    assert features["y"] == [0.0, -1.0, -1.0]
    empty = AggregatedAxiomaticPreferences(axioms=[_ShorterId()]).transform(pd.DataFrame(columns=["qid", "docno"]))
    assert list(empty.columns) == ["qid", "docno", "features"]


def test_aggregated_preferences_refuse_no_aggregation():
    with pytest.raises(ValueError, match="needs at least one aggregation"):
        AggregatedAxiomaticPreferences(axioms=[_ShorterId()], aggregations=[])
    with pytest.raises(TypeError, match="each aggregation must be a callable on a list of floats .*'max'"):
        AggregatedAxiomaticPreferences(axioms=[_ShorterId()], aggregations=["max"])


def test_estimator_kwiksort_reranker_learns_a_target_axiom():
    pytest.importorskip("sklearn")
    from sklearn.linear_model import LinearRegression

    regression = LinearRegression()
    reranker = EstimatorKwikSortReranker(axioms=[_ShorterId(), -_ShorterId()], target=_ShorterId(),
                                         estimator=regression, pivot_selection=MiddlePivotSelection())
    reranker.fit(_frame(), pd.DataFrame(columns=["qid", "docno", "label"]))
    assert regression.coef_[0] > regression.coef_[1]
    assert reranker.transform(_frame()).docno.tolist() == ["a", "ab", "bb", "ccc", "y", "zz"]


def test_axiomatic_experiment_the_reference_way():
    run = pd.DataFrame({"qid": ["t1", "t1", "t1", "t2", "t2"], "docno": ["p", "q", "r", "p", "s"],
                        "score": [3.0, 2.0, 1.0, 2.0, 1.0], "rank": [0, 1, 2, 0, 1]})
    qrels = pd.DataFrame({"qid": ["t1", "t1", "t1", "t2", "t2"], "docno": ["p", "q", "r", "p", "s"],
                          "label": [0, 2, 1, 1, 0]})

    class ByName(Axiom[Any, Document]):
        def preference(self, input: Any, output1: Document, output2: Document) -> float:  # noqa: A002
            return strictly_greater(output1.id, output2.id)

    experiment = AxiomaticExperiment(retrieval_systems=[pt.Transformer.from_df(run)], names=["bm"],
                                     topics=pd.DataFrame({"qid": ["t1", "t2"]}), qrels=qrels, axioms=[ByName()],
                                     axiom_names=["NAME"], depth=2)
    prefs = experiment.preferences
    assert len(prefs) == 2 * 2 + 2 * 2 and set(prefs.name) == {"bm"}  # depth 2: p, q of t1; p, s of t2
    assert {"score_a", "rank_b", "label_a", "ORIG_preference", "ORACLE_preference", "NAME_preference"} <= set(prefs)
    distribution = experiment.preference_distribution.set_index("axiom")
    # ORIG prefers (t1: p>q), (t2: p>s); ORACLE agrees on t2 only; NAME prefers q>p (against) and s>p (against)
    assert distribution.loc["ORACLE"].tolist() == [0, 1, 1] and distribution.loc["NAME"].tolist() == [0, 0, 2]
    consistency = experiment.preference_consistency.set_index("axiom")
    assert consistency.loc["NAME", "ORIG_consistency"] == 0.0 and consistency.loc["NAME", "ORACLE_consistency"] == 0.5
    assert consistency.loc["ORACLE", "bm_consistency"] == 0.5
    inconsistent = experiment.inconsistent_pairs
    assert list(zip(inconsistent.docno_a, inconsistent.docno_b, strict=True)) == [("q", "p")]


# -- bad input: the reference's form and ours, never a silent reinterpretation ----------------------------------
def test_unsupported_call_forms_name_both_forms():
    with pytest.raises(TypeError, match=r"retrieval_systems=.*ours is ir_rag_axioms\.evaluation\.experiment"):
        AxiomaticExperiment(pd.DataFrame(), pd.DataFrame(), {})
    with pytest.raises(TypeError, match=r"takes no \['aggregation'\].*AxiomaticReranker"):
        KwikSortReranker(axiom=_ShorterId(), aggregation="borda")
    with pytest.raises(TypeError, match="pivot_selection must be MiddlePivotSelection"):
        KwikSortReranker(axiom=_ShorterId(), pivot_selection="middle")
    with pytest.raises(NotImplementedError, match="bind_index"):
        inject_pyterrier(index_location="/tmp/nothing")
    with pytest.raises(ValueError, match=r"missing \['docno'\]"):
        KwikSortReranker(axiom=_ShorterId()).transform(pd.DataFrame({"qid": ["t"]}))
    with pytest.raises(TypeError, match="analysis"):
        _ShorterId().preferences(None, [Document("a"), Document("b")], "an analysis")
    assert np.isfinite(_ShorterId().preferences(None, [Document("a"), Document("b")])).all()
