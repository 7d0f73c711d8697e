"""Consensus nuggets: the claims that many independent systems state about a topic, and each answer's nugget score.

The TREC RAG nuggets are the facts an answer should contain; without an assessor (or an LLM that writes them), the
facts that many systems state independently are a stand-in. Per topic:

1. **Claims.** Each answer is split into sentences (Punkt); a sentence of fewer than ``min_words`` words (a heading,
   "Note:") is no claim. Citation markers (``[1]``) are removed before embedding.
2. **Embedding.** Every distinct claim is embedded once by the project's sentence encoder (``Analysis.embed``,
   all-MiniLM-L6-v2 by default; unit vectors).
3. **Grouping.** The topic's claims are grouped by scikit-learn's ``AgglomerativeClustering`` (``metric="cosine"``,
   ``linkage="average"``, ``distance_threshold`` one value for every topic): a group's claims are on average
   within that cosine distance of each other.
4. **Voices.** Near-duplicate answers of one team must not outvote the others: the runs of a topic are joined into
   one *voice* when their answers are near-copies (the Jaccard overlap of the two answers' word 3-grams, lowercased,
   is at least ``duplicate_overlap``: shared wording, not shared facts, which paraphrases do not reach) or when
   ``teams`` maps them to one team (e.g. ``team_of_run``, the run id's prefix). Voices are the connected groups.
   A group's *support* is the number of distinct voices whose claims are in it.
5. **Nuggets.** A group with support >= ``min_support`` (at least 2: a claim of one run, or of one team's
   near-copies, never counts) is a nugget; it is ``vital`` when its support is at least ``vital_share`` of the
   topic's voices (and at least ``min_support``), else ``okay``. Its text is the group's medoid claim.
6. **Assignment.** An answer *supports* a nugget when one of its claims is in the nugget's group (the evidence is
   that claim), *partially supports* it when its closest claim is within ``partial_similarity`` cosine of one of the
   group's claims (the evidence is that closest claim), else not.
7. **Scores**, as the track's: ``vital_strict`` = supported vital nuggets / vital nuggets, ``vital`` = (supported +
   partial / 2) / vital nuggets, ``all_strict`` and ``all`` the same over every nugget. NaN when the topic has no
   (vital) nugget or the answer is empty (no text but whitespace: the judge abstains, never 0); an answer with text
   but no claim ("Yes.") states no nugget: 0, never above a longer answer that states none either.

The defaults of ``NuggetSettings`` are the packaged leaderboard model's (``data/leaderboard-nugget.json``,
``nugget_settings``): the settings ``ir-rag-axioms judge`` uses and its weights were fitted with.

Deterministic: claims are ordered by (run, position) before clustering and the clustering has no randomness.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pandas as pd

from ir_rag_axioms.model import _clean_text, check_ids, is_missing
from ir_rag_axioms.settings import LEADERBOARD_MODEL_FILE, packaged_json

SUPPORT, PARTIAL, NOT_SUPPORT = "support", "partial_support", "not_support"
"""The assignments (the track's labels)."""
VITAL, OKAY = "vital", "okay"
"""The importances (the track's labels)."""
SCORES = ("vital_strict", "vital", "all_strict", "all")
"""The nugget scores per answer, as the track names them."""
_MARKER = re.compile(r"\s*\[\d+(?:\s*,\s*\d+)*\]")
_WORD = re.compile(r"\w+")


_PACKAGED = packaged_json(LEADERBOARD_MODEL_FILE)["nugget_settings"]
"""The defaults: the ``nugget_settings`` of the packaged leaderboard model (``data/leaderboard-nugget.json``)."""


@dataclass(frozen=True)
class NuggetSettings:
    """The parameters of ``consensus_nuggets``; one value each for every topic (defaults: the judge's)."""

    distance_threshold: float = float(_PACKAGED["distance_threshold"])
    """Cosine distance at which AgglomerativeClustering (average linkage) stops merging groups."""
    min_support: int = int(_PACKAGED["min_support"])
    """Least number of distinct voices that state a group for it to be a nugget (at least 2)."""
    vital_share: float = float(_PACKAGED["vital_share"])
    """Least share of the topic's voices that state a nugget for it to be vital."""
    partial_similarity: float = float(_PACKAGED["partial_similarity"])
    """Least cosine of an answer's closest claim to a group's claim for partial support."""
    duplicate_overlap: float = 0.5
    """Least Jaccard overlap of two answers' word 3-grams for them to be one voice (near-copies)."""
    min_words: int = 4
    """Least number of words of a sentence to be a claim."""

    def __post_init__(self) -> None:
        if not 0.0 < self.distance_threshold < 2.0:
            raise ValueError(f"distance_threshold must be in (0, 2) (cosine distance), got {self.distance_threshold!r}")
        if int(self.min_support) != self.min_support or self.min_support < 2:
            raise ValueError(f"min_support must be an integer >= 2 (a claim of one voice never counts), got "
                             f"{self.min_support!r}")
        for name in ("vital_share", "partial_similarity", "duplicate_overlap"):
            value = getattr(self, name)
            if not 0.0 <= value <= 1.0:
                raise ValueError(f"{name} must be in [0, 1], got {value!r}")
        if self.min_words < 1:
            raise ValueError(f"min_words must be >= 1, got {self.min_words!r}")


@dataclass
class TopicNuggets:
    """One topic's consensus nuggets and the assignment of every answer to them."""

    topic: str
    query: str
    runs: list[str]
    """The topic's runs (sorted)."""
    voices: dict[str, int]
    """Each run's voice (near-duplicate answers and one team's runs share one)."""
    nuggets: pd.DataFrame
    """nugget_id, text, importance, support (distinct voices), runs (tuple of the runs that state it)."""
    assignments: pd.DataFrame
    """run_id, nugget_id, assignment, evidence (the answer's claim, "" for not_support), similarity."""
    empty: list[str] = field(default_factory=list)
    """Runs whose answer is empty, None or only whitespace (abstentions: NaN scores); an answer without claims is
    not empty (it supports no nugget: 0)."""


def team_of_run(run_id: str) -> str:
    """The run id's prefix up to its first ``-``, ``_`` or ``.`` (``"webis-rag-run1"`` -> ``"webis"``)."""
    return re.split(r"[-_.]", run_id, maxsplit=1)[0] or run_id


def claims_of(text: str | None, min_words: int = 4) -> list[str]:
    """The answer's claims: its Punkt sentences of at least ``min_words`` words, citation markers removed."""
    import punkt

    if blank_answer(text):
        return []
    out = []
    for sentence in punkt.sent_tokenize(str(text)):
        claim = " ".join(_MARKER.sub("", sentence).split()).strip(" -*#")
        if len(_WORD.findall(claim)) >= min_words:
            out.append(claim)
    return out


def shingles(text: str | None) -> frozenset[tuple[str, ...]]:
    """The lowercased word 3-grams of ``text`` (its words alone when it has fewer than 3)."""
    words = _WORD.findall(str(text).lower()) if text is not None and text == text else []
    return frozenset(tuple(words[k:k + 3]) for k in range(max(len(words) - 2, 1 if words else 0)))


def _voices(runs: Sequence[str], texts: Mapping[str, str | None], overlap: float,
            teams: Callable[[str], str] | None) -> dict[str, int]:
    """Union of runs with near-copied answers (3-gram Jaccard >= ``overlap``) or one team; a voice = a component."""
    parent = list(range(len(runs)))
    grams = {r: shingles(texts[r]) for r in runs}

    def find(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    for i, a in enumerate(runs):
        for j in range(i + 1, len(runs)):
            b = runs[j]
            same_team = teams is not None and teams(a) == teams(b)
            union = len(grams[a] | grams[b])
            near = union > 0 and len(grams[a] & grams[b]) / union >= overlap
            if same_team or near:
                parent[find(j)] = find(i)
    roots = {r: find(k) for k, r in enumerate(runs)}
    numbers = {root: n for n, root in enumerate(dict.fromkeys(roots.values()))}
    return {r: numbers[root] for r, root in roots.items()}


def _clusters(vectors: np.ndarray, threshold: float) -> np.ndarray:
    """Agglomerative groups (cosine, average linkage, distance threshold) of unit ``vectors``; one label each."""
    from sklearn.cluster import AgglomerativeClustering

    if len(vectors) < 2:
        return np.zeros(len(vectors), dtype=np.int64)
    model = AgglomerativeClustering(n_clusters=None, metric="cosine", linkage="average",
                                    distance_threshold=threshold)
    return np.asarray(model.fit_predict(vectors), dtype=np.int64)


def topic_nuggets(topic: str, query: str, answers: Mapping[str, str | None], embed: Callable[[list[str]], np.ndarray],
                  settings: NuggetSettings = NuggetSettings(),
                  teams: Callable[[str], str] | None = None) -> TopicNuggets:
    """One topic's consensus nuggets from its answers (run id -> text); ``embed`` maps strings to unit vectors."""
    runs = sorted(answers)
    claims = {r: claims_of(answers[r], settings.min_words) for r in runs}
    owners = [(r, c) for r in runs for c in claims[r]]
    unique = list(dict.fromkeys(c for _, c in owners))
    vectors = embed(unique).astype(np.float64) if unique else np.zeros((0, 1))
    index = {c: k for k, c in enumerate(unique)}
    voices = _voices(runs, answers, settings.duplicate_overlap, teams)
    n_voices = len({voices[r] for r in runs if claims[r]})
    matrix = vectors[[index[c] for _, c in owners]] if owners else np.zeros((0, vectors.shape[1]))
    labels = _clusters(matrix, settings.distance_threshold)
    vital_at = max(settings.min_support, int(np.ceil(settings.vital_share * n_voices)))
    rows: list[dict[str, Any]] = []
    members: list[np.ndarray] = []
    for label in dict.fromkeys(labels.tolist()):  # first-appearance order: deterministic
        at = np.flatnonzero(labels == label)
        stating = sorted({owners[k][0] for k in at})
        support = len({voices[r] for r in stating})
        if support < settings.min_support:
            continue
        sims = matrix[at] @ matrix[at].T
        medoid = at[int(np.argmax(sims.mean(axis=1)))]
        rows.append({"nugget_id": f"{topic}-n{len(rows) + 1}", "text": owners[medoid][1],
                     "importance": VITAL if support >= vital_at else OKAY, "support": support,
                     "runs": tuple(stating)})
        members.append(at)
    order = sorted(range(len(rows)), key=lambda k: -rows[k]["support"])  # most support first, stable
    rows = [{**rows[k], "nugget_id": f"{topic}-n{n + 1}"} for n, k in enumerate(order)]
    members = [members[k] for k in order]
    nuggets = pd.DataFrame(rows, columns=["nugget_id", "text", "importance", "support", "runs"])
    assignments = _assign(runs, owners, matrix, list(nuggets["nugget_id"]), members, settings.partial_similarity)
    return TopicNuggets(topic, query, runs, voices, nuggets, assignments, [r for r in runs if blank_answer(answers[r])])


def blank_answer(text: object) -> bool:
    """Whether an answer is empty: None, NaN, NA or only whitespace (an abstention, unlike a text without claims)."""
    return is_missing(text) or not str(text).strip()


def checked_answers(answers: pd.DataFrame, who: str, columns: Sequence[str] = ("run_id", "topic", "text"),
                    reserved: Sequence[str] = ()) -> pd.DataFrame:
    """``answers`` checked before any scoring, run_id and topic as str, each text a str ("" where missing).

    The checks every reader of an answers frame shares (``consensus_nuggets``, ``leaderboard.system_leaderboard``):
    KeyError naming a missing column; ValueError naming the column and rows of a missing or blank run_id or topic
    (``model.check_ids``, as for qid/docno cells), a ``reserved`` topic id, or a (run_id, topic) answered twice;
    TypeError naming the row of a text that is no string (``GenerationResponse``'s check, as in the rerankers).
    None, NaN or NA is an empty answer (an abstention).
    """
    missing = [c for c in columns if c not in answers.columns]
    if missing:
        raise KeyError(f"{who}: answers need columns {', '.join(columns)}; missing {missing} "
                       f"(found {list(answers.columns)})")
    try:
        check_ids(answers, columns=("run_id", "topic"))
    except ValueError as error:
        raise ValueError(f"{who}: answers' {error}") from None
    frame = answers.assign(run_id=answers["run_id"].astype(str), topic=answers["topic"].astype(str))
    for topic in reserved:
        at = np.flatnonzero(frame["topic"].eq(topic).to_numpy())
        if len(at):
            raise ValueError(f"{who}: topic id {topic!r} (column 'topic', row position(s) {at[:5].tolist()}) is "
                             "reserved for the runs' aggregate rows; rename the topic")
    dupes = frame[frame.duplicated(["run_id", "topic"], keep=False)]
    if len(dupes):
        pairs = sorted(set(zip(dupes["run_id"], dupes["topic"], strict=True)))
        raise ValueError(f"{who}: {len(pairs)} (run_id, topic) pair(s) answered more than once, e.g. {pairs[:5]}; "
                         "keep one answer per run and topic")
    texts = [_clean_text(text, f"{who}: answers row position {k} (run_id {run!r}, topic {topic!r}): column 'text'")
             for k, (run, topic, text) in enumerate(zip(frame["run_id"], frame["topic"], frame["text"], strict=True))]
    return frame.assign(text=pd.Series(texts, index=frame.index, dtype=object))


def _assign(runs: Sequence[str], owners: Sequence[tuple[str, str]], matrix: np.ndarray, ids: Sequence[str],
            members: Sequence[np.ndarray], partial: float) -> pd.DataFrame:
    """Per (run, nugget): support (a claim in the group), partial (closest claim within ``partial``), or not."""
    rows: list[tuple[str, str, str, str, float]] = []
    owner_runs = np.array([r for r, _ in owners], dtype=object)
    for run in runs:
        mine = np.flatnonzero(owner_runs == run)
        for nugget_id, at in zip(ids, members, strict=True):
            inside = np.intersect1d(mine, at)
            if len(mine) == 0:
                rows.append((run, nugget_id, NOT_SUPPORT, "", np.nan))
                continue
            centroid = matrix[at].mean(axis=0)
            if len(inside):
                best = inside[int(np.argmax(matrix[inside] @ centroid))]
                rows.append((run, nugget_id, SUPPORT, owners[best][1], float(matrix[best] @ centroid)))
                continue
            sims = matrix[mine] @ matrix[at].T
            k = int(np.argmax(sims.max(axis=1)))
            label = PARTIAL if sims[k].max() >= partial else NOT_SUPPORT
            rows.append((run, nugget_id, label, owners[mine[k]][1] if label == PARTIAL else "", float(sims[k].max())))
    return pd.DataFrame(rows, columns=["run_id", "nugget_id", "assignment", "evidence", "similarity"])


def answer_scores(topic: TopicNuggets) -> pd.DataFrame:
    """Per run: vital_strict, vital, all_strict, all (the track's formulas; NaN without a (vital) nugget or text)."""
    importance = dict(zip(topic.nuggets["nugget_id"], topic.nuggets["importance"], strict=True))
    n_all = len(importance)
    n_vital = sum(1 for v in importance.values() if v == VITAL)
    rows = []
    for run in topic.runs:
        got = topic.assignments[topic.assignments["run_id"] == run]
        full = got["assignment"].eq(SUPPORT).to_numpy()
        half = got["assignment"].eq(PARTIAL).to_numpy()
        vital = got["nugget_id"].map(importance).eq(VITAL).to_numpy()
        empty = run in topic.empty
        values = {
            "vital_strict": _share(full[vital].sum(), n_vital, empty),
            "vital": _share(full[vital].sum() + half[vital].sum() / 2, n_vital, empty),
            "all_strict": _share(full.sum(), n_all, empty),
            "all": _share(full.sum() + half.sum() / 2, n_all, empty),
        }
        rows.append({"run_id": run, "topic": topic.topic, **values})
    return pd.DataFrame(rows, columns=["run_id", "topic", *SCORES])


def _share(count: float, total: int, empty: bool) -> float:
    return float("nan") if empty or total == 0 else float(count) / total


def consensus_nuggets(answers: pd.DataFrame, settings: NuggetSettings = NuggetSettings(), *,
                      teams: Callable[[str], str] | None = None, analysis: Any = None, model: str | None = None,
                      progress: bool = True) -> list[TopicNuggets]:
    """Every topic's consensus nuggets from ``answers`` (run_id, topic, query, text), topics in first-appearance order.

    The claims of all topics are embedded in one pass (each distinct claim once). ``checked_answers`` refuses a
    missing column, a missing or blank run_id or topic, a (run_id, topic) twice and a text that is no string
    (naming the column and row). ``teams``: run id -> team (``team_of_run``), or None to join only near-identical
    answers.
    """
    from ir_rag_axioms.analysis.cache import default_analysis
    from ir_rag_axioms.analysis.resources import DEFAULT_SENTENCE_MODEL

    frame = checked_answers(answers, "consensus_nuggets")
    analysis = analysis or default_analysis()
    model = model or DEFAULT_SENTENCE_MODEL
    analysis.embed(list(dict.fromkeys(c for t in frame["text"] for c in claims_of(t, settings.min_words))), model)
    groups: Any = list(frame.groupby("topic", sort=False))
    if progress:
        from tqdm.auto import tqdm

        groups = tqdm(groups, desc="consensus nuggets", unit="topic")
    out = []
    for topic, group in groups:
        query = str(group["query"].iloc[0]) if "query" in group.columns else ""
        texts = dict(zip(group["run_id"], group["text"], strict=True))
        out.append(topic_nuggets(str(topic), query, texts, lambda s: analysis.embed(s, model), settings, teams))
    return out


def nugget_score_table(topics: Sequence[TopicNuggets]) -> pd.DataFrame:
    """run_id, topic and the four nugget scores of every answer of ``topics``."""
    frames = [answer_scores(t) for t in topics]
    return pd.concat(frames, ignore_index=True) if frames else pd.DataFrame(columns=["run_id", "topic", *SCORES])


__all__ = ["NOT_SUPPORT", "OKAY", "PARTIAL", "SCORES", "SUPPORT", "VITAL", "NuggetSettings", "TopicNuggets",
           "answer_scores", "blank_answer", "checked_answers", "claims_of", "consensus_nuggets", "nugget_score_table",
           "shingles", "team_of_run", "topic_nuggets"]
