-- The triggers on pizza_variants: the rules every writer is held to, the derived data they keep, the
-- history they write. A repeatable definition (see R__views.sql): edit here. The order of the
-- triggers is the order they are made in, and SQLite runs a table's triggers of one kind last
-- made first: keep a new one where it must run.

CREATE TRIGGER pizza_variants_one_default_insert AFTER INSERT ON pizza_variants
WHEN NEW.is_default = 1
BEGIN
    UPDATE pizza_variants SET is_default = 0, price_cents = (SELECT p.price_cents FROM pizzas p WHERE p.id = NEW.pizza_id)
    WHERE pizza_id = NEW.pizza_id AND id <> NEW.id AND is_default = 1;
    UPDATE pizzas SET price_cents = NEW.price_cents
    WHERE NEW.price_cents IS NOT NULL AND id = NEW.pizza_id AND price_cents IS NOT NEW.price_cents;
    UPDATE pizza_variants SET price_cents = NULL WHERE NEW.price_cents IS NOT NULL AND id = NEW.id;
END;

CREATE TRIGGER pizza_variants_default_price AFTER UPDATE OF price_cents, is_default ON pizza_variants
WHEN NEW.is_default = 1 AND (OLD.is_default = 0 OR NEW.price_cents IS NOT NULL)
BEGIN
    UPDATE pizza_variants SET is_default = 0, price_cents = (SELECT p.price_cents FROM pizzas p WHERE p.id = NEW.pizza_id)
    WHERE OLD.is_default = 0 AND pizza_id = NEW.pizza_id AND id <> NEW.id AND is_default = 1;
    UPDATE pizzas SET price_cents = NEW.price_cents
    WHERE NEW.price_cents IS NOT NULL AND id = NEW.pizza_id AND price_cents IS NOT NEW.price_cents;
    UPDATE pizza_variants SET price_cents = NULL WHERE NEW.price_cents IS NOT NULL AND id = NEW.id;
END;

CREATE TRIGGER audit_pizza_variants_delete AFTER DELETE ON pizza_variants
BEGIN
    INSERT INTO audit_log (at, actor, source, object, action, old)
    SELECT coalesce(c.at, strftime('%Y-%m-%dT%H:%M:%fZ', 'now')), c.actor, coalesce(c.source, 'sql'), 'pizza:' || OLD.pizza_id, 'variant_remove',
           json_object('variant_id', OLD.id, 'name', OLD.name, 'price_cents', OLD.price_cents)
    FROM audit_context c WHERE c.id = 1;
END;

CREATE TRIGGER audit_pizza_variants_insert AFTER INSERT ON pizza_variants
WHEN EXISTS (SELECT 1 FROM pizza_variants WHERE pizza_id = NEW.pizza_id AND id <> NEW.id)
BEGIN
    INSERT INTO audit_log (at, actor, source, object, action, new)
    SELECT coalesce(c.at, strftime('%Y-%m-%dT%H:%M:%fZ', 'now')), c.actor, coalesce(c.source, 'sql'), 'pizza:' || NEW.pizza_id, 'variant_add',
           json_object('variant_id', NEW.id, 'name', NEW.name, 'price_cents', NEW.price_cents, 'is_default', NEW.is_default)
    FROM audit_context c WHERE c.id = 1;
END;

CREATE TRIGGER audit_pizza_variants_update AFTER UPDATE ON pizza_variants
WHEN OLD.name IS NOT NEW.name OR (OLD.price_cents IS NOT NEW.price_cents AND NEW.is_default = 0)
  OR OLD.position IS NOT NEW.position OR OLD.is_default IS NOT NEW.is_default
BEGIN
    INSERT INTO audit_log (at, actor, source, object, action, old, new)
    SELECT coalesce(c.at, strftime('%Y-%m-%dT%H:%M:%fZ', 'now')), c.actor, coalesce(c.source, 'sql'), 'pizza:' || NEW.pizza_id, 'variant_edit',
           json_object('variant_id', OLD.id, 'name', OLD.name, 'price_cents', OLD.price_cents, 'position', OLD.position, 'is_default', OLD.is_default),
           json_object('variant_id', NEW.id, 'name', NEW.name, 'price_cents', NEW.price_cents, 'position', NEW.position, 'is_default', NEW.is_default)
    FROM audit_context c WHERE c.id = 1;
