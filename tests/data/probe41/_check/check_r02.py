"""r02: build both pools on meta with the default config and compare bytes per token."""
from common import add_tree, per_token, verify

add_tree("r02")
from kestrel.runner import ModelRunner, RunnerArgs

runner = ModelRunner(RunnerArgs(device="meta", host_device="meta"))
table, mirror = runner.init_kv_cache()
dev_slots = table.num_blocks * table.block_size
host_slots = mirror.num_blocks * mirror.block_size
assert mirror.num_blocks > 0
measured = {"kv": (per_token(mirror.kv, host_slots), per_token(table.kv, dev_slots))}
verify("r02", table, mirror, ModelRunner.init_kv_cache, measured)
