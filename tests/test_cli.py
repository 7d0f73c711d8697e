"""The ``ir-rag-axioms`` command line, end to end on the shared data."""

from __future__ import annotations

import sys
import time
import types
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from conftest import run_cli, write_jsonl

from ir_rag_axioms import cli
from ir_rag_axioms.pyterrier.transformers import AbstentionWarning

PNG_MAGIC = b"\x89PNG\r\n\x1a\n"


def test_evaluate_end_to_end_on_the_crowd_data(data_dir: Path, reference_dir: Path, tmp_path: Path, capsys):
    crowd = data_dir / "trec-rag-24-crowd"
    llm = data_dir / "trec-rag-24-llm-ratings"
    axioms = (f"LLM_ORIG(data_dir={str(llm)!r}, responses_path={str(crowd)!r}),"
              f"CROWD(utility='coverage', data_dir={str(crowd)!r}),"
              f"CROWD(utility='overall', data_dir={str(crowd)!r}, duplicates='last')")
    out = tmp_path / "out"
    code = cli.main(["evaluate", "--data", str(crowd), "--oracle", "crowd:overall", "--axioms", axioms,
                     "--out", str(out), "--quiet", "--bootstrap", "50"])
    assert code == 0
    printed = capsys.readouterr().out
    assert "on 65 topics (390 responses)" in printed and (out / "table.md").read_text() in printed
    table = pd.read_csv(out / "table.csv")
    assert list(table.columns[:5]) == ["axiom", "decisiveness", "consistency", "consistency_strict", "effectiveness"]
    assert len(table) == 3
    # the reference's oracle as an axiom against the averaged oracle: the measures of the golden matrices

    from ir_rag_axioms.evaluation import evaluate_preferences

    golden = np.load(reference_dir / "oracle.npz")
    expected = evaluate_preferences(golden["overall"], golden["overall@averaged"])
    (name,) = cli.parse_axioms(f"CROWD(utility='overall', data_dir={str(crowd)!r}, duplicates='last')")
    row = table.set_index("axiom").loc[name]  # named by its canonical repr, as the transformers' columns
    assert row["decisiveness"] == pytest.approx(1946 / 1950)  # 973 + 973 decided of 65 * 30 pairs
    for measure, value in expected.items():
        assert row[measure] == pytest.approx(value)
    lines = (out / "table.md").read_text().splitlines()
    markdown = [[cell.strip() for cell in line.strip("|").split("|")] for line in lines]
    assert markdown[0] == ["axiom", "decisiveness", "consistency", "strict consistency", "effectiveness"]
    for cells, row in zip(markdown[2:], table.to_dict("records"), strict=True):  # 3 decimals, intervals in brackets
        assert cells[0] == row["axiom"]
        measures = ["decisiveness", "consistency", "consistency_strict", "effectiveness"]
        for cell, measure in zip(cells[1:], measures, strict=True):
            assert cell == f"{row[measure]:.3f} [{row[measure + '_low']:.3f}, {row[measure + '_high']:.3f}]"
    for figure in ("agreement.png", "votes.png", "effort.png"):
        data = (out / figure).read_bytes()
        assert data.startswith(PNG_MAGIC) and len(data) > 5000
    votes = pd.read_csv(out / "votes.csv")
    assert votes["minimum_votes"].tolist()[0] == 0.0 and votes["minimum_votes"].tolist()[-1] == 0.5


def test_evaluate_a_real_axiom_against_the_nugget_oracle(data_dir: Path, tmp_path: Path):
    out = tmp_path / "nuggets"
    code = cli.main(["evaluate", "--data", str(data_dir / "trec-rag-24-nuggets"), "--oracle", "nugget:all-strict",
                     "--axioms", "CORR1", "--topics", "2", "--out", str(out), "--quiet", "--no-figures"])
    assert code == 0
    table = pd.read_csv(out / "table.csv")
    assert table["axiom"].tolist() == ["CORR1"]
    assert 0 < table.loc[0, "decisiveness"] <= 1
    assert not (out / "votes.png").exists()


