-- The schema of a new Pizzeria file, generated from Migrations/ (do not edit: see
-- Tests/PizzeriaServicesTests/SchemaSnapshotTests.swift). Tables, indexes, views, triggers by name.

CREATE TABLE allergens (
    bit     INTEGER PRIMARY KEY CHECK (bit > 0 AND (bit & (bit - 1)) = 0),
    code    TEXT NOT NULL UNIQUE CHECK (code GLOB '[a-z]*' AND length(code) <= 20),
    name_en TEXT NOT NULL,
    name_it TEXT NOT NULL
) STRICT;

CREATE TABLE audit_context (
    id     INTEGER PRIMARY KEY CHECK (id = 1),
    actor  TEXT CHECK (actor IS NULL OR length(actor) BETWEEN 1 AND 64),
    source TEXT CHECK (source IS NULL OR length(source) BETWEEN 1 AND 100),
    at     TEXT CHECK (at IS NULL OR strftime('%Y-%m-%dT%H:%M:%fZ', at) IS at)
) STRICT;

CREATE TABLE audit_log (
    id     INTEGER PRIMARY KEY,
    at     TEXT NOT NULL CHECK (strftime('%Y-%m-%dT%H:%M:%fZ', at) IS at),
    -- Who (the staff name given with --by or $PIZZERIA_STAFF); NULL when nobody said (sqlite3).
    actor  TEXT CHECK (actor IS NULL OR length(actor) BETWEEN 1 AND 64),
    -- What did it: `pizzeria pizza edit`, `library`, `sql` (a statement typed by hand).
    source TEXT NOT NULL CHECK (length(source) BETWEEN 1 AND 100),
    -- The object: `pizza:ID`, `user:ID`, `settings`, `hours`, `capacity`, `staff:NAME`.
    object TEXT NOT NULL CHECK (length(object) BETWEEN 1 AND 100),
    -- add, edit, price, archive, restore, erase, set, pause, resume, busy, remove, close, special, cut.
    action TEXT NOT NULL CHECK (length(action) BETWEEN 1 AND 20),
    -- The object's fields before and after, as JSON objects (NULL: none, or erased).
    old    TEXT CHECK (old IS NULL OR json_valid(old)),
    new    TEXT CHECK (new IS NULL OR json_valid(new))
, history_id INTEGER REFERENCES pizza_history (id)) STRICT;

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
, station_id INTEGER REFERENCES stations (id)) STRICT;

CREATE TABLE capacity_rules (
    id        INTEGER PRIMARY KEY,
    -- Exactly one of: a weekday (ISO: 1 = Monday … 7 = Sunday) or a date (YYYY-MM-DD).
    weekday   INTEGER CHECK (weekday BETWEEN 1 AND 7),
    day       TEXT CHECK (day IS NULL OR (day GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]' AND date(day) IS day)),
    starts_at TEXT NOT NULL CHECK (starts_at GLOB '[0-2][0-9]:[0-5][0-9]' AND starts_at <= '23:59'),
    ends_at   TEXT NOT NULL CHECK (ends_at GLOB '[0-2][0-9]:[0-5][0-9]' AND ends_at <= '24:00'),
    capacity  INTEGER NOT NULL CHECK (capacity BETWEEN 1 AND 10000),
    -- The range as minutes of the service day: 18:30-01:00 is 1110-1500.
    start_minute INTEGER GENERATED ALWAYS AS (CAST(substr(starts_at, 1, 2) AS INTEGER) * 60 + CAST(substr(starts_at, 4, 2) AS INTEGER)) VIRTUAL,
    end_minute   INTEGER GENERATED ALWAYS AS (CAST(substr(ends_at, 1, 2) AS INTEGER) * 60 + CAST(substr(ends_at, 4, 2) AS INTEGER)
                                              + CASE WHEN ends_at <= starts_at THEN 1440 ELSE 0 END) VIRTUAL,
    -- How people name it: `fri 18:30-21:00`, `2026-12-31 19:00-23:00`.
    rule      TEXT GENERATED ALWAYS AS (coalesce(day, substr('montuewedthufrisatsun', weekday * 3 - 2, 3)) || ' ' || starts_at || '-' || ends_at) VIRTUAL,
    CHECK ((weekday IS NULL) <> (day IS NULL)),
    CHECK (ends_at <> starts_at)
) STRICT;

CREATE TABLE categories (
    id         INTEGER PRIMARY KEY,
    -- 1 to 40 characters, no control characters; unique ignoring case (the library also
    -- compares full Unicode case folding before it writes).
    name       TEXT NOT NULL UNIQUE COLLATE NOCASE
               CHECK (length(name) BETWEEN 1 AND 40 AND trim(name) = name
                      AND name NOT GLOB ('*[' || char(1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,
                                                      26,27,28,29,30,31,127) || ']*')),
    -- The menu's order of sections: smaller first, ties by name (the library shifts the others
    -- to make room when a category is put at a position).
    position   INTEGER NOT NULL DEFAULT 1 CHECK (position BETWEEN 1 AND 1000),
    -- 1: its items count toward a slot's capacity (pizzas, calzoni); 0: they do not (drinks, desserts).
    uses_oven  INTEGER NOT NULL DEFAULT 1 CHECK (uses_oven IN (0, 1))
, vat_rate_bp INTEGER CHECK (vat_rate_bp IS NULL OR vat_rate_bp BETWEEN 0 AND 10000), station_id INTEGER REFERENCES stations (id)) STRICT;

CREATE TABLE config_generation (
    id         INTEGER PRIMARY KEY CHECK (id = 1),
    generation INTEGER NOT NULL DEFAULT 0 CHECK (generation >= 0)
) STRICT;

CREATE TABLE drawer_counts (
    id             INTEGER PRIMARY KEY,
    service_day    TEXT NOT NULL
                   CHECK (service_day GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]' AND date(service_day) IS service_day),
    opening_cents  INTEGER NOT NULL CHECK (opening_cents BETWEEN 0 AND 10000000),
    counted_cents  INTEGER NOT NULL CHECK (counted_cents BETWEEN 0 AND 100000000),
    expected_cents INTEGER NOT NULL CHECK (expected_cents BETWEEN -100000000 AND 100000000),
    -- Counted − expected: more than expected (over) is positive, less (short) negative.
    over_short_cents INTEGER GENERATED ALWAYS AS (counted_cents - expected_cents) VIRTUAL,
    actor          TEXT CHECK (actor IS NULL OR length(actor) BETWEEN 1 AND 64),
    at             TEXT NOT NULL CHECK (strftime('%Y-%m-%dT%H:%M:%fZ', at) IS at)
) STRICT;

CREATE TABLE modifier_groups (
    id           INTEGER PRIMARY KEY,
    -- 1 to 40 characters, trimmed, no control characters; unique ignoring case.
    name         TEXT NOT NULL UNIQUE COLLATE NOCASE
                 CHECK (length(name) BETWEEN 1 AND 40 AND trim(name) = name
                        AND name NOT GLOB ('*[' || char(1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,
                                                        26,27,28,29,30,31,127) || ']*')),
    -- How many of its modifiers one line takes: 0..3 extras, exactly 1 dough (1..1).
    min_selected INTEGER NOT NULL DEFAULT 0 CHECK (min_selected BETWEEN 0 AND 30),
    max_selected INTEGER NOT NULL DEFAULT 1 CHECK (max_selected BETWEEN 1 AND 30),
    -- The order in which an item's groups are offered.
    position     INTEGER NOT NULL DEFAULT 1 CHECK (position BETWEEN 1 AND 100), kind TEXT NOT NULL DEFAULT 'extra'
    CHECK (kind = 'extra' OR kind = 'removal' OR kind = 'choice'), default_modifier_id INTEGER REFERENCES modifiers (id),
    CHECK (min_selected <= max_selected)
) STRICT;

CREATE TABLE modifier_prices (
    modifier_id  INTEGER NOT NULL REFERENCES modifiers (id),
    variant_name TEXT NOT NULL COLLATE NOCASE CHECK (length(variant_name) BETWEEN 1 AND 30),
    price_cents  INTEGER NOT NULL CHECK (price_cents BETWEEN 0 AND 10000),
    PRIMARY KEY (modifier_id, variant_name)
) STRICT, WITHOUT ROWID;

CREATE TABLE modifiers (
    id          INTEGER PRIMARY KEY,
    group_id    INTEGER NOT NULL REFERENCES modifier_groups (id),
    -- 1 to 40 characters, trimmed, no control characters; unique in its group ignoring case.
    name        TEXT NOT NULL COLLATE NOCASE
                CHECK (length(name) BETWEEN 1 AND 40 AND trim(name) = name
                       AND name NOT GLOB ('*[' || char(1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,
                                                       26,27,28,29,30,31,127) || ']*')),
    -- What it adds to the line's unit price: 0 (senza basilico) to 100.00 EUR.
    price_cents INTEGER NOT NULL DEFAULT 0 CHECK (price_cents BETWEEN 0 AND 10000),
    -- The allergens it brings (bits of table allergens).
    allergens   INTEGER NOT NULL DEFAULT 0 CHECK (allergens BETWEEN 0 AND 16383),
    position    INTEGER NOT NULL DEFAULT 1 CHECK (position BETWEEN 1 AND 100),
    -- NULL while offered; when it was taken off otherwise (modifiers are never deleted once booked).
    archived_at TEXT CHECK (archived_at IS NULL OR archived_at GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]T[0-9][0-9]:[0-9][0-9]:[0-9][0-9]*Z'), stock_left INTEGER CHECK (stock_left IS NULL OR stock_left BETWEEN 0 AND 100000), stock_until TEXT
    CHECK (stock_until IS NULL OR stock_until GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]T[0-9][0-9]:[0-9][0-9]:[0-9][0-9]*Z'), stock_changes INTEGER NOT NULL DEFAULT 0 CHECK (stock_changes >= 0),
    UNIQUE (group_id, name)
) STRICT;

CREATE TABLE "navigation_events" (
    id          INTEGER PRIMARY KEY,
    user_id     TEXT NOT NULL REFERENCES users (id),
    at          TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
    action      TEXT NOT NULL
                CHECK (action = 'push' OR action = 'pop' OR action = 'pop_to' OR action = 'pop_to_root'
                       OR action = 'replace' OR action = 'open_url' OR action = 'import' OR action = 'random'
                       OR action = 'sheet_open' OR action = 'sheet_set' OR action = 'sheet_save'
                       OR action = 'sheet_dismiss'),
    -- The routes involved, as the JSON array the app's Route type encodes to, e.g.
    -- [{"pizza":{"id":"…"}}]: pushed, popped, or the new stack for replace/open_url/import.
    routes      TEXT NOT NULL DEFAULT '[]' CHECK (json_valid(routes) AND json_type(routes) = 'array'),
    -- Stack depth after the change.
    depth_after INTEGER NOT NULL CHECK (depth_after >= 0),
    -- The top of the stack before the change (JSON route, NULL = the menu); the router's
    -- "previous" is this value of the user's latest stack change.
    top_before  TEXT CHECK (top_before IS NULL OR json_valid(top_before)),
    -- Free text for the action: the URL opened, the sheet field set, the seed used.
    detail      TEXT
) STRICT;

CREATE TABLE navigation_sheets (
    user_id           TEXT NOT NULL PRIMARY KEY REFERENCES users (id),
    -- add_pizza: blank draft; edit_pizza: draft of pizza_id taken at base_version.
    kind              TEXT NOT NULL CHECK (kind IN ('add_pizza', 'edit_pizza')),
    pizza_id          TEXT REFERENCES pizzas (id),
    base_version      INTEGER CHECK (base_version IS NULL OR base_version >= 1),
    -- The draft may be invalid (that is what a form is for); it is validated on save.
    draft_name        TEXT NOT NULL DEFAULT '',
    draft_price_cents INTEGER NOT NULL DEFAULT 0 CHECK (draft_price_cents BETWEEN 0 AND 100000),
    opened_at         TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
    updated_at        TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')), draft_choices TEXT
    CHECK (draft_choices IS NULL OR (json_valid(draft_choices) AND json_type(draft_choices) = 'object'
                                     AND length(draft_choices) <= 10000)),
    CHECK ((kind = 'edit_pizza') = (pizza_id IS NOT NULL AND base_version IS NOT NULL))
) STRICT;

CREATE TABLE "navigation_stack" (
    user_id     TEXT NOT NULL REFERENCES users (id),
    depth       INTEGER NOT NULL CHECK (depth >= 1),
    -- pizza | order | category | opaque
    kind        TEXT NOT NULL CHECK (kind = 'pizza' OR kind = 'order' OR kind = 'category' OR kind = 'opaque'),
    pizza_id    TEXT REFERENCES pizzas (id),
    order_id    TEXT REFERENCES orders (id),
    -- For category routes: the menu section shown (table categories).
    category_id INTEGER REFERENCES categories (id),
    -- For opaque elements: the client's module-qualified type name and the element's JSON.
    opaque_type TEXT,
    opaque_json TEXT CHECK (opaque_json IS NULL OR json_valid(opaque_json)),
    PRIMARY KEY (user_id, depth),
    CHECK ((kind = 'pizza') = (pizza_id IS NOT NULL)),
    CHECK ((kind = 'order') = (order_id IS NOT NULL)),
    CHECK ((kind = 'category') = (category_id IS NOT NULL)),
    CHECK ((kind = 'opaque') = (opaque_type IS NOT NULL AND opaque_json IS NOT NULL))
) STRICT, WITHOUT ROWID;

