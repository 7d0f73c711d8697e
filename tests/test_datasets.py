"""Loaders and ir_datasets registration of CrowdRAG-25 and the TREC RAG 2024 nugget assignments, on the shared files."""

from __future__ import annotations

import gzip
import hashlib
import json
import math
import subprocess
import sys
from pathlib import Path

import pytest

from ir_rag_axioms.datasets import files, loaders
from ir_rag_axioms.datasets.files import DataFileError


@pytest.fixture(scope="module")
def crowd_dir(data_dir: Path) -> Path:
    return data_dir / "trec-rag-24-crowd"


@pytest.fixture(scope="module")
def crowd(crowd_dir: Path, tmp_path_factory):
    from ir_rag_axioms.datasets import register_crowd

    return register_crowd(crowd_dir, name="test/crowdrag-25", cache_dir=tmp_path_factory.mktemp("crowd-cache"))


@pytest.fixture(scope="module")
def nuggets(data_dir: Path, tmp_path_factory):
    from ir_rag_axioms.datasets import register_nuggets

    return register_nuggets(data_dir / "trec-rag-24-nuggets", name="test/nuggets",
                            cache_dir=tmp_path_factory.mktemp("nugget-cache"))


def test_crowd_loader_counts(crowd_dir: Path):
    responses = loaders.load_crowd_responses(crowd_dir)
    ratings = loaders.load_crowd_ratings(crowd_dir)
    topics = loaders.load_crowd_topics(crowd_dir)
    assert len(responses) == 1806
    assert responses["topic"].nunique() == 301
    assert len(topics) == 301 and set(topics["qid"]) == set(responses["topic"])
    assert sorted(responses["name"].unique()) == [
        "human-bullet", "human-essay", "human-news", "llm-bullet", "llm-essay", "llm-news"]
    assert (responses.groupby("topic")["name"].nunique() == 6).all()
    assert len(ratings) == 1352 and ratings["query_id"].nunique() == 65
    assert ratings["quality_overall_p_n"].isna().all()  # the overall dimension has no "neither" probability


def test_topic_passages_are_each_topics_shared_context(crowd_dir: Path):
    from ir_rag_axioms.datasets import topic_passages

    passages = topic_passages(crowd_dir)
    responses = loaders.load_crowd_responses(crowd_dir)
    assert len(passages) == 301 and {len(p) for p in passages.values()} == {20}
    for row in responses.sample(50, random_state=0).itertuples():
        assert passages[row.topic] == tuple(row.references_texts)


def test_crowd_dataset_components(crowd):
    queries = list(crowd.queries_iter())
    assert len(queries) == 301
    assert all(len(q.context) == 20 and len(q.context_ids) == 20 for q in queries)
    assert crowd.docs_count() == 1806
    doc = crowd.docs_store().get("ae54d7e0-62df-3e53-9bea-3e107a6e5801")
    assert (doc.query_id, doc.kind, doc.style, doc.name) == ("2024-105741", "human", "bullet", "human-bullet")
    assert len(doc.context) == 20
    pairs = list(crowd.docpairs_iter())
    assert len(pairs) == 1352
    first = pairs[0]
    assert (first.query_id, first.doc_id_a, first.doc_id_b) == (
        "2024-45494", "02693406-15df-33d5-b424-219ac8ab2054", "3c5e25b6-2d4d-3d84-b01c-0264c3a5ba50")
    assert first.quality_overall_p_b == pytest.approx(0.974038303)
    assert math.isnan(first.quality_overall_p_n)
    assert first.correctness_topical_p_n == pytest.approx(0.543624666)
    # 975 unordered pairs, 377 of them judged twice (once in each order)
    unordered = {(p.query_id, *sorted((p.doc_id_a, p.doc_id_b))) for p in pairs}
    assert len(unordered) == 975


