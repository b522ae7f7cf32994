"""The sentence-transformers pipeline read from a checkpoint's files, and every pooling mode against
sentence-transformers' own Pooling and Normalize modules."""
import json

import numpy as np
import pytest
import torch

from bertviz_lite.analyses.sentence_pooling import (POOLING_MODES, SentencePooling, pool, read_sentence_pooling,
                                                    read_weights)


def write_pipeline(directory, modules, pooling=None, max_seq_length=None):
    (directory / "modules.json").write_text(json.dumps(modules))
    if pooling is not None:
        (directory / "1_Pooling").mkdir()
        (directory / "1_Pooling" / "config.json").write_text(json.dumps(pooling))
    if max_seq_length:
        (directory / "sentence_bert_config.json").write_text(json.dumps({"max_seq_length": max_seq_length}))

    def find(name):
        path = directory / name
        return str(path) if path.is_file() else None

    return find


TRANSFORMER = {"idx": 0, "name": "0", "path": "", "type": "sentence_transformers.models.Transformer"}
POOLING = {"idx": 1, "name": "1", "path": "1_Pooling", "type": "sentence_transformers.models.Pooling"}
NORMALIZE = {"idx": 2, "name": "2", "path": "2_Normalize", "type": "sentence_transformers.models.Normalize"}
DENSE = {"idx": 2, "name": "2", "path": "2_Dense", "type": "sentence_transformers.models.Dense"}


def test_reads_legacy_booleans_normalize_and_length(tmp_path):
    find = write_pipeline(tmp_path, [TRANSFORMER, POOLING, NORMALIZE],
                          {"pooling_mode_cls_token": True, "pooling_mode_max_tokens": True}, 128)
    assert read_sentence_pooling(find) == SentencePooling(("cls", "max"), True, 128)


def test_reads_the_current_pooling_mode_key(tmp_path):
    find = write_pipeline(tmp_path, [TRANSFORMER, POOLING], {"pooling_mode": "lasttoken"})
    assert read_sentence_pooling(find) == SentencePooling(("lasttoken",), False, None)


@pytest.mark.parametrize("modules", [[TRANSFORMER, POOLING, DENSE], [TRANSFORMER], [POOLING, TRANSFORMER]])
def test_pipelines_we_do_not_recompute_are_not_claimed(tmp_path, modules):
    find = write_pipeline(tmp_path, modules, {"pooling_mode_mean_tokens": True})
    assert read_sentence_pooling(find) is None


def test_a_plain_checkpoint_has_no_pipeline(tmp_path):
    assert read_sentence_pooling(lambda name: None) is None


@pytest.mark.parametrize("modes", [(m,) for m in POOLING_MODES] + [("cls", "mean", "max")])
@pytest.mark.parametrize("normalize", [False, True])
def test_pool_equals_sentence_transformers(modes, normalize):
    from sentence_transformers.sentence_transformer.modules import Normalize, Pooling

    tokens = torch.randn(1, 9, 16, generator=torch.Generator().manual_seed(len(modes)))  # (1, T, d)
    features = {"token_embeddings": tokens, "attention_mask": torch.ones(1, 9, dtype=torch.int64)}
    expected = Pooling(16, pooling_mode=modes if len(modes) > 1 else modes[0])(features)
    if normalize:
        expected = Normalize()(expected)
    ours = pool(tokens[0].numpy(), SentencePooling(modes, normalize, None))
    np.testing.assert_allclose(ours, expected["sentence_embedding"][0].numpy(), atol=1e-6)


def test_the_rows_a_pooled_vector_reads_are_weighted_as_the_pooling_weighs_the_tokens():
    """What the deletion curves' attention-based methods read (`attributing/deletion.reading_row`): each mode's
    weights over the tokens, scaled to sum to 1, averaged over the modes; max reads every token alike."""
    np.testing.assert_allclose(read_weights(("mean",), 4), [0.25] * 4)
    np.testing.assert_allclose(read_weights(("max",), 4), [0.25] * 4)
    np.testing.assert_allclose(read_weights(("cls",), 4), [1, 0, 0, 0])
    np.testing.assert_allclose(read_weights(("lasttoken",), 4), [0, 0, 0, 1])
    np.testing.assert_allclose(read_weights(("weightedmean",), 4), np.array([1, 2, 3, 4]) / 10)
    np.testing.assert_allclose(read_weights(("mean_sqrt_len_tokens",), 4), [0.25] * 4)
    np.testing.assert_allclose(read_weights(("cls", "mean"), 4), [0.625, 0.125, 0.125, 0.125])
