"""Consensus nuggets: claims grouped across runs, support by distinct voices, the track's scores, on crafted answers."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest

from ir_rag_axioms.evaluation.consensus_nuggets import (
    NuggetSettings,
    answer_scores,
    claims_of,
    consensus_nuggets,
    nugget_score_table,
    shingles,
    team_of_run,
    topic_nuggets,
)

FACTS = {"Paris": 0, "Seine": 1, "tower": 2, "museum": 3, "bridge": 4, "cheese": 5}
"""Crafted embedding: a claim's vector is the unit vector of the first fact word it names (a distinct axis each)."""


def embed(strings):
    out = np.zeros((len(strings), len(FACTS) + 1))
    for k, s in enumerate(strings):
        axis = next((i for w, i in FACTS.items() if w in s), len(FACTS))
        out[k, axis] = 1.0
        if "nearly" in s:  # a paraphrase: close to the fact's axis, not on it (cosine 0.8)
            out[k] = 0.0
            out[k, axis], out[k, len(FACTS)] = 0.8, 0.6
    return out


ANSWERS = {
    "a": "Paris is the capital of France. The Seine flows through the city.",
    "b": "Paris is the French capital city. The Seine river crosses it. A museum is large here.",
    "c": "The capital of France is Paris. The tower is made of iron.",
    "d": "The tower is very tall indeed. Good cheese is sold there.",
    "e": "Ok. Short.",
}
SETTINGS = NuggetSettings(distance_threshold=0.3, min_support=2, vital_share=0.6, partial_similarity=0.7)


def test_claims_are_sentences_of_enough_words_without_citation_markers():
    assert claims_of("Paris is big [1][2]. Ok. The Seine flows [3, 4] here.", min_words=3) == [
        "Paris is big.", "The Seine flows here."]
    assert claims_of("", 1) == [] and claims_of(None, 1) == [] and claims_of(float("nan"), 1) == []


def test_groups_stated_by_two_voices_are_nuggets_vital_by_share():
    found = topic_nuggets("t1", "q", ANSWERS, embed, SETTINGS)
    nuggets = found.nuggets.set_index("text")
    # Paris (a, b, c: 3 of the 4 voices with a claim, >= 0.6 x 4 -> vital), Seine (a, b) and tower (c, d): okay;
    # museum (b alone) and cheese (d alone) are no nuggets
    assert sorted(found.nuggets["support"]) == [2, 2, 3]
    paris = nuggets.loc[[t for t in nuggets.index if "Paris" in t][0]]
    assert paris["importance"] == "vital" and paris["runs"] == ("a", "b", "c")
    assert list(found.nuggets["nugget_id"]) == ["t1-n1", "t1-n2", "t1-n3"]  # most support first
    assert not any("museum" in t or "cheese" in t for t in found.nuggets["text"])
    assert found.empty == []  # "e" has no sentence of 4 words, but it is not empty: it states no nugget


def test_scores_are_the_tracks_shares_and_empty_answers_abstain():
    found = topic_nuggets("t1", "q", ANSWERS, embed, SETTINGS)
    scores = answer_scores(found).set_index("run_id")
    assert scores.loc["a", "vital_strict"] == 1.0 and scores.loc["a", "all_strict"] == pytest.approx(2 / 3)
    assert scores.loc["d", "vital_strict"] == 0.0 and scores.loc["d", "all_strict"] == pytest.approx(1 / 3)
    assert scores.loc["e", ["vital_strict", "vital", "all_strict", "all"]].tolist() == [0.0] * 4  # text, no claim
    blank = answer_scores(topic_nuggets("t1", "q", dict(ANSWERS, e=" \n"), embed, SETTINGS)).set_index("run_id")
    assert blank.loc["e", ["vital_strict", "vital", "all_strict", "all"]].isna().all()  # abstention, never 0
    evidence = found.assignments.set_index(["run_id", "nugget_id"])
    paris_id = found.nuggets.loc[found.nuggets["support"] == 3, "nugget_id"].iloc[0]
    assert evidence.loc[("c", paris_id), "evidence"] == "The capital of France is Paris."
    assert evidence.loc[("d", paris_id), "assignment"] == "not_support"


