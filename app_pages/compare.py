"""Compare: two models side by side on the sidebar's sentence: the configs (what differs highlighted), the
parameters by group on one scale, each tokenizer's split, one head at the same relative depth, and the mixing
ratios of both across depth. The relative depth is defined in bertviz_lite/analyses/compare.py."""
import pandas as pd
import streamlit as st

from bertviz_lite import PRESETS, compare_models, depth_of, layer_at_depth
from bertviz_lite.figures import attention_heatmap, groups_side_by_side, mixing_by_depth
from bertviz_lite.loading.limits import Limits
from bertviz_lite.loading.loader import load_config
from bertviz_lite.serving.cache import cached_layerwise
from bertviz_lite.tasks import task_classes
from app_pages.shell import charts, chips, guarded, lecture, models, runs, screen, state

HEATMAP_PX = 425  # each model's head on a projector, under the controls and a notice: whole above the fold


loaded_a = guarded.load_or_stop(label="Model A: ")
lecture.page_title("Compare two models")
if state.projector():  # one row of controls, so the two heatmaps fit a 1280×720 projector below it
    chooser, depth_column, head_column = st.columns([3, 4, 1], vertical_alignment="bottom")
else:
    chooser = st.container(horizontal=True, vertical_alignment="bottom")
    depth_column = head_column = None
with chooser:
    other = models.other_label(Limits.from_env())  # the sidebar's words for a model that is not a preset
    choice = st.session_state.model_b if st.session_state.model_b in PRESETS else other
    picked = st.selectbox("Model B", [*PRESETS, other], index=[*PRESETS, other].index(choice))
    if picked == other:
        st.text_input("Model B: Hub id" + (" or local directory" if Limits.from_env().allow_local_dirs else ""),
                      **state.bind("model_b"))
    else:
        st.session_state.model_b = picked
source_b = st.session_state.model_b.strip()
if source_b == loaded_a.source:
    st.info(f"Model A (the sidebar's) and model B are both {loaded_a.source}: pick another model B to compare.",
            icon=":material/compare_arrows:")
    guarded.end_page()
limits = Limits.from_env()
if limits.max_parameters is not None:  # hosted: the pair must fit the budget before B's weights are fetched
    guarded.computed_or_stop("Reading model B's config …", lambda: limits.check_pair(
        (loaded_a.source, source_b), (loaded_a.config, load_config(source_b, limits)), task_classes()[loaded_a.task]),
        ":material/error:")
loaded_b = guarded.load_or_stop(source=source_b, label="Model B: ")
text = st.session_state.text
keys = [runs.page_key(loaded).with_text(text) for loaded in (loaded_a, loaded_b)]  # the text alone, through each
result = guarded.computed_or_stop("Tokenizing with both …", lambda: compare_models(loaded_a, loaded_b, text))
names = [f"A: {result.sources[0]}", f"B: {result.sources[1]}"]

def configs_section() -> None:
    st.subheader("The configs")
    columns = [name[0] for name in names] if screen.narrow() else names  # a phone's width: "A" and "B"
    frame = pd.DataFrame({columns[0]: [str(v) for v in result.configs[0].values()],
                          columns[1]: [str(result.configs[1].get(k)) for k in result.configs[0]]},
                         index=list(result.configs[0]))
    frame.loc["parameters"] = [f"{n:,}" for n in result.totals]
    differs = set(result.differences)
    highlight = lambda row: ["background-color:#fff3c4" if row.name in differs else ""] * len(row)  # noqa: E731
    st.dataframe(frame.style.apply(highlight, axis=1), width="stretch", height="content")  # every row, whole
    st.caption(f"Highlighted: what differs ({', '.join(result.differences) or 'nothing'}).")
    charts.csv_download(lambda: frame.rename_axis("setting").reset_index(), "compare_configs.csv")


def parameters_section() -> None:
    st.subheader("Where the parameters are")
    charts.chart(groups_side_by_side(dict(zip(names, result.groups))))
    st.caption("Rows by what the modules are: “encoder” is each model's stack of layers, whatever its module is "
               "called (DistilBERT's transformer, ModernBERT's and EuroBERT's layers).")
    charts.csv_download(lambda: pd.DataFrame([{"model": name, "group": group, "parameters": count}
                                              for name, groups in zip(names, result.groups)
                                              for group, count in groups.items()]), "compare_parameters.csv")


