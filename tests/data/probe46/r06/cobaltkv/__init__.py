"""cobaltkv: KV arena with a CPU mirror for preemption by swap-out."""
