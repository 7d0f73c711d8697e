"""The RAG metrics specification's sample format as input: samples with RAG assertions, judged with evidence.

A sample set (``schemaVersion: omk.eval-sample-set/v3``) lists samples with ``sampleId``, ``input`` (``inputKind:
text``, ``text``: the question) and ``evaluationContext`` (``assertions``: ``type`` faithfulness / answer_relevancy /
context_recall, optional ``threshold`` (default 3) and ``reference``; optional ``reference`` for all of them). An
assertion without its own ``reference`` falls back to ``evaluationContext.reference``, as the specification says.
Ours, not the specification's: the output to judge comes from a sample's ``output`` field or from ``outputs``
(sampleId -> text), and ``negate: true`` on an assertion inverts its observation. Every observation keeps the
evidence: raw 1-5 score, reason and threshold.

A sampleId is a text as written: YAML reads an unquoted ``010`` as 8, ``12:30`` as 750, ``yes`` as true and ``null``
as no id, so an id that is not a text is an error (quote it), never renamed. A key an assertion does not have is an
error listing the known keys; another unknown key (of a sample, a text input, an evaluationContext) a warning that it
is not read; a sample needs at least one assertion.
"""

from __future__ import annotations

import json
import warnings
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ir_rag_axioms.metrics._llm_answers import unique_keys
from ir_rag_axioms.metrics.interface import Judge, RubricCase
from ir_rag_axioms.metrics.metrics import ContextRecall, Faithfulness, RubricAnswerRelevancy, RubricMetric
from ir_rag_axioms.metrics.running import check_unicode

SCHEMA_VERSION = "omk.eval-sample-set/v3"
"""The sample-set schema the specification's example declares."""
METRICS: dict[str, type[RubricMetric]] = {"faithfulness": Faithfulness, "answer_relevancy": RubricAnswerRelevancy,
                                          "context_recall": ContextRecall}
"""Assertion type -> the 1-5 metric that judges it."""
SAMPLE_KEYS = ("sampleId", "input", "evaluationContext", "output")
"""The keys of a sample (``output`` is ours); any other is an error, so a misspelt or misplaced key is not ignored."""
INPUT_KEYS = ("inputKind", "text")
"""The keys of a text input."""
CONTEXT_KEYS = ("assertions", "reference")
"""The keys of a sample's ``evaluationContext``."""
ASSERTION_KEYS = ("type", "threshold", "reference", "negate")
"""The keys of an assertion (``negate`` is ours)."""


@dataclass(frozen=True)
class Assertion:
    """One RAG assertion of a sample: its type, threshold, own reference (if any) and negation (ours)."""

    type: str
    threshold: int = 3
    reference: str | tuple[str, ...] | None = None
    negate: bool = False


@dataclass(frozen=True)
class Sample:
    """One sample: id, question text, the evaluation context's reference, its assertions and the output (ours)."""

    sample_id: str
    text: str | None
    reference: str | tuple[str, ...] | None
    assertions: tuple[Assertion, ...]
    output: str | None = None


def _reference(value: Any, where: str) -> str | tuple[str, ...] | None:
    if value is None:
        return None
    if isinstance(value, str):
        check_unicode(value, f"{where}: reference")
        return value
    if isinstance(value, list) and all(isinstance(v, str) for v in value):
        for k, fact in enumerate(value):
            check_unicode(fact, f"{where}: reference item {k}")
        return tuple(value)
    raise ValueError(f"{where}: reference must be a text or a list of texts, got {type(value).__name__}")


def _known(raw: Mapping[Any, Any], known: tuple[str, ...], what: str, where: str, hint: str = "",
           strict: bool = True) -> None:
    """Unknown keys of ``raw``: a ValueError naming them (``strict``), else a warning that they are not read.

    A key may be a field of the sample format this reader does not use; a misspelt key is never ignored silently.
    """
    unknown = sorted((k for k in raw if k not in known), key=str)
    if not unknown:
        return
    message = (f"{where}: unknown key{'s' if len(unknown) > 1 else ''} {', '.join(map(repr, unknown))}; "
               f"the keys of {what} are {', '.join(sorted(known))}{hint}")
    if strict:
        raise ValueError(message)
    warnings.warn(f"{message} (not read)", UserWarning, stacklevel=2)


