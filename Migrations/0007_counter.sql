-- 0007: the counter's evening — orders that change (moved, edited, with a note), no-shows and
-- undo, every change in the order's history with who and when; slot loads kept in a table of
-- their own, so the database refuses overbooking on every change, not only on new lines;
-- customers' contact details and their erasure; navigation that never points at another
-- customer's order.
--
-- `orders` and `order_status_events` are rebuilt (SQLite cannot change a CHECK in place): the
-- migrator runs migrations with foreign keys off and checks them before committing, the
-- procedure SQLite documents for changing a table's schema (https://sqlite.org/lang_altertable.html).
-- Trigger messages start with a stable token (`order_locked: …`).

-- What referred to the old tables by name goes first; it is recreated below.
DROP VIEW order_summary;
DROP TRIGGER order_lines_slot_capacity;
DROP TRIGGER order_lines_total;
DROP TRIGGER order_lines_immutable_update;
DROP TRIGGER order_lines_immutable_delete;

-- Orders -----------------------------------------------------------------------------------------

CREATE TABLE orders_rebuilt (
    id                  TEXT NOT NULL PRIMARY KEY
                        DEFAULT (lower(hex(randomblob(4))) || '-' || lower(hex(randomblob(2))) || '-4' ||
                                 substr(lower(hex(randomblob(2))), 2) || '-' ||
                                 substr('89ab', 1 + (abs(random()) % 4), 1) ||
                                 substr(lower(hex(randomblob(2))), 2) || '-' || lower(hex(randomblob(6))))
                        CHECK (length(id) = 36 AND id GLOB '????????-????-????-????-????????????'
                               AND id NOT GLOB '*[^0-9a-f-]*'),
    user_id             TEXT NOT NULL REFERENCES users (id),
    -- Start of the pickup slot, UTC, to the minute: 2026-12-01T18:30:00Z.
    pickup_at           TEXT NOT NULL
                        CHECK (pickup_at GLOB '[0-9][0-9][0-9][0-9]-[0-1][0-9]-[0-3][0-9]T[0-2][0-9]:[0-5][0-9]:00Z'),
    -- The service day the slot belongs to, and the pickup in local time with its offset.
    service_day         TEXT NOT NULL
                        CHECK (service_day GLOB '[0-9][0-9][0-9][0-9]-[0-1][0-9]-[0-3][0-9]' AND date(julianday(service_day)) IS service_day),
    pickup_local        TEXT NOT NULL
                        CHECK (pickup_local GLOB '[0-9][0-9][0-9][0-9]-[0-1][0-9]-[0-3][0-9]T[0-2][0-9]:[0-5][0-9][+-][0-1][0-9]:[0-5][0-9]'),
    -- placed → preparing → ready → collected, or ready → no_show; cancelled from placed or preparing.
    status              TEXT NOT NULL DEFAULT 'placed'
                        CHECK (status IN ('placed', 'preparing', 'ready', 'collected', 'no_show', 'cancelled')),
    -- Σ quantity × unit price of the lines, kept by triggers as lines are added, changed, removed.
    total_cents         INTEGER NOT NULL DEFAULT 0 CHECK (total_cents >= 0),
    idempotency_key     TEXT UNIQUE CHECK (idempotency_key IS NULL OR length(idempotency_key) BETWEEN 1 AND 128),
    request_fingerprint TEXT,
    -- For the kitchen: 1 to 200 characters, no control characters.
    note                TEXT CHECK (note IS NULL OR (length(note) BETWEEN 1 AND 200
                                    AND note NOT GLOB ('*[' || char(1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,
                                                                   26,27,28,29,30,31,127) || ']*'))),
    -- Bumped by every change (move, edit, note, status): a change made from an older version is
    -- refused as a conflict.
    version             INTEGER NOT NULL DEFAULT 1 CHECK (version >= 1),
    -- Who and when of the change being made, read by the history triggers and cleared by them:
    -- always NULL at rest. A change typed into sqlite3 without them is recorded as made now, by nobody.
    changed_by          TEXT CHECK (changed_by IS NULL OR length(changed_by) BETWEEN 1 AND 64),
    changed_at          TEXT CHECK (changed_at IS NULL OR changed_at GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]T*Z'),
    created_at          TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
    updated_at          TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
) STRICT;

INSERT INTO orders_rebuilt (id, user_id, pickup_at, service_day, pickup_local, status, total_cents, idempotency_key,
                            request_fingerprint, created_at, updated_at)
SELECT id, user_id, pickup_at, service_day, pickup_local, status, total_cents, idempotency_key, request_fingerprint,
       created_at, updated_at
FROM orders;

