-- 0046: messages that tell the truth, in the shop's language.
--
-- `order_status_events.pickup_local` and `total_cents`: the order's pickup (local, with its
-- offset) and total as they were at the event, written with it; a notifier delivers these, not
-- the order as it is when the notifier runs. A `placed` event's total is its lines' (written by
-- the booking with them). Events written before this migration have neither (NULL): they are
-- delivered with the order as it is now.
-- `shop.language`: `it` or `en`, the language of the notifier's ready-made messages.

ALTER TABLE order_status_events ADD COLUMN pickup_local TEXT;
ALTER TABLE order_status_events ADD COLUMN total_cents INTEGER CHECK (total_cents IS NULL OR total_cents >= 0);

ALTER TABLE shop ADD COLUMN language TEXT NOT NULL DEFAULT 'it' CHECK (language IN ('it', 'en'));
