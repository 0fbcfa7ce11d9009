-- 0045: a party's one bill — one payment for every order of a party, with one reference and one
-- tendered amount, spread over the members' orders.
--
-- `party_payments`: the payment as the counter took it (the party, its first order's id; the
-- amount, method, the terminal's or provider's reference, the cash handed over, when and who).
-- Each member's share is a row of `payments` naming it (`payments.party_payment_id`), with no
-- reference and no tendered amount of its own: an order's balance, its state and the cash-up stay
-- what its payments say. The shares are the members' balances in booking order (the first order
-- first), each paid whole before the next, until the amount is spent. A reference is unique per
-- method across `payments` and `party_payments` alike.

CREATE TABLE party_payments (
    id             INTEGER PRIMARY KEY,
    -- The party: its first order's id (orders.party_id of every member).
    party_id       TEXT NOT NULL REFERENCES orders (id),
    -- 1 cent to 100,000.00 EUR: the sum of its shares.
    amount_cents   INTEGER NOT NULL CHECK (amount_cents BETWEEN 1 AND 10000000),
    method         TEXT NOT NULL CHECK (method IN ('cash', 'card', 'online', 'voucher')),
    reference      TEXT CHECK (reference IS NULL OR (length(reference) BETWEEN 1 AND 200
                               AND reference NOT GLOB ('*[' || char(1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,
                                                                   26,27,28,29,30,31,127) || ']*'))),
    -- Cash handed over for the whole party, when more than the amount: the change is tendered − amount.
    tendered_cents INTEGER CHECK (tendered_cents IS NULL OR (method = 'cash' AND tendered_cents BETWEEN amount_cents AND 10000000)),
    at             TEXT NOT NULL CHECK (at GLOB '[0-9][0-9][0-9][0-9]-[0-1][0-9]-[0-3][0-9]T[0-2][0-9]:[0-5][0-9]:[0-5][0-9]*Z'),
    actor          TEXT CHECK (actor IS NULL OR length(actor) BETWEEN 1 AND 64)
) STRICT;

CREATE UNIQUE INDEX party_payments_by_reference ON party_payments (method, reference) WHERE reference IS NOT NULL;
CREATE INDEX party_payments_by_party ON party_payments (party_id, id);

ALTER TABLE payments ADD COLUMN party_payment_id INTEGER REFERENCES party_payments (id);
CREATE INDEX payments_by_party_payment ON payments (party_payment_id) WHERE party_payment_id IS NOT NULL;
