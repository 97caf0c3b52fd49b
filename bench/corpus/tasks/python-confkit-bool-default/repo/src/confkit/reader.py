"""Parses INI-style text into sections of string values; typed access on top.

    [server]
    host = example.org
    port = 8080          ; trailing comments start with ';' or ' #'
    tags = a, b,
      c                  ; an indented line continues the previous value

Keys are case-insensitive. Values may be overridden from the environment:
CONFKIT_<SECTION>_<KEY> (upper case) wins over the file when env_prefix is set.
"""
from __future__ import annotations

import os
import re

_SECTION = re.compile(r"^\[(?P<name>[^\]]+)\]\s*$")
_ITEM = re.compile(r"^(?P<key>[^=:\s][^=:]*?)\s*[=:]\s*(?P<value>.*)$")
_TRUE = {"1", "yes", "true", "on"}
_FALSE = {"0", "no", "false", "off"}


class ConfigError(ValueError):
    pass


def _strip_comment(value: str) -> str:
    if value.startswith(";") or value.startswith("#"):
        return ""
    for marker in (" ;", " #", "\t;", "\t#"):
        pos = value.find(marker)
        if pos != -1:
            value = value[:pos]
    return value.rstrip()


def parse(text: str) -> dict[str, dict[str, str]]:
    sections: dict[str, dict[str, str]] = {}
    current: dict[str, str] | None = None
    last_key: str | None = None
    for lineno, raw in enumerate(text.splitlines(), 1):
        line = raw.rstrip()
        stripped = line.strip()
        if not stripped or stripped[0] in ";#":
            continue
        if raw[0] in " \t" and last_key is not None and current is not None:
            extra = _strip_comment(stripped)
            current[last_key] = (current[last_key] + " " + extra).strip()
            continue
        m = _SECTION.match(stripped)
        if m:
            name = m.group("name").strip().lower()
            current = sections.setdefault(name, {})
            last_key = None
            continue
        m = _ITEM.match(stripped)
        if not m:
            raise ConfigError(f"line {lineno}: cannot parse {raw!r}")
        if current is None:
            raise ConfigError(f"line {lineno}: key outside of any section")
        last_key = m.group("key").strip().lower()
        current[last_key] = _strip_comment(m.group("value"))
    return sections


class Config:
    def __init__(self, text: str = "", env_prefix: str | None = None, environ=None):
        self.sections = parse(text)
        self.env_prefix = env_prefix
        self.environ = os.environ if environ is None else environ

    def get(self, section: str, key: str, default: str | None = None) -> str | None:
        section, key = section.lower(), key.lower()
        if self.env_prefix:
            name = f"{self.env_prefix}_{section}_{key}".upper().replace("-", "_")
            if name in self.environ:
                return self.environ[name]
        return self.sections.get(section, {}).get(key, default)

    def get_int(self, section: str, key: str, default: int | None = None) -> int | None:
        value = self.get(section, key)
        if value is None:
            return default
        try:
            return int(value, 0)
        except ValueError:
            raise ConfigError(f"{section}.{key}: not an integer: {value!r}") from None

    def get_bool(self, section: str, key: str, default: bool = False) -> bool:
        value = self.get(section, key)
        if value is None:
            return default
        v = value.strip().lower()
        if v in _TRUE:
            return True
        if v in _FALSE:
            return False
        raise ConfigError(f"{section}.{key}: not a boolean: {value!r}")

    def get_list(self, section: str, key: str, sep: str = ",") -> list[str]:
        value = self.get(section, key)
        if value is None:
            return []
        return [item.strip() for item in value.split(sep) if item.strip()]

    def section(self, name: str) -> dict[str, str]:
        return dict(self.sections.get(name.lower(), {}))
