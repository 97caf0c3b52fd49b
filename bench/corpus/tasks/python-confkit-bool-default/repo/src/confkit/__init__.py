"""A small reader for INI-style settings files with typed getters."""
from .reader import Config, ConfigError, parse

__all__ = ["Config", "ConfigError", "parse"]
