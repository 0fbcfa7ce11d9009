-- The triggers on orders: the rules every writer is held to, the derived data they keep, the
-- history they write. A repeatable definition (see R__views.sql): edit here. The order of the
-- triggers is the order they are made in, and SQLite runs a table's triggers of one kind last
-- made first: keep a new one where it must run.

CREATE TRIGGER orders_created_fixed BEFORE UPDATE OF created_at ON orders
WHEN NEW.created_at IS NOT OLD.created_at
BEGIN
    SELECT RAISE(ABORT, 'order_locked: an order''s created_at never changes');
END;

CREATE TRIGGER orders_erased_user_locked BEFORE UPDATE OF status, note, pickup_at ON orders
WHEN ((OLD.status = 'cancelled' AND NEW.status IS NOT 'cancelled') OR (NEW.note IS NOT NULL AND NEW.note IS NOT OLD.note)
      OR NEW.pickup_at IS NOT OLD.pickup_at)
 AND EXISTS (SELECT 1 FROM user_erasures WHERE user_id = OLD.user_id)
BEGIN
    SELECT RAISE(ABORT, 'user_erased: this customer''s data was erased; their orders only stay for the books');
END;

CREATE TRIGGER orders_local_time_update BEFORE UPDATE OF pickup_at, service_day, pickup_local ON orders
WHEN strftime('%Y-%m-%dT%H:%M:00Z', substr(NEW.pickup_local, 1, 16),
              (CASE substr(NEW.pickup_local, 17, 1) WHEN '+' THEN '-' ELSE '+' END) || substr(NEW.pickup_local, 18, 5)) IS NOT NEW.pickup_at
  OR NEW.service_day NOT IN (substr(NEW.pickup_local, 1, 10), date(substr(NEW.pickup_local, 1, 10), '-1 day'))
BEGIN
    SELECT RAISE(ABORT, 'order_local_time: an order needs service_day and pickup_local (local time with offset) that agree with pickup_at');
END;

CREATE TRIGGER orders_locked_after_placed BEFORE UPDATE OF pickup_at, note ON orders
WHEN OLD.status <> 'placed' AND (NEW.pickup_at IS NOT OLD.pickup_at OR NEW.note IS NOT OLD.note)
 AND NOT (NEW.pickup_at IS OLD.pickup_at AND NEW.note IS NULL AND EXISTS (SELECT 1 FROM user_erasures WHERE user_id = OLD.user_id))
 AND NOT (OLD.status = 'preparing' AND NEW.status = 'preparing' AND NEW.note IS OLD.note
          AND NEW.pickup_at > OLD.pickup_at AND coalesce(NEW.change_note, '') GLOB 'delayed +[0-9]*')
BEGIN
    SELECT RAISE(ABORT, 'order_locked: only a placed order can be moved or edited (a preparing one only delayed: later, with change_note ''delayed +N'')');
END;

CREATE TRIGGER orders_moved_event AFTER UPDATE OF pickup_at ON orders
WHEN NEW.pickup_at IS NOT OLD.pickup_at
BEGIN
    INSERT INTO order_status_events (order_id, kind, from_status, to_status, detail, actor, at, pickup_local, total_cents)
    VALUES (NEW.id, 'moved', OLD.status, NEW.status,
            'pickup ' || OLD.pickup_local || ' → ' || NEW.pickup_local
                || CASE WHEN NEW.change_note IS NOT NULL THEN ', ' || NEW.change_note ELSE '' END,
            NEW.changed_by, coalesce(NEW.changed_at, strftime('%Y-%m-%dT%H:%M:%fZ', 'now')), NEW.pickup_local, NEW.total_cents);
    UPDATE orders SET updated_at = coalesce(NEW.changed_at, strftime('%Y-%m-%dT%H:%M:%fZ', 'now')), version = OLD.version + 1,
                      changed_by = NULL, changed_at = NULL, change_note = NULL
    WHERE id = NEW.id;
END;

CREATE TRIGGER orders_never_deleted BEFORE DELETE ON orders
BEGIN
    SELECT RAISE(ABORT, 'order_kept: orders are never deleted: cancel instead');
END;

CREATE TRIGGER orders_party_fixed BEFORE UPDATE OF party_id ON orders
WHEN NEW.party_id IS NOT OLD.party_id
BEGIN
    SELECT RAISE(ABORT, 'order_party: an order''s party is fixed when it is booked');
