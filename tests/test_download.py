"""A model that has to be downloaded reports the bytes of its weights as they arrive (the page's progress bar),
tested as a real download from the stand-in Hub serving slowly, into an empty cache, in a subprocess (the Hub
address is read when huggingface_hub is imported)."""
import json
import os
import subprocess
import sys

import torch
from transformers import BertConfig, BertModel

from local_hub import LocalHub
from tiers import slow
from tiny_models import wordpiece_tokenizer

CODE = """
import json
from bertviz_lite.loading.download import weights_cached
from bertviz_lite.loading.loader import fetch_weights, load_model
seen = []
before = weights_cached("tiny/bert")
fetch_weights("tiny/bert", lambda done, total: seen.append([done, total]))
again = fetch_weights("tiny/bert", lambda done, total: seen.append("again"))  # cached now: nothing to do
loaded = load_model("tiny/bert")
print(json.dumps({"before": before, "after": weights_cached("tiny/bert"), "seen": seen, "again": again,
                  "weights": loaded.weights_kind}))
"""


@slow
def test_weights_download_reports_bytes_as_they_arrive(tmp_path):
    model_dir = tmp_path / "model"  # about 5 MB of weights: the bar moves in 1 MB steps
    torch.manual_seed(0)
    BertModel(BertConfig(vocab_size=8000, hidden_size=128, num_hidden_layers=2, num_attention_heads=2,
                         intermediate_size=256, max_position_embeddings=64)).save_pretrained(model_dir)
    wordpiece_tokenizer().save_pretrained(model_dir)
    size = os.path.getsize(model_dir / "model.safetensors")
    with LocalHub({"tiny/bert": str(model_dir)}, bytes_per_s=size / 1.5) as hub:  # a second and a half
        env = {**os.environ, "HF_ENDPOINT": hub.url, "HF_HUB_OFFLINE": "0", "HF_HOME": str(tmp_path)}
        out = subprocess.run([sys.executable, "-c", CODE], env=env, capture_output=True, text=True, timeout=180)
    assert out.returncode == 0, out.stderr[-2000:]
    result = json.loads(out.stdout.strip().splitlines()[-1])
    assert (result["before"], result["after"], result["again"], result["weights"]) == (False, True, False, "pretrained")
    done = [d for d, _ in result["seen"]]
    assert len(done) >= size // (1024 * 1024) and done == sorted(done) and done[-1] == size  # 1 MB steps, to the end
    assert all(total == size for _, total in result["seen"])
