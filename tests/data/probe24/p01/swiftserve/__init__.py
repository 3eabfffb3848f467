"""swiftserve: a trimmed vLLM fork used by the batch-inference team."""

__version__ = "0.4.2"
