"""Networking for LAN play (peers, the shared action log, sequencing, discovery, security).

Not built yet: ``mq host`` / ``mq join`` say so and exit with status 2."""
