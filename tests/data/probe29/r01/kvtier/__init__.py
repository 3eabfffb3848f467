"""kvtier: fused KV pool on the accelerator plus a CPU offload tier."""
