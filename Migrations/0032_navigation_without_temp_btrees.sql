-- 0032: a navigation step builds no temporary b-trees for its checks.
--
-- Migration 30 did this for a booking; the router's statements had the same cost. SQLite
-- evaluates `x IN ('a', 'b', 'c', …)` — a list of more than two values — by building a temporary
-- b-tree of the list each time the statement runs (`OpenEphemeral` in `EXPLAIN`). Every
-- navigation step built three or four: the CHECK of navigation_events.action (twelve values), the
-- `WHERE action NOT IN (…)` of the partial index navigation_events_stack_changes (four, evaluated
-- for every row inserted), the `WHEN` of navigation_events_count_views (five), and for a push the
-- CHECK of navigation_stack.kind (four). Measured with Python's sqlite3 on a table of that shape,
-- an event INSERT took 32–48 µs with them and 17–30 µs without (docs/PERFORMANCE.md, session 53).
--
-- The same rules, without lists: the CHECKs and `WHEN`s as `x = 'a' OR x = 'b' OR …`, and the
-- partial index as `WHERE action NOT GLOB 'sheet_*'` — the sheet actions are exactly the ones
-- named `sheet_…` (the CHECK allows no other), as the library's `NavigationAction.changesStack`
-- says; the query that uses the index (NavigationStore) repeats that clause word for word. A
-- CHECK cannot be altered, so both tables are rebuilt as 0030 did (create, copy in key order,
-- drop, rename; legacy_alter_table keeps the views and triggers naming them) and their indexes
-- and triggers made again, verbatim but for those lists. Every row, event id and rule is kept.

PRAGMA legacy_alter_table = ON;

CREATE TABLE navigation_events_rebuilt (
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

INSERT INTO navigation_events_rebuilt (id, user_id, at, action, routes, depth_after, top_before, detail)
SELECT id, user_id, at, action, routes, depth_after, top_before, detail FROM navigation_events ORDER BY id;

DROP TABLE navigation_events;

ALTER TABLE navigation_events_rebuilt RENAME TO navigation_events;

CREATE TABLE navigation_stack_rebuilt (
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

INSERT INTO navigation_stack_rebuilt (user_id, depth, kind, pizza_id, order_id, category_id, opaque_type, opaque_json)
SELECT user_id, depth, kind, pizza_id, order_id, category_id, opaque_type, opaque_json FROM navigation_stack
ORDER BY user_id, depth;

DROP TABLE navigation_stack;

ALTER TABLE navigation_stack_rebuilt RENAME TO navigation_stack;

PRAGMA legacy_alter_table = OFF;

CREATE INDEX navigation_events_by_user ON navigation_events (user_id, id);

CREATE INDEX navigation_events_stack_changes ON navigation_events (user_id, id)
WHERE action NOT GLOB 'sheet_*';

CREATE INDEX navigation_stack_by_category ON navigation_stack (category_id) WHERE category_id IS NOT NULL;

CREATE INDEX navigation_stack_by_order ON navigation_stack (order_id) WHERE order_id IS NOT NULL;

CREATE INDEX navigation_stack_by_pizza ON navigation_stack (pizza_id) WHERE pizza_id IS NOT NULL;

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
