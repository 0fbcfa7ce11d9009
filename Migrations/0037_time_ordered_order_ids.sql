-- 0037: orders get time-ordered ids (UUID version 7), so the views show their short id from the end.
--
-- Until now every order id was a random UUID (version 4), and the orders table, its lines
-- (order_lines, keyed by the order id) and its history index (order_status_events_by_order) are
-- keyed by it: at a million orders a booking wrote to random pages of three B-trees, most of them
-- not in the cache (docs/PERFORMANCE.md, sessions 56 and 58). From this version the library makes
-- order ids version 7 (RFC 9562): the first 48 bits are the time the order was booked, in
-- milliseconds, the rest random — a booking lands on the pages the last bookings wrote.
--
-- People tell orders apart by a short id of 8 characters. A random id's first 8 characters did
-- that; a version 7 id's first 8 are its time, shared by every order booked in the same minute, so
-- its short id is its last 8 characters (random). The rule, as the library has it
-- (Identifier.short) and the views below write it:
--     CASE WHEN substr(id, 15, 1) = '7' THEN substr(id, 29, 8) ELSE substr(id, 1, 8) END
-- Orders booked before keep their ids and their short ids. The column's DEFAULT (an id for an
-- order inserted by hand without one) stays a random one: either kind is a valid order id.
--
-- No table changes; the two views that label an order by its short id are created again.

DROP VIEW navigation_stack_labels;

CREATE VIEW navigation_stack_labels AS
SELECT s.user_id,
       s.depth,
       s.kind,
       CASE s.kind
           WHEN 'pizza' THEN p.name
           WHEN 'order' THEN 'order ' || CASE WHEN substr(s.order_id, 15, 1) = '7' THEN substr(s.order_id, 29, 8)
                                              ELSE substr(s.order_id, 1, 8) END
           WHEN 'category' THEN k.name
           ELSE s.opaque_type
       END AS label
FROM navigation_stack s LEFT JOIN pizzas p ON p.id = s.pizza_id LEFT JOIN categories k ON k.id = s.category_id;

DROP VIEW navigation_history;

-- The history with handles and route labels instead of ids (opaque elements show their type).
CREATE VIEW navigation_history AS
SELECT e.id AS event_id,
       u.handle,
       e.at,
       e.action,
       (SELECT group_concat(
                   coalesce(p.name,
                            CASE WHEN substr(json_extract(j.value, '$.order.id'), 15, 1) = '7'
                                 THEN 'order ' || substr(json_extract(j.value, '$.order.id'), 29, 8)
                                 WHEN json_extract(j.value, '$.order.id') IS NOT NULL
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
