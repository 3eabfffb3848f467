from exl2_serve.cache import ExLlamaV2Cache_Q4
from exl2_serve.config import ExLlamaV2Config, ServeConfig
from exl2_serve.swap import build_swap_for


class DynamicJobServer:
    def __init__(self, device=None, swap_device=None):
        self.config = ExLlamaV2Config().prepare()
        if ServeConfig.CACHE_MODE != "Q4":
            raise NotImplementedError("this deployment only runs the Q4 cache")
        self.cache = ExLlamaV2Cache_Q4(self.config, batch_size=ServeConfig.BATCH_SIZE,
                                       max_seq_len=ServeConfig.MAX_SEQ_LEN,
                                       device=device or ServeConfig.DEVICE)
        self.swap = build_swap_for(self.cache, ServeConfig.SWAP_SEQS,
                                   device=swap_device or ServeConfig.SWAP_DEVICE)
        self.pending, self.active, self.swapped = [], {}, {}

    def preempt(self, job_id, batch_idx):  # pragma: no cover
        slot = len(self.swapped)
        self.swap.swap_out(self.cache, batch_idx, slot)
        self.swapped[job_id] = slot


if __name__ == "__main__":
    DynamicJobServer()
