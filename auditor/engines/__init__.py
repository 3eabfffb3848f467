"""Engine models: what each serving engine's KV-layout agreements look like in its code."""
