import torch

# storage dtype for each kv_cache_dtype string; fp8 variants are kept as raw
# bytes and dequantized in the attention kernel with per-group scales.
KV_STORAGE = {
    "bf16": torch.bfloat16,
    "fp16": torch.float16,
    "fp8": torch.uint8,
    "fp8_e5m2": torch.uint8,
}
QUANTIZED = {"fp8", "fp8_e5m2"}
SCALE_DTYPE = torch.float32


class Settings:
    def __init__(self, **overrides):
        self.num_layers = 16
        self.num_kv_heads = 8
        self.head_dim = 128
        self.kv_cache_dtype = "fp8"
        self.kv_scale_group = 64      # elements per kv scale
        self.weight_block = 128       # block size of the fp8 checkpoint weights
        self.gpu_tokens = 65536
        self.cpu_tokens = 131072
        self.device = "cuda"
        self.cpu_device = "cpu"
        for k, v in overrides.items():
            if not hasattr(self, k):
                raise KeyError(k)
            setattr(self, k, v)

    @property
    def quantized(self):
        return self.kv_cache_dtype in QUANTIZED
