"""A learned axiom: a logistic (Bradley-Terry) combination of axioms' pairwise preferences, fitted to judgments.

Features of a pair (a, b): x_k = P_k[a, b] of k axioms (``ValueDifference`` gives a feature axiom's relative value
difference as one more "axiom"). They are antisymmetric, x(b, a) = -x(a, b). A logistic model without intercept,
fitted on both orientations of every pair the target decides, scores s(a, b) = w . x(a, b) (the log-odds that a is
better than b); the axiom prefers sign(s) where |s| > threshold and abstains otherwise. Any scikit-learn classifier
can replace the logistic model (``estimator=``): its score is then p(x) - p(-x), antisymmetric by construction.
"""

from __future__ import annotations

import dataclasses
import functools
import json
import math
import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, ClassVar

import numpy as np
import pandas as pd

from ir_rag_axioms.analysis.cache import Analysis, is_analysable
from ir_rag_axioms.axioms._training import InSampleWarning, learned_parts, query_fingerprint, warn_in_sample
from ir_rag_axioms.axioms.base import Axiom, ConfigurableAxiom, FeatureAxiom, Item, Reads
from ir_rag_axioms.axioms.explanation import Explanation, rule_of
from ir_rag_axioms.model import GenerationRequest, GenerationResponse

FORMAT = "ir_rag_axioms.LearnedAxiom"
"""The ``format`` entry of a saved model (with ``version`` 1)."""
SKLEARN_HINT = "pip install 'ir_rag_axioms[learn]' (or pip install scikit-learn)"


class ResponseLength(FeatureAxiom):
    """Prefer the longer response: more whitespace-separated words (the "prefer the longer" baseline)."""

    def values(self, request: GenerationRequest, responses: list[GenerationResponse], analysis: Analysis) -> np.ndarray:
        """The number of words of each response."""
        return np.array([len(r.text.split()) for r in responses], dtype=np.float64)


class ValueDifference(ConfigurableAxiom):
    """D[i, j] = (v_i - v_j) / max(|v_i|, |v_j|) of a feature axiom's values, in [-1, 1].

    Negated if lower is better; 0 where a value is undefined or both are 0. A real-valued, antisymmetric feature.
    """

    axiom: FeatureAxiom

    def reads(self) -> tuple[Reads, ...]:
        """The feature axiom's reads."""
        return self.axiom.reads()

    def prefetch(self, items: Sequence[Item], analysis: Analysis) -> None:
        """The feature axiom's prefetch."""
        self.axiom.prefetch(items, analysis)

    def matrix(self, request: GenerationRequest, responses: list[GenerationResponse], analysis: Analysis) -> np.ndarray:
        """Relative value differences, direction applied; unanalysable responses give 0."""
        v = np.array(self.axiom.values(request, responses, analysis), dtype=np.float64)
        if self.axiom.abstain_on_blank:
            v[[not is_analysable(r.text) for r in responses]] = np.nan
        a, b = v[:, None], v[None, :]
        scale = np.maximum(np.abs(a), np.abs(b))
        with np.errstate(invalid="ignore", divide="ignore"):
            d = np.where(scale > 0, (a - b) / scale, 0.0)
        d = np.nan_to_num(d, nan=0.0)
        return (d if self.axiom.higher_is_better else -d) + 0.0


def value_differences(axioms: Sequence[Axiom]) -> tuple[Axiom, ...]:
    """``ValueDifference`` of each feature axiom among ``axioms`` (others have no values and are left out)."""
    return tuple(ValueDifference(axiom=a) for a in axioms if isinstance(a, FeatureAxiom))


@dataclass(frozen=True)
class Vote:
    """One axiom's vote in a learned decision: its preference P_k[a, b], its weight and their product."""

    axiom: str
    preference: float
    weight: float

    @property
    def contribution(self) -> float:
        """The weight x the preference: what this axiom adds to the score."""
        return self.weight * self.preference


