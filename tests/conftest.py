"""Shared fixture for the core tests: ``core_impl`` runs a test against each core module.

Normally both the pure-Python twin (``mq._core_py``) and the compiled core (``mq._core``) are
under test, and a missing ``mq._core`` is an error (never a skip: a tree where the extension was
not built must not pass by testing the twin twice, DESIGN.md "Building the extension").
With ``MQ_PUREPYTHON=1`` (the second run of ``make test``) only the twin is tested.
"""
from __future__ import annotations

import importlib
import os

import pytest

_PURE = os.environ.get("MQ_PUREPYTHON") == "1"
_MODULES = {"python": "mq._core_py", "native": "mq._core"}

# The twin-against-native comparison belongs to the first (native) pass of `make test` only.
collect_ignore = ["test_core_twins.py"] if _PURE else []


@pytest.fixture(scope="session", params=["python"] if _PURE else ["python", "native"])
def core_impl(request):
    """The core module under test (session-scoped, so hypothesis tests may use it)."""
    module = importlib.import_module(_MODULES[request.param])  # ImportError fails the test
    assert module.IMPLEMENTATION == request.param
    return module
