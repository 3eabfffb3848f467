"""What a class does with its constructor parameters, read from CPython's syntax tree alone.

Code written by other teams names the token and layer counts as it likes (`num_tokens`,
`capacity`, `num_blocks`, `n_layers`): a pool is recognised by what it allocates. The methods of
a class (its MRO's, given in order) are read once: which constructor parameters each name and
`self.` attribute is computed from (a flow over assignments), the torch allocations and their
shapes, the `range(...)` of the comprehensions and loops they sit in (a per-layer list), the
parameters compared with literals in tests that decide an allocation (flags), and those passed
as `dtype=` or compared with torch dtypes. Names only break ties: the evidence is the shapes.

Pure `ast`: used by the per-file outline (parse.py, in worker processes, where no rule pack is
known) and by pairing (with the pack's names as hints).
"""

from __future__ import annotations

import ast
import copy
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from auditor.frontend import walk
from auditor.frontend.desugar import desugared

ALLOCATORS = frozenset(
    {"zeros", "empty", "ones", "full", "randn", "rand", "empty_strided", "randint", "tensor"}
)
TENSOR_ALLOCATORS = frozenset({"new_empty", "new_zeros", "new_ones", "new_full"})
# names that say "a count of tokens" / "of layers" / "tokens per block"; hints for ties only
_TOKEN_HINT = re.compile(
    r"(^size$|tokens?$|capacity$|blocks$|pages$|slots$|cells$|rows$|entries$|(pool|cache|buffer)_size$"
    r"|(^|_)n_(slot|row|entry|block|page|ctx|seq)$|(seq|context|ctx)_len(gth)?$)"
)  # singular after `n_` (llama.cpp's `n_ctx`, `n_slot`; `row` alone is a width), lengths
# a count of blocks or pages (`num_blocks`, `host_pages`, LightLLM's `page_num`), not of tokens
_COUNTS_BLOCKS = re.compile(r"(block|page)(s|_num|_count|_cnt)$")
# a count of rows of several tokens each, as measure.py divides a held row by its tokens
# a count of rows of several tokens each (`num_pages`, `block_cnt`); measure.py reads it too
ROWS_OF_BLOCKS = re.compile(r"(block|page|chunk)(s|_num|_count|_cnt)?$", re.IGNORECASE)
UNSAID_BLOCK = "block size"  # a pool counted in blocks whose size no name of it gives
_LAYER_HINT = re.compile(r"(layers?$|^layer_ids$|^layer_num$|^depth$|num_layer)")
# names that say they count something else than tokens: never a token count unless the pack
# names them (per-layer expert statistics `(num_layers, window, num_experts)` are no KV pool)
_OTHER_COUNT = re.compile(
    r"(expert|head|(^|_)dims?$|hidden|vocab|topk|(^|_)bins?$"
    # a parallel degree (`world_size`, `tp_size`, `num_shards`), never `cp_len`, `tp_tokens`
    r"|(^|\.)(tp|pp|dp|ep|cp)$|(^|[_.])(tp|pp|dp|ep|cp)_(size|degree)$|(^|[_.])world_size$"
    r"|(^|_)num_shards$"
    r"|(^|_)parallel_size$)"
)
_BLOCK_HINT = re.compile(
    r"((block|page)_(size|len|length|tokens)$|^tokens_per_(block|page)$)"
)  # `page_tokens`: tokens of one page, not a count of them
# rows of whole sequences (`(batch_size, max_seq_len, width)`, exllama's caches, a host's
# `num_sessions` rows of the device's `max_seq_len`): tokens are rows x sequence length
_BATCH_HINT = re.compile(
    r"(^|_)(batch|batch_size|sessions|seqs|sequences|requests|reqs|entries)$"
)  # (`num_entries` rows of a prompt cache, each `prefix_len` tokens long)
_SEQ_HINT = re.compile(r"(seq|context|ctx|cache|prefix|prompt)_len(gth)?$")
# calls whose result is a number computed from their arguments (a count, not a shape)
_NUMERIC_CALLS = frozenset(
    "int float min max round abs sum len divmod math.ceil math.floor math.prod "
    "triton.cdiv cdiv ceil_div div_up round_up".split()
)
_COUNT_TYPES = {"int", "Optional[int]", "int | None", "None | int"}


# ast.walk, as a list (no loop here changes a tree while walking it); kept per node while
# read_facts reads trees it never changes (each method is walked a dozen times there, each
# assignment's value again inside those walks); elsewhere (rewriters change copies) not kept
_WALKS: list[dict[int, tuple[ast.AST, list[ast.AST]]]] = []


_ATOMIC = frozenset({type(None), bool, int, float, complex, str, bytes, type(Ellipsis)})


def _copy_tree(node: Any, memo: dict | None = None) -> Any:
    """`copy.deepcopy(node)` of a syntax tree, without deepcopy's generic dispatch (it took
    5 s of vLLM 0.33's catalog): each node made as deepcopy makes it (`type(node)()`, then its
    `__dict__` copied), lists copied, atomic values kept, an object met twice (CPython's
    shared `Load()`) copied once; anything else goes to deepcopy itself, with the same memo."""
    if memo is None:
        memo = {}
    found = memo.get(id(node))
    if found is not None:
        return found
    kind = type(node)
    if kind is list:
        copied: Any = []
        memo[id(node)] = copied
        copied.extend([v if type(v) in _ATOMIC else _copy_tree(v, memo) for v in node])
        return copied
    if isinstance(node, ast.AST):
        copied = kind.__new__(kind)  # (calling it warns from 3.13 on)
        memo[id(node)] = copied
        fields = copied.__dict__
        for name, v in node.__dict__.items():
            fields[name] = v if type(v) in _ATOMIC else _copy_tree(v, memo)
        return copied
    if kind in _ATOMIC:
        return node
    return copy.deepcopy(node, memo)


def _walk(node: ast.AST) -> list[ast.AST]:
    """`ast.walk(node)` in its order; memoized inside read_facts."""
    if not _WALKS:
        return walk.nodes(node)
    memo = _WALKS[-1]
    found = memo.get(id(node))
    if found is None or found[0] is not node:  # the node itself (it is kept: no id reused)
        found = (node, walk.nodes(node))
        memo[id(node)] = found
    return found[1]


# A torch allocation per layer (pools are recognised by what they allocate): in a
# list comprehension over `range(...)`, appended in a loop, with a first dimension that names
# layers, or with four dimensions or more written out (a slab with a leading layer dimension,
# `(depth, 2, tokens, heads, dim)`). Narrow on purpose: most model files allocate tensors in
# an `__init__` (0.5.23: 60 files match, 506 call a torch allocator).
_ALLOC = rb"torch\.(?:zeros|empty|ones|full|randn|rand|empty_strided|randint|tensor)\s*\("
_NEW = rb"\.new_(?:empty|zeros|ones|full)\s*\("  # `proto.new_empty(shape)`
# words naming a method that allocates (`self._alloc(`, `self._empty(`), in any case
_ALLOCATOR_WORDS = rb"alloc|empty|zeros"
# a dimension: a name (or a key of one, `cfg["head_dim"]`), or one operation on two
_NAME = rb"[\w.]+(?:\[[^\]\n]{1,40}\])?"
_TERM = _NAME + rb"(?:\s*[-+*/]+\s*" + _NAME + rb")?"
# a name saying layers, maybe a key of a config dict (`cfg["num_layers"]`)
_LAYERS = rb"[\w.(\[\"']*(?i:layer|depth)"
# a shape given as a `torch.Size` of its dimensions (`torch.Size([pages, page, heads, dim])`)
_SIZED = rb"(?:(?:torch\.)?Size\(\s*(?:[(\[]\s*)?)?"
# a function defined inside a method (indented twice) only returning an allocation (`def
# alloc(shape, dtype): return torch.empty((self.num_blocks,) + shape, ...)`), which per-layer
# lists call (local_allocators); a method returning one (`def _empty(self)`) is not such
_ALLOCATOR = rb"\n[ \t]{8,}def\s+\w+\([^)]*\)[^:\n]*:\s*(?:#[^\n]*\s*)?return\s+" + _ALLOC
# an allocation given to a wrapper (`nn.Parameter(`), or as a record's first field
# (`[LayerPages(keys=torch.empty(...), ...) for _ in range(n)]`)
_WRAPPED = rb"(?:[\w.]+\(\s*(?:\w+\s*=\s*)?)?"
PER_LAYER_BYTES = re.compile(
    rb"\[\s*(?:"
    + _WRAPPED
    + _ALLOC
    # (or a tensor's own: `[template.new_empty(shape) for _ in range(n)]`)
    + rb"|[\w.]+"
    + _NEW
    + rb")[^\[\]]*?(?:\[[^\[\]]*\][^\[\]]*?)*\bfor\s+\w+\s+in\s+range\("
    # or over another list (`[torch.empty((n, r)) for r in self.row_bytes]`, a device's rows)
    rb"|\[\s*" + _ALLOC + rb"[^\[\]]*?(?:\[[^\[\]]*\][^\[\]]*?)*\bfor\s+\w+\s+in\s+[\w.]+\s*\]"
    rb"|\.append\(\s*"
    + _ALLOC
    + rb"|"
    + _ALLOC
    + rb"\s*\(?\s*(?:len\(\s*)?"
    + _LAYERS
    # or a dict of allocations, one per item (`{lid: torch.zeros(...) for lid in ids}`)
    + rb"|\{\s*\w+\s*:\s*"
    + _ALLOC
    + rb"[^{}]*?\bfor\s+\w+(?:\s*,\s*(?:\w+|\(\s*\w+(?:\s*,\s*\w+)*\s*,?\s*\)))*\s+in\b"
    # or a shape helper's call given a layer count first (`torch.empty(kv_shape(cfg.n_layers,`)
    rb"|" + _ALLOC + rb"\s*[\w.]+\(\s*[\w.]*(?i:layer|depth)"
    # or of its own method's allocations (`[self._alloc(self._k_shape()) for _ in range(n)]`,
    # shape_methods reads what the method allocates)
    rb"|\[\s*self\.\w+\([^\[\]]*?(?:\[[^\[\]]*\][^\[\]]*?)*\bfor\s+\w+\s+in\s+range\("
    # (or appended in a loop: `for _ in range(layers): self.k.append(self._alloc())`)
    rb"|\.append\(\s*self\.\w*(?i:" + _ALLOCATOR_WORDS + rb")\w*\("
    # or a view appended (`self.keys.append(part.view(dtype).view(n, h, d))`): a flat region
    # carved per layer (carved_view)
    rb"|\.append\(\s*[\w.]+(?:\[[^\]\n]*\])?\.view\("
    # or a part of a region viewed into a buffer (`self.k = (self.buf.narrow(0, o, n).view(`)
    rb"|self\.\w+\s*=\s*\(?\s*self\.\w+\s*(?:\[[^\]\n]*\]|\.narrow\([^\n]*?\))\s*\.view\("
    # or a flat byte region viewed as a dtype, then as a shape naming layers in its first three
    # dimensions (`self.kv = self.raw.view(dtype).view(n_tokens, cfg.num_layers, ...)`)
    rb"|self\.\w+\s*=\s*self\.\w+\s*(?:\.view\([^()\n]*\)\s*)+\.view\(\s*\(?\s*"
    rb"(?:[\w.]+\s*,\s*){0,2}"
    + _LAYERS
    + rb"|(?:"
    + _ALLOC
    + rb"|"
    + _NEW
    + rb")\s*\(?\s*"
    + _SIZED
    + rb"\s*,\s*".join([_TERM] * 4)
    + rb"\s*[,)]"
    # (a tensor's `new_empty` given a layer count first, as torch's allocators above)
    + rb"|"
    + _NEW
    + rb"\s*\(?\s*(?:len\(\s*)?[\w.]*(?i:layer|depth)"
    # or a layer dimension second or third (`torch.empty((self.num_pages, self.num_layers,
    # *row))`: a page-major tier)
    rb"|"
    + _ALLOC
    + rb"\s*\(?\s*"
    + _SIZED
    + rb"(?:"
    + _NAME
    + rb"\s*,\s*){1,2}"
    + _LAYERS
    # a shape kept or returned before it is allocated, naming layers in its first three
    # dimensions (`shape = (self.num_pages, self.num_layers, ...)`, `return [n_layers, ...]`)
    # (one dimension a line: `shape = (\n    cfg.num_layers,\n ...`)
    + rb"|(?:return|=)[ \t]*"
    + _SIZED
    + rb"[(\[]\s*(?:[\w.]+\s*,\s*){0,2}[\w.(]*(?i:layer|depth)[\w.)]*"
    rb"\s*,"
    rb"|\][ \t]*=[ \t]*"
    + _ALLOC  # `self.k[name] = torch.empty(...)` in a loop over layers
    + rb"|"
    + _ALLOCATOR
    # a list mapped (`list(map(self._alloc, caps))`, `map(alloc, repeat(shape, n))`), or an
    # allocator bound to a name (`alloc = lambda s: torch.empty(s, ...)`): desugar.py
    + rb"|\bmap\(\s*(?:lambda\b|[\w.]+\s*,)"
    # (one word character before the `=`, not `\w+`: the same files match, without trying
    # every start inside every identifier, which took 3.6 s over vLLM 0.33's 50 MB)
    + rb"|\w\s*=\s*lambda\b[^:\n]*:\s*"
    + _WRAPPED
    + _ALLOC
    # or a partial of one (`zeros = functools.partial(torch.zeros, device=device)`)
    + rb"|\bpartial\(\s*"
    + _ALLOC.removesuffix(rb"\s*\(")
    + rb"\s*[,)]",
    re.DOTALL,
)
ALLOCATION_BYTES = re.compile(_ALLOC)  # any torch allocation
# a shape computed by a call given a layer count first (`paged_latent_shape(self.end_layer -
# self.start_layer, pages, ...)`, `make_shape(len(self.layer_ids), ...)`), in a file that
# allocates
_LAYER_FIRST_CALL = re.compile(
    rb"=[ \t]*[\w.]+\([ \t]*(?:len\([ \t]*)?[\w.]*(?i:layer)[\w.]*[ \t]*"
    rb"(?:-[ \t]*[\w.]*(?i:layer)\w*[ \t]*|\)[ \t]*)?,"
)


def per_layer_bytes(data: bytes) -> bool:
    """May these bytes allocate per layer (PER_LAYER_BYTES, or an allocation and a shape
    computed from a stage's layer span)? The outline reads a file's classes as pools only
    where they may."""
    if PER_LAYER_BYTES.search(data) is not None:
        return True
    return _LAYER_FIRST_CALL.search(data) is not None and ALLOCATION_BYTES.search(data) is not None


# The outline (outline_facts) says a class allocates like a pool only in a file these bytes
# match: the pre-filter then checks every file the outline would keep.


@dataclass(frozen=True)
class Param:
    """A constructor parameter as the syntax gives it."""

    name: str
    annotation: str | None  # source text (`int`, `torch.dtype`, `KVPool`)
    default: str | None  # source text, None when it has none


