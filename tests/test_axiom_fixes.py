"""Fixes of the adversarial round: signed weights, nested votes, STMC2 ties, products, ids, shapes, seeds, topics."""

from __future__ import annotations

import json

import numpy as np
import pandas as pd
import pytest

from ir_rag_axioms import AxiomaticReranker, GenerationRequest, GenerationResponse, MajorityVote, parse
from ir_rag_axioms.aggregation import aggregate, majority_vote, scored_ranking
from ir_rag_axioms.analysis.similarity import TermSimilarity
from ir_rag_axioms.axioms import retrieval as R
from ir_rag_axioms.axioms.base import ConfigurableAxiom, FeatureAxiom
from ir_rag_axioms.axioms.registry import get

# item 1 prefers over item 2 over item 0
P = np.array([[0, -1, -1], [1, 0, 1], [1, -1, 0]], dtype=np.float64)


class Nth(FeatureAxiom):
    """The idx-th number of the text (higher is better)."""

    idx: int = 0

    def values(self, request, responses, analysis):
        """The idx-th number."""
        return np.array([float(r.text.split()[self.idx]) for r in responses])


# -- 1. KwikSort honours negative weights; Bradley-Terry refuses them at construction -------------------------
def test_kwiksort_honours_a_negative_weight_as_the_flipped_matrix() -> None:
    assert aggregate(P[None], "kwiksort", weights=[1.0]).tolist() == [1, 2, 0]
    assert aggregate(P[None], "kwiksort", weights=[-1.0]).tolist() == [0, 2, 1]
    assert aggregate(-P[None], "kwiksort").tolist() == [0, 2, 1]
    # net +0.5 P: the weight 1 for P outvotes the weight 0.5 for -P
    assert aggregate(np.stack([P, P]), "kwiksort", weights=[1.0, -0.5]).tolist() == [1, 2, 0]
    assert aggregate(np.stack([P, P]), "kwiksort", weights=[0.5, -1.0]).tolist() == [0, 2, 1]
    assert majority_vote(P[None], weights=[-2.0]).tolist() == (-P).tolist()


def test_bradley_terry_refuses_a_negative_weight_in_the_constructor() -> None:
    with pytest.raises(ValueError, match=r"aggregation='bradley_terry' needs non-negative weights .*got \[-1.0\]"):
        AxiomaticReranker([Nth()], aggregation="bradley_terry", weights=[-1.0])
    AxiomaticReranker([Nth()], aggregation="kwiksort", weights=[-1.0])  # honoured: no error


# -- 9. weights whose weighted sums overflow are refused ------------------------------------------------------
@pytest.mark.parametrize("method", ["borda", "copeland", "kwiksort", "bradley_terry"])
def test_weights_that_overflow_the_weighted_sums_are_refused(method: str) -> None:
    with pytest.raises(ValueError, match=r"weights \[1e\+308, 1e\+308\] are too large for these 3 items"):
        scored_ranking(np.stack([P, P * 0.5]), method, weights=[1e308, 1e308])
    order, _ = scored_ranking(np.stack([P, P * 0.5]), method, weights=[1e200, 1e200])  # large but finite: fine
    assert order.tolist() == [1, 2, 0]


def test_only_the_weights_are_bounded_a_vote_reads_signs_only() -> None:
    assert sorted(aggregate((P * 1e300)[None], "borda", weights=[1e10]).tolist()) == [0, 1, 2]  # entries not refused
    assert majority_vote(np.stack([P * 1e308, P * 1e308, -P])).tolist() == P.tolist()


def test_the_reranker_refuses_weights_summing_past_float64_at_construction() -> None:
    with pytest.raises(ValueError, match=r"weights \[1e\+308, 1e\+308\] are too large: the sum of their magnitudes"):
        AxiomaticReranker([Nth(), Nth(idx=1)], weights=[1e308, 1e308])


# -- 2. a % (b % c) keeps the inner vote ----------------------------------------------------------------------
def test_a_vote_on_the_right_stays_one_voter() -> None:
    a, b, c = Nth(idx=0), Nth(idx=1), Nth(idx=2)
    request = GenerationRequest("q", "x")
    first, second = GenerationResponse("r0", "2 1 1"), GenerationResponse("r1", "1 2 2")
    nested = a % (b % c)
    assert nested == MajorityVote((a, MajorityVote((b, c))))
    assert nested.preference(request, first, second) == 0.0  # a (+1) against the vote b % c (-1)
    assert (a % b % c) == MajorityVote((a, b, c)) == ((a % b) % c)  # Python's (a % b) % c: one vote of three
    assert (a % b % c).preference(request, first, second) == -1.0
    assert MajorityVote.of(a, MajorityVote((b, c))) == nested


