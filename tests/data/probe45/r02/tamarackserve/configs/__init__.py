from .model_config import ModelConfig, ServeArgs

__all__ = ["ModelConfig", "ServeArgs"]
