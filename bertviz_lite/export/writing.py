"""The site on disk, written whole or not at all: into a temporary folder beside `out`, then moved in place, so
that an interrupted export leaves no half site (and an earlier site stays as it was until the new one is whole)."""
from __future__ import annotations

import base64
import json
import os
import shutil
import tempfile
import textwrap
from importlib.resources import files
from pathlib import Path

import plotly

from ..errors import InputError

ASSETS = ("index.html", "site.css", "site.js")  # the site's own files (bertviz_lite/export/assets); site.js is the
# bundle that frontend/build.mjs builds from frontend/src (committed: the package needs no node)
SPACE_README = """---
title: {title_yaml}
emoji: 🔍
colorFrom: blue
colorTo: gray
sdk: static
app_file: index.html
pinned: false
---

# {title}

A lecture exported by bertviz-lite: open `index.html` (a double click works, with no network), or push this folder
as a Hugging Face *static* Space, as it is.

{about}
"""


MARKER = ".bertviz-lite-site"  # in every site's folder: an export replaces only a folder that holds it (or none)


def write_site(out: Path, content: dict, most_bytes: int | None = None) -> Path:
    """Write the site of `content` (export.content.site_content) to the folder `out`: a new folder, an empty one,
    or an earlier site, which stays whole until the new one is (any other folder is refused, never emptied); at
    most `most_bytes` of scripts, else an InputError and no site."""
    out = Path(out).resolve()
    if out.exists() and not (out.is_dir() and (not any(out.iterdir()) or (out / MARKER).exists())):
        raise InputError(f"{out} holds other files than an exported site: give --out a new or empty folder.")
    try:
        out.parent.mkdir(parents=True, exist_ok=True)
        staging = Path(tempfile.mkdtemp(prefix=f".{out.name}-new-", dir=out.parent))
        staging.chmod(0o755)  # a web folder (mkdtemp makes it its owner's alone)
    except OSError as error:
        raise InputError(f"Cannot write the site to {out}: {error.strerror or error}.") from None
    try:
        _fill(staging, content, most_bytes)
        _swap(staging, out)
    except OSError as error:
        raise InputError(f"Cannot write the site to {out}: {error.strerror or error}.") from None
    finally:
        shutil.rmtree(staging, ignore_errors=True)  # gone already where the swap moved it in place
    return out


def _swap(new: Path, out: Path) -> None:
    """`new` in the place of `out`, by renames only: the earlier site is moved aside first and put back if the new
    one cannot take its place, so that at every moment one whole site is there (or the earlier one, aside)."""
    earlier = None
    if out.exists():
        earlier = Path(tempfile.mkdtemp(prefix=f".{out.name}-old-", dir=out.parent))
        os.replace(out, earlier / "site")
    try:
        os.replace(new, out)
    except BaseException:
        if earlier is not None:
            os.replace(earlier / "site", out)
        raise
    finally:
        if earlier is not None:
            shutil.rmtree(earlier, ignore_errors=True)


def _fill(folder: Path, content: dict, most_bytes: int | None) -> None:
    """The site's files: its own, plotly.js from the installed plotly package, the lecture's data as a script."""
    assets = files("bertviz_lite.export") / "assets"
    for name in ASSETS:
        (folder / name).write_text((assets / name).read_text(encoding="utf-8"), encoding="utf-8")
    shutil.copyfile(Path(plotly.__file__).parent / "package_data" / "plotly.min.js", folder / "plotly.min.js")
    (folder / "fonts.css").write_text(fonts_css(), encoding="utf-8")
    (folder / MARKER).write_text("A site written by `bertviz-lite export`: the next export may replace it.\n")
    shared = {k: v for k, v in content.items() if k not in ("steps", "weights", "live")}
    shared["live"] = content["live"](folder) if content.get("live") else None  # the manifest of what it wrote
    (folder / "data.js").write_text(f"window.BVL_SITE = {script_json(shared)};\n", encoding="utf-8")
    written = Budget(most_bytes)
    (folder / "sentences").mkdir()
    for i, (parts, main) in enumerate(content["steps"]()):  # one sentence, then one part of it, at a time; what
        _scripts(folder / "sentences", "BVL_PARTS", ((f"{i}-{part}", value) for part, value in parts), written)
        _scripts(folder / "sentences", "BVL_SENTENCES", [(i, main())], written)  # every view reads, last
    (folder / "weights").mkdir()
    _scripts(folder / "weights", "BVL_WEIGHTS", content["weights"](), written)
    title = f"bertviz-lite: {content['about'].split(' (', 1)[0]}"[:60]
    readme = SPACE_README.format(title_yaml=json.dumps(title), title=title,  # JSON is YAML; the line about the
                                 about=textwrap.indent(content["about"], "    "))  # site in a code block: a
    # sentence's markup or Markdown (an image from another host, a heading) shown as typed, never rendered
    (folder / "README.md").write_text(readme, encoding="utf-8")


FONTS = {"Source Sans": "SourceSansVF-Upright*.woff2", "Source Code": "SourceCodeVF-Upright*.woff2"}


def fonts_css() -> str:
    """The app's type (Source Sans and Source Code, as the installed Streamlit ships them) as @font-face rules with
    the fonts inline: a page opened from disk may not load a font file beside it, and no font comes from a CDN."""
    import streamlit

    media = Path(streamlit.__file__).parent / "static" / "static" / "media"
    rules = []
    for family, pattern in FONTS.items():
        found = sorted(media.glob(pattern))
        if found:  # else the page falls back to the system's sans-serif
            data = base64.b64encode(found[0].read_bytes()).decode("ascii")
            rules.append(f'@font-face {{ font-family: "{family}"; font-weight: 200 900; font-display: block; '
                         f'src: url(data:font/woff2;base64,{data}) format("woff2"); }}')
    return "\n".join(rules) + "\n"


class Budget:
    """The bytes a site's scripts may take (None: no bound): passing it ends the export with a message, and the
    staging folder goes (no half site)."""

    def __init__(self, most: int | None):
        self.most, self.used = most, 0

    def spend(self, size: int) -> None:
        self.used += size
        if self.most is not None and self.used > self.most:
            raise InputError(f"This site would pass {self.most / 2**20:,.0f} MB: export fewer or shorter sentences, "
                             f"or a smaller model (or leave the weights out).")


def _scripts(folder: Path, table: str, items, written: Budget) -> None:
    """One script per item, each setting its entry of a table the site reads (window.BVL_SENTENCES[0] = ...):
    what the site loads only when a view needs it."""
    for key, value in items:
        text = (f"window.{table} = window.{table} || {{}};\nwindow.{table}[{script_json(key)}] = "
                f"{script_json(value)};\n")
        written.spend(len(text))
        (folder / f"{key}.js").write_text(text, encoding="utf-8")


def script_json(value) -> str:
    """JSON that is safe inside a <script>: a sentence holding "</script>" or "<!--" cannot end the script or
    open a comment, since every "<", ">" and "&" is written as its \\u escape (JSON reads them back as they were)."""
    return (json.dumps(value, ensure_ascii=False).replace("<", "\\u003c").replace(">", "\\u003e")
            .replace("&", "\\u0026").replace("\u2028", "\\u2028").replace("\u2029", "\\u2029"))
