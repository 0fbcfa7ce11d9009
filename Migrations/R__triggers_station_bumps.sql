-- The triggers on station_bumps: the rules every writer is held to and the history they write. A
-- repeatable definition (see R__views.sql): edit here. The order of the triggers is the order they
-- are made in, and SQLite runs a table's triggers of one kind last made first.

CREATE TRIGGER station_bumps_rules BEFORE INSERT ON station_bumps
WHEN (SELECT status FROM orders WHERE id = NEW.order_id) NOT IN ('placed', 'preparing')
  OR NOT EXISTS (SELECT 1 FROM order_lines WHERE order_id = NEW.order_id AND station_id = NEW.station_id)
BEGIN
    SELECT RAISE(ABORT, 'station_bump: a station marks done only its part of a placed or preparing order (the order has lines it makes)');
END;

CREATE TRIGGER station_bumps_fixed BEFORE UPDATE ON station_bumps
BEGIN
    SELECT RAISE(ABORT, 'station_bump: a bump is not changed; the order going back from ready, or more to make, takes it away');
END;

CREATE TRIGGER audit_station_bumps_insert AFTER INSERT ON station_bumps
BEGIN
    INSERT INTO audit_log (at, actor, source, object, action, new)
    SELECT coalesce(c.at, NEW.at), coalesce(c.actor, NEW.actor), coalesce(c.source, 'sql'), 'order:' || NEW.order_id, 'bump',
           json_object('station_id', NEW.station_id, 'station', (SELECT name FROM stations WHERE id = NEW.station_id))
    FROM audit_context c WHERE c.id = 1;
END;