END;

CREATE TRIGGER orders_pickup_real_update BEFORE UPDATE OF pickup_at ON orders
WHEN strftime('%Y-%m-%dT%H:%M:00Z', julianday(NEW.pickup_at)) IS NOT NEW.pickup_at
BEGIN
    SELECT RAISE(ABORT, 'pickup_at must be a real UTC time on the minute, such as 2026-12-01T18:30:00Z');
END;

CREATE TRIGGER orders_placed_event AFTER INSERT ON orders
BEGIN
    -- Its total is its lines', written by the booking once they are in (the lines follow the order).
    INSERT INTO order_status_events (order_id, kind, from_status, to_status, detail, actor, at, pickup_local)
    VALUES (NEW.id, 'placed', NULL, NEW.status, NEW.change_note, NEW.changed_by, NEW.created_at, NEW.pickup_local);
    UPDATE orders SET changed_by = NULL, changed_at = NULL, change_note = NULL
    WHERE id = NEW.id AND (changed_by IS NOT NULL OR changed_at IS NOT NULL OR change_note IS NOT NULL);
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

CREATE TRIGGER orders_status_event AFTER UPDATE OF status ON orders
WHEN NEW.status IS NOT OLD.status
BEGIN
    INSERT INTO order_status_events (order_id, kind, from_status, to_status, detail, actor, at, pickup_local, total_cents)
    SELECT NEW.id, 'status', OLD.status, NEW.status, NEW.change_note,
           NEW.changed_by, coalesce(NEW.changed_at, strftime('%Y-%m-%dT%H:%M:%fZ', 'now')), NEW.pickup_local, NEW.total_cents
    WHERE NOT EXISTS (SELECT 1 FROM order_status_events e
                      WHERE e.id = (SELECT max(id) FROM order_status_events WHERE order_id = NEW.id)
                        AND e.kind = 'undo' AND e.from_status = OLD.status AND e.to_status = NEW.status);
    UPDATE orders SET updated_at = coalesce(NEW.changed_at, strftime('%Y-%m-%dT%H:%M:%fZ', 'now')), version = OLD.version + 1,
                      changed_by = NULL, changed_at = NULL, change_note = NULL
    WHERE id = NEW.id;
END;

CREATE TRIGGER orders_status_transition BEFORE UPDATE OF status ON orders
WHEN NEW.status IS NOT OLD.status AND NOT (
       (OLD.status = 'placed'    AND NEW.status IN ('preparing', 'cancelled'))
    OR (OLD.status = 'preparing' AND NEW.status IN ('ready', 'cancelled'))
    OR (OLD.status = 'ready'     AND NEW.status IN ('collected', 'no_show'))
    OR EXISTS (SELECT 1 FROM order_status_events e
               WHERE e.id = (SELECT max(id) FROM order_status_events WHERE order_id = NEW.id)
                 AND e.kind = 'undo' AND e.from_status = OLD.status AND e.to_status = NEW.status))
BEGIN
    SELECT RAISE(ABORT, 'illegal order status change');
END;

CREATE TRIGGER orders_stock_cancel AFTER UPDATE OF status ON orders
WHEN (OLD.status = 'cancelled') <> (NEW.status = 'cancelled')
BEGIN
    UPDATE pizzas
    SET stock_left = min(stock_left + (CASE WHEN NEW.status = 'cancelled' THEN 1 ELSE -1 END)
                         * (SELECT sum(l.quantity) FROM order_lines l WHERE l.order_id = NEW.id AND l.pizza_id = pizzas.id), 100000)
    WHERE stock_left IS NOT NULL AND (stock_until IS NULL OR NEW.pickup_at < stock_until)
      AND id IN (SELECT pizza_id FROM order_lines WHERE order_id = NEW.id);
    UPDATE modifiers
    SET stock_left = min(stock_left + (CASE WHEN NEW.status = 'cancelled' THEN 1 ELSE -1 END)
                         * (SELECT sum(l.quantity) FROM order_lines l, json_each(l.modifiers) e
                            WHERE l.order_id = NEW.id AND json_extract(e.value, '$.id') = modifiers.id), 100000)
    WHERE stock_left IS NOT NULL AND (stock_until IS NULL OR NEW.pickup_at < stock_until)
      AND id IN (SELECT json_extract(e.value, '$.id') FROM order_lines l, json_each(l.modifiers) e WHERE l.order_id = NEW.id);
END;

