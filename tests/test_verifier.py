"""The claim verifier: its signals on crafted rows, the packaged model, and the verdicts and levels it gives."""

from __future__ import annotations

import json
import math
from pathlib import Path

import numpy as np
import pytest

from ir_rag_axioms.metrics import ContextRecall, Faithfulness
from ir_rag_axioms.metrics.interface import RubricCase
from ir_rag_axioms.metrics.judges import HEURISTIC_JUDGE, HeuristicJudge, _verify
from ir_rag_axioms.metrics.verifier import FAMILIES, FEATURES, Verifier, features, load_verifier
from ir_rag_axioms.metrics.verifier.signals import content_words, family_of, fold

PACKAGED = Path(__file__).parents[1] / "ir_rag_axioms" / "data" / "verifier.json"


@pytest.mark.parametrize(("reason", "family"), [
    ("negation: passage 1 negates 'contagious', the statement affirms it", "negation"),
    ("entity 'berlin' vs 'paris' in passage 1", "entities"),
    ("number 1,200 m vs 300 m in passage 1", "numbers"),
    ("antonym 'cheap' vs 'expensive' in passage 1", "antonyms"),
    ("cannot tell: '1946-47' may be computed", "numbers"),
    ("cannot tell: best match 0.783 in [0.7, 0.85)", None),
    ("no matching sentence in the context (best 0.412 < 0.7) and content words not in it: 'green'", "content"),
])
def test_each_reason_falls_in_its_family(reason, family):
    assert family_of(reason) == family


def test_words_are_folded_and_stemmed_so_paraphrases_overlap():
    assert fold("Medellín") == "medellin"
    assert content_words("The Democrats of Medellín") == content_words("the democratic medellin")
    assert content_words("It is not in the") == set()


def test_features_of_a_crafted_row_have_exact_values():
    row = {"statement": "The tower is 300 m tall and painted green.", "best_match": "The tower is 300 m tall.",
           "score": 0.9, "reasons": ["number 1 vs 2 in passage 1", "cannot tell: 'x' may be another form of 'y'"]}
    found = dict(zip(FEATURES, features(row, ["The tower is 300 m tall. It is in Paris."]), strict=True))
    assert found["match"] == 0.9
    assert found["overlap_best"] == pytest.approx(4 / 6)  # tower, 300, m, tall of tower, 300, m, tall, paint, green
    assert found["overlap_context"] == pytest.approx(4 / 6)
    assert found["numbers_in_context"] == 1.0
    assert found["claim_words"] == pytest.approx(math.log1p(9))
    assert (found["new_words"], found["new_names"]) == (pytest.approx(math.log1p(2)), 0.0)  # paint, green
    assert features({**row, "statement": "The tower in Lyon is Gustave's."}, "The tower.")[6] == 2.0
    assert (found["numbers"], found["entities_unsure"], found["negation"]) == (pytest.approx(4 / 6), 1.0, 0.0)
    assert len(FEATURES) == 7 + 2 * len(FAMILIES)


def test_the_packaged_model_is_small_json_with_its_metadata_and_held_out_figures():
    assert PACKAGED.stat().st_size < 5_000_000
    data = json.loads(PACKAGED.read_text())
    assert {"training_sets", "licences", "held_out", "length_baseline"} <= set(data["metadata"])
    assert set(data["metadata"]["licences"]) == set(data["metadata"]["training_sets"])
    model = load_verifier()
    assert 0 < model.threshold < 1 and 0.5 <= model.contradiction_threshold < 1
    again = Verifier.from_json(model.to_json())
    rows = np.random.default_rng(0).normal(size=(7, len(FEATURES)))
    for a, b in zip(model.probabilities(rows), again.probabilities(rows), strict=True):
        assert np.allclose(a, b) and ((0 <= a) & (a <= 1)).all()


def test_a_model_fitted_on_other_features_is_refused():
    data = load_verifier().to_json()
    data["features"] = data["features"][:-1]
    with pytest.raises(ValueError, match="refit"):
        Verifier.from_json(data)


def test_bad_verifier_settings_are_named():
    with pytest.raises(ValueError, match="verifier must be the path"):
        HeuristicJudge(verifier="/no/such/file.json")
    with pytest.raises(ValueError, match="unsure_margin"):
        HeuristicJudge(unsure_margin=True)
    with pytest.raises(TypeError, match="verified"):
        HeuristicJudge(verified="yes")


@pytest.mark.parametrize(("setting", "value"), [
    ("support_threshold", float("nan")), ("recall_threshold", float("inf")), ("check_threshold", float("nan")),
    ("no_threshold", "a"), ("check_threshold", "x"), ("overlap_weight", True), ("duplicate_threshold", None)])
def test_a_number_setting_that_is_no_finite_number_is_refused_by_name(setting, value):
    with pytest.raises(ValueError, match=f"HeuristicJudge: {setting} must be a finite number, got {value!r}"):
        HeuristicJudge(**{setting: value})


