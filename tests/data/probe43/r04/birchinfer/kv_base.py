class AttnKVStoreBase:
    """Allocates K/V only for the attention layers of a hybrid model."""

    def __init__(self, args, n_tokens, device):
        self.args = args
        self.n_tokens = n_tokens
        self.device = device
        self.layer_ids = list(self._attention_layers())
        self._setup()

    def _attention_layers(self):
        raise NotImplementedError

    def _alloc(self, layer_id, kind):
        raise NotImplementedError

    def _setup(self):
        raise NotImplementedError
