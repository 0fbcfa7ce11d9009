-- 0024: the shop's country for phone numbers. With `phone_region` set (ISO 3166 alpha-2, `IT`),
-- a national number typed at the counter (`081 555 1234`, `333 123 4567`) is stored in E.164
-- (`+390815551234`); numbers are always stored with their country code, as before.

ALTER TABLE shop ADD COLUMN phone_region TEXT
    CHECK (phone_region IS NULL OR (length(phone_region) = 2 AND phone_region NOT GLOB '*[^A-Z]*'));

DROP TRIGGER audit_shop_update;

CREATE TRIGGER audit_shop_update AFTER UPDATE ON shop
WHEN OLD.name IS NOT NEW.name OR OLD.address IS NOT NEW.address OR OLD.vat_number IS NOT NEW.vat_number
  OR OLD.vat_rate_bp IS NOT NEW.vat_rate_bp OR OLD.phone_region IS NOT NEW.phone_region
BEGIN
    INSERT INTO audit_log (at, actor, source, object, action, old, new)
    SELECT coalesce(c.at, strftime('%Y-%m-%dT%H:%M:%fZ', 'now')), c.actor, coalesce(c.source, 'sql'), 'shop', 'set',
           json_object('name', OLD.name, 'address', OLD.address, 'vat_number', OLD.vat_number, 'vat_rate_bp', OLD.vat_rate_bp,
                       'phone_region', OLD.phone_region),
           json_object('name', NEW.name, 'address', NEW.address, 'vat_number', NEW.vat_number, 'vat_rate_bp', NEW.vat_rate_bp,
                       'phone_region', NEW.phone_region)
    FROM audit_context c WHERE c.id = 1;
END;
