"""Pools built side by side from what the building function is given (session 39, probe45).

- A parameter nothing gives a value (no default, none in the config point) that the function
  passes on whole (`HFModelConfig(hf_config)`) stands for an object the callers give: what is
  read off it (`hf["head_dim"]`, `hf.get("torch_dtype", "bfloat16")`) is sampled, a model's
  width as a real width, a key read with a text fallback as that text; used as a number
  (`heads // tp_size`), it is sampled as a number. Before, every buffer it sized was unknown.
- A pool given a field of an object its sibling is given whole (`payload_dtype=
  quant.payload_dtype` beside `Device(..., quant=quant)`) is built as the function builds it,
  not with that parameter sampled apart (which gave a false disagreement).
- `latent_stage` holds what `latent_cache` holds (a staging buffer's word of place).

The whole-tree cases are checked against the tensors the tree's own code builds on torch's
meta device.
"""

from __future__ import annotations

import pytest
from helpers import (
    audit_json,
    built_by_the_tree,
    finding_figures,
    one_pair_verdict,
    write_tree,
)

from auditor.evaluation import buffer_roles


def _hf_tree(decode_head_dim: str) -> dict[str, str]:
    return {
        "pd/__init__.py": "",
        "pd/model.py": """
            import torch

            _DTYPES = {"bfloat16": torch.bfloat16, "float16": torch.float16}


            class HFModel:
                def __init__(self, hf, tp_size=1):
                    self.hf = hf
                    self.tp_size = tp_size

                @property
                def layers(self):
                    return self.hf["num_hidden_layers"]

                @property
                def head_dim(self):
                    return self.hf.get("head_dim") or self.hf["hidden_size"] // self.hf[
                        "num_attention_heads"
                    ]

                @property
                def dtype(self):
                    return _DTYPES[self.hf.get("torch_dtype", "bfloat16")]

                def kv_heads(self):
                    return max(1, self.hf["num_key_value_heads"] // self.tp_size)
        """,
        "pd/pools.py": f"""
            import torch


            class PrefillCache:
                def __init__(self, num_tokens, num_layers, kv_heads, head_dim, dtype, device):
                    self.k_bufs = [
                        torch.empty((num_tokens, kv_heads, head_dim), dtype=dtype, device=device)
                        for _ in range(num_layers)
                    ]


            class DecodeStore:
                def __init__(self, model, num_tokens, device):
                    head_dim = {decode_head_dim}
                    shape = (model.layers, num_tokens, model.kv_heads(), head_dim)
                    self.k_store = torch.empty(shape, dtype=model.dtype, device=device)
        """,
        "pd/engine.py": """
            from .model import HFModel
            from .pools import DecodeStore, PrefillCache


            def build_pair(hf_config, tp_size, tokens, device="cuda"):
                model = HFModel(hf_config, tp_size=tp_size)
                prefill = PrefillCache(
                    tokens, model.layers, model.kv_heads(), model.head_dim, model.dtype, device
                )
                decode = DecodeStore(model, tokens, device=device)
                return prefill, decode
        """,
    }


GEMMA = {  # a head size that is not hidden_size // num_attention_heads
    "num_hidden_layers": 4,
    "hidden_size": 3072,
    "num_attention_heads": 16,
    "num_key_value_heads": 8,
    "head_dim": 256,
}


@pytest.mark.parametrize(
    "decode_head_dim, verdict",
    [
        ("model.hf['hidden_size'] // model.hf['num_attention_heads']", {("LA001", "k_bufs")}),
        ("model.head_dim", set()),
    ],
)
def test_an_hf_dict_the_function_is_given_is_sampled(
    tmp_path, capsys, monkeypatch, decode_head_dim, verdict
):
    """The decode side's head size drifted from the model's (buggy) or not (fixed): compared
    either way, with zero configuration, where before both sides were unknown."""
    root = write_tree(tmp_path, _hf_tree(decode_head_dim))
    report = audit_json(root, capsys)
    found = {
        (code, "k_bufs" if name == "k_store" else name) for code, name in one_pair_verdict(report)
    }
    assert found == verdict
    prefill, decode = built_by_the_tree(
        root,
        monkeypatch,
        "pd",
        "engine",
        "build_pair",
        hf_config=GEMMA,
        tp_size=2,
        tokens=8,
        device="meta",
    )
    device_row = sum(t.nbytes for t in prefill.k_bufs) // 8
    decode_row = decode.k_store.nbytes // 8
    assert (device_row != decode_row) == bool(verdict)  # the oracle agrees on the verdict
    if verdict:  # both sides' figures, per layer, at the audit's own samples
        host, device = finding_figures(report)["k_store"]
        assert host != device and host > 0 and device > 0