@dataclass
class Facts:
    """What the methods of a class do with its constructor parameters."""

    params: dict[str, Param]
    # one entry per allocation: the parameters each dimension of its shape depends on
    shapes: list[list[frozenset[str]]] = field(default_factory=list)
    shape_keys: list[list[str | None]] = field(default_factory=list)  # `n` / `self.n` per dim
    # per allocation, what the loops around it range over (parameters, `.p` for `for x in p.y`)
    shape_ranges: list[frozenset[str]] = field(default_factory=list)
    per_layer: set[str] = field(default_factory=set)  # in `range(...)` around an allocation
    per_item: set[str] = field(default_factory=set)  # iterated over around one (`for _ in p.x`)
    flags: dict[str, list[object]] = field(default_factory=dict)  # param: literals compared
    # flags whose branches only set what an allocation reads (none allocates): explored for a
    # class the pack's names do not describe (roles.py), whose flags no pack lists
    set_only_flags: set[str] = field(default_factory=set)
    # param: `Kind.MEMBER` names it is compared with (enum members, resolved when read)
    members: dict[str, list[str]] = field(default_factory=dict)
    dtype_params: set[str] = field(default_factory=set)  # passed as dtype=, compared to dtypes
    dtype_names_params: set[str] = field(default_factory=set)  # `getattr(torch, name)`: a name
    # texts such a name is compared with before it names a dtype (`"auto"`): tried first
    dtype_name_texts: dict[str, list[str]] = field(default_factory=dict)
    numeric: set[str] = field(default_factory=set)  # in arithmetic, shapes or ranges
    divisors: set[str] = field(default_factory=set)  # dividing (`heads // shards`)
    read_attributes: dict[str, set[str]] = field(default_factory=dict)  # param: `p.x` names
    dtype_names: frozenset[str] = frozenset()  # module constants holding torch dtypes
    called: set[str] = field(default_factory=set)  # parameters called (classes, factories)
    allocated: set[str] = field(default_factory=set)  # `self.x` set to torch allocations
    # `setattr(self, name, torch.empty(...))` with a name only the run knows (a loop over a
    # plan's keys): storages named at run time, which syntax cannot list (siblings.py)
    named_at_run: bool = False
    # `self.x` holding a flat byte region (or a part of one) that views may carve: storage
    # of the buffers carved from it, not a buffer of its own when they are (siblings.py)
    regions: set[str] = field(default_factory=set)
    # parameters whose attributes size an allocation (`torch.empty((p.n_layers, n, p.width),
    # dtype=p.dtype)`): a class that builds its buffers from another object's figures
    sized_by: set[str] = field(default_factory=set)
    # `range(cfg.num_layers)` around an allocation, or its leading dimension: counts read off
    # an object a parameter holds, which roles are not inferred from (only parameters count)
    range_paths: set[str] = field(default_factory=set)
    range_roots: set[str] = field(default_factory=set)  # the parameters those objects are
    # parameters read as objects whose attributes are counts and dims (objects_as_parameters),
    # each with the name its attributes are parameters under (`ModelShape` of `shape:
    # ModelShape`, so `ModelShape.n_layers`; `config` for an untyped one)
    objects: dict[str, str] = field(default_factory=dict)
    own: set[str] = field(default_factory=set)  # `self.x` set by its methods, `x`
    # param: module-level names it indexes (`STR_DTYPE_TO_TORCH_DTYPE[cache_dtype]`), and the
    # keys of those that are dtype tables (filled by roles.py, which resolves imports)
    tables: dict[str, set[str]] = field(default_factory=dict)
    table_keys: dict[str, tuple[str, ...]] = field(default_factory=dict)
    # `CacheConfig.quant_policy`: the default its class body gives that field (`= 0`), source
    # text; an object's flag is explored at it as well as at the literals it is compared with
    object_defaults: dict[str, str] = field(default_factory=dict)
    # the class of each object path (`KVSpec`), and the attributes its properties compute
    # (`KVSpec.page_bytes`): those are run on the stand-in, never sampled (roles.py)
    object_classes: dict[str, object] = field(default_factory=dict)
    object_properties: set[str] = field(default_factory=set)
    # each such property's `self.x` fields it reads, its own or through other properties
    # (`KVGeom.kv_heads` reading `num_kv_heads // tp`): sampled as the fields read directly
    property_fields: dict[str, set[str]] = field(default_factory=dict)
    # such a field a property indexes a dtype table with (`_DTYPES[self.dtype]` of a spec's
    # `torch_dtype`): the table's keys, its values (roles.py)
    field_table_keys: dict[str, tuple[str, ...]] = field(default_factory=dict)
    # parameters holding a stage's (start, end) the class unpacks (`self.start_layer,
    # self.end_layer = layer_range`): a layer count given as a pair (roles.range_pairs)
    range_pairs: set[str] = field(default_factory=set)
    # attributes keeping a stage's layer count (`self.n_layers = len(self.layers)` of a range a
    # helper gives): the count its buffers hold, read off each build (roles.layers)
    stage_counts: set[str] = field(default_factory=set)
    # param: (function, argument position or keyword) of plain functions it is passed to
    # where the result sets what an allocation reads (`self.dtype = resolve(kv_dtype)`); the
    # literals the function tests its parameter against are the flag's values (roles.py)
    helpers: dict[str, set[tuple[str, int | str]]] = field(default_factory=dict)
    # `range(start_layer, end_layer)` around an allocation: the stop's parameter -> the start's
    # (a pipeline stage's layers; the stop counts them when the start is 0)
    range_starts: dict[str, str] = field(default_factory=dict)
    # flags whose values are a closed set (an enum's, built from the value: `Kind(cfg.kind)`):
    # no other value is explored (matrix.by_use)
    closed: set[str] = field(default_factory=set)
    # `len(layer_ids)` leading an allocation: parameters (and object paths) holding a list
    # whose length counts layers; built as that many ids (`list(range(layers))`)
    lengths: set[str] = field(default_factory=set)
    # those written in the shape, or through a local of a parameter's copy (`n = len(self.ids)`
    # after `self.ids = list(ids)`); a local length of anything else (`n = len(self.mamba_
    # layers)`) is weaker evidence: the name must say layers too (`mamba_layers` beside
    # `len(self.attn_layers)` in the shape)
    strong_lengths: set[str] = field(default_factory=set)
    # what a layer count read off an object is divided by (`cfg.num_layers // cfg.pp_size`):
    # built at 1, so that the pool holds the layers the point gives (matrix.py)
    layer_divisors: set[str] = field(default_factory=set)
    # counts the class keeps or returns under a name saying layers (`self.num_layers =
    # cfg.num_allocation_groups`, a `num_layers` property): named for layers by the class
    layer_named: set[str] = field(default_factory=set)
    # an object's attribute unpacked into names (`heads, head_size = cfg.cache_shape`): a
    # tuple of that many numbers, sampled as one
    unpacked: dict[str, int] = field(default_factory=dict)


@dataclass(frozen=True)
class Roles:
    """Which parameters count tokens and layers (and tokens per block, for paged pools)."""

    tokens: str | None
    layers: str
    block: str | None = None
    evidence: str = ""
    count_attribute: str | None = None  # a host's own token count, `self.<this>`
    start: str | None = None  # `start_layer` of `range(start_layer, end_layer)`: built at 0
    budget: bool = False  # its rows are as many as a byte budget holds (measured per row)


def params_of(function: ast.FunctionDef | ast.AsyncFunctionDef) -> list[Param]:
    """The parameters of a constructor, `self` left out."""
    arguments = function.args
    positional = [*arguments.posonlyargs, *arguments.args]
    defaults: list[ast.expr | None] = [None] * (len(positional) - len(arguments.defaults))
    defaults += list(arguments.defaults)
    pairs = list(zip(positional, defaults)) + list(zip(arguments.kwonlyargs, arguments.kw_defaults))
    found = []
    for argument, default in pairs:
        annotation = ast.unparse(argument.annotation) if argument.annotation else None
        found.append(
            Param(argument.arg, annotation, ast.unparse(default) if default is not None else None)
        )
    return found[1:] if found and found[0].name in ("self", "cls") else found


def _dotted(node: ast.AST) -> str | None:
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        base = _dotted(node.value)
        return f"{base}.{node.attr}" if base else None
    return None


def allocates(node: ast.AST) -> bool:
    """Does this syntax allocate a torch tensor anywhere in it?"""
    return any(_is_allocation(n) for n in _walk(node))


def _is_allocation(node: ast.AST) -> bool:
    if not isinstance(node, ast.Call):
        return False
    name = _dotted(node.func) or ""
    head, _, last = name.rpartition(".")
    if head == "torch" and last in ALLOCATORS:
        return True
    # `proto.new_empty(shape)`: made by a tensor's method, of that tensor's dtype
    return (
        isinstance(node.func, ast.Attribute)
        and node.func.attr in TENSOR_ALLOCATORS
        and bool(node.args or node.keywords)
    )


def _is_flat_allocation(node: ast.AST) -> bool:
    """`torch.empty(n_bytes, dtype=torch.uint8)`: one dimension, not a shape written out."""
    return (
        _is_allocation(node)
        and isinstance(node, ast.Call)
        and len(node.args) == 1
        and not isinstance(node.args[0], (ast.Tuple, ast.List, ast.Starred))
        and not any(k.arg in ("size", "shape") for k in node.keywords)
    )


def carved_view(node: ast.AST, flow: _Flow) -> bool:
    """`self._region[:half].view(torch.bfloat16).view(shape)`: a shaped view of a part of a
    flat allocation (`flow.flat`), read as an allocation of that shape: a region carved into
    buffers, as transfer engines register one and view it per field."""
    if not (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute)
        and node.func.attr in ("view", "reshape")
        and node.args
        and not _is_torch_dtype(node.args[0])
        and not _names_dtype(node.args[0])  # `.view(geom.dtype)`: the same bytes retyped
    ):
        return False
    return _carved_base(node) in flow.flat


def _carved_base(view: ast.Call) -> str:
    """The name a chain of views, slices and narrows starts from (`self._region` of
    `self._region[:half].view(torch.bfloat16).view(shape)`), "" if no name or `self.` one."""
    base: ast.AST = view.func.value  # type: ignore[attr-defined]
    while True:
        if isinstance(base, ast.Call) and isinstance(base.func, ast.Attribute):
            base = base.func.value  # `.view(torch.bfloat16)`, `.narrow(...)`
        elif isinstance(base, ast.Subscript):
            base = base.value  # `[:half]`
        else:
            return _key(base) or ""


def _names_dtype(node: ast.AST) -> bool:
    """`dtype`, `self.kv_dtype`, `geom.dtype`: a name or attribute saying it holds a dtype."""
    name = node.attr if isinstance(node, ast.Attribute) else getattr(node, "id", "")
    return name.endswith("dtype")


def _flat_names(functions: list[ast.AST]) -> dict[str, str]:
    """Names and `self.` attributes holding a flat allocation, or a part of one cut by a slice
    or `narrow` (`k_bytes = self.region[base : base + n]`), which views carve into buffers;
    each with the name of the allocation it is (a part of)."""
    flat: dict[str, str] = {}
    parts: list[tuple[list[ast.expr], ast.AST]] = []
    for function in functions:
        for node in _walk(function):
            if isinstance(node, ast.Assign) and _is_flat_allocation(node.value):
                flat.update((k, k) for t in node.targets if (k := _key(t)) is not None)
            elif isinstance(node, ast.Assign) and _cut_from(node.value) is not None:
                parts.append((node.targets, node.value))
    for _ in range(3):  # a part of a part
        for targets, value in parts:
            whole = flat.get(_key(_cut_from(value)) or "")
            if whole is not None:
                flat.update((k, whole) for t in targets if (k := _key(t)) is not None)
    return flat


def _cut_from(node: ast.AST) -> ast.AST | None:
    """What `region[a:b]` or `region.narrow(0, a, n)` cuts a part of, retyped or not
    (`region[a:b].view(geom.dtype)`), None for anything else."""
    cut = False
    while True:
        if isinstance(node, ast.Subscript) and isinstance(node.slice, ast.Slice):
            node, cut = node.value, True
        elif (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and node.func.attr == "narrow"
        ):
            node, cut = node.func.value, True
        elif (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and node.func.attr == "view"
            and len(node.args) == 1
            and (_is_torch_dtype(node.args[0]) or _names_dtype(node.args[0]))
        ):
            node = node.func.value  # the same bytes retyped: a cut only with one below
        else:
            return node if cut else None


def _shape_of(call: ast.Call) -> list[ast.expr]:
    keyword = next((k.value for k in call.keywords if k.arg in ("size", "shape")), None)
    if keyword is not None:
        return list(keyword.elts) if isinstance(keyword, (ast.Tuple, ast.List)) else [keyword]
    args = list(call.args)
    if not args:
        return []
    if isinstance(args[0], (ast.Tuple, ast.List)):
        return list(args[0].elts)
    name = _dotted(call.func) or ""
    if name.endswith(("full", "empty_strided")):
        return args[:1]
    if name.endswith("randint"):
        return args[-1:]
    return [a for a in args if not isinstance(a, ast.Starred)]


def _spliced(shape: list[ast.expr], tuples: dict[str, list[ast.expr]]) -> list[ast.expr]:
    """`(pages, layers, *row)` with `row = (page_size, width)` before: its items spliced in."""
    found: list[ast.expr] = []
    for dim in shape:
        inner = dim.value if isinstance(dim, ast.Starred) else None
        if isinstance(inner, (ast.Tuple, ast.List)):
            found.extend(inner.elts)
        elif inner is not None and (_key(inner) or "") in tuples:
            found.extend(tuples[_key(inner) or ""])
        else:
            found.append(dim)
    return found


def concatenated_shape(node: ast.AST, tuples: dict[str, list[ast.expr]]) -> list | None:
    """The dimensions of a shape joined with `+` from tuple literals and shapes named before
    (`(num_blocks,) + k_shape`), any other part one dimension of its own; None when it is no
    such join (no tuple literal or named shape among its parts: an integer sum)."""
    if not (isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add)):
        return None
    parts: list[ast.expr] = []
    seen_tuple = False
    pending: list[ast.AST] = [node]
    while pending:
        part = pending.pop(0)
        if isinstance(part, ast.BinOp) and isinstance(part.op, ast.Add):
            pending[:0] = [part.left, part.right]
        elif isinstance(part, (ast.Tuple, ast.List)):
            parts.extend(part.elts)
            seen_tuple = True
        elif (_key(part) or "") in tuples:
            parts.extend(tuples[_key(part) or ""])
            seen_tuple = True
        else:
            parts.append(part)  # type: ignore[arg-type]
    return parts if seen_tuple else None


def _key(node: ast.AST) -> str | None:
    """The flow key of a name or a `self.x` attribute."""
    if isinstance(node, ast.Name):
        return node.id
    if (
        isinstance(node, ast.Attribute)
        and isinstance(node.value, ast.Name)
        and node.value.id == "self"
    ):
        return "self." + node.attr
    return None


def _attribute_key(node: ast.AST) -> str | None:
    """`.x` for an attribute of another object (`gpu_cache.block_size`)."""
    return "." + node.attr if isinstance(node, ast.Attribute) else None


def method_read(node: ast.AST) -> ast.Attribute | None:
    """The method of `cfg.get_num_layers()` (no literal argument: `cfg.get_num_kv_heads(
    parallel_config)` too, never `cfg.get("n")`): a value read off an object as an attribute
    is, named `<path>.get_num_layers()` once the object's attributes are parameters."""
    if (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute)
        and not node.keywords
        and all(isinstance(a, (ast.Name, ast.Attribute)) for a in node.args)
    ):
        return node.func
    return None


def _length_of(node: ast.AST | None) -> ast.expr | None:
    """`x` of `len(x)`."""
    if isinstance(node, ast.Call) and _dotted(node.func) == "len" and len(node.args) == 1:
        return node.args[0]
    return None


def _range_of_helper(node: ast.AST | None) -> ast.Attribute | ast.Name | None:
    """`cfg.num_hidden_layers` of `range(*get_pp_indices(cfg.num_hidden_layers, r, s))` (or
    `range(*span(...))`, `range(*span(...)[:2])`): a stage's layers by a helper given the whole
    layer count first, read off an object and named for layers; else None."""
    if not (isinstance(node, ast.Call) and _dotted(node.func) == "range" and node.args):
        return None
    first = node.args[0]
    inner = first.value if isinstance(first, ast.Starred) else None
    if not isinstance(inner, ast.Call) or not inner.args:
        return None
    first_arg = inner.args[0]
    if isinstance(first_arg, ast.Name) and _LAYER_HINT.search(first_arg.id.rpartition(".")[2]):
        return first_arg  # type: ignore[return-value]  # (read as a parameter: `Cfg.n_layers`)
    read = _read_off(first_arg)
    return read if read is not None and _LAYER_HINT.search(read.attr) else None


def _own_length(node: ast.AST) -> bool:
    """`len(ids)` or `len(self.ids)`: the length of a parameter or of the class's own list,
    not of an object's attribute (`len(cache_params.layers)`)."""
    of = _length_of(node)
    if isinstance(of, ast.Name):
        return True
    return (
        isinstance(of, ast.Attribute) and isinstance(of.value, ast.Name) and of.value.id == "self"
    )


def _sequence_copy(node: ast.AST | None) -> ast.expr | None:
    """`x` of `list(x)`, `tuple(x)`, `sorted(x)`: as long as `x`."""
    if (
        isinstance(node, ast.Call)
        and _dotted(node.func) in ("list", "tuple", "sorted")
        and len(node.args) == 1
        and not node.keywords
    ):
        return node.args[0]
    return None


def _count_read(node: ast.AST) -> ast.Attribute | None:
    """The attribute a count is computed from: `cfg.num_layers` of `cfg.num_layers // pp`,
    `max(1, cfg.num_layers // pp)` or `int(cfg.num_layers)`; None for anything else."""
    found = _dividend(node)
    return found if isinstance(found, ast.Attribute) else None


def _dividend(node: ast.AST, divisors: list | None = None) -> ast.Attribute | ast.Name | None:
    """What a count is computed from (_count_read), an attribute or a name: the dividend, the
    one operand that is no literal. `divisors` gets what divides it (`pp`)."""
    for _ in range(4):
        if isinstance(node, (ast.Attribute, ast.Name)):
            return node
        if isinstance(node, ast.BinOp) and isinstance(node.op, (ast.FloorDiv, ast.Div)):
            if divisors is not None:
                divisors.append(node.right)
            node = node.left
        elif isinstance(node, ast.Call) and _dotted(node.func) in ("max", "int", "min"):
            operands = [a for a in node.args if not isinstance(a, ast.Constant)]
            if len(operands) != 1 or node.keywords:
                return None
            node = operands[0]
        else:
            return None
    return None


def _read_off(node: ast.AST) -> ast.Attribute | None:
    """The attribute a value is read as: `cfg.num_layers`, or the method of a method read."""
    return node if isinstance(node, ast.Attribute) else method_read(node)