END;

CREATE TRIGGER pizza_variants_default_kept_delete BEFORE DELETE ON pizza_variants
WHEN OLD.is_default = 1
BEGIN
    SELECT RAISE(ABORT, 'variant_default: the default variant cannot be removed; make another variant the default first');
END;

CREATE TRIGGER pizza_variants_default_kept_update BEFORE UPDATE OF is_default ON pizza_variants
WHEN OLD.is_default = 1 AND NEW.is_default = 0
  AND NOT EXISTS (SELECT 1 FROM pizza_variants WHERE pizza_id = NEW.pizza_id AND is_default = 1 AND id <> NEW.id)
BEGIN
    SELECT RAISE(ABORT, 'variant_default: an item keeps one default variant; make another the default (UPDATE pizza_variants SET is_default = 1 WHERE id = ...)');
END;

CREATE TRIGGER pizza_variants_item_fixed BEFORE UPDATE OF pizza_id ON pizza_variants
WHEN NEW.pizza_id IS NOT OLD.pizza_id
BEGIN
    SELECT RAISE(ABORT, 'a variant belongs to its item for good; add one to the other item instead');
END;

CREATE TRIGGER pizza_variants_name_key_fill AFTER INSERT ON pizza_variants
WHEN NEW.pizza_name_key IS NULL
BEGIN
    UPDATE pizza_variants SET pizza_name_key = (SELECT p.name_key FROM pizzas p WHERE p.id = NEW.pizza_id)
    WHERE id = NEW.id;
END;

CREATE TRIGGER pizza_variants_name_key_insert BEFORE INSERT ON pizza_variants
WHEN NEW.pizza_name_key IS NOT NULL
  AND NEW.pizza_name_key IS NOT (SELECT p.name_key FROM pizzas p WHERE p.id = NEW.pizza_id)
BEGIN
    SELECT RAISE(ABORT, 'pizza_name_key: a variant carries its item''s name_key and nothing else; leave it out and it is filled in');
END;

CREATE TRIGGER pizza_variants_name_key_update BEFORE UPDATE OF pizza_name_key ON pizza_variants
WHEN NEW.pizza_name_key IS NOT (SELECT p.name_key FROM pizzas p WHERE p.id = NEW.pizza_id)
BEGIN
    SELECT RAISE(ABORT, 'pizza_name_key: a variant carries its item''s name_key and nothing else; rename the item instead');
END;

CREATE TRIGGER pizza_variants_version_delete AFTER DELETE ON pizza_variants
BEGIN
    UPDATE pizzas
    SET version = version + 1,
        updated_at = coalesce((SELECT at FROM audit_context WHERE id = 1), strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
    WHERE id = OLD.pizza_id;
END;

CREATE TRIGGER pizza_variants_version_insert AFTER INSERT ON pizza_variants
WHEN EXISTS (SELECT 1 FROM pizza_variants WHERE pizza_id = NEW.pizza_id AND id <> NEW.id)
BEGIN
    UPDATE pizzas
    SET version = version + 1,
        updated_at = coalesce((SELECT at FROM audit_context WHERE id = 1), strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
    WHERE id = NEW.pizza_id;
END;

CREATE TRIGGER pizza_variants_version_update AFTER UPDATE ON pizza_variants
WHEN OLD.name IS NOT NEW.name
  OR OLD.position IS NOT NEW.position
  OR OLD.is_default IS NOT NEW.is_default
  OR (OLD.price_cents IS NOT NEW.price_cents AND NEW.is_default = 0)
BEGIN
    UPDATE pizzas
    SET version = version + 1,
        updated_at = coalesce((SELECT at FROM audit_context WHERE id = 1), strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
    WHERE id = NEW.pizza_id;
END;

CREATE TRIGGER pizza_variants_never_replaced BEFORE INSERT ON pizza_variants
WHEN NEW.id > 0 AND EXISTS (SELECT 1 FROM pizza_variants WHERE id = NEW.id)
BEGIN
    SELECT RAISE(ABORT, 'row_never_replaced: a row of pizza_variants is never replaced (REPLACE would delete it without its triggers); UPDATE it where the table allows, or insert a new row');
END;

