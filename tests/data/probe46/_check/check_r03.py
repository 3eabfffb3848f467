import os, sys
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import add_tree, per_token, verify

add_tree("r03")
from ferrylm.engine import setup_spec_pools
from ferrylm.settings import EngineSettings, SpecSettings

target_hf = {
    "architectures": ["LlamaForCausalLM"], "hidden_size": 4096, "num_attention_heads": 32,
    "num_key_value_heads": 8, "num_hidden_layers": 32, "torch_dtype": "bfloat16",
}
draft_hf = {
    "architectures": ["LlamaForCausalLMEagle"], "hidden_size": 4096, "num_attention_heads": 32,
    "num_key_value_heads": 8, "num_hidden_layers": 1, "torch_dtype": "bfloat16",
}
settings = EngineSettings(tp_size=4, max_tokens=500000, device="meta",
                          spec=SpecSettings(algorithm="eagle", num_draft_tokens=4))
dev, draft = setup_spec_pools(settings, target_hf, draft_hf)
g = dev.k_pool[0].shape[0]
h = draft.k_pool[0].shape[0]
measured = {a: (per_token(getattr(draft, a)[0], h), per_token(getattr(dev, a)[0], g))
            for a in ("k_pool", "v_pool")}
verify("r03", dev, draft, setup_spec_pools, measured)
