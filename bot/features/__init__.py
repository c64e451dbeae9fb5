"""A room per feature: each holds its rules, ports, service, screens and handlers (and its jobs
or sessions where it has them). docs/architecture.md has the map and what may import what."""
