"""The pure quiz core: banks, the attempt engine and the storage port. No Telegram, no SQL."""
