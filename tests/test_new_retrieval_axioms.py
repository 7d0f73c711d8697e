"""The roadmap's retrieval axioms in pairwise form and their GEN_ variants: exact decisions on crafted documents."""

from __future__ import annotations

import numpy as np
import pytest

from ir_rag_axioms import GenerationRequest, GenerationResponse, get
from ir_rag_axioms.axioms.retrieval.roadmap import ROADMAP_AXIOMS, pagerank


def _prefs(name, query, docs, context=None, **changes):
    axiom = get(name)(**changes) if changes else get(name)
    request = GenerationRequest("q", query, context)
    return axiom.preferences(request, [GenerationResponse(f"d{i}", t) for i, t in enumerate(docs)]).astype(int)


def test_tfc2_rewards_spread_occurrences_where_tfc1_ties():
    docs = ["cat sleep energy cat", "cat cat cat cat"]
    assert _prefs("TFC2", "cat sleep energy", docs)[0, 1] == 1  # ln 3 + 2 ln 2 = 2.48 > ln 5 = 1.61
    assert _prefs("TFC1", "cat sleep energy", docs)[0, 1] == 0  # both 4 / 4
    assert _prefs("TFC2", "cat sleep energy", ["cat sleep", "cat sleep energy cat dog fish bird"])[0, 1] == 0  # LEN


def test_lnc2_prefers_the_longer_document_at_the_same_ratios():
    docs = ["cat sleep", "cat sleep cat sleep", "dog bark", "dog bark dog bark"]
    prefs = _prefs("LNC2", "cat sleep", docs)
    assert prefs[1, 0] == 1 and _prefs("LNC1", "cat sleep", docs)[0, 1] == 1  # LNC1: the shorter
    assert prefs[3, 2] == 0  # no query term matched: no preference
    assert prefs[0, 2] == 0  # different ratios


def test_lb2_prefers_distinct_terms_at_equal_total_frequency():
    prefs = _prefs("LB2", "cat sleep energy", ["cat sleep energy dog", "cat cat cat dog", "cat dog dog dog"])
    assert prefs[0, 1] == 1  # 3 occurrences each, 3 distinct vs 1
    assert prefs[0, 2] == 0 and prefs[1, 2] == 0  # totals 3 vs 1: not comparable


def test_tdc_prefers_the_more_discriminative_term_with_context_statistics():
    context = ("cat food", "cat toy", "sleep well", "cat nap")  # df(cat) = 3, df(sleep) = 1 of N = 4
    prefs = _prefs("TDC", "cat sleep", ["sleep dog", "cat dog", "cat sleep"], context=context)
    assert prefs[0, 1] == 1  # sleep (idf 1.20) only in d0, cat (idf 0.36) only in d1
    assert prefs[0, 2] == 0 and prefs[1, 2] == 0  # d2 has both terms: the condition does not apply
    assert np.array_equal(_prefs("GEN_TDC", "cat sleep", ["sleep dog", "cat dog", "cat sleep"], context=context),
                          prefs)


def test_stmc3_counts_semantic_matches():
    prefs = _prefs("STMC3", "car speed", ["automobile speed", "speed speed"])
    assert prefs[0, 1] == 1  # car matched by its synonym automobile (Wu-Palmer 1.0)
    assert _prefs("STMC3", "car speed", ["automobile speed", "speed speed"], min_similarity=1.0)[0, 1] == 1
    assert _prefs("STMC3", "car speed", ["banana speed", "speed speed"])[0, 1] == 0


def test_tssc1_and_tssc2():
    assert _prefs("TSSC1", "car", ["automobile road", "banana road"])[0, 1] == 1
    assert _prefs("TSSC1", "car", ["car road", "automobile road"])[0, 1] == 0  # exact and synonym: both 1
    prefs = _prefs("TSSC2", "car speed", ["speed automobile road", "speed banana road", "car banana road"])
    assert prefs[0, 1] == 1  # the same exact match (speed), one similar term more
    assert prefs[0, 2] == 0  # different exact matches: not comparable


def test_qphra_counts_query_phrases():
    docs = ["solar panel cost low", "panel solar low cost", "solar panel low", "panel solar low"]
    prefs = _prefs("QPHRA", "solar panel cost", docs)
    assert prefs[0, 1] == 1 and prefs[2, 3] == 1  # 2 phrases vs 0, 1 vs 0
    assert prefs[0, 3] == 0  # LEN: 4 vs 3 terms differ by more than 10 %
    assert not _prefs("QPHRA", "solar", ["solar panel", "panel"]).any()  # a one-term query has no phrase


def test_rsim_and_p_rank_prefer_the_central_document():
    docs = ["cat sleep", "cat sleep", "dog bark"]
    assert _prefs("RSIM", "cat", docs)[0, 2] == 1 and _prefs("RSIM", "cat", docs)[0, 1] == 0
    assert _prefs("P_RANK", "cat", docs)[0, 2] == 1
    assert not _prefs("RSIM", "cat", docs[:2]).any()  # two candidates always tie
    with_context = _prefs("P_RANK", "cat", ["cat sleep", "dog bark"], context=("dog bark loud", "dog bark"))
    assert with_context[1, 0] == 1  # the context passages make the dog document central


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
