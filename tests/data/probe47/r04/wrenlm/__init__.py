"""wrenlm: inference server with interleaved sliding-window / global attention support."""