@dataclass(frozen=True)
class LearnedDecision:
    """A learned decision on (a, b): score = sum of the contributions; preference = sign(score) if |score| > threshold.

    The preference is 0 (abstain) otherwise.
    """

    votes: tuple[Vote, ...]
    score: float
    threshold: float
    preference: int

    def frame(self) -> pd.DataFrame:
        """The votes as a table (axiom, preference, weight, contribution), largest |contribution| first."""
        rows = [{"axiom": v.axiom, "preference": v.preference, "weight": v.weight, "contribution": v.contribution}
                for v in self.votes]
        table = pd.DataFrame(rows, columns=["axiom", "preference", "weight", "contribution"])
        return table.reindex(table["contribution"].abs().sort_values(ascending=False, kind="stable").index)


def training_pairs(stacks: Sequence[np.ndarray], oracle: Sequence[np.ndarray]) -> tuple[np.ndarray, np.ndarray]:
    """(X, y) over the pairs i < j the oracle decides, in both orientations: x = P[:, i, j], y = sign O[i, j].

    Rows: each decided pair's (x, y), then the same pairs' (-x, -y).
    """
    if len(stacks) != len(oracle):
        raise ValueError(f"{len(stacks)} preference stacks but {len(oracle)} oracle matrices")
    xs, ys = [], []
    for t, (stack, truth) in enumerate(zip(stacks, oracle, strict=True)):
        stack, truth = np.asarray(stack, dtype=np.float64), np.asarray(truth, dtype=np.float64)
        if stack.ndim != 3 or truth.shape != stack.shape[1:]:
            raise ValueError(f"topic {t}: a (k, n, n) stack and an (n, n) oracle matrix are needed, got "
                             f"{stack.shape} and {truth.shape}")
        i, j = np.triu_indices(truth.shape[0], k=1)
        y = np.sign(np.nan_to_num(truth[i, j]))
        keep = y != 0
        xs.append(np.nan_to_num(stack[:, i[keep], j[keep]]).T)
        ys.append(y[keep])
    k = stacks[0].shape[0] if len(stacks) else 0
    x, y = (np.concatenate(xs), np.concatenate(ys)) if xs else (np.zeros((0, k)), np.zeros(0))
    return np.concatenate([x, -x]), np.concatenate([y, -y])


