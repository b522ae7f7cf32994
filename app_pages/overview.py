"""Overview: which model, where its weights come from, its config explained, and where its parameters are. All
of it is read from the config alone (an architecture on the meta device), so it shows at once; no weights are
loaded until a page needs numbers."""
import pandas as pd
import streamlit as st

from bertviz_lite import config_summary, group_totals, parameter_table
from bertviz_lite.figures import group_bars
from app_pages.shell import charts, guarded, lecture, state

loaded = guarded.skeleton_or_stop()
c = config_summary(loaded.config)
st.title(loaded.source)
st.caption(f"{loaded.family.name} family · {type(loaded.model).__name__} · from the {loaded.origin} · "
           f"weights: {loaded.weights_kind}, read when a page needs numbers (Tokens, Layers and after)")

table = parameter_table(loaded.model)
total, trainable = int(table.numel.sum()), int(table.numel[table.trainable].sum())
left, mid, right = st.columns(3)
left.metric("Parameters", f"{total:,}")
mid.metric("Trainable", f"{trainable:,}")
right.metric("Named parameter tensors", f"{len(table):,}")

explained, where = st.columns(2, gap="large") if state.projector() else lecture.figure_first()
explained.subheader("The config, explained")  # beside the bars on a projector, above them otherwise
lines = [
    f"**{c['layers']} layers**, each with self-attention and a feed-forward network"
    + (f" — ALBERT runs **one shared set of layer weights {c['layers']} times**" if loaded.family.shared_layers
       else ""),
    f"**hidden size {c['hidden_size']} = {c['heads']} heads × {c['head_size']}** per head",
    f"**feed-forward size {c['ffn_size']} = {c['ffn_size'] / c['hidden_size']:g} × {c['hidden_size']}**, "
    f"activation `{c['activation']}`",
    f"**vocabulary of {c['vocab_size']:,}** word pieces, each a row of {c['embedding_size']} numbers "
    f"(the word table alone: {c['vocab_size']:,} × {c['embedding_size']} = "
    f"{c['vocab_size'] * c['embedding_size']:,} parameters)",
    f"**up to {loaded.max_tokens:,} tokens** per input"
    + (f" (position table of {c['max_positions']:,})" if loaded.embedding_parts().position is not None else ""),
    *loaded.family.about(loaded.config),
]
if c["embedding_size"] != c["hidden_size"]:
    lines.append(f"**embeddings of size {c['embedding_size']}**, projected to {c['hidden_size']} before layer 0")
if c["token_types"]:
    lines.append(f"**{c['token_types']} token type{'s' if c['token_types'] > 1 else ''}** "
                 f"(sentence A / sentence B)")
explained.markdown("\n".join(f"- {line}" for line in lines))
for note in loaded.family.notes(loaded.config):
    explained.caption(note)

with where, lecture.point():
    st.subheader("Where the parameters are")
    groups = group_totals(table)
    charts.chart(group_bars(groups))
    charts.csv_download(lambda: pd.DataFrame({"group": list(groups), "parameters": list(groups.values())}),
                        "parameter_groups.csv")
with st.expander("config.json"):
    st.json(loaded.config.to_dict(), expanded=False)
