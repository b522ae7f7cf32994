"""The models offered by name, and the configs shipped for them so that they load with no network.

Each preset's config is a copy of the one on the Hugging Face Hub (`presets/<id>.json`, "/" written "--"). When
the Hub cannot be reached and the weights are not cached, `load_model` reads the copy that a Python package
bundles (real weights; see `bundled.py`) or else builds the exact architecture from the config with random
weights, so every number about the architecture is still true. The uncased presets then tokenize with their
real vocabulary, which the bundled model ships (all-mpnet-base-v2's is the same pieces between MPNet's own special
tokens); the others use a stand-in of their own kind (`offline_tokenizer.py`).
"""
from __future__ import annotations

import json
from dataclasses import dataclass
from importlib import resources

from .bundled import BUNDLED_MODEL


@dataclass(frozen=True)
class Preset:
    source: str
    parameters: str  # of the base model, for the picker
    description: str
    uncased_vocab: bool = False  # its vocabulary is BERT's uncased one, which the bundled model ships


PRESETS: dict[str, Preset] = {p.source: p for p in (
    Preset("bert-base-uncased", "110M", "BERT base, lower-cased: the model of the reference notebooks", True),
    Preset(BUNDLED_MODEL, "23M", "all-MiniLM-L6-v2: a real pretrained BERT for sentence similarity, bundled "
                                 "with the app, so its weights are real even with no network"),
    Preset("bert-large-uncased", "335M", "BERT large: 24 layers, 16 heads, hidden size 1024", True),
    Preset("distilbert-base-uncased", "66M", "DistilBERT: 6 layers distilled from BERT base", True),
    Preset("roberta-base", "125M", "RoBERTa base: byte-level BPE, no next-sentence task"),
    Preset("albert-base-v2", "12M", "ALBERT base: one layer shared 12 times, 128-d embeddings"),
    Preset("google/electra-small-discriminator", "14M", "ELECTRA small: 128-d embeddings projected to 256", True),
    Preset("answerdotai/ModernBERT-base", "149M", "ModernBERT base (2024): pre-norm, rotary positions, local and "
                                                  "global attention, GeGLU, 22 layers"),
    Preset("microsoft/deberta-v3-base", "184M", "DeBERTa-v3 base: content and relative position scored apart, no "
                                                "absolute positions in the input"),
    Preset("FacebookAI/xlm-roberta-base", "278M", "XLM-RoBERTa base: RoBERTa's layout for 100 languages, 250,002 "
                                                  "SentencePiece tokens"),
    Preset("sentence-transformers/all-mpnet-base-v2", "109M", "all-mpnet-base-v2: MPNet (a relative-position bias "
                                                              "on every score) trained for sentence similarity", True),
    Preset("nomic-ai/nomic-embed-text-v1.5", "137M", "nomic-embed-text-v1.5: BERT's post-norm layer with rotary "
                                                     "positions and SwiGLU, trained for embeddings", True),
    Preset("EuroBERT/EuroBERT-210m", "212M", "EuroBERT 210m (2025): a Llama-style encoder, pre-norm RMSNorm, rotary, "
                                             "SwiGLU, 128,256 tokens for European languages"),
)}

DEFAULT_MODEL = "bert-base-uncased"


def preset_config(source: str) -> dict:
    """The shipped config.json of a preset, as a dict."""
    name = source.replace("/", "--") + ".json"
    return json.loads(resources.files(__package__).joinpath("presets", name).read_text())
