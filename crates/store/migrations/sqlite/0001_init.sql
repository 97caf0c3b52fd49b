-- slopguard store, SQLite schema version 1. Times are integer milliseconds since the Unix
-- epoch; JSON is stored as text.
CREATE TABLE observations (
    id            INTEGER PRIMARY KEY AUTOINCREMENT,
    ts            INTEGER NOT NULL,
    repo          TEXT    NOT NULL DEFAULT '',
    run_id        TEXT    NOT NULL,
    agent         TEXT    NOT NULL,
    subtask_id    TEXT,
    model         TEXT,
    branch        TEXT,
    commit_sha    TEXT,
    outcome       TEXT    NOT NULL,
    touched_files TEXT    NOT NULL DEFAULT '[]',
    failure_modes TEXT    NOT NULL DEFAULT '[]',
    confidence    REAL,
    extra         TEXT
);
CREATE INDEX observations_ts ON observations (ts);
CREATE INDEX observations_repo_ts ON observations (repo, ts);
CREATE INDEX observations_run ON observations (run_id);
CREATE INDEX observations_agent_ts ON observations (agent, ts);

CREATE TABLE runs (
    run_id      TEXT PRIMARY KEY,
    repo        TEXT    NOT NULL DEFAULT '',
    started_at  INTEGER NOT NULL,
    finished_at INTEGER,
    status      TEXT    NOT NULL,
    extra       TEXT
);
CREATE INDEX runs_repo_started ON runs (repo, started_at);

CREATE TABLE claims (
    lock_id     TEXT PRIMARY KEY,
    repo        TEXT    NOT NULL DEFAULT '',
    path        TEXT    NOT NULL,
    agent       TEXT    NOT NULL,
    run_id      TEXT,
    acquired_at INTEGER NOT NULL,
    expires_at  INTEGER NOT NULL,
    UNIQUE (repo, path)
);

CREATE TABLE feedback (
    id      INTEGER PRIMARY KEY AUTOINCREMENT,
    ts      INTEGER NOT NULL,
    repo    TEXT    NOT NULL DEFAULT '',
    run_id  TEXT,
    kind    TEXT    NOT NULL,
    target  TEXT,
    body    TEXT    NOT NULL DEFAULT '{}'
);
CREATE INDEX feedback_repo_ts ON feedback (repo, ts);

CREATE TABLE evidence (
    id              INTEGER PRIMARY KEY AUTOINCREMENT,
    ts              INTEGER NOT NULL,
    session_id      TEXT    NOT NULL,
    argv            TEXT    NOT NULL DEFAULT '[]',
    command         TEXT    NOT NULL,
    exit_code       INTEGER,
    tests_passed    INTEGER,
    tests_failed    INTEGER,
    tests_collected INTEGER,
    tree_hash       TEXT,
    extra           TEXT
);
CREATE INDEX evidence_session ON evidence (session_id, id);

CREATE TABLE hook_sessions (
    session_id TEXT PRIMARY KEY,
    state      TEXT    NOT NULL,
    updated_at INTEGER NOT NULL
);
