"""Opt-in (`python -m pytest -m corpus`): layout bugs recreated in SGLang 0.5.23's real code.

Each case copies the release's `sglang/srt` to a temporary folder, applies one textual edit
of the kind that breaks a host mirror in practice (an override dropped at an assembler call,
a host formula or dtype drifting from its device, a device buffer changing while its host
does not, scales no longer refused nor mirrored, a declared size per token drifting), audits
the copy with the bundled pack, and asserts the bug is reported with both figures. The
unmutated release is clean (test_corpus.py / bench/corpus.py)."""

from __future__ import annotations

import importlib.util
import shutil
from dataclasses import dataclass
from pathlib import Path

import pytest

pytestmark = pytest.mark.corpus

RUNNER = Path(__file__).resolve().parent.parent / "bench" / "corpus.py"
ASSEMBLER = "mem_cache/hybrid_cache/hybrid_pool_assembler.py"
MLA_HOST = "mem_cache/pool_host/mla.py"
MHA_HOST = "mem_cache/pool_host/mha.py"
DSA_HOST = "mem_cache/pool_host/dsa.py"
DEVICE = "mem_cache/memory_pool.py"
NPU_DEVICE = "hardware_backend/npu/memory_pool_npu.py"
# pool_host/mha.py between the MHA host's two refusals of an FP4 record
FP4_REFUSALS = """ != KVScaleLayout.MXFP8_INTERLEAVED
            ):
                raise ValueError(
                    f"{pool_label}: MHA host transfers do not support "
                    f"KV scale layout {info.scales.layout.value!r}."
                )
            info.validate()
"""


@dataclass(frozen=True)
class Mutation:
    """One edit of the real code and what must be reported."""

    name: str
    path: str  # below sglang/srt
    old: str  # must occur exactly once
    new: str
    code: str
    host: str  # host class named by the finding (LA003: a host that mirrors the pool)
    device: str
    figures: tuple[int, int] | int  # (host, device) B/token/layer; LA003: the device's