def test_nugget_dataset(nuggets):
    import ir_datasets

    assert nuggets.docs_count() == 883
    assert len(list(nuggets.queries_iter())) == 20
    qrels = {(q.query_id, q.doc_id): q for q in nuggets.qrels_iter()}
    key = ("2024-105741", "2024-105741/BEST_cot_gpt3.5")
    assert qrels[key].relevance == round(4 * qrels[key].score) and 0 <= qrels[key].relevance <= 4
    strict = {(q.query_id, q.doc_id): q for q in ir_datasets.load("test/nuggets/vital-strict").qrels_iter()}
    weighted = {(q.query_id, q.doc_id): q for q in ir_datasets.load("test/nuggets/weighted").qrels_iter()}
    assert len(strict) == len(weighted) == 883
    assert all(strict[k].score <= qrels[k].score for k in qrels)
    assert nuggets.docs_store().get(key[1]).run_id == "BEST_cot_gpt3.5"


def test_nugget_score_rule():
    nuggets = [
        {"importance": "vital", "assignment": "support"},
        {"importance": "vital", "assignment": "partial_support"},
        {"importance": "okay", "assignment": "support"},
        {"importance": "okay", "assignment": "not_support"},
    ]
    assert loaders.nugget_score(nuggets, "all") == pytest.approx(2.5 / 4)
    assert loaders.nugget_score(nuggets, "all", strict=True) == pytest.approx(2 / 4)
    assert loaders.nugget_score(nuggets, "vital") == pytest.approx(1.5 / 2)
    assert loaders.nugget_score(nuggets, "vital", strict=True) == pytest.approx(1 / 2)
    assert loaders.nugget_score(nuggets, "weighted") == pytest.approx((1 + 0.5 + 0.5) / 3)
    assert math.isnan(loaders.nugget_score(nuggets[2:], "vital"))
    with pytest.raises(ValueError, match="score_type"):
        loaders.nugget_score(nuggets, "okay")


def test_pyterrier_get_dataset(crowd, nuggets, capsys):
    pt = pytest.importorskip("pyterrier")
    topics = pt.get_dataset("irds:test/crowdrag-25").get_topics("query")
    assert len(topics) == 301 and list(topics.columns) == ["qid", "query"]
    assert "multiple query fields" not in capsys.readouterr().out  # as docs/evaluation.md says
    full = pt.get_dataset("irds:test/crowdrag-25").get_topics()
    assert list(full.columns) == ["qid", "query", "context_ids", "context"] and full["query"].equals(topics["query"])
    qrels = pt.get_dataset("irds:test/nuggets/all").get_qrels()
    assert len(qrels) == 883 and qrels["label"].between(0, 4).all()


def test_one_name_per_dataset_and_its_aliases_warn():
    """The registered ir_datasets names are canonical; the data folders' and short names map to them, with a warning."""
    import warnings

    from ir_rag_axioms.datasets.irds import CROWD_NAME, NUGGETS_NAME, canonical_name

    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert canonical_name(CROWD_NAME) == "ir-rag-axioms/crowdrag-25"
        assert canonical_name(f"{NUGGETS_NAME}/vital") == "ir-rag-axioms/trec-rag-2024-nuggets/vital"
        assert canonical_name("test/crowdrag-25") == "test/crowdrag-25"  # a name of one's own: unchanged
    for alias, expected in [("trec-rag-24-crowd", CROWD_NAME), ("crowdrag-25", CROWD_NAME),
                            ("trec-rag-24-nuggets/all-strict", f"{NUGGETS_NAME}/all-strict")]:
        with pytest.warns(DeprecationWarning, match=f"{alias!r} is an alias: use .*{expected!r}"):
            assert canonical_name(alias) == expected


def test_nugget_oracle_accepts_an_alias_with_a_warning(monkeypatch, data_dir: Path):
    from ir_rag_axioms import NuggetOracle

    monkeypatch.setenv("IR_RAG_AXIOMS_DATA", str(data_dir))
    table = NuggetOracle.from_irds("ir-rag-axioms/trec-rag-2024-nuggets/all").table
    with pytest.warns(DeprecationWarning, match="alias"):
        aliased = NuggetOracle.from_irds("trec-rag-24-nuggets/all").table
    assert len(table) == 883 and aliased.equals(table)


