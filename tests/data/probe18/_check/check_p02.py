import sys
sys.path.insert(0, str(__import__("pathlib").Path(__file__).resolve().parent.parent / "p02"))
sys.path.insert(0, str(__import__("pathlib").Path(__file__).resolve().parent))
from _util import bptl
from latentserve.runner import init_memory_pool

pool, host = init_memory_pool(max_total_tokens=128, device="meta")
L = pool.end_layer - pool.start_layer
assert L == 61
d = bptl(pool.latent_buffer, pool.capacity + pool.page_size, L)  # rows incl. padding page
h = bptl(host.latent_buffer, host.capacity, host.num_layers)
print("latent_buffer host", h, "device", d)
assert (h, d) == (1024, 1152)
print("OK p02")
