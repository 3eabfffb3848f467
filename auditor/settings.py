"""Settings: rule packs (TOML in `rules/`) merged with the project's `[tool.layout-audit]`.

Every key is validated; a bad key or value is a ConfigError naming the file, the key and what
was expected, which the CLI prints as one line and exits 2.
"""

from __future__ import annotations

import functools
import importlib.util
import os
import re
import stat
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from auditor.engines import default_packs

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - exercised on Python 3.10 only
    import tomli as tomllib


def _rules_dir() -> Path:
    """`rules/` beside the package in a checkout; `share/layout-audit/rules` when installed."""
    source_tree = Path(__file__).resolve().parent.parent / "rules"
    if source_tree.is_dir():
        return source_tree
    return Path(sys.prefix) / "share" / "layout-audit" / "rules"


RULES_DIR = _rules_dir()
OUTPUT_FORMATS = ("text", "json", "github", "sarif", "html")


class ConfigError(Exception):
    """A configuration or rule-pack problem; its message names the file and the key."""


@dataclass
class Settings:
    """Everything an audit needs to know besides the files."""

    packs: list[str] = field(default_factory=list)
    token_params: list[str] = field(default_factory=list)
    layer_params: list[str] = field(default_factory=list)
    device_pool_params: list[str] = field(default_factory=list)
    # a host taking one of these is built from a record the device pool makes (`*BufferInfo`)
    buffer_info_params: list[str] = field(default_factory=list)
    default_dtypes: list[Any] = field(default_factory=list)
    matrix: dict[str, list[Any]] = field(default_factory=dict)
    buffer_map: dict[str, list[str]] = field(default_factory=dict)
    # platform probes (`is_hip()`) and environment switches (`ENGINE_X`): values to explore
    flags: dict[str, list[bool]] = field(default_factory=dict)
    switches: dict[str, list[str | None]] = field(default_factory=dict)
    runtime: dict[str, dict[str, list[Any]]] = field(default_factory=dict)  # getter: attr: values
    token_counts: tuple[int, int] = (8192, 16384)
    layer_counts: tuple[int, int] = (2, 3)
    select: list[str] | None = None  # None: every check (checks.selected)
    ignore: list[str] = field(default_factory=list)
    codes_from: str = "<defaults>"  # where select / ignore were written, for errors
    include: list[str] = field(default_factory=lambda: ["*.py"])
    exclude: list[str] | None = None  # None: the default skipped folders (discover.SKIPPED_DIRS)
    extend_exclude: list[str] = field(default_factory=list)
    respect_gitignore: bool = True
    pairs: dict[str, list[str]] = field(default_factory=dict)  # host class = [device classes]
    output_format: str = "text"
    config_file: str | None = None


@dataclass(frozen=True)
class DtypeName:
    """A dtype named in a rule pack, checked when loaded and turned into the real torch dtype
    only when a pool needs it: an audit without pools never imports torch."""

    name: str
    where: str  # "file: key", for the error if torch disagrees

    def resolve(self) -> Any:
        from auditor.dtypes import dtype_by_name

        dtype = dtype_by_name(self.name)
        if dtype is None:
            raise ConfigError(f"{self.where}: unknown torch dtype {self.name!r}")
        return dtype


def _lazy_dtypes(attribute: str) -> property:
    """`Settings.<attribute>` with every DtypeName in it replaced by its torch dtype on read."""

    def get(self: Settings) -> Any:
        value = self.__dict__[attribute]
        lists = value.values() if isinstance(value, dict) else [value]
        for values in lists:
            for i, item in enumerate(values):
                if isinstance(item, DtypeName):
                    values[i] = item.resolve()
        return value

    def set_(self: Settings, value: Any) -> None:
        self.__dict__[attribute] = value

    return property(get, set_)


Settings.default_dtypes = _lazy_dtypes("default_dtypes")  # type: ignore[assignment]
Settings.matrix = _lazy_dtypes("matrix")  # type: ignore[assignment]


