import torch

_DTYPES = {"bfloat16": torch.bfloat16, "float16": torch.float16, "float32": torch.float32}


class MLAConfig:
    def __init__(self, hf: dict):
        self.num_layers = hf["num_hidden_layers"]
        self.kv_lora_rank = hf["kv_lora_rank"]
        self.qk_nope_head_dim = hf["qk_nope_head_dim"]
        self.qk_rope_head_dim = hf["qk_rope_head_dim"]
        self.v_head_dim = hf["v_head_dim"]
        self.dtype = _DTYPES[hf.get("torch_dtype", "bfloat16")]

    @property
    def qk_head_dim(self):
        return self.qk_nope_head_dim + self.qk_rope_head_dim
