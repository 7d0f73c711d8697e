"""Nothing analysed twice in one process: the process default analysis keeps per-text results across calls.

The spaCy and encoder work is counted (texts through ``nlp.pipe``, strings through the encoder), never timed.
"""

from __future__ import annotations

from collections import Counter

import numpy as np
import pandas as pd
import pyterrier as pt
import pytest
from ir_measures import nDCG

from ir_rag_axioms import COH1, CORR1, COV2, settings
from ir_rag_axioms.analysis import cache, workers
from ir_rag_axioms.analysis.cache import Analysis, default_analysis
from ir_rag_axioms.analysis.resources import load_spacy
from ir_rag_axioms.model import GenerationRequest, GenerationResponse
from ir_rag_axioms.pyterrier import AxiomaticReranker

AXIOMS = [COH1, CORR1, COV2]
"""A parse-reading (COH1), a lemma-reading (CORR1) and an encoder-reading (COV2) axiom."""


def answers() -> pd.DataFrame:
    rows = []
    context = ["Sunlight is scattered by the air; blue light scatters most.", "Bees turn nectar into honey."]
    for q, query in (("q1", "why is the sky blue"), ("q2", "how do bees make honey")):
        for i in range(3):
            rows.append({"qid": q, "query": query, "docno": f"{q}-{i}", "context": context, "text": (
                f"Answer {i} about {query}. " + " ".join(["Light scatters in the air and the sky looks blue.",
                                                          "Bees collect nectar from flowers.",
                                                          "Honey is stored in the hive."][: i + 1]))})
    return pd.DataFrame(rows)


