"""lynxinfer: hybrid sliding/global attention serving."""
