"""Partial runs of vLLM code (auditor/engines/vllm_run.py) on small trees written here."""

from __future__ import annotations

import textwrap
from pathlib import Path

from auditor.pipeline import audit
from auditor.settings import load_settings

SPECS = """
import torch
from dataclasses import dataclass, field, replace


def get_dtype_size(dtype):
    return torch.tensor([], dtype=dtype).element_size()


@dataclass(frozen=True)
class KVCacheSpec:
    block_size: int

    @property
    def page_size_bytes(self) -> int:
        raise NotImplementedError


@dataclass(frozen=True, kw_only=True)
class AttentionSpec(KVCacheSpec):
    num_kv_heads: int
    head_size: int
    dtype: torch.dtype
    page_size_padded: int | None = field(default=None)

    def __post_init__(self):
        if self.page_size_padded is None:
            object.__setattr__(self, "page_size_padded", self.real_page_size_bytes)

    @property
    def real_page_size_bytes(self) -> int:
        return 2 * self.block_size * self.num_kv_heads * self.head_size * get_dtype_size(self.dtype)

    @property
    def page_size_bytes(self) -> int:
        return self.page_size_padded
"""


def tree(tmp_path: Path, code: str) -> Path:
    root = tmp_path / "vllm"
    (root / "v1").mkdir(parents=True)
    (root / "__init__.py").write_text("")
    (root / "v1" / "__init__.py").write_text("")
    (root / "v1" / "kv_cache_interface.py").write_text(SPECS)
    (root / "user.py").write_text(textwrap.dedent(code))
    return tmp_path


def rows(tmp_path: Path, code: str) -> dict[str, list[str]]:
    """{label: texts} of the spec rows of the sites in user.py."""
    result = audit([tree(tmp_path, code)], load_settings(None))
    found: dict[str, list[str]] = {}
    for row in result.stage_rows:
        if "user.py" in row.title:
            found.setdefault(row.label, []).append(row.text)
    return found


def test_dataclass_idioms_are_followed(tmp_path: Path) -> None:
    found = rows(
        tmp_path,
        """
        from dataclasses import replace
        from vllm.v1.kv_cache_interface import AttentionSpec

        def estimate(vllm_config):
            spec = AttentionSpec(
                block_size=1,
                num_kv_heads=vllm_config.model_config.get_num_kv_heads(None),
                head_size=vllm_config.model_config.get_head_size(),
                dtype=vllm_config.model_config.dtype,
            )
            return replace(spec, block_size=vllm_config.cache_config.block_size)
        """,
    )
    texts = found["model=gqa-8x128, model_dtype=bfloat16, cache_dtype=auto, block_size=16"]
    # 2 x 8 heads x 128 x 2 B = 4096 B/token, page padded to itself in __post_init__
    assert texts == [
        "AttentionSpec: 4096 B/token, 4096 B/block (block_size=1); "
        "AttentionSpec.page_size_bytes: self.page_size_padded with page_size_padded=4096 = 4096 "
        "(real_page_size_bytes: 2 * self.block_size * self.num_kv_heads * self.head_size * "
        "get_dtype_size(self.dtype))"
    ]


def test_a_branch_not_taken_is_not_reached(tmp_path: Path) -> None:
    found = rows(
        tmp_path,
        """
        from vllm.v1.kv_cache_interface import AttentionSpec

        def estimate(vllm_config):
            if vllm_config.model_config.use_mla:
                return AttentionSpec(block_size=1, num_kv_heads=1, head_size=576,
                                     dtype=vllm_config.model_config.dtype).page_size_bytes
        """,
    )
    labels = set(found)
    assert labels and all(label.startswith("model=mla-576") for label in labels)


def test_an_assert_in_a_called_function_does_not_stop_the_run(tmp_path: Path) -> None:
    found = rows(
        tmp_path,
        """
        from vllm.v1.kv_cache_interface import AttentionSpec

        _GROUP = None

        def get_group():
            assert _GROUP is not None
            return _GROUP

        class Runner:
            def __init__(self, vllm_config):
                self.vllm_config = vllm_config
                self.group = get_group()
                self.kv_cache_dtype = vllm_config.model_config.dtype

            def build(self):
                cache = self.vllm_config.cache_config
                return AttentionSpec(block_size=cache.block_size, num_kv_heads=2,
                                     head_size=64, dtype=self.kv_cache_dtype)
        """,
    )
    texts = found["model=mla-576, model_dtype=float16, cache_dtype=auto, block_size=64"]
    assert texts[0].startswith("AttentionSpec: 512 B/token, 32768 B/block (block_size=64)")


def test_an_assert_on_the_way_ends_the_run(tmp_path: Path) -> None:
    found = rows(
        tmp_path,
        """
        from vllm.v1.kv_cache_interface import AttentionSpec

        def build(vllm_config):
            assert not vllm_config.model_config.use_mla
            return AttentionSpec(block_size=16, num_kv_heads=1, head_size=64,
                                 dtype=vllm_config.model_config.dtype)
        """,
    )
    assert found and all(label.startswith("model=gqa-8x128") for label in found)


def test_a_read_outside_the_pack_is_unresolved_with_its_path(tmp_path: Path) -> None:
    found = rows(
        tmp_path,
        """
        from vllm.v1.kv_cache_interface import AttentionSpec

        def build(vllm_config):
            return AttentionSpec(block_size=16, num_kv_heads=1,
                                 head_size=vllm_config.lora_config.max_lora_rank,
                                 dtype=vllm_config.model_config.dtype)
        """,
    )
    texts = {text for values in found.values() for text in values}
    assert len(texts) == 1
    [text] = texts
    assert text.startswith("unresolved: ")
    assert "vllm_config.lora_config is not a read of the vllm rule pack" in text
