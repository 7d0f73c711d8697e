"""Markdown tables in an answer: each body row is one statement, its cells named by the header row."""

from __future__ import annotations

import re
from typing import NamedTuple

_RULE_CELL = re.compile(r"\s*:?-{3,}:?\s*")
"""A cell of a table's delimiter row ("---", ":---:")."""
_PIPE = re.compile(r"(?<!\\)\|")
"""A cell border ("\\|" is a pipe inside a cell)."""


class Row(NamedTuple):
    """One body row of a table: its character span in the text and its statement text."""

    start: int
    end: int
    text: str


class Table(NamedTuple):
    """A markdown table: its character span (header to last row) and its body rows."""

    start: int
    end: int
    rows: tuple[Row, ...]


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
            rows.append(Row(row_start, row_end, row_text(header, _cells(line))))
            k += 1
        found.append(Table(start, rows[-1].end if rows else lines[k - 1][1], tuple(rows)))
    return found
