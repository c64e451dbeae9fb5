"""The bundled bank the tests play."""

from __future__ import annotations

BANK_ID = "deepspeed-megatron"
"""The id of the bundled bank (``banks/deepspeed-megatron.yaml``) most tests play."""
