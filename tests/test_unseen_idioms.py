"""Idioms from a probe of codebases written as other teams would (issue 14), each audited with
no configuration: vLLM's two config objects (`cache_config.block_size` beside
`model_config.get_num_layers()`), a cache dtype chosen by a string compared in an `if` that
only sets what the allocation reads, and a block size nothing can say (unresolved, never an
internal error)."""

from __future__ import annotations

import json

from helpers import write_tree

from auditor.cli import main

CONFIG = """
    from dataclasses import dataclass

    import torch

    STR_DTYPE = {"half": torch.float16, "fp8": torch.float8_e4m3fn}


    @dataclass
    class CacheConfig:
        block_size: int = 16
        cache_dtype: str = "auto"


    class ModelConfig:
        def __init__(self, hf_config, dtype: torch.dtype = torch.bfloat16):
            self.hf_config = hf_config
            self.dtype = dtype

        def get_num_layers(self) -> int:
            return self.hf_config.num_hidden_layers

        def get_num_kv_heads(self) -> int:
            return self.hf_config.num_key_value_heads

        def get_head_size(self) -> int:
            return self.hf_config.head_dim
"""

GPU = """
    import torch

    from swap.config import STR_DTYPE, CacheConfig, ModelConfig


    class GPUCache:
        def __init__(self, cache_config: CacheConfig, model_config: ModelConfig, num_gpu_blocks: int):
            self.block_size = BLOCK
            if cache_config.cache_dtype == "auto":
                self.dtype = model_config.dtype
            else:
                self.dtype = STR_DTYPE[cache_config.cache_dtype]
            shape = (2, num_gpu_blocks, self.block_size,
                     model_config.get_num_kv_heads(), model_config.get_head_size())
            self.kv_cache = [
                torch.zeros(shape, dtype=self.dtype) for _ in range(model_config.get_num_layers())
            ]
"""

CPU = """
    import torch

    from swap.gpu_cache import GPUCache


    class CPUSwapCache:
        def __init__(self, gpu_cache: GPUCache, num_cpu_blocks: int):
            self.block_size = gpu_cache.block_size
            self.kv_cache = []
            for layer in gpu_cache.kv_cache:
                shape = (2, num_cpu_blocks, self.block_size, layer.shape[3], layer.shape[4])
                self.kv_cache.append(torch.zeros(shape, dtype=DTYPE))
"""


def audit(tmp_path, capsys, dtype: str, block: str = "cache_config.block_size") -> dict:
    write_tree(
        tmp_path,
        {
            "swap/__init__.py": "",
            "swap/config.py": CONFIG,
            "swap/gpu_cache.py": GPU.replace("BLOCK", block),
            "swap/cpu_cache.py": CPU.replace("DTYPE", dtype),
        },
    )
    code = main([str(tmp_path), "--no-cache", "--isolated", "--output-format", "json"])
    report = json.loads(capsys.readouterr().out)
    report["exit"] = code
    return report


def test_a_second_config_object_is_a_stand_in_too(tmp_path, capsys):
    """`self.block_size = cache_config.block_size`: the pool is counted in blocks of a value
    read off a config object other than the one its layers come from; the swap space copying
    each layer's dtype is compared, and agrees."""
    report = audit(tmp_path, capsys, "layer.dtype")
    assert report["summary"]["pairs_compared"] == 1, report["coverage"]
    assert report["summary"]["unresolved"] == 0
    assert report["findings"] == [] and report["exit"] == 0


def test_the_dtype_the_auto_branch_reads_is_compared(tmp_path, capsys):
    """`if cache_config.cache_dtype == "auto": self.dtype = model_config.dtype` and else
    `STR_DTYPE[cache_config.cache_dtype]`: a swap space fixed to fp16 is reported where the
    model's dtype is another width on the "auto" branch, and at the table's "fp8" key on the
    other (the keys of the dtype table the flag indexes are its values too); never at "half"."""
    report = audit(tmp_path, capsys, "torch.float16")
    assert report["exit"] == 1
    messages = [f["message"] for f in report["findings"]]
    assert messages and all(m.startswith("kv_cache: host and device disagree") for m in messages)
    points = [p["config"] for f in report["findings"] for p in f["points"]]
    cache_dtypes = {p["CacheConfig.cache_dtype"] for p in points}
    assert cache_dtypes == {"auto", "fp8"}, cache_dtypes
    auto = {p["ModelConfig.dtype"] for p in points if p["CacheConfig.cache_dtype"] == "auto"}
    assert auto == {"float8_e4m3fn", "float8_e5m2"}


