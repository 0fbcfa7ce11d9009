-- 0044: capacity by time for every station — a fryer that makes 4 pieces per slot on weekdays and
-- 8 on Friday night, as the oven's capacity rules do for the slot.
--
-- `station_capacity_rules`: one row per (station, weekday or date, range), the shape of
-- `capacity_rules`, for a station other than the one holding the slot capacity (whose rules are
-- `capacity_rules`). A station's capacity in a slot is its rule for the slot's date and time,
-- else its rule for the weekday and time, else `stations.capacity` (NULL: no limit); of two rules
-- of one kind the narrower range wins (view `station_capacity_candidates`). A station's rules go
-- with it when it is removed.

CREATE TABLE station_capacity_rules (
    id         INTEGER PRIMARY KEY,
    station_id INTEGER NOT NULL REFERENCES stations (id) ON DELETE CASCADE,
    -- Exactly one of: a weekday (ISO: 1 = Monday … 7 = Sunday) or a date (YYYY-MM-DD).
    weekday    INTEGER CHECK (weekday BETWEEN 1 AND 7),
    day        TEXT CHECK (day IS NULL OR (day GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]' AND date(day) IS day)),
    starts_at  TEXT NOT NULL CHECK (starts_at GLOB '[0-2][0-9]:[0-5][0-9]' AND starts_at <= '23:59'),
    ends_at    TEXT NOT NULL CHECK (ends_at GLOB '[0-2][0-9]:[0-5][0-9]' AND ends_at <= '24:00'),
    -- Pieces per slot at the station.
    capacity   INTEGER NOT NULL CHECK (capacity BETWEEN 1 AND 10000),
    -- The range as minutes of the service day: 18:30-01:00 is 1110-1500.
    start_minute INTEGER GENERATED ALWAYS AS (CAST(substr(starts_at, 1, 2) AS INTEGER) * 60 + CAST(substr(starts_at, 4, 2) AS INTEGER)) VIRTUAL,
    end_minute   INTEGER GENERATED ALWAYS AS (CAST(substr(ends_at, 1, 2) AS INTEGER) * 60 + CAST(substr(ends_at, 4, 2) AS INTEGER)
                                              + CASE WHEN ends_at <= starts_at THEN 1440 ELSE 0 END) VIRTUAL,
    -- How people name it: `fri 18:30-21:00`, `2026-12-31 19:00-23:00`.
    rule       TEXT GENERATED ALWAYS AS (coalesce(day, substr('montuewedthufrisatsun', weekday * 3 - 2, 3)) || ' ' || starts_at || '-' || ends_at) VIRTUAL,
    CHECK ((weekday IS NULL) <> (day IS NULL)),
    CHECK (ends_at <> starts_at)
) STRICT;

CREATE UNIQUE INDEX station_capacity_rules_by_weekday ON station_capacity_rules (station_id, weekday, starts_at, ends_at) WHERE weekday IS NOT NULL;
CREATE UNIQUE INDEX station_capacity_rules_by_day ON station_capacity_rules (station_id, day, starts_at, ends_at) WHERE day IS NOT NULL;
