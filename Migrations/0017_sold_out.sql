-- 0017: sold out tonight ("86"), apart from archiving.
--
-- An item or a modifier can be limited: `stock_left` is how many more can be booked (0: sold
-- out) for pickups before `stock_until` (the end of tonight's service, or a time staff chose;
-- NULL: until staff make it available again). Pickups from `stock_until` on are not limited, so
-- the item comes back by itself when the service ends, and tomorrow's bookings are never refused.
-- Bookings take from the stock and cancellations give back, by triggers on every path (a
-- booking, an edit, a cancel and its undo, a hand-written INSERT); a line the stock cannot take
-- is refused (`sold_out`). `stock_changes` counts the times staff set or lifted the limit
-- (bookings never touch it): the audit trail records each, with who and when.

ALTER TABLE pizzas ADD COLUMN stock_left INTEGER CHECK (stock_left IS NULL OR stock_left BETWEEN 0 AND 100000);
ALTER TABLE pizzas ADD COLUMN stock_until TEXT
    CHECK (stock_until IS NULL OR stock_until GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]T[0-9][0-9]:[0-9][0-9]:[0-9][0-9]*Z');
ALTER TABLE pizzas ADD COLUMN stock_changes INTEGER NOT NULL DEFAULT 0 CHECK (stock_changes >= 0);

ALTER TABLE modifiers ADD COLUMN stock_left INTEGER CHECK (stock_left IS NULL OR stock_left BETWEEN 0 AND 100000);
ALTER TABLE modifiers ADD COLUMN stock_until TEXT
    CHECK (stock_until IS NULL OR stock_until GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]T[0-9][0-9]:[0-9][0-9]:[0-9][0-9]*Z');
ALTER TABLE modifiers ADD COLUMN stock_changes INTEGER NOT NULL DEFAULT 0 CHECK (stock_changes >= 0);

-- A line the stock cannot take is refused; a line that can takes from it.
CREATE TRIGGER order_lines_stock_check BEFORE INSERT ON order_lines
BEGIN
    SELECT RAISE(ABORT, 'sold_out: the item has fewer left than the line asks for, for this pickup (see pizzas.stock_left)')
    FROM pizzas p
    WHERE p.id = NEW.pizza_id AND p.stock_left < NEW.quantity
      AND (p.stock_until IS NULL OR (SELECT pickup_at FROM orders WHERE id = NEW.order_id) < p.stock_until);
    SELECT RAISE(ABORT, 'sold_out: a modifier has fewer left than the line asks for, for this pickup (see modifiers.stock_left)')
    WHERE NEW.modifiers IS NOT NULL AND EXISTS (
        SELECT 1 FROM json_each(NEW.modifiers) e JOIN modifiers m ON m.id = json_extract(e.value, '$.id')
        WHERE m.stock_left < NEW.quantity
          AND (m.stock_until IS NULL OR (SELECT pickup_at FROM orders WHERE id = NEW.order_id) < m.stock_until));
END;

CREATE TRIGGER order_lines_stock_take AFTER INSERT ON order_lines
BEGIN
    UPDATE pizzas SET stock_left = stock_left - NEW.quantity
    WHERE id = NEW.pizza_id AND stock_left IS NOT NULL
      AND (stock_until IS NULL OR (SELECT pickup_at FROM orders WHERE id = NEW.order_id) < stock_until);
    UPDATE modifiers SET stock_left = stock_left - NEW.quantity
    WHERE NEW.modifiers IS NOT NULL AND stock_left IS NOT NULL
      AND id IN (SELECT json_extract(value, '$.id') FROM json_each(NEW.modifiers))
      AND (stock_until IS NULL OR (SELECT pickup_at FROM orders WHERE id = NEW.order_id) < stock_until);
END;

-- Lines are deleted only while their order is placed (a trigger of migration 16): give back.
CREATE TRIGGER order_lines_stock_give AFTER DELETE ON order_lines
BEGIN
    UPDATE pizzas SET stock_left = min(stock_left + OLD.quantity, 100000)
    WHERE id = OLD.pizza_id AND stock_left IS NOT NULL
      AND (stock_until IS NULL OR (SELECT pickup_at FROM orders WHERE id = OLD.order_id) < stock_until);
    UPDATE modifiers SET stock_left = min(stock_left + OLD.quantity, 100000)
    WHERE OLD.modifiers IS NOT NULL AND stock_left IS NOT NULL
      AND id IN (SELECT json_extract(value, '$.id') FROM json_each(OLD.modifiers))
      AND (stock_until IS NULL OR (SELECT pickup_at FROM orders WHERE id = OLD.order_id) < stock_until);
END;

