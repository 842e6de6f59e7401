"""Benchmarks (numbers, not pass/fail). ``python -m bench`` runs them; see bench/core.py."""
