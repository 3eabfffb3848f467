"""Platform probes and environment switches are config dimensions, never this machine's answers."""

from __future__ import annotations

import os

import pytest
from helpers import assert_unknown, build, build_index, write_tree

from auditor.evaluation.matrix import dimensions, flag_dimension, switch_dimension
from auditor.pipeline import audit
from auditor.settings import ConfigError, Settings, load_settings

PROBED = {
    "utils.py": """
        import os
        import torch

        def is_hip():
            return torch.version.hip is not None

        def get_bool_env_var(name, default="false"):
            value = os.getenv(name, default)
            return value.lower() in ("true", "1")
    """,
    "pool.py": """
        import os
        from utils import is_hip, get_bool_env_var
        from platforms import is_npu

        _is_hip = is_hip()
        _is_npu = is_npu()
        _big = get_bool_env_var("BIG_ROWS")

        class Pool:
            def __init__(self, size, layer_num):
                self.hip = _is_hip
                self.npu = _is_npu
                self.big = _big
                self.raw = os.environ.get("RAW", "unset")
                self.item = os.environ["RAW"]
                self.present = "RAW" in os.environ
                self.absent = "RAW" not in os.environ
                self.unlisted = os.getenv("NOT_IN_THE_PACK")
    """,
}


def _point(hip=False, npu=False, big=None, raw=None) -> dict:
    return {
        flag_dimension("is_hip"): hip,
        flag_dimension("is_npu"): npu,
        switch_dimension("BIG_ROWS"): big,
        switch_dimension("RAW"): raw,
    }


def _python_bool_env(value):
    """What the audited helper computes in Python, with the variable set to `value`."""
    return (value if value is not None else "false").lower() in ("true", "1")


@pytest.mark.parametrize("hip", [False, True])
@pytest.mark.parametrize("big", [None, "1", "TRUE", "no"])
def test_probes_and_switches_take_the_config_point_values(tmp_path, hip, big):
    index = build_index(tmp_path, PROBED)
    built = build(index, "Pool", _point(hip=hip, big=big, raw="x"))
    assert built["hip"] is hip  # an audited probe is not followed into torch.version
    assert built["npu"] is False  # a probe outside the audited tree too
    assert built["big"] is _python_bool_env(big)  # the audited helper parses the text
    assert built.point.reads >= {flag_dimension("is_hip"), switch_dimension("BIG_ROWS")}


@pytest.mark.parametrize("raw", [None, "", "abc"])
def test_environ_reads_follow_python(tmp_path, raw, monkeypatch):
    index = build_index(tmp_path, PROBED)
    built = build(index, "Pool", _point(raw=raw))
    if raw is None:
        monkeypatch.delenv("RAW", raising=False)
    else:
        monkeypatch.setenv("RAW", raw)
    assert built["raw"] == os.environ.get("RAW", "unset")
    assert built["present"] is ("RAW" in os.environ)
    assert built["absent"] is ("RAW" not in os.environ)
    if raw is None:
        assert_unknown(built["item"], "KeyError")
    else:
        assert built["item"] == os.environ["RAW"]


def test_a_variable_the_pack_does_not_list_is_unset_and_noted_and_a_probe_stays_unknown(
    tmp_path,
):
    """A variable the pack lists no value for is read as unset (the code's own default, as on
    a machine that does not set it), and the point notes it so the report says so."""
    index = build_index(tmp_path, PROBED)
    built = build(index, "Pool", _point())
    assert built["unlisted"] is None
    assert built.point.unset == ["NOT_IN_THE_PACK"]
    assert "RAW" not in built.point.unset  # listed: a value of the point, not an assumption
    without_probes = build(index, "Pool", {switch_dimension("BIG_ROWS"): None})
    assert_unknown(without_probes["hip"])  # followed into torch.version: outside the tree


ENVS = {
    "environ.py": """
        import os

        class EnvField:
            def __init__(self, default):
                self.default = default

            def __set_name__(self, owner, name):
                self.name = name

            def _resolve_default(self):
                return self.default() if callable(self.default) else self.default

            def get(self):
                value = os.getenv(self.name)
                if value is None:
                    return self._resolve_default()
                try:
                    return self.parse(value)
                except ValueError:
                    return self._resolve_default()

        class EnvBool(EnvField):
            def parse(self, value):
                value = value.lower()
                if value in ["true", "1", "yes", "y"]:
                    return True
                if value in ["false", "0", "no", "n"]:
                    return False
                raise ValueError(value)

        def _default_off():
            return False

        class Envs:
            USE_HND = EnvBool(False)
            LAZY = EnvBool(_default_off)

        envs = Envs()
    """,
    "pool.py": """
        import torch
        from environ import envs

        class Pool:
            def __init__(self, size, layer_num, head_dim):
                self.use_hnd = envs.USE_HND.get()
                self.lazy = envs.LAZY.get()
                rows = size + 1 if self.use_hnd else size
                self.k_buffer = [torch.zeros(rows, head_dim) for _ in range(layer_num)]
    """,
}


