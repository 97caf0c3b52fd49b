-- slopguard store, SQLite schema version 2: the agent-log index covers every column.
--
-- `GET /repo/agent-log` and the G9 failure memory read one repository's newest rows. Through
-- the version-1 index on (repo, ts) each of those rows was a separate table lookup, and the
-- rows of one repository are spread over the whole table (observations of all repositories
-- interleave in id order): a 200-row answer touched about 200 table pages. A busy gateway
-- commits many times a second, and SQLite drops every reader's page cache whenever the
-- database changed, so those pages were read again for nearly every request.
--
-- Covering the query keeps one repository's recent rows together in index order (about 15
-- pages for 200 rows). The price is storage: at 1M rows the file grows from about 260 MB to
-- about 440 MB. Measured effect in BENCHMARKS.md ("Observer gateway").
CREATE INDEX IF NOT EXISTS observations_repo_ts_cover ON observations (
    repo, ts, id, run_id, agent, subtask_id, model, branch, commit_sha, outcome,
    touched_files, failure_modes, confidence, extra
);
DROP INDEX IF EXISTS observations_repo_ts;
