"""The roadmap's retrieval axioms in pairwise form and their GEN_ variants: exact decisions on crafted documents."""

from __future__ import annotations

import random

import numpy as np
import pytest

from ir_rag_axioms import GenerationRequest, GenerationResponse, get
from ir_rag_axioms.axioms.retrieval.roadmap import ROADMAP_AXIOMS, pagerank

WORDS = ["cat", "dog", "sleep", "food", "park", "river", "city", "music", "night", "garden", "energy", "solar"]


def pools(count, seed):
    """Seeded random pools of 6 documents (every fourth with a 2-fold concatenation), 4 context passages."""
    rng = random.Random(seed)
    out = []
    for p in range(count):
        docs = [" ".join(rng.choice(WORDS) for _ in range(rng.randint(3, 12))) for _ in range(6)]
        if p % 4 == 0:
            docs[5] = f"{docs[0]} {docs[0]}"
        query = " ".join(rng.sample(WORDS, rng.randint(1, 3)))
        context = tuple(" ".join(rng.choice(WORDS) for _ in range(8)) for _ in range(4))
        out.append((GenerationRequest(f"q{p}", query, context),
                    [GenerationResponse(f"d{i}", t) for i, t in enumerate(docs)]))
    return out


def _prefs(name, query, docs, context=None, **changes):
    axiom = get(name)(**changes) if changes else get(name)
    request = GenerationRequest("q", query, context)
    return axiom.preferences(request, [GenerationResponse(f"d{i}", t) for i, t in enumerate(docs)]).astype(int)


def test_log_tf_rewards_spread_occurrences_where_tfc1_ties():
    docs = ["cat sleep energy cat", "cat cat cat cat"]
    assert _prefs("LOG_TF", "cat sleep energy", docs)[0, 1] == 1  # ln 3 + 2 ln 2 = 2.48 > ln 5 = 1.61
    assert _prefs("TFC1", "cat sleep energy", docs)[0, 1] == 0  # both 4 / 4
    assert _prefs("LOG_TF", "cat sleep energy", ["cat sleep", "cat sleep energy cat dog fish bird"])[0, 1] == 0  # LEN


def test_lnc2_on_the_papers_instance_a_k_fold_concatenation():
    # Fang et al. (2004): |d1| = k |d2| and c(w, d1) = k c(w, d2) for every w  =>  S(q, d1) >= S(q, d2)
    docs = ["cat sleep dog", "cat sleep dog cat sleep dog", "cat sleep dog " * 3, "cat dog", "cat bird fish cat"]
    prefs = _prefs("LNC2", "cat", docs)
    assert prefs[1, 0] == 1 and prefs[2, 0] == 1  # k = 2 and k = 3: the concatenation first
    assert prefs[2, 1] == 0  # 9 vs 6 terms: k = round(1.5) = 2, sum_w |3 - 2 * 2| = 3 > 0.1 * 2 * 6
    assert prefs[4, 3] == 0  # the same relative tf of "cat" (1/2), but no concatenation: LNC2 abstains
    assert _prefs("LNC1", "cat", docs)[3, 4] == 1  # where LNC1 decides (the shorter)
    assert not _prefs("LNC2", "fish", ["cat dog", "cat bird"]).any()


def test_lnc2_tolerance():
    base = "cat sleep dog park river city music night garden energy"
    longer = f"{base} {base} {base} solar"  # 31 terms, one off k = 3 copies: 1 <= 0.1 * 30
    assert _prefs("LNC2", "cat", [base, longer])[1, 0] == 1
    assert _prefs("LNC2", "cat", [base, longer], tolerance=0.0)[1, 0] == 0
    assert _prefs("LNC2", "cat", ["cat sleep dog", "cat sleep dog cat sleep dog fish"])[1, 0] == 0  # 1 > 0.6
    with pytest.raises(ValueError):
        get("LNC2")(tolerance=2.0)


