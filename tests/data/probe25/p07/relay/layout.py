"""KV layout descriptor exchanged between transfer agents during handshake."""
import json
import os
from dataclasses import asdict, dataclass, replace

import torch

_DTYPES = {
    "float8_e4m3fn": torch.float8_e4m3fn,
    "float8_e5m2": torch.float8_e5m2,
    "bfloat16": torch.bfloat16,
    "float16": torch.float16,
}


def _env_int(name: str, default: int) -> int:
    return int(os.environ.get(name, default))


@dataclass(frozen=True)
class KVLayout:
    num_layers: int
    num_pages: int
    page_size: int
    kv_heads: int
    head_dim: int
    kv_dtype: str
    scale_dtype: str = "float32"

    @classmethod
    def from_model(cls, model: dict, tp_size: int = 2) -> "KVLayout":
        return cls(
            num_layers=model["num_hidden_layers"],
            num_pages=_env_int("RELAY_NUM_PAGES", 4096),
            page_size=_env_int("RELAY_PAGE_SIZE", 32),
            kv_heads=max(1, model["num_key_value_heads"] // tp_size),
            head_dim=model.get("head_dim", model["hidden_size"] // model["num_attention_heads"]),
            kv_dtype=os.environ.get("RELAY_KV_DTYPE", "float8_e4m3fn"),
        )

    @property
    def torch_kv_dtype(self) -> torch.dtype:
        return _DTYPES[self.kv_dtype]

    @property
    def torch_scale_dtype(self) -> torch.dtype:
        return getattr(torch, self.scale_dtype)

    def tokens(self) -> int:
        return self.num_pages * self.page_size

    def kv_segment_bytes(self) -> int:
        elem = torch.empty(0, dtype=self.torch_kv_dtype, device="meta").element_size()
        return self.tokens() * self.kv_heads * self.head_dim * elem

    def scale_segment_bytes(self) -> int:
        elem = torch.empty(0, dtype=self.torch_scale_dtype, device="meta").element_size()
        return self.tokens() * self.kv_heads * elem

    def layer_bytes(self) -> int:
        return 2 * self.kv_segment_bytes() + 2 * self.scale_segment_bytes()

    def with_pages(self, num_pages: int) -> "KVLayout":
        return replace(self, num_pages=num_pages)

    def to_wire(self) -> str:
        return json.dumps(asdict(self))

    @classmethod
    def from_wire(cls, payload: str) -> "KVLayout":
        return cls(**json.loads(payload))