def test_oracle_specs(data_dir: Path):
    oracle = cli.parse_oracle("nugget:weighted-strict", str(data_dir))
    assert (oracle.score_type, oracle.strict) == ("weighted", True)
    assert cli.parse_oracle("crowd:broad_coverage", None).utility == "broad coverage"
    model = "HuggingFaceTB-SmolLM-135M-Instruct"
    assert cli.parse_oracle(f"llm:{model}", None).model == model
    with pytest.raises(ValueError, match="unknown oracle"):
        cli.parse_oracle("bm25:x", None)


def test_split_specs():
    assert cli.split_specs("COH1, COV1(aspect_extraction='a,b', margin_fraction=0.5),CORR1") == [
        "COH1", "COV1(aspect_extraction='a,b', margin_fraction=0.5)", "CORR1"]


def test_missing_data_and_bad_specs_are_clear_errors(tmp_path: Path, capsys):
    assert cli.main(["evaluate", "--data", str(tmp_path), "--axioms", "CORR1", "--out", str(tmp_path / "o")]) == 2
    message = capsys.readouterr().err
    assert "error: crowd/responses: no file responses.jsonl.gz" in message and "IR_RAG_AXIOMS_DATA" in message
    assert cli.main(["evaluate", "--oracle", "bm25:x", "--out", str(tmp_path / "o")]) == 2
    assert "unknown oracle 'bm25:x'" in capsys.readouterr().err


def test_list_and_demo(capsys, monkeypatch):
    assert cli.main(["list"]) == 0
    names = capsys.readouterr().out.split()
    assert "COH1" in names and "CORR1" in names
    calls = []
    fake = types.ModuleType("ir_rag_axioms.demo")
    fake.main = lambda argv: calls.append(argv) or 0
    monkeypatch.setitem(sys.modules, "ir_rag_axioms.demo", fake)
    import ir_rag_axioms

    monkeypatch.setattr(ir_rag_axioms, "demo", fake, raising=False)
    assert cli.main(["demo", "--n", "3"]) == 0
    assert calls == [["--n", "3"]]


def test_cache_reuses_matrices(data_dir: Path, tmp_path: Path):

    crowd = data_dir / "trec-rag-24-crowd"
    args = ["evaluate", "--data", str(crowd), "--axioms", f"CROWD(utility='coverage', data_dir={str(crowd)!r})",
            "--topics", "3", "--quiet", "--no-figures", "--cache", str(tmp_path / "cache")]
    assert cli.main([*args, "--out", str(tmp_path / "a")]) == 0
    import sqlite3

    from ir_rag_axioms.analysis.store import DiskStore

    matrices = DiskStore(tmp_path / "cache" / "matrices")  # the matrix cache (analysis.matrices.MatrixCache)
    assert (tmp_path / "cache" / "analysis.sqlite3").is_file()  # the persistent analysis store beside it
    assert pd.read_csv(tmp_path / "a" / "table.csv").loc[0, "decisiveness"] > 0.9
    with sqlite3.connect(matrices.file) as conn:
        rows = conn.execute("SELECT namespace, key FROM entries").fetchall()
    assert len(rows) == 3  # one matrix per topic
    for namespace, key in rows:  # doctored cache entries
        matrices.put(namespace, key, np.zeros_like(matrices.get(namespace, key)))
    assert cli.main([*args, "--out", str(tmp_path / "b")]) == 0
    assert pd.read_csv(tmp_path / "b" / "table.csv").loc[0, "decisiveness"] == 0.0


def test_parse_axioms_names_items():
    axioms = cli.parse_axioms("ictir2025, MyCov=COV1(margin_fraction=0.25),CORR1(margin_fraction=0.5)")
    from ir_rag_axioms.axioms import presets

    assert list(axioms)[: len(presets.ICTIR2025)] == list(presets.ICTIR2025)  # one spelling: GEN_TF_LNC
    assert {"COH1", "CLAR2"} <= set(axioms)
    if "GEN_TF_LNC" in presets.ICTIR2025:
        assert axioms["GEN_TF_LNC"] is presets.ICTIR2025["GEN_TF_LNC"]
    assert repr(axioms["MyCov"]) == "COV1(margin_fraction=0.25)"
    assert repr(axioms["CORR1(margin_fraction=0.5)"]) == "CORR1(margin_fraction=0.5)"