@functools.cache
def _stub_dtype_names() -> frozenset[str]:
    """The dtype names torch's own type stub declares (`float32: dtype = ...`), read without
    importing torch; empty if torch or its stub cannot be found."""
    try:
        spec = importlib.util.find_spec("torch")
    except (ImportError, ValueError):
        return frozenset()
    for folder in (spec.submodule_search_locations or []) if spec else []:
        stub = Path(folder) / "_C" / "__init__.pyi"
        try:
            text = stub.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError):
            continue
        return frozenset(re.findall(r"^(\w+): dtype = \.\.\.$", text, re.MULTILINE))
    return frozenset()


def _dtype_name(name: str, where: str) -> DtypeName:
    """A dtype name checked against torch: against its stub when the name is there (no import),
    else against torch itself (imported for that), so the answer is torch's either way."""
    dtype = DtypeName(name, where)
    if name.removeprefix("torch.") not in _stub_dtype_names():
        dtype.resolve()  # raises ConfigError naming the file and the key
    return dtype


def _read_toml(path: Path) -> dict:
    try:
        # opened without blocking and checked before reading: a FIFO or a device named as the
        # config would otherwise hang the run (or read forever)
        descriptor = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
        with os.fdopen(descriptor, "rb") as handle:
            if not stat.S_ISREG(os.fstat(handle.fileno()).st_mode):
                raise ConfigError(f"{path}: cannot read: not a regular file")
            return tomllib.load(handle)
    except OSError as error:
        raise ConfigError(f"{path}: cannot read: {error.strerror or error}") from None
    except tomllib.TOMLDecodeError as error:
        raise ConfigError(f"{path}: invalid TOML: {error}") from None
    except UnicodeDecodeError as error:
        raise ConfigError(f"{path}: not UTF-8 text: {error.reason} at byte {error.start}") from None
    except RecursionError:
        raise ConfigError(f"{path}: invalid TOML: nested too deeply") from None


def _expect(value: Any, kind: type | tuple, where: str, what: str) -> Any:
    if not isinstance(value, kind) or isinstance(value, bool) and kind is not bool:
        raise ConfigError(f"{where}: expected {what}, got {type(value).__name__} {value!r}")
    return value


def _string_list(value: Any, where: str) -> list[str]:
    _expect(value, list, where, "a list of strings")
    for item in value:
        _expect(item, str, where, "a list of strings")
    return list(value)


def _config_value(value: Any, where: str) -> Any:
    """Matrix values: numbers, booleans, strings; "torch.<dtype>" names a real torch dtype."""
    if isinstance(value, str) and value.startswith("torch."):
        return _dtype_name(value, where)
    if isinstance(value, (int, float, str, bool)):
        return value
    raise ConfigError(f"{where}: expected numbers, booleans or strings, got {value!r}")


def _dtype_value(name: str, where: str) -> Any:
    """A default dtype: `"torch.bfloat16"` or `"bfloat16"`; anything else is an error."""
    return _dtype_name(name, where)


def _matrix(table: Any, where: str) -> dict[str, list[Any]]:
    _expect(table, dict, where, "a table of parameter = [values]")
    result = {}
    for name, values in table.items():
        key = f"{where}.{name}"
        if not isinstance(values, list):
            values = [values]
        if not values:
            raise ConfigError(f"{key}: expected at least one value")
        result[name] = [_config_value(v, key) for v in values]
    return result


def _flags(table: Any, where: str) -> dict[str, list[bool]]:
    """`probe = [false, true]`: what a platform probe such as `is_hip()` may return."""
    _expect(table, dict, where, "a table of probe = [true/false values]")
    result = {}
    for name, values in table.items():
        key = f"{where}.{name}"
        if not name.isidentifier():
            raise ConfigError(f"{key}: a probe is a function name, such as is_hip")
        values = values if isinstance(values, list) else [values]
        if not values:
            raise ConfigError(f"{key}: expected at least one value")
        result[name] = [_expect(v, bool, key, "true or false") for v in values]
    return result


