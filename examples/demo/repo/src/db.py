"""A tiny user store with a SQL injection bug in find_user."""

import sqlite3


def get_conn(path="app.db"):
    conn = sqlite3.connect(path)
    conn.row_factory = sqlite3.Row
    return conn


def init_schema(conn):
    conn.execute("CREATE TABLE IF NOT EXISTS users (id INTEGER PRIMARY KEY, name TEXT)")
    conn.commit()


def seed(conn):
    conn.executemany("INSERT INTO users (name) VALUES (?)", [("ada",), ("linus",)])
    conn.commit()


def find_user(conn, name):
    return conn.execute(f"SELECT * FROM users WHERE name = '{name}'").fetchone()
