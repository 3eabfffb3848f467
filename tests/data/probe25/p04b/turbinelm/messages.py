from dataclasses import dataclass


@dataclass
class EngineCacheOptions:
    block_size: int = 64
    num_gpu_blocks: int = 2048
    num_cpu_blocks: int = 512
    # 0: no quant, 4: int4 asymmetric (packed 2/byte), 8: int8 asymmetric
    quant_policy: int = 4
    tp: int = 1
