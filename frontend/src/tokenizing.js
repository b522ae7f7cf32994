// @ts-nocheck
// (not typed yet: @huggingface/tokenizers' Tokenizer and the live manifest are untyped here; the "one source" work
// rewrites it)
// A live site's tokenization in the browser, as the trace tokenizes (stepthrough/trace.py): the model's own
// tokenizer.json read by Hugging Face's tokenizers for the web, the text (and pair) cut to the model's length the
// way transformers cuts it (tokenizers' LongestFirst), then the model's special tokens placed by its own
// post-processor. tests/test_export_live.py holds it to transformers' ids on 1,000+ texts.

const live = window.BVL_SITE.live;
let reading = null;  // the tokenizer, read once

function read(address) {
  return fetch(address).then((r) => {
    if (!r.ok) throw new Error(`The site could not read ${address} (${r.status}).`);
    return r.json();
  });
}

export function tokenizer() {  // the library's Tokenizer of the model's tokenizer.json, with the app's names of its
  // pieces (export/live.py readable_names: a byte-level vocabulary's "Ġthe" is the app's "▁the")
  reading = reading || Promise.all([
    import(new URL(live.tokenizer.module, location.href).href),
    read(live.tokenizer.json), live.tokenizer.readable ? read(live.tokenizer.readable) : {}])
    .then(([{ Tokenizer }, json, readable]) => Object.assign(new Tokenizer(json, live.tokenizer.config),
                                                            { readable, words: wordSplitter(json) }))
    .catch((error) => { reading = null; throw error; });
  return reading;
}

// A pre-tokenizer's words as transformers' word_ids count them: the library's Metaspace keeps a text whole where
// its `split` (the default) makes a word of each "▁"-led run, as the Rust one does (a piece is the same either way)
function wordSplitter(json) {
  const parts = (p) => (!p ? [] : p.type === "Sequence" ? p.pretokenizers.flatMap(parts) : [p]);
  const space = parts(json.pre_tokenizer).find((p) => p.type === "Metaspace" && p.split !== false);
  if (!space) return (word) => [word];
  const before = new RegExp(`(?=${space.replacement.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")})`, "u");
  return (word) => word.split(before).filter(Boolean);
}

// A text's pieces, word by word: the library's own encode_text (@huggingface/tokenizers 0.2.0, pinned by hash),
// step for step, but the model run on each word alone (each pre-tokenizer split: transformers' word_ids), as the
// Rust tokenizers run it, so that a piece that goes on the word before it is known whatever the vocabulary's marks
function wordsOf(t, text) {
  if (t.do_lowercase_and_remove_accent) return t.encode_text(text).map((piece) => [piece]);  // (XLM's alone)
  const stripped = (parts) => {  // an added token's lstrip and rstrip
    parts.forEach((part, k) => {
      const added = t.added_tokens_map.get(part);
      if (added && added.lstrip && k > 0) parts[k - 1] = parts[k - 1].trimEnd();
      if (added && added.rstrip && k < parts.length - 1) parts[k + 1] = parts[k + 1].trimStart();
    });
    return parts;
  };
  return stripped(t.splitter_unnormalized.split(text)).flatMap((section, index) => {
    if (!section.length) return [];
    if (t.added_tokens_map.has(section)) return [[section]];
    let normal = t.remove_space === true ? section.trim().split(/\s+/).join(" ") : section;
    if (t.normalizer !== null) normal = t.normalizer(normal);
    if (!normal.length) return [];
    return stripped(t.splitter_normalized.split(normal)).flatMap((part) => {
      if (!part.length) return [];
      if (t.added_tokens_map.has(part)) return [[part]];
      const words = (t.pre_tokenizer !== null ? t.pre_tokenizer(part, { section_index: index }) : [part])
        .flatMap(t.words);
      return words.map((word) => t.model([word])).filter((pieces) => pieces.length);
    });
  });
}

function longestFirst(a, b, room) {  // the lengths kept of a text of `a` pieces (and a pair of `b`) in `room`:
  // tokenizers' truncate_encodings, LongestFirst (the longer loses first; an even split if both must lose)
  if (b === null) return [Math.min(a, room), null];
  if (a + b <= room) return [a, b];
  const swap = a > b;
  let [short, long] = swap ? [b, a] : [a, b];
  long = short > room ? short : Math.max(short, room - short);
  if (short + long > room) { short = Math.floor(room / 2); long = short + (room % 2); }
  return swap ? [long, short] : [short, long];
}

// Each piece marked with where it came from, so that the post-processor's output says which sentence each
// token is (A, B, or a special token it placed); a pair's B is type 1 where no post-processor says otherwise
const marks = (n, letter) => Array.from({ length: n }, (_, i) => `\u0000${letter}${i}`);

// Pieces, ids, sentences ("A", "B", "special"), types, how many were cut (at `most` tokens, else the model's length)
export function encoded(t, text, pair, most) {
  const wordsA = wordsOf(t, text), wordsB = pair ? wordsOf(t, pair) : null;
  const a = wordsA.flat(), b = wordsB && wordsB.flat();
  const later = (words) => words.flatMap((pieces) => pieces.map((_, k) => k > 0));  // goes on the word before
  const goesOn = { A: later(wordsA), B: wordsB && later(wordsB) };
  const processor = t.post_processor;
  const specials = processor ? processor([], b ? [] : null).tokens.length : 0;
  const [n1, n2] = longestFirst(a.length, b ? b.length : null, (most || live.max_tokens) - specials);
  const placed = processor ? processor(marks(n1, "A"), b ? marks(n2, "B") : null)
    : { tokens: [...marks(n1, "A"), ...(b ? marks(n2, "B") : [])] };
  const own = { A: a, B: b };
  const sentences = placed.tokens.map((p) => (p[0] === "\u0000" ? p[1] : "special"));
  const tokens = placed.tokens.map((p) => (p[0] === "\u0000" ? own[p[1]][Number(p.slice(2))] : p));
  const ids = tokens.map((p) => t.added_tokens_map.get(p)?.id ?? t.model.tokens_to_ids.get(p) ?? t.model.unk_token_id);
  const shown = tokens.map((p) => (Object.hasOwn(t.readable, p) ? t.readable[p] : p));  // as the app shows them
  const types = placed.token_type_ids || sentences.map((s) => (s === "B" ? 1 : 0));
  const continues = placed.tokens.map((p) => p[0] === "\u0000" && goesOn[p[1]][Number(p.slice(2))]);
  return { tokens: shown, ids, sentences, types, continues,
           dropped: a.length + (b ? b.length : 0) + specials - tokens.length };
}

export async function tokenized(text, pair) {  // what the site computes for a text (and pair)
  return encoded(await tokenizer(), text, pair || null);
}

