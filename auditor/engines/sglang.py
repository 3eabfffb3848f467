"""SGLang (and forks): the names its KV pools use, and its rule pack (rules/sglang.toml).

- HiCache host pools budget memory and stride copies from their own figure:
  `HostKVCache.__init__` sets `self.size_per_token = self.get_size_per_token()` (LA002).
- 0.5.23 device pools declare their host mirrors as data: `host_pool_decls()` returns
  `HostPoolDecl(device_pool=self, storage_info=HostPoolStorageInfo(bytes_per_token_per_layer=...,
  dtype=...), host_pool_builder=DSAIndexerHostPoolBuilder())`, whose `build` constructs the
  host class (pairing/declared.py).
- 0.5.23 keeps the DSA index-K storage on a helper object built with a back-reference to the
  pool (`IndexKeyCache(self, ...)`) and exposes it as `@property index_k_with_scale_buffer:
  return self.index_key_cache.buffer`, which HiCache copies: such properties are read once the
  pool is built (interpret/facades.py).
Constructor parameter names (`size`, `layer_num`, `device_pool`, `buffer_info`) and the config
matrix are in the rule pack.
"""

from auditor.engines.base import Engine, HostDeclarations, Registry, SizeClaim
from auditor.interpret.facades import expose_buffer_properties

SGLANG = Engine(
    name="sglang",
    rule_pack="sglang",
    loaded_by_default=True,
    size_claims=(SizeClaim(attribute="size_per_token", method="get_size_per_token"),),
    host_declarations=(
        HostDeclarations(
            method="host_pool_decls",
            device_field="device_pool",
            storage_field="storage_info",
            builder_field="host_pool_builder",
            builder_method="build",
            size_field="bytes_per_token_per_layer",
            dtype_field="dtype",
        ),
    ),
    post_build=(expose_buffer_properties,),
)


def register(registry: Registry) -> None:
    registry.add(SGLANG)
