from llamette.context import LlamaContext, ContextParams

__all__ = ["LlamaContext", "ContextParams"]