def test_unnamed_specs_are_named_as_the_transformers_columns():
    from ir_rag_axioms.pyterrier import axiom_columns

    axioms = cli.parse_axioms("COH1, CORR1( margin_fraction = 0.5 ),COV1()")
    assert list(axioms) == ["COH1", "CORR1(margin_fraction=0.5)", "COV1"]
    assert list(axioms) == axiom_columns(list(axioms.values()))


def test_nugget_scores_have_one_spelling_and_a_deprecated_alias(data_dir: Path):
    from ir_rag_axioms.axioms.oracles import oracle_from_spec
    from ir_rag_axioms.datasets.nuggets import parse_nugget_score

    assert parse_nugget_score("vital-strict") == ("vital", True)
    assert parse_nugget_score("") == ("vital", False) and parse_nugget_score("WEIGHTED") == ("weighted", False)
    with pytest.warns(DeprecationWarning, match="write all-strict"):
        assert parse_nugget_score("all_strict") == ("all", True)
    with pytest.warns(DeprecationWarning):
        oracle = cli.parse_oracle("nugget:weighted_strict", str(data_dir))
    assert (oracle.score_type, oracle.strict) == ("weighted", True)
    for bad in ("bogus", "strict", "vital-strict-strict", "vital strict"):
        with pytest.raises(ValueError, match=r"unknown nugget score .*<all\|vital\|weighted>\[-strict\]"):
            parse_nugget_score(bad)
    with pytest.raises(ValueError, match="unknown nugget score 'vitals'"):
        oracle_from_spec("nugget:vitals")


def test_the_old_import_names_are_the_library_functions():
    from ir_rag_axioms.axioms import presets, registry

    text = "COH1, COV1(aspect_extraction='a,b', margin_fraction=0.5),CORR1"
    assert cli.split_specs(text) == registry.split_specs(text)
    assert {k: repr(v) for k, v in cli.parse_axioms("ictir, X=CORR1").items()} == {
        k: repr(v) for k, v in presets.parse_axioms("ICTIR2025, X=CORR1").items()}
    with pytest.raises(ValueError, match="duplicate axiom name 'CORR1'"):
        presets.parse_axioms("CORR1, CORR1()")
    with pytest.raises(ValueError, match="names no axiom"):
        presets.parse_axioms(" , ")


def test_system_scores_are_the_mean_official_score_per_run(data_dir: Path):
    from ir_rag_axioms.datasets.nuggets import load_nugget_assignments, score_column, system_scores

    frame = pd.DataFrame({"run_id": ["a", "a", "b", "b"], "vital": [1.0, 0.0, float("nan"), 0.25],
                          "vital_strict": [0.5, 0.0, 0.0, 0.0]})
    assert system_scores(frame) == {"a": 0.5, "b": 0.25}  # an undefined score (NaN) is left out
    assert system_scores(frame, "vital", strict=True) == {"a": 0.25, "b": 0.0}
    assignments = load_nugget_assignments(data_dir / "trec-rag-24-nuggets")
    scores = system_scores(assignments, "all")
    assert len(scores) == assignments["run_id"].nunique() == 45
    run = next(iter(scores))
    assert scores[run] == pytest.approx(assignments.loc[assignments.run_id == run, score_column("all")].mean())


# -- errors and edge cases ----------------------------------------------------------------------------


# -- each answer's own context in the CLI's input files (issue 20) -------------------------------------------


# -- outputs checked before the work (issue 20) ---------------------------------------------------------------
def _requests_file(tmp_path: Path) -> Path:
    return write_jsonl(tmp_path / "in.jsonl", [{"qid": "q", "query": "Why do cats purr?", "docno": d, "text": t}
                                          for d, t in (("a", "Cats purr [1]."), ("b", "Dogs bark."))])


