import pytest

from verspec import parse_version, satisfies, max_satisfying


def test_parse_and_order():
    assert str(parse_version("v1.2.3-rc.1")) == "1.2.3-rc.1"
    assert parse_version("1.2") == parse_version("1.2.0")
    assert parse_version("1.0.0-alpha") < parse_version("1.0.0-alpha.1") < parse_version("1.0.0")
    assert parse_version("1.0.0-2") < parse_version("1.0.0-11") < parse_version("1.0.0-beta")
    with pytest.raises(ValueError):
        parse_version("1.x")


def test_exact_and_comparisons():
    assert satisfies("1.2.3", "1.2.3")
    assert satisfies("1.2.3", "=1.2.3")
    assert not satisfies("1.2.4", "1.2.3")
    assert satisfies("2.0.0", ">=1.0.0 <2.0.1")
    assert not satisfies("2.0.0", ">1.0.0 <2.0.0")
    assert satisfies("1.5.0", ">= 1.2 <= 1.5")


def test_caret_major():
    assert satisfies("1.9.9", "^1.2.3")
    assert not satisfies("2.0.0", "^1.2.3")
    assert not satisfies("1.2.2", "^1.2.3")


def test_caret_zero_major():
    assert satisfies("0.2.9", "^0.2.3")
    assert not satisfies("0.3.0", "^0.2.3")
    assert satisfies("0.0.3", "^0.0.3")
    assert not satisfies("0.0.4", "^0.0.3")
    assert satisfies("0.0.9", "^0.0")
    assert not satisfies("0.1.0", "^0.0")


def test_tilde():
    assert satisfies("1.2.9", "~1.2.3")
    assert not satisfies("1.3.0", "~1.2.3")
    assert satisfies("1.9.0", "~1")


def test_wildcards():
    assert satisfies("1.4.0", "1.x")
    assert satisfies("1.2.7", "1.2.*")
    assert not satisfies("1.3.0", "1.2.x")
    assert satisfies("7.0.0", "*")


def test_prereleases_need_an_explicit_anchor():
    assert not satisfies("1.3.0-beta", "^1.2.0")
    assert satisfies("1.2.0-beta.2", "^1.2.0-beta.1")
    assert not satisfies("1.2.0-alpha", "^1.2.0-beta.1")


def test_alternatives_and_max():
    assert satisfies("3.1.0", "^1.0 || ^3.0")
    assert not satisfies("2.1.0", "^1.0 || ^3.0")
    versions = ["0.9.0", "1.0.0", "1.4.2", "1.10.0", "2.0.0-rc.1", "2.0.0"]
    assert max_satisfying(versions, "^1.0.0") == "1.10.0"
    assert max_satisfying(versions, ">=3") is None
