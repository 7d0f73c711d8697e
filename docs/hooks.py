"""MkDocs hooks: the axiom catalogue and the API reference are generated from the package when the site is built.

The API reference is one page per public module (``api/<module>.md``, generated: nothing is stored in docs/), listed
on ``api.md`` and in the navigation under "API reference", grouped by subpackage. The site's search ranks the guide
pages first (``search_boost``): the API pages' docstrings name every term, so unboosted they top every search.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
CATALOGUE = "<!-- catalogue: generated from the registry (docs/hooks.py) -->"
API = "<!-- api: one page per public module (docs/hooks.py) -->"
API_PAGE = "api.md"
"""The index page of the API reference (in mkdocs.yml's nav); the module pages are generated beside it."""
SEARCH_BOOST = {"guide": 10.0, "notebook": 2.0, "api": 0.01}
"""mkdocs-material's ``search: boost`` of a page by its kind: the guides lead, the API reference comes last."""


def page_kind(src_uri: str) -> str:
    """``api`` for the API reference (``api.md`` and ``api/...``), ``notebook`` for a notebook, else ``guide``."""
    if src_uri == API_PAGE or src_uri.startswith("api/"):
        return "api"
    return "notebook" if src_uri.endswith(".ipynb") else "guide"


def search_boost(src_uri: str) -> float:
    """The search boost of the page at ``src_uri`` (below docs/): ``SEARCH_BOOST`` of its kind."""
    return SEARCH_BOOST[page_kind(src_uri)]


def public_modules() -> list[str]:
    """Dotted names of the package's modules whose path has no ``_``-prefixed part (``__init__`` is the package)."""
    names = []
    for path in sorted((ROOT / "ir_rag_axioms").rglob("*.py")):
        parts = list(path.relative_to(ROOT).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        if not any(p.startswith("_") for p in parts):
            names.append(".".join(parts))
    return names


def catalogue_markdown() -> str:
    """The catalogue tables of every axiom of the package, as ``ir-rag-axioms list --markdown`` prints them."""
    from ir_rag_axioms.axioms.catalogue import markdown

    return markdown()


def module_page(name: str) -> str:
    """The path (below docs/) of a module's generated API page."""
    return f"api/{name}.md"


def module_markdown(name: str) -> str:
    """A module's API page: its title and one mkdocstrings section (``::: module``)."""
    return f"# `{name}`\n\n::: {name}\n    options:\n      members_order: source\n      show_root_heading: false\n"


def _summary(name: str) -> str:
    """The first line of a module's docstring, read from its source (nothing is imported)."""
    import ast

    path = ROOT / Path(*name.split("."))
    source = path / "__init__.py" if path.is_dir() else path.with_suffix(".py")
    doc = ast.get_docstring(ast.parse(source.read_text(encoding="utf-8"))) or ""
    return doc.strip().splitlines()[0] if doc.strip() else ""


def _group(name: str) -> str:
    """The navigation group of a module: its subpackage below the root (``ir_rag_axioms`` for top-level modules)."""
    parts = name.split(".")
    return ".".join(parts[:2]) if len(parts) > 2 or (ROOT / Path(*parts)).is_dir() else parts[0]


def api_markdown() -> str:
    """The index of the API reference: a link and the first docstring line of each public module, by subpackage."""
    lines: list[str] = []
    for group, names in _grouped().items():
        lines += [f"## `{group}`", ""]
        lines += [f"- [`{name}`]({module_page(name)}): {_summary(name)}" for name in names]
        lines.append("")
    return "\n".join(lines)


def _grouped() -> dict[str, list[str]]:
    groups: dict[str, list[str]] = {}
    for name in public_modules():
        groups.setdefault(_group(name), []).append(name)
    return groups


def api_nav() -> list[Any]:
    """The navigation of the API reference: the index page, then each subpackage's module pages."""
    return [API_PAGE, *({group: [{name: module_page(name)} for name in names]} for group, names in _grouped().items())]


def on_config(config: Any, **kwargs: Any) -> Any:
    """Expand the nav entry of ``api.md`` into the API reference section (the index and every module page)."""
    nav = config.get("nav") or []
    for k, entry in enumerate(nav):
        if isinstance(entry, dict) and list(entry.values()) == [API_PAGE]:
            nav[k] = {next(iter(entry)): api_nav()}
    return config


def on_files(files: Any, config: Any, **kwargs: Any) -> Any:
    """Add the generated API page of every public module."""
    from mkdocs.structure.files import File

    for name in public_modules():
        files.append(File.generated(config, module_page(name), content=module_markdown(name)))
    return files


def on_page_markdown(markdown: str, page: Any, **kwargs: Any) -> str:
    """Put the generated catalogue and API sections where their markers stand; set the page's search boost."""
    if page is not None:  # a page's own front matter (search: boost:) wins
        page.meta.setdefault("search", {}).setdefault("boost", search_boost(page.file.src_uri))
    if CATALOGUE in markdown:
        markdown = markdown.replace(CATALOGUE, catalogue_markdown())
    if API in markdown:
        markdown = markdown.replace(API, api_markdown())
    return markdown
