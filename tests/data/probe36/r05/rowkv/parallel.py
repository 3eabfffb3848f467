from dataclasses import dataclass


@dataclass(frozen=True)
class ParallelState:
    tp_size: int = 8
    dp_size: int = 2
    enable_dp_attention: bool = True

    @property
    def attn_tp_size(self) -> int:
        if self.enable_dp_attention:
            return self.tp_size // self.dp_size
        return self.tp_size


def local_kv_heads(total_kv_heads: int, parallel_size: int) -> int:
    if total_kv_heads >= parallel_size:
        assert total_kv_heads % parallel_size == 0
        return total_kv_heads // parallel_size
    # replicate kv heads across ranks
    return 1
