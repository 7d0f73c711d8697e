"""The specification's entry points on our machinery: cached, parallel, as_precondition, /, Uniform, ORACLE, GT/LT/DIST,
ASPECT_REG, index statistics, the vote rule, AxiomaticExperiment and the compat names."""

from __future__ import annotations

import subprocess
import sys
import textwrap

import numpy as np
import pandas as pd
import pytest

from ir_rag_axioms import (
    COH1,
    LEN_AND,
    TFC1,
    TFC3,
    GenerationRequest,
    GenerationResponse,
    MajorityVote,
    majority_vote,
)
from ir_rag_axioms.analysis.cache import Analysis
from ir_rag_axioms.axioms.combinators import Constant, MultiplicativeInverse, Uniform
from ir_rag_axioms.axioms.utility import DIST, GT, LT, NOP, OracleAxiom
from ir_rag_axioms.evaluation import vote_sweep

REQUEST = GenerationRequest("q1", "cat mat")
RESPONSES = [
    GenerationResponse("a", "The cat sat on the mat.", score=3.0),
    GenerationResponse("b", "A cat. A mat. The cat sat on a mat today.", score=1.0),
    GenerationResponse("c", "Dogs bark loudly at night in the old town.", score=2.0),
]


def test_preferences_accept_the_specifications_keywords():
    ours = GT.preferences(REQUEST, RESPONSES)
    assert np.array_equal(GT.preferences(input=REQUEST, outputs=RESPONSES), ours)
    assert GT.preference(input=REQUEST, output1=RESPONSES[0], output2=RESPONSES[1]) == 1.0
    assert [m.tolist() for m in GT.batch_preferences([(REQUEST, RESPONSES)])] == [ours.tolist()]
    with pytest.raises(TypeError, match="not both"):
        GT.preferences(REQUEST, RESPONSES, input=REQUEST)
    with pytest.raises(TypeError, match="missing argument responses"):
        GT.preferences(REQUEST)


def test_gt_lt_dist_compare_scores():
    assert GT.preferences(REQUEST, RESPONSES).tolist() == [[0, 1, 1], [-1, 0, -1], [-1, 1, 0]]
    assert np.array_equal(LT.preferences(REQUEST, RESPONSES), -GT.preferences(REQUEST, RESPONSES))
    assert DIST.preferences(REQUEST, RESPONSES).tolist() == [[0, 2, 1], [-2, 0, -1], [-1, 1, 0]]
    unscored = [GenerationResponse("x", "x"), GenerationResponse("y", "y", score=1.0)]
    assert GT.preferences(REQUEST, unscored).tolist() == [[0, 0], [0, 0]]  # no score: abstain


def test_division_is_the_product_with_the_multiplicative_inverse():
    weighted = Uniform(scalar=2.0) * GT
    halved = GT / Uniform(scalar=2.0)
    assert isinstance(Uniform(scalar=2.0), Constant)
    assert np.array_equal(weighted.preferences(REQUEST, RESPONSES), 2 * GT.preferences(REQUEST, RESPONSES))
    assert np.array_equal(halved.preferences(REQUEST, RESPONSES), 0.5 * GT.preferences(REQUEST, RESPONSES))
    assert np.array_equal(MultiplicativeInverse(DIST).preferences(REQUEST, RESPONSES),
                          [[0, 0.5, 1], [-0.5, 0, -1], [-1, 1, 0]])  # 1 / p, and 0 stays 0


def test_oracle_from_a_qrels_frame_and_a_trec_file(tmp_path):
    qrels = pd.DataFrame({"qid": ["q1", "q1"], "docno": ["a", "c"], "label": [0, 2]})
    expected = [[0, 0, -1], [0, 0, 0], [1, 0, 0]]  # b is unjudged: it abstains
    assert OracleAxiom(qrels=qrels).preferences(REQUEST, RESPONSES).tolist() == expected
    file = tmp_path / "qrels.txt"
    file.write_text("q1 0 a 0\nq1 0 c 2\n")
    assert OracleAxiom(qrels=file).preferences(REQUEST, RESPONSES).tolist() == expected
    with pytest.raises(ValueError, match="label"):
        OracleAxiom(qrels=qrels.drop(columns="label")).preferences(REQUEST, RESPONSES)