class _Flow:
    """Which parameters each local name and `self.` attribute is computed from."""

    def __init__(self, params: dict[str, Param], functions: list[ast.AST]) -> None:
        self.params = params
        self.sources: dict[str, set[str]] = {name: {name} for name in params}
        self.aliases: dict[str, set[str]] = {name: {name} for name in params}  # plain copies
        self.tuples: dict[str, list[ast.expr]] = {}  # `shape = (a, b, c)`: a shape named
        self.paths: dict[str, ast.expr] = {}  # `n = cfg.num_layers`: an attribute named
        # `self.n = cfg.n_layers // pp`: a count computed off an attribute read (_count_read)
        self.computed: dict[str, ast.expr] = {}
        self.sizing: set[str] = set()  # names and `self.` attributes an allocation reads
        # names given a call's result (`shape = get_shape_fn(name, model)`): a shape whose
        # dimensions nothing here sees, never a count's dimension
        self.opaque: set[str] = set()
        self._walked: dict[int, tuple[ast.AST, tuple[str, ...]]] = {}
        # names and `self.` attributes holding a flat allocation (`self._region = torch.empty(
        # n, dtype=torch.uint8)`), which views carve into buffers (carved_view)
        self.flat: dict[str, str] = _flat_names(functions)
        # locals listing one item per step of a `range` (`offsets = [(i * pitch, ...) for i
        # in range(cfg.num_layers)]`): a loop over one is a loop over that range
        self.ranged: dict[str, ast.expr] = {
            node.targets[0].id: node.value.generators[0].iter
            for function in functions
            for node in _walk(function)
            if isinstance(node, ast.Assign)
            and len(node.targets) == 1
            and isinstance(node.targets[0], ast.Name)
            and isinstance(node.value, ast.ListComp)
            and len(node.value.generators) == 1
            and isinstance(node.value.generators[0].iter, ast.Call)
            and _dotted(node.value.generators[0].iter.func) == "range"
        }
        # locals appended one item per step of a `range` loop (`shapes = []`, then `for _ in
        # range(n): shapes.append((n_blocks, bs, h, d))`): a loop over one is a loop over
        # that range, and its variable holds the item appended
        appended = _appended_per_step(functions)
        for name, (loop, _) in appended.items():
            self.ranged.setdefault(name, loop)
        self.carved: set[str] = set()  # the flat allocations views are carved from
        # `n_local = end_layer - start_layer`: a count kept as the span of two parameters
        self.spans: dict[str, tuple[str, str]] = {}
        # `self.num_layers = len(self.stage_layers)`: what a count is the length of
        self.length_of: dict[str, ast.expr] = {}
        # `self.stage_layers = range(*get_pp_indices(cfg.num_hidden_layers, ...))`
        self.stages: dict[str, ast.expr] = {}
        assignments = _items_of_appended(functions, appended)
        assignments.extend(_own_arguments(functions))
        for function in functions:
            for node in _walk(function):
                carved = carved_view(node, self)
                if carved:
                    self.carved.add(self.flat[_carved_base(node)])  # type: ignore[arg-type]
                if carved or _is_allocation(node):
                    assert isinstance(node, ast.Call)
                    for arg in [*node.args, *(k.value for k in node.keywords)]:
                        self.sizing |= {k for n in _walk(arg) if (k := _key(n)) is not None}
                if isinstance(node, ast.Assign):
                    for target in node.targets:  # `m, c = cfg.model, cfg.cache`: each its own
                        assignments.extend(_element_wise(target, node.value))
                elif isinstance(node, (ast.AnnAssign, ast.AugAssign)) and node.value is not None:
                    assignments.append((node.target, node.value))
            assignments.extend(_property_value(function))
        for _ in range(3):  # a few rounds reach attributes set from attributes
            for target, value in assignments:
                keys = (
                    [_key(t) for t in _unpacked(target)]
                    if isinstance(target, ast.Tuple)
                    else [_key(target)]
                )
                depends = self.of(value)
                measured = _length_of(value)
                staged = self.stages.get(_key(measured) or "") if measured is not None else None
                if staged is not None:
                    # `len(self.stage_layers)` of `range(*get_pp_indices(cfg.n_layers, rank,
                    # size))`: as many layers as the whole count gives a stage, counted by it
                    depends = self.of(_range_of_helper(staged))
                copied = self.copied(value)
                if (
                    isinstance(value, (ast.Tuple, ast.List))
                    and len(keys) == 1
                    and keys[0] is not None
                ):
                    self.tuples.setdefault(keys[0], list(value.elts))
                elif len(keys) == 1 and keys[0] is not None:
                    joined = concatenated_shape(value, self.tuples)
                    if joined is not None:  # `shape = base + (width,)`
                        self.tuples.setdefault(keys[0], joined)
                if _opaque_call(value):
                    self.opaque.update(k for k in keys if k is not None)
                if _key(target) is not None and (
                    _read_off(value) is not None
                    or (isinstance(target, ast.Name) and _own_length(value))
                    or _sequence_copy(value) is not None
                ):
                    # `n = cfg.get_num_layers()`, `self.n = cfg.n_layers`, a local `n =
                    # len(ids)` of a parameter or own list (only: `self.layer_num =
                    # len(info.k)`, `n = len(params.layers)` count no ids), `self.ids =
                    # list(ids)` too
                    self.paths.setdefault(_key(target) or "", value)
                elif (
                    _key(target) is not None
                    and isinstance(value, (ast.BinOp, ast.Call))
                    and _dividend(value) is not None
                ):
                    self.computed.setdefault(_key(target) or "", value)  # `cfg.n // pp`
                if _key(target) is not None and _length_of(value) is not None:
                    self.length_of.setdefault(_key(target) or "", _length_of(value))  # type: ignore[arg-type]
                if _key(target) is not None and _range_of_helper(value) is not None:
                    self.stages.setdefault(_key(target) or "", value)  # `range(*pp(...))`
                span = self.span(value)
                if span is not None and _key(target) is not None:
                    self.spans.setdefault(_key(target) or "", span)  # `n = end - start`
                for key in keys:
                    if key is None or key in params:
                        continue
                    self.sources.setdefault(key, set()).update(depends)
                    if copied:
                        self.aliases.setdefault(key, set()).update(copied)

    def of(self, node: ast.AST | None) -> set[str]:
        found: set[str] = set()
        if node is None:
            return found
        for key in self._keys_in(node):
            if key in self.sources:
                found |= self.sources[key]
        return found

    def _keys_in(self, node: ast.AST) -> tuple[str, ...]:
        """The flow keys read anywhere in `node`, walked once per node (`of` is asked about
        the same expressions round after round)."""
        known = self._walked.get(id(node))
        if known is not None and known[0] is node:  # the node itself: an id may be reused
            return known[1]
        keys = tuple(k for part in _walk(node) if (k := _key(part)) is not None)
        self._walked[id(node)] = (node, keys)
        return keys

    def path(self, node: ast.AST) -> ast.AST:
        """The attribute path a local name or `self.` attribute was given (`L` of `L =
        cfg.num_layers`, `self.n` of `self.n = model.n_layers`), else the node itself."""
        key = _key(node)
        if key is not None and key in self.paths:
            return self.paths[key]
        return node

    def roots(self, read: ast.Attribute) -> set[str]:
        """The parameters an attribute path is read off: `cfg` of `m.num_layers` after
        `m = cfg.model` (or `m, c = cfg.model, cfg.cache`)."""
        base = _object_of(read)
        for _ in range(4):
            found = self.copied(base)
            if found:
                return found
            given = self.path(base)
            if given is base or not isinstance(given, ast.Attribute):
                return set()
            base = _object_of(given)
        return set()

    def span(self, node: ast.AST) -> tuple[str, str] | None:
        """(stop, start) of `stop - start`, each a plain copy of one parameter (a pipeline
        stage's `end_layer - start_layer`), or of a name kept as one; else None."""
        key = _key(node)
        if key is not None and key in self.spans:
            return self.spans[key]
        if not (isinstance(node, ast.BinOp) and isinstance(node.op, ast.Sub)):
            return None
        stop, start = self.copied(node.left), self.copied(node.right)
        if len(stop) == 1 and len(start) == 1 and stop != start:
            return next(iter(stop)), next(iter(start))
        return None

    def copied(self, node: ast.AST) -> set[str]:
        """Parameters a value is a plain copy of (`x`, `self.x`, `a if c else b`, `x or y`)."""
        if isinstance(node, ast.IfExp):
            return self.copied(node.body) | self.copied(node.orelse)
        if isinstance(node, ast.BoolOp):
            return set().union(*(self.copied(v) for v in node.values))
        key = _key(node)
        return set(self.aliases.get(key, ())) if key is not None else set()


def _unpacked(target: ast.expr) -> list[ast.expr]:
    """The names and attributes a tuple target binds (`self.start, self.end`, `(a, *b)`),
    never the objects they are set on (`self`)."""
    if isinstance(target, (ast.Tuple, ast.List)):
        return [n for e in target.elts for n in _unpacked(e)]
    if isinstance(target, ast.Starred):
        return _unpacked(target.value)
    return [target]


def _appended_per_step(functions: list[ast.AST]) -> dict[str, tuple[ast.expr, ast.expr]]:
    """Lists (locals or `self.` attributes) set to `[]` once and appended one item in the
    body of a `for` loop (and nowhere else): each one's flow key, with what the loop iterates
    (a `range(...)`, or another object's list: one item per item of it) and the item."""
    found: dict[str, tuple[ast.expr, ast.expr]] = {}
    emptied: dict[str, int] = {}
    appends: dict[str, int] = {}
    for function in functions:
        for node in _walk(function):
            target = None
            if isinstance(node, ast.Assign) and len(node.targets) == 1:
                target = node.targets[0]
            elif isinstance(node, ast.AnnAssign) and node.value is not None:
                target = node.target  # `shapes: List[Tuple[int, ...]] = []`
            key = _key(target) if target is not None else None
            if key is not None:
                value = node.value  # type: ignore[union-attr]
                empty = isinstance(value, ast.List) and not value.elts
                emptied[key] = emptied.get(key, 0) + (1 if empty else 2)
            if (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Attribute)
                and node.func.attr in ("append", "extend", "insert")
                and (key := _key(node.func.value)) is not None
            ):
                appends[key] = appends.get(key, 0) + 1
            if not isinstance(node, ast.For):
                continue
            for statement in node.body:
                call = statement.value if isinstance(statement, ast.Expr) else None
                if (
                    isinstance(call, ast.Call)
                    and isinstance(call.func, ast.Attribute)
                    and call.func.attr == "append"
                    and (key := _key(call.func.value)) is not None
                    and len(call.args) == 1
                    and not call.keywords
                ):
                    found[key] = (node.iter, call.args[0])
    return {
        key: loop for key, loop in found.items() if emptied.get(key) == 1 and appends.get(key) == 1
    }


def _items_of_appended(
    functions: list[ast.AST], appended: dict[str, tuple[ast.expr, ast.expr]]
) -> list[tuple[ast.expr, ast.expr]]:
    """`for s in shapes` (a loop or a comprehension) over a list `_appended_per_step` found:
    `s` is given the item appended, as an assignment."""
    found: list[tuple[ast.expr, ast.expr]] = []
    if not appended:
        return found
    for function in functions:
        for node in _walk(function):
            if isinstance(node, (ast.For, ast.comprehension)):
                key = _key(node.iter)
                if key in appended and isinstance(node.target, ast.Name):
                    found.append((node.target, appended[key][1]))
    return found


def _own_arguments(functions: list[ast.AST]) -> list[tuple[ast.expr, ast.expr]]:
    """`self._allocate(self.num_gpu_blocks, device)` calling `def _allocate(self, num_blocks,
    device)`: each parameter of the method is given what the call passes, as assignments (`
    num_blocks = self.num_gpu_blocks`), so a shape the method builds from its parameters
    depends on what the constructor gave them. Positional and keyword arguments of calls of the
    class's own methods that allocate (a method computing from a buffer it is passed sizes
    nothing); a starred argument ends the positional ones."""
    methods = {
        f.name: f
        for f in functions
        if isinstance(f, (ast.FunctionDef, ast.AsyncFunctionDef)) and allocates(f)
    }
    found: list[tuple[ast.expr, ast.expr]] = []
    for function in functions:
        for node in _walk(function):
            name = _own_call(node)
            method = methods.get(name) if name is not None else None
            if method is None or method is function:
                continue
            assert isinstance(node, ast.Call)
            names = [a.arg for a in [*method.args.posonlyargs, *method.args.args]]
            if not any(_dotted(d) == "staticmethod" for d in method.decorator_list):
                names = names[1:]  # (`self`, `cls`)
            for position, argument in enumerate(node.args):
                if isinstance(argument, ast.Starred) or position >= len(names):
                    break
                found.append((ast.Name(id=names[position], ctx=ast.Store()), argument))
            accepted = set(names) | {a.arg for a in method.args.kwonlyargs}
            for keyword in node.keywords:
                if keyword.arg in accepted:
                    found.append((ast.Name(id=keyword.arg, ctx=ast.Store()), keyword.value))
    return found


def _property_value(function: ast.AST) -> list[tuple[ast.expr, ast.expr]]:
    """A property returning one expression (`@property def row_width(self): return
    self._width`) read as the attribute it is: `self.row_width = self._width`."""
    if not isinstance(function, (ast.FunctionDef, ast.AsyncFunctionDef)):
        return []
    if not any(_dotted(d) == "property" for d in function.decorator_list):
        return []
    returns = [n for n in _walk(function) if isinstance(n, ast.Return) and n.value]
    if len(returns) != 1:
        return []
    target = ast.Attribute(value=ast.Name(id="self", ctx=ast.Load()), attr=function.name)
    return [(target, returns[0].value)]  # type: ignore[list-item]


def _opaque_call(node: ast.AST) -> bool:
    """A call whose result may be a whole shape (`get_lora_shape_fn(name, model)`): not a
    number computed from its arguments, nor a value read off an object (method_read)."""
    return (
        isinstance(node, ast.Call)
        and method_read(node) is None
        and (_dotted(node.func) or "") not in _NUMERIC_CALLS
    )


def _element_wise(target: ast.expr, value: ast.expr) -> list[tuple[ast.expr, ast.expr]]:
    """`a, b = x, y` as `a = x` and `b = y`; any other assignment as it is."""
    if (
        isinstance(target, (ast.Tuple, ast.List))
        and isinstance(value, (ast.Tuple, ast.List))
        and len(target.elts) == len(value.elts)
        and not any(isinstance(e, ast.Starred) for e in [*target.elts, *value.elts])
    ):
        return [p for t, v in zip(target.elts, value.elts) for p in _element_wise(t, v)]
    return [(target, value)]


def _literal(node: ast.AST) -> tuple[bool, object]:
    if isinstance(node, ast.Constant) and isinstance(node.value, (bool, str, int)):
        return True, node.value
    return False, None


def _member_name(node: ast.AST) -> str | None:
    """`Kind.MEMBER`, as an enum member is written where it is compared (`mode == Mode.X`)."""
    if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name):
        return f"{node.value.id}.{node.attr}"
    return None


def _is_torch_dtype(node: ast.AST) -> bool:
    name = _dotted(node) or ""
    return name.startswith("torch.") and name.count(".") == 1 and name[6:] not in ALLOCATORS


def _allocates(block: list[ast.stmt]) -> bool:
    """Does a block allocate a tensor or set a buffer-like attribute?"""
    for statement in block:
        for node in _walk(statement):
            if _is_allocation(node):
                return True
            if isinstance(node, ast.Assign):
                for target in node.targets:
                    key = _key(target) or ""
                    if key.startswith("self.") and ("buf" in key or "cache" in key):
                        return True
    return False


def dtype_constants(tree: ast.Module) -> frozenset[str]:
    """Module-level names bound to torch dtypes or tuples of them (`FP8 = (torch.float8_e4m3fn,
    torch.float8_e5m2)`): comparing with one is comparing with torch dtypes."""
    found = set()
    for node in tree.body:
        if isinstance(node, ast.Assign) and len(node.targets) == 1:
            target, value = node.targets[0], node.value
            items = value.elts if isinstance(value, (ast.Tuple, ast.List, ast.Set)) else [value]
            if isinstance(target, ast.Name) and items and all(_is_torch_dtype(i) for i in items):
                found.add(target.id)
    return frozenset(found)


def dtype_table_keys(tree: ast.Module, name: str) -> tuple[str, ...] | None:
    """The string keys of a module-level dict literal `name` whose values are torch dtypes
    (`{"half": torch.float16, "fp8": torch.float8_e4m3fn}`), else None; one key per dtype
    (`"half"` and `"float16"` give one layout: the second would only multiply the points)."""
    for node in tree.body:
        if (
            isinstance(node, (ast.Assign, ast.AnnAssign))
            and any(isinstance(t, ast.Name) and t.id == name for t in _targets(node))
            and isinstance(node.value, ast.Dict)
        ):
            keys = node.value.keys
            values = node.value.values
            if (
                keys
                and all(isinstance(k, ast.Constant) and isinstance(k.value, str) for k in keys)
                # `"auto": None` (the model's dtype, chosen by an `or` after the lookup)
                and all(_is_torch_dtype(v) or _is_none(v) for v in values)
                and any(_is_torch_dtype(v) for v in values)
            ):
                first: dict[str, str] = {}
                for key, value in zip(keys, node.value.values):
                    first.setdefault(ast.unparse(value), key.value)  # type: ignore[union-attr]
                return tuple(first.values())
    return None


TEXT_TABLE_KEYS = 6  # keys of a table of other values sampled, each giving another value


def text_table_keys(tree: ast.Module, name: str) -> tuple[str, ...] | None:
    """The string keys of a module-level dict literal `name` of any values (llama.cpp's
    `GGML_TYPE_TRAITS = {"f16": (1, 2), "q8_0": (32, 34)}`): what a string parameter nothing
    gives may be, when the constructor indexes it with that parameter. One key per distinct
    value, the first few; None if it is no such table."""
    for node in tree.body:
        if (
            isinstance(node, (ast.Assign, ast.AnnAssign))
            and any(isinstance(t, ast.Name) and t.id == name for t in _targets(node))
            and isinstance(node.value, ast.Dict)
        ):
            keys = node.value.keys
            if keys and all(isinstance(k, ast.Constant) and isinstance(k.value, str) for k in keys):
                first: dict[str, str] = {}
                for key, value in zip(keys, node.value.values):
                    first.setdefault(ast.unparse(value), key.value)  # type: ignore[union-attr]
                return tuple(first.values())[:TEXT_TABLE_KEYS]
    return None


def _is_none(node: ast.AST) -> bool:
    return isinstance(node, ast.Constant) and node.value is None


def _targets(node: ast.Assign | ast.AnnAssign) -> list[ast.expr]:
    return node.targets if isinstance(node, ast.Assign) else [node.target]


def read_facts(
    functions: list[ast.AST], params: list[Param], dtype_names: frozenset[str] = frozenset()
) -> Facts:
    """The facts of a class from its methods (`functions`) and constructor parameters;
    `dtype_names`: module constants holding torch dtypes (dtype_constants)."""
    by_name = {p.name: p for p in params}
    _WALKS.append({})  # (the rewrites below walk each function too: one walk each)
    try:
        functions = local_allocators(keys_as_attributes(functions))
        return _read_facts(functions, by_name, dtype_names)
    finally:
        _WALKS.pop()


