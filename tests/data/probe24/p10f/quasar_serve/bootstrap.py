from typing import Optional, Tuple

from quasar_serve import kv  # noqa: F401  (registers pool classes)
from quasar_serve.registry import create_pool
from quasar_serve.settings import load_settings


def bootstrap(toml_text: Optional[str] = None, device: str = "cuda",
              host_device: str = "cpu") -> Tuple[object, object]:
    cfg = load_settings(toml_text) if toml_text else load_settings()
    m, rt = cfg["model"], cfg["runtime"]
    heads = m["num_attention_heads"] // rt["tp_size"]
    device_pool = create_pool(
        rt["device_pool"], size=rt["max_total_tokens"], dtype=m["torch_dtype"],
        head_num=heads, head_dim=m["qk_head_dim"], v_head_dim=m["v_head_dim"],
        layer_num=m["num_layers"], device=device)
    host_pool = create_pool(rt["host_pool"], device_pool, rt["host_ratio"], device=host_device)
    return device_pool, host_pool
