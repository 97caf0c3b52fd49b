-- slopguard store, SQLite schema version 3: feedback moves through states.
--
-- The self-correction loop takes a reviewer's feedback from intake to a verified fix:
-- pending -> triaged -> (awaiting-approval) -> in-fix -> fix-pr-open -> verified | rejected ->
-- closed, with escalated and reopened on the side. The row keeps its current state and what
-- the steps found so far (`detail`: triage, localisation, plan, branch); every move is one row
-- of `feedback_transitions`, written in the same transaction, so a killed process leaves the
-- item in a state it can resume from.
ALTER TABLE feedback ADD COLUMN state TEXT NOT NULL DEFAULT 'pending';
ALTER TABLE feedback ADD COLUMN detail TEXT NOT NULL DEFAULT '{}';
ALTER TABLE feedback ADD COLUMN updated_ts INTEGER NOT NULL DEFAULT 0;

CREATE TABLE IF NOT EXISTS feedback_transitions (
    id          INTEGER PRIMARY KEY AUTOINCREMENT,
    feedback_id INTEGER NOT NULL REFERENCES feedback (id),
    ts          INTEGER NOT NULL,
    from_state  TEXT    NOT NULL,
    to_state    TEXT    NOT NULL,
    note        TEXT    NOT NULL DEFAULT ''
);
CREATE INDEX IF NOT EXISTS feedback_transitions_item ON feedback_transitions (feedback_id, id);
