-- The triggers on refunds: the rules every writer is held to, the derived data they keep, the
-- history they write. A repeatable definition (see R__views.sql): edit here. The order of the
-- triggers is the order they are made in, and SQLite runs a table's triggers of one kind last
-- made first: keep a new one where it must run.

CREATE TRIGGER refunds_within_payment BEFORE INSERT ON refunds
WHEN NEW.amount_cents > coalesce((SELECT amount_cents FROM payments WHERE id = NEW.payment_id), 0)
                        - (SELECT coalesce(sum(amount_cents), 0) FROM refunds WHERE payment_id = NEW.payment_id)
BEGIN
    SELECT RAISE(ABORT, 'refund_exceeds_payment: a payment''s refunds add up to at most its amount');
END;

CREATE TRIGGER refunds_append_only_delete BEFORE DELETE ON refunds
BEGIN
    SELECT RAISE(ABORT, 'refunds_append_only: a refund is never deleted');
END;

CREATE TRIGGER refunds_event AFTER INSERT ON refunds
BEGIN
    INSERT INTO order_status_events (order_id, kind, from_status, to_status, detail, actor, at, pickup_local, total_cents)
    SELECT o.id, 'refunded', o.status, o.status,
           'refunded ' || printf('%d.%02d', NEW.amount_cents / 100, NEW.amount_cents % 100) || ' ' || p.method
           || ': ' || NEW.reason,
           NEW.actor, NEW.at, o.pickup_local, o.total_cents
    FROM payments p JOIN orders o ON o.id = p.order_id WHERE p.id = NEW.payment_id;
END;

CREATE TRIGGER refunds_never_replaced BEFORE INSERT ON refunds
WHEN NEW.id > 0 AND EXISTS (SELECT 1 FROM refunds WHERE id = NEW.id)
BEGIN
    SELECT RAISE(ABORT, 'row_never_replaced: a row of refunds is never replaced (REPLACE would delete it without its triggers); UPDATE it where the table allows, or insert a new row');
END;

CREATE TRIGGER refunds_append_only_update BEFORE UPDATE ON refunds
WHEN NOT (NEW.reason = '[erased]' AND OLD.reason <> '[erased]'
          AND NEW.id IS OLD.id AND NEW.payment_id IS OLD.payment_id AND NEW.amount_cents IS OLD.amount_cents
          AND NEW.at IS OLD.at AND NEW.actor IS OLD.actor
          AND EXISTS (SELECT 1 FROM payments p JOIN orders o ON o.id = p.order_id JOIN user_erasures e ON e.user_id = o.user_id
                      WHERE p.id = OLD.payment_id))
BEGIN
    SELECT RAISE(ABORT, 'refunds_append_only: a refund is never changed');
END;

