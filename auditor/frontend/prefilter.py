"""Which files can matter, from their bytes alone: most files of an engine hold no pool class.

CPython's check of a file (parse.file_facts: compile to a syntax tree, then a walk over it)
costs about a millisecond per file; over a 4,700-file engine that is most of a cold run. A pool
class has an `__init__` taking a layer-count, device-pool or buffer-info parameter (pairing.py),
or derives from such a class; a file can hold one only if its bytes say so:

1. an `__init__` parameter list in it holds one of those names, or it has an `__init__` and
   allocates torch tensors per layer (a pool recognised by what it allocates, behaviour.py:
   `[torch.zeros(...) for _ in range(n)]`, `.append(torch.zeros(...))`, a first dimension
   naming layers), or it holds a suppression comment; or
2. one of its `class` headers names, in its bases, a class that may be a pool (by the outlines
   of the files checked so far), directly or through an `import ... as` alias, or it allocates
   tensors and an `__init__` parameter list names such a class (a mirror of it); or
3. it binds such a class under another name (`from .pool import KVPool as Exported`): a file
   may derive from the new name.

Only those files are checked up front; (2) and (3) are repeated until no file joins. Any other file is
checked when the interpreter first needs it (an import it resolves), before libcst sees it
(parse.ParsedModule.tree). So a syntax error in a file no pool can reach is not reported: the
audit does not read that file. Searching bytes may take in too much (a word in a comment), never
too little of what the outlines would find: a class header is `class Name(bases):` however it
is spelled in between, and an alias must be written in the importing file.

The rounds (`checked_facts`) and the rule the bytes stand in for (`outline_rule`, over CPython's
outlines) live here too: the pre-filter is this one module.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from auditor.frontend.behaviour import ALLOCATION_BYTES, UNTYPED_MIRROR, per_layer_bytes
from auditor.frontend.parse import (
    ClassOutline,
    FileError,
    LateParseError,
    Outline,
    ParsedModule,
    check_facts,
    outline_from_json,
)
from auditor.frontend.workers import check_all

# `class Name(` then the bases up to the header's colon (a literal prefix: fast in `re`)
_HEADER = re.compile(rb"class[ \t]+\w+[ \t]*\(([^:]*):")
_WORD = re.compile(rb"\w+")
# `def __init__(` then its parameters, up to the `)` the return annotation or colon follows
_INIT_PARAMS = re.compile(rb"def[ \t]+__init__[ \t]*\((.*?)\)[ \t\\\n]*(?:->|:)", re.DOTALL)
_AS = re.compile(rb" as[ \t\\\n]+(\w+)")  # `x as y`: y (x is the word before it)
_LAST_WORD = re.compile(rb"(\w+)[ \t\\\n]*$")
SUPPRESSION_MARK = b"layout-audit"  # what parse.may_suppress looks for (case aside)


def may_define_pools(data: bytes, words: Iterable[bytes]) -> bool:
    """Rule (1): an `__init__` whose parameter list holds a pool parameter name, or a
    suppression comment."""
    if per_layer_bytes(data):  # (a class with no `__init__` of its own may be a
        return True  # base whose subclasses allocate through it: behaviour.allocating_base)
    if b"__init__" in data:
        parameters = _INIT_PARAMS.findall(data)
        if any(word in text for text in parameters for word in words):
            return True
    return SUPPRESSION_MARK in data.lower()


class BaseNames:
    """The names each file's class headers give as bases, and the `x as y` pairs it writes,
    worked out once per file (both searches have a literal prefix, so `re` skips ahead fast)."""

    def __init__(self, every_base: set[bytes] | None = None) -> None:
        # names any file's class header gives as a base: a name bound with `as` that no class
        # derives from cannot make a re-export matter
        self.every_base = every_base if every_base is not None else set()
        self._bases: dict[int, frozenset[bytes]] = {}
        self._bound: dict[int, frozenset[bytes]] = {}
        self._aliases: dict[int, tuple[tuple[bytes, bytes], ...]] = {}
        self._init_words: dict[int, frozenset[bytes]] = {}

    def needs_check(self, key: int, data: bytes, names: set[bytes]) -> bool:
        """Rules (2) and (3): a class header of `data` names one of `names` among its bases
        (or a name the file binds to one of them with `as`), or the file binds one of them
        under another name (a re-export other files may derive from)."""
        bases = self.bases_of(key, data)
        if bases & names:
            return True
        if self._mirrors(key, data, names):
            return True
        bound = self._bound.get(key)  # cheap: the names an alias pair could matter through
        if bound is None:
            bound = self._bound[key] = frozenset(_AS.findall(data))
        if not bound & bases and not bound & self.every_base:
            return False
        return any(
            original in names and (bound in bases or bound not in names)
            for original, bound in self._aliases_of(key, data)
        )

    def _mirrors(self, key: int, data: bytes, names: set[bytes]) -> bool:
        """Does an `__init__` parameter list name one of `names`, in a file that allocates?"""
        words = self._init_words.get(key)
        if words is None:
            words = frozenset()
            if b"__init__" in data and ALLOCATION_BYTES.search(data):
                words = frozenset(
                    w for text in _INIT_PARAMS.findall(data) for w in _WORD.findall(text)
                )
            self._init_words[key] = words
        return bool(words & names)

    def bases_of(self, key: int, data: bytes) -> frozenset[bytes]:
        """The names the file's class headers give as bases (remembered)."""
        bases = self._bases.get(key)
        if bases is None:
            bases = frozenset(w for h in _HEADER.findall(data) for w in _WORD.findall(h))
            self._bases[key] = bases
        return bases

    def _aliases_of(self, key: int, data: bytes) -> tuple[tuple[bytes, bytes], ...]:
        aliases = self._aliases.get(key)
        if aliases is None:
            found = []
            for match in _AS.finditer(data):
                start = match.start()
                before = _LAST_WORD.search(data, max(0, start - 200), start)
                if before is not None:
                    found.append((before.group(1), match.group(1)))
            aliases = self._aliases[key] = tuple(found)
        return aliases