def test_importing_the_package_registers_nothing_until_asked():
    code = ("import sys, ir_rag_axioms.datasets as d; assert 'ir_datasets' not in sys.modules; "
            "d.register(); import ir_datasets; r = ir_datasets.registry._registered; "
            "assert d.CROWD_NAME in r and d.NUGGETS_NAME + '/weighted-strict' in r; print('ok')")
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=Path(__file__).parents[1])
    assert result.stdout.strip() == "ok", result.stderr


def test_default_names_registered_on_request():
    import ir_datasets

    from ir_rag_axioms.datasets import CROWD_NAME, NUGGETS_NAME, register

    register()
    assert CROWD_NAME in ir_datasets.registry._registered
    assert f"{NUGGETS_NAME}/weighted-strict" in ir_datasets.registry._registered


def test_environment_variable(monkeypatch, data_dir: Path):
    monkeypatch.setenv(files.ENV_VAR, str(data_dir))
    assert files.resolve(files.CROWD_RATINGS) == data_dir / "trec-rag-24-crowd" / "ratings.jsonl.gz"
    assert files.resolve(files.NUGGET_ASSIGNMENTS).name == "nugget_assignment.dev20.jsonl.gz"


def _md5(path: Path) -> str:
    with open(path, "rb") as handle:
        return hashlib.file_digest(handle, "md5").hexdigest()


def test_checksums_of_the_shared_copies(crowd_dir: Path):
    for spec in (files.CROWD_RESPONSES, files.CROWD_RATINGS, files.CROWD_TOPICS):
        assert _md5(files.resolve(spec, crowd_dir)) == spec.md5


def test_missing_file_names_it_and_the_fix(tmp_path: Path, monkeypatch):
    monkeypatch.delenv(files.ENV_VAR, raising=False)
    with pytest.raises(DataFileError, match=r"ratings\.jsonl\.gz.*data_dir=.*IR_RAG_AXIOMS_DATA"):
        loaders.load_crowd_ratings(tmp_path)
    monkeypatch.setenv("IR_DATASETS_HOME", str(tmp_path / "home"))
    with pytest.raises(DataFileError, match="no local copy"):
        files.resolve(files.CROWD_RATINGS, download=False)