class LearnedAxiom(ConfigurableAxiom):
    """P[a, b] = sign(s) if |s| > threshold else 0, with s = sum_k w_k P_k[a, b] (logistic, no intercept).

    With a scikit-learn ``estimator``: s = p(x) - p(-x), p = its probability that a is better. Fit with ``fit`` or
    ``fit_stacks``; the fitted axiom's repr shows the weights and parses back; ``save``/``load``/``pretrained``.
    """

    axioms: tuple[Axiom, ...] = ()
    """The axioms whose preferences are the features (``value_differences(axioms)`` adds value differences)."""
    weights: tuple[float, ...] = ()
    """One weight per axiom (empty until fitted, or when a scikit-learn ``estimator`` decides)."""
    threshold: float = 0.0
    """Abstain where |s| <= threshold (0: decide whenever the score is not 0)."""
    estimator: object = None
    """Any scikit-learn classifier instead of the logistic model (None: logistic regression, readable weights)."""
    info: Mapping[str, Any] | None = field(default=None, compare=False, repr=False)
    """What the model was fitted on (saved with it; not part of its identity)."""

    ranges: ClassVar[dict[str, tuple[float, float]]] = {"threshold": (0.0, math.inf)}

    def __post_init__(self) -> None:
        axioms = self.axioms
        if isinstance(axioms, Axiom) or not isinstance(axioms, (tuple, list)):
            raise TypeError(f"LearnedAxiom: axioms must be a tuple of axioms, got {axioms!r:.80}")
        if not all(isinstance(a, Axiom) for a in axioms):
            raise TypeError(f"LearnedAxiom: axioms must be axioms, got {[type(a).__name__ for a in axioms]}")
        if not axioms:
            raise ValueError("LearnedAxiom needs at least one axiom")
        object.__setattr__(self, "axioms", tuple(axioms))
        weights = self.weights
        if not isinstance(weights, (tuple, list, np.ndarray)):
            raise TypeError(f"LearnedAxiom: weights must be a tuple of numbers, got {weights!r:.80}")
        weights = tuple(float(w) for w in weights)
        if weights and len(weights) != len(axioms):
            raise ValueError(f"LearnedAxiom: {len(weights)} weights for {len(axioms)} axioms")
        if not all(math.isfinite(w) for w in weights):
            raise ValueError(f"LearnedAxiom: weights must be finite, got {weights}")
        if weights and self.estimator is not None:
            raise ValueError("LearnedAxiom: give weights (a linear model) or an estimator, not both")
        object.__setattr__(self, "weights", weights)
        if isinstance(self.threshold, int) and not isinstance(self.threshold, bool):
            object.__setattr__(self, "threshold", float(self.threshold))
        if self.info is None and weights:  # parsed from a repr (which has no info): a shipped model keeps its own
            object.__setattr__(self, "info", _shipped_info(tuple(map(repr, axioms)), weights, float(self.threshold)))
        super().__post_init__()

    @property
    def training_topics(self) -> tuple[str, ...]:
        """The topic ids the model was fitted on (``info["training_topics"]``; empty if unknown)."""
        return tuple(str(t) for t in (self.info or {}).get("training_topics", ()))

    @property
    def training_queries(self) -> tuple[str, ...]:
        """Fingerprints of the training topics' query texts (``query_fingerprint``; empty if unknown)."""
        return tuple(str(t) for t in (self.info or {}).get("training_queries", ()))

    def held_out(self, topics: Any) -> Any:
        """``topics`` without the model's training topics (by id, or by query text where known).

        A frame (by its ``qid``, and its ``query`` if it has one), a list of topic ids or of requests.
        """
        trained, known = set(self.training_topics), set(self.training_queries)
        if isinstance(topics, pd.DataFrame):
            keep = ~topics["qid"].astype(str).isin(trained)
            if "query" in topics.columns and known:
                keep &= ~topics["query"].astype(str).map(query_fingerprint).isin(known)
            return topics[keep]
        return [t for t in topics if str(getattr(t, "id", t)) not in trained
                and not (hasattr(t, "text") and query_fingerprint(t.text) in known)]

    # -- state ------------------------------------------------------------------------------------------
    @property
    def fitted(self) -> bool:
        """Whether the axiom can decide: it has weights or a fitted estimator."""
        if self.weights:
            return True
        if self.estimator is None:
            return False
        from sklearn.exceptions import NotFittedError
        from sklearn.utils.validation import check_is_fitted

        try:
            check_is_fitted(self.estimator)
        except NotFittedError:
            return False
        return True

    def _check_fitted(self) -> None:
        if not self.fitted:
            raise ValueError("this LearnedAxiom is not fitted: fit it first (learned.fit(items, CrowdOracle(...))) or "
                             "load a fitted one (LearnedAxiom.pretrained('crowd-overall'), LearnedAxiom.load(path))")

    def weights_table(self) -> pd.DataFrame:
        """The axioms and their weights (axiom, weight), largest |weight| first; linear models only."""
        self._check_linear("weights_table")
        table = pd.DataFrame({"axiom": [repr(a) for a in self.axioms], "weight": list(self.weights)})
        order = table["weight"].abs().sort_values(ascending=False, kind="stable").index
        return table.reindex(order).reset_index(drop=True)

    def _check_linear(self, what: str) -> None:
        self._check_fitted()
        if not self.weights:
            raise ValueError(f"{what} needs the linear (logistic) model's weights; this LearnedAxiom decides with "
                             f"{type(self.estimator).__name__}, which has none")

    # -- the axiom ----------------------------------------------------------------------------------------
    def reads(self) -> tuple[Reads, ...]:
        """Every feature axiom's reads."""
        return tuple(r for axiom in self.axioms for r in axiom.reads())

    def prefetch(self, items: Sequence[Item], analysis: Analysis) -> None:
        """Forward to every feature axiom."""
        for axiom in self.axioms:
            axiom.prefetch(items, analysis)

    def matrix(self, request: GenerationRequest, responses: list[GenerationResponse], analysis: Analysis) -> np.ndarray:
        """decide(scores) of the axioms' stack."""
        self._check_fitted()
        stack = np.stack([np.asarray(a.matrix(request, responses, analysis), dtype=np.float64) for a in self.axioms])
        return self.decide(self.scores(stack))

    def scores(self, stack: np.ndarray) -> np.ndarray:
        """S[i, j] = s(x(i, j)) of a (k, n, n) stack: antisymmetric (computed for i < j and mirrored)."""
        self._check_fitted()
        stack = np.nan_to_num(np.asarray(stack, dtype=np.float64))
        if stack.ndim != 3 or stack.shape[0] != len(self.axioms) or stack.shape[1] != stack.shape[2]:
            raise ValueError(f"expected a ({len(self.axioms)}, n, n) stack, got shape {stack.shape}")
        n = stack.shape[1]
        i, j = np.triu_indices(n, k=1)
        x = stack[:, i, j].T
        out = np.zeros((n, n))
        if len(i):
            upper = x @ np.asarray(self.weights) if self.weights else _estimator_scores(self.estimator, x)
            out[i, j], out[j, i] = upper, -upper
        return out + 0.0

    def decide(self, scores: np.ndarray) -> np.ndarray:
        """P = sign(S) where |S| > threshold, else 0."""
        s = np.asarray(scores, dtype=np.float64)
        return np.where(np.abs(s) > self.threshold, np.sign(s), 0.0) + 0.0

    def explain_pairs(self, request: GenerationRequest, responses: list[GenerationResponse],
                      pairs: Sequence[tuple[int, int]], analysis: Analysis) -> list[Explanation]:
        """The decision as the weighted votes of the axioms (score = sum_k w_k P_k against the threshold)."""
        self._check_fitted()
        stack = np.stack([np.asarray(a.matrix(request, responses, analysis), dtype=np.float64) for a in self.axioms])
        scores = self.scores(stack)
        decisions = self.decide(scores)
        parts = [a.explain_pairs(request, responses, pairs, analysis) for a in self.axioms]
        out = []
        for k, (i, j) in enumerate(pairs):
            if self.weights:
                votes = sorted(((w * stack[m, i, j], repr(a)) for m, (a, w) in enumerate(zip(
                    self.axioms, self.weights, strict=True)) if stack[m, i, j] != 0), key=lambda v: -abs(v[0]))
                shown = ", ".join(f"{name} {value:+.3f}" for value, name in votes[:5])
                more = f" and {len(votes) - 5} more" if len(votes) > 5 else ""
                note = (f"score {scores[i, j]:+.3f} = sum of weight x preference ({shown}{more}); "
                        f"|score| {'>' if abs(scores[i, j]) > self.threshold else '<='} threshold {self.threshold:g}")
            else:
                note = f"estimator score {scores[i, j]:+.3f}; threshold {self.threshold:g}"
            out.append(Explanation(repr(self), rule_of(self), responses[i].id, responses[j].id,
                                   float(decisions[i, j]) + 0.0, parts=tuple(p[k] for p in parts), note=note))
        return out

    def votes(self, request: GenerationRequest, first: GenerationResponse,
              second: GenerationResponse) -> LearnedDecision:
        """The decision on (first, second) as weighted votes: P_k[first, second] x w_k per axiom (linear only)."""
        self._check_linear("votes")
        if first.id == second.id:
            second = dataclasses.replace(second, id=f"{second.id}\x00second")
        from ir_rag_axioms.axioms.execution import preference_stacks

        stack = next(preference_stacks(list(self.axioms), [(request, [first, second])]))
        votes = tuple(Vote(repr(a), float(p), w) for a, p, w in zip(self.axioms, stack[:, 0, 1], self.weights,
                                                                     strict=True))
        score = float(self.scores(stack)[0, 1])
        return LearnedDecision(votes, score, self.threshold, int(self.decide(np.array(score))))

    # -- fitting ------------------------------------------------------------------------------------------
    def fit(self, items: Sequence[Item], target: Axiom | Sequence[np.ndarray], *, decisiveness: float | None = None,
            regularization: float = 1.0, seed: int = 0, cache_dir: str | os.PathLike | None = None,
            progress: bool = False, **execution: Any) -> LearnedAxiom:
        """A fitted copy: the axioms' matrices on ``items`` against the ``target`` axiom's (e.g. an oracle's).

        ``target`` may also be its matrices; see ``fit_stacks`` for the options, ``compute_preferences`` for
        ``cache_dir`` and the execution options.
        """
        from ir_rag_axioms.axioms.execution import compute_preferences

        items = list(items)
        named = {f"{k}:{a!r}": a for k, a in enumerate(self.axioms)}
        matrices = compute_preferences(named, items, progress=progress, cache_dir=cache_dir, **execution)
        missing = [name.split(":", 1)[1] for name in named if name not in matrices]
        if missing:
            raise ValueError(f"cannot fit: the tools of {missing} are unavailable (see the warnings)")
        stacks = [np.stack([matrices[name][t] for name in named]) for t in range(len(items))]
        oracle = target.preferences_batch(items) if isinstance(target, Axiom) else list(target)
        return self.fit_stacks(stacks, oracle, decisiveness=decisiveness, regularization=regularization, seed=seed,
                               topics=[request.id for request, _ in items],
                               queries=[request.text for request, _ in items])

    def fit_stacks(self, stacks: Sequence[np.ndarray], oracle: Sequence[np.ndarray], *,
                   decisiveness: float | None = None, regularization: float = 1.0, seed: int = 0,
                   topics: Sequence[str] | None = None, queries: Sequence[str] | None = None) -> LearnedAxiom:
        """A fitted copy from the axioms' (k, n, n) stacks and the target's (n, n) matrices, one per topic.

        Trained on both orientations of the pairs the target decides (logistic: C = ``regularization``, no
        intercept). ``decisiveness``: the threshold is set so that at least that share of the training topics'
        pairs is decided (None: threshold 0). ``topics``: the stacks' topic ids, kept as ``training_topics``;
        ``queries``: their query texts, kept as fingerprints (``training_queries``) to recognise them under other ids.
        """
        try:
            from sklearn.base import clone
            from sklearn.linear_model import LogisticRegression
        except ImportError as error:
            raise ImportError(f"fitting a LearnedAxiom needs scikit-learn: {SKLEARN_HINT}") from error
        if decisiveness is not None and not 0 < decisiveness <= 1:
            raise ValueError(f"decisiveness must be in (0, 1], got {decisiveness!r}")
        if not regularization > 0:
            raise ValueError(f"regularization must be > 0, got {regularization!r}")
        stacks = [np.asarray(s, dtype=np.float64) for s in stacks]
        if any(s.ndim != 3 or s.shape[0] != len(self.axioms) for s in stacks):
            raise ValueError(f"every stack needs one matrix per axiom ({len(self.axioms)})")
        x, y = training_pairs(stacks, oracle)
        if not len(y):
            raise ValueError("the target decides no pair of these topics: nothing to learn from")
        if self.estimator is None:
            model = LogisticRegression(fit_intercept=False, C=regularization, max_iter=10_000)
            model.fit(x, y)
            fitted = dataclasses.replace(self, weights=tuple(round(float(w), 4) for w in model.coef_[0]),
                                         threshold=0.0)
        else:
            model = clone(self.estimator)
            if "random_state" in model.get_params():
                model.set_params(random_state=seed)
            model.fit(x, y)
            fitted = dataclasses.replace(self, estimator=model, threshold=0.0)
        info: dict[str, Any] = {"topics": len(stacks), "pairs": len(y) // 2}
        if topics is not None:
            if len(topics) != len(stacks):
                raise ValueError(f"{len(topics)} topic ids for {len(stacks)} stacks")
            info["training_topics"] = sorted(map(str, topics))
        if queries is not None:
            if len(queries) != len(stacks):
                raise ValueError(f"{len(queries)} queries for {len(stacks)} stacks")
            info["training_queries"] = sorted({query_fingerprint(q) for q in queries})
        if decisiveness is not None:
            magnitudes = np.concatenate([np.abs(fitted.scores(s)[np.triu_indices(s.shape[1], k=1)]) for s in stacks])
            fitted = dataclasses.replace(fitted, threshold=threshold_for(magnitudes, decisiveness))
            info["decisiveness"] = decisiveness
        return dataclasses.replace(fitted, info={**(self.info or {}), **info})

    # -- files --------------------------------------------------------------------------------------------
    def to_dict(self) -> dict[str, Any]:
        """The model as JSON data: each axiom's repr (parseable), the weights, the threshold and ``info``."""
        self._check_linear("saving")
        from ir_rag_axioms._version import __version__

        return {"format": FORMAT, "version": 1, "package_version": __version__,
                "axioms": [repr(a) for a in self.axioms], "rules": [_rules(a) for a in self.axioms],
                "weights": list(self.weights), "threshold": self.threshold, "info": dict(self.info or {})}

    def save(self, path: str | os.PathLike) -> Path:
        """Write ``to_dict()`` as JSON to ``path`` (linear models only: they need no training data to run)."""
        path = Path(path)
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(self.to_dict(), indent=1) + "\n", encoding="utf-8")
        return path

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> LearnedAxiom:
        """The model of ``to_dict()`` data (axioms parsed from their reprs); ValueError on another format."""
        from ir_rag_axioms.axioms.registry import parse

        if not isinstance(data, Mapping) or data.get("format") != FORMAT or data.get("version") != 1:
            raise ValueError(f"not a saved LearnedAxiom (format {FORMAT!r}, version 1)")
        missing = [k for k in ("axioms", "weights", "threshold") if k not in data]
        if missing:
            raise ValueError(f"the saved LearnedAxiom lacks {missing}")
        axioms = tuple(parse(spec) for spec in data["axioms"])
        _warn_stale(data, axioms)
        return cls(axioms=axioms, weights=tuple(data["weights"]), threshold=float(data["threshold"]),
                   info=dict(data.get("info") or {}))

    @classmethod
    def load(cls, path: str | os.PathLike) -> LearnedAxiom:
        """A model saved by ``save``."""
        path = Path(path)
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except json.JSONDecodeError as error:
            raise ValueError(f"{path} is not JSON: {error}") from error
        return cls.from_dict(data)

    @classmethod
    def pretrained(cls, name: str = "crowd-overall") -> LearnedAxiom:
        """A shipped model by name (``available()``), e.g. fitted on all CrowdRAG-25 "overall" judgments."""
        known = pretrained_names()
        if name not in known:
            raise ValueError(f"no shipped LearnedAxiom {name!r}; available: {known}")
        return cls.from_dict(_shipped_data(name))


