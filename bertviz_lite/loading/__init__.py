"""Loading: a model and its tokenizer from the Hub, the cache, a directory, the package that bundles it, or a
preset's config with random weights (`loader.py`); the Hub probe (`hub.py`); the presets and their configs
(`presets.py`, `presets/`); the bundled real model (`bundled.py`); offline tokenizers (`offline_tokenizer.py`)."""