def test_precondition_nop_and_axiom_as_precondition():
    request = GenerationRequest("q", "cat mat")
    responses = [GenerationResponse("a", "cat mat"), GenerationResponse("b", "cat dog bird fish tree sun moon star")]
    assert LEN_AND.preferences(request, responses).tolist() == [[0, 0], [0, 0]]  # lengths differ: LEN holds nowhere
    assert LEN_AND(precondition=NOP()).preferences(request, responses).tolist() == [[0, 1], [-1, 0]]
    # GT as a precondition holds only where GT ties: responses with equal scores
    scored = [GenerationResponse("a", "cat mat", score=1.0), GenerationResponse("b", "cat", score=1.0),
              GenerationResponse("c", "mat", score=5.0)]
    gated = LEN_AND(precondition=GT.as_precondition())
    assert gated.preferences(request, scored).tolist() == [[0, 1, 0], [-1, 0, 0], [0, 0, 0]]
    assert repr(gated) == "LEN_AND(precondition=GT().as_precondition())"


def test_vote_at_exactly_minimum_votes_decides_everywhere():
    """Two of four votes with minimum_votes 0.5: "at least" decides in %, MajorityVote, the sweep and KwikSort."""
    pro, con = np.array([[0.0, 1.0], [-1.0, 0.0]]), np.zeros((2, 2))
    stack = np.stack([pro, pro, con, con])
    assert majority_vote(stack, minimum_votes=0.5).tolist() == [[0, 1], [-1, 0]]
    assert majority_vote(stack, minimum_votes=0.51).tolist() == [[0, 0], [0, 0]]
    assert majority_vote(stack[[0, 2]], minimum_votes=0.5).tolist() == [[0, 1], [-1, 0]]  # 1 of 2 votes
    request = GenerationRequest("q", "x")
    responses = [GenerationResponse("a", "a", score=2.0), GenerationResponse("b", "b", score=1.0)]
    assert (GT % NOP).preferences(request, responses).tolist() == [[0, 1], [-1, 0]]
    assert MajorityVote((GT, NOP, GT, NOP)).preferences(request, responses).tolist() == [[0, 1], [-1, 0]]
    sweep = vote_sweep({"GT": [stack[0]], "NOP": [con]}, [np.array([[0.0, 1.0], [-1.0, 0.0]])], [0.5])
    assert sweep["decisiveness"].iloc[0] == 1.0
    from ir_rag_axioms.aggregation import scored_ranking

    order, _ = scored_ranking(np.stack([-pro, -pro, con, con]), "kwiksort")
    assert order.tolist() == [1, 0]  # the vote at exactly 0.5 reorders


def test_cached_reuses_matrices_across_processes(tmp_path):
    """A second process reads the first one's matrices from the store: an axiom that cannot run gives them."""
    store = tmp_path / "store"
    first = COH1.cached(store)
    expected = first.preferences(REQUEST, RESPONSES)
    script = textwrap.dedent(f"""
        import numpy as np
        from unittest import mock
        from ir_rag_axioms import COH1, GenerationRequest, GenerationResponse
        from ir_rag_axioms.axioms.coherence import WordLengthDeviationCoherenceAxiom
        request = GenerationRequest("q1", "cat mat")
        responses = [GenerationResponse("a", "The cat sat on the mat.", score=3.0),
                     GenerationResponse("b", "A cat. A mat. The cat sat on a mat today.", score=1.0),
                     GenerationResponse("c", "Dogs bark loudly at night in the old town.", score=2.0)]
        with mock.patch.object(WordLengthDeviationCoherenceAxiom, "values", side_effect=AssertionError("computed")):
            print(COH1.cached({str(store)!r}).preferences(request, responses).tolist())
    """)
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120,
                          env={**__import__("os").environ, "IR_RAG_AXIOMS_CACHE": ""})
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.strip().splitlines()[-1] == str(expected.tolist())
    other = COH1(margin_fraction=0.5).cached(store)  # another configuration: another key
    assert other.preferences(REQUEST, RESPONSES).shape == (3, 3)


