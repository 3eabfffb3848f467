import os, sys
from types import SimpleNamespace
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import add_tree, per_token, verify

add_tree("r08")
from ibisgen.server import allocate_seq2seq_caches

cfg = SimpleNamespace(
    model_type="whisper", architectures=["WhisperForConditionalGeneration"], d_model=1280,
    encoder_layers=32, decoder_layers=32, encoder_attention_heads=20,
    decoder_attention_heads=20, max_source_positions=1500, max_target_positions=448,
    num_mel_bins=128, torch_dtype="float16",
)
launch = SimpleNamespace(tp=2, text_tokens=120_000, max_requests=64, offload_ratio=4.0,
                         dtype="fp16")
dev, off = allocate_seq2seq_caches(cfg, launch, device="meta", offload_device="meta")
assert len(dev.self_kv) == len(off.rows["self_kv"]) == 32
measured = {}
for a in ("self_kv", "cross_kv"):
    d, o = getattr(dev, a)[0], off.rows[a][0]
    measured[a] = (per_token(o, o.shape[0]), per_token(d, d.shape[1]))
verify("r08", dev, off, allocate_seq2seq_caches, measured)
