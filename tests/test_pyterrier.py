"""PyTerrier transformers: contract test cases, exact reranking with a tiny axiom, validation, composition."""

from __future__ import annotations

import math
from typing import ClassVar

import numpy as np
import pandas as pd
import pyterrier as pt
import pytest
from pyterrier import testing as ptt

from ir_rag_axioms.axioms.base import FeatureAxiom
from ir_rag_axioms.model import GenerationRequest, GenerationResponse
from ir_rag_axioms.pyterrier import AxiomaticPreferences, AxiomaticReranker, AxiomFeatures


class Length(FeatureAxiom):
    """Prefer the longer text (characters)."""

    margin_fraction: float = 0.0

    def values(self, request: GenerationRequest, responses: list[GenerationResponse], analysis) -> np.ndarray:
        return np.array([len(r.text) for r in responses], dtype=float)


class Short(Length):
    """Prefer the shorter text."""

    higher_is_better: bool = False


class InContext(FeatureAxiom):
    """Prefer responses whose text is one of the request's context passages."""

    def values(self, request: GenerationRequest, responses: list[GenerationResponse], analysis) -> np.ndarray:
        return np.array([float(r.text in (request.context or ())) for r in responses])


class OriginalRank(FeatureAxiom):
    """Prefer the lower original rank (reads GenerationResponse.rank)."""

    higher_is_better: bool = False

    def values(self, request: GenerationRequest, responses: list[GenerationResponse], analysis) -> np.ndarray:
        return np.array([math.nan if r.rank is None else r.rank for r in responses], dtype=float)


class LateRank(OriginalRank):
    """Prefer the higher original rank (the reverse of OriginalRank)."""

    higher_is_better: bool = True


class Counting(Length):
    """Length that records every prefetch call (class-level log, the dataclass is frozen)."""

    calls: ClassVar[list[list[str]]] = []

    def prefetch(self, items, analysis) -> None:
        Counting.calls.append([request.id for request, _ in items])


def frame() -> pd.DataFrame:
    return pd.DataFrame({
        "qid": ["q1", "q1", "q1", "q2", "q2"],
        "query": ["first", "first", "first", "second", "second"],
        "docno": ["a", "b", "c", "d", "e"],
        "text": ["xx", "x", "xxxx", "yy", "y"],
    })


# -- PyTerrier's transformer contract -----------------------------------------------------------------
class TestRerankerContract(ptt.TransformerTestCase):
    @staticmethod
    def get_transformer():
        return AxiomaticReranker([Length(), Short()], "kwiksort")


class TestPreferencesContract(ptt.TransformerTestCase):
    @staticmethod
    def get_transformer():
        return AxiomaticPreferences(Length())


class TestFeaturesContract(ptt.TransformerTestCase):
    @staticmethod
    def get_transformer():
        return AxiomFeatures([Length(), Short()])


def test_inspection_names_the_input_configurations_and_outputs() -> None:
    reranker = AxiomaticReranker(Length())
    assert pt.inspect.transformer_inputs(reranker) == [
        ["qid", "query", "docno", "text"], ["qid", "query", "docno", "qanswer"]]
    assert pt.inspect.transformer_outputs(reranker, ["qid", "query", "docno", "text"]) == [
        "qid", "query", "docno", "text", "score", "rank", "decided"]
    preferences = AxiomaticPreferences([Length(), Short()])
    assert pt.inspect.transformer_outputs(preferences, ["qid", "query", "docno", "text"]) == [
        "qid", "query", "docno_a", "docno_b", "Length", "Short"]
    assert pt.inspect.transformer_outputs(AxiomFeatures(Length()), ["qid", "query", "docno", "qanswer"]) == [
        "qid", "query", "docno", "qanswer", "features"]


def test_repr_and_inspect_show_the_configuration() -> None:
    reranker = AxiomaticReranker([Length(margin_fraction=0.5)], "kwiksort", pivot="wins", seed=3)
    assert repr(reranker) == (
        "AxiomaticReranker(axioms=[Length(margin_fraction=0.5)], aggregation='kwiksort', pivot='wins', seed=3)")
    assert repr(AxiomFeatures(Length())) == "AxiomFeatures(axioms=Length())"
    settings = {a.name: a.value for a in pt.inspect.transformer_attributes(reranker)}
    assert settings["aggregation"] == "kwiksort" and settings["pivot"] == "wins" and settings["weights"] is None
    copy = pt.inspect.transformer_apply_attributes(reranker, aggregation="borda")
    assert isinstance(copy, AxiomaticReranker) and copy.aggregation == "borda" and copy.seed == 3


