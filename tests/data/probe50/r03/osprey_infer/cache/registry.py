DEVICE_POOLS = {}
HOST_POOLS = {}


def register_pool(kind, tier="device"):
    table = DEVICE_POOLS if tier == "device" else HOST_POOLS

    def deco(cls):
        if kind in table:
            raise KeyError(f"{tier} pool {kind!r} registered twice")
        table[kind] = cls
        cls.kind = kind
        return cls

    return deco


def attention_kind(hf_config):
    if hf_config.get("kv_lora_rank"):
        return "mla"
    return "mha"
