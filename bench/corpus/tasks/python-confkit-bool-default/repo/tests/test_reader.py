import pytest

from confkit import Config, ConfigError, parse

SAMPLE = """\
; global comment
[Server]
host = example.org
port = 0x1F90        ; hex is fine
debug = yes
tags = a, b,
  c, d               # continued

[paths]
data: /var/lib/app
"""


def test_parse_sections_and_keys():
    s = parse(SAMPLE)
    assert set(s) == {"server", "paths"}
    assert s["server"]["host"] == "example.org"
    assert s["paths"]["data"] == "/var/lib/app"


def test_trailing_comments_are_dropped():
    assert parse(SAMPLE)["server"]["port"] == "0x1F90"
    assert parse("[a]\nurl = http://x/#frag\n")["a"]["url"] == "http://x/#frag"


def test_continuation_lines():
    assert parse(SAMPLE)["server"]["tags"] == "a, b, c, d"


def test_errors():
    with pytest.raises(ConfigError):
        parse("key = value\n")
    with pytest.raises(ConfigError):
        parse("[a]\nthis is not an item\n")


def test_typed_getters():
    c = Config(SAMPLE)
    assert c.get_int("server", "port") == 8080
    assert c.get_bool("server", "debug") is True
    assert c.get_list("server", "tags") == ["a", "b", "c", "d"]
    assert c.get("SERVER", "Host") == "example.org"


def test_defaults_for_missing_keys():
    c = Config(SAMPLE)
    assert c.get("server", "missing") is None
    assert c.get("server", "missing", "x") == "x"
    assert c.get_int("server", "workers", 4) == 4
    assert c.get_bool("server", "verbose") is False
    assert c.get_bool("server", "verbose", True) is True
    assert c.get_list("nosuch", "tags") == []


def test_bad_values():
    c = Config("[a]\nn = twelve\nb = maybe\n")
    with pytest.raises(ConfigError):
        c.get_int("a", "n")
    with pytest.raises(ConfigError):
        c.get_bool("a", "b")


def test_environment_overrides_file():
    env = {"APP_SERVER_HOST": "override.test", "APP_SERVER_LOG_LEVEL": "debug"}
    c = Config(SAMPLE, env_prefix="app", environ=env)
    assert c.get("server", "host") == "override.test"
    assert c.get("server", "log-level") == "debug"
    assert c.get("paths", "data") == "/var/lib/app"


def test_environment_ignored_without_prefix():
    env = {"APP_SERVER_HOST": "override.test"}
    c = Config(SAMPLE, environ=env)
    assert c.get("server", "host") == "example.org"