@pytest.mark.parametrize("args, message", [
    (["--axioms", ""], "names no axiom"),
    (["--axioms", "A=COH1,A=CORR1"], "duplicate axiom name 'A'"),
    (["--axioms", "CORR1,CORR1"], "duplicate axiom name 'CORR1'"),
    (["--axioms", "CORR1", "--topics", "-1"], "argument --topics: must be at least 1, got -1"),
    (["--axioms", "CORR1", "--topics", "0"], "argument --topics: must be at least 1, got 0"),
    (["--axioms", "CORR1", "--bootstrap", "1"], "argument --bootstrap: must be 0 (no intervals) or at least 2"),
    (["--axioms", "CORR1", "--bootstrap", "-5"], "argument --bootstrap: must be at least 0"),
    (["--axioms", "CORR1", "--bootstrap", "1000000000"], "bootstrap samples must be between 0 (none) and 100,000"),
    (["--axioms", "CORR1", "--workers", "0"], "argument --workers: must be at least 1"),
    (["--axioms", "CORR1", "--chunk-size", "0"], "argument --chunk-size: must be at least 1"),
    (["--axioms", "COH1(0.5)"], "keyword arguments only"),
])
def test_cli_arguments_are_refused_before_any_work(tmp_path: Path, args, message):
    start = time.monotonic()
    code, err = run_cli("evaluate", "--data", str(tmp_path / "none"), "--out", str(tmp_path / "out"), *args)
    assert code == 2 and message in err and "Traceback" not in err
    assert time.monotonic() - start < 10 and not (tmp_path / "out").exists()


# -- lost output --------------------------------------------------------------------------------------------
def test_out_naming_a_file_fails_before_the_work(tmp_path: Path, data_dir: Path):
    (tmp_path / "outfile").write_text("x")
    start = time.monotonic()
    code, err = run_cli("evaluate", "--data", str(data_dir / "trec-rag-24-crowd"), "--axioms", "CORR1",
                     "--out", str(tmp_path / "outfile"))
    assert code == 2 and "cannot write the report (--out)" in err and "it is a file" in err
    assert time.monotonic() - start < 10 and (tmp_path / "outfile").read_text() == "x"


@pytest.mark.parametrize("command", ["evaluate", "compare"])
def test_an_explicit_cache_that_cannot_be_used_is_refused_before_the_work(tmp_path: Path, data_dir: Path,
                                                                          command: str):
    (tmp_path / "cachefile").write_text("x")
    data = data_dir / ("trec-rag-24-crowd" if command == "evaluate" else "trec-rag-24-nuggets")
    start = time.monotonic()
    code, err = run_cli(command, "--data", str(data), "--axioms", "CORR1", "--quiet", "--no-figures",
                     "--cache", str(tmp_path / "cachefile"), "--out", str(tmp_path / "out"))
    assert code == 2 and "cannot write the cache (--cache)" in err and "it is a file" in err
    assert time.monotonic() - start < 10 and not (tmp_path / "out" / "table.csv").exists()


@pytest.mark.parametrize("command", ["preferences", "rerank"])
def test_an_output_that_is_the_input_or_below_a_file_fails_before_the_work(tmp_path: Path, command: str):
    source = _requests_file(tmp_path)
    original = source.read_bytes()
    (tmp_path / "afile").write_text("x")
    for output, words in ((str(source), "it is the input"), (str(tmp_path / "afile" / "out.csv"), "it is a file"),
                          (str(tmp_path), "it is a folder")):
        start = time.monotonic()
        code, err = run_cli(command, "--input", str(source), "--axioms", "CORR1", "--quiet", "-o", output)
        assert code == 2 and "cannot write the output (-o/--output)" in err and words in err, err
        assert time.monotonic() - start < 10
    assert source.read_bytes() == original and (tmp_path / "afile").read_text() == "x"


