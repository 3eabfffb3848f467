"""LMCache-style engine config, loaded from a YAML file (flat keys only)."""
from dataclasses import dataclass, fields


def _parse_scalar(raw: str):
    raw = raw.strip().strip('"').strip("'")
    low = raw.lower()
    if low in ("true", "false"):
        return low == "true"
    if low in ("null", "none", "~", ""):
        return None
    for conv in (int, float):
        try:
            return conv(raw)
        except ValueError:
            pass
    return raw


def parse_flat_yaml(text: str) -> dict:
    out = {}
    for line in text.splitlines():
        line = line.split("#", 1)[0].rstrip()
        if not line.strip():
            continue
        key, _, value = line.partition(":")
        out[key.strip()] = _parse_scalar(value)
    return out


@dataclass
class LMCacheEngineConfig:
    chunk_size: int = 256
    local_cpu: bool = True
    max_local_cpu_size: float = 5.0  # GB
    local_disk: str = None
    max_local_disk_size: float = 0.0
    remote_url: str = None
    save_decode_cache: bool = False

    @classmethod
    def from_yaml_text(cls, text: str) -> "LMCacheEngineConfig":
        data = parse_flat_yaml(text)
        known = {f.name for f in fields(cls)}
        unknown = set(data) - known
        if unknown:
            raise ValueError(f"unknown LMCache config keys: {sorted(unknown)}")
        return cls(**data)
