import argparse
from dataclasses import dataclass
from functools import cached_property


def parse_engine_args(argv=None):
    p = argparse.ArgumentParser("wren-engine")
    p.add_argument("--model", default="meta-llama/Llama-3.1-70B-Instruct")
    p.add_argument("--dtype", default="float16")
    p.add_argument("--kv-cache-dtype", default="auto")
    p.add_argument("--block-size", type=int, default=16)
    p.add_argument("--tensor-parallel-size", "-tp", type=int, default=1)
    p.add_argument("--pipeline-parallel-size", "-pp", type=int, default=1)
    p.add_argument("--num-gpu-blocks", type=int, default=8192)
    p.add_argument("--swap-space", type=float, default=4.0, help="GiB of CPU swap per GPU")
    return p.parse_args(argv)


@dataclass
class ModelSpec:
    num_layers: int
    num_attention_heads: int
    num_kv_heads: int
    hidden_size: int
    head_dim: int

    @classmethod
    def from_hf(cls, hf):
        return cls(
            num_layers=hf["num_hidden_layers"],
            num_attention_heads=hf["num_attention_heads"],
            num_kv_heads=hf.get("num_key_value_heads", hf["num_attention_heads"]),
            hidden_size=hf["hidden_size"],
            head_dim=hf.get("head_dim", hf["hidden_size"] // hf["num_attention_heads"]),
        )


@dataclass
class ParallelConfig:
    tensor_parallel_size: int = 1
    pipeline_parallel_size: int = 1
    rank: int = 0

    @cached_property
    def world_size(self):
        return self.tensor_parallel_size * self.pipeline_parallel_size

    @cached_property
    def pp_rank(self):
        return self.rank // self.tensor_parallel_size

    def layer_slice(self, num_layers):
        per = num_layers // self.pipeline_parallel_size
        start = self.pp_rank * per
        end = num_layers if self.pp_rank == self.pipeline_parallel_size - 1 else start + per
        return start, end
