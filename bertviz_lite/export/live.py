"""What a live site (`export --live`) adds so that the browser computes a sentence the export did not hold: the model
with every sub-step an output (every_step.py) as ONNX, its weights in parts a static host serves (≤ 10 MB each: a
Hugging Face static Space keeps larger files in LFS), the tokenizer's own `tokenizer.json`, the runtime
(runtime.py) with its WebAssembly in parts too, and the manifest the browser reads (`site.live`): where each file is,
the outputs' names, which of the model's own outputs checks each block, the analyses' graphs
(analysis_graphs.py) and what feeds each, where each weight lies in the weights'
bytes (so that an explanation reads the model's W from the same bytes the runtime ran), and the words the app says
of an input, so that the browser says the same."""
from __future__ import annotations

import hashlib
import json
import shutil
import tempfile
from pathlib import Path

import torch

from ..errors import InputError
from ..loading.readable_pieces import is_byte_level, readable_pieces
from ..loading.vocabulary import UNKNOWN_NOTE
from ..ops import LOOKUP
from ..stepthrough.blocks import output_name
from ..stepthrough.trace import DROPPED_NOTE, EMPTY_NOTE, TYPES_REFUSED
from .analysis_graphs import write_graphs
from .every_step import (HIDDEN_STATES, INPUTS, POOLER_OUTPUT, POSITION_IDS, block_graphs, run_values, step_sources,
                         write_onnx)
from .runtime import licences, runtime_files
from .steps import WEIGHTED

PART_BYTES = 9 * 2**20  # each file a static host serves: under Hugging Face's 10 MB
FOLDER = "live"


def write_live(site: Path, loaded, example, compared: list = ()) -> dict:
    """The live files into `site`/live and the manifest the site's data carries; `example`: a sentence's trace to
    export the model with (any length works after); `compared`: the Similarity page's sentences, traced as the
    sentence pipeline reads them (a typed sentence is compared with them); `site_content(live=True)` has checked
    `can_go_live`."""
    folder = site / FOLDER
    folder.mkdir()
    runtime = runtime_files()
    with tempfile.TemporaryDirectory() as tmp:
        model = Path(tmp) / "model.onnx"
        outputs = write_onnx(loaded, example, model)
        shutil.copyfile(model, folder / "model.onnx")
        weights, extra = indexed(loaded, initializers(model))
        data = split(model.with_name("model.onnx.data"), folder / "model.data")
        (Path(tmp) / "extra.data").write_bytes(extra)
        extras = split(Path(tmp) / "extra.data", folder / "extra.data")
    analyses = write_graphs(loaded, run_values(loaded, example), folder, described, compared)
    for name in ("dist/ort.wasm.min.js", "dist/ort-wasm-simd-threaded.mjs", "dist/tokenizers.min.mjs"):
        shutil.copyfile(runtime[name], folder / Path(name).name)
    wasm = split(runtime["dist/ort-wasm-simd-threaded.wasm"], folder / "ort-wasm-simd-threaded.wasm")
    shutil.copyfile(runtime["LICENSE"], folder / "LICENSE-tokenizers")
    (folder / "LICENSES.md").write_text(licences(), encoding="utf-8")
    (folder / "tokenizer.json").write_text(tokenizer_json(loaded), encoding="utf-8")
    readable = readable_names(loaded)
    if readable:
        (folder / "readable.json").write_text(json.dumps(readable, ensure_ascii=False), encoding="utf-8")
    return {
        "model": {"graph": described(folder / "model.onnx"), "data": data, "data_name": "model.onnx.data",
                  "bytes": (folder / "model.onnx").stat().st_size + sum(part["bytes"] for part in data)},
        "runtime": {"script": f"{FOLDER}/ort.wasm.min.js", "module": f"{FOLDER}/ort-wasm-simd-threaded.mjs",
                    "wasm": wasm, "bytes": sum(part["bytes"] for part in wasm)},
        "tokenizer": {"module": f"{FOLDER}/tokenizers.min.mjs", "json": f"{FOLDER}/tokenizer.json",
                      "config": {k: v for k, v in loaded.tokenizer.special_tokens_map.items() if isinstance(v, str)},
                      "unknown": loaded.tokenizer.unk_token,
                      "readable": f"{FOLDER}/readable.json" if readable else None},
        "inputs": list(INPUTS), "outputs": outputs, "checks": checks(loaded), "positions": POSITION_IDS,
        "hidden_states": HIDDEN_STATES, "pooler_output": POOLER_OUTPUT,
        "sources": step_sources(block_graphs(loaded)),
        "weights": weights, "extra": extras, "analyses": analyses,
        "max_tokens": loaded.max_tokens, "token_types": token_types(loaded),
        "words": {"empty": EMPTY_NOTE.format(what="text"), "dropped": DROPPED_NOTE, "unknown": UNKNOWN_NOTE,
                  "types_refused": TYPES_REFUSED.replace("{source}", loaded.source)},
    }


