"""Prefill/decode disaggregated serving: paged KV pool plus an RDMA-registered transfer buffer."""
