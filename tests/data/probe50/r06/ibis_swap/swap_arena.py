import torch

from ibis_swap.dtypes import CacheDType

_GiB = 2 ** 30


def block_nbytes(block_size, kv_heads, head_size, fmt):
    """Bytes of one K (or V) block of one layer, independent of the x-split."""
    return block_size * kv_heads * head_size * fmt.itemsize


class SwapArena:
    """CPU swap space.  Blocks are opaque byte rows; swap_in/out uses
    block-granular memcpy, so a row must equal one GPU block."""

    def __init__(self, engine_cfg, model_cfg, device="cpu"):
        fmt = CacheDType.resolve(engine_cfg["kv_cache_dtype"], model_cfg["torch_dtype"])
        heads = model_cfg["num_key_value_heads"] // engine_cfg["tensor_parallel_size"]
        head_size = model_cfg["hidden_size"] // model_cfg["num_attention_heads"]
        self.block_size = engine_cfg["block_size"]
        self.row = block_nbytes(self.block_size, heads, head_size, fmt)
        layers = model_cfg["num_hidden_layers"]
        self.num_cpu_blocks = int(engine_cfg["swap_space_gib"] * _GiB) // (2 * layers * self.row)
        pin = device == "cpu" and engine_cfg.get("pin_memory", True)
        self.key_rows, self.value_rows = (
            [torch.empty((self.num_cpu_blocks, self.row), dtype=torch.uint8, device=device,
                         pin_memory=pin) for _ in range(layers)]
            for _ in range(2)
        )

    def swap_plan(self, mapping):
        return [(src * self.row, dst * self.row, self.row) for src, dst in mapping.items()]
