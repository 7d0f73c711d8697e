"""bench/import_structure.py on a crafted package: levels, upward imports and cycles as defined there."""

from __future__ import annotations

from pathlib import Path

from conftest import ROOT, load_script

import_structure = load_script("import_structure", ROOT / "bench" / "import_structure.py")


def _package(tmp_path: Path, files: dict[str, str]) -> Path:
    for name, text in files.items():
        path = tmp_path / "pkg" / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    return tmp_path / "pkg"


def test_levels_upward_imports_and_cycles_of_a_crafted_package(tmp_path: Path) -> None:
    package = _package(tmp_path, {
        "__init__.py": "from pkg import top\n",
        "_version.py": "",
        "settings.py": "from pkg._version import V\n\ndef f():\n    from pkg.low import cache\n",
        "low/__init__.py": "",
        "low/cache.py": "from pkg import settings\n",
        "top.py": "from pkg.low.cache import x\n\ndef g():\n    import pkg\n",
        "typed.py": "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from pkg import top\n",
    })
    s = import_structure.structure(package, "pkg")
    assert s["modules"] == 7 and s["parts"] == ["(root)", "_version", "low", "settings", "top", "typed"]
    assert s["levels"] == {"_version": 0, "settings": 1, "low": 2, "top": 3, "(root)": 4, "typed": 4}
    assert [(a, b) for a, b, _ in s["upward"]] == [("pkg.top", "pkg"), ("pkg.settings", "pkg.low.cache")]
    assert s["cycles"] == [["pkg.low.cache", "pkg.settings"]]  # the deferred import closes it; the root's is left out


def test_the_package_has_no_import_of_its_root_from_inside() -> None:
    s = import_structure.structure(ROOT / "ir_rag_axioms", "ir_rag_axioms")
    assert not [(a, b) for a, b, _ in s["upward"] if b == "ir_rag_axioms"]
    assert all("ir_rag_axioms.settings" not in cycle for cycle in s["cycles"])  # settings own their constants


def test_the_only_cycle_is_the_operator_pattern_of_the_axiom_base() -> None:
    s = import_structure.structure(ROOT / "ir_rag_axioms", "ir_rag_axioms")
    operators = {f"ir_rag_axioms.axioms.{m}" for m in ("base", "combinators", "wrappers", "preconditions")}
    assert s["cycles"] and all(set(cycle) <= operators for cycle in s["cycles"]), s["cycles"]
    assert {a for a, _, _ in s["upward"]} <= operators, s["upward"]


def test_the_parts_stand_in_layers_metrics_above_axioms_evaluation_above_pyterrier_and_metrics() -> None:
    """A metric axiom registers from metrics/ (the axioms never import it); metrics/ and pyterrier/ never import
    evaluation/ (what they share with it lives in the leaves pair_counts and measuring)."""
    levels = import_structure.structure(ROOT / "ir_rag_axioms", "ir_rag_axioms")["levels"]
    order = ["analysis", "axioms", "metrics", "pyterrier", "evaluation", "cli"]
    assert [levels[p] for p in order] == sorted({levels[p] for p in order}), {p: levels[p] for p in order}
    assert levels["pair_counts"] == levels["measuring"] == 0


def test_the_metric_axioms_are_registered_whatever_part_of_the_package_is_imported_first() -> None:
    import subprocess
    import sys

    code = ("from ir_rag_axioms.axioms.registry import get\n"
            "print([str(get(n)) for n in ('FAITHFULNESS', 'ANSWER_RELEVANCY', 'CONTEXT_RECALL', 'CONS6', "
            "'LLM_PAIRWISE')])")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300,
                          env={"PYTHONPATH": str(ROOT), "HF_HUB_OFFLINE": "1", "PATH": "/usr/bin:/bin"})
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.strip() == ("['FAITHFULNESS()', 'ANSWER_RELEVANCY()', 'CONTEXT_RECALL()', 'CONS6()', "
                                   "'LLM_PAIRWISE()']")
