"""EntailmentJudge: the heuristic judge plus a user's NLI cross-encoder, on real CrossEncoder models built here.

No NLI model loads offline here, so the models are tiny BERT classifiers built with transformers and loaded by
sentence-transformers' real ``CrossEncoder``. Their classifier weights are zero and their bias fixed, so each one
always answers one label: that makes the judge's rules (what the model may overrule and what not) exact to test.
What these tests cannot show is how good a real NLI model's verdicts are (docs/metrics.md, "An entailment model").
"""

from __future__ import annotations

import math
from pathlib import Path

import pytest

from ir_rag_axioms.metrics import EntailmentJudge, Faithfulness, HeuristicJudge, RubricCase
from ir_rag_axioms.metrics.entailment import nli_labels

CONTEXT = ("The Eiffel Tower was completed in 1889 for the World's Fair in Paris. It is 330 metres tall.",)
SUPPORTED = "The Eiffel Tower was finished in 1889 for the Paris World's Fair."
WRONG_YEAR = "The Eiffel Tower was completed in 1899."
UNDECIDED = "The tower in Paris was built for an international exhibition."
WORDS = "[PAD] [UNK] [CLS] [SEP] [MASK] the eiffel tower was completed in for world ' s fair paris . it is tall"


def _model(directory: Path, id2label: dict[int, str], answer: int) -> str:
    """A tiny BERT sequence classifier whose softmax puts ~0.99 on label index ``answer`` for every input."""
    import torch
    from transformers import BertConfig, BertForSequenceClassification, BertTokenizerFast

    directory.mkdir(parents=True, exist_ok=True)
    (directory / "vocab.txt").write_text("\n".join(WORDS.split()) + "\n")
    config = BertConfig(vocab_size=len(WORDS.split()), hidden_size=16, num_hidden_layers=1, num_attention_heads=2,
                        intermediate_size=16, max_position_embeddings=512, num_labels=len(id2label),
                        id2label=id2label, label2id={v: k for k, v in id2label.items()})
    torch.manual_seed(0)
    model = BertForSequenceClassification(config)
    with torch.no_grad():
        model.classifier.weight.zero_()
        model.classifier.bias.copy_(torch.tensor([6.0 if k == answer else 0.0 for k in range(len(id2label))]))
    model.save_pretrained(directory)
    BertTokenizerFast(vocab_file=str(directory / "vocab.txt")).save_pretrained(directory)
    return str(directory)


CHECKS = HeuristicJudge(verified=False)
"""The checks' verdicts alone: the entailment model's rules are tested against them (the verifier: test_verifier.py)."""
ORDER = {0: "ENTAILMENT", 1: "NEUTRAL", 2: "CONTRADICTION"}  # not the MNLI order: the judge must read id2label