CREATE TABLE notify_cursors (
    -- 1 to 40 of a-z 0-9 _ - (`sms`, `email-it`).
    name          TEXT NOT NULL PRIMARY KEY
                  CHECK (length(name) BETWEEN 1 AND 40 AND name NOT GLOB '*[^a-z0-9_-]*'),
    -- The last event delivered (or passed over as not of this notifier's kinds), as an event
    -- cursor's text (`0`, or POSITION.FINGERPRINT such as `412.9f3a2c1b`).
    after_event   TEXT NOT NULL CHECK (after_event = '0' OR after_event GLOB '[1-9]*.[0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f]'),
    -- The event whose command is running (or was, when the notifier died): delivered again on restart.
    pending_event TEXT CHECK (pending_event IS NULL OR pending_event GLOB '[1-9]*.[0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f]'),
    -- The kinds it delivers, comma-separated (`placed,moved,delayed,ready,no_show,cancelled,refunded`).
    kinds         TEXT NOT NULL CHECK (length(kinds) BETWEEN 1 AND 200 AND kinds NOT GLOB '*[^a-z_,]*'),
    delivered     INTEGER NOT NULL DEFAULT 0 CHECK (delivered >= 0),
    failures      INTEGER NOT NULL DEFAULT 0 CHECK (failures >= 0),
    -- How the last failure happened (`exit 3`, `killed by signal 9`, `timed out after 30 s`).
    last_error    TEXT CHECK (last_error IS NULL OR length(last_error) BETWEEN 1 AND 200),
    last_error_at TEXT CHECK (last_error_at IS NULL OR last_error_at GLOB '[0-9][0-9][0-9][0-9]-[0-1][0-9]-[0-3][0-9]T[0-2][0-9]:[0-5][0-9]:[0-5][0-9]*Z'),
    holder_host   TEXT CHECK (holder_host IS NULL OR length(holder_host) BETWEEN 1 AND 255),
    holder_pid    INTEGER CHECK (holder_pid IS NULL OR holder_pid > 0),
    heartbeat_at  TEXT CHECK (heartbeat_at IS NULL OR heartbeat_at GLOB '[0-9][0-9][0-9][0-9]-[0-1][0-9]-[0-3][0-9]T[0-2][0-9]:[0-5][0-9]:[0-5][0-9]*Z'),
    -- Who set it up (`--by`), when.
    created_by    TEXT CHECK (created_by IS NULL OR length(created_by) BETWEEN 1 AND 64),
    created_at    TEXT NOT NULL CHECK (created_at GLOB '[0-9][0-9][0-9][0-9]-[0-1][0-9]-[0-3][0-9]T[0-2][0-9]:[0-5][0-9]:[0-5][0-9]*Z'),
    updated_at    TEXT NOT NULL CHECK (updated_at GLOB '[0-9][0-9][0-9][0-9]-[0-1][0-9]-[0-3][0-9]T[0-2][0-9]:[0-5][0-9]:[0-5][0-9]*Z'),
    CHECK ((holder_host IS NULL) = (holder_pid IS NULL))
) STRICT;

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

CREATE TABLE "order_lines" (
    order_id         TEXT NOT NULL REFERENCES orders (id),
    line_no          INTEGER NOT NULL CHECK (line_no >= 1),
    pizza_id         TEXT NOT NULL REFERENCES pizzas (id),
    pizza_name       TEXT NOT NULL CHECK (length(pizza_name) >= 1),
    -- What one of the line costs: the variant's price plus its modifiers' (a trigger checks it).
    unit_price_cents INTEGER NOT NULL CHECK (unit_price_cents BETWEEN 1 AND 100000),
    quantity         INTEGER NOT NULL CHECK (quantity BETWEEN 1 AND 20),
    uses_oven        INTEGER NOT NULL DEFAULT 1 CHECK (uses_oven IN (0, 1)),
    -- The variant chosen, its name when booked (NULL when the item had only that one: "2 ×
    -- Margherita" as before) and its price when booked.
    variant_id       INTEGER NOT NULL REFERENCES pizza_variants (id),
    variant_name     TEXT CHECK (variant_name IS NULL OR length(variant_name) BETWEEN 1 AND 30),
    base_price_cents INTEGER NOT NULL CHECK (base_price_cents BETWEEN 1 AND 100000),
    -- The modifiers chosen, as booked: a JSON array of {"id", "group", "name", "price_cents"} in
    -- the menu's order, or NULL for none.
    modifiers        TEXT CHECK (modifiers IS NULL OR (json_valid(modifiers) AND json_type(modifiers) = 'array'
                                                       AND json_array_length(modifiers) BETWEEN 1 AND 30)),
    -- The union of the item's and the modifiers' allergens when booked (bits of table allergens).
    allergens        INTEGER NOT NULL DEFAULT 0 CHECK (allergens BETWEEN 0 AND 16383), vat_rate_bp INTEGER NOT NULL DEFAULT 1000 CHECK (vat_rate_bp BETWEEN 0 AND 10000), note TEXT
    CHECK (note IS NULL OR (length(note) BETWEEN 1 AND 200
                            AND note NOT GLOB ('*[' || char(1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,
                                                           26,27,28,29,30,31,127) || ']*'))), station_id INTEGER REFERENCES stations (id),
    PRIMARY KEY (order_id, line_no)
) STRICT, WITHOUT ROWID;

CREATE TABLE "order_status_events" (
    id          INTEGER PRIMARY KEY,
    order_id    TEXT NOT NULL REFERENCES orders (id),
    -- placed (booked), status (a status change), undo (a status change taken back), moved
    -- (another pickup), edited (lines or note), paid (a payment), refunded (a refund).
    kind        TEXT NOT NULL DEFAULT 'status'
                CHECK (kind = 'placed' OR kind = 'status' OR kind = 'undo'
                       OR kind = 'moved' OR kind = 'edited' OR kind = 'paid'
                       OR kind = 'refunded'),
    from_status TEXT CHECK (from_status IS NULL OR from_status = 'placed' OR from_status = 'preparing'
                            OR from_status = 'ready' OR from_status = 'collected' OR from_status = 'no_show'
                            OR from_status = 'cancelled'),
    to_status   TEXT NOT NULL
                CHECK (to_status = 'placed' OR to_status = 'preparing' OR to_status = 'ready'
                       OR to_status = 'collected' OR to_status = 'no_show' OR to_status = 'cancelled'),
    -- What changed, for people: `pickup 2026-12-04T18:00:00Z → 2026-12-04T18:30:00Z`, `+1 Diavola`.
    detail      TEXT CHECK (detail IS NULL OR length(detail) BETWEEN 1 AND 1000),
    -- Who made the change (the name the staff gave), or NULL.
    actor       TEXT CHECK (actor IS NULL OR length(actor) BETWEEN 1 AND 64),
    at          TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
, pickup_local TEXT, total_cents INTEGER CHECK (total_cents IS NULL OR total_cents >= 0)) STRICT;

CREATE TABLE "orders" (
    id                    TEXT NOT NULL PRIMARY KEY
                          DEFAULT (lower(hex(randomblob(4))) || '-' || lower(hex(randomblob(2))) || '-4' ||
                                   substr(lower(hex(randomblob(2))), 2) || '-' ||
                                   substr('89ab', 1 + (abs(random()) % 4), 1) ||
                                   substr(lower(hex(randomblob(2))), 2) || '-' || lower(hex(randomblob(6))))
                          CHECK (length(id) = 36 AND id GLOB '????????-????-????-????-????????????'
                                 AND id NOT GLOB '*[^0-9a-f-]*'),
    user_id               TEXT NOT NULL REFERENCES users (id),
    -- Start of the pickup slot, UTC, to the minute: 2026-12-01T18:30:00Z.
    pickup_at             TEXT NOT NULL
                          CHECK (pickup_at GLOB '[0-9][0-9][0-9][0-9]-[0-1][0-9]-[0-3][0-9]T[0-2][0-9]:[0-5][0-9]:00Z'),
    -- The service day the slot belongs to, and the pickup in local time with its offset.
    service_day           TEXT NOT NULL
                          CHECK (service_day GLOB '[0-9][0-9][0-9][0-9]-[0-1][0-9]-[0-3][0-9]' AND date(julianday(service_day)) IS service_day),
    pickup_local          TEXT NOT NULL
                          CHECK (pickup_local GLOB '[0-9][0-9][0-9][0-9]-[0-1][0-9]-[0-3][0-9]T[0-2][0-9]:[0-5][0-9][+-][0-1][0-9]:[0-5][0-9]'),
    -- placed → preparing → ready → collected, or ready → no_show; cancelled from placed or preparing.
    status                TEXT NOT NULL DEFAULT 'placed'
                          CHECK (status = 'placed' OR status = 'preparing' OR status = 'ready'
                                 OR status = 'collected' OR status = 'no_show' OR status = 'cancelled'),
    -- Σ quantity × unit price of the lines, kept by triggers as lines are added, changed, removed.
    total_cents           INTEGER NOT NULL DEFAULT 0 CHECK (total_cents >= 0),
    -- The app's retry key: one order per key (the partial index orders_by_idempotency_key).
    idempotency_key       TEXT CHECK (idempotency_key IS NULL OR length(idempotency_key) BETWEEN 1 AND 128),
    request_fingerprint   TEXT,
    -- For the kitchen: 1 to 200 characters, no control characters.
    note                  TEXT CHECK (note IS NULL OR (length(note) BETWEEN 1 AND 200
                                      AND note NOT GLOB ('*[' || char(1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,
                                                                     26,27,28,29,30,31,127) || ']*'))),
    -- Bumped by every change (move, edit, note, status): a change made from an older version is
    -- refused as a conflict.
    version               INTEGER NOT NULL DEFAULT 1 CHECK (version >= 1),
    -- Who and when of the change being made, read by the history triggers and cleared by them:
    -- always NULL at rest. A change typed into sqlite3 without them is recorded as made now, by nobody.
    changed_by            TEXT CHECK (changed_by IS NULL OR length(changed_by) BETWEEN 1 AND 64),
    changed_at            TEXT CHECK (changed_at IS NULL OR changed_at GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]T*Z'),
    created_at            TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
    updated_at            TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
    -- What the history should say of the change being made beyond what it is (`override: REASON`,
    -- `erased`): read by the history triggers into the event's detail and cleared; NULL at rest.
    change_note           TEXT CHECK (change_note IS NULL OR length(change_note) BETWEEN 1 AND 220),
    -- Set when staff kept a booked order that a schedule change left outside the hours
    -- (`--keep-orders`): the time of that change.
    kept_outside_hours_at TEXT
                          CHECK (kept_outside_hours_at IS NULL OR kept_outside_hours_at GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]T*Z'),
    -- A party's orders (`order place … --split`): the id of its first order, which names itself.
    party_id              TEXT REFERENCES orders (id)
) STRICT, WITHOUT ROWID;

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

CREATE TABLE payments (
    id             INTEGER PRIMARY KEY,
    order_id       TEXT NOT NULL REFERENCES orders (id),
    -- 1 cent to 100,000.00 EUR.
    amount_cents   INTEGER NOT NULL CHECK (amount_cents BETWEEN 1 AND 10000000),
    -- unknown: a collected order of a file older than migration 21, taken as paid.
    method         TEXT NOT NULL CHECK (method IN ('cash', 'card', 'online', 'voucher', 'unknown')),
    -- The payment provider's or the terminal's reference (psp_…): 1 to 200 characters, no control
    -- characters; unique per method, which makes an app's retry of an online payment harmless.
    reference      TEXT CHECK (reference IS NULL OR (length(reference) BETWEEN 1 AND 200
                               AND reference NOT GLOB ('*[' || char(1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,
                                                                   26,27,28,29,30,31,127) || ']*'))),
    -- Cash handed over, when more than the amount: the change is tendered − amount.
    tendered_cents INTEGER CHECK (tendered_cents IS NULL OR (method = 'cash' AND tendered_cents BETWEEN amount_cents AND 10000000)),
    at             TEXT NOT NULL CHECK (at GLOB '[0-9][0-9][0-9][0-9]-[0-1][0-9]-[0-3][0-9]T[0-2][0-9]:[0-5][0-9]:[0-5][0-9]*Z'),
    -- Who took it (the staff name given), or NULL.
    actor          TEXT CHECK (actor IS NULL OR length(actor) BETWEEN 1 AND 64)
, party_payment_id INTEGER REFERENCES party_payments (id)) STRICT;

CREATE TABLE "pizza_history" (
    id              INTEGER PRIMARY KEY,
    pizza_id        TEXT NOT NULL REFERENCES pizzas (id),
    -- created | edited (name and/or price) | archived | restored
    change          TEXT NOT NULL
                    CHECK (change = 'created' OR change = 'edited' OR change = 'archived' OR change = 'restored'),
    old_name        TEXT,
    new_name        TEXT NOT NULL,
    old_price_cents INTEGER CHECK (old_price_cents IS NULL OR old_price_cents > 0),
    new_price_cents INTEGER NOT NULL CHECK (new_price_cents > 0),
    -- The pizza's version after this change.
    version         INTEGER NOT NULL CHECK (version >= 1),
    changed_at      TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
    -- The item's change before this one (NULL: this is its first): an older row of the same item.
    -- Not a declared foreign key: checking it would read that older row, a random page, on every
    -- insert; pizza_history_chain_insert checks it against the item's row instead.
    previous_change INTEGER CHECK (previous_change IS NULL OR previous_change < id)
) STRICT;

CREATE TABLE pizza_modifier_groups (
    pizza_id TEXT NOT NULL REFERENCES pizzas (id),
    group_id INTEGER NOT NULL REFERENCES modifier_groups (id), pizza_name_key TEXT,
    PRIMARY KEY (pizza_id, group_id)
) STRICT, WITHOUT ROWID;

CREATE TABLE "pizza_variants" (
    id             INTEGER PRIMARY KEY,
    pizza_id       TEXT NOT NULL REFERENCES pizzas (id),
    -- 1 to 30 characters, trimmed, no control characters; unique in its item ignoring case.
    name           TEXT NOT NULL COLLATE NOCASE
                   CHECK (length(name) BETWEEN 1 AND 30 AND trim(name) = name
                          AND name NOT GLOB ('*[' || char(1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,
                                                          26,27,28,29,30,31,127) || ']*')),
    -- More than 0, at most 1,000.00 EUR, like an item's price. NULL for the default variant: it
    -- costs its item's price (pizzas.price_cents).
    price_cents    INTEGER CHECK (price_cents BETWEEN 1 AND 100000),
    -- The order in which the item's variants are offered: smaller first.
    position       INTEGER NOT NULL DEFAULT 1 CHECK (position BETWEEN 1 AND 100),
    -- 1 for the variant a plain order of the item gets; exactly one per item.
    is_default     INTEGER NOT NULL DEFAULT 0 CHECK (is_default IN (0, 1)),
    -- The item's name_key (migration 31), for the menu's order.
    pizza_name_key TEXT,
    UNIQUE (pizza_id, name),
    -- A variant other than the default has a price of its own.
    CONSTRAINT variant_price CHECK (is_default = 1 OR price_cents IS NOT NULL)
) STRICT;

CREATE TABLE pizza_view_counts (
    pizza_id   TEXT NOT NULL PRIMARY KEY REFERENCES pizzas (id) ON DELETE CASCADE,
    -- Every time its detail was shown: pushed, random, deep link, import or a replaced stack.
    views      INTEGER NOT NULL DEFAULT 0 CHECK (views >= 0),
    pushed     INTEGER NOT NULL DEFAULT 0 CHECK (pushed >= 0),
    random     INTEGER NOT NULL DEFAULT 0 CHECK (random >= 0),
    deep_links INTEGER NOT NULL DEFAULT 0 CHECK (deep_links >= 0),
    imported   INTEGER NOT NULL DEFAULT 0 CHECK (imported >= 0),
    CHECK (pushed + random + deep_links + imported <= views)
) STRICT, WITHOUT ROWID;

CREATE TABLE pizzas (
    id          TEXT NOT NULL PRIMARY KEY
                DEFAULT (lower(hex(randomblob(4))) || '-' || lower(hex(randomblob(2))) || '-4' ||
                         substr(lower(hex(randomblob(2))), 2) || '-' ||
                         substr('89ab', 1 + (abs(random()) % 4), 1) ||
                         substr(lower(hex(randomblob(2))), 2) || '-' || lower(hex(randomblob(6))))
                CHECK (length(id) = 36 AND id GLOB '????????-????-????-????-????????????'
                       AND id NOT GLOB '*[^0-9a-f-]*'),
    -- Trimmed, not empty, no control characters or line breaks. The application also limits
    -- names to 60 user-perceived characters, which SQL cannot count; 240 code points is the
    -- hard ceiling here (an accented or emoji character can take several code points).
    name        TEXT NOT NULL
                CHECK (length(name) BETWEEN 1 AND 240)
                CHECK (name = trim(name, ' ' || char(9,10,11,12,13,133,160,5760,8192,8193,8194,8195,
                                                    8196,8197,8198,8199,8200,8201,8202,8232,8233,
                                                    8239,8287,12288)))
                CHECK (name NOT GLOB ('*[' || char(1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,
                                                   20,21,22,23,24,25,26,27,28,29,30,31,127,128,129,
                                                   130,131,132,133,134,135,136,137,138,139,140,141,
                                                   142,143,144,145,146,147,148,149,150,151,152,153,
                                                   154,155,156,157,158,159,8232,8233) || ']*')),
    -- More than 0, at most 1,000.00 EUR.
    price_cents INTEGER NOT NULL CHECK (price_cents BETWEEN 1 AND 100000),
    -- NULL while on the menu; the time it was taken off otherwise.
    archived_at TEXT CHECK (archived_at IS NULL OR archived_at GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]T[0-9][0-9]:[0-9][0-9]:[0-9][0-9]*Z'),
    -- Incremented by every change; an edit made from an older version is refused as a conflict.
    version     INTEGER NOT NULL DEFAULT 1 CHECK (version >= 1),
    created_at  TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
                CHECK (created_at GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]T[0-9][0-9]:[0-9][0-9]:[0-9][0-9]*Z'),
    updated_at  TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
                CHECK (updated_at GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]T[0-9][0-9]:[0-9][0-9]:[0-9][0-9]*Z')
, name_key TEXT CHECK (name_key IS NULL OR length(name_key) BETWEEN 1 AND 720), category_id INTEGER NOT NULL DEFAULT 1, allergens INTEGER NOT NULL DEFAULT 0 CHECK (allergens BETWEEN 0 AND 16383), stock_left INTEGER CHECK (stock_left IS NULL OR stock_left BETWEEN 0 AND 100000), stock_until TEXT
    CHECK (stock_until IS NULL OR stock_until GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]T[0-9][0-9]:[0-9][0-9]:[0-9][0-9]*Z'), stock_changes INTEGER NOT NULL DEFAULT 0 CHECK (stock_changes >= 0), last_change INTEGER) STRICT;

CREATE TABLE refunds (
    id           INTEGER PRIMARY KEY,
    payment_id   INTEGER NOT NULL REFERENCES payments (id),
    amount_cents INTEGER NOT NULL CHECK (amount_cents BETWEEN 1 AND 10000000),
    -- Why: 1 to 200 characters, no control characters.
    reason       TEXT NOT NULL CHECK (length(reason) BETWEEN 1 AND 200 AND trim(reason) = reason
                                      AND reason NOT GLOB ('*[' || char(1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,
                                                                         26,27,28,29,30,31,127) || ']*')),
    at           TEXT NOT NULL CHECK (at GLOB '[0-9][0-9][0-9][0-9]-[0-1][0-9]-[0-3][0-9]T[0-2][0-9]:[0-5][0-9]:[0-5][0-9]*Z'),
    actor        TEXT CHECK (actor IS NULL OR length(actor) BETWEEN 1 AND 64)
) STRICT;

CREATE TABLE schedule_exceptions (
    id         INTEGER PRIMARY KEY,
    day        TEXT NOT NULL CHECK (day GLOB '[0-9][0-9][0-9][0-9]-[0-1][0-9]-[0-3][0-9]' AND date(julianday(day)) IS day),
    kind       TEXT NOT NULL CHECK (kind IN ('closed', 'special', 'cut')),
    -- special: the interval; cut: the range taken out (at or before its start: past midnight).
    opens_at   TEXT CHECK (opens_at IS NULL OR (opens_at GLOB '[0-2][0-9]:[0-5][0-9]' AND opens_at <= '23:59')),
    closes_at  TEXT CHECK (closes_at IS NULL OR (closes_at GLOB '[0-2][0-9]:[0-5][0-9]' AND closes_at <= '24:00')),
    -- Shown to customers ("closed on 2026-12-25 (Christmas)"): 1 to 200 characters, no control characters.
    reason     TEXT CHECK (reason IS NULL OR (length(reason) BETWEEN 1 AND 200
                           AND reason NOT GLOB ('*[' || char(1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,26,
                                                             27,28,29,30,31,127) || ']*'))),
    created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
    CHECK ((kind = 'closed') = (opens_at IS NULL AND closes_at IS NULL)),
    CHECK (opens_at IS NULL OR closes_at <> opens_at)
) STRICT;

CREATE TABLE schema_migrations (
    version    INTEGER PRIMARY KEY CHECK (version >= 1),
    name       TEXT NOT NULL CHECK (length(name) > 0),
    checksum   TEXT NOT NULL CHECK (length(checksum) = 64),
    applied_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
) STRICT;

CREATE TABLE schema_repeatables (
    name       TEXT PRIMARY KEY CHECK (name GLOB 'R__*.sql'),
    checksum   TEXT NOT NULL CHECK (length(checksum) = 64),
    applied_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
) STRICT;

CREATE TABLE "settings" (
    id                   INTEGER PRIMARY KEY CHECK (id = 1),
    -- Length of a pickup slot in minutes; divides 60 so slots line up with the hour.
    slot_minutes         INTEGER NOT NULL DEFAULT 15 CHECK (slot_minutes BETWEEN 1 AND 60 AND 60 % slot_minutes = 0),
    -- Pizzas the kitchen can make per slot, where no capacity rule applies.
    slot_capacity        INTEGER NOT NULL DEFAULT 12 CHECK (slot_capacity BETWEEN 1 AND 10000),
    -- IANA time zone such as Europe/Rome; NULL means the zone of the machine running pizzeria.
    time_zone            TEXT CHECK (time_zone IS NULL OR length(time_zone) BETWEEN 1 AND 64),
    updated_at           TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
    booking_horizon_days INTEGER NOT NULL DEFAULT 365 CHECK (booking_horizon_days BETWEEN 1 AND 3650),
    lead_minutes         INTEGER NOT NULL DEFAULT 15 CHECK (lead_minutes BETWEEN 0 AND 1440),
    paused               INTEGER NOT NULL DEFAULT 0 CHECK (paused IN (0, 1)),
    paused_until         TEXT
                         CHECK (paused_until IS NULL OR (paused = 1 AND paused_until GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]T[0-9][0-9]:[0-9][0-9]:[0-9][0-9]*Z')),
    pause_reason         TEXT CHECK (pause_reason IS NULL OR (paused = 1 AND length(pause_reason) BETWEEN 1 AND 200)),
    busy_minutes         INTEGER NOT NULL DEFAULT 0 CHECK (busy_minutes BETWEEN 0 AND 1440),
    busy_until           TEXT
                         CHECK (busy_until IS NULL OR (busy_minutes > 0 AND busy_until GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]T[0-9][0-9]:[0-9][0-9]:[0-9][0-9]*Z')),
    require_staff        INTEGER NOT NULL DEFAULT 0 CHECK (require_staff IN (0, 1))
) STRICT;

CREATE TABLE shop (
    id          INTEGER PRIMARY KEY CHECK (id = 1),
    -- What a receipt's head says; NULL until set (`pizzeria config set shop-name …`).
    name        TEXT CHECK (name IS NULL OR (length(name) BETWEEN 1 AND 80 AND trim(name) = name
                            AND name NOT GLOB ('*[' || char(1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,
                                                            26,27,28,29,30,31,127) || ']*'))),
    address     TEXT CHECK (address IS NULL OR (length(address) BETWEEN 1 AND 200 AND trim(address) = address
                            AND address NOT GLOB ('*[' || char(1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,
                                                               26,27,28,29,30,31,127) || ']*'))),
    -- The shop's VAT number as printed: IT01234567890 (2 to 20 capital letters and digits).
    vat_number  TEXT CHECK (vat_number IS NULL OR (length(vat_number) BETWEEN 2 AND 20
                            AND vat_number NOT GLOB '*[^A-Z0-9]*')),
    -- The VAT rate of categories without one of their own, in basis points (1000 = 10 %).
    vat_rate_bp INTEGER NOT NULL DEFAULT 1000 CHECK (vat_rate_bp BETWEEN 0 AND 10000)
, phone_region TEXT
    CHECK (phone_region IS NULL OR (length(phone_region) = 2 AND phone_region NOT GLOB '*[^A-Z]*')), language TEXT NOT NULL DEFAULT 'it' CHECK (language IN ('it', 'en'))) STRICT;

CREATE TABLE slot_loads (
    pickup_at   TEXT NOT NULL PRIMARY KEY,
    service_day TEXT NOT NULL,
    capacity    INTEGER NOT NULL CHECK (capacity BETWEEN 1 AND 10000),
    booked      INTEGER NOT NULL DEFAULT 0 CHECK (booked >= 0)
, local_minute INTEGER NOT NULL DEFAULT 0 CHECK (local_minute BETWEEN 0 AND 2880), capacity_rule_id INTEGER) STRICT, WITHOUT ROWID;

CREATE TABLE staff (
    name     TEXT NOT NULL PRIMARY KEY
             CHECK (length(name) BETWEEN 1 AND 64
                    AND name NOT GLOB ('*[' || char(1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,26,
                                                    27,28,29,30,31,127) || ']*')),
    role     TEXT NOT NULL CHECK (role IN ('owner', 'manager', 'counter')),
    added_at TEXT NOT NULL CHECK (strftime('%Y-%m-%dT%H:%M:%fZ', added_at) IS added_at)
) STRICT;

CREATE TABLE station_bumps (
    order_id   TEXT NOT NULL REFERENCES orders (id),
    station_id INTEGER NOT NULL REFERENCES stations (id),
    at         TEXT NOT NULL CHECK (at GLOB '[0-9][0-9][0-9][0-9]-[0-1][0-9]-[0-3][0-9]T[0-2][0-9]:[0-5][0-9]:[0-5][0-9]*Z'),
    actor      TEXT CHECK (actor IS NULL OR length(actor) BETWEEN 1 AND 64),
    PRIMARY KEY (order_id, station_id)
) STRICT, WITHOUT ROWID;

CREATE TABLE station_capacity_rules (
    id         INTEGER PRIMARY KEY,
    station_id INTEGER NOT NULL REFERENCES stations (id) ON DELETE CASCADE,
    -- Exactly one of: a weekday (ISO: 1 = Monday … 7 = Sunday) or a date (YYYY-MM-DD).
    weekday    INTEGER CHECK (weekday BETWEEN 1 AND 7),
    day        TEXT CHECK (day IS NULL OR (day GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]' AND date(day) IS day)),
    starts_at  TEXT NOT NULL CHECK (starts_at GLOB '[0-2][0-9]:[0-5][0-9]' AND starts_at <= '23:59'),
    ends_at    TEXT NOT NULL CHECK (ends_at GLOB '[0-2][0-9]:[0-5][0-9]' AND ends_at <= '24:00'),
    -- Pieces per slot at the station.
    capacity   INTEGER NOT NULL CHECK (capacity BETWEEN 1 AND 10000),
    -- The range as minutes of the service day: 18:30-01:00 is 1110-1500.
    start_minute INTEGER GENERATED ALWAYS AS (CAST(substr(starts_at, 1, 2) AS INTEGER) * 60 + CAST(substr(starts_at, 4, 2) AS INTEGER)) VIRTUAL,
    end_minute   INTEGER GENERATED ALWAYS AS (CAST(substr(ends_at, 1, 2) AS INTEGER) * 60 + CAST(substr(ends_at, 4, 2) AS INTEGER)
                                              + CASE WHEN ends_at <= starts_at THEN 1440 ELSE 0 END) VIRTUAL,
    -- How people name it: `fri 18:30-21:00`, `2026-12-31 19:00-23:00`.
    rule       TEXT GENERATED ALWAYS AS (coalesce(day, substr('montuewedthufrisatsun', weekday * 3 - 2, 3)) || ' ' || starts_at || '-' || ends_at) VIRTUAL,
    CHECK ((weekday IS NULL) <> (day IS NULL)),
    CHECK (ends_at <> starts_at)
) STRICT;

CREATE TABLE station_loads (
    station_id INTEGER NOT NULL REFERENCES stations (id),
    pickup_at  TEXT NOT NULL
               CHECK (pickup_at GLOB '[0-9][0-9][0-9][0-9]-[0-1][0-9]-[0-3][0-9]T[0-2][0-9]:[0-5][0-9]:00Z'),
    booked     INTEGER NOT NULL DEFAULT 0 CHECK (booked >= 0),
    PRIMARY KEY (station_id, pickup_at)
) STRICT, WITHOUT ROWID;

CREATE TABLE stations (
    id                  INTEGER PRIMARY KEY,
    -- 1 to 40 characters, no control characters, unique ignoring case.
    name                TEXT NOT NULL UNIQUE COLLATE NOCASE
                        CHECK (length(name) BETWEEN 1 AND 40 AND trim(name) = name
                               AND name NOT GLOB ('*[' || char(1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,
                                                               26,27,28,29,30,31,127) || ']*')),
    -- Pieces per slot it can make (NULL: no limit); the station holding the slot capacity has none.
    capacity            INTEGER CHECK (capacity IS NULL OR capacity BETWEEN 1 AND 10000),
    holds_slot_capacity INTEGER NOT NULL DEFAULT 0 CHECK (holds_slot_capacity IN (0, 1)),
    -- The order stations are listed in (boards, tickets).
    position            INTEGER NOT NULL DEFAULT 1 CHECK (position BETWEEN 1 AND 100),
    CHECK (holds_slot_capacity = 0 OR capacity IS NULL)
) STRICT;

CREATE TABLE user_erasures (
    user_id   TEXT NOT NULL PRIMARY KEY REFERENCES users (id),
    erased_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
    actor     TEXT CHECK (actor IS NULL OR length(actor) BETWEEN 1 AND 64)
, wal_cleared_at TEXT
    CHECK (wal_cleared_at IS NULL OR wal_cleared_at GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]T*Z')) STRICT;

CREATE TABLE users (
    id           TEXT NOT NULL PRIMARY KEY
                 DEFAULT (lower(hex(randomblob(4))) || '-' || lower(hex(randomblob(2))) || '-4' ||
                          substr(lower(hex(randomblob(2))), 2) || '-' ||
                          substr('89ab', 1 + (abs(random()) % 4), 1) ||
                          substr(lower(hex(randomblob(2))), 2) || '-' || lower(hex(randomblob(6))))
                 CHECK (length(id) = 36 AND id GLOB '????????-????-????-????-????????????'
                        AND id NOT GLOB '*[^0-9a-f-]*'),
    -- 1 to 32 characters of a-z 0-9 . _ - (stored lowercase); what people type to name a user.
    handle       TEXT NOT NULL UNIQUE
                 CHECK (length(handle) BETWEEN 1 AND 32 AND handle NOT GLOB '*[^a-z0-9._-]*'),
    -- Optional; trimmed, 1 to 80 characters, no control characters.
    display_name TEXT
                 CHECK (display_name IS NULL OR (
                        length(display_name) BETWEEN 1 AND 80
                        AND display_name = trim(display_name)
                        AND display_name NOT GLOB ('*[' || char(1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,
                                                   17,18,19,20,21,22,23,24,25,26,27,28,29,30,31,127) || ']*'))),
    created_at   TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
                 CHECK (created_at GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]T[0-9][0-9]:[0-9][0-9]:[0-9][0-9]*Z')
, phone TEXT
    CHECK (phone IS NULL OR (phone GLOB '+[1-9]*' AND length(phone) BETWEEN 9 AND 16 AND substr(phone, 2) NOT GLOB '*[^0-9]*')), last_stack_change INTEGER) STRICT;

CREATE TABLE weekly_hours (
    id        INTEGER PRIMARY KEY,
    weekday   INTEGER NOT NULL CHECK (weekday BETWEEN 1 AND 7),
    opens_at  TEXT NOT NULL CHECK (opens_at GLOB '[0-2][0-9]:[0-5][0-9]' AND opens_at <= '23:59'),
    closes_at TEXT NOT NULL CHECK (closes_at GLOB '[0-2][0-9]:[0-5][0-9]' AND closes_at <= '24:00'),
    CHECK (closes_at <> opens_at),
    UNIQUE (weekday, opens_at)
) STRICT;

CREATE INDEX audit_log_by_history ON audit_log (history_id) WHERE history_id IS NOT NULL;

CREATE INDEX audit_log_by_object ON audit_log (object, id) WHERE history_id IS NULL;

CREATE INDEX audit_log_by_time ON audit_log (at, id);

CREATE INDEX capacity_overrides_by_order ON capacity_overrides (order_id);

CREATE INDEX capacity_overrides_by_slot ON capacity_overrides (pickup_at);

CREATE INDEX capacity_overrides_by_station ON capacity_overrides (station_id, pickup_at) WHERE station_id IS NOT NULL;

CREATE UNIQUE INDEX capacity_rules_by_day ON capacity_rules (day, starts_at, ends_at) WHERE day IS NOT NULL;

CREATE UNIQUE INDEX capacity_rules_by_weekday ON capacity_rules (weekday, starts_at, ends_at) WHERE weekday IS NOT NULL;

CREATE INDEX drawer_counts_by_day ON drawer_counts (service_day, id);

CREATE INDEX navigation_events_by_user ON navigation_events (user_id, id);

CREATE INDEX navigation_sheets_by_pizza ON navigation_sheets (pizza_id) WHERE pizza_id IS NOT NULL;

CREATE INDEX navigation_stack_by_category ON navigation_stack (category_id) WHERE category_id IS NOT NULL;

CREATE INDEX navigation_stack_by_order ON navigation_stack (order_id) WHERE order_id IS NOT NULL;

CREATE INDEX navigation_stack_by_pizza ON navigation_stack (pizza_id) WHERE pizza_id IS NOT NULL;

CREATE INDEX order_discounts_by_order ON order_discounts (order_id, id);

CREATE INDEX order_lines_by_station ON order_lines (station_id) WHERE uses_oven = 0 AND station_id IS NOT NULL;

CREATE INDEX order_status_events_by_order ON order_status_events (order_id, id);

CREATE UNIQUE INDEX orders_by_idempotency_key ON orders (idempotency_key) WHERE idempotency_key IS NOT NULL;

CREATE INDEX orders_by_party ON orders (party_id) WHERE party_id IS NOT NULL;

CREATE INDEX orders_by_pickup_id ON orders (pickup_at, id);

CREATE INDEX orders_by_service_day ON orders (service_day, pickup_at, id);

CREATE INDEX orders_by_status_pickup ON orders (status, pickup_at, id);

CREATE INDEX orders_by_user_pickup ON orders (user_id, pickup_at, id);

CREATE INDEX party_payments_by_party ON party_payments (party_id, id);

CREATE UNIQUE INDEX party_payments_by_reference ON party_payments (method, reference) WHERE reference IS NOT NULL;

CREATE INDEX payments_by_order ON payments (order_id, id);

CREATE INDEX payments_by_party_payment ON payments (party_payment_id) WHERE party_payment_id IS NOT NULL;

CREATE UNIQUE INDEX payments_by_reference ON payments (method, reference) WHERE reference IS NOT NULL;

CREATE INDEX payments_by_time ON payments (at);

CREATE INDEX pizza_modifier_groups_by_group ON pizza_modifier_groups (group_id);

CREATE INDEX pizza_modifier_groups_in_menu_order ON pizza_modifier_groups (pizza_name_key, group_id);

CREATE INDEX pizza_variants_in_menu_order ON pizza_variants (pizza_name_key);

CREATE INDEX pizza_view_counts_by_views ON pizza_view_counts (views DESC);

CREATE INDEX pizzas_by_category ON pizzas (category_id, name_key);

CREATE UNIQUE INDEX pizzas_name_key ON pizzas (name_key);

CREATE INDEX refunds_by_payment ON refunds (payment_id, id);

CREATE INDEX refunds_by_time ON refunds (at);

CREATE INDEX schedule_exceptions_by_day ON schedule_exceptions (day, kind);

CREATE UNIQUE INDEX schedule_exceptions_one_closure ON schedule_exceptions (day) WHERE kind = 'closed';

CREATE INDEX slot_loads_by_service_day ON slot_loads (service_day, pickup_at);

CREATE UNIQUE INDEX station_capacity_rules_by_day ON station_capacity_rules (station_id, day, starts_at, ends_at) WHERE day IS NOT NULL;

CREATE UNIQUE INDEX station_capacity_rules_by_weekday ON station_capacity_rules (station_id, weekday, starts_at, ends_at) WHERE weekday IS NOT NULL;

CREATE UNIQUE INDEX stations_one_holding_slot_capacity ON stations (holds_slot_capacity) WHERE holds_slot_capacity = 1;

CREATE VIEW audit_log_entries AS
SELECT a.at, 0 AS kind, a.id AS seq, a.actor, a.source, a.object, a.action, a.old, a.new
FROM audit_log a WHERE a.history_id IS NULL;

CREATE VIEW audit_order_entries AS
SELECT e.at, 1 AS kind, e.id AS seq, e.actor, 'order history' AS source, 'order:' || e.order_id AS object,
       e.kind || CASE WHEN e.kind = 'status' THEN ' ' || e.to_status ELSE '' END AS action,
       CASE WHEN e.from_status IS NOT NULL THEN json_object('status', e.from_status) END AS old,
       json_object('status', e.to_status, 'detail', e.detail) AS new,
       e.order_id
FROM order_status_events e;

CREATE VIEW audit_pizza_entries AS
SELECT a.at, 0 AS kind, a.id AS seq, a.actor, a.source, a.object, a.action, a.old, a.new, h.pizza_id, a.history_id
FROM audit_log a JOIN pizza_history h ON h.id = a.history_id;

CREATE VIEW audit_trail AS
SELECT at, kind, seq, actor, source, object, action, old, new FROM audit_log_entries
UNION ALL
SELECT at, kind, seq, actor, source, object, action, old, new FROM audit_pizza_entries
UNION ALL
SELECT at, kind, seq, actor, source, object, action, old, new FROM audit_order_entries;

CREATE VIEW capacity_candidates AS
SELECT r.id AS rule_id, r.capacity, r.day, r.weekday, r.start_minute, r.end_minute,
       CASE WHEN r.day IS NULL THEN 1 ELSE 0 END AS rank, r.end_minute - r.start_minute AS width
FROM capacity_rules r
UNION ALL
SELECT NULL, s.slot_capacity, NULL, NULL, 0, 2881, 2, 0 FROM settings s WHERE s.id = 1;

CREATE VIEW daily_close AS
SELECT d.service_day,
       (SELECT count(*) FROM orders o WHERE o.service_day = d.service_day) AS orders,
       (SELECT count(*) FROM orders o WHERE o.service_day = d.service_day AND o.status = 'collected') AS collected_orders,
       (SELECT coalesce(sum(o.total_cents), 0) FROM orders o
        WHERE o.service_day = d.service_day AND o.status = 'collected') AS collected_cents,
       (SELECT count(*) FROM orders o WHERE o.service_day = d.service_day AND o.status = 'no_show') AS no_show_orders,
       (SELECT coalesce(sum(o.total_cents), 0) FROM orders o
        WHERE o.service_day = d.service_day AND o.status = 'no_show') AS no_show_cents,
       (SELECT count(*) FROM orders o WHERE o.service_day = d.service_day AND o.status = 'cancelled') AS cancelled_orders,
       (SELECT coalesce(sum(p.amount_cents), 0) FROM orders o JOIN payments p ON p.order_id = o.id
        WHERE o.service_day = d.service_day) AS paid_cents,
       (SELECT coalesce(sum(r.amount_cents), 0) FROM orders o JOIN payments p ON p.order_id = o.id
        JOIN refunds r ON r.payment_id = p.id WHERE o.service_day = d.service_day) AS refunded_cents,
       (SELECT coalesce(sum(p.amount_cents), 0) FROM orders o JOIN payments p ON p.order_id = o.id
        WHERE o.service_day = d.service_day AND p.method = 'cash')
       - (SELECT coalesce(sum(r.amount_cents), 0) FROM orders o JOIN payments p ON p.order_id = o.id
          JOIN refunds r ON r.payment_id = p.id WHERE o.service_day = d.service_day AND p.method = 'cash') AS cash_net_cents,
       (SELECT count(*) FROM order_payments x
        WHERE x.service_day = d.service_day AND x.status = 'collected' AND x.balance_cents > 0) AS unpaid_collected_orders
FROM (SELECT DISTINCT service_day FROM orders) d;

CREATE VIEW daily_vat AS
SELECT service_day, vat_rate_bp, sum(gross) AS gross_cents, sum(vat) AS vat_cents, sum(gross) - sum(vat) AS net_cents
FROM (SELECT service_day, vat_rate_bp, gross, (2 * gross * vat_rate_bp + 10000 + vat_rate_bp) / (2 * (10000 + vat_rate_bp)) AS vat
      FROM (SELECT o.service_day, l.vat_rate_bp,
                   sum(l.quantity * l.unit_price_cents)
                   - (SELECT coalesce(sum(d.amount_cents), 0) FROM order_discounts d
                      WHERE d.order_id = o.id AND d.vat_rate_bp = l.vat_rate_bp) AS gross
            FROM orders o JOIN order_lines l ON l.order_id = o.id
            WHERE o.status = 'collected'
            GROUP BY o.id, o.service_day, l.vat_rate_bp))
GROUP BY service_day, vat_rate_bp;

CREATE VIEW menu AS
SELECT name,
       printf('%d.%02d', price_cents / 100, price_cents % 100) AS price_eur
FROM pizzas
WHERE archived_at IS NULL
ORDER BY name_key;

CREATE VIEW menu_by_category AS
SELECT k.position AS category_position, k.name AS category, k.uses_oven, p.name,
       printf('%d.%02d', p.price_cents / 100, p.price_cents % 100) AS price_eur
FROM pizzas p JOIN categories k ON k.id = p.category_id
WHERE p.archived_at IS NULL
ORDER BY k.position, k.name, p.name_key;

CREATE VIEW menu_items AS
SELECT k.position AS category_position, k.name AS category, p.name AS item, v.name AS variant, v.is_default,
       printf('%d.%02d', coalesce(v.price_cents, p.price_cents) / 100, coalesce(v.price_cents, p.price_cents) % 100) AS price_eur,
       (SELECT group_concat(code, ', ') FROM (SELECT code FROM allergens WHERE p.allergens & bit ORDER BY bit)) AS allergens,
       (SELECT group_concat(name, ', ') FROM (SELECT g.name FROM pizza_modifier_groups a JOIN modifier_groups g ON g.id = a.group_id
                                              WHERE a.pizza_id = p.id ORDER BY g.position, g.name)) AS modifier_groups
FROM pizzas p JOIN categories k ON k.id = p.category_id JOIN pizza_variants v ON v.pizza_id = p.id
WHERE p.archived_at IS NULL
ORDER BY k.position, k.name, p.name_key, v.position, v.name;

CREATE VIEW navigation_history AS
SELECT e.id AS event_id,
       u.handle,
       e.at,
       e.action,
       (SELECT group_concat(
                   coalesce(p.name,
                            CASE WHEN substr(json_extract(j.value, '$.order.id'), 15, 1) = '7'
                                 THEN 'order ' || substr(json_extract(j.value, '$.order.id'), 29, 8)
                                 WHEN json_extract(j.value, '$.order.id') IS NOT NULL
                                 THEN 'order ' || substr(json_extract(j.value, '$.order.id'), 1, 8) END,
                            json_extract(j.value, '$.opaque.type'),
                            j.value),
                   ' › ')
        FROM json_each(e.routes) j
        LEFT JOIN pizzas p ON p.id = json_extract(j.value, '$.pizza.id')) AS routes,
       e.depth_after,
       e.detail
FROM navigation_events e JOIN users u ON u.id = e.user_id
ORDER BY e.id;

CREATE VIEW navigation_paths AS
SELECT u.handle,
       (SELECT count(*) FROM navigation_stack s WHERE s.user_id = u.id) AS depth,
       coalesce((SELECT group_concat(label, ' › ')
                 FROM (SELECT label FROM navigation_stack_labels l WHERE l.user_id = u.id ORDER BY l.depth)),
                '') AS path,
       (SELECT kind FROM navigation_sheets sh WHERE sh.user_id = u.id) AS sheet
FROM users u
ORDER BY u.handle;

CREATE VIEW navigation_stack_labels AS
SELECT s.user_id,
       s.depth,
       s.kind,
       CASE s.kind
           WHEN 'pizza' THEN p.name
           WHEN 'order' THEN 'order ' || CASE WHEN substr(s.order_id, 15, 1) = '7' THEN substr(s.order_id, 29, 8)
                                              ELSE substr(s.order_id, 1, 8) END
           WHEN 'category' THEN k.name
           ELSE s.opaque_type
       END AS label
FROM navigation_stack s LEFT JOIN pizzas p ON p.id = s.pizza_id LEFT JOIN categories k ON k.id = s.category_id;

CREATE VIEW opening_week AS
SELECT weekday,
       CASE weekday WHEN 1 THEN 'Monday' WHEN 2 THEN 'Tuesday' WHEN 3 THEN 'Wednesday' WHEN 4 THEN 'Thursday'
                    WHEN 5 THEN 'Friday' WHEN 6 THEN 'Saturday' ELSE 'Sunday' END AS day,
       opens_at,
       closes_at,
       closes_at <= opens_at AS past_midnight
FROM weekly_hours
ORDER BY weekday, opens_at;

CREATE VIEW order_discount_list AS
SELECT d.order_id, o.service_day, d.kind, d.line_no, d.percent_bp, d.reason, d.actor, d.at,
       sum(d.amount_cents) AS amount_cents, group_concat(d.vat_rate_bp || ':' || d.amount_cents, ',') AS by_rate
FROM order_discounts d JOIN orders o ON o.id = d.order_id
GROUP BY d.order_id, d.kind, d.line_no, d.at, d.reason;

CREATE VIEW order_line_details AS
SELECT l.order_id, l.line_no, o.service_day, o.status, l.pizza_name AS item, l.variant_name AS variant,
       -- A removal reads `senza NAME`; a choice's free default goes without saying.
       (SELECT group_concat(CASE WHEN json_extract(e.value, '$.kind') = 'removal' THEN 'senza ' || json_extract(e.value, '$.name')
                             WHEN json_extract(e.value, '$.default') AND json_extract(e.value, '$.price_cents') = 0 THEN NULL
                             ELSE json_extract(e.value, '$.name') END, ', ')
        FROM json_each(l.modifiers) e) AS modifiers,
       l.quantity,
       printf('%d.%02d', l.base_price_cents / 100, l.base_price_cents % 100) AS variant_price_eur,
       printf('%d.%02d', l.unit_price_cents / 100, l.unit_price_cents % 100) AS unit_price_eur,
       printf('%d.%02d', l.quantity * l.unit_price_cents / 100, l.quantity * l.unit_price_cents % 100) AS line_total_eur,
       l.quantity * l.unit_price_cents AS line_total_cents,
       (SELECT group_concat(code, ', ') FROM (SELECT code FROM allergens WHERE l.allergens & bit ORDER BY bit)) AS allergens
FROM order_lines l JOIN orders o ON o.id = l.order_id;

CREATE VIEW order_payments AS
SELECT order_id, service_day, status, total_cents, due_cents, paid_cents, refunded_cents,
       paid_cents - refunded_cents AS kept_cents,
       max(due_cents - (paid_cents - refunded_cents), 0) AS balance_cents,
       max((paid_cents - refunded_cents) - due_cents, 0) AS owes_refund_cents,
       CASE WHEN paid_cents = 0 THEN 'unpaid'
            WHEN paid_cents - refunded_cents > due_cents THEN 'overpaid'
            WHEN paid_cents - refunded_cents < due_cents
                THEN CASE WHEN paid_cents = refunded_cents THEN 'unpaid' ELSE 'partially_paid' END
            WHEN refunded_cents = 0 THEN 'paid'
            WHEN paid_cents = refunded_cents THEN 'refunded'
            ELSE 'partially_refunded' END AS state
FROM (SELECT o.id AS order_id, o.service_day, o.status, o.total_cents,
             CASE WHEN o.status = 'cancelled' THEN 0 ELSE o.total_cents END AS due_cents,
             (SELECT coalesce(sum(p.amount_cents), 0) FROM payments p WHERE p.order_id = o.id) AS paid_cents,
             (SELECT coalesce(sum(r.amount_cents), 0) FROM payments p JOIN refunds r ON r.payment_id = p.id
              WHERE p.order_id = o.id) AS refunded_cents
      FROM orders o);

CREATE VIEW order_summary AS
SELECT o.id AS order_id,
       u.handle,
       o.service_day,
       o.pickup_local,
       o.pickup_at,
       o.status,
       (SELECT group_concat(item, ', ')
        FROM (SELECT l.quantity || ' × ' || l.pizza_name || coalesce(' ' || l.variant_name, '')
                     || coalesce((SELECT group_concat(' + ' || CASE WHEN json_extract(e.value, '$.kind') = 'removal' THEN 'senza ' || json_extract(e.value, '$.name')
                             WHEN json_extract(e.value, '$.default') AND json_extract(e.value, '$.price_cents') = 0 THEN NULL
                             ELSE json_extract(e.value, '$.name') END, '')
                                  FROM json_each(l.modifiers) e), '') AS item
              FROM order_lines l WHERE l.order_id = o.id ORDER BY l.line_no)) AS items,
       printf('%d.%02d', o.total_cents / 100, o.total_cents % 100) AS total_eur,
       o.note
FROM orders o JOIN users u ON u.id = o.user_id
ORDER BY o.pickup_at, o.created_at;

CREATE VIEW pizza_changes AS
SELECT p.name AS pizza,
       h.change,
       h.old_name,
       h.new_name,
       CASE WHEN h.old_price_cents IS NULL THEN NULL
            ELSE printf('%d.%02d', h.old_price_cents / 100, h.old_price_cents % 100) END AS old_price_eur,
       printf('%d.%02d', h.new_price_cents / 100, h.new_price_cents % 100) AS new_price_eur,
       h.version,
       h.changed_at
FROM pizza_history h JOIN pizzas p ON p.id = h.pizza_id
ORDER BY h.id;

CREATE VIEW pizza_views AS
SELECT c.pizza_id, p.name, c.views, c.pushed, c.random, c.deep_links, c.imported
FROM pizza_view_counts c JOIN pizzas p ON p.id = c.pizza_id
WHERE c.views > 0;

CREATE VIEW slot_capacity AS
SELECT s.service_day,
       printf('%02d:%02d', (s.local_minute / 60) % 24, s.local_minute % 60) AS local_time,
       s.pickup_at,
       s.booked,
       s.capacity,
       max(s.capacity - s.booked, 0) AS remaining,
       coalesce(r.rule, 'slot-capacity') AS capacity_from
FROM slot_loads s LEFT JOIN capacity_rules r ON r.id = s.capacity_rule_id;

CREATE VIEW slot_override_allowance AS
SELECT c.pickup_at, sum(c.pizzas) AS pizzas
FROM capacity_overrides c JOIN orders o ON o.id = c.order_id
WHERE o.pickup_at = c.pickup_at AND o.status <> 'cancelled' AND c.station_id IS NULL
GROUP BY c.pickup_at;

CREATE VIEW sold_out AS
SELECT 'item' AS kind, name, stock_left, stock_until FROM pizzas
WHERE stock_left IS NOT NULL AND (stock_until IS NULL OR stock_until > strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
UNION ALL
SELECT 'modifier', name, stock_left, stock_until FROM modifiers
WHERE stock_left IS NOT NULL AND (stock_until IS NULL OR stock_until > strftime('%Y-%m-%dT%H:%M:%fZ', 'now'));

CREATE VIEW station_capacity_candidates AS
SELECT r.station_id, r.id AS rule_id, r.capacity, r.day, r.weekday, r.start_minute, r.end_minute,
       CASE WHEN r.day IS NULL THEN 1 ELSE 0 END AS rank, r.end_minute - r.start_minute AS width
FROM station_capacity_rules r
UNION ALL
SELECT s.id, NULL, s.capacity, NULL, NULL, 0, 2881, 2, 0 FROM stations s WHERE s.holds_slot_capacity = 0;

CREATE VIEW station_override_allowance AS
SELECT c.station_id, c.pickup_at, sum(c.pizzas) AS pieces
FROM capacity_overrides c JOIN orders o ON o.id = c.order_id
WHERE o.pickup_at = c.pickup_at AND o.status <> 'cancelled' AND c.station_id IS NOT NULL
GROUP BY c.station_id, c.pickup_at;

CREATE VIEW station_slot_capacity AS
SELECT x.station, x.station_id, x.service_day, x.local_time, x.pickup_at, x.booked, x.capacity,
       CASE WHEN x.capacity IS NULL THEN NULL ELSE max(x.capacity - x.booked, 0) END AS remaining,
       CASE WHEN x.rule_id IS NOT NULL THEN (SELECT r.rule FROM station_capacity_rules r WHERE r.id = x.rule_id)
            WHEN x.capacity IS NOT NULL THEN 'station-capacity' END AS capacity_from
FROM (
    SELECT t.name AS station, l.station_id, s.service_day,
           printf('%02d:%02d', (s.local_minute / 60) % 24, s.local_minute % 60) AS local_time,
           l.pickup_at, l.booked,
           (SELECT c.capacity FROM station_capacity_candidates c
            WHERE c.station_id = l.station_id
                  AND (c.day = s.service_day OR c.weekday = (CAST(strftime('%w', s.service_day) AS INTEGER) + 6) % 7 + 1 OR c.rank = 2)
                  AND c.start_minute <= s.local_minute AND s.local_minute < c.end_minute
            ORDER BY c.rank, c.width LIMIT 1) AS capacity,
           (SELECT c.rule_id FROM station_capacity_candidates c
            WHERE c.station_id = l.station_id
                  AND (c.day = s.service_day OR c.weekday = (CAST(strftime('%w', s.service_day) AS INTEGER) + 6) % 7 + 1 OR c.rank = 2)
                  AND c.start_minute <= s.local_minute AND s.local_minute < c.end_minute
            ORDER BY c.rank, c.width LIMIT 1) AS rule_id
    FROM station_loads l
    JOIN stations t ON t.id = l.station_id
    JOIN slot_loads s ON s.pickup_at = l.pickup_at
) x;

CREATE VIEW weekly_hours_minutes AS
SELECT id,
       weekday,
       (weekday - 1) * 1440 + CAST(substr(opens_at, 1, 2) AS INTEGER) * 60 + CAST(substr(opens_at, 4, 2) AS INTEGER) AS starts,
       CASE WHEN closes_at > opens_at
            THEN (CAST(substr(closes_at, 1, 2) AS INTEGER) * 60 + CAST(substr(closes_at, 4, 2) AS INTEGER))
                 - (CAST(substr(opens_at, 1, 2) AS INTEGER) * 60 + CAST(substr(opens_at, 4, 2) AS INTEGER))
            ELSE 1440 + (CAST(substr(closes_at, 1, 2) AS INTEGER) * 60 + CAST(substr(closes_at, 4, 2) AS INTEGER))
                 - (CAST(substr(opens_at, 1, 2) AS INTEGER) * 60 + CAST(substr(opens_at, 4, 2) AS INTEGER))
       END AS length
FROM weekly_hours;

CREATE TRIGGER allergens_fixed_delete BEFORE DELETE ON allergens
BEGIN
    SELECT RAISE(ABORT, 'allergens_fixed: the 14 allergens are the EU''s (Regulation 1169/2011, Annex II)');
END;

CREATE TRIGGER allergens_fixed_insert BEFORE INSERT ON allergens
BEGIN
    SELECT RAISE(ABORT, 'allergens_fixed: the 14 allergens are the EU''s (Regulation 1169/2011, Annex II)');
END;

CREATE TRIGGER allergens_fixed_update BEFORE UPDATE ON allergens
BEGIN
    SELECT RAISE(ABORT, 'allergens_fixed: the 14 allergens are the EU''s (Regulation 1169/2011, Annex II)');
END;

CREATE TRIGGER allergens_never_replaced BEFORE INSERT ON allergens
WHEN NEW.bit > 0 AND EXISTS (SELECT 1 FROM allergens WHERE bit = NEW.bit)
BEGIN
    SELECT RAISE(ABORT, 'row_never_replaced: a row of allergens is never replaced (REPLACE would delete it without its triggers); UPDATE it where the table allows, or insert a new row');
END;

CREATE TRIGGER audit_capacity_delete AFTER DELETE ON capacity_rules
BEGIN
    INSERT INTO audit_log (at, actor, source, object, action, old)
    SELECT coalesce(c.at, strftime('%Y-%m-%dT%H:%M:%fZ', 'now')), c.actor, coalesce(c.source, 'sql'), 'capacity', 'remove',
           json_object('rule', OLD.rule, 'capacity', OLD.capacity)
    FROM audit_context c WHERE c.id = 1;
END;

CREATE TRIGGER audit_capacity_insert AFTER INSERT ON capacity_rules
BEGIN
    INSERT INTO audit_log (at, actor, source, object, action, new)
    SELECT coalesce(c.at, strftime('%Y-%m-%dT%H:%M:%fZ', 'now')), c.actor, coalesce(c.source, 'sql'), 'capacity', 'set',
           json_object('rule', NEW.rule, 'capacity', NEW.capacity)
    FROM audit_context c WHERE c.id = 1;
END;

CREATE TRIGGER audit_capacity_update AFTER UPDATE OF capacity ON capacity_rules
WHEN OLD.capacity IS NOT NEW.capacity
BEGIN
    INSERT INTO audit_log (at, actor, source, object, action, old, new)
    SELECT coalesce(c.at, strftime('%Y-%m-%dT%H:%M:%fZ', 'now')), c.actor, coalesce(c.source, 'sql'), 'capacity', 'set',
           json_object('rule', OLD.rule, 'capacity', OLD.capacity), json_object('rule', NEW.rule, 'capacity', NEW.capacity)
    FROM audit_context c WHERE c.id = 1;
END;

CREATE TRIGGER audit_categories_delete AFTER DELETE ON categories
BEGIN
    INSERT INTO audit_log (at, actor, source, object, action, old)
    SELECT coalesce(c.at, strftime('%Y-%m-%dT%H:%M:%fZ', 'now')), c.actor, coalesce(c.source, 'sql'), 'category:' || OLD.id, 'remove',
           json_object('name', OLD.name, 'position', OLD.position, 'uses_oven', OLD.uses_oven)
    FROM audit_context c WHERE c.id = 1;
END;

CREATE TRIGGER audit_categories_insert AFTER INSERT ON categories
BEGIN
    INSERT INTO audit_log (at, actor, source, object, action, new)
    SELECT coalesce(c.at, strftime('%Y-%m-%dT%H:%M:%fZ', 'now')), c.actor, coalesce(c.source, 'sql'), 'category:' || NEW.id, 'add',
           json_object('name', NEW.name, 'position', NEW.position, 'uses_oven', NEW.uses_oven, 'station_id', NEW.station_id)
    FROM audit_context c WHERE c.id = 1;
END;

CREATE TRIGGER audit_categories_update AFTER UPDATE ON categories
WHEN OLD.name IS NOT NEW.name OR OLD.position IS NOT NEW.position OR OLD.uses_oven IS NOT NEW.uses_oven
  OR OLD.station_id IS NOT NEW.station_id
BEGIN
    INSERT INTO audit_log (at, actor, source, object, action, old, new)
    SELECT coalesce(c.at, strftime('%Y-%m-%dT%H:%M:%fZ', 'now')), c.actor, coalesce(c.source, 'sql'), 'category:' || NEW.id, 'edit',
           json_object('name', OLD.name, 'position', OLD.position, 'uses_oven', OLD.uses_oven, 'station_id', OLD.station_id),
           json_object('name', NEW.name, 'position', NEW.position, 'uses_oven', NEW.uses_oven, 'station_id', NEW.station_id)
    FROM audit_context c WHERE c.id = 1;
END;

CREATE TRIGGER audit_categories_vat AFTER UPDATE OF vat_rate_bp ON categories
WHEN OLD.vat_rate_bp IS NOT NEW.vat_rate_bp
BEGIN
    INSERT INTO audit_log (at, actor, source, object, action, old, new)
    SELECT coalesce(c.at, strftime('%Y-%m-%dT%H:%M:%fZ', 'now')), c.actor, coalesce(c.source, 'sql'), 'category:' || NEW.id,
           'vat', json_object('vat_rate_bp', OLD.vat_rate_bp), json_object('vat_rate_bp', NEW.vat_rate_bp)
    FROM audit_context c WHERE c.id = 1;
END;

CREATE TRIGGER audit_context_kept BEFORE DELETE ON audit_context
BEGIN
    SELECT RAISE(ABORT, 'audit_context: the row is required');
END;

CREATE TRIGGER audit_context_library_only BEFORE UPDATE ON audit_context
WHEN NEW.actor IS NOT NULL OR NEW.source IS NOT NULL OR NEW.at IS NOT NULL
BEGIN
    SELECT RAISE(ABORT, 'audit_context_library_only: only Pizzeria says who acts') WHERE pizzeria_connection() IS NOT 1;
END;

CREATE TRIGGER audit_context_never_replaced BEFORE INSERT ON audit_context
WHEN NEW.id > 0 AND EXISTS (SELECT 1 FROM audit_context WHERE id = NEW.id)
BEGIN
    SELECT RAISE(ABORT, 'row_never_replaced: a row of audit_context is never replaced (REPLACE would delete it without its triggers); UPDATE it where the table allows, or insert a new row');
END;

CREATE TRIGGER audit_exceptions_delete AFTER DELETE ON schedule_exceptions
BEGIN
    INSERT INTO audit_log (at, actor, source, object, action, old)
    SELECT coalesce(c.at, strftime('%Y-%m-%dT%H:%M:%fZ', 'now')), c.actor, coalesce(c.source, 'sql'), 'hours', 'remove',
           json_object('day', OLD.day, 'kind', OLD.kind, 'opens_at', OLD.opens_at, 'closes_at', OLD.closes_at, 'reason', OLD.reason)
    FROM audit_context c WHERE c.id = 1;
END;

CREATE TRIGGER audit_exceptions_insert AFTER INSERT ON schedule_exceptions
BEGIN
    INSERT INTO audit_log (at, actor, source, object, action, new)
    SELECT coalesce(c.at, strftime('%Y-%m-%dT%H:%M:%fZ', 'now')), c.actor, coalesce(c.source, 'sql'), 'hours',
           CASE NEW.kind WHEN 'closed' THEN 'close' ELSE NEW.kind END,
           json_object('day', NEW.day, 'kind', NEW.kind, 'opens_at', NEW.opens_at, 'closes_at', NEW.closes_at, 'reason', NEW.reason)
    FROM audit_context c WHERE c.id = 1;
END;

CREATE TRIGGER audit_log_append_only_delete BEFORE DELETE ON audit_log
BEGIN
    SELECT RAISE(ABORT, 'history_append_only: audit_log is append-only');
END;

CREATE TRIGGER audit_log_append_only_update BEFORE UPDATE ON audit_log
WHEN NOT (NEW.id IS OLD.id AND NEW.at IS OLD.at AND NEW.actor IS OLD.actor AND NEW.source IS OLD.source
          AND NEW.object IS OLD.object AND NEW.action IS OLD.action AND NEW.old IS NULL AND NEW.new IS NULL
          AND NEW.history_id IS OLD.history_id
          AND OLD.object GLOB 'user:*' AND EXISTS (SELECT 1 FROM user_erasures WHERE user_id = substr(OLD.object, 6)))
BEGIN
    SELECT RAISE(ABORT, 'history_append_only: audit_log is append-only (but for an erased customer''s values)');
END;

CREATE TRIGGER audit_log_never_replaced BEFORE INSERT ON audit_log
WHEN NEW.id > 0 AND EXISTS (SELECT 1 FROM audit_log WHERE id = NEW.id)
BEGIN
    SELECT RAISE(ABORT, 'row_never_replaced: a row of audit_log is never replaced (REPLACE would delete it without its triggers); UPDATE it where the table allows, or insert a new row');
END;

CREATE TRIGGER audit_modifier_groups_insert AFTER INSERT ON modifier_groups
BEGIN
    INSERT INTO audit_log (at, actor, source, object, action, new)
    SELECT coalesce(c.at, strftime('%Y-%m-%dT%H:%M:%fZ', 'now')), c.actor, coalesce(c.source, 'sql'), 'modifier_group:' || NEW.id, 'add',
           json_object('name', NEW.name, 'min_selected', NEW.min_selected, 'max_selected', NEW.max_selected,
                       'kind', NEW.kind, 'default_modifier_id', NEW.default_modifier_id)
    FROM audit_context c WHERE c.id = 1;
END;

CREATE TRIGGER audit_modifier_groups_update AFTER UPDATE ON modifier_groups
WHEN OLD.name IS NOT NEW.name OR OLD.min_selected IS NOT NEW.min_selected OR OLD.max_selected IS NOT NEW.max_selected
  OR OLD.position IS NOT NEW.position OR OLD.kind IS NOT NEW.kind OR OLD.default_modifier_id IS NOT NEW.default_modifier_id
BEGIN
    INSERT INTO audit_log (at, actor, source, object, action, old, new)
    SELECT coalesce(c.at, strftime('%Y-%m-%dT%H:%M:%fZ', 'now')), c.actor, coalesce(c.source, 'sql'), 'modifier_group:' || NEW.id, 'edit',
           json_object('name', OLD.name, 'min_selected', OLD.min_selected, 'max_selected', OLD.max_selected, 'position', OLD.position,
                       'kind', OLD.kind, 'default_modifier_id', OLD.default_modifier_id),
           json_object('name', NEW.name, 'min_selected', NEW.min_selected, 'max_selected', NEW.max_selected, 'position', NEW.position,
                       'kind', NEW.kind, 'default_modifier_id', NEW.default_modifier_id)
    FROM audit_context c WHERE c.id = 1;
END;

CREATE TRIGGER audit_modifier_prices_change AFTER INSERT ON modifier_prices
BEGIN
    INSERT INTO audit_log (at, actor, source, object, action, new)
    SELECT coalesce(c.at, strftime('%Y-%m-%dT%H:%M:%fZ', 'now')), c.actor, coalesce(c.source, 'sql'), 'modifier:' || NEW.modifier_id, 'variant_price',
           json_object('variant_name', NEW.variant_name, 'price_cents', NEW.price_cents)
    FROM audit_context c WHERE c.id = 1;
END;

CREATE TRIGGER audit_modifiers_insert AFTER INSERT ON modifiers
BEGIN
    INSERT INTO audit_log (at, actor, source, object, action, new)
    SELECT coalesce(c.at, strftime('%Y-%m-%dT%H:%M:%fZ', 'now')), c.actor, coalesce(c.source, 'sql'), 'modifier:' || NEW.id, 'add',
           json_object('group_id', NEW.group_id, 'name', NEW.name, 'price_cents', NEW.price_cents, 'allergens', NEW.allergens)
    FROM audit_context c WHERE c.id = 1;
END;

CREATE TRIGGER audit_modifiers_stock AFTER UPDATE OF stock_changes ON modifiers
WHEN OLD.stock_changes IS NOT NEW.stock_changes
BEGIN
    INSERT INTO audit_log (at, actor, source, object, action, old, new)
    SELECT coalesce(c.at, strftime('%Y-%m-%dT%H:%M:%fZ', 'now')), c.actor, coalesce(c.source, 'sql'), 'modifier:' || NEW.id,
           CASE WHEN NEW.stock_left IS NULL THEN 'available' WHEN NEW.stock_left = 0 THEN 'sold_out' ELSE 'stock' END,
           json_object('stock_left', OLD.stock_left, 'stock_until', OLD.stock_until),
           json_object('stock_left', NEW.stock_left, 'stock_until', NEW.stock_until)
    FROM audit_context c WHERE c.id = 1;
END;

CREATE TRIGGER audit_modifiers_update AFTER UPDATE ON modifiers
WHEN OLD.name IS NOT NEW.name OR OLD.price_cents IS NOT NEW.price_cents OR OLD.allergens IS NOT NEW.allergens
  OR OLD.position IS NOT NEW.position OR OLD.archived_at IS NOT NEW.archived_at
BEGIN
    INSERT INTO audit_log (at, actor, source, object, action, old, new)
    SELECT coalesce(c.at, strftime('%Y-%m-%dT%H:%M:%fZ', 'now')), c.actor, coalesce(c.source, 'sql'), 'modifier:' || NEW.id,
           CASE WHEN OLD.archived_at IS NULL AND NEW.archived_at IS NOT NULL THEN 'archive'
                WHEN OLD.archived_at IS NOT NULL AND NEW.archived_at IS NULL THEN 'restore'
                ELSE 'edit' END,
           json_object('name', OLD.name, 'price_cents', OLD.price_cents, 'allergens', OLD.allergens, 'archived_at', OLD.archived_at),
           json_object('name', NEW.name, 'price_cents', NEW.price_cents, 'allergens', NEW.allergens, 'archived_at', NEW.archived_at)
    FROM audit_context c WHERE c.id = 1;
END;

CREATE TRIGGER audit_notify_cursors_delete AFTER DELETE ON notify_cursors
BEGIN
    INSERT INTO audit_log (at, actor, source, object, action, old, new)
    SELECT coalesce(c.at, strftime('%Y-%m-%dT%H:%M:%fZ', 'now')), c.actor, coalesce(c.source, 'sql'), 'notifier:' || OLD.name,
           'remove', json_object('after_event', OLD.after_event, 'kinds', OLD.kinds), NULL
    FROM audit_context c WHERE c.id = 1;
END;

CREATE TRIGGER audit_notify_cursors_insert AFTER INSERT ON notify_cursors
BEGIN
    INSERT INTO audit_log (at, actor, source, object, action, old, new)
    SELECT coalesce(c.at, strftime('%Y-%m-%dT%H:%M:%fZ', 'now')), c.actor, coalesce(c.source, 'sql'), 'notifier:' || NEW.name,
           'add', NULL, json_object('after_event', NEW.after_event, 'kinds', NEW.kinds)
    FROM audit_context c WHERE c.id = 1;
END;

CREATE TRIGGER audit_notify_cursors_update AFTER UPDATE OF after_event, kinds ON notify_cursors
WHEN (NEW.after_event IS NOT OLD.after_event OR NEW.kinds IS NOT OLD.kinds)
 AND ((SELECT source FROM audit_context WHERE id = 1) IS NOT NULL
      OR NOT EXISTS (SELECT 1 FROM pragma_table_list('pizzeria_connection') WHERE schema = 'temp'))
BEGIN
    INSERT INTO audit_log (at, actor, source, object, action, old, new)
    SELECT coalesce(c.at, strftime('%Y-%m-%dT%H:%M:%fZ', 'now')), c.actor, coalesce(c.source, 'sql'), 'notifier:' || NEW.name,
           CASE WHEN NEW.kinds IS NOT OLD.kinds THEN 'set' ELSE 'reset' END,
           json_object('after_event', OLD.after_event, 'kinds', OLD.kinds),
           json_object('after_event', NEW.after_event, 'kinds', NEW.kinds)
    FROM audit_context c WHERE c.id = 1;
END;

CREATE TRIGGER audit_pizza_modifier_groups_delete AFTER DELETE ON pizza_modifier_groups
BEGIN
    INSERT INTO audit_log (at, actor, source, object, action, old)
    SELECT coalesce(c.at, strftime('%Y-%m-%dT%H:%M:%fZ', 'now')), c.actor, coalesce(c.source, 'sql'), 'pizza:' || OLD.pizza_id, 'group_detach',
           json_object('group_id', OLD.group_id)
    FROM audit_context c WHERE c.id = 1;
END;

CREATE TRIGGER audit_pizza_modifier_groups_insert AFTER INSERT ON pizza_modifier_groups
BEGIN
    INSERT INTO audit_log (at, actor, source, object, action, new)
    SELECT coalesce(c.at, strftime('%Y-%m-%dT%H:%M:%fZ', 'now')), c.actor, coalesce(c.source, 'sql'), 'pizza:' || NEW.pizza_id, 'group_attach',
           json_object('group_id', NEW.group_id)
    FROM audit_context c WHERE c.id = 1;
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

CREATE TRIGGER audit_pizzas_allergens AFTER UPDATE OF allergens ON pizzas
WHEN OLD.allergens IS NOT NEW.allergens
BEGIN
    INSERT INTO audit_log (at, actor, source, object, action, old, new)
    SELECT coalesce(c.at, strftime('%Y-%m-%dT%H:%M:%fZ', 'now')), c.actor, coalesce(c.source, 'sql'), 'pizza:' || NEW.id, 'allergens',
           json_object('allergens', OLD.allergens), json_object('allergens', NEW.allergens)
    FROM audit_context c WHERE c.id = 1;
END;

CREATE TRIGGER audit_pizzas_archive_time AFTER UPDATE OF archived_at ON pizzas
WHEN OLD.archived_at IS NOT NULL AND NEW.archived_at IS NOT NULL AND OLD.archived_at IS NOT NEW.archived_at
  AND OLD.name IS NEW.name AND OLD.price_cents IS NEW.price_cents
BEGIN
    INSERT INTO audit_log (at, actor, source, object, action, old, new)
    SELECT coalesce(c.at, strftime('%Y-%m-%dT%H:%M:%fZ', 'now')), c.actor, coalesce(c.source, 'sql'), 'pizza:' || NEW.id, 'edit',
           json_object('name', OLD.name, 'price_cents', OLD.price_cents, 'archived_at', OLD.archived_at),
           json_object('name', NEW.name, 'price_cents', NEW.price_cents, 'archived_at', NEW.archived_at)
    FROM audit_context c WHERE c.id = 1;
END;

CREATE TRIGGER audit_pizzas_category AFTER UPDATE OF category_id ON pizzas
WHEN OLD.category_id IS NOT NEW.category_id
BEGIN
    INSERT INTO audit_log (at, actor, source, object, action, old, new)
    SELECT coalesce(c.at, strftime('%Y-%m-%dT%H:%M:%fZ', 'now')), c.actor, coalesce(c.source, 'sql'), 'pizza:' || NEW.id, 'category',
           json_object('category_id', OLD.category_id), json_object('category_id', NEW.category_id)
    FROM audit_context c WHERE c.id = 1;
END;

CREATE TRIGGER audit_pizzas_stock AFTER UPDATE OF stock_changes ON pizzas
WHEN OLD.stock_changes IS NOT NEW.stock_changes
BEGIN
    INSERT INTO audit_log (at, actor, source, object, action, old, new)
    SELECT coalesce(c.at, strftime('%Y-%m-%dT%H:%M:%fZ', 'now')), c.actor, coalesce(c.source, 'sql'), 'pizza:' || NEW.id,
           CASE WHEN NEW.stock_left IS NULL THEN 'available' WHEN NEW.stock_left = 0 THEN 'sold_out' ELSE 'stock' END,
           json_object('stock_left', OLD.stock_left, 'stock_until', OLD.stock_until),
           json_object('stock_left', NEW.stock_left, 'stock_until', NEW.stock_until)
    FROM audit_context c WHERE c.id = 1;
END;

CREATE TRIGGER audit_settings_require_staff AFTER UPDATE OF require_staff ON settings
WHEN OLD.require_staff IS NOT NEW.require_staff
BEGIN
    INSERT INTO audit_log (at, actor, source, object, action, old, new)
    SELECT coalesce(c.at, strftime('%Y-%m-%dT%H:%M:%fZ', 'now')), c.actor, coalesce(c.source, 'sql'), 'settings', 'set',
           json_object('require_staff', OLD.require_staff), json_object('require_staff', NEW.require_staff)
    FROM audit_context c WHERE c.id = 1;
END;

CREATE TRIGGER audit_settings_update AFTER UPDATE ON settings
WHEN OLD.slot_minutes IS NOT NEW.slot_minutes OR OLD.slot_capacity IS NOT NEW.slot_capacity OR OLD.time_zone IS NOT NEW.time_zone
  OR OLD.booking_horizon_days IS NOT NEW.booking_horizon_days OR OLD.lead_minutes IS NOT NEW.lead_minutes
  OR OLD.paused IS NOT NEW.paused OR OLD.paused_until IS NOT NEW.paused_until OR OLD.pause_reason IS NOT NEW.pause_reason
  OR OLD.busy_minutes IS NOT NEW.busy_minutes OR OLD.busy_until IS NOT NEW.busy_until
BEGIN
    INSERT INTO audit_log (at, actor, source, object, action, old, new)
    SELECT coalesce(c.at, strftime('%Y-%m-%dT%H:%M:%fZ', 'now')), c.actor, coalesce(c.source, 'sql'), 'settings',
           CASE WHEN OLD.paused IS NOT NEW.paused OR OLD.paused_until IS NOT NEW.paused_until OR OLD.pause_reason IS NOT NEW.pause_reason
                     THEN CASE NEW.paused WHEN 1 THEN 'pause' ELSE 'resume' END
                WHEN OLD.busy_minutes IS NOT NEW.busy_minutes OR OLD.busy_until IS NOT NEW.busy_until THEN 'busy'
                ELSE 'set' END,
           json_object('slot_minutes', OLD.slot_minutes, 'slot_capacity', OLD.slot_capacity, 'time_zone', OLD.time_zone,
                       'booking_horizon_days', OLD.booking_horizon_days, 'lead_minutes', OLD.lead_minutes, 'paused', OLD.paused,
                       'paused_until', OLD.paused_until, 'pause_reason', OLD.pause_reason, 'busy_minutes', OLD.busy_minutes,
                       'busy_until', OLD.busy_until),
           json_object('slot_minutes', NEW.slot_minutes, 'slot_capacity', NEW.slot_capacity, 'time_zone', NEW.time_zone,
                       'booking_horizon_days', NEW.booking_horizon_days, 'lead_minutes', NEW.lead_minutes, 'paused', NEW.paused,
                       'paused_until', NEW.paused_until, 'pause_reason', NEW.pause_reason, 'busy_minutes', NEW.busy_minutes,
                       'busy_until', NEW.busy_until)
    FROM audit_context c WHERE c.id = 1;
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

CREATE TRIGGER audit_staff_delete AFTER DELETE ON staff
BEGIN
    INSERT INTO audit_log (at, actor, source, object, action, old)
    SELECT coalesce(c.at, strftime('%Y-%m-%dT%H:%M:%fZ', 'now')), c.actor, coalesce(c.source, 'sql'), 'staff:' || OLD.name, 'remove',
           json_object('name', OLD.name, 'role', OLD.role)
    FROM audit_context c WHERE c.id = 1;
END;

CREATE TRIGGER audit_staff_insert AFTER INSERT ON staff
BEGIN
    INSERT INTO audit_log (at, actor, source, object, action, new)
    SELECT coalesce(c.at, strftime('%Y-%m-%dT%H:%M:%fZ', 'now')), c.actor, coalesce(c.source, 'sql'), 'staff:' || NEW.name, 'add',
           json_object('name', NEW.name, 'role', NEW.role)
    FROM audit_context c WHERE c.id = 1;
END;

CREATE TRIGGER audit_staff_update AFTER UPDATE ON staff
BEGIN
    INSERT INTO audit_log (at, actor, source, object, action, old, new)
    SELECT coalesce(c.at, strftime('%Y-%m-%dT%H:%M:%fZ', 'now')), c.actor, coalesce(c.source, 'sql'), 'staff:' || NEW.name, 'edit',
           json_object('name', OLD.name, 'role', OLD.role), json_object('name', NEW.name, 'role', NEW.role)
    FROM audit_context c WHERE c.id = 1;
END;

CREATE TRIGGER audit_station_bumps_insert AFTER INSERT ON station_bumps
BEGIN
    INSERT INTO audit_log (at, actor, source, object, action, new)
    SELECT coalesce(c.at, NEW.at), coalesce(c.actor, NEW.actor), coalesce(c.source, 'sql'), 'order:' || NEW.order_id, 'bump',
           json_object('station_id', NEW.station_id, 'station', (SELECT name FROM stations WHERE id = NEW.station_id))
    FROM audit_context c WHERE c.id = 1;
END;

CREATE TRIGGER audit_station_capacity_delete AFTER DELETE ON station_capacity_rules
BEGIN
    INSERT INTO audit_log (at, actor, source, object, action, old)
    SELECT coalesce(c.at, strftime('%Y-%m-%dT%H:%M:%fZ', 'now')), c.actor, coalesce(c.source, 'sql'), 'station:' || OLD.station_id,
           'capacity remove', json_object('rule', OLD.rule, 'capacity', OLD.capacity)
    FROM audit_context c WHERE c.id = 1;
END;

CREATE TRIGGER audit_station_capacity_insert AFTER INSERT ON station_capacity_rules
BEGIN
    INSERT INTO audit_log (at, actor, source, object, action, new)
    SELECT coalesce(c.at, strftime('%Y-%m-%dT%H:%M:%fZ', 'now')), c.actor, coalesce(c.source, 'sql'), 'station:' || NEW.station_id,
           'capacity set', json_object('rule', NEW.rule, 'capacity', NEW.capacity)
    FROM audit_context c WHERE c.id = 1;
END;

CREATE TRIGGER audit_station_capacity_update AFTER UPDATE OF capacity ON station_capacity_rules
WHEN OLD.capacity IS NOT NEW.capacity
BEGIN
    INSERT INTO audit_log (at, actor, source, object, action, old, new)
    SELECT coalesce(c.at, strftime('%Y-%m-%dT%H:%M:%fZ', 'now')), c.actor, coalesce(c.source, 'sql'), 'station:' || NEW.station_id,
           'capacity set', json_object('rule', OLD.rule, 'capacity', OLD.capacity), json_object('rule', NEW.rule, 'capacity', NEW.capacity)
    FROM audit_context c WHERE c.id = 1;
END;

CREATE TRIGGER audit_stations_delete AFTER DELETE ON stations
BEGIN
    INSERT INTO audit_log (at, actor, source, object, action, old)
    SELECT coalesce(c.at, strftime('%Y-%m-%dT%H:%M:%fZ', 'now')), c.actor, coalesce(c.source, 'sql'), 'station:' || OLD.id, 'remove',
           json_object('name', OLD.name, 'capacity', OLD.capacity, 'position', OLD.position)
    FROM audit_context c WHERE c.id = 1;
END;

CREATE TRIGGER audit_stations_insert AFTER INSERT ON stations
BEGIN
    INSERT INTO audit_log (at, actor, source, object, action, new)
    SELECT coalesce(c.at, strftime('%Y-%m-%dT%H:%M:%fZ', 'now')), c.actor, coalesce(c.source, 'sql'), 'station:' || NEW.id, 'add',
           json_object('name', NEW.name, 'capacity', NEW.capacity, 'position', NEW.position)
    FROM audit_context c WHERE c.id = 1;
END;

CREATE TRIGGER audit_stations_update AFTER UPDATE ON stations
WHEN OLD.name IS NOT NEW.name OR OLD.capacity IS NOT NEW.capacity OR OLD.position IS NOT NEW.position
BEGIN
    INSERT INTO audit_log (at, actor, source, object, action, old, new)
    SELECT coalesce(c.at, strftime('%Y-%m-%dT%H:%M:%fZ', 'now')), c.actor, coalesce(c.source, 'sql'), 'station:' || NEW.id, 'edit',
           json_object('name', OLD.name, 'capacity', OLD.capacity, 'position', OLD.position),
           json_object('name', NEW.name, 'capacity', NEW.capacity, 'position', NEW.position)
    FROM audit_context c WHERE c.id = 1;
END;

CREATE TRIGGER audit_users_insert AFTER INSERT ON users
BEGIN
    INSERT INTO audit_log (at, actor, source, object, action, new)
    SELECT coalesce(c.at, strftime('%Y-%m-%dT%H:%M:%fZ', 'now')), c.actor, coalesce(c.source, 'sql'), 'user:' || NEW.id, 'add',
           json_object('handle', NEW.handle, 'display_name', NEW.display_name, 'phone', NEW.phone)
    FROM audit_context c WHERE c.id = 1;
END;

CREATE TRIGGER audit_users_update AFTER UPDATE OF handle, display_name, phone ON users
WHEN OLD.handle IS NOT NEW.handle OR OLD.display_name IS NOT NEW.display_name OR OLD.phone IS NOT NEW.phone
BEGIN
    INSERT INTO audit_log (at, actor, source, object, action, old, new)
    SELECT coalesce(c.at, strftime('%Y-%m-%dT%H:%M:%fZ', 'now')), c.actor, coalesce(c.source, 'sql'), 'user:' || NEW.id,
           CASE WHEN e.user_id IS NULL THEN 'edit' ELSE 'erase' END,
           CASE WHEN e.user_id IS NULL THEN json_object('handle', OLD.handle, 'display_name', OLD.display_name, 'phone', OLD.phone) END,
           CASE WHEN e.user_id IS NULL THEN json_object('handle', NEW.handle, 'display_name', NEW.display_name, 'phone', NEW.phone)
                ELSE json_object('handle', NEW.handle) END
    FROM audit_context c LEFT JOIN user_erasures e ON e.user_id = NEW.id WHERE c.id = 1;
END;

CREATE TRIGGER audit_weekly_hours_delete AFTER DELETE ON weekly_hours
BEGIN
    INSERT INTO audit_log (at, actor, source, object, action, old)
    SELECT coalesce(c.at, strftime('%Y-%m-%dT%H:%M:%fZ', 'now')), c.actor, coalesce(c.source, 'sql'), 'hours', 'remove',
           json_object('weekday', OLD.weekday, 'opens_at', OLD.opens_at, 'closes_at', OLD.closes_at)
    FROM audit_context c WHERE c.id = 1;
END;

CREATE TRIGGER audit_weekly_hours_insert AFTER INSERT ON weekly_hours
BEGIN
    INSERT INTO audit_log (at, actor, source, object, action, new)
    SELECT coalesce(c.at, strftime('%Y-%m-%dT%H:%M:%fZ', 'now')), c.actor, coalesce(c.source, 'sql'), 'hours', 'add',
           json_object('weekday', NEW.weekday, 'opens_at', NEW.opens_at, 'closes_at', NEW.closes_at)
    FROM audit_context c WHERE c.id = 1;
END;

CREATE TRIGGER capacity_overrides_append_only_delete BEFORE DELETE ON capacity_overrides
BEGIN
    SELECT RAISE(ABORT, 'capacity_overrides_append_only: an override is a record and is never deleted');
END;

CREATE TRIGGER capacity_overrides_append_only_update BEFORE UPDATE ON capacity_overrides
WHEN NOT (NEW.reason = '[erased]' AND NEW.id = OLD.id AND NEW.order_id = OLD.order_id AND NEW.pickup_at = OLD.pickup_at
          AND NEW.pizzas = OLD.pizzas AND NEW.actor = OLD.actor AND NEW.at = OLD.at
          AND NEW.station_id IS OLD.station_id
          AND EXISTS (SELECT 1 FROM orders o JOIN user_erasures e ON e.user_id = o.user_id WHERE o.id = OLD.order_id))
BEGIN
    SELECT RAISE(ABORT, 'capacity_overrides_append_only: an override is a record; only an erasure redacts its reason');
END;

CREATE TRIGGER capacity_overrides_never_replaced BEFORE INSERT ON capacity_overrides
WHEN NEW.id > 0 AND EXISTS (SELECT 1 FROM capacity_overrides WHERE id = NEW.id)
BEGIN
    SELECT RAISE(ABORT, 'row_never_replaced: a row of capacity_overrides is never replaced (REPLACE would delete it without its triggers); UPDATE it where the table allows, or insert a new row');
END;

CREATE TRIGGER capacity_overrides_station BEFORE INSERT ON capacity_overrides
WHEN NEW.station_id IS NOT NULL
 AND NOT EXISTS (SELECT 1 FROM stations t WHERE t.id = NEW.station_id AND t.holds_slot_capacity = 0)
BEGIN
    SELECT RAISE(ABORT, 'capacity_override_station: a station''s override names a station other than the one holding the slot capacity (whose override has no station_id)');
END;

CREATE TRIGGER capacity_rules_apply_delete AFTER DELETE ON capacity_rules
BEGIN
    UPDATE slot_loads SET local_minute = local_minute WHERE capacity_rule_id = OLD.id;
END;

CREATE TRIGGER capacity_rules_apply_insert AFTER INSERT ON capacity_rules
BEGIN
    UPDATE slot_loads SET local_minute = local_minute
    WHERE service_day = coalesce(NEW.day, service_day)
      AND (NEW.weekday IS NULL OR (CAST(strftime('%w', service_day) AS INTEGER) + 6) % 7 + 1 = NEW.weekday);
END;

CREATE TRIGGER capacity_rules_apply_update AFTER UPDATE OF capacity ON capacity_rules
BEGIN
    UPDATE slot_loads SET local_minute = local_minute WHERE capacity_rule_id = NEW.id;
END;

CREATE TRIGGER capacity_rules_delete_bump_generation AFTER DELETE ON capacity_rules
BEGIN
    UPDATE config_generation SET generation = generation + 1 WHERE id = 1;
END;

CREATE TRIGGER capacity_rules_fixed_range BEFORE UPDATE OF weekday, day, starts_at, ends_at ON capacity_rules
BEGIN
    SELECT RAISE(ABORT, 'capacity_rules_fixed_range: delete the rule and insert the new range');
END;

CREATE TRIGGER capacity_rules_insert_bump_generation AFTER INSERT ON capacity_rules
BEGIN
    UPDATE config_generation SET generation = generation + 1 WHERE id = 1;
END;

CREATE TRIGGER capacity_rules_never_replaced BEFORE INSERT ON capacity_rules
WHEN NEW.id > 0 AND EXISTS (SELECT 1 FROM capacity_rules WHERE id = NEW.id)
BEGIN
    SELECT RAISE(ABORT, 'row_never_replaced: a row of capacity_rules is never replaced (REPLACE would delete it without its triggers); UPDATE it where the table allows, or insert a new row');
END;

CREATE TRIGGER capacity_rules_no_partial_overlap BEFORE INSERT ON capacity_rules
WHEN EXISTS (
    SELECT 1 FROM capacity_rules r
    WHERE (r.weekday IS NEW.weekday AND r.day IS NEW.day)
      AND (CAST(substr(NEW.starts_at, 1, 2) AS INTEGER) * 60 + CAST(substr(NEW.starts_at, 4, 2) AS INTEGER)) < r.end_minute
      AND r.start_minute < (CAST(substr(NEW.ends_at, 1, 2) AS INTEGER) * 60 + CAST(substr(NEW.ends_at, 4, 2) AS INTEGER)
                            + CASE WHEN NEW.ends_at <= NEW.starts_at THEN 1440 ELSE 0 END)
      AND NOT (r.start_minute <= (CAST(substr(NEW.starts_at, 1, 2) AS INTEGER) * 60 + CAST(substr(NEW.starts_at, 4, 2) AS INTEGER))
               AND (CAST(substr(NEW.ends_at, 1, 2) AS INTEGER) * 60 + CAST(substr(NEW.ends_at, 4, 2) AS INTEGER)
                    + CASE WHEN NEW.ends_at <= NEW.starts_at THEN 1440 ELSE 0 END) <= r.end_minute)
      AND NOT ((CAST(substr(NEW.starts_at, 1, 2) AS INTEGER) * 60 + CAST(substr(NEW.starts_at, 4, 2) AS INTEGER)) <= r.start_minute
               AND r.end_minute <= (CAST(substr(NEW.ends_at, 1, 2) AS INTEGER) * 60 + CAST(substr(NEW.ends_at, 4, 2) AS INTEGER)
                                    + CASE WHEN NEW.ends_at <= NEW.starts_at THEN 1440 ELSE 0 END))
)
BEGIN
    SELECT RAISE(ABORT, 'capacity_rules_overlap: two rules of one kind on one day must be nested or apart');
END;

CREATE TRIGGER capacity_rules_update_bump_generation AFTER UPDATE ON capacity_rules
BEGIN
    UPDATE config_generation SET generation = generation + 1 WHERE id = 1;
END;

CREATE TRIGGER categories_id_fixed BEFORE UPDATE OF id ON categories
WHEN NEW.id IS NOT OLD.id
BEGIN
    SELECT RAISE(ABORT, 'a category keeps its id; rename it instead');
END;

CREATE TRIGGER categories_kept_while_shown BEFORE DELETE ON categories
WHEN EXISTS (SELECT 1 FROM navigation_stack WHERE category_id = OLD.id)
BEGIN
    SELECT RAISE(ABORT, 'category_shown: the category is on a user''s navigation stack (see SELECT handle FROM navigation_paths); move them back with pizzeria nav root HANDLE first');
END;

CREATE TRIGGER categories_kept_while_used BEFORE DELETE ON categories
WHEN EXISTS (SELECT 1 FROM pizzas WHERE category_id = OLD.id)
BEGIN
    SELECT RAISE(ABORT, 'category_in_use: the category still has items; move them to another category first');
END;

CREATE TRIGGER categories_never_replaced BEFORE INSERT ON categories
WHEN NEW.id > 0 AND EXISTS (SELECT 1 FROM categories WHERE id = NEW.id)
BEGIN
    SELECT RAISE(ABORT, 'row_never_replaced: a row of categories is never replaced (REPLACE would delete it without its triggers); UPDATE it where the table allows, or insert a new row');
END;

CREATE TRIGGER categories_station_insert AFTER INSERT ON categories
BEGIN
    UPDATE categories SET station_id = (SELECT id FROM stations WHERE holds_slot_capacity = 1)
    WHERE id = NEW.id AND NEW.station_id IS NULL AND NEW.uses_oven = 1;
    UPDATE categories SET uses_oven = (SELECT holds_slot_capacity FROM stations WHERE id = NEW.station_id)
    WHERE id = NEW.id AND NEW.station_id IS NOT NULL
      AND NEW.uses_oven IS NOT (SELECT holds_slot_capacity FROM stations WHERE id = NEW.station_id);
END;

CREATE TRIGGER categories_station_update AFTER UPDATE OF station_id ON categories
WHEN NEW.uses_oven IS NOT coalesce((SELECT holds_slot_capacity FROM stations WHERE id = NEW.station_id), 0)
BEGIN
    UPDATE categories SET uses_oven = coalesce((SELECT holds_slot_capacity FROM stations WHERE id = NEW.station_id), 0)
    WHERE id = NEW.id;
END;

CREATE TRIGGER categories_uses_oven_update AFTER UPDATE OF uses_oven ON categories
WHEN NEW.uses_oven IS NOT coalesce((SELECT holds_slot_capacity FROM stations WHERE id = NEW.station_id), 0)
BEGIN
    UPDATE categories SET station_id = CASE WHEN NEW.uses_oven = 1 THEN (SELECT id FROM stations WHERE holds_slot_capacity = 1) END
    WHERE id = NEW.id;
END;

CREATE TRIGGER config_generation_forward BEFORE UPDATE ON config_generation
WHEN NEW.generation <= OLD.generation OR NEW.id IS NOT OLD.id
BEGIN
    SELECT RAISE(ABORT, 'config_generation: the generation only moves forward');
END;

CREATE TRIGGER config_generation_kept BEFORE DELETE ON config_generation
BEGIN
    SELECT RAISE(ABORT, 'config_generation: the row is required');
END;

CREATE TRIGGER config_generation_never_replaced BEFORE INSERT ON config_generation
WHEN NEW.id > 0 AND EXISTS (SELECT 1 FROM config_generation WHERE id = NEW.id)
BEGIN
    SELECT RAISE(ABORT, 'row_never_replaced: a row of config_generation is never replaced (REPLACE would delete it without its triggers); UPDATE it where the table allows, or insert a new row');
END;

CREATE TRIGGER drawer_counts_append_only_delete BEFORE DELETE ON drawer_counts
BEGIN
    SELECT RAISE(ABORT, 'drawer_counts_append_only: a count is a record and is never deleted');
END;

CREATE TRIGGER drawer_counts_append_only_update BEFORE UPDATE ON drawer_counts
BEGIN
    SELECT RAISE(ABORT, 'drawer_counts_append_only: a count is a record; count again instead');
END;

CREATE TRIGGER drawer_counts_never_replaced BEFORE INSERT ON drawer_counts
WHEN NEW.id > 0 AND EXISTS (SELECT 1 FROM drawer_counts WHERE id = NEW.id)
BEGIN
    SELECT RAISE(ABORT, 'row_never_replaced: a row of drawer_counts is never replaced (REPLACE would delete it without its triggers); insert a new row');
END;

CREATE TRIGGER modifier_groups_at_most_30 BEFORE INSERT ON modifiers
WHEN (SELECT count(*) FROM modifiers WHERE group_id = NEW.group_id) >= 30
BEGIN
    SELECT RAISE(ABORT, 'modifier_group_full: a group has at most 30 modifiers');
END;

CREATE TRIGGER modifier_groups_kept_while_used BEFORE DELETE ON modifier_groups
WHEN EXISTS (SELECT 1 FROM modifiers WHERE group_id = OLD.id)
BEGIN
    SELECT RAISE(ABORT, 'modifier_group_in_use: the group still has modifiers; archive them instead');
END;

CREATE TRIGGER modifier_groups_kind_insert BEFORE INSERT ON modifier_groups
WHEN (NEW.kind = 'choice' AND (NEW.min_selected IS NOT 1 OR NEW.max_selected IS NOT 1))
  OR NEW.default_modifier_id IS NOT NULL
BEGIN
    SELECT RAISE(ABORT, 'group_kind: a choice takes exactly one (min_selected = max_selected = 1), and a group gets a default once it has the modifier');
END;

CREATE TRIGGER modifier_groups_kind_update BEFORE UPDATE OF kind, min_selected, max_selected, default_modifier_id ON modifier_groups
WHEN (NEW.kind = 'choice' AND (NEW.min_selected IS NOT 1 OR NEW.max_selected IS NOT 1))
  OR (NEW.default_modifier_id IS NOT NULL
      AND (NEW.kind IS NOT 'choice'
           OR NOT EXISTS (SELECT 1 FROM modifiers m WHERE m.id = NEW.default_modifier_id AND m.group_id = NEW.id
                          AND m.archived_at IS NULL)))
  OR (NEW.kind = 'removal' AND (EXISTS (SELECT 1 FROM modifiers m WHERE m.group_id = NEW.id AND m.price_cents <> 0)
                                 OR EXISTS (SELECT 1 FROM modifier_prices p JOIN modifiers m ON m.id = p.modifier_id
                                            WHERE m.group_id = NEW.id AND p.price_cents <> 0)))
BEGIN
    SELECT RAISE(ABORT, 'group_kind: a choice takes exactly one and its default is one of its modifiers still offered; only a choice has a default; a removal''s modifiers cost nothing');
END;

CREATE TRIGGER modifier_groups_never_replaced BEFORE INSERT ON modifier_groups
WHEN NEW.id > 0 AND EXISTS (SELECT 1 FROM modifier_groups WHERE id = NEW.id)
BEGIN
    SELECT RAISE(ABORT, 'row_never_replaced: a row of modifier_groups is never replaced (REPLACE would delete it without its triggers); UPDATE it where the table allows, or insert a new row');
END;

CREATE TRIGGER modifier_prices_removal_free BEFORE INSERT ON modifier_prices
WHEN NEW.price_cents <> 0
 AND (SELECT g.kind FROM modifiers m JOIN modifier_groups g ON g.id = m.group_id WHERE m.id = NEW.modifier_id) = 'removal'
BEGIN
    SELECT RAISE(ABORT, 'group_kind: a removal costs nothing on any variant');
END;

CREATE TRIGGER modifier_prices_removal_free_update BEFORE UPDATE OF price_cents ON modifier_prices
WHEN NEW.price_cents <> 0
 AND (SELECT g.kind FROM modifiers m JOIN modifier_groups g ON g.id = m.group_id WHERE m.id = NEW.modifier_id) = 'removal'
BEGIN
    SELECT RAISE(ABORT, 'group_kind: a removal costs nothing on any variant');
END;

CREATE TRIGGER modifiers_group_fixed BEFORE UPDATE OF group_id ON modifiers
WHEN NEW.group_id IS NOT OLD.group_id
BEGIN
    SELECT RAISE(ABORT, 'a modifier belongs to its group for good; add one to the other group instead');
END;

CREATE TRIGGER modifiers_never_deleted BEFORE DELETE ON modifiers
BEGIN
    SELECT RAISE(ABORT, 'modifiers are never deleted: archive instead (UPDATE modifiers SET archived_at = ...)');
END;

CREATE TRIGGER modifiers_never_replaced BEFORE INSERT ON modifiers
WHEN NEW.id > 0 AND EXISTS (SELECT 1 FROM modifiers WHERE id = NEW.id)
BEGIN
    SELECT RAISE(ABORT, 'row_never_replaced: a row of modifiers is never replaced (REPLACE would delete it without its triggers); UPDATE it where the table allows, or insert a new row');
END;

CREATE TRIGGER modifiers_removal_free BEFORE INSERT ON modifiers
WHEN NEW.price_cents <> 0 AND (SELECT kind FROM modifier_groups WHERE id = NEW.group_id) = 'removal'
BEGIN
    SELECT RAISE(ABORT, 'group_kind: a removal costs nothing (price_cents 0)');
END;

CREATE TRIGGER modifiers_removal_free_update BEFORE UPDATE OF price_cents, archived_at ON modifiers
WHEN (NEW.price_cents <> 0 AND (SELECT kind FROM modifier_groups WHERE id = NEW.group_id) = 'removal')
  OR (NEW.archived_at IS NOT NULL AND EXISTS (SELECT 1 FROM modifier_groups g WHERE g.default_modifier_id = NEW.id))
BEGIN
    SELECT RAISE(ABORT, 'group_kind: a removal costs nothing, and a choice''s default is not archived (make another the default first)');
END;

CREATE TRIGGER navigation_events_append_only_delete BEFORE DELETE ON navigation_events
WHEN NOT EXISTS (SELECT 1 FROM user_erasures WHERE user_id = OLD.user_id)
BEGIN
    SELECT RAISE(ABORT, 'history_append_only: navigation_events is append-only (but for erased users)');
END;

CREATE TRIGGER navigation_events_append_only_update BEFORE UPDATE ON navigation_events
BEGIN
    SELECT RAISE(ABORT, 'navigation_events is append-only');
END;

CREATE TRIGGER navigation_events_count_views AFTER INSERT ON navigation_events
WHEN NEW.action = 'push' OR NEW.action = 'random' OR NEW.action = 'open_url' OR NEW.action = 'import'
  OR NEW.action = 'replace'
BEGIN
    INSERT INTO pizza_view_counts (pizza_id, views, pushed, random, deep_links, imported)
    SELECT p.id, 1, NEW.action = 'push', NEW.action = 'random', NEW.action = 'open_url', NEW.action = 'import'
    FROM json_each(NEW.routes) j JOIN pizzas p ON p.id = json_extract(j.value, '$.pizza.id')
    WHERE true
    ON CONFLICT (pizza_id) DO UPDATE SET
        views = views + 1, pushed = pushed + excluded.pushed, random = random + excluded.random,
        deep_links = deep_links + excluded.deep_links, imported = imported + excluded.imported;
END;

CREATE TRIGGER navigation_events_last_stack_change AFTER INSERT ON navigation_events
WHEN NEW.action NOT GLOB 'sheet_*'
BEGIN
    UPDATE users SET last_stack_change = NEW.id
    WHERE id = NEW.user_id AND (last_stack_change IS NULL OR last_stack_change < NEW.id);
END;

CREATE TRIGGER navigation_events_last_stack_change_delete AFTER DELETE ON navigation_events
WHEN OLD.action NOT GLOB 'sheet_*'
BEGIN
    UPDATE users SET last_stack_change = (
        SELECT e.id FROM navigation_events e
        WHERE e.user_id = OLD.user_id AND e.id < OLD.id AND e.action NOT GLOB 'sheet_*'
        ORDER BY e.id DESC LIMIT 1)
    WHERE id = OLD.user_id AND last_stack_change = OLD.id;
END;

CREATE TRIGGER navigation_events_never_replaced BEFORE INSERT ON navigation_events
WHEN NEW.id > 0 AND EXISTS (SELECT 1 FROM navigation_events WHERE id = NEW.id)
BEGIN
    SELECT RAISE(ABORT, 'row_never_replaced: a row of navigation_events is never replaced (REPLACE would delete it without its triggers); UPDATE it where the table allows, or insert a new row');
END;

CREATE TRIGGER navigation_events_shape BEFORE INSERT ON navigation_events
WHEN EXISTS (
        SELECT 1 FROM json_each(NEW.routes) e
        WHERE NOT (e.type = 'object' AND (
                  json_type(e.value, '$.pizza.id') = 'text'
               OR json_type(e.value, '$.order.id') = 'text'
               OR (json_type(e.value, '$.opaque.type') = 'text' AND json_type(e.value, '$.opaque.json') = 'text'))))
  OR (NEW.top_before IS NOT NULL AND NOT (json_type(NEW.top_before) = 'object' AND (
                  json_type(NEW.top_before, '$.pizza.id') = 'text'
               OR json_type(NEW.top_before, '$.order.id') = 'text'
               OR (json_type(NEW.top_before, '$.opaque.type') = 'text' AND json_type(NEW.top_before, '$.opaque.json') = 'text'))))
BEGIN
    SELECT RAISE(ABORT, 'navigation_events.routes must be an array of routes or opaque elements, and top_before one of them or NULL');
END;

CREATE TRIGGER navigation_events_uncount_views AFTER DELETE ON navigation_events
WHEN OLD.action = 'push' OR OLD.action = 'random' OR OLD.action = 'open_url' OR OLD.action = 'import'
  OR OLD.action = 'replace'
BEGIN
    UPDATE pizza_view_counts SET
        views = views - shown.n,
        pushed = pushed - shown.n * (OLD.action = 'push'),
        random = random - shown.n * (OLD.action = 'random'),
        deep_links = deep_links - shown.n * (OLD.action = 'open_url'),
        imported = imported - shown.n * (OLD.action = 'import')
    FROM (SELECT json_extract(j.value, '$.pizza.id') AS pizza_id, count(*) AS n
          FROM json_each(OLD.routes) j WHERE json_type(j.value, '$.pizza.id') = 'text'
          GROUP BY 1) AS shown
    WHERE pizza_view_counts.pizza_id = shown.pizza_id;
END;

CREATE TRIGGER navigation_events_user_not_erased BEFORE INSERT ON navigation_events
WHEN EXISTS (SELECT 1 FROM user_erasures WHERE user_id = NEW.user_id)
BEGIN
    SELECT RAISE(ABORT, 'user_erased: this customer''s data was erased; nothing more is recorded for them');
END;

CREATE TRIGGER navigation_sheets_user_not_erased BEFORE INSERT ON navigation_sheets
WHEN EXISTS (SELECT 1 FROM user_erasures WHERE user_id = NEW.user_id)
BEGIN
    SELECT RAISE(ABORT, 'user_erased: this customer''s data was erased; nothing more is recorded for them');
END;

CREATE TRIGGER navigation_sheets_user_not_erased_update BEFORE UPDATE ON navigation_sheets
WHEN EXISTS (SELECT 1 FROM user_erasures WHERE user_id = NEW.user_id)
BEGIN
    SELECT RAISE(ABORT, 'user_erased: this customer''s data was erased; nothing more is recorded for them');
END;

CREATE TRIGGER navigation_stack_own_orders BEFORE INSERT ON navigation_stack
WHEN NEW.order_id IS NOT NULL AND (SELECT user_id FROM orders WHERE id = NEW.order_id) IS NOT NEW.user_id
BEGIN
    SELECT RAISE(ABORT, 'route_not_owned: an order route must be an order of the stack''s user');
END;

CREATE TRIGGER navigation_stack_own_orders_update BEFORE UPDATE OF user_id, order_id ON navigation_stack
WHEN NEW.order_id IS NOT NULL AND (SELECT user_id FROM orders WHERE id = NEW.order_id) IS NOT NEW.user_id
BEGIN
    SELECT RAISE(ABORT, 'route_not_owned: an order route must be an order of the stack''s user');
END;

CREATE TRIGGER navigation_stack_user_not_erased BEFORE INSERT ON navigation_stack
WHEN EXISTS (SELECT 1 FROM user_erasures WHERE user_id = NEW.user_id)
BEGIN
    SELECT RAISE(ABORT, 'user_erased: this customer''s data was erased; nothing more is recorded for them');
END;

CREATE TRIGGER order_discounts_append_only_delete BEFORE DELETE ON order_discounts
BEGIN
    SELECT RAISE(ABORT, 'discounts_append_only: a discount is never deleted; a mistake is put right at the till (a payment or a refund)');
END;

CREATE TRIGGER order_discounts_append_only_update BEFORE UPDATE ON order_discounts
WHEN NOT (NEW.reason = '[erased]' AND NEW.id IS OLD.id AND NEW.order_id IS OLD.order_id AND NEW.kind IS OLD.kind
          AND NEW.line_no IS OLD.line_no AND NEW.percent_bp IS OLD.percent_bp AND NEW.vat_rate_bp IS OLD.vat_rate_bp
          AND NEW.amount_cents IS OLD.amount_cents AND NEW.actor IS OLD.actor AND NEW.at IS OLD.at
          AND EXISTS (SELECT 1 FROM orders o JOIN user_erasures e ON e.user_id = o.user_id WHERE o.id = OLD.order_id))
BEGIN
    SELECT RAISE(ABORT, 'discounts_append_only: a discount is never changed');
END;

CREATE TRIGGER order_discounts_rules BEFORE INSERT ON order_discounts
BEGIN
    SELECT RAISE(ABORT, 'discount_order: a cancelled order takes no discount')
    WHERE (SELECT status FROM orders WHERE id = NEW.order_id) = 'cancelled';
    SELECT RAISE(ABORT, 'discount_over_rate: a discount takes off at most what the order''s lines at its VAT rate have left')
    WHERE NEW.amount_cents > (SELECT coalesce(sum(l.quantity * l.unit_price_cents), 0) FROM order_lines l
                              WHERE l.order_id = NEW.order_id AND l.vat_rate_bp = NEW.vat_rate_bp)
                             - (SELECT coalesce(sum(d.amount_cents), 0) FROM order_discounts d
                                WHERE d.order_id = NEW.order_id AND d.vat_rate_bp = NEW.vat_rate_bp);
    SELECT RAISE(ABORT, 'comp_line: a comp is one whole line of the order, at its VAT rate, once')
    WHERE NEW.kind = 'comp' AND (
        NOT EXISTS (SELECT 1 FROM order_lines l WHERE l.order_id = NEW.order_id AND l.line_no = NEW.line_no
                    AND l.vat_rate_bp = NEW.vat_rate_bp AND l.quantity * l.unit_price_cents = NEW.amount_cents)
        OR EXISTS (SELECT 1 FROM order_discounts d WHERE d.order_id = NEW.order_id AND d.kind = 'comp'
                   AND d.line_no = NEW.line_no));
    SELECT RAISE(ABORT, 'row_never_replaced: a row of order_discounts is never replaced (REPLACE would delete it without its triggers)')
    WHERE NEW.id > 0 AND EXISTS (SELECT 1 FROM order_discounts WHERE id = NEW.id);
END;

CREATE TRIGGER order_discounts_total AFTER INSERT ON order_discounts
BEGIN
    UPDATE orders SET total_cents = (SELECT coalesce(sum(quantity * unit_price_cents), 0) FROM order_lines WHERE order_id = NEW.order_id)
                                    - (SELECT coalesce(sum(amount_cents), 0) FROM order_discounts WHERE order_id = NEW.order_id)
    WHERE id = NEW.order_id;
END;

CREATE TRIGGER order_lines_discounted_delete BEFORE DELETE ON order_lines
WHEN EXISTS (SELECT 1 FROM order_discounts WHERE order_id = OLD.order_id)
BEGIN
    SELECT RAISE(ABORT, 'order_discounted: an order with a discount or a comp keeps its lines (cancel it and book again)');
END;

CREATE TRIGGER order_lines_discounted_update BEFORE UPDATE OF quantity ON order_lines
WHEN NEW.quantity < OLD.quantity AND EXISTS (SELECT 1 FROM order_discounts WHERE order_id = OLD.order_id)
BEGIN
    SELECT RAISE(ABORT, 'order_discounted: an order with a discount or a comp keeps its lines (cancel it and book again)');
END;

CREATE TRIGGER order_lines_hand_delete AFTER DELETE ON order_lines
WHEN NOT EXISTS (SELECT 1 FROM pragma_table_list('pizzeria_connection') WHERE schema = 'temp')
BEGIN
    INSERT INTO order_status_events (order_id, kind, from_status, to_status, detail, actor, at, pickup_local, total_cents)
    SELECT o.id, 'edited', o.status, o.status,
           'by hand: −' || OLD.quantity || ' ' || OLD.pizza_name || coalesce(' ' || OLD.variant_name, ''),
           NULL, strftime('%Y-%m-%dT%H:%M:%fZ', 'now'), o.pickup_local, o.total_cents
    FROM orders o WHERE o.id = OLD.order_id;
END;

CREATE TRIGGER order_lines_hand_update AFTER UPDATE OF quantity ON order_lines
WHEN NEW.quantity IS NOT OLD.quantity
 AND NOT EXISTS (SELECT 1 FROM pragma_table_list('pizzeria_connection') WHERE schema = 'temp')
BEGIN
    INSERT INTO order_status_events (order_id, kind, from_status, to_status, detail, actor, at, pickup_local, total_cents)
    SELECT o.id, 'edited', o.status, o.status,
           'by hand: ' || NEW.pizza_name || coalesce(' ' || NEW.variant_name, '') || ' × ' || OLD.quantity || ' → ' || NEW.quantity,
           NULL, strftime('%Y-%m-%dT%H:%M:%fZ', 'now'), o.pickup_local, o.total_cents
    FROM orders o WHERE o.id = NEW.order_id;
END;

CREATE TRIGGER order_lines_insert_rules BEFORE INSERT ON order_lines
BEGIN
    SELECT RAISE(ABORT, 'row_never_replaced: an order_lines row is never replaced (REPLACE would delete it without its triggers); UPDATE its quantity, or insert a new line')
    WHERE EXISTS (SELECT 1 FROM order_lines WHERE order_id = NEW.order_id AND line_no = NEW.line_no);
    SELECT RAISE(ABORT, 'order_lines_by_pizzeria: lines are added by Pizzeria (pizzeria order edit --add)')
    WHERE pizzeria_connection() IS NOT 1;
    SELECT RAISE(ABORT, 'line_vat: a line''s vat_rate_bp is its category''s rate when booked (categories.vat_rate_bp, else shop.vat_rate_bp)')
    WHERE NEW.vat_rate_bp IS NOT (SELECT coalesce(c.vat_rate_bp, s.vat_rate_bp)
                                  FROM pizzas p JOIN categories c ON c.id = p.category_id, shop s
                                  WHERE p.id = NEW.pizza_id AND s.id = 1);
    SELECT RAISE(ABORT, 'sold_out: the item has fewer left than the line asks for, for this pickup (see pizzas.stock_left)')
    FROM pizzas p
    WHERE p.id = NEW.pizza_id AND p.stock_left < NEW.quantity
      AND (p.stock_until IS NULL OR (SELECT pickup_at FROM orders WHERE id = NEW.order_id) < p.stock_until);
    SELECT RAISE(ABORT, 'sold_out: a modifier has fewer left than the line asks for, for this pickup (see modifiers.stock_left)')
    WHERE NEW.modifiers IS NOT NULL AND EXISTS (
        SELECT 1 FROM json_each(NEW.modifiers) e JOIN modifiers m ON m.id = json_extract(e.value, '$.id')
        WHERE m.stock_left < NEW.quantity
          AND (m.stock_until IS NULL OR (SELECT pickup_at FROM orders WHERE id = NEW.order_id) < m.stock_until));
    SELECT RAISE(ABORT, 'line_variant: order_lines.variant_id must name a variant of the line''s item (see pizza_variants)')
    WHERE NOT EXISTS (SELECT 1 FROM pizza_variants v WHERE v.id = NEW.variant_id AND v.pizza_id = NEW.pizza_id);
    SELECT RAISE(ABORT, 'line_snapshot: base_price_cents and variant_name are the variant''s price (the item''s for its default variant) and name when booked (the name NULL when the item has one variant)')
    FROM pizza_variants v
    WHERE v.id = NEW.variant_id
      AND (NEW.base_price_cents IS NOT coalesce(v.price_cents, (SELECT p.price_cents FROM pizzas p WHERE p.id = NEW.pizza_id))
           OR NEW.variant_name IS NOT (CASE WHEN EXISTS (SELECT 1 FROM pizza_variants o WHERE o.pizza_id = NEW.pizza_id AND o.id <> v.id)
                                            THEN v.name END));
    SELECT RAISE(ABORT, 'line_modifier: each modifier must be offered (not archived) in a group of the line''s item, once, with its group, name and price as they are now')
    WHERE NEW.modifiers IS NOT NULL AND (
        EXISTS (SELECT 1 FROM json_each(NEW.modifiers) e
                LEFT JOIN modifiers m ON m.id = json_extract(e.value, '$.id')
                LEFT JOIN modifier_groups g ON g.id = m.group_id
                WHERE m.id IS NULL OR m.archived_at IS NOT NULL
                   OR NOT EXISTS (SELECT 1 FROM pizza_modifier_groups a WHERE a.pizza_id = NEW.pizza_id AND a.group_id = m.group_id)
                   OR json_extract(e.value, '$.name') IS NOT m.name
                   OR json_extract(e.value, '$.group') IS NOT g.name
                   OR (json_extract(e.value, '$.kind') IS NOT NULL AND json_extract(e.value, '$.kind') IS NOT g.kind)
                   OR (json_extract(e.value, '$.default') IS NOT NULL
                       AND (json_extract(e.value, '$.default') = 1) IS NOT (g.default_modifier_id IS m.id))
                   OR json_extract(e.value, '$.price_cents') IS NOT
                      coalesce((SELECT p.price_cents FROM modifier_prices p WHERE p.modifier_id = m.id
                                  AND p.variant_name = (SELECT name FROM pizza_variants WHERE id = NEW.variant_id)),
                               m.price_cents))
        OR (SELECT count(DISTINCT json_extract(value, '$.id')) FROM json_each(NEW.modifiers)) <> json_array_length(NEW.modifiers));
    SELECT RAISE(ABORT, 'line_modifier_count: a line takes between min_selected and max_selected modifiers of each group of its item')
    WHERE EXISTS (SELECT 1 FROM pizza_modifier_groups a JOIN modifier_groups g ON g.id = a.group_id
                  WHERE a.pizza_id = NEW.pizza_id
                    AND (SELECT count(*) FROM json_each(coalesce(NEW.modifiers, '[]')) e
                         JOIN modifiers m ON m.id = json_extract(e.value, '$.id') WHERE m.group_id = g.id)
                        NOT BETWEEN g.min_selected AND g.max_selected);
    SELECT RAISE(ABORT, 'line_price: unit_price_cents is base_price_cents plus the modifiers'' price_cents')
    WHERE NEW.unit_price_cents IS NOT NEW.base_price_cents
                                      + coalesce((SELECT sum(json_extract(value, '$.price_cents')) FROM json_each(NEW.modifiers)), 0);
    SELECT RAISE(ABORT, 'line_allergens: allergens is the union of the item''s and its modifiers'' allergens when booked')
    WHERE NEW.allergens IS NOT (SELECT coalesce(sum(b.bit), 0) FROM allergens b
                                WHERE (SELECT allergens FROM pizzas WHERE id = NEW.pizza_id) & b.bit
                                   OR EXISTS (SELECT 1 FROM json_each(coalesce(NEW.modifiers, '[]')) e
                                              JOIN modifiers m ON m.id = json_extract(e.value, '$.id')
                                              WHERE m.allergens & b.bit));
    SELECT RAISE(ABORT, 'order_lines_oven: order_lines.uses_oven and station_id are its item''s category''s when booked (0 and NULL for drinks handed over at the counter; a station left out is the category''s)')
    FROM pizzas p JOIN categories k ON k.id = p.category_id
    WHERE p.id = NEW.pizza_id AND (NEW.uses_oven, coalesce(NEW.station_id, k.station_id)) IS NOT (k.uses_oven, k.station_id);
    SELECT RAISE(ABORT, 'order_locked: lines are added only while the order is placed (an item no station prepares, until it is collected)')
    WHERE (SELECT status FROM orders WHERE id = NEW.order_id) IS NOT 'placed'
      AND NOT ((SELECT status FROM orders WHERE id = NEW.order_id) IN ('preparing', 'ready')
               AND NEW.uses_oven = 0
               AND (SELECT k.station_id FROM pizzas p JOIN categories k ON k.id = p.category_id WHERE p.id = NEW.pizza_id) IS NULL);
END;

CREATE TRIGGER order_lines_locked_delete BEFORE DELETE ON order_lines
WHEN (SELECT status FROM orders WHERE id = OLD.order_id) IS NOT 'placed'
BEGIN
    SELECT RAISE(ABORT, 'order_locked: lines are removed only while the order is placed');
END;

CREATE TRIGGER order_lines_locked_update BEFORE UPDATE ON order_lines
WHEN NOT (NEW.note IS NULL AND OLD.note IS NOT NULL
          AND NEW.order_id IS OLD.order_id AND NEW.line_no IS OLD.line_no AND NEW.pizza_id IS OLD.pizza_id
          AND NEW.pizza_name IS OLD.pizza_name AND NEW.unit_price_cents IS OLD.unit_price_cents
          AND NEW.quantity IS OLD.quantity AND NEW.uses_oven IS OLD.uses_oven AND NEW.variant_id IS OLD.variant_id
          AND NEW.variant_name IS OLD.variant_name AND NEW.base_price_cents IS OLD.base_price_cents
          AND NEW.modifiers IS OLD.modifiers AND NEW.allergens IS OLD.allergens AND NEW.vat_rate_bp IS OLD.vat_rate_bp
          AND NEW.station_id IS OLD.station_id
          AND EXISTS (SELECT 1 FROM orders o JOIN user_erasures e ON e.user_id = o.user_id WHERE o.id = OLD.order_id))
 AND ((SELECT status FROM orders WHERE id = OLD.order_id) IS NOT 'placed'
  OR NEW.order_id IS NOT OLD.order_id OR NEW.line_no IS NOT OLD.line_no OR NEW.pizza_id IS NOT OLD.pizza_id
  OR NEW.pizza_name IS NOT OLD.pizza_name OR NEW.unit_price_cents IS NOT OLD.unit_price_cents
  OR NEW.variant_id IS NOT OLD.variant_id OR NEW.variant_name IS NOT OLD.variant_name
  OR NEW.base_price_cents IS NOT OLD.base_price_cents OR NEW.modifiers IS NOT OLD.modifiers
  OR NEW.allergens IS NOT OLD.allergens)
BEGIN
    SELECT RAISE(ABORT, 'order_locked: a line changes only its quantity and note, and only while the order is placed');
END;

CREATE TRIGGER order_lines_modifier_stock_take AFTER INSERT ON order_lines
WHEN NEW.modifiers IS NOT NULL
BEGIN
    UPDATE modifiers SET stock_left = stock_left - NEW.quantity
    WHERE stock_left IS NOT NULL
      AND id IN (SELECT json_extract(value, '$.id') FROM json_each(NEW.modifiers))
      AND (stock_until IS NULL OR (SELECT pickup_at FROM orders WHERE id = NEW.order_id) < stock_until);
END;

CREATE TRIGGER order_lines_station_default AFTER INSERT ON order_lines
WHEN NEW.station_id IS NULL
 AND (SELECT k.station_id FROM pizzas p JOIN categories k ON k.id = p.category_id WHERE p.id = NEW.pizza_id) IS NOT NULL
BEGIN
    UPDATE order_lines SET station_id = (SELECT k.station_id FROM pizzas p JOIN categories k ON k.id = p.category_id WHERE p.id = NEW.pizza_id)
    WHERE order_id = NEW.order_id AND line_no = NEW.line_no;
END;

CREATE TRIGGER order_lines_station_fixed BEFORE UPDATE OF station_id ON order_lines
WHEN NEW.station_id IS NOT OLD.station_id
 AND (OLD.station_id IS NOT NULL
      OR NEW.station_id IS NOT (SELECT k.station_id FROM pizzas p JOIN categories k ON k.id = p.category_id WHERE p.id = NEW.pizza_id))
BEGIN
    SELECT RAISE(ABORT, 'order_lines_station: a line keeps the station it was booked at');
END;

CREATE TRIGGER order_lines_stock_give AFTER DELETE ON order_lines
BEGIN
    UPDATE pizzas SET stock_left = min(stock_left + OLD.quantity, 100000)
    WHERE id = OLD.pizza_id AND stock_left IS NOT NULL
      AND (stock_until IS NULL OR (SELECT pickup_at FROM orders WHERE id = OLD.order_id) < stock_until);
    UPDATE modifiers SET stock_left = min(stock_left + OLD.quantity, 100000)
    WHERE OLD.modifiers IS NOT NULL AND stock_left IS NOT NULL
      AND id IN (SELECT json_extract(value, '$.id') FROM json_each(OLD.modifiers))
      AND (stock_until IS NULL OR (SELECT pickup_at FROM orders WHERE id = OLD.order_id) < stock_until);
END;

CREATE TRIGGER order_lines_stock_quantity AFTER UPDATE OF quantity ON order_lines
WHEN NEW.quantity IS NOT OLD.quantity
BEGIN
    UPDATE pizzas SET stock_left = min(stock_left - (NEW.quantity - OLD.quantity), 100000)
    WHERE id = NEW.pizza_id AND stock_left IS NOT NULL
      AND (stock_until IS NULL OR (SELECT pickup_at FROM orders WHERE id = NEW.order_id) < stock_until);
    UPDATE modifiers SET stock_left = min(stock_left - (NEW.quantity - OLD.quantity), 100000)
    WHERE NEW.modifiers IS NOT NULL AND stock_left IS NOT NULL
      AND id IN (SELECT json_extract(value, '$.id') FROM json_each(NEW.modifiers))
      AND (stock_until IS NULL OR (SELECT pickup_at FROM orders WHERE id = NEW.order_id) < stock_until);
END;

CREATE TRIGGER order_lines_stock_quantity_check BEFORE UPDATE OF quantity ON order_lines
WHEN NEW.quantity > OLD.quantity
BEGIN
    SELECT RAISE(ABORT, 'sold_out: the item has fewer left than the line asks for, for this pickup (see pizzas.stock_left)')
    FROM pizzas p
    WHERE p.id = NEW.pizza_id AND p.stock_left < NEW.quantity - OLD.quantity
      AND (p.stock_until IS NULL OR (SELECT pickup_at FROM orders WHERE id = NEW.order_id) < p.stock_until);
    SELECT RAISE(ABORT, 'sold_out: a modifier has fewer left than the line asks for, for this pickup (see modifiers.stock_left)')
    WHERE NEW.modifiers IS NOT NULL AND EXISTS (
        SELECT 1 FROM json_each(NEW.modifiers) e JOIN modifiers m ON m.id = json_extract(e.value, '$.id')
        WHERE m.stock_left < NEW.quantity - OLD.quantity
          AND (m.stock_until IS NULL OR (SELECT pickup_at FROM orders WHERE id = NEW.order_id) < m.stock_until));
END;

CREATE TRIGGER order_lines_stock_take AFTER INSERT ON order_lines
BEGIN
    UPDATE pizzas SET stock_left = stock_left - NEW.quantity
    WHERE id = NEW.pizza_id AND stock_left IS NOT NULL
      AND (stock_until IS NULL OR (SELECT pickup_at FROM orders WHERE id = NEW.order_id) < stock_until);
END;

CREATE TRIGGER order_lines_total_delete AFTER DELETE ON order_lines
BEGIN
    UPDATE orders SET total_cents = (SELECT coalesce(sum(quantity * unit_price_cents), 0) FROM order_lines WHERE order_id = OLD.order_id)
                                    - (SELECT coalesce(sum(amount_cents), 0) FROM order_discounts WHERE order_id = OLD.order_id)
    WHERE id = OLD.order_id;
END;

CREATE TRIGGER order_lines_total_insert AFTER INSERT ON order_lines
BEGIN
    UPDATE orders SET total_cents = (SELECT coalesce(sum(quantity * unit_price_cents), 0) FROM order_lines WHERE order_id = NEW.order_id)
                                    - (SELECT coalesce(sum(amount_cents), 0) FROM order_discounts WHERE order_id = NEW.order_id)
    WHERE id = NEW.order_id;
END;

CREATE TRIGGER order_lines_total_update AFTER UPDATE OF quantity ON order_lines
BEGIN
    UPDATE orders SET total_cents = (SELECT coalesce(sum(quantity * unit_price_cents), 0) FROM order_lines WHERE order_id = NEW.order_id)
                                    - (SELECT coalesce(sum(amount_cents), 0) FROM order_discounts WHERE order_id = NEW.order_id)
    WHERE id = NEW.order_id;
END;

CREATE TRIGGER order_lines_vat_fixed BEFORE UPDATE OF vat_rate_bp ON order_lines
WHEN NEW.vat_rate_bp IS NOT OLD.vat_rate_bp
BEGIN
    SELECT RAISE(ABORT, 'line_vat: a line keeps the VAT rate it was booked at');
END;

CREATE TRIGGER order_status_events_append_only_delete BEFORE DELETE ON order_status_events
BEGIN
    SELECT RAISE(ABORT, 'history_append_only: order_status_events is append-only');
END;

CREATE TRIGGER order_status_events_append_only_update BEFORE UPDATE ON order_status_events
WHEN NOT (
    OLD.kind = 'placed' AND OLD.total_cents IS NULL AND NEW.total_cents IS NOT NULL
    AND NEW.id IS OLD.id AND NEW.order_id IS OLD.order_id AND NEW.kind IS OLD.kind AND NEW.from_status IS OLD.from_status
    AND NEW.to_status IS OLD.to_status AND NEW.at IS OLD.at AND NEW.detail IS OLD.detail AND NEW.actor IS OLD.actor
    AND NEW.pickup_local IS OLD.pickup_local
) AND NOT (
    EXISTS (SELECT 1 FROM orders o JOIN user_erasures e ON e.user_id = o.user_id WHERE o.id = OLD.order_id)
    AND NEW.pickup_local IS OLD.pickup_local AND NEW.total_cents IS OLD.total_cents
    AND NEW.id IS OLD.id AND NEW.order_id IS OLD.order_id AND NEW.kind IS OLD.kind AND NEW.from_status IS OLD.from_status
    AND NEW.to_status IS OLD.to_status AND NEW.at IS OLD.at
    AND (NEW.detail IS OLD.detail
         OR (substr(NEW.detail, -8) = '[erased]'
             AND substr(OLD.detail, 1, length(NEW.detail) - 8) = substr(NEW.detail, 1, length(NEW.detail) - 8)))
    AND (NEW.actor IS OLD.actor
         OR NEW.actor IS (SELECT 'erased-' || substr(o.user_id, 1, 13) FROM orders o WHERE o.id = OLD.order_id)))
BEGIN
    SELECT RAISE(ABORT, 'history_append_only: order_status_events is append-only (but for the redaction of an erased customer)');
END;

CREATE TRIGGER order_status_events_never_replaced BEFORE INSERT ON order_status_events
WHEN NEW.id > 0 AND EXISTS (SELECT 1 FROM order_status_events WHERE id = NEW.id)
BEGIN
    SELECT RAISE(ABORT, 'row_never_replaced: a row of order_status_events is never replaced (REPLACE would delete it without its triggers); UPDATE it where the table allows, or insert a new row');
END;

CREATE TRIGGER order_status_events_timestamp BEFORE INSERT ON order_status_events
WHEN strftime('%Y-%m-%dT%H:%M:%fZ', NEW.at) IS NOT NEW.at
BEGIN
    SELECT RAISE(ABORT, 'timestamp_format: order_status_events.at is a UTC time such as 2026-12-01T18:30:00.000Z');
END;

CREATE TRIGGER orders_created_fixed BEFORE UPDATE OF created_at ON orders
WHEN NEW.created_at IS NOT OLD.created_at
BEGIN
    SELECT RAISE(ABORT, 'order_locked: an order''s created_at never changes');
END;

CREATE TRIGGER orders_erased_user_locked BEFORE UPDATE OF status, note, pickup_at ON orders
WHEN ((OLD.status = 'cancelled' AND NEW.status IS NOT 'cancelled') OR (NEW.note IS NOT NULL AND NEW.note IS NOT OLD.note)
      OR NEW.pickup_at IS NOT OLD.pickup_at)
 AND EXISTS (SELECT 1 FROM user_erasures WHERE user_id = OLD.user_id)
BEGIN
    SELECT RAISE(ABORT, 'user_erased: this customer''s data was erased; their orders only stay for the books');
END;

CREATE TRIGGER orders_insert_rules BEFORE INSERT ON orders
BEGIN
    SELECT RAISE(ABORT, 'row_never_replaced: an orders row is never replaced (REPLACE would delete it without its triggers); UPDATE it, or insert a new order')
    WHERE EXISTS (SELECT 1 FROM orders WHERE id = NEW.id)
       OR (NEW.idempotency_key IS NOT NULL AND EXISTS (SELECT 1 FROM orders WHERE idempotency_key = NEW.idempotency_key));
    SELECT RAISE(ABORT, 'user_erased: this customer''s data was erased; they cannot book')
    WHERE EXISTS (SELECT 1 FROM user_erasures WHERE user_id = NEW.user_id);
    SELECT RAISE(ABORT, 'order_total_derived: a new order''s total_cents is 0; its lines make the total')
    WHERE NEW.total_cents IS NOT 0;
    SELECT RAISE(ABORT, 'timestamp_format: created_at, updated_at and changed_at are UTC times such as 2026-12-01T18:30:00.000Z')
    WHERE strftime('%Y-%m-%dT%H:%M:%fZ', NEW.created_at) IS NOT NEW.created_at
       OR strftime('%Y-%m-%dT%H:%M:%fZ', NEW.updated_at) IS NOT NEW.updated_at
       OR (NEW.changed_at IS NOT NULL AND strftime('%Y-%m-%dT%H:%M:%fZ', NEW.changed_at) IS NOT NEW.changed_at);
    SELECT RAISE(ABORT, 'order_status: a new order must have status placed')
    WHERE NEW.status IS NOT 'placed';
    SELECT RAISE(ABORT, 'order_service_day: a pickup belongs to the service day before its date only within a night interval of that day')
    WHERE NEW.service_day IS date(substr(NEW.pickup_local, 1, 10), '-1 day')
      AND NOT EXISTS (SELECT 1 FROM weekly_hours w
                      WHERE w.weekday = (CAST(strftime('%w', NEW.service_day) AS INTEGER) + 6) % 7 + 1
                        AND w.closes_at <= w.opens_at AND substr(NEW.pickup_local, 12, 5) < w.closes_at)
      AND NOT EXISTS (SELECT 1 FROM schedule_exceptions x
                      WHERE x.day = NEW.service_day AND x.kind = 'special'
                        AND x.closes_at <= x.opens_at AND substr(NEW.pickup_local, 12, 5) < x.closes_at);
    SELECT RAISE(ABORT, 'pickup_at must be a real UTC time on the minute, such as 2026-12-01T18:30:00Z')
    WHERE strftime('%Y-%m-%dT%H:%M:00Z', julianday(NEW.pickup_at)) IS NOT NEW.pickup_at;
    SELECT RAISE(ABORT, 'order_party: a party''s orders are one customer''s on one service day, linked to its first order')
    WHERE NEW.party_id IS NOT NULL AND NEW.party_id IS NOT NEW.id
      AND NOT EXISTS (SELECT 1 FROM orders p WHERE p.id = NEW.party_id AND p.party_id = p.id
                      AND p.user_id = NEW.user_id AND p.service_day = NEW.service_day);
    SELECT RAISE(ABORT, 'order_local_time: an order needs service_day and pickup_local (local time with offset) that agree with pickup_at')
    WHERE strftime('%Y-%m-%dT%H:%M:00Z', substr(NEW.pickup_local, 1, 16),
                   (CASE substr(NEW.pickup_local, 17, 1) WHEN '+' THEN '-' ELSE '+' END) || substr(NEW.pickup_local, 18, 5)) IS NOT NEW.pickup_at
       OR NEW.service_day NOT IN (substr(NEW.pickup_local, 1, 10), date(substr(NEW.pickup_local, 1, 10), '-1 day'));
END;

CREATE TRIGGER orders_local_time_update BEFORE UPDATE OF pickup_at, service_day, pickup_local ON orders
WHEN strftime('%Y-%m-%dT%H:%M:00Z', substr(NEW.pickup_local, 1, 16),
              (CASE substr(NEW.pickup_local, 17, 1) WHEN '+' THEN '-' ELSE '+' END) || substr(NEW.pickup_local, 18, 5)) IS NOT NEW.pickup_at
  OR NEW.service_day NOT IN (substr(NEW.pickup_local, 1, 10), date(substr(NEW.pickup_local, 1, 10), '-1 day'))
BEGIN
    SELECT RAISE(ABORT, 'order_local_time: an order needs service_day and pickup_local (local time with offset) that agree with pickup_at');
END;

CREATE TRIGGER orders_locked_after_placed BEFORE UPDATE OF pickup_at, note ON orders
WHEN OLD.status <> 'placed' AND (NEW.pickup_at IS NOT OLD.pickup_at OR NEW.note IS NOT OLD.note)
 AND NOT (NEW.pickup_at IS OLD.pickup_at AND NEW.note IS NULL AND EXISTS (SELECT 1 FROM user_erasures WHERE user_id = OLD.user_id))
 AND NOT (OLD.status = 'preparing' AND NEW.status = 'preparing' AND NEW.note IS OLD.note
          AND NEW.pickup_at > OLD.pickup_at AND coalesce(NEW.change_note, '') GLOB 'delayed +[0-9]*')
BEGIN
    SELECT RAISE(ABORT, 'order_locked: only a placed order can be moved or edited (a preparing one only delayed: later, with change_note ''delayed +N'')');
END;

CREATE TRIGGER orders_moved_event AFTER UPDATE OF pickup_at ON orders
WHEN NEW.pickup_at IS NOT OLD.pickup_at
BEGIN
    INSERT INTO order_status_events (order_id, kind, from_status, to_status, detail, actor, at, pickup_local, total_cents)
    VALUES (NEW.id, 'moved', OLD.status, NEW.status,
            'pickup ' || OLD.pickup_local || ' → ' || NEW.pickup_local
                || CASE WHEN NEW.change_note IS NOT NULL THEN ', ' || NEW.change_note ELSE '' END,
            NEW.changed_by, coalesce(NEW.changed_at, strftime('%Y-%m-%dT%H:%M:%fZ', 'now')), NEW.pickup_local, NEW.total_cents);
    UPDATE orders SET updated_at = coalesce(NEW.changed_at, strftime('%Y-%m-%dT%H:%M:%fZ', 'now')), version = OLD.version + 1,
                      changed_by = NULL, changed_at = NULL, change_note = NULL
    WHERE id = NEW.id;
END;

CREATE TRIGGER orders_never_deleted BEFORE DELETE ON orders
BEGIN
    SELECT RAISE(ABORT, 'order_kept: orders are never deleted: cancel instead');
END;

CREATE TRIGGER orders_party_fixed BEFORE UPDATE OF party_id ON orders
WHEN NEW.party_id IS NOT OLD.party_id
BEGIN
    SELECT RAISE(ABORT, 'order_party: an order''s party is fixed when it is booked');
END;

CREATE TRIGGER orders_pickup_real_update BEFORE UPDATE OF pickup_at ON orders
WHEN strftime('%Y-%m-%dT%H:%M:00Z', julianday(NEW.pickup_at)) IS NOT NEW.pickup_at
BEGIN
    SELECT RAISE(ABORT, 'pickup_at must be a real UTC time on the minute, such as 2026-12-01T18:30:00Z');
END;

CREATE TRIGGER orders_placed_event AFTER INSERT ON orders
BEGIN
    -- Its total is its lines', written by the booking once they are in (the lines follow the order).
    INSERT INTO order_status_events (order_id, kind, from_status, to_status, detail, actor, at, pickup_local)
    VALUES (NEW.id, 'placed', NULL, NEW.status, NEW.change_note, NEW.changed_by, NEW.created_at, NEW.pickup_local);
    UPDATE orders SET changed_by = NULL, changed_at = NULL, change_note = NULL
    WHERE id = NEW.id AND (changed_by IS NOT NULL OR changed_at IS NOT NULL OR change_note IS NOT NULL);
END;

CREATE TRIGGER orders_service_day_update BEFORE UPDATE OF pickup_at, service_day, pickup_local ON orders
WHEN NEW.service_day IS date(substr(NEW.pickup_local, 1, 10), '-1 day')
 AND NOT EXISTS (SELECT 1 FROM weekly_hours w
                 WHERE w.weekday = (CAST(strftime('%w', NEW.service_day) AS INTEGER) + 6) % 7 + 1
                   AND w.closes_at <= w.opens_at AND substr(NEW.pickup_local, 12, 5) < w.closes_at)
 AND NOT EXISTS (SELECT 1 FROM schedule_exceptions x
                 WHERE x.day = NEW.service_day AND x.kind = 'special'
                   AND x.closes_at <= x.opens_at AND substr(NEW.pickup_local, 12, 5) < x.closes_at)
BEGIN
    SELECT RAISE(ABORT, 'order_service_day: a pickup belongs to the service day before its date only within a night interval of that day');
END;

CREATE TRIGGER orders_status_event AFTER UPDATE OF status ON orders
WHEN NEW.status IS NOT OLD.status
BEGIN
    INSERT INTO order_status_events (order_id, kind, from_status, to_status, detail, actor, at, pickup_local, total_cents)
    SELECT NEW.id, 'status', OLD.status, NEW.status, NEW.change_note,
           NEW.changed_by, coalesce(NEW.changed_at, strftime('%Y-%m-%dT%H:%M:%fZ', 'now')), NEW.pickup_local, NEW.total_cents
    WHERE NOT EXISTS (SELECT 1 FROM order_status_events e
                      WHERE e.id = (SELECT max(id) FROM order_status_events WHERE order_id = NEW.id)
                        AND e.kind = 'undo' AND e.from_status = OLD.status AND e.to_status = NEW.status);
    UPDATE orders SET updated_at = coalesce(NEW.changed_at, strftime('%Y-%m-%dT%H:%M:%fZ', 'now')), version = OLD.version + 1,
                      changed_by = NULL, changed_at = NULL, change_note = NULL
    WHERE id = NEW.id;
END;

CREATE TRIGGER orders_status_transition BEFORE UPDATE OF status ON orders
WHEN NEW.status IS NOT OLD.status AND NOT (
       (OLD.status = 'placed'    AND NEW.status IN ('preparing', 'cancelled'))
    OR (OLD.status = 'preparing' AND NEW.status IN ('ready', 'cancelled'))
    OR (OLD.status = 'ready'     AND NEW.status IN ('collected', 'no_show'))
    OR EXISTS (SELECT 1 FROM order_status_events e
               WHERE e.id = (SELECT max(id) FROM order_status_events WHERE order_id = NEW.id)
                 AND e.kind = 'undo' AND e.from_status = OLD.status AND e.to_status = NEW.status))
BEGIN
    SELECT RAISE(ABORT, 'illegal order status change');
END;

CREATE TRIGGER orders_stock_cancel AFTER UPDATE OF status ON orders
WHEN (OLD.status = 'cancelled') <> (NEW.status = 'cancelled')
BEGIN
    UPDATE pizzas
    SET stock_left = min(stock_left + (CASE WHEN NEW.status = 'cancelled' THEN 1 ELSE -1 END)
                         * (SELECT sum(l.quantity) FROM order_lines l WHERE l.order_id = NEW.id AND l.pizza_id = pizzas.id), 100000)
    WHERE stock_left IS NOT NULL AND (stock_until IS NULL OR NEW.pickup_at < stock_until)
      AND id IN (SELECT pizza_id FROM order_lines WHERE order_id = NEW.id);
    UPDATE modifiers
    SET stock_left = min(stock_left + (CASE WHEN NEW.status = 'cancelled' THEN 1 ELSE -1 END)
                         * (SELECT sum(l.quantity) FROM order_lines l, json_each(l.modifiers) e
                            WHERE l.order_id = NEW.id AND json_extract(e.value, '$.id') = modifiers.id), 100000)
    WHERE stock_left IS NOT NULL AND (stock_until IS NULL OR NEW.pickup_at < stock_until)
      AND id IN (SELECT json_extract(e.value, '$.id') FROM order_lines l, json_each(l.modifiers) e WHERE l.order_id = NEW.id);
END;

CREATE TRIGGER orders_stock_undo_check BEFORE UPDATE OF status ON orders
WHEN OLD.status = 'cancelled' AND NEW.status <> 'cancelled'
BEGIN
    SELECT RAISE(ABORT, 'sold_out: an item of this order has sold out since it was cancelled')
    FROM order_lines l JOIN pizzas p ON p.id = l.pizza_id
    WHERE l.order_id = NEW.id AND p.stock_left < l.quantity AND (p.stock_until IS NULL OR NEW.pickup_at < p.stock_until);
END;

CREATE TRIGGER orders_timestamps_update BEFORE UPDATE OF created_at, updated_at, changed_at ON orders
WHEN strftime('%Y-%m-%dT%H:%M:%fZ', NEW.created_at) IS NOT NEW.created_at
  OR strftime('%Y-%m-%dT%H:%M:%fZ', NEW.updated_at) IS NOT NEW.updated_at
  OR (NEW.changed_at IS NOT NULL AND strftime('%Y-%m-%dT%H:%M:%fZ', NEW.changed_at) IS NOT NEW.changed_at)
BEGIN
    SELECT RAISE(ABORT, 'timestamp_format: created_at, updated_at and changed_at are UTC times such as 2026-12-01T18:30:00.000Z');
END;

CREATE TRIGGER orders_total_derived BEFORE UPDATE OF total_cents ON orders
WHEN NEW.total_cents IS NOT (SELECT coalesce(sum(quantity * unit_price_cents), 0) FROM order_lines WHERE order_id = NEW.id)
                          - (SELECT coalesce(sum(amount_cents), 0) FROM order_discounts WHERE order_id = NEW.id)
BEGIN
    SELECT RAISE(ABORT, 'order_total_derived: orders.total_cents is the sum of the order''s lines less its discounts, kept by triggers');
END;

CREATE TRIGGER orders_user_fixed BEFORE UPDATE OF user_id ON orders
WHEN NEW.user_id IS NOT OLD.user_id
BEGIN
    SELECT RAISE(ABORT, 'order_user_fixed: an order belongs to the user who booked it, for good');
END;

CREATE TRIGGER party_payments_append_only_delete BEFORE DELETE ON party_payments
BEGIN
    SELECT RAISE(ABORT, 'payments_append_only: a payment is never deleted; record a refund instead');
END;

CREATE TRIGGER party_payments_append_only_update BEFORE UPDATE ON party_payments
WHEN NOT (NEW.reference IS NULL AND OLD.reference IS NOT NULL
          AND NEW.id IS OLD.id AND NEW.party_id IS OLD.party_id AND NEW.amount_cents IS OLD.amount_cents
          AND NEW.method IS OLD.method AND NEW.tendered_cents IS OLD.tendered_cents AND NEW.at IS OLD.at
          AND NEW.actor IS OLD.actor
          AND EXISTS (SELECT 1 FROM orders o JOIN user_erasures e ON e.user_id = o.user_id WHERE o.id = OLD.party_id))
BEGIN
    SELECT RAISE(ABORT, 'payments_append_only: a payment is never changed; record a refund instead');
END;

CREATE TRIGGER party_payments_never_replaced BEFORE INSERT ON party_payments
WHEN (NEW.id > 0 AND EXISTS (SELECT 1 FROM party_payments WHERE id = NEW.id))
   OR (NEW.reference IS NOT NULL AND EXISTS (SELECT 1 FROM party_payments WHERE method = NEW.method AND reference = NEW.reference))
BEGIN
    SELECT RAISE(ABORT, 'row_never_replaced: a row of party_payments is never replaced (REPLACE would delete it without its triggers); insert a new row');
END;

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

CREATE TRIGGER payments_append_only_delete BEFORE DELETE ON payments
BEGIN
    SELECT RAISE(ABORT, 'payments_append_only: a payment is never deleted; record a refund instead');
END;

CREATE TRIGGER payments_append_only_update BEFORE UPDATE ON payments
WHEN NOT (NEW.reference IS NULL AND OLD.reference IS NOT NULL
          AND NEW.id IS OLD.id AND NEW.order_id IS OLD.order_id AND NEW.amount_cents IS OLD.amount_cents
          AND NEW.method IS OLD.method AND NEW.tendered_cents IS OLD.tendered_cents AND NEW.at IS OLD.at
          AND NEW.actor IS OLD.actor AND NEW.party_payment_id IS OLD.party_payment_id
          AND EXISTS (SELECT 1 FROM orders o JOIN user_erasures e ON e.user_id = o.user_id WHERE o.id = OLD.order_id))
BEGIN
    SELECT RAISE(ABORT, 'payments_append_only: a payment is never changed; record a refund instead');
END;

CREATE TRIGGER payments_event AFTER INSERT ON payments
BEGIN
    INSERT INTO order_status_events (order_id, kind, from_status, to_status, detail, actor, at, pickup_local, total_cents)
    SELECT o.id, 'paid', o.status, o.status,
           'paid ' || printf('%d.%02d', NEW.amount_cents / 100, NEW.amount_cents % 100) || ' ' || NEW.method
           || CASE WHEN NEW.reference IS NOT NULL THEN ' (' || substr(NEW.reference, 1, 200) || ')' ELSE '' END
           || CASE WHEN NEW.party_payment_id IS NOT NULL THEN ' (the party''s payment)' ELSE '' END,
           NEW.actor, NEW.at, o.pickup_local, o.total_cents
    FROM orders o WHERE o.id = NEW.order_id;
END;

CREATE TRIGGER payments_never_replaced BEFORE INSERT ON payments
WHEN (NEW.id > 0 AND EXISTS (SELECT 1 FROM payments WHERE id = NEW.id))
   OR (NEW.reference IS NOT NULL AND EXISTS (SELECT 1 FROM payments WHERE method = NEW.method AND reference = NEW.reference))
BEGIN
    SELECT RAISE(ABORT, 'row_never_replaced: a row of payments is never replaced (REPLACE would delete it without its triggers); UPDATE it where the table allows, or insert a new row');
END;

CREATE TRIGGER payments_order_open BEFORE INSERT ON payments
WHEN (SELECT status FROM orders WHERE id = NEW.order_id) = 'cancelled'
BEGIN
    SELECT RAISE(ABORT, 'payment_cancelled: a cancelled order takes no payment');
END;

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

CREATE TRIGGER pizza_history_append_only_delete BEFORE DELETE ON pizza_history
BEGIN
    SELECT RAISE(ABORT, 'pizza_history is append-only');
END;

CREATE TRIGGER pizza_history_append_only_update BEFORE UPDATE ON pizza_history
BEGIN
    SELECT RAISE(ABORT, 'pizza_history is append-only');
END;

CREATE TRIGGER pizza_history_chain_head AFTER INSERT ON pizza_history
BEGIN
    UPDATE pizzas SET last_change = NEW.id WHERE id = NEW.pizza_id;
END;

CREATE TRIGGER pizza_history_chain_insert BEFORE INSERT ON pizza_history
WHEN NEW.previous_change IS NOT (SELECT last_change FROM pizzas WHERE id = NEW.pizza_id)
BEGIN
    SELECT RAISE(ABORT, 'previous_change: a history row''s previous_change is its item''s latest change (pizzas.last_change), NULL for its first');
END;

CREATE TRIGGER pizza_history_never_replaced BEFORE INSERT ON pizza_history
WHEN NEW.id > 0 AND EXISTS (SELECT 1 FROM pizza_history WHERE id = NEW.id)
BEGIN
    SELECT RAISE(ABORT, 'row_never_replaced: a row of pizza_history is never replaced (REPLACE would delete it without its triggers); UPDATE it where the table allows, or insert a new row');
END;

CREATE TRIGGER pizza_modifier_groups_item_moved AFTER UPDATE OF pizza_id ON pizza_modifier_groups
WHEN NEW.pizza_id IS NOT OLD.pizza_id
BEGIN
    UPDATE pizza_modifier_groups SET pizza_name_key = (SELECT p.name_key FROM pizzas p WHERE p.id = NEW.pizza_id)
    WHERE pizza_id = NEW.pizza_id AND group_id = NEW.group_id;
END;

CREATE TRIGGER pizza_modifier_groups_name_key_fill AFTER INSERT ON pizza_modifier_groups
WHEN NEW.pizza_name_key IS NULL
BEGIN
    UPDATE pizza_modifier_groups SET pizza_name_key = (SELECT p.name_key FROM pizzas p WHERE p.id = NEW.pizza_id)
    WHERE pizza_id = NEW.pizza_id AND group_id = NEW.group_id;
END;

CREATE TRIGGER pizza_modifier_groups_name_key_insert BEFORE INSERT ON pizza_modifier_groups
WHEN NEW.pizza_name_key IS NOT NULL
  AND NEW.pizza_name_key IS NOT (SELECT p.name_key FROM pizzas p WHERE p.id = NEW.pizza_id)
BEGIN
    SELECT RAISE(ABORT, 'pizza_name_key: a group on an item carries the item''s name_key and nothing else; leave it out and it is filled in');
END;

CREATE TRIGGER pizza_modifier_groups_name_key_update BEFORE UPDATE OF pizza_name_key ON pizza_modifier_groups
WHEN NEW.pizza_name_key IS NOT (SELECT p.name_key FROM pizzas p WHERE p.id = NEW.pizza_id)
  AND NEW.pizza_id IS OLD.pizza_id
BEGIN
    SELECT RAISE(ABORT, 'pizza_name_key: a group on an item carries the item''s name_key and nothing else; rename the item instead');
END;

CREATE TRIGGER pizza_modifier_groups_never_replaced BEFORE INSERT ON pizza_modifier_groups
WHEN EXISTS (SELECT 1 FROM pizza_modifier_groups WHERE pizza_id = NEW.pizza_id AND group_id = NEW.group_id)
BEGIN
    SELECT RAISE(ABORT, 'row_never_replaced: a row of pizza_modifier_groups is never replaced (REPLACE would delete it without its triggers); UPDATE it where the table allows, or insert a new row');
END;

CREATE TRIGGER pizza_modifier_groups_version_delete AFTER DELETE ON pizza_modifier_groups
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

CREATE TRIGGER pizza_variants_default_price AFTER UPDATE OF price_cents, is_default ON pizza_variants
WHEN NEW.is_default = 1 AND (OLD.is_default = 0 OR NEW.price_cents IS NOT NULL)
BEGIN
    UPDATE pizza_variants SET is_default = 0, price_cents = (SELECT p.price_cents FROM pizzas p WHERE p.id = NEW.pizza_id)
    WHERE OLD.is_default = 0 AND pizza_id = NEW.pizza_id AND id <> NEW.id AND is_default = 1;
    UPDATE pizzas SET price_cents = NEW.price_cents
    WHERE NEW.price_cents IS NOT NULL AND id = NEW.pizza_id AND price_cents IS NOT NEW.price_cents;
    UPDATE pizza_variants SET price_cents = NULL WHERE NEW.price_cents IS NOT NULL AND id = NEW.id;
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

CREATE TRIGGER pizza_variants_never_replaced BEFORE INSERT ON pizza_variants
WHEN NEW.id > 0 AND EXISTS (SELECT 1 FROM pizza_variants WHERE id = NEW.id)
BEGIN
    SELECT RAISE(ABORT, 'row_never_replaced: a row of pizza_variants is never replaced (REPLACE would delete it without its triggers); UPDATE it where the table allows, or insert a new row');
END;

CREATE TRIGGER pizza_variants_one_default_insert AFTER INSERT ON pizza_variants
WHEN NEW.is_default = 1
BEGIN
    UPDATE pizza_variants SET is_default = 0, price_cents = (SELECT p.price_cents FROM pizzas p WHERE p.id = NEW.pizza_id)
    WHERE pizza_id = NEW.pizza_id AND id <> NEW.id AND is_default = 1;
    UPDATE pizzas SET price_cents = NEW.price_cents
    WHERE NEW.price_cents IS NOT NULL AND id = NEW.pizza_id AND price_cents IS NOT NEW.price_cents;
    UPDATE pizza_variants SET price_cents = NULL WHERE NEW.price_cents IS NOT NULL AND id = NEW.id;
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

CREATE TRIGGER pizzas_category_exists_insert BEFORE INSERT ON pizzas
WHEN NOT EXISTS (SELECT 1 FROM categories WHERE id = NEW.category_id)
BEGIN
    SELECT RAISE(ABORT, 'category_unknown: pizzas.category_id names no category (see SELECT id, name FROM categories)');
END;

CREATE TRIGGER pizzas_category_exists_update BEFORE UPDATE OF category_id ON pizzas
WHEN NOT EXISTS (SELECT 1 FROM categories WHERE id = NEW.category_id)
BEGIN
    SELECT RAISE(ABORT, 'category_unknown: pizzas.category_id names no category (see SELECT id, name FROM categories)');
END;

CREATE TRIGGER pizzas_default_variant AFTER INSERT ON pizzas
BEGIN
    INSERT INTO pizza_variants (pizza_id, name, price_cents, position, is_default, pizza_name_key)
    VALUES (NEW.id, 'Normale', NULL, 1, 1, NEW.name_key);
END;

CREATE TRIGGER pizzas_history_changed AFTER UPDATE OF name, price_cents, archived_at ON pizzas
WHEN OLD.name IS NOT NEW.name
  OR OLD.price_cents IS NOT NEW.price_cents
  OR (OLD.archived_at IS NULL) <> (NEW.archived_at IS NULL)
BEGIN
    UPDATE pizzas
    SET version = CASE WHEN NEW.version > OLD.version THEN NEW.version ELSE OLD.version + 1 END,
        updated_at = coalesce((SELECT at FROM audit_context WHERE id = 1), strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
    WHERE id = NEW.id;
    INSERT INTO pizza_history (
        pizza_id, change, old_name, new_name, old_price_cents, new_price_cents, version, changed_at, previous_change)
    VALUES (
        NEW.id,
        CASE WHEN OLD.archived_at IS NULL AND NEW.archived_at IS NOT NULL THEN 'archived'
             WHEN OLD.archived_at IS NOT NULL AND NEW.archived_at IS NULL THEN 'restored'
             ELSE 'edited' END,
        OLD.name, NEW.name, OLD.price_cents, NEW.price_cents,
        (SELECT version FROM pizzas WHERE id = NEW.id),
        coalesce((SELECT at FROM audit_context WHERE id = 1), strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
        (SELECT last_change FROM pizzas WHERE id = NEW.id));
    INSERT INTO audit_log (at, actor, source, object, action, old, new, history_id)
    SELECT coalesce(c.at, strftime('%Y-%m-%dT%H:%M:%fZ', 'now')), c.actor, coalesce(c.source, 'sql'), 'pizza:' || NEW.id,
           CASE WHEN OLD.archived_at IS NULL AND NEW.archived_at IS NOT NULL THEN 'archive'
                WHEN OLD.archived_at IS NOT NULL AND NEW.archived_at IS NULL THEN 'restore'
                WHEN OLD.name IS NEW.name THEN 'price'
                ELSE 'edit' END,
           json_object('name', OLD.name, 'price_cents', OLD.price_cents, 'archived_at', OLD.archived_at),
           json_object('name', NEW.name, 'price_cents', NEW.price_cents, 'archived_at', NEW.archived_at),
           last_insert_rowid()
    FROM audit_context c WHERE c.id = 1;
END;

CREATE TRIGGER pizzas_history_created AFTER INSERT ON pizzas
BEGIN
    INSERT INTO pizza_history (pizza_id, change, new_name, new_price_cents, version, changed_at, previous_change)
    VALUES (NEW.id, 'created', NEW.name, NEW.price_cents, NEW.version, NEW.created_at, NULL);
    INSERT INTO audit_log (at, actor, source, object, action, new, history_id)
    SELECT coalesce(c.at, strftime('%Y-%m-%dT%H:%M:%fZ', 'now')), c.actor, coalesce(c.source, 'sql'), 'pizza:' || NEW.id, 'add',
           json_object('name', NEW.name, 'price_cents', NEW.price_cents), last_insert_rowid()
    FROM audit_context c WHERE c.id = 1;
END;

CREATE TRIGGER pizzas_last_change_insert BEFORE INSERT ON pizzas
WHEN NEW.last_change IS NOT NULL
BEGIN
    SELECT RAISE(ABORT, 'last_change: a new item has no history yet; leave last_change out');
END;

CREATE TRIGGER pizzas_last_change_update BEFORE UPDATE OF last_change ON pizzas
WHEN NEW.last_change IS NOT OLD.last_change AND NOT EXISTS (
    SELECT 1 FROM pizza_history h
    WHERE h.id = NEW.last_change AND h.pizza_id = NEW.id AND h.previous_change IS OLD.last_change)
BEGIN
    SELECT RAISE(ABORT, 'last_change: pizzas.last_change is the id of the item''s latest pizza_history row, kept by the history; add a change instead');
END;

CREATE TRIGGER pizzas_name_key_ascii_insert BEFORE INSERT ON pizzas
WHEN NEW.name_key IS NOT NULL AND NEW.name NOT GLOB '*[^ -~]*' AND NEW.name_key IS NOT lower(NEW.name)
BEGIN
    SELECT RAISE(ABORT, 'name_key of an ASCII name must be lower(name)');
END;

CREATE TRIGGER pizzas_name_key_ascii_update AFTER UPDATE OF name ON pizzas
WHEN NEW.name NOT GLOB '*[^ -~]*' AND NEW.name_key IS NOT lower(NEW.name)
BEGIN
    UPDATE pizzas SET name_key = lower(NEW.name) WHERE id = NEW.id;
END;

CREATE TRIGGER pizzas_name_key_insert AFTER INSERT ON pizzas
WHEN NEW.name_key IS NULL
BEGIN
    SELECT RAISE(ABORT, 'a pizza name with non-ASCII characters needs name_key (its full Unicode case folding): add it with pizzeria pizza add')
    WHERE NEW.name GLOB '*[^ -~]*';
    UPDATE pizzas SET name_key = lower(NEW.name) WHERE id = NEW.id;
END;

CREATE TRIGGER pizzas_name_key_to_menu_rows AFTER UPDATE OF name_key ON pizzas
WHEN NEW.name_key IS NOT OLD.name_key
BEGIN
    UPDATE pizza_variants SET pizza_name_key = NEW.name_key WHERE pizza_id = NEW.id;
    UPDATE pizza_modifier_groups SET pizza_name_key = NEW.name_key WHERE pizza_id = NEW.id;
END;

CREATE TRIGGER pizzas_name_visible_insert BEFORE INSERT ON pizzas
WHEN NEW.name GLOB '*[' || char(1564, 8206, 8207, 8234, 8235, 8236, 8237, 8238, 8294, 8295, 8296, 8297) || ']*'
  OR trim(NEW.name, char(32, 160, 173, 847, 4447, 4448, 6068, 6069, 6155, 6156, 6157, 6158, 8192, 8193, 8194,
                         8195, 8196, 8197, 8198, 8199, 8200, 8201, 8202, 8203, 8204, 8205, 8232, 8233, 8239,
                         8287, 8288, 8289, 8290, 8291, 8292, 12288, 12644, 65024, 65025, 65026, 65027, 65028,
                         65029, 65030, 65031, 65032, 65033, 65034, 65035, 65036, 65037, 65038, 65039, 65279,
                         65440)) = ''
BEGIN
    SELECT RAISE(ABORT, 'a pizza name must show a visible character and contain no bidi control characters');
END;

CREATE TRIGGER pizzas_name_visible_update BEFORE UPDATE OF name ON pizzas
WHEN NEW.name GLOB '*[' || char(1564, 8206, 8207, 8234, 8235, 8236, 8237, 8238, 8294, 8295, 8296, 8297) || ']*'
  OR trim(NEW.name, char(32, 160, 173, 847, 4447, 4448, 6068, 6069, 6155, 6156, 6157, 6158, 8192, 8193, 8194,
                         8195, 8196, 8197, 8198, 8199, 8200, 8201, 8202, 8203, 8204, 8205, 8232, 8233, 8239,
                         8287, 8288, 8289, 8290, 8291, 8292, 12288, 12644, 65024, 65025, 65026, 65027, 65028,
                         65029, 65030, 65031, 65032, 65033, 65034, 65035, 65036, 65037, 65038, 65039, 65279,
                         65440)) = ''
BEGIN
    SELECT RAISE(ABORT, 'a pizza name must show a visible character and contain no bidi control characters');
END;

CREATE TRIGGER pizzas_never_deleted BEFORE DELETE ON pizzas
BEGIN
    SELECT RAISE(ABORT, 'pizzas are never deleted: archive instead (UPDATE pizzas SET archived_at = strftime(''%Y-%m-%dT%H:%M:%fZ'', ''now'') WHERE ...)');
END;

CREATE TRIGGER pizzas_never_replaced BEFORE INSERT ON pizzas
WHEN EXISTS (SELECT 1 FROM pizzas WHERE id = NEW.id)
BEGIN
    SELECT RAISE(ABORT, 'row_never_replaced: a row of pizzas is never replaced (REPLACE would delete it without its triggers); UPDATE it where the table allows, or insert a new row');
END;

CREATE TRIGGER pizzas_version_category_allergens AFTER UPDATE OF category_id, allergens ON pizzas
WHEN (OLD.category_id IS NOT NEW.category_id OR OLD.allergens IS NOT NEW.allergens)
  AND NEW.version = OLD.version
BEGIN
    UPDATE pizzas
    SET version = OLD.version + 1,
        updated_at = coalesce((SELECT at FROM audit_context WHERE id = 1), strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
    WHERE id = NEW.id;
END;

CREATE TRIGGER refunds_append_only_delete BEFORE DELETE ON refunds
BEGIN
    SELECT RAISE(ABORT, 'refunds_append_only: a refund is never deleted');
END;

CREATE TRIGGER refunds_append_only_update BEFORE UPDATE ON refunds
WHEN NOT (NEW.reason = '[erased]' AND OLD.reason <> '[erased]'
          AND NEW.id IS OLD.id AND NEW.payment_id IS OLD.payment_id AND NEW.amount_cents IS OLD.amount_cents
          AND NEW.at IS OLD.at AND NEW.actor IS OLD.actor
          AND EXISTS (SELECT 1 FROM payments p JOIN orders o ON o.id = p.order_id JOIN user_erasures e ON e.user_id = o.user_id
                      WHERE p.id = OLD.payment_id))
BEGIN
    SELECT RAISE(ABORT, 'refunds_append_only: a refund is never changed');
END;

CREATE TRIGGER refunds_event AFTER INSERT ON refunds
BEGIN
    INSERT INTO order_status_events (order_id, kind, from_status, to_status, detail, actor, at, pickup_local, total_cents)
    SELECT o.id, 'refunded', o.status, o.status,
           'refunded ' || printf('%d.%02d', NEW.amount_cents / 100, NEW.amount_cents % 100) || ' ' || p.method
           || ': ' || NEW.reason,
           NEW.actor, NEW.at, o.pickup_local, o.total_cents
    FROM payments p JOIN orders o ON o.id = p.order_id WHERE p.id = NEW.payment_id;
END;

CREATE TRIGGER refunds_never_replaced BEFORE INSERT ON refunds
WHEN NEW.id > 0 AND EXISTS (SELECT 1 FROM refunds WHERE id = NEW.id)
BEGIN
    SELECT RAISE(ABORT, 'row_never_replaced: a row of refunds is never replaced (REPLACE would delete it without its triggers); UPDATE it where the table allows, or insert a new row');
END;

CREATE TRIGGER refunds_within_payment BEFORE INSERT ON refunds
WHEN NEW.amount_cents > coalesce((SELECT amount_cents FROM payments WHERE id = NEW.payment_id), 0)
                        - (SELECT coalesce(sum(amount_cents), 0) FROM refunds WHERE payment_id = NEW.payment_id)
BEGIN
    SELECT RAISE(ABORT, 'refund_exceeds_payment: a payment''s refunds add up to at most its amount');
END;

CREATE TRIGGER schedule_exceptions_delete_bump_generation AFTER DELETE ON schedule_exceptions
BEGIN
    UPDATE config_generation SET generation = generation + 1 WHERE id = 1;
END;

CREATE TRIGGER schedule_exceptions_insert_bump_generation AFTER INSERT ON schedule_exceptions
BEGIN
    UPDATE config_generation SET generation = generation + 1 WHERE id = 1;
END;

CREATE TRIGGER schedule_exceptions_never_replaced BEFORE INSERT ON schedule_exceptions
WHEN NEW.id > 0 AND EXISTS (SELECT 1 FROM schedule_exceptions WHERE id = NEW.id)
BEGIN
    SELECT RAISE(ABORT, 'row_never_replaced: a row of schedule_exceptions is never replaced (REPLACE would delete it without its triggers); UPDATE it where the table allows, or insert a new row');
END;

CREATE TRIGGER schedule_exceptions_update_bump_generation AFTER UPDATE ON schedule_exceptions
BEGIN
    UPDATE config_generation SET generation = generation + 1 WHERE id = 1;
END;

CREATE TRIGGER settings_bump_generation AFTER UPDATE ON settings
BEGIN
    UPDATE config_generation SET generation = generation + 1 WHERE id = 1;
END;

CREATE TRIGGER settings_never_deleted BEFORE DELETE ON settings
BEGIN
    SELECT RAISE(ABORT, 'the settings row is required; change it with UPDATE');
END;

CREATE TRIGGER settings_never_replaced BEFORE INSERT ON settings
WHEN NEW.id > 0 AND EXISTS (SELECT 1 FROM settings WHERE id = NEW.id)
BEGIN
    SELECT RAISE(ABORT, 'row_never_replaced: a row of settings is never replaced (REPLACE would delete it without its triggers); UPDATE it where the table allows, or insert a new row');
END;

CREATE TRIGGER shop_kept BEFORE DELETE ON shop
BEGIN
    SELECT RAISE(ABORT, 'shop_kept: the shop row is the shop''s details; UPDATE it instead');
END;

CREATE TRIGGER shop_never_replaced BEFORE INSERT ON shop
WHEN NEW.id > 0 AND EXISTS (SELECT 1 FROM shop WHERE id = NEW.id)
BEGIN
    SELECT RAISE(ABORT, 'row_never_replaced: a row of shop is never replaced (REPLACE would delete it without its triggers); UPDATE it where the table allows, or insert a new row');
END;

CREATE TRIGGER slot_loads_booked_derived BEFORE UPDATE OF booked ON slot_loads
WHEN NEW.booked IS NOT (SELECT coalesce(sum(l.quantity * l.uses_oven), 0) FROM orders o JOIN order_lines l ON l.order_id = o.id
                        WHERE o.pickup_at = NEW.pickup_at AND o.status <> 'cancelled')
BEGIN
    SELECT RAISE(ABORT, 'slot_loads_derived: slot_loads.booked is the sum of the slot''s orders, kept by triggers; change the orders instead');
END;

CREATE TRIGGER slot_loads_capacity BEFORE UPDATE OF booked ON slot_loads
WHEN NEW.booked > OLD.booked AND NEW.booked > NEW.capacity
 AND NEW.booked > NEW.capacity + min((NEW.capacity + 3) / 4,
                                     coalesce((SELECT a.pizzas FROM slot_override_allowance a WHERE a.pickup_at = NEW.pickup_at), 0))
BEGIN
    SELECT RAISE(ABORT, 'slot_capacity_exceeded: the pickup slot has no room for these pizzas');
END;

CREATE TRIGGER slot_loads_effective_capacity AFTER UPDATE OF local_minute, service_day, capacity, capacity_rule_id ON slot_loads
BEGIN
    UPDATE slot_loads
    SET (capacity, capacity_rule_id) = (
        SELECT c.capacity, c.rule_id FROM capacity_candidates c
        WHERE (c.day = NEW.service_day OR c.weekday = (CAST(strftime('%w', NEW.service_day) AS INTEGER) + 6) % 7 + 1 OR c.rank = 2)
          AND c.start_minute <= NEW.local_minute AND NEW.local_minute < c.end_minute
        ORDER BY c.rank, c.width LIMIT 1)
    WHERE pickup_at = NEW.pickup_at;
END;

CREATE TRIGGER slot_loads_follow_capacity AFTER UPDATE OF slot_capacity ON settings
BEGIN
    UPDATE slot_loads SET local_minute = local_minute WHERE capacity_rule_id IS NULL;
END;

CREATE TRIGGER slot_loads_follow_local_time AFTER UPDATE OF pickup_local, service_day ON orders
WHEN NEW.pickup_at IS OLD.pickup_at
BEGIN
    UPDATE slot_loads
    SET service_day = NEW.service_day,
        local_minute = CAST(round((julianday(substr(NEW.pickup_local, 1, 16)) - julianday(NEW.service_day)) * 1440) AS INTEGER)
    WHERE pickup_at = NEW.pickup_at;
END;

CREATE TRIGGER slot_loads_insert_empty BEFORE INSERT ON slot_loads
WHEN NEW.booked <> 0
BEGIN
    SELECT RAISE(ABORT, 'slot_loads_derived: a slot_loads row starts empty; its load comes from its orders');
END;

CREATE TRIGGER slot_loads_kept_while_booked BEFORE DELETE ON slot_loads
WHEN OLD.booked > 0
BEGIN
    SELECT RAISE(ABORT, 'slot_loads_derived: a slot with booked pizzas keeps its row; cancel or move the orders instead');
END;

CREATE TRIGGER slot_loads_key_fixed BEFORE UPDATE OF pickup_at ON slot_loads
WHEN NEW.pickup_at IS NOT OLD.pickup_at
BEGIN
    SELECT RAISE(ABORT, 'slot_loads_derived: a slot_loads row belongs to its pickup time; move the orders instead');
END;

CREATE TRIGGER slot_loads_line_delete AFTER DELETE ON order_lines
BEGIN
    UPDATE slot_loads
    SET booked = (SELECT coalesce(sum(l.quantity * l.uses_oven), 0) FROM orders o JOIN order_lines l ON l.order_id = o.id
                  WHERE o.pickup_at = slot_loads.pickup_at AND o.status <> 'cancelled')
    WHERE pickup_at = (SELECT pickup_at FROM orders WHERE id = OLD.order_id);
END;

CREATE TRIGGER slot_loads_line_insert AFTER INSERT ON order_lines
BEGIN
    UPDATE slot_loads
    SET booked = (SELECT coalesce(sum(l.quantity * l.uses_oven), 0) FROM orders o JOIN order_lines l ON l.order_id = o.id
                  WHERE o.pickup_at = slot_loads.pickup_at AND o.status <> 'cancelled')
    WHERE pickup_at = (SELECT pickup_at FROM orders WHERE id = NEW.order_id);
    SELECT RAISE(ABORT, 'slot_capacity_exceeded: the pickup slot has no room for these pizzas (only a staff override lets an order past its capacity)')
    FROM orders o JOIN slot_loads s ON s.pickup_at = o.pickup_at
    WHERE o.id = NEW.order_id AND NEW.uses_oven = 1 AND o.status <> 'cancelled' AND s.booked > s.capacity
      AND NOT EXISTS (SELECT 1 FROM capacity_overrides c WHERE c.order_id = o.id AND c.pickup_at = o.pickup_at AND c.station_id IS NULL);
END;

CREATE TRIGGER slot_loads_line_update AFTER UPDATE OF quantity, uses_oven ON order_lines
BEGIN
    UPDATE slot_loads
    SET booked = (SELECT coalesce(sum(l.quantity * l.uses_oven), 0) FROM orders o JOIN order_lines l ON l.order_id = o.id
                  WHERE o.pickup_at = slot_loads.pickup_at AND o.status <> 'cancelled')
    WHERE pickup_at = (SELECT pickup_at FROM orders WHERE id = NEW.order_id);
    SELECT RAISE(ABORT, 'slot_capacity_exceeded: the pickup slot has no room for these pizzas (only a staff override lets an order past its capacity)')
    FROM orders o JOIN slot_loads s ON s.pickup_at = o.pickup_at
    WHERE o.id = NEW.order_id AND NEW.quantity * NEW.uses_oven > OLD.quantity * OLD.uses_oven
      AND o.status <> 'cancelled' AND s.booked > s.capacity
      AND NOT EXISTS (SELECT 1 FROM capacity_overrides c WHERE c.order_id = o.id AND c.pickup_at = o.pickup_at AND c.station_id IS NULL);
END;

CREATE TRIGGER slot_loads_never_replaced BEFORE INSERT ON slot_loads
WHEN EXISTS (SELECT 1 FROM slot_loads WHERE pickup_at = NEW.pickup_at)
BEGIN
    SELECT RAISE(ABORT, 'row_never_replaced: a row of slot_loads is never replaced (REPLACE would delete it without its triggers); UPDATE it where the table allows, or insert a new row');
END;

CREATE TRIGGER slot_loads_open AFTER INSERT ON orders
WHEN NOT EXISTS (SELECT 1 FROM slot_loads WHERE pickup_at = NEW.pickup_at)
BEGIN
    INSERT INTO slot_loads (pickup_at, service_day, local_minute, capacity, capacity_rule_id)
    SELECT NEW.pickup_at, NEW.service_day, m.minute, c.capacity, c.rule_id
    FROM (SELECT CAST(round((julianday(substr(NEW.pickup_local, 1, 16)) - julianday(NEW.service_day)) * 1440) AS INTEGER) AS minute,
                 (CAST(strftime('%w', NEW.service_day) AS INTEGER) + 6) % 7 + 1 AS weekday) m
    JOIN capacity_candidates c
      ON (c.day = NEW.service_day OR c.weekday = m.weekday OR c.rank = 2) AND c.start_minute <= m.minute AND m.minute < c.end_minute
    ORDER BY c.rank, c.width LIMIT 1;
END;

CREATE TRIGGER slot_loads_order_change AFTER UPDATE OF status, pickup_at ON orders
WHEN NEW.status IS NOT OLD.status OR NEW.pickup_at IS NOT OLD.pickup_at
BEGIN
    INSERT INTO slot_loads (pickup_at, service_day, local_minute, capacity, capacity_rule_id)
    SELECT NEW.pickup_at, NEW.service_day, m.minute, c.capacity, c.rule_id
    FROM (SELECT CAST(round((julianday(substr(NEW.pickup_local, 1, 16)) - julianday(NEW.service_day)) * 1440) AS INTEGER) AS minute,
                 (CAST(strftime('%w', NEW.service_day) AS INTEGER) + 6) % 7 + 1 AS weekday) m
    JOIN capacity_candidates c
      ON (c.day = NEW.service_day OR c.weekday = m.weekday OR c.rank = 2) AND c.start_minute <= m.minute AND m.minute < c.end_minute
    WHERE NOT EXISTS (SELECT 1 FROM slot_loads WHERE pickup_at = NEW.pickup_at)
    ORDER BY c.rank, c.width LIMIT 1;
    UPDATE slot_loads
    SET booked = (SELECT coalesce(sum(l.quantity * l.uses_oven), 0) FROM orders o JOIN order_lines l ON l.order_id = o.id
                  WHERE o.pickup_at = slot_loads.pickup_at AND o.status <> 'cancelled')
    WHERE pickup_at = OLD.pickup_at;
    UPDATE slot_loads
    SET booked = (SELECT coalesce(sum(l.quantity * l.uses_oven), 0) FROM orders o JOIN order_lines l ON l.order_id = o.id
                  WHERE o.pickup_at = slot_loads.pickup_at AND o.status <> 'cancelled')
    WHERE pickup_at = NEW.pickup_at AND NEW.pickup_at IS NOT OLD.pickup_at;
    SELECT RAISE(ABORT, 'slot_capacity_exceeded: the pickup slot has no room for these pizzas (only a staff override lets an order past its capacity)')
    FROM slot_loads s
    WHERE s.pickup_at = NEW.pickup_at AND NEW.status <> 'cancelled'
      AND (OLD.status = 'cancelled' OR NEW.pickup_at IS NOT OLD.pickup_at) AND s.booked > s.capacity
      AND EXISTS (SELECT 1 FROM order_lines l WHERE l.order_id = NEW.id AND l.uses_oven = 1)
      AND NOT EXISTS (SELECT 1 FROM capacity_overrides c WHERE c.order_id = NEW.id AND c.pickup_at = NEW.pickup_at AND c.station_id IS NULL);
END;

CREATE TRIGGER slot_loads_ruled BEFORE INSERT ON slot_loads
WHEN (NEW.capacity, NEW.capacity_rule_id) IS NOT (
    SELECT c.capacity, c.rule_id FROM capacity_candidates c
    WHERE (c.day = NEW.service_day OR c.weekday = (CAST(strftime('%w', NEW.service_day) AS INTEGER) + 6) % 7 + 1 OR c.rank = 2)
      AND c.start_minute <= NEW.local_minute AND NEW.local_minute < c.end_minute
    ORDER BY c.rank, c.width LIMIT 1)
BEGIN
    SELECT RAISE(ABORT, 'slot_loads_derived: a slot''s capacity and rule come from the capacity rules (view capacity_candidates); let an order open the slot');
END;

CREATE TRIGGER staff_never_replaced BEFORE INSERT ON staff
WHEN EXISTS (SELECT 1 FROM staff WHERE name = NEW.name)
BEGIN
    SELECT RAISE(ABORT, 'row_never_replaced: a row of staff is never replaced (REPLACE would delete it without its triggers); UPDATE it where the table allows, or insert a new row');
END;

CREATE TRIGGER station_bumps_back_from_ready AFTER UPDATE OF status ON orders
WHEN OLD.status = 'ready' AND NEW.status IN ('placed', 'preparing')
BEGIN
    DELETE FROM station_bumps WHERE order_id = NEW.id;
END;

CREATE TRIGGER station_bumps_fixed BEFORE UPDATE ON station_bumps
BEGIN
    SELECT RAISE(ABORT, 'station_bump: a bump is not changed; the order going back from ready, or more to make, takes it away');
END;

CREATE TRIGGER station_bumps_more_of_a_line AFTER UPDATE OF quantity ON order_lines
WHEN NEW.quantity > OLD.quantity AND EXISTS (SELECT 1 FROM station_bumps WHERE order_id = NEW.order_id)
BEGIN
    DELETE FROM station_bumps WHERE order_id = NEW.order_id AND station_id IS NEW.station_id;
END;

CREATE TRIGGER station_bumps_more_to_make AFTER INSERT ON order_lines
WHEN EXISTS (SELECT 1 FROM station_bumps WHERE order_id = NEW.order_id)
BEGIN
    DELETE FROM station_bumps WHERE order_id = NEW.order_id AND station_id IS NEW.station_id;
END;

CREATE TRIGGER station_bumps_rules BEFORE INSERT ON station_bumps
WHEN (SELECT status FROM orders WHERE id = NEW.order_id) NOT IN ('placed', 'preparing')
  OR NOT EXISTS (SELECT 1 FROM order_lines WHERE order_id = NEW.order_id AND station_id = NEW.station_id)
BEGIN
    SELECT RAISE(ABORT, 'station_bump: a station marks done only its part of a placed or preparing order (the order has lines it makes)');
END;

CREATE TRIGGER station_capacity_rules_delete_bump_generation AFTER DELETE ON station_capacity_rules
BEGIN
    UPDATE config_generation SET generation = generation + 1 WHERE id = 1;
END;

CREATE TRIGGER station_capacity_rules_fixed_range BEFORE UPDATE OF station_id, weekday, day, starts_at, ends_at ON station_capacity_rules
BEGIN
    SELECT RAISE(ABORT, 'capacity_rules_fixed_range: delete the rule and insert the new range');
END;

CREATE TRIGGER station_capacity_rules_insert_bump_generation AFTER INSERT ON station_capacity_rules
BEGIN
    UPDATE config_generation SET generation = generation + 1 WHERE id = 1;
END;

CREATE TRIGGER station_capacity_rules_never_replaced BEFORE INSERT ON station_capacity_rules
WHEN NEW.id > 0 AND EXISTS (SELECT 1 FROM station_capacity_rules WHERE id = NEW.id)
BEGIN
    SELECT RAISE(ABORT, 'row_never_replaced: a row of station_capacity_rules is never replaced (REPLACE would delete it without its triggers); UPDATE it where the table allows, or insert a new row');
END;

CREATE TRIGGER station_capacity_rules_no_partial_overlap BEFORE INSERT ON station_capacity_rules
WHEN EXISTS (
    SELECT 1 FROM station_capacity_rules r
    WHERE r.station_id = NEW.station_id AND (r.weekday IS NEW.weekday AND r.day IS NEW.day)
      AND (CAST(substr(NEW.starts_at, 1, 2) AS INTEGER) * 60 + CAST(substr(NEW.starts_at, 4, 2) AS INTEGER)) < r.end_minute
      AND r.start_minute < (CAST(substr(NEW.ends_at, 1, 2) AS INTEGER) * 60 + CAST(substr(NEW.ends_at, 4, 2) AS INTEGER)
                            + CASE WHEN NEW.ends_at <= NEW.starts_at THEN 1440 ELSE 0 END)
      AND NOT (r.start_minute <= (CAST(substr(NEW.starts_at, 1, 2) AS INTEGER) * 60 + CAST(substr(NEW.starts_at, 4, 2) AS INTEGER))
               AND (CAST(substr(NEW.ends_at, 1, 2) AS INTEGER) * 60 + CAST(substr(NEW.ends_at, 4, 2) AS INTEGER)
                    + CASE WHEN NEW.ends_at <= NEW.starts_at THEN 1440 ELSE 0 END) <= r.end_minute)
      AND NOT ((CAST(substr(NEW.starts_at, 1, 2) AS INTEGER) * 60 + CAST(substr(NEW.starts_at, 4, 2) AS INTEGER)) <= r.start_minute
               AND r.end_minute <= (CAST(substr(NEW.ends_at, 1, 2) AS INTEGER) * 60 + CAST(substr(NEW.ends_at, 4, 2) AS INTEGER)
                                    + CASE WHEN NEW.ends_at <= NEW.starts_at THEN 1440 ELSE 0 END))
)
BEGIN
    SELECT RAISE(ABORT, 'capacity_rules_overlap: two rules of one station and kind on one day must be nested or apart');
END;

CREATE TRIGGER station_capacity_rules_not_the_slots BEFORE INSERT ON station_capacity_rules
WHEN EXISTS (SELECT 1 FROM stations WHERE id = NEW.station_id AND holds_slot_capacity = 1)
BEGIN
    SELECT RAISE(ABORT, 'station_capacity_rules_slot_station: the station holding the slot capacity takes its capacity from capacity_rules');
END;

CREATE TRIGGER station_capacity_rules_update_bump_generation AFTER UPDATE ON station_capacity_rules
BEGIN
    UPDATE config_generation SET generation = generation + 1 WHERE id = 1;
END;

CREATE TRIGGER station_loads_booked_derived BEFORE UPDATE OF booked ON station_loads
WHEN NEW.booked IS NOT (SELECT coalesce(sum(l.quantity), 0) FROM orders o JOIN order_lines l ON l.order_id = o.id
                        WHERE o.pickup_at = NEW.pickup_at AND o.status <> 'cancelled' AND l.station_id = NEW.station_id)
BEGIN
    SELECT RAISE(ABORT, 'station_loads_derived: station_loads.booked is the sum of the slot''s lines at the station, kept by triggers; change the orders instead');
END;

CREATE TRIGGER station_loads_capacity BEFORE UPDATE OF booked ON station_loads
WHEN NEW.booked > OLD.booked AND NEW.booked > (
    SELECT c.capacity + min((c.capacity + 3) / 4,
                            coalesce((SELECT a.pieces FROM station_override_allowance a
                                      WHERE a.station_id = NEW.station_id AND a.pickup_at = NEW.pickup_at), 0))
    FROM slot_loads s JOIN station_capacity_candidates c ON c.station_id = NEW.station_id
    WHERE s.pickup_at = NEW.pickup_at
      AND (c.day = s.service_day OR c.weekday = (CAST(strftime('%w', s.service_day) AS INTEGER) + 6) % 7 + 1 OR c.rank = 2)
      AND c.start_minute <= s.local_minute AND s.local_minute < c.end_minute
    ORDER BY c.rank, c.width LIMIT 1)
BEGIN
    SELECT RAISE(ABORT, 'station_capacity_exceeded: the station has no room for these pieces in the pickup slot (its capacity rule for the slot, else stations.capacity; a staff override passes it by at most a quarter, rounded up)');
END;

CREATE TRIGGER station_loads_insert_empty BEFORE INSERT ON station_loads
WHEN NEW.booked <> 0
  OR EXISTS (SELECT 1 FROM stations WHERE id = NEW.station_id AND holds_slot_capacity = 1)
BEGIN
    SELECT RAISE(ABORT, 'station_loads_derived: a station_loads row starts empty, for a station other than the one holding the slot capacity (its load is slot_loads); its load comes from its orders');
END;

CREATE TRIGGER station_loads_kept_while_booked BEFORE DELETE ON station_loads
WHEN OLD.booked > 0
BEGIN
    SELECT RAISE(ABORT, 'station_loads_derived: a station''s slot with booked pieces keeps its row; cancel or move the orders instead');
END;

CREATE TRIGGER station_loads_key_fixed BEFORE UPDATE OF station_id, pickup_at ON station_loads
WHEN NEW.station_id IS NOT OLD.station_id OR NEW.pickup_at IS NOT OLD.pickup_at
BEGIN
    SELECT RAISE(ABORT, 'station_loads_derived: a station_loads row belongs to its station and pickup time; move the orders instead');
END;

CREATE TRIGGER station_loads_line_delete AFTER DELETE ON order_lines
WHEN OLD.station_id IS NOT NULL AND OLD.uses_oven = 0
BEGIN
    UPDATE station_loads
    SET booked = (SELECT coalesce(sum(l.quantity), 0) FROM orders o JOIN order_lines l ON l.order_id = o.id
                  WHERE o.pickup_at = station_loads.pickup_at AND o.status <> 'cancelled' AND l.station_id = station_loads.station_id)
    WHERE station_id = OLD.station_id AND pickup_at = (SELECT pickup_at FROM orders WHERE id = OLD.order_id);
END;

CREATE TRIGGER station_loads_line_insert AFTER INSERT ON order_lines
WHEN NEW.uses_oven = 0
 AND coalesce(NEW.station_id, (SELECT k.station_id FROM pizzas p JOIN categories k ON k.id = p.category_id WHERE p.id = NEW.pizza_id)) IS NOT NULL
BEGIN
    INSERT INTO station_loads (station_id, pickup_at)
    SELECT l.station_id, o.pickup_at FROM order_lines l JOIN orders o ON o.id = l.order_id
    WHERE l.order_id = NEW.order_id AND l.line_no = NEW.line_no
      AND NOT EXISTS (SELECT 1 FROM station_loads s WHERE s.station_id = l.station_id AND s.pickup_at = o.pickup_at);
    UPDATE station_loads
    SET booked = (SELECT coalesce(sum(l.quantity), 0) FROM orders o JOIN order_lines l ON l.order_id = o.id
                  WHERE o.pickup_at = station_loads.pickup_at AND o.status <> 'cancelled' AND l.station_id = station_loads.station_id)
    WHERE station_id = (SELECT station_id FROM order_lines WHERE order_id = NEW.order_id AND line_no = NEW.line_no)
      AND pickup_at = (SELECT pickup_at FROM orders WHERE id = NEW.order_id);
    SELECT RAISE(ABORT, 'station_capacity_exceeded: the station has no room for these pieces in the pickup slot (only a staff override lets an order past its capacity)')
    FROM order_lines l JOIN orders o ON o.id = l.order_id
    JOIN station_slot_capacity s ON s.station_id = l.station_id AND s.pickup_at = o.pickup_at
    WHERE l.order_id = NEW.order_id AND l.line_no = NEW.line_no AND o.status <> 'cancelled' AND s.booked > s.capacity
      AND NOT EXISTS (SELECT 1 FROM capacity_overrides c
                      WHERE c.order_id = o.id AND c.pickup_at = o.pickup_at AND c.station_id = l.station_id);
END;

CREATE TRIGGER station_loads_line_update AFTER UPDATE OF quantity ON order_lines
WHEN NEW.station_id IS NOT NULL AND NEW.uses_oven = 0 AND NEW.quantity IS NOT OLD.quantity
BEGIN
    UPDATE station_loads
    SET booked = (SELECT coalesce(sum(l.quantity), 0) FROM orders o JOIN order_lines l ON l.order_id = o.id
                  WHERE o.pickup_at = station_loads.pickup_at AND o.status <> 'cancelled' AND l.station_id = station_loads.station_id)
    WHERE station_id = NEW.station_id AND pickup_at = (SELECT pickup_at FROM orders WHERE id = NEW.order_id);
    SELECT RAISE(ABORT, 'station_capacity_exceeded: the station has no room for these pieces in the pickup slot (only a staff override lets an order past its capacity)')
    FROM orders o JOIN station_slot_capacity s ON s.station_id = NEW.station_id AND s.pickup_at = o.pickup_at
    WHERE o.id = NEW.order_id AND NEW.quantity > OLD.quantity AND o.status <> 'cancelled' AND s.booked > s.capacity
      AND NOT EXISTS (SELECT 1 FROM capacity_overrides c
                      WHERE c.order_id = o.id AND c.pickup_at = o.pickup_at AND c.station_id = NEW.station_id);
END;

CREATE TRIGGER station_loads_never_replaced BEFORE INSERT ON station_loads
WHEN EXISTS (SELECT 1 FROM station_loads WHERE station_id = NEW.station_id AND pickup_at = NEW.pickup_at)
BEGIN
    SELECT RAISE(ABORT, 'row_never_replaced: a row of station_loads is never replaced (REPLACE would delete it without its triggers); its load comes from its orders');
END;

CREATE TRIGGER station_loads_order_change AFTER UPDATE OF status, pickup_at ON orders
WHEN (NEW.status IS NOT OLD.status OR NEW.pickup_at IS NOT OLD.pickup_at)
 AND EXISTS (SELECT 1 FROM order_lines l WHERE l.order_id = NEW.id AND l.station_id IS NOT NULL AND l.uses_oven = 0)
BEGIN
    INSERT INTO station_loads (station_id, pickup_at)
    SELECT DISTINCT l.station_id, NEW.pickup_at FROM order_lines l
    WHERE l.order_id = NEW.id AND l.station_id IS NOT NULL AND l.uses_oven = 0
      AND NOT EXISTS (SELECT 1 FROM station_loads s WHERE s.station_id = l.station_id AND s.pickup_at = NEW.pickup_at);
    UPDATE station_loads
    SET booked = (SELECT coalesce(sum(l.quantity), 0) FROM orders o JOIN order_lines l ON l.order_id = o.id
                  WHERE o.pickup_at = station_loads.pickup_at AND o.status <> 'cancelled' AND l.station_id = station_loads.station_id)
    WHERE pickup_at = OLD.pickup_at
      AND station_id IN (SELECT l.station_id FROM order_lines l WHERE l.order_id = NEW.id AND l.uses_oven = 0);
    UPDATE station_loads
    SET booked = (SELECT coalesce(sum(l.quantity), 0) FROM orders o JOIN order_lines l ON l.order_id = o.id
                  WHERE o.pickup_at = station_loads.pickup_at AND o.status <> 'cancelled' AND l.station_id = station_loads.station_id)
    WHERE pickup_at = NEW.pickup_at AND NEW.pickup_at IS NOT OLD.pickup_at
      AND station_id IN (SELECT l.station_id FROM order_lines l WHERE l.order_id = NEW.id AND l.uses_oven = 0);
    SELECT RAISE(ABORT, 'station_capacity_exceeded: the station has no room for these pieces in the pickup slot (only a staff override lets an order past its capacity)')
    FROM station_slot_capacity s
    WHERE s.pickup_at = NEW.pickup_at AND NEW.status <> 'cancelled'
      AND (OLD.status = 'cancelled' OR NEW.pickup_at IS NOT OLD.pickup_at) AND s.booked > s.capacity
      AND s.station_id IN (SELECT l.station_id FROM order_lines l WHERE l.order_id = NEW.id AND l.uses_oven = 0)
      AND NOT EXISTS (SELECT 1 FROM capacity_overrides c
                      WHERE c.order_id = NEW.id AND c.pickup_at = NEW.pickup_at AND c.station_id = s.station_id);
END;

CREATE TRIGGER stations_holding_fixed BEFORE UPDATE OF id, holds_slot_capacity ON stations
WHEN NEW.id IS NOT OLD.id OR NEW.holds_slot_capacity IS NOT OLD.holds_slot_capacity
BEGIN
    SELECT RAISE(ABORT, 'station_fixed: a station keeps its id, and the station holding the slot capacity stays the one (rename it instead)');
END;

CREATE TRIGGER stations_kept_while_used BEFORE DELETE ON stations
WHEN OLD.holds_slot_capacity = 1
  OR EXISTS (SELECT 1 FROM categories WHERE station_id = OLD.id)
  OR EXISTS (SELECT 1 FROM order_lines WHERE station_id = OLD.id AND uses_oven = 0 AND station_id IS NOT NULL)
BEGIN
    SELECT RAISE(ABORT, 'station_in_use: the station holds the slot capacity, prepares a category or has booked lines; move its categories to another station first (a station with booked lines keeps its row: rename it)');
END;

CREATE TRIGGER stations_never_replaced BEFORE INSERT ON stations
WHEN NEW.id > 0 AND EXISTS (SELECT 1 FROM stations WHERE id = NEW.id)
BEGIN
    SELECT RAISE(ABORT, 'row_never_replaced: a row of stations is never replaced (REPLACE would delete it without its triggers); UPDATE it where the table allows, or insert a new row');
END;

CREATE TRIGGER user_erasures_append_only_delete BEFORE DELETE ON user_erasures
BEGIN
    SELECT RAISE(ABORT, 'history_append_only: user_erasures is append-only');
END;

CREATE TRIGGER user_erasures_append_only_update BEFORE UPDATE ON user_erasures
WHEN NOT (NEW.user_id IS OLD.user_id AND NEW.erased_at IS OLD.erased_at AND NEW.actor IS OLD.actor AND OLD.wal_cleared_at IS NULL)
BEGIN
    SELECT RAISE(ABORT, 'history_append_only: user_erasures is append-only (but for wal_cleared_at, set once)');
END;

CREATE TRIGGER user_erasures_never_replaced BEFORE INSERT ON user_erasures
WHEN EXISTS (SELECT 1 FROM user_erasures WHERE user_id = NEW.user_id)
BEGIN
    SELECT RAISE(ABORT, 'row_never_replaced: a row of user_erasures is never replaced (REPLACE would delete it without its triggers); UPDATE it where the table allows, or insert a new row');
END;

CREATE TRIGGER users_erased_identity_locked BEFORE UPDATE OF handle, display_name, phone ON users
WHEN EXISTS (SELECT 1 FROM user_erasures WHERE user_id = OLD.id)
 AND NOT (NEW.handle IS 'erased-' || substr(OLD.id, 1, 13) AND NEW.display_name IS NULL AND NEW.phone IS NULL)
BEGIN
    SELECT RAISE(ABORT, 'user_erased: this customer''s data was erased; it cannot be filled in again');
END;

CREATE TRIGGER users_last_stack_change_insert BEFORE INSERT ON users
WHEN NEW.last_stack_change IS NOT NULL
BEGIN
    SELECT RAISE(ABORT, 'last_stack_change: a new user has no navigation events; leave last_stack_change out');
END;

CREATE TRIGGER users_last_stack_change_update BEFORE UPDATE OF last_stack_change ON users
WHEN (NEW.last_stack_change IS NOT NULL AND NOT EXISTS (
          SELECT 1 FROM navigation_events e
          WHERE e.id = NEW.last_stack_change AND e.user_id = NEW.id AND e.action NOT GLOB 'sheet_*'))
  OR EXISTS (
          SELECT 1 FROM navigation_events l
          WHERE l.user_id = NEW.id AND l.id > coalesce(NEW.last_stack_change, -1) AND l.action NOT GLOB 'sheet_*')
BEGIN
    SELECT RAISE(ABORT, 'last_stack_change: users.last_stack_change is the id of the user''s latest navigation event that changed the stack, kept by the history; add an event instead');
END;

CREATE TRIGGER users_timestamp_insert BEFORE INSERT ON users
WHEN strftime('%Y-%m-%dT%H:%M:%fZ', NEW.created_at) IS NOT NEW.created_at
BEGIN
    SELECT RAISE(ABORT, 'timestamp_format: users.created_at is a UTC time such as 2026-12-01T18:30:00.000Z');
END;

CREATE TRIGGER users_timestamp_update BEFORE UPDATE OF created_at ON users
WHEN NEW.created_at IS NOT OLD.created_at
BEGIN
    SELECT RAISE(ABORT, 'timestamp_format: a user''s created_at never changes');
END;

CREATE TRIGGER weekly_hours_delete_bump_generation AFTER DELETE ON weekly_hours
BEGIN
    UPDATE config_generation SET generation = generation + 1 WHERE id = 1;
END;

CREATE TRIGGER weekly_hours_insert_bump_generation AFTER INSERT ON weekly_hours
BEGIN
    UPDATE config_generation SET generation = generation + 1 WHERE id = 1;
END;

CREATE TRIGGER weekly_hours_never_replaced BEFORE INSERT ON weekly_hours
WHEN NEW.id > 0 AND EXISTS (SELECT 1 FROM weekly_hours WHERE id = NEW.id)
BEGIN
    SELECT RAISE(ABORT, 'row_never_replaced: a row of weekly_hours is never replaced (REPLACE would delete it without its triggers); UPDATE it where the table allows, or insert a new row');
END;

CREATE TRIGGER weekly_hours_no_overlap_insert AFTER INSERT ON weekly_hours
WHEN EXISTS (SELECT 1 FROM weekly_hours_minutes a JOIN weekly_hours_minutes b ON b.id <> a.id
             WHERE a.id = NEW.id
               AND ((((b.starts - a.starts) % 10080) + 10080) % 10080 < a.length
                 OR (((a.starts - b.starts) % 10080) + 10080) % 10080 < b.length))
BEGIN
    SELECT RAISE(ABORT, 'hours_overlap: two opening intervals of the week overlap');
END;

CREATE TRIGGER weekly_hours_no_overlap_update AFTER UPDATE ON weekly_hours
WHEN EXISTS (SELECT 1 FROM weekly_hours_minutes a JOIN weekly_hours_minutes b ON b.id <> a.id
             WHERE a.id = NEW.id
               AND ((((b.starts - a.starts) % 10080) + 10080) % 10080 < a.length
                 OR (((a.starts - b.starts) % 10080) + 10080) % 10080 < b.length))
BEGIN
    SELECT RAISE(ABORT, 'hours_overlap: two opening intervals of the week overlap');
END;

CREATE TRIGGER weekly_hours_per_day_limit AFTER INSERT ON weekly_hours
WHEN (SELECT count(*) FROM weekly_hours WHERE weekday = NEW.weekday) > 8
BEGIN
    SELECT RAISE(ABORT, 'hours_limit: a weekday has at most 8 opening intervals');
END;

CREATE TRIGGER weekly_hours_update_bump_generation AFTER UPDATE ON weekly_hours
BEGIN
    UPDATE config_generation SET generation = generation + 1 WHERE id = 1;
END;
