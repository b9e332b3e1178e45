"""The one compiled part: the optimizer's inner loop (site_builder/layout/_anneal.c).

Everything else about the package is in pyproject.toml. -ffp-contract=off keeps every floating-point
sum rounded as Python rounds it, so the C search and its Python reference give the same layouts.
"""

from setuptools import Extension, setup

setup(
    ext_modules=[
        Extension(
            "site_builder.layout._anneal",
            ["site_builder/layout/_anneal.c"],
            extra_compile_args=["-O2", "-ffp-contract=off", "-std=c11"],
        )
    ]
)
