-- 0021: money — payments and refunds as records of their own, an order's payment state derived
-- from them, VAT rates snapshotted on every order line, and the shop's details for receipts.
--
-- An order's payment state is never stored: the view `order_payments` (and the library, with the
-- same rule) derives it from `payments` and `refunds`, which are append-only — a mistake is put
-- right with a refund, never an edit. What an order owes is its total, or nothing once cancelled.
--
-- Prices are VAT-inclusive. A line's `vat_rate_bp` is its category's rate when booked (basis
-- points: 1000 = 10 %), else the shop's; the VAT of an order is computed per rate on the order
-- (see docs/SCHEMA.md), so it is derived, not stored.

-- The shop -----------------------------------------------------------------------------------------

CREATE TABLE shop (
    id          INTEGER PRIMARY KEY CHECK (id = 1),
    -- What a receipt's head says; NULL until set (`pizzeria config set shop-name …`).
    name        TEXT CHECK (name IS NULL OR (length(name) BETWEEN 1 AND 80 AND trim(name) = name
                            AND name NOT GLOB ('*[' || char(1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,
                                                            26,27,28,29,30,31,127) || ']*'))),
    address     TEXT CHECK (address IS NULL OR (length(address) BETWEEN 1 AND 200 AND trim(address) = address
                            AND address NOT GLOB ('*[' || char(1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,
                                                               26,27,28,29,30,31,127) || ']*'))),
    -- The shop's VAT number as printed: IT01234567890 (2 to 20 capital letters and digits).
    vat_number  TEXT CHECK (vat_number IS NULL OR (length(vat_number) BETWEEN 2 AND 20
                            AND vat_number NOT GLOB '*[^A-Z0-9]*')),
    -- The VAT rate of categories without one of their own, in basis points (1000 = 10 %).
    vat_rate_bp INTEGER NOT NULL DEFAULT 1000 CHECK (vat_rate_bp BETWEEN 0 AND 10000)
) STRICT;

INSERT INTO shop (id) VALUES (1);

CREATE TRIGGER shop_kept BEFORE DELETE ON shop
BEGIN
    SELECT RAISE(ABORT, 'shop_kept: the shop row is the shop''s details; UPDATE it instead');
END;

CREATE TRIGGER audit_shop_update AFTER UPDATE ON shop
WHEN OLD.name IS NOT NEW.name OR OLD.address IS NOT NEW.address OR OLD.vat_number IS NOT NEW.vat_number
  OR OLD.vat_rate_bp IS NOT NEW.vat_rate_bp
BEGIN
    INSERT INTO audit_log (at, actor, source, object, action, old, new)
    SELECT coalesce(c.at, strftime('%Y-%m-%dT%H:%M:%fZ', 'now')), c.actor, coalesce(c.source, 'sql'), 'shop', 'set',
           json_object('name', OLD.name, 'address', OLD.address, 'vat_number', OLD.vat_number, 'vat_rate_bp', OLD.vat_rate_bp),
           json_object('name', NEW.name, 'address', NEW.address, 'vat_number', NEW.vat_number, 'vat_rate_bp', NEW.vat_rate_bp)
    FROM audit_context c WHERE c.id = 1;
END;

-- VAT per category, snapshotted per line ----------------------------------------------------------------

-- NULL: the shop's rate. Drinks in Italy: 2200.
ALTER TABLE categories ADD COLUMN vat_rate_bp INTEGER CHECK (vat_rate_bp IS NULL OR vat_rate_bp BETWEEN 0 AND 10000);

CREATE TRIGGER audit_categories_vat AFTER UPDATE OF vat_rate_bp ON categories
WHEN OLD.vat_rate_bp IS NOT NEW.vat_rate_bp
BEGIN
    INSERT INTO audit_log (at, actor, source, object, action, old, new)
    SELECT coalesce(c.at, strftime('%Y-%m-%dT%H:%M:%fZ', 'now')), c.actor, coalesce(c.source, 'sql'), 'category:' || NEW.id,
           'vat', json_object('vat_rate_bp', OLD.vat_rate_bp), json_object('vat_rate_bp', NEW.vat_rate_bp)
    FROM audit_context c WHERE c.id = 1;