def _assertion(raw: Any, where: str) -> Assertion:
    if not isinstance(raw, Mapping) or "type" not in raw:
        raise ValueError(f"{where}: an assertion is a mapping with a 'type'")
    _known(raw, ASSERTION_KEYS, "an assertion", where)
    kind = raw["type"]
    if not isinstance(kind, str):
        raise ValueError(f"{where}: type must be one text, one of {sorted(METRICS)}, got {type(kind).__name__} "
                         f"{kind!r:.40}")
    if kind not in METRICS:
        raise ValueError(f"{where}: assertion type {kind!r} is not a RAG metric; use one of {sorted(METRICS)}")
    threshold = raw.get("threshold", 3)
    if isinstance(threshold, bool) or not isinstance(threshold, int) or not 1 <= threshold <= 5:
        raise ValueError(f"{where}: threshold must be an integer 1-5, got {threshold!r}")
    negate = raw.get("negate", False)
    if not isinstance(negate, bool):
        raise ValueError(f"{where}: negate must be true or false, got {negate!r:.40}")
    return Assertion(kind, threshold, _reference(raw.get("reference"), where), negate)


def _text(value: Any, what: str, where: str) -> str | None:
    """A text field of a sample (absent: None); a number, list, mapping or lone surrogate is an error naming it."""
    if value is not None and not isinstance(value, str):
        raise ValueError(f"{where}: {what} must be a text, got {type(value).__name__} {value!r:.40} (quote it in "
                         "YAML)")
    if value is not None:
        check_unicode(value, f"{where}: {what}")
    return value


def _sample_id(raw: Mapping[Any, Any], where: str) -> str:
    """A sample's id as written: a text; null, a boolean, a number or a date is an error (YAML would rename it)."""
    if "sampleId" not in raw or isinstance(raw["sampleId"], str) and not raw["sampleId"].strip():
        raise ValueError(f"{where}: every sample needs a sampleId")
    value = raw["sampleId"]
    if isinstance(value, str):
        return value
    if value is None:
        raise ValueError(f"{where}: sampleId must be a text, got null (quote it in YAML: an unquoted null or ~ is "
                         "read as null)")
    if isinstance(value, bool):
        hint = ": an unquoted yes, no, on, off, true or false is read as a boolean"
    elif isinstance(value, int | float):
        hint = ": an unquoted number is read as a number, 010 as 8 and 12:30 as 750"
    else:
        hint = ""
    raise ValueError(f"{where}: sampleId must be a text, got {type(value).__name__} {value!r:.40} (quote it in "
                     f"YAML so it is read as written{hint})")


def _mapping(value: Any, what: str, where: str) -> Mapping[Any, Any]:
    """A field that must be a mapping (absent or null: empty); anything else is an error naming the field."""
    if value is None:
        return {}
    if not isinstance(value, Mapping):
        raise ValueError(f"{where}: {what}, got {type(value).__name__} {value!r:.40}")
    return value


