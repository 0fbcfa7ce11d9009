-- 0005: the schema refuses what the application cannot read or would refuse itself.
--
-- * Pizza names are unique by one stored key, their full Unicode case folding (name_key), so
--   "Straße" and "STRASSE" collide whichever comes first. SQL cannot fold non-ASCII letters:
--   Pizzeria computes the key; for a name typed by hand in ASCII, a trigger computes it with
--   lower(); a hand-typed name with other letters must come with its key.
-- * Names must show something and cannot hide their direction: no bidi controls, not only
--   invisible characters.
-- * Pickup times are real instants (no February 30th); navigation rows hold the JSON shapes the
--   router writes.
-- * A booking horizon (settings.booking_horizon_days), and indexes that list orders in pickup
--   order without sorting.

-- Pizza names ---------------------------------------------------------------------------------

-- The full Unicode case folding of the (NFC) name. Filled here with lower() (exact for ASCII);
-- Pizzeria recomputes it for names with other characters when it applies this migration.
ALTER TABLE pizzas ADD COLUMN name_key TEXT CHECK (name_key IS NULL OR length(name_key) BETWEEN 1 AND 720);
UPDATE pizzas SET name_key = lower(name);
CREATE UNIQUE INDEX pizzas_name_key ON pizzas (name_key);
DROP INDEX pizzas_name_unique;

-- A name typed by hand: ASCII gets its key from lower(); anything else must bring its key.
CREATE TRIGGER pizzas_name_key_insert AFTER INSERT ON pizzas
WHEN NEW.name_key IS NULL
BEGIN
    SELECT RAISE(ABORT, 'a pizza name with non-ASCII characters needs name_key (its full Unicode case folding): add it with pizzeria pizza add')
    WHERE NEW.name GLOB '*[^ -~]*';
    UPDATE pizzas SET name_key = lower(NEW.name) WHERE id = NEW.id;
END;

-- For an ASCII name the key is always lower(name), whoever writes it.
CREATE TRIGGER pizzas_name_key_ascii_insert BEFORE INSERT ON pizzas
WHEN NEW.name_key IS NOT NULL AND NEW.name NOT GLOB '*[^ -~]*' AND NEW.name_key IS NOT lower(NEW.name)
BEGIN
    SELECT RAISE(ABORT, 'name_key of an ASCII name must be lower(name)');
END;

CREATE TRIGGER pizzas_name_key_ascii_update AFTER UPDATE OF name ON pizzas
WHEN NEW.name NOT GLOB '*[^ -~]*' AND NEW.name_key IS NOT lower(NEW.name)
BEGIN
    UPDATE pizzas SET name_key = lower(NEW.name) WHERE id = NEW.id;
END;

-- No bidi controls (U+061C, U+200E, U+200F, U+202A–U+202E, U+2066–U+2069), and something visible:
-- not only spaces, zero-width and other invisible characters.
CREATE TRIGGER pizzas_name_visible_insert BEFORE INSERT ON pizzas
WHEN NEW.name GLOB '*[' || char(1564, 8206, 8207, 8234, 8235, 8236, 8237, 8238, 8294, 8295, 8296, 8297) || ']*'
  OR trim(NEW.name, char(32, 160, 173, 847, 4447, 4448, 6068, 6069, 6155, 6156, 6157, 6158, 8192, 8193, 8194,
                         8195, 8196, 8197, 8198, 8199, 8200, 8201, 8202, 8203, 8204, 8205, 8232, 8233, 8239,
                         8287, 8288, 8289, 8290, 8291, 8292, 12288, 12644, 65024, 65025, 65026, 65027, 65028,
                         65029, 65030, 65031, 65032, 65033, 65034, 65035, 65036, 65037, 65038, 65039, 65279,
                         65440)) = ''
BEGIN
    SELECT RAISE(ABORT, 'a pizza name must show a visible character and contain no bidi control characters');
END;

