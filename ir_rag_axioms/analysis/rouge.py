"""ROUGE-Lsum between a response and its context, with Punkt sentence splitting, memoised per pair of texts."""

from __future__ import annotations

from functools import lru_cache

from ir_rag_axioms.analysis.cache import Analysis, digest, memo_key


@lru_cache(maxsize=1)
def _scorer(use_stemmer: bool):
    from rouge_score_rs import RougeScorer

    return RougeScorer(["rougeLsum"], use_stemmer=use_stemmer)


def punkt_sentences(text: str, *, analysis: Analysis) -> str:
    """The text re-joined one Punkt sentence per line (the summary split of rouge-score's ``split_summaries``)."""
    import punkt

    def split() -> str:
        return "\n".join(" ".join(s.split()) for s in punkt.sent_tokenize(text) if s.strip())

    return analysis.memo(text, memo_key("punkt"), split)


def rouge_lsum_f(target: str, prediction: str, use_stemmer: bool = False, *, analysis: Analysis) -> float:
    """ROUGE-Lsum F-measure of ``prediction`` against ``target`` (rouge-score's tokenizer, Punkt sentences)."""

    def score() -> float:
        result = _scorer(use_stemmer).score(punkt_sentences(target, analysis=analysis),
                                            punkt_sentences(prediction, analysis=analysis))
        return float(result["rougeLsum"].fmeasure)

    key = memo_key("rougeLsum", "rouge-score-rs", use_stemmer, digest(target))
    return analysis.memo(prediction, key, score, persist=True)