MUTATIONS = [
    Mutation(
        "override dropped at _build_mha_mla_host_pool",
        ASSEMBLER,
        "        target_layer_num=pool.layer_num,\n        override_kv_cache_dim=pool.kv_cache_dim,\n",
        "        target_layer_num=pool.layer_num,\n",
        "LA001",
        "MLATokenToKVPoolHost",
        "DSATokenToKVPool",
        (576, 656),
    ),
    Mutation(
        "override dropped at build_kv_host_pool",
        ASSEMBLER,
        "        override_kv_cache_dim = kv_pool.kv_cache_dim\n",
        "        pass\n",
        "LA001",
        "MLATokenToKVPoolHost",
        "DSATokenToKVPool",
        (576, 656),
    ),
    Mutation(
        "MLA host dtype drifts from the record's",
        MLA_HOST,
        "        self.dtype = buffer_info.dtype\n",
        "        self.dtype = torch.bfloat16\n",
        "LA001",
        "MLATokenToKVPoolHost",
        "MLATokenToKVPool",
        (1152, 576),
    ),
    Mutation(
        "MHA host row formula drifts",
        MHA_HOST,
        "dims = (2, self.layer_num, self.size, self.head_num, self.head_dim)",
        "dims = (2, self.layer_num, self.size, self.head_num, self.head_dim + 16)",
        "LA001",
        "MHATokenToKVPoolHost",
        "MHATokenToKVPool",
        (4608, 4096),
    ),
    Mutation(
        "DSA device index-K rows turn bf16, the declared host layout does not",
        "mem_cache/index_key_cache.py",
        "dtype=pool.index_k_with_scale_buffer_dtype,",
        "dtype=torch.bfloat16,",
        "LA001",
        "DSAIndexerPoolHost",
        "DSATokenToKVPool",
        (132, 264),
    ),
    Mutation(
        # both refusals go: the scale layout, and the pointer tables FP4 pools never build
        "MHA host stops refusing FP4 records: their scales are not mirrored",
        MHA_HOST,
        "                info.scales is not None\n                and info.scales.layout"
        + FP4_REFUSALS
        + "            if info.transfer_buffers is None and (\n",
        "                False\n                and info.scales.layout"
        + FP4_REFUSALS
        + "            if False and (\n",
        "LA003",
        "MHATokenToKVPoolHost",
        "MHATokenToKVPoolFP4",
        64,
    ),
    Mutation(
        "declared DSA index-K size per token drifts",
        DSA_HOST,
        "bytes_per_token_per_layer=index_page_bytes // pool.page_size,",
        "bytes_per_token_per_layer=index_page_bytes // pool.page_size - 4,",
        "LA001",
        "DSAIndexerPoolHost",
        "DSATokenToKVPool",
        (128, 132),
    ),
    Mutation(
        "MHA device rows widen, its host does not",
        DEVICE,
        "                            _zeros((2, padded, *k_shape[1:]))\n",
        "                            _zeros((2, padded, *k_shape[1:-1], k_shape[-1] + 16))\n",
        "LA001",
        "MHATokenToKVPoolHost",
        "MHATokenToKVPool",
        (4096, 4608),
    ),
    Mutation(  # evaluated on the pack's Ascend platform (is_npu(), page_first_kv_split)
        "Ascend MLA device RoPE rows widen, the host's v_buffer does not",
        NPU_DEVICE,
        "self.kr_cache_dim = 0 if self.dsa_kv_cache_store_fp8 else qk_rope_head_dim\n",
        "self.kr_cache_dim = 0 if self.dsa_kv_cache_store_fp8 else qk_rope_head_dim + 16\n",
        "LA001",
        "MLATokenToKVPoolHost",
        "NPUMLATokenToKVPool",
        (128, 160),
    ),
    Mutation(
        "Ascend MLA host k_buffer formula drifts (RoPE folded in)",
        MLA_HOST,
        "                k_width = self.kv_lora_rank\n",
        "                k_width = self.kv_lora_rank + self.qk_rope_head_dim\n",
        "LA001",
        "MLATokenToKVPoolHost",
        "NPUMLATokenToKVPool",
        (1152, 1024),
    ),
    Mutation(  # HiSparse holds index-K for size * host_to_device_ratio slots: per slot 136
        "DSA index-K scales widen on the device, the declared host layout does not (HiSparse)",
        "mem_cache/index_key_cache.py",
        "* (pool.index_head_dim + pool.index_head_dim // pool.quant_block_size * 4),",
        "* (pool.index_head_dim + pool.index_head_dim // pool.quant_block_size * 8),",
        "LA001",
        "DSAIndexerPoolHost",
        "HiSparseDSATokenToKVPool",
        (132, 136),
    ),
    Mutation(  # the host keeps the device's page-row slab as its `kv_buffer` (no shared name)
        "MiniMax NVFP4 host rows lose the block scales (half the device's row width)",
        "mem_cache/pool_host/minimax_m3_nvfp4.py",
        "            dims = (self.layer_num, self.page_num, self.row_bytes)\n",
        "            dims = (self.layer_num, self.page_num, self.row_bytes // 2)\n",
        "LA001",
        "MiniMaxM3Nvfp4MainKVPoolHost",
        "MiniMaxM3Nvfp4MainKVPool",
        (576, 1152),
    ),
    Mutation(  # its capacity comes from the KV host it is anchored on (a stand-in here)
        "MiniMax sparse index-K host rows hold one head where the device keeps head_num",
        MHA_HOST,
        "            dims = (self.layer_num, self.size, self.head_num, self.head_dim)\n",
        "            dims = (self.layer_num, self.size, self.head_dim)\n",
        "LA001",
        "MHATokenToKOnlyPoolHost",
        "MHATokenToKOnlyPool",
        (256, 2048),
    ),
    Mutation(
        # paired through its production path since session 13 (a pool given layer ids)
        "QSA indexer host counts compressed groups as tokens (4x the device's bytes per token)",
        "mem_cache/pool_host/qsa.py",
        "            slot_page_size=page_size,\n",
        "            slot_page_size=page_size // ratio,\n",
        "LA001",
        "QSAIndexerPoolHost",
        "QSATokenToKVPool",
        (256, 64),
    ),
    Mutation(
        # paired through its production path since session 14 (the record its caller unpacks)
        "Mamba host keeps the SSM state in bf16 (the device's is fp32)",
        "mem_cache/pool_host/mamba.py",
        "        self.temporal_dtype = self.buffer_info.temporal.dtype\n",
        "        self.temporal_dtype = torch.bfloat16\n",
        "LA001",
        "MambaPoolHost",
        "MambaPool",
        (1048576, 2097152),
    ),
    Mutation(
        # page-first HiCache layouts are in the pack's matrix since session 34
        "MLA host's page-first rows drop the override (latent + RoPE widths)",
        MLA_HOST,
        '        elif self.layout == "page_first":\n            dims = (\n'
        "                self.size,\n                self.layer_num,\n                1,\n"
        "                self.kv_cache_dim,\n",
        '        elif self.layout == "page_first":\n            dims = (\n'
        "                self.size,\n                self.layer_num,\n                1,\n"
        "                self.kv_lora_rank + self.qk_rope_head_dim,\n",
        "LA001",
        "MLATokenToKVPoolHost",
        "DSATokenToKVPool",
        (576, 656),
    ),
    Mutation(
        "Mamba host's page-first conv rows drop the conv window",
        "mem_cache/pool_host/mamba.py",
        "                conv_dims = (self.size, self.num_mamba_layers, 1) + conv_shape\n",
        "                conv_dims = (self.size, self.num_mamba_layers, 1) + conv_shape[:-1]\n",
        "LA001",
        "MambaPoolHost",
        "MambaPool",
        (16384, 49152),
    ),
]


