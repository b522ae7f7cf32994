"""The module tree with exact parameter counts, folded the way PyTorch prints repeats, and as sunburst data.

Shared and tied tensors count once, at the first place `named_parameters()` meets them (an MLM decoder tied to
the word embeddings counts under the embeddings; ALBERT's one shared layer counts once). A node's total is
therefore its own parameters plus its children's totals, exactly, which is what a sunburst with
`branchvalues="total"` needs.

>>> root = module_tree(model)                              # doctest: +SKIP
>>> print(render(fold_repeats(root)))                      # doctest: +SKIP
BertModel  109,482,240
  embeddings: BertEmbeddings  23,837,184
  ...
    layer: ModuleList  85,054,464
      0-11: 12 × BertLayer  85,054,464 (7,087,872 each)
"""
from __future__ import annotations

import html
from dataclasses import dataclass, field, replace

from torch import nn


@dataclass(frozen=True)
class ModuleNode:
    name: str  # the attribute name in its parent ("0-11" for a folded run)
    path: str  # dotted path from the root ("" for the root), as in named_modules()
    cls: str  # the module's class name
    own: int  # parameters held directly by this module (first appearance only)
    total: int  # own + children's totals
    children: tuple["ModuleNode", ...] = ()
    tied: dict[str, str] = field(default_factory=dict)  # local parameter name -> where it counts
    repeat: int = 1  # > 1: a folded run of identical blocks; `total` covers all of them

    @property
    def each(self) -> int:
        """Parameters of one block of a folded run."""
        return self.total // self.repeat


def module_tree(model: nn.Module) -> ModuleNode:
    """The whole module hierarchy with exact counts; every parameter counted once."""
    canonical = {id(p): name for name, p in model.named_parameters()}  # first name wins, as in the listing
    return _build(model, "", "", canonical)


def _build(module: nn.Module, name: str, path: str, canonical: dict[int, str]) -> ModuleNode:
    own, tied = 0, {}
    for local, param in module.named_parameters(recurse=False):
        full = f"{path}.{local}" if path else local
        if canonical[id(param)] == full:
            own += param.numel()
        else:
            tied[local] = canonical[id(param)]
    children = tuple(_build(child, child_name, f"{path}.{child_name}" if path else child_name, canonical)
                     for child_name, child in module.named_children())
    return ModuleNode(name, path, type(module).__name__, own, own + sum(c.total for c in children), children,
                      tied)


def _signature(node: ModuleNode) -> tuple:
    """What must match for two blocks to fold: class and structure with counts, not the names."""
    return (node.cls, node.own, node.total, tuple(_signature(c) for c in node.children))


def fold_repeats(node: ModuleNode) -> ModuleNode:
    """Fold runs of identical numbered siblings into one node: `layer.0-11: 12 × BertLayer`."""
    runs: list[list[ModuleNode]] = []
    for child in map(fold_repeats, node.children):
        if (runs and child.name.isdigit() and runs[-1][0].name.isdigit()
                and _signature(child) == _signature(runs[-1][0])):
            runs[-1].append(child)
        else:
            runs.append([child])
    return replace(node, children=tuple(_fold(run) for run in runs))


def _fold(run: list[ModuleNode]) -> ModuleNode:
    first = run[0]
    if len(run) == 1:
        return first
    return replace(first, name=f"{first.name}-{run[-1].name}", repeat=len(run), total=sum(n.total for n in run))


def render(node: ModuleNode, depth: int = 0, max_depth: int | None = None) -> str:
    """The tree as indented text, like printing a PyTorch model but with parameter counts."""
    label = f"{node.repeat} × {node.cls}" if node.repeat > 1 else node.cls
    name = f"{node.name}: " if node.name else ""
    each = f" ({node.each:,} each)" if node.repeat > 1 else ""
    tied = "".join(f"  [{k} tied to {v}]" for k, v in node.tied.items())
    lines = [f"{'  ' * depth}{name}{label}  {node.total:,}{each}{tied}"]
    if max_depth is None or depth < max_depth:
        lines += [render(c, depth + 1, max_depth) for c in node.children]
    return "\n".join(lines)


def sunburst_data(root: ModuleNode) -> dict[str, list]:
    """ids, labels, parents and values for `go.Sunburst(branchvalues="total")`; modules without parameters
    are left out. Give it the unfolded tree: every block is its own wedge."""
    data = {"ids": [], "labels": [], "parents": [], "values": [], "classes": []}

    def visit(node: ModuleNode, parent_id: str) -> None:
        if node.total == 0:
            return
        node_id = node.path or root.cls
        data["ids"].append(node_id)
        data["labels"].append(node.name or node.cls)
        data["parents"].append(parent_id)
        data["values"].append(node.total)
        data["classes"].append(node.cls)
        for child in node.children:
            visit(child, node_id)

    visit(root, "")
    return data


def tree_html(node: ModuleNode, depth: int = 0) -> str:
    """The tree as nested <details> that open on a click (the root's first level open), every name escaped: what
    the app's Architecture page and an exported site both show."""
    label = f"{node.repeat} × {node.cls}" if node.repeat > 1 else node.cls
    name = f"<b>{html.escape(node.name)}</b>: " if node.name else ""
    count = f"{node.total:,}" + (f" ({node.each:,} each)" if node.repeat > 1 else "")
    tied = "".join(f" · <i>{html.escape(k)} tied to {html.escape(v)}</i>" for k, v in node.tied.items())
    summary = f"{name}{html.escape(label)} <span style='color:#1f5fa8'>{count}</span>{tied}"
    if not node.children:
        return f"<div style='margin-left:1.4em'>{summary}</div>"
    inner = "".join(tree_html(c, depth + 1) for c in node.children)
    return (f"<details {'open' if depth < 1 else ''} style='margin-left:{0 if depth == 0 else 1}em'>"
            f"<summary>{summary}</summary>{inner}</details>")
