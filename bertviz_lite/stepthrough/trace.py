"""Trace a sentence (or a pair) through an encoder: tokens, the model's own hidden states, and every sub-step of
every block by its global name, computed from its block's graph when first asked for.

>>> t = trace(load_model("bert-base-uncased"), "this is a 12212121 test sentence")   # doctest: +SKIP
>>> t.tokens                                                                          # doctest: +SKIP
['[CLS]', 'this', 'is', 'a', '122', '##12', '##12', '##1', 'test', 'sentence', '[SEP]']
>>> t.cache["layers.0.attn.probs"].shape                                              # doctest: +SKIP
(12, 11, 11)
>>> t.cache.stack("attn.probs").shape                  # one step across the layers  # doctest: +SKIP
(12, 12, 11, 11)
>>> t.layer(0).max_abs_diff < 1e-5                     # the whole block, checked     # doctest: +SKIP
True

One forward pass keeps the hidden states (13 × T × 768 floats for bert-base: 20 MB at 512 tokens). Every other
number lives in `cache`, one mapping keyed by the global names (TransformerLens's ActivationCache is the model):
asking for a step computes it and what it reads from the block's graph, each layer from the model's own input to
it, hidden_states[i], and keeps what it computed within a budget (`STEP_MEMORY`), the least recently used first to
go. So a trace holds at most 64 MB (its hidden states and 8 MB, if they alone take more): all of a short
sentence's layers, part of one layer at 512 tokens (a bert-base layer's sub-steps are 66 MB there, most of it the
three h × T × T arrays). The arrays handed out are shared (by every session of the app, too): read them, do not
write into them.

No hooks are installed and the model is only read, so any number of threads can trace on one shared model.
"""
from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import torch

from ..deprecation import renamed
from ..errors import InputError
from ..graph.evaluate import evaluate
from ..graph.names import parse_step_name
from ..graph.nodes import Graph
from ..ops import INPUT, Tokens
from ..loading.loader import LoadedModel
from ..loading.readable_pieces import readable_pieces
from .blocks import block_graph, output_name
from .steps import Steps
from .store import StepStore

STEP_MEMORY = 64 * 1024 * 1024  # what a trace keeps in all, hidden states and computed sub-steps
MIN_STEP_MEMORY = 8 * 1024 * 1024  # for computed sub-steps, however large the hidden states

# What the trace says of an input, as templates the live site's browser fills the same way (export/live.py)
EMPTY_NOTE = "The {what} is empty: type a sentence, for example 'this is a test sentence'."
DROPPED_NOTE = ("The input is {total} tokens long but the model reads at most {most}: the last {dropped} tokens "
                "were dropped.")
TYPES_REFUSED = ("{source}'s tokenizer marks the second sentence as token type {type}, but the model has {rows} token "
                 "type(s): it cannot read this pair (transformers' own model fails on it too). Leave the second "
                 "sentence empty.")