def _release() -> tuple[Path, list[Path]]:
    spec = importlib.util.spec_from_file_location("corpus_runner", RUNNER)
    runner = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(runner)
    trees = list(runner.fetch("0.5.23"))
    [srt] = [tree for tree in trees if tree.name == "srt"]
    return srt, [tree for tree in trees if tree is not srt]


def _matches(finding, mutation: Mutation) -> bool:
    if finding.code != mutation.code or finding.device is None:
        return False
    if finding.device.class_name != mutation.device:
        return False
    if mutation.code == "LA003":
        return (
            finding.device.bytes_per_token == mutation.figures
            and f"{mutation.figures} B/token/layer" in finding.message
            and mutation.host in finding.message
        )
    host, device = mutation.figures
    return (
        finding.host is not None
        and finding.host.class_name == mutation.host
        and (finding.host.bytes_per_token, finding.device.bytes_per_token) == (host, device)
        and f"{host} B/token/layer" in finding.message
        and f"{device} B/token/layer" in finding.message
    )


# Mutations audited together: each group's edits touch different pairs, so none changes the
# figures another one is expected to give (an audit of the whole release takes minutes).
GROUPS = {
    "call site 1606, MHA host, MHA FP4 scales, declared DSA": [0, 3, 5, 6],
    "call site 224, DSA index-K device, MHA device": [1, 4, 7],
    "MLA host dtype": [2],
    "Ascend MLA device and host": [8, 9],
    "HiSparse index-K per slot": [10],
    "MiniMax NVFP4 page rows, MiniMax index-K host": [11, 12],
    "QSA indexer host pages": [13],
    "MLA host page-first rows": [14],
    "Mamba host state dtype and conv rows": [15, 16],
}


@pytest.mark.parametrize("group", list(GROUPS), ids=list(GROUPS))
def test_layout_bugs_recreated_in_0_5_23_are_reported(group: str, tmp_path: Path) -> None:
    from auditor.pipeline import audit
    from auditor.settings import load_settings

    srt, others = _release()
    mutated = tmp_path / "sglang" / "srt"
    shutil.copytree(srt, mutated)
    mutations = [MUTATIONS[i] for i in GROUPS[group]]
    for mutation in mutations:
        path = mutated / mutation.path
        source = path.read_text()
        assert source.count(mutation.old) == 1, mutation.old
        path.write_text(source.replace(mutation.old, mutation.new))
    settings = load_settings(None)
    settings.respect_gitignore = False
    result = audit([mutated, *others], settings)
    missed = [m.name for m in mutations if not any(_matches(f, m) for f in result.findings)]
    assert not missed, (missed, [f"{f.code} {f.message[:300]}" for f in result.findings])


def test_kinds_of_bug_are_many() -> None:
    assert len(MUTATIONS) >= 8
    assert sorted(i for group in GROUPS.values() for i in group) == list(range(len(MUTATIONS)))
    assert len({m.code for m in MUTATIONS}) == 2  # LA001 and LA003
    assert len({m.path for m in MUTATIONS}) >= 6
