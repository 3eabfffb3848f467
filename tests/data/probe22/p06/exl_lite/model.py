from .config import ExLlamaV2Config


class ExLlamaV2Attention:
    def __init__(self, model, key: str, layer_idx: int):
        self.model = model
        self.key = key
        self.layer_idx = layer_idx


class ExLlamaV2:

    def __init__(self, config: ExLlamaV2Config):
        self.config = config
        self.modules = []
        for idx in range(config.num_hidden_layers):
            self.modules.append(ExLlamaV2Attention(self, f"model.layers.{idx}.self_attn", idx))
        self.loaded = False

    def get_cache_devices(self):
        return ["cuda:0"]

    @property
    def num_attn_layers(self) -> int:
        return sum(isinstance(m, ExLlamaV2Attention) for m in self.modules)