@pytest.mark.parametrize("bands", [(float("nan"), 0.5, 0.75, 1.0), (0.25, 0.5, 0.75, float("nan")),
                                   (0.25, "0.5", 0.75, 1)])
def test_level_bands_with_a_nan_or_a_text_are_refused(bands):
    with pytest.raises(ValueError, match="level_bands must be 4 increasing finite numbers"):
        HeuristicJudge(level_bands=bands)


CONTEXT = ["The Eiffel Tower is in Paris. It was completed in 1889 and is 330 metres tall."]
CASE = RubricCase("The Eiffel Tower is in Berlin.", reference=tuple(CONTEXT))


def test_each_claim_carries_its_probabilities_and_evidence():
    result = Faithfulness().measure("The Eiffel Tower is in Paris. It was completed in 1889.", CONTEXT)
    assert result.level == 5, result.explanation
    sentences = ["The Eiffel Tower is in Paris.", "It was completed in 1889 and is 330 metres tall."]
    for row, sentence in zip(result.breakdown, sentences, strict=True):
        assert row["verdict"] == "supported" and row["p_supported"] >= load_verifier().threshold
        assert row["evidence"] == {"passage": 1, "sentence": sentence}
        assert 0 <= row["p_contradicted"] <= 1 - row["p_supported"]
    again = Faithfulness().measure("The Eiffel Tower is in Paris. It was completed in 1889.", CONTEXT)
    assert [r["p_supported"] for r in again.breakdown] == [r["p_supported"] for r in result.breakdown]


@pytest.mark.parametrize(("answer", "context"), [
    pytest.param("The Eiffel Tower is painted green.", ["The Eiffel Tower is in Paris."], marks=pytest.mark.xfail(
        strict=True, reason="open: half the claim's words are in the context and its match is close; the fitted "
        "verifier reads it supported")),
    ("Tides come from wind and ships.", ["Tides are caused by the gravitational pull of the Moon on the oceans."]),
])
def test_an_invented_attribute_of_a_matched_subject_is_not_supported(answer, context):
    result = Faithfulness().measure(answer, context)
    assert result.level is not None and result.level < 5 and not result.passed, result.explanation
    (row,) = result.breakdown
    assert row["verdict"] in ("unsupported", "contradicted") and row["p_supported"] < load_verifier().threshold


def test_a_swapped_name_is_not_supported_and_its_evidence_and_finding_are_named():
    result = Faithfulness().measure("The Eiffel Tower is in Berlin.", CONTEXT)
    assert result.level == 1 and not result.passed, result.explanation
    (row,) = result.breakdown
    assert row["verdict"] != "supported" and "passage 1: 'The Eiffel Tower is in Paris.'" in row["reasons"][0]
    assert "entity 'berlin' vs 'paris' in passage 1" in row["reasons"] and row["signals"]["verdict"] == "contradicted"


@pytest.mark.parametrize(("checks", "supported", "contradicted", "verdict"), [
    ("unsupported", 0.9, 0.05, "supported"), ("idk", 0.45, 0.2, "idk"), ("unsupported", 0.2, 0.5, "unsupported"),
    ("contradicted", 0.1, 0.8, "contradicted"), ("unsupported", 0.6, 0.3, "supported"),
    ("contradicted", 0.9, 0.05, "unsupported"), ("contradicted", 0.45, 0.2, "unsupported")])
def test_the_verdict_follows_the_two_probabilities(checks, supported, contradicted, verdict):
    row = {"statement": "s", "best_match": "The Eiffel Tower is in Paris.", "passage": 1, "score": 1.0,
           "verdict": checks, "reasons": ["a finding"]}
    _verify(row, supported, contradicted, threshold=0.5, contradiction=0.74, margin=0.1)
    assert row["verdict"] == verdict and row["ok"] == (verdict == "supported")
    assert row["signals"] == {"verdict": checks, "reasons": ["a finding"]}
    if verdict == "contradicted":
        assert row["reasons"][0] == ("P(contradicted) 0.80 >= 0.74 against passage 1: 'The Eiffel Tower is in "
                                     "Paris.'") and row["reasons"][1] == "a finding"
    if checks == "contradicted" and verdict == "unsupported":  # a check's contradiction is never outvoted
        assert row["reasons"] == [f"a check contradicts it (P(supported) {supported:.2f}, P(contradicted) "
                                  f"{contradicted:.2f} < 0.74; evidence passage 1: 'The Eiffel Tower is in "
                                  "Paris.')", "a finding"]


