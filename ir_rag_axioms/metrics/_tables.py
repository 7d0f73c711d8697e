"""Markdown tables in an answer: each body row is one statement, its cells named by the header row."""

from __future__ import annotations

import re
from typing import NamedTuple

from ir_rag_axioms.metrics import quantities

_RULE_CELL = re.compile(r"\s*:?-{3,}:?\s*")
"""A cell of a table's delimiter row ("---", ":---:")."""
_PIPE = re.compile(r"(?<!\\)\|")
"""A cell border ("\\|" is a pipe inside a cell)."""


class Row(NamedTuple):
    """One body row of a table: its character span, its statement text, its bare numbers with the header's unit."""

    start: int
    end: int
    text: str
    units: tuple[tuple[float, str], ...] = ()
    """(value, unit) of each bare number cell under a header naming a unit ("| Height (m) |" over "| 532 |") or a
    counted thing ("| Floors |" over "| 128 |": "floor")."""


class Table(NamedTuple):
    """A markdown table: its character span (header to last row), its body rows, whether its first column is labels."""

    start: int
    end: int
    rows: tuple[Row, ...]
    labels: bool = False


LABEL_HEADERS = frozenset({"fact", "facts", "feature", "features", "attribute", "property", "characteristic", "aspect",
                           "detail", "details", "item", "metric", "measure", "parameter", "field", "category", "key"})
"""First header cells that make a table's first column the labels of its rows ("| Fact | Value |", "| Area | ...")."""


def _cells(line: str) -> list[str]:
    """The cells of a table line ("| a | b |" -> ["a", "b"]), outer pipes optional."""
    inner = line.strip()
    inner = inner[1:] if inner.startswith("|") else inner
    inner = inner[:-1] if inner.endswith("|") and not inner.endswith("\\|") else inner
    return [cell.strip().replace("\\|", "|") for cell in _PIPE.split(inner)]


def _is_rule(line: str) -> bool:
    """Whether a line is a table's delimiter row ("|---|:---:|")."""
    return "-" in line and "|" in line and all(_RULE_CELL.fullmatch(c) for c in _cells(line))


def row_text(header: list[str], cells: list[str]) -> str:
    """A row as a statement: "Eiffel Tower (City: Paris; Height: 330 m)." from header and cells; empty cells skipped."""
    names = (header + [""] * len(cells))[:len(cells)]
    named = [(h, c) for h, c in zip(names, cells, strict=True) if c]
    if not named:
        return ""
    first, rest = named[0][1], named[1:]
    if not rest:
        return f"{first}."
    return f"{first} ({'; '.join(f'{h}: {c}' if h else c for h, c in rest)})."


_HEADER_UNIT = re.compile(r"\(([^()]+)\)\s*$")
"""The unit a header names in parentheses at its end: "Height (m)", "Share (%)", "Cost (USD)"."""
_BARE_NUMBER = re.compile(r"[-−]?\d[\d,]*(?:\.\d+)?")


def cell_units(header: list[str], cells: list[str]) -> tuple[tuple[float, str], ...]:
    """(value, unit) of the bare number cells under a header with a unit ("Height (m)") or a count ("Floors": floor)."""
    found = []
    for name, cell in zip(header, cells, strict=False):
        unit = _HEADER_UNIT.search(name)
        noun = unit[1].strip() if unit else quantities.counted(name)
        if noun and _BARE_NUMBER.fullmatch(cell):
            found.append((float(cell.replace(",", "").replace("−", "-")), noun))
    return tuple(found)


def tables(text: str) -> list[Table]:
    """The markdown tables of a text: a header row with a pipe, a delimiter row, then the rows with a pipe."""
    lines, offset = [], 0
    for line in text.splitlines(keepends=True):
        lines.append((offset, offset + len(line.rstrip("\r\n")), line.rstrip("\r\n")))
        offset += len(line)
    found, k = [], 0
    while k + 1 < len(lines):
        start, _, head = lines[k]
        if "|" not in head or _is_rule(head) or not _is_rule(lines[k + 1][2]):
            k += 1
            continue
        header, rows, k = _cells(head), [], k + 2
        while k < len(lines) and "|" in lines[k][2] and lines[k][2].strip():
            row_start, row_end, line = lines[k]
            cells = _cells(line)
            rows.append(Row(row_start, row_end, row_text(header, cells), cell_units(header, cells)))
            k += 1
        labels = bool(header) and header[0].lower() in LABEL_HEADERS
        found.append(Table(start, rows[-1].end if rows else lines[k - 1][1], tuple(rows), labels))
    return found
