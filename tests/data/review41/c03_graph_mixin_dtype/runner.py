from backends import FlashInferBackend, FlashInferMLABackend


def init_attention_backends(cfg, max_bs, use_mla):
    target = FlashInferBackend(max_bs, cfg.num_wrappers, cfg.context_len)
    draft = FlashInferMLABackend(max_bs, cfg.num_wrappers, cfg.context_len, cfg.kv_lora_rank)
    return target, draft