def _switches(table: Any, where: str) -> dict[str, list[str | None]]:
    """`NAME = [false, "1"]`: the texts an environment variable may hold; false is unset."""
    _expect(table, dict, where, "a table of variable = [values]")
    result: dict[str, list[str | None]] = {}
    for name, values in table.items():
        key = f"{where}.{name}"
        values = values if isinstance(values, list) else [values]
        if not values:
            raise ConfigError(f"{key}: expected at least one value")
        texts: list[str | None] = []
        for value in values:
            if value is False:
                texts.append(None)
            elif isinstance(value, str):
                texts.append(value)
            else:
                raise ConfigError(
                    f"{key}: expected strings (the variable's text) or false (unset), "
                    f"got {type(value).__name__} {value!r}"
                )
        result[name] = texts
    return result


def _flatten(table: dict, prefix: str = "") -> dict:
    """`kernel.enable_x = [true]` (a nested table in TOML) is the path `kernel.enable_x`."""
    flat: dict = {}
    for key, value in table.items():
        if isinstance(value, dict):
            flat.update(_flatten(value, f"{prefix}{key}."))
        else:
            flat[f"{prefix}{key}"] = value
    return flat


def apply_pack(settings: Settings, data: dict, source: str) -> None:
    """Merge one rule pack (or the project's table of the same shape) into `settings`."""
    known = {"pack", "parameters", "dtypes", "matrix", "buffer-map", "flags", "switches", "runtime"}
    for key in data:
        if key not in known:
            raise ConfigError(f"{source}: unknown key {key!r} (expected one of {sorted(known)})")
    parameters = data.get("parameters", {})
    _expect(parameters, dict, f"{source}: parameters", "a table")
    for key, value in parameters.items():
        where = f"{source}: parameters.{key}"
        if key == "tokens":
            settings.token_params = _string_list(value, where)
        elif key == "layers":
            settings.layer_params = _string_list(value, where)
        elif key == "device-pool":
            settings.device_pool_params = _string_list(value, where)
        elif key == "buffer-info":
            settings.buffer_info_params = _string_list(value, where)
        elif key in ("token-counts", "layer-counts"):
            counts = _string_list_of_ints(value, where)
            if key == "token-counts":
                settings.token_counts = counts
            else:
                settings.layer_counts = counts
        else:
            raise ConfigError(f"{source}: unknown key 'parameters.{key}'")
    dtypes_table = data.get("dtypes", {})
    _expect(dtypes_table, dict, f"{source}: dtypes", "a table")
    for key, value in dtypes_table.items():
        if key != "default":
            raise ConfigError(f"{source}: unknown key 'dtypes.{key}'")
        settings.default_dtypes = [
            _dtype_value(v, f"{source}: dtypes.default")
            for v in _string_list(value, f"{source}: dtypes.default")
        ]
    settings.__dict__["matrix"].update(_matrix(data.get("matrix", {}), f"{source}: matrix"))
    settings.flags.update(_flags(data.get("flags", {}), f"{source}: flags"))
    settings.switches.update(_switches(data.get("switches", {}), f"{source}: switches"))
    runtime = data.get("runtime", {})
    _expect(runtime, dict, f"{source}: runtime", "a table of getter tables")
    for getter, table in runtime.items():
        where = f"{source}: runtime.{getter}"
        if not getter.isidentifier():
            raise ConfigError(f"{where}: a getter is a function name, such as get_parallel")
        _expect(table, dict, where, "a table of attribute = [values]")
        values = _matrix(_flatten(table), where)
        for listed in values.values():  # resolved now: only the matrix resolves lazily
            listed[:] = [v.resolve() if isinstance(v, DtypeName) else v for v in listed]
        settings.runtime.setdefault(getter, {}).update(values)
    buffer_map = data.get("buffer-map", {})
    _expect(buffer_map, dict, f"{source}: buffer-map", "a table of host name = [device names]")
    for host_name, device_names in buffer_map.items():
        settings.buffer_map[host_name] = _string_list(
            device_names, f"{source}: buffer-map.{host_name}"
        )


