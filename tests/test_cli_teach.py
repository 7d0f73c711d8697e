"""The subcommands list, explain, preferences, rerank and --version: outputs and error paths."""

from __future__ import annotations

import json
from pathlib import Path

import pandas as pd
import pytest

from ir_rag_axioms import CONS2, COV1, __version__, cli
from ir_rag_axioms.demo import load_demo


@pytest.fixture(scope="module")
def requests_file(tmp_path_factory) -> Path:
    path = tmp_path_factory.mktemp("cli") / "requests.jsonl"
    with path.open("w") as f:
        for request, responses in load_demo():
            f.write(json.dumps({"id": request.id, "query": request.text, "context": list(request.context),
                                "responses": [{"id": r.id, "text": r.text} for r in responses]}) + "\n")
    return path


def test_version(capsys):
    with pytest.raises(SystemExit) as exit_:
        cli.main(["--version"])
    assert exit_.value.code == 0 and capsys.readouterr().out.strip() == f"ir-rag-axioms {__version__}"


def test_list_table_and_json(capsys):
    assert cli.main(["list"]) == 0
    lines = capsys.readouterr().out.splitlines()
    cov1 = next(line for line in lines if line.startswith("COV1 "))
    assert cov1.split()[1] == "coverage" and "prefer more distinct aspects" in cov1
    assert cli.main(["list", "--json"]) == 0
    entries = {e["name"]: e for e in json.loads(capsys.readouterr().out)}
    assert entries["CONS2"]["defaults"]["margin_fraction"] == 0.1
    assert entries["CONS2"]["citation"] == "Merker et al., 2025"
    assert entries["COH1"]["direction"] == "lower is better"
    assert entries["GEN_TFC1"]["dimension"].startswith("generative")
    assert entries["TFC1"]["citation"] == "Fang et al., 2004" and entries["LB1"]["citation"] == "Lv and Zhai, 2011"
    assert entries["GEN_TFC1"]["citation"] == "Merker et al., 2025"  # the adaptation; the rule keeps TFC1's source
    assert "[Fang et al., 2004]" in entries["GEN_TFC1"]["rule"]
    assert entries["RANDOM"]["citation"] == "baseline (no publication)"
    assert cli.main(["list", "-v"]) == 0
    assert "    defaults: margin_fraction=0.1, higher_is_better=True, use_stemmer=False" in capsys.readouterr().out


