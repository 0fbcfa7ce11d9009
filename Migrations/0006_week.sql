-- 0006: the pizzeria's real week — opening intervals by weekday (several a day, past midnight),
-- date exceptions (closed, special hours, a time range cut out), a lead time — and each order's
-- service day and local pickup time, so an analyst asks `WHERE service_day = '2026-12-04'`
-- instead of doing time-zone arithmetic SQLite cannot do.
--
-- Times of day are local wall-clock times of settings.time_zone, `HH:MM`. An interval whose
-- closing time is at or before its opening time runs past midnight and belongs to the service
-- day on which it opens: Friday 18:30-01:00 is Friday night's, its 00:30 slot too.
-- Triggers refuse what the application refuses: overlapping intervals, impossible dates, an
-- order whose local time does not match its UTC time. Their messages start with a stable token
-- (`hours_overlap: …`).

-- The week ---------------------------------------------------------------------------------------

-- One opening interval of a weekday (ISO: 1 = Monday … 7 = Sunday). A weekday without a row is
-- closed. 00:00-24:00 is the whole day; any other interval is shorter than 24 hours.
CREATE TABLE weekly_hours (
    id        INTEGER PRIMARY KEY,
    weekday   INTEGER NOT NULL CHECK (weekday BETWEEN 1 AND 7),
    opens_at  TEXT NOT NULL CHECK (opens_at GLOB '[0-2][0-9]:[0-5][0-9]' AND opens_at <= '23:59'),
    closes_at TEXT NOT NULL CHECK (closes_at GLOB '[0-2][0-9]:[0-5][0-9]' AND closes_at <= '24:00'),
    CHECK (closes_at <> opens_at),
    UNIQUE (weekday, opens_at)
) STRICT;

-- Each interval as minutes of the week: where it starts (Monday 00:00 is 0) and how long it is.
CREATE VIEW weekly_hours_minutes AS
SELECT id,
       weekday,
       (weekday - 1) * 1440 + CAST(substr(opens_at, 1, 2) AS INTEGER) * 60 + CAST(substr(opens_at, 4, 2) AS INTEGER) AS starts,
       CASE WHEN closes_at > opens_at
            THEN (CAST(substr(closes_at, 1, 2) AS INTEGER) * 60 + CAST(substr(closes_at, 4, 2) AS INTEGER))
                 - (CAST(substr(opens_at, 1, 2) AS INTEGER) * 60 + CAST(substr(opens_at, 4, 2) AS INTEGER))
            ELSE 1440 + (CAST(substr(closes_at, 1, 2) AS INTEGER) * 60 + CAST(substr(closes_at, 4, 2) AS INTEGER))
                 - (CAST(substr(opens_at, 1, 2) AS INTEGER) * 60 + CAST(substr(opens_at, 4, 2) AS INTEGER))
       END AS length
FROM weekly_hours;

-- No two intervals overlap, within a day or across midnight (Sunday night runs into Monday).
CREATE TRIGGER weekly_hours_no_overlap_insert AFTER INSERT ON weekly_hours
WHEN EXISTS (SELECT 1 FROM weekly_hours_minutes a JOIN weekly_hours_minutes b ON b.id <> a.id
             WHERE a.id = NEW.id
               AND ((((b.starts - a.starts) % 10080) + 10080) % 10080 < a.length
                 OR (((a.starts - b.starts) % 10080) + 10080) % 10080 < b.length))
BEGIN
    SELECT RAISE(ABORT, 'hours_overlap: two opening intervals of the week overlap');
END;

CREATE TRIGGER weekly_hours_no_overlap_update AFTER UPDATE ON weekly_hours
WHEN EXISTS (SELECT 1 FROM weekly_hours_minutes a JOIN weekly_hours_minutes b ON b.id <> a.id
             WHERE a.id = NEW.id
               AND ((((b.starts - a.starts) % 10080) + 10080) % 10080 < a.length
                 OR (((a.starts - b.starts) % 10080) + 10080) % 10080 < b.length))
BEGIN
    SELECT RAISE(ABORT, 'hours_overlap: two opening intervals of the week overlap');
END;

-- The hours the pizzeria had (one range, every day) become the same interval on all seven days.
INSERT INTO weekly_hours (weekday, opens_at, closes_at)
SELECT w.value, s.opens_at, s.closes_at FROM settings s, json_each('[1, 2, 3, 4, 5, 6, 7]') w WHERE s.id = 1;

-- Date exceptions ------------------------------------------------------------------------------

-- One exception of one service day: `closed` (the whole day), `special` (an interval that,
-- with the day's other special rows, replaces the weekday's hours) or `cut` (a time range taken
-- out of whatever hours apply). Closures subtract from special hours too.
CREATE TABLE schedule_exceptions (
    id         INTEGER PRIMARY KEY,
    day        TEXT NOT NULL CHECK (day GLOB '[0-9][0-9][0-9][0-9]-[0-1][0-9]-[0-3][0-9]' AND date(julianday(day)) IS day),
    kind       TEXT NOT NULL CHECK (kind IN ('closed', 'special', 'cut')),
    -- special: the interval; cut: the range taken out (at or before its start: past midnight).
    opens_at   TEXT CHECK (opens_at IS NULL OR (opens_at GLOB '[0-2][0-9]:[0-5][0-9]' AND opens_at <= '23:59')),
    closes_at  TEXT CHECK (closes_at IS NULL OR (closes_at GLOB '[0-2][0-9]:[0-5][0-9]' AND closes_at <= '24:00')),
    -- Shown to customers ("closed on 2026-12-25 (Christmas)"): 1 to 200 characters, no control characters.
    reason     TEXT CHECK (reason IS NULL OR (length(reason) BETWEEN 1 AND 200
                           AND reason NOT GLOB ('*[' || char(1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,26,
                                                             27,28,29,30,31,127) || ']*'))),
    created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
    CHECK ((kind = 'closed') = (opens_at IS NULL AND closes_at IS NULL)),
    CHECK (opens_at IS NULL OR closes_at <> opens_at)
) STRICT;

