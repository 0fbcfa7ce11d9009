-- The views: what an analyst reads (docs/SCHEMA.md). A repeatable definition: this file is the
-- one place each view is written; the migrator makes every view and trigger again from the R__
-- files whenever one of them changes (or a versioned migration ran), so a change to a view is an
-- edit here, never a copy in a new migration.

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

CREATE VIEW weekly_hours_minutes AS
SELECT id,
       weekday,
       (weekday - 1) * 1440 + CAST(substr(opens_at, 1, 2) AS INTEGER) * 60 + CAST(substr(opens_at, 4, 2) AS INTEGER) AS starts,
       CASE WHEN closes_at > opens_at
            THEN (CAST(substr(closes_at, 1, 2) AS INTEGER) * 60 + CAST(substr(closes_at, 4, 2) AS INTEGER))
                 - (CAST(substr(opens_at, 1, 2) AS INTEGER) * 60 + CAST(substr(opens_at, 4, 2) AS INTEGER))
            ELSE 1440 + (CAST(substr(closes_at, 1, 2) AS INTEGER) * 60 + CAST(substr(closes_at, 4, 2) AS INTEGER))
                 - (CAST(substr(opens_at, 1, 2) AS INTEGER) * 60 + CAST(substr(opens_at, 4, 2) AS INTEGER))
       END AS length
FROM weekly_hours;

CREATE VIEW opening_week AS
SELECT weekday,
       CASE weekday WHEN 1 THEN 'Monday' WHEN 2 THEN 'Tuesday' WHEN 3 THEN 'Wednesday' WHEN 4 THEN 'Thursday'
                    WHEN 5 THEN 'Friday' WHEN 6 THEN 'Saturday' ELSE 'Sunday' END AS day,
       opens_at,
       closes_at,
       closes_at <= opens_at AS past_midnight
FROM weekly_hours
ORDER BY weekday, opens_at;

CREATE VIEW menu AS
SELECT name,
       printf('%d.%02d', price_cents / 100, price_cents % 100) AS price_eur
FROM pizzas
WHERE archived_at IS NULL
ORDER BY name_key;

CREATE VIEW pizza_views AS
SELECT c.pizza_id, p.name, c.views, c.pushed, c.random, c.deep_links, c.imported
FROM pizza_view_counts c JOIN pizzas p ON p.id = c.pizza_id
WHERE c.views > 0;

CREATE VIEW menu_by_category AS
SELECT k.position AS category_position, k.name AS category, k.uses_oven, p.name,
       printf('%d.%02d', p.price_cents / 100, p.price_cents % 100) AS price_eur
FROM pizzas p JOIN categories k ON k.id = p.category_id
WHERE p.archived_at IS NULL
ORDER BY k.position, k.name, p.name_key;

CREATE VIEW order_line_details AS
SELECT l.order_id, l.line_no, o.service_day, o.status, l.pizza_name AS item, l.variant_name AS variant,
       -- A removal reads `senza NAME`; a choice's free default goes without saying.
       (SELECT group_concat(CASE WHEN json_extract(e.value, '$.kind') = 'removal' THEN 'senza ' || json_extract(e.value, '$.name')
                             WHEN json_extract(e.value, '$.default') AND json_extract(e.value, '$.price_cents') = 0 THEN NULL
                             ELSE json_extract(e.value, '$.name') END, ', ')
        FROM json_each(l.modifiers) e) AS modifiers,
       l.quantity,
       printf('%d.%02d', l.base_price_cents / 100, l.base_price_cents % 100) AS variant_price_eur,
       printf('%d.%02d', l.unit_price_cents / 100, l.unit_price_cents % 100) AS unit_price_eur,
       printf('%d.%02d', l.quantity * l.unit_price_cents / 100, l.quantity * l.unit_price_cents % 100) AS line_total_eur,
       l.quantity * l.unit_price_cents AS line_total_cents,
       (SELECT group_concat(code, ', ') FROM (SELECT code FROM allergens WHERE l.allergens & bit ORDER BY bit)) AS allergens
FROM order_lines l JOIN orders o ON o.id = l.order_id;