# -- reranking ------------------------------------------------------------------------------------------
@pytest.mark.parametrize("aggregation", ["borda", "copeland", "kwiksort", "bradley_terry"])
def test_reranker_sorts_by_aggregated_preferences(aggregation: str) -> None:
    out = AxiomaticReranker(Length(), aggregation)(frame())
    assert out["docno"].tolist() == ["c", "a", "b", "d", "e"]
    assert out["rank"].tolist() == [0, 1, 2, 0, 1]
    expected = {"borda": [2.0, 0.0, -2.0, 1.0, -1.0], "copeland": [2.0, 0.0, -2.0, 1.0, -1.0],
                "kwiksort": [3.0, 2.0, 1.0, 2.0, 1.0]}  # the aggregation's own score
    if aggregation == "bradley_terry":
        assert out["score"].is_monotonic_decreasing is False  # two queries; within each it decreases
        assert all(g["score"].is_monotonic_decreasing for _, g in out.groupby("qid"))
        assert out["score"].iloc[0] > 0 > out["score"].iloc[2]
    else:
        assert out["score"].tolist() == expected[aggregation]
    assert out["text"].tolist() == ["xxxx", "xx", "x", "yy", "y"]
    assert list(out.columns) == ["qid", "query", "docno", "text", "score", "rank", "decided"]
    assert out["decided"].tolist() == [3, 3, 3, 1, 1]  # every pair of each query decided by length


def test_reranker_keeps_every_row_and_extra_columns() -> None:
    inp = frame().assign(extra=[1, 2, 3, 4, 5], score=[0.1, 0.2, 0.3, 0.4, 0.5], rank=[2, 1, 0, 1, 0])
    out = AxiomaticReranker(Short())(inp)
    assert len(out) == len(inp) and sorted(out["docno"]) == sorted(inp["docno"])
    assert out.set_index("docno")["extra"].to_dict() == {"a": 1, "b": 2, "c": 3, "d": 4, "e": 5}
    assert out["docno"].tolist() == ["b", "a", "c", "e", "d"]


def test_weights_and_a_single_axiom_or_list() -> None:
    both = AxiomaticReranker([Length(), Short()], weights=[1.0, 2.0])(frame())
    assert both["docno"].tolist() == ["b", "a", "c", "e", "d"]
    cancelled = AxiomaticReranker([Length(), Short()])(frame())  # net zero: original order (docno)
    assert cancelled["docno"].tolist() == ["a", "b", "c", "d", "e"]
    with pytest.raises(ValueError, match="2 weights for 1 axioms"):
        AxiomaticReranker([Length()], weights=[1, 2])


def test_ties_use_the_tie_breaker_then_the_original_order() -> None:
    inp = frame().assign(text=["x", "x", "x", "y", "y"], rank=[1, 2, 0, 0, 1])
    for aggregation in ("borda", "kwiksort"):
        out = AxiomaticReranker(Length(), aggregation)(inp)
        assert out["docno"].tolist() == ["c", "a", "b", "d", "e"]  # by original rank
        flipped = AxiomaticReranker(Length(), aggregation, tie_breaker=LateRank())(inp)
        assert flipped["docno"].tolist() == ["b", "a", "c", "e", "d"]


def test_rank_and_score_feed_the_responses() -> None:
    inp = frame().assign(rank=[2, 0, 1, 1, 0])
    out = AxiomaticReranker(OriginalRank())(inp)
    assert out["docno"].tolist() == ["b", "c", "a", "e", "d"]


def test_context_lists_and_nan_reach_the_request() -> None:
    inp = frame().assign(context=[["x", "other"], ["x", "other"], ["x", "other"], math.nan, math.nan])
    out = AxiomaticReranker(InContext())(inp)
    assert out["docno"].tolist() == ["b", "a", "c", "d", "e"]  # q1: "x" is a passage; q2: no context, all tie


def test_qanswer_is_accepted_as_the_text_column() -> None:
    out = AxiomaticReranker(Length())(frame().rename(columns={"text": "qanswer"}))
    assert out["docno"].tolist() == ["c", "a", "b", "d", "e"] and "qanswer" in out.columns