@dataclass(eq=False)
class Trace:
    text: str
    pair: str | None
    tokens: list[str]  # the pieces as the app shows them (loading/readable_pieces: Ġis → ▁is)
    input_ids: np.ndarray  # (T,) int64
    token_type_ids: np.ndarray  # (T,) 0 for sentence A, 1 for B (all 0 where the family has no segments)
    attention_mask: np.ndarray  # (T,) 1 for real tokens
    sequence_ids: list[int | None]  # 0 / 1 for the sentence a token came from, None for special tokens
    word_ids: list[int | None]  # the word of its sentence a token is a piece of, None for special tokens
    dropped_tokens: int  # how many tokens truncation removed
    max_tokens: int
    hidden_states: np.ndarray  # (L + 1, T, d): the model's own; [0] is the input of layer 0
    pooler_output: np.ndarray | None  # (d,) the model's own, where it has a pooler
    loaded: LoadedModel | None = field(repr=False)  # None only while it waits in the app's trace cache
    store: StepStore = field(default=None, repr=False)  # computed sub-steps, shared by copies of this trace
    edits: Any = None  # an intervened run's `intervening.edits.Edits`, which its layers' graphs carry; else None

    def __post_init__(self):
        if self.store is None:
            self.store = StepStore(max(MIN_STEP_MEMORY, STEP_MEMORY - self.hidden_states.nbytes))

    @property
    def num_layers(self) -> int:
        return self.hidden_states.shape[0] - 1

    @property
    def num_heads(self) -> int:
        return self.loaded.config.num_attention_heads

    @property
    def num_key_value_heads(self) -> int:
        """Fewer than num_heads with grouped-query attention (EuroBERT's larger sizes), else as many."""
        return getattr(self.loaded.config, "num_key_value_heads", None) or self.num_heads

    @property
    def notice(self) -> str | None:
        """What the reader must be told about the input, or None."""
        if self.dropped_tokens:
            total = len(self.tokens) + self.dropped_tokens
            return DROPPED_NOTE.format(total=f"{total:,}", most=f"{self.max_tokens:,}",
                                       dropped=f"{self.dropped_tokens:,}")
        return None

    @property
    def nbytes(self) -> int:
        """Array memory this trace keeps (what stays in a cache): its inputs, hidden states and computed steps."""
        arrays = (self.input_ids, self.token_type_ids, self.attention_mask, self.hidden_states, self.pooler_output)
        return sum(a.nbytes for a in arrays if a is not None) + self.store.nbytes

    # --- the graphs and the values ------------------------------------------------------------------------

    @property
    def cache(self) -> StepCache:
        """Every sub-step by its global name: `t.cache["layers.2.attn.probs"]`, `t.cache.stack("attn.probs")`."""
        return StepCache(self)

    def graph(self, block: str, layer: int | None = None) -> Graph | None:
        """The graph of one block (None where the model has no such block: a pooler, the positions' steps); in an
        intervened run, with the intervention set on the layers it changes."""
        graph = block_graph(self.loaded, block, layer)
        return graph if self.edits is None or graph is None else self.edits.applied_to(graph)

    def resolve(self, name: str) -> tuple[Graph, str]:
        """(graph, key) of a global step name; an InputError says what is wrong with it and what there is."""
        try:
            block, layer, key = parse_step_name(name)
        except ValueError:
            raise InputError(f"{name!r} is not a sub-step name: write block.step, for example layers.0.attn.scores, "
                             f"embed.norm or pooler.out.") from None
        graph = self.graph(block, layer)
        family = self.loaded.family.name
        if graph is None:
            raise InputError(f"{family} models have no {block} steps here, so there is no {name}.")
        if key not in graph:
            raise InputError(f"{name}: this {family} model has no step {key} there; its steps are "
                             f"{', '.join(graph.keys)}.")
        return graph, key

    def values(self, graph: Graph, wanted: Iterable[str] | None = None) -> dict[str, np.ndarray]:
        """The arrays of `wanted` keys of one block (default: all), kept ones as they are, the rest computed (with
        what they read) and kept."""
        keys = graph.keys if wanted is None else list(wanted)
        found = {k: a for k in keys if (a := self.store.get(graph.name(k))) is not None}
        missing = [k for k in keys if k not in found]
        if missing:
            known = {k: torch.from_numpy(a) for k in graph.ancestors(missing)
                     if k not in missing and (a := self.store.get(graph.name(k))) is not None}
            computed = evaluate(graph, self.loaded.base, self.token_data(), self.given, missing, known)
            for key, value in computed.items():
                if key in known:
                    continue
                array = value.numpy()
                if graph.node(key).op is not INPUT:  # an input is another block's or the model's own
                    self.store.put(graph.name(key), array)
                if key in missing:
                    found[key] = array
        return {k: found[k] for k in keys}

    def given(self, name: str) -> torch.Tensor:
        """What a block reads from outside it: a layer's input and the output of the block before are the model's
        own hidden states (what the step-through is checked against); anything else is this trace's own step."""
        block, layer, key = parse_step_name(name)
        if block == "layers" and key == "input":
            return torch.from_numpy(self.hidden_states[layer])
        if name == output_name(self.loaded, "embed"):
            return torch.from_numpy(self.hidden_states[0])
        if block == "layers" and name == output_name(self.loaded, "layers", layer):
            return torch.from_numpy(self.hidden_states[layer + 1])
        return torch.from_numpy(self.cache[name])

    def model_inputs(self, batch: int = 1, with_ids: bool = True) -> dict[str, torch.Tensor]:
        """What transformers' own model reads for this sentence, `batch` rows of it (B, T) each; without the ids
        where the caller gives `inputs_embeds` instead."""
        def rows(array: np.ndarray) -> torch.Tensor:
            return torch.from_numpy(array)[None].expand(batch, -1)

        return model_inputs(self.loaded, rows(self.input_ids) if with_ids else None, rows(self.attention_mask),
                            rows(self.token_type_ids))

    @property
    def mask_positions(self) -> list[int]:
        """Where the text holds the tokenizer's mask token ([MASK], <mask>), in order; none for a tokenizer without
        one."""
        mask_id = self.loaded.tokenizer.mask_token_id
        return [] if mask_id is None else np.flatnonzero(self.input_ids == mask_id).tolist()

    def token_data(self) -> Tokens:
        ids = torch.from_numpy(self.input_ids)
        return Tokens(ids, torch.from_numpy(self.token_type_ids),
                      self.loaded.family.position_ids(self.loaded.base, ids[None])[0],
                      torch.from_numpy(self.attention_mask))

    # --- whole blocks, checked ------------------------------------------------------------------------------

    def embeddings(self) -> Steps:
        """word (+ token type) (+ position) -> sum -> LayerNorm (-> projection), checked against hidden_states[0]."""
        return self._steps(self.graph("embed"), self.hidden_states[0])

    def positions(self) -> Steps | None:
        """What the encoder computes once per input for all layers (DeBERTa's relative positions and embeddings,
        MPNet's buckets), or None."""
        graph = self.graph("positions")
        return None if graph is None else self._steps(graph, None)

    def encoder(self) -> Steps | None:
        """The old name of `positions()`, kept for notebooks (with a warning)."""
        renamed("Trace.encoder()", "Trace.positions()")
        return self.positions()

    def layer(self, i: int) -> Steps:
        """Layer i's sub-steps from its input hidden_states[i], checked against hidden_states[i + 1]."""
        return self._steps(self.graph("layers", i), self.hidden_states[i + 1] if self._is_layer(i) else None)

    def pooler(self) -> Steps | None:
        """dense + tanh on the first token, checked against the model's pooler_output; None without a pooler."""
        graph = self.graph("pooler")
        return None if graph is None or self.pooler_output is None else self._steps(graph, self.pooler_output)

    def _steps(self, graph: Graph, reference: np.ndarray | None) -> Steps:
        return Steps(graph, self.values(graph), reference)

    def _is_layer(self, i) -> bool:
        return isinstance(i, int) and 0 <= i < self.num_layers

    def graph_node(self, name: str):
        """The graph's node of a global step name (its op, inputs, title), or an InputError."""
        graph, key = self.resolve(name)
        return graph.node(key)

    def attention(self, i: int) -> np.ndarray:
        """Layer i's attention probabilities (h, T, T), computed alone (what the analyses need) if not kept."""
        return self.values(self.graph("layers", i), ["attn.probs"])["attn.probs"]

    def layer_parts(self, i: int):
        """The modules of layer i in its family's record (for ALBERT, the shared layer as run the i-th time)."""
        self.graph("layers", i)  # says which layers there are
        family = self.loaded.family
        return family.layer_parts(family.layer_modules(self.loaded.base)[i])

    def layer_note(self, i: int) -> str | None:
        """What is particular to layer i (ModernBERT: local or global attention), or None."""
        self.graph("layers", i)
        return self.loaded.family.layer.describe(self.loaded.config, i)

    def check(self) -> list[float]:
        """max |step-through - model| for every layer."""
        return [self.layer(i).max_abs_diff for i in range(self.num_layers)]


