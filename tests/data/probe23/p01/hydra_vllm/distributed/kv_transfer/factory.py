# SPDX-License-Identifier: Apache-2.0
import enum
import importlib
from typing import Callable


class KVConnectorRole(enum.Enum):
    SCHEDULER = 0
    WORKER = 1


class KVConnectorFactory:
    _registry: dict[str, Callable[[], type]] = {}

    @classmethod
    def register_connector(cls, name: str, module_path: str, class_name: str):
        if name in cls._registry:
            raise ValueError(f"Connector '{name}' is already registered.")

        def loader():
            return getattr(importlib.import_module(module_path), class_name)

        cls._registry[name] = loader

    @classmethod
    def create_connector(cls, config, role: KVConnectorRole):
        name = config.kv_transfer_config.kv_connector
        if name not in cls._registry:
            raise ValueError(f"Unsupported connector type: {name}")
        return cls._registry[name]()(config, role)


KVConnectorFactory.register_connector(
    "CPUOffloadConnector",
    "hydra_vllm.distributed.kv_transfer.cpu_offload_connector",
    "CPUOffloadConnector")