def test_one_unsupported_claim_of_four_does_not_sink_the_answer():
    context = ["Marie Curie was born in Warsaw in 1867. She won the Nobel Prize in Physics in 1903. She won the Nobel "
               "Prize in Chemistry in 1911. She died in 1934."]
    answer = ("Marie Curie was born in Warsaw in 1867. She won the Nobel Prize in Physics in 1903. She won the Nobel "
              "Prize in Chemistry in 1911. She loved to paint watercolours of the Alps.")
    result = Faithfulness().measure(answer, context)
    verdicts = [r["verdict"] for r in result.breakdown]
    assert verdicts.count("supported") == 3 and "contradicted" not in verdicts, result.explanation
    assert result.level == 4 and result.passed


def test_the_checks_alone_keep_their_old_verdicts():
    checks_only = HeuristicJudge(verified=False)
    rows = checks_only.support([CASE])[0]
    assert rows == HEURISTIC_JUDGE.signals([CASE])[0]
    assert all("p_supported" not in r for r in rows)


VERIFIED_FLOORS = {
    # batch: (failed negatives, of, failed faithful answers, of); development: the verifier was fitted on a sample of
    # the project's batches (500 of their 1,570 cases), measured at the commit that shipped verifier.json
    "contradictions_heldout11": (28, 64, 2, 62),  # 30/64, 1/62 since comparisons are read by word order
    "contradictions_heldout12": (29, 64, 6, 62),  # 30/64, 5/62; 31 before comparisons were read by word order; 29
    # since a claim worded unlike the context is unsupported, never contradicted (an invented clause: level 3, not 1)
}
"""Faithfulness with the verifier (level below 3) on two batches: the checks alone gave 40/64, 3/62 and 41/64, 7/62."""


@pytest.mark.slow
@pytest.mark.parametrize("name", list(VERIFIED_FLOORS))
def test_the_verified_judge_stays_at_its_development_level_on_the_batches(name):
    cases = json.loads((Path(__file__).parent / "data" / f"{name}.json").read_text())["cases"]
    results = Faithfulness().measure_many([(c["answer"], [c["context"]]) for c in cases])
    failed = [(c["expected"]["faithfulness"], not r.passed) for c, r in zip(cases, results, strict=True)]
    caught, negatives, flagged, positives = VERIFIED_FLOORS[name]
    assert sum(1 for e, f in failed if not e) == negatives and sum(1 for e, _ in failed if e) == positives
    assert sum(f for e, f in failed if not e) >= caught and sum(f for e, f in failed if e) <= flagged


def test_a_name_stem_found_in_the_pool_does_not_depend_on_the_pool_order():
    """The stem check names the first stem-sharing pool word in sorted order, whatever the set's (hash-seeded) order."""
    from ir_rag_axioms.metrics._checks_lexicon import _stem_in

    for pool in (["hawaiian", "hawai", "honolulu"], ["honolulu", "hawai", "hawaiian"], {"hawaiian", "hawai"}):
        assert _stem_in("hawaii", pool) == "hawai"
    assert _stem_in("brazil", ["brazilian", "chile"]) == "brazilian" and _stem_in("chile", ["china"]) == ""


def test_context_recall_lets_the_verifier_decide_a_fact_unless_a_check_fails():
    answer = "Newer phones contain fewer precious metals, which lowers the value of recycled electronics."
    facts = ["The value of recycled e-waste is falling.", "Mars has two moons."]
    paraphrase, swapped = ContextRecall().measure(answer, facts).breakdown
    threshold = load_verifier().threshold
    assert paraphrase["signals"]["verdict"] == "idk" and paraphrase["score"] < 0.8  # the checks cannot tell
    assert paraphrase["verdict"] == "covered" and threshold <= paraphrase["p_supported"] < 0.6
    assert paraphrase["evidence"] == {"passage": None, "sentence": answer}
    assert swapped["checks_failed"] and "p_supported" not in swapped and swapped["verdict"] in ("missing",
                                                                                                "contradicted")
    checks_alone = ContextRecall(judge=HeuristicJudge(verified=False)).measure(answer, facts).breakdown
    assert [r["verdict"] for r in checks_alone] == ["idk", swapped["verdict"]]


def test_a_claim_worded_unlike_the_context_is_unsupported_never_contradicted():
    verifier = load_verifier()
    row = {"statement": "She loved to paint watercolours of the Alps.", "best_match": "She discovered radium.",
           "score": 0.2, "reasons": []}
    x = np.array([features(row, ["Marie Curie was born in Warsaw. She discovered radium."])])
    assert x[0, FEATURES.index("overlap_context")] <= verifier.min_overlap
    assert [p.tolist() for p in verifier.probabilities(x)] == [[0.0], [0.0]]
    result = Faithfulness().measure("Marie Curie was born in Warsaw. She loved to paint watercolours of the Alps.",
                                    ["Marie Curie was born in Warsaw. She discovered radium."])
    assert [c["verdict"] for c in result.breakdown] == ["supported", "unsupported"]
    assert result.level == 3  # half the claims supported, no contradiction to cap it at 1
