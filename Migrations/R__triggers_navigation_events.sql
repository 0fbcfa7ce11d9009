-- The triggers on navigation_events: the rules every writer is held to, the derived data they keep, the
-- history they write. A repeatable definition (see R__views.sql): edit here. The order of the
-- triggers is the order they are made in, and SQLite runs a table's triggers of one kind last
-- made first: keep a new one where it must run.

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