CREATE TRIGGER orders_stock_undo_check BEFORE UPDATE OF status ON orders
WHEN OLD.status = 'cancelled' AND NEW.status <> 'cancelled'
BEGIN
    SELECT RAISE(ABORT, 'sold_out: an item of this order has sold out since it was cancelled')
    FROM order_lines l JOIN pizzas p ON p.id = l.pizza_id
    WHERE l.order_id = NEW.id AND p.stock_left < l.quantity AND (p.stock_until IS NULL OR NEW.pickup_at < p.stock_until);
END;

CREATE TRIGGER orders_timestamps_update BEFORE UPDATE OF created_at, updated_at, changed_at ON orders
WHEN strftime('%Y-%m-%dT%H:%M:%fZ', NEW.created_at) IS NOT NEW.created_at
  OR strftime('%Y-%m-%dT%H:%M:%fZ', NEW.updated_at) IS NOT NEW.updated_at
  OR (NEW.changed_at IS NOT NULL AND strftime('%Y-%m-%dT%H:%M:%fZ', NEW.changed_at) IS NOT NEW.changed_at)
BEGIN
    SELECT RAISE(ABORT, 'timestamp_format: created_at, updated_at and changed_at are UTC times such as 2026-12-01T18:30:00.000Z');
END;

CREATE TRIGGER orders_total_derived BEFORE UPDATE OF total_cents ON orders
WHEN NEW.total_cents IS NOT (SELECT coalesce(sum(quantity * unit_price_cents), 0) FROM order_lines WHERE order_id = NEW.id)
                          - (SELECT coalesce(sum(amount_cents), 0) FROM order_discounts WHERE order_id = NEW.id)
BEGIN
    SELECT RAISE(ABORT, 'order_total_derived: orders.total_cents is the sum of the order''s lines less its discounts, kept by triggers');
END;

CREATE TRIGGER orders_user_fixed BEFORE UPDATE OF user_id ON orders
WHEN NEW.user_id IS NOT OLD.user_id
BEGIN
    SELECT RAISE(ABORT, 'order_user_fixed: an order belongs to the user who booked it, for good');
END;

CREATE TRIGGER slot_loads_follow_local_time AFTER UPDATE OF pickup_local, service_day ON orders
WHEN NEW.pickup_at IS OLD.pickup_at
BEGIN
    UPDATE slot_loads
    SET service_day = NEW.service_day,
        local_minute = CAST(round((julianday(substr(NEW.pickup_local, 1, 16)) - julianday(NEW.service_day)) * 1440) AS INTEGER)
    WHERE pickup_at = NEW.pickup_at;
END;

CREATE TRIGGER slot_loads_open AFTER INSERT ON orders
WHEN NOT EXISTS (SELECT 1 FROM slot_loads WHERE pickup_at = NEW.pickup_at)
BEGIN
    INSERT INTO slot_loads (pickup_at, service_day, local_minute, capacity, capacity_rule_id)
    SELECT NEW.pickup_at, NEW.service_day, m.minute, c.capacity, c.rule_id
    FROM (SELECT CAST(round((julianday(substr(NEW.pickup_local, 1, 16)) - julianday(NEW.service_day)) * 1440) AS INTEGER) AS minute,
                 (CAST(strftime('%w', NEW.service_day) AS INTEGER) + 6) % 7 + 1 AS weekday) m
    JOIN capacity_candidates c
      ON (c.day = NEW.service_day OR c.weekday = m.weekday OR c.rank = 2) AND c.start_minute <= m.minute AND m.minute < c.end_minute
    ORDER BY c.rank, c.width LIMIT 1;
END;

