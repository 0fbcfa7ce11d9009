-- 0030: a booking builds no temporary b-trees for its checks.
--
-- SQLite evaluates `x IN ('a', 'b', 'c', …)` — a list of more than two values — by building an
-- ephemeral b-tree of the values each time the statement runs (`OpenEphemeral` in `EXPLAIN`;
-- a list of one or two is compared directly). A booking ran four such builds for its CHECKs:
-- orders.status on the order, and order_status_events.kind and .to_status (and .from_status,
-- when set) on the `placed` event its trigger writes. Each build opens a temporary database,
-- creates a b-tree in it, zeroes its pages and closes it again: with the trigger below, about
-- 6 % of a booking's instructions (callgrind, pizzeria-bench's bookings: 1.98 M → 1.86 M).
-- The same rules written as `x = 'a' OR x = 'b' OR …` are compared directly. A CHECK cannot be
-- altered, so both tables are rebuilt as 0027 did (create, copy in key order, drop, rename;
-- legacy_alter_table keeps the other tables' triggers, views and foreign keys naming them) and
-- their indexes and triggers created again, verbatim. Nothing else changes: the columns, their
-- order, every other rule and every row (event ids included).
--
-- order_lines_stock_take also took a temporary b-tree for every line, for its `UPDATE modifiers`
-- (the rows to update, gathered first), even when the line has no modifiers and the statement
-- can change nothing. That statement is now its own trigger, order_lines_modifier_stock_take,
-- with `WHEN NEW.modifiers IS NOT NULL`: a line without modifiers does not run it at all.

PRAGMA legacy_alter_table = ON;

CREATE TABLE order_status_events_rebuilt (
    id          INTEGER PRIMARY KEY,
    order_id    TEXT NOT NULL REFERENCES orders (id),
    -- placed (booked), status (a status change), undo (a status change taken back), moved
    -- (another pickup), edited (lines or note), paid (a payment), refunded (a refund).
    kind        TEXT NOT NULL DEFAULT 'status'
                CHECK (kind = 'placed' OR kind = 'status' OR kind = 'undo'
                       OR kind = 'moved' OR kind = 'edited' OR kind = 'paid'
                       OR kind = 'refunded'),
    from_status TEXT CHECK (from_status IS NULL OR from_status = 'placed' OR from_status = 'preparing'
                            OR from_status = 'ready' OR from_status = 'collected' OR from_status = 'no_show'
                            OR from_status = 'cancelled'),
    to_status   TEXT NOT NULL
                CHECK (to_status = 'placed' OR to_status = 'preparing' OR to_status = 'ready'
                       OR to_status = 'collected' OR to_status = 'no_show' OR to_status = 'cancelled'),
    -- What changed, for people: `pickup 2026-12-04T18:00:00Z → 2026-12-04T18:30:00Z`, `+1 Diavola`.
    detail      TEXT CHECK (detail IS NULL OR length(detail) BETWEEN 1 AND 1000),
    -- Who made the change (the name the staff gave), or NULL.
    actor       TEXT CHECK (actor IS NULL OR length(actor) BETWEEN 1 AND 64),
    at          TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
) STRICT;

INSERT INTO order_status_events_rebuilt (id, order_id, kind, from_status, to_status, detail, actor, at)
SELECT id, order_id, kind, from_status, to_status, detail, actor, at
FROM order_status_events ORDER BY id;

DROP TABLE order_status_events;

ALTER TABLE order_status_events_rebuilt RENAME TO order_status_events;

CREATE TABLE orders_rebuilt (
    id                    TEXT NOT NULL PRIMARY KEY
                          DEFAULT (lower(hex(randomblob(4))) || '-' || lower(hex(randomblob(2))) || '-4' ||
                                   substr(lower(hex(randomblob(2))), 2) || '-' ||
                                   substr('89ab', 1 + (abs(random()) % 4), 1) ||
                                   substr(lower(hex(randomblob(2))), 2) || '-' || lower(hex(randomblob(6))))
                          CHECK (length(id) = 36 AND id GLOB '????????-????-????-????-????????????'
                                 AND id NOT GLOB '*[^0-9a-f-]*'),
    user_id               TEXT NOT NULL REFERENCES users (id),
    -- Start of the pickup slot, UTC, to the minute: 2026-12-01T18:30:00Z.
    pickup_at             TEXT NOT NULL
                          CHECK (pickup_at GLOB '[0-9][0-9][0-9][0-9]-[0-1][0-9]-[0-3][0-9]T[0-2][0-9]:[0-5][0-9]:00Z'),
    -- The service day the slot belongs to, and the pickup in local time with its offset.
    service_day           TEXT NOT NULL
                          CHECK (service_day GLOB '[0-9][0-9][0-9][0-9]-[0-1][0-9]-[0-3][0-9]' AND date(julianday(service_day)) IS service_day),
    pickup_local          TEXT NOT NULL
                          CHECK (pickup_local GLOB '[0-9][0-9][0-9][0-9]-[0-1][0-9]-[0-3][0-9]T[0-2][0-9]:[0-5][0-9][+-][0-1][0-9]:[0-5][0-9]'),
    -- placed → preparing → ready → collected, or ready → no_show; cancelled from placed or preparing.
    status                TEXT NOT NULL DEFAULT 'placed'
                          CHECK (status = 'placed' OR status = 'preparing' OR status = 'ready'
                                 OR status = 'collected' OR status = 'no_show' OR status = 'cancelled'),
    -- Σ quantity × unit price of the lines, kept by triggers as lines are added, changed, removed.
    total_cents           INTEGER NOT NULL DEFAULT 0 CHECK (total_cents >= 0),
    -- The app's retry key: one order per key (the partial index orders_by_idempotency_key).
    idempotency_key       TEXT CHECK (idempotency_key IS NULL OR length(idempotency_key) BETWEEN 1 AND 128),
    request_fingerprint   TEXT,
    -- For the kitchen: 1 to 200 characters, no control characters.
    note                  TEXT CHECK (note IS NULL OR (length(note) BETWEEN 1 AND 200
                                      AND note NOT GLOB ('*[' || char(1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,
                                                                     26,27,28,29,30,31,127) || ']*'))),
    -- Bumped by every change (move, edit, note, status): a change made from an older version is
    -- refused as a conflict.
    version               INTEGER NOT NULL DEFAULT 1 CHECK (version >= 1),
    -- Who and when of the change being made, read by the history triggers and cleared by them:
    -- always NULL at rest. A change typed into sqlite3 without them is recorded as made now, by nobody.
    changed_by            TEXT CHECK (changed_by IS NULL OR length(changed_by) BETWEEN 1 AND 64),
    changed_at            TEXT CHECK (changed_at IS NULL OR changed_at GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]T*Z'),
    created_at            TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
    updated_at            TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
    -- What the history should say of the change being made beyond what it is (`override: REASON`,
    -- `erased`): read by the history triggers into the event's detail and cleared; NULL at rest.
    change_note           TEXT CHECK (change_note IS NULL OR length(change_note) BETWEEN 1 AND 220),
    -- Set when staff kept a booked order that a schedule change left outside the hours
    -- (`--keep-orders`): the time of that change.
    kept_outside_hours_at TEXT
                          CHECK (kept_outside_hours_at IS NULL OR kept_outside_hours_at GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]T*Z'),
    -- A party's orders (`order place … --split`): the id of its first order, which names itself.
    party_id              TEXT REFERENCES orders (id)
) STRICT, WITHOUT ROWID;

INSERT INTO orders_rebuilt (id, user_id, pickup_at, service_day, pickup_local, status, total_cents, idempotency_key,
                            request_fingerprint, note, version, changed_by, changed_at, created_at, updated_at, change_note,
                            kept_outside_hours_at, party_id)
SELECT id, user_id, pickup_at, service_day, pickup_local, status, total_cents, idempotency_key,
       request_fingerprint, note, version, changed_by, changed_at, created_at, updated_at, change_note,
       kept_outside_hours_at, party_id
FROM orders ORDER BY id;

DROP TABLE orders;

ALTER TABLE orders_rebuilt RENAME TO orders;

PRAGMA legacy_alter_table = OFF;

-- The indexes and triggers as they were, in the order they were created (SQLite fires a table's
-- triggers the last created first, so which rule an update breaking several names is unchanged).

CREATE INDEX order_status_events_by_order ON order_status_events (order_id, id);

CREATE TRIGGER order_status_events_append_only_delete BEFORE DELETE ON order_status_events
BEGIN
    SELECT RAISE(ABORT, 'history_append_only: order_status_events is append-only');
END;

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

CREATE TRIGGER order_status_events_timestamp BEFORE INSERT ON order_status_events
WHEN strftime('%Y-%m-%dT%H:%M:%fZ', NEW.at) IS NOT NEW.at
BEGIN
    SELECT RAISE(ABORT, 'timestamp_format: order_status_events.at is a UTC time such as 2026-12-01T18:30:00.000Z');
END;

CREATE UNIQUE INDEX orders_by_idempotency_key ON orders (idempotency_key) WHERE idempotency_key IS NOT NULL;

CREATE INDEX orders_by_party ON orders (party_id) WHERE party_id IS NOT NULL;

CREATE INDEX orders_by_pickup_id ON orders (pickup_at, id);

CREATE INDEX orders_by_service_day ON orders (service_day, pickup_at, id);

CREATE INDEX orders_by_status_pickup ON orders (status, pickup_at, id);

CREATE INDEX orders_by_user_pickup ON orders (user_id, pickup_at, id);

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
    INSERT INTO order_status_events (order_id, kind, from_status, to_status, detail, actor, at)
    VALUES (NEW.id, 'moved', OLD.status, NEW.status,
            'pickup ' || OLD.pickup_local || ' → ' || NEW.pickup_local
                || CASE WHEN NEW.change_note IS NOT NULL THEN ', ' || NEW.change_note ELSE '' END,
            NEW.changed_by, coalesce(NEW.changed_at, strftime('%Y-%m-%dT%H:%M:%fZ', 'now')));
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
    INSERT INTO order_status_events (order_id, kind, from_status, to_status, detail, actor, at)
    VALUES (NEW.id, 'placed', NULL, NEW.status, NEW.change_note, NEW.changed_by, NEW.created_at);
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
BEGIN
    SELECT RAISE(ABORT, 'order_total_derived: orders.total_cents is the sum of the order''s lines, kept by triggers');
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
END;

CREATE TRIGGER orders_insert_rules BEFORE INSERT ON orders
BEGIN
    -- user_erased (was orders_user_not_erased)
    SELECT RAISE(ABORT, 'user_erased: this customer''s data was erased; they cannot book')
    WHERE EXISTS (SELECT 1 FROM user_erasures WHERE user_id = NEW.user_id);
    -- order_total_derived (was orders_total_starts_zero)
    SELECT RAISE(ABORT, 'order_total_derived: a new order''s total_cents is 0; its lines make the total')
    WHERE NEW.total_cents IS NOT 0;
    -- timestamp_format (was orders_timestamps_insert)
    SELECT RAISE(ABORT, 'timestamp_format: created_at, updated_at and changed_at are UTC times such as 2026-12-01T18:30:00.000Z')
    WHERE strftime('%Y-%m-%dT%H:%M:%fZ', NEW.created_at) IS NOT NEW.created_at
       OR strftime('%Y-%m-%dT%H:%M:%fZ', NEW.updated_at) IS NOT NEW.updated_at
       OR (NEW.changed_at IS NOT NULL AND strftime('%Y-%m-%dT%H:%M:%fZ', NEW.changed_at) IS NOT NEW.changed_at);
    -- order_status (was orders_start_placed)
    SELECT RAISE(ABORT, 'order_status: a new order must have status placed')
    WHERE NEW.status IS NOT 'placed';
    -- order_service_day (was orders_service_day_insert)
    SELECT RAISE(ABORT, 'order_service_day: a pickup belongs to the service day before its date only within a night interval of that day')
    WHERE NEW.service_day IS date(substr(NEW.pickup_local, 1, 10), '-1 day')
      AND NOT EXISTS (SELECT 1 FROM weekly_hours w
                      WHERE w.weekday = (CAST(strftime('%w', NEW.service_day) AS INTEGER) + 6) % 7 + 1
                        AND w.closes_at <= w.opens_at AND substr(NEW.pickup_local, 12, 5) < w.closes_at)
      AND NOT EXISTS (SELECT 1 FROM schedule_exceptions x
                      WHERE x.day = NEW.service_day AND x.kind = 'special'
                        AND x.closes_at <= x.opens_at AND substr(NEW.pickup_local, 12, 5) < x.closes_at);
    -- pickup_at on the minute (was orders_pickup_real_insert)
    SELECT RAISE(ABORT, 'pickup_at must be a real UTC time on the minute, such as 2026-12-01T18:30:00Z')
    WHERE strftime('%Y-%m-%dT%H:%M:00Z', julianday(NEW.pickup_at)) IS NOT NEW.pickup_at;
    -- order_party (was orders_party_insert)
    SELECT RAISE(ABORT, 'order_party: a party''s orders are one customer''s on one service day, linked to its first order')
    WHERE NEW.party_id IS NOT NULL AND NEW.party_id IS NOT NEW.id
      AND NOT EXISTS (SELECT 1 FROM orders p WHERE p.id = NEW.party_id AND p.party_id = p.id
                      AND p.user_id = NEW.user_id AND p.service_day = NEW.service_day);
    -- order_local_time (was orders_local_time_insert)
    SELECT RAISE(ABORT, 'order_local_time: an order needs service_day and pickup_local (local time with offset) that agree with pickup_at')
    WHERE strftime('%Y-%m-%dT%H:%M:00Z', substr(NEW.pickup_local, 1, 16),
                   (CASE substr(NEW.pickup_local, 17, 1) WHEN '+' THEN '-' ELSE '+' END) || substr(NEW.pickup_local, 18, 5)) IS NOT NEW.pickup_at
       OR NEW.service_day NOT IN (substr(NEW.pickup_local, 1, 10), date(substr(NEW.pickup_local, 1, 10), '-1 day'));
END;

-- Stock taken by a line: the item's in order_lines_stock_take, its modifiers' in a trigger of
-- their own that runs only for a line that has some (same statements as in 0017).
DROP TRIGGER order_lines_stock_take;

CREATE TRIGGER order_lines_stock_take AFTER INSERT ON order_lines
BEGIN
    UPDATE pizzas SET stock_left = stock_left - NEW.quantity
    WHERE id = NEW.pizza_id AND stock_left IS NOT NULL
      AND (stock_until IS NULL OR (SELECT pickup_at FROM orders WHERE id = NEW.order_id) < stock_until);
END;

CREATE TRIGGER order_lines_modifier_stock_take AFTER INSERT ON order_lines
WHEN NEW.modifiers IS NOT NULL
BEGIN
    UPDATE modifiers SET stock_left = stock_left - NEW.quantity
    WHERE stock_left IS NOT NULL
      AND id IN (SELECT json_extract(value, '$.id') FROM json_each(NEW.modifiers))
      AND (stock_until IS NULL OR (SELECT pickup_at FROM orders WHERE id = NEW.order_id) < stock_until);
END;