def test_parallel_gives_the_same_matrices():
    assert repr(TFC1.parallel(n_jobs=2)) == "TFC1().parallel(2)"
    assert np.array_equal(TFC1.parallel(n_jobs=1).preferences(REQUEST, RESPONSES), TFC1.preferences(REQUEST, RESPONSES))
    with pytest.raises(ValueError, match="n_jobs"):
        TFC1.parallel(n_jobs=0)


def test_aspect_reg_counts_covered_aspects():
    from ir_rag_axioms.axioms.retrieval import ASPECT_REG, FixedStatistics

    stats = FixedStatistics.from_mapping({"cat": 10, "mat": 10}, 100)  # equally discriminative
    request = GenerationRequest("q", "cat mat")
    responses = [GenerationResponse("a", "A cat on a mat."), GenerationResponse("b", "A cat."),
                 GenerationResponse("c", "A dog.")]
    axiom = ASPECT_REG(statistics=stats, aspect_similarity=0.99)  # cat and mat: two aspects
    assert axiom.preferences(request, responses).tolist() == [[0, 1, 1], [-1, 0, 1], [-1, -1, 0]]
    unequal = FixedStatistics.from_mapping({"cat": 1, "mat": 90}, 100)
    assert not ASPECT_REG(statistics=unequal).preferences(request, responses).any()


def test_index_statistics_from_a_pisa_index(tmp_path):
    pisa = pytest.importorskip("pyterrier_pisa")
    from ir_rag_axioms.axioms.retrieval import IndexStatistics

    index = pisa.PisaIndex(str(tmp_path / "index"), stemmer="none", stops="none", threads=1)
    index.index([{"docno": "1", "text": "cat sat on the mat"}, {"docno": "2", "text": "the cat cat"},
                 {"docno": "3", "text": "a dog"}])
    stats = IndexStatistics.of(index)
    assert stats.document_count() == 3
    assert [stats.document_frequency(t) for t in ("cat", "mat", "dog", "unicorn")] == [2, 1, 1, 0]
    assert IndexStatistics.of(tmp_path / "index") == stats  # by folder, equal by location
    request = GenerationRequest("q", "cat dog")
    responses = [GenerationResponse("a", "cat dog"), GenerationResponse("b", "cat cat dog dog dog")]
    idf = stats.idf(request, responses, ["cat", "dog"], Analysis())
    assert idf[1] > idf[0]  # dog is rarer in the index
    assert TFC3(statistics=stats).preferences(request, responses).shape == (2, 2)


class _Lexicon:
    def __init__(self, df):
        self.df = df

    def getLexiconEntry(self, term):  # noqa: N802  (Terrier's API)
        return None if term not in self.df else type("Entry", (), {"getDocumentFrequency": lambda s: self.df[term]})()


def test_index_statistics_read_the_terrier_api():
    """A Terrier index object (duck-typed: Java is not available here) is read through its lexicon."""
    from ir_rag_axioms.axioms.retrieval import IndexStatistics

    terrier = type("Index", (), {
        "getCollectionStatistics": lambda s: type("S", (), {"getNumberOfDocuments": lambda t: 50})(),
        "getLexicon": lambda s: _Lexicon({"cat": 5}),
    })()
    stats = IndexStatistics.of(terrier)
    assert (stats.document_count(), stats.document_frequency("cat"), stats.document_frequency("dog")) == (50, 5, 0)
    with pytest.raises(TypeError, match="PisaIndex"):
        IndexStatistics.of(object())


def _terrier(documents: int, cat_df: int):
    return type("Index", (), {
        "getCollectionStatistics": lambda s: type("S", (), {"getNumberOfDocuments": lambda t: documents})(),
        "getLexicon": lambda s: _Lexicon({"cat": cat_df}),
    })()


