"""``python -m bench [--quick]``: time the native core against its pure-Python twin."""
from bench.core import main

raise SystemExit(main())
