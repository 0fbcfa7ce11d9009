-- The triggers on slot_loads: the rules every writer is held to, the derived data they keep, the
-- history they write. A repeatable definition (see R__views.sql): edit here. The order of the
-- triggers is the order they are made in, and SQLite runs a table's triggers of one kind last
-- made first: keep a new one where it must run.

CREATE TRIGGER slot_loads_insert_empty BEFORE INSERT ON slot_loads
WHEN NEW.booked <> 0
BEGIN
    SELECT RAISE(ABORT, 'slot_loads_derived: a slot_loads row starts empty; its load comes from its orders');
END;

CREATE TRIGGER slot_loads_key_fixed BEFORE UPDATE OF pickup_at ON slot_loads
WHEN NEW.pickup_at IS NOT OLD.pickup_at
BEGIN
    SELECT RAISE(ABORT, 'slot_loads_derived: a slot_loads row belongs to its pickup time; move the orders instead');
END;

CREATE TRIGGER slot_loads_kept_while_booked BEFORE DELETE ON slot_loads
WHEN OLD.booked > 0
BEGIN
    SELECT RAISE(ABORT, 'slot_loads_derived: a slot with booked pizzas keeps its row; cancel or move the orders instead');
END;

CREATE TRIGGER slot_loads_booked_derived BEFORE UPDATE OF booked ON slot_loads
WHEN NEW.booked IS NOT (SELECT coalesce(sum(l.quantity * l.uses_oven), 0) FROM orders o JOIN order_lines l ON l.order_id = o.id
                        WHERE o.pickup_at = NEW.pickup_at AND o.status <> 'cancelled')
BEGIN
    SELECT RAISE(ABORT, 'slot_loads_derived: slot_loads.booked is the sum of the slot''s orders, kept by triggers; change the orders instead');
END;

CREATE TRIGGER slot_loads_capacity BEFORE UPDATE OF booked ON slot_loads
WHEN NEW.booked > OLD.booked AND NEW.booked > NEW.capacity
 AND NEW.booked > NEW.capacity + min((NEW.capacity + 3) / 4,
                                     coalesce((SELECT a.pizzas FROM slot_override_allowance a WHERE a.pickup_at = NEW.pickup_at), 0))
BEGIN
    SELECT RAISE(ABORT, 'slot_capacity_exceeded: the pickup slot has no room for these pizzas');
END;

CREATE TRIGGER slot_loads_ruled BEFORE INSERT ON slot_loads
WHEN (NEW.capacity, NEW.capacity_rule_id) IS NOT (
    SELECT c.capacity, c.rule_id FROM capacity_candidates c
    WHERE (c.day = NEW.service_day OR c.weekday = (CAST(strftime('%w', NEW.service_day) AS INTEGER) + 6) % 7 + 1 OR c.rank = 2)
      AND c.start_minute <= NEW.local_minute AND NEW.local_minute < c.end_minute
    ORDER BY c.rank, c.width LIMIT 1)
BEGIN
    SELECT RAISE(ABORT, 'slot_loads_derived: a slot''s capacity and rule come from the capacity rules (view capacity_candidates); let an order open the slot');
END;

CREATE TRIGGER slot_loads_effective_capacity AFTER UPDATE OF local_minute, service_day, capacity, capacity_rule_id ON slot_loads
BEGIN
    UPDATE slot_loads
    SET (capacity, capacity_rule_id) = (
        SELECT c.capacity, c.rule_id FROM capacity_candidates c
        WHERE (c.day = NEW.service_day OR c.weekday = (CAST(strftime('%w', NEW.service_day) AS INTEGER) + 6) % 7 + 1 OR c.rank = 2)
          AND c.start_minute <= NEW.local_minute AND NEW.local_minute < c.end_minute
        ORDER BY c.rank, c.width LIMIT 1)
    WHERE pickup_at = NEW.pickup_at;
END;

CREATE TRIGGER slot_loads_never_replaced BEFORE INSERT ON slot_loads
WHEN EXISTS (SELECT 1 FROM slot_loads WHERE pickup_at = NEW.pickup_at)
BEGIN
    SELECT RAISE(ABORT, 'row_never_replaced: a row of slot_loads is never replaced (REPLACE would delete it without its triggers); UPDATE it where the table allows, or insert a new row');
END;