def test_the_bound_index_belongs_to_the_binding_the_caller_holds():
    """``bind_index`` returns an ``IndexBinding``: it nests, closes (restoring the one before) and is per thread."""
    import threading

    from ir_rag_axioms.compat.axiom import TFC3 as SPEC_TFC3
    from ir_rag_axioms.compat.tools import IndexBinding, bind_index, bound_index

    assert bound_index() is None
    with pytest.raises(ValueError, match="none are bound"):  # as the reference: no statistics, no TFC3
        SPEC_TFC3()
    with bind_index(_terrier(50, 5)) as outer:
        assert isinstance(outer, IndexBinding) and outer.bound
        assert bound_index() is outer.statistics and SPEC_TFC3().statistics is outer.statistics
        inner = bind_index(_terrier(7, 1))
        assert inner is not None and SPEC_TFC3().statistics.document_count() == 7
        seen: list = []
        thread = threading.Thread(target=lambda: seen.append(bound_index()))
        thread.start()
        thread.join()
        assert seen == [None]  # another thread does not see this thread's binding
        inner.close()
        inner.close()  # closing twice does nothing
        assert not inner.bound and bound_index() is outer.statistics
    assert not outer.bound and bound_index() is None
    bind_index(_terrier(3, 1))
    assert bound_index().document_count() == 3
    assert bind_index(None) is None and bound_index() is None  # the old way to unbind still works


def test_a_closed_binding_is_never_in_effect_out_of_order_or_from_another_thread():
    import threading

    from ir_rag_axioms.compat.tools import bind_index, bound_index

    outer = bind_index(_terrier(50, 5))
    inner = bind_index(_terrier(7, 1))
    outer.close()  # out of order: the outer one first
    assert bound_index() is inner.statistics  # the open one stays in effect
    inner.close()
    assert bound_index() is None  # not the closed outer one
    first, second = bind_index(_terrier(11, 1)), bind_index(_terrier(13, 1))
    thread = threading.Thread(target=second.close)  # closed in another thread
    thread.start()
    thread.join()
    assert not second.bound and bound_index() is first.statistics
    other = threading.Thread(target=first.close)
    other.start()
    other.join()
    assert bound_index() is None
    bind_index(None)


def test_axiomatic_experiment_counts_agreement_and_correctable_pairs():
    from ir_rag_axioms.evaluation.experiment import AxiomaticExperiment

    run = pd.DataFrame({"qid": ["q"] * 3, "query": ["x"] * 3, "docno": ["a", "b", "c"], "text": ["x", "y", "z"],
                        "score": [3.0, 2.0, 1.0]})
    qrels = pd.DataFrame({"qid": ["q"] * 3, "docno": ["a", "b", "c"], "label": [0, 1, 2]})
    experiment = AxiomaticExperiment(run, qrels, {"GT": GT, "LT": LT})
    table = experiment.preference_consistency.set_index("axiom")
    assert table.loc["GT", "orig_consistency"] == 1.0 and table.loc["GT", "oracle_consistency"] == 0.0
    assert table.loc["LT", "orig_consistency"] == 0.0 and table.loc["LT", "oracle_consistency"] == 1.0
    pairs = experiment.inconsistent_pairs
    assert sorted(zip(pairs["docno_a"], pairs["docno_b"], strict=True)) == [("b", "a"), ("c", "a"), ("c", "b")]
    only_gt = AxiomaticExperiment(run, qrels, {"GT": GT})
    assert only_gt.inconsistent_pairs.empty  # ORACLE itself does not count as a correcting axiom


def test_compat_names_build_the_reference_behaviours():
    from ir_rag_axioms.axioms.presets import ICTIR2025
    from ir_rag_axioms.compat.axiom import CLAR2, CORR1, COV1, GEN_STMC2, GEN_TFC1, TrecRagCrowdAxiom, aSLDoc
    from ir_rag_axioms.compat.tools import SpacyEntitiesAspectExtraction

    assert CORR1(margin_fraction=0.75) == ICTIR2025["CORR1"]
    assert CLAR2(margin_fraction=0.5) == ICTIR2025["CLAR2"]
    assert COV1(aspect_extraction=SpacyEntitiesAspectExtraction(), margin_fraction=0.5) == ICTIR2025["COV1"]
    assert GEN_TFC1() == ICTIR2025["GEN_TFC1"] and GEN_STMC2() == ICTIR2025["GEN_STMC2"]
    assert repr(aSLDoc()) == "aSL(reference_preconditions=True)"
    crowd = TrecRagCrowdAxiom(utility_type="broad coverage", ratings_path="r.jsonl.gz")
    assert (crowd.utility, crowd.duplicates, crowd.ratings_path) == ("broad coverage", "last", "r.jsonl.gz")
    from ir_rag_axioms import CORR1 as OURS

    assert OURS.higher_is_better  # our namespace keeps the stated intuition


