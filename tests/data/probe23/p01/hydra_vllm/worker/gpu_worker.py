# SPDX-License-Identifier: Apache-2.0
from typing import Optional

import torch

from hydra_vllm.config import VllmConfig
from hydra_vllm.distributed.kv_transfer.factory import (KVConnectorFactory,
                                                        KVConnectorRole)
from hydra_vllm.kv_cache_interface import get_kv_cache_config
from hydra_vllm.worker.gpu_model_runner import GPUModelRunner


class Worker:

    def __init__(self, vllm_config: VllmConfig, gpu_memory_bytes: int = 80 << 30,
                 weight_bytes: int = 8 << 30):
        self.vllm_config = vllm_config
        self.device = torch.device(vllm_config.device)
        self.gpu_memory_bytes = gpu_memory_bytes
        self.weight_bytes = weight_bytes
        self.model_runner = GPUModelRunner(vllm_config, self.device)
        self.connector = None

    def determine_available_memory(self) -> int:
        util = self.vllm_config.cache_config.gpu_memory_utilization
        return int(self.gpu_memory_bytes * util) - self.weight_bytes

    def initialize_from_config(self):
        spec = self.model_runner.get_kv_cache_spec()
        kv_cache_config = get_kv_cache_config(self.vllm_config, spec,
                                              self.determine_available_memory())
        kv_caches = self.model_runner.initialize_kv_cache(kv_cache_config)
        if self.vllm_config.kv_transfer_config is not None:
            self.connector = KVConnectorFactory.create_connector(
                self.vllm_config, KVConnectorRole.WORKER)
            self.connector.register_kv_caches(kv_caches)
        return kv_cache_config


def init_worker(vllm_config: Optional[VllmConfig] = None) -> Worker:
    worker = Worker(vllm_config or VllmConfig())
    worker.initialize_from_config()
    return worker
