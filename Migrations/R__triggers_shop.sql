-- The triggers on shop: the rules every writer is held to, the derived data they keep, the
-- history they write. A repeatable definition (see R__views.sql): edit here. The order of the
-- triggers is the order they are made in, and SQLite runs a table's triggers of one kind last
-- made first: keep a new one where it must run.

CREATE TRIGGER shop_kept BEFORE DELETE ON shop
BEGIN
    SELECT RAISE(ABORT, 'shop_kept: the shop row is the shop''s details; UPDATE it instead');
END;

CREATE TRIGGER audit_shop_update AFTER UPDATE ON shop
WHEN OLD.name IS NOT NEW.name OR OLD.address IS NOT NEW.address OR OLD.vat_number IS NOT NEW.vat_number
  OR OLD.vat_rate_bp IS NOT NEW.vat_rate_bp OR OLD.phone_region IS NOT NEW.phone_region OR OLD.language IS NOT NEW.language
BEGIN
    INSERT INTO audit_log (at, actor, source, object, action, old, new)
    SELECT coalesce(c.at, strftime('%Y-%m-%dT%H:%M:%fZ', 'now')), c.actor, coalesce(c.source, 'sql'), 'shop', 'set',
           json_object('name', OLD.name, 'address', OLD.address, 'vat_number', OLD.vat_number, 'vat_rate_bp', OLD.vat_rate_bp,
                       'phone_region', OLD.phone_region, 'language', OLD.language),
           json_object('name', NEW.name, 'address', NEW.address, 'vat_number', NEW.vat_number, 'vat_rate_bp', NEW.vat_rate_bp,
                       'phone_region', NEW.phone_region, 'language', NEW.language)
    FROM audit_context c WHERE c.id = 1;
END;

CREATE TRIGGER shop_never_replaced BEFORE INSERT ON shop
WHEN NEW.id > 0 AND EXISTS (SELECT 1 FROM shop WHERE id = NEW.id)
BEGIN
    SELECT RAISE(ABORT, 'row_never_replaced: a row of shop is never replaced (REPLACE would delete it without its triggers); UPDATE it where the table allows, or insert a new row');
END;

