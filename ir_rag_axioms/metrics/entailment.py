"""The heuristic judge with an entailment (NLI) model a user provides: meaning where the checks see only words.

``EntailmentJudge`` runs the heuristic judge first (``judges.HeuristicJudge``: match, then the checks), then asks a
sentence-transformers ``CrossEncoder`` trained on natural-language inference (MNLI, SNLI, ANLI: labels
contradiction, entailment, neutral) about each claim against the passage of its best match. Precision first: the
model can only add a contradiction the checks missed or settle a "cannot tell"; it never unflags a contradiction the
checks found. No NLI model comes packaged or loads offline here (docs/metrics.md, "An entailment model"): the user
passes a local directory or, where the Hugging Face hub is reachable, a model name. Loading fails with a clear error,
never with a neutral result.
"""

from __future__ import annotations

import contextlib
import functools
import os
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from ir_rag_axioms.metrics.interface import RubricCase
from ir_rag_axioms.metrics.judges import HeuristicJudge, _raw
from ir_rag_axioms.metrics.running import check_number

__all__ = ["EntailmentJudge", "nli_labels"]

LABEL_WORDS: dict[str, tuple[str, ...]] = {"contradiction": ("contradict",), "entailment": ("entail",),
                                            "neutral": ("neutral",)}
"""An NLI label -> the word starts that name it in a model's ``id2label`` ("CONTRADICTION", "entailment", ...)."""


def nli_labels(id2label: dict[int, str]) -> dict[str, int]:
    """{"contradiction": i, "entailment": j, ...} from a model's ``id2label``; ValueError unless both are named.

    A label is found when its lower-cased name starts with one of ``LABEL_WORDS``; "LABEL_0"-style names, two labels
    for one class or a missing contradiction or entailment label are refused (the order differs between models, and
    a guessed order turns every verdict around).
    """
    found: dict[str, int] = {}
    for index, name in sorted(id2label.items()):
        for label, starts in LABEL_WORDS.items():
            if str(name).strip().lower().startswith(starts):
                if label in found:
                    raise ValueError(f"the NLI model names {label!r} twice in id2label {id2label!r}")
                found[label] = int(index)
    missing = [label for label in ("contradiction", "entailment") if label not in found]
    if missing:
        raise ValueError(f"the model's labels {id2label!r} do not name {' and '.join(missing)}: EntailmentJudge needs "
                         "an NLI cross-encoder whose config.id2label names contradiction and entailment (e.g. "
                         "cross-encoder/nli-deberta-v3-base); set id2label in its config.json if the model has "
                         "generic labels and you know their order")
    return found


def _load(model: str, device: str | None) -> Any:
    """The CrossEncoder at ``model`` (a local directory, or a hub name where the hub is reachable).

    Kept while the directory is unchanged: the cache key holds the path and the names, sizes and modification times
    of its files, so a model saved again at the same path is loaded again. A CUDA device without CUDA is refused.
    """
    if device is not None and device.startswith("cuda"):
        import torch

        if not torch.cuda.is_available():
            raise RuntimeError(f"EntailmentJudge: device {device!r} was asked for, but CUDA is not available here "
                               "(torch.cuda.is_available() is False); pass device='cpu' or device=None")
    return _load_model(model, device, _stamp(model))


def _stamp(model: str) -> tuple[tuple[str, int, int], ...]:
    """(relative path, size, mtime in ns) of every file under a model directory; () for a hub name."""
    if not os.path.isdir(model):
        return ()
    found = []
    for root, _, files in os.walk(model):
        for name in files:
            path = os.path.join(root, name)
            with contextlib.suppress(OSError):
                info = os.stat(path)
                found.append((os.path.relpath(path, model), info.st_size, info.st_mtime_ns))
    return tuple(sorted(found))


@functools.lru_cache(maxsize=4)
def _load_model(model: str, device: str | None, stamp: tuple[tuple[str, int, int], ...]) -> Any:
    """The CrossEncoder at ``model``, loaded once per (path, device, state of its files)."""
    from sentence_transformers import CrossEncoder

    local = os.path.isdir(model)
    try:
        return CrossEncoder(model, device=device, local_files_only=local or os.environ.get("HF_HUB_OFFLINE") == "1")
    except Exception as error:
        raise RuntimeError(
            f"EntailmentJudge could not load the NLI model {model!r} ({type(error).__name__}: {error}). Pass the path "
            "of a local sentence-transformers CrossEncoder NLI model (for example cross-encoder/nli-deberta-v3-base, "
            "downloaded where the Hugging Face hub is reachable and saved with model.save_pretrained(path)), or run "
            "where the hub is reachable without HF_HUB_OFFLINE=1.") from error


