"""Modules that moved into subpackages: the old import paths still work, warn, and give the same objects."""

from __future__ import annotations

import importlib
import sys
import warnings

import pytest

from ir_rag_axioms import _moved

NAMES = {  # old path -> a name it exported and where that name lives now
    "ir_rag_axioms.experiment": ("AxiomaticExperiment", "ir_rag_axioms.evaluation.experiment"),
    "ir_rag_axioms.learning": ("cross_validate", "ir_rag_axioms.evaluation.learning"),
    "ir_rag_axioms.systems": ("compare_systems", "ir_rag_axioms.evaluation.systems"),
    "ir_rag_axioms.report": ("markdown", "ir_rag_axioms.evaluation.report"),
    "ir_rag_axioms.runs": ("nugget_qrels", "ir_rag_axioms.datasets.runs"),
    "ir_rag_axioms.metrics.transformer": ("MetricScorer", "ir_rag_axioms.pyterrier.metrics"),
    "ir_rag_axioms.presets": ("ICTIR2025", "ir_rag_axioms.axioms.presets"),
    "ir_rag_axioms.catalogue": ("catalogue", "ir_rag_axioms.axioms.catalogue"),
    "ir_rag_axioms.explanation": ("Explanation", "ir_rag_axioms.axioms.explanation"),
    "ir_rag_axioms.execution": ("preference_stacks", "ir_rag_axioms.axioms.execution"),
    "ir_rag_axioms.dimensions": ("dimension_table", "ir_rag_axioms.evaluation.dimensions"),
}


def test_every_moved_path_is_tested() -> None:
    assert set(NAMES) == set(_moved.MOVED)


@pytest.mark.parametrize("old", sorted(NAMES))
def test_an_old_path_imports_with_a_deprecation_warning_and_the_same_objects(old: str) -> None:
    sys.modules.pop(old, None)
    name, new = NAMES[old]
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        module = importlib.import_module(old)
    assert [w.category for w in caught if "moved to" in str(w.message)] == [DeprecationWarning]
    assert new in str(next(w.message for w in caught if "moved to" in str(w.message)))
    assert getattr(module, name) is getattr(importlib.import_module(new), name)
    assert name in dir(module)
    with pytest.raises(AttributeError, match="moved to"):
        module.no_such_name  # noqa: B018


def test_the_old_runs_path_forwards_to_both_new_modules() -> None:
    from ir_rag_axioms.evaluation.run_measures import check_run, kendall_tau

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        from ir_rag_axioms.runs import check_run as old_check_run  # type: ignore[import-not-found]
        from ir_rag_axioms.runs import kendall_tau as old_tau  # type: ignore[import-not-found]
    assert old_check_run is check_run and old_tau is kendall_tau


def test_the_package_imports_no_old_path() -> None:
    for old in _moved.MOVED:
        sys.modules.pop(old, None)
    import ir_rag_axioms.cli  # noqa: F401  (imports most of the package)
    import ir_rag_axioms.evaluation.systems  # noqa: F401

    assert not set(_moved.MOVED) & set(sys.modules)
