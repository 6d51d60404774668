"""eoslab's code fences pre-built into its web components at `mkdocs build`."""

__version__ = "0.1.0"