def test_a_model_width_is_sampled_as_a_real_width():
    """`hidden_size // heads` of any sampled head count is a head size, and none of the
    samples a head size itself is given (so a side reading one for the other shows)."""
    from auditor.evaluation.matrix import DISTINCT_SAMPLES, stand_in_sample

    width = stand_in_sample("hf_config.hidden_size", 0)
    assert width == stand_in_sample("model.d_model", 3)
    assert all(width // heads not in DISTINCT_SAMPLES for heads in DISTINCT_SAMPLES)
    assert all(width // heads >= 8 for heads in DISTINCT_SAMPLES)
    # a head count divides it (`heads * (width // heads) == width`, as in every model), and a
    # KV head count the head count (`heads // kv_heads` groups)
    heads = stand_in_sample("cfg.num_attention_heads", 2)
    kv_heads = stand_in_sample("cfg.num_key_value_heads", 5)
    assert kv_heads == stand_in_sample("cfg.n_kv_heads", 0) != heads
    assert width % heads == 0 and heads % kv_heads == 0
    assert all(width // h not in DISTINCT_SAMPLES for h in (heads, kv_heads))


def _quant_tree(host_group: str) -> dict[str, str]:
    return {
        "fq/__init__.py": "",
        "fq/config.py": """
            from dataclasses import dataclass

            import torch


            @dataclass
            class QuantConfig:
                group_size: int = 64
                payload_dtype: torch.dtype = torch.uint8
                scale_dtype: torch.dtype = torch.float32
        """,
        "fq/pools.py": """
            import torch


            class DeviceCache:
                def __init__(self, num_tokens, num_layers, heads, head_dim, quant, device):
                    groups = head_dim // quant.group_size
                    self.k_data = [
                        torch.empty((num_tokens, heads, head_dim), dtype=quant.payload_dtype,
                                    device=device)
                        for _ in range(num_layers)
                    ]
                    self.k_scale = [
                        torch.empty((num_tokens, heads, groups), dtype=quant.scale_dtype,
                                    device=device)
                        for _ in range(num_layers)
                    ]


            class HostCache:
                def __init__(self, num_tokens, num_layers, heads, head_dim, device="cpu",
                             group_size=128, payload_dtype=torch.uint8,
                             scale_dtype=torch.float32):
                    groups = max(1, head_dim // group_size)
                    self.k_data = torch.empty((num_layers, num_tokens, heads, head_dim),
                                              dtype=payload_dtype, device=device)
                    self.k_scale = torch.empty((num_layers, num_tokens, heads, groups),
                                               dtype=scale_dtype, device=device)
        """,
        "fq/manager.py": f"""
            from .config import QuantConfig
            from .pools import DeviceCache, HostCache


            def build(quant: QuantConfig, tokens=16, layers=2, heads=4, head_dim=128,
                      device="cuda"):
                gpu = DeviceCache(tokens, layers, heads, head_dim, quant=quant, device=device)
                cpu = HostCache(tokens, layers, heads, head_dim, device="cpu",
                                payload_dtype=quant.payload_dtype,
                                scale_dtype=quant.scale_dtype{host_group})
                return gpu, cpu
        """,
    }


@pytest.mark.parametrize(
    "host_group, verdict",
    [("", {("LA001", "k_scale")}), (", group_size=quant.group_size", set())],
)
def test_fields_of_an_object_the_sibling_is_given_whole(
    tmp_path, capsys, monkeypatch, host_group, verdict
):
    """The payload agrees (both read the config's dtype); only the group size the host is not
    given differs (buggy) or nothing does (fixed). Before, the host's dtype parameters were
    sampled apart from the config's and the payload was reported too."""
    root = write_tree(tmp_path, _quant_tree(host_group))
    report = audit_json(root, capsys)
    assert one_pair_verdict(report) == verdict
    import importlib
    import sys

    monkeypatch.syspath_prepend(str(root))
    config = importlib.import_module("fq.config").QuantConfig()
    gpu, cpu = built_by_the_tree(
        root, monkeypatch, "fq", "manager", "build", quant=config, device="meta"
    )
    sys.modules.pop("fq.config", None)
    sys.modules.pop("fq", None)
    for name in ("k_data", "k_scale"):
        device_row = sum(t.nbytes for t in getattr(gpu, name)) // 16
        host_row = getattr(cpu, name).nbytes // 16
        assert (device_row != host_row) == (("LA001", name) in verdict)


def test_a_staging_buffer_holds_what_its_cache_holds():
    assert buffer_roles.matching(
        ["latent_stage", "rope_stage"], ["latent_cache", "rope_cache"]
    ) == {
        "latent_stage": "latent_cache",
        "rope_stage": "rope_cache",
    }
