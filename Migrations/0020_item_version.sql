-- An item's version counts every change its add/edit sheet can make, so a sheet saved from an
-- older draft is refused as a conflict whatever the other sheet changed: name, price and archived
-- state (pizzas_history_changed, since migration 2) and now also its category, its allergens, its
-- variants and its modifier groups, from the library or a hand-written statement alike.
-- Stock counts (sold out, bookings taking from a stock) are not the sheet's and bump nothing.
-- A change of the default variant's price mirrors into pizzas.price_cents, whose trigger bumps
-- the version; the triggers below leave that change to it, so a price edit still bumps once.

CREATE TRIGGER pizzas_version_category_allergens AFTER UPDATE OF category_id, allergens ON pizzas
WHEN (OLD.category_id IS NOT NEW.category_id OR OLD.allergens IS NOT NEW.allergens)
  AND NEW.version = OLD.version
BEGIN
    UPDATE pizzas
    SET version = OLD.version + 1,
        updated_at = coalesce((SELECT at FROM audit_context WHERE id = 1), strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
    WHERE id = NEW.id;
END;

-- An item's first variant comes with the item (pizzas_default_variant): that is its creation.
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

CREATE TRIGGER pizza_variants_version_delete AFTER DELETE ON pizza_variants
BEGIN
    UPDATE pizzas
    SET version = version + 1,
        updated_at = coalesce((SELECT at FROM audit_context WHERE id = 1), strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
    WHERE id = OLD.pizza_id;
END;

CREATE TRIGGER pizza_modifier_groups_version_insert AFTER INSERT ON pizza_modifier_groups
BEGIN
    UPDATE pizzas
    SET version = version + 1,
        updated_at = coalesce((SELECT at FROM audit_context WHERE id = 1), strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
    WHERE id = NEW.pizza_id;
END;

CREATE TRIGGER pizza_modifier_groups_version_delete AFTER DELETE ON pizza_modifier_groups
BEGIN
    UPDATE pizzas
    SET version = version + 1,
        updated_at = coalesce((SELECT at FROM audit_context WHERE id = 1), strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
    WHERE id = OLD.pizza_id;
END;