class StepCache(Mapping):
    """Every sub-step of a trace by its global name, in the order the model computes them; a value is computed when
    first asked for (see Trace). Iterating gives the names and computes nothing."""

    def __init__(self, trace: Trace):
        self.trace = trace

    def __getitem__(self, name: str) -> np.ndarray:
        try:
            graph, key = self.trace.resolve(name)
        except InputError as error:
            raise KeyError(str(error)) from None
        return self.trace.values(graph, [key])[key]

    def __contains__(self, name: object) -> bool:
        try:
            self.trace.resolve(str(name))
        except InputError:
            return False
        return True

    def __iter__(self) -> Iterator[str]:
        t = self.trace
        blocks = [t.graph("embed"), t.graph("positions"), *(t.graph("layers", i) for i in range(t.num_layers)),
                  t.graph("pooler")]
        return (graph.name(key) for graph in blocks if graph is not None for key in graph.keys)

    def __len__(self) -> int:
        return sum(1 for _ in self)

    def stack(self, key: str) -> np.ndarray:
        """One step of every layer, stacked: (L, ...), e.g. stack("attn.probs") is (L, h, T, T). Every layer holds
        it at once, so on a long text prefer one layer at a time."""
        return np.stack([self[f"layers.{i}.{key}"] for i in range(self.trace.num_layers)])

    def __repr__(self) -> str:
        return f"StepCache({len(self.trace.store)} of {len(self)} steps kept, {self.trace.store.nbytes / 2**20:.1f} MB)"


