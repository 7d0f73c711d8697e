"""Oracle axioms: the crowd oracle reproduces every golden oracle matrix.

Also abstentions; id matching; nugget and LLM oracles.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from ir_rag_axioms.axioms.oracles import (
    CROWD,
    LLM_ORIG,
    NUGGET,
    CrowdOracle,
    LlmRatingOracle,
    NuggetOracle,
    utility_columns,
)
from ir_rag_axioms.model import GenerationRequest, GenerationResponse

ORACLE_KEYS = [
    "overall", "logical coherence", "stylistic coherence", "coherence", "internal consistency", "consistency",
    "topical correctness", "correctness", "broad coverage", "deep coverage", "coverage",
]


@pytest.fixture(scope="module")
def golden(reference_dir: Path):
    return dict(np.load(reference_dir / "oracle.npz"))


@pytest.fixture(scope="module")
def crowd_dir(data_dir: Path) -> Path:
    return data_dir / "trec-rag-24-crowd"


def _oracle_for(key: str, crowd_dir: Path) -> CrowdOracle:
    utility, _, variant = key.partition("@")
    params = {"utility": utility, "data_dir": crowd_dir, "duplicates": "last"}
    if variant == "margin=0.0":
        params["margin_fraction"] = 0.0
    elif variant == "averaged":
        params["duplicates"] = "mean"
    return CrowdOracle(**params)


@pytest.mark.parametrize("key", ORACLE_KEYS + [f"{k}@margin=0.0" for k in ORACLE_KEYS] + ["overall@averaged"])
def test_crowd_oracle_matches_the_reference_exactly(key, golden, judged_items, crowd_dir):
    ours = np.stack(_oracle_for(key, crowd_dir).preferences_batch(judged_items))
    assert ours.shape == golden[key].shape == (65, 6, 6)
    assert np.array_equal(ours, golden[key]), f"{(ours != golden[key]).sum()} entries differ for {key}"


def test_golden_keys_are_all_covered(golden):
    expected = set(ORACLE_KEYS) | {f"{k}@margin=0.0" for k in ORACLE_KEYS} | {"overall@averaged"}
    assert set(golden) == expected


def test_duplicates_mean_differs_from_last_only_on_repeated_pairs(judged_items, crowd_dir):
    mean = np.stack(CrowdOracle(data_dir=crowd_dir).preferences_batch(judged_items))
    last = np.stack(CrowdOracle(data_dir=crowd_dir, duplicates="last").preferences_batch(judged_items))
    judgments = CrowdOracle(data_dir=crowd_dir).load()
    ratings = judgments.ratings
    rows = zip(ratings["query_id"], ratings["response_a"], ratings["response_b"], strict=True)
    keys = [(t, *sorted((a, b))) for t, a, b in rows]
    assert len(keys) - len(set(keys)) == 377
    # at the default margin, 129 of the 377 pairs judged twice get different preferences from the two judgments
    first = CrowdOracle.from_frames(ratings.iloc[::-1].reset_index(drop=True), duplicates="last")
    table_first = first.load().table("overall", "last")
    table_last = judgments.table("overall", "last")
    repeated = {k for k in keys if keys.count(k) == 2}
    from ir_rag_axioms.axioms.base import compare

    differ = sum(
        compare(np.array(table_first[k]), True, 0.1)[0, 1] != compare(np.array(table_last[k]), True, 0.1)[0, 1]
        for k in repeated)
    assert differ == 129
    assert (mean != last).sum() > 0


def test_abstains_on_unjudged_topics_pairs_and_unknown_responses(crowd_dir):
    oracle = CrowdOracle(data_dir=crowd_dir)
    # an unjudged topic (one of the 236 without crowd judgments)
    unjudged = GenerationRequest("2024-145979", "what is vicarious trauma and how can it be coped with?")
    assert not oracle.preferences(unjudged, [GenerationResponse("human-bullet", "a"),
                                             GenerationResponse("llm-news", "b")]).any()
    judged = GenerationRequest("2024-45494", "q")
    a = GenerationResponse("02693406-15df-33d5-b424-219ac8ab2054", "whatever text")
    b = GenerationResponse("a88f8f2c-f348-3dd5-83c7-3deb46f4959b", "other text")  # judged once: p_b = 0.78
    stranger = GenerationResponse("not-a-crowd-response", "text")
    m = oracle.preferences(judged, [a, b, stranger])
    assert m.tolist() == [[0, -1, 0], [1, 0, 0], [0, 0, 0]]


def test_pair_judged_twice_in_opposite_directions(crowd_dir):
    # rows 0 and 308 of the ratings file: (a, b) with P(b) = 0.974, then (b, a) with P(a) = 0.922
    request = GenerationRequest("2024-45494", "q")
    pair = [GenerationResponse("02693406-15df-33d5-b424-219ac8ab2054", ""),
            GenerationResponse("3c5e25b6-2d4d-3d84-b01c-0264c3a5ba50", "")]
    # mean: P(a) = (0.026 + 0.922) / 2 = 0.474, P(b) = 0.526: within the 10 % margin -> tie
    assert CrowdOracle(data_dir=crowd_dir).preferences(request, pair)[0, 1] == 0
    assert CrowdOracle(data_dir=crowd_dir, margin_fraction=0.0).preferences(request, pair)[0, 1] == -1
    # the reference keeps the later row: a is better
    assert CrowdOracle(data_dir=crowd_dir, duplicates="last").preferences(request, pair)[0, 1] == 1


def test_responses_are_matched_by_id_not_text(crowd_dir):
    oracle = CrowdOracle(data_dir=crowd_dir)
    request = GenerationRequest("2024-45494", "q")
    by_id = [GenerationResponse("02693406-15df-33d5-b424-219ac8ab2054", "x"),
             GenerationResponse("a88f8f2c-f348-3dd5-83c7-3deb46f4959b", "x")]
    responses = oracle.load()
    names = {rid: name for (topic, name), rid in responses.aliases.items() if topic == "2024-45494"}
    by_name = [GenerationResponse(names[r.id], "completely different") for r in by_id]
    assert np.array_equal(oracle.preferences(request, by_id), oracle.preferences(request, by_name))
    assert oracle.preferences(request, by_id).any()


def test_registered_short_names_and_repr(crowd_dir):
    from ir_rag_axioms.axioms import registry

    assert registry.REGISTRY["CROWD"] is CROWD and registry.REGISTRY["NUGGET"] is NUGGET
    assert registry.REGISTRY["LLM_ORIG"] is LLM_ORIG
    configured = CROWD(utility="coverage", margin_fraction=0.0, data_dir=str(crowd_dir))
    assert repr(configured) == f"CROWD(data_dir={str(crowd_dir)!r}, margin_fraction=0.0, utility='coverage')"
    assert registry.parse(repr(configured), allow_paths=True) == configured  # a data folder is a path
    assert repr(NUGGET(score_type="all", strict=True)) == "NUGGET(score_type='all', strict=True)"


def test_invalid_parameters():
    with pytest.raises(ValueError, match="unknown crowd utility"):
        CrowdOracle(utility="fluency")
    with pytest.raises(ValueError, match="duplicates"):
        CrowdOracle(duplicates="first")
    with pytest.raises(ValueError, match="score_type"):
        NuggetOracle(score_type="okay")
    assert utility_columns("broad-coverage") == utility_columns("coverage_broad") == ("coverage_broad",)


def test_crowd_oracle_from_frames_margin_rule():
    ratings = pd.DataFrame({
        "query_id": ["q", "q", "q"], "response_a": ["a", "a", "c"], "response_b": ["b", "c", "b"],
        "quality_overall_p_a": [0.52, 0.9, 0.2], "quality_overall_p_b": [0.48, 0.1, 0.6],
    })
    oracle = CrowdOracle.from_frames(ratings)
    request = GenerationRequest("q", "query")
    responses = [GenerationResponse(x, "") for x in ("a", "b", "c", "d")]
    m = oracle.preferences(request, responses)
    # a vs b: |0.52 - 0.48| = 0.04 <= 0.1 * 0.52 -> tie; a vs c: a better; c vs b: b better; d unjudged
    assert m.tolist() == [[0, 0, 1, 0], [0, 0, 1, 0], [-1, -1, 0, 0], [0, 0, 0, 0]]
    assert oracle(margin_fraction=0.0).preferences(request, responses)[0, 1] == 1


def test_nugget_oracle(data_dir: Path):
    frame = pd.DataFrame({
        "qid": ["q", "q", "q"], "run_id": ["r1", "r2", "r3"],
        "nuggets": [
            [{"importance": "vital", "assignment": "support"}, {"importance": "okay", "assignment": "not_support"}],
            [{"importance": "vital", "assignment": "partial_support"}, {"importance": "okay", "assignment": "support"}],
            [{"importance": "vital", "assignment": "not_support"}, {"importance": "okay", "assignment": "support"}],
        ],
    })
    request = GenerationRequest("q", "query")
    responses = [GenerationResponse(x, "") for x in ("r1", "r2", "r3", "unknown")]
    vital = NuggetOracle.from_frame(frame, score_type="vital").preferences(request, responses)
    assert vital.tolist() == [[0, 1, 1, 0], [-1, 0, 1, 0], [-1, -1, 0, 0], [0, 0, 0, 0]]
    # all: r1 = 0.5, r2 = 0.75, r3 = 0.5; strict all: r1 = 0.5, r2 = 0.5, r3 = 0.5
    assert NuggetOracle.from_frame(frame, score_type="all").preferences(request, responses)[1].tolist() == [1, 0, 1, 0]
    assert not NuggetOracle.from_frame(frame, score_type="all", strict=True).preferences(request, responses).any()
    real = NuggetOracle(data_dir=data_dir / "trec-rag-24-nuggets", score_type="all")
    assert len(real.topics) == 20
    request = GenerationRequest("2024-105741", "q")
    pair = [GenerationResponse("BEST_cot_gpt3.5", ""),
            GenerationResponse("2024-105741/Enhanced_Iterative_Fact_Refinement_and_Prioritization", "")]
    assert real(score_type="vital").preferences(request, pair)[0, 1] == -1  # vital 1/3 vs 2/3


def test_llm_rating_oracle(data_dir: Path, judged_items):
    ratings = pd.DataFrame({"topic": ["t", "t", "t"], "response": ["a", "b", "c"], "probability": [0.2, 0.7, 0.7]})
    m = LlmRatingOracle.from_frame(ratings).preferences(
        GenerationRequest("t", "q"), [GenerationResponse(x, "") for x in "abcd"])
    assert m.tolist() == [[0, -1, -1, 0], [1, 0, 0, 0], [1, 0, 0, 0], [0, 0, 0, 0]]
    real = LlmRatingOracle(data_dir=data_dir / "trec-rag-24-llm-ratings",
                           responses_path=data_dir / "trec-rag-24-crowd")
    matrices = np.stack(real.preferences_batch(judged_items[:5]))
    assert matrices.shape == (5, 6, 6) and (np.abs(matrices).sum(axis=(1, 2)) > 0).all()
    assert np.array_equal(matrices, -matrices.transpose(0, 2, 1))


def test_oracles_from_registered_datasets(data_dir: Path, judged_items, tmp_path: Path):
    from ir_rag_axioms.datasets import register_crowd, register_nuggets

    register_crowd(data_dir / "trec-rag-24-crowd", name="test-oracles/crowd", cache_dir=tmp_path / "c")
    from_irds = np.stack(CrowdOracle.from_irds("test-oracles/crowd", utility="coverage")
                         .preferences_batch(judged_items))
    from_files = np.stack(CrowdOracle(utility="coverage", data_dir=data_dir / "trec-rag-24-crowd")
                          .preferences_batch(judged_items))
    assert np.array_equal(from_irds, from_files) and np.abs(from_files).sum() > 0
    register_nuggets(data_dir / "trec-rag-24-nuggets", name="test-oracles/nuggets", cache_dir=tmp_path / "n")
    request = GenerationRequest("2024-105741", "q")
    answers = [GenerationResponse(r, "")
               for r in ("BEST_cot_gpt3.5", "Enhanced_Iterative_Fact_Refinement_and_Prioritization")]
    for score in ("all", "vital-strict", "weighted"):
        irds = NuggetOracle.from_irds(f"test-oracles/nuggets/{score}").preferences(request, answers)
        files = NuggetOracle(data_dir=data_dir / "trec-rag-24-nuggets", score_type=score.split("-")[0],
                             strict=score.endswith("strict")).preferences(request, answers)
        assert np.array_equal(irds, files)


def test_oracles_take_in_memory_tables(data_dir: Path, tmp_path: Path):
    from ir_rag_axioms.datasets import crowd, llm, nuggets
    from ir_rag_axioms.datasets.files import DataFileError

    crowd_dir = data_dir / "trec-rag-24-crowd"
    by_file = CrowdOracle(utility="coverage", data_dir=crowd_dir)
    items = crowd.items(crowd.load_crowd_responses(crowd_dir), by_file.topics)  # response ids, no aliases needed
    by_table = CrowdOracle(utility="coverage", judgments=crowd.load_crowd_ratings(crowd_dir))
    assert repr(by_table) == "CROWD(utility='coverage')"
    expected = np.stack(by_file.preferences_batch(items))
    assert np.array_equal(np.stack(by_table.preferences_batch(items)), expected) and np.abs(expected).sum() > 0
    nugget_dir = data_dir / "trec-rag-24-nuggets"
    answers = nuggets.items(nuggets.load_nugget_assignments(nugget_dir))[:3]
    table = NuggetOracle(score_type="weighted", table=nuggets.load_nugget_assignments(nugget_dir))
    expected = NuggetOracle(score_type="weighted", data_dir=nugget_dir).preferences_batch(answers)
    assert all(np.array_equal(m, e) and np.abs(e).sum() > 0
               for m, e in zip(table.preferences_batch(answers), expected, strict=True))
    llm_dir = data_dir / "trec-rag-24-llm-ratings"
    rated = llm.items(llm.load_llm_ratings(path=llm_dir))[:3]
    expected = np.stack(LlmRatingOracle(data_dir=llm_dir).preferences_batch(rated))
    in_memory = LlmRatingOracle(table=llm.load_llm_ratings(path=llm_dir))
    assert np.array_equal(np.stack(in_memory.preferences_batch(rated)), expected) and np.abs(expected).sum() > 0
    # the data belong to the instance: a reconfigured copy reads its own files
    assert by_file.load() is by_file.load()
    with pytest.raises(DataFileError, match="no file ratings.jsonl.gz"):
        by_file(data_dir=tmp_path).load()


# -- errors and edge cases ----------------------------------------------------------------------------
# -- 6. error messages name only what the constructors accept --------------------------------------------
def test_data_file_hints_name_parameters_the_oracles_accept(tmp_path) -> None:
    import dataclasses
    import re

    from ir_rag_axioms.axioms.oracles import CrowdOracle, LlmRatingOracle, NuggetOracle
    from ir_rag_axioms.datasets import files

    owners = {files.CROWD_RESPONSES: CrowdOracle, files.CROWD_RATINGS: CrowdOracle, files.CROWD_TOPICS: CrowdOracle,
              files.NUGGET_ASSIGNMENTS: NuggetOracle, files.llm_ratings_file(LlmRatingOracle.model): LlmRatingOracle}
    for spec, oracle in owners.items():
        with pytest.raises(files.DataFileError) as error:
            files.resolve(spec, tmp_path)
        named = set(re.findall(r"(\w+)=", str(error.value)))
        assert named and named <= {f.name for f in dataclasses.fields(oracle)}, (spec.key, named)
