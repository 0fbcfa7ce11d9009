-- 0019: a category's screen as a navigation route — the app's menu sections
-- (`{"category":{"id":3}}`, `category:NAME` in the CLI).
--
-- navigation_stack gains the kind `category` and the column `category_id`; its CHECKs say which
-- column each kind fills. A CHECK cannot be changed in place, so the table is rebuilt and its
-- indexes, triggers and views made again as they were. A category that is on somebody's stack
-- cannot be deleted (it would leave their screen pointing at nothing): staff move the users back
-- (`pizzeria nav root HANDLE`) or keep the category.

PRAGMA legacy_alter_table = ON;

DROP VIEW navigation_paths;
DROP VIEW navigation_stack_labels;

CREATE TABLE navigation_stack_rebuilt (
    user_id     TEXT NOT NULL REFERENCES users (id),
    depth       INTEGER NOT NULL CHECK (depth >= 1),
    -- pizza | order | category | opaque
    kind        TEXT NOT NULL CHECK (kind IN ('pizza', 'order', 'category', 'opaque')),
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

INSERT INTO navigation_stack_rebuilt (user_id, depth, kind, pizza_id, order_id, opaque_type, opaque_json)
SELECT user_id, depth, kind, pizza_id, order_id, opaque_type, opaque_json FROM navigation_stack;

DROP TABLE navigation_stack;

ALTER TABLE navigation_stack_rebuilt RENAME TO navigation_stack;

PRAGMA legacy_alter_table = OFF;

CREATE INDEX navigation_stack_by_pizza ON navigation_stack (pizza_id) WHERE pizza_id IS NOT NULL;
CREATE INDEX navigation_stack_by_order ON navigation_stack (order_id) WHERE order_id IS NOT NULL;
CREATE INDEX navigation_stack_by_category ON navigation_stack (category_id) WHERE category_id IS NOT NULL;

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

CREATE TRIGGER categories_kept_while_shown BEFORE DELETE ON categories
WHEN EXISTS (SELECT 1 FROM navigation_stack WHERE category_id = OLD.id)
BEGIN
    SELECT RAISE(ABORT, 'category_shown: the category is on a user''s navigation stack (see SELECT handle FROM navigation_paths); move them back with pizzeria nav root HANDLE first');
END;

CREATE VIEW navigation_stack_labels AS
SELECT s.user_id,
       s.depth,
       s.kind,
       CASE s.kind
           WHEN 'pizza' THEN p.name
           WHEN 'order' THEN 'order ' || substr(s.order_id, 1, 8)
           WHEN 'category' THEN k.name
           ELSE s.opaque_type
       END AS label
FROM navigation_stack s LEFT JOIN pizzas p ON p.id = s.pizza_id LEFT JOIN categories k ON k.id = s.category_id;

CREATE VIEW navigation_paths AS
SELECT u.handle,
       (SELECT count(*) FROM navigation_stack s WHERE s.user_id = u.id) AS depth,
       coalesce((SELECT group_concat(label, ' › ')
                 FROM (SELECT label FROM navigation_stack_labels l WHERE l.user_id = u.id ORDER BY l.depth)),
                '') AS path,
       (SELECT kind FROM navigation_sheets sh WHERE sh.user_id = u.id) AS sheet
FROM users u
ORDER BY u.handle;
