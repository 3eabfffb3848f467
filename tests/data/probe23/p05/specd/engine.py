from specd.args import parse_args
from specd.block_manager import BlockSpaceManager
from specd.kv_pool import PagedKVPool, resolve_kv_dtype
from specd.model_registry import lookup
from specd.spec_worker import EagleProposer


class Engine:
    def __init__(self, args):
        self.args = args
        spec = lookup(args.model)
        self.target_spec = spec
        self.kv_pool = PagedKVPool(
            num_layers=spec.num_hidden_layers,
            num_blocks=args.num_gpu_blocks,
            block_size=args.block_size,
            num_kv_heads=max(1, spec.num_key_value_heads // args.tensor_parallel_size),
            head_dim=spec.attn_head_dim,
            dtype=resolve_kv_dtype(args.kv_cache_dtype, args.dtype),
            device=args.device)
        self.proposer = None
        lookahead = 0
        if args.draft_model:
            self.proposer = EagleProposer(args, self.kv_pool)
            lookahead = args.num_speculative_tokens + 1
        self.block_manager = BlockSpaceManager(args.num_gpu_blocks, args.block_size,
                                               lookahead_slots=lookahead)

    @classmethod
    def from_cli(cls, argv=None) -> "Engine":
        return cls(parse_args(argv))


if __name__ == "__main__":
    Engine.from_cli()