END;

-- Lines booked before this migration were booked at the shop's default, 10 %.
ALTER TABLE order_lines ADD COLUMN vat_rate_bp INTEGER NOT NULL DEFAULT 1000 CHECK (vat_rate_bp BETWEEN 0 AND 10000);

CREATE TRIGGER order_lines_vat BEFORE INSERT ON order_lines
WHEN NEW.vat_rate_bp IS NOT (SELECT coalesce(c.vat_rate_bp, s.vat_rate_bp)
                             FROM pizzas p JOIN categories c ON c.id = p.category_id, shop s
                             WHERE p.id = NEW.pizza_id AND s.id = 1)
BEGIN
    SELECT RAISE(ABORT, 'line_vat: a line''s vat_rate_bp is its category''s rate when booked (categories.vat_rate_bp, else shop.vat_rate_bp)');
END;

CREATE TRIGGER order_lines_vat_fixed BEFORE UPDATE OF vat_rate_bp ON order_lines
WHEN NEW.vat_rate_bp IS NOT OLD.vat_rate_bp
BEGIN
    SELECT RAISE(ABORT, 'line_vat: a line keeps the VAT rate it was booked at');
END;

-- Payments and refunds ----------------------------------------------------------------------------------

CREATE TABLE payments (
    id             INTEGER PRIMARY KEY,
    order_id       TEXT NOT NULL REFERENCES orders (id),
    -- 1 cent to 100,000.00 EUR.
    amount_cents   INTEGER NOT NULL CHECK (amount_cents BETWEEN 1 AND 10000000),
    -- unknown: a collected order of a file older than migration 21, taken as paid.
    method         TEXT NOT NULL CHECK (method IN ('cash', 'card', 'online', 'voucher', 'unknown')),
    -- The payment provider's or the terminal's reference (psp_…): 1 to 200 characters, no control
    -- characters; unique per method, which makes an app's retry of an online payment harmless.
    reference      TEXT CHECK (reference IS NULL OR (length(reference) BETWEEN 1 AND 200
                               AND reference NOT GLOB ('*[' || char(1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,
                                                                   26,27,28,29,30,31,127) || ']*'))),
    -- Cash handed over, when more than the amount: the change is tendered − amount.
    tendered_cents INTEGER CHECK (tendered_cents IS NULL OR (method = 'cash' AND tendered_cents BETWEEN amount_cents AND 10000000)),
    at             TEXT NOT NULL CHECK (at GLOB '[0-9][0-9][0-9][0-9]-[0-1][0-9]-[0-3][0-9]T[0-2][0-9]:[0-5][0-9]:[0-5][0-9]*Z'),
    -- Who took it (the staff name given), or NULL.
    actor          TEXT CHECK (actor IS NULL OR length(actor) BETWEEN 1 AND 64)
) STRICT;

CREATE INDEX payments_by_order ON payments (order_id, id);
CREATE INDEX payments_by_time ON payments (at);
CREATE UNIQUE INDEX payments_by_reference ON payments (method, reference) WHERE reference IS NOT NULL;

CREATE TRIGGER payments_order_open BEFORE INSERT ON payments
WHEN (SELECT status FROM orders WHERE id = NEW.order_id) = 'cancelled'
BEGIN
    SELECT RAISE(ABORT, 'payment_cancelled: a cancelled order takes no payment');
END;

CREATE TRIGGER payments_append_only_update BEFORE UPDATE ON payments
BEGIN
    SELECT RAISE(ABORT, 'payments_append_only: a payment is never changed; record a refund instead');
END;

CREATE TRIGGER payments_append_only_delete BEFORE DELETE ON payments
BEGIN
    SELECT RAISE(ABORT, 'payments_append_only: a payment is never deleted; record a refund instead');
END;

