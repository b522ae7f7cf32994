"""Loading: a model and its tokenizer from the Hub, the cache, a directory, the package that bundles it, or a
preset's config with random weights (`loader.py`, from the first of the places `sources.py` lists; what a failure
says: `failures.py`); the Hub probe (`hub.py`); the presets and their configs (`presets.py`, `presets/`); the
bundled real model (`bundled.py`); offline and real tokenizers (`offline_tokenizer.py`, `real_tokenizers.py`); the
pieces as the app shows them (`readable_pieces.py`)."""