def _read_facts(
    functions: list[ast.AST], by_name: dict[str, Param], dtype_names: frozenset[str]
) -> Facts:
    flow = _Flow(by_name, functions)
    facts = Facts(by_name)
    facts.dtype_names = dtype_names
    facts.own = {k[5:] for k in flow.sources if k.startswith("self.")}
    facts.regions = {whole[5:] for whole in flow.carved if whole.startswith("self.")}
    for key, sources in flow.sources.items():  # `def num_layers(self): return cfg.groups`
        if key.startswith("self.") and _LAYER_HINT.search(key[5:]) and len(sources) == 1:
            facts.layer_named |= sources
    returning = _returning_allocations(functions)
    facts.range_pairs = _range_pairs(functions, by_name)
    looped = _own_calls_in_loops(functions, flow, facts)
    for function in functions:
        # (a method called in a loop over the layers, `self.create_layer(device)`: its
        # allocations inside that loop)
        _visit(function, flow, facts, looped.get(getattr(function, "name", ""), []))
        for node in _walk(function):  # `heads, head_size = cfg.cache_shape`: a tuple
            if (
                isinstance(node, ast.Assign)
                and len(node.targets) == 1
                and isinstance(node.targets[0], ast.Tuple)
                and isinstance(node.value, ast.Name)
                and "." in node.value.id
                and node.value.id in by_name
            ):
                facts.unpacked[node.value.id] = len(node.targets[0].elts)
        held: set[str] = set()  # locals set to allocations (`kv = torch.empty(...)`)
        for node in _walk(function):
            if isinstance(node, (ast.Assign, ast.AnnAssign)) and node.value is not None:
                targets = node.targets if isinstance(node, ast.Assign) else [node.target]
                if any(_is_allocation(n) or carved_view(n, flow) for n in _walk(node.value)):
                    held |= {t.id for t in targets if isinstance(t, ast.Name)}
        for node in _walk(function):
            if isinstance(node, (ast.Assign, ast.AnnAssign)) and node.value is not None:
                if any(
                    _is_allocation(n)
                    or carved_view(n, flow)
                    or (isinstance(n, ast.Name) and n.id in held)
                    or _own_call(n) in returning
                    for n in _walk(node.value)
                ):
                    targets = node.targets if isinstance(node, ast.Assign) else [node.target]
                    targets = [  # `self.k, self.v = self._allocate(n)`: each of them
                        e for t in targets for e in (t.elts if isinstance(t, ast.Tuple) else [t])
                    ]
                    targets = [t.value if isinstance(t, ast.Subscript) else t for t in targets]
                    facts.allocated |= {  # `self.x = ...`, `self.x[name] = ...`, of a local
                        k[5:] for t in targets if (k := _key(t) or "").startswith("self.")
                    }
        for node in _walk(function):
            if (  # self.x.append(torch.zeros(...)), or of a local holding one
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Attribute)
                and node.func.attr == "append"
                and (_key(node.func.value) or "").startswith("self.")
                and any(
                    _is_allocation(n)
                    or carved_view(n, flow)
                    or (isinstance(n, ast.Name) and n.id in held)
                    for a in node.args
                    for n in _walk(a)
                )
            ):
                facts.allocated.add((_key(node.func.value) or "")[5:])
            if (  # setattr(self, "k_data", torch.empty(...)), or a name the run gives
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Name)
                and node.func.id == "setattr"
                and len(node.args) == 3
                and isinstance(node.args[0], ast.Name)
                and node.args[0].id == "self"
                and any(
                    _is_allocation(n)
                    or carved_view(n, flow)
                    or (isinstance(n, ast.Name) and n.id in held)
                    for n in _walk(node.args[2])
                )
            ):
                name = node.args[1]
                if isinstance(name, ast.Constant) and isinstance(name.value, str):
                    facts.allocated.add(name.value)
                else:
                    facts.named_at_run = True
    return facts


_PAIR_ENDS = (("start", "end"), ("first", "last"), ("begin", "end"), ("lo", "hi"))


def _range_pairs(functions: list[ast.AST], params: dict[str, Param]) -> set[str]:
    """Parameters unpacked into a start and an end of layers (`self.start_layer,
    self.end_layer = layer_range`, `first, last = stage`): a stage's layers as a pair."""
    found: set[str] = set()
    for function in functions:
        for node in _walk(function):
            if not (
                isinstance(node, ast.Assign)
                and len(node.targets) == 1
                and isinstance(node.targets[0], ast.Tuple)
                and len(node.targets[0].elts) == 2
                and isinstance(node.value, ast.Name)
                and node.value.id in params
            ):
                continue
            names = [(_key(e) or "").rpartition(".")[2].lower() for e in node.targets[0].elts]
            said = "layer" in node.value.id.lower() or all("layer" in n for n in names)
            if said and any(
                names[0].startswith(a)
                and names[1].startswith(b)
                or names[0].endswith(a)
                and names[1].endswith(b)
                for a, b in _PAIR_ENDS
            ):
                found.add(node.value.id)
    return found


def _own_call(node: ast.AST) -> str | None:
    """`m` of a call `self.m(...)`, else None."""
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
        if isinstance(node.func.value, ast.Name) and node.func.value.id == "self":
            return node.func.attr
    return None


def _returning_allocations(functions: list[ast.AST]) -> set[str]:
    """Methods that return (or yield) what they allocate (`caches = []`, `caches.append(
    tuple(layer))` of a `layer` of tensors, `return caches`): `self.cache = self.allocate(...)`
    holds it."""
    found: set[str] = set()
    for function in functions:
        name = getattr(function, "name", None)
        if name is None:
            continue
        held: set[str] = set()
        for _ in range(3):  # `layer = [torch.empty(...)]`, then `caches.append(layer)`
            for node in _walk(function):
                value, targets = None, []
                if isinstance(node, (ast.Assign, ast.AnnAssign)) and node.value is not None:
                    value, targets = node.value, _targets(node)
                elif (
                    isinstance(node, ast.Call)
                    and isinstance(node.func, ast.Attribute)
                    and node.func.attr in ("append", "extend")
                    and node.args
                ):
                    value, targets = node.args[0], [node.func.value]
                if value is not None and any(
                    _is_allocation(n) or (isinstance(n, ast.Name) and n.id in held)
                    for n in _walk(value)
                ):
                    held |= {t.id for t in targets if isinstance(t, ast.Name)}
        for node in _walk(function):
            # (or yields them: a generator of each layer's tensors, `yield (torch.empty(..
            # .), ...)`, unzipped by the caller)
            if isinstance(node, (ast.Return, ast.Yield)) and node.value is not None:
                if any(
                    _is_allocation(n) or (isinstance(n, ast.Name) and n.id in held)
                    for n in _walk(node.value)
                ):
                    found.add(name)
    return found


_TYPING = frozenset({"Optional", "Union", "None", "typing", "Any", "Final"})


# the path of an object no annotation types (`config.head_dim`)
UNTYPED_OBJECT = "config"


def object_path(param: Param) -> str:
    """The name an object's attributes are parameters under: its annotation's class (two
    classes taking `ModelShape` by other names read the same values), else `config`."""
    words = re.findall(r"[A-Za-z_]\w*", param.annotation or "")
    named = [w for w in words if w not in _TYPING]
    return named[-1] if named else UNTYPED_OBJECT


class _KeysAsAttributes(ast.NodeTransformer):
    """A config given as a dict read as an object: `cfg["head_dim"]` and `cfg.get("head_dim",
    128)` as `cfg.head_dim` (the interpreter reads a stand-in's keys as its attributes). Only
    where the dict is a name or read off one (`self.cfg[...]`), not a module constant's
    (`TABLE["fp8"]`, upper case)."""

    @staticmethod
    def _rooted(node: ast.AST) -> bool:
        while isinstance(node, ast.Attribute):
            node = node.value
        return isinstance(node, ast.Name) and not node.id.isupper()

    def visit_Subscript(self, node: ast.Subscript) -> ast.AST:
        node = self.generic_visit(node)  # type: ignore[assignment]
        key = node.slice
        if (
            isinstance(node.ctx, ast.Load)
            and isinstance(key, ast.Constant)
            and isinstance(key.value, str)
            and key.value.isidentifier()
            and self._rooted(node.value)
        ):
            return ast.copy_location(ast.Attribute(node.value, key.value, ast.Load()), node)
        return node

    def __init__(self, sectioned: bool = False) -> None:
        self.sectioned = sectioned

    def visit_Call(self, node: ast.Call) -> ast.AST:
        node = self.generic_visit(node)  # type: ignore[assignment]
        func = node.func
        keys = config_keys(node, self.sectioned)
        if keys is not None and isinstance(func, ast.Attribute) and self._rooted(func.value):
            value: ast.expr = func.value
            for key in keys:
                value = ast.Attribute(value, key, ast.Load())
            return ast.copy_location(value, node)
        return node


# configparser's typed reads: `cp.getint("model", "num_layers", fallback=0)`
_SECTION_READS = frozenset({"getint", "getfloat", "getboolean"})


def config_keys(node: ast.Call, sectioned: bool = False) -> list[str] | None:
    """The keys a config read names, as attributes: `cfg.get("head_dim", 128)` (a dict's
    key and its fallback) -> `head_dim`; `cp.getint("model", "num_layers", fallback=0)` (a
    configparser's section and option) -> `model.num_layers`, and so `cp.get("cache",
    "dtype")` where the code reads its config so elsewhere (`sectioned`); a section's
    `m.getint("num_layers")` -> `num_layers` (of `m = cp["model"]`). None for any other
    call."""
    func = node.func
    if not isinstance(func, ast.Attribute) or func.attr not in _SECTION_READS | {"get"}:
        return None
    if any(k.arg != "fallback" for k in node.keywords):
        return None
    texts = [
        a.value if isinstance(a, ast.Constant) and isinstance(a.value, str) else None
        for a in node.args
    ]
    if not texts or texts[0] is None or not texts[0].isidentifier():
        return None
    if len(texts) == 2 and texts[1] is not None and texts[1].isidentifier():
        if func.attr in _SECTION_READS or node.keywords or sectioned:
            return [texts[0], texts[1]]
        return [texts[0]]
    if len(texts) > 2 or (node.keywords and len(texts) > 1):
        return None
    return [texts[0]]  # (a section's own read, `model.getint("num_layers", fallback=32)`)


class _Substitute(ast.NodeTransformer):
    """A helper function's parameters replaced by what a method passes them (`latent_row(cfg)`
    read as if its body were written in the method, on `cfg`)."""

    def __init__(self, given: dict[str, ast.expr]) -> None:
        self.given = given

    def visit_Name(self, node: ast.Name) -> ast.AST:
        if isinstance(node.ctx, ast.Load) and node.id in self.given:
            return ast.copy_location(_copy_tree(self.given[node.id]), node)
        return node

    def visit_Tuple(self, node: ast.Tuple) -> ast.AST:
        """`(self.n_layer, *shape)` given `shape` as a tuple: its items spliced in."""
        node = self.generic_visit(node)  # type: ignore[assignment]
        items: list[ast.expr] = []
        for item in node.elts:
            if isinstance(item, ast.Starred) and isinstance(item.value, (ast.Tuple, ast.List)):
                items.extend(item.value.elts)
            else:
                items.append(item)
        node.elts = items
        return node


def helper_calls(functions: list[ast.AST], params: list[Param]) -> list[tuple[str, dict]]:
    """Calls of plain functions by name (`latent_row(cfg)`, `index_row(self.cfg)`) passing a
    constructor parameter or a `self.` attribute: (the function's name, {argument position or
    keyword: the expression passed})."""
    names = {p.name for p in params}
    found: list[tuple[str, dict]] = []
    for function in functions:
        for node in _walk(function):
            if not isinstance(node, ast.Call) or not isinstance(node.func, ast.Name):
                continue
            given: dict = {}
            for position, argument in enumerate(node.args):
                if isinstance(argument, ast.Starred):
                    break
                if _passes_object(argument, names):
                    given[position] = argument
            for keyword in node.keywords:
                if keyword.arg is not None and _passes_object(keyword.value, names):
                    given[keyword.arg] = keyword.value
            if given:
                found.append((node.func.id, given))
    return found


def _passes_object(node: ast.expr, names: set[str]) -> bool:
    key = _key(node) or ""
    return key in names or (key.startswith("self.") and key.count(".") == 1)


def inlined(helper: ast.FunctionDef, given: dict) -> ast.FunctionDef | None:
    """A copy of `helper` with the parameters `given` (by position or keyword) replaced by
    the expressions passed; None when it takes none of them."""
    by_name: dict[str, ast.expr] = {}
    vararg = helper.args.vararg.arg if helper.args.vararg is not None else None
    for key, value in given.items():
        name = parameter_at(helper, key) if key != vararg else key
        if name is not None:
            by_name[name] = value
    if not by_name:
        return None
    copied = _Substitute(by_name).visit(_copy_tree(helper))
    return copied  # type: ignore[no-any-return]


def local_allocators(functions: list[ast.AST]) -> list[ast.AST]:
    """The functions with each call of a function defined inside them that only returns an
    allocation (`def alloc(shape, dtype): return torch.empty((self.num_blocks,) + shape,
    dtype=dtype)`) replaced by that allocation, its parameters by the arguments passed: what
    it allocates is then seen where it is called (in the layer loop, `self.k.append(alloc(
    ...))`). Copies of those that have any, the others as they are."""
    found = []
    for function in functions:
        local = {
            node.name: node
            for node in _walk(function)
            if node is not function
            and isinstance(node, ast.FunctionDef)
            and _returned_allocation(node) is not None
        }
        found.extend(_inlining([function], local))
    return found


def _inlining(functions: list[ast.AST], helpers: dict[str, ast.FunctionDef]) -> list:
    """Copies of the functions that call one of `helpers` by name, each call replaced by what
    it returns (_CallsInlined); the others as they are."""
    found = []
    for function in functions:
        if helpers and any(
            isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and n.func.id in helpers
            for n in _walk(function)
        ):
            function = _CallsInlined(helpers).visit(_copy_tree(function))
        found.append(function)
    return found


def returns_inlined(functions: list[ast.AST], helpers: dict[str, ast.FunctionDef]) -> list:
    """The functions with each call of a plain function that only returns a count computed
    off an attribute (`self.num_layers = layers_per_rank(config, mapping)`, _count_read)
    replaced by it, its parameters by the arguments passed (`config.num_hidden_layers //
    mapping.pp_size`): what the helper reads off the objects it is given is read where it is
    called. Copies of those that have any. (Other helpers are read as _helpers copies them.)"""
    return _inlining(functions, {n: f for n, f in helpers.items() if _counts_off_attribute(f)})


def _counts_off_attribute(function: ast.FunctionDef) -> bool:
    value = _single_return(function)
    return value is not None and _count_read(value) is not None


def module_helpers(tree: ast.Module) -> dict[str, ast.FunctionDef]:
    """The module-level functions of a module that only return a count read off an object."""
    return {
        node.name: node
        for node in tree.body
        if isinstance(node, ast.FunctionDef) and _counts_off_attribute(node)
    }


def _returned_allocation(function: ast.FunctionDef) -> ast.expr | None:
    """What a function returns, when its body is only that and it holds an allocation."""
    value = _single_return(function)
    if value is not None and any(_is_allocation(n) for n in _walk(value)):
        return value
    return None


def _first_of_shapes(function: ast.FunctionDef) -> ast.FunctionDef | None:
    """A copy of a method whose body is locals, then `if`s returning tuples and a last
    tuple returned, all of one length (a layout choosing the order of the same dimensions),
    reduced to its first return with the locals before it written out; or of lengths that
    differ but all led by one dimension (`if name.endswith("_scale"): return (self.capacity,
    self.heads)`, `return (self.capacity, self.heads, self.head_dim)`: a buffer's and its
    scales'), reduced to the first of the longest; else None."""
    returns = [n for n in _walk(function) if isinstance(n, ast.Return)]
    tuples = [r.value for r in returns if isinstance(r.value, (ast.Tuple, ast.List))]
    if len(returns) < 2 or len(tuples) != len(returns):
        return None
    lengths = [len(t.elts) for t in tuples]  # type: ignore[attr-defined]
    chosen = 0
    if len(set(lengths)) != 1:
        leads = {ast.dump(t.elts[0]) if t.elts else "" for t in tuples}  # type: ignore[attr-defined]
        if len(leads) != 1 or "" in leads:
            return None
        chosen = lengths.index(max(lengths))
    body = [
        s
        for s in function.body
        if not (isinstance(s, ast.Expr) and isinstance(s.value, ast.Constant))
    ]
    before = next((i for i, s in enumerate(body) if isinstance(s, (ast.If, ast.Return))), None)
    given = _given_locals(body[:before]) if before is not None else None
    if given is None:
        return None
    value = _Substitute(given).visit(_copy_tree(tuples[chosen]))
    copied = _copy_tree(function)
    copied.body = [ast.copy_location(ast.Return(value=value), returns[chosen])]
    return copied


def _reduced_own(function: ast.FunctionDef) -> ast.FunctionDef | None:
    """What one of the class's own methods reduces to where it is called, when it only
    returns (after locals, written out once) one of: a shape (`heads, dim =
    self._geometry(cfg)`, then `return (self.num_layers, ..., heads, dim)`); a stage's layers
    (`return range(*get_pp_indices(cfg.num_hidden_layers, ...))`, read where it is kept); an
    allocation (`def _alloc(self, shape): return torch.empty(shape, ...)`, as a local
    allocating function is: local_allocators) or a view of one (`raw = self._arena[a:b]`,
    `return raw.view(self.dtype).view(shape)`). Or the first of the shapes a layout chooses
    between (`if c.layout is HND: return (n, 2, heads, page, d)`, `return (n, 2, page,
    heads, d)`: the same dimensions in another order, for the facts). Else None."""
    written = _locals_written_out(function)
    value = _single_return(written) if written is not None else None
    if isinstance(value, (ast.Tuple, ast.List)):
        if value.elts and not any(isinstance(e, ast.Starred) for e in value.elts):
            return written
    elif isinstance(value, ast.Call) and _dotted(value.func) == "range":
        return written
    chosen = _first_of_shapes(function)
    if chosen is not None:
        return chosen
    if _returned_allocation(function) is not None:
        return function
    if (
        value is not None
        and len(function.body) > 1
        and any(  # (after locals only)
            _is_allocation(n)
            or (
                isinstance(n, ast.Call)
                and isinstance(n.func, ast.Attribute)
                and n.func.attr == "view"
            )
            for n in _walk(value)
        )
    ):
        return written
    return None


def _returned_by(function: ast.FunctionDef, call: ast.Call, skip: int) -> ast.expr | None:
    """What `function` only returns, with its parameters replaced by what `call` passes them
    (the first `skip` positional parameters, `self` or `cls`, not passed; `self` is the
    receiver of a method called on another object): a copy."""
    given: dict = {position + skip: argument for position, argument in enumerate(call.args)}
    given.update((k.arg, k.value) for k in call.keywords if k.arg is not None)
    arguments = function.args
    taken = len(arguments.posonlyargs) + len(arguments.args)
    if arguments.vararg is not None and len(call.args) + skip > taken:
        # `self._stack(n_cells, n_heads, head_dim)` of `def _stack(self, *shape, ...)`:
        # `shape` is the tuple of what is passed beyond the named parameters
        extra = call.args[taken - skip :]
        if not any(isinstance(a, ast.Starred) for a in extra):
            given[arguments.vararg.arg] = ast.Tuple(elts=list(extra), ctx=ast.Load())
    receiver = call.func.value if isinstance(call.func, ast.Attribute) else None
    if skip == 1 and isinstance(receiver, ast.Name) and receiver.id not in ("self", "cls"):
        given[0] = receiver  # `primary.block_shape(n, b)`: its `self` is `primary`
    copied = inlined(function, given) if given else None
    value = _single_return(copied if copied is not None else function)
    return _copy_tree(value) if value is not None else None


