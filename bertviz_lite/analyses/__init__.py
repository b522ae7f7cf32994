"""Analyses: what the numbers mean, each exact and checked against the library or model that defines it:
sentence vectors as sentence-transformers pools them (`sentence_pooling.py`, `similarity.py`)."""
