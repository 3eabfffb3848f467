"""vLLM v0 fork with a pluggable swap backend for preempted sequences."""