def _sample(raw: Any, where: str, seen: set[str]) -> Sample:
    """One sample of the set, checked: its id (new to ``seen``), keys, input, evaluation context and assertions."""
    if not isinstance(raw, Mapping):
        raise ValueError(f"{where}: a sample is a mapping with a sampleId, got {type(raw).__name__} {raw!r:.40}")
    sample_id = _sample_id(raw, where)
    if sample_id in seen:
        raise ValueError(f"{where}: sampleId {sample_id!r} appears twice")
    seen.add(sample_id)
    named = f"{where} ({sample_id})"
    misplaced = {"assertions", "reference", "threshold", "type", "negate"} & set(raw)
    _known(raw, SAMPLE_KEYS, "a sample", named, " (assertions and reference go under evaluationContext; type, "
           "threshold and negate in an assertion)" if misplaced else "", strict=bool(misplaced))
    given = _mapping(raw.get("input"), "input must be a mapping with inputKind and text", named)
    kind = given.get("inputKind", "text")
    if kind == "text":
        _known(given, INPUT_KEYS, "a text input", f"{named}: input", strict=False)
    text = _text(given.get("text"), "input.text (the question)", named) if kind == "text" else None
    context = _mapping(raw.get("evaluationContext"), "evaluationContext must be a mapping with assertions (and "
                       "reference)", named)
    _known(context, CONTEXT_KEYS, "evaluationContext", f"{named}: evaluationContext", strict=False)
    listed = context.get("assertions")
    if not isinstance(listed, list) or not listed:
        got = "none" if listed is None else f"{type(listed).__name__} {listed!r:.40}"
        raise ValueError(f"{named}: evaluationContext.assertions must be a non-empty list of assertions (a sample "
                         f"without one would give no observation), got {got}")
    assertions = tuple(_assertion(a, f"{named}: evaluationContext.assertions[{j}]") for j, a in enumerate(listed))
    return Sample(sample_id, text, _reference(context.get("reference"), f"{named}: evaluationContext"), assertions,
                  _text(raw.get("output"), "output", named))


def parse_samples(document: Mapping[str, Any]) -> list[Sample]:
    """The samples of a parsed sample-set document (checked: schema version, ids, keys, assertion types, thresholds)."""
    version = document.get("schemaVersion")
    if version is not None and version != SCHEMA_VERSION:
        raise ValueError(f"schemaVersion {version!r} is not supported; this reader knows {SCHEMA_VERSION!r}")
    raw_samples = document.get("samples")
    if not isinstance(raw_samples, list) or not raw_samples:
        raise ValueError("a sample set needs a non-empty 'samples' list")
    seen: set[str] = set()
    return [_sample(raw, f"samples[{k}]", seen) for k, raw in enumerate(raw_samples)]


def read_samples(path: str | Path) -> list[Sample]:
    """The samples of a sample-set file (YAML, or JSON by the suffix ``.json``).

    A file that does not parse, has a key twice in one mapping (the parser would keep the last value silently), or is
    not a mapping, is a ValueError naming the file.
    """
    text = read_text(path)
    document = _load_json(text, path) if str(path).endswith(".json") else _load_yaml(text, path)
    if not isinstance(document, Mapping):
        raise ValueError(f"{path}: a sample set is a mapping with a 'samples' list, got {type(document).__name__}")
    return parse_samples(document)


