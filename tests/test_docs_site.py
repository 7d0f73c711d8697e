"""The site's navigation aids: search led by the guide pages, tables of contents that keep inline code, and every
notebook listed where notebooks are listed."""

from __future__ import annotations

import re
from pathlib import Path
from types import SimpleNamespace

import pytest
import yaml
from test_docs import DOCS, ROOT, _open, hooks, site  # noqa: F401  (site: the built site, a fixture)

NOTEBOOKS = sorted(p.name for p in (DOCS / "notebooks").glob("*.ipynb"))


def _page(src_uri: str, **meta: object) -> SimpleNamespace:
    return SimpleNamespace(file=SimpleNamespace(src_uri=src_uri), meta=dict(meta))


def test_the_search_boost_puts_guides_above_notebooks_above_the_api_reference() -> None:
    kinds = {uri: hooks.page_kind(uri) for uri in ("index.md", "metrics.md", "notebooks/01_x.ipynb", "api.md",
                                                   "api/ir_rag_axioms.aggregation.md")}
    assert kinds == {"index.md": "guide", "metrics.md": "guide", "notebooks/01_x.ipynb": "notebook", "api.md": "api",
                     "api/ir_rag_axioms.aggregation.md": "api"}
    assert hooks.search_boost("metrics.md") > hooks.search_boost("notebooks/01_x.ipynb") > hooks.search_boost("api.md")
    page = _page("api/ir_rag_axioms.aggregation.md")
    hooks.on_page_markdown("# `ir_rag_axioms.aggregation`\n", page=page)
    assert page.meta == {"search": {"boost": hooks.SEARCH_BOOST["api"]}}
    own = _page("metrics.md", search={"boost": 3})  # a page's own front matter wins
    hooks.on_page_markdown("# RAG metrics\n", page=own)
    assert own.meta == {"search": {"boost": 3}}


def test_the_site_keeps_inline_code_in_tables_of_contents() -> None:
    config = yaml.safe_load((ROOT / "mkdocs.yml").read_text())
    assert "typeset" in config["plugins"]  # mkdocs-material's typeset plugin: the toc shows a heading's HTML


@pytest.mark.parametrize("page", ["index.md", "getting-started.md"])
def test_every_notebook_is_listed_where_notebooks_are_listed(page: str) -> None:
    text = (DOCS / page).read_text()
    assert len(NOTEBOOKS) == 7
    assert [n for n in NOTEBOOKS if f"(notebooks/{n})" not in text] == []


def test_every_notebook_is_in_the_navigation() -> None:
    config = yaml.safe_load((ROOT / "mkdocs.yml").read_text())
    section = next(entry["Notebooks"] for entry in config["nav"] if isinstance(entry, dict) and "Notebooks" in entry)
    assert sorted(Path(next(iter(e.values()))).name for e in section) == NOTEBOOKS


@pytest.mark.slow
def test_the_built_site_leads_its_search_with_guide_pages_and_keeps_code_in_its_toc(site, tmp_path: Path) -> None:  # noqa: F811
    url, out = site
    entry = r'class="md-nav__link">\s*<span class="md-ellipsis">\s*<span class="md-typeset">\s*(.*?)\s*</span>'
    toc = re.findall(entry, (out / "cli" / "index.html").read_text(), re.S)
    assert "TREC AutoJudge: <code>judge</code> and <code>nugget-reports</code>" in toc
    for query in ("KwikSort", "cache", "compare", "consistency"):
        found, _ = _open(f"{url}/?q={query}&check", tmp_path / "profile")
        first = found["results"][0].strip() if found["results"] else ""
        assert first and not first.startswith("ir_rag_axioms."), (query, found["results"][:3])  # not an API page