def may_be_pool(cls: ClassOutline, words: set[str]) -> bool:
    """By its outline alone: a pool parameter name, allocations per layer and per token, or
    buffers read off an untyped parameter (behaviour.py)."""
    return bool(cls.init_params & words) or cls.behaves or UNTYPED_MIRROR in cls.mirrors


def pool_like_names(outlines: Iterable[Outline], words: set[str]) -> set[bytes]:
    """Names of classes that may be pools or derive from one, by these outlines (the rule of
    outline_rule), with the names they are imported as."""
    names: set[str] = set()
    aliases: list[tuple[str, str]] = []
    pending: list = []
    for shape in outlines:
        aliases.extend(shape.aliases)
        for cls in shape.classes:
            if may_be_pool(cls, words):
                names.add(cls.name)
            else:
                pending.append((cls.name, cls))
    derive_by_name(names, aliases, pending)
    return {name.encode() for name in names}


def derive_by_name(names: set[str], aliases: list[tuple[str, str]], pending: list) -> list:
    """Grow `names` with the classes of `pending` ((key, ClassOutline) pairs) that name one of
    them in their bases, directly or through an `import ... as` alias, until nothing changes;
    the keys of the classes that joined."""
    joined = []
    changed = True
    while changed:
        changed = False
        for original, alias in aliases:
            if original in names and alias not in names:
                names.add(alias)
                changed = True
        still = []
        for key, cls in pending:
            if cls.bases & names:
                names.add(cls.name)
                joined.append(key)
                changed = True
            else:
                still.append((key, cls))
        pending = still
    # a class mirroring one of them (a parameter annotated with its name) is kept, but a
    # class taking a mirror is not a mirror: it does not join the names
    joined.extend(key for key, cls in pending if cls.mirrors & names)
    return joined