def test_ranked_input_row_order_and_docnos_do_not_change_the_ranking() -> None:
    rng = np.random.default_rng(0)
    texts = ["a" * int(k) for k in rng.integers(1, 4, size=12)]  # many ties
    inp = pd.DataFrame({"qid": ["1"] * 6 + ["2"] * 6, "query": "q", "docno": [f"d{i}" for i in range(12)],
                        "text": texts, "rank": list(range(6)) * 2})
    renamed = {f"d{i}": f"z{11 - i}" for i in range(12)}  # reverses the alphabetical order
    for aggregation in ("borda", "copeland", "kwiksort", "bradley_terry"):
        reranker = AxiomaticReranker([Length(), Short(margin_fraction=0.4)], aggregation, pivot="random", seed=5)
        expected = reranker(inp)[["qid", "docno", "rank"]]
        for seed in range(3):
            shuffled = inp.sample(frac=1.0, random_state=seed)
            pd.testing.assert_frame_equal(reranker(shuffled)[["qid", "docno", "rank"]], expected)
        # with a rank, the docno decides no tie: renaming them renames the output
        again = reranker(inp.assign(docno=inp["docno"].map(renamed)))
        assert again["docno"].tolist() == reranker(inp)["docno"].map(renamed).tolist()


def test_ties_keep_the_input_order_by_rank_else_score_else_docno() -> None:
    tied = pd.DataFrame({"qid": "1", "query": "q", "docno": ["zeta", "alpha", "mid"], "text": ["xx", "yy", "zz"]})
    for aggregation in ("borda", "copeland", "kwiksort", "bradley_terry"):
        assert AxiomaticReranker(Length(), aggregation)(tied)["docno"].tolist() == ["alpha", "mid", "zeta"]
        scored = tied.assign(score=[1.0, 3.0, 2.0])
        assert AxiomaticReranker(Length(), aggregation)(scored)["docno"].tolist() == ["alpha", "mid", "zeta"]
        ranked = tied.assign(rank=[0, 2, 1])
        assert AxiomaticReranker(Length(), aggregation)(ranked)["docno"].tolist() == ["zeta", "mid", "alpha"]


@pytest.mark.parametrize("aggregation", ["borda", "copeland", "kwiksort", "bradley_terry"])
def test_without_rank_or_score_shuffling_the_rows_changes_nothing(aggregation: str) -> None:
    """The Pool's case (no score, or one constant score): the same output, and the same figures, in any row order."""
    from ir_measures import nDCG

    from ir_rag_axioms.evaluation.run_measures import KendallTau

    rng = np.random.default_rng(3)
    texts = ["w " * int(k) for k in rng.integers(1, 4, size=24)]  # lengths tie often: the input order matters
    inp = pd.DataFrame({"qid": [str(q) for q in range(3) for _ in range(8)], "query": "q",
                        "docno": [f"s{k}" for _ in range(3) for k in rng.permutation(8)], "text": texts})
    qrels = inp[["qid", "docno"]].assign(label=rng.integers(0, 3, size=len(inp)))
    reranker = AxiomaticReranker([Length(), Short(margin_fraction=0.4)], aggregation, pivot="random", seed=1)
    for frame_ in (inp, inp.assign(score=0.0)):  # no score, or Pool's constant one
        expected = reranker(frame_)
        figures = pt.Experiment([pt.Transformer.from_df(frame_) >> reranker], inp[["qid", "query"]].drop_duplicates(),
                                qrels, [nDCG @ 5, KendallTau], names=["x"])
        for seed in range(4):
            shuffled = frame_.sample(frac=1.0, random_state=seed)
            pd.testing.assert_frame_equal(reranker(shuffled), expected)
            again = pt.Experiment([pt.Transformer.from_df(shuffled) >> reranker],
                                  inp[["qid", "query"]].drop_duplicates(), qrels, [nDCG @ 5, KendallTau], names=["x"])
            pd.testing.assert_frame_equal(again, figures)


def test_all_queries_are_analysed_in_one_batch_and_match_one_query_at_a_time() -> None:
    Counting.calls.clear()
    inp = frame()
    batched = AxiomaticReranker(Counting())(inp)
    assert Counting.calls and all(call == ["q1", "q2"] for call in Counting.calls)  # never one query at a time
    alone = pd.concat([AxiomaticReranker(Counting())(g) for _, g in inp.groupby("qid")], ignore_index=True)
    pd.testing.assert_frame_equal(batched, alone)