PACKED = """
    import torch


    class LatentPool:
        def __init__(self, num_pages: int, page_size: int, num_layers: int,
                     kv_cache_dtype: str = "auto", lora: int = 512, rope: int = 64):
            self.page_size = page_size
            self.kv_cache_dtype = kv_cache_dtype
            if kv_cache_dtype == "fp8_packed":
                row, dtype = lora + lora // 128 * 4 + rope * 2, torch.uint8
            else:
                row, dtype = lora + rope, torch.bfloat16
            self.pages = [torch.zeros((num_pages, page_size, row), dtype=dtype)
                          for _ in range(num_layers)]


    class HostLatentPool:
        def __init__(self, device_pool: LatentPool, host_pages: int, lora: int = 512, rope: int = 64):
            self.page_size = device_pool.page_size
            if device_pool.kv_cache_dtype == "fp8_packed":
                row, dtype = lora + SCALES + rope * 2, torch.uint8
            else:
                row, dtype = lora + rope, torch.bfloat16
            self.pages = [torch.zeros((host_pages, self.page_size, row), dtype=dtype)
                          for _ in range(len(device_pool.pages))]
"""


def test_a_string_flag_that_only_sets_what_is_allocated_is_explored(tmp_path, capsys):
    """`kv_cache_dtype: str = "auto"` compared with "fp8_packed" in an `if` that sets the row
    and dtype the allocation after it reads: both are built, so a host dropping the packed
    row's scales is reported at that value; with them, the pair agrees at both."""
    for scales, findings in (("lora // 128 * 4", 0), ("0", 1)):
        root = tmp_path / str(findings)
        write_tree(root, {"lat/__init__.py": "", "lat/pools.py": PACKED.replace("SCALES", scales)})
        code = main([str(root), "--no-cache", "--isolated", "--output-format", "json"])
        report = json.loads(capsys.readouterr().out)
        assert report["summary"]["pairs_compared"] == 1 and report["summary"]["unresolved"] == 0
        assert len(report["findings"]) == findings, report["findings"]
        assert code == findings
        if findings:
            message = report["findings"][0]["message"]
            assert "kv_cache_dtype=fp8_packed" in message, message
            assert "640 B/token/layer vs 656 B/token/layer" in message, message


def test_a_block_size_nothing_can_say_is_unresolved_not_an_error(tmp_path, capsys):
    """The device's block size comes from a call outside the tree: the host reading it off
    the device cannot be counted per token, which is said; it used to stop the run
    (`int * Unknown` in the measure)."""
    report = audit(tmp_path, capsys, "layer.dtype", block="outside.block_size()")
    assert report["exit"] == 0
    assert report["summary"]["pairs_compared"] == 0
    assert report["summary"]["unresolved"] > 0


SLAB = """
    import torch


    class KVCache:
        def __init__(self, num_layers: int, capacity: int, kv_heads: int, head_dim: int = 128):
            self.kv_heads = kv_heads
            self.kv_buffer = torch.empty((2, num_layers, capacity, kv_heads, head_dim))


    class KVMirror:
        def __init__(self, device: KVCache, host_capacity: int, HEADS, head_dim: int = 128):
            self.kv_buffer = torch.empty(
                (LEAD device.kv_buffer.shape[1], host_capacity, HOST_HEADS, head_dim)
            )
"""


def run_slab(tmp_path, capsys, lead: str, heads: str, host_heads: str) -> dict:
    source = SLAB.replace("LEAD", lead).replace("HOST_HEADS", host_heads)
    source = source.replace("HEADS, head_dim: int = 128)", f"{heads}head_dim: int = 128)")
    write_tree(tmp_path, {"kv/__init__.py": "", "kv/cache.py": source})
    code = main([str(tmp_path), "--no-cache", "--isolated", "--output-format", "json"])
    report = json.loads(capsys.readouterr().out)
    report["exit"] = code
    return report


