"""Independent references for the analyses: transformers' own forward of the base model and what its own modules
output (forward hooks), never our step-through."""
import numpy as np
import torch


def reference_forward(loaded, t):
    """transformers' own forward of the base model: attentions (L, H, T, T) and hidden states (L + 1, T, d)."""
    inputs = {"input_ids": torch.from_numpy(t.input_ids)[None], "attention_mask": torch.from_numpy(t.attention_mask)[None]}
    if loaded.uses_token_types:
        inputs["token_type_ids"] = torch.from_numpy(t.token_type_ids)[None]
    with torch.inference_mode():
        out = loaded.base(**inputs, output_attentions=True, output_hidden_states=True)
    return (torch.stack(out.attentions)[:, 0].double().numpy(), torch.stack(out.hidden_states)[:, 0].double().numpy(),
            inputs)


def array(weight: torch.Tensor) -> np.ndarray:
    return weight.detach().double().numpy()


def hooked_outputs(loaded, t, modules):
    """What the model's own modules output during transformers' forward, in the order they ran."""
    seen = {id(m): [] for m in modules}
    handles = [m.register_forward_hook(lambda mod, args, out: seen[id(mod)].append(out[0].detach().double()))
               for m in modules]
    try:
        reference_forward(loaded, t)
    finally:
        for h in handles:
            h.remove()
    return seen
