"""Code written for the reference implementation runs on ``ir_rag_axioms.compat``: its data model, its way of writing
an axiom, its combinators, cache, estimator, dependency injection and PyTerrier call forms (our texts and values;
the reference's own suite runs from a copy outside the repository, see docs/ir-axioms.md)."""

from __future__ import annotations

import dataclasses
import math
from typing import Any

import numpy as np
import pytest

from ir_rag_axioms.compat.axiom import (
    LB1,
    LEN_M_TDC,
    M_TDC,
    NOP,
    ORACLE,
    ORIG,
    PROX4,
    TDC,
    TFC1,
    TFC3,
    Axiom,
    ScikitLearnEstimatorAxiom,
    UniformAxiom,
    VoteAxiom,
)
from ir_rag_axioms.compat.axiom.base import CascadeAxiom
from ir_rag_axioms.compat.axiom.utils import approximately_equal, strictly_fewer, strictly_greater, strictly_less
from ir_rag_axioms.compat.model import Document, MissingTextError, Query


class _ById(Axiom[Any, Document]):
    """Prefers the larger id (the reference's way: ``preference`` only)."""

    def preference(self, input: Any, output1: Document, output2: Document) -> float:  # noqa: A002
        return strictly_greater(output1.id, output2.id)


@dataclasses.dataclass(kw_only=True)
class _Mutable(Axiom[Any, Any]):
    """A mutable dataclass axiom (``preferences`` only), on any inputs."""

    value: float

    def preferences(self, input: Any, outputs: Any) -> np.ndarray:  # noqa: A002
        return np.full((len(outputs), len(outputs)), self.value)


@pytest.fixture
def unbound():
    """No IndexStatistics bound in the compat injector before or after the test."""
    pytest.importorskip("injector")
    from ir_rag_axioms.compat.dependency_injection import unbind
    from ir_rag_axioms.compat.tools import IndexStatistics

    unbind(IndexStatistics)
    yield
    unbind(IndexStatistics)


# -- the data model ---------------------------------------------------------------------------------------------
def test_document_takes_the_reference_positional_order():
    doc = Document("d7", "some words", 3.5, 2, 1.0)
    assert (doc.id, doc.text, doc.score, doc.rank, doc.relevance) == ("d7", "some words", 3.5, 2, 1.0)
    keyed = Document(id="d7", text="some words", rank=2, score=3.5, relevance=1.0)
    assert keyed == doc and hash(keyed) == hash(doc)
    # ORIG reads the third positional argument as the score (where ours would read a rank): higher score wins
    q = Query("q", "words")
    assert ORIG().preference(q, Document("a", "x", 9.0), Document("b", "x", 1.0)) == 1
    assert ORIG().preference(q, Document("a", "x", rank=4), Document("b", "x", rank=1)) == -1


def test_text_may_be_left_out_but_is_never_read_as_empty():
    q, a, b = Query("q"), Document("a", score=1.0), Document("b", score=0.5)
    assert not q.has_text and not a.has_text and repr(a).startswith("Document(id='a', text=None")
    assert NOP().preference(q, a, b) == 0 and ORIG().preference(q, a, b) == 1
    with pytest.raises(MissingTextError, match="Document 'a' has no text"):
        _ = a.text
    with pytest.raises(MissingTextError, match="has no text"):
        TFC1().preference(Query("q", "heron"), a, Document("c", "heron heron"))
    assert Document("e", "").has_text  # an empty text is a text


def test_oracle_reads_relevance_and_refuses_unjudged_documents():
    q = Query("q")
    assert ORACLE().preference(q, Document("a", relevance=2), Document("b", relevance=0)) == 1
    assert ORACLE().preference(q, Document("a", relevance=0), Document("b", relevance=3)) == -1
    with pytest.raises(ValueError, match="judged documents only"):
        ORACLE().preference(q, Document("a", relevance=1), Document("b"))


# -- writing an axiom the reference's way ----------------------------------------------------------------------
def test_a_generic_subclass_overriding_preference_gives_the_full_matrix():
    docs = [Document("b"), Document("c"), Document("a")]
    matrix = _ById().preferences(Query("q"), docs)
    assert matrix.tolist() == [[0, -1, 1], [1, 0, 1], [-1, -1, 0]]
    assert _ById().preference(Query("q"), docs[1], docs[0]) == 1
    assert repr(_ById()) == "_ById()" and (-_ById()).preferences(Query("q"), docs).tolist() == (-matrix).tolist()


