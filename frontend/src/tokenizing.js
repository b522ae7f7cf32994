// A live site's tokenization in the browser, as the trace tokenizes (stepthrough/trace.py): the model's own
// tokenizer.json read by Hugging Face's tokenizers for the web, the text (and pair) cut to the model's length the
// way transformers cuts it (tokenizers' LongestFirst), then the model's special tokens placed by its own
// post-processor. tests/test_export_live.py holds it to transformers' ids on 1,000+ texts.

/**
 * An added token of the library (its AddedToken): its id, and whether it takes the space before or after it.
 * @typedef {{ id: number, lstrip: boolean, rstrip: boolean }} AddedToken
 */
/**
 * What a post-processor places: the tokens, with their types where it gives them.
 * @typedef {{ tokens: string[], token_type_ids?: number[] }} Placed
 */
/**
 * Hugging Face's Tokenizer (@huggingface/tokenizers 0.2.0), the parts of it read here: its own encode_text's steps
 * (its internals: the library's types are not installed here), with the app's names of the pieces (`readable`) and
 * the pre-tokenizer's words (`words`) added. `model.unk_token_id` is undefined for a vocabulary with no unknown token.
 * @typedef {{
 *   do_lowercase_and_remove_accent: boolean,
 *   encode_text: (text: string) => string[],
 *   added_tokens_map: Map<string, AddedToken>,
 *   splitter_unnormalized: { split: (text: string) => string[] },
 *   splitter_normalized: { split: (text: string) => string[] },
 *   remove_space?: boolean,
 *   normalizer: ((text: string) => string) | null,
 *   pre_tokenizer: ((text: string, options: { section_index: number }) => string[]) | null,
 *   model: ((words: string[]) => string[]) & { tokens_to_ids: Map<string, number>, unk_token_id?: number },
 *   post_processor: ((a: string[], b: string[] | null) => Placed) | null,
 *   readable: Record<string, string>,
 *   words: (word: string) => string[],
 * }} Tokenizer
 */
/**
 * A pre-tokenizer of tokenizer.json: its `type` says which other fields it has (SequenceJson, MetaspaceJson).
 * @typedef {{ type: string, [field: string]: unknown }} PreTokenizerJson
 */
/** @typedef {{ type: "Sequence", pretokenizers: PreTokenizerJson[] }} SequenceJson */
/** @typedef {{ type: "Metaspace", replacement: string, split?: boolean }} MetaspaceJson */
/** The model's tokenizer.json, the part read here. */
/** @typedef {{ pre_tokenizer: PreTokenizerJson | null }} TokenizerJson */
/**
 * A text (and pair) as the site tokenizes it: the pieces as the app shows them, ids, sentences ("A", "B",
 * "special"), types, whether each piece goes on the word before it, how many pieces were cut.
 * @typedef {{ tokens: string[], ids: number[], sentences: string[], types: number[], continues: boolean[],
 *             dropped: number }} Encoded
 */

/** @type {import("./model_parts.js").LiveSite | null} */
const live = window.BVL_SITE.live;  // the site's JSON; null where it was written without --live
const NOT_LIVE = "This site was written without --live: it holds no tokenizer.";
/** @type {Promise<Tokenizer> | null} */
let reading = null;  // the tokenizer, read once

/**
 * A JSON file of the site.
 * @param {string} address
 * @returns {Promise<any>}  the file's JSON, untyped where it enters (its reader types what it reads)
 */
function read(address) {
  return fetch(address).then((r) => {
    if (!r.ok) throw new Error(`The site could not read ${address} (${r.status}).`);
    return r.json();
  });
}

/**
 * The library's Tokenizer of the model's tokenizer.json, with the app's names of its pieces (export/live.py
 * readable_names: a byte-level vocabulary's "Ġthe" is the app's "▁the"). The library's module and the JSON enter
 * untyped (any) here; Tokenizer says what is read of them.
 * @returns {Promise<Tokenizer>}
 */
export function tokenizer() {
  if (!live) throw new Error(NOT_LIVE);
  reading = reading || Promise.all([
    import(new URL(live.tokenizer.module, location.href).href),
    read(live.tokenizer.json), live.tokenizer.readable ? read(live.tokenizer.readable) : {}])
    .then(([{ Tokenizer }, json, readable]) => Object.assign(new Tokenizer(json, live.tokenizer.config),
                                                            { readable, words: wordSplitter(json) }))
    .catch((error) => { reading = null; throw error; });
  return reading;
}

/**
 * A pre-tokenizer's words as transformers' word_ids count them: the library's Metaspace keeps a text whole where
 * its `split` (the default) makes a word of each "▁"-led run, as the Rust one does (a piece is the same either way)
 * @param {TokenizerJson} json
 * @returns {(word: string) => string[]}
 */
