"""Texts a tokenizer in the browser is held to transformers' own on (issue 46 asks for 1,000 or more): prose from the
Python standard library's docstrings, and seeded mixes of what breaks tokenizers: accents, emoji (with skin tones,
flags and joiners), Chinese, Japanese and Korean, other scripts, symbols, odd spaces and control characters, words
longer than WordPiece reads, typed special tokens, texts past 512 tokens, and pairs."""
from __future__ import annotations

import random
import re

MODULES = ("string", "textwrap", "json", "random", "collections", "functools", "itertools", "pathlib", "argparse",
           "logging", "datetime", "decimal", "fractions", "statistics", "difflib", "calendar", "heapq", "bisect")
POOLS = {
    "accents": "café naïve façade Ærøskøbing Straße Ångström señor crème brûlée résumé Zürich São Paulo İstanbul "
               "Đà Nẵng Kraków Dvořák ÉCOLE élève Œuvre ﬁne",
    "emoji": "☕ 😀 👍🏽 👨‍👩‍👧 🇫🇷 ❤️ 🤖 🎉 🙈🙉🙊 ✈️ 🧑🏿‍🚀",
    "cjk": "日本語のテキスト 中文句子 한국어 문장 漢字かなカナ 東京 北京大学 ｶﾀｶﾅ 가나다라",
    "scripts": "Привет мир Γειά σου مرحبا שלום नमस्ते สวัสดี ქართული Հայերեն",
    "symbols": "$100 3.14 ½ ™ © — – … «» “quotes” ‘x’ #tag @user e-mail x.y/z?q=1 ( ) [ ] { } <b> & % ^ * ~ ` |",
    "specials": "[MASK] [CLS] [SEP] [UNK] [PAD] <mask> <s>",
    "spaces": "\t \n \u00a0 \u3000 \u200b zero\u200dwidth \u2028 \r\n",
    "controls": "\x00 \x07 \ufeff \x1b \u0301 e\u0301 a\u0308",
    "long": "a" * 101 + " " + "supercalifragilisticexpialidocious" * 4,
}


def prose() -> list[str]:
    """Sentences from the standard library's docstrings, each once."""
    import importlib

    found = []
    for name in MODULES:
        module = importlib.import_module(name)
        texts = [module.__doc__] + [getattr(v, "__doc__", None) for v in vars(module).values()]
        for text in (t for t in texts if isinstance(t, str)):
            found += [s.strip() for s in re.split(r"(?<=[.!?])\s+", " ".join(text.split())) if len(s.strip()) > 3]
    return list(dict.fromkeys(found))


def corpus(rng_seed: int = 46) -> list[tuple[str, str | None]]:
    """(text, pair) pairs: prose, mixes, long texts and pairs; at least 1,000 in all."""
    rng = random.Random(rng_seed)
    lines = prose()[:500]
    words = [w for line in lines for w in line.split()] + [w for pool in POOLS.values() for w in pool.split(" ")]

    def mix(n: int) -> str:
        picked = [rng.choice(words) for _ in range(n)]
        picked = [w.upper() if rng.random() < 0.1 else w.title() if rng.random() < 0.1 else w for w in picked]
        return rng.choice(["", " ", "\t"]) + " ".join(picked)

    texts = [(line, None) for line in lines]
    texts += [(pool, None) for pool in POOLS.values()]
    texts += [(mix(rng.randint(1, 40)), None) for _ in range(400)]
    texts += [(mix(rng.randint(400, 1200)), None) for _ in range(30)]  # past 512 tokens: cut as the trace cuts
    texts += [(mix(rng.randint(1, 30)), mix(rng.randint(1, 30))) for _ in range(80)]
    texts += [(mix(rng.randint(1, 700)), mix(rng.randint(1, 700))) for _ in range(30)]  # pairs cut longest first
    return [(text, pair) for text, pair in texts if text.strip() and (pair is None or pair.strip())]