CREATE VIEW order_summary AS
SELECT o.id AS order_id,
       u.handle,
       o.service_day,
       o.pickup_local,
       o.pickup_at,
       o.status,
       (SELECT group_concat(item, ', ')
        FROM (SELECT l.quantity || ' × ' || l.pizza_name || coalesce(' ' || l.variant_name, '')
                     || coalesce((SELECT group_concat(' + ' || CASE WHEN json_extract(e.value, '$.kind') = 'removal' THEN 'senza ' || json_extract(e.value, '$.name')
                             WHEN json_extract(e.value, '$.default') AND json_extract(e.value, '$.price_cents') = 0 THEN NULL
                             ELSE json_extract(e.value, '$.name') END, '')
                                  FROM json_each(l.modifiers) e), '') AS item
              FROM order_lines l WHERE l.order_id = o.id ORDER BY l.line_no)) AS items,
       printf('%d.%02d', o.total_cents / 100, o.total_cents % 100) AS total_eur,
       o.note
FROM orders o JOIN users u ON u.id = o.user_id
ORDER BY o.pickup_at, o.created_at;

CREATE VIEW sold_out AS
SELECT 'item' AS kind, name, stock_left, stock_until FROM pizzas
WHERE stock_left IS NOT NULL AND (stock_until IS NULL OR stock_until > strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
UNION ALL
SELECT 'modifier', name, stock_left, stock_until FROM modifiers
WHERE stock_left IS NOT NULL AND (stock_until IS NULL OR stock_until > strftime('%Y-%m-%dT%H:%M:%fZ', 'now'));

CREATE VIEW navigation_paths AS
SELECT u.handle,
       (SELECT count(*) FROM navigation_stack s WHERE s.user_id = u.id) AS depth,
       coalesce((SELECT group_concat(label, ' › ')
                 FROM (SELECT label FROM navigation_stack_labels l WHERE l.user_id = u.id ORDER BY l.depth)),
                '') AS path,
       (SELECT kind FROM navigation_sheets sh WHERE sh.user_id = u.id) AS sheet
FROM users u
ORDER BY u.handle;

CREATE VIEW daily_close AS
SELECT d.service_day,
       (SELECT count(*) FROM orders o WHERE o.service_day = d.service_day) AS orders,
       (SELECT count(*) FROM orders o WHERE o.service_day = d.service_day AND o.status = 'collected') AS collected_orders,
       (SELECT coalesce(sum(o.total_cents), 0) FROM orders o
        WHERE o.service_day = d.service_day AND o.status = 'collected') AS collected_cents,
       (SELECT count(*) FROM orders o WHERE o.service_day = d.service_day AND o.status = 'no_show') AS no_show_orders,
       (SELECT coalesce(sum(o.total_cents), 0) FROM orders o
        WHERE o.service_day = d.service_day AND o.status = 'no_show') AS no_show_cents,
       (SELECT count(*) FROM orders o WHERE o.service_day = d.service_day AND o.status = 'cancelled') AS cancelled_orders,
       (SELECT coalesce(sum(p.amount_cents), 0) FROM orders o JOIN payments p ON p.order_id = o.id
        WHERE o.service_day = d.service_day) AS paid_cents,
       (SELECT coalesce(sum(r.amount_cents), 0) FROM orders o JOIN payments p ON p.order_id = o.id
        JOIN refunds r ON r.payment_id = p.id WHERE o.service_day = d.service_day) AS refunded_cents,
       (SELECT coalesce(sum(p.amount_cents), 0) FROM orders o JOIN payments p ON p.order_id = o.id
        WHERE o.service_day = d.service_day AND p.method = 'cash')
       - (SELECT coalesce(sum(r.amount_cents), 0) FROM orders o JOIN payments p ON p.order_id = o.id
          JOIN refunds r ON r.payment_id = p.id WHERE o.service_day = d.service_day AND p.method = 'cash') AS cash_net_cents,
       (SELECT count(*) FROM order_payments x
        WHERE x.service_day = d.service_day AND x.status = 'collected' AND x.balance_cents > 0) AS unpaid_collected_orders
FROM (SELECT DISTINCT service_day FROM orders) d;

CREATE VIEW daily_vat AS
SELECT service_day, vat_rate_bp, sum(gross) AS gross_cents, sum(vat) AS vat_cents, sum(gross) - sum(vat) AS net_cents
FROM (SELECT service_day, vat_rate_bp, gross, (2 * gross * vat_rate_bp + 10000 + vat_rate_bp) / (2 * (10000 + vat_rate_bp)) AS vat
      FROM (SELECT o.service_day, l.vat_rate_bp,
                   sum(l.quantity * l.unit_price_cents)
                   - (SELECT coalesce(sum(d.amount_cents), 0) FROM order_discounts d
                      WHERE d.order_id = o.id AND d.vat_rate_bp = l.vat_rate_bp) AS gross
            FROM orders o JOIN order_lines l ON l.order_id = o.id
            WHERE o.status = 'collected'
            GROUP BY o.id, o.service_day, l.vat_rate_bp))
GROUP BY service_day, vat_rate_bp;

CREATE VIEW order_discount_list AS
SELECT d.order_id, o.service_day, d.kind, d.line_no, d.percent_bp, d.reason, d.actor, d.at,
       sum(d.amount_cents) AS amount_cents, group_concat(d.vat_rate_bp || ':' || d.amount_cents, ',') AS by_rate
FROM order_discounts d JOIN orders o ON o.id = d.order_id
GROUP BY d.order_id, d.kind, d.line_no, d.at, d.reason;

CREATE VIEW slot_override_allowance AS
SELECT c.pickup_at, sum(c.pizzas) AS pizzas
FROM capacity_overrides c JOIN orders o ON o.id = c.order_id
WHERE o.pickup_at = c.pickup_at AND o.status <> 'cancelled' AND c.station_id IS NULL
GROUP BY c.pickup_at;

CREATE VIEW station_override_allowance AS
SELECT c.station_id, c.pickup_at, sum(c.pizzas) AS pieces
FROM capacity_overrides c JOIN orders o ON o.id = c.order_id
WHERE o.pickup_at = c.pickup_at AND o.status <> 'cancelled' AND c.station_id IS NOT NULL
GROUP BY c.station_id, c.pickup_at;

CREATE VIEW capacity_candidates AS
SELECT r.id AS rule_id, r.capacity, r.day, r.weekday, r.start_minute, r.end_minute,
       CASE WHEN r.day IS NULL THEN 1 ELSE 0 END AS rank, r.end_minute - r.start_minute AS width
FROM capacity_rules r
UNION ALL
SELECT NULL, s.slot_capacity, NULL, NULL, 0, 2881, 2, 0 FROM settings s WHERE s.id = 1;

CREATE VIEW station_capacity_candidates AS
SELECT r.station_id, r.id AS rule_id, r.capacity, r.day, r.weekday, r.start_minute, r.end_minute,
       CASE WHEN r.day IS NULL THEN 1 ELSE 0 END AS rank, r.end_minute - r.start_minute AS width
FROM station_capacity_rules r
UNION ALL
SELECT s.id, NULL, s.capacity, NULL, NULL, 0, 2881, 2, 0 FROM stations s WHERE s.holds_slot_capacity = 0;

CREATE VIEW station_slot_capacity AS
SELECT x.station, x.station_id, x.service_day, x.local_time, x.pickup_at, x.booked, x.capacity,
       CASE WHEN x.capacity IS NULL THEN NULL ELSE max(x.capacity - x.booked, 0) END AS remaining,
       CASE WHEN x.rule_id IS NOT NULL THEN (SELECT r.rule FROM station_capacity_rules r WHERE r.id = x.rule_id)
            WHEN x.capacity IS NOT NULL THEN 'station-capacity' END AS capacity_from
FROM (
    SELECT t.name AS station, l.station_id, s.service_day,
           printf('%02d:%02d', (s.local_minute / 60) % 24, s.local_minute % 60) AS local_time,
           l.pickup_at, l.booked,
           (SELECT c.capacity FROM station_capacity_candidates c
            WHERE c.station_id = l.station_id
                  AND (c.day = s.service_day OR c.weekday = (CAST(strftime('%w', s.service_day) AS INTEGER) + 6) % 7 + 1 OR c.rank = 2)
                  AND c.start_minute <= s.local_minute AND s.local_minute < c.end_minute
            ORDER BY c.rank, c.width LIMIT 1) AS capacity,
           (SELECT c.rule_id FROM station_capacity_candidates c
            WHERE c.station_id = l.station_id
                  AND (c.day = s.service_day OR c.weekday = (CAST(strftime('%w', s.service_day) AS INTEGER) + 6) % 7 + 1 OR c.rank = 2)
                  AND c.start_minute <= s.local_minute AND s.local_minute < c.end_minute
            ORDER BY c.rank, c.width LIMIT 1) AS rule_id
    FROM station_loads l
    JOIN stations t ON t.id = l.station_id
    JOIN slot_loads s ON s.pickup_at = l.pickup_at
) x;

CREATE VIEW slot_capacity AS
SELECT s.service_day,
       printf('%02d:%02d', (s.local_minute / 60) % 24, s.local_minute % 60) AS local_time,
       s.pickup_at,
       s.booked,
       s.capacity,
       max(s.capacity - s.booked, 0) AS remaining,
       coalesce(r.rule, 'slot-capacity') AS capacity_from
FROM slot_loads s LEFT JOIN capacity_rules r ON r.id = s.capacity_rule_id;

CREATE VIEW audit_log_entries AS
SELECT a.at, 0 AS kind, a.id AS seq, a.actor, a.source, a.object, a.action, a.old, a.new
FROM audit_log a WHERE a.history_id IS NULL;

CREATE VIEW audit_order_entries AS
SELECT e.at, 1 AS kind, e.id AS seq, e.actor, 'order history' AS source, 'order:' || e.order_id AS object,
       e.kind || CASE WHEN e.kind = 'status' THEN ' ' || e.to_status ELSE '' END AS action,
       CASE WHEN e.from_status IS NOT NULL THEN json_object('status', e.from_status) END AS old,
       json_object('status', e.to_status, 'detail', e.detail) AS new,
       e.order_id
FROM order_status_events e;

CREATE VIEW audit_pizza_entries AS
SELECT a.at, 0 AS kind, a.id AS seq, a.actor, a.source, a.object, a.action, a.old, a.new, h.pizza_id, a.history_id
FROM audit_log a JOIN pizza_history h ON h.id = a.history_id;

CREATE VIEW audit_trail AS
SELECT at, kind, seq, actor, source, object, action, old, new FROM audit_log_entries
UNION ALL
SELECT at, kind, seq, actor, source, object, action, old, new FROM audit_pizza_entries
UNION ALL
SELECT at, kind, seq, actor, source, object, action, old, new FROM audit_order_entries;

CREATE VIEW menu_items AS
SELECT k.position AS category_position, k.name AS category, p.name AS item, v.name AS variant, v.is_default,
       printf('%d.%02d', coalesce(v.price_cents, p.price_cents) / 100, coalesce(v.price_cents, p.price_cents) % 100) AS price_eur,
       (SELECT group_concat(code, ', ') FROM (SELECT code FROM allergens WHERE p.allergens & bit ORDER BY bit)) AS allergens,
       (SELECT group_concat(name, ', ') FROM (SELECT g.name FROM pizza_modifier_groups a JOIN modifier_groups g ON g.id = a.group_id
                                              WHERE a.pizza_id = p.id ORDER BY g.position, g.name)) AS modifier_groups
FROM pizzas p JOIN categories k ON k.id = p.category_id JOIN pizza_variants v ON v.pizza_id = p.id
WHERE p.archived_at IS NULL
ORDER BY k.position, k.name, p.name_key, v.position, v.name;

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

CREATE VIEW order_payments AS
SELECT order_id, service_day, status, total_cents, due_cents, paid_cents, refunded_cents,
       paid_cents - refunded_cents AS kept_cents,
       max(due_cents - (paid_cents - refunded_cents), 0) AS balance_cents,
       max((paid_cents - refunded_cents) - due_cents, 0) AS owes_refund_cents,
       CASE WHEN paid_cents = 0 THEN 'unpaid'
            WHEN paid_cents - refunded_cents > due_cents THEN 'overpaid'
            WHEN paid_cents - refunded_cents < due_cents
                THEN CASE WHEN paid_cents = refunded_cents THEN 'unpaid' ELSE 'partially_paid' END
            WHEN refunded_cents = 0 THEN 'paid'
            WHEN paid_cents = refunded_cents THEN 'refunded'
            ELSE 'partially_refunded' END AS state
FROM (SELECT o.id AS order_id, o.service_day, o.status, o.total_cents,
             CASE WHEN o.status = 'cancelled' THEN 0 ELSE o.total_cents END AS due_cents,
             (SELECT coalesce(sum(p.amount_cents), 0) FROM payments p WHERE p.order_id = o.id) AS paid_cents,
             (SELECT coalesce(sum(r.amount_cents), 0) FROM payments p JOIN refunds r ON r.payment_id = p.id
              WHERE p.order_id = o.id) AS refunded_cents
      FROM orders o);

