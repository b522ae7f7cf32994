"""Exact parameter figures, the module tree and the sunburst data, tied and shared tensors counted once."""
import pytest
import torch
from transformers import AutoConfig, AutoModel

from bertviz_lite import (fold_repeats, group_totals, load_model, module_tree, parameter_table, render,
                          sunburst_data)
from bertviz_lite.loading.presets import preset_config


def unique_parameters(model) -> int:
    return sum(p.numel() for p in model.parameters())  # parameters() yields each tensor once


def test_bert_base_uncased_exact_figures(bert_base):
    table = parameter_table(bert_base.model)
    assert len(table) == 199
    assert int(table.numel.sum()) == 109_482_240
    assert group_totals(table) == {"embeddings": 23_837_184, "encoder": 85_054_464, "pooler": 590_592}
    assert module_tree(bert_base.model).total == 109_482_240
    assert table.share.sum() == pytest.approx(1.0)
    assert list(table.columns) == ["name", "shape", "numel", "trainable", "group", "share"]
    first = table.iloc[0]
    assert (first["name"], first["shape"], first["numel"]) == ("embeddings.word_embeddings.weight",
                                                               (30522, 768), 23_440_896)


@pytest.mark.parametrize("source,total", [
    ("bert-large-uncased", 335_141_888), ("distilbert-base-uncased", 66_362_880), ("roberta-base", 124_645_632),
    ("albert-base-v2", 11_683_584), ("google/electra-small-discriminator", 13_483_008)])
def test_preset_architectures_match_their_published_sizes(source, total):
    config = AutoConfig.for_model(**preset_config(source))
    with torch.device("meta"):  # counts need shapes only, not 1.3 GB of bert-large weights
        model = AutoModel.from_config(config)
    assert module_tree(model).total == total == unique_parameters(model)


def test_folded_tree_reads_like_pytorch(bert_base):
    folded = fold_repeats(module_tree(bert_base.model))
    layer_list = next(c for c in folded.children if c.name == "encoder").children[0]
    (run,) = layer_list.children
    assert (run.name, run.repeat, run.cls, run.each, run.total) == ("0-11", 12, "BertLayer", 7_087_872, 85_054_464)
    assert "0-11: 12 × BertLayer  85,054,464 (7,087,872 each)" in render(folded)


def test_tied_mlm_decoder_counts_once(tiny_dirs):
    model = load_model(tiny_dirs["bert"], "masked-lm").model
    root = module_tree(model)
    assert root.total == unique_parameters(model) == int(parameter_table(model).numel.sum())
    decoder = root.children[1].children[0].children[1]
    assert decoder.path == "cls.predictions.decoder"
    assert decoder.tied["weight"] == "bert.embeddings.word_embeddings.weight"


def test_albert_shared_layer_counts_once(tiny_dirs):
    model = load_model(tiny_dirs["albert"]).model
    assert model.config.num_hidden_layers == 3
    assert module_tree(model).total == unique_parameters(model)


@pytest.mark.parametrize("model_type,task,groups", [
    ("distilbert", "base", ["embeddings", "transformer"]),
    ("electra", "base", ["embeddings", "embeddings_project", "encoder"]),
    ("bert", "sequence-classification", ["embeddings", "encoder", "pooler", "classifier"]),
    ("roberta", "masked-lm", ["embeddings", "encoder", "lm_head"]),
])
def test_groups_are_base_children_plus_heads(tiny_dirs, model_type, task, groups):
    assert list(group_totals(parameter_table(load_model(tiny_dirs[model_type], task).model))) == groups


@pytest.mark.parametrize("model_type", ["bert", "albert", "distilbert"])
@pytest.mark.parametrize("task", ["base", "masked-lm"])
def test_sunburst_data_is_valid_for_branchvalues_total(tiny_dirs, model_type, task):
    model = load_model(tiny_dirs[model_type], task).model
    data = sunburst_data(module_tree(model))
    ids, parents, values = data["ids"], data["parents"], data["values"]
    assert len(set(ids)) == len(ids)
    assert parents[0] == "" and values[0] == unique_parameters(model)
    value_of = dict(zip(ids, values))
    children_sum = {}
    for parent, value in zip(parents[1:], values[1:]):
        assert parent in value_of
        children_sum[parent] = children_sum.get(parent, 0) + value
    assert all(children_sum[p] <= value_of[p] for p in children_sum)
    assert all(v > 0 for v in values)


def test_task_heads_name_the_modules_a_task_adds_and_what_they_share(bert_base):
    """The masked-LM task head adds `cls` (transformers' BertForMaskedLM) and ties its decoder to the word
    embeddings; its own parameters are the task model's less its base model's (which has no pooler there)."""
    from bertviz_lite.introspection.task_heads import task_heads
    from transformers import BertForMaskedLM

    heads = {h.task: h for h in task_heads(bert_base.config)}
    mlm = heads["masked-lm"]
    assert [m.name for m in mlm.modules] == ["cls"] and mlm.head == mlm.modules  # the old spelling kept
    with torch.device("meta"):
        reference = BertForMaskedLM(bert_base.config)
    assert mlm.total == sum(p.numel() for p in reference.parameters())
    assert mlm.modules[0].parameters == mlm.total - unique_parameters(reference.base_model)
    assert "cls.predictions.decoder.weight = bert.embeddings.word_embeddings.weight" in mlm.tied
    assert heads["base"].modules == ()
