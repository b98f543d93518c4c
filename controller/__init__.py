"""tableref's controller: events, rulings, engines, the runtime and the CLI."""

__version__ = "0.1.0"
