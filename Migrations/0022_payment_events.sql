-- 0022: payments and refunds in every order's history, so the library's feed (and `order watch`,
-- and a notifier on the feed) sees them in order with the other changes.
--
-- order_status_events' `kind` CHECK gains `paid` and `refunded`; SQLite cannot change a CHECK in
-- place, so the table is rebuilt (create, copy, drop, rename — https://sqlite.org/lang_altertable.html#otheralter)
-- with its index and triggers recreated as they were. legacy_alter_table keeps the rename from
-- rewriting or re-checking the triggers and views that name `order_status_events`, which find the
-- new table by that name. A money event keeps the order's status (from = to) and says what
-- happened in `detail`: `paid 12.00 card`, `refunded 5.00 card: burnt crust`.

PRAGMA legacy_alter_table = ON;

CREATE TABLE order_status_events_rebuilt (
    id          INTEGER PRIMARY KEY,
    order_id    TEXT NOT NULL REFERENCES orders (id),
    -- placed (booked), status (a status change), undo (a status change taken back), moved
    -- (another pickup), edited (lines or note), paid (a payment), refunded (a refund).
    kind        TEXT NOT NULL DEFAULT 'status'
                CHECK (kind IN ('placed', 'status', 'undo', 'moved', 'edited', 'paid', 'refunded')),
    from_status TEXT CHECK (from_status IS NULL OR from_status IN ('placed', 'preparing', 'ready', 'collected', 'no_show', 'cancelled')),
    to_status   TEXT NOT NULL CHECK (to_status IN ('placed', 'preparing', 'ready', 'collected', 'no_show', 'cancelled')),
    -- What changed, for people: `pickup 2026-12-04T18:00:00Z → 2026-12-04T18:30:00Z`, `+1 Diavola`.
    detail      TEXT CHECK (detail IS NULL OR length(detail) BETWEEN 1 AND 1000),
    -- Who made the change (the name the staff gave), or NULL.
    actor       TEXT CHECK (actor IS NULL OR length(actor) BETWEEN 1 AND 64),
    at          TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
) STRICT;

INSERT INTO order_status_events_rebuilt (id, order_id, kind, from_status, to_status, detail, actor, at)
SELECT id, order_id, kind, from_status, to_status, detail, actor, at FROM order_status_events;

DROP TABLE order_status_events;

ALTER TABLE order_status_events_rebuilt RENAME TO order_status_events;

PRAGMA legacy_alter_table = OFF;

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

-- Money in the history ----------------------------------------------------------------------------

CREATE TRIGGER payments_event AFTER INSERT ON payments
BEGIN
    INSERT INTO order_status_events (order_id, kind, from_status, to_status, detail, actor, at)
    SELECT o.id, 'paid', o.status, o.status,
           'paid ' || printf('%d.%02d', NEW.amount_cents / 100, NEW.amount_cents % 100) || ' ' || NEW.method
           || CASE WHEN NEW.reference IS NOT NULL THEN ' (' || substr(NEW.reference, 1, 200) || ')' ELSE '' END,
           NEW.actor, NEW.at
    FROM orders o WHERE o.id = NEW.order_id;
END;

CREATE TRIGGER refunds_event AFTER INSERT ON refunds
BEGIN
    INSERT INTO order_status_events (order_id, kind, from_status, to_status, detail, actor, at)
    SELECT o.id, 'refunded', o.status, o.status,
           'refunded ' || printf('%d.%02d', NEW.amount_cents / 100, NEW.amount_cents % 100) || ' ' || p.method
           || ': ' || NEW.reason,
           NEW.actor, NEW.at
    FROM payments p JOIN orders o ON o.id = p.order_id WHERE p.id = NEW.payment_id;
END;

-- The cash-up for sqlite3 --------------------------------------------------------------------------

-- One row per service day: orders by outcome, and the money of the day's orders by method
-- (whenever it was taken). `pizzeria report close` shows the same figures, with the lists.
CREATE VIEW daily_close AS
SELECT d.service_day,
       (SELECT count(*) FROM orders o WHERE o.service_day = d.service_day) AS orders,
       (SELECT count(*) FROM orders o WHERE o.service_day = d.service_day AND o.status = 'collected') AS collected_orders,
       (SELECT coalesce(sum(o.total_cents), 0) FROM orders o
        WHERE o.service_day = d.service_day AND o.status = 'collected') AS collected_cents,
       (SELECT count(*) FROM orders o WHERE o.service_day = d.service_day AND o.status = 'no_show') AS no_show_orders,
       (SELECT coalesce(sum(o.total_cents), 0) FROM orders o
        WHERE o.service_day = d.service_day AND o.status = 'no_show') AS no_show_cents,
       (SELECT count(*) FROM orders o WHERE o.service_day = d.service_day AND o.status = 'cancelled') AS cancelled_orders,
       (SELECT coalesce(sum(p.amount_cents), 0) FROM orders o JOIN payments p ON p.order_id = o.id
        WHERE o.service_day = d.service_day) AS paid_cents,
       (SELECT coalesce(sum(r.amount_cents), 0) FROM orders o JOIN payments p ON p.order_id = o.id
        JOIN refunds r ON r.payment_id = p.id WHERE o.service_day = d.service_day) AS refunded_cents,
       (SELECT coalesce(sum(p.amount_cents), 0) FROM orders o JOIN payments p ON p.order_id = o.id
        WHERE o.service_day = d.service_day AND p.method = 'cash')
       - (SELECT coalesce(sum(r.amount_cents), 0) FROM orders o JOIN payments p ON p.order_id = o.id
          JOIN refunds r ON r.payment_id = p.id WHERE o.service_day = d.service_day AND p.method = 'cash') AS cash_net_cents,
       (SELECT count(*) FROM order_payments x
        WHERE x.service_day = d.service_day AND x.status = 'collected' AND x.balance_cents > 0) AS unpaid_collected_orders
FROM (SELECT DISTINCT service_day FROM orders) d;

-- VAT of each service day's collected orders by rate, rounded per rate on each order (half up),
-- then summed: the same figures as the receipts and `report close`.
CREATE VIEW daily_vat AS
SELECT service_day, vat_rate_bp, sum(gross) AS gross_cents, sum(vat) AS vat_cents, sum(gross) - sum(vat) AS net_cents
FROM (SELECT o.service_day, l.vat_rate_bp, sum(l.quantity * l.unit_price_cents) AS gross,
             (2 * sum(l.quantity * l.unit_price_cents) * l.vat_rate_bp + 10000 + l.vat_rate_bp)
             / (2 * (10000 + l.vat_rate_bp)) AS vat
      FROM orders o JOIN order_lines l ON l.order_id = o.id
      WHERE o.status = 'collected'
      GROUP BY o.id, o.service_day, l.vat_rate_bp)
GROUP BY service_day, vat_rate_bp;
