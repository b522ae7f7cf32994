"""The presets of today's encoders: offline, under their Hub ids, with the exact totals of the real checkpoints (as
the issue gives them) and stand-in tokenizers of their own kind; all-mpnet-base-v2 with its real vocabulary."""
import pytest

from bertviz_lite import group_totals, load_model, parameter_table, trace
from bertviz_lite.loading.bundled import uncased_vocab_file

from tiers import slow

pytestmark = slow  # every test reads the module's presets, built at their real sizes with random weights

REAL_TOTALS = {  # the real checkpoints' base models
    "answerdotai/ModernBERT-base": 149_014_272,
    "microsoft/deberta-v3-base": 183_831_552,
    "FacebookAI/xlm-roberta-base": 278_043_648,
    "sentence-transformers/all-mpnet-base-v2": 109_486_464,
    "nomic-ai/nomic-embed-text-v1.5": 136_731_648,  # Nomic's 137M; see docs/families.md for how each total was checked
    "EuroBERT/EuroBERT-210m": 211_766_016,
}


@pytest.fixture(scope="module")
def presets():
    return {source: load_model(source) for source in REAL_TOTALS}


@pytest.mark.parametrize("source", REAL_TOTALS)
def test_offline_presets_have_the_real_totals_and_step_through_exactly(presets, source):
    loaded = presets[source]
    assert loaded.weights_kind == "random-init" and loaded.source == source
    assert parameter_table(loaded.model)["numel"].sum() == REAL_TOTALS[source]
    t = trace(loaded, "the bank of the river", "a second sentence")
    assert t.embeddings().holds
    assert t.layer(0).holds and t.layer(t.num_layers - 1).holds
    assert loaded.warning and "Random weights" in loaded.warning


def test_deberta_embeddings_total_and_modernbert_groups(presets):
    assert group_totals(parameter_table(presets["microsoft/deberta-v3-base"].model))["embeddings"] == 98_382_336
    groups = group_totals(parameter_table(presets["answerdotai/ModernBERT-base"].model))
    assert list(groups) == ["embeddings", "layers", "final_norm"]


def test_stand_in_special_tokens_sit_at_the_configs_ids(presets):
    modern = presets["answerdotai/ModernBERT-base"].tokenizer
    assert (modern.cls_token_id, modern.sep_token_id, modern.pad_token_id) == (50281, 50282, 50283)
    xlmr = presets["FacebookAI/xlm-roberta-base"].tokenizer
    assert (xlmr.bos_token_id, xlmr.pad_token_id, xlmr.eos_token_id) == (0, 1, 2)
    t = trace(presets["answerdotai/ModernBERT-base"], "the cat", "the dog")
    assert t.tokens[0] == "[CLS]" and t.tokens.count("[SEP]") == 2 and "▁dog" in t.tokens  # byte-level BPE, shown
    assert presets["microsoft/deberta-v3-base"].vocabulary == "stand-in"
    assert any(p.startswith("▁") for p in trace(presets["microsoft/deberta-v3-base"], "the cat").tokens)  # Unigram


def test_all_mpnet_tokenizes_with_its_real_ids(presets):
    """<s> <pad> </s> <unk>, then BERT's uncased pieces unchanged (each id + 4), then <mask> at 30,526."""
    loaded = presets["sentence-transformers/all-mpnet-base-v2"]
    assert loaded.vocabulary == "real uncased"
    bert = {piece: i for i, piece in enumerate(uncased_vocab_file().read_text(encoding="utf-8").splitlines())}
    t = trace(loaded, "this is a 12212121 test sentence")
    assert t.tokens == ["<s>", "this", "is", "a", "122", "##12", "##12", "##1", "test", "sentence", "</s>"]
    assert list(t.input_ids[1:-1]) == [bert[p] + 4 for p in t.tokens[1:-1]]
    assert (t.input_ids[0], t.input_ids[-1], loaded.tokenizer.mask_token_id) == (0, 2, 30526)
    assert len(loaded.tokenizer) == loaded.config.vocab_size == 30527


def test_modernbert_reads_at_most_the_apps_cap(presets):
    loaded = presets["answerdotai/ModernBERT-base"]
    assert loaded.config.max_position_embeddings == 8192 and loaded.max_tokens == 1024
    t = trace(loaded, " ".join(["word"] * 1500))
    assert len(t.tokens) == 1024 and "1,024" in t.notice


def test_eurobert_stand_in_wraps_a_text_in_its_own_special_tokens_at_their_ids(presets):
    euro = presets["EuroBERT/EuroBERT-210m"]
    tok = euro.tokenizer
    assert (tok.cls_token_id, tok.sep_token_id, tok.pad_token_id, tok.mask_token_id) == (128000, 128001, 128001, 128002)
    t = trace(euro, "the cat", "the dog")
    assert t.tokens[0] == "<|begin_of_text|>" and t.tokens.count("<|end_of_text|>") == 2 and "▁dog" in t.tokens
    assert euro.vocabulary == "stand-in"


def test_nomic_embed_reads_its_real_uncased_vocabulary_offline(presets):
    nomic = presets["nomic-ai/nomic-embed-text-v1.5"]
    assert nomic.vocabulary == "real uncased" and nomic.family.name == "NomicBERT"
    t = trace(nomic, "the bank of the river", "a second sentence")
    assert t.tokens[:3] == ["[CLS]", "the", "bank"] and list(t.token_type_ids).count(1) == 4  # two token types
