"""Architecture: the module tree, the parameter sunburst, the named-parameter table and the task heads, from the
architecture alone (no weights). Only which parameters a checkpoint lacks for a task needs the weights read."""

import pandas as pd
import streamlit as st

from bertviz_lite import fold_repeats, parameter_table, sunburst_data
from bertviz_lite.introspection.tree import tree_html
from bertviz_lite.serving.cache import cached_task_heads, cached_tree
from bertviz_lite.figures import parameter_sunburst
from app_pages.shell import charts, guarded, lecture, screen, sidebar

loaded = guarded.skeleton_or_stop()
tree = cached_tree(loaded)
table = parameter_table(loaded.model)
lecture.page_title("Architecture")
st.markdown(f"**{type(loaded.model).__name__}: {tree.total:,} parameters** in {len(table)} named tensors")


SUNBURST_PX = 440  # on a projector, under the model's line and the subheading
left, right = st.columns([1, 1])
with left:
    st.subheader("Module tree")
    st.caption("Click a line to open it. Repeated blocks are folded; tied tensors count once.")
    st.html(f"<div style='font-size:1.05rem;line-height:1.7'>{tree_html(fold_repeats(tree))}</div>")
with right, lecture.point():
    st.subheader("Parameter sunburst")
    charts.chart(parameter_sunburst(sunburst_data(tree)), tallest=SUNBURST_PX)  # the whole circle above the fold
with right:  # the words under it
    st.caption("Each ring is one level of the tree; click a wedge to zoom in, the centre to zoom out. The same "
               "colours in every model: embeddings blue, attention red, feed-forward green, norms yellow, pooler "
               "cyan, task heads purple, blocks that hold several kinds grey.")

st.subheader("Named parameters")
groups = ["all groups", *table.group.unique()]
f1, f2 = st.columns([2, 1])
needle = f1.text_input("Filter by name", placeholder="e.g. attention.self or LayerNorm")
group = f2.selectbox("Group", groups)
shown = table[table.name.str.contains(needle, regex=False)] if needle else table
shown = shown if group == "all groups" else shown[shown.group == group]
view = shown.assign(shape=shown["shape"].map(lambda s: " × ".join(map(str, s))), share=shown.share * 100)
if screen.narrow():  # a phone's width: a tensor, its shape and size, the name free to break after each dot
    with lecture.scrolling_box(len(view) > 6, "parameters", 420, f"{len(view)} tensors"):
        st.table(pd.DataFrame({"name": view.name.str.replace(".", ".\u200b", regex=False), "shape": view["shape"],
                               "parameters": view.numel.map("{:,}".format)}).set_index("name"))
else:
    st.dataframe(view, width="stretch", hide_index=True, height=420,
                 column_config={"numel": st.column_config.NumberColumn("parameters", format="localized"),
                                "share": st.column_config.NumberColumn("share %", format="%.3f")})
st.markdown(f"Showing {len(shown)} of {len(table)} tensors: **{int(shown.numel.sum()):,}** of "
            f"**{int(table.numel.sum()):,}** parameters.")
st.download_button("Download the table as CSV", view.to_csv(index=False), file_name="parameters.csv",
                   mime="text/csv")

st.subheader("What a task head adds")
heads = cached_task_heads(loaded)
base_total = heads[0].total
rows = []
for h in heads:
    added = ", ".join(f"{m.name}: {m.description.splitlines()[0]} ({m.parameters:,})" for m in h.modules) or "—"
    rows.append({"task": sidebar.TASK_LABELS[h.task], "class": h.architecture, "parameters": f"{h.total:,}",
                 "vs base": f"{h.total - base_total:+,}", "head modules": added})
if screen.narrow():  # a phone's width: a paragraph a task, not five columns
    for row in rows:
        st.markdown(f"**{row['task']}**: {row['class']}, {row['parameters']} parameters ({row['vs base']}); "
                    f"{row['head modules']}")
else:
    st.table(pd.DataFrame(rows).set_index("task"))  # a few rows whose long cells wrap, rather than a grid that cuts
    # them
for h in heads:
    if h.tied:
        st.caption(f"{h.architecture}: " + "; ".join(h.tied) + " (shared tensors, counted once).")
if loaded.weights_kind == "pretrained" and loaded.task != "base":  # what the checkpoint lacks is known once it is read
    new = guarded.load_or_stop(banner=False).new_parameters
    if new:
        st.info(f"Newly initialised when {loaded.source} was loaded for this task (not in the checkpoint): "
                + ", ".join(new), icon=":material/new_releases:")
st.caption("A head that loads from a checkpoint without it (for example a classifier on a base model) starts "
           "from random numbers and must be fine-tuned."
           + (f" A masked-LM model drops {type(loaded.base).__name__}'s pooler." if getattr(loaded.base, "pooler", None)
              is not None else ""))