@dataclass(frozen=True, kw_only=True)
class EntailmentJudge(HeuristicJudge):
    """Heuristic verdicts, then NLI: p(contradiction) >= t_c: contradicted; idk, p(entailment) >= t_e: supported.

    p is the model's softmax for (premise, claim). ``nli_model``: a local directory (or a hub name where the hub is
    reachable) of a sentence-transformers ``CrossEncoder`` with contradiction and entailment labels. The premise is
    the passage of the claim's best match, cut to ``premise_chars`` characters around the matched sentence.
    Contradictions the checks found stay; an "unsupported" claim (a name or number the context lacks, or no match)
    stays unsupported unless the model reads a contradiction.
    """

    nli_model: str
    contradiction_threshold: float = 0.9
    """p(contradiction) from which a claim is contradicted, whatever the checks said."""
    entailment_threshold: float = 0.9
    """p(entailment) from which a "cannot tell" claim is supported."""
    premise_chars: int = 1500
    """The longest premise: a longer passage is cut to this many characters around the matched sentence."""
    device: str | None = None
    """Where the model runs (``None``: sentence-transformers' choice)."""
    batch_size: int = 32

    def __post_init__(self) -> None:
        super().__post_init__()
        if not (isinstance(self.nli_model, str) and self.nli_model.strip()):
            raise ValueError("EntailmentJudge: nli_model must be a model directory or name")
        for name in ("contradiction_threshold", "entailment_threshold"):  # a lower one: a coin flip overrules checks
            check_number("EntailmentJudge", name, getattr(self, name), 0.5, 1)
        check_number("EntailmentJudge", "premise_chars", self.premise_chars, 100, integer=True)
        check_number("EntailmentJudge", "batch_size", self.batch_size, 1, integer=True)
        if self.device is not None and not (isinstance(self.device, str) and self.device.strip()):
            raise TypeError(f"EntailmentJudge: device must be a device name such as 'cpu' or 'cuda', or None; got "
                            f"{self.device!r:.40}")

    @property
    def name(self) -> str:
        """``entailment(<nli model>)+heuristic(<encoder>)``."""
        return f"entailment({self.nli_model})+{super().name}"

    def probabilities(self, pairs: Sequence[tuple[str, str]]) -> np.ndarray:
        """(p(contradiction), p(entailment)) per (premise, hypothesis), from the model's softmax over its labels."""
        if not pairs:
            return np.zeros((0, 2))
        model = _load(self.nli_model, self.device)
        labels = nli_labels(dict(model.config.id2label))
        scores = np.asarray(model.predict(list(pairs), batch_size=self.batch_size, apply_softmax=True,
                                          show_progress_bar=len(pairs) > 256), dtype=float).reshape(len(pairs), -1)
        return scores[:, [labels["contradiction"], labels["entailment"]]]

    def support(self, cases: Sequence[RubricCase]) -> list[list[dict[str, Any]]]:
        """The heuristic rows, each claim with a passage re-judged by the model (rows gain ``nli``: the two p)."""
        found = super().support(cases)
        asked = [(row, self._premise(_raw(case)[row["passage"] - 1], row["best_match"]))
                 for case, rows in zip(cases, found, strict=True) for row in rows
                 if row["passage"] is not None and row["verdict"] != "contradicted"]
        probabilities = self.probabilities([(premise, row["statement"]) for row, premise in asked])
        for (row, _), (contradiction, entailment) in zip(asked, probabilities, strict=True):
            row["nli"] = {"contradiction": round(float(contradiction), 4), "entailment": round(float(entailment), 4)}
            where = f"passage {row['passage']}"
            if contradiction >= self.contradiction_threshold:
                row.update(verdict="contradicted", ok=False, checks_failed=True, reasons=[
                    f"the entailment model ({self.nli_model}) reads a contradiction with {where}: p = "
                    f"{contradiction:.3f} >= {self.contradiction_threshold:g}", *row["reasons"]])
            elif row["verdict"] == "idk" and entailment >= self.entailment_threshold:
                row.update(verdict="supported", ok=True, reasons=[
                    f"the entailment model ({self.nli_model}) reads it entailed by {where}: p = {entailment:.3f} >= "
                    f"{self.entailment_threshold:g} (the checks could not tell: {'; '.join(row['reasons'])})"])
        return found

    def _premise(self, passage: str, matched: str) -> str:
        """The passage, or ``premise_chars`` characters of it centred on the matched sentence when it is longer."""
        if len(passage) <= self.premise_chars:
            return passage
        at = passage.find(matched[:60]) if matched else -1
        centre = at + len(matched) // 2 if at >= 0 else 0
        start = max(0, min(centre - self.premise_chars // 2, len(passage) - self.premise_chars))
        return passage[start:start + self.premise_chars]
