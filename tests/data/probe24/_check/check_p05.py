import os

from _util import measure, use_tree, verify

info = use_tree("p05")

os.environ.pop("LLAMETTE_N_CTX", None)

from llamette.context import LlamaContext  # noqa: E402

ctx = LlamaContext(device="meta", state_device="meta")
kv, state = ctx.kv_self, ctx.seq_state
n_layer = ctx.hparams.n_layer
measured = measure(kv, ctx.params.n_ctx, n_layer,
                   state, ctx.params.n_ctx // ctx.params.n_seq_max, n_layer,
                   ["k_l", "v_l"])
verify("p05", info, measured, kv, state)