def test_a_mutable_dataclass_subclass_on_strings():
    axiom = _Mutable(value=1.5)
    assert axiom.preference("i", "o1", "o2") == 1.5
    axiom.value = -2.0
    assert axiom.preferences("i", ["o1", "o2", "o3"]).tolist() == [[-2.0] * 3] * 3


def test_an_axiom_overriding_neither_method_is_refused():
    class Empty(Axiom[Any, Any]):
        pass

    with pytest.raises(TypeError, match="overrides neither preference"):
        Empty().preferences("i", ["a", "b"])


# -- the reference's combinators: full matrices, the diagonal included -----------------------------------------
def test_combinators_fill_the_diagonal_with_the_combined_value():
    q, docs = Query("q"), [Document("x"), Document("y"), Document("z")]
    u = {v: UniformAxiom(scalar=v) for v in (-1.5, 0, 2, 5)}

    def full(axiom: Any) -> set[float]:
        return set(np.unique(axiom.preferences(q, docs)).tolist())

    assert full(u[2]) == {2.0} and full(u[2] + u[5] + u[-1.5]) == {5.5} and full(u[2] * u[5]) == {10.0}
    assert full(u[5] / u[2]) == {2.5} and full(u[5] / u[0]) == {0.0}  # 1/0 is 0 here (the reference: inf)
    assert full(u[2] & u[5]) == {1.0} and full(u[2] & u[-1.5]) == {0.0} and full(u[-1.5] & u[-1.5]) == {-1.0}
    assert full(u[0] | u[-1.5] | u[5]) == {-1.5} and full(+u[5]) == {1.0} and full(-u[2]) == {-2.0}
    assert full(u[2] % u[5] % u[0]) == {1.0}
    assert full(VoteAxiom(axioms=[u[2], u[5], u[0]], minimum_votes=0.75)) == {0.0}  # 2 of 3 < ceil(0.75 * 3)
    assert full(VoteAxiom(axioms=[u[2], u[-1.5], u[-1.5], u[0]])) == {-1.0}
    assert full(u[2] + 3) == {5.0}  # a number is a uniform axiom
    assert isinstance(u[0] | _ById(), CascadeAxiom)
    assert (u[0] | _ById()).preferences(q, docs).tolist() == _ById().preferences(q, docs).tolist()


def test_our_combinators_keep_a_zero_diagonal():
    """The deliberate difference: our namespace's arithmetic leaves the diagonal at 0."""
    from ir_rag_axioms import GenerationRequest, GenerationResponse
    from ir_rag_axioms.axioms.combinators import Uniform

    request, responses = GenerationRequest("q", "t"), [GenerationResponse("a", "x"), GenerationResponse("b", "y")]
    assert (Uniform(2.0) + Uniform(3.0)).preferences(request, responses).tolist() == [[0, 5], [5, 0]]


# -- the cache -----------------------------------------------------------------------------------------------------
def test_cached_pairs_survive_a_change_of_the_axiom(tmp_path):
    axiom = _Mutable(value=4.0)
    cached = axiom.cached(tmp_path / "store")
    assert cached.preferences("in", ["u", "v"]).tolist() == [[4.0, 4.0], [4.0, 4.0]]
    axiom.value = 7.0
    assert cached.preference("in", "u", "v") == 4.0  # stored: read back
    assert cached.preference("in", "v", "w") == 7.0  # new pair: computed now
    again = _Mutable(value=-1.0).cached(tmp_path / "store")  # another instance on the same file
    assert again.preferences("in", ["u", "v"]).tolist() == [[4.0, 4.0], [4.0, 4.0]]
    assert (tmp_path / "store" / "preferences.sqlite").is_file()


