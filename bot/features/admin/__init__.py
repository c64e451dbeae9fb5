"""The operator's /reload (and SIGHUP): banks reloaded without a restart."""
