"""A torch module's buffers (`self.register_buffer("conv_state", torch.zeros(...))`) are what
it allocates, as `self.conv_state = ...` would be (desugar.py for recognition, methods.py for
the interpreter); and a mirror naming a Mamba layer's SSM state its "temporal" state holds the
same storage as `ssm_state` (buffer_roles). Checked on the meta device."""

from __future__ import annotations

import ast
import textwrap

import pytest
from helpers import audit_json, built_by_the_tree, one_pair_verdict, write_tree

from auditor.frontend.behaviour import constructor, infer_roles, methods_of, params_of, read_facts

STATES = """
    import torch
    from torch import nn


    class StateCache(nn.Module):
        def __init__(self, n_layers: int, max_seqs: int, width: int = 256, d_state: int = 16,
                     conv_dtype=torch.bfloat16, ssm_dtype=torch.float32, device="cuda"):
            super().__init__()
            self.register_buffer(
                "conv_state",
                torch.zeros((n_layers, max_seqs, width, 4), dtype=conv_dtype, device=device),
                persistent=False,
            )
            self.register_buffer(
                "ssm_state",
                torch.zeros((n_layers, max_seqs, width, d_state), dtype=ssm_dtype, device=device),
            )


    class StateStash:
        def __init__(self, n_layers: int, capacity: int, width: int = 256, d_state: int = 16,
                     conv_dtype=torch.bfloat16, ssm_dtype=torch.float32, device="cpu"):
            self.conv = torch.empty((n_layers, capacity, width, 4), dtype=conv_dtype,
                                    device=device)
            self.temporal = torch.empty((n_layers, capacity, width, d_state),
                                        dtype=STASH_DTYPE, device=device)


    def build(n_layers=4, max_seqs=64, width=256, d_state=16, conv_dtype=torch.bfloat16,
              ssm_dtype=torch.float32, device="cuda", stash_device="cpu"):
        cache = StateCache(n_layers, max_seqs, width, d_state, conv_dtype, ssm_dtype,
                           device=device)
        stash = StateStash(n_layers, max_seqs * 4, width, d_state, conv_dtype, ssm_dtype,
                           device=stash_device)
        return cache, stash
"""


