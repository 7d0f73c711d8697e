"""Run the notebooks of ``notebooks/`` and store the copies with their outputs in ``docs/notebooks/`` for the site.

    python docs/render_notebooks.py            # run every notebook (needs ../shared/data for 03-05), write copies
    python docs/render_notebooks.py --check    # exit 1 unless every copy has its notebook's cells and outputs

The notebooks themselves are kept without outputs (tests/test_notebooks.py); the site renders these copies as
they are stored and never runs a notebook while it is built. Rerun this after changing a notebook:
``tests/test_docs.py`` fails while a copy's cells differ from its notebook's.
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SOURCES = ROOT / "notebooks"
COPIES = ROOT / "docs" / "notebooks"
TIMEOUT = 900
"""Seconds per cell."""


def sources() -> list[Path]:
    """The notebooks of the repository, by name."""
    return sorted(SOURCES.glob("*.ipynb"))


def stale() -> list[str]:
    """Why copies are missing or out of date (empty when every copy has its notebook's cells, with outputs)."""
    import nbformat

    problems = []
    names = {p.name for p in sources()}
    problems += [f"{p.name}: no notebook of this name in notebooks/" for p in sorted(COPIES.glob("*.ipynb"))
                 if p.name not in names]
    for path in sources():
        copy = COPIES / path.name
        if not copy.is_file():
            problems.append(f"{path.name}: no rendered copy in docs/notebooks/")
            continue
        original, rendered = nbformat.read(path, as_version=4), nbformat.read(copy, as_version=4)
        if [(c.cell_type, c.source) for c in original.cells] != [(c.cell_type, c.source) for c in rendered.cells]:
            problems.append(f"{path.name}: its cells changed since the copy was rendered")
        elif not any(c.get("outputs") for c in rendered.cells if c.cell_type == "code"):
            problems.append(f"{path.name}: the copy has no outputs")
        elif any("plt." in c.source for c in original.cells if c.cell_type == "code") and not any(
                "image/png" in o.get("data", {}) for c in rendered.cells if c.cell_type == "code"
                for o in c.get("outputs", ())):
            problems.append(f"{path.name}: it draws a figure, but the copy shows none")
    return problems


def render(path: Path) -> Path:
    """Run one notebook in its folder (kernel ``python3`` of this interpreter) and write the copy with outputs."""
    import nbclient
    import nbformat

    notebook = nbformat.read(path, as_version=4)
    nbclient.NotebookClient(notebook, kernel_name="python3", timeout=TIMEOUT,
                            resources={"metadata": {"path": str(path.parent)}}).execute()
    for cell in notebook.cells:  # the copy shows outputs only: no run times, counts as they fell
        cell.metadata.pop("execution", None)
    COPIES.mkdir(parents=True, exist_ok=True)
    target = COPIES / path.name
    nbformat.write(notebook, target)
    return target


def main(argv: list[str] | None = None) -> int:
    """Render the notebooks (or only check the copies with ``--check``)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="only check the copies")
    parser.add_argument("names", nargs="*", help="notebook file names (default: all)")
    args = parser.parse_args(argv)
    if args.check:
        problems = stale()
        print("\n".join(problems) or "every rendered notebook is up to date")
        return 1 if problems else 0
    shared = ROOT.parent / "shared" / "data"
    os.environ.setdefault("IR_RAG_AXIOMS_DATA", str(shared))
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
    os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")
    os.environ["MPLBACKEND"] = "module://matplotlib_inline.backend_inline"  # figures kept as outputs (Agg drops them)
    os.environ["PYTHONPATH"] = os.pathsep.join(p for p in (str(ROOT), os.environ.get("PYTHONPATH", "")) if p)
    for path in sources():
        if not args.names or path.name in args.names:
            print(f"rendering {path.name} ...", flush=True)
            print(f"  wrote {render(path).relative_to(ROOT)}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