class _CallsInlined(ast.NodeTransformer):
    """Calls of local allocating functions replaced by what they return (local_allocators)."""

    def __init__(self, local: dict[str, ast.FunctionDef]) -> None:
        self.local = local

    def visit_Call(self, node: ast.Call) -> ast.AST:
        node = self.generic_visit(node)  # type: ignore[assignment]
        if not isinstance(node.func, ast.Name) or node.func.id not in self.local:
            return node
        if any(isinstance(a, ast.Starred) for a in node.args) or any(
            k.arg is None for k in node.keywords
        ):
            return node
        value = _returned_by(self.local[node.func.id], node, skip=0)
        return ast.copy_location(value, node) if value is not None else node


def shape_methods(
    functions: list[ast.AST],
    others: list[ast.AST] = (),
    plain: dict[str, ast.FunctionDef] | None = None,
) -> list[ast.AST]:
    """The functions with each call of one of them that only returns a tuple (a shape:
    `def page_shape(self): return (self.num_layers, self.num_pages, ...)`, a backend's
    `get_kv_cache_shape(num_blocks, ...)` staticmethod) through `self.`, `cls.` or a class
    name replaced by that tuple, its parameters by the arguments passed: the allocation's
    dimensions are then seen where it is made. The first definition of a name wins (the
    functions come in MRO order; `others`, staticmethods of other classes, after them).
    `plain`: module-level functions called by name that return shapes (shape_helper), read
    the same way (`k_shape, v_shape = kv_page_shapes(model, kv)`). Copies of those that have
    any, the others as they are."""
    shapes: dict[str, ast.FunctionDef] = {}
    for function in [*functions, *others]:
        if isinstance(function, ast.FunctionDef) and function.name not in shapes:
            value = _single_return(function)
            if isinstance(value, (ast.Tuple, ast.List)):
                shapes[function.name] = function
            elif function in functions and (reduced := _reduced_own(function)) is not None:
                shapes[function.name] = reduced
    plain = plain or {}
    if not shapes and not plain:
        return functions
    found = []
    for function in functions:
        if any(_shape_call(n, shapes) or _plain_call(n, plain) for n in _walk(function)):
            function = _ShapesInlined(shapes, plain).visit(_copy_tree(function))
        found.append(function)
    return found


def shape_helper(function: ast.FunctionDef) -> ast.FunctionDef | None:
    """A module-level function returning a shape or shapes (`return (pages, size, heads,
    dim)`, `k = (...); v = (...); return k, v`), as a copy that only returns them, its locals
    written out (each assigned once, before the return); None for any other function."""
    copied = _locals_written_out(function)
    value = _single_return(copied) if copied is not None else None
    shapes = value.elts if isinstance(value, (ast.Tuple, ast.List)) else []
    if not shapes or any(isinstance(e, ast.Starred) for e in shapes):
        return None
    return copied


def _locals_written_out(function: ast.FunctionDef) -> ast.FunctionDef | None:
    """A copy of a function that only assigns locals (each once, a plain name) and then
    returns, as one that only returns, its locals written out in the returned expression;
    None for any other function."""
    body = [
        s
        for s in function.body
        if not (isinstance(s, ast.Expr) and isinstance(s.value, ast.Constant))
    ]
    if not body or not isinstance(body[-1], ast.Return) or body[-1].value is None:
        return None
    given = _given_locals(body[:-1])
    if given is None:
        return None
    value = _Substitute(given).visit(_copy_tree(body[-1].value))
    copied = _copy_tree(function)
    copied.body = [ast.copy_location(ast.Return(value=value), body[-1])]
    return copied


def _given_locals(statements: list[ast.stmt]) -> dict[str, ast.expr] | None:
    """Each local the statements assign (once, a plain name, or a tuple of names unpacking a
    value: `heads, dim = self._geometry(cfg)` as `...[0]`, `...[1]`), written out in terms of
    the ones before it; imports skipped; None if any statement is something else."""
    given: dict[str, ast.expr] = {}
    for statement in statements:
        if isinstance(statement, (ast.Import, ast.ImportFrom)):
            continue  # (`from .config import get_pp_indices` inside the method)
        if not (isinstance(statement, ast.Assign) and len(statement.targets) == 1):
            return None
        for target, value in _element_wise(statement.targets[0], statement.value):
            if isinstance(target, ast.Tuple) and all(isinstance(e, ast.Name) for e in target.elts):
                # `heads, head_dim = self._heads_and_dim(cfg)`: each its item of the value
                items = [
                    (e, ast.Subscript(value=value, slice=ast.Constant(i), ctx=ast.Load()))
                    for i, e in enumerate(target.elts)
                ]
            else:
                items = [(target, value)]
            for name, item in items:
                if not isinstance(name, ast.Name) or name.id in given:
                    return None
                given[name.id] = _Substitute(dict(given)).visit(_copy_tree(item))
    return given


def plain_callee(node: ast.AST) -> str | None:
    """`f` of a call `f(...)`, `layout.f` of `layout.f(...)` (a function of a module); else
    None (a method of `self` or `cls` is not a plain function)."""
    if not isinstance(node, ast.Call):
        return None
    func = node.func
    if isinstance(func, ast.Name):
        return func.id
    if (
        isinstance(func, ast.Attribute)
        and isinstance(func.value, ast.Name)
        and func.value.id not in ("self", "cls")
    ):
        return f"{func.value.id}.{func.attr}"
    return None


def _plain_call(node: ast.AST, plain: dict[str, ast.FunctionDef]) -> bool:
    return (
        plain_callee(node) in plain
        and isinstance(node, ast.Call)
        and not any(isinstance(a, ast.Starred) for a in node.args)
        and all(k.arg is not None for k in node.keywords)
    )


def _single_return(function: ast.FunctionDef) -> ast.expr | None:
    """The expression a function only returns (a docstring aside), else None."""
    body = [
        s
        for s in function.body
        if not (isinstance(s, ast.Expr) and isinstance(s.value, ast.Constant))
    ]
    if len(body) == 1 and isinstance(body[0], ast.Return):
        return body[0].value
    return None


def _shape_call(node: ast.AST, shapes: dict) -> bool:
    return (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute)
        and isinstance(node.func.value, ast.Name)
        and node.func.attr in shapes
        and not any(isinstance(a, ast.Starred) for a in node.args)
        and all(k.arg is not None for k in node.keywords)
    )


class _ShapesInlined(ast.NodeTransformer):
    """Calls of tuple-returning methods (and plain shape helpers) replaced by their tuple
    (shape_methods)."""

    def __init__(
        self, shapes: dict[str, ast.FunctionDef], plain: dict[str, ast.FunctionDef]
    ) -> None:
        self.shapes = shapes
        self.plain = plain
        self.depth = 0  # calls inlined inside what an inlined call returned

    def visit_Tuple(self, node: ast.Tuple) -> ast.AST:
        """`(self.n_layers, *self._page_shape(w))`: the tuple it returns spliced in."""
        return _Substitute.visit_Tuple(self, node)  # type: ignore[arg-type]

    def visit_Call(self, node: ast.Call) -> ast.AST:
        node = self.generic_visit(node)  # type: ignore[assignment]
        if _plain_call(node, self.plain):
            helper = self.plain[plain_callee(node) or ""]
            value = _returned_by(helper, node, skip=0)
            return ast.copy_location(value, node) if value is not None else node
        if not _shape_call(node, self.shapes):
            return node
        method = self.shapes[node.func.attr]  # type: ignore[attr-defined]
        if node.func.value.id not in ("self", "cls") and not isinstance(  # type: ignore
            _single_return(method), (ast.Tuple, ast.List)
        ):
            return node  # another object's allocating method: its own attributes
        static = any(_dotted(d) == "staticmethod" for d in method.decorator_list)
        value = _returned_by(method, node, skip=0 if static else 1)  # (`self`, `cls`)
        if value is None:
            return node
        if self.depth < 3:  # `torch.zeros(kv_shape(n, ...))` in what a method returns
            self.depth += 1
            value = self.visit(value)
            self.depth -= 1
        return ast.copy_location(value, node)


def keys_as_attributes(functions: list[ast.AST]) -> list[ast.AST]:
    """The functions with string-keyed reads of dicts as attribute reads (_KeysAsAttributes):
    copies of those that have any, the others as they are."""
    sectioned = any(
        isinstance(n, ast.Call)
        and isinstance(n.func, ast.Attribute)
        and n.func.attr in _SECTION_READS
        for function in functions
        for n in _walk(function)
    )
    found = []
    for function in functions:
        if any(_string_key(n) for n in _walk(function)):
            function = _KeysAsAttributes(sectioned).visit(_copy_tree(function))
        found.append(function)
    return found


def _string_key(node: ast.AST) -> bool:
    if isinstance(node, ast.Subscript):
        key = node.slice
        return isinstance(key, ast.Constant) and isinstance(key.value, str)
    return isinstance(node, ast.Call) and config_keys(node, True) is not None


# attributes of a torch dtype (`itemsize`): read off an object's attribute, that attribute is
# the dtype (a value of the object), they are not values of the object of their own
_DTYPE_FACTS = frozenset({"itemsize", "is_floating_point", "is_complex", "is_signed"})


# the paths of objects of no known class (object_path; a plain `dict`): their methods are
# not run
_UNTYPED_PATHS = frozenset({UNTYPED_OBJECT, "dict"})


class _ObjectAttributes(ast.NodeTransformer):
    """`cfg.num_layers`, `self.cfg.head_dim`, `cfg.model.dtype` read as names of their own."""

    def __init__(self, names: dict[str, str]) -> None:
        self.names = names  # `cfg`, `self.cfg`, `s` -> the path its attributes are under
        self.paths = frozenset(names.values())

    def _path(self, value: ast.AST) -> str | None:
        """The path an (already rewritten) object expression stands for, if any."""
        if isinstance(value, ast.Name) and "." in value.id:
            return value.id if value.id.split(".", 1)[0] in self.paths else None
        return self.names.get(_key(value) or "")

    def visit_Call(self, node: ast.Call) -> ast.AST:
        method = method_read(node)
        if method is not None:  # `cfg.get_num_layers()`: a value of its own, as an attribute
            method.value = self.visit(method.value)
            path = self._path(method.value)
            if path is not None:
                read = ast.copy_location(ast.Name(f"{path}.{method.attr}()", ast.Load()), node)
                # `geom.padded(capacity)`: a value the object's class computes from a count of
                # tokens it is given, which it depends on too (the method runs on the
                # stand-in); not an object given (`cfg.get_num_layers(parallel_config)`)
                plain = [
                    a
                    for a in node.args
                    if isinstance(a, ast.Name) and "." not in a.id and says_tokens(a.id)
                ]
                if not plain or path.partition(".")[0] in _UNTYPED_PATHS:
                    return read  # (an untyped object's method: its value a sample of its own)
                return ast.copy_location(
                    ast.Tuple([read, *(self.visit(a) for a in plain)], ast.Load()), node
                )
        return self.generic_visit(node)

    def visit_Attribute(self, node: ast.Attribute) -> ast.AST:
        node = self.generic_visit(node)  # type: ignore[assignment]
        if not isinstance(node.ctx, ast.Load):
            return node
        value = node.value
        if node.attr in _DTYPE_FACTS and isinstance(value, ast.Name) and "." in value.id:
            # `cfg.kv_dtype.itemsize`: the size of a dtype the object holds, not a value of
            # it (`fmt.itemsize`, the object's own field, is one)
            return node
        if isinstance(value, ast.Name) and "." in value.id:  # already a path: nested
            if value.id.split(".", 1)[0] in self.paths:
                return ast.copy_location(ast.Name(f"{value.id}.{node.attr}", ast.Load()), node)
            return node
        path = self.names.get(_key(value) or "")
        if path is not None:
            return ast.copy_location(ast.Name(f"{path}.{node.attr}", ast.Load()), node)
        return node


def objects_as_parameters(
    functions: list[ast.AST], params: list[Param], roots: dict[str, str]
) -> tuple[list[ast.AST], list[Param]]:
    """Methods and parameters where the attributes of the objects `roots` name are parameters
    of their own: a pool that reads its counts off a config object (`range(cfg.num_layers)`,
    `torch.empty((cfg.num_layers, n, cfg.head_dim), dtype=cfg.dtype)`) is then read as one
    taking `cfg.num_layers`, `cfg.head_dim` and `cfg.dtype` (under `roots[cfg]`, its path).
    The methods are copies."""
    functions = local_allocators(keys_as_attributes(functions))
    # `self.cfg = cfg`, `s = self.cfg`: the object; `m = cfg.model`: an object under it
    aliases: dict[str, str] = dict(roots)
    for _ in range(3):
        for function in functions:
            for node in _walk(function):
                if not isinstance(node, ast.Assign):
                    continue
                for target, value in (
                    p for t in node.targets for p in _element_wise(t, node.value)
                ):
                    path = aliases.get(_key(value) or "")
                    if path is None and isinstance(value, ast.Attribute):
                        under = aliases.get(_key(value.value) or "")
                        path = f"{under}.{value.attr}" if under is not None else None
                    key = _key(target)
                    if path is not None and key is not None and key not in roots:
                        aliases.setdefault(key, path)
    rewriter = _ObjectAttributes(aliases)
    copies = [rewriter.visit(_copy_tree(function)) for function in functions]
    seen = {p.name for p in params}
    added: list[Param] = []
    for function in copies:
        for node in _walk(function):
            if isinstance(node, ast.Name) and "." in node.id and node.id not in seen:
                seen.add(node.id)
                added.append(Param(node.id, None, None))
    # the objects themselves hold no count (their attributes do)
    kept = [
        Param(p.name, p.annotation or "object", p.default) if p.name in roots else p for p in params
    ]
    return copies, kept + added


def _rebound(body: list[ast.stmt]) -> list[ast.stmt]:
    """The statements of a loop's body binding an allocation to a local the body binds again
    (`new_means = buckets.new_zeros(k, d)`, then `new_means = new_means / counts`): a scratch
    tensor the loop computes with, made anew each step, not a buffer kept per step (a pool
    appends it, or keeps it under a key, and binds it once)."""
    bound: dict[str, int] = {}
    for statement in body:
        if isinstance(statement, (ast.Assign, ast.AugAssign, ast.AnnAssign)):
            targets = statement.targets if isinstance(statement, ast.Assign) else [statement.target]
            for target in targets:
                if isinstance(target, ast.Name):
                    bound[target.id] = bound.get(target.id, 0) + 1
    return [
        statement
        for statement in body
        if isinstance(statement, ast.Assign)
        and len(statement.targets) == 1
        and isinstance(statement.targets[0], ast.Name)
        and bound[statement.targets[0].id] > 1
        and _is_allocation(statement.value)
    ]


def _visit(node: ast.AST, flow: _Flow, facts: Facts, ranges: list[set[str]]) -> None:
    """Walk a method, keeping the parameters of the `range(...)` loops around each node."""
    if isinstance(node, (ast.ListComp, ast.GeneratorExp, ast.SetComp, ast.DictComp)):
        inner = list(ranges)
        for generator in node.generators:
            _visit(generator.iter, flow, facts, inner)  # `for layer in gpu.kv_cache`: read
            inner.append(_range_params(generator.iter, flow, facts))
        if isinstance(node, ast.DictComp):  # `{lid: torch.zeros(...) for lid in ids}`
            _visit(node.key, flow, facts, ranges)
            _visit(node.value, flow, facts, inner)
        else:
            _visit(node.elt, flow, facts, inner)
        return
    if isinstance(node, ast.For):
        _visit(node.iter, flow, facts, ranges)  # the attributes it reads (`gpu.kv_cache`)
        inner = ranges + [_range_params(node.iter, flow, facts)]
        scratch = _rebound(node.body)
        for child in node.body:
            if child in scratch:  # a scratch tensor made again each step: not one per layer
                _visit(child, flow, facts, ranges)
            else:
                _visit(child, flow, facts, inner)
        for child in node.orelse:
            _visit(child, flow, facts, ranges)
        return
    if isinstance(node, ast.If):
        _note_flag(node.test, node.body, node.orelse, flow, facts)
    if isinstance(node, ast.Assert):
        _note_demanded_text(node.test, flow, facts)
    if isinstance(node, ast.IfExp):
        _note_flag(node.test, [ast.Expr(node.body)], [ast.Expr(node.orelse)], flow, facts)
    if isinstance(node, ast.Return) and node.value is not None:
        # `return NAMES + (SCALES if self.scaled else ())`: chosen and returned, as the `if`
        # returning in each branch is, where it chooses between sequences
        for part in _walk(node.value):
            if isinstance(part, ast.IfExp) and all(
                isinstance(arm, (ast.Tuple, ast.List)) for arm in (part.body, part.orelse)
            ):  # (a plan's names or a shape; `"on" if self.verbose else "off"` is none)
                arms = [ast.Return(value=part.body)], [ast.Return(value=part.orelse)]
                _note_flag(part.test, *arms, flow, facts)
    if isinstance(node, ast.Assign) and isinstance(node.value, ast.IfExp):
        # `kv_dtype = torch.uint8 if cfg.quant_policy == 8 else model.dtype`: as the `if`
        # setting what an allocation reads that it is
        value = node.value
        body = [ast.Assign(targets=node.targets, value=value.body)]
        _note_flag(
            value.test, body, [ast.Assign(targets=node.targets, value=value.orelse)], flow, facts
        )
    if isinstance(node, ast.Call):
        _note_call(node, flow, facts, ranges)
    if isinstance(node, ast.Assign) and isinstance(node.value, ast.Call):
        _note_helper(node, flow, facts)
    if isinstance(node, ast.BinOp):
        facts.numeric |= flow.of(node.left) | flow.of(node.right)
        if isinstance(node.op, (ast.FloorDiv, ast.Div)):
            facts.divisors |= flow.of(node.right)
    if isinstance(node, ast.Compare):
        _note_dtype_compare(node, flow, facts)
    if isinstance(node, ast.Attribute) and node.attr in _DTYPE_FACTS:
        # `cfg.scale_dtype.itemsize`: the object's attribute holds a dtype (not a number)
        facts.dtype_params |= {n for n in flow.copied(node.value) if "." in n}
    if isinstance(node, ast.Subscript) and isinstance(node.value, ast.Name):
        for name in flow.copied(node.slice):  # `STR_DTYPE_TO_TORCH_DTYPE[cache_dtype]`
            facts.tables.setdefault(name, set()).add(node.value.id)
    if (  # `FP8_KINDS.get(cfg.kv_cache_dtype, cfg.dtype)`: the table read with a fallback
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute)
        and node.func.attr == "get"
        and isinstance(node.func.value, ast.Name)
        and node.args
    ):
        for name in flow.copied(node.args[0]):
            facts.tables.setdefault(name, set()).add(node.func.value.id)
    if isinstance(node, ast.Attribute):
        for name in flow.copied(node.value):  # `p.x`, or `self.p.x` after `self.p = p`
            facts.read_attributes.setdefault(name, set()).add(node.attr)
    for child in ast.iter_child_nodes(node):
        _visit(child, flow, facts, ranges)


