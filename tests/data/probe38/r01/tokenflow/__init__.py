"""tokenflow: a small token-granular LLM serving runtime (router + model workers)."""

__version__ = "0.3.1"
