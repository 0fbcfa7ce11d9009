-- The triggers on order_lines: the rules every writer is held to, the derived data they keep, the
-- history they write. A repeatable definition (see R__views.sql): edit here. The order of the
-- triggers is the order they are made in, and SQLite runs a table's triggers of one kind last
-- made first: keep a new one where it must run.

CREATE TRIGGER order_lines_locked_delete BEFORE DELETE ON order_lines
WHEN (SELECT status FROM orders WHERE id = OLD.order_id) IS NOT 'placed'
BEGIN
    SELECT RAISE(ABORT, 'order_locked: lines are removed only while the order is placed');
END;

-- An order with a discount or a comp keeps its lines: taking one away could leave a rate with
-- less than was taken off it.
CREATE TRIGGER order_lines_discounted_delete BEFORE DELETE ON order_lines
WHEN EXISTS (SELECT 1 FROM order_discounts WHERE order_id = OLD.order_id)
BEGIN
    SELECT RAISE(ABORT, 'order_discounted: an order with a discount or a comp keeps its lines (cancel it and book again)');
END;

CREATE TRIGGER order_lines_discounted_update BEFORE UPDATE OF quantity ON order_lines
WHEN NEW.quantity < OLD.quantity AND EXISTS (SELECT 1 FROM order_discounts WHERE order_id = OLD.order_id)
BEGIN
    SELECT RAISE(ABORT, 'order_discounted: an order with a discount or a comp keeps its lines (cancel it and book again)');
END;

CREATE TRIGGER order_lines_total_delete AFTER DELETE ON order_lines
BEGIN
    UPDATE orders SET total_cents = (SELECT coalesce(sum(quantity * unit_price_cents), 0) FROM order_lines WHERE order_id = OLD.order_id)
                                    - (SELECT coalesce(sum(amount_cents), 0) FROM order_discounts WHERE order_id = OLD.order_id)
    WHERE id = OLD.order_id;
END;

CREATE TRIGGER order_lines_total_insert AFTER INSERT ON order_lines
BEGIN
    UPDATE orders SET total_cents = (SELECT coalesce(sum(quantity * unit_price_cents), 0) FROM order_lines WHERE order_id = NEW.order_id)
                                    - (SELECT coalesce(sum(amount_cents), 0) FROM order_discounts WHERE order_id = NEW.order_id)
    WHERE id = NEW.order_id;
END;

CREATE TRIGGER order_lines_total_update AFTER UPDATE OF quantity ON order_lines
BEGIN
    UPDATE orders SET total_cents = (SELECT coalesce(sum(quantity * unit_price_cents), 0) FROM order_lines WHERE order_id = NEW.order_id)
                                    - (SELECT coalesce(sum(amount_cents), 0) FROM order_discounts WHERE order_id = NEW.order_id)
    WHERE id = NEW.order_id;
END;

CREATE TRIGGER slot_loads_line_delete AFTER DELETE ON order_lines
BEGIN
    UPDATE slot_loads
    SET booked = (SELECT coalesce(sum(l.quantity * l.uses_oven), 0) FROM orders o JOIN order_lines l ON l.order_id = o.id
                  WHERE o.pickup_at = slot_loads.pickup_at AND o.status <> 'cancelled')
    WHERE pickup_at = (SELECT pickup_at FROM orders WHERE id = OLD.order_id);
END;

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

CREATE TRIGGER order_lines_vat_fixed BEFORE UPDATE OF vat_rate_bp ON order_lines
WHEN NEW.vat_rate_bp IS NOT OLD.vat_rate_bp
BEGIN
    SELECT RAISE(ABORT, 'line_vat: a line keeps the VAT rate it was booked at');
END;

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

