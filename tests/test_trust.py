"""A real PyTerrier RAG workflow: each answer's own context, pooled pipelines, system comparison, names, tools."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pyterrier as pt
import pytest

from ir_rag_axioms import CONS2, GenerationRequest, GenerationResponse, default_analysis
from ir_rag_axioms.axioms.base import FeatureAxiom
from ir_rag_axioms.evaluation import evaluate_axioms
from ir_rag_axioms.evaluation.systems import compare_systems
from ir_rag_axioms.pyterrier import AxiomaticPreferences, AxiomaticReranker, AxiomFeatures, Pool

PASSAGES = {
    "1": ["The Eiffel Tower in Paris was completed in 1889 for the World's Fair.",
          "Gustave Eiffel's company designed and built the tower from wrought iron."],
    "2": ["Photosynthesis converts light energy, water and carbon dioxide into glucose and oxygen.",
          "It takes place in the chloroplasts of plant cells, which contain chlorophyll."],
}
OFF_TOPIC = ["Bananas are yellow fruits that are rich in potassium and grow in tropical climates."]
TOPICS = pd.DataFrame({"qid": ["1", "2"], "query": ["When was the Eiffel Tower built?", "What is photosynthesis?"]})


def _rag(answer, context):
    """A toy pyterrier-rag pipeline: one ``qanswer`` and its ``qcontext`` per query, no docno."""
    return pt.apply.generic(lambda topics: topics.assign(
        qanswer=[answer(q) for q in topics["qid"]], qcontext=[context(q) for q in topics["qid"]]))


PIPELINES = {
    # copies its own retrieved passages: the best-supported answer
    "grounded": _rag(lambda q: " ".join(PASSAGES[q]), lambda q: PASSAGES[q]),
    # half of it supported
    "partial": _rag(lambda q: PASSAGES[q][0] + " It is also very popular with tourists and students.",
                    lambda q: PASSAGES[q]),
    # the same facts, but generated from an off-topic context: unsupported by what it retrieved
    "ungrounded": _rag(lambda q: " ".join(PASSAGES[q]), lambda q: OFF_TOPIC),
}


# -- 1. each answer's own context ----------------------------------------------------------------------
def test_an_answer_is_judged_against_its_own_context() -> None:
    request = GenerationRequest("1", "When was the Eiffel Tower built?", context=OFF_TOPIC)
    own = GenerationResponse("a", " ".join(PASSAGES["1"]), context=PASSAGES["1"])
    shared = GenerationResponse("b", " ".join(PASSAGES["1"]))  # no own context: the request's (off-topic)
    assert CONS2.preferences(request, [own, shared]).tolist() == [[0.0, 1.0], [-1.0, 0.0]]
    # without a request context the answer without its own abstains
    assert CONS2.preferences(GenerationRequest("1", "q"), [shared, own]).tolist() == [[0.0, 0.0], [0.0, 0.0]]


def test_cons1_reads_each_answers_own_context_aspects() -> None:
    from ir_rag_axioms import CONS1

    text = " ".join(PASSAGES["1"])
    request = GenerationRequest("1", "When was the Eiffel Tower built?")
    own = GenerationResponse("a", text, context=PASSAGES["1"])
    off = GenerationResponse("b", text, context=OFF_TOPIC)
    assert CONS1(margin_fraction=0.0).preferences(request, [own, off]).tolist() == [[0.0, 1.0], [-1.0, 0.0]]
    values = CONS1.values(request, [own, off, GenerationResponse("c", text)], default_analysis())
    assert values[0] > values[1] and np.isnan(values[2])  # no context of its own nor the request's: abstains


def _frame(names: dict[str, str]) -> pd.DataFrame:
    rows = []
    for q in ("1", "2"):
        for system, context in (("grounded", PASSAGES[q]), ("ungrounded", OFF_TOPIC)):
            rows.append({"qid": q, "query": "q", "docno": names[system], "text": " ".join(PASSAGES[q]),
                         "context": context})
    return pd.DataFrame(rows)


def test_renaming_or_reordering_docnos_changes_no_preference() -> None:
    plain = {"grounded": "a", "ungrounded": "b"}
    for names in (plain, {"grounded": "zz", "ungrounded": "aa"}):
        frame = _frame(names)
        for order in (frame, frame.iloc[::-1]):
            prefs = AxiomaticPreferences({"CONS2": CONS2})(order)
            won = prefs[prefs["CONS2"] > 0]
            assert sorted(zip(won["qid"], won["docno_a"], strict=True)) == [("1", names["grounded"]),
                                                                           ("2", names["grounded"])]
            assert len(prefs[prefs["CONS2"] != 0]) == 4  # decided both ways, for both queries


# -- 2. pooling pipelines ------------------------------------------------------------------------------
def test_pool_stacks_each_pipelines_answer_with_its_context() -> None:
    pooled = Pool(PIPELINES)(TOPICS)
    assert pooled["qid"].tolist() == ["1", "1", "1", "2", "2", "2"]
    assert pooled["docno"].tolist() == ["grounded", "partial", "ungrounded"] * 2
    assert pooled["system"].tolist() == pooled["docno"].tolist()
    assert pooled["context"].iloc[2] == OFF_TOPIC and (pooled["score"] == 0.0).all()  # no score given
    assert Pool(PIPELINES, docno="{qid}/{system}")(TOPICS)["docno"].iloc[3] == "2/grounded"


def test_pooled_reranking_puts_the_best_supported_answer_first_under_any_names() -> None:
    ranked = (Pool(PIPELINES) >> AxiomaticReranker([CONS2]))(TOPICS)
    assert ranked.groupby("qid")["docno"].apply(list).to_dict() == {q: ["grounded", "partial", "ungrounded"]
                                                                    for q in ("1", "2")}
    renamed = {"grounded": "z-system", "partial": "m-system", "ungrounded": "a-system"}
    again = (Pool({renamed[k]: v for k, v in PIPELINES.items()}) >> AxiomaticReranker([CONS2]))(TOPICS)
    assert again["docno"].tolist() == ranked["docno"].map(renamed).tolist()
    assert again["score"].tolist() == ranked["score"].tolist()  # Borda points: 2, 0, -2


def test_frames_without_docno_name_the_pool_and_single_candidates_warn() -> None:
    answers = PIPELINES["grounded"](TOPICS)
    for transformer in (AxiomaticReranker([CONS2]), AxiomFeatures([CONS2]), AxiomaticPreferences([CONS2])):
        with pytest.raises(ValueError, match=r"Pool\(\{"):
            transformer(answers)
    single = Pool({"grounded": PIPELINES["grounded"]})(TOPICS)
    with pytest.warns(UserWarning, match="2 of 2 queries have a single candidate"):
        AxiomFeatures([CONS2])(single)


# -- 3. system comparison ------------------------------------------------------------------------------
def test_compare_systems_ranks_the_grounded_system_first_and_ignores_names() -> None:
    table = compare_systems({"CONS2": CONS2}, PIPELINES, TOPICS, samples=50)
    cons2 = table[table["axiom"] == "CONS2"].set_index("system")
    assert cons2["rank"].to_dict() == {"grounded": 1, "partial": 2, "ungrounded": 3}
    assert cons2["win_rate"].to_dict() == {"grounded": 1.0, "partial": 0.5, "ungrounded": 0.0}
    assert (cons2["comparisons"] == 4).all()
    assert cons2.loc["grounded", "strength"] > cons2.loc["partial", "strength"] > cons2.loc["ungrounded", "strength"]
    assert (cons2["strength_low"] <= cons2["strength"]).all() and (cons2["strength"] <= cons2["strength_high"]).all()
    renamed = {"grounded": "z", "partial": "m", "ungrounded": "a"}
    again = compare_systems({"CONS2": CONS2}, {renamed[k]: v for k, v in PIPELINES.items()}, TOPICS, samples=50)
    again = again[again["axiom"] == "CONS2"].set_index("system")
    for name, new in renamed.items():
        assert again.loc[new, ["rank", "win_rate"]].tolist() == cons2.loc[name, ["rank", "win_rate"]].tolist()
        assert again.loc[new, "strength"] == pytest.approx(cons2.loc[name, "strength"])


def test_compare_systems_shows_the_bootstrap_in_a_progress_bar(capsys) -> None:
    """After the preference bar, the Bradley-Terry bootstrap (minutes for 45 systems) has a bar of its own."""
    quiet = compare_systems({"CONS2": CONS2}, PIPELINES, TOPICS, samples=20)
    assert "Bradley-Terry" not in capsys.readouterr().err
    shown = compare_systems({"CONS2": CONS2}, PIPELINES, TOPICS, samples=20, progress=True)
    assert "Bradley-Terry strengths (20 bootstrap samples): 100%" in capsys.readouterr().err
    pd.testing.assert_frame_equal(quiet, shown)


def test_a_system_column_that_names_answers_warns() -> None:
    frame = Pool(PIPELINES)(TOPICS)
    with pytest.warns(UserWarning, match="answers a single topic"):
        compare_systems([CONS2], frame.assign(system=frame["qid"] + "/" + frame["system"]), samples=0)


# -- 4. names ------------------------------------------------------------------------------------------
class Length(FeatureAxiom):
    """Prefer the longer text."""

    def values(self, request: GenerationRequest, responses: list[GenerationResponse], analysis) -> np.ndarray:
        return np.array([len(r.text) for r in responses], dtype=float)


def test_axioms_as_a_mapping_or_with_axiom_names_name_the_columns() -> None:
    frame = pd.DataFrame({"qid": "1", "query": "q", "docno": ["a", "b"], "text": ["xx", "x"]})
    assert list(AxiomaticPreferences({"long": Length()})(frame).columns)[-1] == "long"
    assert list(AxiomaticPreferences([Length()], axiom_names=["long"])(frame).columns)[-1] == "long"
    assert AxiomFeatures({"long": Length(), "c": CONS2}).feature_names == ["long", "c"]
    with pytest.raises(ValueError, match="1 axiom_names for 2 axioms"):
        AxiomaticPreferences([Length(), CONS2], axiom_names=["long"])
    with pytest.raises(ValueError, match="not both"):
        AxiomFeatures({"long": Length()}, axiom_names=["x"])
    request = GenerationRequest("1", "q")
    items = [(request, [GenerationResponse("a", "xx"), GenerationResponse("b", "x")])]
    oracle = [np.array([[0.0, 1.0], [-1.0, 0.0]])]
    assert evaluate_axioms([Length()], items, oracle, axiom_names=["long"])["axiom"].tolist() == ["long"]
    assert evaluate_axioms({"long": Length()}, items, oracle)["consistency"].tolist() == [1.0]


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
    import gzip
    import json

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


def test_a_precondition_that_cannot_serve_is_refused_when_the_axiom_is_built() -> None:
    from ir_rag_axioms import NOP, TFC1
    from ir_rag_axioms.axioms.utility import NopAxiom

    with pytest.raises(TypeError, match=r"TFC1: precondition must be an instance, NopAxiom\(\)"):
        TFC1(precondition=NopAxiom)
    with pytest.raises(TypeError, match=r"LEN\(\.\.\.\), None or NOP\(\)"):
        TFC1(precondition="LEN")
    request = GenerationRequest("1", "cat")
    assert TFC1(precondition=NOP).preferences(request, [GenerationResponse("a", "cat cat"),
                                                        GenerationResponse("b", "dog")]).tolist() == [[0, 1], [-1, 0]]
