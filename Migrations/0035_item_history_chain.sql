-- 0035: an item's history found from the item's row, not through a per-item index of the history.
--
-- Every name, price or archive change of an item appends a pizza_history row, and since migration
-- 2 that row also went into pizza_history_by_pizza (pizza_id, id): a random leaf per edit — at a
-- million items about 2.5 page misses and one more page for the checkpoint to write
-- (docs/PERFORMANCE.md, sessions 55 and 56) — for the lookups of one item's history (`pizza
-- history`, `MenuService.history(of:)`, `audit --object pizza:…`).
--
-- Now the history is a chain, newest first, that starts on the item's row, which every change
-- writes anyway: `pizzas.last_change` is the id of the item's latest history row and
-- `pizza_history.previous_change` the item's change before that row (NULL: its first). Reading
-- an item's k changes is k lookups by id; writing one is the append to the table's last page and
-- the item's row. Both columns are derived data kept on every path by the triggers below: a
-- history row must continue its item's chain (`previous_change` is the item's `last_change`, and
-- older than the row), the item's `last_change` follows each new row, and nothing else can set it;
-- `pizzeria check` recomputes both from the history. Ids, rows and the menu feed's cursors (the
-- history's ids) are kept.
--
-- The table is rebuilt (a column added to a table is not enough: its CHECK of `change` was an `IN`
-- list, for which SQLite builds a temporary b-tree on every insert — migrations 30 and 32 did the
-- same for the orders' and the navigation's lists), as 0032 did: create, copy in id order, drop,
-- rename; legacy_alter_table keeps the views and triggers naming it. With a row trigger on
-- pizza_history, an `INSERT … SELECT` into it would gather its rows in a temporary table first, so
-- the history triggers insert with `VALUES` (scalar subqueries) now.

PRAGMA legacy_alter_table = ON;

CREATE TABLE pizza_history_rebuilt (
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

INSERT INTO pizza_history_rebuilt (
    id, pizza_id, change, old_name, new_name, old_price_cents, new_price_cents, version, changed_at, previous_change)
SELECT id, pizza_id, change, old_name, new_name, old_price_cents, new_price_cents, version, changed_at,
       lag(id) OVER (PARTITION BY pizza_id ORDER BY id)
FROM pizza_history ORDER BY id;

ALTER TABLE pizzas ADD COLUMN last_change INTEGER;

-- Every item's latest change, found through the index this migration drops (with its table).
UPDATE pizzas SET last_change = (SELECT max(h.id) FROM pizza_history h WHERE h.pizza_id = pizzas.id);

DROP TABLE pizza_history;

ALTER TABLE pizza_history_rebuilt RENAME TO pizza_history;

PRAGMA legacy_alter_table = OFF;

CREATE TRIGGER pizza_history_append_only_delete BEFORE DELETE ON pizza_history
BEGIN
    SELECT RAISE(ABORT, 'pizza_history is append-only');
END;

CREATE TRIGGER pizza_history_append_only_update BEFORE UPDATE ON pizza_history
BEGIN
    SELECT RAISE(ABORT, 'pizza_history is append-only');
END;

-- A history row continues its item's chain: the item's latest change before it, or NULL for the
-- item's first. The lookup is of the item's row, which the change wrote a moment ago.
CREATE TRIGGER pizza_history_chain_insert BEFORE INSERT ON pizza_history
WHEN NEW.previous_change IS NOT (SELECT last_change FROM pizzas WHERE id = NEW.pizza_id)
BEGIN
    SELECT RAISE(ABORT, 'previous_change: a history row''s previous_change is its item''s latest change (pizzas.last_change), NULL for its first');
END;

-- The item's latest change follows each new row, whoever inserts it.
CREATE TRIGGER pizza_history_chain_head AFTER INSERT ON pizza_history
BEGIN
    UPDATE pizzas SET last_change = NEW.id WHERE id = NEW.pizza_id;
END;

-- A new item has no history yet: its creation is its first change.
CREATE TRIGGER pizzas_last_change_insert BEFORE INSERT ON pizzas
WHEN NEW.last_change IS NOT NULL
BEGIN
    SELECT RAISE(ABORT, 'last_change: a new item has no history yet; leave last_change out');
END;

-- last_change moves only to a new row of the item that continues its chain.
CREATE TRIGGER pizzas_last_change_update BEFORE UPDATE OF last_change ON pizzas
WHEN NEW.last_change IS NOT OLD.last_change AND NOT EXISTS (
    SELECT 1 FROM pizza_history h
    WHERE h.id = NEW.last_change AND h.pizza_id = NEW.id AND h.previous_change IS OLD.last_change)
BEGIN
    SELECT RAISE(ABORT, 'last_change: pizzas.last_change is the id of the item''s latest pizza_history row, kept by the history; add a change instead');
END;

-- The history triggers, as migration 34 left them but for their pizza_history inserts: `VALUES`
-- with the item's version and latest change read from its row.
DROP TRIGGER pizzas_history_created;
CREATE TRIGGER pizzas_history_created AFTER INSERT ON pizzas
BEGIN
    INSERT INTO pizza_history (pizza_id, change, new_name, new_price_cents, version, changed_at, previous_change)
    VALUES (NEW.id, 'created', NEW.name, NEW.price_cents, NEW.version, NEW.created_at, NULL);
    INSERT INTO audit_log (at, actor, source, object, action, new, history_id)
    SELECT coalesce(c.at, strftime('%Y-%m-%dT%H:%M:%fZ', 'now')), c.actor, coalesce(c.source, 'sql'), 'pizza:' || NEW.id, 'add',
           json_object('name', NEW.name, 'price_cents', NEW.price_cents), last_insert_rowid()
    FROM audit_context c WHERE c.id = 1;
END;

DROP TRIGGER pizzas_history_changed;
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

-- An item's audit entries that go with its history are found through the chain too: the view
-- says which history row each is (history_id), and `audit --object pizza:…` asks for the ids of
-- the item's chain.
DROP VIEW audit_trail;
DROP VIEW audit_pizza_entries;

CREATE VIEW audit_pizza_entries AS
SELECT a.at, 0 AS kind, a.id AS seq, a.actor, a.source, a.object, a.action, a.old, a.new, h.pizza_id, a.history_id
FROM audit_log a JOIN pizza_history h ON h.id = a.history_id;

CREATE VIEW audit_trail AS
SELECT at, kind, seq, actor, source, object, action, old, new FROM audit_log_entries
UNION ALL
SELECT at, kind, seq, actor, source, object, action, old, new FROM audit_pizza_entries
UNION ALL
SELECT at, kind, seq, actor, source, object, action, old, new FROM audit_order_entries;
