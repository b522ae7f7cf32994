"""What a model's pieces and ids are (a stand-in's or the real vocabulary's) and which sentence each came from, said
as the Tokens page and an exported site both say it."""
from __future__ import annotations

UNKNOWN_NOTE = "{count} piece(s) are not in the vocabulary and became {unknown}."  # a live site's browser fills it
SENTENCE_OF = {None: "special", 0: "A", 1: "B"}  # a token's sentence (its sequence id), as the Tokens page names it


def vocabulary_note(loaded) -> str | None:
    """A line on where the pieces come from, or None where nothing needs saying (a pretrained model's own)."""
    if stand_in := loaded.stand_in_vocabulary:
        return f"These pieces and ids come from {stand_in}."
    if loaded.vocabulary == "real":
        return (f"{loaded.source}'s real vocabulary ({len(loaded.tokenizer):,} pieces, shipped with the app): these "
                f"are the real pieces and ids, even though the weights are random.")
    if loaded.vocabulary == "real uncased":
        return (f"{loaded.source}'s real vocabulary (BERT's uncased 30,522 word pieces, shipped with the bundled "
                f"model): these are the real pieces and ids, even though the weights are random.")
    return None


def unknown_note(tokenizer, tokens: list[str]) -> str | None:
    """How many pieces are not in the vocabulary (they became its unknown token), or None where none did."""
    unknown = tokenizer.unk_token
    if not unknown or unknown not in tokens:
        return None
    return UNKNOWN_NOTE.format(count=tokens.count(unknown), unknown=unknown)