CREATE TRIGGER pizzas_name_visible_update BEFORE UPDATE OF name ON pizzas
WHEN NEW.name GLOB '*[' || char(1564, 8206, 8207, 8234, 8235, 8236, 8237, 8238, 8294, 8295, 8296, 8297) || ']*'
  OR trim(NEW.name, char(32, 160, 173, 847, 4447, 4448, 6068, 6069, 6155, 6156, 6157, 6158, 8192, 8193, 8194,
                         8195, 8196, 8197, 8198, 8199, 8200, 8201, 8202, 8203, 8204, 8205, 8232, 8233, 8239,
                         8287, 8288, 8289, 8290, 8291, 8292, 12288, 12644, 65024, 65025, 65026, 65027, 65028,
                         65029, 65030, 65031, 65032, 65033, 65034, 65035, 65036, 65037, 65038, 65039, 65279,
                         65440)) = ''
BEGIN
    SELECT RAISE(ABORT, 'a pizza name must show a visible character and contain no bidi control characters');
END;

-- Orders --------------------------------------------------------------------------------------

-- A pickup time is a real instant: through julianday(), 2026-02-30 becomes 2026-03-02, so it differs.
CREATE TRIGGER orders_pickup_real_insert BEFORE INSERT ON orders
WHEN strftime('%Y-%m-%dT%H:%M:00Z', julianday(NEW.pickup_at)) IS NOT NEW.pickup_at
BEGIN
    SELECT RAISE(ABORT, 'pickup_at must be a real UTC time on the minute, such as 2026-12-01T18:30:00Z');
END;

CREATE TRIGGER orders_pickup_real_update BEFORE UPDATE OF pickup_at ON orders
WHEN strftime('%Y-%m-%dT%H:%M:00Z', julianday(NEW.pickup_at)) IS NOT NEW.pickup_at
BEGIN
    SELECT RAISE(ABORT, 'pickup_at must be a real UTC time on the minute, such as 2026-12-01T18:30:00Z');
END;

-- Orders in pickup order (ties by id), for every filter the lists use: no temporary sort, and a
-- keyset cursor (pickup_at, id) resumes a page where the last one ended.
CREATE INDEX orders_by_pickup_id ON orders (pickup_at, id);
CREATE INDEX orders_by_status_pickup ON orders (status, pickup_at, id);
CREATE INDEX orders_by_user_pickup ON orders (user_id, pickup_at, id);
DROP INDEX orders_by_user;

-- How far ahead a pickup may be booked, in days.
ALTER TABLE settings ADD COLUMN booking_horizon_days INTEGER NOT NULL DEFAULT 365
    CHECK (booking_horizon_days BETWEEN 1 AND 3650);

-- Navigation ----------------------------------------------------------------------------------

-- Each stored element is a route ({"pizza":{"id":…}} or {"order":{"id":…}}) or an opaque element
-- ({"opaque":{"type":…,"json":…}}): what the router writes and can read back.
CREATE TRIGGER navigation_events_shape BEFORE INSERT ON navigation_events
WHEN EXISTS (
        SELECT 1 FROM json_each(NEW.routes) e
        WHERE NOT (e.type = 'object' AND (
                  json_type(e.value, '$.pizza.id') = 'text'
               OR json_type(e.value, '$.order.id') = 'text'
               OR (json_type(e.value, '$.opaque.type') = 'text' AND json_type(e.value, '$.opaque.json') = 'text'))))
  OR (NEW.top_before IS NOT NULL AND NOT (json_type(NEW.top_before) = 'object' AND (
                  json_type(NEW.top_before, '$.pizza.id') = 'text'
               OR json_type(NEW.top_before, '$.order.id') = 'text'
               OR (json_type(NEW.top_before, '$.opaque.type') = 'text' AND json_type(NEW.top_before, '$.opaque.json') = 'text'))))
BEGIN
    SELECT RAISE(ABORT, 'navigation_events.routes must be an array of routes or opaque elements, and top_before one of them or NULL');
END;
