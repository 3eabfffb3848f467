from _util import measure, use_tree, verify

info = use_tree("p02")

from tidal_rt.configs import default_server_args  # noqa: E402
from tidal_rt.model_executor.model_runner import ModelRunner  # noqa: E402

args = default_server_args(device="meta", host_device="meta")
runner = ModelRunner(server_args=args)
runner.init_memory_pool()
dev, host = runner.token_to_kv_pool, runner.host_kv_pool
layers = runner.hf_config["num_hidden_layers"]
dev_tokens = args.max_total_tokens + args.page_size        # includes the padding page
host_tokens = int(args.max_total_tokens * args.hicache_ratio)
host_tokens -= host_tokens % args.page_size

measured = measure(dev, dev_tokens, layers, host, host_tokens, layers,
                   ["kv_buffer", "index_k_with_scale_buffer"])
verify("p02", info, measured, dev, host)
