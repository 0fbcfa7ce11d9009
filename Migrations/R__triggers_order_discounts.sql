-- The triggers on order_discounts: the rules every writer is held to and the total they keep. A
-- repeatable definition (see R__views.sql): edit here. The order of the triggers is the order
-- they are made in, and SQLite runs a table's triggers of one kind last made first.

CREATE TRIGGER order_discounts_rules BEFORE INSERT ON order_discounts
BEGIN
    SELECT RAISE(ABORT, 'discount_order: a cancelled order takes no discount')
    WHERE (SELECT status FROM orders WHERE id = NEW.order_id) = 'cancelled';
    SELECT RAISE(ABORT, 'discount_over_rate: a discount takes off at most what the order''s lines at its VAT rate have left')
    WHERE NEW.amount_cents > (SELECT coalesce(sum(l.quantity * l.unit_price_cents), 0) FROM order_lines l
                              WHERE l.order_id = NEW.order_id AND l.vat_rate_bp = NEW.vat_rate_bp)
                             - (SELECT coalesce(sum(d.amount_cents), 0) FROM order_discounts d
                                WHERE d.order_id = NEW.order_id AND d.vat_rate_bp = NEW.vat_rate_bp);
    SELECT RAISE(ABORT, 'comp_line: a comp is one whole line of the order, at its VAT rate, once')
    WHERE NEW.kind = 'comp' AND (
        NOT EXISTS (SELECT 1 FROM order_lines l WHERE l.order_id = NEW.order_id AND l.line_no = NEW.line_no
                    AND l.vat_rate_bp = NEW.vat_rate_bp AND l.quantity * l.unit_price_cents = NEW.amount_cents)
        OR EXISTS (SELECT 1 FROM order_discounts d WHERE d.order_id = NEW.order_id AND d.kind = 'comp'
                   AND d.line_no = NEW.line_no));
    SELECT RAISE(ABORT, 'row_never_replaced: a row of order_discounts is never replaced (REPLACE would delete it without its triggers)')
    WHERE NEW.id > 0 AND EXISTS (SELECT 1 FROM order_discounts WHERE id = NEW.id);
END;

CREATE TRIGGER order_discounts_total AFTER INSERT ON order_discounts
BEGIN
    UPDATE orders SET total_cents = (SELECT coalesce(sum(quantity * unit_price_cents), 0) FROM order_lines WHERE order_id = NEW.order_id)
                                    - (SELECT coalesce(sum(amount_cents), 0) FROM order_discounts WHERE order_id = NEW.order_id)
    WHERE id = NEW.order_id;
END;

CREATE TRIGGER order_discounts_append_only_delete BEFORE DELETE ON order_discounts
BEGIN
    SELECT RAISE(ABORT, 'discounts_append_only: a discount is never deleted; a mistake is put right at the till (a payment or a refund)');
END;

-- Only an erasure's redaction of the reason changes a row.
CREATE TRIGGER order_discounts_append_only_update BEFORE UPDATE ON order_discounts
WHEN NOT (NEW.reason = '[erased]' AND NEW.id IS OLD.id AND NEW.order_id IS OLD.order_id AND NEW.kind IS OLD.kind
          AND NEW.line_no IS OLD.line_no AND NEW.percent_bp IS OLD.percent_bp AND NEW.vat_rate_bp IS OLD.vat_rate_bp
          AND NEW.amount_cents IS OLD.amount_cents AND NEW.actor IS OLD.actor AND NEW.at IS OLD.at
          AND EXISTS (SELECT 1 FROM orders o JOIN user_erasures e ON e.user_id = o.user_id WHERE o.id = OLD.order_id))
BEGIN
    SELECT RAISE(ABORT, 'discounts_append_only: a discount is never changed');
END;
