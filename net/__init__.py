"""LAN play for mq: peers, the shared action log, sequencing, failover, discovery (docs/net.md).

No server: every player runs a peer (``mq host`` / ``mq join``).  One peer, the sequencer, orders
proposed actions into a log that every peer applies to the deterministic engine (mq.rules) and
persists; state hashes are compared after every entry.  The engine decides everything: this package
never changes a game state except by applying a log entry with ``mq.rules.step``.

Entry points: ``net.client.NetTable`` (the mq.table.Table contract for front ends),
``net.cli.add_commands`` (the ``host``, ``join`` and ``replay`` commands), ``net.harness`` (real
peer processes on loopback for tests and soak runs).  All ZeroMQ code is in this package, and every
socket is created by ``net.transport``.
"""
