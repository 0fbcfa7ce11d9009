-- 0028: a pickup slot is opened in one write, and refers to the capacity rule it follows by id.
--
-- Before, the first booking of a slot wrote its `slot_loads` row three times: the insert (with
-- the shop's default capacity), a self-update by `slot_loads_new_slot` that woke
-- `slot_loads_effective_capacity`, and that trigger's update, which chose the capacity with a
-- three-branch UNION. The row named its rule by the rule's generated display text
-- (`capacity_rule`, `fri 18:30-21:00`), so the triggers of `capacity_rules` found the slots a
-- rule governs by comparing that text (`capacity_rule = OLD.rule`), computed for every rule row.
--
-- Now:
-- * `capacity_candidates` is the one statement of precedence: every capacity a slot can get,
--   ranked — a date's rule (0) over a weekday's (1), the narrower range over the wider, the
--   shop's `slot_capacity` (2) last. A slot's capacity is the first candidate that applies to its
--   service day and local minute (`CapacityRules.capacity(on:wallMinute:)` is the same in Swift).
-- * The triggers that open a slot (an order placed; an order moved or restored into a slot no
--   order held) insert the row with its capacity and rule already chosen: one write.
-- * `slot_loads_ruled` refuses an insert whose capacity or rule is not the one the rules give
--   (a hand-written INSERT included), so a new row cannot start out of step.
-- * `slot_loads.capacity_rule_id` holds the rule's id (NULL: `settings.slot_capacity`); the rule
--   triggers find their slots by it. The text is still readable: view `slot_capacity`
--   (`capacity_from`), and every query that shows it joins the rule.
--
-- `capacity_rule` is dropped in place (ALTER TABLE … DROP COLUMN rewrites the table; nothing
-- else refers to it once the triggers and the view that did are dropped), then every slot's
-- rule is chosen again by the new triggers.

DROP VIEW slot_capacity;
DROP TRIGGER slot_loads_new_slot;
DROP TRIGGER slot_loads_effective_capacity;
DROP TRIGGER slot_loads_open;
DROP TRIGGER slot_loads_order_change;
DROP TRIGGER slot_loads_follow_capacity;
DROP TRIGGER capacity_rules_apply_delete;
DROP TRIGGER capacity_rules_apply_update;

ALTER TABLE slot_loads DROP COLUMN capacity_rule;
-- The capacity rule the slot's capacity came from (capacity_rules.id); NULL: settings.slot_capacity.
ALTER TABLE slot_loads ADD COLUMN capacity_rule_id INTEGER;

CREATE VIEW capacity_candidates AS
SELECT r.id AS rule_id, r.capacity, r.day, r.weekday, r.start_minute, r.end_minute,
       CASE WHEN r.day IS NULL THEN 1 ELSE 0 END AS rank, r.end_minute - r.start_minute AS width
FROM capacity_rules r
UNION ALL
SELECT NULL, s.slot_capacity, NULL, NULL, 0, 2881, 2, 0 FROM settings s WHERE s.id = 1;

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

-- The slot an order opens: its service day, its local minute, and the first candidate that applies.
CREATE TRIGGER slot_loads_open AFTER INSERT ON orders
WHEN NOT EXISTS (SELECT 1 FROM slot_loads WHERE pickup_at = NEW.pickup_at)
BEGIN
    INSERT INTO slot_loads (pickup_at, service_day, local_minute, capacity, capacity_rule_id)
    SELECT NEW.pickup_at, NEW.service_day, m.minute, c.capacity, c.rule_id
    FROM (SELECT CAST(round((julianday(substr(NEW.pickup_local, 1, 16)) - julianday(NEW.service_day)) * 1440) AS INTEGER) AS minute,
                 (CAST(strftime('%w', NEW.service_day) AS INTEGER) + 6) % 7 + 1 AS weekday) m
    JOIN capacity_candidates c
      ON (c.day = NEW.service_day OR c.weekday = m.weekday OR c.rank = 2) AND c.start_minute <= m.minute AND m.minute < c.end_minute
    ORDER BY c.rank, c.width LIMIT 1;
END;

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
END;

CREATE TRIGGER slot_loads_follow_capacity AFTER UPDATE OF slot_capacity ON settings
BEGIN
    UPDATE slot_loads SET local_minute = local_minute WHERE capacity_rule_id IS NULL;
END;

CREATE TRIGGER capacity_rules_apply_delete AFTER DELETE ON capacity_rules
BEGIN
    UPDATE slot_loads SET local_minute = local_minute WHERE capacity_rule_id = OLD.id;
END;

CREATE TRIGGER capacity_rules_apply_update AFTER UPDATE OF capacity ON capacity_rules
BEGIN
    UPDATE slot_loads SET local_minute = local_minute WHERE capacity_rule_id = NEW.id;
END;

CREATE VIEW slot_capacity AS
SELECT s.service_day,
       printf('%02d:%02d', (s.local_minute / 60) % 24, s.local_minute % 60) AS local_time,
       s.pickup_at,
       s.booked,
       s.capacity,
       max(s.capacity - s.booked, 0) AS remaining,
       coalesce(r.rule, 'slot-capacity') AS capacity_from
FROM slot_loads s LEFT JOIN capacity_rules r ON r.id = s.capacity_rule_id;

-- Every slot's rule chosen again, now by id.
UPDATE slot_loads SET local_minute = local_minute;
