class KVKnobs:
    """Deployment knobs; filled from the launcher's CLI flags."""

    def __init__(self, num_layers=20, num_kv_heads=8, head_dim=128, tp=2,
                 quant_group=32, gpu_tokens=49152, host_tokens=196608,
                 scale_dtype="float16", device="cuda", host_device="cpu"):
        self.num_layers = num_layers
        self.num_kv_heads = num_kv_heads
        self.head_dim = head_dim
        self.tp = tp
        self.quant_group = quant_group
        self.gpu_tokens = gpu_tokens
        self.host_tokens = host_tokens
        self.scale_dtype = scale_dtype
        self.device = device
        self.host_device = host_device

    def kv_heads_per_rank(self):
        assert self.num_kv_heads % self.tp == 0, "kv heads must split evenly"
        return self.num_kv_heads // self.tp