CREATE TRIGGER orders_insert_rules BEFORE INSERT ON orders
BEGIN
    SELECT RAISE(ABORT, 'row_never_replaced: an orders row is never replaced (REPLACE would delete it without its triggers); UPDATE it, or insert a new order')
    WHERE EXISTS (SELECT 1 FROM orders WHERE id = NEW.id)
       OR (NEW.idempotency_key IS NOT NULL AND EXISTS (SELECT 1 FROM orders WHERE idempotency_key = NEW.idempotency_key));
    SELECT RAISE(ABORT, 'user_erased: this customer''s data was erased; they cannot book')
    WHERE EXISTS (SELECT 1 FROM user_erasures WHERE user_id = NEW.user_id);
    SELECT RAISE(ABORT, 'order_total_derived: a new order''s total_cents is 0; its lines make the total')
    WHERE NEW.total_cents IS NOT 0;
    SELECT RAISE(ABORT, 'timestamp_format: created_at, updated_at and changed_at are UTC times such as 2026-12-01T18:30:00.000Z')
    WHERE strftime('%Y-%m-%dT%H:%M:%fZ', NEW.created_at) IS NOT NEW.created_at
       OR strftime('%Y-%m-%dT%H:%M:%fZ', NEW.updated_at) IS NOT NEW.updated_at
       OR (NEW.changed_at IS NOT NULL AND strftime('%Y-%m-%dT%H:%M:%fZ', NEW.changed_at) IS NOT NEW.changed_at);
    SELECT RAISE(ABORT, 'order_status: a new order must have status placed')
    WHERE NEW.status IS NOT 'placed';
    SELECT RAISE(ABORT, 'order_service_day: a pickup belongs to the service day before its date only within a night interval of that day')
    WHERE NEW.service_day IS date(substr(NEW.pickup_local, 1, 10), '-1 day')
      AND NOT EXISTS (SELECT 1 FROM weekly_hours w
                      WHERE w.weekday = (CAST(strftime('%w', NEW.service_day) AS INTEGER) + 6) % 7 + 1
                        AND w.closes_at <= w.opens_at AND substr(NEW.pickup_local, 12, 5) < w.closes_at)
      AND NOT EXISTS (SELECT 1 FROM schedule_exceptions x
                      WHERE x.day = NEW.service_day AND x.kind = 'special'
                        AND x.closes_at <= x.opens_at AND substr(NEW.pickup_local, 12, 5) < x.closes_at);
    SELECT RAISE(ABORT, 'pickup_at must be a real UTC time on the minute, such as 2026-12-01T18:30:00Z')
    WHERE strftime('%Y-%m-%dT%H:%M:00Z', julianday(NEW.pickup_at)) IS NOT NEW.pickup_at;
    SELECT RAISE(ABORT, 'order_party: a party''s orders are one customer''s on one service day, linked to its first order')
    WHERE NEW.party_id IS NOT NULL AND NEW.party_id IS NOT NEW.id
      AND NOT EXISTS (SELECT 1 FROM orders p WHERE p.id = NEW.party_id AND p.party_id = p.id
                      AND p.user_id = NEW.user_id AND p.service_day = NEW.service_day);
    SELECT RAISE(ABORT, 'order_local_time: an order needs service_day and pickup_local (local time with offset) that agree with pickup_at')
    WHERE strftime('%Y-%m-%dT%H:%M:00Z', substr(NEW.pickup_local, 1, 16),
                   (CASE substr(NEW.pickup_local, 17, 1) WHEN '+' THEN '-' ELSE '+' END) || substr(NEW.pickup_local, 18, 5)) IS NOT NEW.pickup_at
       OR NEW.service_day NOT IN (substr(NEW.pickup_local, 1, 10), date(substr(NEW.pickup_local, 1, 10), '-1 day'));
END;

-- Made before slot_loads_order_change, so it runs after it: a move to a slot no order held yet
-- finds the slot's row (its service day and local minute) when station_loads_capacity reads it.
CREATE TRIGGER station_loads_order_change AFTER UPDATE OF status, pickup_at ON orders
WHEN (NEW.status IS NOT OLD.status OR NEW.pickup_at IS NOT OLD.pickup_at)
 AND EXISTS (SELECT 1 FROM order_lines l WHERE l.order_id = NEW.id AND l.station_id IS NOT NULL AND l.uses_oven = 0)
