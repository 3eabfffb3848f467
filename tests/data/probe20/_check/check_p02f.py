import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "p02f"))
from _util import bptl, verify  # noqa: E402
from paged_swap.engine import CacheEngine  # noqa: E402

eng = CacheEngine(device="meta", swap_device="meta")
L = eng.shape.num_hidden_layers
gpu, cpu = eng.gpu, eng.cpu
figures = ({
    "cpu_cache": (
        bptl(cpu.cpu_cache, cpu.num_blocks * cpu.block_size, L),
        bptl(gpu.gpu_cache, gpu.num_blocks * gpu.block_size, L),
    ),
})

assert all(a == b for a, b in figures.values()), figures
print("OK p02f")
