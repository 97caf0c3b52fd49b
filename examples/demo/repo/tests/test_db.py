from src.db import find_user, get_conn, init_schema, seed


def test_find_known_user(tmp_path):
    conn = get_conn(str(tmp_path / "t.db"))
    init_schema(conn)
    seed(conn)
    assert dict(find_user(conn, "ada"))["name"] == "ada"


def test_injection_is_harmless(tmp_path):
    conn = get_conn(str(tmp_path / "t.db"))
    init_schema(conn)
    seed(conn)
    assert find_user(conn, "x' OR '1'='1") is None
