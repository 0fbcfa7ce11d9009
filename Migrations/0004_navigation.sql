-- 0004: each user's navigation state — the stack of screens over the menu, the sheet on top —
-- and the full history of how it changed.
--
-- A route is a screen the app can show: the detail of a pizza or of an order. Routes hold ids
-- only, never copies of names or prices. Elements of a client's navigation path that the
-- backend does not know are kept opaque (their type name and JSON) so the path round-trips.

-- The current stack: depth 1 is the screen right above the menu (the root), depths are 1..n
-- without gaps. An empty stack means the user is on the menu.
CREATE TABLE navigation_stack (
    user_id     TEXT NOT NULL REFERENCES users (id),
    depth       INTEGER NOT NULL CHECK (depth >= 1),
    -- pizza | order | opaque
    kind        TEXT NOT NULL CHECK (kind IN ('pizza', 'order', 'opaque')),
    pizza_id    TEXT REFERENCES pizzas (id),
    order_id    TEXT REFERENCES orders (id),
    -- For opaque elements: the client's module-qualified type name and the element's JSON.
    opaque_type TEXT,
    opaque_json TEXT CHECK (opaque_json IS NULL OR json_valid(opaque_json)),
    PRIMARY KEY (user_id, depth),
    CHECK ((kind = 'pizza') = (pizza_id IS NOT NULL)),
    CHECK ((kind = 'order') = (order_id IS NOT NULL)),
    CHECK ((kind = 'opaque') = (opaque_type IS NOT NULL AND opaque_json IS NOT NULL))
) STRICT, WITHOUT ROWID;

CREATE INDEX navigation_stack_by_pizza ON navigation_stack (pizza_id) WHERE pizza_id IS NOT NULL;
CREATE INDEX navigation_stack_by_order ON navigation_stack (order_id) WHERE order_id IS NOT NULL;

-- The sheet presented over the stack, at most one per user, with its draft as last edited.
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
    updated_at        TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
    CHECK ((kind = 'edit_pizza') = (pizza_id IS NOT NULL AND base_version IS NOT NULL))
) STRICT;

CREATE INDEX navigation_sheets_by_pizza ON navigation_sheets (pizza_id) WHERE pizza_id IS NOT NULL;

-- Every change to a user's stack or sheet, append-only, oldest first (id order).
CREATE TABLE navigation_events (
    id          INTEGER PRIMARY KEY,
    user_id     TEXT NOT NULL REFERENCES users (id),
    at          TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
    action      TEXT NOT NULL CHECK (action IN (
                    'push', 'pop', 'pop_to', 'pop_to_root', 'replace', 'open_url', 'import', 'random',
                    'sheet_open', 'sheet_set', 'sheet_save', 'sheet_dismiss')),
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

-- A user's latest events, newest first, in constant time however long the history.
CREATE INDEX navigation_events_by_user ON navigation_events (user_id, id);

-- A user's latest change to the stack (the router's "previous"), in constant time even after
-- any number of sheet events. The query repeats this WHERE clause word for word, which is what
-- lets SQLite use a partial index.
CREATE INDEX navigation_events_stack_changes ON navigation_events (user_id, id)
WHERE action NOT IN ('sheet_open', 'sheet_set', 'sheet_save', 'sheet_dismiss');

CREATE TRIGGER navigation_events_append_only_update BEFORE UPDATE ON navigation_events
BEGIN
    SELECT RAISE(ABORT, 'navigation_events is append-only');
END;

CREATE TRIGGER navigation_events_append_only_delete BEFORE DELETE ON navigation_events
BEGIN
    SELECT RAISE(ABORT, 'navigation_events is append-only');
END;

-- A readable label for a route element: the pizza's name, "order <short id>", or the type.
CREATE VIEW navigation_stack_labels AS
SELECT s.user_id,
       s.depth,
       s.kind,
       CASE s.kind
           WHEN 'pizza' THEN p.name
           WHEN 'order' THEN 'order ' || substr(s.order_id, 1, 8)
           ELSE s.opaque_type
       END AS label
FROM navigation_stack s LEFT JOIN pizzas p ON p.id = s.pizza_id;

-- Each user's current path, e.g. "Margherita › Porcini" (empty path = on the menu).
CREATE VIEW navigation_paths AS
SELECT u.handle,
       (SELECT count(*) FROM navigation_stack s WHERE s.user_id = u.id) AS depth,
       coalesce((SELECT group_concat(label, ' › ')
                 FROM (SELECT label FROM navigation_stack_labels l WHERE l.user_id = u.id ORDER BY l.depth)),
                '') AS path,
       (SELECT kind FROM navigation_sheets sh WHERE sh.user_id = u.id) AS sheet
FROM users u
ORDER BY u.handle;

-- The history with handles and route labels instead of ids (opaque elements show their type).
CREATE VIEW navigation_history AS
SELECT e.id AS event_id,
       u.handle,
       e.at,
       e.action,
       (SELECT group_concat(
                   coalesce(p.name,
                            CASE WHEN json_extract(j.value, '$.order.id') IS NOT NULL
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