def test_kwiksort_reranker_defaults_to_a_seeded_random_pivot():
    from ir_rag_axioms.compat.integrations import KwikSortReranker
    from ir_rag_axioms.compat.tools import MiddlePivotSelection, RandomPivotSelection

    assert (KwikSortReranker(GT).pivot, KwikSortReranker(GT).seed) == ("random", 0)
    assert KwikSortReranker(GT, pivot_selection=MiddlePivotSelection()).pivot == "middle"
    assert KwikSortReranker(GT, pivot_selection=RandomPivotSelection(seed=3)).seed == 3
    with pytest.raises(TypeError, match="pivot_selection"):
        KwikSortReranker(GT, pivot_selection="middle")


def test_estimator_names_fit_the_reference_way():
    """``ScikitLearnEstimatorAxiom`` fits its estimator in place to a target axiom (``fit(target, inputs_outputs)``);
    ``EstimatorKwikSortReranker(axioms, estimator=, target=)`` fits on results and qrels, then reranks."""
    pytest.importorskip("sklearn")
    pytest.importorskip("pyterrier")
    import numpy as np
    import pandas as pd
    import pyterrier as pt
    from sklearn.ensemble import RandomForestClassifier

    from ir_rag_axioms.axioms.learned import ResponseLength
    from ir_rag_axioms.compat.axiom import ScikitLearnEstimatorAxiom
    from ir_rag_axioms.compat.integrations.pyterrier import EstimatorKwikSortReranker
    from ir_rag_axioms.compat.model import Document, Query
    from ir_rag_axioms.compat.tools import MiddlePivotSelection

    LENGTH = ResponseLength()  # noqa: N806  (the axioms' naming)
    rng = np.random.default_rng(0)
    items = [(Query(f"q{q}", "cats"),
              [Document(f"d{d}", " ".join(["cat"] * int(rng.integers(3, 40)))) for d in range(4)]) for q in range(6)]
    forest = RandomForestClassifier(random_state=0)
    axiom = ScikitLearnEstimatorAxiom(axioms=[LENGTH], estimator=forest)
    assert axiom.fit(target=LENGTH, inputs_outputs=items) is None and hasattr(forest, "classes_")  # in place
    request, responses = items[0]
    assert np.array_equal(axiom.preferences(request, responses), LENGTH.preferences(request, responses))
    with pytest.raises(TypeError, match="reference's order is the target axiom first"):
        axiom.fit(items, LENGTH)  # our LearnedAxiom.fit(items, target) order: refused, not reinterpreted

    rows = [{"qid": r.id, "query": r.text, "docno": f"{r.id}/{x.id}", "text": x.text} for r, xs in items for x in xs]
    frame = pd.DataFrame(rows)
    qrels = frame.assign(label=frame["text"].str.split().str.len() // 10)[["qid", "docno", "label"]]
    reranker = EstimatorKwikSortReranker(axioms=[LENGTH], estimator=RandomForestClassifier(random_state=0),
                                         pivot_selection=MiddlePivotSelection())
    assert isinstance(reranker, pt.Estimator)
    reranker.fit(frame, qrels)  # target: ORACLE() on the qrels' labels
    out = reranker.transform(frame)
    for _, group in out.groupby("qid"):
        labels = group.sort_values("rank")["text"].str.split().str.len().floordiv(10).to_list()
        assert labels == sorted(labels, reverse=True)
    with pytest.raises(TypeError, match="needs axioms and an estimator"):
        EstimatorKwikSortReranker([LENGTH])