DROP TABLE orders;
ALTER TABLE orders_rebuilt RENAME TO orders;

-- Lists in pickup order for each filter, a keyset cursor (pickup_at, id) resuming a page.
CREATE INDEX orders_by_pickup_id ON orders (pickup_at, id);
CREATE INDEX orders_by_status_pickup ON orders (status, pickup_at, id);
CREATE INDEX orders_by_user_pickup ON orders (user_id, pickup_at, id);
CREATE INDEX orders_by_service_day ON orders (service_day, pickup_at, id);

-- The history: every status change, move and edit ----------------------------------------------------

CREATE TABLE order_status_events_rebuilt (
    id          INTEGER PRIMARY KEY,
    order_id    TEXT NOT NULL REFERENCES orders (id),
    -- placed (booked), status (a status change), undo (a status change taken back), moved
    -- (another pickup), edited (lines or note).
    kind        TEXT NOT NULL DEFAULT 'status' CHECK (kind IN ('placed', 'status', 'undo', 'moved', 'edited')),
    from_status TEXT CHECK (from_status IS NULL OR from_status IN ('placed', 'preparing', 'ready', 'collected', 'no_show', 'cancelled')),
    to_status   TEXT NOT NULL CHECK (to_status IN ('placed', 'preparing', 'ready', 'collected', 'no_show', 'cancelled')),
    -- What changed, for people: `pickup 2026-12-04T18:00:00Z → 2026-12-04T18:30:00Z`, `+1 Diavola`.
    detail      TEXT CHECK (detail IS NULL OR length(detail) BETWEEN 1 AND 1000),
    -- Who made the change (the name the staff gave), or NULL.
    actor       TEXT CHECK (actor IS NULL OR length(actor) BETWEEN 1 AND 64),
    at          TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
) STRICT;

INSERT INTO order_status_events_rebuilt (id, order_id, kind, from_status, to_status, at)
SELECT id, order_id, CASE WHEN from_status IS NULL THEN 'placed' ELSE 'status' END, from_status, to_status, at
FROM order_status_events;

DROP TABLE order_status_events;
ALTER TABLE order_status_events_rebuilt RENAME TO order_status_events;

CREATE INDEX order_status_events_by_order ON order_status_events (order_id, id);

CREATE TRIGGER order_status_events_append_only_update BEFORE UPDATE ON order_status_events
BEGIN
    SELECT RAISE(ABORT, 'history_append_only: order_status_events is append-only');
END;

-- Erased customers' orders stay, and so do their events: nothing deletes history.
CREATE TRIGGER order_status_events_append_only_delete BEFORE DELETE ON order_status_events
BEGIN
    SELECT RAISE(ABORT, 'history_append_only: order_status_events is append-only');
END;

-- Order triggers -------------------------------------------------------------------------------

CREATE TRIGGER orders_start_placed BEFORE INSERT ON orders
WHEN NEW.status IS NOT 'placed'
BEGIN
    SELECT RAISE(ABORT, 'order_status: a new order must have status placed');
END;

CREATE TRIGGER orders_never_deleted BEFORE DELETE ON orders
BEGIN
    SELECT RAISE(ABORT, 'order_kept: orders are never deleted: cancel instead');
END;

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

-- The local time less its offset is the UTC time; the service day is the local date or the day before.
CREATE TRIGGER orders_local_time_insert BEFORE INSERT ON orders
WHEN strftime('%Y-%m-%dT%H:%M:00Z', substr(NEW.pickup_local, 1, 16),
              (CASE substr(NEW.pickup_local, 17, 1) WHEN '+' THEN '-' ELSE '+' END) || substr(NEW.pickup_local, 18, 5)) IS NOT NEW.pickup_at
  OR NEW.service_day NOT IN (substr(NEW.pickup_local, 1, 10), date(substr(NEW.pickup_local, 1, 10), '-1 day'))
BEGIN
    SELECT RAISE(ABORT, 'order_local_time: an order needs service_day and pickup_local (local time with offset) that agree with pickup_at');
END;

CREATE TRIGGER orders_local_time_update BEFORE UPDATE OF pickup_at, service_day, pickup_local ON orders
WHEN strftime('%Y-%m-%dT%H:%M:00Z', substr(NEW.pickup_local, 1, 16),
              (CASE substr(NEW.pickup_local, 17, 1) WHEN '+' THEN '-' ELSE '+' END) || substr(NEW.pickup_local, 18, 5)) IS NOT NEW.pickup_at
  OR NEW.service_day NOT IN (substr(NEW.pickup_local, 1, 10), date(substr(NEW.pickup_local, 1, 10), '-1 day'))