def test_explain_an_axiom_with_an_example(capsys):
    assert cli.main(["explain", "COV1(margin_fraction=0.5)"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("COV1(margin_fraction=0.5) (coverage)\n  rule: COV1: prefer more distinct aspects")
    assert "    margin_fraction = 0.5  -- Relative margin" in out
    assert "direction: higher value is better" in out and "citation: Merker et al., 2025" in out
    assert "example (the demo sample" in out and "Number of distinct aspects: cited-clear" in out


def test_explain_a_pair_of_a_file(requests_file, capsys):
    assert cli.main(["explain", "COV1 | CONS2", "--pair", "cited-clear", "terse", "--input", str(requests_file),
                     "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    request, responses = load_demo()[0]
    by_id = {r.id: r for r in responses}
    expected = (COV1 | CONS2).preferences(request, responses)[0, [r.id for r in responses].index("terse")]
    assert data["decision"] == expected and data["first"] == "cited-clear"
    assert [p["axiom"] for p in data["parts"]] == ["COV1()", "CONS2()"]
    assert data["parts"][0]["values"][0] == COV1.explain(request, by_id["cited-clear"], by_id["terse"]).values[0]


def test_explain_errors(requests_file, tmp_path, capsys):
    assert cli.main(["explain", "COV9", "--no-example"]) == 2
    assert "unknown axiom 'COV9'; did you mean" in capsys.readouterr().err
    assert cli.main(["explain", "COV1", "--pair", "cited-clear", "nope", "--input", str(requests_file)]) == 2
    assert "no request has both responses 'cited-clear' and 'nope'" in capsys.readouterr().err
    assert cli.main(["explain", "COV1", "--pair", "cited-clear", "nope", "--input", str(requests_file),
                     "--request", "q0"]) == 2
    assert "request 'q0' does not have both responses 'cited-clear' and 'nope'" in capsys.readouterr().err
    assert cli.main(["explain", "COV1", "--pair", "a", "b"]) == 2
    assert "--pair A B needs --input FILE" in capsys.readouterr().err
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"id": "q", "query": "x", "responses": []}\n{"id": "q2", "query": \n')
    assert cli.main(["explain", "COV1", "--pair", "a", "b", "--input", str(bad)]) == 2
    assert "at line 2" in capsys.readouterr().err
    missing = tmp_path / "missing.jsonl"
    missing.write_text('{"id": "q", "responses": [{"id": "a", "text": "x"}]}\n')
    assert cli.main(["explain", "COV1", "--pair", "a", "b", "--input", str(missing)]) == 2
    assert "line 1 lacks the field 'query' or 'text'" in capsys.readouterr().err


def test_preferences_csv_jsonl_and_explanations(requests_file, tmp_path, capsys):
    out = tmp_path / "pairs.csv"
    assert cli.main(["preferences", "--input", str(requests_file), "--axioms", "COV1(margin_fraction=0.5),CONS2",
                     "--output", str(out), "--quiet"]) == 0
    table = pd.read_csv(out)
    assert list(table.columns) == ["qid", "docno_a", "docno_b", "COV1(margin_fraction=0.5)", "CONS2"]
    assert len(table) == 3 * 5 * 4
    for request, responses in load_demo():
        matrix = CONS2.preferences(request, responses)
        rows = table[table.qid == request.id]
        ids = [r.id for r in responses]
        for row in rows.itertuples():
            assert row.CONS2 == matrix[ids.index(row.docno_a), ids.index(row.docno_b)]
    jsonl = tmp_path / "pairs.jsonl"
    assert cli.main(["preferences", "--input", str(requests_file), "--axioms", "CORR1", "--explain", "--quiet",
                     "-o", str(jsonl)]) == 0
    rows = [json.loads(line) for line in jsonl.read_text().splitlines()]
    assert len(rows) == 60 and all(json.loads(r["CORR1_explanation"])["decision"] == r["CORR1"] for r in rows)
    assert capsys.readouterr().out == ""
    assert cli.main(["preferences", "--axioms", "CORR1"]) == 2
    assert "give --input FILE" in capsys.readouterr().err


def test_rerank_jsonl_and_trec_run_read_back_by_pyterrier(requests_file, tmp_path):
    pt = pytest.importorskip("pyterrier")
    run = tmp_path / "axiomatic.run"
    assert cli.main(["rerank", "--input", str(requests_file), "--axioms", "CONS2,CORR1", "-o", str(run),
                     "--quiet", "--run-name", "axioms"]) == 0
    results = pt.io.read_results(str(run))
    assert set(results.qid) == {"demo-1", "demo-2", "demo-3"} and len(results) == 15
    first = results[results.qid == "demo-1"].sort_values("rank")
    assert first.docno.iloc[0] == "cited-clear" and first.docno.iloc[-1] == "terse"
    # a TREC run plus a texts file: the run's candidates, reranked
    texts = tmp_path / "texts.jsonl"
    with texts.open("w") as f:
        for request, responses in load_demo():
            for r in responses:
                f.write(json.dumps({"qid": request.id, "query": request.text, "context": list(request.context),
                                    "docno": r.id, "text": r.text}) + "\n")
    original = tmp_path / "original.run"
    original.write_text("demo-1 Q0 terse 1 9 bm25\ndemo-1 Q0 cited-clear 2 8 bm25\n")
    again = tmp_path / "again.run"
    assert cli.main(["rerank", "--run", str(original), "--texts", str(texts), "--axioms", "CONS2,CORR1",
                     "-o", str(again), "--quiet"]) == 0
    back = pt.io.read_results(str(again))
    assert back.sort_values("rank").docno.tolist() == ["cited-clear", "terse"]


def test_rerank_errors(requests_file, tmp_path, capsys):
    broken = tmp_path / "broken.run"
    broken.write_text("demo-1 Q0 terse 1 9 bm25\ndemo-1 Q0 cited-clear two 8 bm25\n")
    assert cli.main(["rerank", "--run", str(broken), "--texts", str(requests_file)]) == 2
    assert "broken.run line 2: rank and score must be numbers" in capsys.readouterr().err
    assert cli.main(["rerank", "--run", str(broken)]) == 2
    assert "--run RUN needs --texts FILE" in capsys.readouterr().err
    assert cli.main(["rerank", "--input", str(requests_file), "--axioms", "CONS2", "--weights", "1,2"]) == 2
    assert "--weights gives 2 weights for 1 axioms" in capsys.readouterr().err
    assert cli.main(["rerank", "--input", str(tmp_path / "none.jsonl")]) == 2
    assert "none.jsonl" in capsys.readouterr().err


def test_quiet_silences_every_progress_bar(requests_file, tmp_path, monkeypatch):
    """--quiet turns off the analysis' own bars too (spaCy and encoder work of 500+ texts), not only the command's."""
    from ir_rag_axioms.analysis import workers

    monkeypatch.setenv("TQDM_DISABLE", "")  # recorded, so the "1" that --quiet sets is undone after the test
    texts = range(600)
    out = tmp_path / "run.txt"
    assert cli.main(["rerank", "--axioms", "CONS2", "--input", str(requests_file), "--output", str(out)]) == 0
    assert workers._progress(texts, 600, "spaCy") is not texts  # without --quiet: a bar
    assert cli.main(["rerank", "--axioms", "CONS2", "--input", str(requests_file), "--output", str(out),
                     "--quiet"]) == 0
    assert workers._progress(texts, 600, "spaCy") is texts  # with --quiet: none


def test_preferences_are_the_pair_table_of_the_transformer(requests_file, tmp_path):
    from ir_rag_axioms.pyterrier import AxiomaticPreferences

    out = tmp_path / "pairs.jsonl"
    assert cli.main(["preferences", "--input", str(requests_file), "--axioms", "CORR1,Short=CONS2", "--explain",
                     "--quiet", "-o", str(out)]) == 0
    printed = pd.read_json(out, lines=True, dtype={"qid": str, "docno_a": str, "docno_b": str})
    frame = pd.DataFrame([{"qid": request.id, "query": request.text, "docno": r.id, "text": r.text, "rank": rank,
                           "context": list(request.context)} for request, responses in load_demo()
                          for rank, r in enumerate(responses)])  # the file's order as ranks (else docno order)
    table = AxiomaticPreferences({"CORR1": cli.parse_axioms("CORR1")["CORR1"], "Short": CONS2},
                                 explain=True).transform(frame)
    assert list(printed.columns) == ["qid", "docno_a", "docno_b", "CORR1", "Short", "CORR1_explanation",
                                     "Short_explanation"]
    assert list(table.columns) == ["qid", "query", *printed.columns[1:]]  # one pair table, the query dropped
    for column in ("qid", "docno_a", "docno_b", "CORR1", "Short"):
        assert printed[column].tolist() == table[column].tolist()
    assert [json.loads(e) for e in printed["Short_explanation"]] == [e.to_dict() for e in table["Short_explanation"]]


def test_every_command_has_help(capsys):
    from ir_rag_axioms.cli import COMMANDS, build_parser

    commands = build_parser()._subparsers._group_actions[0].choices  # type: ignore[union-attr]
    assert list(commands) == ["evaluate", "dimensions", "compare", "judge", "nugget-reports", "list", "explain",
                              "preferences", "rerank", "demo"] and len(COMMANDS) == len(commands)
    for name in commands:
        if name == "demo":  # its arguments go to the demo
            continue
        with pytest.raises(SystemExit) as done:
            cli.main([name, "--help"])
        assert done.value.code == 0
        assert f"usage: ir-rag-axioms {name}" in capsys.readouterr().out
    commands["dimensions"].format_help()  # "95 %" once broke argparse's help formatting


def test_rerank_offers_the_library_aggregations(capsys):
    from ir_rag_axioms.aggregation import AGGREGATIONS

    with pytest.raises(SystemExit):
        cli.main(["rerank", "--aggregation", "plurality"])
    assert f"choose from {', '.join(repr(a) for a in AGGREGATIONS)}" in capsys.readouterr().err
