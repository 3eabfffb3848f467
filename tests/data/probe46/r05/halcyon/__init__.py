"""halcyon: KV memory management with a host-side hierarchical mirror."""
