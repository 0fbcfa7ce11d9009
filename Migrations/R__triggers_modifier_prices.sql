-- The triggers on modifier_prices: the rules every writer is held to, the derived data they keep, the
-- history they write. A repeatable definition (see R__views.sql): edit here. The order of the
-- triggers is the order they are made in, and SQLite runs a table's triggers of one kind last
-- made first: keep a new one where it must run.

CREATE TRIGGER audit_modifier_prices_change AFTER INSERT ON modifier_prices
BEGIN
    INSERT INTO audit_log (at, actor, source, object, action, new)
    SELECT coalesce(c.at, strftime('%Y-%m-%dT%H:%M:%fZ', 'now')), c.actor, coalesce(c.source, 'sql'), 'modifier:' || NEW.modifier_id, 'variant_price',
           json_object('variant_name', NEW.variant_name, 'price_cents', NEW.price_cents)
    FROM audit_context c WHERE c.id = 1;
END;

CREATE TRIGGER modifier_prices_removal_free BEFORE INSERT ON modifier_prices
WHEN NEW.price_cents <> 0
 AND (SELECT g.kind FROM modifiers m JOIN modifier_groups g ON g.id = m.group_id WHERE m.id = NEW.modifier_id) = 'removal'
BEGIN
    SELECT RAISE(ABORT, 'group_kind: a removal costs nothing on any variant');
END;

CREATE TRIGGER modifier_prices_removal_free_update BEFORE UPDATE OF price_cents ON modifier_prices
WHEN NEW.price_cents <> 0
 AND (SELECT g.kind FROM modifiers m JOIN modifier_groups g ON g.id = m.group_id WHERE m.id = NEW.modifier_id) = 'removal'
BEGIN
    SELECT RAISE(ABORT, 'group_kind: a removal costs nothing on any variant');
END;