def test_compare_checks_reference_bootstrap_seed_and_out_before_the_work(tmp_path: Path, data_dir: Path):
    nuggets = str(data_dir / "trec-rag-24-nuggets")
    (tmp_path / "afile").write_text("x")
    for extra, words in ((["--reference", "nugget:bogus"], "unknown --reference 'nugget:bogus'"),
                         (["--bootstrap", "-5"], "--bootstrap: must be at least 0"),
                         (["--bootstrap", "100001"], "between 0 (none) and 100,000"),
                         (["--seed", "-1"], "--seed: must be at least 0"),
                         (["--out", str(tmp_path / "afile")], "cannot write the report (--out)")):
        start = time.monotonic()
        code, err = run_cli("compare", "--data", nuggets, "--axioms", "CORR1", "--quiet", "--no-figures",
                         *(["--out", str(tmp_path / "out")] if "--out" not in extra else []), *extra)
        assert code == 2 and words in err, err
        assert time.monotonic() - start < 10 and not (tmp_path / "out" / "systems.csv").exists()


def test_rerank_seed_and_weights_are_checked_up_front(tmp_path: Path):
    source = _requests_file(tmp_path)
    code, err = run_cli("rerank", "--input", str(source), "--axioms", "CORR1", "--seed", "-1", "--quiet")
    assert code == 2 and "--seed: must be at least 0" in err
    code, err = run_cli("rerank", "--input", str(source), "--axioms", "CORR1", "--weights", "nan", "--quiet")
    assert code == 2 and "every weight must be a finite number" in err


def test_an_html_report_below_a_file_fails_before_the_work(tmp_path: Path, data_dir: Path):
    (tmp_path / "afile").write_text("x")
    code, err = run_cli("evaluate", "--data", str(data_dir / "trec-rag-24-crowd"), "--axioms", "CORR1", "--quiet",
                     "--out", str(tmp_path / "out"), "--report", str(tmp_path / "afile" / "r.html"))
    assert code == 2 and "cannot write the HTML report (--report)" in err


def test_warnings_print_as_one_line_and_renamed_axioms_are_named(tmp_path: Path):
    import os
    import subprocess
    import sys

    requests = tmp_path / "requests.jsonl"
    requests.write_text('{"id": "q1", "query": "what is rain", "responses": [{"id": "a", "text": "Rain is water '
                        'falling from clouds."}, {"id": "b", "text": "Rain falls."}]}\n')
    root = Path(__file__).resolve().parents[1]
    done = subprocess.run([sys.executable, "-m", "ir_rag_axioms.cli", "preferences", "--input", str(requests),
                           "--axioms", "TFC2,RSIM", "--quiet"], capture_output=True, text=True, timeout=300,
                          env={**os.environ, "PYTHONPATH": str(root), "HF_HUB_OFFLINE": "1"})
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.splitlines()[0] == "qid,docno_a,docno_b,LOG_TF,CONSENSUS"
    assert done.stderr.splitlines() == [
        "ir-rag-axioms preferences: warning: axiom name TFC2 is deprecated and now runs LOG_TF, whose rule may differ "
        "from what TFC2 computed in earlier versions, and its results and columns are named LOG_TF; use LOG_TF",
        "ir-rag-axioms preferences: warning: axiom name RSIM is deprecated and now runs CONSENSUS, whose rule may "
        "differ from what RSIM computed in earlier versions, and its results and columns are named CONSENSUS; use "
        "CONSENSUS"]


def test_a_missing_input_file_is_said_not_to_exist(tmp_path: Path, capsys):
    assert cli.main(["preferences", "--input", str(tmp_path / "nope.jsonl"), "--quiet"]) == 2
    message = capsys.readouterr().err
    assert f"{tmp_path / 'nope.jsonl'} does not exist" in message and "corrupt" not in message
    assert cli.main(["preferences", "--input", str(tmp_path), "--quiet"]) == 2
    assert "is a folder, not a JSONL file" in capsys.readouterr().err