def _own_calls_in_loops(
    functions: list[ast.AST], flow: _Flow, facts: Facts
) -> dict[str, list[set[str]]]:
    """Own methods called in a `range(...)` loop of another (`for _ in range(cfg.n_layers):
    self.create_layer(device)`), by name: the parameters of those loops' ranges."""
    found: dict[str, list[set[str]]] = {}
    for function in functions:
        for loop in _walk(function):
            if not isinstance(loop, ast.For) or not isinstance(loop.iter, ast.Call):
                continue
            if _dotted(loop.iter.func) != "range":
                continue
            called = {
                call.func.attr
                for child in loop.body
                for call in _walk(child)
                if isinstance(call, ast.Call)
                and isinstance(call.func, ast.Attribute)
                and _dotted(call.func.value) == "self"
            }
            if called:
                params = _range_params(loop.iter, flow, facts)
                for name in called - {getattr(function, "name", "")}:
                    found.setdefault(name, []).append(params)
    return found


def _object_of(node: ast.Attribute) -> ast.AST:
    """The object an attribute path starts from: `cfg` of `cfg.model.num_layers`."""
    base: ast.AST = node.value
    while isinstance(base, ast.Attribute) and _key(base) is None:
        base = base.value
    return base


def _range_params(node: ast.AST, flow: _Flow, facts: Facts) -> set[str]:
    """The parameters a loop's `range(...)` depends on; a loop over an object's attribute
    (`for _ in gpu_cache.key_cache`: a mirror's per-layer loop) is noted in `per_item`."""
    if isinstance(node, ast.Call) and _dotted(node.func) == "range" and node.args:
        stop = node.args[-1] if len(node.args) < 3 else node.args[1]
        found = flow.of(stop)
        span = flow.span(stop) if len(node.args) == 1 else None
        if span is not None:  # `range(end_layer - start_layer)`: as `range(start, end)`
            facts.range_starts[span[0]] = span[1]
            return {span[0]}
        if len(node.args) >= 2:
            start = flow.copied(node.args[0])
            if len(found) == 1 and len(start) == 1 and start != found:
                # `range(start_layer, end_layer)`: a stage's layers, counted by the stop
                facts.range_starts[next(iter(found))] = next(iter(start))
            else:
                found |= flow.of(node.args[0])
        stop = flow.path(stop)
        read = _read_off(stop)
        if read is not None and flow.roots(read):
            found.add("@" + ast.unparse(stop))  # marks a count read off an object
            facts.range_roots |= flow.roots(read)
        return found
    key = _key(node)
    if key is not None and key in flow.ranged and key not in flow.params:
        return _range_params(flow.ranged[key], flow, facts)  # one item per step of it
    held = flow.path(node) if isinstance(node, ast.Attribute) else None
    if held is node and (_key(node) or "").startswith("self."):
        held = None  # an own list no object's read gave (the cases below)
    read = _read_off(held) if held is not None else None
    if read is not None and "layer" in read.attr.lower() and flow.roots(read):
        # `for _ in cfg.full_layer_ids`, or `for _ in self.layers` after `self.layers =
        # spec.layer_range`: the layers an object lists (a stage's range, one kind's ids),
        # counted as `range(len(spec.layer_range))` would be
        found = {"@" + ast.unparse(held)}
        facts.range_roots |= flow.roots(read)
        return found
    if (
        isinstance(node, ast.Name)
        and node.id in flow.params
        and "layer" in node.id.rpartition(".")[2].lower()
    ):  # `for _ in layer_ids`, `for _ in KVLayout.layer_ids` (an object's list, read as a
        facts.lengths.add(node.id)  # parameter): one per id, as `len(layer_ids)` leading
        facts.strong_lengths.add(node.id)
        return {node.id}
    listed = _listed_parameter(node, flow)
    if listed is not None:  # `for _ in self.layer_ids` after `self.layer_ids = list(ids)`:
        facts.lengths.add(listed)  # one per id of a list parameter, as `len(ids)` leading
        facts.strong_lengths.add(listed)
        return {listed}
    if isinstance(node, ast.Attribute) or (
        # a local list made off an object's (`rows = [t.numel() // n for t in src.keys]`)
        isinstance(node, ast.Name) and node.id not in flow.params and node.id in flow.sources
    ):
        facts.per_item |= flow.of(node)
        return {"." + name for name in flow.of(node)}  # marks the loop, never a parameter
    return set()


def _listed_parameter(node: ast.AST, flow: _Flow) -> str | None:
    """The parameter a loop iterates when it is one the constructor keeps as a copy (`for _
    in self.layer_ids` after `self.layer_ids = list(layer_ids)`), named for layers: the list
    of ids a stage holds. None for anything else (a mirror's loop over another object's list
    is per item, not this)."""
    if not isinstance(node, ast.Attribute) or _key(node) is None:
        return None
    value = flow.path(node)
    for _ in range(3):
        copy = _sequence_copy(value)
        if copy is None:
            break
        value = flow.path(copy)
    if isinstance(value, ast.Name) and value.id in flow.params and value is not node:
        if "layer" in value.id.lower():  # (`layer_ids`, `layers`)
            return value.id
    copied = flow.copied(node)  # `self.layers = PoolSpec.layer_range`, an object's list read
    if len(copied) == 1 and "." in next(iter(copied)):  # as a parameter (objects_as_parameters)
        name = next(iter(copied))
        if "layer" in name.rpartition(".")[2].lower():
            return name
    return None


def _note_call(call: ast.Call, flow: _Flow, facts: Facts, ranges: list[set[str]]) -> None:
    facts.called |= flow.copied(call.func)
    for keyword in call.keywords:
        if keyword.arg == "dtype":
            facts.dtype_params |= flow.copied(keyword.value)
    if _dotted(call.func) == "range":
        facts.numeric |= set().union(*(flow.of(a) for a in call.args)) if call.args else set()
    if (  # `region.view(spec.dtype)`: a view as another dtype, the one a name says it is
        isinstance(call.func, ast.Attribute)
        and call.func.attr == "view"
        and len(call.args) == 1
        and (_key(call.args[0]) or "").endswith("dtype")
    ):
        facts.dtype_params |= flow.copied(call.args[0])
    if _dotted(call.func) == "getattr" and len(call.args) >= 2 and _dotted(call.args[0]) == "torch":
        facts.dtype_names_params |= flow.copied(call.args[1])  # `getattr(torch, cfg["dtype"])`
    if not (_is_allocation(call) or carved_view(call, flow)):
        return
    for keyword in call.keywords:  # `dtype=to_torch(cfg.dtype)`: as `self.dtype = ...` before
        value = keyword.value
        if (
            keyword.arg == "dtype"
            and isinstance(value, ast.Call)
            and isinstance(value.func, ast.Name)
        ):
            _note_passed(value, flow, facts)
    shape = _spliced(_shape_of(call), flow.tuples)
    joined_call = False
    if len(shape) == 1 and (_key(shape[0]) or "") in flow.tuples:  # a shape built before
        shape = flow.tuples[_key(shape[0]) or ""]
    elif len(shape) == 1:  # `(num_blocks,) + block_shape`: the parts' dimensions
        joined = concatenated_shape(shape[0], flow.tuples)
        # a call joined to a tuple (`(self.num_layers,) + spec.page_shape(n)`) is a shape
        joined_call = joined is not None and any(isinstance(d, ast.Call) for d in joined[1:])
        shape = joined or shape
    dims = [frozenset(flow.of(d)) for d in shape]
    if len(shape) == 1 and (  # `torch.empty(shape_of(m))`, `shape = shape_of(m)` before
        (_key(shape[0]) or "") in flow.opaque or _opaque_call(shape[0])
    ):
        dims = [frozenset()]
    facts.shapes.append(dims)
    facts.shape_ranges.append(frozenset(n for around in ranges for n in around))
    facts.shape_keys.append(  # `bs` of `bs = gpu_cache.block_size` keyed as its attribute
        [
            (flow.path(d) is not d and _attribute_key(flow.path(d))) or _key(d) or _attribute_key(d)
            for d in shape
        ]
    )
    dtype = [k.value for k in call.keywords if k.arg == "dtype"]
    for part in (n for d in [*shape, *dtype] for n in _walk(d)):
        if isinstance(part, ast.Attribute):
            facts.sized_by |= flow.copied(part.value)
        if _key(part) is not None and _key(part) not in flow.params:
            # `self.row_width` -> `self._width = src.row_width - 64`: computed from `src`
            facts.sized_by |= flow.of(part)
    for dim in dims:
        facts.numeric |= dim
    # the first dimension after a K/V axis of 2 (`(2, self.n_layers, ...)`: K and V, then layers)
    first = next((d for d in shape if not (isinstance(d, ast.Constant) and d.value == 2)), None)
    leading = flow.path(first) if first is not None else None
    if _length_of(leading) is not None:  # `len(params.layer_ids)`: one row per id listed
        local = _length_of(first) is None
        leading = flow.path(_length_of(leading))
        copied = False
        for _ in range(3):  # `self.layer_ids = list(layer_ids)`: as long as what it copies
            copy = _sequence_copy(leading)
            if copy is None:
                break
            leading, copied = flow.path(copy), True
        found = flow.copied(leading) | {ast.unparse(leading)}
        facts.lengths |= found
        if copied or not local:
            facts.strong_lengths |= found
    read = _read_off(leading) if leading is not None else None
    counted = flow.length_of.get(_key(first) or "") if first is not None else None
    if counted is not None:
        counted = flow.stages.get(_key(counted) or "", counted)
    staged = counted if counted is not None else leading
    if _range_of_helper(staged) is not None:
        # the stages the helper splits the layers over (`pp_size`): one stage holding every
        # layer, as for `num_hidden_layers // pp_size`; the count is the one the pool keeps
        helper = staged.args[0].value  # type: ignore[union-attr]
        for argument in helper.args[1:]:
            named = (_key(argument) or ast.unparse(argument)).rpartition(".")[2]
            if named.endswith("size") or named.endswith("world"):
                facts.layer_divisors |= flow.of(argument)
        if counted is not None and first is not None and (_key(first) or "").startswith("self."):
            facts.stage_counts.add((_key(first) or "")[5:])
    spanned = _range_of_helper(staged)
    if isinstance(spanned, ast.Attribute) and flow.roots(spanned):
        # `len(range(*get_pp_indices(cfg.num_hidden_layers, rank, size)))`: a stage's
        # layers, counted off the object the helper is given the layer count of
        facts.range_paths.add(ast.unparse(spanned))
        facts.range_roots |= flow.roots(spanned)
    # `(self.num_layers,) + k_shape`, `k_shape` a helper's result (`kv_page_shapes(model,
    # kv)`, not read here): a leading axis before a block shape of one dimension or more
    opaque = any((_key(d) or "") in flow.opaque or _opaque_call(d) for d in shape[1:])
    opaque = opaque or joined_call
    if (len(shape) >= 3 or opaque) and read is not None and flow.roots(read):
        facts.range_paths.add(ast.unparse(leading))  # a leading dimension read off an object
        facts.range_roots |= flow.roots(read)
    helper = shape[0] if len(shape) == 1 and isinstance(shape[0], ast.Call) else None
    if helper is not None and helper.args and method_read(helper) is None:
        # `torch.empty(kv_shape(cfg.n_layers, cfg.max_slots, ...))`, a helper not read here
        # (another module's): its first argument, a layer count read off an object, leads
        first_arg = flow.path(helper.args[0])
        read = _read_off(first_arg)
        if read is not None and _LAYER_HINT.search(read.attr) and flow.roots(read):
            facts.range_paths.add(ast.unparse(first_arg))
            facts.range_roots |= flow.roots(read)
    # block-major (`(num_blocks, num_layers, 2, page, heads, dim)`): the layer axis second, a
    # count named for layers computed off an object (`config.num_hidden_layers // pp_size`)
    axes = [d for d in shape if not (isinstance(d, ast.Constant) and d.value == 2)]
    if len(shape) >= 4 and len(axes) >= 2:
        divisors: list[ast.expr] = []
        value = flow.computed.get(_key(axes[1]) or "", flow.path(axes[1]))
        dividend = _dividend(value, divisors)
        second = dividend if isinstance(dividend, ast.Attribute) else None
        named = [(_key(axes[1]) or "").rpartition(".")[2]]
        named.append(ast.unparse(dividend).rpartition(".")[2] if dividend is not None else "")
        if dividend is not None and any(_LAYER_HINT.search(n) for n in named):
            if second is not None and flow.roots(second):
                facts.range_paths.add(ast.unparse(second))
                facts.range_roots |= flow.roots(second)
            for divisor in divisors:  # `// pp_size`: the stages the layers are split over
                facts.layer_divisors |= flow.of(divisor)
    for around in ranges:
        facts.per_layer |= {n for n in around if n[:1] not in (".", "@")}
        facts.per_item |= {n[1:] for n in around if n.startswith(".")}
        facts.range_paths |= {n[1:] for n in around if n.startswith("@")}


def _note_helper(node: ast.Assign, flow: _Flow, facts: Facts) -> None:
    """`self.dtype = resolve_kv_dtype(kv_dtype)` where an allocation reads `self.dtype`: the
    parameters passed to a plain function whose result sizes a buffer."""
    call = node.value
    assert isinstance(call, ast.Call)
    if not isinstance(call.func, ast.Name) or not _sets([node], flow.sizing):
        return
    _note_passed(call, flow, facts)


def _note_passed(call: ast.Call, flow: _Flow, facts: Facts) -> None:
    """Each parameter copied into an argument of `helper(...)`: (helper, position or keyword)."""
    assert isinstance(call.func, ast.Name)
    passed: list[tuple[int | str, ast.expr]] = list(enumerate(call.args))
    passed += [(k.arg, k.value) for k in call.keywords if k.arg is not None]
    for where, value in passed:
        for name in flow.copied(value):
            facts.helpers.setdefault(name, set()).add((call.func.id, where))


def parameter_at(function: ast.FunctionDef | ast.AsyncFunctionDef, where: int | str) -> str | None:
    """The name of the parameter a call fills by position `where` (an int) or by keyword
    (`where` itself, when the function has such a parameter); None when none."""
    arguments = function.args
    positional = [*arguments.posonlyargs, *arguments.args]
    if isinstance(where, int):
        return positional[where].arg if where < len(positional) else None
    return where if where in {a.arg for a in positional + arguments.kwonlyargs} else None


def tested_literals(function: ast.FunctionDef | ast.AsyncFunctionDef, where: int | str) -> list:
    """The literals a function compares its parameter (by position or keyword) with in the
    tests of `if` statements whose branches return (`if name == "auto": return model_dtype`,
    `elif name in ("fp8", "fp8_e4m3"): ...`): the values that choose what it returns."""
    name = parameter_at(function, where)
    if name is None:
        return []
    found: list = []
    for node in _walk(function):
        if not isinstance(node, ast.If):
            continue
        if not any(isinstance(n, ast.Return) for s in node.body for n in _walk(s)):
            continue
        for subject, item in _comparisons(node.test):
            ok, value = _literal(item)
            if isinstance(subject, ast.Name) and subject.id == name and ok and value not in found:
                found.append(value)
        for part in _walk(node.test):  # `name.startswith("fp8")`: the prefix is one value
            if (
                isinstance(part, ast.Call)
                and isinstance(part.func, ast.Attribute)
                and part.func.attr == "startswith"
                and isinstance(part.func.value, ast.Name)
                and part.func.value.id == name
                and part.args
                and isinstance(part.args[0], ast.Constant)
                and isinstance(part.args[0].value, str)
                and part.args[0].value not in found
            ):
                found.append(part.args[0].value)
    return found


def names_a_torch_dtype(function: ast.FunctionDef | ast.AsyncFunctionDef, where: int | str) -> bool:
    """Does the function pass its parameter (by position or keyword) to `getattr(torch,
    ...)`: a dtype's name?"""
    name = parameter_at(function, where)
    return name is not None and any(
        isinstance(node, ast.Call)
        and _dotted(node.func) == "getattr"
        and len(node.args) >= 2
        and _dotted(node.args[0]) == "torch"
        and isinstance(node.args[1], ast.Name)
        and node.args[1].id == name
        for node in _walk(function)
    )


def fields_naming_torch_dtypes(
    function: ast.FunctionDef | ast.AsyncFunctionDef,
) -> dict[str, list[str]]:
    """The fields of its object a method passes to `getattr(torch, self.dtype)`: dtypes'
    names (a config's `torch_dtype` property over its text `dtype`), each with the texts the
    method compares it with (`if self.dtype == "auto": ...`: a mode, not a dtype's name)."""
    fields = [
        node.args[1].attr
        for node in _walk(function)
        if isinstance(node, ast.Call)
        and _dotted(node.func) == "getattr"
        and len(node.args) >= 2
        and _dotted(node.args[0]) == "torch"
        and isinstance(node.args[1], ast.Attribute)
        and isinstance(node.args[1].value, ast.Name)
        and node.args[1].value.id == "self"
    ]
    found: dict[str, list[str]] = {name: [] for name in fields}
    for node in _walk(function):
        if not isinstance(node, ast.Compare):
            continue
        sides = [node.left, *node.comparators]
        named = [s.attr for s in sides if _key(s) is not None and (_key(s) or "")[5:] in found]
        texts = [
            e.value
            for s in sides
            for e in (s.elts if isinstance(s, (ast.Tuple, ast.List, ast.Set)) else [s])
            if isinstance(e, ast.Constant) and isinstance(e.value, str)
        ]
        for name in named:  # type: ignore[assignment]
            found[name].extend(t for t in texts if t not in found[name])
    return found


