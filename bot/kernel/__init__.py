"""The small shared kernel every feature stands on: banks, the attempt model, the bank
registry, the kernel's storage ports and pure helpers. It knows no feature, no Telegram, no
SQL and no files."""
