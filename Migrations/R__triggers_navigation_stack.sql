-- The triggers on navigation_stack: the rules every writer is held to, the derived data they keep, the
-- history they write. A repeatable definition (see R__views.sql): edit here. The order of the
-- triggers is the order they are made in, and SQLite runs a table's triggers of one kind last
-- made first: keep a new one where it must run.

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

