"""Per-rank attention geometry for each cache kind, keyed "<model_type>:<kind>"."""

_GEOMETRY = {}


def _whisper(cfg, tp):
    heads = cfg.decoder_attention_heads
    return heads // tp, cfg.d_model // heads


def _t5(cfg, tp):
    return cfg.num_heads // tp, cfg.d_kv


for _kind in ("self", "cross"):
    _GEOMETRY[f"whisper:{_kind}"] = _whisper
    _GEOMETRY[f"t5:{_kind}"] = _t5
    _GEOMETRY[f"mt5:{_kind}"] = _t5


def attention_geometry(cfg, kind: str, tp: int = 1):
    fn = _GEOMETRY[f"{cfg.model_type}:{kind}"]
    heads, head_dim = fn(cfg, tp)
    assert heads >= 1, f"{cfg.model_type}: tp={tp} exceeds head count"
    return heads, head_dim


def decoder_layers(cfg) -> int:
    return getattr(cfg, "decoder_layers", None) or cfg.num_decoder_layers
