-- 0013: how often each pizza's detail was shown, kept by triggers as the navigation history
-- grows, so `nav stats` (the `pizza_views` view) reads one row per pizza instead of scanning
-- every navigation event (55 s at 10 M events before this).
--
-- Derived data: each counter is the number of (event, route) pairs of the history that show the
-- pizza, exactly what the view computed before. An insert into navigation_events adds to the
-- counters, a delete (an erasure's, the only one the schema allows) takes its share back;
-- `pizzeria check` recomputes them from the history and `check --repair` rewrites them.

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

-- `nav stats` reads the most viewed first and stops after its limit.
CREATE INDEX pizza_view_counts_by_views ON pizza_view_counts (views DESC);

INSERT INTO pizza_view_counts (pizza_id, views, pushed, random, deep_links, imported)
SELECT p.id, count(*), sum(e.action = 'push'), sum(e.action = 'random'), sum(e.action = 'open_url'),
       sum(e.action = 'import')
FROM navigation_events e, json_each(e.routes) j
JOIN pizzas p ON p.id = json_extract(j.value, '$.pizza.id')
WHERE e.action IN ('push', 'random', 'open_url', 'import', 'replace')
GROUP BY p.id;

CREATE TRIGGER navigation_events_count_views AFTER INSERT ON navigation_events
WHEN NEW.action IN ('push', 'random', 'open_url', 'import', 'replace')
BEGIN
    INSERT INTO pizza_view_counts (pizza_id, views, pushed, random, deep_links, imported)
    SELECT p.id, 1, NEW.action = 'push', NEW.action = 'random', NEW.action = 'open_url', NEW.action = 'import'
    FROM json_each(NEW.routes) j JOIN pizzas p ON p.id = json_extract(j.value, '$.pizza.id')
    WHERE true
    ON CONFLICT (pizza_id) DO UPDATE SET
        views = views + 1, pushed = pushed + excluded.pushed, random = random + excluded.random,
        deep_links = deep_links + excluded.deep_links, imported = imported + excluded.imported;
END;

CREATE TRIGGER navigation_events_uncount_views AFTER DELETE ON navigation_events
WHEN OLD.action IN ('push', 'random', 'open_url', 'import', 'replace')
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

DROP VIEW pizza_views;

CREATE VIEW pizza_views AS
SELECT c.pizza_id, p.name, c.views, c.pushed, c.random, c.deep_links, c.imported
FROM pizza_view_counts c JOIN pizzas p ON p.id = c.pizza_id
WHERE c.views > 0;
