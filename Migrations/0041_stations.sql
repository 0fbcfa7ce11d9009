-- 0041: stations — where a category's items are prepared, each with its own capacity per slot.
--
-- `stations`: `Forno` (the oven) and whatever else the shop has (`Friggitrice`, `Bar`). Exactly
-- one station holds the slot capacity (`holds_slot_capacity = 1`, made here as `Forno`, which may
-- be renamed): its load is the slot's (`slot_loads`, from the capacity rules) and it has no
-- `capacity` of its own. Any other station has a `capacity` per slot (NULL: no limit), and its
-- load per slot is `station_loads`, kept by triggers like `slot_loads`.
-- `categories.station_id`: where the category's items are prepared (NULL: nowhere — bottled
-- drinks handed over at the counter). `categories.uses_oven` stays, derived: 1 exactly when the
-- category prepares at the station holding the slot capacity (a trigger keeps each from the other).
-- `order_lines.station_id`: the category's station when the line was booked, never changed.
-- Existing files: the categories that used the oven prepare at Forno, the others at none; lines
-- likewise.

CREATE TABLE stations (
    id                  INTEGER PRIMARY KEY,
    -- 1 to 40 characters, no control characters, unique ignoring case.
    name                TEXT NOT NULL UNIQUE COLLATE NOCASE
                        CHECK (length(name) BETWEEN 1 AND 40 AND trim(name) = name
                               AND name NOT GLOB ('*[' || char(1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,
                                                               26,27,28,29,30,31,127) || ']*')),
    -- Pieces per slot it can make (NULL: no limit); the station holding the slot capacity has none.
    capacity            INTEGER CHECK (capacity IS NULL OR capacity BETWEEN 1 AND 10000),
    holds_slot_capacity INTEGER NOT NULL DEFAULT 0 CHECK (holds_slot_capacity IN (0, 1)),
    -- The order stations are listed in (boards, tickets).
    position            INTEGER NOT NULL DEFAULT 1 CHECK (position BETWEEN 1 AND 100),
    CHECK (holds_slot_capacity = 0 OR capacity IS NULL)
) STRICT;

CREATE UNIQUE INDEX stations_one_holding_slot_capacity ON stations (holds_slot_capacity) WHERE holds_slot_capacity = 1;

INSERT INTO stations (id, name, holds_slot_capacity, position) VALUES (1, 'Forno', 1, 1);

ALTER TABLE categories ADD COLUMN station_id INTEGER REFERENCES stations (id);
UPDATE categories SET station_id = 1 WHERE uses_oven = 1;

-- Lines of orders in any state take their station; the rule that locks a booked line's columns
-- is made again with the other triggers once this migration has run.
DROP TRIGGER IF EXISTS order_lines_locked_update;
ALTER TABLE order_lines ADD COLUMN station_id INTEGER REFERENCES stations (id);
UPDATE order_lines SET station_id = 1 WHERE uses_oven = 1;
-- Lines at a station other than the oven, for the rule that keeps a used station: a pizza's line
-- (the oven's, never removed) adds no index entry to a booking.
CREATE INDEX order_lines_by_station ON order_lines (station_id) WHERE uses_oven = 0 AND station_id IS NOT NULL;

-- The load of each station other than the one holding the slot capacity, per pickup slot: the
-- pieces of the live (not cancelled) orders' lines prepared there.
CREATE TABLE station_loads (
    station_id INTEGER NOT NULL REFERENCES stations (id),
    pickup_at  TEXT NOT NULL
               CHECK (pickup_at GLOB '[0-9][0-9][0-9][0-9]-[0-1][0-9]-[0-3][0-9]T[0-2][0-9]:[0-5][0-9]:00Z'),
    booked     INTEGER NOT NULL DEFAULT 0 CHECK (booked >= 0),
    PRIMARY KEY (station_id, pickup_at)
) STRICT, WITHOUT ROWID;
