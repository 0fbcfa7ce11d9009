-- 0034: an item's name, price and archive entries in the audit log found through the item's history,
-- not through a second per-item index.
--
-- Adding, renaming, repricing, archiving or restoring an item writes two rows: one in pizza_history
-- (the menu's feed and `pizza history`) and one in audit_log (`audit`). Each went into its own
-- per-item index — pizza_history_by_pizza (pizza_id, id) and audit_log_by_object (object, id) — a
-- random leaf of each: at a million items about 2.5 page misses and 1.4 pages written per price
-- edit for each index (docs/PERFORMANCE.md, session 55), while both say the same thing: which
-- entries are this item's.
--
-- Now the audit row of such a change names its history row: `audit_log.history_id`. Those rows
-- leave audit_log_by_object (now partial: `WHERE history_id IS NULL`) and go into
-- audit_log_by_history, whose keys only grow (the history's ids), so an edit appends to the
-- index's last leaf — a page every edit touches — instead of a random one. An item's audit entries
-- are those of audit_log_by_object under `pizza:ID` (its category, allergens, stock and variant
-- entries, and every entry written before this migration) and those whose history row is the
-- item's, found through pizza_history_by_pizza. Nothing is copied and no value changes: an entry
-- written before this migration keeps history_id NULL and stays where it was.
--
-- The history trigger writes both rows now, in one program (the audit row right after its history
-- row, so `last_insert_rowid()` is that row's id: SQLite keeps a trigger's own inserts' rowids while
-- it runs). A hand-written audit row should name a history row only of its own object, or none;
-- history_id is as append-only as the rest of the row.

ALTER TABLE audit_log ADD COLUMN history_id INTEGER REFERENCES pizza_history (id);

DROP INDEX audit_log_by_object;
CREATE INDEX audit_log_by_object ON audit_log (object, id) WHERE history_id IS NULL;
CREATE INDEX audit_log_by_history ON audit_log (history_id) WHERE history_id IS NOT NULL;

-- No trigger guards audit_log's inserts: a row trigger on a table makes SQLite gather every
-- `INSERT … SELECT` into it in a temporary table first, and every audit trigger inserts that way.
-- A history row that exists is the foreign key's to enforce; one of the entry's own object is
-- `pizzeria check`'s (the log is append-only, so a misfiled hand-written row is reported, not
-- repaired).

-- Append-only, but for the erasure of a customer: their rows lose their values, nothing else
-- (history_id included now).
DROP TRIGGER audit_log_append_only_update;
CREATE TRIGGER audit_log_append_only_update BEFORE UPDATE ON audit_log
WHEN NOT (NEW.id IS OLD.id AND NEW.at IS OLD.at AND NEW.actor IS OLD.actor AND NEW.source IS OLD.source
          AND NEW.object IS OLD.object AND NEW.action IS OLD.action AND NEW.old IS NULL AND NEW.new IS NULL
          AND NEW.history_id IS OLD.history_id
          AND OLD.object GLOB 'user:*' AND EXISTS (SELECT 1 FROM user_erasures WHERE user_id = substr(OLD.object, 6)))
BEGIN
    SELECT RAISE(ABORT, 'history_append_only: audit_log is append-only (but for an erased customer''s values)');
END;

-- An item's creation: its history row, then its audit row naming it (was audit_pizzas_insert).
DROP TRIGGER audit_pizzas_insert;
DROP TRIGGER pizzas_history_created;
CREATE TRIGGER pizzas_history_created AFTER INSERT ON pizzas
BEGIN
    INSERT INTO pizza_history (pizza_id, change, new_name, new_price_cents, version, changed_at)
    VALUES (NEW.id, 'created', NEW.name, NEW.price_cents, NEW.version, NEW.created_at);
    INSERT INTO audit_log (at, actor, source, object, action, new, history_id)
    SELECT coalesce(c.at, strftime('%Y-%m-%dT%H:%M:%fZ', 'now')), c.actor, coalesce(c.source, 'sql'), 'pizza:' || NEW.id, 'add',
           json_object('name', NEW.name, 'price_cents', NEW.price_cents), last_insert_rowid()
    FROM audit_context c WHERE c.id = 1;
END;

-- A name, price or archive change: the version, the history row, the audit row naming it (was
-- audit_pizzas_update for the audit row, with the same action and values).
DROP TRIGGER audit_pizzas_update;
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
    INSERT INTO pizza_history (pizza_id, change, old_name, new_name, old_price_cents, new_price_cents, version, changed_at)
    SELECT NEW.id,
           CASE WHEN OLD.archived_at IS NULL AND NEW.archived_at IS NOT NULL THEN 'archived'
                WHEN OLD.archived_at IS NOT NULL AND NEW.archived_at IS NULL THEN 'restored'
                ELSE 'edited' END,
           OLD.name, NEW.name, OLD.price_cents, NEW.price_cents, version,
           coalesce((SELECT at FROM audit_context WHERE id = 1), strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
    FROM pizzas WHERE id = NEW.id;
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

-- An archived item's archive time moved by hand (sqlite3; the library never does): no history row,
-- so the audit row stands alone, as an edit (audit_pizzas_update called it a price change).
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

-- The trail is the union of three views, one per source, so a listing of one object reads each
-- through its index: audit rows without a history row by their object (audit_log_by_object), an
-- item's name, price and archive entries by the item (`pizza_id`, through pizza_history_by_pizza)
-- and an order's history by the order (`order_id`, through order_status_events_by_order, where a
-- filter on the trail's `object` reads every order's history). audit_trail keeps its columns.
DROP VIEW audit_trail;

CREATE VIEW audit_log_entries AS
SELECT a.at, 0 AS kind, a.id AS seq, a.actor, a.source, a.object, a.action, a.old, a.new
FROM audit_log a WHERE a.history_id IS NULL;

CREATE VIEW audit_pizza_entries AS
SELECT a.at, 0 AS kind, a.id AS seq, a.actor, a.source, a.object, a.action, a.old, a.new, h.pizza_id
FROM audit_log a JOIN pizza_history h ON h.id = a.history_id;

CREATE VIEW audit_order_entries AS
SELECT e.at, 1 AS kind, e.id AS seq, e.actor, 'order history' AS source, 'order:' || e.order_id AS object,
       e.kind || CASE WHEN e.kind = 'status' THEN ' ' || e.to_status ELSE '' END AS action,
       CASE WHEN e.from_status IS NOT NULL THEN json_object('status', e.from_status) END AS old,
       json_object('status', e.to_status, 'detail', e.detail) AS new,
       e.order_id
FROM order_status_events e;

CREATE VIEW audit_trail AS
SELECT at, kind, seq, actor, source, object, action, old, new FROM audit_log_entries
UNION ALL
SELECT at, kind, seq, actor, source, object, action, old, new FROM audit_pizza_entries
UNION ALL
SELECT at, kind, seq, actor, source, object, action, old, new FROM audit_order_entries;
