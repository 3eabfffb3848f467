"""Constants shared by both ends of the KV transfer."""

# Transfers are chunked per 64 latent channels so a chunk of scales maps to
# one RDMA descriptor on the receiving side.
SCALE_GROUP = 64
# Receivers allocate their buffers before the handshake completes.
EAGER_ALLOC = True