def test_corrupt_gzip_gives_a_clear_error(tmp_path: Path, crowd_dir: Path):
    data = (crowd_dir / "ratings.jsonl.gz").read_bytes()
    (tmp_path / "ratings.jsonl.gz").write_bytes(data[: len(data) // 2])  # truncated download
    with pytest.raises(DataFileError, match=r"ratings\.jsonl\.gz is corrupt.*IR_RAG_AXIOMS_DATA"):
        loaders.load_crowd_ratings(tmp_path)


def test_bad_json_and_missing_fields(tmp_path: Path):
    with gzip.open(tmp_path / "responses.jsonl.gz", "wt") as out:
        out.write(json.dumps({"response": "r1", "topic": "t"}) + "\n")
    with pytest.raises(DataFileError, match=r"line 1 lacks the field\(s\) \['query', 'kind'"):
        loaders.load_crowd_responses(tmp_path)
    (tmp_path / "nugget_assignment.test.jsonl").write_text('{"qid": "1"}\n{not json\n')
    with pytest.raises(DataFileError, match="lacks the field"):
        loaders.load_nugget_assignments(tmp_path)
    (tmp_path / "nugget_assignment.test.jsonl").write_text(
        json.dumps({"qid": "1", "query": "q", "run_id": "r", "answer_text": "a", "nuggets": []}) + "\n{not json\n")
    with pytest.raises(DataFileError, match="corrupt or unreadable at line 2"):
        loaders.load_nugget_assignments(tmp_path)


@pytest.fixture()
def http_folder(tmp_path: Path):
    """A local HTTP server over a temporary folder (stands in for the public download location)."""
    import functools
    import http.server
    import threading

    served = tmp_path / "served"
    served.mkdir()
    handler = functools.partial(http.server.SimpleHTTPRequestHandler, directory=str(served))
    handler.log_message = lambda *args: None
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield served, f"http://127.0.0.1:{server.server_address[1]}/"
    server.shutdown()
    server.server_close()


def test_download_verifies_the_checksum_and_caches(http_folder, crowd_dir: Path, tmp_path: Path, monkeypatch):
    import dataclasses

    served, url = http_folder
    monkeypatch.delenv(files.ENV_VAR, raising=False)
    monkeypatch.setenv("IR_DATASETS_HOME", str(tmp_path / "home"))
    monkeypatch.setenv("NO_PROXY", "127.0.0.1")
    (served / "ratings.jsonl.gz").write_bytes((crowd_dir / "ratings.jsonl.gz").read_bytes())
    spec = dataclasses.replace(files.CROWD_RATINGS, url=url + "ratings.jsonl.gz")
    path = files.resolve(spec)
    assert path == tmp_path / "home" / "ir-rag-axioms" / "trec-rag-24-crowd" / "ratings.jsonl.gz"
    assert _md5(path) == spec.md5
    (served / "ratings.jsonl.gz").unlink()
    assert files.resolve(spec) == path  # from the cache, no second download
    (served / "topics.rag24.test.txt").write_text("1\tnot the real topics\n")
    wrong = dataclasses.replace(files.CROWD_TOPICS, url=url + "topics.rag24.test.txt")
    with pytest.raises(DataFileError, match=r"crowd/topics: cannot download .*Expected md5 hash to be 234113ab"):
        files.resolve(wrong)
    assert not (tmp_path / "home" / "ir-rag-axioms" / "trec-rag-24-crowd" / "topics.rag24.test.txt").exists()


def test_items_of_each_dataset(data_dir: Path, crowd_dir: Path):
    from ir_rag_axioms.axioms.oracles import CrowdOracle, LlmRatingOracle, NuggetOracle
    from ir_rag_axioms.datasets import crowd, judged_items, llm, nuggets

    responses = crowd.load_crowd_responses(crowd_dir)
    items = crowd.items(responses)
    assert len(items) == 301 and all(len(answers) == 6 for _, answers in items)
    request, answers = items[0]
    assert request.id == responses["topic"].iloc[0] and len(request.context) == 20
    names = crowd.aliases(responses)
    assert len(names) == 1806
    order = ["human-bullet", "human-essay", "human-news", "llm-bullet", "llm-essay", "llm-news"]
    assert [a.id for a in answers] == [names[(request.id, name)] for name in order]  # sorted by kind-style name
    assert len(judged_items(CrowdOracle(data_dir=crowd_dir), crowd_dir)) == 65
    assignments = nuggets.load_nugget_assignments(data_dir / "trec-rag-24-nuggets")
    answers_by_topic = nuggets.items(assignments)
    assert len(answers_by_topic) == 20 and sum(len(a) for _, a in answers_by_topic) == 883
    first = assignments.iloc[0]
    assert answers_by_topic[0][0].id == first["qid"] and answers_by_topic[0][0].context is None
    assert (answers_by_topic[0][1][0].id, answers_by_topic[0][1][0].text) == (first["run_id"], first["answer_text"])
    assert judged_items(NuggetOracle(), data_dir / "trec-rag-24-nuggets") == answers_by_topic
    llm_dir = data_dir / "trec-rag-24-llm-ratings"
    rated = llm.items(llm.load_llm_ratings(path=llm_dir))
    assert len(rated) == 301 and sum(len(a) for _, a in rated) == 1806
    assert judged_items(LlmRatingOracle(), llm_dir) == rated
    assert len(judged_items(LlmRatingOracle(data_dir=llm_dir), None, crowd_dir)) == 301  # crowd responses with context


def test_loaded_frames_are_read_once_and_copied(crowd_dir: Path):
    first, second = loaders.load_crowd_ratings(crowd_dir), loaders.load_crowd_ratings(crowd_dir)
    assert first is not second and first.equals(second)
    first.loc[0, "query_id"] = "changed"
    assert loaders.load_crowd_ratings(crowd_dir).loc[0, "query_id"] == "2024-45494"