def test_rerank_warns_when_the_axioms_decide_no_pair(tmp_path: Path):
    """A run that is only the input order says so (as AxiomaticReranker does), instead of passing for a ranking."""
    source = write_jsonl(tmp_path / "in.jsonl", [{"qid": q, "query": "Why do cats purr?", "docno": d, "text": t}
                                                 for q, d, t in (("q1", "a", "Cats purr."), ("q1", "b", "Cats purr."),
                                                                 ("q2", "c", "Cats purr [1]."), ("q2", "d", "No."))])
    with pytest.warns(AbstentionWarning, match=r"the axioms decided no pair of 1 of 2 queries \(qid 'q1'\)"):
        assert cli.main(["rerank", "--input", str(source), "--axioms", "CORR1", "--quiet",
                         "-o", str(tmp_path / "run")]) == 0
    lines = (tmp_path / "run").read_text().splitlines()
    assert [line.split()[2] for line in lines] == ["a", "b", "c", "d"]
    only_undecided = write_jsonl(tmp_path / "one.jsonl", [{"qid": "q1", "query": "x", "docno": d, "text": "Same."}
                                                          for d in ("a", "b")])
    with pytest.warns(AbstentionWarning, match=r"decided no pair in this run \(1 queries: 'q1'\)"):
        assert cli.main(["rerank", "--input", str(only_undecided), "--axioms", "CORR1", "--quiet",
                         "-o", str(tmp_path / "run")]) == 0


def test_a_deprecated_spelling_on_the_command_line_is_shown(tmp_path: Path, data_dir: Path):
    """Python hides DeprecationWarnings raised in a library: the CLI shows the package's own (here '_strict')."""
    import os
    import subprocess

    root = Path(__file__).resolve().parents[1]
    env = {k: v for k, v in os.environ.items() if k != "PYTHONWARNINGS"}
    done = subprocess.run([sys.executable, "-m", "ir_rag_axioms.cli", "evaluate", "--data",
                           str(data_dir / "trec-rag-24-nuggets"), "--oracle", "nugget:vital_strict", "--axioms",
                           "CORR1", "--topics", "1", "--out", str(tmp_path / "out"), "--quiet"],
                          capture_output=True, text=True, timeout=300,
                          env={**env, "PYTHONPATH": str(root), "HF_HUB_OFFLINE": "1"})
    assert done.returncode == 0, done.stderr[-2000:]
    assert ("ir-rag-axioms evaluate: warning: nugget score 'vital_strict': write vital-strict ('_strict' is "
            "deprecated)") in done.stderr.splitlines()


def _never_scored(*args, **kwargs):
    raise AssertionError("the axioms ran before the input was checked")


def test_rerank_names_ids_a_trec_run_cannot_hold_with_file_and_line_before_scoring(tmp_path: Path, monkeypatch):
    """Whitespace in a qid or docno: the file, the first bad line and each distinct bad id once, before any work."""
    from ir_rag_axioms.axioms import execution

    monkeypatch.setattr(execution, "preference_stacks", _never_scored)
    rows = [("q1", "a"), ("q1", "b"), ("Q 2", "c"), ("Q 2", "d"), ("Q 1", "e"), ("q3", "d 4"), ("q3", "d 1"),
            ("q3", "d 3"), ("q3", "d 2")]
    flat = write_jsonl(tmp_path / "flat.jsonl", [{"qid": q, "query": "Why?", "docno": d, "text": "Cats purr."}
                                                 for q, d in rows])
    code, err = run_cli("rerank", "--input", str(flat), "--axioms", "COH1", "--quiet", "-o", str(tmp_path / "run"))
    assert code == 2 and not (tmp_path / "run").exists()
    assert err.strip().splitlines()[-1] == (
        f"ir-rag-axioms rerank: error: {flat} line 3: a TREC run's fields are separated by whitespace, so its qids "
        "and docnos must be non-empty and without whitespace; found qids 'Q 1', 'Q 2'; docnos 'd 1', 'd 2', 'd 3' "
        "and 1 more: rename them")
    nested = write_jsonl(tmp_path / "nested.jsonl.gz", [
        {"id": "q1", "query": "Why?", "responses": [{"id": "a", "text": "x"}, {"id": "b", "text": "y"}]},
        {"id": "q2", "query": "Why?", "responses": [{"id": "a", "text": "x"}, {"id": "b\tc", "text": "y"}]}],
        gz=True)
    code, err = run_cli("rerank", "--input", str(nested), "--axioms", "COH1", "--quiet")
    assert code == 2 and err.strip().splitlines()[-1].endswith(
        f"error: {nested} line 2: a TREC run's fields are separated by whitespace, so its qids and docnos must be "
        "non-empty and without whitespace; found docnos 'b\\tc': rename them")
