"""Benchmarks: each module here with a ``main()`` is run by ``python -m bench``."""
