"""The browser's runtime for a live site (`export --live`): onnxruntime-web, which runs the model in WebAssembly, and
Hugging Face's tokenizers for the web, which read the model's `tokenizer.json`. Both are npm packages, pinned here
by version and by the registry's own integrity hash; `pip install` cannot bring them, so the first live export
fetches each once from the npm registry into a cache (`BERTVIZ_LITE_RUNTIME`, else ~/.cache/bertviz-lite/runtime),
and `bertviz-lite runtime` does it ahead, for a machine that exports offline later. A site never reads a CDN: the
files are copied into it, with their licences."""
from __future__ import annotations

import base64
import hashlib
import http.client
import io
import os
import tarfile
import urllib.error
import urllib.request
from dataclasses import dataclass
from pathlib import Path

from ..errors import InputError

REGISTRY = "https://registry.npmjs.org"


@dataclass(frozen=True)
class Package:
    """An npm package's version, the registry's integrity hash of its tarball, and the files the site takes."""
    name: str
    version: str
    integrity: str  # "sha512-<base64>", as `npm view NAME@VERSION dist.integrity` gives it
    files: tuple[str, ...]  # paths inside the tarball's package/ folder
    licence: str  # its licence's name, for the site's LICENSES file

    @property
    def tarball(self) -> str:
        return f"{REGISTRY}/{self.name}/-/{self.name.rsplit('/', 1)[-1]}-{self.version}.tgz"

    @property
    def folder(self) -> str:
        return f"{self.name.replace('/', '+')}-{self.version}"


ONNXRUNTIME_WEB = Package(
    "onnxruntime-web", "1.30.0",
    "sha512-q0y+JrrtukXSzsBWEMccVfqX25LRmosXHF+CaRJmg8pZClzcV7svNc4rKY3jL02Vb7QmRMDs1SigqR4CXAfKYQ==",
    ("dist/ort.wasm.min.js", "dist/ort-wasm-simd-threaded.mjs", "dist/ort-wasm-simd-threaded.wasm"),
    "MIT License, Copyright (c) Microsoft Corporation")
TOKENIZERS = Package(
    "@huggingface/tokenizers", "0.2.0",
    "sha512-LidMHe1FpcSYH4vcSjXooda34pC0M8m1gmDOv7SQi6Iv+ib1zX7J3sHBCC9/3FPCkn2k1b55FneVqMRxrr99pg==",
    ("dist/tokenizers.min.mjs", "LICENSE"), "Apache License 2.0, Copyright Hugging Face")
PACKAGES = (ONNXRUNTIME_WEB, TOKENIZERS)


def cache_folder() -> Path:
    return Path(os.environ.get("BERTVIZ_LITE_RUNTIME") or Path.home() / ".cache" / "bertviz-lite" / "runtime")


def runtime_files() -> dict[str, Path]:
    """Every file the live site takes from the packages, by its name in the package (`dist/ort.wasm.min.js`),
    fetched first where the cache lacks it."""
    return {name: path for package in PACKAGES for name, path in package_files(package).items()}


def package_files(package: Package) -> dict[str, Path]:
    """The files a package gives, by their names in it, from the cache (fetched and checked first where it lacks
    them). The tests take axe-core so too (tests/accessibility.py)."""
    folder = cache_folder() / package.folder
    if not all((folder / name).is_file() for name in package.files):
        unpack(package, fetched(package), folder)
    return {name: folder / name for name in package.files}


def fetched(package: Package) -> bytes:
    """The package's tarball from the npm registry, refused unless it is the one its integrity hash names."""
    try:
        with urllib.request.urlopen(package.tarball, timeout=60) as response:
            data = response.read()
    except (urllib.error.URLError, OSError, http.client.HTTPException) as error:  # none, or a dropped connection
        raise InputError(f"A live site needs {package.name} {package.version} from the npm registry, which could not "
                         f"be reached ({getattr(error, 'reason', error)}). Run `bertviz-lite runtime` once where "
                         f"{REGISTRY} can be reached (it fills {cache_folder()}), or export without --live.") from None
    digest = "sha512-" + base64.b64encode(hashlib.sha512(data).digest()).decode("ascii")
    if digest != package.integrity:
        raise InputError(f"{package.tarball} is not the file bertviz-lite pins ({digest[:20]}… where "
                         f"{package.integrity[:20]}… was expected): it was not used.")
    return data


def unpack(package: Package, tarball: bytes, folder: Path) -> None:
    """The package's wanted files into `folder`, each written whole (a new name, then renamed in place)."""
    folder.mkdir(parents=True, exist_ok=True)
    with tarfile.open(fileobj=io.BytesIO(tarball), mode="r:gz") as archive:
        for name in package.files:
            member = archive.extractfile(f"package/{name}")
            target = folder / name
            target.parent.mkdir(parents=True, exist_ok=True)
            partial = target.with_name(target.name + ".part")
            partial.write_bytes(member.read())
            partial.replace(target)


MIT = """Permission is hereby granted, free of charge, to any person obtaining a copy of this software and associated
documentation files (the "Software"), to deal in the Software without restriction, including without limitation the
rights to use, copy, modify, merge, publish, distribute, sublicense, and/or sell copies of the Software, and to permit
persons to whom the Software is furnished to do so, subject to the following conditions:

The above copyright notice and this permission notice shall be included in all copies or substantial portions of the
Software.

THE SOFTWARE IS PROVIDED "AS IS", WITHOUT WARRANTY OF ANY KIND, EXPRESS OR IMPLIED, INCLUDING BUT NOT LIMITED TO THE
WARRANTIES OF MERCHANTABILITY, FITNESS FOR A PARTICULAR PURPOSE AND NONINFRINGEMENT. IN NO EVENT SHALL THE AUTHORS OR
COPYRIGHT HOLDERS BE LIABLE FOR ANY CLAIM, DAMAGES OR OTHER LIABILITY, WHETHER IN AN ACTION OF CONTRACT, TORT OR
OTHERWISE, ARISING FROM, OUT OF OR IN CONNECTION WITH THE SOFTWARE OR THE USE OR OTHER DEALINGS IN THE SOFTWARE."""


def licences() -> str:
    """The live folder's LICENSES.md: each package's files, its licence, and the licence's text (onnxruntime-web
    ships its MIT licence as a line in its script's header; the tokenizers' Apache licence is copied beside)."""
    ort, tok = ONNXRUNTIME_WEB, TOKENIZERS
    return (f"# Third-party files in this folder\n\n"
            f"## {ort.name} {ort.version}\n\nFrom {ort.tarball}: ort.wasm.min.js, ort-wasm-simd-threaded.mjs and "
            f"ort-wasm-simd-threaded.wasm (here in parts, `.wasm.000`…). {ort.licence}:\n\n{MIT}\n\n"
            f"## {tok.name} {tok.version}\n\nFrom {tok.tarball}: tokenizers.min.mjs. {tok.licence}; its text is in "
            f"LICENSE-tokenizers.\n")