def _clean(text: str | None, what: str) -> str:
    if text is None or not str(text).strip():
        raise InputError(EMPTY_NOTE.format(what=what))
    return str(text)


def _token_types(loaded: LoadedModel, types: torch.Tensor) -> torch.Tensor:
    """The token types the model reads: the tokenizer's (sentence B as type 1, which ALBERT and BERT were trained
    on), unless the model's table has no row for them. Then, where the tokenizer does not declare token types as a
    model input (a GTE or Jina-v3 checkpoint with a one-row table), type 0 everywhere, as transformers' own model
    reads it given the declared inputs; where it does, transformers' own model fails too, and this says why."""
    table = loaded.embedding_parts().token_type
    if table is None or int(types.max()) < table.num_embeddings:
        return types
    if "token_type_ids" not in loaded.tokenizer.model_input_names:
        return torch.zeros_like(types)
    raise InputError(TYPES_REFUSED.format(source=loaded.source, type=int(types.max()), rows=table.num_embeddings))


def model_inputs(loaded: LoadedModel, ids: torch.Tensor | None, mask: torch.Tensor,
                 types: torch.Tensor) -> dict[str, torch.Tensor]:
    """The keyword arguments of transformers' own model, (B, T) each: the one place they are built. Token types only
    for a family that reads them; no ids where the caller gives `inputs_embeds`."""
    inputs = {"attention_mask": mask}
    if ids is not None:
        inputs["input_ids"] = ids
    if loaded.uses_token_types:
        inputs["token_type_ids"] = types
    return inputs


def trace(loaded: LoadedModel, text: str, pair: str | None = None, max_tokens: int | None = None) -> Trace:
    """Tokenize `text` (and `pair`, the second sentence, if given) and run the base model once.

    `max_tokens` reads fewer tokens than the model could (sentence-transformers reads at most its
    max_seq_length)."""
    text = _clean(text, "text")
    pair = None if pair is None or not str(pair).strip() else str(pair)
    tokenizer, base = loaded.tokenizer, loaded.base
    limit = loaded.max_tokens if max_tokens is None else min(max_tokens, loaded.max_tokens)
    full_length = len(tokenizer(text, pair, truncation=False, verbose=False)["input_ids"])
    enc = tokenizer(text, pair, truncation=True, max_length=limit, return_tensors="pt",
                    return_token_type_ids=True)
    ids, mask = enc["input_ids"], enc["attention_mask"]  # (1, T) each
    types = _token_types(loaded, enc.get("token_type_ids", torch.zeros_like(ids)))  # (1, T)
    with torch.inference_mode():
        out = base(**model_inputs(loaded, ids, mask, types), output_hidden_states=True)
    hidden = torch.stack(out.hidden_states)[:, 0]  # (L + 1, T, d)
    pooled = getattr(out, "pooler_output", None)
    return Trace(
        text=text, pair=pair,
        tokens=readable_pieces(tokenizer, tokenizer.convert_ids_to_tokens(ids[0].tolist())),
        input_ids=ids[0].numpy(), token_type_ids=types[0].numpy(), attention_mask=mask[0].numpy(),
        sequence_ids=enc.sequence_ids(0), word_ids=enc.word_ids(0), dropped_tokens=full_length - ids.shape[1],
        max_tokens=limit, hidden_states=hidden.numpy(),
        pooler_output=None if pooled is None else pooled[0].numpy(), loaded=loaded)
