"""Version constraints in the npm/cargo style: ^1.2, ~1.2.3, >=1.0 <2.0, 1.x."""
from .spec import Version, parse_version, satisfies, max_satisfying

__all__ = ["Version", "parse_version", "satisfies", "max_satisfying"]