@pytest.fixture(scope="module")
def models(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    root = tmp_path_factory.mktemp("nli")
    return {name: _model(root / name, ORDER, answer)
            for name, answer in (("entails", 0), ("neutral", 1), ("contradicts", 2))}


def _verdicts(judge: HeuristicJudge, output: str) -> list[str]:
    return [row["verdict"] for row in judge.support([RubricCase(output, reference=CONTEXT)])[0]]


def test_the_labels_are_read_from_the_models_config_in_any_order() -> None:
    assert nli_labels({0: "contradiction", 1: "entailment", 2: "neutral"}) == \
        {"contradiction": 0, "entailment": 1, "neutral": 2}
    assert nli_labels(ORDER) == {"entailment": 0, "neutral": 1, "contradiction": 2}
    assert nli_labels({0: "entailment", 1: "not_entailment", 2: "Contradicts"}) == \
        {"entailment": 0, "contradiction": 2}


@pytest.mark.parametrize("id2label", [{0: "LABEL_0", 1: "LABEL_1", 2: "LABEL_2"}, {0: "entailment", 1: "neutral"},
                                      {0: "entailment", 1: "contradiction", 2: "entailed"}])
def test_generic_missing_or_doubled_labels_are_refused(id2label: dict[int, str]) -> None:
    with pytest.raises(ValueError, match="id2label|do not name"):
        nli_labels(id2label)


def test_a_model_that_reads_neutral_changes_no_heuristic_verdict(models: dict[str, str]) -> None:
    judge = EntailmentJudge(verified=False, nli_model=models["neutral"])
    for output in (SUPPORTED, WRONG_YEAR, UNDECIDED):
        assert _verdicts(judge, output) == _verdicts(CHECKS, output)
    rows = judge.support([RubricCase(SUPPORTED, reference=CONTEXT)])[0]
    assert rows[0]["nli"]["entailment"] < 0.01 and rows[0]["nli"]["contradiction"] < 0.01


def test_a_read_contradiction_overrules_a_supported_verdict_and_caps_the_level(models: dict[str, str]) -> None:
    assert _verdicts(CHECKS, SUPPORTED) == ["supported"]
    judge = EntailmentJudge(verified=False, nli_model=models["contradicts"])
    rows = judge.support([RubricCase(SUPPORTED, reference=CONTEXT)])[0]
    assert [r["verdict"] for r in rows] == ["contradicted"]
    assert rows[0]["reasons"][0].startswith(f"the entailment model ({models['contradicts']}) reads a contradiction "
                                            "with passage 1: p = 0.9")
    result = Faithfulness(judge=judge).measure(SUPPORTED, [CONTEXT[0]])
    assert result.level == 1 and result.judge == f"entailment({models['contradicts']})+{HeuristicJudge().name}"


def test_an_entailment_settles_cannot_tell_but_never_unflags_a_contradiction(models: dict[str, str]) -> None:
    assert _verdicts(CHECKS, UNDECIDED) == ["idk"] and _verdicts(CHECKS, WRONG_YEAR) == \
        ["contradicted"]
    judge = EntailmentJudge(verified=False, nli_model=models["entails"])
    rows = judge.support([RubricCase(UNDECIDED, reference=CONTEXT)])[0]
    assert [r["verdict"] for r in rows] == ["supported"]
    assert "reads it entailed by passage 1" in rows[0]["reasons"][0] and "cannot tell" in rows[0]["reasons"][0]
    assert _verdicts(judge, WRONG_YEAR) == ["contradicted"]
    assert "nli" not in judge.support([RubricCase(WRONG_YEAR, reference=CONTEXT)])[0][0]  # not asked
    strict = EntailmentJudge(verified=False, nli_model=models["entails"], entailment_threshold=1.0)
    assert _verdicts(strict, UNDECIDED) == ["idk"]


def test_without_context_the_model_is_not_asked_and_the_score_stays_undefined(models: dict[str, str]) -> None:
    judge = EntailmentJudge(verified=False, nli_model=models["contradicts"])
    result = Faithfulness(judge=judge).measure(SUPPORTED, [])
    assert result.score is None or math.isnan(result.score)


def test_a_model_that_cannot_be_loaded_is_an_error_that_says_how_to_provide_one(tmp_path: Path) -> None:
    judge = EntailmentJudge(nli_model=str(tmp_path / "no-such-model"))
    with pytest.raises(RuntimeError, match=r"could not load the NLI model .*save_pretrained"):
        judge.support([RubricCase(SUPPORTED, reference=CONTEXT)])


def test_a_model_without_nli_labels_is_refused_before_any_verdict(tmp_path: Path) -> None:
    generic = _model(tmp_path / "generic", {0: "LABEL_0", 1: "LABEL_1", 2: "LABEL_2"}, 0)
    with pytest.raises(ValueError, match="do not name contradiction and entailment"):
        EntailmentJudge(nli_model=generic).support([RubricCase(SUPPORTED, reference=CONTEXT)])


@pytest.mark.parametrize("kwargs", [{"contradiction_threshold": 0.4}, {"entailment_threshold": 1.2},
                                    {"premise_chars": 10}, {"nli_model": " "}])
def test_bad_parameters_are_refused(kwargs: dict[str, object]) -> None:
    with pytest.raises(ValueError, match="EntailmentJudge"):
        EntailmentJudge(**{"nli_model": "m", **kwargs})


def test_a_long_passage_is_cut_around_the_matched_sentence() -> None:
    judge = EntailmentJudge(nli_model="m", premise_chars=200)
    matched = "The Eiffel Tower was completed in 1889."
    passage = "Filler words here. " * 40 + matched + " More filler text." * 40
    premise = judge._premise(passage, matched)
    assert len(premise) == 200 and matched in premise
    assert judge._premise("Short passage.", "Short passage.") == "Short passage."
    assert judge._premise(passage, "a sentence not in it") == passage[:200]


def test_the_batch_script_counts_detections_and_false_alarms_with_either_judge(models: dict[str, str],
                                                                                tmp_path: Path) -> None:
    import json
    import subprocess
    import sys

    batch = tmp_path / "batch.json"
    batch.write_text(json.dumps({"cases": [
        {"kind": "paraphrase", "answer": SUPPORTED, "context": CONTEXT[0], "expected": {"faithfulness": True}},
        {"kind": "wrong_date", "answer": WRONG_YEAR, "context": CONTEXT[0], "expected": {"faithfulness": False}},
        {"kind": "other", "answer": SUPPORTED, "context": CONTEXT[0], "expected": {}}]}))  # no label: not counted
    script = Path(__file__).resolve().parents[1] / "examples" / "faithfulness_batches.py"

    def run(*extra: str) -> str:
        return subprocess.run([sys.executable, str(script), str(batch), *extra], capture_output=True, text=True,
                              check=True).stdout

    assert "batch.json: detected 1/1, flagged 0/1" in run()
    with_model = run("--nli-model", models["contradicts"], "--misses")
    assert f"judge: entailment({models['contradicts']})" in with_model
    assert "batch.json: detected 1/1, flagged 1/1" in with_model and "paraphrase: " in with_model
