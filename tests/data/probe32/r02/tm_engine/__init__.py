"""Python port of the TurboMind block cache used by our PyTorch backend."""
