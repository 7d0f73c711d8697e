"""Candidates of a registered dataset: topics in, each topic's responses out, as the rerankers take them.

``pt.get_dataset("irds:ir-rag-axioms/crowdrag-25").get_topics() >> Candidates("irds:ir-rag-axioms/crowdrag-25")``
gives one row per response: qid, query, docno, text, context, system, rank, score. The input order is defined:
each topic's responses by docno (rank 0, 1, ..., score = -rank), so that nothing depends on how a file or a
docs store happens to order them, and shuffling the rows changes no result downstream.
"""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np
import pandas as pd
import pyterrier as pt

from ir_rag_axioms.pyterrier.equality import ByParameters

CANDIDATE_COLUMNS = ("qid", "query", "docno", "text", "context", "system", "rank", "score")
"""The columns Candidates gives, before the topics' other columns."""


def _irds(dataset: Any) -> Any:
    """The ir_datasets dataset of a name (``irds:`` prefix optional), a PyTerrier dataset or an ir_datasets one."""
    import ir_datasets

    from ir_rag_axioms.datasets import irds

    if isinstance(dataset, str):
        name = irds.canonical_name(dataset.removeprefix("irds:"))
        irds._register_defaults()
        try:
            return ir_datasets.load(name)
        except KeyError:
            raise ValueError(f"Candidates: no dataset {dataset!r} is registered; the package registers "
                             f"irds:{irds.CROWD_NAME} and irds:{irds.NUGGETS_NAME} (and its /<score> variants)"
                             ) from None
    ref = getattr(dataset, "irds_ref", None)
    found = ref() if callable(ref) else dataset
    if not (hasattr(found, "docs_iter") and hasattr(found, "docs_cls")):
        raise TypeError(f"Candidates: {dataset!r:.80} is not a dataset with documents; give its name, e.g. "
                        f"'irds:{irds.CROWD_NAME}', or pt.get_dataset(...) of it")
    return found


def _rows(dataset: Any) -> dict[str, list[tuple[str, str, tuple[str, ...] | None, str]]]:
    """Each topic's (docno, text, context, system), by docno: ``{qid: [...]}``."""
    fields = dataset.docs_cls()._fields
    if "query_id" not in fields:
        raise ValueError(f"Candidates: the documents of {dataset!r:.80} name no topic (query_id): they are not the "
                         "responses of a RAG dataset")
    out: dict[str, list[tuple[str, str, tuple[str, ...] | None, str]]] = {}
    for doc in dataset.docs_iter():
        context = tuple(doc.context) if "context" in fields and doc.context else None
        system = str(getattr(doc, "name", None) or getattr(doc, "run_id", None) or "")
        out.setdefault(str(doc.query_id), []).append((str(doc.doc_id), str(doc.text), context, system))
    return {qid: sorted(rows) for qid, rows in out.items()}


class Candidates(ByParameters, pt.Transformer):
    """Each input topic's responses of a registered dataset: qid, query, docno, text, context, system, rank, score.

    Rows: per topic in input order, its responses by docno (rank 0, 1, ...; score = -rank: the defined input order
    of the rerankers); ``context`` the response's own passages (None without); ``system`` the response's name
    (CrowdRAG-25: kind-style, nuggets: run_id). The topics' other columns are kept; a topic the dataset has no
    response for gives no row, with a warning naming it.
    """

    schematic: dict[str, Any] = {"label": "Candidates", "help_url": None}

    def __init__(self, dataset: Any) -> None:
        """Candidates of ``dataset``: a name, ``pt.get_dataset(...)`` of it, or an ir_datasets dataset.

        A name is ``"irds:ir-rag-axioms/crowdrag-25"`` (the prefix optional); any dataset whose documents have a
        ``query_id`` works.
        """
        self.dataset = dataset
        self._index: dict[str, list[tuple[str, str, tuple[str, ...] | None, str]]] | None = None
        _irds(dataset)  # an unknown name or a dataset without documents: refused here, before any work

    def __repr__(self) -> str:
        name = self.dataset if isinstance(self.dataset, str) else getattr(self.dataset, "_irds_id", None)
        return f"Candidates({name or type(self.dataset).__name__!r})"

    def _responses(self) -> dict[str, list[tuple[str, str, tuple[str, ...] | None, str]]]:
        if self._index is None:
            self._index = _rows(_irds(self.dataset))
        return self._index

    def transform_inputs(self) -> list[list[str]]:
        """What ``pt.inspect`` reports as the input: topics (qid, query)."""
        return [["qid", "query"]]

    def transform_outputs(self, input_columns: list[str]) -> list[str]:
        """``CANDIDATE_COLUMNS``, then the topics' other columns (without reading the dataset)."""
        pt.validate.query_frame(input_columns, extra_columns=["query"], context=self)
        return list(CANDIDATE_COLUMNS) + [c for c in input_columns if c not in CANDIDATE_COLUMNS]

    def transform(self, inp: pd.DataFrame) -> pd.DataFrame:
        """One row per response of each input topic, topics in input order, responses by docno."""
        pt.validate.query_frame(inp, extra_columns=["query"], context=self)
        columns = self.transform_outputs(list(inp.columns))
        kept = [c for c in inp.columns if c not in CANDIDATE_COLUMNS]
        responses = self._responses()
        missing = [str(q) for q in pd.unique(inp["qid"].astype(str)) if str(q) not in responses]
        if missing:
            warnings.warn(f"{self!r}: {len(missing)} of {inp['qid'].nunique()} topics have no responses in the "
                          f"dataset and give no rows (e.g. qid {missing[0]!r})", stacklevel=2)
        records: list[dict[str, Any]] = []
        for _, topic in inp.drop_duplicates("qid").iterrows():
            qid = str(topic["qid"])
            for rank, (docno, text, context, system) in enumerate(responses.get(qid, [])):
                records.append({"qid": qid, "query": topic["query"], "docno": docno, "text": text,
                                "context": list(context) if context else None, "system": system, "rank": rank,
                                "score": float(-rank), **{c: topic[c] for c in kept}})
        out = pd.DataFrame.from_records(records, columns=columns)
        return out.astype({"rank": np.int64, "score": np.float64})
