"""Hardening of the inputs: the data model, feature axioms on text without terms, axiom parameters, expressions."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from hardening import (
    GOOD,
    REQUEST,
    Wrong,
    abstains,
    needs_data,
    refuses,
)

from ir_rag_axioms import (
    CLAR2,
    COH1,
    CONS2,
    CORR1,
    COV1,
    AxiomaticReranker,
    GenerationRequest,
    GenerationResponse,
    parse,
)


# == data model =========================================================================================
def test_numpy_string_response() -> None:
    r = GenerationResponse("n", np.str_("Cats purr [1]. Really."))
    if type(r.text) is not str:
        raise Wrong(f"text kept as {type(r.text).__name__}")
    CORR1.preferences(REQUEST, [*GOOD, r])


def test_numpy_array_context() -> None:
    request = GenerationRequest("q", "Why?", np.array(["Cats purr.", "Lions roar."]))
    if request.context != ("Cats purr.", "Lions roar."):
        raise Wrong(f"context {request.context!r}")
    CONS2.preferences(request, GOOD)


def test_dict_context_refused() -> None:
    refuses(lambda: GenerationRequest("q", "Why?", {"Cats purr.": 1, "Lions roar.": 2}), TypeError, "context")


def test_set_context_refused() -> None:
    refuses(lambda: GenerationRequest("q", "Why?", {"Cats purr.", "Lions roar."}), TypeError, "context")


def test_bytes_text_refused() -> None:
    refuses(lambda: GenerationResponse("x", b"Cats purr."), TypeError, "string")


def test_bytes_context_refused() -> None:
    refuses(lambda: GenerationRequest("q", "Why?", b"Cats purr."), TypeError, "context")


def test_lone_surrogate_text() -> None:
    r = GenerationResponse("s", "Cats \ud800 purr.")
    r.text.encode("utf-8")  # must be encodable (replaced) or refused above
    CORR1.preferences(REQUEST, [*GOOD, r])


def test_bare_response_refused() -> None:
    refuses(lambda: COH1.preferences(REQUEST, GOOD[0]), TypeError, "list")


def test_nan_id_refused() -> None:
    refuses(lambda: GenerationResponse(float("nan"), "Cats purr."), (TypeError, ValueError), "id")


def test_none_id_refused() -> None:
    refuses(lambda: GenerationRequest(None, "Why?"), (TypeError, ValueError), "id")


def test_pd_na_text_abstains() -> None:
    r = GenerationResponse("na", pd.NA)
    abstains(COH1.preferences(REQUEST, [*GOOD, r]), 2)


def test_numpy_float_nan_text_abstains() -> None:
    r = GenerationResponse("na", np.float32("nan"))
    abstains(COH1.preferences(REQUEST, [*GOOD, r]), 2)


def test_str_subclass_text() -> None:
    class Text(str):
        pass
    r = GenerationResponse(Text("x"), Text("Cats purr [1]."))
    if type(r.text) is not str or type(r.id) is not str:
        raise Wrong("str subclass kept")


def test_series_context_with_na() -> None:
    request = GenerationRequest("q", "Why?", pd.Series(["Cats purr.", pd.NA, None]))
    if request.context != ("Cats purr.",):
        raise Wrong(f"context {request.context!r}")


def test_rank_string_refused() -> None:
    refuses(lambda: GenerationResponse("a", "t", rank="first"), TypeError, "rank")


def test_score_bool_refused() -> None:
    refuses(lambda: GenerationResponse("a", "t", score=True), TypeError, "score")


def test_blank_id_refused() -> None:
    refuses(lambda: GenerationResponse("  ", "t"), ValueError, "id")


# == feature axioms on undefined values ==================================================================
def _every_parsed_axiom():
    from ir_rag_axioms.axioms import registry
    from ir_rag_axioms.axioms.base import FeatureAxiom
    skip = {"CLAR1", "ORIG", "RANDOM", "NOP"}
    return [registry.get(n) for n in registry.names() if n not in skip and not n.startswith(("Q", "Arg"))
            and isinstance(registry.get(n), FeatureAxiom)]


@pytest.mark.parametrize("text", ["...", "?", ":)", "!!!", "-- --", "[1]", "1 2 3", "\u200b\u200b", "🙂🙂🙂", "e.g.",
                                  "\x00"])
def test_feature_axioms_on_text_without_terms(text: str) -> None:
    responses = [*GOOD, GenerationResponse("odd", text)]
    for axiom in _every_parsed_axiom():
        matrix = axiom.preferences(REQUEST, responses)
        if matrix.shape != (3, 3) or not np.isfinite(matrix).all():
            raise Wrong(f"{axiom!r}: {matrix.tolist()}")


def test_clar2_punctuation_abstains() -> None:
    abstains(CLAR2.preferences(REQUEST, [*GOOD, GenerationResponse("p", "...")]), 2)


def test_term_axioms_on_punctuation() -> None:
    from ir_rag_axioms.axioms import registry
    responses = [*GOOD, GenerationResponse("p", "?!")]
    for name in registry.names():
        if name.startswith("GEN_") and "Arg" not in name:
            matrix = registry.get(name).preferences(REQUEST, responses)
            if not np.isfinite(matrix).all():
                raise Wrong(f"{name}: {matrix.tolist()}")


@needs_data
def test_punctuation_query_and_context() -> None:
    from ir_rag_axioms.axioms import registry
    request = GenerationRequest("q", "?", ["...", "?!"])
    responses = [GenerationResponse("a", "..."), GenerationResponse("b", "Cats purr."), GenerationResponse("c", ":)")]
    for name in registry.names():
        if name in ("CLAR1", "CROWD", "NUGGET", "LLM_ORIG") or "Arg" in name:
            continue
        matrix = registry.get(name).preferences(request, responses)
        if not np.isfinite(matrix).all() or not np.array_equal(matrix, -matrix.T):
            raise Wrong(f"{name}: {matrix.tolist()}")


# == axiom parameters ===================================================================================
def test_bool_from_string_refused() -> None:
    refuses(lambda: COH1(higher_is_better="no"), TypeError, "higher_is_better")


def test_positional_refused() -> None:
    refuses(lambda: COH1(0.5), TypeError, "keyword")


def test_negative_margin_refused() -> None:
    refuses(lambda: COH1(margin_fraction=-1), ValueError, "margin_fraction")


def test_nan_margin_refused() -> None:
    refuses(lambda: COH1(margin_fraction=float("nan")), ValueError, "margin_fraction")


def test_unknown_aspect_extraction_refused() -> None:
    refuses(lambda: COV1(aspect_extraction="verbs"), ValueError, "aspect_extraction", "entities")


def test_unknown_termset_refused() -> None:
    from ir_rag_axioms import CONS3
    refuses(lambda: CONS3(negation_termset="klingon"), ValueError, "negation_termset", "en")


def test_unknown_oracle_choice_refused() -> None:
    from ir_rag_axioms.axioms.oracles import NuggetOracle
    refuses(lambda: NuggetOracle(score_type="best"), ValueError, "score_type", "vital")


def test_unknown_duplicates_refused() -> None:
    from ir_rag_axioms.axioms.oracles import CrowdOracle
    refuses(lambda: CrowdOracle(duplicates="first"), ValueError, "duplicates", "mean")


def test_citation_pattern_invalid_regex() -> None:
    refuses(lambda: CORR1(citation_pattern="[").preferences(REQUEST, GOOD), ValueError, "citation_pattern")


def test_random_seed_wrong_type() -> None:
    from ir_rag_axioms.axioms import registry
    refuses(lambda: registry.get("RANDOM")(seed="x"), TypeError, "seed")


def test_majority_minimum_votes_nan() -> None:
    from ir_rag_axioms.axioms.combinators import MajorityVote
    refuses(lambda: MajorityVote((COH1, CORR1), minimum_votes=float("nan")), ValueError, "minimum_votes")


def test_len_precondition_negative() -> None:
    refuses(lambda: parse("TFC1(precondition=LEN(margin_fraction=-0.5))"), ValueError, "margin_fraction")


def test_bm25_b_out_of_range() -> None:
    refuses(lambda: parse("GEN_TFC3(statistics=ContextStatistics(b=5.0))"), ValueError, "b")


def test_asl_negative_length() -> None:
    refuses(lambda: parse("aSL(min_sentence_length=-3)"), ValueError, "min_sentence_length")


def test_similarity_wrong_type() -> None:
    refuses(lambda: parse("REG(similarity=3)"), TypeError, "similarity")


def test_reranker_nan_weight() -> None:
    refuses(lambda: AxiomaticReranker(CORR1, weights=[float("nan")]), ValueError, "weights")


def test_reranker_string_seed() -> None:
    refuses(lambda: AxiomaticReranker(CORR1, seed="x"), ValueError, "seed")


# == expressions ========================================================================================
def test_long_sum_parses() -> None:
    axiom = parse(" + ".join(["COH1"] * 1000))
    if len(axiom.axioms) != 1000:
        raise Wrong("not flat")


def test_long_mixed_chain_parses() -> None:
    parse(" - ".join(["COH1", "CORR1"] * 400))


def test_long_cascade_parses() -> None:
    parse(" | ".join(["COH1"] * 1000))


def test_long_product_repr() -> None:
    axiom = COH1
    for _ in range(500):
        axiom = axiom * CORR1
    repr(axiom)


def test_long_negation_chain() -> None:
    axiom = COH1
    for _ in range(3000):
        axiom = -axiom
    repr(axiom)
    axiom.preferences(REQUEST, GOOD)


def test_deeply_nested_parentheses() -> None:
    refuses(lambda: parse("(" * 500 + "COH1" + ")" * 500), ValueError, "axiom spec")


def test_huge_expression_refused() -> None:
    refuses(lambda: parse(" + ".join(["COH1"] * 200_000)), ValueError, "limit")


def test_positional_in_expression() -> None:
    refuses(lambda: parse("COH1(0.5)"), (TypeError, ValueError), "keyword")


def test_code_is_not_run() -> None:
    refuses(lambda: parse("__import__('os').system('true')"), (ValueError, KeyError), "")


def test_unknown_name_in_expression() -> None:
    refuses(lambda: parse("COH9"), (ValueError, KeyError), "unknown axiom")


def test_sum_of_170_repr_round_trip() -> None:
    axiom = COH1
    for k in range(170):
        axiom = axiom + (CORR1 if k % 2 else COH1)
    if repr(parse(repr(axiom))) != repr(axiom):
        raise Wrong("repr does not parse back")


def test_number_minus_axiom() -> None:
    axiom = parse("2 - COH1")
    if repr(parse(repr(axiom))) != repr(axiom):
        raise Wrong(repr(axiom))


def test_bitwise_between_numbers_refused() -> None:
    refuses(lambda: parse("COH1 + (2 | 1)"), ValueError, "cannot combine")


def test_modulo_by_zero_refused() -> None:
    refuses(lambda: parse("COH1 + 2 % (2 - 2)"), ValueError, "cannot combine")


def test_double_negative_constant_round_trip() -> None:
    axiom = parse("COH1 - -2")
    if repr(parse(repr(axiom))) != repr(axiom):
        raise Wrong(repr(axiom))


def test_alternating_operators_nested_too_deep() -> None:
    spec = "COH1"
    for _ in range(300):
        spec = f"({spec} + CORR1) * COH1"
    refuses(lambda: parse(spec), ValueError, "limit")


