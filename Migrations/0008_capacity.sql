-- 0008: capacity by time, pause and rush.
--
-- A slot's capacity (pizzas) comes from rules by weekday and time range or by date and time
-- range; a date rule wins over a weekday rule, a narrower range over a wider one; without a rule,
-- settings.slot_capacity. Times are local wall-clock times of the slot's service day, as in
-- weekly_hours: a range whose end is at or before its start runs past midnight (Friday
-- 22:00-01:00 covers Friday night's 00:30 slot).
--
-- slot_loads carries, for every booked slot, the capacity that applies and the rule it came
-- from, recomputed by triggers whenever a rule or settings.slot_capacity changes, so the
-- database refuses an overbooking by any client against the effective capacity.
--
-- Pause and rush are the service's state (settings.paused…, settings.busy…): they stop or slow
-- new bookings and never touch existing orders.

-- Capacity rules ------------------------------------------------------------------------------------

CREATE TABLE capacity_rules (
    id        INTEGER PRIMARY KEY,
    -- Exactly one of: a weekday (ISO: 1 = Monday … 7 = Sunday) or a date (YYYY-MM-DD).
    weekday   INTEGER CHECK (weekday BETWEEN 1 AND 7),
    day       TEXT CHECK (day IS NULL OR (day GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]' AND date(day) IS day)),
    starts_at TEXT NOT NULL CHECK (starts_at GLOB '[0-2][0-9]:[0-5][0-9]' AND starts_at <= '23:59'),
    ends_at   TEXT NOT NULL CHECK (ends_at GLOB '[0-2][0-9]:[0-5][0-9]' AND ends_at <= '24:00'),
    capacity  INTEGER NOT NULL CHECK (capacity BETWEEN 1 AND 10000),
    -- The range as minutes of the service day: 18:30-01:00 is 1110-1500.
    start_minute INTEGER GENERATED ALWAYS AS (CAST(substr(starts_at, 1, 2) AS INTEGER) * 60 + CAST(substr(starts_at, 4, 2) AS INTEGER)) VIRTUAL,
    end_minute   INTEGER GENERATED ALWAYS AS (CAST(substr(ends_at, 1, 2) AS INTEGER) * 60 + CAST(substr(ends_at, 4, 2) AS INTEGER)
                                              + CASE WHEN ends_at <= starts_at THEN 1440 ELSE 0 END) VIRTUAL,
    -- How people name it: `fri 18:30-21:00`, `2026-12-31 19:00-23:00`.
    rule      TEXT GENERATED ALWAYS AS (coalesce(day, substr('montuewedthufrisatsun', weekday * 3 - 2, 3)) || ' ' || starts_at || '-' || ends_at) VIRTUAL,
    CHECK ((weekday IS NULL) <> (day IS NULL)),
    CHECK (ends_at <> starts_at)
) STRICT;

CREATE UNIQUE INDEX capacity_rules_by_weekday ON capacity_rules (weekday, starts_at, ends_at) WHERE weekday IS NOT NULL;
CREATE UNIQUE INDEX capacity_rules_by_day ON capacity_rules (day, starts_at, ends_at) WHERE day IS NOT NULL;

-- Two rules of one kind on one day are nested (the narrower wins) or apart; a partial overlap
-- would leave no rule to win, and is refused.
CREATE TRIGGER capacity_rules_no_partial_overlap BEFORE INSERT ON capacity_rules
WHEN EXISTS (
    SELECT 1 FROM capacity_rules r
    WHERE (r.weekday IS NEW.weekday AND r.day IS NEW.day)
      AND (CAST(substr(NEW.starts_at, 1, 2) AS INTEGER) * 60 + CAST(substr(NEW.starts_at, 4, 2) AS INTEGER)) < r.end_minute
      AND r.start_minute < (CAST(substr(NEW.ends_at, 1, 2) AS INTEGER) * 60 + CAST(substr(NEW.ends_at, 4, 2) AS INTEGER)
                            + CASE WHEN NEW.ends_at <= NEW.starts_at THEN 1440 ELSE 0 END)
      AND NOT (r.start_minute <= (CAST(substr(NEW.starts_at, 1, 2) AS INTEGER) * 60 + CAST(substr(NEW.starts_at, 4, 2) AS INTEGER))
               AND (CAST(substr(NEW.ends_at, 1, 2) AS INTEGER) * 60 + CAST(substr(NEW.ends_at, 4, 2) AS INTEGER)
                    + CASE WHEN NEW.ends_at <= NEW.starts_at THEN 1440 ELSE 0 END) <= r.end_minute)
      AND NOT ((CAST(substr(NEW.starts_at, 1, 2) AS INTEGER) * 60 + CAST(substr(NEW.starts_at, 4, 2) AS INTEGER)) <= r.start_minute
               AND r.end_minute <= (CAST(substr(NEW.ends_at, 1, 2) AS INTEGER) * 60 + CAST(substr(NEW.ends_at, 4, 2) AS INTEGER)
                                    + CASE WHEN NEW.ends_at <= NEW.starts_at THEN 1440 ELSE 0 END))
)
BEGIN
    SELECT RAISE(ABORT, 'capacity_rules_overlap: two rules of one kind on one day must be nested or apart');
END;

CREATE TRIGGER capacity_rules_fixed_range BEFORE UPDATE OF weekday, day, starts_at, ends_at ON capacity_rules
BEGIN
    SELECT RAISE(ABORT, 'capacity_rules_fixed_range: delete the rule and insert the new range');
END;

-- The effective capacity of each booked slot --------------------------------------------------------

-- The slot's local start as minutes of its service day (00:30 after midnight is 1470), and the
-- rule its capacity came from (NULL: settings.slot_capacity).
ALTER TABLE slot_loads ADD COLUMN local_minute INTEGER NOT NULL DEFAULT 0 CHECK (local_minute BETWEEN 0 AND 2880);
ALTER TABLE slot_loads ADD COLUMN capacity_rule TEXT;

-- The one place the rule is resolved in SQL: whenever a slot's row is written or touched
-- (`UPDATE slot_loads SET local_minute = local_minute`), its capacity and rule are recomputed.
CREATE TRIGGER slot_loads_effective_capacity AFTER UPDATE OF local_minute, service_day ON slot_loads
BEGIN
    UPDATE slot_loads
    SET (capacity, capacity_rule) = (
        SELECT capacity, rule FROM (
            SELECT r.capacity, r.rule, 0 AS rank, r.end_minute - r.start_minute AS width
            FROM capacity_rules r
            WHERE r.day = NEW.service_day AND NEW.local_minute >= r.start_minute AND NEW.local_minute < r.end_minute
            UNION ALL
            SELECT r.capacity, r.rule, 1 AS rank, r.end_minute - r.start_minute AS width
            FROM capacity_rules r
            WHERE r.weekday = (CAST(strftime('%w', NEW.service_day) AS INTEGER) + 6) % 7 + 1
              AND NEW.local_minute >= r.start_minute AND NEW.local_minute < r.end_minute
            UNION ALL
            SELECT s.slot_capacity, NULL, 2 AS rank, 0 AS width FROM settings s WHERE s.id = 1
        ) ORDER BY rank, width LIMIT 1)
    WHERE pickup_at = NEW.pickup_at;
END;

CREATE TRIGGER slot_loads_new_slot AFTER INSERT ON slot_loads
BEGIN
    UPDATE slot_loads SET local_minute = NEW.local_minute WHERE pickup_at = NEW.pickup_at;
END;

-- A slot's row appears with its first order (or move), its local minute from the order's local time.
DROP TRIGGER slot_loads_open;
CREATE TRIGGER slot_loads_open AFTER INSERT ON orders
BEGIN
    INSERT INTO slot_loads (pickup_at, service_day, local_minute, capacity)
    VALUES (NEW.pickup_at, NEW.service_day,
            CAST(round((julianday(substr(NEW.pickup_local, 1, 16)) - julianday(NEW.service_day)) * 1440) AS INTEGER),
            (SELECT slot_capacity FROM settings WHERE id = 1))
    ON CONFLICT (pickup_at) DO NOTHING;
END;

DROP TRIGGER slot_loads_move;
CREATE TRIGGER slot_loads_move AFTER UPDATE OF pickup_at ON orders
WHEN NEW.pickup_at IS NOT OLD.pickup_at AND NEW.status <> 'cancelled'
BEGIN
    UPDATE slot_loads SET booked = booked - (SELECT coalesce(sum(quantity), 0) FROM order_lines WHERE order_id = NEW.id)
    WHERE pickup_at = OLD.pickup_at;
    INSERT INTO slot_loads (pickup_at, service_day, local_minute, capacity)
    VALUES (NEW.pickup_at, NEW.service_day,
            CAST(round((julianday(substr(NEW.pickup_local, 1, 16)) - julianday(NEW.service_day)) * 1440) AS INTEGER),
            (SELECT slot_capacity FROM settings WHERE id = 1))
    ON CONFLICT (pickup_at) DO NOTHING;
    UPDATE slot_loads SET booked = booked + (SELECT coalesce(sum(quantity), 0) FROM order_lines WHERE order_id = NEW.id)
    WHERE pickup_at = NEW.pickup_at;
END;

-- A change of the time zone recomputes orders' local times: their slots' minutes follow.
CREATE TRIGGER slot_loads_follow_local_time AFTER UPDATE OF pickup_local, service_day ON orders
WHEN NEW.pickup_at IS OLD.pickup_at
BEGIN
    UPDATE slot_loads
    SET service_day = NEW.service_day,
        local_minute = CAST(round((julianday(substr(NEW.pickup_local, 1, 16)) - julianday(NEW.service_day)) * 1440) AS INTEGER)
    WHERE pickup_at = NEW.pickup_at;
END;

-- Rules and the default capacity apply to every booked slot at once.
DROP TRIGGER slot_loads_follow_capacity;
CREATE TRIGGER slot_loads_follow_capacity AFTER UPDATE OF slot_capacity ON settings
BEGIN
    UPDATE slot_loads SET local_minute = local_minute WHERE capacity_rule IS NULL;
END;

CREATE TRIGGER capacity_rules_apply_insert AFTER INSERT ON capacity_rules
BEGIN
    UPDATE slot_loads SET local_minute = local_minute
    WHERE service_day = coalesce(NEW.day, service_day)
      AND (NEW.weekday IS NULL OR (CAST(strftime('%w', service_day) AS INTEGER) + 6) % 7 + 1 = NEW.weekday);
END;

CREATE TRIGGER capacity_rules_apply_update AFTER UPDATE OF capacity ON capacity_rules
BEGIN
    UPDATE slot_loads SET local_minute = local_minute WHERE capacity_rule = NEW.rule;
END;

CREATE TRIGGER capacity_rules_apply_delete AFTER DELETE ON capacity_rules
BEGIN
    UPDATE slot_loads SET local_minute = local_minute WHERE capacity_rule = OLD.rule;
END;

-- The slots booked before this migration: their minutes, then their capacity from the (no) rules.
UPDATE slot_loads
SET local_minute = coalesce((
    SELECT CAST(round((julianday(substr(o.pickup_local, 1, 16)) - julianday(o.service_day)) * 1440) AS INTEGER)
    FROM orders o WHERE o.pickup_at = slot_loads.pickup_at LIMIT 1), 0);

-- Pause and rush ----------------------------------------------------------------------------------

-- Paused: no new bookings until paused_until (NULL: until resumed), with a reason for customers.
ALTER TABLE settings ADD COLUMN paused INTEGER NOT NULL DEFAULT 0 CHECK (paused IN (0, 1));
ALTER TABLE settings ADD COLUMN paused_until TEXT
    CHECK (paused_until IS NULL OR (paused = 1 AND paused_until GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]T[0-9][0-9]:[0-9][0-9]:[0-9][0-9]*Z'));
ALTER TABLE settings ADD COLUMN pause_reason TEXT
    CHECK (pause_reason IS NULL OR (paused = 1 AND length(pause_reason) BETWEEN 1 AND 200));
-- Rush: busy_minutes added to the lead time until busy_until (NULL: until turned off).
ALTER TABLE settings ADD COLUMN busy_minutes INTEGER NOT NULL DEFAULT 0 CHECK (busy_minutes BETWEEN 0 AND 1440);
ALTER TABLE settings ADD COLUMN busy_until TEXT
    CHECK (busy_until IS NULL OR (busy_minutes > 0 AND busy_until GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]T[0-9][0-9]:[0-9][0-9]:[0-9][0-9]*Z'));

-- For people: each booked slot with its capacity and where it came from.
CREATE VIEW slot_capacity AS
SELECT service_day,
       printf('%02d:%02d', (local_minute / 60) % 24, local_minute % 60) AS local_time,
       pickup_at,
       booked,
       capacity,
       max(capacity - booked, 0) AS remaining,
       coalesce(capacity_rule, 'slot-capacity') AS capacity_from
FROM slot_loads;