CREATE TRIGGER order_lines_insert_rules BEFORE INSERT ON order_lines
BEGIN
    SELECT RAISE(ABORT, 'row_never_replaced: an order_lines row is never replaced (REPLACE would delete it without its triggers); UPDATE its quantity, or insert a new line')
    WHERE EXISTS (SELECT 1 FROM order_lines WHERE order_id = NEW.order_id AND line_no = NEW.line_no);
    SELECT RAISE(ABORT, 'order_lines_by_pizzeria: lines are added by Pizzeria (pizzeria order edit --add)')
    WHERE pizzeria_connection() IS NOT 1;
    SELECT RAISE(ABORT, 'line_vat: a line''s vat_rate_bp is its category''s rate when booked (categories.vat_rate_bp, else shop.vat_rate_bp)')
    WHERE NEW.vat_rate_bp IS NOT (SELECT coalesce(c.vat_rate_bp, s.vat_rate_bp)
                                  FROM pizzas p JOIN categories c ON c.id = p.category_id, shop s
                                  WHERE p.id = NEW.pizza_id AND s.id = 1);
    SELECT RAISE(ABORT, 'sold_out: the item has fewer left than the line asks for, for this pickup (see pizzas.stock_left)')
    FROM pizzas p
    WHERE p.id = NEW.pizza_id AND p.stock_left < NEW.quantity
      AND (p.stock_until IS NULL OR (SELECT pickup_at FROM orders WHERE id = NEW.order_id) < p.stock_until);
    SELECT RAISE(ABORT, 'sold_out: a modifier has fewer left than the line asks for, for this pickup (see modifiers.stock_left)')
    WHERE NEW.modifiers IS NOT NULL AND EXISTS (
        SELECT 1 FROM json_each(NEW.modifiers) e JOIN modifiers m ON m.id = json_extract(e.value, '$.id')
        WHERE m.stock_left < NEW.quantity
          AND (m.stock_until IS NULL OR (SELECT pickup_at FROM orders WHERE id = NEW.order_id) < m.stock_until));
    SELECT RAISE(ABORT, 'line_variant: order_lines.variant_id must name a variant of the line''s item (see pizza_variants)')
    WHERE NOT EXISTS (SELECT 1 FROM pizza_variants v WHERE v.id = NEW.variant_id AND v.pizza_id = NEW.pizza_id);
    SELECT RAISE(ABORT, 'line_snapshot: base_price_cents and variant_name are the variant''s price (the item''s for its default variant) and name when booked (the name NULL when the item has one variant)')
    FROM pizza_variants v
    WHERE v.id = NEW.variant_id
      AND (NEW.base_price_cents IS NOT coalesce(v.price_cents, (SELECT p.price_cents FROM pizzas p WHERE p.id = NEW.pizza_id))
           OR NEW.variant_name IS NOT (CASE WHEN EXISTS (SELECT 1 FROM pizza_variants o WHERE o.pizza_id = NEW.pizza_id AND o.id <> v.id)
                                            THEN v.name END));
    SELECT RAISE(ABORT, 'line_modifier: each modifier must be offered (not archived) in a group of the line''s item, once, with its group, name and price as they are now')
    WHERE NEW.modifiers IS NOT NULL AND (
        EXISTS (SELECT 1 FROM json_each(NEW.modifiers) e
                LEFT JOIN modifiers m ON m.id = json_extract(e.value, '$.id')
                LEFT JOIN modifier_groups g ON g.id = m.group_id
                WHERE m.id IS NULL OR m.archived_at IS NOT NULL
                   OR NOT EXISTS (SELECT 1 FROM pizza_modifier_groups a WHERE a.pizza_id = NEW.pizza_id AND a.group_id = m.group_id)
                   OR json_extract(e.value, '$.name') IS NOT m.name
                   OR json_extract(e.value, '$.group') IS NOT g.name
                   OR (json_extract(e.value, '$.kind') IS NOT NULL AND json_extract(e.value, '$.kind') IS NOT g.kind)
                   OR (json_extract(e.value, '$.default') IS NOT NULL
                       AND (json_extract(e.value, '$.default') = 1) IS NOT (g.default_modifier_id IS m.id))
                   OR json_extract(e.value, '$.price_cents') IS NOT
                      coalesce((SELECT p.price_cents FROM modifier_prices p WHERE p.modifier_id = m.id
                                  AND p.variant_name = (SELECT name FROM pizza_variants WHERE id = NEW.variant_id)),
                               m.price_cents))
        OR (SELECT count(DISTINCT json_extract(value, '$.id')) FROM json_each(NEW.modifiers)) <> json_array_length(NEW.modifiers));
    SELECT RAISE(ABORT, 'line_modifier_count: a line takes between min_selected and max_selected modifiers of each group of its item')
    WHERE EXISTS (SELECT 1 FROM pizza_modifier_groups a JOIN modifier_groups g ON g.id = a.group_id
                  WHERE a.pizza_id = NEW.pizza_id
                    AND (SELECT count(*) FROM json_each(coalesce(NEW.modifiers, '[]')) e
                         JOIN modifiers m ON m.id = json_extract(e.value, '$.id') WHERE m.group_id = g.id)
                        NOT BETWEEN g.min_selected AND g.max_selected);
    SELECT RAISE(ABORT, 'line_price: unit_price_cents is base_price_cents plus the modifiers'' price_cents')
    WHERE NEW.unit_price_cents IS NOT NEW.base_price_cents
                                      + coalesce((SELECT sum(json_extract(value, '$.price_cents')) FROM json_each(NEW.modifiers)), 0);
    SELECT RAISE(ABORT, 'line_allergens: allergens is the union of the item''s and its modifiers'' allergens when booked')
    WHERE NEW.allergens IS NOT (SELECT coalesce(sum(b.bit), 0) FROM allergens b
                                WHERE (SELECT allergens FROM pizzas WHERE id = NEW.pizza_id) & b.bit
                                   OR EXISTS (SELECT 1 FROM json_each(coalesce(NEW.modifiers, '[]')) e
                                              JOIN modifiers m ON m.id = json_extract(e.value, '$.id')
                                              WHERE m.allergens & b.bit));
    SELECT RAISE(ABORT, 'order_lines_oven: order_lines.uses_oven and station_id are its item''s category''s when booked (0 and NULL for drinks handed over at the counter; a station left out is the category''s)')
    FROM pizzas p JOIN categories k ON k.id = p.category_id
    WHERE p.id = NEW.pizza_id AND (NEW.uses_oven, coalesce(NEW.station_id, k.station_id)) IS NOT (k.uses_oven, k.station_id);
    SELECT RAISE(ABORT, 'order_locked: lines are added only while the order is placed (an item no station prepares, until it is collected)')
    WHERE (SELECT status FROM orders WHERE id = NEW.order_id) IS NOT 'placed'
      AND NOT ((SELECT status FROM orders WHERE id = NEW.order_id) IN ('preparing', 'ready')
               AND NEW.uses_oven = 0
               AND (SELECT k.station_id FROM pizzas p JOIN categories k ON k.id = p.category_id WHERE p.id = NEW.pizza_id) IS NULL);
