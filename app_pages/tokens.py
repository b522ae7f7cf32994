"""Tokens: word pieces with ids, token types and attention mask; the two sentences of a pair in two colours."""
import pandas as pd
import streamlit as st

from app_pages.shell import chips, guarded, lecture, runs, screen
from bertviz_lite.figures.style import CHIPS_SAY
from bertviz_lite.loading.readable_pieces import is_byte_level
from bertviz_lite.loading.vocabulary import SENTENCE_OF, unknown_note, vocabulary_note

loaded = guarded.load_or_stop()
key = runs.page_key(loaded)  # what this run asks every cache for
t = guarded.trace_or_stop(key)
lecture.page_title("Tokens")
colours = CHIPS_SAY["pair"] if t.pair else CHIPS_SAY["single"] + " A second sentence in the sidebar would be orange."
st.caption(f"{len(t.tokens)} tokens, the model reads at most {t.max_tokens}. {colours}")

with lecture.point("tokens"):
    chips.token_chips(t.tokens, t.input_ids.tolist(), t.sequence_ids)

note = vocabulary_note(loaded)
if note and loaded.stand_in_vocabulary:  # a stand-in's pieces are a warning; a real vocabulary's, a caption
    st.info(note, icon=":material/info:")
elif note:
    st.caption(note)
if unknown := unknown_note(loaded.tokenizer, t.tokens):
    st.info(unknown, icon=":material/help:")

table = pd.DataFrame({"token": t.tokens, "id": t.input_ids, "token type": t.token_type_ids,
                      "attention mask": t.attention_mask, "sentence": [SENTENCE_OF[s] for s in t.sequence_ids]})
if is_byte_level(loaded.tokenizer):
    st.caption("This vocabulary is byte-level BPE: it writes a space as Ġ, a newline as Ċ and a letter such as é "
               "as two byte letters (Ã©). The app shows each piece decoded, a space as ▁ (as SentencePiece writes "
               "it); the column *in the vocabulary* keeps the pieces as the tokenizer stores them.")
    table.insert(1, "in the vocabulary", loaded.tokenizer.convert_ids_to_tokens(t.input_ids.tolist()))
if screen.narrow():  # a phone's width holds the pieces, their ids and their sentence
    table = table.drop(columns=["token type", "attention mask"])
st.dataframe(table, width="stretch", height="content" if len(table) <= 32 else 600)  # every row of a sentence
if not loaded.uses_token_types:
    st.caption(f"{loaded.family.name} has no token-type embeddings: the types above are not fed to the model.")
for note in loaded.family.notes(loaded.config):
    st.caption(note)
del t, loaded  # a tab keeps this namespace: no trace or model in it (guarded.trace_or_stop)
