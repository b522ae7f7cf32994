"""Analyses: what the numbers mean, each exact, following its paper's definition, and checked against the
library or model that defines it:

- sentence vectors as sentence-transformers pools them (`sentence_pooling.py`, `similarity.py`);
- head fingerprints, Clark et al. 2019 (`head_fingerprints.py`);
- attention rollout, Abnar & Zuidema 2020 (`rollout.py`);
- norm-based contributions with residual and LayerNorm, Kobayashi et al. 2020 and 2021 (`contributions.py`);
- a logit lens through the model's own masked-LM head (`logit_lens.py`), and where a model has none, the
  vocabulary pieces nearest to each hidden state in its own word-embedding table (`nearest_pieces.py`; our
  definition, not a paper's);
- word-level merging of token matrices, as Clark et al. do (`word_level.py`);
- what the Heads, Rollout, Contributions and Lens pages draw and say of these, for the app and an exported site
  alike (`page_views.py`).
"""
