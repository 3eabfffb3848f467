from dataclasses import dataclass, field


@dataclass
class AttentionOptions:
    depth: int = 20
    num_kv_heads: int = 8
    qk_head_dim: int = 192
    v_head_dim: int = 128
    dtype_name: str = "float16"


@dataclass
class ParallelOptions:
    tp_degree: int = 4


@dataclass
class MemoryOptions:
    device_slots: int = 4096
    host_slots: int = 16384
    device: str = "cuda"
    host_device: str = "cpu"
    pin: bool = False


@dataclass
class WrenOptions:
    attn: AttentionOptions = field(default_factory=AttentionOptions)
    parallel: ParallelOptions = field(default_factory=ParallelOptions)
    memory: MemoryOptions = field(default_factory=MemoryOptions)

    def flat(self):
        out = {}
        for part in (self.attn, self.parallel, self.memory):
            out.update(vars(part))
        return out
