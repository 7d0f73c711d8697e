"""The human-labelled claim sets the claim verifier is fitted and checked on (``../shared/data/external``, own batches).

Each example: ``(dataset, claim, passages, label)`` with label "supported", "unsupported" or "contradicted". Label
conventions (external/README.md): faithful = WiCE ``supported``, SummEdits ``1``, BEGIN ``Fully attributable``,
FaithDial ``entailment``, DialFact ``SUPPORTS``; contradicted = DialFact ``REFUTES``, a SummEdits edit other than an
inserted fact, a wrong case of the project's batches; everything else not generic is unsupported. Samples are seeded.
"""

from __future__ import annotations

import ast
import csv
import json
import random
from collections.abc import Iterator
from pathlib import Path

Example = tuple[str, str, tuple[str, ...], str]
ROOT = Path(__file__).resolve().parents[1]
EXTERNAL = ROOT.parent / "shared/data/external"
LICENCES = {"wice": "ODC-BY (annotations), CC BY-SA (Wikipedia text)", "summedits": "Apache-2.0",
            "begin": "CC BY 4.0 (wow, cmu-dog), CDLA-Sharing-1.0 (topicalchat)", "faithdial": "MIT",
            "dialfact": "BSD-3-Clause", "project": "the project's own batches (tests/data/contradictions*.json)"}


def wice(root: Path) -> Iterator[Example]:
    """WiCE dev, one row per claim: the gold sentences with their distractors (oracle chunks)."""
    seen: set[str] = set()
    for line in (root / "wice/oracle_chunks/claim/dev.jsonl").read_text().splitlines():
        row = json.loads(line)
        meta = row["meta"] if isinstance(row["meta"], dict) else ast.literal_eval(row["meta"])
        if meta["id"] in seen:
            continue
        seen.add(meta["id"])
        evidence = row["evidence"] if isinstance(row["evidence"], list) else ast.literal_eval(row["evidence"])
        yield "wice", row["claim"], (" ".join(evidence),), "supported" if row["label"] == "supported" else "unsupported"


def summedits(root: Path, docs: int, rng: random.Random) -> Iterator[Example]:
    """SummEdits: every edited summary of ``docs`` documents drawn at random (per domain in turn)."""
    by_doc: dict[str, list[dict]] = {}
    for path in sorted((root / "summedits").glob("summedits_*.json")):
        for row in json.loads(path.read_text()):
            by_doc.setdefault(row["doc"], []).append(row)
    for doc in rng.sample(sorted(by_doc), min(docs, len(by_doc))):
        for row in by_doc[doc]:
            edits = str(row["edit_types"])
            label = ("supported" if str(row["label"]) == "1" else
                     "unsupported" if "hallucinated" in edits else "contradicted")
            yield "summedits", row["summary"], (doc,), label


def begin(root: Path) -> Iterator[Example]:
    """BEGIN dev (WoW, CMU-DoG, TopicalChat), Generic left out."""
    csv.field_size_limit(10**8)
    for path in sorted((root / "begin").glob("*/*.tsv")):
        with path.open() as handle:
            for row in csv.DictReader(handle, delimiter="\t", quoting=csv.QUOTE_NONE):
                label = row["begin_label"].strip()
                if label in ("Fully attributable", "Not fully attributable"):
                    yield "begin", row["response"], (row["knowledge"],), (
                        "supported" if label == "Fully attributable" else "unsupported")


def faithdial(root: Path) -> Iterator[Example]:
    """FaithDial audit: entailment vs any hallucination; generic, uncooperative and blank left out."""
    for path in sorted((root / "faithdial-audit").glob("*/*.csv")):
        with path.open() as handle:
            for row in csv.DictReader(handle):
                label = (row.get("begin_label") or row.get("BEGIN") or "").strip().lower()
                response = next((v for k, v in row.items() if k in ("response", "ctrl", "doha", "gpt2")), "") or ""
                knowledge = row.get("knowledge") or row.get("evidence") or ""
                if "halluc" in label:
                    yield "faithdial", response, (knowledge,), "unsupported"
                elif label == "entailment":
                    yield "faithdial", response, (knowledge,), "supported"


def dialfact(root: Path) -> Iterator[Example]:
    """DialFact's test sample: the response against its evidence snippets."""
    labels = {"SUPPORTS": "supported", "REFUTES": "contradicted", "NOT ENOUGH INFO": "unsupported"}
    for line in (root / "dialfact-sample/testsmall.jsonl").read_text().splitlines():
        row = json.loads(line)
        found = row["evidence_list"]
        found = found if isinstance(found, list) else ast.literal_eval(found)
        yield "dialfact", row["response"], tuple(str(e[2]) for e in found) or ("",), labels[row["response_label"]]


def project() -> Iterator[Example]:
    """The project's labelled batches: a faithful answer is supported, an unfaithful one contradicted."""
    for path in sorted((ROOT / "tests/data").glob("contradictions*.json")):
        for case in json.loads(path.read_text())["cases"]:
            if "faithfulness" in case["expected"]:
                label = "supported" if case["expected"]["faithfulness"] else (
                    "unsupported" if "addition" in case["kind"] else "contradicted")
                yield "project", case["answer"], (case["context"],), label


UNSUPPORTED_KINDS = ("invented-fact", "invented-attribute")
"""The kinds of wrong statement of the realistic batches that add to the passages rather than contradict them."""


def realistic(path: Path, root: Path = EXTERNAL) -> list[Example]:
    """A batch of realistic RAG answers (``tests/data/rag_answers_*.json``), each against its topic's 20 passages of
    CrowdRAG-25; dataset ``rag-<batch>``. Held out: never fitted on (``fit_verifier.py --held-out``)."""
    from ir_rag_axioms.datasets import topic_passages  # the package only here: the other sets read without it

    passages = topic_passages(root.parent / "trec-rag-24-crowd")
    name = "rag-" + path.stem.rsplit("_", 1)[-1]
    return [(name, case["answer"], passages[case["topic"]], "supported" if case["faithful"] else
             "unsupported" if case["kind"] in UNSUPPORTED_KINDS else "contradicted")
            for case in json.loads(path.read_text())["cases"]]


def examples(root: Path = EXTERNAL, cap: int = 300, seed: int = 0, summedits_docs: int = 40,
             project_cap: int = 500) -> list[Example]:
    """Every set, each capped at ``cap`` examples drawn with ``seed`` (WiCE and DialFact whole, the batches
    ``project_cap``, SummEdits every edit of ``summedits_docs`` documents)."""
    rng = random.Random(seed)
    out: list[Example] = []
    for found in (list(wice(root)), list(summedits(root, summedits_docs, rng)), list(begin(root)),
                  list(faithdial(root)), list(dialfact(root)), list(project())):
        limit = project_cap if found[0][0] == "project" else len(found) if found[0][0] in ("wice", "dialfact") else cap
        keep = found if len(found) <= limit else rng.sample(found, limit)
        out += [e for e in keep if e[1].strip() and any(p.strip() for p in e[2])]
    return out
