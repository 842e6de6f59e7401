"""Builds the native core mq._core from mq/_core.pyx (metadata lives in pyproject.toml)."""
from Cython.Build import cythonize
from setuptools import Extension, setup

setup(
    ext_modules=cythonize(
        [Extension("mq._core", ["mq/_core.pyx"])],
        compiler_directives={"language_level": "3", "boundscheck": False, "wraparound": False},
    ),
)
