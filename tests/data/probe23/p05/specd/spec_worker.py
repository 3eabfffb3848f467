from specd.kv_pool import PagedKVPool
from specd.model_registry import lookup


class EagleProposer:
    def __init__(self, args, target_pool: PagedKVPool):
        self.num_speculative_tokens = args.num_speculative_tokens
        self.draft_spec = lookup(args.draft_model)
        self.kv_pool = PagedKVPool.for_draft(
            target_pool, self.draft_spec, args.tensor_parallel_size,
            num_blocks=args.num_draft_blocks)

    def propose(self, hidden_states, block_tables):  # pragma: no cover
        raise NotImplementedError