class Work:
    """Counts the texts spaCy parses and the strings the encoder embeds."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.parsed: Counter[str] = Counter()
        self.encoded: Counter[str] = Counter()
        nlp = load_spacy()
        pipe = nlp.pipe

        def counting_pipe(texts, *args, **kwargs):
            texts = list(texts)
            self.parsed.update(texts)
            return pipe(texts, *args, **kwargs)

        encode = workers.encode

        def counting_encode(model, strings, *args, **kwargs):
            self.encoded.update(strings)
            return encode(model, strings, *args, **kwargs)

        monkeypatch.setattr(nlp, "pipe", counting_pipe)
        monkeypatch.setattr(workers, "encode", counting_encode)
        monkeypatch.setenv(settings.WORKERS_ENV, "1")  # spaCy in-process, where the counting pipe runs

    def total(self) -> int:
        return sum(self.parsed.values()) + sum(self.encoded.values())


@pytest.fixture
def fresh_default():
    """A new process default analysis for the test, closed afterwards."""
    default_analysis().close()
    yield
    default_analysis().close()


def test_a_second_and_third_aggregation_analyse_nothing(monkeypatch, fresh_default) -> None:
    work = Work(monkeypatch)
    frame = answers()
    first = AxiomaticReranker(AXIOMS, "borda")(frame)
    done = work.total()
    assert done > 0 and work.parsed and work.encoded
    for aggregation in ("kwiksort", "copeland"):
        AxiomaticReranker(AXIOMS, aggregation)(frame)
    assert work.total() == done  # nothing parsed or embedded again
    assert AxiomaticReranker(AXIOMS, "borda")(frame).equals(first)  # and the same result from the kept analysis


def test_an_experiment_of_three_aggregations_analyses_each_text_once(monkeypatch, fresh_default) -> None:
    frame = answers()
    with Analysis(store=None):  # the work of one reranker alone, in an analysis of its own
        alone = Work(monkeypatch)
        AxiomaticReranker(AXIOMS, "borda")(frame)
    one_reranker = (Counter(alone.parsed), Counter(alone.encoded))
    monkeypatch.undo()
    work = Work(monkeypatch)
    source = pt.Transformer.from_df(frame)
    topics = frame[["qid", "query"]].drop_duplicates("qid")
    qrels = pd.DataFrame({"qid": frame["qid"], "docno": frame["docno"], "label": [0, 1, 2] * 2})
    systems = [source >> AxiomaticReranker(AXIOMS, a) for a in ("borda", "kwiksort", "copeland")]
    table = pt.Experiment(systems, topics, qrels, [nDCG @ 3], names=["borda", "kwiksort", "copeland"])
    assert len(table) == 3
    assert (work.parsed, work.encoded) == one_reranker  # the same work as one reranker, not three times it
    assert max(work.encoded.values()) == 1  # no string embedded twice


def test_margin_changes_reuse_the_analysis(monkeypatch, fresh_default) -> None:
    work = Work(monkeypatch)
    request = GenerationRequest("q", "why is the sky blue", ["Light scatters in the air.", "The sky is blue."])
    responses = [GenerationResponse("a", "The sky is blue because light scatters."),
                 GenerationResponse("b", "Blue. The air scatters short waves of light more than long ones.")]
    for axiom in AXIOMS:
        axiom.preferences(request, responses)
    done = work.total()
    for fraction in (0.0, 0.05, 0.2, 0.5):  # as a GridScan over margins would
        for axiom in AXIOMS:
            axiom(margin_fraction=fraction).preferences(request, responses)
    assert work.total() == done


def test_the_default_is_bounded_by_the_settings_and_can_be_closed(monkeypatch, fresh_default) -> None:
    default_analysis().close()
    monkeypatch.setenv(settings.ANALYSIS_MAX_TEXTS_ENV, "5")
    bounded = default_analysis()
    assert bounded.max_texts == 5 and bounded.max_mb == 128.0
    request = GenerationRequest("q", "a query")
    for i in range(12):  # axiom.preferences() in a loop: the default never holds more than its bound
        CORR1.preferences(request, [GenerationResponse("a", f"text number {i}"), GenerationResponse("b", f"{i} x")])
        assert len(bounded) <= 5
    assert default_analysis() is bounded
    bounded.close()
    assert len(bounded) == 0 and default_analysis() is not bounded


def test_the_byte_bound_drops_the_least_recently_used_texts() -> None:
    analysis = Analysis(store=None, max_texts=None, max_mb=0.01)  # about 10 KB
    vector = np.zeros(1000, dtype=np.float32)  # 4 KB
    for text in ("a", "b", "c"):
        analysis.memo(text, ("vector",), lambda: vector)
    assert len(analysis) == 2 and not analysis.has("a", ("vector",)) and analysis.has("c", ("vector",))
    assert 8_000 < analysis.size_mb() * 2**20 < 10_486
    analysis.memo("b", ("vector",), lambda: vector)  # b is now the most recent: c goes next
    analysis.memo("d", ("vector",), lambda: vector)
    assert analysis.has("b", ("vector",)) and not analysis.has("c", ("vector",))
    analysis.clear()
    assert len(analysis) == 0 and analysis.size_mb() == 0
    assert Analysis(store=None, max_texts=None, max_mb=None).max_mb is None


@pytest.mark.parametrize(("name", "value"), [(settings.ANALYSIS_MAX_TEXTS_ENV, "many"),
                                              (settings.ANALYSIS_MAX_MB_ENV, "-1")])
def test_bad_bound_settings_are_named(monkeypatch, name, value) -> None:
    monkeypatch.setenv(name, value)
    with pytest.raises(ValueError, match=name):
        Analysis(store=None)


@pytest.mark.parametrize("bad", [0, -1.0, float("nan"), "10"])
def test_bad_max_mb_is_refused(bad) -> None:
    with pytest.raises((TypeError, ValueError), match="max_mb"):
        Analysis(store=None, max_mb=bad)


def test_the_default_analysis_is_public_and_a_with_block_overrides_it(fresh_default) -> None:
    import ir_rag_axioms

    assert ir_rag_axioms.default_analysis is cache.default_analysis
    process = default_analysis()
    with Analysis(store=None) as mine:
        assert default_analysis() is mine
    assert default_analysis() is process


def test_the_default_sees_a_cache_folder_set_after_it_was_created(monkeypatch, tmp_path, fresh_default) -> None:
    monkeypatch.delenv("IR_RAG_AXIOMS_CACHE", raising=False)
    analysis = default_analysis()
    assert analysis.store is None
    monkeypatch.setenv("IR_RAG_AXIOMS_CACHE", str(tmp_path / "cache"))
    assert analysis.store is not None and analysis.store.directory == tmp_path / "cache"
    assert Analysis(store=None).store is None
