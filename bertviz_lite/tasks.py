"""The tasks a checkpoint can be loaded for. The names are plain strings, so that the command line can offer them
without importing transformers; `task_classes` gives the transformers class of each when a model is loaded."""

TASK_NAMES = ("base", "sequence-classification", "masked-lm")


def task_classes() -> dict[str, type]:
    """Task name -> the transformers Auto class that builds it (imports transformers)."""
    from transformers import AutoModel, AutoModelForMaskedLM, AutoModelForSequenceClassification

    classes = {
        "base": AutoModel,  # as in the notebooks: embeddings, encoder and (for BERT) the pooler
        "sequence-classification": AutoModelForSequenceClassification,
        "masked-lm": AutoModelForMaskedLM,
    }
    assert tuple(classes) == TASK_NAMES
    return classes
