"""Exact values of the retrieval and GEN_ axioms on crafted term sequences (hand-checkable counts and positions)."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pytest

from ir_rag_axioms.analysis.cache import Analysis
from ir_rag_axioms.analysis.resources import ToolUnavailableError
from ir_rag_axioms.analysis.similarity import TermSimilarity
from ir_rag_axioms.analysis.terms import TermStatistics
from ir_rag_axioms.axioms import generative as G
from ir_rag_axioms.axioms import retrieval as R
from ir_rag_axioms.axioms.base import analyse
from ir_rag_axioms.axioms.preconditions import LEN
from ir_rag_axioms.axioms.registry import REGISTRY, get, parse
from ir_rag_axioms.axioms.retrieval import argument as A
from ir_rag_axioms.axioms.retrieval import proximity as X
from ir_rag_axioms.axioms.retrieval.statistics import FixedStatistics, RetrievalScores
from ir_rag_axioms.model import GenerationRequest, GenerationResponse


def T(text: str, sentences: tuple[int, ...] | None = None) -> TermStatistics:
    """Term statistics of a space-separated term sequence."""
    return TermStatistics(tuple(text.split()), sentences)


def prefs(axiom, query: str, docs: list[str], **kwargs) -> np.ndarray:
    return axiom.from_statistics(T(query), [T(d) for d in docs], **kwargs)


@dataclass(frozen=True)
class TableSimilarity(TermSimilarity):
    """sim from a fixed table (1 for identical terms, 0 if not listed)."""

    table: tuple[tuple[str, str, float], ...]

    def matrix(self, first, second, analysis):
        lookup = {}
        for a, b, v in self.table:
            lookup[(a, b)] = lookup[(b, a)] = v
        return np.array([[1.0 if a == b else lookup.get((a, b), 0.0) for b in second] for a in first]).reshape(
            len(first), len(second))


def test_tfc1_relative_tf_with_length_precondition():
    docs = ["a a b x x x x x x x", "a x x x x x x x x x", "a a b b " + "x " * 16]  # tf sums .3, .1, .2
    assert prefs(R.TFC1(), "a b", docs).tolist() == [[0, 1, 0], [-1, 0, 0], [0, 0, 0]]
    reference = R.TFC1(reference_preconditions=True)
    assert prefs(reference, "a b", docs).tolist() == [[0, 1, 1], [-1, 0, -1], [-1, 1, 0]]
    assert prefs(R.TFC1(precondition=None), "a b", docs).tolist() == [[0, 1, 1], [-1, 0, -1], [-1, 1, 0]]


def test_tfc1_margin():
    docs = ["a b x x x x x x x x", "a x x x x x x x x x x"]  # .2 vs .0909
    assert prefs(R.TFC1(), "a b", docs).tolist() == [[0, 1], [-1, 0]]
    assert prefs(R.TFC1(margin_fraction=0.6), "a b", docs).tolist() == [[0, 0], [0, 0]]


def test_lnc1_prefers_shorter_when_query_tf_ties():
    docs = ["a x x x", "a a x x x x x x", "x x"]  # relative tf .25, .25, 0
    assert prefs(R.LNC1(), "a", docs).tolist() == [[0, 1, 0], [-1, 0, 0], [0, 0, 0]]


def test_tf_lnc_counts_points_per_query_term():
    docs = ["a a x y", "a x y", "b x"]
    assert prefs(R.TF_LNC(), "a b", docs).tolist() == [[0, 1, 1], [-1, 0, 1], [-1, -1, 0]]


def test_tfc3_with_fixed_idf():
    stats = FixedStatistics.from_mapping({"a": 1, "b": 1}, 10)
    docs = ["a b x x", "a a x x", "x x x x"]
    assert prefs(R.TFC3(statistics=stats), "a b", docs).tolist() == [[0, 1, 0], [-1, 0, 0], [0, 0, 0]]
    unequal = FixedStatistics.from_mapping({"a": 1, "b": 8}, 10)
    assert prefs(R.TFC3(statistics=unequal), "a b", docs).tolist() == [[0, 0, 0]] * 3


def test_m_tdc_and_len_m_tdc():
    stats = FixedStatistics.from_mapping({"a": 1, "b": 5}, 10)  # a is more discriminative
    docs = ["a a b x", "a b b x", "a x x x", "a a b " + "x " * 10]
    expected = [[0, 1, 0, 0], [-1, 0, 0, -1], [0, 0, 0, 0], [0, 1, 0, 0]]
    assert prefs(R.M_TDC(statistics=stats), "a b", docs).tolist() == expected
    assert prefs(R.LEN_M_TDC(statistics=stats), "a b", docs).tolist() == [[0, 1, 0, 0], [-1, 0, 0, 0],
                                                                          [0, 0, 0, 0], [0, 0, 0, 0]]


def test_lb1_with_given_scores():
    request = GenerationRequest("q", "a b")
    responses = [GenerationResponse("0", "", score=1.0), GenerationResponse("1", "", score=1.05),
                 GenerationResponse("2", "", score=5.0)]
    out = prefs(R.LB1(statistics=RetrievalScores()), "a b", ["a b", "a x", "x x"], request=request, responses=responses)
    assert out.tolist() == [[0, 1, 0], [-1, 0, 0], [0, 0, 0]]


def test_reg_and_anti_reg_pick_least_and_most_similar_term():
    similarity = TableSimilarity((("a", "b", 0.9),))  # means: a .633, b .633, c .333
    docs = ["c x x x", "a b x x"]
    assert prefs(R.REG(similarity=similarity), "a b c", docs).tolist() == [[0, 1], [-1, 0]]
    assert prefs(R.ANTI_REG(similarity=similarity), "a b c", docs).tolist() == [[0, -1], [1, 0]]
    assert R.REG(similarity=similarity).aspect_terms(T("a b c"), Analysis()) == ["c"]
    assert R.ANTI_REG(similarity=similarity).aspect_terms(T("a b c"), Analysis()) == ["a", "b"]
    # tied aspect terms a and b: a preference only where both terms agree
    tied = ["a b x x", "a x x x", "b x x x", "a a b b"]
    assert prefs(R.ANTI_REG(similarity=similarity), "a b c", tied).tolist() == [
        [0, 0, 0, -1], [0, 0, 0, -1], [0, 0, 0, -1], [1, 1, 1, 0]]


def test_and_m_and_div_and_len_variants():
    docs = ["a b c x", "a b x x", "x y"]
    assert prefs(R.AND(), "a b c", docs).tolist() == [[0, 1, 1], [-1, 0, 0], [-1, 0, 0]]
    assert prefs(R.M_AND(), "a b c", docs).tolist() == [[0, 1, 1], [-1, 0, 1], [-1, -1, 0]]
    # Jaccard .75, .5, 0: lower is better
    assert prefs(R.DIV(), "a b c", docs).tolist() == [[0, -1, -1], [1, 0, -1], [1, 1, 0]]
    # lengths 4, 4, 2: the third document is outside the LEN precondition
    assert prefs(R.LEN_AND(), "a b c", docs).tolist() == [[0, 1, 0], [-1, 0, 0], [0, 0, 0]]
    assert prefs(R.LEN_M_AND(), "a b c", docs).tolist() == [[0, 1, 0], [-1, 0, 0], [0, 0, 0]]
    assert prefs(R.LEN_DIV(), "a b c", docs).tolist() == [[0, -1, 0], [1, 0, 0], [0, 0, 0]]


def test_stmc1_and_stmc2():
    similarity = TableSimilarity((("a", "b", 0.8), ("a", "c", 0.2)))
    assert prefs(R.STMC1(similarity=similarity), "a", ["b", "c"]).tolist() == [[0, 1], [-1, 0]]
    similarity = TableSimilarity((("a", "b", 0.9),))
    # most similar pair (a, b); |d2| / |d1| = 4 / 2 = tf(b, d2) / tf(a, d1) = 2 / 1 -> d1 preferred
    out = prefs(R.STMC2(similarity=similarity), "a", ["a x", "b b y z", "y z"])
    assert out.tolist() == [[0, 1, 0], [-1, 0, 0], [0, 0, 0]]
    # the reference divides each tf by its length before comparing with |d2| / |d1|: 2 ~ (2 / 4) / (1 / 2) fails, while
    # "b b b b" (4 / 4) / (1 / 2) = 2 passes (but not our documented rule: 4 / 1 vs 2)
    reference = R.STMC2(similarity=similarity, reference_asymmetry=True, reference_relative_tf=True)
    assert prefs(reference, "a", ["a x", "b b y z", "y z"]).tolist() == [[0, 0, 0], [0, 0, 0], [0, 0, 0]]
    assert prefs(reference, "a", ["a x", "b b b b"]).tolist() == [[0, 1], [-1, 0]]
    assert prefs(R.STMC2(similarity=similarity), "a", ["a x", "b b b b"]).tolist() == [[0, 0], [0, 0]]


def test_proximity_axioms():
    docs = ["a b x x", "a x x b", "x a x x", "x x b a", "a b x a b"]
    # shared query terms {a, b} for all but document 2 (only a)
    assert prefs(X.PROX1(), "a b", docs).tolist() == [  # |first a - first b|: 1, 3, -, 1, 1
        [0, 1, 0, 0, 0], [-1, 0, 0, -1, -1], [0, 0, 0, 0, 0], [0, 1, 0, 0, 0], [0, 1, 0, 0, 0]]
    assert prefs(X.PROX2(), "a b", docs).tolist() == [  # first a + first b: 1, 3, -, 5, 1
        [0, 1, 0, 1, 0], [-1, 0, 0, 1, -1], [0, 0, 0, 0, 0], [-1, -1, 0, 0, -1], [0, 1, 0, 1, 0]]
    assert prefs(X.PROX3(), "a b", docs).tolist() == [  # phrase "a b" at 0, -, -, -, 0
        [0, 1, 0, 1, 0], [-1, 0, 0, 0, -1], [0, 0, 0, 0, 0], [-1, 0, 0, 0, -1], [0, 1, 0, 1, 0]]
    assert prefs(X.PROX4(), "a b", docs).tolist() == [  # (gap, count): (0,1), (2,1), -, (0,1), (0,2)
        [0, 1, 0, 0, -1], [-1, 0, 0, -1, -1], [0, 0, 0, 0, 0], [0, 1, 0, 0, -1], [1, 1, 0, 1, 0]]
    # mean shortest covering span per occurrence: 2, 4, -, 2, (2 + 2 + 2 + 2) / 4
    assert prefs(X.PROX5(), "a b", docs).tolist() == [
        [0, 1, 0, 0, 0], [-1, 0, 0, -1, -1], [0, 0, 0, 0, 0], [0, 1, 0, 0, 0], [0, 1, 0, 0, 0]]
    # "a x b x x a": spans 3 (a0, b2), 3, 4 (b2 .. a5) -> 10 / 3 > 2
    assert prefs(X.PROX5(), "a b", ["a b x x x x", "a x b x x a"]).tolist() == [[0, 1], [-1, 0]]


def test_proximity_needs_two_shared_terms():
    assert prefs(X.PROX2(), "a b", ["a x", "x a"]).tolist() == [[0, 0], [0, 0]]


def test_asl_with_reference_switch():
    docs = [T("x " * 30, (15, 15)), T("x " * 10, (5, 5)), T("x " * 29, (29,))]
    assert R.aSL().from_statistics(T("a"), docs).tolist() == [[0, 0, 1], [0, 0, 0], [-1, 0, 0]]
    assert R.aSL(reference_preconditions=True).from_statistics(T("a"), docs).tolist() == [
        [0, 1, 1], [-1, 0, 0], [-1, 0, 0]]
    assert R.aSL(min_sentence_length=4, max_sentence_length=6).from_statistics(T("a"), docs).tolist() == [
        [0, 0, 0], [0, 0, 0], [0, 0, 0]]  # documents 0 and 1 differ but fail LEN


PRECONDITIONED = [a for a in REGISTRY.values() if isinstance(a, R.TermAxiom) and hasattr(a, "precondition")
                  and not isinstance(a, A._ArgumentAxiom)]


@pytest.mark.parametrize("axiom", PRECONDITIONED, ids=repr)
def test_every_precondition_is_respected(axiom):
    """Where LEN fails (lengths 4 vs 12), no preference; reference mode only lifts it where the reference does."""
    similarity = TableSimilarity((("a", "b", 0.5),))
    kwargs = {"similarity": similarity} if hasattr(axiom, "similarity") else {}
    if hasattr(axiom, "statistics"):
        kwargs["statistics"] = FixedStatistics.from_mapping({"a": 1, "b": 5}, 10)
    if axiom.precondition is None:
        axiom = axiom(precondition=LEN(), **kwargs)
    else:
        axiom = axiom(**kwargs)
    docs = [T("a b a x", (4,)), T("a x y z a b b y z x y z", (12,)), T("b y y z", (4,))]
    mask = LEN().mask(T("a b"), docs)
    responses = [GenerationResponse(str(i), "text", score=1.0) for i in range(3)]
    out = axiom.from_statistics(T("a b"), docs, GenerationRequest("q", "a b"), responses)
    assert (out[~mask] == 0).all()


def test_reference_switch_exists_exactly_where_the_reference_skips_preconditions():
    with_switch = {n for n, a in REGISTRY.items() if getattr(a, "reference_skips_precondition", False)
                   and not n.startswith("GEN_")}
    assert with_switch == {"TFC1", "TFC3", "REG", "ANTI_REG", "ArgUC", "QTArg", "QTPArg", "aSL"}


def test_argument_axioms_need_a_tagger():
    request = GenerationRequest("q", "nuclear power")
    responses = [GenerationResponse("0", "Nuclear power is safe."), GenerationResponse("1", "It rains.")]
    with pytest.raises(ToolUnavailableError, match="argument tagger"):
        A.ArgUC().preferences(request, responses)


def _sentences_with_because(text: str):
    spans, start = [], 0
    for part in text.split("."):
        if "because" in part:
            spans.append((start, start + len(part)))
        start += len(part) + 1
    return spans


def test_argument_axioms_with_a_function_tagger():
    tagger = A.FunctionTagger(_sentences_with_because)
    request = GenerationRequest("q", "nuclear power")
    responses = [
        GenerationResponse("0", "Nuclear power is safe because reactors are robust. "
                                "Nuclear power is cheap because fuel costs little."),
        GenerationResponse("1", "Solar panels are cheap because sunlight is free. "
                                "Nuclear power exists in many countries today."),
    ]
    assert A.ArgUC(tagger=tagger, precondition=None).preferences(request, responses).tolist() == [[0, 1], [-1, 0]]
    assert A.QTArg(tagger=tagger, precondition=None).preferences(request, responses).tolist() == [[0, 1], [-1, 0]]
    # response 0: nuclear and power at term positions 0 and 1; response 1: not in a unit -> penalty
    assert A.QTPArg(tagger=tagger, precondition=None).preferences(request, responses).tolist() == [[0, 1], [-1, 0]]


def test_gen_axioms_on_parsed_text():
    request = GenerationRequest("q1", "dog food", ("Dog food contains meat.", "Cats eat fish."))
    responses = [GenerationResponse("r0", "Dog food is good food for a dog."),
                 GenerationResponse("r1", "Cats sleep all day long in the sun."),
                 GenerationResponse("r2", "   ")]
    out = G.GEN_TFC1.preferences(request, responses)
    assert out.tolist() == [[0, 1, 0], [-1, 0, 0], [0, 0, 0]]
    assert G.GEN_AND.preferences(request, responses).tolist() == [[0, 1, 0], [-1, 0, 0], [0, 0, 0]]
    assert G.GEN_LB1.preferences(request, responses).tolist() == [[0, 0, 0], [0, 0, 0], [0, 0, 0]]
    assert G.GEN_M_TDC.preferences(request, responses).shape == (3, 3)


def test_generative_names_registry_and_reconfiguration():
    assert G.GEN_TF_LNC.name == "GEN_TF_LNC"
    assert get("GEN-TF-LNC") is G.GEN_TF_LNC
    assert get("GEN-aSL") is G.GEN_aSL
    assert repr(G.GEN_TFC1) == "GEN_TFC1()"
    changed = G.GEN_TFC1(margin_fraction=0.2)
    assert repr(changed) == "GEN_TFC1(margin_fraction=0.2)"
    assert parse("GEN_TFC1(margin_fraction=0.2)") == changed
    assert repr(G.GEN_TFC3) == "GEN_TFC3()"
    assert repr(G.GEN_LB1).startswith("GEN_LB1(statistics=ContextStatistics(")
    assert set(G.ICTIR2025_GENERATIVE) <= set(G.GENERATIVE_AXIOMS)
    assert len(G.ICTIR2025_GENERATIVE) == 14
    with pytest.raises(TypeError):
        G.GEN_TFC1(no_such_parameter=1)


def test_wordnet_similarity_is_wu_palmer_of_first_synsets():
    from ir_rag_axioms.analysis.similarity import WordNetTermSimilarity

    try:
        sims = WordNetTermSimilarity().matrix(["dog", "car"], ["cat", "automobile", "qwxz"], Analysis())
    except ToolUnavailableError as error:
        pytest.skip(str(error))
    # dog.n.01 and cat.n.01: 0.857143 (= 12 / 14, as NLTK's wup_similarity); car and automobile share
    # car.n.01; an unknown word has no synset (0).
    assert np.round(sims, 6).tolist() == [[0.857143, 0.4, 0.0], [0.32, 1.0, 0.0]]


def test_embedding_similarity_alternative():
    from ir_rag_axioms.analysis.similarity import EmbeddingTermSimilarity

    sims = EmbeddingTermSimilarity().matrix(["cat"], ["cat", "car"], Analysis())
    assert sims.shape == (1, 2) and sims[0, 0] == pytest.approx(1.0, abs=1e-5) and sims[0, 1] < 0.9


def test_context_statistics_idf_and_bm25():
    from ir_rag_axioms.axioms.retrieval.statistics import ContextStatistics

    request = GenerationRequest("q", "cat dog", ("cat dog", "cat"))
    responses = [GenerationResponse("0", "dog dog"), GenerationResponse("1", "cat")]
    source = ContextStatistics()
    analysis = Analysis()
    analyse([G.GEN_TFC3], [(request, responses)], analysis)
    idf = source.idf(request, responses, ["cat", "dog", "fish"], analysis)  # df 2, 1, 0 over N = 2 passages
    assert np.allclose(idf, [np.log(1.2), np.log(2.0), np.log(6.0)])
    # avgdl 1.5; dog dog: idf(dog) * 2 * 2.2 / (2 + 1.2 * (0.25 + 0.75 * 2 / 1.5));
    # cat: idf(cat) * 2.2 / (1 + 1.2 * 0.75)
    expected = [np.log(2.0) * 4.4 / (2 + 1.2 * 1.25), np.log(1.2) * 2.2 / (1 + 1.2 * 0.75)]
    assert np.allclose(source.scores(request, responses, analysis), expected)


@pytest.mark.parametrize("axiom", [A.ArgUC, A.QTArg, A.QTPArg, A.QTPArg(penalty=None), G.GEN_ArgUC], ids=repr)
def test_argument_axioms_properties_with_a_tagger(axiom):
    """The registry's property tests skip these (no tagger there): antisymmetry and permutation equivariance here."""
    axiom = axiom(tagger=A.FunctionTagger(_sentences_with_because))
    request = GenerationRequest("q", "cats sleep")
    texts = ["Cats sleep because they hunt at night. Cats sleep a lot.", "Dogs bark because cats sleep.", "",
             "Cats sleep. Nothing else.", "Because because because cats sleep sleep."]
    responses = [GenerationResponse(str(i), t) for i, t in enumerate(texts)]
    p = axiom.preferences(request, responses)
    assert (p == -p.T).all() and (np.diag(p) == 0).all() and set(np.unique(p)) <= {-1.0, 0.0, 1.0}
    assert (p[2] == 0).all()  # the blank response abstains
    order = [3, 1, 4, 0, 2]
    assert (axiom.preferences(request, [responses[i] for i in order]) == p[np.ix_(order, order)]).all()