def indexed_tables(function: ast.FunctionDef | ast.AsyncFunctionDef, where: int | str) -> list:
    """Module-level names a function indexes with its parameter (by position or keyword):
    `FORMATS[fmt]`, `FORMATS.get(fmt, d)` (a dtype table's keys choose what it returns)."""
    name = parameter_at(function, where)
    found: list = []
    if name is None:
        return found
    for node in _walk(function):
        table = None
        if isinstance(node, ast.Subscript) and isinstance(node.value, ast.Name):
            if isinstance(node.slice, ast.Name) and node.slice.id == name:
                table = node.value.id
        elif (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and node.func.attr == "get"
            and isinstance(node.func.value, ast.Name)
            and node.args
            and isinstance(node.args[0], ast.Name)
            and node.args[0].id == name
        ):
            table = node.func.value.id
        if table is not None and table not in found:
            found.append(table)
    return found


def literal_table_keys(function: ast.FunctionDef | ast.AsyncFunctionDef, where: int | str) -> list:
    """The keys of dict literals a function indexes with its parameter (by position or
    keyword): `{"int8": torch.int8, "float16": torch.float16}[name]` chooses what it returns,
    and any other key fails the lookup."""
    name = parameter_at(function, where)
    found: list = []
    if name is None:
        return found
    for node in _walk(function):
        if (
            isinstance(node, ast.Subscript)
            and isinstance(node.value, ast.Dict)
            and isinstance(node.slice, ast.Name)
            and node.slice.id == name
        ):
            for key in node.value.keys:
                ok, value = _literal(key) if key is not None else (False, None)
                if ok and value not in found:
                    found.append(value)
    return found


def _comparisons(test: ast.AST) -> Iterator[tuple[ast.expr, ast.expr]]:
    """`(subject, value)` for each one-operator comparison in a test, both ways round; a
    tuple, list or set compared with gives each of its items (`mode in ("a", "b")`)."""
    for part in _walk(test):
        if isinstance(part, ast.Compare) and len(part.ops) == 1:
            left, right = part.left, part.comparators[0]
            for subject, other in ((left, right), (right, left)):
                many = isinstance(other, (ast.Tuple, ast.List, ast.Set))
                for item in other.elts if many else [other]:  # type: ignore[attr-defined]
                    yield subject, item


def _sets(block: list[ast.stmt], keys: set[str]) -> bool:
    """Does a block assign one of these names or `self.` attributes?"""
    for statement in block:
        for node in _walk(statement):
            if isinstance(node, (ast.Assign, ast.AnnAssign)):
                targets = node.targets if isinstance(node, ast.Assign) else [node.target]
                if any(_key(n) in keys for t in targets for n in _walk(t)):
                    return True
    return False


def _note_flag(test: ast.AST, body: list, orelse: list, flow: _Flow, facts: Facts) -> None:
    """A parameter tested against literals (or for truth) where a branch allocates, or sets
    what an allocation reads (`if kv_cache_dtype == "fp8_ds_mla": row, dtype = 656, uint8`)."""
    allocating = _allocates(body) or _allocates(orelse)
    # or returns what it chooses (a helper read as the class's: `if c.get("packed", True):
    # return d + d // 128 * 4, torch.uint8`)
    returning = any(
        isinstance(n, ast.Return) and n.value is not None for s in body for n in _walk(s)
    )
    if not (allocating or returning or _sets(body + orelse, flow.sizing)):
        return
    before = set(facts.flags)
    for subject, item in _comparisons(test):
        names = flow.copied(subject)
        member = _member_name(item)
        if member is not None:
            for name in names:
                facts.members.setdefault(name, []).append(member)
        found, value = _literal(item)
        if found:
            for name in names:
                facts.flags.setdefault(name, []).append(value)
    subjects = [test.operand] if isinstance(test, ast.UnaryOp) else [test]
    if isinstance(test, ast.BoolOp):
        subjects = [v.operand if isinstance(v, ast.UnaryOp) else v for v in test.values]
    for subject in subjects:
        for name in flow.copied(subject):
            facts.flags.setdefault(name, []).append(True)
    if not allocating:
        facts.set_only_flags |= set(facts.flags) - before


def _note_demanded_text(test: ast.AST, flow: _Flow, facts: Facts) -> None:
    """`assert cache["kv_format"] == "fp8_ds_mla"`: a config object's key nothing types is
    text the constructor demands, not a number to sample; its values are the strings it may
    equal (a closed set: any other fails the assert)."""
    if not isinstance(test, ast.Compare) or len(test.ops) != 1:
        return
    if not isinstance(test.ops[0], (ast.Eq, ast.In)):
        return
    for subject, item in _comparisons(test):
        found, value = _literal(item)
        if not found or not isinstance(value, str):
            continue
        for name in flow.copied(subject):
            if "." in name:  # an object's attribute or key, never a parameter of its own
                facts.flags.setdefault(name, []).append(value)
                facts.closed.add(name)


def _note_dtype_compare(node: ast.Compare, flow: _Flow, facts: Facts) -> None:
    sides = [node.left, *node.comparators]
    named = facts.dtype_names
    if any(_is_torch_dtype(s) or (isinstance(s, ast.Name) and s.id in named) for s in sides) or any(
        isinstance(s, (ast.Tuple, ast.List, ast.Set)) and any(_is_torch_dtype(e) for e in s.elts)
        for s in sides
    ):
        for side in sides:
            facts.dtype_params |= flow.copied(side)


def _count_like(param: Param, facts: Facts) -> bool:
    """Could this parameter hold a count (an int, or not annotated and no attribute of it is
    read, nor does it choose a dtype: `TABLE.get(cfg.cache_dtype)` names no count)?"""
    if param.name in facts.read_attributes or param.name in facts.dtype_params:
        return False
    if facts.tables.get(param.name) or param.name in facts.dtype_names_params:
        return False
    if facts.flags.get(param.name) and all(isinstance(v, str) for v in facts.flags[param.name]):
        return False
    if param.name in facts.range_pairs:  # a stage's (start, end): a count of layers
        return True
    if param.name in facts.strong_lengths:  # a list of ids the class keeps and loops over
        return True  # (`layer_ids: Sequence[int]`): counted by its length
    if param.annotation is None:  # (or a module constant: `depth=NUM_LAYERS`)
        if param.default is not None and param.default in facts.dtype_names:
            return False
        return (
            param.default is None
            or re.fullmatch(r"-?\d+|None|[A-Z][A-Z0-9_]*", param.default) is not None
        )
    return param.annotation.replace(" ", "") in {t.replace(" ", "") for t in _COUNT_TYPES}


def infer_roles(
    facts: Facts,
    token_hints: frozenset[str] = frozenset(),
    layer_hints: frozenset[str] = frozenset(),
    layers_from: str | None = None,
) -> Roles | None:
    """Which parameters count tokens and layers, from the shapes; None if the class does not
    allocate per layer and per token from its parameters. The hints (a rule pack's names)
    break ties, and so do names that say "layers" / "tokens"; they never make a count alone.
    `layers_from`: a host mirror's device-pool parameter, which gives it its layer count (only
    its token count is sought)."""
    counts = {n for n, p in facts.params.items() if _count_like(p, facts)}
    if layers_from is not None:
        counts.discard(layers_from)
        return _tokens_along(facts, counts, layers_from, token_hints)
    layer_votes: dict[str, int] = {}
    for name in facts.per_layer & counts:
        layer_votes[name] = layer_votes.get(name, 0) + 3
    # the first dimension a parameter sizes (`(2, num_layers, num_tokens, ...)`: after a K/V 2)
    firsts = [next((dim for dim in d if dim), frozenset()) for d in facts.shapes if len(d) >= 3]
    leading = {next(iter(dim)) for dim in firsts if len(dim) == 1}
    second_axis: set[str] = set()  # voted for by the layer axis second alone
    for name in leading & counts:  # once: a leading dimension alone needs a name saying layers
        strong = name in facts.strong_lengths
        layer_votes[name] = layer_votes.get(name, 0) + (2 if strong else 1)
    for dims in facts.shapes:  # the layer axis second (`(num_pages, num_layers, page, ...)`),
        sized = [dim for dim in dims if dim]  # only by a name saying layers, and once
        if len(dims) < 4 or len(sized) < 2:
            continue
        # (one such count among what the axis reads: `num_hidden_layers // pp_size`)
        said = [n for n in sized[1] if n in counts and _LAYER_HINT.search(n.split(".")[-1])]
        if len(said) != 1 or (len(sized[1]) > 1 and "." not in said[0]):
            continue
        name = said[0]
        if name not in layer_votes:
            layer_votes[name] = 1
            second_axis.add(name)
    for name in layer_votes:  # (an object's attribute by its own name: `config.depth`)
        if name in layer_hints or _LAYER_HINT.search(name.rpartition(".")[2]):
            layer_votes[name] += 2
        elif name in facts.layer_named:  # by the name the class gives it
            layer_votes[name] += 2
    for name in [
        n
        for n in layer_votes
        if _not_tokens(n)
        and n not in layer_hints
        and not _LAYER_HINT.search(n.rpartition(".")[2])  # `num_hidden_layers` says layers
    ]:
        del layer_votes[name]  # heads, experts, dims... count no layers either (`num_heads`)
    layers = _best(layer_votes, needed=2)
    if layers is None:
        return None
    return _tokens_along(facts, counts, layers, token_hints, layers in second_axis)


def _says_tokens(attribute: str) -> bool:
    """Does a kept count's name say it counts tokens (`capacity_tokens`, `num_tokens`), not
    the tokens of one page (`page_tokens`)?"""
    return attribute.endswith(("tokens", "token")) and not attribute.startswith(
        ("page", "block", "chunk")
    )


def _tokens_along(
    facts: Facts,
    counts: set[str],
    layers: str,
    token_hints: frozenset[str],
    second: bool = False,
) -> Roles | None:
    """The token count: the leading dimension, after the layers, of per-layer allocations."""
    token_votes: dict[str, int] = {}
    block_candidates: set[str] = set()
    sequence_candidates: set[str] = set()
    attributes: set[str] = set()  # `self.x` leading dimensions (a host's own count)
    budget_parts: set[str] = set()  # byte budgets a leading dimension is computed from
    leading_counts: list[set[str]] = []  # the counts each leading dimension reads
    direct: set[str] = set()  # parameters leading a dimension not through such an attribute
    for dims, keys, around in zip(facts.shapes, facts.shape_keys, facts.shape_ranges):
        rest = [(d, k) for d, k in zip(dims, keys) if layers not in d or k is not None]
        rest = [(d, k) for d, k in rest if not (len(d) == 1 and layers in d)]
        # (`self.num_layers = cfg.num_hidden_layers // pp_size`: the layer axis, kept as such)
        rest = [(d, k) for d, k in rest if not (layers in d and _names_layers(k))]
        if len(rest) == len(dims) and not {layers, "." + layers} & around:
            continue  # neither in a loop over the layers nor with a layer dimension
        first = next(((d, k) for d, k in rest if d), None)
        through = first is not None and first[1] is not None and first[1].startswith("self.")
        if through:
            attributes.add(first[1].removeprefix("self."))
        rest = [d for d, _ in rest]
        leading = next((d for d in rest if d & counts), None)
        if leading is None:
            continue
        budget_parts |= {n for n in leading if n in facts.params and names_a_budget(n)}
        leading_counts.append(leading & counts)
        for name in leading & counts:
            token_votes[name] = token_votes.get(name, 0) + 2
            if not through:
                direct.add(name)
        for dim in rest:
            block_candidates |= {n for n in dim & counts if _BLOCK_HINT.search(n)}
            sequence_candidates |= {n for n in dim & counts if _SEQ_HINT.search(n)}
        for key in keys:  # a sequence length the pool keeps (`self.max_seq_len`, maybe
            attribute = (key or "").rpartition(".")[2]  # read off its device: `cache.`)
            if key and "." in key and _SEQ_HINT.search(attribute):
                sequence_candidates.add(attribute)
        for key in keys:  # tokens per block read off an object: `gpu_cache.block_size`
            attribute = (key or "").rpartition(".")[2]
            if key and "." in key and _BLOCK_HINT.search(attribute):
                block_candidates.add(attribute)
    # a block size the pool keeps (`self.block_size = gpu_cache.block_size`)
    block_candidates |= {a for a in facts.own if _BLOCK_HINT.search(a)}
    for name in [n for n in token_votes if _not_tokens(n) and n not in token_hints]:
        del token_votes[name]
    # the layer count, read by a kept count (`self.max_tokens = budget // (row * num_layers)`),
    # counts no tokens
    token_votes.pop(layers, None)
    for name in token_votes:
        if name in token_hints or _TOKEN_HINT.search(name):
            token_votes[name] += 2
        elif _BATCH_HINT.search(name.rpartition(".")[2]) and sequence_candidates - {name}:
            token_votes[name] += 1  # rows of whole sequences: a batch, then their length
        if facts.params[name].default is None:
            token_votes[name] += 1
    if len(attributes) == 1 and layers in facts.params and layers not in counts:
        # a host (its layers are its device's) leading with its own count: what that count
        # is computed from (`self.n = int(gib * 2**30) // row_bytes`, a byte budget) counts
        # no tokens itself, however many buffers lead with it, unless named for tokens
        # (`self.num_blocks = cfg.host_cache_tokens // block`)
        token_votes = {
            n: v
            for n, v in token_votes.items()
            if n in direct or n in token_hints or _TOKEN_HINT.search(n)
        }
    budgets = set()
    if len(attributes) == 1:
        # a byte budget a kept count is computed from (`self.num_slots = budget_bytes //
        # token_bytes(cfg)`) counts no tokens: the pool is measured per row it holds
        budgets = {n for n in {*token_votes, *budget_parts} if names_a_budget(n)} - direct
        token_votes = {n: v for n, v in token_votes.items() if n not in budgets}
        if budgets:  # the others it is computed from size one row (`page_bytes`: heads,
            # dims, a shard count): none of them counts the rows a budget buys
            token_votes = {n: v for n, v in token_votes.items() if n in direct}
    tokens = _best(token_votes, needed=3)
    if tokens is None and len(attributes) == 1 and layers in facts.params:
        if layers not in counts or budgets:  # a host (its own count, computed from its
            (attribute,) = attributes  # device), or a pool sized by a byte budget
            evidence = f"tokens along self.{attribute}"
            kept = None  # pages of a size it keeps (`self.page_size = gpu.page_size`); a
            # budget's rows are measured as held (measure.py), whatever they are
            if (
                budgets
                and block_candidates - {attribute}
                and not ROWS_OF_BLOCKS.search(attribute)
                and not _says_tokens(attribute)
            ):
                # rows of several tokens each (a `chunk_page_size` dimension) under a name that
                # does not say so (`capacity`): how many tokens a row holds is not said; one
                # saying tokens (`capacity_tokens`, rounded to whole pages) counts them
                return None
            paged = _COUNTS_BLOCKS.search(attribute) and not _BLOCK_HINT.search(attribute)
            if paged and not budgets and not any(names_a_budget(p) for p in facts.params):
                own = {a for a in block_candidates - {attribute} if a in facts.own}
                kept = min(own, default=None)
                if kept is not None:
                    evidence += f" (blocks of {kept} tokens)"
            return Roles(None, layers, kept, evidence, attribute, budget=bool(budgets))
    if tokens is None or tokens == layers:
        return None
    block = None
    if not _BLOCK_HINT.search(tokens) and _COUNTS_BLOCKS.search(tokens):
        # an attribute the pool holds before one read off a config object (`config.page_size`);
        # none: blocks of a size the pool does not say (its figures are unresolved, never
        # taken per block)
        block = min(block_candidates - {tokens}, key=lambda n: ("." in n, n), default=UNSAID_BLOCK)
        if block == UNSAID_BLOCK:  # a module constant in its shapes (`BLOCK_SIZE`)
            block = _constant_block(facts, tokens) or UNSAID_BLOCK
    if block is None and _SEQ_HINT.search(tokens.rpartition(".")[2]):
        # a batch of sequences in one dimension (`self.max_tokens = batch_size * max_seq_len`):
        # rows of whole sequences, as a batch dimension of its own is
        batches = {
            n
            for dim in leading_counts
            if tokens in dim
            for n in dim - {tokens}
            if _BATCH_HINT.search(n.rpartition(".")[2])
        }
        if len(batches) == 1:
            tokens, block = batches.pop(), tokens
    if block is None and (
        _BATCH_HINT.search(tokens.rpartition(".")[2])
        or tokens.rpartition(".")[2] in ("slots", "num_slots")
    ):
        # rows of whole sequences: as many tokens each as the sequence length it keeps (a
        # swap space's `num_slots` rows of `self.max_seq_len` tokens)
        kept = {n for n in sequence_candidates - {tokens} if n in facts.own}
        block = min(kept, default=None)
    kind = "a per-layer list" if layers in facts.per_layer else "a leading layer dimension"
    if second and layers not in facts.per_layer:
        kind = "a layer dimension after the blocks"
    evidence = f"{kind} over {layers}, tokens along {tokens}"
    if block == UNSAID_BLOCK:
        evidence += " (blocks of a size it does not name)"
    elif block is not None:
        evidence += f" (blocks of {block} tokens)"
    return Roles(tokens, layers, block, evidence, start=facts.range_starts.get(layers))


def _constant_block(facts: Facts, tokens: str) -> str | None:
    """A module constant named for a block size (`BLOCK_SIZE`, `PAGE_SIZE`) beside the block
    count in the shapes it leads (`(num_blocks, 2, BLOCK_SIZE, heads, dim)`): the tokens per
    block, which evaluation reads off the module (evaluate._constant_blocks)."""
    found = {
        key
        for dims, keys in zip(facts.shapes, facts.shape_keys)
        if any(tokens in dim for dim in dims)
        for key in keys
        if key
        and key.isupper()
        and key.isidentifier()
        and key not in facts.params
        and _BLOCK_HINT.search(key.lower())
    }
    return found.pop() if len(found) == 1 else None


def _names_layers(key: str | None) -> bool:
    """Is this `self.` attribute or local named for a layer count (`self.num_layers`)?"""
    return key is not None and bool(_LAYER_HINT.search(key.rpartition(".")[2]))