CREATE INDEX schedule_exceptions_by_day ON schedule_exceptions (day, kind);
CREATE UNIQUE INDEX schedule_exceptions_one_closure ON schedule_exceptions (day) WHERE kind = 'closed';

-- A readable week: weekday names, intervals in order, past-midnight ones marked.
CREATE VIEW opening_week AS
SELECT weekday,
       CASE weekday WHEN 1 THEN 'Monday' WHEN 2 THEN 'Tuesday' WHEN 3 THEN 'Wednesday' WHEN 4 THEN 'Thursday'
                    WHEN 5 THEN 'Friday' WHEN 6 THEN 'Saturday' ELSE 'Sunday' END AS day,
       opens_at,
       closes_at,
       closes_at <= opens_at AS past_midnight
FROM weekly_hours
ORDER BY weekday, opens_at;

-- Lead time --------------------------------------------------------------------------------------

-- A pickup must be at least this many minutes of real time from now. New files start at 15; a
-- file that already has orders keeps 0, the behaviour it had.
ALTER TABLE settings ADD COLUMN lead_minutes INTEGER NOT NULL DEFAULT 15 CHECK (lead_minutes BETWEEN 0 AND 1440);
UPDATE settings SET lead_minutes = 0 WHERE EXISTS (SELECT 1 FROM orders);

-- Orders: service day and local time --------------------------------------------------------------

-- The service day the pickup belongs to (a pickup after midnight can belong to the day before),
-- and the pickup as local time with its offset, 2026-12-05T00:30+01:00. Filled for existing
-- orders by Pizzeria when it applies this migration (SQL cannot convert time zones).
ALTER TABLE orders ADD COLUMN service_day TEXT
    CHECK (service_day IS NULL OR (service_day GLOB '[0-9][0-9][0-9][0-9]-[0-1][0-9]-[0-3][0-9]' AND date(julianday(service_day)) IS service_day));
ALTER TABLE orders ADD COLUMN pickup_local TEXT
    CHECK (pickup_local IS NULL OR pickup_local GLOB '[0-9][0-9][0-9][0-9]-[0-1][0-9]-[0-3][0-9]T[0-2][0-9]:[0-5][0-9][+-][0-1][0-9]:[0-5][0-9]');

-- A new or moved order comes with both, and they agree with pickup_at: the local time less its
-- offset is the UTC time, and the service day is the local date or the day before.
CREATE TRIGGER orders_local_time_insert BEFORE INSERT ON orders
WHEN NEW.service_day IS NULL OR NEW.pickup_local IS NULL
  OR strftime('%Y-%m-%dT%H:%M:00Z', substr(NEW.pickup_local, 1, 16),
              (CASE substr(NEW.pickup_local, 17, 1) WHEN '+' THEN '-' ELSE '+' END) || substr(NEW.pickup_local, 18, 5)) IS NOT NEW.pickup_at
  OR NEW.service_day NOT IN (substr(NEW.pickup_local, 1, 10), date(substr(NEW.pickup_local, 1, 10), '-1 day'))
BEGIN
    SELECT RAISE(ABORT, 'order_local_time: an order needs service_day and pickup_local (local time with offset) that agree with pickup_at');
END;

CREATE TRIGGER orders_local_time_update BEFORE UPDATE OF pickup_at, service_day, pickup_local ON orders
WHEN NEW.service_day IS NULL OR NEW.pickup_local IS NULL
  OR strftime('%Y-%m-%dT%H:%M:00Z', substr(NEW.pickup_local, 1, 16),
              (CASE substr(NEW.pickup_local, 17, 1) WHEN '+' THEN '-' ELSE '+' END) || substr(NEW.pickup_local, 18, 5)) IS NOT NEW.pickup_at
  OR NEW.service_day NOT IN (substr(NEW.pickup_local, 1, 10), date(substr(NEW.pickup_local, 1, 10), '-1 day'))
BEGIN
    SELECT RAISE(ABORT, 'order_local_time: an order needs service_day and pickup_local (local time with offset) that agree with pickup_at');
END;

-- A day's orders, for the lists and reports that count by service day.
CREATE INDEX orders_by_service_day ON orders (service_day, pickup_at, id);

-- The summary shows the local time and the service day too.
DROP VIEW order_summary;
CREATE VIEW order_summary AS
SELECT o.id AS order_id,
       u.handle,
       o.service_day,
       o.pickup_local,
       o.pickup_at,
       o.status,
       (SELECT group_concat(item, ', ')
        FROM (SELECT l.quantity || ' × ' || l.pizza_name AS item
              FROM order_lines l WHERE l.order_id = o.id ORDER BY l.line_no)) AS items,
       printf('%d.%02d', o.total_cents / 100, o.total_cents % 100) AS total_eur
FROM orders o JOIN users u ON u.id = o.user_id
ORDER BY o.pickup_at, o.created_at;
