from .mirror import PinnedBlockMirror
from .table import BlockKVTable


class RunnerArgs:
    num_hidden_layers = 32
    num_key_value_heads = 8
    head_dim = 128
    tp_size = 1
    kv_cache_dtype = "auto"          # "auto" -> BlockKVTable.default_dtype
    block_size = 32
    num_gpu_blocks = 4096
    cpu_offload_gb = 4.0
    device = "cuda"
    host_device = "cpu"

    def __init__(self, **kw):
        for k, v in kw.items():
            setattr(self, k, v)


class ModelRunner:
    def __init__(self, args=None):
        self.args = args or RunnerArgs()
        self.kv_table = None
        self.kv_mirror = None

    def init_kv_cache(self):
        a = self.args
        heads = max(1, a.num_key_value_heads // a.tp_size)
        dtype = None if a.kv_cache_dtype == "auto" else a.kv_cache_dtype
        self.kv_table = BlockKVTable(a.num_gpu_blocks, a.block_size, a.num_hidden_layers,
                                     heads, a.head_dim, dtype=dtype, device=a.device)
        host_blocks = int(a.cpu_offload_gb * (1 << 30)) // self.kv_table.bytes_per_block()
        self.kv_mirror = PinnedBlockMirror(self.kv_table, host_blocks, device=a.host_device)
        return self.kv_table, self.kv_mirror