function wordSplitter(json) {
  /** @type {(p: PreTokenizerJson | null) => PreTokenizerJson[]} */
  const parts = (p) => (!p ? [] : p.type === "Sequence"  // (JSON: its type says which fields it has)
    ? /** @type {SequenceJson} */ (p).pretokenizers.flatMap(parts) : [p]);
  const space = /** @type {MetaspaceJson | undefined} */ (parts(json.pre_tokenizer)
    .find((p) => p.type === "Metaspace" && p.split !== false));
  if (!space) return (word) => [word];
  const before = new RegExp(`(?=${space.replacement.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")})`, "u");
  return (word) => word.split(before).filter(Boolean);
}

/**
 * A text's pieces, word by word: the library's own encode_text (@huggingface/tokenizers 0.2.0, pinned by hash),
 * step for step, but the model run on each word alone (each pre-tokenizer split: transformers' word_ids), as the
 * Rust tokenizers run it, so that a piece that goes on the word before it is known whatever the vocabulary's marks
 * @param {Tokenizer} t
 * @param {string} text
 * @returns {string[][]}  each word's pieces
 */
function wordsOf(t, text) {
  if (t.do_lowercase_and_remove_accent) return t.encode_text(text).map((piece) => [piece]);  // (XLM's alone)
  /** @param {string[]} parts */
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

/**
 * The lengths kept of a text of `a` pieces (and a pair of `b`) in `room`: tokenizers' truncate_encodings,
 * LongestFirst (the longer loses first; an even split if both must lose).
 * @param {number} a
 * @param {number | null} b
 * @param {number} room
 * @returns {[number, number | null]}
 */
function longestFirst(a, b, room) {
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
/**
 * @param {number} n
 * @param {string} letter
 */
const marks = (n, letter) => Array.from({ length: n }, (_, i) => `\u0000${letter}${i}`);

/**
 * Pieces, ids, sentences ("A", "B", "special"), types, how many were cut (at `most` tokens, else the model's length).
 * @param {Tokenizer} t
 * @param {string} text
 * @param {string | null} pair
 * @param {number} [most]
 * @returns {Encoded}
 */
export function encoded(t, text, pair, most) {
  if (!live) throw new Error(NOT_LIVE);
  const wordsA = wordsOf(t, text), wordsB = pair ? wordsOf(t, pair) : null;
  const a = wordsA.flat(), b = wordsB && wordsB.flat();
  /** @param {string[][]} words */
  const later = (words) => words.flatMap((pieces) => pieces.map((_, k) => k > 0));  // goes on the word before
  /** @type {Record<string, boolean[]>} */
  const goesOn = { A: later(wordsA), B: wordsB ? later(wordsB) : [] };  // (no B without a pair)
  const processor = t.post_processor;
  const specials = processor ? processor([], b ? [] : null).tokens.length : 0;
  const [n1, n2] = longestFirst(a.length, b ? b.length : null, (most || live.max_tokens) - specials);
  const placed = processor ? processor(marks(n1, "A"), b ? marks(n2 ?? 0, "B") : null)  // (n2 null: no pair)
    : { tokens: [...marks(n1, "A"), ...(b ? marks(n2 ?? 0, "B") : [])] };
  /** @type {Record<string, string[]>} */
  const own = { A: a, B: b || [] };  // (no B without a pair)
  const sentences = placed.tokens.map((p) => (p[0] === "\u0000" ? p[1] : "special"));
  const tokens = placed.tokens.map((p) => (p[0] === "\u0000" ? own[p[1]][Number(p.slice(2))] : p));
  const ids = tokens.map((p) => {
    const id = t.added_tokens_map.get(p)?.id ?? t.model.tokens_to_ids.get(p) ?? t.model.unk_token_id;
    if (id === undefined) throw new Error(`The tokenizer has no id for "${p}", and no unknown token.`);
    return id;
  });
  const shown = tokens.map((p) => (Object.hasOwn(t.readable, p) ? t.readable[p] : p));  // as the app shows them
  const types = placed.token_type_ids || sentences.map((s) => (s === "B" ? 1 : 0));
  const continues = placed.tokens.map((p) => p[0] === "\u0000" && goesOn[p[1]][Number(p.slice(2))]);
  return { tokens: shown, ids, sentences, types, continues,
           dropped: a.length + (b ? b.length : 0) + specials - tokens.length };
}

/**
 * What the site computes for a text (and pair).
 * @param {string} text
 * @param {string | null} [pair]
 * @returns {Promise<Encoded>}
 */
export async function tokenized(text, pair) {
  return encoded(await tokenizer(), text, pair || null);
}