@pytest.mark.parametrize("stash_dtype, bug", [("ssm_dtype", False), ("conv_dtype", True)])
def test_module_buffers_beside_a_stash_naming_them_otherwise(
    tmp_path, capsys, monkeypatch, stash_dtype, bug
):
    write_tree(
        tmp_path,
        {"ms/__init__.py": "", "ms/states.py": STATES.replace("STASH_DTYPE", stash_dtype)},
    )
    report = audit_json(tmp_path, capsys)
    assert one_pair_verdict(report) == ({("LA001", "temporal")} if bug else set())
    cache, stash = built_by_the_tree(
        tmp_path, monkeypatch, "ms", "states", "build", device="meta", stash_device="meta"
    )
    assert (cache.ssm_state.nbytes // 64 != stash.temporal.nbytes // 256) is bug
    assert cache.conv_state.nbytes // 64 == stash.conv.nbytes // 256


def test_a_registered_buffer_is_measured_as_the_real_one(tmp_path, capsys, monkeypatch):
    """At each point the finding names, the figures of both sides are the meta tensors' bytes
    per sequence per layer, built by the tree's own function with that point's dtypes."""
    import torch

    write_tree(
        tmp_path,
        {"ms/__init__.py": "", "ms/states.py": STATES.replace("STASH_DTYPE", "torch.float16")},
    )
    report = audit_json(tmp_path, capsys)
    points = [p for f in report["findings"] for p in f["points"]]
    assert points
    for point in points:
        dtypes = {k: getattr(torch, v) for k, v in point["config"].items()}
        cache, stash = built_by_the_tree(
            tmp_path,
            monkeypatch,
            "ms",
            "states",
            "build",
            device="meta",
            stash_device="meta",
            **dtypes,
        )
        real = (stash.temporal.nbytes // (256 * 4), cache.ssm_state.nbytes // (64 * 4))
        assert real == (point["host_bytes_per_token"], point["device_bytes_per_token"])


def roles_of(source: str):
    node = ast.parse(textwrap.dedent(source)).body[-1]
    return infer_roles(read_facts(methods_of(node), params_of(constructor(node))))


CODEBOOK = """
    class Codebook(nn.Module):
        def __init__(self, dim: int, codebook_size: int, kmeans_iters: int = 10):
            super().__init__()
            self.codebook_size = codebook_size
            self.kmeans_iters = kmeans_iters
            self.register_buffer("cluster_size", torch.zeros(codebook_size))
            self.register_buffer("embed", torch.empty(codebook_size, dim))

        def refit(self, samples):
            for _ in range(self.kmeans_iters):
                STEP
            return means
"""


def test_a_scratch_tensor_made_again_each_step_counts_no_layers():
    """vLLM's mimo_audio codebook: registered buffers, and a k-means loop making a scratch
    tensor each iteration (bound again in the loop body): no layers, so no pool."""
    scratch = "means = samples.new_zeros(self.codebook_size, 8)\n                means = means + 1"
    assert roles_of(CODEBOOK.replace("STEP", scratch)) is None


def test_a_tensor_kept_each_step_still_counts_layers():
    """The same loop keeping what it makes (appended, bound once) is one allocation per step."""
    kept = "self.layers.append(torch.zeros(self.codebook_size, 8))"
    source = CODEBOOK.replace("STEP", kept).replace(
        "self.kmeans_iters = kmeans_iters",
        "self.layers = []\n            self.kmeans_iters = kmeans_iters",
    )
    roles = roles_of(source)
    assert roles is not None and roles.layers == "kmeans_iters"


def test_a_state_word_alone_names_no_cache():
    """`conv_state` is the conv storage and `ssm_state` the SSM one, but `k_state`, `v_state`
    (a linear-attention state) say a state, not the K and V of a cache (a review)."""
    from auditor.evaluation.buffer_roles import matching

    assert matching(["conv", "temporal"], ["conv_state", "ssm_state"]) is not None
    assert matching(["k_state", "v_state"], ["k_cache", "v_cache"]) is None
    assert matching(["kv_state"], ["kv_cache", "kv_scale"]) is None


REGISTER_FORMS = {
    "self": 'self.register_buffer("NAME", VALUE)',
    "super": 'super().register_buffer("NAME", VALUE)',
    "unbound": 'nn.Module.register_buffer(self, "NAME", VALUE)',
    "keywords": 'self.register_buffer(name="NAME", tensor=VALUE)',
}


@pytest.mark.parametrize("form", sorted(REGISTER_FORMS))
def test_each_way_of_registering_a_buffer_sets_the_attribute(form):
    """The bound, `super()`, unbound and keyword spellings all set `self.NAME`."""
    from auditor.frontend.desugar import registered_buffer

    source = REGISTER_FORMS[form].replace("NAME", "conv_state").replace("VALUE", "torch.zeros(4)")
    assign = registered_buffer(ast.parse(source).body[0])
    assert assign is not None
    assert ast.unparse(assign) == "self.conv_state = torch.zeros(4)"


@pytest.mark.parametrize(
    "source",
    [
        'self.register_buffer("", torch.zeros(4))',  # torch refuses an empty name
        'self.register_buffer("a.b", torch.zeros(4))',  # and a dotted one
        "self.register_buffer(name, torch.zeros(4))",  # a name not written
        'other.register_buffer("x", torch.zeros(4))',  # another module's buffer
        'nn.Module.register_buffer(other, "x", torch.zeros(4))',
    ],
)
def test_a_buffer_registered_otherwise_is_not_rewritten(source):
    from auditor.frontend.desugar import registered_buffer

    assert registered_buffer(ast.parse(source).body[0]) is None


STASH_OF_THE_CACHE = """
    import torch
    from torch import nn


    class StateCache(nn.Module):
        def __init__(self, n_layers: int, max_seqs: int, width: int = 256, d_state: int = 16,
                     conv_dtype=torch.bfloat16, ssm_dtype=torch.float32, device="cuda"):
            super().__init__()
            self.register_buffer(
                "conv_state",
                torch.zeros((n_layers, max_seqs, width, 4), dtype=conv_dtype, device=device),
            )
            super().register_buffer(
                "ssm_state",
                torch.zeros((n_layers, max_seqs, width, d_state), dtype=ssm_dtype, device=device),
            )


    class StateStash(nn.Module):
        def __init__(self, cache: StateCache, capacity: int, d_state: int = 16, device="cpu"):
            super().__init__()
            n_layers, _, width, _ = cache.conv_state.shape
            conv_dtype = cache.conv_state.dtype
            nn.Module.register_buffer(
                self, "conv", torch.empty((n_layers, capacity, width, 4), dtype=conv_dtype,
                                          device=device)
            )
            self.register_buffer(
                "temporal", torch.empty((n_layers, capacity, width, d_state),
                                        dtype=cache.STASH_STATE.dtype, device=device)
            )


    def build(n_layers=4, max_seqs=64, width=256, d_state=16, conv_dtype=torch.bfloat16,
              ssm_dtype=torch.float32, device="cuda", stash_device="cpu"):
        cache = StateCache(n_layers, max_seqs, width, d_state, conv_dtype, ssm_dtype,
                           device=device)
        stash = StateStash(cache, max_seqs * 4, d_state, device=stash_device)
        return cache, stash
"""


@pytest.mark.parametrize("state, bug", [("ssm_state", False), ("conv_state", True)])
def test_a_stash_registering_buffers_from_the_cache_it_takes_is_a_host(
    tmp_path, capsys, monkeypatch, state, bug
):
    """A module taking the device cache and registering its own buffers (the unbound and
    `super()` spellings among them) is a host mirror of it, compared buffer by buffer; the
    meta-device build agrees with the verdict."""
    write_tree(
        tmp_path,
        {
            "ms/__init__.py": "",
            "ms/states.py": STASH_OF_THE_CACHE.replace("STASH_STATE", state),
        },
    )
    report = audit_json(tmp_path, capsys)
    assert one_pair_verdict(report) == ({("LA001", "temporal")} if bug else set())
    cache, stash = built_by_the_tree(
        tmp_path,
        monkeypatch,
        "ms",
        "states",
        "build",
        device="meta",
        stash_device="meta",
    )
    assert (cache.ssm_state.nbytes // 64 != stash.temporal.nbytes // 256) is bug
    assert cache.conv_state.nbytes // 64 == stash.conv.nbytes // 256
