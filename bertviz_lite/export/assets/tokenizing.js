// A live site's tokenization in the browser, as the trace tokenizes (stepthrough/trace.py): the model's own
// tokenizer.json read by Hugging Face's tokenizers for the web, the text (and pair) cut to the model's length the
// way transformers cuts it (tokenizers' LongestFirst), then the model's special tokens placed by its own
// post-processor. tests/test_export_live.py holds it to transformers' ids on 1,000+ texts.
"use strict";
(function () {
  const BVL = (window.BVL = window.BVL || {});
  const live = window.BVL_SITE.live;
  let reading = null;  // the tokenizer, read once

  function tokenizer() {
    reading = reading || Promise.all([
      import(new URL(live.tokenizer.module, location.href).href),
      fetch(live.tokenizer.json).then((r) => {
        if (!r.ok) throw new Error(`The site could not read ${live.tokenizer.json} (${r.status}).`);
        return r.json();
      })])
      .then(([{ Tokenizer }, json]) => Object.assign(new Tokenizer(json, live.tokenizer.config),
                                                    { continues: continuation(json) }))
      .catch((error) => { reading = null; throw error; });
    return reading;
  }

  // Whether a piece goes on with the word before it (transformers' word_ids: the same word as the piece before), by
  // the model's own marks: WordPiece writes its prefix ("##") on every later piece of a word; a SentencePiece
  // vocabulary (Metaspace) writes "▁" on each word's first, so a piece without it goes on the word before
  function continuation(json) {
    const model = json.model || {};
    if (model.type === "WordPiece") return (piece) => piece.startsWith(model.continuing_subword_prefix || "##");
    const parts = (p) => (!p ? [] : p.type === "Sequence" ? p.pretokenizers.flatMap(parts) : [p]);
    const space = parts(json.pre_tokenizer).find((p) => p.type === "Metaspace");
    if (space) return (piece) => !piece.startsWith(space.replacement);
    return () => false;  // no mark to read (byte-level vocabularies are refused by the export)
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
  function encoded(t, text, pair, most) {
    const a = t.encode_text(text), b = pair ? t.encode_text(pair) : null;
    const processor = t.post_processor;
    const specials = processor ? processor([], b ? [] : null).tokens.length : 0;
    const [n1, n2] = longestFirst(a.length, b ? b.length : null, (most || live.max_tokens) - specials);
    const placed = processor ? processor(marks(n1, "A"), b ? marks(n2, "B") : null)
      : { tokens: [...marks(n1, "A"), ...(b ? marks(n2, "B") : [])] };
    const own = { A: a, B: b };
    const sentences = placed.tokens.map((p) => (p[0] === "\u0000" ? p[1] : "special"));
    const tokens = placed.tokens.map((p) => (p[0] === "\u0000" ? own[p[1]][Number(p.slice(2))] : p));
    const ids = tokens.map((p) => t.added_tokens_map.get(p)?.id ?? t.model.tokens_to_ids.get(p) ?? t.model.unk_token_id);
    const types = placed.token_type_ids || sentences.map((s) => (s === "B" ? 1 : 0));
    const continues = tokens.map((p, i) => i > 0 && sentences[i] !== "special" && sentences[i - 1] === sentences[i] &&
                                           !t.added_tokens_map.has(p) && !t.added_tokens_map.has(tokens[i - 1]) &&
                                           t.continues(p));
    return { tokens, ids, sentences, types, continues,
             dropped: a.length + (b ? b.length : 0) + specials - tokens.length };
  }

  async function tokenized(text, pair) {  // what the site computes for a text (and pair)
    return encoded(await tokenizer(), text, pair || null);
  }

  BVL.tokenizing = { tokenizer, encoded, tokenized, longestFirst };
})();