# -- validation ---------------------------------------------------------------------------------------
def test_missing_columns_name_the_transformer_and_columns() -> None:
    with pytest.raises(pt.validate.InputValidationError) as error:
        AxiomaticReranker(Length())(frame().drop(columns=["text", "query"]))
    message = str(error.value)
    assert "AxiomaticReranker(axioms=Length())" in message
    assert "missing_columns=['query', 'text']" in message


def test_duplicate_docnos_within_a_query_are_named() -> None:
    inp = frame().assign(docno=["a", "a", "c", "d", "d"])
    with pytest.raises(ValueError, match=r"duplicate docno.*'q1': \['a'\], 'q2': \['d'\]"):
        AxiomaticReranker(Length())(inp)
    ok = frame().assign(docno=["a", "b", "c", "a", "b"])  # the same docno in different queries is fine
    assert len(AxiomaticReranker(Length())(ok)) == 5


def test_bad_configuration_fails_at_construction() -> None:
    with pytest.raises(ValueError, match="aggregation"):
        AxiomaticReranker(Length(), "plurality")
    with pytest.raises(ValueError, match="pivot"):
        AxiomaticReranker(Length(), pivot="best")
    with pytest.raises(TypeError, match="Axiom"):
        AxiomFeatures([Length(), 3])
    with pytest.raises(ValueError, match="at least one"):
        AxiomaticPreferences([])


@pytest.mark.parametrize("make", [
    lambda: AxiomaticReranker(Length()), lambda: AxiomaticPreferences(Length()), lambda: AxiomFeatures(Length())])
def test_empty_frames(make) -> None:
    out = make()(frame().iloc[:0])
    assert len(out) == 0
    assert list(out.columns) == pt.inspect.transformer_outputs(make(), list(frame().columns))


# -- preferences and features ------------------------------------------------------------------------
def test_preferences_one_row_per_ordered_pair() -> None:
    out = AxiomaticPreferences([Length(), Length(margin_fraction=0.6)])(frame())
    assert len(out) == 3 * 2 + 2 * 1
    assert list(out.columns) == ["qid", "query", "docno_a", "docno_b", "Length", "Length(margin_fraction=0.6)"]
    q1 = out[out.qid == "q1"].set_index(["docno_a", "docno_b"])
    assert q1["Length"].to_dict() == {
        ("a", "b"): 1, ("a", "c"): -1, ("b", "a"): -1, ("b", "c"): -1, ("c", "a"): 1, ("c", "b"): 1}
    assert q1.loc[("a", "b"), "Length(margin_fraction=0.6)"] == 0  # |2 - 1| <= 0.6 * 2


def test_features_are_normalised_net_wins_and_extend_existing_features() -> None:
    out = AxiomFeatures([Length(), Short()])(frame())
    assert np.stack(out["features"]).tolist() == [[0, 0], [-1, 1], [1, -1], [1, -1], [-1, 1]]
    assert out["docno"].tolist() == list("abcde")
    extended = AxiomFeatures(Length())(frame().assign(features=[np.array([7.0])] * 5))
    assert np.stack(extended["features"]).tolist() == [[7, 0], [7, -1], [7, 1], [7, 1], [7, -1]]


# -- composition --------------------------------------------------------------------------------------
def test_composes_with_pipeline_operators() -> None:
    source = pt.Transformer.from_df(frame().assign(score=[5.0, 4.0, 3.0, 2.0, 1.0]))
    topics = pd.DataFrame({"qid": ["q1", "q2"], "query": ["first", "second"]})
    piped = (source >> AxiomaticReranker(Length()))(topics)
    assert piped["docno"].tolist() == ["c", "a", "b", "d", "e"]
    top1 = (source >> AxiomaticReranker(Length()) % 1)(topics)
    assert top1["docno"].tolist() == ["c", "d"]
    summed = (source >> (AxiomaticReranker(Length()) + AxiomaticReranker(Short())))(topics)
    assert summed["score"].tolist() == [0.0] * 5  # Borda net wins of opposite axioms cancel
    union = (source >> (AxiomFeatures(Length()) ** AxiomaticReranker(Short())))(topics)
    assert np.stack(union.sort_values("docno")["features"]).tolist() == [[0, 0], [-1, 2], [1, -2], [1, -1], [-1, 1]]