def test_a_free_count_both_sides_scale_with_is_compared_at_a_sample(tmp_path, capsys):
    """`kv_heads` has no default and nothing gives it: the host reads it off the device, so
    both sides scale with it alike and compare the same at any value: compared at a sample
    (the finding says so), not left unresolved."""
    report = run_slab(tmp_path / "ok", capsys, "2,", "", "device.kv_heads")
    assert report["summary"]["pairs_compared"] == 1 and report["findings"] == []
    report = run_slab(tmp_path / "bug", capsys, "", "", "device.kv_heads")
    [finding] = report["findings"]
    assert "8192 B/token/layer vs 16384 B/token/layer" in finding["message"]  # K only
    assert "at kv_heads=16 (sampled: nothing gives it a value" in finding["message"]


def test_two_free_counts_of_other_names_stay_unresolved(tmp_path, capsys):
    """The host's own `heads` against the device's `kv_heads`: sampled apart, the two would
    disagree at points no configuration has; the figures stay unresolved, no finding."""
    report = run_slab(tmp_path, capsys, "2,", "heads: int, ", "heads")
    assert report["findings"] == [] and report["exit"] == 0
    assert report["summary"]["pairs_compared"] == 0
    assert report["summary"]["unresolved"] > 0


def test_a_host_in_pages_of_a_size_it_does_not_name_takes_its_devices_pages(tmp_path, capsys):
    """`num_host_pages` rows of a page size unpacked from the device's shape: per page is not
    per token (compared per page, it gave a false LA001); the host's pages are taken as its
    device's, whose page size the device keeps (`self.page_size`), and that is said."""
    pools = """
        import torch


        class PagedKV:
            def __init__(self, num_pages: int, page_size: int, num_layers: int):
                self.page_size = page_size
                self.kv_data = torch.empty((num_layers, num_pages, page_size, 8, 64))


        class HostPagedKV:
            def __init__(self, device_pool: PagedKV, num_host_pages: int):
                layers, _, page, heads, dim = device_pool.kv_data.shape
                self.kv_data = torch.empty((layers, num_host_pages, page, heads, dim))
    """
    write_tree(tmp_path, {"pg/__init__.py": "", "pg/pools.py": pools})
    code = main([str(tmp_path), "--no-cache", "--isolated", "--output-format", "json"])
    report = json.loads(capsys.readouterr().out)
    assert code == 0 and report["findings"] == []
    assert report["coverage"][0]["compared"] and report["summary"]["unresolved"] == 0
    main([str(tmp_path), "--no-cache", "--isolated", "--show-pools"])
    assert "tokens per block: its device's" in capsys.readouterr().out


def test_a_ratio_the_callers_give_is_taken_as_the_hosts_default_and_said(tmp_path, capsys):
    """`LatentOffloadPool(self.kv, ratio=host_ratio)`, `host_ratio` a parameter of the method
    building both: the callers' value is not followed, so the host's own default (2.0) is
    taken, said in the pair's assumptions; the host dropping the rope part is reported."""
    pools = """
        import torch


        class LatentKVPool:
            def __init__(self, n_layers: int, capacity: int, kv_lora_rank: int = 512,
                         qk_rope_head_dim: int = 64):
                self.capacity = capacity
                self.n_layers = n_layers
                self.kv_lora_rank = kv_lora_rank
                self.latent = [torch.empty((capacity, kv_lora_rank + qk_rope_head_dim),
                                           dtype=torch.bfloat16) for _ in range(n_layers)]


        class LatentOffloadPool:
            def __init__(self, device: LatentKVPool, ratio: float = 2.0):
                self.capacity = int(device.capacity * ratio)
                self.latent = [torch.empty((self.capacity, device.kv_lora_rank),
                                           dtype=torch.bfloat16) for _ in range(device.n_layers)]


        class Server:
            def __init__(self, num_layers: int, gpu_tokens: int, host_ratio: float):
                self.kv = LatentKVPool(num_layers, gpu_tokens)
                self.host_kv = LatentOffloadPool(self.kv, ratio=host_ratio)
    """
    write_tree(tmp_path, {"mla/__init__.py": "", "mla/pools.py": pools})
    code = main([str(tmp_path), "--no-cache", "--isolated", "--show-pairs"])
    out = capsys.readouterr().out
    assert code == 1
    assert "1024 B/token/layer vs 1152 B/token/layer" in out
    assert "assumed: ratio: the callers' value not known, taken as its default (2.0)" in out


