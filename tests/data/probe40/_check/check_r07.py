import common

common.force_meta()
common.add_tree("r07")

from draftkv.spec_runner import build_draft_buffers  # noqa: E402

target = {"num_key_value_heads": 8, "num_attention_heads": 32, "hidden_size": 4096,
          "head_dim": 128, "torch_dtype": "bfloat16"}
spec = {"tp_size": 1, "draft_layers": 1, "max_total_tokens": 16384, "stage_tokens": 2048}
dev, stage = build_draft_buffers(target, spec)
measured = {
    # device [layers, slots, 2, heads, dim]; staging [tokens, layers, 2, heads, dim]
    "kv": (common.per_dim(stage.kv, 0), common.per_dim(dev.kv, 1)),
}
common.verify("r07", dev, stage, build_draft_buffers, measured)
