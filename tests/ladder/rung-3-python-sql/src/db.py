"""A tiny user store on the standard library's sqlite3."""

import sqlite3

SCHEMA = """
CREATE TABLE IF NOT EXISTS users (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    name TEXT NOT NULL UNIQUE,
    email TEXT NOT NULL
)
"""

SEED_USERS = [
    ("alice", "alice@example.org"),
    ("bob", "bob@example.org"),
    ("o'brien", "obrien@example.org"),
]


def get_conn(path=":memory:"):
    """Opens a connection whose rows behave like mappings (dict(row) works)."""
    conn = sqlite3.connect(path)
    conn.row_factory = sqlite3.Row
    return conn


def init_schema(conn):
    """Creates the users table if it does not exist."""
    conn.execute(SCHEMA)
    conn.commit()


def seed(conn):
    """Inserts the demo users."""
    conn.executemany("INSERT INTO users (name, email) VALUES (?, ?)", SEED_USERS)
    conn.commit()


def add_user(conn, name, email):
    """Adds a user and returns its id."""
    cur = conn.execute("INSERT INTO users (name, email) VALUES (?, ?)", (name, email))
    conn.commit()
    return cur.lastrowid


def find_user(conn, name):
    """Returns the user called `name` as a dict, or None."""
    row = conn.execute(f"SELECT id, name, email FROM users WHERE name = '{name}'").fetchone()
    return dict(row) if row is not None else None