END;

CREATE TRIGGER order_lines_hand_update AFTER UPDATE OF quantity ON order_lines
WHEN NEW.quantity IS NOT OLD.quantity
 AND NOT EXISTS (SELECT 1 FROM pragma_table_list('pizzeria_connection') WHERE schema = 'temp')
BEGIN
    INSERT INTO order_status_events (order_id, kind, from_status, to_status, detail, actor, at, pickup_local, total_cents)
    SELECT o.id, 'edited', o.status, o.status,
           'by hand: ' || NEW.pizza_name || coalesce(' ' || NEW.variant_name, '') || ' × ' || OLD.quantity || ' → ' || NEW.quantity,
           NULL, strftime('%Y-%m-%dT%H:%M:%fZ', 'now'), o.pickup_local, o.total_cents
    FROM orders o WHERE o.id = NEW.order_id;
END;

CREATE TRIGGER order_lines_hand_delete AFTER DELETE ON order_lines
WHEN NOT EXISTS (SELECT 1 FROM pragma_table_list('pizzeria_connection') WHERE schema = 'temp')
BEGIN
    INSERT INTO order_status_events (order_id, kind, from_status, to_status, detail, actor, at, pickup_local, total_cents)
    SELECT o.id, 'edited', o.status, o.status,
           'by hand: −' || OLD.quantity || ' ' || OLD.pizza_name || coalesce(' ' || OLD.variant_name, ''),
           NULL, strftime('%Y-%m-%dT%H:%M:%fZ', 'now'), o.pickup_local, o.total_cents
    FROM orders o WHERE o.id = OLD.order_id;
END;