def _string_list_of_ints(value: Any, where: str) -> tuple[int, int]:
    if (
        not isinstance(value, list)
        or len(value) != 2
        or not all(isinstance(v, int) and not isinstance(v, bool) and v > 0 for v in value)
        or value[0] == value[1]
    ):
        raise ConfigError(f"{where}: expected two different positive integers")
    return (value[0], value[1])


def pack_path(name: str, base: Path | None) -> Path:
    """A pack is a bundled name (rules/<name>.toml) or a path to a TOML file (relative to the
    config)."""
    if name.endswith(".toml") or "/" in name:
        path = Path(name)
        return path if path.is_absolute() or base is None else base / path
    return RULES_DIR / f"{name}.toml"


def load_settings(config_path: Path | None, packs_override: list[str] | None = None) -> Settings:
    """Settings from the bundled/default packs, then the project's `[tool.layout-audit]` table."""
    settings = Settings()
    project: dict = {}
    if config_path is not None:
        data = _read_toml(config_path)
        tool = _expect(data.get("tool", {}), dict, f"{config_path}: tool", "a table")
        if config_path.name == "pyproject.toml":
            project = tool.get("layout-audit", {})
        else:
            project = tool.get("layout-audit", data)
        settings.config_file = str(config_path)
    source = str(config_path) if config_path else "<defaults>"
    _expect(project, dict, f"{source}: [tool.layout-audit]", "a table")
    project = dict(project)
    packs = project.pop("rule-packs", list(default_packs()))
    packs = _string_list(packs, f"{source}: rule-packs")
    if packs_override:
        packs = packs_override
    for name in packs:
        path = pack_path(name, config_path.parent if config_path else None)
        if not path.is_file():
            raise ConfigError(f"{source}: rule-packs: no rule pack {name!r} (looked for {path})")
        apply_pack(settings, _read_toml(path), str(path))
        settings.packs.append(name)
    for key in ("select", "ignore", "include", "exclude", "extend-exclude"):
        if key in project:
            values = _string_list(project.pop(key), f"{source}: {key}")
            if key in ("select", "ignore"):  # codes are checked against the checks' own
                settings.codes_from = source
            setattr(settings, key.replace("-", "_"), values)
    if "respect-gitignore" in project:
        settings.respect_gitignore = _expect(
            project.pop("respect-gitignore"), bool, f"{source}: respect-gitignore", "true or false"
        )
    if "pairs" in project:
        pairs = _expect(
            project.pop("pairs"), dict, f"{source}: pairs", "a table of host = [devices]"
        )
        for host, devices in pairs.items():
            settings.pairs[host] = _string_list(devices, f"{source}: pairs.{host}")
    if "output-format" in project:
        output_format = _expect(
            project.pop("output-format"), str, f"{source}: output-format", "a string"
        )
        if output_format not in OUTPUT_FORMATS:
            raise ConfigError(
                f"{source}: output-format: expected one of {', '.join(OUTPUT_FORMATS)}, got {output_format!r}"
            )
        settings.output_format = output_format
    apply_pack(settings, project, f"{source}: [tool.layout-audit]")
    if not settings.token_params or not settings.layer_params:
        raise ConfigError(
            f"{source}: no token/layer parameter names (parameters.tokens / parameters.layers)"
        )
    return settings


def find_config(paths: list[Path]) -> Path | None:
    """The nearest `pyproject.toml` with a `[tool.layout-audit]` table above the given paths."""
    for start in paths:
        current = start.resolve()
        if current.is_file():
            current = current.parent
        for directory in [current, *current.parents]:
            candidate = directory / "pyproject.toml"
            if candidate.is_file():
                try:
                    data = _read_toml(candidate)
                except ConfigError:
                    return candidate  # reported when loaded
                tool = data.get("tool", {})
                if isinstance(tool, dict) and "layout-audit" in tool:
                    return candidate
    return None
