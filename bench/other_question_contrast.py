"""Does an answer to another question sit closer to a template question on the query's subject than to the query?

Run: ``HF_HUB_OFFLINE=1 python bench/other_question_contrast.py [SUFFIX ...]`` (default the development batches
``relevancy_cases.json`` and ``_2`` to ``_6``; a minute). For each answer of the kinds below: the encoder similarity of
query and answer, and of the answer and the closest of ``TEMPLATES`` on each subject of the query (its noun chunks less
question words and articles). Prints the ROC AUC of cos(query, answer) and of cos(query, answer) minus the closest
template's, relevant answers against answers to another question, and per kind the share of answers the query beats.
Result and the end-to-end figures of a rule built on it (not shipped): docs/metrics-development.md.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import numpy as np
from sklearn.metrics import roc_auc_score

DATA = Path(__file__).resolve().parents[1] / "tests" / "data"
TEMPLATES = ("what is {}", "what is the history of {}", "when did {} start", "who created {}", "how does {} work",
             "why is {} important", "what are the benefits of {}", "what are the risks of {}",
             "how much does {} cost", "where is {}", "what are the effects of {}", "what causes {}",
             "how many {} are there", "what are the types of {}", "where does {} come from", "who uses {}")
KINDS = ("other_question", "direct", "direct_short", "partial", "list", "hedged")
_NOT_SUBJECT = frozenset({"what", "which", "who", "how", "the", "a", "an"})


def main() -> None:
    """Print the two AUCs and the per-kind shares."""
    from ir_rag_axioms.analysis.resources import load_sentence_encoder, load_spacy

    suffixes = sys.argv[1:] or ["", "_2", "_3", "_4", "_5", "_6"]
    rows = [(c["query"], c["answer"], c["kind"]) for s in suffixes
            for c in json.loads((DATA / f"relevancy_cases{s}.json").read_text())["cases"] if c["kind"] in KINDS]
    nlp = load_spacy()
    subjects = [[" ".join(w for w in chunk.text.lower().split() if w not in _NOT_SUBJECT)
                 for chunk in nlp(q).noun_chunks if chunk.root.pos_ != "PRON"] for q, _, _ in rows]
    templates = [[t.format(s) for s in found if s for t in TEMPLATES] or [q] for found, (q, _, _) in zip(
        subjects, rows, strict=True)]
    texts = sorted({x for found in templates for x in found} | {r[0] for r in rows} | {r[1] for r in rows})
    vector = dict(zip(texts, load_sentence_encoder().encode(texts, batch_size=32, normalize_embeddings=True),
                      strict=True))
    relevant = np.array([kind != "other_question" for _, _, kind in rows])
    cos = np.array([vector[q] @ vector[a] for q, a, _ in rows])
    closest = np.array([max(vector[t] @ vector[a] for t in found) for found, (_, a, _) in zip(templates, rows,
                                                                                            strict=True)])
    contrast = roc_auc_score(relevant, cos - closest)
    print(f"{len(rows)} answers, {relevant.sum()} relevant; ROC AUC cos(query, answer) "
          f"{roc_auc_score(relevant, cos):.3f}, minus the closest template {contrast:.3f}")
    for kind in KINDS:
        mask = np.array([k == kind for _, _, k in rows])
        print(f"{kind:15s} {mask.sum():3d} answers, the query closer than every template: "
              f"{(cos >= closest)[mask].mean():.2f}")


if __name__ == "__main__":
    main()
