"""Three toy RAG pipelines over two topics (grounded, partly grounded, ungrounded), for the PyTerrier workflow tests.

Stand-ins for pyterrier-rag pipelines, so that these tests run without pyterrier-rag (an optional extra);
tests/test_pyterrier_rag.py runs its real Concatenator and Reader (OpenAIBackend against a loopback server).
"""

from __future__ import annotations

import pandas as pd
import pyterrier as pt

PASSAGES = {
    "1": ["The Eiffel Tower in Paris was completed in 1889 for the World's Fair.",
          "Gustave Eiffel's company designed and built the tower from wrought iron."],
    "2": ["Photosynthesis converts light energy, water and carbon dioxide into glucose and oxygen.",
          "It takes place in the chloroplasts of plant cells, which contain chlorophyll."],
}


OFF_TOPIC = ["Bananas are yellow fruits that are rich in potassium and grow in tropical climates."]


TOPICS = pd.DataFrame({"qid": ["1", "2"], "query": ["When was the Eiffel Tower built?", "What is photosynthesis?"]})


def rag(answer, context):
    """A toy pyterrier-rag pipeline: one ``qanswer`` and its ``qcontext`` per query, no docno."""
    return pt.apply.generic(lambda topics: topics.assign(
        qanswer=[answer(q) for q in topics["qid"]], qcontext=[context(q) for q in topics["qid"]]))


PIPELINES = {
    # copies its own retrieved passages: the best-supported answer
    "grounded": rag(lambda q: " ".join(PASSAGES[q]), lambda q: PASSAGES[q]),
    # half of it supported
    "partial": rag(lambda q: PASSAGES[q][0] + " It is also very popular with tourists and students.",
                    lambda q: PASSAGES[q]),
    # the same facts, but generated from an off-topic context: unsupported by what it retrieved
    "ungrounded": rag(lambda q: " ".join(PASSAGES[q]), lambda q: OFF_TOPIC),
}
