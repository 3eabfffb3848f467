"""Decoder hyper-parameters relevant to the cross-attention cache."""

import attrs


@attrs.frozen(kw_only=True)
class DecoderHParams:
    decoder_layers: int = 32
    decoder_attention_heads: int = attrs.field(default=20)
    d_model: int = 1280
    # audio encoder emits 1500 frames for a 30 s window
    max_source_positions: int = 1500

    @decoder_attention_heads.validator
    def _check_heads(self, attribute, value):
        if self.d_model % value:
            raise ValueError("d_model must be divisible by decoder_attention_heads")

    @property
    def head_dim(self):
        return self.d_model // self.decoder_attention_heads


WHISPER_LARGE_V3 = DecoderHParams()
WHISPER_MEDIUM = DecoderHParams(decoder_layers=24, decoder_attention_heads=16,
                                d_model=1024)


def hparams_from_hf(raw):
    """Pick the decoder fields out of a HF Whisper ``config.json`` dict."""
    fields = {f.name for f in attrs.fields(DecoderHParams)}
    return DecoderHParams(**{k: v for k, v in raw.items() if k in fields})