@functools.cache
def _shipped_data(name: str) -> dict[str, Any]:
    """The JSON data of a shipped model (read once)."""
    from importlib import resources

    data = json.loads((resources.files("ir_rag_axioms") / "data" / f"learned-{name}.json").read_text(encoding="utf-8"))
    data.setdefault("info", {})["name"] = name
    return data


def _shipped_info(axioms: tuple[str, ...], weights: tuple[float, ...], threshold: float) -> dict[str, Any] | None:
    """The ``info`` of the shipped model with these axioms, weights and threshold (e.g. parsed from its repr)."""
    for name in pretrained_names():
        data = _shipped_data(name)
        if (tuple(data["weights"]) == weights and float(data["threshold"]) == threshold
                and _shipped_reprs(name) == axioms):
            return dict(data["info"])
    return None


@functools.cache
def _shipped_reprs(name: str) -> tuple[str, ...]:
    """The canonical reprs of a shipped model's axioms (a renamed axiom's old name resolves to the new one)."""
    import warnings

    from ir_rag_axioms.axioms.registry import parse

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        return tuple(repr(parse(spec)) for spec in _shipped_data(name)["axioms"])


class StaleModelWarning(UserWarning):
    """A saved model's features changed rule since it was fitted: its weights no longer fit them (refit it)."""


