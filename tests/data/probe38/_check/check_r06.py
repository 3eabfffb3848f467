import os, sys
sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import add_tree, per_token, verify

add_tree("r06")
from llamacpp_torch.context import llama_new_context

kv, st = llama_new_context(device="meta", state_device="meta")
measured = {
    "k_l": (per_token(st.k_rows, st.n_cells), per_token(kv.k_l, kv.size)),
    "v_l": (per_token(st.v_rows, st.n_cells), per_token(kv.v_l, kv.size)),
}
verify("r06", kv, st, llama_new_context, measured)
