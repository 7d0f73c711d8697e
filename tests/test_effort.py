"""The effort/correctness curve and Krippendorff's alpha: exact values on crafted judgments, and CrowdRAG-25."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from ir_rag_axioms.evaluation.effort import (
    agreement_with_gold,
    coin_curve,
    effort_curve,
    gold_judgments,
    krippendorff_alpha,
    on_judgments,
    saved_at,
    vote,
)
from ir_rag_axioms.model import GenerationRequest, GenerationResponse

NAN = np.nan
KRIPPENDORFF_2011 = [[1, 2, 3, 3, 2, 1, 4, 1, 2, NAN, NAN, NAN], [1, 2, 3, 3, 2, 2, 4, 1, 2, 5, NAN, 3],
                     [NAN, 3, 3, 3, 2, 3, 4, 2, 2, 5, 1, NAN], [1, 2, 3, 3, 2, 4, 4, 1, 2, 5, 1, NAN]]
"""The worked example of Krippendorff (2011), "Computing Krippendorff's Alpha-Reliability": 4 coders, 12 units."""


def test_alpha_reproduces_krippendorffs_worked_example():
    assert krippendorff_alpha(KRIPPENDORFF_2011, "nominal") == pytest.approx(0.743, abs=5e-4)
    assert krippendorff_alpha(KRIPPENDORFF_2011, "ordinal") == pytest.approx(0.815, abs=5e-4)
    assert krippendorff_alpha(KRIPPENDORFF_2011, "interval") == pytest.approx(0.849, abs=5e-4)
    with pytest.raises(ValueError, match="unknown level 'ratio'; choose one of nominal, ordinal, interval"):
        krippendorff_alpha(KRIPPENDORFF_2011, "ratio")


def test_alpha_agrees_with_the_krippendorff_package_on_judgments():
    krippendorff = pytest.importorskip("krippendorff")
    rng = np.random.default_rng(3)
    gold = rng.choice([-1.0, 1.0], size=200)
    judge = np.where(rng.random(200) < 0.7, gold, rng.choice([-1.0, 0.0, 1.0], size=200))
    for level in ("nominal", "ordinal"):
        assert agreement_with_gold(judge, gold, level) == pytest.approx(
            krippendorff.alpha(reliability_data=np.stack([judge, gold]), level_of_measurement=level))


def test_alpha_extremes():
    gold = np.array([1.0, -1.0, 1.0, -1.0])
    assert agreement_with_gold(gold, gold) == 1.0
    # always opposite: D_o = 1 over 8 values, D_e = 16 * 2 / (8 * 7): alpha = 1 - 1 / (4 / 7) = -0.75
    assert agreement_with_gold(-gold, gold) == pytest.approx(-0.75)
    assert np.isnan(krippendorff_alpha([[1.0, 1.0], [1.0, 1.0]]))  # nothing varies: undefined


def test_the_curve_decides_the_most_confident_judgments_first():
    decisions = [1, 1, -1, 1, 0, -1]
    confidence = [0.9, 0.9, 0.5, 0.5, 0.0, 0.2]
    gold = [1, -1, -1, -1, 1, 1]
    curve = effort_curve(decisions, confidence, gold)
    assert curve["confidence"].tolist() == [np.inf, 0.9, 0.5, 0.2]
    assert curve["automatic"].tolist() == pytest.approx([0, 2 / 6, 4 / 6, 5 / 6])
    assert curve["human"].tolist() == pytest.approx([1, 4 / 6, 2 / 6, 1 / 6])
    assert curve["correct"].tolist() == pytest.approx([1, 5 / 6, 4 / 6, 3 / 6])  # wrong: 1, 2, 3
    assert curve["judge_correct"].tolist()[1:] == pytest.approx([1 / 2, 2 / 4, 2 / 5])
    # 0.8 correct: one wrong pair allowed (0.2 * 6 = 1.2): all of the first level (1 wrong), then 0.2 of the
    # second level's expected wrong pair (1 per 2 pairs): 2/6 + 2/6 * 0.2 / 1
    assert saved_at(curve, 0.8) == pytest.approx(2 / 6 + (2 / 6) * (5 / 6 - 0.8) / (5 / 6 - 4 / 6))
    assert saved_at(curve, 0.4) == pytest.approx(5 / 6)  # never below: all it decides, no more
    assert saved_at(curve, 1.0) == 0.0


def test_a_coin_saves_a_fifth_at_ninety_percent_and_a_perfect_judge_all_it_decides():
    assert saved_at(coin_curve(), 0.9) == pytest.approx(0.2)
    gold = np.array([1, -1, 1, 1])
    assert saved_at(effort_curve(gold, np.ones(4), gold), 0.9) == 1.0
    assert saved_at(effort_curve([1, 0, 0, 0], np.ones(4), gold), 0.9) == 0.25  # decides one pair only


def test_the_curve_is_invariant_to_the_order_of_judgments():
    rng = np.random.default_rng(0)
    d, c, g = rng.choice([-1, 0, 1], 50), rng.integers(0, 4, 50) / 4, rng.choice([-1, 1], 50)
    order = rng.permutation(50)
    pd.testing.assert_frame_equal(effort_curve(d, c, g), effort_curve(d[order], c[order], g[order]))


def test_bad_curve_inputs_are_refused():
    with pytest.raises(ValueError, match=r"decisions \(2\), confidence \(1\) and gold \(2\) differ"):
        effort_curve([1, 1], [1], [1, 1])
    with pytest.raises(ValueError, match="confidence must be a number >= 0"):
        effort_curve([1], [-1], [1])
    with pytest.raises(ValueError, match=r"gold is NaN for 1 judgment\(s\) \(e.g. position 1\)"):
        effort_curve([1, 1], [1, 1], [1, float("nan")])  # was silently counted as a wrong decision


def test_vote_confidence_is_the_winners_share():
    up, down, none = np.array([[0, 1], [-1, 0]]), np.array([[0, -1], [1, 0]]), np.zeros((2, 2))
    decision, confidence = vote(np.stack([up, up, down, none]))
    assert decision[0, 1] == 1 and confidence[0, 1] == 0.5
    decision, confidence = vote(np.stack([up, down]))
    assert decision[0, 1] == 0 and confidence[0, 1] == 0.0


def test_gold_judgments_map_ratings_onto_the_items():
    items = [(GenerationRequest("t1", "q"), [GenerationResponse("r1", "a"), GenerationResponse("r2", "b")])]
    ratings = pd.DataFrame({"query_id": ["t1", "t1"], "response_a": ["r2", "r1"], "response_b": ["r1", "r2"],
                            "quality_overall_gold": ["a", "b"]})
    judgments = gold_judgments(ratings, items)
    assert judgments.to_dict("list") == {"topic": [0, 0], "i": [1, 0], "j": [0, 1], "gold": [1.0, -1.0]}
    assert on_judgments(judgments, [np.array([[0.0, 2.0], [-2.0, 0.0]])]).tolist() == [-2.0, 2.0]
    with pytest.raises(ValueError, match="judgment 0: response 'r9' is not among topic 't1'"):
        gold_judgments(ratings.assign(response_a=["r9", "r1"]), items)


@pytest.mark.slow
def test_on_crowdrag_a_length_vote_saves_little_and_alpha_is_low(data_dir):
    """CrowdRAG-25's 1,352 judgments: the gold is a or b; "prefer the longer" is a weak judge."""
    from ir_rag_axioms import ResponseLength
    from ir_rag_axioms.datasets import crowd

    folder = data_dir / "trec-rag-24-crowd"
    ratings = crowd.load_crowd_ratings(folder)
    items = crowd.items(crowd.load_crowd_responses(folder), set(ratings["query_id"].astype(str)))
    judgments = gold_judgments(ratings, items)
    assert len(judgments) == 1352 and set(judgments["gold"]) == {-1.0, 1.0}
    length = ResponseLength().preferences_batch(items)
    decisions = on_judgments(judgments, length)
    curve = effort_curve(decisions, np.abs(decisions), judgments["gold"])
    alpha = agreement_with_gold(decisions, judgments["gold"])
    assert curve["automatic"].iloc[-1] == pytest.approx(0.9896, abs=1e-4)  # ties in length abstain
    assert curve["judge_correct"].iloc[-1] == pytest.approx(0.5777, abs=1e-4)
    # one confidence level: 0.1 / (1 - 0.5777) of the pairs, a little above the coin's 0.2
    assert saved_at(curve, 0.9) == pytest.approx(0.2368, abs=1e-4)
    assert alpha == pytest.approx(0.152, abs=1e-3)


def test_the_effort_figure_marks_each_judge_where_it_reaches_the_target(tmp_path):
    from ir_rag_axioms.evaluation.report import plot_effort

    gold = np.array([1, -1, 1, 1])
    curves = {"perfect": effort_curve(gold, np.ones(4), gold), "coin": coin_curve()}
    saved = plot_effort(curves, tmp_path / "effort.png", "two judges")
    assert saved == {"perfect": 1.0, "coin": pytest.approx(0.2)}
    assert (tmp_path / "effort.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
