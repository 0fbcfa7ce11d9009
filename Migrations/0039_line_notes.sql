-- 0039: a note on an order line, for the kitchen ("ben cotta", "tagliata a spicchi").
--
-- `order_lines.note`: 1 to 200 characters without control characters, as an order's note; NULL
-- for none. It is set when the line is booked or edited (`order place … --line-note N=TEXT`,
-- `order edit ID --line-note N=TEXT`), changes only while the order is placed, and is erased
-- with its customer: the lock on a line's columns lets exactly that through (its note to NULL
-- once the order's customer is erased), whatever the order's status.

ALTER TABLE order_lines ADD COLUMN note TEXT
    CHECK (note IS NULL OR (length(note) BETWEEN 1 AND 200
                            AND note NOT GLOB ('*[' || char(1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,
                                                           26,27,28,29,30,31,127) || ']*')));

DROP TRIGGER order_lines_locked_update;
CREATE TRIGGER order_lines_locked_update BEFORE UPDATE ON order_lines
WHEN NOT (NEW.note IS NULL AND OLD.note IS NOT NULL
          AND NEW.order_id IS OLD.order_id AND NEW.line_no IS OLD.line_no AND NEW.pizza_id IS OLD.pizza_id
          AND NEW.pizza_name IS OLD.pizza_name AND NEW.unit_price_cents IS OLD.unit_price_cents
          AND NEW.quantity IS OLD.quantity AND NEW.uses_oven IS OLD.uses_oven AND NEW.variant_id IS OLD.variant_id
          AND NEW.variant_name IS OLD.variant_name AND NEW.base_price_cents IS OLD.base_price_cents
          AND NEW.modifiers IS OLD.modifiers AND NEW.allergens IS OLD.allergens AND NEW.vat_rate_bp IS OLD.vat_rate_bp
          AND EXISTS (SELECT 1 FROM orders o JOIN user_erasures e ON e.user_id = o.user_id WHERE o.id = OLD.order_id))
 AND ((SELECT status FROM orders WHERE id = OLD.order_id) IS NOT 'placed'
  OR NEW.order_id IS NOT OLD.order_id OR NEW.line_no IS NOT OLD.line_no OR NEW.pizza_id IS NOT OLD.pizza_id
  OR NEW.pizza_name IS NOT OLD.pizza_name OR NEW.unit_price_cents IS NOT OLD.unit_price_cents
  OR NEW.variant_id IS NOT OLD.variant_id OR NEW.variant_name IS NOT OLD.variant_name
  OR NEW.base_price_cents IS NOT OLD.base_price_cents OR NEW.modifiers IS NOT OLD.modifiers
  OR NEW.allergens IS NOT OLD.allergens)
BEGIN
    SELECT RAISE(ABORT, 'order_locked: a line changes only its quantity and note, and only while the order is placed');
END;