BEGIN
    INSERT INTO station_loads (station_id, pickup_at)
    SELECT DISTINCT l.station_id, NEW.pickup_at FROM order_lines l
    WHERE l.order_id = NEW.id AND l.station_id IS NOT NULL AND l.uses_oven = 0
      AND NOT EXISTS (SELECT 1 FROM station_loads s WHERE s.station_id = l.station_id AND s.pickup_at = NEW.pickup_at);
    UPDATE station_loads
    SET booked = (SELECT coalesce(sum(l.quantity), 0) FROM orders o JOIN order_lines l ON l.order_id = o.id
                  WHERE o.pickup_at = station_loads.pickup_at AND o.status <> 'cancelled' AND l.station_id = station_loads.station_id)
    WHERE pickup_at = OLD.pickup_at
      AND station_id IN (SELECT l.station_id FROM order_lines l WHERE l.order_id = NEW.id AND l.uses_oven = 0);
    UPDATE station_loads
    SET booked = (SELECT coalesce(sum(l.quantity), 0) FROM orders o JOIN order_lines l ON l.order_id = o.id
                  WHERE o.pickup_at = station_loads.pickup_at AND o.status <> 'cancelled' AND l.station_id = station_loads.station_id)
    WHERE pickup_at = NEW.pickup_at AND NEW.pickup_at IS NOT OLD.pickup_at
      AND station_id IN (SELECT l.station_id FROM order_lines l WHERE l.order_id = NEW.id AND l.uses_oven = 0);
    SELECT RAISE(ABORT, 'station_capacity_exceeded: the station has no room for these pieces in the pickup slot (only a staff override lets an order past its capacity)')
    FROM station_slot_capacity s
    WHERE s.pickup_at = NEW.pickup_at AND NEW.status <> 'cancelled'
      AND (OLD.status = 'cancelled' OR NEW.pickup_at IS NOT OLD.pickup_at) AND s.booked > s.capacity
      AND s.station_id IN (SELECT l.station_id FROM order_lines l WHERE l.order_id = NEW.id AND l.uses_oven = 0)
      AND NOT EXISTS (SELECT 1 FROM capacity_overrides c
                      WHERE c.order_id = NEW.id AND c.pickup_at = NEW.pickup_at AND c.station_id = s.station_id);
END;

CREATE TRIGGER slot_loads_order_change AFTER UPDATE OF status, pickup_at ON orders
WHEN NEW.status IS NOT OLD.status OR NEW.pickup_at IS NOT OLD.pickup_at
BEGIN
    INSERT INTO slot_loads (pickup_at, service_day, local_minute, capacity, capacity_rule_id)
    SELECT NEW.pickup_at, NEW.service_day, m.minute, c.capacity, c.rule_id
    FROM (SELECT CAST(round((julianday(substr(NEW.pickup_local, 1, 16)) - julianday(NEW.service_day)) * 1440) AS INTEGER) AS minute,
                 (CAST(strftime('%w', NEW.service_day) AS INTEGER) + 6) % 7 + 1 AS weekday) m
    JOIN capacity_candidates c
      ON (c.day = NEW.service_day OR c.weekday = m.weekday OR c.rank = 2) AND c.start_minute <= m.minute AND m.minute < c.end_minute
    WHERE NOT EXISTS (SELECT 1 FROM slot_loads WHERE pickup_at = NEW.pickup_at)
    ORDER BY c.rank, c.width LIMIT 1;
    UPDATE slot_loads
    SET booked = (SELECT coalesce(sum(l.quantity * l.uses_oven), 0) FROM orders o JOIN order_lines l ON l.order_id = o.id
                  WHERE o.pickup_at = slot_loads.pickup_at AND o.status <> 'cancelled')
    WHERE pickup_at = OLD.pickup_at;
    UPDATE slot_loads
    SET booked = (SELECT coalesce(sum(l.quantity * l.uses_oven), 0) FROM orders o JOIN order_lines l ON l.order_id = o.id
                  WHERE o.pickup_at = slot_loads.pickup_at AND o.status <> 'cancelled')
    WHERE pickup_at = NEW.pickup_at AND NEW.pickup_at IS NOT OLD.pickup_at;
    SELECT RAISE(ABORT, 'slot_capacity_exceeded: the pickup slot has no room for these pizzas (only a staff override lets an order past its capacity)')
    FROM slot_loads s
    WHERE s.pickup_at = NEW.pickup_at AND NEW.status <> 'cancelled'
      AND (OLD.status = 'cancelled' OR NEW.pickup_at IS NOT OLD.pickup_at) AND s.booked > s.capacity
      AND EXISTS (SELECT 1 FROM order_lines l WHERE l.order_id = NEW.id AND l.uses_oven = 1)
      AND NOT EXISTS (SELECT 1 FROM capacity_overrides c WHERE c.order_id = NEW.id AND c.pickup_at = NEW.pickup_at AND c.station_id IS NULL);
END;

CREATE TRIGGER station_bumps_back_from_ready AFTER UPDATE OF status ON orders
WHEN OLD.status = 'ready' AND NEW.status IN ('placed', 'preparing')
BEGIN
    DELETE FROM station_bumps WHERE order_id = NEW.id;
END;