def test_parse_keeps_explicit_parentheses_of_votes_and_reprs_round_trip() -> None:
    cov1, corr1, coh1 = get("COV1"), get("CORR1"), get("COH1")
    nested = parse("COV1 % (CORR1 % COH1)")
    assert nested == MajorityVote((cov1, MajorityVote((corr1, coh1))))
    assert repr(nested) == "MajorityVote((COV1(), MajorityVote((CORR1(), COH1()))))"
    assert parse("COV1 % CORR1 % COH1") == parse("(COV1 % CORR1) % COH1") == MajorityVote((cov1, corr1, coh1))
    for spec in ("COV1 % (CORR1 % COH1)", "(COV1 % CORR1) % (COH1 % COV1)", "COV1 % CORR1 % COH1"):
        assert parse(repr(parse(spec))) == parse(spec)


# -- 3. STMC2: two identical answers tie ----------------------------------------------------------------------
class Table(TermSimilarity):
    """sim 0.9 for (a, b), 1 for identical terms, else 0."""

    def matrix(self, first, second, analysis):
        """The table."""
        return np.array([[1.0 if x == y else 0.9 if {x, y} == {"a", "b"} else 0.0 for y in second] for x in first],
                        dtype=np.float64).reshape(len(first), len(second))


def test_stmc2_ties_identical_answers_in_either_order() -> None:
    from ir_rag_axioms.analysis.terms import TermStatistics

    def prefs(axiom, query: str, docs: list[str]) -> list[list[float]]:
        return axiom.from_statistics(TermStatistics(tuple(query.split())), [TermStatistics(tuple(d.split()))
                                                                            for d in docs]).tolist()

    axiom = R.STMC2(similarity=Table())
    assert prefs(axiom, "a", ["a b", "a b"]) == [[0, 0], [0, 0]]
    # the reference's raw answer per ordered pair: the rule holds both ways, so both are "preferred"
    raw = R.STMC2(similarity=Table(), reference_asymmetry=True)
    assert prefs(raw, "a", ["a b", "a b"]) == [[0, 1], [1, 0]]
    # where the rule holds one way only, the default still decides (|d2| / |d1| = 2 = tf(b, d2) / tf(a, d1))
    assert prefs(axiom, "a", ["a x", "b b y z"]) == [[0, 1], [-1, 0]]
    assert prefs(axiom, "a", ["b b y z", "a x"]) == [[0, -1], [1, 0]]


def test_stmc2_and_gen_stmc2_tie_two_identical_answers_of_real_text() -> None:
    from ir_rag_axioms import GEN_STMC2, STMC2
    from ir_rag_axioms.analysis.resources import ToolUnavailableError

    request = GenerationRequest("q", "Why do cats sleep so much during the day?")
    text = "Cats sleep 12 to 16 hours a day to save energy [1]."
    a, b = GenerationResponse("a", text), GenerationResponse("b", text)
    try:
        assert STMC2.preferences(request, [a, b]).tolist() == [[0, 0], [0, 0]]
    except ToolUnavailableError as error:  # WordNet missing
        pytest.skip(str(error))
    assert STMC2.preferences(request, [b, a]).tolist() == [[0, 0], [0, 0]]
    assert GEN_STMC2.preference(request, a, b) == GEN_STMC2.preference(request, b, a) == 0.0


# -- 4. a product of two axioms is symmetric: check_axiom says why ---------------------------------------------
def test_check_axiom_explains_why_a_product_of_two_axioms_is_not_antisymmetric() -> None:
    from ir_rag_axioms.testing import PRODUCT_NOTE, check_axiom

    orig = get("ORIG")
    check_axiom(2 * orig)  # a weight keeps the sign
    check_axiom(orig * orig * orig)  # an odd number of factors too
    with pytest.raises(AssertionError) as error:
        check_axiom(orig * -orig)
    # pytest's assertion rewriting appends the compared values on the next lines
    assert str(error.value).splitlines()[0] == f"(ORIG() * -ORIG()): P[i, j] != -P[j, i]{PRODUCT_NOTE}"


# -- 5. lone surrogates in ids --------------------------------------------------------------------------------
BAD_DOCNO = json.loads('"d\\ud83d"')  # half an emoji


def test_the_reranker_refuses_a_docno_with_a_lone_surrogate_naming_it() -> None:
    frame = pd.DataFrame({"qid": "1", "query": "q", "docno": ["d1", BAD_DOCNO], "text": ["1 1 1", "2 2 2"]})
    with pytest.raises(ValueError, match=r"^AxiomaticReranker: docno 'd\\ud83d' at row position 1 holds a lone "
                                         r"surrogate"):
        AxiomaticReranker(Nth())(frame)