def test_a_flag_that_only_sets_what_is_allocated_is_left_to_the_pack_for_its_pools(tmp_path):
    """For a pool the pack's names describe (`size`, `layer_num`), such a flag is the pack's
    to give (SGLang's `enable_kv_cache_copy`, `use_nsa`): not explored, the matrix unchanged;
    for a class recognised by what it does, it is."""
    from auditor.pipeline import audit as run_audit
    from auditor.settings import load_settings

    source = """
        import torch


        class Pool:
            def __init__(self, SIZE: int, LAYERS: int, wide: bool = False):
                if wide:
                    row = 256
                else:
                    row = 128
                self.kv_buffer = [torch.empty((SIZE, row)) for _ in range(LAYERS)]
    """
    for names, explored in ((("size", "layer_num"), False), (("num_slots", "depth"), True)):
        root = tmp_path / names[0]
        text = source.replace("SIZE", names[0]).replace("LAYERS", names[1])
        write_tree(root, {"p/__init__.py": "", "p/pool.py": text})
        result = run_audit([root], load_settings(None))
        [evaluation] = result.evaluations
        assert ("wide" in evaluation.varied) is explored, (names, evaluation.varied)


QUANT_CONFIG = """
    from dataclasses import dataclass

    import torch


    @dataclass
    class CacheConfig:
        num_gpu_blocks: int
        num_cpu_blocks: int
        block_size: int = 64
        quant_policy: int = 0


    @dataclass
    class ModelConfig:
        num_layers: int
        num_key_value_heads: int
        head_dim: int
        dtype: torch.dtype = torch.float16
"""

QUANT_DEVICE = """
    import torch

    from quant.config import CacheConfig, ModelConfig


    class CacheEngine:
        def __init__(self, cache_config: CacheConfig, model_config: ModelConfig):
            self.block_size = cache_config.block_size
            kv_dtype = torch.uint8 if cache_config.quant_policy == 8 else model_config.dtype
            shape = (cache_config.num_gpu_blocks, self.block_size,
                     model_config.num_key_value_heads, model_config.head_dim)
            self.k_caches, self.v_caches = [], []
            for _ in range(model_config.num_layers):
                self.k_caches.append(torch.empty(shape, dtype=kv_dtype))
                self.v_caches.append(torch.empty(shape, dtype=kv_dtype))
"""

QUANT_HOST = """
    import torch

    from quant.config import CacheConfig, ModelConfig
    from quant.cache_engine import CacheEngine


    class HostCacheEngine:
        def __init__(self, cache_config: CacheConfig, model_config: ModelConfig, gpu: CacheEngine):
            self.block_size = gpu.block_size
            kv_dtype = torch.uint8 if cache_config.quant_policy == 8 else DEFAULT
            shape = (cache_config.num_cpu_blocks, self.block_size,
                     model_config.num_key_value_heads, model_config.head_dim)
            self.k_caches = [torch.empty(shape, dtype=kv_dtype) for _ in range(model_config.num_layers)]
            self.v_caches = [torch.empty(shape, dtype=kv_dtype) for _ in range(model_config.num_layers)]
"""


def test_a_config_objects_flag_is_explored_at_its_fields_default_too(tmp_path, capsys):
    """`quant_policy: int = 0` compared with 8 only: the point at the dataclass's default (0) is
    built as well as the one at 8, so a host drifting on the default branch is reported there;
    the K and V lists set by one tuple assignment (`self.k_caches, self.v_caches = [], []`) are
    buffers a host mirrors."""
    files = {
        "quant/__init__.py": "",
        "quant/config.py": QUANT_CONFIG,
        "quant/cache_engine.py": QUANT_DEVICE,
    }
    write_tree(tmp_path, {**files, "quant/host.py": QUANT_HOST.replace("DEFAULT", "torch.uint8")})
    assert main([str(tmp_path), "--no-cache", "--isolated", "--output-format", "json"]) == 1
    report = json.loads(capsys.readouterr().out)
    assert {f["message"].split(":", 1)[0] for f in report["findings"]} == {"k_caches", "v_caches"}
    for finding in report["findings"]:
        assert "CacheConfig.quant_policy=0" in finding["message"], finding["message"]
    assert report["summary"]["pairs_compared"] == 1
    write_tree(tmp_path, {"quant/host.py": QUANT_HOST.replace("DEFAULT", "model_config.dtype")})
    assert main([str(tmp_path), "--no-cache", "--isolated", "--output-format", "json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["summary"]["pairs_compared"] == 1 and report["summary"]["config_points"] >= 2