def test_cached_refuses_unpicklable_outputs_and_survives_a_damaged_file(tmp_path):
    import threading

    cached = _Mutable(value=2.0).cached(tmp_path / "store")
    with pytest.raises(TypeError, match=r"keys each pair by its pickled input and outputs, and these cannot be"):
        cached.preferences("in", ["u", threading.Lock()])
    (tmp_path / "damaged").mkdir()
    (tmp_path / "damaged" / "preferences.sqlite").write_bytes(b"not a database " * 100)
    with pytest.warns(UserWarning, match=r"preferences.sqlite is damaged .*moved it to preferences.sqlite.damaged-"):
        matrix = _Mutable(value=3.0).cached(tmp_path / "damaged").preferences("in", ["u", "v"])
    assert matrix.tolist() == [[3.0, 3.0], [3.0, 3.0]]
    assert _Mutable(value=5.0).cached(tmp_path / "damaged").preference("in", "u", "v") == 3.0  # the new file works
    (tmp_path / "a-file").write_text("x")
    with pytest.raises(ValueError, match="the cache path is a file; give a folder"):
        _Mutable(value=1.0).cached(tmp_path / "a-file").preference("in", "u", "v")


# -- the estimator -------------------------------------------------------------------------------------------------
def test_scikit_learn_estimator_axiom_learns_the_target():
    pytest.importorskip("sklearn")
    from sklearn.linear_model import LinearRegression

    q, docs = Query("q"), [Document(i) for i in ("k", "m", "b", "x")]
    regression = LinearRegression()
    learned = ScikitLearnEstimatorAxiom(axioms=[-_ById(), UniformAxiom(scalar=1), _ById()], estimator=regression)
    learned.fit(target=_ById(), inputs_outputs=[(q, docs)])
    assert regression.coef_[2] - regression.coef_[0] == pytest.approx(1.0)
    assert learned.preferences(q, docs[::-1]) == pytest.approx(_ById().preferences(q, docs[::-1]), abs=1e-9)
    assert learned.preference(q, docs[3], docs[0]) == pytest.approx(1.0)
    with pytest.raises(TypeError, match="needs both"):
        learned.fit(target=_ById())


# -- dependency injection: index statistics -------------------------------------------------------------------------
class _Table:
    """Reference-style index statistics from a fixed table (df 0 for unknown terms)."""

    def __init__(self, frequencies: dict[str, int], count: int) -> None:
        self.frequencies, self.count = frequencies, count

    @property
    def document_count(self) -> int:
        return self.count

    def document_frequency(self, term: str) -> int:
        return self.frequencies.get(term, 0)


def _bind(table: _Table) -> None:
    from injector import InstanceProvider

    from ir_rag_axioms.compat.dependency_injection import injector
    from ir_rag_axioms.compat.tools import IndexStatistics

    injector.binder.bind(IndexStatistics, to=InstanceProvider(table))


def test_axioms_that_need_idf_refuse_without_bound_statistics(unbound):
    for name in (TFC3, M_TDC, LEN_M_TDC, TDC):
        with pytest.raises(ValueError, match=r"none are bound: bind them as the reference does, injector\.binder"):
            name()
    # LB1 reads scores, not idf: it still runs (equal scores, the query term only in the first)
    assert LB1().preference(Query("q", "owl"), Document("a", "owl moss", 1.0), Document("b", "lark moss", 1.0)) == 1


def test_bound_statistics_give_the_idf(unbound):
    from ir_rag_axioms.compat.tools import InjectedStatistics

    _bind(_Table({"owl": 1, "lark": 4}, 8))
    built = M_TDC()
    assert isinstance(built.statistics, InjectedStatistics)
    idf = built.statistics.idf(None, [], ["owl", "lark", "wren"], None)  # type: ignore[arg-type]
    assert idf.tolist() == pytest.approx([math.log(8), math.log(2), 0.0])  # ln(N / df); 0 where df = 0


def test_m_tdc_follows_the_bound_collection(unbound):
    """Swapping which term is rare flips M_TDC's decision: the statistics decide, not the two candidates."""
    query = Query("q", "owl lark")
    first, second = Document("a", "owl owl lark moss"), Document("b", "owl lark lark moss")
    _bind(_Table({"owl": 1, "lark": 6}, 10))
    rare_owl = M_TDC().preference(query, first, second)
    _bind(_Table({"owl": 6, "lark": 1}, 10))
    rare_lark = M_TDC().preference(query, first, second)
    assert rare_owl != 0 and rare_lark == -rare_owl


