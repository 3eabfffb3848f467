import torch


class WireBuffer:
    def __init__(self, layer_count, kv_head_count, dim_per_head, tp_ranks, slots_on_wire,
                 elem_dtype=torch.bfloat16, device="cpu"):
        self.layer_count = layer_count
        self.slots_on_wire = slots_on_wire
        self.kv_head_count = kv_head_count
        self.rank_heads = kv_head_count // tp_ranks
        esz = torch.empty(0, dtype=elem_dtype, device="meta").element_size()
        k_bytes = slots_on_wire * self.rank_heads * dim_per_head * esz
        v_bytes = slots_on_wire * self.kv_head_count * dim_per_head * esz
        self.record = k_bytes + v_bytes
        self.payload = torch.empty(
            layer_count * self.record, dtype=torch.uint8, device=device
        )
        self.wire_k = []
        self.wire_v = []
        for i in range(layer_count):
            lo = i * self.record
            mid = lo + k_bytes
            hi = mid + v_bytes
            k = self.payload[lo:mid].view(elem_dtype)
            v = self.payload[mid:hi].view(elem_dtype)
            self.wire_k.append(k.view(slots_on_wire, self.rank_heads, dim_per_head))
            self.wire_v.append(v.view(slots_on_wire, self.kv_head_count, dim_per_head))

    def layer_record(self, i):
        return self.payload[i * self.record:(i + 1) * self.record]
