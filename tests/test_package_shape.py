"""The package's imports run one way, down its layers, with no circle: a reader can learn it from the ground up, and
a figure (a pure function of arrays) never drags in a trace or a model; and no file grows past what a reader can
hold (pages 250 lines, modules 400). The exported site's modules (frontend/src) keep the same two rules: no import
circle, no module over 400 lines."""
from __future__ import annotations

import ast
import re
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[1] / "bertviz_lite"
FRONTEND_SRC = PACKAGE.parent / "frontend" / "src"
JS_IMPORT = re.compile(r'^import\b[^;"]*?"\./([\w.-]+)"', re.M)  # import { a, b as c } from "./x.js" (on any lines)

LAYERS = [  # bottom up: a package imports only itself and the packages of the layers below it
    {"kinds"},  # how an operation's output is shown: two small types, below even the operations
    {"asking"},  # the words around a lecture's question and the hall's count, below the operations that ask
    {"errors", "deprecation", "tasks", "ops", "attention_lines", "closeness"},  # leaves: no other part of bertviz_lite
    {"graph"},  # a block as a graph of named ops
    {"families"},  # what each family's layer is, as a graph of named ops
    {"loading", "introspection"},  # models, tokenizers and their architecture
    {"figures"},  # pure functions from arrays to figures
    {"stepthrough"},  # a sentence through a model, every sub-step
    {"explaining", "analyses", "intervening"},  # what the numbers mean, and what they rest on
    {"attributing"},  # which input tokens an output rests on, and which method to trust
    {"tour"},
    {"export"},  # a lecture as a static site: it shows what the parts below compute
    {"serving", "benchmarks"},
    {"cli"},
    {"__main__"},  # `python -m bertviz_lite`
]
LAYER_OF = {part: depth for depth, parts in enumerate(LAYERS) for part in parts}


def module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imported_modules(path: Path) -> set[str]:
    """The bertviz_lite modules `path` imports (relative imports resolved; `from x import y` is x.y where y is a
    module), wherever the import statement sits (inside a function too)."""
    package = module_name(path).split(".") if path.name == "__init__.py" else module_name(path).split(".")[:-1]
    found = set()
    for statement in ast.walk(ast.parse(path.read_text())):
        if isinstance(statement, ast.ImportFrom):
            base = package[: len(package) - statement.level + 1] if statement.level else []
            module = ".".join([*base, *(statement.module.split(".") if statement.module else [])])
            if module.split(".")[0] != "bertviz_lite":
                continue
            found.add(module)
            found.update(f"{module}.{alias.name}" for alias in statement.names
                         if (PACKAGE.parent / module.replace(".", "/") / f"{alias.name}.py").exists())
        elif isinstance(statement, ast.Import):
            found.update(alias.name for alias in statement.names if alias.name.startswith("bertviz_lite."))
    return found


def graph() -> dict[str, set[str]]:
    return {module_name(path): imported_modules(path) for path in PACKAGE.rglob("*.py")}


def part(module: str) -> str:
    """The package (or top-level module) of bertviz_lite a module belongs to: "" for bertviz_lite itself."""
    return module.split(".")[1] if "." in module else ""


def circles(imports: dict[str, set[str]]) -> list[set[str]]:
    """The sets of modules that import each other round a circle (Tarjan's strongly connected components)."""
    index, low, stack, on_stack, found = {}, {}, [], set(), []

    def visit(module: str) -> None:
        index[module] = low[module] = len(index)
        stack.append(module)
        on_stack.add(module)
        for other in imports.get(module, ()):
            if other not in imports:
                continue
            if other not in index:
                visit(other)
                low[module] = min(low[module], low[other])
            elif other in on_stack:
                low[module] = min(low[module], index[other])
        if low[module] == index[module]:
            component = set()
            while not component or module not in component:
                component.add(stack.pop())
            on_stack.difference_update(component)
            if len(component) > 1:
                found.append(component)

    for module in imports:
        if module not in index:
            visit(module)
    return found


def test_no_module_imports_itself_round_a_circle():
    assert circles(graph()) == []


def test_the_circle_finder_finds_one():
    assert circles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [{"a", "b", "c"}]


def test_every_part_of_the_package_has_a_layer_and_imports_only_the_layers_below_it():
    imports = graph()
    parts = {part(module) for module in imports} - {""}  # bertviz_lite/__init__.py gathers the public API
    assert parts == set(LAYER_OF), "a new part of the package needs its place in LAYERS"
    upward = sorted((module, other) for module, others in imports.items() if part(module)
                    for other in others if part(other) and part(other) != part(module)
                    and LAYER_OF[part(other)] >= LAYER_OF[part(module)])
    assert upward == [], "imports that go up or sideways"


def test_figures_import_neither_the_analyses_nor_the_step_through():
    for module, others in graph().items():
        if part(module) == "figures":
            assert not {part(other) for other in others} & {"analyses", "stepthrough"}, module


def test_no_page_over_250_lines_and_no_module_over_400():
    """A page is a thin script over the shell and the backend; a module holds one idea (issue 35's measures)."""
    root = PACKAGE.parent
    pages = sorted((root / "app_pages").glob("*.py"))
    modules = [*PACKAGE.rglob("*.py"), *(root / "app_pages").rglob("*.py"), root / "app.py"]
    assert pages and all(len(page.read_text().splitlines()) <= 250 for page in pages), [
        (page.name, len(page.read_text().splitlines())) for page in pages if len(page.read_text().splitlines()) > 250]
    assert [str(m.relative_to(root)) for m in modules if len(m.read_text().splitlines()) > 400] == []


def js_imports(text: str) -> set[str]:
    """The modules of frontend/src that a module's source imports ("./x.js" → "x.js")."""
    return set(JS_IMPORT.findall(text))


def frontend_graph() -> dict[str, set[str]]:
    return {path.name: js_imports(path.read_text(encoding="utf-8")) for path in FRONTEND_SRC.glob("*.js")}


def test_the_js_import_reader_reads_every_form():
    text = 'import { a } from "./one.js";\nimport {\n  b,\n  c as d,\n} from "./two.js";\nimport "./three.js";\n' \
           'import * as four from "./four.js";\nimport x from "node:fs";\n// import { e } from "./not.js"\n'
    assert js_imports(text) == {"one.js", "two.js", "three.js", "four.js"}


def test_no_frontend_module_imports_itself_round_a_circle():
    imports = frontend_graph()
    assert "main.js" in imports and imports["main.js"], "frontend/src/main.js, the entry, imports the site's modules"
    assert all(other in imports for others in imports.values() for other in others), "an import of a missing module"
    assert circles(imports) == []


def test_no_frontend_module_over_400_lines():
    modules = sorted(FRONTEND_SRC.glob("*.js"))
    assert modules
    assert [(m.name, len(m.read_text(encoding="utf-8").splitlines())) for m in modules
            if len(m.read_text(encoding="utf-8").splitlines()) > 400] == []
