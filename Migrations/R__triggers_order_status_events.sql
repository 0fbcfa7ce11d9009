-- The triggers on order_status_events: the rules every writer is held to, the derived data they keep, the
-- history they write. A repeatable definition (see R__views.sql): edit here. The order of the
-- triggers is the order they are made in, and SQLite runs a table's triggers of one kind last
-- made first: keep a new one where it must run.

CREATE TRIGGER order_status_events_append_only_delete BEFORE DELETE ON order_status_events
BEGIN
    SELECT RAISE(ABORT, 'history_append_only: order_status_events is append-only');
END;

-- Two changes only: an erased customer's redaction, and a booking's placed event taking its
-- total once its lines are in.
CREATE TRIGGER order_status_events_append_only_update BEFORE UPDATE ON order_status_events
WHEN NOT (
    OLD.kind = 'placed' AND OLD.total_cents IS NULL AND NEW.total_cents IS NOT NULL
    AND NEW.id IS OLD.id AND NEW.order_id IS OLD.order_id AND NEW.kind IS OLD.kind AND NEW.from_status IS OLD.from_status
    AND NEW.to_status IS OLD.to_status AND NEW.at IS OLD.at AND NEW.detail IS OLD.detail AND NEW.actor IS OLD.actor
    AND NEW.pickup_local IS OLD.pickup_local
) AND NOT (
    EXISTS (SELECT 1 FROM orders o JOIN user_erasures e ON e.user_id = o.user_id WHERE o.id = OLD.order_id)
    AND NEW.pickup_local IS OLD.pickup_local AND NEW.total_cents IS OLD.total_cents
    AND NEW.id IS OLD.id AND NEW.order_id IS OLD.order_id AND NEW.kind IS OLD.kind AND NEW.from_status IS OLD.from_status
    AND NEW.to_status IS OLD.to_status AND NEW.at IS OLD.at
    AND (NEW.detail IS OLD.detail
         OR (substr(NEW.detail, -8) = '[erased]'
             AND substr(OLD.detail, 1, length(NEW.detail) - 8) = substr(NEW.detail, 1, length(NEW.detail) - 8)))
    AND (NEW.actor IS OLD.actor
         OR NEW.actor IS (SELECT 'erased-' || substr(o.user_id, 1, 13) FROM orders o WHERE o.id = OLD.order_id)))
BEGIN
    SELECT RAISE(ABORT, 'history_append_only: order_status_events is append-only (but for the redaction of an erased customer)');
END;

CREATE TRIGGER order_status_events_timestamp BEFORE INSERT ON order_status_events
WHEN strftime('%Y-%m-%dT%H:%M:%fZ', NEW.at) IS NOT NEW.at
BEGIN
    SELECT RAISE(ABORT, 'timestamp_format: order_status_events.at is a UTC time such as 2026-12-01T18:30:00.000Z');
END;

CREATE TRIGGER order_status_events_never_replaced BEFORE INSERT ON order_status_events
WHEN NEW.id > 0 AND EXISTS (SELECT 1 FROM order_status_events WHERE id = NEW.id)
BEGIN
    SELECT RAISE(ABORT, 'row_never_replaced: a row of order_status_events is never replaced (REPLACE would delete it without its triggers); UPDATE it where the table allows, or insert a new row');
END;