BEGIN
    SELECT RAISE(ABORT, 'order_local_time: an order needs service_day and pickup_local (local time with offset) that agree with pickup_at');
END;

-- The lifecycle: these changes, and an undo of the last one when it is recorded first as an
-- `undo` event (so a hand-typed status change backwards is refused, and an undo is never silent).
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

-- A booked order records its first event, at its creation time.
CREATE TRIGGER orders_placed_event AFTER INSERT ON orders
BEGIN
    INSERT INTO order_status_events (order_id, kind, from_status, to_status, actor, at)
    VALUES (NEW.id, 'placed', NULL, NEW.status, NEW.changed_by, NEW.created_at);
    UPDATE orders SET changed_by = NULL, changed_at = NULL WHERE id = NEW.id AND (changed_by IS NOT NULL OR changed_at IS NOT NULL);
END;

-- A status change is recorded (unless it carries out the undo just recorded), with who and when.
CREATE TRIGGER orders_status_event AFTER UPDATE OF status ON orders
WHEN NEW.status IS NOT OLD.status
BEGIN
    INSERT INTO order_status_events (order_id, kind, from_status, to_status, actor, at)
    SELECT NEW.id, 'status', OLD.status, NEW.status, NEW.changed_by, coalesce(NEW.changed_at, strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
    WHERE NOT EXISTS (SELECT 1 FROM order_status_events e
                      WHERE e.id = (SELECT max(id) FROM order_status_events WHERE order_id = NEW.id)
                        AND e.kind = 'undo' AND e.from_status = OLD.status AND e.to_status = NEW.status);
    UPDATE orders SET updated_at = coalesce(NEW.changed_at, strftime('%Y-%m-%dT%H:%M:%fZ', 'now')), version = OLD.version + 1,
                      changed_by = NULL, changed_at = NULL
    WHERE id = NEW.id;
END;

-- A move is recorded with the old and the new pickup.
CREATE TRIGGER orders_moved_event AFTER UPDATE OF pickup_at ON orders
WHEN NEW.pickup_at IS NOT OLD.pickup_at
BEGIN
    INSERT INTO order_status_events (order_id, kind, from_status, to_status, detail, actor, at)
    VALUES (NEW.id, 'moved', OLD.status, NEW.status, 'pickup ' || OLD.pickup_local || ' → ' || NEW.pickup_local, NEW.changed_by,
            coalesce(NEW.changed_at, strftime('%Y-%m-%dT%H:%M:%fZ', 'now')));
    UPDATE orders SET updated_at = coalesce(NEW.changed_at, strftime('%Y-%m-%dT%H:%M:%fZ', 'now')), version = OLD.version + 1,
                      changed_by = NULL, changed_at = NULL
    WHERE id = NEW.id;
END;

-- Only a placed order moves; its note changes only while it is placed too.
CREATE TRIGGER orders_locked_after_placed BEFORE UPDATE OF pickup_at, note ON orders
WHEN OLD.status <> 'placed' AND (NEW.pickup_at IS NOT OLD.pickup_at OR NEW.note IS NOT OLD.note)
BEGIN
    SELECT RAISE(ABORT, 'order_locked: only a placed order can be moved or edited');
END;

-- Lines --------------------------------------------------------------------------------------------

-- Lines change only while the order is placed: once the kitchen starts, they are what it makes.
CREATE TRIGGER order_lines_locked_update BEFORE UPDATE ON order_lines
WHEN (SELECT status FROM orders WHERE id = OLD.order_id) IS NOT 'placed'
  OR NEW.order_id IS NOT OLD.order_id OR NEW.line_no IS NOT OLD.line_no OR NEW.pizza_id IS NOT OLD.pizza_id
  OR NEW.pizza_name IS NOT OLD.pizza_name OR NEW.unit_price_cents IS NOT OLD.unit_price_cents
BEGIN
    SELECT RAISE(ABORT, 'order_locked: a line changes only its quantity, and only while the order is placed');
END;

CREATE TRIGGER order_lines_locked_delete BEFORE DELETE ON order_lines
WHEN (SELECT status FROM orders WHERE id = OLD.order_id) IS NOT 'placed'
BEGIN
    SELECT RAISE(ABORT, 'order_locked: lines are removed only while the order is placed');
END;

CREATE TRIGGER order_lines_locked_insert BEFORE INSERT ON order_lines
WHEN (SELECT status FROM orders WHERE id = NEW.order_id) IS NOT 'placed'
BEGIN
    SELECT RAISE(ABORT, 'order_locked: lines are added only while the order is placed');
END;

CREATE TRIGGER order_lines_total_insert AFTER INSERT ON order_lines
BEGIN
    UPDATE orders SET total_cents = total_cents + NEW.quantity * NEW.unit_price_cents WHERE id = NEW.order_id;
END;

CREATE TRIGGER order_lines_total_update AFTER UPDATE OF quantity ON order_lines
BEGIN
    UPDATE orders SET total_cents = total_cents + (NEW.quantity - OLD.quantity) * NEW.unit_price_cents WHERE id = NEW.order_id;
END;

CREATE TRIGGER order_lines_total_delete AFTER DELETE ON order_lines
BEGIN
    UPDATE orders SET total_cents = total_cents - OLD.quantity * OLD.unit_price_cents WHERE id = OLD.order_id;
END;

-- Slot loads -------------------------------------------------------------------------------------------

-- The pizzas booked in each slot that has orders, and the capacity it has: the database refuses
-- any change — a new line, a larger quantity, a move, an undone cancellation — that would take a
-- slot past it, whoever writes. Cancelled orders do not count; every other status does.
CREATE TABLE slot_loads (
    pickup_at   TEXT NOT NULL PRIMARY KEY,
    service_day TEXT NOT NULL,
    capacity    INTEGER NOT NULL CHECK (capacity BETWEEN 1 AND 10000),
    booked      INTEGER NOT NULL DEFAULT 0 CHECK (booked >= 0)
) STRICT, WITHOUT ROWID;

-- More pizzas than the capacity are refused; a capacity lowered below what is already booked is
-- allowed (those orders stay; the slot is full until some are cancelled or moved).
CREATE TRIGGER slot_loads_capacity BEFORE UPDATE OF booked ON slot_loads
WHEN NEW.booked > OLD.booked AND NEW.booked > NEW.capacity
BEGIN
    SELECT RAISE(ABORT, 'slot_capacity_exceeded: the pickup slot has no room for these pizzas');
END;

CREATE INDEX slot_loads_by_service_day ON slot_loads (service_day, pickup_at);

INSERT INTO slot_loads (pickup_at, service_day, capacity, booked)
SELECT o.pickup_at, min(o.service_day), max((SELECT slot_capacity FROM settings WHERE id = 1), sum(l.quantity)), sum(l.quantity)
FROM orders o JOIN order_lines l ON l.order_id = o.id
WHERE o.status <> 'cancelled'
GROUP BY o.pickup_at;

-- A slot's row appears with its first order, at the capacity that applies then.
CREATE TRIGGER slot_loads_open AFTER INSERT ON orders
BEGIN
    INSERT INTO slot_loads (pickup_at, service_day, capacity)
    VALUES (NEW.pickup_at, NEW.service_day, (SELECT slot_capacity FROM settings WHERE id = 1))
    ON CONFLICT (pickup_at) DO NOTHING;
END;

CREATE TRIGGER slot_loads_line_insert AFTER INSERT ON order_lines
WHEN (SELECT status FROM orders WHERE id = NEW.order_id) <> 'cancelled'
BEGIN
    UPDATE slot_loads SET booked = booked + NEW.quantity WHERE pickup_at = (SELECT pickup_at FROM orders WHERE id = NEW.order_id);
END;

CREATE TRIGGER slot_loads_line_update AFTER UPDATE OF quantity ON order_lines
WHEN (SELECT status FROM orders WHERE id = NEW.order_id) <> 'cancelled'
BEGIN
    UPDATE slot_loads SET booked = booked + NEW.quantity - OLD.quantity WHERE pickup_at = (SELECT pickup_at FROM orders WHERE id = NEW.order_id);
END;

CREATE TRIGGER slot_loads_line_delete AFTER DELETE ON order_lines
WHEN (SELECT status FROM orders WHERE id = OLD.order_id) <> 'cancelled'
BEGIN
    UPDATE slot_loads SET booked = booked - OLD.quantity WHERE pickup_at = (SELECT pickup_at FROM orders WHERE id = OLD.order_id);
END;

-- A new capacity applies to every slot, booked ones included.
CREATE TRIGGER slot_loads_follow_capacity AFTER UPDATE OF slot_capacity ON settings
BEGIN
    UPDATE slot_loads SET capacity = NEW.slot_capacity;
END;

-- Cancelling frees the pizzas; undoing a cancellation takes them again (refused if the slot filled).
CREATE TRIGGER slot_loads_status AFTER UPDATE OF status ON orders
WHEN (OLD.status = 'cancelled') <> (NEW.status = 'cancelled')
BEGIN
    UPDATE slot_loads
    SET booked = booked + (CASE WHEN NEW.status = 'cancelled' THEN -1 ELSE 1 END)
                          * (SELECT coalesce(sum(quantity), 0) FROM order_lines WHERE order_id = NEW.id)
    WHERE pickup_at = NEW.pickup_at;
END;

-- A move takes the pizzas from the old slot to the new one, in the same statement.
CREATE TRIGGER slot_loads_move AFTER UPDATE OF pickup_at ON orders
WHEN NEW.pickup_at IS NOT OLD.pickup_at AND NEW.status <> 'cancelled'
BEGIN
    UPDATE slot_loads SET booked = booked - (SELECT coalesce(sum(quantity), 0) FROM order_lines WHERE order_id = NEW.id)
    WHERE pickup_at = OLD.pickup_at;
    INSERT INTO slot_loads (pickup_at, service_day, capacity)
    VALUES (NEW.pickup_at, NEW.service_day, (SELECT slot_capacity FROM settings WHERE id = 1))
    ON CONFLICT (pickup_at) DO NOTHING;
    UPDATE slot_loads SET booked = booked + (SELECT coalesce(sum(quantity), 0) FROM order_lines WHERE order_id = NEW.id)
    WHERE pickup_at = NEW.pickup_at;
END;

-- Users ----------------------------------------------------------------------------------------------

-- A phone number for the counter, E.164: + and 8 to 15 digits.
ALTER TABLE users ADD COLUMN phone TEXT
    CHECK (phone IS NULL OR (phone GLOB '+[1-9]*' AND length(phone) BETWEEN 9 AND 16 AND substr(phone, 2) NOT GLOB '*[^0-9]*'));

-- A customer's data erased at their request: name, phone and handle replaced by a pseudonym,
-- navigation state and history deleted; orders stay for the books.
CREATE TABLE user_erasures (
    user_id   TEXT NOT NULL PRIMARY KEY REFERENCES users (id),
    erased_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
    actor     TEXT CHECK (actor IS NULL OR length(actor) BETWEEN 1 AND 64)
) STRICT;

-- An erased customer books nothing more (their pseudonym stays on the orders they had).
CREATE TRIGGER orders_user_not_erased BEFORE INSERT ON orders
WHEN EXISTS (SELECT 1 FROM user_erasures WHERE user_id = NEW.user_id)
BEGIN
    SELECT RAISE(ABORT, 'user_erased: this customer''s data was erased; they cannot book');
END;

-- Navigation history is append-only, except that an erased customer's is deleted.
DROP TRIGGER navigation_events_append_only_delete;
CREATE TRIGGER navigation_events_append_only_delete BEFORE DELETE ON navigation_events
WHEN NOT EXISTS (SELECT 1 FROM user_erasures WHERE user_id = OLD.user_id)
BEGIN
    SELECT RAISE(ABORT, 'history_append_only: navigation_events is append-only (but for erased users)');
END;

-- Whose routes are whose --------------------------------------------------------------------------------

-- A stack can show an order only to the user who booked it.
CREATE TRIGGER navigation_stack_own_orders BEFORE INSERT ON navigation_stack
WHEN NEW.order_id IS NOT NULL AND (SELECT user_id FROM orders WHERE id = NEW.order_id) IS NOT NEW.user_id
BEGIN
    SELECT RAISE(ABORT, 'route_not_owned: an order route must be an order of the stack''s user');
END;

-- Views ------------------------------------------------------------------------------------------------

CREATE VIEW order_summary AS
SELECT o.id AS order_id,
       u.handle,
       o.service_day,
       o.pickup_local,
       o.pickup_at,
       o.status,
       (SELECT group_concat(item, ', ')
        FROM (SELECT l.quantity || ' × ' || l.pizza_name AS item
              FROM order_lines l WHERE l.order_id = o.id ORDER BY l.line_no)) AS items,
       printf('%d.%02d', o.total_cents / 100, o.total_cents % 100) AS total_eur,
       o.note
FROM orders o JOIN users u ON u.id = o.user_id
ORDER BY o.pickup_at, o.created_at;

-- How often each pizza's detail was shown, by how it was opened: pushed, at random, by a deep
-- link, by a restored path. What `pizzeria nav stats` counts.
CREATE VIEW pizza_views AS
SELECT p.id AS pizza_id,
       p.name,
       count(*) AS views,
       sum(e.action = 'push') AS pushed,
       sum(e.action = 'random') AS random,
       sum(e.action = 'open_url') AS deep_links,
       sum(e.action = 'import') AS imported
FROM navigation_events e, json_each(e.routes) j
JOIN pizzas p ON p.id = json_extract(j.value, '$.pizza.id')
WHERE e.action IN ('push', 'random', 'open_url', 'import', 'replace')
GROUP BY p.id;
