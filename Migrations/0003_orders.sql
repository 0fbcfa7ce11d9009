-- 0003: booking orders for a pickup slot, and the settings that define the slots.
--
-- The kitchen's capacity per slot is enforced here as well as in the application: a trigger
-- refuses any order line that would take a slot past its capacity, so no client, however it
-- writes, can overbook. Status changes follow the order lifecycle and are recorded by triggers.

-- The pizzeria's settings: exactly one row (id = 1).
CREATE TABLE settings (
    id            INTEGER PRIMARY KEY CHECK (id = 1),
    -- Length of a pickup slot in minutes; divides 60 so slots line up with the hour.
    slot_minutes  INTEGER NOT NULL DEFAULT 15 CHECK (slot_minutes BETWEEN 1 AND 60 AND 60 % slot_minutes = 0),
    -- Pizzas the kitchen can make per slot.
    slot_capacity INTEGER NOT NULL DEFAULT 12 CHECK (slot_capacity BETWEEN 1 AND 10000),
    -- Opening hours, every day, local time of time_zone: HH:MM, opens_at < closes_at (24:00 = midnight).
    opens_at      TEXT NOT NULL DEFAULT '12:00'
                  CHECK (opens_at GLOB '[0-2][0-9]:[0-5][0-9]' AND opens_at <= '23:59'),
    closes_at     TEXT NOT NULL DEFAULT '23:00'
                  CHECK (closes_at GLOB '[0-2][0-9]:[0-5][0-9]' AND closes_at <= '24:00'),
    -- IANA time zone such as Europe/Rome; NULL means the zone of the machine running pizzeria.
    time_zone     TEXT CHECK (time_zone IS NULL OR length(time_zone) BETWEEN 1 AND 64),
    updated_at    TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
    CHECK (opens_at < closes_at)
) STRICT;

INSERT INTO settings (id) VALUES (1);

CREATE TRIGGER settings_never_deleted BEFORE DELETE ON settings
BEGIN
    SELECT RAISE(ABORT, 'the settings row is required; change it with UPDATE');
END;

-- An order: a user's booking for one pickup slot.
CREATE TABLE orders (
    id              TEXT NOT NULL PRIMARY KEY
                    DEFAULT (lower(hex(randomblob(4))) || '-' || lower(hex(randomblob(2))) || '-4' ||
                             substr(lower(hex(randomblob(2))), 2) || '-' ||
                             substr('89ab', 1 + (abs(random()) % 4), 1) ||
                             substr(lower(hex(randomblob(2))), 2) || '-' || lower(hex(randomblob(6))))
                    CHECK (length(id) = 36 AND id GLOB '????????-????-????-????-????????????'
                           AND id NOT GLOB '*[^0-9a-f-]*'),
    user_id         TEXT NOT NULL REFERENCES users (id),
    -- Start of the pickup slot, UTC, to the minute: 2026-12-01T18:30:00Z.
    pickup_at       TEXT NOT NULL
                    CHECK (pickup_at GLOB '[0-9][0-9][0-9][0-9]-[0-1][0-9]-[0-3][0-9]T[0-2][0-9]:[0-5][0-9]:00Z'),
    -- placed → preparing → ready → collected; cancelled from placed or preparing.
    status          TEXT NOT NULL DEFAULT 'placed'
                    CHECK (status IN ('placed', 'preparing', 'ready', 'collected', 'cancelled')),
    -- Σ quantity × unit price of the lines, kept up to date by a trigger as lines are added.
    total_cents     INTEGER NOT NULL DEFAULT 0 CHECK (total_cents >= 0),
    -- Optional client-chosen key: booking again with it returns this order instead of a new one.
    idempotency_key TEXT UNIQUE CHECK (idempotency_key IS NULL OR length(idempotency_key) BETWEEN 1 AND 128),
    -- What was asked for under that key, as readable text (user, pickup, pizza×quantity…), so a
    -- reuse of the key with other content can be refused.
    request_fingerprint TEXT,
    created_at      TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
    updated_at      TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
) STRICT;

-- A user's orders by pickup time; a slot's orders (for its load).
CREATE INDEX orders_by_user ON orders (user_id, pickup_at);
CREATE INDEX orders_by_pickup ON orders (pickup_at, status);

-- One pizza of an order, with its name and price as they were when the order was booked:
-- later menu edits never change a booked order.
CREATE TABLE order_lines (
    order_id         TEXT NOT NULL REFERENCES orders (id),
    line_no          INTEGER NOT NULL CHECK (line_no >= 1),
    pizza_id         TEXT NOT NULL REFERENCES pizzas (id),
    pizza_name       TEXT NOT NULL CHECK (length(pizza_name) >= 1),
    unit_price_cents INTEGER NOT NULL CHECK (unit_price_cents BETWEEN 1 AND 100000),
    quantity         INTEGER NOT NULL CHECK (quantity BETWEEN 1 AND 20),
    PRIMARY KEY (order_id, line_no),
    UNIQUE (order_id, pizza_id)
) STRICT, WITHOUT ROWID;

