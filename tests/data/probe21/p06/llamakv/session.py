import torch


class SessionSpill:
    """Staging area used when spilling cells to disk (llama_state_seq_save_file)."""

    def __init__(self, ctx, n_tokens: int, device="cpu"):
        self.n_tokens = n_tokens
        self.n_layer = ctx.n_layer
        self.k_rows = [t.numel() // ctx.n_ctx for t in ctx.k_l]
        self.v_rows = [t.numel() // ctx.n_ctx for t in ctx.v_l]
        self.k_l = [torch.empty((n_tokens, r), dtype=torch.uint8, device=device) for r in self.k_rows]
        self.v_l = [torch.empty((n_tokens, r), dtype=torch.uint8, device=device) for r in self.v_rows]

    def gather(self, ctx, cells):
        for il in range(self.n_layer):
            k = ctx.k_l[il].view(ctx.n_ctx, -1)
            v = ctx.v_l[il].view(ctx.n_ctx, -1)
            self.k_l[il][: len(cells)] = k[cells]
            self.v_l[il][: len(cells)] = v[cells]

    def write(self, fh, n):
        for il in range(self.n_layer):
            fh.write(self.k_l[il][:n].cpu().numpy().tobytes())
            fh.write(self.v_l[il][:n].cpu().numpy().tobytes())