def test_features_feed_pyterrier_learning_to_rank() -> None:
    linear_model = pytest.importorskip("sklearn.linear_model")
    answers = frame().assign(score=[0.0] * 5)
    qrels = pd.DataFrame({"qid": ["q1", "q1", "q1", "q2", "q2"], "docno": list("abcde"), "label": [1, 0, 2, 1, 0]})
    topics = pd.DataFrame({"qid": ["q1", "q2"], "query": ["first", "second"]})
    pipe = pt.Transformer.from_df(answers) >> AxiomFeatures(Length()) >> pt.ltr.apply_learned_model(
        linear_model.LinearRegression())
    pipe.fit(topics, qrels)
    ranked = pipe(topics)
    assert ranked.sort_values(["qid", "rank"])["docno"].tolist() == ["c", "a", "b", "d", "e"]


def test_preferences_explanation_column_agrees_with_the_preferences() -> None:
    out = AxiomaticPreferences([Length(), Short()], explain=True).transform(frame())
    assert list(out.columns) == ["qid", "query", "docno_a", "docno_b", "Length", "Short",
                                 "Length_explanation", "Short_explanation"]
    texts = dict(zip(frame()["docno"], frame()["text"], strict=True))
    for row in out.itertuples():
        for column in ("Length", "Short"):
            why = getattr(row, f"{column}_explanation")
            assert (why.first, why.second) == (row.docno_a, row.docno_b)
            assert why.decision == getattr(row, column)
            assert why.values == (len(texts[row.docno_a]), len(texts[row.docno_b]))
    assert pt.inspect.transformer_outputs(AxiomaticPreferences(Length(), explain=True),
                                          ["qid", "query", "docno", "text"])[-1] == "Length_explanation"
    empty = AxiomaticPreferences(Length(), explain=True).transform(frame().iloc[:0])
    assert list(empty.columns)[-1] == "Length_explanation"


# -- scores are a total order: evaluation never depends on docno names or row order -----------------------------
AGGREGATIONS = ("borda", "copeland", "kwiksort", "bradley_terry")


