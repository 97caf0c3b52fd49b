"""An in-memory LRU cache whose entries expire after a time to live."""
from .cache import TTLCache, cached

__all__ = ["TTLCache", "cached"]
