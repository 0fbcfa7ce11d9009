-- 0026: staff over a slot's capacity, and parties spread over consecutive slots.
--
-- Over capacity. A staff override (`--override REASON`, with who gives it) may book a slot over
-- its capacity by at most its margin: a quarter of the capacity, rounded up (capacity 8 → 2
-- pizzas over, 10 → 3, 20 → 5). Each booking, move, addition, undo or delay that needed room
-- beyond the capacity is a row of capacity_overrides: the order, the slot, how many pizzas over
-- the capacity it took, why, who and when. The capacity trigger lets a slot's load grow past its
-- capacity only by what its live overrides granted (their order still in that slot and not
-- cancelled) and never past the margin — whoever writes, the library or a hand-typed INSERT.
-- A customer's booking never uses an override's room: it is checked against the capacity.

CREATE TABLE capacity_overrides (
    id        INTEGER PRIMARY KEY,
    order_id  TEXT NOT NULL REFERENCES orders (id),
    -- The slot the order was let into (UTC start, as orders.pickup_at).
    pickup_at TEXT NOT NULL
              CHECK (pickup_at GLOB '[0-9][0-9][0-9][0-9]-[0-1][0-9]-[0-3][0-9]T[0-2][0-9]:[0-5][0-9]:00Z'),
    -- Pizzas over the slot's capacity this override took.
    pizzas    INTEGER NOT NULL CHECK (pizzas BETWEEN 1 AND 2500),
    -- Why (the override's reason, `[erased]` once its customer is erased) and who gave it.
    reason    TEXT NOT NULL CHECK (length(reason) BETWEEN 1 AND 200
                                   AND reason NOT GLOB ('*[' || char(1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,
                                                                    26,27,28,29,30,31,127) || ']*')),
    actor     TEXT NOT NULL CHECK (length(actor) BETWEEN 1 AND 64),
    at        TEXT NOT NULL CHECK (at GLOB '[0-9][0-9][0-9][0-9]-[0-1][0-9]-[0-3][0-9]T[0-2][0-9]:[0-5][0-9]:[0-5][0-9]*Z')
) STRICT;

CREATE INDEX capacity_overrides_by_slot ON capacity_overrides (pickup_at);
CREATE INDEX capacity_overrides_by_order ON capacity_overrides (order_id);

-- A record of who let what in: never rewritten, never deleted; an erasure only redacts the reason.
CREATE TRIGGER capacity_overrides_append_only_update BEFORE UPDATE ON capacity_overrides
WHEN NOT (NEW.reason = '[erased]' AND NEW.id = OLD.id AND NEW.order_id = OLD.order_id AND NEW.pickup_at = OLD.pickup_at
          AND NEW.pizzas = OLD.pizzas AND NEW.actor = OLD.actor AND NEW.at = OLD.at
          AND EXISTS (SELECT 1 FROM orders o JOIN user_erasures e ON e.user_id = o.user_id WHERE o.id = OLD.order_id))
BEGIN
    SELECT RAISE(ABORT, 'capacity_overrides_append_only: an override is a record; only an erasure redacts its reason');
END;

CREATE TRIGGER capacity_overrides_append_only_delete BEFORE DELETE ON capacity_overrides
BEGIN
    SELECT RAISE(ABORT, 'capacity_overrides_append_only: an override is a record and is never deleted');
END;

-- What the live overrides of each slot granted: those whose order is still in that slot and not
-- cancelled (a moved-away or cancelled order takes its allowance with it). The one statement of
-- it: the capacity trigger, the booking and `check` all read this view.
CREATE VIEW slot_override_allowance AS
SELECT c.pickup_at, sum(c.pizzas) AS pizzas
FROM capacity_overrides c JOIN orders o ON o.id = c.order_id
WHERE o.pickup_at = c.pickup_at AND o.status <> 'cancelled'
GROUP BY c.pickup_at;

-- The load may pass the capacity only by the live overrides' pizzas, at most the margin. The
-- subquery runs only when the load would pass the capacity.
DROP TRIGGER slot_loads_capacity;

CREATE TRIGGER slot_loads_capacity BEFORE UPDATE OF booked ON slot_loads
WHEN NEW.booked > OLD.booked AND NEW.booked > NEW.capacity
 AND NEW.booked > NEW.capacity + min((NEW.capacity + 3) / 4,
                                     coalesce((SELECT a.pizzas FROM slot_override_allowance a WHERE a.pickup_at = NEW.pickup_at), 0))
BEGIN
    SELECT RAISE(ABORT, 'slot_capacity_exceeded: the pickup slot has no room for these pizzas');
END;

-- Parties. `order place … --split` books a party too large for one slot as linked orders of one
-- customer on consecutive slots of one service day, booked in one transaction: each is an order
-- like any other (capacity, moves, the kitchen board, payments), and `party_id` — the id of the
-- party's first order, which names itself — links them for one receipt and one total.
ALTER TABLE orders ADD COLUMN party_id TEXT REFERENCES orders (id);

CREATE INDEX orders_by_party ON orders (party_id) WHERE party_id IS NOT NULL;

-- A member joins a party whose first order is the same customer's, on the same service day.
CREATE TRIGGER orders_party_insert BEFORE INSERT ON orders
WHEN NEW.party_id IS NOT NULL AND NEW.party_id IS NOT NEW.id
 AND NOT EXISTS (SELECT 1 FROM orders p WHERE p.id = NEW.party_id AND p.party_id = p.id
                 AND p.user_id = NEW.user_id AND p.service_day = NEW.service_day)
BEGIN
    SELECT RAISE(ABORT, 'order_party: a party''s orders are one customer''s on one service day, linked to its first order');
END;

CREATE TRIGGER orders_party_fixed BEFORE UPDATE OF party_id ON orders
WHEN NEW.party_id IS NOT OLD.party_id
BEGIN
    SELECT RAISE(ABORT, 'order_party: an order''s party is fixed when it is booked');
END;
