"""Deployment constants baked at image build time (see deploy/values.yaml)."""
import torch

NUM_LAYERS = 4
NUM_KV_HEADS = 8
HEAD_DIM = 64
TP_SIZE = 2

GPU_CAPACITY = 128      # tokens
SWAP_CAPACITY = 256     # tokens
KV_DTYPE = torch.float16
