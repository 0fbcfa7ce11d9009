-- 0025: notifiers — where each `pizzeria notify run --name NAME` is in the order feed, kept in the
-- file so a notifier killed at any instant resumes where it stopped.
--
-- Delivery is at least once and in order: `pending_event` is written before the command runs,
-- `after_event` only once it succeeded, so after a crash the event in flight is delivered again
-- (marked as a redelivery) and never skipped. The lease (`holder_host`, `holder_pid`,
-- `heartbeat_at`) keeps two notifiers of one name from delivering the same events; it is taken
-- over when its process is gone (same host) or its heartbeat is older than two minutes.
--
-- No personal data is kept here: `last_error` says how the command failed (an exit status, a
-- signal, a timeout), never what it printed.

CREATE TABLE notify_cursors (
    -- 1 to 40 of a-z 0-9 _ - (`sms`, `email-it`).
    name          TEXT NOT NULL PRIMARY KEY
                  CHECK (length(name) BETWEEN 1 AND 40 AND name NOT GLOB '*[^a-z0-9_-]*'),
    -- The last event delivered (or passed over as not of this notifier's kinds), as an event
    -- cursor's text (`0`, or POSITION.FINGERPRINT such as `412.9f3a2c1b`).
    after_event   TEXT NOT NULL CHECK (after_event = '0' OR after_event GLOB '[1-9]*.[0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f]'),
    -- The event whose command is running (or was, when the notifier died): delivered again on restart.
    pending_event TEXT CHECK (pending_event IS NULL OR pending_event GLOB '[1-9]*.[0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f]'),
    -- The kinds it delivers, comma-separated (`placed,moved,delayed,ready,no_show,cancelled,refunded`).
    kinds         TEXT NOT NULL CHECK (length(kinds) BETWEEN 1 AND 200 AND kinds NOT GLOB '*[^a-z_,]*'),
    delivered     INTEGER NOT NULL DEFAULT 0 CHECK (delivered >= 0),
    failures      INTEGER NOT NULL DEFAULT 0 CHECK (failures >= 0),
    -- How the last failure happened (`exit 3`, `killed by signal 9`, `timed out after 30 s`).
    last_error    TEXT CHECK (last_error IS NULL OR length(last_error) BETWEEN 1 AND 200),
    last_error_at TEXT CHECK (last_error_at IS NULL OR last_error_at GLOB '[0-9][0-9][0-9][0-9]-[0-1][0-9]-[0-3][0-9]T[0-2][0-9]:[0-5][0-9]:[0-5][0-9]*Z'),
    holder_host   TEXT CHECK (holder_host IS NULL OR length(holder_host) BETWEEN 1 AND 255),
    holder_pid    INTEGER CHECK (holder_pid IS NULL OR holder_pid > 0),
    heartbeat_at  TEXT CHECK (heartbeat_at IS NULL OR heartbeat_at GLOB '[0-9][0-9][0-9][0-9]-[0-1][0-9]-[0-3][0-9]T[0-2][0-9]:[0-5][0-9]:[0-5][0-9]*Z'),
    -- Who set it up (`--by`), when.
    created_by    TEXT CHECK (created_by IS NULL OR length(created_by) BETWEEN 1 AND 64),
    created_at    TEXT NOT NULL CHECK (created_at GLOB '[0-9][0-9][0-9][0-9]-[0-1][0-9]-[0-3][0-9]T[0-2][0-9]:[0-5][0-9]:[0-5][0-9]*Z'),
    updated_at    TEXT NOT NULL CHECK (updated_at GLOB '[0-9][0-9][0-9][0-9]-[0-1][0-9]-[0-3][0-9]T[0-2][0-9]:[0-5][0-9]:[0-5][0-9]*Z'),
    CHECK ((holder_host IS NULL) = (holder_pid IS NULL))
) STRICT;
