"""Head arithmetic shared by the operations and the views: splitting a vector into heads and back, and which
key/value head a query head reads under grouped-query attention."""
from __future__ import annotations

import torch


def split_heads(t: torch.Tensor, num_heads: int) -> torch.Tensor:
    """(T, h·d_h) -> (h, T, d_h): head h takes columns h·d_h to (h + 1)·d_h - 1."""
    T, d = t.shape
    return t.view(T, num_heads, d // num_heads).transpose(0, 1)


def key_head(query_head: int, num_heads: int, num_key_heads: int) -> int:
    """The key and value head that query head `query_head` reads: with grouped-query attention (fewer key/value
    heads than query heads) each key head serves num_heads / num_key_heads neighbouring query heads, as
    transformers' repeat_kv lays them out; otherwise the head of the same number."""
    return query_head // (num_heads // num_key_heads)


def head_name(query_head: int, num_heads: int, heads: int) -> str:
    """Words for the head of a step with `heads` heads that query head `query_head` reads: "head 3", or, for the
    keys and values of grouped-query attention, "key/value head 1 of 2, shared by query heads 2–3"."""
    if heads == num_heads:
        return f"head {query_head}"
    shared, group = key_head(query_head, num_heads, heads), num_heads // heads
    return (f"key/value head {shared} of {heads}, shared by query heads {shared * group}–"
            f"{(shared + 1) * group - 1}")


def shared_heads(t: torch.Tensor, num_heads: int) -> torch.Tensor:
    """(h_kv, T, ·) -> (h, T, ·): each key/value head repeated for the query heads that read it (`key_head`)."""
    return t if t.shape[0] == num_heads else t.repeat_interleave(num_heads // t.shape[0], dim=0)


def merge_heads(t: torch.Tensor) -> torch.Tensor:
    """(..., h, T, d_h) -> (..., T, h·d_h): the heads side by side again, head 0 first (a leading axis of variants,
    as value zeroing runs them, is kept)."""
    *variants, h, T, d_h = t.shape
    return t.transpose(-3, -2).reshape(*variants, T, h * d_h)
