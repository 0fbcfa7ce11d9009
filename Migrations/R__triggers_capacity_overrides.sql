-- The triggers on capacity_overrides: the rules every writer is held to, the derived data they keep, the
-- history they write. A repeatable definition (see R__views.sql): edit here. The order of the
-- triggers is the order they are made in, and SQLite runs a table's triggers of one kind last
-- made first: keep a new one where it must run.

CREATE TRIGGER capacity_overrides_append_only_update BEFORE UPDATE ON capacity_overrides
WHEN NOT (NEW.reason = '[erased]' AND NEW.id = OLD.id AND NEW.order_id = OLD.order_id AND NEW.pickup_at = OLD.pickup_at
          AND NEW.pizzas = OLD.pizzas AND NEW.actor = OLD.actor AND NEW.at = OLD.at
          AND NEW.station_id IS OLD.station_id
          AND EXISTS (SELECT 1 FROM orders o JOIN user_erasures e ON e.user_id = o.user_id WHERE o.id = OLD.order_id))
BEGIN
    SELECT RAISE(ABORT, 'capacity_overrides_append_only: an override is a record; only an erasure redacts its reason');
END;

CREATE TRIGGER capacity_overrides_append_only_delete BEFORE DELETE ON capacity_overrides
BEGIN
    SELECT RAISE(ABORT, 'capacity_overrides_append_only: an override is a record and is never deleted');
END;

CREATE TRIGGER capacity_overrides_never_replaced BEFORE INSERT ON capacity_overrides
WHEN NEW.id > 0 AND EXISTS (SELECT 1 FROM capacity_overrides WHERE id = NEW.id)
BEGIN
    SELECT RAISE(ABORT, 'row_never_replaced: a row of capacity_overrides is never replaced (REPLACE would delete it without its triggers); UPDATE it where the table allows, or insert a new row');
END;


CREATE TRIGGER capacity_overrides_station BEFORE INSERT ON capacity_overrides
WHEN NEW.station_id IS NOT NULL
 AND NOT EXISTS (SELECT 1 FROM stations t WHERE t.id = NEW.station_id AND t.holds_slot_capacity = 0)
BEGIN
    SELECT RAISE(ABORT, 'capacity_override_station: a station''s override names a station other than the one holding the slot capacity (whose override has no station_id)');
END;
