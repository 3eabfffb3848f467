"""tidepool: KV storage for interleaved local/global attention models."""
