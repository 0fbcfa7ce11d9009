-- 0012: the `menu` view in the order of the unique name index (`name_key`, the names folded as
-- the library compares them), so reading it walks the index instead of sorting every pizza in a
-- temporary table by lower(name), which no index has.

DROP VIEW menu;

CREATE VIEW menu AS
SELECT name,
       printf('%d.%02d', price_cents / 100, price_cents % 100) AS price_eur
FROM pizzas
WHERE archived_at IS NULL
ORDER BY name_key;
