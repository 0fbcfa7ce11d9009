-- The triggers on stations and station_loads: the rules every writer is held to, the derived data
-- they keep, the history they write. A repeatable definition (see R__views.sql): edit here. The
-- order of the triggers is the order they are made in, and SQLite runs a table's triggers of one
-- kind last made first: keep a new one where it must run.

CREATE TRIGGER stations_holding_fixed BEFORE UPDATE OF id, holds_slot_capacity ON stations
WHEN NEW.id IS NOT OLD.id OR NEW.holds_slot_capacity IS NOT OLD.holds_slot_capacity
BEGIN
    SELECT RAISE(ABORT, 'station_fixed: a station keeps its id, and the station holding the slot capacity stays the one (rename it instead)');
END;

CREATE TRIGGER stations_kept_while_used BEFORE DELETE ON stations
WHEN OLD.holds_slot_capacity = 1
  OR EXISTS (SELECT 1 FROM categories WHERE station_id = OLD.id)
  OR EXISTS (SELECT 1 FROM order_lines WHERE station_id = OLD.id AND uses_oven = 0 AND station_id IS NOT NULL)
BEGIN
    SELECT RAISE(ABORT, 'station_in_use: the station holds the slot capacity, prepares a category or has booked lines; move its categories to another station first (a station with booked lines keeps its row: rename it)');
END;

CREATE TRIGGER audit_stations_insert AFTER INSERT ON stations
BEGIN
    INSERT INTO audit_log (at, actor, source, object, action, new)
    SELECT coalesce(c.at, strftime('%Y-%m-%dT%H:%M:%fZ', 'now')), c.actor, coalesce(c.source, 'sql'), 'station:' || NEW.id, 'add',
           json_object('name', NEW.name, 'capacity', NEW.capacity, 'position', NEW.position)
    FROM audit_context c WHERE c.id = 1;
END;

CREATE TRIGGER audit_stations_update AFTER UPDATE ON stations
WHEN OLD.name IS NOT NEW.name OR OLD.capacity IS NOT NEW.capacity OR OLD.position IS NOT NEW.position
BEGIN
    INSERT INTO audit_log (at, actor, source, object, action, old, new)
    SELECT coalesce(c.at, strftime('%Y-%m-%dT%H:%M:%fZ', 'now')), c.actor, coalesce(c.source, 'sql'), 'station:' || NEW.id, 'edit',
           json_object('name', OLD.name, 'capacity', OLD.capacity, 'position', OLD.position),
           json_object('name', NEW.name, 'capacity', NEW.capacity, 'position', NEW.position)
    FROM audit_context c WHERE c.id = 1;
END;

CREATE TRIGGER audit_stations_delete AFTER DELETE ON stations
BEGIN
    INSERT INTO audit_log (at, actor, source, object, action, old)
    SELECT coalesce(c.at, strftime('%Y-%m-%dT%H:%M:%fZ', 'now')), c.actor, coalesce(c.source, 'sql'), 'station:' || OLD.id, 'remove',
           json_object('name', OLD.name, 'capacity', OLD.capacity, 'position', OLD.position)
    FROM audit_context c WHERE c.id = 1;
END;

CREATE TRIGGER stations_never_replaced BEFORE INSERT ON stations
WHEN NEW.id > 0 AND EXISTS (SELECT 1 FROM stations WHERE id = NEW.id)
BEGIN
    SELECT RAISE(ABORT, 'row_never_replaced: a row of stations is never replaced (REPLACE would delete it without its triggers); UPDATE it where the table allows, or insert a new row');
END;

CREATE TRIGGER station_loads_insert_empty BEFORE INSERT ON station_loads
WHEN NEW.booked <> 0
  OR EXISTS (SELECT 1 FROM stations WHERE id = NEW.station_id AND holds_slot_capacity = 1)
BEGIN
    SELECT RAISE(ABORT, 'station_loads_derived: a station_loads row starts empty, for a station other than the one holding the slot capacity (its load is slot_loads); its load comes from its orders');
END;

CREATE TRIGGER station_loads_key_fixed BEFORE UPDATE OF station_id, pickup_at ON station_loads
WHEN NEW.station_id IS NOT OLD.station_id OR NEW.pickup_at IS NOT OLD.pickup_at
BEGIN
    SELECT RAISE(ABORT, 'station_loads_derived: a station_loads row belongs to its station and pickup time; move the orders instead');
END;

CREATE TRIGGER station_loads_kept_while_booked BEFORE DELETE ON station_loads
WHEN OLD.booked > 0
BEGIN
    SELECT RAISE(ABORT, 'station_loads_derived: a station''s slot with booked pieces keeps its row; cancel or move the orders instead');
END;

CREATE TRIGGER station_loads_booked_derived BEFORE UPDATE OF booked ON station_loads
WHEN NEW.booked IS NOT (SELECT coalesce(sum(l.quantity), 0) FROM orders o JOIN order_lines l ON l.order_id = o.id
                        WHERE o.pickup_at = NEW.pickup_at AND o.status <> 'cancelled' AND l.station_id = NEW.station_id)
BEGIN
    SELECT RAISE(ABORT, 'station_loads_derived: station_loads.booked is the sum of the slot''s lines at the station, kept by triggers; change the orders instead');
END;

CREATE TRIGGER station_loads_capacity BEFORE UPDATE OF booked ON station_loads
WHEN NEW.booked > OLD.booked AND NEW.booked > (
    SELECT c.capacity + min((c.capacity + 3) / 4,
                            coalesce((SELECT a.pieces FROM station_override_allowance a
                                      WHERE a.station_id = NEW.station_id AND a.pickup_at = NEW.pickup_at), 0))
    FROM slot_loads s JOIN station_capacity_candidates c ON c.station_id = NEW.station_id
    WHERE s.pickup_at = NEW.pickup_at
      AND (c.day = s.service_day OR c.weekday = (CAST(strftime('%w', s.service_day) AS INTEGER) + 6) % 7 + 1 OR c.rank = 2)
      AND c.start_minute <= s.local_minute AND s.local_minute < c.end_minute
    ORDER BY c.rank, c.width LIMIT 1)
BEGIN
    SELECT RAISE(ABORT, 'station_capacity_exceeded: the station has no room for these pieces in the pickup slot (its capacity rule for the slot, else stations.capacity; a staff override passes it by at most a quarter, rounded up)');
END;

CREATE TRIGGER station_loads_never_replaced BEFORE INSERT ON station_loads
WHEN EXISTS (SELECT 1 FROM station_loads WHERE station_id = NEW.station_id AND pickup_at = NEW.pickup_at)
BEGIN
    SELECT RAISE(ABORT, 'row_never_replaced: a row of station_loads is never replaced (REPLACE would delete it without its triggers); its load comes from its orders');
END;
