-- The triggers on party_payments (and the rules a party's share in payments is held to). A
-- repeatable definition (see R__views.sql): edit here. The order of the triggers is the order
-- they are made in, and SQLite runs a table's triggers of one kind last made first.

CREATE TRIGGER party_payments_party BEFORE INSERT ON party_payments
WHEN NOT EXISTS (SELECT 1 FROM orders WHERE id = NEW.party_id AND party_id = NEW.party_id)
BEGIN
    SELECT RAISE(ABORT, 'party_payment_party: a party payment names a party by its first order (orders.party_id = id)');
END;

CREATE TRIGGER party_payments_reference_unique BEFORE INSERT ON party_payments
WHEN NEW.reference IS NOT NULL AND EXISTS (SELECT 1 FROM payments WHERE method = NEW.method AND reference = NEW.reference)
BEGIN
    SELECT RAISE(ABORT, 'payment_reference_used: the reference is already recorded for a payment of this method');
END;

CREATE TRIGGER party_payments_never_replaced BEFORE INSERT ON party_payments
WHEN (NEW.id > 0 AND EXISTS (SELECT 1 FROM party_payments WHERE id = NEW.id))
   OR (NEW.reference IS NOT NULL AND EXISTS (SELECT 1 FROM party_payments WHERE method = NEW.method AND reference = NEW.reference))
BEGIN
    SELECT RAISE(ABORT, 'row_never_replaced: a row of party_payments is never replaced (REPLACE would delete it without its triggers); insert a new row');
END;

CREATE TRIGGER party_payments_append_only_delete BEFORE DELETE ON party_payments
BEGIN
    SELECT RAISE(ABORT, 'payments_append_only: a payment is never deleted; record a refund instead');
END;

-- Only an erasure's redaction of the reference (the party's customer erased) changes a row.
CREATE TRIGGER party_payments_append_only_update BEFORE UPDATE ON party_payments
WHEN NOT (NEW.reference IS NULL AND OLD.reference IS NOT NULL
          AND NEW.id IS OLD.id AND NEW.party_id IS OLD.party_id AND NEW.amount_cents IS OLD.amount_cents
          AND NEW.method IS OLD.method AND NEW.tendered_cents IS OLD.tendered_cents AND NEW.at IS OLD.at
          AND NEW.actor IS OLD.actor
          AND EXISTS (SELECT 1 FROM orders o JOIN user_erasures e ON e.user_id = o.user_id WHERE o.id = OLD.party_id))
BEGIN
    SELECT RAISE(ABORT, 'payments_append_only: a payment is never changed; record a refund instead');
END;

-- A share: of an order of that party, by the party payment's method and at its time, with no
-- reference or tendered amount of its own, and the shares never more than the payment.
CREATE TRIGGER payments_party_share BEFORE INSERT ON payments
WHEN NEW.party_payment_id IS NOT NULL AND NOT EXISTS (
    SELECT 1 FROM party_payments p JOIN orders o ON o.id = NEW.order_id
    WHERE p.id = NEW.party_payment_id AND o.party_id = p.party_id AND p.method = NEW.method AND p.at = NEW.at
      AND NEW.reference IS NULL AND NEW.tendered_cents IS NULL
      AND p.amount_cents >= NEW.amount_cents + coalesce((SELECT sum(s.amount_cents) FROM payments s WHERE s.party_payment_id = p.id), 0))
BEGIN
    SELECT RAISE(ABORT, 'party_payment_share: a party payment''s share is of an order of its party, by its method and at its time, with no reference or tendered amount of its own, and the shares never add up to more than it');
END;

CREATE TRIGGER payments_reference_not_a_partys BEFORE INSERT ON payments
WHEN NEW.reference IS NOT NULL AND EXISTS (SELECT 1 FROM party_payments WHERE method = NEW.method AND reference = NEW.reference)
BEGIN
    SELECT RAISE(ABORT, 'payment_reference_used: the reference is already recorded for a party payment of this method');
END;
