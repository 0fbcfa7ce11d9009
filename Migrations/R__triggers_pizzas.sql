-- The triggers on pizzas: the rules every writer is held to, the derived data they keep, the
-- history they write. A repeatable definition (see R__views.sql): edit here. The order of the
-- triggers is the order they are made in, and SQLite runs a table's triggers of one kind last
-- made first: keep a new one where it must run.

CREATE TRIGGER pizzas_never_deleted BEFORE DELETE ON pizzas
BEGIN
    SELECT RAISE(ABORT, 'pizzas are never deleted: archive instead (UPDATE pizzas SET archived_at = strftime(''%Y-%m-%dT%H:%M:%fZ'', ''now'') WHERE ...)');
END;

CREATE TRIGGER pizzas_name_key_insert AFTER INSERT ON pizzas
WHEN NEW.name_key IS NULL
BEGIN
    SELECT RAISE(ABORT, 'a pizza name with non-ASCII characters needs name_key (its full Unicode case folding): add it with pizzeria pizza add')
    WHERE NEW.name GLOB '*[^ -~]*';
    UPDATE pizzas SET name_key = lower(NEW.name) WHERE id = NEW.id;
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

CREATE TRIGGER audit_pizzas_category AFTER UPDATE OF category_id ON pizzas
WHEN OLD.category_id IS NOT NEW.category_id
BEGIN
    INSERT INTO audit_log (at, actor, source, object, action, old, new)
    SELECT coalesce(c.at, strftime('%Y-%m-%dT%H:%M:%fZ', 'now')), c.actor, coalesce(c.source, 'sql'), 'pizza:' || NEW.id, 'category',
           json_object('category_id', OLD.category_id), json_object('category_id', NEW.category_id)
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

CREATE TRIGGER pizzas_version_category_allergens AFTER UPDATE OF category_id, allergens ON pizzas
WHEN (OLD.category_id IS NOT NEW.category_id OR OLD.allergens IS NOT NEW.allergens)
  AND NEW.version = OLD.version
BEGIN
    UPDATE pizzas
    SET version = OLD.version + 1,
        updated_at = coalesce((SELECT at FROM audit_context WHERE id = 1), strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
    WHERE id = NEW.id;
END;

CREATE TRIGGER pizzas_name_key_to_menu_rows AFTER UPDATE OF name_key ON pizzas
WHEN NEW.name_key IS NOT OLD.name_key
BEGIN
    UPDATE pizza_variants SET pizza_name_key = NEW.name_key WHERE pizza_id = NEW.id;
    UPDATE pizza_modifier_groups SET pizza_name_key = NEW.name_key WHERE pizza_id = NEW.id;
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

CREATE TRIGGER pizzas_history_created AFTER INSERT ON pizzas
BEGIN
    INSERT INTO pizza_history (pizza_id, change, new_name, new_price_cents, version, changed_at, previous_change)
    VALUES (NEW.id, 'created', NEW.name, NEW.price_cents, NEW.version, NEW.created_at, NULL);
    INSERT INTO audit_log (at, actor, source, object, action, new, history_id)
    SELECT coalesce(c.at, strftime('%Y-%m-%dT%H:%M:%fZ', 'now')), c.actor, coalesce(c.source, 'sql'), 'pizza:' || NEW.id, 'add',
           json_object('name', NEW.name, 'price_cents', NEW.price_cents), last_insert_rowid()
    FROM audit_context c WHERE c.id = 1;
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

CREATE TRIGGER pizzas_default_variant AFTER INSERT ON pizzas
BEGIN
    INSERT INTO pizza_variants (pizza_id, name, price_cents, position, is_default, pizza_name_key)
    VALUES (NEW.id, 'Normale', NULL, 1, 1, NEW.name_key);
END;

CREATE TRIGGER pizzas_never_replaced BEFORE INSERT ON pizzas
WHEN EXISTS (SELECT 1 FROM pizzas WHERE id = NEW.id)
BEGIN
    SELECT RAISE(ABORT, 'row_never_replaced: a row of pizzas is never replaced (REPLACE would delete it without its triggers); UPDATE it where the table allows, or insert a new row');
END;

