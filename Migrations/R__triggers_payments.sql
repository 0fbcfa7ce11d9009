-- The triggers on payments: the rules every writer is held to, the derived data they keep, the
-- history they write. A repeatable definition (see R__views.sql): edit here. The order of the
-- triggers is the order they are made in, and SQLite runs a table's triggers of one kind last
-- made first: keep a new one where it must run.

CREATE TRIGGER payments_order_open BEFORE INSERT ON payments
WHEN (SELECT status FROM orders WHERE id = NEW.order_id) = 'cancelled'
BEGIN
    SELECT RAISE(ABORT, 'payment_cancelled: a cancelled order takes no payment');
END;

CREATE TRIGGER payments_append_only_delete BEFORE DELETE ON payments
BEGIN
    SELECT RAISE(ABORT, 'payments_append_only: a payment is never deleted; record a refund instead');
END;

CREATE TRIGGER payments_event AFTER INSERT ON payments
BEGIN
    INSERT INTO order_status_events (order_id, kind, from_status, to_status, detail, actor, at, pickup_local, total_cents)
    SELECT o.id, 'paid', o.status, o.status,
           'paid ' || printf('%d.%02d', NEW.amount_cents / 100, NEW.amount_cents % 100) || ' ' || NEW.method
           || CASE WHEN NEW.reference IS NOT NULL THEN ' (' || substr(NEW.reference, 1, 200) || ')' ELSE '' END
           || CASE WHEN NEW.party_payment_id IS NOT NULL THEN ' (the party''s payment)' ELSE '' END,
           NEW.actor, NEW.at, o.pickup_local, o.total_cents
    FROM orders o WHERE o.id = NEW.order_id;
END;

CREATE TRIGGER payments_never_replaced BEFORE INSERT ON payments
WHEN (NEW.id > 0 AND EXISTS (SELECT 1 FROM payments WHERE id = NEW.id))
   OR (NEW.reference IS NOT NULL AND EXISTS (SELECT 1 FROM payments WHERE method = NEW.method AND reference = NEW.reference))
BEGIN
    SELECT RAISE(ABORT, 'row_never_replaced: a row of payments is never replaced (REPLACE would delete it without its triggers); UPDATE it where the table allows, or insert a new row');
END;

CREATE TRIGGER payments_append_only_update BEFORE UPDATE ON payments
WHEN NOT (NEW.reference IS NULL AND OLD.reference IS NOT NULL
          AND NEW.id IS OLD.id AND NEW.order_id IS OLD.order_id AND NEW.amount_cents IS OLD.amount_cents
          AND NEW.method IS OLD.method AND NEW.tendered_cents IS OLD.tendered_cents AND NEW.at IS OLD.at
          AND NEW.actor IS OLD.actor AND NEW.party_payment_id IS OLD.party_payment_id
          AND EXISTS (SELECT 1 FROM orders o JOIN user_erasures e ON e.user_id = o.user_id WHERE o.id = OLD.order_id))
BEGIN
    SELECT RAISE(ABORT, 'payments_append_only: a payment is never changed; record a refund instead');
END;

