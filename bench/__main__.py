"""``python -m bench [--quick]``: every benchmark, one table after another.

1. the native core against its pure-Python twin (bench/core.py);
2. the engine on the native core, then on the twin (a separate process, since the core is
   chosen at import time), with the ratio of their 4-bot game times (bench/engine.py)."""
import os
import subprocess
import sys

from bench import core, engine

quick = "--quick" in sys.argv
code = core.main(["--quick"] if quick else [])
print()
rows = engine.main(quick)
engine.print_table(rows)
print("\nsame, on the pure-Python twin:")
twin = subprocess.run([sys.executable, "-m", "bench.engine"] + (["--quick"] if quick else []),
                      env=dict(os.environ, MQ_PUREPYTHON="1"), capture_output=True, text=True, check=True)
print(twin.stdout, end="")
raise SystemExit(code)
