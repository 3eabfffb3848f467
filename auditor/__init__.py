"""layout-audit: a static auditor for KV-cache pool layouts in LLM serving code."""

__version__ = "0.1.0"
