-- 0011: a key for what the pickup-time picker reads besides the bookings. Every change to the
-- settings row (slot length, capacity, lead time, horizon, zone, pause, rush), the week, the date
-- exceptions or the capacity rules bumps `config_generation.generation` in its own transaction —
-- whoever makes it, a change typed into sqlite3 included. A process may keep that configuration
-- in memory and read it again only when the generation it sees in its read transaction moved:
-- the picker then reads one row and the bookings ahead, instead of six tables per call.

CREATE TABLE config_generation (
    id         INTEGER PRIMARY KEY CHECK (id = 1),
    generation INTEGER NOT NULL DEFAULT 0 CHECK (generation >= 0)
) STRICT;

INSERT INTO config_generation (id, generation) VALUES (1, 0);

CREATE TRIGGER config_generation_kept BEFORE DELETE ON config_generation
BEGIN
    SELECT RAISE(ABORT, 'config_generation: the row is required');
END;

-- Only ever forward: a generation set back could match a cache of older configuration.
CREATE TRIGGER config_generation_forward BEFORE UPDATE ON config_generation
WHEN NEW.generation <= OLD.generation OR NEW.id IS NOT OLD.id
BEGIN
    SELECT RAISE(ABORT, 'config_generation: the generation only moves forward');
END;

CREATE TRIGGER settings_bump_generation AFTER UPDATE ON settings
BEGIN
    UPDATE config_generation SET generation = generation + 1 WHERE id = 1;
END;

CREATE TRIGGER weekly_hours_insert_bump_generation AFTER INSERT ON weekly_hours
BEGIN
    UPDATE config_generation SET generation = generation + 1 WHERE id = 1;
END;

CREATE TRIGGER weekly_hours_update_bump_generation AFTER UPDATE ON weekly_hours
BEGIN
    UPDATE config_generation SET generation = generation + 1 WHERE id = 1;
END;

CREATE TRIGGER weekly_hours_delete_bump_generation AFTER DELETE ON weekly_hours
BEGIN
    UPDATE config_generation SET generation = generation + 1 WHERE id = 1;
END;

CREATE TRIGGER schedule_exceptions_insert_bump_generation AFTER INSERT ON schedule_exceptions
BEGIN
    UPDATE config_generation SET generation = generation + 1 WHERE id = 1;
END;

CREATE TRIGGER schedule_exceptions_update_bump_generation AFTER UPDATE ON schedule_exceptions
BEGIN
    UPDATE config_generation SET generation = generation + 1 WHERE id = 1;
END;

CREATE TRIGGER schedule_exceptions_delete_bump_generation AFTER DELETE ON schedule_exceptions
BEGIN
    UPDATE config_generation SET generation = generation + 1 WHERE id = 1;
END;

CREATE TRIGGER capacity_rules_insert_bump_generation AFTER INSERT ON capacity_rules
BEGIN
    UPDATE config_generation SET generation = generation + 1 WHERE id = 1;
END;

CREATE TRIGGER capacity_rules_update_bump_generation AFTER UPDATE ON capacity_rules
BEGIN
    UPDATE config_generation SET generation = generation + 1 WHERE id = 1;
END;

CREATE TRIGGER capacity_rules_delete_bump_generation AFTER DELETE ON capacity_rules
BEGIN
    UPDATE config_generation SET generation = generation + 1 WHERE id = 1;
END;