def _not_tokens(name: str) -> bool:
    """Named for something a token count never is: experts, heads, dims... (`_OTHER_COUNT`),
    or tokens per block (`page_size`, `block_size`)."""
    return bool(_OTHER_COUNT.search(name) or _BLOCK_HINT.search(name.rpartition(".")[2]))


# (`local_buffer_size`, `segment_size`: the bytes of a region, as transfer stores size one)
# named for bytes (`free_bytes`, `cpu_gib`, `gpu_mem`); a budget may also be a buffer's size
# (`arena_size`), which as often counts slots
_BYTES_WORDS = r"bytes|budget|(^|_)gi?b$|(^|_)mem(ory)?$"
_BYTES = re.compile(f"({_BYTES_WORDS})")
_BUDGET = re.compile(f"({_BYTES_WORDS}|(buffer|segment|region|arena)_size$)")


def names_a_budget(name: str) -> bool:
    """Named for a size in bytes (`budget_bytes`, `gpu_mem`, `cpu_gib`), never a count."""
    return bool(_BUDGET.search(name.rpartition(".")[2]))


def names_bytes(name: str) -> bool:
    """Named (its last attribute) for bytes, not for a buffer's size (`kv_buffer_size`)."""
    return bool(_BYTES.search(name.rpartition(".")[2]))


def names_a_count(name: str) -> bool:
    """A token count, a block size or a layer count (`size`, `page_size`, `n_layers`): what
    any pool has, so no evidence of whose figures a class copies."""
    last = name.rpartition(".")[2]
    return says_tokens(last) or bool(_BLOCK_HINT.search(last)) or "layer" in last


def counts_no_layers(name: str) -> bool:
    """Named (its last attribute) for heads, experts, dims or tokens (`kv_pool.head_num`,
    `req_to_token_pool.size`), and not for layers (`num_hidden_layers` is a layer count)."""
    last = name.rpartition(".")[2]
    if _LAYER_HINT.search(last):
        return False
    return bool(_OTHER_COUNT.search(last)) or says_tokens(last)


def says_tokens_per_block(name: str) -> bool:
    """Does a name (its last attribute) say tokens per block (`block_size`, `page_len`)?"""
    return bool(_BLOCK_HINT.search(name.rpartition(".")[2]))


def says_tokens(name: str) -> bool:
    """Does a name (its last attribute) say it counts tokens (`max_tokens`, `num_blocks`)?"""
    last = name.rpartition(".")[2]
    return (
        bool(_TOKEN_HINT.search(last))
        and not _OTHER_COUNT.search(last)
        and not _BLOCK_HINT.search(last)
    )


def rows_of_sequences(tokens: str | None, block: str | None) -> bool:
    """Are `tokens` rows of whole sequences (`max_batch_size`), `block` tokens each (the
    sequence length the pool keeps, `max_cache_len`)? A batch count says tokens as a token
    count does, when the pool keeps the length of the sequences it holds."""
    if tokens is None or block is None:
        return False
    last = tokens.rpartition(".")[2]
    return bool(_BATCH_HINT.search(last) and _SEQ_HINT.search(block.rpartition(".")[2]))


def _best(votes: dict[str, int], needed: int) -> str | None:
    """The single best-voted name with at least `needed` votes, else None (a tie says nothing)."""
    ranked = sorted(votes.items(), key=lambda item: (-item[1], item[0]))
    if not ranked or ranked[0][1] < needed:
        return None
    if len(ranked) > 1 and ranked[1][1] == ranked[0][1]:
        return None
    return ranked[0][0]


def methods_of(node: ast.ClassDef) -> list[ast.AST]:
    """The functions defined in a class body (any depth outside nested classes)."""
    found: list[ast.AST] = []
    stack: list[ast.AST] = list(node.body)
    while stack:
        item = stack.pop()
        if isinstance(item, (ast.FunctionDef, ast.AsyncFunctionDef)):
            found.append(desugared(item))  # `list(map(alloc, ...))` read as a comprehension
        elif not isinstance(item, ast.ClassDef):
            stack.extend(ast.iter_child_nodes(item))
    return found


def constructor(node: ast.ClassDef) -> ast.FunctionDef | ast.AsyncFunctionDef | None:
    return next(
        (
            m
            for m in node.body
            if isinstance(m, (ast.FunctionDef, ast.AsyncFunctionDef)) and m.name == "__init__"
        ),
        None,
    )


def given_to_base(
    init: ast.FunctionDef | ast.AsyncFunctionDef, base: ast.FunctionDef | ast.AsyncFunctionDef
) -> ast.FunctionDef | ast.AsyncFunctionDef | None:
    """The base class's `__init__` as the subclass's constructor calls it (`super().__init__(
    cfg.max_tokens + 1, cfg.num_kv_heads, ...)`): a copy binding each of its parameters to
    what the call passes (`size = cfg.max_tokens + 1`) before its body, so that what it keeps
    (`self.size = size`) reads the subclass's own parameters. None when the constructor makes
    no such call, or passes `*args`/`**kwargs` (which parameter gets what is not written)."""
    call = next(
        (
            n
            for n in ast.walk(init)
            if isinstance(n, ast.Call)
            and isinstance(n.func, ast.Attribute)
            and n.func.attr == "__init__"
            and isinstance(n.func.value, ast.Call)
            and _dotted(n.func.value.func) == "super"
        ),
        None,
    )
    if call is None or any(isinstance(a, ast.Starred) for a in call.args):
        return None
    if any(k.arg is None for k in call.keywords):
        return None
    arguments = base.args
    positional = [a.arg for a in [*arguments.posonlyargs, *arguments.args]][1:]  # (`self`)
    if len(call.args) > len(positional) or arguments.vararg or arguments.kwarg:
        return None
    given: dict[str, ast.expr] = dict(zip(positional, call.args))
    names = set(positional) | {a.arg for a in arguments.kwonlyargs}
    for keyword in call.keywords:
        if keyword.arg not in names or keyword.arg in given:
            return None
        given[keyword.arg] = keyword.value
    given = {n: v for n, v in given.items() if not (isinstance(v, ast.Name) and v.id == n)}
    if not given:
        return None
    stored = {
        n.id for n in ast.walk(base) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store)
    }
    if stored & set(given):  # (a parameter bound again in the body: not one value)
        return None
    copied = _Substituted(given).visit(copy.deepcopy(base))
    return ast.fix_missing_locations(copied)


class _Substituted(ast.NodeTransformer):
    """Each read of a given name replaced by (a copy of) what it is given."""

    def __init__(self, given: dict[str, ast.expr]) -> None:
        self.given = given

    def visit_Name(self, node: ast.Name) -> ast.expr:
        if isinstance(node.ctx, ast.Load) and node.id in self.given:
            return ast.copy_location(copy.deepcopy(self.given[node.id]), node)
        return node


# in mirrored_names: an untyped parameter whose buffers the class reads, or whose attributes
# size its allocations
UNTYPED_MIRROR = "?"


def outline_facts(
    node: ast.ClassDef, per_layer_bytes: bool = True, helpers: dict | None = None
) -> tuple[bool, frozenset[str]]:
    """For the per-file outline: does this class alone allocate like a pool (per layer and per
    token from its own constructor's parameters), and, if it allocates tensors, the names its
    constructor's parameters are annotated with (it may mirror a pool of one of those names;
    `UNTYPED_MIRROR` if an untyped parameter's buffer-like attributes are read, or its
    attributes size an allocation). Without
    `per_layer_bytes` (its file's bytes match PER_LAYER_BYTES), neither the first nor
    `UNTYPED_MIRROR`: what the pre-filter does not check up front, the outline must not keep.
    `helpers`: its module's functions that only return an expression, read where called."""
    init = constructor(node)
    if init is None and per_layer_bytes and allocating_base(node):
        return True, frozenset()  # its subclasses may be pools: kept, as a pool's are
    if init is None:
        return False, frozenset()
    written = _walk(node)
    if not any(_is_allocation(n) for n in written) and not (
        # (`zeros(shape)` of `zeros = functools.partial(torch.zeros, ...)`, desugared)
        any(_is_partial(n) for n in written)
        and any(_is_allocation(n) for m in methods_of(node) for n in _walk(m))
    ):
        return False, frozenset()
    params = params_of(init)
    functions = shape_methods(methods_of(node))  # `torch.empty(self.shape())`
    facts = read_facts(returns_inlined(functions, helpers or {}), params)
    if per_layer_bytes and infer_roles(facts) is not None:
        return True, frozenset()
    # counted off an object (`range(cfg.num_layers)`): kept whatever its annotations name, so
    # that the catalog can say it is not audited (or pair it, if it mirrors a pool)
    counted_off_object = per_layer_bytes and (
        bool(facts.range_paths) or _ranged_own_allocation(init, node)
    )
    iterated = _iterated_objects(init)
    names: set[str] = set()
    for argument in (*init.args.posonlyargs, *init.args.args, *init.args.kwonlyargs):
        if argument.annotation is not None:
            for part in _walk(argument.annotation):
                if isinstance(part, ast.Name):
                    names.add(part.id)
                elif isinstance(part, ast.Attribute):
                    names.add(part.attr)
                elif isinstance(part, ast.Constant) and isinstance(part.value, str):
                    names.update(re.findall(r"\w+", part.value))
        elif per_layer_bytes and (
            argument.arg in facts.sized_by
            or any(_BUFFER_WORD.search(a) for a in facts.read_attributes.get(argument.arg, ()))
            or argument.arg in iterated
        ):
            names.add(UNTYPED_MIRROR)
    return counted_off_object, frozenset(names - _NOT_CLASSES)


def _is_partial(node: ast.AST) -> bool:
    return isinstance(node, ast.Call) and _dotted(node.func) in ("partial", "functools.partial")


def _ranged_own_allocation(init: ast.FunctionDef, node: ast.ClassDef) -> bool:
    """`for _ in range(config.num_layers): self.create_layer(device)`, where its own
    `create_layer` allocates: per layer over a count read off an object, by a method."""
    allocating = {
        f.name for f in methods_of(node) if f is not init and any(map(_is_allocation, _walk(f)))
    }
    for loop in _walk(init):
        if not (
            isinstance(loop, ast.For)
            and isinstance(loop.iter, ast.Call)
            and _dotted(loop.iter.func) == "range"
            and any(isinstance(a, ast.Attribute) for a in loop.iter.args)
        ):
            continue
        for call in _walk(loop):
            if (
                isinstance(call, ast.Call)
                and isinstance(call.func, ast.Attribute)
                and _dotted(call.func.value) == "self"
                and call.func.attr in allocating
            ):
                return True
    return False


def allocating_base(node: ast.ClassDef) -> bool:
    """A class with no constructor whose methods allocate per layer (`for _ in
    range(self.depth)` around an allocation, or a leading dimension named for layers:
    `torch.zeros((self.n_layer, *shape))`): a mixin or private base that the pools deriving
    from it call to make their buffers. Not a pool itself (no constructor to count with)."""
    if constructor(node) is not None:
        return False
    for function in methods_of(node):
        for loop in _walk(function):
            if isinstance(loop, (ast.For, ast.ListComp, ast.GeneratorExp)):
                iters = (
                    [loop.iter] if isinstance(loop, ast.For) else [g.iter for g in loop.generators]
                )
                ranged = [
                    i for i in iters if isinstance(i, ast.Call) and _dotted(i.func) == "range"
                ]
                if ranged and allocates(loop):
                    return True
                # (its own allocator method's, over a range saying layers: `[self._empty(
                # shape) for _ in range(self.depth)]`; `range(self.num_wrappers)` is none)
                if any(map(_over_layers, ranged)) and any(map(_own_allocator_call, _walk(loop))):
                    return True
        for call in _walk(function):
            if _is_allocation(call) and call.args:  # type: ignore[union-attr]
                first = call.args[0]  # type: ignore[union-attr]
                dims = first.elts if isinstance(first, (ast.Tuple, ast.List)) else [first]
                name = (_key(dims[0]) or "").rpartition(".")[2] if dims else ""
                if len(dims) >= 2 and _LAYER_HINT.search(name):
                    return True
    return False


_OWN_ALLOCATOR = re.compile(rb"(?i)" + _ALLOCATOR_WORDS)  # (as PER_LAYER_BYTES reads them)


def _over_layers(call: ast.Call) -> bool:
    """`range(self.depth)`, `range(cfg.num_layers)`: a range whose last argument says layers."""
    key = _key(call.args[-1]) if call.args else None
    return key is not None and _LAYER_HINT.search(key.rpartition(".")[2]) is not None


def _own_allocator_call(node: ast.AST) -> bool:
    """`self._empty(shape, dtype)`: a call of a method of the class (maybe its base's, in
    another file) whose name says it allocates, as PER_LAYER_BYTES reads `.append(self._alloc(`."""
    own = _own_call(node)
    return own is not None and _OWN_ALLOCATOR.search(own.encode()) is not None


# names an annotation holds that are never a pool class of the audited tree
_NOT_CLASSES = frozenset(
    "int float str bool bytes None list dict tuple set object type Any Optional List Dict Tuple "
    "Union Sequence Callable Iterable Mapping Literal torch dtype device Tensor typing".split()
)
_BUFFER_WORD = re.compile(r"(buffer|_buf$|cache$|_pool$)")


def _iterated_objects(init: ast.FunctionDef) -> set[str]:
    """Parameters whose attribute a constructor iterates, sizing something off each item
    (`[t.numel() // ctx.n_ctx for t in ctx.k_l]`, `for t in dev.kv: ... t.shape`): a list of
    another object's tensors, read one per layer, as a mirror of a pool reads its buffers."""
    found: set[str] = set()
    for node in _walk(init):
        loops: list[tuple[ast.expr, ast.AST, list[ast.AST]]] = []
        if isinstance(node, (ast.ListComp, ast.GeneratorExp)):
            loops = [(g.iter, g.target, [node.elt]) for g in node.generators]
        elif isinstance(node, ast.For):
            loops = [(node.iter, node.target, list(node.body))]
        for iterable, target, body in loops:
            if isinstance(iterable, ast.Call) and isinstance(iterable.func, ast.Attribute):
                iterable = iterable.func.value  # `dev.kv.items()`, `dev.kv.values()`
            if not (isinstance(iterable, ast.Attribute) and isinstance(iterable.value, ast.Name)):
                continue
            items = {n.id for n in _walk(target) if isinstance(n, ast.Name)}
            sized = any(
                isinstance(n, ast.Attribute)
                and n.attr in ("shape", "numel", "size", "nbytes", "dtype")
                and isinstance(n.value, ast.Name)
                and n.value.id in items
                for part in body
                for n in _walk(part)
            )
            if sized:
                found.add(iterable.value.id)
    return found


def field_defaults(node: ast.ClassDef) -> dict[str, str]:
    """The defaults a class body gives its fields (`quant_policy: int = 0` of a dataclass,
    `block_size = 16`), source text; `field(default=...)` too, never a factory."""
    found: dict[str, str] = {}
    for item in node.body:
        if isinstance(item, ast.AnnAssign) and isinstance(item.target, ast.Name) and item.value:
            name, value = item.target.id, item.value
        elif (
            isinstance(item, ast.Assign)
            and len(item.targets) == 1
            and isinstance(item.targets[0], ast.Name)
        ):
            name, value = item.targets[0].id, item.value
        else:
            continue
        if isinstance(value, ast.Call) and (_dotted(value.func) or "").endswith("field"):
            value = next((k.value for k in value.keywords if k.arg == "default"), None)
        if value is not None:
            found.setdefault(name, ast.unparse(value))
    return found


def field_classes(node: ast.ClassDef) -> dict[str, str]:
    """The annotations of a class body's fields whose default builds an object (`cache:
    CacheSpec = field(default_factory=CacheSpec)`, `model: ModelSpec = ModelSpec()`): the
    class named, source text, whose own field defaults are that field's."""
    found: dict[str, str] = {}
    for item in node.body:
        if not (isinstance(item, ast.AnnAssign) and isinstance(item.target, ast.Name)):
            continue
        value, annotation = item.value, _dotted(item.annotation)
        if not isinstance(value, ast.Call) or annotation is None:
            continue
        if (_dotted(value.func) or "").endswith("field"):
            factory = next((k.value for k in value.keywords if k.arg == "default_factory"), None)
            if factory is None or _dotted(factory) != annotation:
                continue
        elif _dotted(value.func) != annotation or value.args or value.keywords:
            continue
        found[item.target.id] = annotation
    return found


def instance_attributes(node: ast.ClassDef) -> set[str]:
    """The attributes a class's own code gives its instances: `self.x = ...` in its methods,
    and the names its body defines (methods, properties, class attributes)."""
    names: set[str] = set()
    for item in node.body:
        if isinstance(item, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names.add(item.name)
        elif isinstance(item, ast.Assign):
            names |= {t.id for t in item.targets if isinstance(t, ast.Name)}
        elif isinstance(item, ast.AnnAssign) and isinstance(item.target, ast.Name):
            names.add(item.target.id)
    for function in methods_of(node):
        for part in _walk(function):
            if isinstance(part, (ast.Assign, ast.AnnAssign, ast.AugAssign)):
                targets = part.targets if isinstance(part, ast.Assign) else [part.target]
                names |= {  # `self.a, self.b = a, b` too
                    t.attr
                    for target in targets
                    for t in _walk(target)
                    if isinstance(t, ast.Attribute)
                    and isinstance(t.value, ast.Name)
                    and t.value.id == "self"
                    and isinstance(t.ctx, ast.Store)
                }
    return names


def only_raises_not_implemented(function: ast.FunctionDef) -> bool:
    """`def row_width(self): raise NotImplementedError` (a docstring allowed): a member its
    subclasses are to define."""
    body = [
        n
        for n in function.body
        if not (isinstance(n, ast.Expr) and isinstance(n.value, ast.Constant))
    ]
    if len(body) != 1 or not isinstance(body[0], ast.Raise) or body[0].exc is None:
        return False
    raised = body[0].exc.func if isinstance(body[0].exc, ast.Call) else body[0].exc
    return _dotted(raised) == "NotImplementedError"


def self_reads(function: ast.FunctionDef) -> list[str]:
    """The names a method reads or calls off `self` (`self._alloc()`, `self.row_width`)."""
    return sorted(
        {
            n.attr
            for n in _walk(function)
            if isinstance(n, ast.Attribute)
            and isinstance(n.value, ast.Name)
            and n.value.id == "self"
            and isinstance(n.ctx, ast.Load)
        }
    )