def tied_answers(seed: int = 0) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Three queries of eight answers whose lengths tie often (a first-stage rank orders them), with graded qrels."""
    rng = np.random.default_rng(seed)
    rows, qrels = [], []
    for q in range(3):
        for k in range(8):
            words = int(rng.integers(1, 4))
            docno = f"q{q}-d{k}"
            rows.append({"qid": str(q), "query": f"query {q}", "docno": docno, "text": " ".join(["w" * words] * words),
                         "rank": k, "score": 10.0 - k})
            qrels.append({"qid": str(q), "docno": docno, "label": int(rng.integers(0, 4))})
    return pd.DataFrame(rows), pd.DataFrame(qrels)


def renamed_and_permuted(answers: pd.DataFrame, qrels: pd.DataFrame, seed: int) -> tuple[pd.DataFrame, pd.DataFrame]:
    """The same data with docnos renamed (alphabetical order scrambled) and rows shuffled."""
    rng = np.random.default_rng(seed)
    names = dict(zip(answers["docno"], [f"x{v:03d}" for v in rng.permutation(len(answers))], strict=True))
    moved = answers.assign(docno=answers["docno"].map(names)).sample(frac=1.0, random_state=seed)
    return moved, qrels.assign(docno=qrels["docno"].map(names)).sample(frac=1.0, random_state=seed)


@pytest.mark.parametrize("aggregation", AGGREGATIONS)
@pytest.mark.parametrize("tie_breaker", [None, "ResponseLength"])
def test_scores_strictly_decrease_in_rank(aggregation: str, tie_breaker: str | None) -> None:
    from ir_rag_axioms import ResponseLength

    answers, _ = tied_answers()
    breaker = ResponseLength() if tie_breaker else None
    out = AxiomaticReranker([Length(), Short(margin_fraction=0.5)], aggregation, tie_breaker=breaker)(answers)
    for _, group in out.groupby("qid"):
        assert group["rank"].tolist() == list(range(len(group)))
        assert bool((np.diff(group["score"].to_numpy()) < 0).all()), group[["docno", "score", "rank"]]


@pytest.mark.parametrize("aggregation", AGGREGATIONS)
@pytest.mark.parametrize("tie_breaker", [None, "ResponseLength", "Short"])
def test_experiment_is_identical_with_docnos_renamed_and_rows_permuted(aggregation: str, tie_breaker: str) -> None:
    from ir_measures import AP, RR, P, nDCG

    from ir_rag_axioms import ResponseLength
    from ir_rag_axioms.evaluation import measures
    from ir_rag_axioms.evaluation.run_measures import KendallTau

    breaker = {None: None, "ResponseLength": ResponseLength(), "Short": Short()}[tie_breaker]
    metrics = [nDCG @ 3, nDCG @ 10, P @ 2, RR, AP, KendallTau, *measures()]
    answers, qrels = tied_answers()
    reranker = AxiomaticReranker([Length(), Short(margin_fraction=0.5)], aggregation, tie_breaker=breaker)

    def experiment(frame: pd.DataFrame, judged: pd.DataFrame) -> pd.DataFrame:
        topics = frame[["qid", "query"]].drop_duplicates()
        return pt.Experiment([pt.Transformer.from_df(frame) >> reranker], topics, judged, metrics, names=["axioms"],
                             perquery=True).sort_values(["qid", "measure"]).reset_index(drop=True)

    expected = experiment(answers, qrels)
    assert expected["value"].notna().sum() > 0 and expected["value"].nunique() > 3
    for seed in range(3):
        pd.testing.assert_frame_equal(experiment(*renamed_and_permuted(answers, qrels, seed)), expected)


def _readme_block(marker: str) -> str:
    import re

    from conftest import ROOT

    pages = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]  # the README's sections moved to docs/
    blocks = [b for page in pages for b in re.findall(r"^```python\n(.*?)^```", page.read_text(), re.S | re.M)]
    return next(code for code in blocks if marker in code)


@pytest.mark.shared
@pytest.mark.slow
def test_the_readme_pyterrier_example_is_identical_with_docnos_renamed_and_rows_permuted(
        data_dir, tmp_path, monkeypatch, capsys) -> None:
    import hashlib

    from ir_rag_axioms.datasets import runs

    code = _readme_block("pt.Experiment([answers, pipeline]")
    (tmp_path / "shared").symlink_to(data_dir.parent)
    (tmp_path / "repo").mkdir()
    monkeypatch.chdir(tmp_path / "repo")
    exec(compile(code, "README.md", "exec"), {})
    expected = capsys.readouterr().out

    def scrambled(docnos: pd.Series) -> pd.Series:
        return docnos.map(lambda d: "z" + hashlib.sha1(d.encode()).hexdigest()[:12])  # no relation to the old order

    answers, qrels = runs.nugget_answers, runs.nugget_qrels
    monkeypatch.setattr(runs, "nugget_answers", lambda path: (lambda f: f.assign(docno=scrambled(f["docno"])).sample(
        frac=1.0, random_state=7))(answers(path)))
    monkeypatch.setattr(runs, "nugget_qrels", lambda path: (lambda q: q.assign(docno=scrambled(q["docno"])).sample(
        frac=1.0, random_state=8))(qrels(path)))
    exec(compile(code, "README.md", "exec"), {})
    again = capsys.readouterr().out
    assert "nDCG@10" in expected and again == expected


# -- Pool: scores, pyterrier-rag's columns, docnos that meet the qrels -------------------------------------------
def _rag(answer: str, context: list[str] | None = None, **columns) -> pt.Transformer:
    """A stand-in for a pyterrier-rag pipeline: one answer per query in qanswer (and qcontext)."""
    def run(topics: pd.DataFrame) -> pd.DataFrame:
        out = topics.assign(qanswer=answer, **columns)
        if context is not None:
            out["qcontext"] = [context] * len(out)
        return out
    return pt.apply.generic(run)


TOPICS = pd.DataFrame({"qid": ["1", "2"], "query": ["first", "second"]})


def test_pool_keeps_a_score_and_both_column_conventions() -> None:
    from ir_rag_axioms.pyterrier import Pool

    pooled = Pool({"scored": _rag("a a a", ["p"], score=7.5), "ranked": _rag("b", rank=2),
                   "plain": _rag("c c", ["q"])})(TOPICS)
    assert pooled["score"].tolist() == [7.5, -2.0, 0.0] * 2  # own score, minus rank, the constant
    assert pooled["qanswer"].tolist() == pooled["text"].tolist() == ["a a a", "b", "c c"] * 2
    assert pooled["qcontext"].tolist() == pooled["context"].tolist() == [["p"], None, ["q"]] * 2
    ranked = (Pool({"plain": _rag("x"), "longer": _rag("x x")}) >> AxiomaticReranker(Length()))(TOPICS)
    assert ranked["docno"].tolist() == ["longer", "plain"] * 2 and "qanswer" in ranked.columns


def test_pool_docnos_from_a_template_or_a_function_and_a_short_repr() -> None:
    from ir_rag_axioms.pyterrier import Pool

    systems = {f"system-{k}": _rag(f"answer {k}") for k in range(44)}
    assert Pool(systems, docno="{qid}/{system}")(TOPICS)["docno"].iloc[44] == "2/system-0"
    made = Pool(systems, docno=lambda qid, system: f"{system}@{qid}")(TOPICS)
    assert made["docno"].iloc[1] == "system-1@1"
    assert repr(Pool(systems)) == "Pool(44 systems: system-0, system-1, system-2, ... 41 more)"
    with pytest.raises(ValueError, match="non-empty string"):
        Pool(systems, docno=lambda qid, system: "")(TOPICS)
    with pytest.raises(TypeError, match="template string or a function"):
        Pool(systems, docno=3)  # type: ignore[arg-type]


@pytest.mark.shared
def test_pool_docnos_meet_the_crowdrag25_qrels(data_dir) -> None:
    from ir_rag_axioms.datasets import crowd
    from ir_rag_axioms.evaluation.run_measures import check_run
    from ir_rag_axioms.pyterrier import Pool
    from ir_rag_axioms.pyterrier.pool import crowd_response_ids

    responses = crowd.load_crowd_responses(data_dir / "trec-rag-24-crowd")
    topic = responses["topic"].iloc[0]
    mine = responses[responses["topic"] == topic]
    systems = {name: _rag(text) for name, text in zip(mine["name"], mine["raw_text"], strict=True)}
    topics = pd.DataFrame({"qid": [topic], "query": [mine["query"].iloc[0]]})
    pooled = Pool(systems, docno=crowd_response_ids(data_dir / "trec-rag-24-crowd"))(topics)
    assert pooled["docno"].tolist() == mine["response"].tolist()  # the ids the crowd qrels and docpairs use
    qrels = pd.DataFrame({"qid": topic, "docno": mine["response"], "label": range(len(mine))})
    assert check_run(pooled, qrels) == 1.0
    with pytest.raises(ValueError, match="no response of system 'mystery'"):
        Pool({"mystery": _rag("x")}, docno=crowd_response_ids(data_dir / "trec-rag-24-crowd"))(topics)


def test_check_run_warns_inside_pt_experiment() -> None:
    from ir_measures import nDCG

    from ir_rag_axioms.evaluation.run_measures import KendallTau, RunWarning, check_run
    from ir_rag_axioms.pyterrier import Pool

    pool = Pool({"a": _rag("x"), "b": _rag("x x")})
    qrels = pd.DataFrame({"qid": ["1", "1", "2", "2"], "docno": ["1/a", "1/b", "2/a", "2/b"], "label": [0, 2, 1, 0]})
    with pytest.warns(RunWarning, match="share no docno with the qrels"):
        table = pt.Experiment([pool >> AxiomaticReranker(Length())], TOPICS, qrels, [nDCG @ 5, KendallTau])
    assert table["nDCG@5"].iloc[0] == 0.0  # what the warning is about
    with pytest.warns(RunWarning, match="one score for all their answers"):
        pt.Experiment([Pool({"a": _rag("x"), "b": _rag("x x")}, docno="{qid}/{system}")], TOPICS, qrels,
                      [nDCG @ 5, KendallTau])
    with pytest.warns(RunWarning, match="the qrels have 1 queries the run lacks"):
        check_run(Pool({"a": _rag("x")}, docno="{qid}/{system}")(TOPICS.head(1)), qrels)


# -- MetricScorer: pointwise on any frame, ir_measures measures for its columns ----------------------------------
def test_metric_scorer_is_pointwise_on_a_single_systems_output() -> None:
    from ir_rag_axioms import AnswerRelevancy, Faithfulness
    from ir_rag_axioms.pyterrier.metrics import MetricScorer

    passages = ["Tides are caused by the gravitational pull of the Moon and the Sun."]
    single = pd.DataFrame({"qid": ["1", "2"], "query": ["What causes tides?", "What causes tides?"],
                           "qanswer": ["Tides are caused by the gravitational pull of the Moon and the Sun.",
                                       "Tides come from wind."], "qcontext": [passages, None]})  # no docno
    scorer = MetricScorer([AnswerRelevancy(), Faithfulness()])
    out = scorer(single)
    assert list(out.columns[:4]) == list(single.columns) and len(out) == 2
    assert out["faithfulness_level"].iloc[0] == 5.0 and np.isnan(out["faithfulness_score"].iloc[1])  # no context
    alone = pd.concat([scorer(single.iloc[[k]]) for k in range(2)], ignore_index=True)  # pointwise: row by row
    pd.testing.assert_frame_equal(alone, out)
    pooled = pd.concat([single.assign(docno="a"), single.assign(docno="b", qcontext=[None, passages])])
    both = scorer(pooled)  # each row its own context, even when the contexts of a query differ
    assert both["faithfulness_level"].tolist()[:2] == [5.0, 5.0] or np.isnan(both["faithfulness_score"].iloc[1])
    assert np.isnan(both["faithfulness_score"].iloc[2]) and not np.isnan(both["faithfulness_score"].iloc[3])


def test_metric_measures_read_the_top_answer_in_pt_experiment() -> None:
    from ir_rag_axioms import Faithfulness
    from ir_rag_axioms.evaluation import UndefinedMeasureWarning
    from ir_rag_axioms.pyterrier.metrics import MetricScorer

    passages = ["Tides are caused by the gravitational pull of the Moon and the Sun."]
    answers = pd.DataFrame({"qid": ["1", "1", "2", "2"], "query": "What causes tides?", "docno": list("abcd"),
                            "text": [passages[0], "Tides come from wind.", "Tides come from wind.", passages[0]],
                            "context": [passages, passages, None, None], "score": [2.0, 1.0, 2.0, 1.0]})
    scorer = MetricScorer([Faithfulness()])
    qrels = pd.DataFrame({"qid": ["1", "2"], "docno": ["a", "d"], "label": [1, 1]})
    topics, system = answers[["qid", "query"]].drop_duplicates(), pt.Transformer.from_df(answers) >> scorer
    with pytest.warns(UndefinedMeasureWarning, match=r"undefined for 1 of 2 queries .*no context.*mean of the 1 "
                                                     r"others \(1\)"):
        table = pt.Experiment([system], topics, qrels, scorer.measures(), names=["run"], perquery=True)
    assert table.set_index("qid").loc["1", "value"] == scorer(answers)["faithfulness_score"].iloc[0] == 1.0
    assert table.set_index("qid").loc["2", "value"] == 1.0  # its top answer has no context: the others' mean
    from ir_rag_axioms.evaluation import Experiment

    with pytest.warns(UndefinedMeasureWarning, match="faithfulness_score is undefined for up to 1 queries"):
        ours = Experiment({"run": system}, topics, qrels, scorer.measures())
    assert ours.loc[0, "faithfulness_score"] == 1.0 and ours.loc[0, "faithfulness_score undefined"] == 1


def test_the_reranker_refuses_pyterrier_cachings_scorer_cache(tmp_path) -> None:
    caching = pytest.importorskip("pyterrier_caching", reason="pyterrier-caching is not installed (the rag extra)")
    reranker = AxiomaticReranker(Length())
    assert reranker.depends_on_candidate_set and AxiomFeatures(Length()).depends_on_candidate_set
    cached = caching.ScorerCache(tmp_path / "cache", reranker)
    with pytest.raises(TypeError, match="depend on the whole candidate set .*Analysis\\(store=DIR\\)"):
        cached(frame())
    pd.testing.assert_frame_equal(reranker(frame()), AxiomaticReranker(Length())(frame()))  # directly: fine


@pytest.mark.parametrize("aggregation", ["borda", "copeland", "kwiksort", "bradley_terry"])
def test_axioms_that_decide_nothing_leave_the_ranking_to_the_others(aggregation):
    from ir_rag_axioms import CONS2, CORR1, COV1
    from ir_rag_axioms.pyterrier.transformers import AbstentionWarning

    frame = pd.DataFrame({"qid": "q1", "query": "What causes tides?", "docno": ["a", "b", "c"], "rank": [0, 1, 2],
                          "text": ["The sea.", "Tides are caused by the Moon, the Sun and the rotation of the Earth.",
                                   "The Moon and the Sun."]})  # no context (CONS2), no citation (CORR1)
    with pytest.warns(AbstentionWarning, match=r"CONS2\(\), CORR1\(\) decided no pair .* they cast no vote"):
        out = AxiomaticReranker([COV1, CONS2, CORR1], aggregation)(frame)
    assert out["docno"].tolist() == ["b", "c", "a"]  # COV1's order, not the input order a, b, c
    assert AxiomaticReranker(COV1, aggregation)(frame)["docno"].tolist() == ["b", "c", "a"]
    assert out["decided"].tolist() == [3, 3, 3]