def tokens_section() -> None:
    st.subheader("The same text, two tokenizers")
    for name, tok in zip(names, result.tokenizations):
        st.markdown(f"**{name}**: {len(tok.tokens)} tokens")
        chips.token_chips(tok.tokens, tok.ids, [None] * len(tok.tokens), name=f"tokens-{name[0]}")


def attention_section() -> None:
    """One head of each model at the same relative depth, side by side, each with its own tokens."""
    if not state.projector() and not screen.narrow():  # there, the section opens the page: the heads first
        st.subheader("One head at the same relative depth")
    trace_a, trace_b = (guarded.trace_or_stop(key) for key in keys)
    options = [depth_of(n, trace_a.num_layers) for n in range(1, trace_a.num_layers + 1)]
    try:
        wanted = float(st.session_state.depth)
    except ValueError:
        wanted = 0.5
    left, right = (depth_column, head_column) if depth_column else st.columns([3, 1])
    depth = left.select_slider("Relative depth (a layer of model A / its number of layers)", options,
                               value=min(options, key=lambda d: abs(d - wanted)), format_func=lambda d: f"{d:.2f}")
    st.session_state.depth = f"{depth:g}"
    heads = min(trace_a.num_heads, trace_b.num_heads)
    st.session_state.head = min(st.session_state.head, heads - 1)
    head = right.selectbox("Head", range(heads), **state.bind("head"))
    for column, name, t in zip(st.columns(2), names, (trace_a, trace_b)):
        layer = layer_at_depth(depth, t.num_layers)  # counting from 1; the step-through counts from 0
        matrix = t.attention(layer - 1)[head]  # (T, T) of this model's own tokens
        first = name is names[0]  # on a phone the heads stack: model A's is the point, B's follows it
        with column, lecture.point(name[0]) if first or not screen.narrow() else column.container():
            charts.chart(attention_heatmap(matrix, t.tokens, f"{name}<br>layer {layer - 1} ({layer} of "
                                                             f"{t.num_layers}), head {head}"),
                         width=charts.column_px([1, 1], 0), tallest=HEATMAP_PX)
        with column:
            kept, tokens = matrix.copy(), t.tokens  # the download keeps one head's numbers and labels, not the trace
            charts.csv_download(lambda m=kept, tokens=tokens: charts.matrix_frame(m, tokens, tokens, "query", "key"),
                                f"compare_{name[0]}_layer{layer - 1}_head{head}.csv")
    st.caption(f"Depth {depth:.2f}: layer n of L sits at depth n / L, and model B's layer is the nearest to model "
               f"A's depth (ties to the shallower). Layer numbers count from 0, as everywhere in the app.")


def mixing_section() -> None:
    st.subheader("How much tokens mix, across depth")
    if not st.toggle("Compute every layer of both models (Kobayashi et al. mixing ratios)", key="compare_mixing"):
        return
    series = {}
    for name, key in zip(names, keys):
        mixing = guarded.computed_or_stop(f"Computing every layer of {key.source} …", lambda key=key:
                                          cached_layerwise(key)).mixing
        layers = len(mixing.ratios["attention"])
        depths = [depth_of(n, layers) for n in range(1, layers + 1)]
        measure = "norm_residual_ln" if mixing.ratios["norm_residual_ln"] is not None else "norm_residual"
        short = name.split(": ")[1]
        series[f"{short}: attention"] = (depths, mixing.ratios["attention"])
        series[f"{short}: ‖{'g(c + x)' if measure.endswith('ln') else 'c + x'}‖"] = (depths, mixing.ratios[measure])
    charts.chart(mixing_by_depth(series, "Mixing ratio: the share of what reaches a token from other tokens"))
    st.caption("Dotted: raw attention (mean of heads); solid: norm-based with the residual, and the LayerNorm where "
               "a post-norm layer has one (a pre-norm model such as ModernBERT has none after attention).")
    charts.csv_download(lambda: pd.DataFrame([{"line": line, "depth": d, "mixing ratio": v}
                                              for line, (depths, values) in series.items()
                                              for d, v in zip(depths, values)]), "compare_mixing.csv")


sections = [configs_section, parameters_section, tokens_section, attention_section, mixing_section]
if state.projector() or screen.narrow():  # on a projector or a phone the two heads come first
    sections.insert(0, sections.pop(3))
for section in sections:
    section()
state.sync_url()
del loaded_a, loaded_b  # a tab keeps this namespace: no trace or model in it (guarded.trace_or_stop)
