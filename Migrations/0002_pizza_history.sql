-- 0002: every change to a pizza is kept, whoever makes it.
--
-- Triggers write the history, so an edit typed into sqlite3 is recorded exactly like one made
-- through the application, and bumps the pizza's version so an edit in progress elsewhere is
-- refused as a conflict instead of silently overwriting it.

-- Append-only: one row per change, oldest first (id order).
CREATE TABLE pizza_history (
    id              INTEGER PRIMARY KEY,
    pizza_id        TEXT NOT NULL REFERENCES pizzas (id),
    -- created | edited (name and/or price) | archived | restored
    change          TEXT NOT NULL CHECK (change IN ('created', 'edited', 'archived', 'restored')),
    old_name        TEXT,
    new_name        TEXT NOT NULL,
    old_price_cents INTEGER CHECK (old_price_cents IS NULL OR old_price_cents > 0),
    new_price_cents INTEGER NOT NULL CHECK (new_price_cents > 0),
    -- The pizza's version after this change.
    version         INTEGER NOT NULL CHECK (version >= 1),
    changed_at      TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
) STRICT;

CREATE INDEX pizza_history_by_pizza ON pizza_history (pizza_id, id);

-- Pizzas that existed before this migration get their 'created' entry.
INSERT INTO pizza_history (pizza_id, change, new_name, new_price_cents, version, changed_at)
SELECT id, 'created', name, price_cents, version, created_at FROM pizzas ORDER BY created_at, id;

CREATE TRIGGER pizzas_history_created AFTER INSERT ON pizzas
BEGIN
    INSERT INTO pizza_history (pizza_id, change, new_name, new_price_cents, version, changed_at)
    VALUES (NEW.id, 'created', NEW.name, NEW.price_cents, NEW.version, NEW.created_at);
END;

-- Any change of name, price or archived state: bump the version (unless the statement already
-- did, as the application's compare-and-set UPDATE does), touch updated_at, record the change.
CREATE TRIGGER pizzas_history_changed AFTER UPDATE OF name, price_cents, archived_at ON pizzas
WHEN OLD.name IS NOT NEW.name
  OR OLD.price_cents IS NOT NEW.price_cents
  OR (OLD.archived_at IS NULL) <> (NEW.archived_at IS NULL)
BEGIN
    UPDATE pizzas
    SET version = CASE WHEN NEW.version > OLD.version THEN NEW.version ELSE OLD.version + 1 END,
        updated_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now')
    WHERE id = NEW.id;
    INSERT INTO pizza_history (pizza_id, change, old_name, new_name, old_price_cents, new_price_cents, version)
    SELECT NEW.id,
           CASE WHEN OLD.archived_at IS NULL AND NEW.archived_at IS NOT NULL THEN 'archived'
                WHEN OLD.archived_at IS NOT NULL AND NEW.archived_at IS NULL THEN 'restored'
                ELSE 'edited' END,
           OLD.name, NEW.name, OLD.price_cents, NEW.price_cents, version
    FROM pizzas WHERE id = NEW.id;
END;

CREATE TRIGGER pizzas_never_deleted BEFORE DELETE ON pizzas
BEGIN
    SELECT RAISE(ABORT, 'pizzas are never deleted: archive instead (UPDATE pizzas SET archived_at = strftime(''%Y-%m-%dT%H:%M:%fZ'', ''now'') WHERE ...)');
END;

CREATE TRIGGER pizza_history_append_only_update BEFORE UPDATE ON pizza_history
BEGIN
    SELECT RAISE(ABORT, 'pizza_history is append-only');
END;

CREATE TRIGGER pizza_history_append_only_delete BEFORE DELETE ON pizza_history
BEGIN
    SELECT RAISE(ABORT, 'pizza_history is append-only');
END;

-- A readable history: pizza name now, what changed, prices in EUR.
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
