"""Hyper-parameters of the selective-state-space decoder we serve."""


class Mamba2Dims:
    """Mirror of the fields we need from the HF ``config.json``.

    Only the values that shape the recurrent state are kept; anything
    unknown in the source dict is ignored.
    """

    _DEFAULTS = {
        "d_model": 2560,
        "n_layer": 64,
        "expand": 2,
        "d_state": 128,
        "d_conv": 4,
        "headdim": 64,
        "ngroups": 1,
    }

    def __init__(self, **overrides):
        values = dict(self._DEFAULTS)
        for key, val in overrides.items():
            if key not in values:
                raise TypeError(f"unknown Mamba2 field {key!r}")
            values[key] = int(val)
        self.__dict__.update(values)

    @classmethod
    def from_hf_dict(cls, raw):
        return cls(**{k: v for k, v in raw.items() if k in cls._DEFAULTS})

    @property
    def d_inner(self):
        return self.expand * self.d_model

    @property
    def nheads(self):
        return self.d_inner // self.headdim

    @property
    def conv_dim(self):
        # x, B and C all go through the depthwise conv
        return self.d_inner + 2 * self.ngroups * self.d_state

    def __repr__(self):
        body = ", ".join(f"{k}={getattr(self, k)}" for k in self._DEFAULTS)
        return f"Mamba2Dims({body})"


def conv_state_shape(dims):
    """Per-sequence, per-layer rolling window of conv inputs."""
    return (dims.conv_dim, dims.d_conv - 1)


def ssm_state_shape(dims):
    """Per-sequence, per-layer selective-scan hidden state."""
    return (dims.nheads, dims.headdim, dims.d_state)
