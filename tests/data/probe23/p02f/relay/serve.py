from relay.decode.recv_buffer import DecodeRecvBuffer
from relay.layout import KvLayout
from relay.prefill.kv_pool import PrefillKvPool
from relay.settings import load_settings
from relay.transfer.agent import TransferAgent


def build_disagg_pair(settings=None, prefill_device=None, decode_device=None):
    s = settings or load_settings()
    layout = KvLayout.for_prefill(s)
    prefill = PrefillKvPool(layout, prefill_device or s.prefill.device)
    decode = DecodeRecvBuffer(s, device=decode_device)
    p_agent, d_agent = TransferAgent("prefill-0"), TransferAgent("decode-0")
    p_agent.register(prefill, layout.num_blocks)
    d_agent.register(decode, decode.num_blocks)
    return prefill, decode, p_agent, d_agent


if __name__ == "__main__":
    build_disagg_pair()