def _rules(axiom: Any) -> list[Any]:
    """The rule versions (``cache_identity()``) of an axiom and its parts, as saved beside its repr."""
    from ir_rag_axioms.analysis.cache import _identities

    return [entry for entry in _identities(axiom) if entry[0] not in ("spacy", "encoder")]


def _warn_stale(data: Mapping[str, Any], axioms: tuple[Axiom, ...]) -> None:
    """A ``StaleModelWarning`` naming the axioms whose rule differs from the one recorded when the model was saved.

    A model saved before rules were recorded counts as saved with none (every axiom whose rule changed since is named).
    """
    import warnings

    recorded = data.get("rules") or [[] for _ in axioms]
    as_json = json.loads(json.dumps([_rules(a) for a in axioms]))
    stale = [spec for spec, old, new in zip(data["axioms"], recorded, as_json, strict=False) if old != new]
    if stale:
        name = (data.get("info") or {}).get("name")
        label = f"LearnedAxiom.pretrained({name!r})" if name else "this saved LearnedAxiom"
        warnings.warn(f"{label}: {len(stale)} of its {len(axioms)} features changed rule since it was fitted "
                      f"({', '.join(stale[:6])}{', ...' if len(stale) > 6 else ''}): its weights no longer match "
                      "them, so its preferences are not the fitted model's. Refit it (examples/learned_study.py "
                      "--write-model FILE) or leave those axioms out", StaleModelWarning, stacklevel=3)


