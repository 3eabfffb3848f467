from .configs import DeepseekV32Config, ServerArgs
from .disagg.transfer_buffer import TransferBufferBuilder
from .mem_cache.memory_pool import MLATokenToKVPoolFP8


class ModelRunner:

    def __init__(self, model_config: DeepseekV32Config, server_args: ServerArgs):
        self.model_config = model_config
        self.server_args = server_args
        self.token_to_kv_pool = None
        self.staging_buffer = None

    def init_memory_pool(self):
        cfg, args = self.model_config, self.server_args
        size = args.max_total_num_tokens // args.page_size * args.page_size
        self.token_to_kv_pool = MLATokenToKVPoolFP8(
            size=size, page_size=args.page_size, kv_lora_rank=cfg.kv_lora_rank,
            qk_rope_head_dim=cfg.qk_rope_head_dim, index_head_dim=cfg.index_head_dim,
            layer_num=cfg.num_hidden_layers, device=args.device)
        if args.disaggregation_mode != "null" and \
                args.disaggregation_transfer_backend == "mooncake":
            self.staging_buffer = TransferBufferBuilder(cfg, args).build()
        return self.token_to_kv_pool, self.staging_buffer
