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

