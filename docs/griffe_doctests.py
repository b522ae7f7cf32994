"""A Griffe extension for the API reference (mkdocs.yml loads it): the package's docstrings are prose with
doctest examples, which Markdown would read as nested block quotes and link references. Each doctest block (a
`>>>` line up to the next blank line) becomes a fenced `pycon` block, and the command line's usage lines (an
indented block after a paragraph) a fenced `text` block. The docstrings themselves are left as they are."""
from __future__ import annotations

import re

import griffe

_INDENTED = re.compile(r"^( +)\S")


def fence_examples(text: str) -> str:
    lines, out, i = text.split("\n"), [], 0
    while i < len(lines):
        line = lines[i]
        stripped = line.lstrip()
        previous_blank = i == 0 or not lines[i - 1].strip()
        block_start = None
        if stripped.startswith(">>>"):
            block_start, language = line[: len(line) - len(stripped)], "pycon"
        elif previous_blank and _INDENTED.match(line) and i > 0 and _last_block_is_paragraph(lines, i):
            block_start, language = "", "text"
        if block_start is None:
            out.append(line)
            i += 1
            continue
        j = i
        while j < len(lines) and lines[j].strip():
            j += 1
        block = lines[i:j]
        if language == "text":  # an indented literal block: drop the indentation it shares
            width = min(len(b) - len(b.lstrip()) for b in block)
            block = [b[width:] for b in block]
        else:
            block = [b[len(block_start):] if b.startswith(block_start) else b.lstrip() for b in block]
        if out and out[-1].strip():
            out.append("")
        out += [f"{block_start}```{language}", *(f"{block_start}{b}" for b in block), f"{block_start}```"]
        i = j
    return "\n".join(out)


def _last_block_is_paragraph(lines: list[str], i: int) -> bool:
    """Whether the last non-blank line before line i is a paragraph's at the left margin (not a list item's)."""
    j = i - 1
    while j >= 0 and not lines[j].strip():
        j -= 1
    return j >= 0 and not lines[j].startswith((" ", "-", "*")) and not re.match(r"\d+\. ", lines[j])


class DoctestBlocks(griffe.Extension):
    def on_instance(self, *, obj: griffe.Object, **kwargs) -> None:
        if obj.docstring is not None:
            obj.docstring.value = fence_examples(obj.docstring.value)