CREATE TRIGGER order_lines_stock_quantity_check BEFORE UPDATE OF quantity ON order_lines
WHEN NEW.quantity > OLD.quantity
BEGIN
    SELECT RAISE(ABORT, 'sold_out: the item has fewer left than the line asks for, for this pickup (see pizzas.stock_left)')
    FROM pizzas p
    WHERE p.id = NEW.pizza_id AND p.stock_left < NEW.quantity - OLD.quantity
      AND (p.stock_until IS NULL OR (SELECT pickup_at FROM orders WHERE id = NEW.order_id) < p.stock_until);
    SELECT RAISE(ABORT, 'sold_out: a modifier has fewer left than the line asks for, for this pickup (see modifiers.stock_left)')
    WHERE NEW.modifiers IS NOT NULL AND EXISTS (
        SELECT 1 FROM json_each(NEW.modifiers) e JOIN modifiers m ON m.id = json_extract(e.value, '$.id')
        WHERE m.stock_left < NEW.quantity - OLD.quantity
          AND (m.stock_until IS NULL OR (SELECT pickup_at FROM orders WHERE id = NEW.order_id) < m.stock_until));
END;

CREATE TRIGGER order_lines_stock_quantity AFTER UPDATE OF quantity ON order_lines
WHEN NEW.quantity IS NOT OLD.quantity
BEGIN
    UPDATE pizzas SET stock_left = min(stock_left - (NEW.quantity - OLD.quantity), 100000)
    WHERE id = NEW.pizza_id AND stock_left IS NOT NULL
      AND (stock_until IS NULL OR (SELECT pickup_at FROM orders WHERE id = NEW.order_id) < stock_until);
    UPDATE modifiers SET stock_left = min(stock_left - (NEW.quantity - OLD.quantity), 100000)
    WHERE NEW.modifiers IS NOT NULL AND stock_left IS NOT NULL
      AND id IN (SELECT json_extract(value, '$.id') FROM json_each(NEW.modifiers))
      AND (stock_until IS NULL OR (SELECT pickup_at FROM orders WHERE id = NEW.order_id) < stock_until);
END;

-- A cancellation gives its lines back; taking a cancellation back (undo) takes them again, and
-- is refused when they are gone meanwhile.
CREATE TRIGGER orders_stock_undo_check BEFORE UPDATE OF status ON orders
WHEN OLD.status = 'cancelled' AND NEW.status <> 'cancelled'
BEGIN
    SELECT RAISE(ABORT, 'sold_out: an item of this order has sold out since it was cancelled')
    FROM order_lines l JOIN pizzas p ON p.id = l.pizza_id
    WHERE l.order_id = NEW.id AND p.stock_left < l.quantity AND (p.stock_until IS NULL OR NEW.pickup_at < p.stock_until);
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

CREATE TRIGGER audit_pizzas_stock AFTER UPDATE OF stock_changes ON pizzas
WHEN OLD.stock_changes IS NOT NEW.stock_changes
BEGIN
    INSERT INTO audit_log (at, actor, source, object, action, old, new)
    SELECT coalesce(c.at, strftime('%Y-%m-%dT%H:%M:%fZ', 'now')), c.actor, coalesce(c.source, 'sql'), 'pizza:' || NEW.id,
           CASE WHEN NEW.stock_left IS NULL THEN 'available' WHEN NEW.stock_left = 0 THEN 'sold_out' ELSE 'stock' END,
           json_object('stock_left', OLD.stock_left, 'stock_until', OLD.stock_until),
           json_object('stock_left', NEW.stock_left, 'stock_until', NEW.stock_until)
    FROM audit_context c WHERE c.id = 1;
END;

CREATE TRIGGER audit_modifiers_stock AFTER UPDATE OF stock_changes ON modifiers
WHEN OLD.stock_changes IS NOT NEW.stock_changes
BEGIN
    INSERT INTO audit_log (at, actor, source, object, action, old, new)
    SELECT coalesce(c.at, strftime('%Y-%m-%dT%H:%M:%fZ', 'now')), c.actor, coalesce(c.source, 'sql'), 'modifier:' || NEW.id,
           CASE WHEN NEW.stock_left IS NULL THEN 'available' WHEN NEW.stock_left = 0 THEN 'sold_out' ELSE 'stock' END,
           json_object('stock_left', OLD.stock_left, 'stock_until', OLD.stock_until),
           json_object('stock_left', NEW.stock_left, 'stock_until', NEW.stock_until)
    FROM audit_context c WHERE c.id = 1;
END;

-- For people: what is limited or sold out now, and until when.
CREATE VIEW sold_out AS
SELECT 'item' AS kind, name, stock_left, stock_until FROM pizzas
WHERE stock_left IS NOT NULL AND (stock_until IS NULL OR stock_until > strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
UNION ALL
SELECT 'modifier', name, stock_left, stock_until FROM modifiers
WHERE stock_left IS NOT NULL AND (stock_until IS NULL OR stock_until > strftime('%Y-%m-%dT%H:%M:%fZ', 'now'));
