-- 0009: one set of rules on every path. Derived data is recomputed from its source rows
-- instead of being moved by deltas, so no combination of columns in one hand-written UPDATE
-- can make it drift; locked columns are locked for UPDATE too; an erased customer's identity
-- stays erased; timestamps are real ones. Trigger messages start with a stable token.
--
-- What is derived, and from what (pizzeria check recomputes each; check --repair rewrites them):
--   slot_loads.booked         the quantities of the slot's orders that are not cancelled
--   slot_loads.capacity, rule the capacity rules and settings.slot_capacity (0008's trigger)
--   orders.total_cents        Σ quantity × unit price of the order's lines
--   orders.service_day        the service day whose hours hold the pickup (checked here: the
--                             day before the local date only for a night interval of that day)

-- Slot loads: recomputed ------------------------------------------------------------------------

DROP TRIGGER slot_loads_line_insert;
DROP TRIGGER slot_loads_line_update;
DROP TRIGGER slot_loads_line_delete;
DROP TRIGGER slot_loads_status;
DROP TRIGGER slot_loads_move;
DROP TRIGGER slot_loads_open;
-- Recreated below, after the loads are recomputed (a slot already over its capacity stays so,
-- and `check` lists it).
DROP TRIGGER slot_loads_capacity;

-- A slot's row appears with its first order (or move), empty; its load is then computed.
CREATE TRIGGER slot_loads_open AFTER INSERT ON orders
BEGIN
    INSERT INTO slot_loads (pickup_at, service_day, local_minute, capacity)
    SELECT NEW.pickup_at, NEW.service_day,
           CAST(round((julianday(substr(NEW.pickup_local, 1, 16)) - julianday(NEW.service_day)) * 1440) AS INTEGER),
           (SELECT slot_capacity FROM settings WHERE id = 1)
    WHERE NOT EXISTS (SELECT 1 FROM slot_loads WHERE pickup_at = NEW.pickup_at);
END;

-- Any change of a line: the slot's load again, from its orders.
CREATE TRIGGER slot_loads_line_insert AFTER INSERT ON order_lines
BEGIN
    UPDATE slot_loads
    SET booked = (SELECT coalesce(sum(l.quantity), 0) FROM orders o JOIN order_lines l ON l.order_id = o.id
                  WHERE o.pickup_at = slot_loads.pickup_at AND o.status <> 'cancelled')
    WHERE pickup_at = (SELECT pickup_at FROM orders WHERE id = NEW.order_id);
END;

CREATE TRIGGER slot_loads_line_update AFTER UPDATE OF quantity ON order_lines
BEGIN
    UPDATE slot_loads
    SET booked = (SELECT coalesce(sum(l.quantity), 0) FROM orders o JOIN order_lines l ON l.order_id = o.id
                  WHERE o.pickup_at = slot_loads.pickup_at AND o.status <> 'cancelled')
    WHERE pickup_at = (SELECT pickup_at FROM orders WHERE id = NEW.order_id);
END;

CREATE TRIGGER slot_loads_line_delete AFTER DELETE ON order_lines
BEGIN
    UPDATE slot_loads
    SET booked = (SELECT coalesce(sum(l.quantity), 0) FROM orders o JOIN order_lines l ON l.order_id = o.id
                  WHERE o.pickup_at = slot_loads.pickup_at AND o.status <> 'cancelled')
    WHERE pickup_at = (SELECT pickup_at FROM orders WHERE id = OLD.order_id);
END;

-- A status change, a move, or both in one statement: the old slot and the new one again.
CREATE TRIGGER slot_loads_order_change AFTER UPDATE OF status, pickup_at ON orders
WHEN NEW.status IS NOT OLD.status OR NEW.pickup_at IS NOT OLD.pickup_at
BEGIN
    INSERT INTO slot_loads (pickup_at, service_day, local_minute, capacity)
    SELECT NEW.pickup_at, NEW.service_day,
           CAST(round((julianday(substr(NEW.pickup_local, 1, 16)) - julianday(NEW.service_day)) * 1440) AS INTEGER),
           (SELECT slot_capacity FROM settings WHERE id = 1)
    WHERE NOT EXISTS (SELECT 1 FROM slot_loads WHERE pickup_at = NEW.pickup_at);
    UPDATE slot_loads
    SET booked = (SELECT coalesce(sum(l.quantity), 0) FROM orders o JOIN order_lines l ON l.order_id = o.id
                  WHERE o.pickup_at = slot_loads.pickup_at AND o.status <> 'cancelled')
    WHERE pickup_at = OLD.pickup_at;
    UPDATE slot_loads
    SET booked = (SELECT coalesce(sum(l.quantity), 0) FROM orders o JOIN order_lines l ON l.order_id = o.id
                  WHERE o.pickup_at = slot_loads.pickup_at AND o.status <> 'cancelled')
    WHERE pickup_at = NEW.pickup_at AND NEW.pickup_at IS NOT OLD.pickup_at;
END;

-- The loads as the orders say, for files whose loads drifted before this migration.
UPDATE slot_loads
SET booked = (SELECT coalesce(sum(l.quantity), 0) FROM orders o JOIN order_lines l ON l.order_id = o.id
              WHERE o.pickup_at = slot_loads.pickup_at AND o.status <> 'cancelled');

-- More pizzas than the capacity are refused; a capacity lowered below what is already booked is
-- allowed (those orders stay; the slot is full until some are cancelled or moved).
CREATE TRIGGER slot_loads_capacity BEFORE UPDATE OF booked ON slot_loads
WHEN NEW.booked > OLD.booked AND NEW.booked > NEW.capacity
BEGIN
    SELECT RAISE(ABORT, 'slot_capacity_exceeded: the pickup slot has no room for these pizzas');
END;

-- booked is what the orders say, whoever writes it: a hand-written value is refused.
CREATE TRIGGER slot_loads_booked_derived BEFORE UPDATE OF booked ON slot_loads
WHEN NEW.booked IS NOT (SELECT coalesce(sum(l.quantity), 0) FROM orders o JOIN order_lines l ON l.order_id = o.id
                        WHERE o.pickup_at = NEW.pickup_at AND o.status <> 'cancelled')
BEGIN
    SELECT RAISE(ABORT, 'slot_loads_derived: slot_loads.booked is the sum of the slot''s orders, kept by triggers; change the orders instead');
END;

CREATE TRIGGER slot_loads_insert_empty BEFORE INSERT ON slot_loads
WHEN NEW.booked <> 0
BEGIN
    SELECT RAISE(ABORT, 'slot_loads_derived: a slot_loads row starts empty; its load comes from its orders');
END;

CREATE TRIGGER slot_loads_key_fixed BEFORE UPDATE OF pickup_at ON slot_loads
WHEN NEW.pickup_at IS NOT OLD.pickup_at
BEGIN
    SELECT RAISE(ABORT, 'slot_loads_derived: a slot_loads row belongs to its pickup time; move the orders instead');
END;

CREATE TRIGGER slot_loads_kept_while_booked BEFORE DELETE ON slot_loads
WHEN OLD.booked > 0
BEGIN
    SELECT RAISE(ABORT, 'slot_loads_derived: a slot with booked pizzas keeps its row; cancel or move the orders instead');
END;

-- A capacity or rule typed by hand is put back to what the rules say (0008's trigger, now also
-- on those columns: it does not fire itself).
DROP TRIGGER slot_loads_effective_capacity;
CREATE TRIGGER slot_loads_effective_capacity AFTER UPDATE OF local_minute, service_day, capacity, capacity_rule ON slot_loads
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

-- Totals: recomputed -----------------------------------------------------------------------------

DROP TRIGGER order_lines_total_insert;
DROP TRIGGER order_lines_total_update;
DROP TRIGGER order_lines_total_delete;

UPDATE orders SET total_cents = (SELECT coalesce(sum(quantity * unit_price_cents), 0) FROM order_lines WHERE order_id = orders.id);

CREATE TRIGGER order_lines_total_insert AFTER INSERT ON order_lines
BEGIN
    UPDATE orders SET total_cents = (SELECT coalesce(sum(quantity * unit_price_cents), 0) FROM order_lines WHERE order_id = NEW.order_id)
    WHERE id = NEW.order_id;
END;

CREATE TRIGGER order_lines_total_update AFTER UPDATE OF quantity ON order_lines
BEGIN
    UPDATE orders SET total_cents = (SELECT coalesce(sum(quantity * unit_price_cents), 0) FROM order_lines WHERE order_id = NEW.order_id)
    WHERE id = NEW.order_id;
END;

CREATE TRIGGER order_lines_total_delete AFTER DELETE ON order_lines
BEGIN
    UPDATE orders SET total_cents = (SELECT coalesce(sum(quantity * unit_price_cents), 0) FROM order_lines WHERE order_id = OLD.order_id)
    WHERE id = OLD.order_id;
END;

CREATE TRIGGER orders_total_derived BEFORE UPDATE OF total_cents ON orders
WHEN NEW.total_cents IS NOT (SELECT coalesce(sum(quantity * unit_price_cents), 0) FROM order_lines WHERE order_id = NEW.id)
BEGIN
    SELECT RAISE(ABORT, 'order_total_derived: orders.total_cents is the sum of the order''s lines, kept by triggers');
END;

CREATE TRIGGER orders_total_starts_zero BEFORE INSERT ON orders
WHEN NEW.total_cents IS NOT 0
BEGIN
    SELECT RAISE(ABORT, 'order_total_derived: a new order''s total_cents is 0; its lines make the total');
END;

-- Ownership and erasure ----------------------------------------------------------------------------

CREATE TRIGGER orders_user_fixed BEFORE UPDATE OF user_id ON orders
WHEN NEW.user_id IS NOT OLD.user_id
BEGIN
    SELECT RAISE(ABORT, 'order_user_fixed: an order belongs to the user who booked it, for good');
END;

CREATE TRIGGER navigation_stack_own_orders_update BEFORE UPDATE OF user_id, order_id ON navigation_stack
WHEN NEW.order_id IS NOT NULL AND (SELECT user_id FROM orders WHERE id = NEW.order_id) IS NOT NEW.user_id
BEGIN
    SELECT RAISE(ABORT, 'route_not_owned: an order route must be an order of the stack''s user');
END;

-- An erased customer's identity stays erased: the one change allowed is the erasure itself
-- (the pseudonym, no name, no phone).
CREATE TRIGGER users_erased_identity_locked BEFORE UPDATE OF handle, display_name, phone ON users
WHEN EXISTS (SELECT 1 FROM user_erasures WHERE user_id = OLD.id)
 AND NOT (NEW.handle IS 'erased-' || substr(OLD.id, 1, 13) AND NEW.display_name IS NULL AND NEW.phone IS NULL)
BEGIN
    SELECT RAISE(ABORT, 'user_erased: this customer''s data was erased; it cannot be filled in again');
END;

-- When the write-ahead log was emptied after the erasure (its frames held the erased data):
-- NULL while the erasure is pending in the WAL; set once, like the rest of the row.
ALTER TABLE user_erasures ADD COLUMN wal_cleared_at TEXT
    CHECK (wal_cleared_at IS NULL OR wal_cleared_at GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]T*Z');

CREATE TRIGGER user_erasures_append_only_update BEFORE UPDATE ON user_erasures
WHEN NOT (NEW.user_id IS OLD.user_id AND NEW.erased_at IS OLD.erased_at AND NEW.actor IS OLD.actor AND OLD.wal_cleared_at IS NULL)
BEGIN
    SELECT RAISE(ABORT, 'history_append_only: user_erasures is append-only (but for wal_cleared_at, set once)');
END;

-- The one sanctioned change of an order's history: the erasure of a customer redacts the free text
-- of their orders' events (a note, an override's reason: the end of `detail` becomes `[erased]`)
-- and names them by their pseudonym where they were the actor. Nothing else changes, ever.
DROP TRIGGER order_status_events_append_only_update;
CREATE TRIGGER order_status_events_append_only_update BEFORE UPDATE ON order_status_events
WHEN NOT (
    EXISTS (SELECT 1 FROM orders o JOIN user_erasures e ON e.user_id = o.user_id WHERE o.id = OLD.order_id)
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

-- An erased customer's orders: their note may be removed whatever their state; nothing else of
-- them changes but a cancellation (no undo of one, no move, no new note).
DROP TRIGGER orders_locked_after_placed;
CREATE TRIGGER orders_locked_after_placed BEFORE UPDATE OF pickup_at, note ON orders
WHEN OLD.status <> 'placed' AND (NEW.pickup_at IS NOT OLD.pickup_at OR NEW.note IS NOT OLD.note)
 AND NOT (NEW.pickup_at IS OLD.pickup_at AND NEW.note IS NULL AND EXISTS (SELECT 1 FROM user_erasures WHERE user_id = OLD.user_id))
BEGIN
    SELECT RAISE(ABORT, 'order_locked: only a placed order can be moved or edited');
END;

CREATE TRIGGER orders_erased_user_locked BEFORE UPDATE OF status, note, pickup_at ON orders
WHEN ((OLD.status = 'cancelled' AND NEW.status IS NOT 'cancelled') OR (NEW.note IS NOT NULL AND NEW.note IS NOT OLD.note)
      OR NEW.pickup_at IS NOT OLD.pickup_at)
 AND EXISTS (SELECT 1 FROM user_erasures WHERE user_id = OLD.user_id)
BEGIN
    SELECT RAISE(ABORT, 'user_erased: this customer''s data was erased; their orders only stay for the books');
END;

CREATE TRIGGER user_erasures_append_only_delete BEFORE DELETE ON user_erasures
BEGIN
    SELECT RAISE(ABORT, 'history_append_only: user_erasures is append-only');
END;

-- Nothing new is recorded for an erased customer: no navigation, no sheet.
CREATE TRIGGER navigation_stack_user_not_erased BEFORE INSERT ON navigation_stack
WHEN EXISTS (SELECT 1 FROM user_erasures WHERE user_id = NEW.user_id)
BEGIN
    SELECT RAISE(ABORT, 'user_erased: this customer''s data was erased; nothing more is recorded for them');
END;

CREATE TRIGGER navigation_events_user_not_erased BEFORE INSERT ON navigation_events
WHEN EXISTS (SELECT 1 FROM user_erasures WHERE user_id = NEW.user_id)
BEGIN
    SELECT RAISE(ABORT, 'user_erased: this customer''s data was erased; nothing more is recorded for them');
END;

CREATE TRIGGER navigation_sheets_user_not_erased BEFORE INSERT ON navigation_sheets
WHEN EXISTS (SELECT 1 FROM user_erasures WHERE user_id = NEW.user_id)
BEGIN
    SELECT RAISE(ABORT, 'user_erased: this customer''s data was erased; nothing more is recorded for them');
END;

CREATE TRIGGER navigation_sheets_user_not_erased_update BEFORE UPDATE ON navigation_sheets
WHEN EXISTS (SELECT 1 FROM user_erasures WHERE user_id = NEW.user_id)
BEGIN
    SELECT RAISE(ABORT, 'user_erased: this customer''s data was erased; nothing more is recorded for them');
END;

-- Service day: the day before the local date only for a night interval of that day ---------------

CREATE TRIGGER orders_service_day_insert BEFORE INSERT ON orders
WHEN NEW.service_day IS date(substr(NEW.pickup_local, 1, 10), '-1 day')
 AND NOT EXISTS (SELECT 1 FROM weekly_hours w
                 WHERE w.weekday = (CAST(strftime('%w', NEW.service_day) AS INTEGER) + 6) % 7 + 1
                   AND w.closes_at <= w.opens_at AND substr(NEW.pickup_local, 12, 5) < w.closes_at)
 AND NOT EXISTS (SELECT 1 FROM schedule_exceptions x
                 WHERE x.day = NEW.service_day AND x.kind = 'special'
                   AND x.closes_at <= x.opens_at AND substr(NEW.pickup_local, 12, 5) < x.closes_at)
BEGIN
    SELECT RAISE(ABORT, 'order_service_day: a pickup belongs to the service day before its date only within a night interval of that day');
END;

CREATE TRIGGER orders_service_day_update BEFORE UPDATE OF pickup_at, service_day, pickup_local ON orders
WHEN NEW.service_day IS date(substr(NEW.pickup_local, 1, 10), '-1 day')
 AND NOT EXISTS (SELECT 1 FROM weekly_hours w
                 WHERE w.weekday = (CAST(strftime('%w', NEW.service_day) AS INTEGER) + 6) % 7 + 1
                   AND w.closes_at <= w.opens_at AND substr(NEW.pickup_local, 12, 5) < w.closes_at)
 AND NOT EXISTS (SELECT 1 FROM schedule_exceptions x
                 WHERE x.day = NEW.service_day AND x.kind = 'special'
                   AND x.closes_at <= x.opens_at AND substr(NEW.pickup_local, 12, 5) < x.closes_at)
BEGIN
    SELECT RAISE(ABORT, 'order_service_day: a pickup belongs to the service day before its date only within a night interval of that day');
END;

-- Real timestamps ---------------------------------------------------------------------------------

CREATE TRIGGER orders_timestamps_insert BEFORE INSERT ON orders
WHEN strftime('%Y-%m-%dT%H:%M:%fZ', NEW.created_at) IS NOT NEW.created_at
  OR strftime('%Y-%m-%dT%H:%M:%fZ', NEW.updated_at) IS NOT NEW.updated_at
  OR (NEW.changed_at IS NOT NULL AND strftime('%Y-%m-%dT%H:%M:%fZ', NEW.changed_at) IS NOT NEW.changed_at)
BEGIN
    SELECT RAISE(ABORT, 'timestamp_format: created_at, updated_at and changed_at are UTC times such as 2026-12-01T18:30:00.000Z');
END;

CREATE TRIGGER orders_timestamps_update BEFORE UPDATE OF created_at, updated_at, changed_at ON orders
WHEN strftime('%Y-%m-%dT%H:%M:%fZ', NEW.created_at) IS NOT NEW.created_at
  OR strftime('%Y-%m-%dT%H:%M:%fZ', NEW.updated_at) IS NOT NEW.updated_at
  OR (NEW.changed_at IS NOT NULL AND strftime('%Y-%m-%dT%H:%M:%fZ', NEW.changed_at) IS NOT NEW.changed_at)
BEGIN
    SELECT RAISE(ABORT, 'timestamp_format: created_at, updated_at and changed_at are UTC times such as 2026-12-01T18:30:00.000Z');
END;

CREATE TRIGGER orders_created_fixed BEFORE UPDATE OF created_at ON orders
WHEN NEW.created_at IS NOT OLD.created_at
BEGIN
    SELECT RAISE(ABORT, 'order_locked: an order''s created_at never changes');
END;

CREATE TRIGGER order_status_events_timestamp BEFORE INSERT ON order_status_events
WHEN strftime('%Y-%m-%dT%H:%M:%fZ', NEW.at) IS NOT NEW.at
BEGIN
    SELECT RAISE(ABORT, 'timestamp_format: order_status_events.at is a UTC time such as 2026-12-01T18:30:00.000Z');
END;

CREATE TRIGGER users_timestamp_insert BEFORE INSERT ON users
WHEN strftime('%Y-%m-%dT%H:%M:%fZ', NEW.created_at) IS NOT NEW.created_at
BEGIN
    SELECT RAISE(ABORT, 'timestamp_format: users.created_at is a UTC time such as 2026-12-01T18:30:00.000Z');
END;

CREATE TRIGGER users_timestamp_update BEFORE UPDATE OF created_at ON users
WHEN NEW.created_at IS NOT OLD.created_at
BEGIN
    SELECT RAISE(ABORT, 'timestamp_format: a user''s created_at never changes');
END;

-- The week: at most 8 intervals a day, as the application allows ----------------------------------

CREATE TRIGGER weekly_hours_per_day_limit AFTER INSERT ON weekly_hours
WHEN (SELECT count(*) FROM weekly_hours WHERE weekday = NEW.weekday) > 8
BEGIN
    SELECT RAISE(ABORT, 'hours_limit: a weekday has at most 8 opening intervals');
END;

-- Staff exceptions and kept orders ----------------------------------------------------------------

-- What the history should say of the change being made beyond what it is (`override: REASON`
-- when staff let it through against a rule, `erased` for an erasure's cancellation): read by the
-- history triggers into the event's detail and cleared by them, like changed_by; NULL at rest.
ALTER TABLE orders ADD COLUMN change_note TEXT CHECK (change_note IS NULL OR length(change_note) BETWEEN 1 AND 220);

-- Set when staff kept a booked order that a schedule change left outside the hours
-- (`--keep-orders`): the time of that change. Such an order blocks no later change; `check`
-- reports future orders outside the hours that are not kept.
ALTER TABLE orders ADD COLUMN kept_outside_hours_at TEXT
    CHECK (kept_outside_hours_at IS NULL OR kept_outside_hours_at GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]T*Z');

DROP TRIGGER orders_placed_event;
CREATE TRIGGER orders_placed_event AFTER INSERT ON orders
BEGIN
    INSERT INTO order_status_events (order_id, kind, from_status, to_status, detail, actor, at)
    VALUES (NEW.id, 'placed', NULL, NEW.status, NEW.change_note, NEW.changed_by, NEW.created_at);
    UPDATE orders SET changed_by = NULL, changed_at = NULL, change_note = NULL
    WHERE id = NEW.id AND (changed_by IS NOT NULL OR changed_at IS NOT NULL OR change_note IS NOT NULL);
END;

DROP TRIGGER orders_status_event;
CREATE TRIGGER orders_status_event AFTER UPDATE OF status ON orders
WHEN NEW.status IS NOT OLD.status
BEGIN
    INSERT INTO order_status_events (order_id, kind, from_status, to_status, detail, actor, at)
    SELECT NEW.id, 'status', OLD.status, NEW.status, NEW.change_note,
           NEW.changed_by, coalesce(NEW.changed_at, strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
    WHERE NOT EXISTS (SELECT 1 FROM order_status_events e
                      WHERE e.id = (SELECT max(id) FROM order_status_events WHERE order_id = NEW.id)
                        AND e.kind = 'undo' AND e.from_status = OLD.status AND e.to_status = NEW.status);
    UPDATE orders SET updated_at = coalesce(NEW.changed_at, strftime('%Y-%m-%dT%H:%M:%fZ', 'now')), version = OLD.version + 1,
                      changed_by = NULL, changed_at = NULL, change_note = NULL
    WHERE id = NEW.id;
END;

DROP TRIGGER orders_moved_event;
CREATE TRIGGER orders_moved_event AFTER UPDATE OF pickup_at ON orders
WHEN NEW.pickup_at IS NOT OLD.pickup_at
BEGIN
    INSERT INTO order_status_events (order_id, kind, from_status, to_status, detail, actor, at)
    VALUES (NEW.id, 'moved', OLD.status, NEW.status,
            'pickup ' || OLD.pickup_local || ' → ' || NEW.pickup_local
                || CASE WHEN NEW.change_note IS NOT NULL THEN ', ' || NEW.change_note ELSE '' END,
            NEW.changed_by, coalesce(NEW.changed_at, strftime('%Y-%m-%dT%H:%M:%fZ', 'now')));
    UPDATE orders SET updated_at = coalesce(NEW.changed_at, strftime('%Y-%m-%dT%H:%M:%fZ', 'now')), version = OLD.version + 1,
                      changed_by = NULL, changed_at = NULL, change_note = NULL
    WHERE id = NEW.id;
END;

-- Customers erased before this migration: what the erasure now removes goes from their orders too
-- (notes, the free text of their orders' history, idempotency keys). Their erasures are marked
-- pending in the WAL until the next erasure or `check --repair` empties it.
UPDATE orders SET note = NULL, idempotency_key = NULL, request_fingerprint = NULL
WHERE user_id IN (SELECT user_id FROM user_erasures) AND (note IS NOT NULL OR idempotency_key IS NOT NULL);

UPDATE order_status_events
SET detail = CASE
        WHEN instr(detail, 'note: ') > 0 AND (instr(detail, 'override: ') = 0 OR instr(detail, 'note: ') < instr(detail, 'override: '))
            THEN substr(detail, 1, instr(detail, 'note: ') - 1) || '[erased]'
        ELSE substr(detail, 1, instr(detail, 'override: ') - 1) || '[erased]' END
WHERE order_id IN (SELECT o.id FROM orders o JOIN user_erasures e ON e.user_id = o.user_id)
  AND (instr(detail, 'note: ') > 0 OR instr(detail, 'override: ') > 0);
