"""The tasks a checkpoint can be loaded for. Only their names live here, so that the command line can offer them
without importing transformers; the transformers class of each is `loading.loader.TASKS`."""

TASK_NAMES = ("base", "sequence-classification", "masked-lm")