CREATE INDEX order_lines_by_pizza ON order_lines (pizza_id);

-- Every status an order has had, oldest first.
CREATE TABLE order_status_events (
    id          INTEGER PRIMARY KEY,
    order_id    TEXT NOT NULL REFERENCES orders (id),
    from_status TEXT CHECK (from_status IS NULL OR from_status IN ('placed', 'preparing', 'ready', 'collected', 'cancelled')),
    to_status   TEXT NOT NULL CHECK (to_status IN ('placed', 'preparing', 'ready', 'collected', 'cancelled')),
    at          TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
) STRICT;

CREATE INDEX order_status_events_by_order ON order_status_events (order_id, id);

-- New orders start as placed, and that is their first event.
CREATE TRIGGER orders_start_placed BEFORE INSERT ON orders
WHEN NEW.status IS NOT 'placed'
BEGIN
    SELECT RAISE(ABORT, 'a new order must have status placed');
END;

CREATE TRIGGER orders_placed_event AFTER INSERT ON orders
BEGIN
    INSERT INTO order_status_events (order_id, from_status, to_status, at)
    VALUES (NEW.id, NULL, NEW.status, NEW.created_at);
END;

-- The lifecycle: only these status changes are allowed.
CREATE TRIGGER orders_status_transition BEFORE UPDATE OF status ON orders
WHEN NEW.status IS NOT OLD.status AND NOT (
       (OLD.status = 'placed'    AND NEW.status IN ('preparing', 'cancelled'))
    OR (OLD.status = 'preparing' AND NEW.status IN ('ready', 'cancelled'))
    OR (OLD.status = 'ready'     AND NEW.status = 'collected'))
BEGIN
    SELECT RAISE(ABORT, 'illegal order status change');
END;

CREATE TRIGGER orders_status_event AFTER UPDATE OF status ON orders
WHEN NEW.status IS NOT OLD.status
BEGIN
    INSERT INTO order_status_events (order_id, from_status, to_status) VALUES (NEW.id, OLD.status, NEW.status);
    UPDATE orders SET updated_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now') WHERE id = NEW.id;
END;

-- Booked orders stay booked: lines are immutable and orders are cancelled, never deleted.
CREATE TRIGGER orders_never_deleted BEFORE DELETE ON orders
BEGIN
    SELECT RAISE(ABORT, 'orders are never deleted: cancel instead');
END;

CREATE TRIGGER order_lines_immutable_update BEFORE UPDATE ON order_lines
BEGIN
    SELECT RAISE(ABORT, 'order lines are immutable');
END;

CREATE TRIGGER order_lines_immutable_delete BEFORE DELETE ON order_lines
BEGIN
    SELECT RAISE(ABORT, 'order lines are immutable');
END;

CREATE TRIGGER order_status_events_append_only_update BEFORE UPDATE ON order_status_events
BEGIN
    SELECT RAISE(ABORT, 'order_status_events is append-only');
END;

CREATE TRIGGER order_status_events_append_only_delete BEFORE DELETE ON order_status_events
BEGIN
    SELECT RAISE(ABORT, 'order_status_events is append-only');
END;

-- Capacity: the pizzas of a slot's non-cancelled orders never exceed settings.slot_capacity.
CREATE TRIGGER order_lines_slot_capacity BEFORE INSERT ON order_lines
WHEN NEW.quantity + (
        SELECT coalesce(sum(l.quantity), 0)
        FROM orders o JOIN order_lines l ON l.order_id = o.id
        WHERE o.pickup_at = (SELECT pickup_at FROM orders WHERE id = NEW.order_id)
          AND o.status <> 'cancelled')
     > (SELECT slot_capacity FROM settings WHERE id = 1)
BEGIN
    SELECT RAISE(ABORT, 'slot capacity exceeded');
END;

CREATE TRIGGER order_lines_total AFTER INSERT ON order_lines
BEGIN
    UPDATE orders SET total_cents = total_cents + NEW.quantity * NEW.unit_price_cents WHERE id = NEW.order_id;
END;

-- One line per order for people: who, when (UTC), status, what, how much.
CREATE VIEW order_summary AS
SELECT o.id AS order_id,
       u.handle,
       o.pickup_at,
       o.status,
       (SELECT group_concat(item, ', ')
        FROM (SELECT l.quantity || ' × ' || l.pizza_name AS item
              FROM order_lines l WHERE l.order_id = o.id ORDER BY l.line_no)) AS items,
       printf('%d.%02d', o.total_cents / 100, o.total_cents % 100) AS total_eur
FROM orders o JOIN users u ON u.id = o.user_id
ORDER BY o.pickup_at, o.created_at;
