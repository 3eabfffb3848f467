"""tidepool: hierarchical KV caching (GPU pool + pinned host mirror)."""