def can_go_live(loaded) -> None:
    """An InputError, before any sentence is traced, where --live cannot be written: PyTorch's ONNX exporter's
    packages missing (onnx and onnxscript, which the app itself does not need), or the browser's runtime not to be
    had."""
    import importlib.util

    missing = [name for name in ("onnx", "onnxscript") if importlib.util.find_spec(name) is None]
    if missing:
        raise InputError(f"--live writes the model as ONNX with PyTorch's exporter, which needs "
                         f"{' and '.join(missing)}: pip install 'bertviz-lite[live]' (or -r requirements-dev.txt).")
    runtime_files()  # the browser's runtime, fetched once: a registry that cannot be reached is said now


def split(path: Path, prefix: Path) -> list[dict]:
    """`path`'s bytes as parts of at most PART_BYTES (`prefix`.000, .001, …): each part's address and size."""
    parts = []
    with open(path, "rb") as whole:
        while chunk := whole.read(PART_BYTES):
            part = prefix.with_name(f"{prefix.name}.{len(parts):03d}")
            part.write_bytes(chunk)
            parts.append(described(part))
    return parts


def described(path: Path) -> dict:
    """A file of the live folder as the browser fetches it: its address, its size, and a hash of its bytes, which
    the browser's cache keys it by (a new export's file is a new address)."""
    data = path.read_bytes()
    return {"path": f"{FOLDER}/{path.name}", "bytes": len(data), "hash": hashlib.sha256(data).hexdigest()[:16]}


def initializers(model: Path) -> dict[str, dict]:
    """Each float32 weight the ONNX model holds in its data file, by the sha256 of its bytes: where it lies (offset
    and shape). By content, not by name: the exporter may rename a weight, or keep one copy of equal ones."""
    import onnx

    data = model.with_name(model.name + ".data").read_bytes()
    found = {}
    for tensor in onnx.load(str(model), load_external_data=False).graph.initializer:
        place = {entry.key: entry.value for entry in tensor.external_data}
        if tensor.data_type == onnx.TensorProto.FLOAT and "offset" in place:
            start, length = int(place["offset"]), int(place["length"])
            found.setdefault(_sha(data[start:start + length]), {"offset": start, "shape": list(tensor.dims)})
    return found


def _sha(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def weighted_modules(loaded) -> list[str]:
    """The modules whose W (a linear map's, a learnt table's) a cell's explanation reads."""
    return sorted({n.module for g in block_graphs(loaded) for n in g if n.op in WEIGHTED or n.op is LOOKUP})


def indexed(loaded, weights: dict[str, dict]) -> tuple[dict[str, dict], bytes]:
    """Each explained module's weight and bias (where it has one), as the browser reads it back: from the model's
    data file where the ONNX model holds it verbatim, else from the live folder's own file of such weights (a weight
    the exporter transformed, a fused map's slices, one kept inside the graph), whose bytes are returned too."""
    found, extra = {}, bytearray()
    for module in weighted_modules(loaded):
        own = loaded.base.get_submodule(module)
        for kind in ("weight", "bias"):
            tensor = getattr(own, kind, None)
            if not isinstance(tensor, torch.Tensor):
                continue
            data = tensor.detach().to(torch.float32).contiguous().numpy().astype("<f4").tobytes()
            at = weights.get(_sha(data))
            if at is None:
                at = {"offset": len(extra), "shape": list(tensor.shape), "in": "extra"}
                extra += data
            found.setdefault(module, {})[kind] = at
    return found, bytes(extra)


def checks(loaded) -> dict[str, list]:
    """Which of the model's own outputs each block's last sub-step is checked against, as the trace checks it:
    the embeddings against hidden state 0, layer i against hidden state i + 1, the pooler against the pooler's."""
    layers = loaded.config.num_hidden_layers
    found = {output_name(loaded, "embed"): [HIDDEN_STATES, 0]}
    found.update((output_name(loaded, "layers", i), [HIDDEN_STATES, i + 1]) for i in range(layers))
    if any(g.block == "pooler" for g in block_graphs(loaded)):
        found[output_name(loaded, "pooler")] = [POOLER_OUTPUT]
    return found


def token_types(loaded) -> dict:
    """The trace's rule for token types (stepthrough/trace.py `_token_types`), as data: the table's rows (none
    without a table), and whether a type past them is read as 0 (a tokenizer that does not declare types)."""
    table = loaded.embedding_parts().token_type
    return {"rows": None if table is None else table.num_embeddings,
            "zero_past_rows": "token_type_ids" not in loaded.tokenizer.model_input_names}


def readable_names(loaded) -> dict[str, str]:
    """Each vocabulary piece the app shows otherwise than the tokenizer writes it, by the app's own
    `readable_pieces` (a byte-level vocabulary's "Ġthe" as "▁the"), so that the browser shows the app's tokens; {}
    for the other vocabularies, whose pieces are shown as they are."""
    if not is_byte_level(loaded.tokenizer):
        return {}
    pieces = loaded.tokenizer.convert_ids_to_tokens(list(range(len(loaded.tokenizer))))
    return {raw: shown for raw, shown in zip(pieces, readable_pieces(loaded.tokenizer, pieces)) if raw != shown}


def tokenizer_json(loaded) -> str:
    """The tokenizer's own tokenizer.json, without its padding and truncation (the browser cuts as the trace does:
    to the model's length, the longer sentence first)."""
    spec = json.loads(loaded.tokenizer.backend_tokenizer.to_str())
    spec.update(padding=None, truncation=None)
    return json.dumps(spec, ensure_ascii=False)