CREATE TRIGGER slot_loads_line_insert AFTER INSERT ON order_lines
BEGIN
    UPDATE slot_loads
    SET booked = (SELECT coalesce(sum(l.quantity * l.uses_oven), 0) FROM orders o JOIN order_lines l ON l.order_id = o.id
                  WHERE o.pickup_at = slot_loads.pickup_at AND o.status <> 'cancelled')
    WHERE pickup_at = (SELECT pickup_at FROM orders WHERE id = NEW.order_id);
    SELECT RAISE(ABORT, 'slot_capacity_exceeded: the pickup slot has no room for these pizzas (only a staff override lets an order past its capacity)')
    FROM orders o JOIN slot_loads s ON s.pickup_at = o.pickup_at
    WHERE o.id = NEW.order_id AND NEW.uses_oven = 1 AND o.status <> 'cancelled' AND s.booked > s.capacity
      AND NOT EXISTS (SELECT 1 FROM capacity_overrides c WHERE c.order_id = o.id AND c.pickup_at = o.pickup_at AND c.station_id IS NULL);
END;

CREATE TRIGGER slot_loads_line_update AFTER UPDATE OF quantity, uses_oven ON order_lines
BEGIN
    UPDATE slot_loads
    SET booked = (SELECT coalesce(sum(l.quantity * l.uses_oven), 0) FROM orders o JOIN order_lines l ON l.order_id = o.id
                  WHERE o.pickup_at = slot_loads.pickup_at AND o.status <> 'cancelled')
    WHERE pickup_at = (SELECT pickup_at FROM orders WHERE id = NEW.order_id);
    SELECT RAISE(ABORT, 'slot_capacity_exceeded: the pickup slot has no room for these pizzas (only a staff override lets an order past its capacity)')
    FROM orders o JOIN slot_loads s ON s.pickup_at = o.pickup_at
    WHERE o.id = NEW.order_id AND NEW.quantity * NEW.uses_oven > OLD.quantity * OLD.uses_oven
      AND o.status <> 'cancelled' AND s.booked > s.capacity
      AND NOT EXISTS (SELECT 1 FROM capacity_overrides c WHERE c.order_id = o.id AND c.pickup_at = o.pickup_at AND c.station_id IS NULL);
END;