def test_default_bindings_resolve(unbound):
    from ir_rag_axioms.compat.dependency_injection import bound_statistics, injector
    from ir_rag_axioms.compat.tools import TermTokenizer, TextContents
    from ir_rag_axioms.compat.utils.lazy import lazy_inject

    assert bound_statistics() is None
    assert injector.get(TextContents[Document]).contents(Document("d", "Herons fish.")) == "Herons fish."
    tokenizer = injector.get(TermTokenizer)
    assert list(tokenizer.terms("The herons were fishing")) == ["heron", "fish"]  # our terms: lemmas, no stopwords
    assert tokenizer.unique_terms("heron heron owl") == {"heron", "owl"}
    assert lazy_inject(type(tokenizer))(model="en_core_web_sm") == tokenizer


# -- PROX4 as the reference groups ----------------------------------------------------------------------------------
def test_prox4_counts_one_closest_grouping_per_query_term_occurrence():
    from ir_rag_axioms import PROX4 as OURS
    from ir_rag_axioms.compat.axiom.proximity import closest_groupings

    query = Query("q", "heron otter")
    three = Document("a", "heron moss otter moss heron")  # groupings (0, 2), (4, 2), (2, 0): gap 1, three times
    four = Document("b", "heron moss otter pine pine heron moss otter")  # four groupings of gap 1
    assert PROX4().preference(query, three, four) == -1 and PROX4().preference(query, four, three) == 1
    assert OURS.preference(query, three, four) == 0  # ours: two minimal windows of gap 1 in each
    from ir_rag_axioms.analysis.terms import TermStatistics

    stats = TermStatistics(("heron", "moss", "otter", "moss", "heron"))
    assert sorted(closest_groupings(stats, ["heron", "otter"])) == [(0, 2), (2, 0), (4, 2)]  # a tie: the earlier


# -- empty contents -------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("name", ["TFC1", "LNC1", "PROX1", "PROX4", "AND", "M_AND", "DIV", "STMC1", "aSL", "REG"])
def test_empty_texts_do_not_decide_or_stay_antisymmetric(name):
    from ir_rag_axioms.compat import axiom as compat_axiom

    axiom = getattr(compat_axiom, name)()
    full, empty = Document("a", "owl lark wren", 2), Document("b", "", 1)
    assert axiom.preference(Query("q", ""), full, Document("c", "owl lark wren", 1)) == 0
    query = Query("q", "owl lark wren")
    assert axiom.preference(query, full, empty) == -axiom.preference(query, empty, full)
    assert axiom.preference(query, empty, Document("d", "", 1)) == 0


# -- the helpers --------------------------------------------------------------------------------------------------
def test_comparison_helpers():
    assert (strictly_greater(3, 1), strictly_greater(1, 3), strictly_greater(2, 2)) == (1, -1, 0)
    assert (strictly_less(1, 3), strictly_fewer("ab", "abc")) == (1, 1)
    assert approximately_equal(10, 9.5, margin_fraction=0.1) and not approximately_equal(10, 8, margin_fraction=0.1)
    assert approximately_equal() and approximately_equal(0, 0)
    from ir_rag_axioms.compat.utils.libraries import is_pyterrier_installed

    assert isinstance(is_pyterrier_installed(), bool)


def test_a_tokenized_text_keeps_its_tokens():
    from ir_rag_axioms.compat.model import TokenizedString

    doc = Document("d", TokenizedString("owl22", tokens={"owl": 1, "##2": 2}))
    assert isinstance(doc.text, TokenizedString) and doc.text.tokens == {"owl": 1, "##2": 2} and doc.text == "owl22"
    assert Query("q", TokenizedString("owl", tokens={"owl": 1})).text.tokens == {"owl": 1}


def test_spec_names_take_keywords_and_bind_index_says_what_is_missing(tmp_path):
    from ir_rag_axioms.compat import axiom as spec
    from ir_rag_axioms.compat.tools import bind_index

    with pytest.raises(TypeError, match=r"TFC1 takes keyword arguments only, got 1 positional \(0.5\); name each "
                                        r"setting, e.g. TFC1\(margin_fraction=0.5\)"):
        spec.TFC1(0.5)
    missing = tmp_path / "no-such-index"
    with pytest.raises(FileNotFoundError, match=f"bind_index: no index at '{missing}' .*does not exist"):
        bind_index(str(missing))
    with pytest.raises(ValueError, match=r"is not a built PISA index \(no inv.docs in it\)"):
        bind_index(tmp_path)