def _load_json(text: str, path: str | Path) -> Any:
    """A JSON sample set; a key given twice in one object is an error naming it (json keeps the last silently)."""
    def unique(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
        return unique_keys(pairs, lambda key, *_: ValueError(
            f"{path}: key {key!r} appears twice in one object (the first value would be ignored); give it once"))

    try:
        return json.loads(text, object_pairs_hook=unique)
    except json.JSONDecodeError as error:
        raise ValueError(f"{path}: not valid JSON ({error})") from error


def _load_yaml(text: str, path: str | Path) -> Any:
    """A YAML sample set; a key given twice in one mapping is an error naming it and its lines (YAML forbids it)."""
    try:
        import yaml
    except ImportError as error:  # pragma: no cover - PyYAML comes with the pyterrier extra
        raise ImportError("reading a YAML sample set needs PyYAML: `pip install pyyaml` (or pass JSON)") from error

    class UniqueKeys(yaml.SafeLoader):
        def construct_mapping(self, node: Any, deep: bool = False) -> Any:
            first: dict[Any, Any] = {}
            for key_node, _ in node.value if isinstance(node, yaml.MappingNode) else ():
                if key_node.tag == "tag:yaml.org,2002:merge":  # "<<: *base" may be overridden: not a duplicate
                    continue
                key = self.construct_object(key_node, deep=deep)
                try:
                    seen = first.setdefault(key, key_node.start_mark)
                except TypeError:  # an unhashable key: the loader itself names it
                    continue
                if seen is not key_node.start_mark:
                    raise yaml.constructor.ConstructorError(
                        None, None, f"key {key!r} appears twice in one mapping (first at line {seen.line + 1}, column "
                        f"{seen.column + 1}; the first value would be ignored)", key_node.start_mark)
            return super().construct_mapping(node, deep=deep)

    try:
        return yaml.load(text, Loader=UniqueKeys)  # a SafeLoader that refuses a key given twice
    except yaml.YAMLError as error:
        mark = getattr(error, "problem_mark", None)
        where = f" at line {mark.line + 1}, column {mark.column + 1}" if mark is not None else ""
        problem = getattr(error, "problem", None) or " ".join(str(error).split())
        raise ValueError(f"{path}: not valid YAML ({problem}{where})") from error


def read_text(path: str | Path) -> str:
    """A file's text; a file that is not UTF-8 is a ValueError naming it and the byte."""
    try:
        return Path(path).read_text(encoding="utf-8")
    except UnicodeDecodeError as error:
        raise ValueError(f"{path}: not UTF-8 text (byte {error.object[error.start]:#04x} at offset {error.start}); "
                         "save it as UTF-8") from None


def evaluate_samples(samples: Sequence[Sample], outputs: Mapping[str, str] | None = None,
                     judge: Judge | None = None) -> list[dict[str, Any]]:
    """One observation per (sample, assertion): sampleId, type, passed, evidence, level, judge.

    The evidence holds the raw score, the reason and the threshold; each metric is judged in one batch. A sample
    without an output is an error naming it.
    """
    outputs = outputs or {}
    rows: list[tuple[Sample, Assertion, str]] = []
    for sample in samples:
        output = outputs.get(sample.sample_id, sample.output)
        if output is None:
            raise ValueError(f"sample {sample.sample_id!r} has no output: give it an 'output' field or pass outputs= "
                             "(--outputs on the command line)")
        if not isinstance(output, str):
            raise ValueError(f"sample {sample.sample_id!r}: the output must be a text, got {type(output).__name__} "
                             f"{output!r:.40}")
        check_unicode(output, f"sample {sample.sample_id!r}: the output")
        rows += [(sample, assertion, output) for assertion in sample.assertions]
    unknown = sorted(set(outputs) - {sample.sample_id for sample in samples})
    if unknown:
        raise ValueError(f"outputs name sampleId(s) the sample set does not have: {', '.join(map(repr, unknown[:5]))}"
                         f"{f' and {len(unknown) - 5} more' if len(unknown) > 5 else ''}")
    results: dict[int, Any] = {}
    for kind, metric_type in METRICS.items():
        mine = [(k, row) for k, row in enumerate(rows) if row[1].type == kind]
        groups: dict[tuple[int, bool], list[tuple[int, RubricCase]]] = {}
        for k, (sample, assertion, output) in mine:
            if kind == "answer_relevancy" and sample.text is None:
                raise ValueError(f"sample {sample.sample_id!r}: answer_relevancy needs a text input (inputKind: text)")
            reference = assertion.reference if assertion.reference is not None else sample.reference
            case = RubricCase(output, question=sample.text) if kind == "answer_relevancy" else \
                RubricCase(output, reference=reference)
            groups.setdefault((assertion.threshold, assertion.negate), []).append((k, case))
        for (threshold, negate), cases in groups.items():
            metric = metric_type(threshold=threshold, negate=negate, judge=judge)
            results.update(zip([k for k, _ in cases], metric.measure_cases([c for _, c in cases]), strict=True))
    return [{"sampleId": sample.sample_id, "type": assertion.type, "passed": results[k].passed,
             "evidence": results[k].evidence, "level": results[k].level, "judge": results[k].judge}
            for k, (sample, assertion, _) in enumerate(rows)]