def test_write_trec_run_refuses_an_unencodable_id_naming_the_row(tmp_path) -> None:
    from ir_rag_axioms.datasets.runs import write_trec_run

    run = pd.DataFrame({"qid": ["1", "1"], "docno": ["d1", BAD_DOCNO], "score": [1.0, 0.5]})
    with pytest.raises(ValueError, match=r"^write_trec_run: docno 'd\\ud83d' at row position 1 is not valid "
                                         r"Unicode \(a lone surrogate '\\ud83d' at character 1"):
        write_trec_run(run, tmp_path / "run.txt")
    assert not (tmp_path / "run.txt").exists()


# -- 6. a user axiom's output shape ---------------------------------------------------------------------------
class WrongShape(ConfigurableAxiom):
    """One column too many."""

    def matrix(self, request, responses, analysis):
        """(n, n + 1)."""
        return np.zeros((len(responses), len(responses) + 1))


class NoMatrix(ConfigurableAxiom):
    """Forgot to return."""

    def matrix(self, request, responses, analysis):
        """None."""
        return None


class ShortValues(FeatureAxiom):
    """One value missing."""

    def values(self, request, responses, analysis):
        """n - 1 values."""
        return np.arange(len(responses) - 1, dtype=float)


@pytest.mark.parametrize(("axiom", "message"), [
    (WrongShape(), "WrongShape(): matrix() returned shape (3, 4) for 3 responses; expected an (n, n) matrix = (3, 3)"),
    (NoMatrix(), "NoMatrix(): matrix() returned None for 3 responses; expected an (n, n) matrix = (3, 3)"),
    (ShortValues(), "ShortValues(): values() returned shape (2,) for 3 responses; expected one value per response, "
                    "shape (n,) = (3,)"),
])
def test_a_user_axiom_of_the_wrong_shape_is_named(axiom, message: str) -> None:
    frame = pd.DataFrame({"qid": "q", "query": "x", "docno": ["r0", "r1", "r2"], "text": ["a", "b b", "c c c"]})
    with pytest.raises(ValueError) as error:
        AxiomaticReranker(axiom)(frame)
    assert str(error.value) == message
    responses = [GenerationResponse(f"r{i}", f"text {i}") for i in range(3)]
    with pytest.raises(ValueError) as again:
        axiom.preferences(GenerationRequest("q", "x"), responses)
    assert str(again.value) == message
    with pytest.raises(ValueError) as combined:
        (Nth() + axiom).preferences(GenerationRequest("q", "x"), [GenerationResponse(f"r{i}", f"{i}")
                                                                 for i in range(3)])
    assert str(combined.value) == message


# -- 7. the random pivot does not depend on the qid -----------------------------------------------------------
BEATS = {"rock": ("scissors", "lizard"), "paper": ("rock", "spock"), "scissors": ("paper", "lizard"),
         "lizard": ("spock", "paper"), "spock": ("scissors", "rock")}


class Rpsls(ConfigurableAxiom):
    """Rock-paper-scissors-lizard-Spock: a cycle, so KwikSort's result depends on its pivots."""

    def matrix(self, request, responses, analysis):
        """+1 where the first beats the second."""
        texts = [r.text for r in responses]
        return np.array([[float(y in BEATS[x]) - float(x in BEATS[y]) for y in texts] for x in texts])


def test_the_random_pivot_depends_on_the_seed_and_the_texts_not_on_the_qid() -> None:
    def order(qid: str, seed: int) -> list[str]:
        frame = pd.DataFrame({"qid": qid, "query": "q", "docno": list(BEATS), "text": list(BEATS)})
        reranker = AxiomaticReranker(Rpsls(), aggregation="kwiksort", pivot="random", seed=seed)
        return reranker(frame)["docno"].tolist()

    assert len({tuple(order("1", seed)) for seed in range(8)}) > 1  # the seed matters
    for seed in range(3):
        assert {tuple(order(qid, seed)) for qid in ("1", "q1", "q2", "topic-7", "demo-1", "x")} == \
            {tuple(order("1", seed))}


# -- 8. Pool: a qid listed twice is named -----------------------------------------------------------------------
def test_pool_names_a_repeated_topic_before_running_a_pipeline() -> None:
    import pyterrier as pt

    from ir_rag_axioms.pyterrier import Pool

    ran = []

    def answer(topics: pd.DataFrame) -> pd.DataFrame:
        ran.append(len(topics))
        return topics.assign(qanswer="The Moon.")

    topics = pd.DataFrame({"qid": ["1", "1", "2"], "query": ["What causes tides?"] * 2 + ["x"]})
    with pytest.raises(ValueError, match=r"^Pool: the topics list qid '1' 2 times \(row positions \[0, 1\]\), with "
                                         r"the same query; give each topic once"):
        Pool({"a": pt.apply.generic(answer)})(topics)
    assert ran == []
