"""``python -m bench [--quick]``: every benchmark, one table after another.

1. the native core against its pure-Python twin (bench/core.py);
2. the engine on the native core (bench/engine.py): games, throughput, the incremental hash as the
   dungeon grows;
3. memory: peak RSS of a peer in a 6-player game, engine-only and a real loopback peer
   (bench/memory.py);
4. the terminal client: model-to-frame time at 120x40 (bench/tui.py), and ``mq play`` from the
   command to its first drawn frame (bench/startup.py), and the wait per round of bot turns
   with and without auto-pass (bench/pace.py: minutes of bot turns at mq play's pace);
5. LAN play on loopback: the ZeroMQ round trip, commit latency to every peer with 2, 4 and 6 peer
   processes, catch-up of a 10 000-entry log (bench/net.py);
6. the engine again on the twin (a separate process, since the core is chosen at import time)."""
import os
import subprocess
import sys

from bench import core, engine, memory, pace, startup, tui
from bench import net as lan

quick = "--quick" in sys.argv
code = core.main(["--quick"] if quick else [])
print()
rows = engine.main(quick)
engine.print_table(rows)
print()
engine.print_table(memory.main(quick))
print()
engine.print_table(tui.main(quick))
print()
engine.print_table(startup.main(quick))
print()
engine.print_table(pace.main(quick))
print()
engine.print_table(lan.main(quick))
print("\nengine, on the pure-Python twin:")
twin = subprocess.run([sys.executable, "-m", "bench.engine"] + (["--quick"] if quick else []),
                      env=dict(os.environ, MQ_PUREPYTHON="1"), capture_output=True, text=True, check=True)
print(twin.stdout, end="")
raise SystemExit(code)