CREATE TABLE refunds (
    id           INTEGER PRIMARY KEY,
    payment_id   INTEGER NOT NULL REFERENCES payments (id),
    amount_cents INTEGER NOT NULL CHECK (amount_cents BETWEEN 1 AND 10000000),
    -- Why: 1 to 200 characters, no control characters.
    reason       TEXT NOT NULL CHECK (length(reason) BETWEEN 1 AND 200 AND trim(reason) = reason
                                      AND reason NOT GLOB ('*[' || char(1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,
                                                                         26,27,28,29,30,31,127) || ']*')),
    at           TEXT NOT NULL CHECK (at GLOB '[0-9][0-9][0-9][0-9]-[0-1][0-9]-[0-3][0-9]T[0-2][0-9]:[0-5][0-9]:[0-5][0-9]*Z'),
    actor        TEXT CHECK (actor IS NULL OR length(actor) BETWEEN 1 AND 64)
) STRICT;

CREATE INDEX refunds_by_payment ON refunds (payment_id, id);
CREATE INDEX refunds_by_time ON refunds (at);

-- Inside the writer's transaction, so two refunds of one payment at once can never exceed it.
CREATE TRIGGER refunds_within_payment BEFORE INSERT ON refunds
WHEN NEW.amount_cents > coalesce((SELECT amount_cents FROM payments WHERE id = NEW.payment_id), 0)
                        - (SELECT coalesce(sum(amount_cents), 0) FROM refunds WHERE payment_id = NEW.payment_id)
BEGIN
    SELECT RAISE(ABORT, 'refund_exceeds_payment: a payment''s refunds add up to at most its amount');
END;

CREATE TRIGGER refunds_append_only_update BEFORE UPDATE ON refunds
BEGIN
    SELECT RAISE(ABORT, 'refunds_append_only: a refund is never changed');
END;

CREATE TRIGGER refunds_append_only_delete BEFORE DELETE ON refunds
BEGIN
    SELECT RAISE(ABORT, 'refunds_append_only: a refund is never deleted');
END;

-- A file older than this migration kept no payments: its collected orders were paid (how is not
-- known), the rest unpaid — so every old revenue figure stays the same.
INSERT INTO payments (order_id, amount_cents, method, at)
SELECT o.id, o.total_cents, 'unknown',
       coalesce((SELECT max(e.at) FROM order_status_events e WHERE e.order_id = o.id AND e.to_status = 'collected'), o.updated_at)
FROM orders o WHERE o.status = 'collected' AND o.total_cents > 0
ORDER BY o.pickup_at, o.id;

-- What each order owes and has paid, and its state. due: the total, or 0 once cancelled;
-- kept: paid − refunded; balance: what the customer still owes (a refund given does not reopen
-- it); owes_refund: what the shop must pay back (kept − due, when positive).
-- state: unpaid (nothing paid), refunded (all of it paid back), overpaid (keeps more than is due:
-- a cancelled paid order until refunded), partially_refunded (some paid back, the rest kept),
-- partially_paid (less paid than due), paid.
CREATE VIEW order_payments AS
SELECT order_id, service_day, status, total_cents, due_cents, paid_cents, refunded_cents,
       paid_cents - refunded_cents AS kept_cents,
       max(due_cents - paid_cents, 0) AS balance_cents,
       max((paid_cents - refunded_cents) - due_cents, 0) AS owes_refund_cents,
       CASE WHEN paid_cents = 0 THEN 'unpaid'
            WHEN refunded_cents > 0 AND paid_cents = refunded_cents THEN 'refunded'
            WHEN paid_cents - refunded_cents > due_cents THEN 'overpaid'
            WHEN refunded_cents > 0 THEN 'partially_refunded'
            WHEN paid_cents < due_cents THEN 'partially_paid'
            ELSE 'paid' END AS state
FROM (SELECT o.id AS order_id, o.service_day, o.status, o.total_cents,
             CASE WHEN o.status = 'cancelled' THEN 0 ELSE o.total_cents END AS due_cents,
             (SELECT coalesce(sum(p.amount_cents), 0) FROM payments p WHERE p.order_id = o.id) AS paid_cents,
             (SELECT coalesce(sum(r.amount_cents), 0) FROM payments p JOIN refunds r ON r.payment_id = p.id
              WHERE p.order_id = o.id) AS refunded_cents
      FROM orders o);