CREATE TRIGGER order_lines_locked_update BEFORE UPDATE ON order_lines
WHEN NOT (NEW.note IS NULL AND OLD.note IS NOT NULL
          AND NEW.order_id IS OLD.order_id AND NEW.line_no IS OLD.line_no AND NEW.pizza_id IS OLD.pizza_id
          AND NEW.pizza_name IS OLD.pizza_name AND NEW.unit_price_cents IS OLD.unit_price_cents
          AND NEW.quantity IS OLD.quantity AND NEW.uses_oven IS OLD.uses_oven AND NEW.variant_id IS OLD.variant_id
          AND NEW.variant_name IS OLD.variant_name AND NEW.base_price_cents IS OLD.base_price_cents
          AND NEW.modifiers IS OLD.modifiers AND NEW.allergens IS OLD.allergens AND NEW.vat_rate_bp IS OLD.vat_rate_bp
          AND NEW.station_id IS OLD.station_id
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


CREATE TRIGGER order_lines_station_fixed BEFORE UPDATE OF station_id ON order_lines
WHEN NEW.station_id IS NOT OLD.station_id
 AND (OLD.station_id IS NOT NULL
      OR NEW.station_id IS NOT (SELECT k.station_id FROM pizzas p JOIN categories k ON k.id = p.category_id WHERE p.id = NEW.pizza_id))
BEGIN
    SELECT RAISE(ABORT, 'order_lines_station: a line keeps the station it was booked at');
END;

CREATE TRIGGER station_loads_line_insert AFTER INSERT ON order_lines
WHEN NEW.uses_oven = 0
 AND coalesce(NEW.station_id, (SELECT k.station_id FROM pizzas p JOIN categories k ON k.id = p.category_id WHERE p.id = NEW.pizza_id)) IS NOT NULL
BEGIN
    INSERT INTO station_loads (station_id, pickup_at)
    SELECT l.station_id, o.pickup_at FROM order_lines l JOIN orders o ON o.id = l.order_id
    WHERE l.order_id = NEW.order_id AND l.line_no = NEW.line_no
      AND NOT EXISTS (SELECT 1 FROM station_loads s WHERE s.station_id = l.station_id AND s.pickup_at = o.pickup_at);
    UPDATE station_loads
    SET booked = (SELECT coalesce(sum(l.quantity), 0) FROM orders o JOIN order_lines l ON l.order_id = o.id
                  WHERE o.pickup_at = station_loads.pickup_at AND o.status <> 'cancelled' AND l.station_id = station_loads.station_id)
    WHERE station_id = (SELECT station_id FROM order_lines WHERE order_id = NEW.order_id AND line_no = NEW.line_no)
      AND pickup_at = (SELECT pickup_at FROM orders WHERE id = NEW.order_id);
    SELECT RAISE(ABORT, 'station_capacity_exceeded: the station has no room for these pieces in the pickup slot (only a staff override lets an order past its capacity)')
    FROM order_lines l JOIN orders o ON o.id = l.order_id
    JOIN station_slot_capacity s ON s.station_id = l.station_id AND s.pickup_at = o.pickup_at
    WHERE l.order_id = NEW.order_id AND l.line_no = NEW.line_no AND o.status <> 'cancelled' AND s.booked > s.capacity
      AND NOT EXISTS (SELECT 1 FROM capacity_overrides c
                      WHERE c.order_id = o.id AND c.pickup_at = o.pickup_at AND c.station_id = l.station_id);
END;

-- A line written without its station takes its category's (as one without uses_oven takes 1);
-- made after station_loads_line_insert, so it runs first and the load counts the line.
CREATE TRIGGER order_lines_station_default AFTER INSERT ON order_lines
WHEN NEW.station_id IS NULL
 AND (SELECT k.station_id FROM pizzas p JOIN categories k ON k.id = p.category_id WHERE p.id = NEW.pizza_id) IS NOT NULL
BEGIN
    UPDATE order_lines SET station_id = (SELECT k.station_id FROM pizzas p JOIN categories k ON k.id = p.category_id WHERE p.id = NEW.pizza_id)
    WHERE order_id = NEW.order_id AND line_no = NEW.line_no;
END;

CREATE TRIGGER station_loads_line_update AFTER UPDATE OF quantity ON order_lines
WHEN NEW.station_id IS NOT NULL AND NEW.uses_oven = 0 AND NEW.quantity IS NOT OLD.quantity
BEGIN
    UPDATE station_loads
    SET booked = (SELECT coalesce(sum(l.quantity), 0) FROM orders o JOIN order_lines l ON l.order_id = o.id
                  WHERE o.pickup_at = station_loads.pickup_at AND o.status <> 'cancelled' AND l.station_id = station_loads.station_id)
    WHERE station_id = NEW.station_id AND pickup_at = (SELECT pickup_at FROM orders WHERE id = NEW.order_id);
    SELECT RAISE(ABORT, 'station_capacity_exceeded: the station has no room for these pieces in the pickup slot (only a staff override lets an order past its capacity)')
    FROM orders o JOIN station_slot_capacity s ON s.station_id = NEW.station_id AND s.pickup_at = o.pickup_at
    WHERE o.id = NEW.order_id AND NEW.quantity > OLD.quantity AND o.status <> 'cancelled' AND s.booked > s.capacity
      AND NOT EXISTS (SELECT 1 FROM capacity_overrides c
                      WHERE c.order_id = o.id AND c.pickup_at = o.pickup_at AND c.station_id = NEW.station_id);
END;

CREATE TRIGGER station_loads_line_delete AFTER DELETE ON order_lines
WHEN OLD.station_id IS NOT NULL AND OLD.uses_oven = 0
BEGIN
    UPDATE station_loads
    SET booked = (SELECT coalesce(sum(l.quantity), 0) FROM orders o JOIN order_lines l ON l.order_id = o.id
                  WHERE o.pickup_at = station_loads.pickup_at AND o.status <> 'cancelled' AND l.station_id = station_loads.station_id)
    WHERE station_id = OLD.station_id AND pickup_at = (SELECT pickup_at FROM orders WHERE id = OLD.order_id);
END;

CREATE TRIGGER station_bumps_more_to_make AFTER INSERT ON order_lines
WHEN EXISTS (SELECT 1 FROM station_bumps WHERE order_id = NEW.order_id)
BEGIN
    DELETE FROM station_bumps WHERE order_id = NEW.order_id AND station_id IS NEW.station_id;
END;

CREATE TRIGGER station_bumps_more_of_a_line AFTER UPDATE OF quantity ON order_lines
WHEN NEW.quantity > OLD.quantity AND EXISTS (SELECT 1 FROM station_bumps WHERE order_id = NEW.order_id)
BEGIN
    DELETE FROM station_bumps WHERE order_id = NEW.order_id AND station_id IS NEW.station_id;
END;
