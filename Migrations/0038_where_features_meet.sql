-- 0038: the rules hold where features meet (money after an undo, REPLACE, hand edits, overrides,
-- erasure).
--
-- 1. An order's balance is what it is due less what the shop keeps (paid − refunded), so a
--    cancelled, refunded order that is placed again owes its total again. Before, the balance was
--    due − paid: a refund never reopened it, and an undone refunded order came back free.
-- 2. REPLACE and INSERT OR REPLACE delete the row they conflict with without firing its DELETE
--    triggers (https://sqlite.org/lang_conflict.html, with recursive_triggers off, as in the
--    sqlite3 shell): a refund could be shrunk, a payment rewritten below its refunds, an order or
--    a line replaced. Every table with a DELETE trigger now refuses an insert whose key exists
--    (`row_never_replaced`), which closes REPLACE, INSERT OR REPLACE and UPSERT on any connection.
-- 3. audit_context (who acts) is written only by Pizzeria's own connections: the trigger calls the
--    SQL function pizzeria_connection(), which the library registers on each of its connections
--    and nothing else has, so a statement typed into sqlite3 cannot claim to be someone.
-- 4. A line's quantity changed or a line removed by hand (not through the library) is written into
--    the order's history (`edited`, detail `by hand: …`, no actor): the library's connections
--    carry the temporary table pizzeria_connection, which the triggers look for. A line is added
--    only by Pizzeria (its rules call pizzeria_connection(), which sqlite3 does not have).
-- 5. A slot goes past its capacity only by orders a staff override let in: the load triggers now
--    refuse an increase past the capacity made by an order without an override at that slot (a
--    stale override's allowance no longer covers a hand-written UPDATE of another order).
-- 6. An erasure redacts what payments and refunds carry of the customer (a payment's reference
--    becomes NULL, a refund's reason `[erased]`).
-- 7. Notifiers set up, reset, re-kinded or removed are in the audit log.

-- 1. The payment state: due − kept.
DROP VIEW order_payments;

-- due: the total, or 0 once cancelled; kept: paid − refunded; balance: what the customer still
-- owes (due − kept, when positive); owes_refund: what the shop must pay back (kept − due, when
-- positive). state: unpaid (nothing kept of what is due), overpaid (keeps more than is due),
-- partially_paid (keeps less than is due), and when it keeps exactly what is due: paid (nothing
-- refunded), refunded (all of it paid back), partially_refunded. Nothing paid at all is unpaid.
CREATE VIEW order_payments AS
SELECT order_id, service_day, status, total_cents, due_cents, paid_cents, refunded_cents,
       paid_cents - refunded_cents AS kept_cents,
       max(due_cents - (paid_cents - refunded_cents), 0) AS balance_cents,
       max((paid_cents - refunded_cents) - due_cents, 0) AS owes_refund_cents,
       CASE WHEN paid_cents = 0 THEN 'unpaid'
            WHEN paid_cents - refunded_cents > due_cents THEN 'overpaid'
            WHEN paid_cents - refunded_cents < due_cents
                THEN CASE WHEN paid_cents = refunded_cents THEN 'unpaid' ELSE 'partially_paid' END
            WHEN refunded_cents = 0 THEN 'paid'
            WHEN paid_cents = refunded_cents THEN 'refunded'
            ELSE 'partially_refunded' END AS state
FROM (SELECT o.id AS order_id, o.service_day, o.status, o.total_cents,
             CASE WHEN o.status = 'cancelled' THEN 0 ELSE o.total_cents END AS due_cents,
             (SELECT coalesce(sum(p.amount_cents), 0) FROM payments p WHERE p.order_id = o.id) AS paid_cents,
             (SELECT coalesce(sum(r.amount_cents), 0) FROM payments p JOIN refunds r ON r.payment_id = p.id
              WHERE p.order_id = o.id) AS refunded_cents
      FROM orders o);

-- 2. No row replaced: an insert whose key exists is refused before SQLite's conflict handling
-- runs (an INTEGER PRIMARY KEY left out reads -1 here, so a plain insert costs no lookup).
CREATE TRIGGER allergens_never_replaced BEFORE INSERT ON allergens
WHEN NEW.bit > 0 AND EXISTS (SELECT 1 FROM allergens WHERE bit = NEW.bit)
BEGIN
    SELECT RAISE(ABORT, 'row_never_replaced: a row of allergens is never replaced (REPLACE would delete it without its triggers); UPDATE it where the table allows, or insert a new row');
END;

CREATE TRIGGER audit_context_never_replaced BEFORE INSERT ON audit_context
WHEN NEW.id > 0 AND EXISTS (SELECT 1 FROM audit_context WHERE id = NEW.id)
BEGIN
    SELECT RAISE(ABORT, 'row_never_replaced: a row of audit_context is never replaced (REPLACE would delete it without its triggers); UPDATE it where the table allows, or insert a new row');
END;

CREATE TRIGGER audit_log_never_replaced BEFORE INSERT ON audit_log
WHEN NEW.id > 0 AND EXISTS (SELECT 1 FROM audit_log WHERE id = NEW.id)
BEGIN
    SELECT RAISE(ABORT, 'row_never_replaced: a row of audit_log is never replaced (REPLACE would delete it without its triggers); UPDATE it where the table allows, or insert a new row');
END;

CREATE TRIGGER capacity_overrides_never_replaced BEFORE INSERT ON capacity_overrides
WHEN NEW.id > 0 AND EXISTS (SELECT 1 FROM capacity_overrides WHERE id = NEW.id)
BEGIN
    SELECT RAISE(ABORT, 'row_never_replaced: a row of capacity_overrides is never replaced (REPLACE would delete it without its triggers); UPDATE it where the table allows, or insert a new row');
END;

CREATE TRIGGER capacity_rules_never_replaced BEFORE INSERT ON capacity_rules
WHEN NEW.id > 0 AND EXISTS (SELECT 1 FROM capacity_rules WHERE id = NEW.id)
BEGIN
    SELECT RAISE(ABORT, 'row_never_replaced: a row of capacity_rules is never replaced (REPLACE would delete it without its triggers); UPDATE it where the table allows, or insert a new row');
END;

CREATE TRIGGER categories_never_replaced BEFORE INSERT ON categories
WHEN NEW.id > 0 AND EXISTS (SELECT 1 FROM categories WHERE id = NEW.id)
BEGIN
    SELECT RAISE(ABORT, 'row_never_replaced: a row of categories is never replaced (REPLACE would delete it without its triggers); UPDATE it where the table allows, or insert a new row');
END;

CREATE TRIGGER config_generation_never_replaced BEFORE INSERT ON config_generation
WHEN NEW.id > 0 AND EXISTS (SELECT 1 FROM config_generation WHERE id = NEW.id)
BEGIN
    SELECT RAISE(ABORT, 'row_never_replaced: a row of config_generation is never replaced (REPLACE would delete it without its triggers); UPDATE it where the table allows, or insert a new row');
END;

CREATE TRIGGER modifier_groups_never_replaced BEFORE INSERT ON modifier_groups
WHEN NEW.id > 0 AND EXISTS (SELECT 1 FROM modifier_groups WHERE id = NEW.id)
BEGIN
    SELECT RAISE(ABORT, 'row_never_replaced: a row of modifier_groups is never replaced (REPLACE would delete it without its triggers); UPDATE it where the table allows, or insert a new row');
END;

CREATE TRIGGER modifiers_never_replaced BEFORE INSERT ON modifiers
WHEN NEW.id > 0 AND EXISTS (SELECT 1 FROM modifiers WHERE id = NEW.id)
BEGIN
    SELECT RAISE(ABORT, 'row_never_replaced: a row of modifiers is never replaced (REPLACE would delete it without its triggers); UPDATE it where the table allows, or insert a new row');
END;

CREATE TRIGGER navigation_events_never_replaced BEFORE INSERT ON navigation_events
WHEN NEW.id > 0 AND EXISTS (SELECT 1 FROM navigation_events WHERE id = NEW.id)
BEGIN
    SELECT RAISE(ABORT, 'row_never_replaced: a row of navigation_events is never replaced (REPLACE would delete it without its triggers); UPDATE it where the table allows, or insert a new row');
END;

CREATE TRIGGER order_status_events_never_replaced BEFORE INSERT ON order_status_events
WHEN NEW.id > 0 AND EXISTS (SELECT 1 FROM order_status_events WHERE id = NEW.id)
BEGIN
    SELECT RAISE(ABORT, 'row_never_replaced: a row of order_status_events is never replaced (REPLACE would delete it without its triggers); UPDATE it where the table allows, or insert a new row');
END;

CREATE TRIGGER payments_never_replaced BEFORE INSERT ON payments
WHEN (NEW.id > 0 AND EXISTS (SELECT 1 FROM payments WHERE id = NEW.id))
   OR (NEW.reference IS NOT NULL AND EXISTS (SELECT 1 FROM payments WHERE method = NEW.method AND reference = NEW.reference))
BEGIN
    SELECT RAISE(ABORT, 'row_never_replaced: a row of payments is never replaced (REPLACE would delete it without its triggers); UPDATE it where the table allows, or insert a new row');
END;

CREATE TRIGGER pizza_history_never_replaced BEFORE INSERT ON pizza_history
WHEN NEW.id > 0 AND EXISTS (SELECT 1 FROM pizza_history WHERE id = NEW.id)
BEGIN
    SELECT RAISE(ABORT, 'row_never_replaced: a row of pizza_history is never replaced (REPLACE would delete it without its triggers); UPDATE it where the table allows, or insert a new row');
END;

CREATE TRIGGER pizza_modifier_groups_never_replaced BEFORE INSERT ON pizza_modifier_groups
WHEN EXISTS (SELECT 1 FROM pizza_modifier_groups WHERE pizza_id = NEW.pizza_id AND group_id = NEW.group_id)
BEGIN
    SELECT RAISE(ABORT, 'row_never_replaced: a row of pizza_modifier_groups is never replaced (REPLACE would delete it without its triggers); UPDATE it where the table allows, or insert a new row');
END;

CREATE TRIGGER pizza_variants_never_replaced BEFORE INSERT ON pizza_variants
WHEN NEW.id > 0 AND EXISTS (SELECT 1 FROM pizza_variants WHERE id = NEW.id)
BEGIN
    SELECT RAISE(ABORT, 'row_never_replaced: a row of pizza_variants is never replaced (REPLACE would delete it without its triggers); UPDATE it where the table allows, or insert a new row');
END;

CREATE TRIGGER pizzas_never_replaced BEFORE INSERT ON pizzas
WHEN EXISTS (SELECT 1 FROM pizzas WHERE id = NEW.id)
BEGIN
    SELECT RAISE(ABORT, 'row_never_replaced: a row of pizzas is never replaced (REPLACE would delete it without its triggers); UPDATE it where the table allows, or insert a new row');
END;

CREATE TRIGGER refunds_never_replaced BEFORE INSERT ON refunds
WHEN NEW.id > 0 AND EXISTS (SELECT 1 FROM refunds WHERE id = NEW.id)
BEGIN
    SELECT RAISE(ABORT, 'row_never_replaced: a row of refunds is never replaced (REPLACE would delete it without its triggers); UPDATE it where the table allows, or insert a new row');
END;

CREATE TRIGGER schedule_exceptions_never_replaced BEFORE INSERT ON schedule_exceptions
WHEN NEW.id > 0 AND EXISTS (SELECT 1 FROM schedule_exceptions WHERE id = NEW.id)
BEGIN
    SELECT RAISE(ABORT, 'row_never_replaced: a row of schedule_exceptions is never replaced (REPLACE would delete it without its triggers); UPDATE it where the table allows, or insert a new row');
END;

CREATE TRIGGER settings_never_replaced BEFORE INSERT ON settings
WHEN NEW.id > 0 AND EXISTS (SELECT 1 FROM settings WHERE id = NEW.id)
BEGIN
    SELECT RAISE(ABORT, 'row_never_replaced: a row of settings is never replaced (REPLACE would delete it without its triggers); UPDATE it where the table allows, or insert a new row');
END;

CREATE TRIGGER shop_never_replaced BEFORE INSERT ON shop
WHEN NEW.id > 0 AND EXISTS (SELECT 1 FROM shop WHERE id = NEW.id)
BEGIN
    SELECT RAISE(ABORT, 'row_never_replaced: a row of shop is never replaced (REPLACE would delete it without its triggers); UPDATE it where the table allows, or insert a new row');
END;

CREATE TRIGGER slot_loads_never_replaced BEFORE INSERT ON slot_loads
WHEN EXISTS (SELECT 1 FROM slot_loads WHERE pickup_at = NEW.pickup_at)
BEGIN
    SELECT RAISE(ABORT, 'row_never_replaced: a row of slot_loads is never replaced (REPLACE would delete it without its triggers); UPDATE it where the table allows, or insert a new row');
END;

CREATE TRIGGER staff_never_replaced BEFORE INSERT ON staff
WHEN EXISTS (SELECT 1 FROM staff WHERE name = NEW.name)
BEGIN
    SELECT RAISE(ABORT, 'row_never_replaced: a row of staff is never replaced (REPLACE would delete it without its triggers); UPDATE it where the table allows, or insert a new row');
END;

CREATE TRIGGER user_erasures_never_replaced BEFORE INSERT ON user_erasures
WHEN EXISTS (SELECT 1 FROM user_erasures WHERE user_id = NEW.user_id)
BEGIN
    SELECT RAISE(ABORT, 'row_never_replaced: a row of user_erasures is never replaced (REPLACE would delete it without its triggers); UPDATE it where the table allows, or insert a new row');
END;

CREATE TRIGGER weekly_hours_never_replaced BEFORE INSERT ON weekly_hours
WHEN NEW.id > 0 AND EXISTS (SELECT 1 FROM weekly_hours WHERE id = NEW.id)
BEGIN
    SELECT RAISE(ABORT, 'row_never_replaced: a row of weekly_hours is never replaced (REPLACE would delete it without its triggers); UPDATE it where the table allows, or insert a new row');
END;

-- orders and order_lines keep one BEFORE INSERT trigger each (a booking runs one program per
-- table): the same refusal, first in their rules.
DROP TRIGGER orders_insert_rules;
CREATE TRIGGER orders_insert_rules BEFORE INSERT ON orders
BEGIN
    -- row_never_replaced (migration 38)
    SELECT RAISE(ABORT, 'row_never_replaced: an orders row is never replaced (REPLACE would delete it without its triggers); UPDATE it, or insert a new order')
    WHERE EXISTS (SELECT 1 FROM orders WHERE id = NEW.id)
       OR (NEW.idempotency_key IS NOT NULL AND EXISTS (SELECT 1 FROM orders WHERE idempotency_key = NEW.idempotency_key));
    -- user_erased (was orders_user_not_erased)
    SELECT RAISE(ABORT, 'user_erased: this customer''s data was erased; they cannot book')
    WHERE EXISTS (SELECT 1 FROM user_erasures WHERE user_id = NEW.user_id);
    -- order_total_derived (was orders_total_starts_zero)
    SELECT RAISE(ABORT, 'order_total_derived: a new order''s total_cents is 0; its lines make the total')
    WHERE NEW.total_cents IS NOT 0;
    -- timestamp_format (was orders_timestamps_insert)
    SELECT RAISE(ABORT, 'timestamp_format: created_at, updated_at and changed_at are UTC times such as 2026-12-01T18:30:00.000Z')
    WHERE strftime('%Y-%m-%dT%H:%M:%fZ', NEW.created_at) IS NOT NEW.created_at
       OR strftime('%Y-%m-%dT%H:%M:%fZ', NEW.updated_at) IS NOT NEW.updated_at
       OR (NEW.changed_at IS NOT NULL AND strftime('%Y-%m-%dT%H:%M:%fZ', NEW.changed_at) IS NOT NEW.changed_at);
    -- order_status (was orders_start_placed)
    SELECT RAISE(ABORT, 'order_status: a new order must have status placed')
    WHERE NEW.status IS NOT 'placed';
    -- order_service_day (was orders_service_day_insert)
    SELECT RAISE(ABORT, 'order_service_day: a pickup belongs to the service day before its date only within a night interval of that day')
    WHERE NEW.service_day IS date(substr(NEW.pickup_local, 1, 10), '-1 day')
      AND NOT EXISTS (SELECT 1 FROM weekly_hours w
                      WHERE w.weekday = (CAST(strftime('%w', NEW.service_day) AS INTEGER) + 6) % 7 + 1
                        AND w.closes_at <= w.opens_at AND substr(NEW.pickup_local, 12, 5) < w.closes_at)
      AND NOT EXISTS (SELECT 1 FROM schedule_exceptions x
                      WHERE x.day = NEW.service_day AND x.kind = 'special'
                        AND x.closes_at <= x.opens_at AND substr(NEW.pickup_local, 12, 5) < x.closes_at);
    -- pickup_at on the minute (was orders_pickup_real_insert)
    SELECT RAISE(ABORT, 'pickup_at must be a real UTC time on the minute, such as 2026-12-01T18:30:00Z')
    WHERE strftime('%Y-%m-%dT%H:%M:00Z', julianday(NEW.pickup_at)) IS NOT NEW.pickup_at;
    -- order_party (was orders_party_insert)
    SELECT RAISE(ABORT, 'order_party: a party''s orders are one customer''s on one service day, linked to its first order')
    WHERE NEW.party_id IS NOT NULL AND NEW.party_id IS NOT NEW.id
      AND NOT EXISTS (SELECT 1 FROM orders p WHERE p.id = NEW.party_id AND p.party_id = p.id
                      AND p.user_id = NEW.user_id AND p.service_day = NEW.service_day);
    -- order_local_time (was orders_local_time_insert)
    SELECT RAISE(ABORT, 'order_local_time: an order needs service_day and pickup_local (local time with offset) that agree with pickup_at')
    WHERE strftime('%Y-%m-%dT%H:%M:00Z', substr(NEW.pickup_local, 1, 16),
                   (CASE substr(NEW.pickup_local, 17, 1) WHEN '+' THEN '-' ELSE '+' END) || substr(NEW.pickup_local, 18, 5)) IS NOT NEW.pickup_at
       OR NEW.service_day NOT IN (substr(NEW.pickup_local, 1, 10), date(substr(NEW.pickup_local, 1, 10), '-1 day'));
END;

DROP TRIGGER order_lines_insert_rules;
CREATE TRIGGER order_lines_insert_rules BEFORE INSERT ON order_lines
BEGIN
    -- row_never_replaced (migration 38)
    SELECT RAISE(ABORT, 'row_never_replaced: an order_lines row is never replaced (REPLACE would delete it without its triggers); UPDATE its quantity, or insert a new line')
    WHERE EXISTS (SELECT 1 FROM order_lines WHERE order_id = NEW.order_id AND line_no = NEW.line_no);
    -- order_lines_by_pizzeria (migration 38): a line is added by Pizzeria (a booking, or `order
    -- edit --add`, which writes the change into the order's history); elsewhere pizzeria_connection()
    -- does not exist, and the INSERT fails before it runs.
    SELECT RAISE(ABORT, 'order_lines_by_pizzeria: lines are added by Pizzeria (pizzeria order edit --add)')
    WHERE pizzeria_connection() IS NOT 1;
    -- line_vat (was order_lines_vat)
    SELECT RAISE(ABORT, 'line_vat: a line''s vat_rate_bp is its category''s rate when booked (categories.vat_rate_bp, else shop.vat_rate_bp)')
    WHERE NEW.vat_rate_bp IS NOT (SELECT coalesce(c.vat_rate_bp, s.vat_rate_bp)
                                  FROM pizzas p JOIN categories c ON c.id = p.category_id, shop s
                                  WHERE p.id = NEW.pizza_id AND s.id = 1);
    -- sold_out (was order_lines_stock_check)
    SELECT RAISE(ABORT, 'sold_out: the item has fewer left than the line asks for, for this pickup (see pizzas.stock_left)')
    FROM pizzas p
    WHERE p.id = NEW.pizza_id AND p.stock_left < NEW.quantity
      AND (p.stock_until IS NULL OR (SELECT pickup_at FROM orders WHERE id = NEW.order_id) < p.stock_until);
    SELECT RAISE(ABORT, 'sold_out: a modifier has fewer left than the line asks for, for this pickup (see modifiers.stock_left)')
    WHERE NEW.modifiers IS NOT NULL AND EXISTS (
        SELECT 1 FROM json_each(NEW.modifiers) e JOIN modifiers m ON m.id = json_extract(e.value, '$.id')
        WHERE m.stock_left < NEW.quantity
          AND (m.stock_until IS NULL OR (SELECT pickup_at FROM orders WHERE id = NEW.order_id) < m.stock_until));
    -- line_variant, line_snapshot, line_modifier, line_modifier_count, line_price, line_allergens
    -- (was order_lines_choice)
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
    -- order_lines_oven (was order_lines_oven_snapshot)
    SELECT RAISE(ABORT, 'order_lines_oven: order_lines.uses_oven is its item''s category''s uses_oven when booked (0 for drinks and desserts)')
    WHERE NEW.uses_oven IS NOT (SELECT k.uses_oven FROM pizzas p JOIN categories k ON k.id = p.category_id WHERE p.id = NEW.pizza_id);
    -- order_locked (was order_lines_locked_insert)
    SELECT RAISE(ABORT, 'order_locked: lines are added only while the order is placed')
    WHERE (SELECT status FROM orders WHERE id = NEW.order_id) IS NOT 'placed';
END;

-- 3. Who acts is said by Pizzeria's own connections only.
CREATE TRIGGER audit_context_library_only BEFORE UPDATE ON audit_context
WHEN NEW.actor IS NOT NULL OR NEW.source IS NOT NULL OR NEW.at IS NOT NULL
BEGIN
    SELECT RAISE(ABORT, 'audit_context_library_only: only Pizzeria says who acts') WHERE pizzeria_connection() IS NOT 1;
END;

-- 4. A line changed by hand is in the order's history.
CREATE TRIGGER order_lines_hand_update AFTER UPDATE OF quantity ON order_lines
WHEN NEW.quantity IS NOT OLD.quantity
 AND NOT EXISTS (SELECT 1 FROM pragma_table_list('pizzeria_connection') WHERE schema = 'temp')
BEGIN
    INSERT INTO order_status_events (order_id, kind, from_status, to_status, detail, actor, at)
    SELECT o.id, 'edited', o.status, o.status,
           'by hand: ' || NEW.pizza_name || coalesce(' ' || NEW.variant_name, '') || ' × ' || OLD.quantity || ' → ' || NEW.quantity,
           NULL, strftime('%Y-%m-%dT%H:%M:%fZ', 'now')
    FROM orders o WHERE o.id = NEW.order_id;
END;

CREATE TRIGGER order_lines_hand_delete AFTER DELETE ON order_lines
WHEN NOT EXISTS (SELECT 1 FROM pragma_table_list('pizzeria_connection') WHERE schema = 'temp')
BEGIN
    INSERT INTO order_status_events (order_id, kind, from_status, to_status, detail, actor, at)
    SELECT o.id, 'edited', o.status, o.status,
           'by hand: −' || OLD.quantity || ' ' || OLD.pizza_name || coalesce(' ' || OLD.variant_name, ''),
           NULL, strftime('%Y-%m-%dT%H:%M:%fZ', 'now')
    FROM orders o WHERE o.id = OLD.order_id;
END;

-- 5. Past the capacity only by an override's order. Each load trigger, once the slot's load is
-- recomputed, refuses an increase that leaves the slot over its capacity when the order that
-- made it holds no override at that slot (slot_loads_capacity still bounds the overrides' total).
DROP TRIGGER slot_loads_line_insert;
CREATE TRIGGER slot_loads_line_insert AFTER INSERT ON order_lines
BEGIN
    UPDATE slot_loads
    SET booked = (SELECT coalesce(sum(l.quantity * l.uses_oven), 0) FROM orders o JOIN order_lines l ON l.order_id = o.id
                  WHERE o.pickup_at = slot_loads.pickup_at AND o.status <> 'cancelled')
    WHERE pickup_at = (SELECT pickup_at FROM orders WHERE id = NEW.order_id);
    SELECT RAISE(ABORT, 'slot_capacity_exceeded: the pickup slot has no room for these pizzas (only a staff override lets an order past its capacity)')
    FROM orders o JOIN slot_loads s ON s.pickup_at = o.pickup_at
    WHERE o.id = NEW.order_id AND NEW.uses_oven = 1 AND o.status <> 'cancelled' AND s.booked > s.capacity
      AND NOT EXISTS (SELECT 1 FROM capacity_overrides c WHERE c.order_id = o.id AND c.pickup_at = o.pickup_at);
END;

DROP TRIGGER slot_loads_line_update;
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
      AND NOT EXISTS (SELECT 1 FROM capacity_overrides c WHERE c.order_id = o.id AND c.pickup_at = o.pickup_at);
END;

DROP TRIGGER slot_loads_order_change;
CREATE TRIGGER slot_loads_order_change AFTER UPDATE OF status, pickup_at ON orders
WHEN NEW.status IS NOT OLD.status OR NEW.pickup_at IS NOT OLD.pickup_at
BEGIN
    INSERT INTO slot_loads (pickup_at, service_day, local_minute, capacity, capacity_rule_id)
    SELECT NEW.pickup_at, NEW.service_day, m.minute, c.capacity, c.rule_id
    FROM (SELECT CAST(round((julianday(substr(NEW.pickup_local, 1, 16)) - julianday(NEW.service_day)) * 1440) AS INTEGER) AS minute,
                 (CAST(strftime('%w', NEW.service_day) AS INTEGER) + 6) % 7 + 1 AS weekday) m
    JOIN capacity_candidates c
      ON (c.day = NEW.service_day OR c.weekday = m.weekday OR c.rank = 2) AND c.start_minute <= m.minute AND m.minute < c.end_minute
    WHERE NOT EXISTS (SELECT 1 FROM slot_loads WHERE pickup_at = NEW.pickup_at)
    ORDER BY c.rank, c.width LIMIT 1;
    UPDATE slot_loads
    SET booked = (SELECT coalesce(sum(l.quantity * l.uses_oven), 0) FROM orders o JOIN order_lines l ON l.order_id = o.id
                  WHERE o.pickup_at = slot_loads.pickup_at AND o.status <> 'cancelled')
    WHERE pickup_at = OLD.pickup_at;
    UPDATE slot_loads
    SET booked = (SELECT coalesce(sum(l.quantity * l.uses_oven), 0) FROM orders o JOIN order_lines l ON l.order_id = o.id
                  WHERE o.pickup_at = slot_loads.pickup_at AND o.status <> 'cancelled')
    WHERE pickup_at = NEW.pickup_at AND NEW.pickup_at IS NOT OLD.pickup_at;
    SELECT RAISE(ABORT, 'slot_capacity_exceeded: the pickup slot has no room for these pizzas (only a staff override lets an order past its capacity)')
    FROM slot_loads s
    WHERE s.pickup_at = NEW.pickup_at AND NEW.status <> 'cancelled'
      AND (OLD.status = 'cancelled' OR NEW.pickup_at IS NOT OLD.pickup_at) AND s.booked > s.capacity
      AND EXISTS (SELECT 1 FROM order_lines l WHERE l.order_id = NEW.id AND l.uses_oven = 1)
      AND NOT EXISTS (SELECT 1 FROM capacity_overrides c WHERE c.order_id = NEW.id AND c.pickup_at = NEW.pickup_at);
END;

-- 6. An erasure redacts a payment's reference and a refund's reason.
DROP TRIGGER payments_append_only_update;
CREATE TRIGGER payments_append_only_update BEFORE UPDATE ON payments
WHEN NOT (NEW.reference IS NULL AND OLD.reference IS NOT NULL
          AND NEW.id IS OLD.id AND NEW.order_id IS OLD.order_id AND NEW.amount_cents IS OLD.amount_cents
          AND NEW.method IS OLD.method AND NEW.tendered_cents IS OLD.tendered_cents AND NEW.at IS OLD.at
          AND NEW.actor IS OLD.actor
          AND EXISTS (SELECT 1 FROM orders o JOIN user_erasures e ON e.user_id = o.user_id WHERE o.id = OLD.order_id))
BEGIN
    SELECT RAISE(ABORT, 'payments_append_only: a payment is never changed; record a refund instead');
END;

DROP TRIGGER refunds_append_only_update;
CREATE TRIGGER refunds_append_only_update BEFORE UPDATE ON refunds
WHEN NOT (NEW.reason = '[erased]' AND OLD.reason <> '[erased]'
          AND NEW.id IS OLD.id AND NEW.payment_id IS OLD.payment_id AND NEW.amount_cents IS OLD.amount_cents
          AND NEW.at IS OLD.at AND NEW.actor IS OLD.actor
          AND EXISTS (SELECT 1 FROM payments p JOIN orders o ON o.id = p.order_id JOIN user_erasures e ON e.user_id = o.user_id
                      WHERE p.id = OLD.payment_id))
BEGIN
    SELECT RAISE(ABORT, 'refunds_append_only: a refund is never changed');
END;


-- 7. A notifier set up, reset (its cursor moved by hand or by `notify reset`), re-kinded or
-- removed is in the audit log (object `notifier:NAME`). Its deliveries move the cursor too, in
-- transactions that say nobody acts: those are not audit entries (the notifier keeps its counts).
CREATE TRIGGER audit_notify_cursors_insert AFTER INSERT ON notify_cursors
BEGIN
    INSERT INTO audit_log (at, actor, source, object, action, old, new)
    SELECT coalesce(c.at, strftime('%Y-%m-%dT%H:%M:%fZ', 'now')), c.actor, coalesce(c.source, 'sql'), 'notifier:' || NEW.name,
           'add', NULL, json_object('after_event', NEW.after_event, 'kinds', NEW.kinds)
    FROM audit_context c WHERE c.id = 1;
END;

CREATE TRIGGER audit_notify_cursors_update AFTER UPDATE OF after_event, kinds ON notify_cursors
WHEN (NEW.after_event IS NOT OLD.after_event OR NEW.kinds IS NOT OLD.kinds)
 AND ((SELECT source FROM audit_context WHERE id = 1) IS NOT NULL
      OR NOT EXISTS (SELECT 1 FROM pragma_table_list('pizzeria_connection') WHERE schema = 'temp'))
BEGIN
    INSERT INTO audit_log (at, actor, source, object, action, old, new)
    SELECT coalesce(c.at, strftime('%Y-%m-%dT%H:%M:%fZ', 'now')), c.actor, coalesce(c.source, 'sql'), 'notifier:' || NEW.name,
           CASE WHEN NEW.kinds IS NOT OLD.kinds THEN 'set' ELSE 'reset' END,
           json_object('after_event', OLD.after_event, 'kinds', OLD.kinds),
           json_object('after_event', NEW.after_event, 'kinds', NEW.kinds)
    FROM audit_context c WHERE c.id = 1;
END;

CREATE TRIGGER audit_notify_cursors_delete AFTER DELETE ON notify_cursors
BEGIN
    INSERT INTO audit_log (at, actor, source, object, action, old, new)
    SELECT coalesce(c.at, strftime('%Y-%m-%dT%H:%M:%fZ', 'now')), c.actor, coalesce(c.source, 'sql'), 'notifier:' || OLD.name,
           'remove', json_object('after_event', OLD.after_event, 'kinds', OLD.kinds), NULL
    FROM audit_context c WHERE c.id = 1;
END;