def pretrained_names() -> list[str]:
    """Names of the shipped models (``ir_rag_axioms/data/learned-<name>.json``)."""
    from importlib import resources

    files = resources.files("ir_rag_axioms") / "data"
    return sorted(f.name.removeprefix("learned-").removesuffix(".json") for f in files.iterdir()
                  if f.name.startswith("learned-") and f.name.endswith(".json"))


def threshold_for(magnitudes: np.ndarray, decisiveness: float) -> float:
    """The largest t such that #{|s| > t} >= decisiveness x #pairs (0 if even t = 0 decides fewer)."""
    values = np.sort(np.asarray(magnitudes, dtype=np.float64))[::-1]
    if not len(values):
        return 0.0
    need = max(1, math.ceil(decisiveness * len(values) - 1e-9))
    kth = values[need - 1]
    below = values[values < kth]
    return float(below[0]) if len(below) else 0.0


def _estimator_scores(estimator: Any, x: np.ndarray) -> np.ndarray:
    """p(x) - p(-x) with p the estimator's probability of class +1 (decision function where it has no proba)."""
    if hasattr(estimator, "predict_proba"):
        column = list(estimator.classes_).index(1.0)
        return estimator.predict_proba(x)[:, column] - estimator.predict_proba(-x)[:, column]
    return (estimator.decision_function(x) - estimator.decision_function(-x)) / 2


__all__ = ["InSampleWarning", "LearnedAxiom", "LearnedDecision", "ResponseLength", "ValueDifference", "Vote",
           "learned_parts", "pretrained_names", "threshold_for", "training_pairs", "value_differences",
           "warn_in_sample"]
