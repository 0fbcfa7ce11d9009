-- 0043: the drawer counted — the cash in the drawer at a night's close, by whom and when.
--
-- `drawer_counts`: one row per count (`report close --counted-cash`), never changed: the service
-- day, the opening cash, what was counted and what the drawer was expected to hold then (opening
-- + cash taken − cash given back while the day's drawer was open, 06:00 to 06:00), so a count
-- keeps its over/short whatever happens later. A second count of a day is a new row; the latest
-- is the day's.

CREATE TABLE drawer_counts (
    id             INTEGER PRIMARY KEY,
    service_day    TEXT NOT NULL
                   CHECK (service_day GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]' AND date(service_day) IS service_day),
    opening_cents  INTEGER NOT NULL CHECK (opening_cents BETWEEN 0 AND 10000000),
    counted_cents  INTEGER NOT NULL CHECK (counted_cents BETWEEN 0 AND 100000000),
    expected_cents INTEGER NOT NULL CHECK (expected_cents BETWEEN -100000000 AND 100000000),
    -- Counted − expected: more than expected (over) is positive, less (short) negative.
    over_short_cents INTEGER GENERATED ALWAYS AS (counted_cents - expected_cents) VIRTUAL,
    actor          TEXT CHECK (actor IS NULL OR length(actor) BETWEEN 1 AND 64),
    at             TEXT NOT NULL CHECK (strftime('%Y-%m-%dT%H:%M:%fZ', at) IS at)
) STRICT;

CREATE INDEX drawer_counts_by_day ON drawer_counts (service_day, id);
