"""The agreement table per crowd dimension and Kendall's tau on nugget scores, on matrices with known answers."""

from __future__ import annotations

import numpy as np
import pytest

from ir_rag_axioms.evaluation.dimensions import agreement_table, default_axioms, dimension_table, markdown, nugget_tau

# one topic, three responses; A prefers 0 > 1 > 2, B the reverse, C decides only (0, 1)
A = np.array([[0, 1, 1], [-1, 0, 1], [-1, -1, 0]], dtype=float)
C = np.array([[0, 1, 0], [-1, 0, 0], [0, 0, 0]], dtype=float)
TRUTHS = {"overall": [A], "deep coverage": [-A]}


def test_dimension_and_agreement_tables():
    long = dimension_table({"A": [A], "B": [-A], "C": [C]}, TRUTHS)
    assert list(long["dimension"]) == ["overall"] * 3 + ["deep coverage"] * 3
    table = agreement_table(long, tau={"A": 1.0})
    assert list(table["axiom"]) == ["A", "B", "C"]
    assert list(table["overall"]) == [1.0, 0.0, 1.0] and list(table["deep coverage"]) == [0.0, 1.0, 0.0]
    assert list(table["decisiveness"]) == [1.0, 1.0, pytest.approx(1 / 3)]
    assert list(table["best dimension"]) == ["overall", "deep coverage", "overall"]
    assert table.loc[0, "nugget tau"] == 1.0 and np.isnan(table.loc[1, "nugget tau"])
    text = markdown(table)
    assert "| A | 1.000 | **1.000** | 0.000 | overall | 1.000 |" in text


def test_nugget_tau_borda_against_scores():
    scores = [np.array([0.9, 0.5, 0.1])]
    taus = nugget_tau({"A": [A], "B": [-A], "C": [C]}, scores)
    assert taus["A"] == pytest.approx(1.0) and taus["B"] == pytest.approx(-1.0)
    assert taus["C"] == pytest.approx(1 / 3)  # Borda (1, -1, 0): two concordant pairs, one discordant
    unscored = nugget_tau({"A": [A]}, [np.array([0.9, np.nan, np.nan])])
    assert unscored["A"] == 0.0  # one scored answer: no ranking to compare


def test_default_axioms_are_the_rag_and_generative_ones():
    axioms = default_axioms()
    assert {"COH1", "CORR2", "CONS5", "GEN_LOG_TF", "GEN_QLEXRANK", "GEN_LNC2"} <= set(axioms)
    assert not {"CROWD", "NUGGET", "TFC1", "GEN_ArgUC", "ORIG", "FAITHFULNESS"} & set(axioms)


@pytest.mark.shared
def test_the_command_writes_the_agreement_table(tmp_path, data_dir):
    from ir_rag_axioms.cli import main

    data = data_dir / "trec-rag-24-crowd"
    out = tmp_path / "out"
    assert main(["dimensions", "--data", str(data), "--axioms", "CORR2,CLAR4", "--topics", "2", "--out", str(out),
                 "--quiet"]) == 0
    import pandas as pd

    table = pd.read_csv(out / "agreement.csv")
    assert list(table["axiom"]) == ["CORR2", "CLAR4"] and len(table.columns) == 1 + 1 + 7 + 1
    long = pd.read_csv(out / "dimensions.csv")
    assert len(long) == 2 * 7 and set(long["dimension"]) == {"overall", "logical coherence", "stylistic coherence",
                                                              "internal consistency", "topical correctness",
                                                              "broad coverage", "deep coverage"}
    assert (out / "agreement.md").read_text().startswith("| axiom | decisiveness | overall |")


@pytest.mark.shared
def test_every_axiom_skipped_or_a_negative_seed_is_a_clear_error(tmp_path, data_dir, capsys, monkeypatch):
    """No numpy traceback: every axiom skipped (CLAR1 without LanguageTool) is an error naming them; --seed -1 too."""
    import json

    from ir_rag_axioms.cli import main

    monkeypatch.delenv("IR_RAG_AXIOMS_LANGUAGETOOL", raising=False)
    data = data_dir / "trec-rag-24-crowd"
    with pytest.warns(UserWarning, match="skipped CLAR1"):
        code = main(["dimensions", "--data", str(data), "--axioms", "CLAR1", "--topics", "1", "--out",
                     str(tmp_path / "dim"), "--quiet"])
    assert code == 2 and "every axiom was skipped" in capsys.readouterr().err
    assert not (tmp_path / "dim" / "agreement.csv").exists()  # nothing half written
    with pytest.raises(SystemExit) as exit_:
        main(["dimensions", "--data", str(data), "--seed", "-1", "--out", str(tmp_path / "dim")])
    assert exit_.value.code == 2 and "--seed: must be at least 0, got -1" in capsys.readouterr().err
    answers = tmp_path / "answers.jsonl"
    answers.write_text("".join(json.dumps({"qid": q, "query": "cats", "text": f"Cats sleep {s}.", "system": s}) + "\n"
                               for q in ("1", "2") for s in ("a", "b")))
    with pytest.warns(UserWarning, match="skipped CLAR1"):
        code = main(["compare", "--answers", str(answers), "--axioms", "CLAR1", "--bootstrap", "0", "--out",
                     str(tmp_path / "cmp"), "--quiet", "--no-figures"])
    assert code == 2 and "every axiom was skipped" in capsys.readouterr().err