def test_a_close_paraphrase_is_partial_support_worth_half():
    answers = dict(ANSWERS, f="Cities like Paris nearly rule France.")
    found = topic_nuggets("t1", "q", answers, embed, NuggetSettings(distance_threshold=0.1, min_support=2,
                                                                     vital_share=0.5, partial_similarity=0.7))
    got = found.assignments.set_index(["run_id", "nugget_id"])
    paris_id = found.nuggets.loc[found.nuggets["text"].str.contains("Paris"), "nugget_id"].iloc[0]
    assert got.loc[("f", paris_id), "assignment"] == "partial_support"
    assert got.loc[("f", paris_id), "similarity"] == pytest.approx(0.8)
    scores = answer_scores(found).set_index("run_id")
    assert scores.loc["f", "vital"] == pytest.approx(0.5) and scores.loc["f", "vital_strict"] == 0.0


def test_near_copies_of_one_team_are_one_voice():
    copies = {"x1": "The tower is made of iron.", "x2": "The tower is made of iron!",
              "y": "Paris is in France, yes. Good cheese is sold there.",
              "z": "Paris is a city in France. A museum is large here."}
    found = topic_nuggets("t", "q", copies, embed, SETTINGS)
    # Paris (y, z) is a nugget; the tower's two runs are near-identical answers, one voice: no nugget
    assert list(found.nuggets["support"]) == [2] and "Paris" in found.nuggets["text"].iloc[0]
    assert found.voices["x1"] == found.voices["x2"] != found.voices["y"] != found.voices["z"]
    # shared wording, not shared facts: the paraphrases y, z share no 3-gram; x1, x2 all of them
    assert shingles(copies["x1"]) == shingles(copies["x2"]) and not shingles(copies["y"]) & shingles(copies["z"])
    # a stricter rule (only exact copies of every 3-gram) still joins x1 and x2; 1.0 with one 3-gram changed does not
    edited = {**copies, "x2": "The tower is made of steel."}
    loose = topic_nuggets("t", "q", edited, embed, NuggetSettings(distance_threshold=0.3, min_support=2,
                                                                  duplicate_overlap=1.0, vital_share=0.6))
    assert sorted(loose.nuggets["support"]) == [2, 2]
    # teams: y and z as one team leave no nugget at all
    teamed = topic_nuggets("t", "q", copies, embed, SETTINGS, teams=lambda r: "same" if r in "yz" else r)
    assert teamed.nuggets.empty


def test_team_of_run_is_the_prefix():
    assert team_of_run("webis-rag-run1") == "webis" and team_of_run("UDInfolab.RAG.Query") == "UDInfolab"
    assert team_of_run("buw") == "buw"


def test_deterministic_and_order_invariant():
    first = topic_nuggets("t1", "q", ANSWERS, embed, SETTINGS)
    again = topic_nuggets("t1", "q", dict(reversed(list(ANSWERS.items()))), embed, SETTINGS)
    pd.testing.assert_frame_equal(first.nuggets, again.nuggets)
    pd.testing.assert_frame_equal(first.assignments, again.assignments)


def test_a_topic_without_nuggets_scores_nan():
    found = topic_nuggets("t", "q", {"a": "The tower is made of iron.", "b": "Good cheese is sold there."}, embed,
                          SETTINGS)
    assert found.nuggets.empty
    assert answer_scores(found)[["vital_strict", "all_strict"]].isna().all().all()


@pytest.mark.parametrize("changes", [{"min_support": 1}, {"distance_threshold": 0.0}, {"vital_share": 1.5},
                                     {"min_words": 0}, {"min_support": 2.5},
                                     {"duplicate_overlap": -0.1}])
def test_bad_settings_are_refused(changes):
    with pytest.raises(ValueError):
        NuggetSettings(**changes)


