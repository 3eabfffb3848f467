"""Disaggregated serving: prefill instances hand KV over to decode instances."""
