"""Settings: rule packs and [tool.layout-audit], every key validated, errors name file and key."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from auditor.checks import selected
from auditor.dtypes import torch_module
from auditor.settings import ConfigError, find_config, load_settings

torch = torch_module()


def write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(textwrap.dedent(text).lstrip("\n"))
    return path


def config_error(path: Path | None, packs: list[str] | None = None) -> str:
    with pytest.raises(ConfigError) as caught:
        selected(load_settings(path, packs))  # codes are checked against the checks found
    message = str(caught.value)
    assert "\n" not in message
    return message


def test_bundled_sglang_pack_is_the_default():
    settings = load_settings(None)
    assert settings.packs == ["sglang"]
    assert settings.token_params == ["size", "max_total_num_tokens", "index_buf_size"]
    assert settings.layer_params == ["layer_num", "num_layers"]
    assert settings.device_pool_params == ["device_pool", "mem_pool_device"]
    assert settings.default_dtypes[0] == torch.bfloat16
    assert torch.float8_e4m3fn in settings.default_dtypes
    assert settings.matrix["index_k_dtype"] == [torch.float8_e4m3fn, torch.bfloat16]
    assert settings.matrix["page_size"] == [1, 64]
    assert settings.buffer_map == {
        "kv_buffer": ["k_buffer", "v_buffer"],
        "k_scale_host": ["k_scale_buffer"],  # SGLang 0.5.23's MXFP8 host
        "v_scale_host": ["v_scale_buffer"],
        "temporal_buffer": ["mamba_cache.temporal"],  # 0.5.23's Mamba host: the state record
        "conv_buffer": ["mamba_cache.conv"],
    }
    assert settings.select is None and settings.ignore == [] and settings.config_file is None
    assert selected(settings) == ["LA001", "LA002", "LA003", "LA100", "LA201", "LA202"]


def test_project_table_overrides_and_extends_the_packs(tmp_path):
    config = write(
        tmp_path / "pyproject.toml",
        """
        [project]
        name = "x"

        [tool.layout-audit]
        exclude = ["tests/*"]
        ignore = ["LA001"]

        [tool.layout-audit.parameters]
        tokens = ["num_tokens"]
        token-counts = [10, 20]

        [tool.layout-audit.dtypes]
        default = ["torch.float16"]

        [tool.layout-audit.matrix]
        page_size = [1, 16, 64]
        mode = "fast"
        use_fp8 = [true, false]
        kv_dtype = ["torch.float8_e5m2"]
        """,
    )
    settings = load_settings(config)
    assert settings.config_file == str(config)
    assert settings.token_params == ["num_tokens"]
    assert settings.layer_params == ["layer_num", "num_layers"]
    assert settings.token_counts == (10, 20)
    assert settings.default_dtypes == [torch.float16]
    assert settings.matrix["page_size"] == [1, 16, 64]
    assert settings.matrix["mode"] == ["fast"]
    assert settings.matrix["use_fp8"] == [True, False]
    assert settings.matrix["kv_dtype"] == [torch.float8_e5m2]
    assert settings.matrix["head_num"] == [8]
    assert settings.exclude == ["tests/*"] and settings.ignore == ["LA001"]


def test_a_rule_pack_can_be_a_path_relative_to_the_config(tmp_path):
    write(
        tmp_path / "packs" / "mine.toml",
        """
        [pack]
        name = "mine"
        [parameters]
        tokens = ["n_tokens"]
        layers = ["n_layers"]
        """,
    )
    config = write(
        tmp_path / "pyproject.toml",
        """
        [tool.layout-audit]
        rule-packs = ["packs/mine.toml"]
        """,
    )
    settings = load_settings(config)
    assert settings.packs == ["packs/mine.toml"]
    assert (settings.token_params, settings.layer_params) == (["n_tokens"], ["n_layers"])
    assert settings.matrix == {}


def test_a_plain_toml_config_file(tmp_path):
    config = write(
        tmp_path / "audit.toml",
        """
        select = ["LA001"]
        [matrix]
        page_size = [32]
        """,
    )
    assert load_settings(config).matrix["page_size"] == [32]


def test_packs_given_on_the_command_line_replace_the_configured_ones(tmp_path):
    pack = write(
        tmp_path / "p.toml",
        """
        [parameters]
        tokens = ["t"]
        layers = ["l"]
        """,
    )
    settings = load_settings(None, [str(pack)])
    assert settings.token_params == ["t"] and settings.packs == [str(pack)]


@pytest.mark.parametrize(
    "table, key",
    [
        ('colour = "red"', "colour"),
        ("[tool.layout-audit.parameters]\nlayer = ['n']", "parameters.layer"),
        ("[tool.layout-audit.dtypes]\nfallback = ['torch.float16']", "dtypes.fallback"),
    ],
)
def test_unknown_key_names_the_file_and_the_key(tmp_path, table, key):
    text = "[tool.layout-audit]\n" + table + "\n"
    config = write(tmp_path / "pyproject.toml", text)
    message = config_error(config)
    assert str(config) in message
    assert key in message
    assert "unknown key" in message


@pytest.mark.parametrize(
    "table, key, words",
    [
        ('select = "LA001"', "select", "list of strings"),
        ("exclude = [1, 2]", "exclude", "list of strings"),
        ('rule-packs = "sglang"', "rule-packs", "list of strings"),
        ("[tool.layout-audit.parameters]\ntokens = 'size'", "parameters.tokens", "list"),
        ("[tool.layout-audit.parameters]\ntoken-counts = [5, 5]", "token-counts", "two"),
        ("[tool.layout-audit.parameters]\nlayer-ids = 'ids'", "parameters.layer-ids", "list"),
        ("[tool.layout-audit.parameters]\nlayer-counts = [1, -2]", "layer-counts", "positive"),
        ("[tool.layout-audit.parameters]\nlayer-counts = [true, 2]", "layer-counts", "integers"),
        ("parameters = 3", "parameters", "table"),
        ("matrix = [1]", "matrix", "table"),
        ("[tool.layout-audit.matrix]\npage_size = []", "matrix.page_size", "at least one"),
        ("[tool.layout-audit.matrix]\npage_size = [{a = 1}]", "matrix.page_size", "expected"),
        ("[tool.layout-audit.buffer-map]\nkv = 'k'", "buffer-map.kv", "list of strings"),
        ("[tool.layout-audit.anchor-host]\nparameters = 'a'", "anchor-host.parameters", "list"),
        ("[tool.layout-audit.anchor-host]\nattributes = 3", "anchor-host.attributes", "table"),
        (
            "[tool.layout-audit.anchor-host.attributes]\nsize = 'tokens //'",
            "anchor-host.attributes.size",
            "not a Python expression",
        ),
        ("[tool.layout-audit.anchor-host.attributes]\nsize = 4", "attributes.size", "expression"),
        ("[tool.layout-audit.anchor-host]\nsizes = []", "anchor-host.sizes", "unknown key"),
        ("[tool.layout-audit.hosts]\nHost = 3", "hosts.Host", "table"),
        ("[tool.layout-audit.hosts.Host]\nclasses = []", "hosts.Host", "unknown key"),
        ("[tool.layout-audit.hosts.Host]\nmodules = 'sglang'", "hosts.Host.modules", "list"),
        ("[tool.layout-audit.hosts.Host.matrix]\nv_head_dim = []", "hosts.Host", "at least one"),
        ('select = ["LA999"]', "select", "LA999"),
        ('ignore = ["E501"]', "ignore", "E501"),
    ],
)
def test_bad_value_names_the_file_the_key_and_what_was_expected(tmp_path, table, key, words):
    config = write(tmp_path / "pyproject.toml", "[tool.layout-audit]\n" + table + "\n")
    message = config_error(config)
    assert str(config) in message
    assert key in message
    assert words in message


@pytest.mark.parametrize(
    "table, key",
    [
        ("[tool.layout-audit.matrix]\nkv_dtype = ['torch.float99']", "matrix.kv_dtype"),
        ("[tool.layout-audit.matrix]\nkv_dtype = ['torch.Tensor']", "matrix.kv_dtype"),
        ("[tool.layout-audit.dtypes]\ndefault = ['torch.bfloat17']", "dtypes.default"),
        ("[tool.layout-audit.dtypes]\ndefault = ['bfloat17']", "dtypes.default"),
        ("[tool.layout-audit.dtypes]\ndefault = ['fp8']", "dtypes.default"),
    ],
)
def test_unknown_dtype_name_is_an_error(tmp_path, table, key):
    config = write(tmp_path / "pyproject.toml", "[tool.layout-audit]\n" + table + "\n")
    message = config_error(config)
    assert str(config) in message
    assert key in message
    assert "dtype" in message


def test_default_dtypes_may_omit_the_torch_prefix(tmp_path):
    config = write(
        tmp_path / "pyproject.toml",
        "[tool.layout-audit.dtypes]\ndefault = ['bfloat16', 'torch.float16']\n",
    )
    assert load_settings(config).default_dtypes == [torch.bfloat16, torch.float16]


def test_missing_pack_names_the_file_the_key_and_the_pack(tmp_path):
    config = write(tmp_path / "pyproject.toml", '[tool.layout-audit]\nrule-packs = ["nope"]\n')
    message = config_error(config)
    assert str(config) in message and "rule-packs" in message and "'nope'" in message
    message = config_error(None, ["missing/pack.toml"])
    assert "rule-packs" in message and "missing/pack.toml" in message


def test_errors_inside_a_pack_name_the_pack_file(tmp_path):
    pack = write(tmp_path / "bad.toml", "[parameters]\ntokens = ['t']\nlayers = ['l']\nextra = 1\n")
    message = config_error(None, [str(pack)])
    assert str(pack) in message and "parameters.extra" in message


def test_a_config_without_token_or_layer_names_is_an_error(tmp_path):
    pack = write(tmp_path / "empty.toml", "[pack]\nname = 'empty'\n")
    message = config_error(None, [str(pack)])
    assert "parameters.tokens" in message


def test_invalid_or_unreadable_toml_is_a_config_error(tmp_path):
    broken = write(tmp_path / "pyproject.toml", "[tool.layout-audit\nselect = \n")
    message = config_error(broken)
    assert str(broken) in message and "invalid TOML" in message
    missing = tmp_path / "absent.toml"
    message = config_error(missing)
    assert str(missing) in message and "cannot read" in message


@pytest.mark.parametrize("text", ["tool = 3\n", "[tool]\nlayout-audit = 3\n", "tool = 'x'\n"])
def test_a_misshapen_tool_table_is_a_config_error(tmp_path, text):
    config = write(tmp_path / "pyproject.toml", text)
    message = config_error(config)
    assert str(config) in message


def test_find_config_picks_the_nearest_pyproject_with_a_table(tmp_path):
    write(tmp_path / "pyproject.toml", "[tool.layout-audit]\nselect = ['LA001']\n")
    write(tmp_path / "sub" / "pyproject.toml", "[project]\nname = 'inner'\n")
    target = tmp_path / "sub" / "deeper" / "mod.py"
    write(target, "x = 1\n")
    assert find_config([target]) == tmp_path / "pyproject.toml"
    assert find_config([tmp_path / "sub"]) == tmp_path / "pyproject.toml"
    write(tmp_path / "sub" / "pyproject.toml", "[tool.layout-audit]\n")
    assert find_config([target]) == tmp_path / "sub" / "pyproject.toml"


def test_find_config_returns_a_broken_pyproject_so_loading_reports_it(tmp_path):
    write(tmp_path / "pyproject.toml", "[tool\n")
    found = find_config([tmp_path])
    assert found == tmp_path / "pyproject.toml"
    assert "invalid TOML" in config_error(found)


@pytest.mark.parametrize("text", ["tool = 3\n", "tool = 'layout-audit'\n"])
def test_find_config_ignores_a_misshapen_tool_key(tmp_path, text):
    write(tmp_path / "pyproject.toml", text)
    assert find_config([tmp_path]) in (None, tmp_path / "pyproject.toml")


def test_flags_and_switches_come_from_the_pack_and_the_project(tmp_path):
    bundled = load_settings(None)
    assert bundled.flags["is_hip"] == [False] and bundled.flags["is_cuda"] == [True]
    assert bundled.switches["SGLANG_USE_HND_KVCACHE"] == [None, "1"]
    config = write(
        tmp_path / "pyproject.toml",
        """
        [tool.layout-audit.flags]
        is_hip = [false, true]

        [tool.layout-audit.switches]
        SGLANG_USE_HND_KVCACHE = "1"
        MY_SWITCH = [false, "0", "yes"]
        """,
    )
    settings = load_settings(config)
    assert settings.flags["is_hip"] == [False, True]
    assert settings.flags["is_npu"] == [False]  # the pack's, kept
    assert settings.switches["SGLANG_USE_HND_KVCACHE"] == ["1"]
    assert settings.switches["MY_SWITCH"] == [None, "0", "yes"]


@pytest.mark.parametrize(
    "table, key, words",
    [
        ("flags = 3", "flags", "table"),
        ("[tool.layout-audit.flags]\nis_hip = ['yes']", "flags.is_hip", "true or false"),
        ("[tool.layout-audit.flags]\nis_hip = []", "flags.is_hip", "at least one"),
        ('[tool.layout-audit.flags]\n"torch.version.hip" = [true]', "flags.torch", "function name"),
        ("switches = [1]", "switches", "table"),
        ("[tool.layout-audit.switches]\nX = [true]", "switches.X", "false (unset)"),
        ("[tool.layout-audit.switches]\nX = [1]", "switches.X", "strings"),
        ("[tool.layout-audit.switches]\nX = []", "switches.X", "at least one"),
    ],
)
def test_bad_flags_and_switches_name_the_file_and_the_key(tmp_path, table, key, words):
    config = write(tmp_path / "pyproject.toml", "[tool.layout-audit]\n" + table + "\n")
    message = config_error(config)
    assert str(config) in message
    assert key in message
    assert words in message


def test_a_matrix_table_gives_an_object_parameter_its_attributes_and_arrays_are_tuples(tmp_path):
    config = write(
        tmp_path / "pyproject.toml",
        """
        [tool.layout-audit.matrix.cache_params.shape]
        conv = [[[8192, 3]]]
        temporal = [[32, 128, 128]]
        """,
    )
    settings = load_settings(config)
    assert settings.matrix["cache_params.shape.conv"] == [((8192, 3),)]
    assert settings.matrix["cache_params.shape.temporal"] == [(32, 128, 128)]


def test_a_matrix_value_that_is_a_table_inside_an_array_is_an_error(tmp_path):
    config = write(
        tmp_path / "pyproject.toml",
        """
        [tool.layout-audit.matrix]
        cache_params = [{ shape = 1 }]
        """,
    )
    message = config_error(config)
    assert str(config) in message
    assert "matrix.cache_params" in message