def test_with_the_packaged_encoder_over_topics():
    answers = pd.DataFrame({
        "run_id": ["r1", "r2", "r3", "r1", "r2", "r3"], "topic": ["t1", "t1", "t1", "t2", "t2", "t2"],
        "query": ["capital of France"] * 3 + ["iron tower"] * 3,
        "text": ["Paris is the capital of France.", "The capital of France is Paris.", "Bananas are yellow fruit.",
                 "The Eiffel tower is built of iron.", "The Eiffel Tower was built from iron.", ""]})
    topics = consensus_nuggets(answers, NuggetSettings(min_support=2), progress=False)
    assert [t.topic for t in topics] == ["t1", "t2"]
    assert [len(t.nuggets) for t in topics] == [1, 1]
    assert topics[0].nuggets["runs"].iloc[0] == ("r1", "r2")
    table = nugget_score_table(topics).set_index(["topic", "run_id"])
    assert table.loc[("t1", "r3"), "all_strict"] == 0.0 and table.loc[("t1", "r1"), "all_strict"] == 1.0
    assert math.isnan(table.loc[("t2", "r3"), "all_strict"])
    with pytest.raises(ValueError, match="more than once"):
        consensus_nuggets(pd.concat([answers, answers.iloc[:1]]), progress=False)


# -- adversarial findings: a claimless answer scores 0; the defaults are the judge's -------------------------------
def test_a_short_answer_without_claims_scores_zero_like_a_longer_one_that_states_no_nugget():
    """"Yes." is no abstention: it states no nugget (0), never NaN above "Yes, it is dangerous." (also 0)."""
    for short in ("Yes.", "Yes, it is dangerous."):
        found = topic_nuggets("t1", "q", dict(ANSWERS, e=short), embed, SETTINGS)
        scores = answer_scores(found).set_index("run_id")
        assert scores.loc["e", ["vital_strict", "vital", "all_strict", "all"]].tolist() == [0.0] * 4
        assert found.empty == []
    for blank in ("", "  ", None, float("nan")):
        found = topic_nuggets("t1", "q", dict(ANSWERS, e=blank), embed, SETTINGS)
        assert found.empty == ["e"] and answer_scores(found).set_index("run_id").loc["e"].drop("topic").isna().all()


def test_the_default_settings_are_the_packaged_models_which_the_judge_uses():
    from ir_rag_axioms.evaluation.leaderboard import nugget_settings, packaged_model

    assert NuggetSettings() == nugget_settings()
    assert packaged_model()["nugget_settings"] == {"distance_threshold": 0.45, "min_support": 3, "vital_share": 0.2,
                                                   "partial_similarity": 0.5}
    assert (NuggetSettings().distance_threshold, NuggetSettings().min_support, NuggetSettings().vital_share,
            NuggetSettings().partial_similarity) == (0.45, 3, 0.2, 0.5)


def test_consensus_nuggets_with_defaults_gives_the_judges_nugget_columns():
    """The default leaderboard's NUGGET_* values are those of consensus_nuggets(answers) with its default settings."""
    from ir_rag_axioms.evaluation.leaderboard import NUGGET_MEASURES, system_leaderboard

    texts = ["Paris is the capital of France and its largest city.", "The capital of France is the city of Paris.",
             "Paris, the French capital, lies on the Seine river.", "France has Paris as its capital city today.",
             "Bananas are a yellow fruit that grows in bunches.", "Yes."]
    answers = pd.DataFrame({"run_id": [f"r{k}" for k in range(len(texts))], "topic": "t1",
                            "query": "What is the capital of France?", "text": texts})
    board = system_leaderboard(answers, progress=False)
    board = board[board["measure"].isin(list(NUGGET_MEASURES)) & (board["topic"] == "t1")]
    judged = board.pivot(index="run_id", columns="measure", values="value").rename(columns=NUGGET_MEASURES)
    mine = nugget_score_table(consensus_nuggets(answers, progress=False)).set_index("run_id")
    columns = list(NUGGET_MEASURES.values())
    pd.testing.assert_frame_equal(judged[columns].sort_index(), mine[columns].sort_index(), check_names=False,
                                  check_exact=True)
    assert mine.loc["r5", "all_strict"] == 0.0 and mine["all_strict"].max() > 0
