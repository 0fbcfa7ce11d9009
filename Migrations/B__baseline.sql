-- baseline of schema version 48
-- Generated from a file every migration made (PIZZERIA_WRITE_SCHEMA=1 swift test --filter
-- SchemaSnapshotTests); do not edit. A new file is made from it in one step; the repeatable
-- definitions (R__*.sql) then make the views and triggers. Tables change in migrations only.

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
CREATE INDEX navigation_sheets_by_pizza ON navigation_sheets (pizza_id) WHERE pizza_id IS NOT NULL;
CREATE UNIQUE INDEX pizzas_name_key ON pizzas (name_key);
CREATE TABLE weekly_hours (
    id        INTEGER PRIMARY KEY,
    weekday   INTEGER NOT NULL CHECK (weekday BETWEEN 1 AND 7),
    opens_at  TEXT NOT NULL CHECK (opens_at GLOB '[0-2][0-9]:[0-5][0-9]' AND opens_at <= '23:59'),
    closes_at TEXT NOT NULL CHECK (closes_at GLOB '[0-2][0-9]:[0-5][0-9]' AND closes_at <= '24:00'),
    CHECK (closes_at <> opens_at),
    UNIQUE (weekday, opens_at)
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
CREATE INDEX schedule_exceptions_by_day ON schedule_exceptions (day, kind);
CREATE UNIQUE INDEX schedule_exceptions_one_closure ON schedule_exceptions (day) WHERE kind = 'closed';
CREATE TABLE slot_loads (
    pickup_at   TEXT NOT NULL PRIMARY KEY,
    service_day TEXT NOT NULL,
    capacity    INTEGER NOT NULL CHECK (capacity BETWEEN 1 AND 10000),
    booked      INTEGER NOT NULL DEFAULT 0 CHECK (booked >= 0)
, local_minute INTEGER NOT NULL DEFAULT 0 CHECK (local_minute BETWEEN 0 AND 2880), capacity_rule_id INTEGER) STRICT, WITHOUT ROWID;
CREATE INDEX slot_loads_by_service_day ON slot_loads (service_day, pickup_at);
CREATE TABLE user_erasures (
    user_id   TEXT NOT NULL PRIMARY KEY REFERENCES users (id),
    erased_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
    actor     TEXT CHECK (actor IS NULL OR length(actor) BETWEEN 1 AND 64)
, wal_cleared_at TEXT
    CHECK (wal_cleared_at IS NULL OR wal_cleared_at GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]T*Z')) STRICT;
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
CREATE UNIQUE INDEX capacity_rules_by_weekday ON capacity_rules (weekday, starts_at, ends_at) WHERE weekday IS NOT NULL;
CREATE UNIQUE INDEX capacity_rules_by_day ON capacity_rules (day, starts_at, ends_at) WHERE day IS NOT NULL;
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
CREATE INDEX audit_log_by_time ON audit_log (at, id);
CREATE TABLE staff (
    name     TEXT NOT NULL PRIMARY KEY
             CHECK (length(name) BETWEEN 1 AND 64
                    AND name NOT GLOB ('*[' || char(1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,26,
                                                    27,28,29,30,31,127) || ']*')),
    role     TEXT NOT NULL CHECK (role IN ('owner', 'manager', 'counter')),
    added_at TEXT NOT NULL CHECK (strftime('%Y-%m-%dT%H:%M:%fZ', added_at) IS added_at)
) STRICT;
CREATE TABLE config_generation (
    id         INTEGER PRIMARY KEY CHECK (id = 1),
    generation INTEGER NOT NULL DEFAULT 0 CHECK (generation >= 0)
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
CREATE INDEX pizza_view_counts_by_views ON pizza_view_counts (views DESC);
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
CREATE INDEX pizzas_by_category ON pizzas (category_id, name_key);
CREATE TABLE allergens (
    bit     INTEGER PRIMARY KEY CHECK (bit > 0 AND (bit & (bit - 1)) = 0),
    code    TEXT NOT NULL UNIQUE CHECK (code GLOB '[a-z]*' AND length(code) <= 20),
    name_en TEXT NOT NULL,
    name_it TEXT NOT NULL
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
CREATE TABLE modifier_prices (
    modifier_id  INTEGER NOT NULL REFERENCES modifiers (id),
    variant_name TEXT NOT NULL COLLATE NOCASE CHECK (length(variant_name) BETWEEN 1 AND 30),
    price_cents  INTEGER NOT NULL CHECK (price_cents BETWEEN 0 AND 10000),
    PRIMARY KEY (modifier_id, variant_name)
) STRICT, WITHOUT ROWID;
CREATE TABLE pizza_modifier_groups (
    pizza_id TEXT NOT NULL REFERENCES pizzas (id),
    group_id INTEGER NOT NULL REFERENCES modifier_groups (id), pizza_name_key TEXT,
    PRIMARY KEY (pizza_id, group_id)
) STRICT, WITHOUT ROWID;
CREATE INDEX pizza_modifier_groups_by_group ON pizza_modifier_groups (group_id);
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
CREATE INDEX payments_by_order ON payments (order_id, id);
CREATE INDEX payments_by_time ON payments (at);
CREATE UNIQUE INDEX payments_by_reference ON payments (method, reference) WHERE reference IS NOT NULL;
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
CREATE INDEX refunds_by_payment ON refunds (payment_id, id);
CREATE INDEX refunds_by_time ON refunds (at);
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
CREATE INDEX capacity_overrides_by_slot ON capacity_overrides (pickup_at);
CREATE INDEX capacity_overrides_by_order ON capacity_overrides (order_id);
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
CREATE INDEX order_status_events_by_order ON order_status_events (order_id, id);
CREATE UNIQUE INDEX orders_by_idempotency_key ON orders (idempotency_key) WHERE idempotency_key IS NOT NULL;
CREATE INDEX orders_by_party ON orders (party_id) WHERE party_id IS NOT NULL;
CREATE INDEX orders_by_pickup_id ON orders (pickup_at, id);
CREATE INDEX orders_by_service_day ON orders (service_day, pickup_at, id);
CREATE INDEX orders_by_status_pickup ON orders (status, pickup_at, id);
CREATE INDEX orders_by_user_pickup ON orders (user_id, pickup_at, id);
CREATE INDEX pizza_modifier_groups_in_menu_order ON pizza_modifier_groups (pizza_name_key, group_id);
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
CREATE INDEX navigation_events_by_user ON navigation_events (user_id, id);
CREATE INDEX navigation_stack_by_category ON navigation_stack (category_id) WHERE category_id IS NOT NULL;
CREATE INDEX navigation_stack_by_order ON navigation_stack (order_id) WHERE order_id IS NOT NULL;
CREATE INDEX navigation_stack_by_pizza ON navigation_stack (pizza_id) WHERE pizza_id IS NOT NULL;
CREATE INDEX audit_log_by_object ON audit_log (object, id) WHERE history_id IS NULL;
CREATE INDEX audit_log_by_history ON audit_log (history_id) WHERE history_id IS NOT NULL;
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
CREATE INDEX pizza_variants_in_menu_order ON pizza_variants (pizza_name_key);
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
CREATE UNIQUE INDEX stations_one_holding_slot_capacity ON stations (holds_slot_capacity) WHERE holds_slot_capacity = 1;
CREATE INDEX order_lines_by_station ON order_lines (station_id) WHERE uses_oven = 0 AND station_id IS NOT NULL;
CREATE TABLE station_loads (
    station_id INTEGER NOT NULL REFERENCES stations (id),
    pickup_at  TEXT NOT NULL
               CHECK (pickup_at GLOB '[0-9][0-9][0-9][0-9]-[0-1][0-9]-[0-3][0-9]T[0-2][0-9]:[0-5][0-9]:00Z'),
    booked     INTEGER NOT NULL DEFAULT 0 CHECK (booked >= 0),
    PRIMARY KEY (station_id, pickup_at)
) STRICT, WITHOUT ROWID;
CREATE TABLE station_bumps (
    order_id   TEXT NOT NULL REFERENCES orders (id),
    station_id INTEGER NOT NULL REFERENCES stations (id),
    at         TEXT NOT NULL CHECK (at GLOB '[0-9][0-9][0-9][0-9]-[0-1][0-9]-[0-3][0-9]T[0-2][0-9]:[0-5][0-9]:[0-5][0-9]*Z'),
    actor      TEXT CHECK (actor IS NULL OR length(actor) BETWEEN 1 AND 64),
    PRIMARY KEY (order_id, station_id)
) STRICT, WITHOUT ROWID;
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
CREATE INDEX drawer_counts_by_day ON drawer_counts (service_day, id);
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
CREATE UNIQUE INDEX station_capacity_rules_by_weekday ON station_capacity_rules (station_id, weekday, starts_at, ends_at) WHERE weekday IS NOT NULL;
CREATE UNIQUE INDEX station_capacity_rules_by_day ON station_capacity_rules (station_id, day, starts_at, ends_at) WHERE day IS NOT NULL;
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
CREATE INDEX payments_by_party_payment ON payments (party_payment_id) WHERE party_payment_id IS NOT NULL;
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
CREATE INDEX capacity_overrides_by_station ON capacity_overrides (station_id, pickup_at) WHERE station_id IS NOT NULL;

INSERT INTO "weekly_hours" ("id", "weekday", "opens_at", "closes_at") VALUES (1, 1, '12:00', '23:00');
INSERT INTO "weekly_hours" ("id", "weekday", "opens_at", "closes_at") VALUES (2, 2, '12:00', '23:00');
INSERT INTO "weekly_hours" ("id", "weekday", "opens_at", "closes_at") VALUES (3, 3, '12:00', '23:00');
INSERT INTO "weekly_hours" ("id", "weekday", "opens_at", "closes_at") VALUES (4, 4, '12:00', '23:00');
INSERT INTO "weekly_hours" ("id", "weekday", "opens_at", "closes_at") VALUES (5, 5, '12:00', '23:00');
INSERT INTO "weekly_hours" ("id", "weekday", "opens_at", "closes_at") VALUES (6, 6, '12:00', '23:00');
INSERT INTO "weekly_hours" ("id", "weekday", "opens_at", "closes_at") VALUES (7, 7, '12:00', '23:00');
INSERT INTO "audit_context" ("id", "actor", "source", "at") VALUES (1, NULL, NULL, NULL);
INSERT INTO "config_generation" ("id", "generation") VALUES (1, 0);
INSERT INTO "settings" ("id", "slot_minutes", "slot_capacity", "time_zone", "updated_at", "booking_horizon_days", "lead_minutes", "paused", "paused_until", "pause_reason", "busy_minutes", "busy_until", "require_staff") VALUES (1, 15, 12, NULL, strftime('%Y-%m-%dT%H:%M:%fZ', 'now'), 365, 15, 0, NULL, NULL, 0, NULL, 0);
INSERT INTO "categories" ("id", "name", "position", "uses_oven", "vat_rate_bp", "station_id") VALUES (1, 'Pizze', 1, 1, NULL, 1);
INSERT INTO "allergens" ("bit", "code", "name_en", "name_it") VALUES (1, 'gluten', 'Cereals containing gluten', 'Cereali contenenti glutine');
INSERT INTO "allergens" ("bit", "code", "name_en", "name_it") VALUES (2, 'crustaceans', 'Crustaceans', 'Crostacei');
INSERT INTO "allergens" ("bit", "code", "name_en", "name_it") VALUES (4, 'eggs', 'Eggs', 'Uova');
INSERT INTO "allergens" ("bit", "code", "name_en", "name_it") VALUES (8, 'fish', 'Fish', 'Pesce');
INSERT INTO "allergens" ("bit", "code", "name_en", "name_it") VALUES (16, 'peanuts', 'Peanuts', 'Arachidi');
INSERT INTO "allergens" ("bit", "code", "name_en", "name_it") VALUES (32, 'soybeans', 'Soybeans', 'Soia');
INSERT INTO "allergens" ("bit", "code", "name_en", "name_it") VALUES (64, 'milk', 'Milk', 'Latte');
INSERT INTO "allergens" ("bit", "code", "name_en", "name_it") VALUES (128, 'nuts', 'Nuts', 'Frutta a guscio');
INSERT INTO "allergens" ("bit", "code", "name_en", "name_it") VALUES (256, 'celery', 'Celery', 'Sedano');
INSERT INTO "allergens" ("bit", "code", "name_en", "name_it") VALUES (512, 'mustard', 'Mustard', 'Senape');
INSERT INTO "allergens" ("bit", "code", "name_en", "name_it") VALUES (1024, 'sesame', 'Sesame seeds', 'Semi di sesamo');
INSERT INTO "allergens" ("bit", "code", "name_en", "name_it") VALUES (2048, 'sulphites', 'Sulphur dioxide and sulphites', 'Anidride solforosa e solfiti');
INSERT INTO "allergens" ("bit", "code", "name_en", "name_it") VALUES (4096, 'lupin', 'Lupin', 'Lupini');
INSERT INTO "allergens" ("bit", "code", "name_en", "name_it") VALUES (8192, 'molluscs', 'Molluscs', 'Molluschi');
INSERT INTO "shop" ("id", "name", "address", "vat_number", "vat_rate_bp", "phone_region", "language") VALUES (1, NULL, NULL, NULL, 1000, NULL, 'it');
INSERT INTO "stations" ("id", "name", "capacity", "holds_slot_capacity", "position") VALUES (1, 'Forno', NULL, 1, 1);
