"""What a buffer holds, as its name says it: K, V, or the whole cache, with scales or without.

Two pools that agree byte for byte do not always name their buffers alike: a snapshot keeps the
cache's `k_l`, `v_l` as `k_rows`, `v_rows`; a spill buffer keeps `kv_data`, `kv_scales` as
`page_bufs`, `scale_bufs`. Where no name is shared, the storages are matched by what their
names say they hold, and only when that matches every storage of one side with exactly one of
the other (never a guess between two candidates). Used by the checks to find a host buffer's
counterpart (checks/wording.py) and by pairing to see that two sibling pools hold the same
storages (pairing/siblings.py).
"""

from __future__ import annotations

import re

# K or V, as buffer names say it; words that say where a buffer is, how it is kept or which
# model it serves (a draft model's cache beside the target's), not what it holds; and words of a buffer holding scales (or scales and zero points) beside K or V
_ROLES = {"k": "k", "key": "k", "keys": "k", "v": "v", "value": "v", "values": "v"}
_PLACE = frozenset(
    "host device gpu cpu cuda swap pinned buf bufs buffer buffers cache caches cached row rows l "
    "layer layers pool data page pages block blocks tensor tensors mirror snapshot store "
    "storage states staging per of by all draft target view views region regions arena slab slabs "
    "wire spill offload shadow transfer remote local peer send recv primary secondary tier stage".split()
)
_SCALES = frozenset("scale scales zero zeros sz".split())
# one storage said two ways: a Mamba layer's SSM state is its "temporal" state (SGLang's
# `temporal`, vLLM's `ssm_state`)
_SAME = {"temporal": "ssm", "recurrent": "ssm"}
# said of a storage holding the whole cache (K and V together), where no name says K or V
_WHOLE = frozenset("kv bufs".split())


def words(name: str) -> list[str]:
    """The words of a name; `kcache`, `vbuf` (K or V run into a word of place) as two."""
    words = []
    for word in (w for w in re.split(r"[_\d]+", name.lower()) if w):
        if word[0] in "kv" and word[1:] in _PLACE:
            words.extend((word[0], word[1:]))
        else:
            words.append(word)
    return words


def role(name: str) -> tuple[str, frozenset[str]] | None:
    """`k_rows`, `host_k`, `k_l`: ("k", {}); `k_scales_zeros`, `host_k_sz`: ("k", {"scale"});
    None for a name saying neither K nor V, or both."""
    found = words(name)
    roles = {_ROLES[w] for w in found if w in _ROLES}
    if len(roles) != 1:
        return None
    rest = {"scale" if w in _SCALES else w for w in found if w not in _ROLES}
    return roles.pop(), frozenset(rest - _PLACE)


def whole_role(name: str) -> frozenset[str] | None:
    """For a name saying neither K nor V: what else it says it holds (`kv_data`, `page_bufs`:
    {}; `kv_scales`, `scale_bufs`: {"scale"}); None for a name saying K or V."""
    found = words(name)
    if any(w in _ROLES for w in found):
        return None
    rest = {"scale" if w in _SCALES else _SAME.get(w, w) for w in found}
    said = frozenset(rest - _PLACE - _WHOLE)
    # `conv_state`, `ssm_state`: the state of what the other word says; `kv_state` alone
    # (a linear-attention state beside a KV cache) is a state, not the cache
    return said - {"state"} if len(said) > 1 else said


def _either(name: str) -> tuple[str, frozenset[str]] | None:
    """K or V as `role` reads it, else scales of the whole cache (`scale_store` beside
    `k_store`, `v_store`: the scales of both); a whole cache beside K alone is no reading."""
    said = role(name)
    if said is not None:
        return said
    whole = whole_role(name)
    return ("kv", whole) if whole is not None and "scale" in whole else None


def matching(own: list[str], theirs: list[str]) -> dict[str, str] | None:
    """Each of `own` with the one of `theirs` holding the same, when the names pair every
    storage of either side with exactly one of the other: by K or V (and scales or not) when
    every name says K or V alone, else, when no name says K or V, by what else they say (the
    whole cache, its scales), else each by whichever of the two it says (`k_store`, `v_store`,
    `scale_store`); None otherwise."""
    if not own or not theirs or len(own) != len(theirs):
        return None
    for reading in (role, whole_role, _either):
        mine = {n: reading(n) for n in own}
        other = {n: reading(n) for n in theirs}
        if None in mine.values() or None in other.values():
            continue
        if len(set(mine.values())) != len(mine) or len(set(other.values())) != len(other):
            return None
        if set(mine.values()) != set(other.values()):
            return None
        by_role = {said: n for n, said in other.items()}
        return {n: by_role[said] for n, said in mine.items()}
    return None


def kept_whole(whole: str, parts: list[str]) -> bool:
    """Does `whole` name the whole KV cache (`kv`, `kv_data`: neither K nor V, nor scales) that
    `parts` keep as K and V, each alone and said alike (`k_cache`, `v_cache`)? A spill area
    stacking `[2, layers, tokens, ...]` beside a store of one tensor for K, one for V."""
    if "kv" not in words(whole) or whole_role(whole) != frozenset() or len(parts) != 2:
        return False  # (`kv` said: a bare `states`, `buffer`, `data` is no KV cache)
    said = [role(part) for part in parts]
    if None in said:
        return False
    (one, rest_one), (two, rest_two) = said  # type: ignore[misc]
    return {one, two} == {"k", "v"} and rest_one == rest_two == frozenset()
