"""The ir_datasets registration: errors surface, exports cover every entity type, re-registration serves new files."""

from __future__ import annotations

import gzip
import json
import warnings
from pathlib import Path

import numpy as np
import pandas as pd
import pyterrier as pt
import pytest

from ir_rag_axioms import (
    AxiomaticReranker,
    GenerationRequest,
    GenerationResponse,
)
from ir_rag_axioms.axioms.base import FeatureAxiom
from ir_rag_axioms.datasets.files import DataFileError, DataFileWarning
from ir_rag_axioms.pyterrier import Pool


def test_data_errors_are_not_swallowed_by_ir_datasets():
    assert not issubclass(DataFileError, FileNotFoundError) and issubclass(DataFileError, ValueError)


def test_a_truncated_data_file_is_an_error_through_ir_datasets(tmp_path: Path, data_dir: Path):
    from ir_rag_axioms.datasets.irds import register_crowd

    data = (data_dir / "trec-rag-24-crowd" / "responses.jsonl.gz").read_bytes()
    (tmp_path / "responses.jsonl.gz").write_bytes(data[: len(data) // 2])
    dataset = register_crowd(tmp_path, name="hardening-truncated", cache_dir=tmp_path / "irds")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DataFileWarning)
        with pytest.raises(DataFileError, match="responses.jsonl.gz is corrupt or unreadable"):
            dataset.docs_count()  # ir_datasets swallowed the old FileNotFoundError subclass and gave None


def test_ir_datasets_home_naming_a_file_is_a_clear_error(tmp_path: Path, monkeypatch):
    from ir_rag_axioms.datasets import files

    (tmp_path / "home").write_text("x")
    monkeypatch.setenv("IR_DATASETS_HOME", str(tmp_path / "home"))
    monkeypatch.delenv("IR_RAG_AXIOMS_DATA", raising=False)
    with pytest.raises(DataFileError, match="environment variable IR_DATASETS_HOME=.* is a file, not a folder"):
        files.resolve(files.CROWD_TOPICS, download=False)


# -- errors and edge cases ----------------------------------------------------------------------------
# -- 4. names ------------------------------------------------------------------------------------------
class Length(FeatureAxiom):
    """Prefer the longer text."""

    def values(self, request: GenerationRequest, responses: list[GenerationResponse], analysis) -> np.ndarray:
        return np.array([len(r.text) for r in responses], dtype=float)


# -- 5. the registered datasets in standard tools --------------------------------------------------------
NUGGETS = "trec-rag-24-nuggets"


@pytest.fixture(scope="module")
def nugget_dataset(data_dir, tmp_path_factory):
    from ir_rag_axioms.datasets import register_nuggets

    return register_nuggets(data_dir / NUGGETS, name="trust/nuggets", cache_dir=tmp_path_factory.mktemp("nuggets"))


@pytest.fixture(scope="module")
def crowd_dataset(data_dir, tmp_path_factory):
    from ir_rag_axioms.datasets import register_crowd

    return register_crowd(data_dir / "trec-rag-24-crowd", name="trust/crowd", cache_dir=tmp_path_factory.mktemp("c"))


def _export(name: str, entity: str, *options: str) -> list[str]:
    import contextlib
    import io

    from ir_datasets.commands import export

    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        export.main([name, entity, *options])
    return out.getvalue().splitlines()


@pytest.mark.shared
def test_ir_datasets_export_writes_every_entity_type(nugget_dataset, crowd_dataset) -> None:
    docs = _export("trust/nuggets", "docs", "--format", "tsv", "--fields", "doc_id", "text")
    assert len(docs) == 883 and all(line.strip() for line in docs)
    first = next(iter(nugget_dataset.docs_iter()))
    assert docs[0].split("\t")[:2] == [first.doc_id, first.text.replace("\t", " ").replace("\n", " ")][:2]
    queries = _export("trust/nuggets", "queries", "--format", "tsv")
    assert len(queries) == 20 and queries[0].split("\t")[0] == "2024-105741" and queries[0].split("\t")[1]
    qrels = _export("trust/nuggets", "qrels", "--fields", "relevance")
    assert len(qrels) == 883 and {line.split()[3] for line in qrels} <= {"0", "1", "2", "3", "4"}
    assert qrels[0].split()[2] == first.doc_id == f"{first.query_id}/{first.run_id}"
    pairs = _export("trust/crowd", "docpairs", "--format", "tsv")
    assert len(pairs) == 1352 and len(pairs[0].split("\t")) == 25
    crowd_qrels = _export("trust/crowd", "qrels", "--fields", "relevance")
    assert len(crowd_qrels) == 390  # the 6 responses of each of the 65 judged topics


@pytest.mark.shared
def test_pyterrier_reads_text_topics_and_documentation(nugget_dataset, crowd_dataset) -> None:
    dataset = pt.get_dataset("irds:trust/nuggets")
    topics = dataset.get_topics()
    assert len(topics) == 20 and topics["query"].str.len().gt(0).all()
    qrels = dataset.get_qrels()
    frame = pd.DataFrame({"qid": qrels["qid"][:3], "docno": qrels["docno"][:3]})
    texts = pt.text.get_text(dataset, ["text"])(frame)
    by_id = {d.doc_id: d.text for d in nugget_dataset.docs_iter()}
    assert texts["text"].tolist() == [by_id[d] for d in frame["docno"]]
    for ds in (nugget_dataset, crowd_dataset):
        documentation = ds.documentation()
        assert {"pretty_name", "desc", "bibtex", "fields"} <= set(documentation)
    crowd_qrels = pt.get_dataset("irds:trust/crowd").get_qrels()
    assert crowd_qrels["label"].between(0, 4).all() and crowd_qrels["label"].nunique() == 5


@pytest.mark.shared
def test_re_registration_serves_the_new_files(data_dir, tmp_path) -> None:

    from ir_rag_axioms.datasets import register_nuggets

    cache = tmp_path / "cache"
    first = register_nuggets(data_dir / NUGGETS, name="trust/rereg", cache_dir=cache)
    doc_id = next(iter(first.docs_iter())).doc_id
    original = first.docs_store().get(doc_id).text
    with gzip.open(next((data_dir / NUGGETS).glob("*.jsonl.gz")), "rt") as lines:
        rows = [json.loads(line) for line in lines]
    rows[0]["answer_text"] = "A changed answer."
    (tmp_path / "other").mkdir()
    with open(tmp_path / "other" / "nugget_assignment.jsonl", "w") as out:
        out.writelines(json.dumps(r) + "\n" for r in rows)
    second = register_nuggets(tmp_path / "other", name="trust/rereg", cache_dir=cache)
    assert second.docs_store().get(doc_id).text == "A changed answer." != original


@pytest.mark.shared
def test_experiment_with_the_datasets_qrels_over_pooled_answers(data_dir, nugget_dataset) -> None:
    from ir_measures import nDCG

    from ir_rag_axioms.datasets.runs import nugget_answers, nugget_qrels
    from ir_rag_axioms.evaluation.run_measures import check_run

    answers = nugget_answers(next((data_dir / NUGGETS).glob("*.jsonl.gz")))
    systems = list(dict.fromkeys(answers["system"]))[:12]

    def system(name):
        own = answers[answers["system"] == name].set_index("qid")["text"]
        return pt.apply.generic(lambda t: t[t["qid"].isin(own.index)].assign(qanswer=lambda f: f["qid"].map(own)))

    dataset = pt.get_dataset("irds:trust/nuggets")
    topics = dataset.get_topics()[["qid", "query"]]
    pipeline = Pool({name: system(name) for name in systems}, docno="{qid}/{system}") >> AxiomaticReranker(Length())
    run = pipeline(topics)
    assert check_run(run, dataset.get_qrels()) == 1.0
    ours = pt.Experiment([pipeline], topics, dataset.get_qrels(), [nDCG @ 10])
    theirs = pt.Experiment([pipeline], topics, nugget_qrels(next((data_dir / NUGGETS).glob("*.jsonl.gz"))),
                           [nDCG @ 10])
    assert ours["nDCG@10"].iloc[0] == pytest.approx(theirs["nDCG@10"].iloc[0])
    assert ours["nDCG@10"].iloc[0] > 0.3
    with pytest.warns(UserWarning, match="share no docno with the qrels"):
        check_run(run.assign(docno=run["docno"].str.split("/").str[1]), dataset.get_qrels())


def test_the_registered_datasets_have_no_gold_answers_and_the_docs_say_so(nugget_dataset, crowd_dataset) -> None:
    for name in ("irds:trust/nuggets", "irds:trust/crowd"):
        assert not hasattr(pt.get_dataset(name), "get_answers")  # pyterrier-rag's QA datasets have them; ours not
    docs = Path(__file__).resolve().parents[1] / "docs"
    pyterrier_page = " ".join((docs / "pyterrier.md").read_text().split())
    assert "`dataset` is one of pyterrier-rag's QA datasets, which have gold answers" in pyterrier_page
    assert "Neither dataset has gold answers" in (docs / "evaluation.md").read_text()
