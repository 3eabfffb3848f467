"""plover: block-paged inference engine with CPU swap space."""
