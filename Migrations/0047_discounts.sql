-- 0047: discounts and comps — the counter's "sconto" and "omaggio", a manager's, with who and why.
--
-- `order_discounts`: money taken off an order, one row per VAT rate it comes off (so the VAT of
-- each rate is recomputed from what is left at that rate): a `discount` (a percentage of the
-- order, `percent_bp`, or an amount, spread over the rates in proportion to their gross, the
-- remainder by the largest-remainder method) or a `comp` (one line given free, `line_no`: its whole
-- amount at its rate). `orders.total_cents` is the lines less the discounts, kept by triggers; an
-- order's lines stop shrinking once it has one (a smaller order is cancelled and booked again).
-- Append-only; an erasure redacts the reason.

CREATE TABLE order_discounts (
    id           INTEGER PRIMARY KEY,
    order_id     TEXT NOT NULL REFERENCES orders (id),
    kind         TEXT NOT NULL CHECK (kind IN ('discount', 'comp')),
    -- A comp's line (order_lines.line_no); NULL for a discount.
    line_no      INTEGER CHECK (line_no IS NULL OR line_no >= 1),
    -- A discount by percentage: 1 to 10000 basis points (100 % = 10000); NULL for an amount.
    percent_bp   INTEGER CHECK (percent_bp IS NULL OR percent_bp BETWEEN 1 AND 10000),
    vat_rate_bp  INTEGER NOT NULL CHECK (vat_rate_bp BETWEEN 0 AND 10000),
    amount_cents INTEGER NOT NULL CHECK (amount_cents BETWEEN 1 AND 10000000),
    -- Why: 1 to 200 characters, no control characters ('[erased]' once the customer is erased).
    reason       TEXT NOT NULL CHECK (length(reason) BETWEEN 1 AND 200 AND trim(reason) = reason
                                      AND reason NOT GLOB ('*[' || char(1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,
                                                                         26,27,28,29,30,31,127) || ']*')),
    actor        TEXT CHECK (actor IS NULL OR length(actor) BETWEEN 1 AND 64),
    at           TEXT NOT NULL CHECK (strftime('%Y-%m-%dT%H:%M:%fZ', at) IS at),
    CHECK ((kind = 'comp') = (line_no IS NOT NULL)),
    CHECK (kind = 'discount' OR percent_bp IS NULL)
) STRICT;

CREATE INDEX order_discounts_by_order ON order_discounts (order_id, id);