def test_lnc2_is_not_the_negation_of_lnc1_on_seeded_pools():
    lnc1, lnc2, concatenations = get("LNC1"), get("LNC2"), 0
    only_lnc1 = 0
    for request, responses in pools(40, seed=1):
        a, b = lnc1.preferences(request, responses), lnc2.preferences(request, responses)
        only_lnc1 += int(((a != 0) & (b == 0)).sum())
        for i, j in zip(*np.nonzero(b > 0), strict=True):  # every decided pair is a concatenation
            longer, shorter = responses[i].text.split(), responses[j].text.split()
            assert len(longer) % len(shorter) == 0 and longer == shorter * (len(longer) // len(shorter))
            concatenations += 1
    assert concatenations >= 10 and only_lnc1 > 5 * concatenations


def test_lb2_on_the_papers_instance():
    # Lv and Zhai (2011): td(q1) = td(q2); D1' = D + {q1} - {t1}, D2' = D + {q2} - {t2}  =>  S(q, D1') < S(q, D2')
    context = ("cat food", "dog toy", "bird nest", "fish tank")  # df(cat) = df(dog) = 1: the same idf
    d = "cat park river"
    d1, d2 = d.replace("park", "cat"), d.replace("park", "dog")  # "cat cat river", "cat dog river"
    prefs = _prefs("LB2", "cat dog", [d1, d2], context=context)
    assert prefs.tolist() == [[0, -1], [1, 0]]
    unequal = ("cat food", "cat toy", "cat nap", "dog toy")  # idf(cat) = 0.36 < idf(dog) = 1.20
    assert not _prefs("LB2", "cat dog", [d1, d2], context=unequal).any()
    assert not _prefs("LB2", "cat dog", ["cat cat river", "dog river"], context=context).any()  # cat not in d2
    assert not _prefs("LB2", "cat dog", ["cat cat river", "cat dog river a b c d"], context=context).any()  # LEN
    assert np.array_equal(_prefs("GEN_LB2", "cat dog", [d1, d2], context=context), prefs)


def test_lb2_decides_only_where_tfc1_ties_on_seeded_pools():
    lb2, tfc1, decided = get("LB2"), get("TFC1"), 0
    for request, responses in pools(60, seed=2):
        a, b = lb2.preferences(request, responses), tfc1.preferences(request, responses)
        assert not ((a != 0) & (b != 0)).any()  # the same total query tf: TFC1 never decides these pairs
        decided += int((a != 0).sum())
    assert decided > 0


def test_tdc_prefers_the_more_discriminative_term_with_context_statistics():
    context = ("cat food", "cat toy", "sleep well", "cat nap")  # df(cat) = 3, df(sleep) = 1 of N = 4
    prefs = _prefs("TDC", "cat sleep", ["sleep dog", "cat dog", "cat sleep"], context=context)
    assert prefs[0, 1] == 1  # sleep (idf 1.20) only in d0, cat (idf 0.36) only in d1
    assert prefs[0, 2] == 0 and prefs[1, 2] == 0  # d2 has both terms: the condition does not apply
    assert np.array_equal(_prefs("GEN_TDC", "cat sleep", ["sleep dog", "cat dog", "cat sleep"], context=context),
                          prefs)


def test_stmc3_on_the_papers_instance():
    # Fang and Zhai (2006): q = {q1, q2}, s(q2, w) > 0, D1 = q1^n, D2 = q1^(n-1) w  =>  S(q, D1) <= S(q, D2)
    docs = ["speed speed", "speed automobile", "speed banana"]
    prefs = _prefs("STMC3", "speed car", docs)
    assert prefs[1, 0] == 1 and prefs[2, 0] == 1  # Wu-Palmer(car, banana) > 0 too: the paper's s > 0
    assert prefs[1, 2] == 0  # the same query term counts: not an instance
    strict = _prefs("STMC3", "speed car", docs, threshold=0.9)
    assert strict[1, 0] == 1 and strict[2, 0] == 0  # the threshold is a parameter
    assert not _prefs("STMC3", "speed car", ["speed car", "speed speed"]).any()  # q2 matched: not an instance
    assert not _prefs("STMC3", "speed", docs).any()  # one query term: no q2
    assert get("STMC3").threshold == 0.0


def test_stmc3_is_not_the_old_matched_term_count():
    # the old STMC3 preferred more query terms matched (sim >= 0.9); the paper compares a repeat with a similar term
    assert _prefs("STMC3", "car speed", ["automobile speed", "speed speed road"])[0, 1] == 0  # lengths 2 vs 3: LEN
    assert not _prefs("STMC3", "car speed", ["automobile speed energy", "car speed energy"]).any()


def test_best_sim_and_sim_terms():
    assert _prefs("BEST_SIM", "car", ["automobile road", "banana road"])[0, 1] == 1
    assert _prefs("BEST_SIM", "car", ["car road", "automobile road"])[0, 1] == 0  # exact and synonym: both 1
    prefs = _prefs("SIM_TERMS", "car speed", ["speed automobile road", "speed banana road", "car banana road"])
    assert prefs[0, 1] == 1  # the same exact match (speed), one similar term more
    assert prefs[0, 2] == 0  # different exact matches: not comparable


def test_qphra_on_the_papers_instance_quoted_phrases():
    # Hagen et al. (2016): prefer documents containing all the query's highlighted (quoted) phrases
    docs = ["york pizza and york pizza", "best pizza in new york"]
    assert _prefs("QPHRA", '"new york" pizza', docs).tolist() == [[0, -1], [1, 0]]
    assert not _prefs("QPHRA", "new york pizza", docs).any()  # no quotes: abstain
    two = ["a pizza place in new york", "best pizza in new york", "new york pizza place"]
    prefs = _prefs("QPHRA", "\u201cnew york\u201d \"pizza place\"", two)  # curly and straight quotes
    assert prefs[0, 1] == 1 and prefs[2, 1] == 1 and prefs[0, 2] == 0  # both phrases vs one; all vs all
    assert not _prefs("QPHRA", '"the" pizza', docs).any()  # a phrase of stopwords only: no phrase
    assert not _prefs("QPHRA", '"york new"', docs).any()  # order matters: neither has it


def test_qphra_needs_the_request_text():
    from ir_rag_axioms.analysis.terms import TermStatistics

    with pytest.raises(ValueError, match="request"):
        get("QPHRA").from_statistics(TermStatistics(("new", "york")), [TermStatistics(("new", "york"))])


def test_quoted_phrases_parser():
    from ir_rag_axioms.axioms.retrieval.roadmap import quoted_phrases

    assert quoted_phrases('"new york" pizza \u201cbest slice\u201d \u201echeap eats\u201c') == [
        "new york", "best slice", "cheap eats"]
    assert quoted_phrases("no quotes here") == [] and quoted_phrases('an "unclosed quote') == []


def test_consensus_and_qlexrank():
    docs = ["cat sleep", "cat sleep", "dog bark"]
    assert _prefs("CONSENSUS", "cat", docs)[0, 2] == 1 and _prefs("CONSENSUS", "cat", docs)[0, 1] == 0
    assert not _prefs("CONSENSUS", "cat", docs[:2]).any()  # two candidates always tie
    # the query bias turns the order: only "cat sleep" matches the query, the two dog documents link each other
    minority = ["cat sleep", "dog bark", "dog bark"]
    assert _prefs("CONSENSUS", "cat", minority)[1, 0] == 1
    assert _prefs("QLEXRANK", "cat", minority)[0, 1] == 1
    assert not _prefs("QLEXRANK", "fish", minority).any()  # no node matches the query: no bias, no preference
    with_context = _prefs("QLEXRANK", "dog", ["cat sleep", "dog bark"], context=("dog bark loud", "dog bark"))
    assert with_context[1, 0] == 1


def test_qlexrank_is_not_consensus_on_seeded_pools():
    consensus, qlexrank = get("CONSENSUS"), get("QLEXRANK")
    both = opposite = 0
    for request, responses in pools(40, seed=3):
        a, b = np.sign(consensus.preferences(request, responses)), np.sign(qlexrank.preferences(request, responses))
        both += int(((a != 0) & (b != 0)).sum())
        opposite += int(((a != 0) & (a == -b)).sum())
    assert both > 0 and opposite >= 0.1 * both  # different signals (P_RANK had RSIM's sign on nearly every pair)


def test_renamed_axioms_keep_their_old_names_with_a_warning():
    import ir_rag_axioms
    from ir_rag_axioms import parse
    from ir_rag_axioms.axioms.retrieval import roadmap

    for old, new in roadmap.RENAMED.items():
        with pytest.warns(FutureWarning, match=f"{old} is deprecated and now runs {new}"):
            assert get(old) is get(new)
        with pytest.warns(FutureWarning, match=f"GEN_{new}"):
            assert parse(f"GEN_{old}()") == get(f"GEN_{new}")
        with pytest.warns(FutureWarning, match=new):
            assert getattr(ir_rag_axioms, old) is get(new)
        assert old not in ir_rag_axioms.names()
    with pytest.warns(DeprecationWarning, match="ConsensusAxiom"):
        assert roadmap.RsimAxiom is roadmap.ConsensusAxiom


def test_a_renamed_axiom_warns_visibly_and_is_among_the_suggestions():
    import subprocess
    import sys

    # shown by Python's default warning filters (a DeprecationWarning outside __main__ is not)
    script = "import ir_rag_axioms.axioms.registry as r; from ir_rag_axioms import get; get('P_RANK')"
    shown = subprocess.run([sys.executable, "-c", f"exec({script!r}, {{'__name__': 'user'}})"], capture_output=True,
                           text=True, check=True)
    assert "P_RANK is deprecated and now runs QLEXRANK" in shown.stderr
    with pytest.raises(KeyError, match=r"did you mean .*P_RANK \(deprecated: QLEXRANK\)"):
        get("P_RANKK")


def test_pagerank_with_a_bias_solves_the_linear_system():
    half = np.sqrt(0.5)
    chain = np.array([[1.0, 0.0], [half, half], [0.0, 1.0]])
    bias = np.array([1.0, 0.0, 0.0])
    weights = np.clip(chain @ chain.T, 0, None)
    np.fill_diagonal(weights, 0)
    transition = weights / weights.sum(axis=1, keepdims=True)
    expected = np.linalg.solve(np.eye(3) - 0.85 * transition.T, 0.15 * bias)  # p = 0.15 b + 0.85 T^T p
    assert np.allclose(pagerank(chain, 0.85, bias=bias), expected)
    assert np.allclose(pagerank(np.eye(2), 0.85, bias=np.array([1.0, 0.0])), [1.0, 0.0])  # no edges: jump by b


def test_pagerank_values():
    assert np.allclose(pagerank(np.eye(3), 0.85), [1 / 3] * 3)  # no edges: uniform
    half = np.sqrt(0.5)
    chain = np.array([[1.0, 0.0], [half, half], [0.0, 1.0]])  # the middle node is linked to both others
    # r0 = r2 = 0.05 + 0.425 r1, r1 = 0.05 + 1.7 r0: r0 = 0.07125 / 0.2775
    assert np.allclose(pagerank(chain, 0.85), [0.07125 / 0.2775, 0.05 + 1.7 * 0.07125 / 0.2775, 0.07125 / 0.2775])


@pytest.mark.parametrize("axiom", ROADMAP_AXIOMS, ids=lambda a: a.name)
def test_each_has_a_gen_variant_and_a_citation(axiom):
    from ir_rag_axioms.axioms.catalogue import describe

    assert get(f"GEN_{axiom.name}").axiom.name == axiom.name
    assert describe(axiom.name)["citation"] and describe(axiom.name)["dimension"] == "retrieval"


def test_stmc3_never_agrees_with_tfc1_on_seeded_pools():
    stmc3, tfc1, decided = get("STMC3"), get("TFC1"), 0
    for request, responses in pools(80, seed=4):
        a, b = stmc3.preferences(request, responses), tfc1.preferences(request, responses)
        assert not ((a != 0) & (a == b)).any()  # D2 has one query term occurrence less: TFC1 ties or prefers D1
        decided += int((a != 0).sum())
    assert decided > 0