_CLASS_NAME = re.compile(r"^[ \t]*class[ \t]+(\w+)", re.MULTILINE)


def pool_words(settings) -> set[str]:
    """The `__init__` parameter names that make a class a possible pool (pairing/catalog.py)."""
    return (
        set(settings.layer_names())
        | set(settings.device_pool_params)
        | set(settings.buffer_info_params)
    )


def outline_rule(parsed: list[ParsedModule], words: set[str]) -> set[int]:
    """The modules (by id) that may define a pool class, or hold a suppression comment.

    A device pool's constructor takes a layer-count parameter and a host pool's a device-pool
    parameter (`words`): a class may be a pool if an `__init__` in its body takes one, or if it
    derives from such a class. Derivation is followed by name, from each file's outline
    (CPython's syntax tree, no libcst): a class naming, in its bases, a class already kept or
    an `import ... as` alias of one is kept too, until nothing changes. Other modules cannot
    define a pool; they are indexed only if resolving a name needs them.
    """
    kept: set[int] = set()
    names: set[str] = set()  # classes that may be pools, or derive from one
    aliases: list[tuple[str, str]] = []
    pending: list[tuple[int, ClassOutline]] = []  # classes not known to be pool-like yet
    for module in parsed:
        if not module.checked:  # the pre-filter found nothing that can matter in it
            continue
        shape = module.outline
        if shape is None:  # CPython did not parse it: every class in it may be a pool
            kept.add(id(module))
            try:
                names.update(_CLASS_NAME.findall(module.tree.code))
            except LateParseError:
                pass
            continue
        if module.may_suppress:
            kept.add(id(module))
        aliases.extend(shape.aliases)
        for cls in shape.classes:
            if may_be_pool(cls, words):
                kept.add(id(module))
                names.add(cls.name)
            else:
                pending.append((id(module), cls))
    kept.update(derive_by_name(names, aliases, pending))
    return kept


def checked_facts(
    files: list, cached: list[dict | None], jobs: int, words: set[str]
) -> list[dict | None]:
    """CPython's check (parse.file_facts) of every readable file that can matter, in rounds
    (rules 1-3 above), taken from `cached` (earlier runs' facts of the same bytes) or computed
    in `jobs` worker processes; None for a file that could not be read or that is left to be
    checked on first need."""
    facts: list[dict | None] = [None] * len(files)
    encoded = [w.encode() for w in words]
    wanted = [
        i
        for i, (_, _, data) in enumerate(files)
        if not isinstance(data, FileError) and may_define_pools(data, encoded)
    ]
    base_names = BaseNames()
    for i, (_, _, data) in enumerate(files):
        if not isinstance(data, FileError):
            base_names.every_base |= base_names.bases_of(i, data)
    shapes, eager_names = [], set()  # of the files checked so far (each round adds)
    while wanted:
        _check_files(wanted, files, cached, facts, jobs)
        for i in wanted:
            known = facts[i]
            if "outline" in known:
                shapes.append(outline_from_json(known["outline"]))
            elif "eager" in known:  # every class in it may be a pool
                text = files[i][2].decode("utf-8", "replace")
                eager_names.update(m.encode() for m in _CLASS_NAME.findall(text))
        names = pool_like_names(shapes, words) | eager_names
        wanted = [
            i
            for i, (_, _, data) in enumerate(files)
            if facts[i] is None
            and not isinstance(data, FileError)
            and base_names.needs_check(i, data, names)
        ]
    return facts


def _check_files(
    wanted: list[int], files: list, cached: list[dict | None], facts: list, jobs: int
) -> None:
    """Fill `facts` for the `wanted` files: from `cached` when it holds them, else computed."""
    missing = []
    for i in wanted:
        known = cached[i]
        if known is not None:
            try:
                facts[i] = check_facts(known)
                continue
            except ValueError:
                pass
        missing.append(i)
    for i, computed in zip(missing, check_all([files[i][2] for i in missing], jobs)):
        facts[i] = computed