@pytest.mark.parametrize("text, expected", [(None, False), ("1", True), ("no", False)])
def test_descriptor_switches_learn_their_name_from_set_name(tmp_path, text, expected):
    index = build_index(tmp_path, ENVS)
    values = {switch_dimension("USE_HND"): text, switch_dimension("LAZY"): None}
    built = build(index, "Pool", {"size": 4, "layer_num": 1, "head_dim": 2, **values})
    assert built["use_hnd"] is expected
    assert built["lazy"] is False  # a callable default, called
    assert built["k_buffer"][0].shape == ((5 if expected else 4), 2)


def test_the_matrix_varies_a_switch_only_once_the_code_reads_it(tmp_path):
    write_tree(tmp_path, ENVS)
    settings = load_settings(None)
    settings.switches = {"USE_HND": [None, "1"], "LAZY": [None], "NEVER_READ": [None, "1"]}
    settings.flags = {"is_hip": [False, True]}
    settings.respect_gitignore = False
    result = audit([tmp_path], settings)
    (evaluation,) = result.evaluations
    assert evaluation.varied == [switch_dimension("USE_HND")]
    assert [p.values[switch_dimension("USE_HND")] for p in evaluation.feasible] == [None, "1"]


def test_dimensions_include_every_flag_and_switch():
    settings = Settings(flags={"is_hip": [False, True]}, switches={"X": [None, "1"]})
    dims = dimensions([], settings)
    assert dims[flag_dimension("is_hip")].values == (False, True)
    assert dims[switch_dimension("X")].values == (None, "1")
    assert flag_dimension("is_hip") == "is_hip()" and switch_dimension("X") == "$X"


RUNTIME = {
    "runtime_context.py": """
        class ParallelContext:
            def __getattr__(self, name):
                raise ValueError("config namespace 'parallel' not published")

        _PARALLEL = ParallelContext()

        def get_parallel():
            return _PARALLEL

        def get_exec():
            raise ValueError("config namespace 'exec' not published")
    """,
    "pool.py": """
        import torch
        from runtime_context import get_exec, get_parallel

        class Pool:
            def __init__(self, size, layer_num, page_size):
                dcp_size = get_parallel().attn_dcp_size
                rows = (size + page_size) * dcp_size - page_size
                self.index_buffer = [torch.zeros(rows, 132, dtype=torch.uint8)]
                self.other = get_parallel().pp_size
                fp4 = get_exec().kernel.enable_fp4
                self.index_k = [torch.zeros(size, 68 if fp4 else 132, dtype=torch.uint8)]
    """,
}


@pytest.mark.parametrize("dcp", [1, 2])
def test_runtime_getters_read_the_rule_pack(tmp_path, dcp):
    """`get_parallel().attn_dcp_size` is runtime state: a config dimension, not the import-time
    state of the process-wide object (which would raise here)."""
    index = build_index(tmp_path, RUNTIME)
    values = {"size": 10, "layer_num": 1, "page_size": 4, "get_parallel().attn_dcp_size": dcp}
    built = build(index, "Pool", {**values, "get_exec().kernel.enable_fp4": dcp == 2})
    assert built["index_buffer"][0].shape == ((10 + 4) * dcp - 4, 132)
    assert built["index_k"][0].shape == (10, 68 if dcp == 2 else 132)  # a nested path
    assert "get_parallel().attn_dcp_size" in built.point.reads
    assert_unknown(built["other"], "get_parallel().pp_size", "[runtime.get_parallel]")


def test_runtime_tables_in_settings_and_dimensions(tmp_path):
    settings = load_settings(None)
    assert settings.runtime["get_parallel"]["attn_dcp_size"] == [1]
    config = tmp_path / "pyproject.toml"
    config.write_text(
        "[tool.layout-audit.runtime.get_parallel]\nattn_dcp_size = [1, 2]\n"
        "[tool.layout-audit.runtime.get_exec]\nkernel.enable_fp4 = [false, true]\n"
    )
    settings = load_settings(config)
    assert settings.runtime["get_exec"]["kernel.enable_fp4"] == [False, True]
    assert settings.runtime["get_parallel"]["attn_dcp_size"] == [1, 2]
    assert settings.runtime["get_parallel"]["attn_tp_size"] == [1]  # the pack's, kept
    dims = dimensions([], settings)
    assert dims["get_parallel().attn_dcp_size"].values == (1, 2)
    config.write_text("[tool.layout-audit.runtime]\nget_parallel = 3\n")
    with pytest.raises(ConfigError, match="runtime.get_parallel"):
        load_settings(config)


def test_a_probe_is_a_call_without_arguments(tmp_path):
    """`is_cuda(tensor)` asks about a tensor, not the machine: it is followed, not answered."""
    index = build_index(
        tmp_path,
        {
            "pool.py": """
                def is_cuda(value=None):
                    return value == "cuda"

                class Pool:
                    def __init__(self, size, layer_num):
                        self.machine = is_cuda()
                        self.given = is_cuda("cpu")
            """
        },
    )
    built = build(index, "Pool", {flag_dimension("is_cuda"): True})
    assert built["machine"] is True
    assert built["given"] is False
