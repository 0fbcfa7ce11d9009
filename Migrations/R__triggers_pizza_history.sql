-- The triggers on pizza_history: the rules every writer is held to, the derived data they keep, the
-- history they write. A repeatable definition (see R__views.sql): edit here. The order of the
-- triggers is the order they are made in, and SQLite runs a table's triggers of one kind last
-- made first: keep a new one where it must run.

CREATE TRIGGER pizza_history_append_only_delete BEFORE DELETE ON pizza_history
BEGIN
    SELECT RAISE(ABORT, 'pizza_history is append-only');
END;

CREATE TRIGGER pizza_history_append_only_update BEFORE UPDATE ON pizza_history
BEGIN
    SELECT RAISE(ABORT, 'pizza_history is append-only');
END;

CREATE TRIGGER pizza_history_chain_insert BEFORE INSERT ON pizza_history
WHEN NEW.previous_change IS NOT (SELECT last_change FROM pizzas WHERE id = NEW.pizza_id)
BEGIN
    SELECT RAISE(ABORT, 'previous_change: a history row''s previous_change is its item''s latest change (pizzas.last_change), NULL for its first');
END;

CREATE TRIGGER pizza_history_chain_head AFTER INSERT ON pizza_history
BEGIN
    UPDATE pizzas SET last_change = NEW.id WHERE id = NEW.pizza_id;
END;

CREATE TRIGGER pizza_history_never_replaced BEFORE INSERT ON pizza_history
WHEN NEW.id > 0 AND EXISTS (SELECT 1 FROM pizza_history WHERE id = NEW.id)
BEGIN
    SELECT RAISE(ABORT, 'row_never_replaced: a row of pizza_history is never replaced (REPLACE would delete it without its triggers); UPDATE it where the table allows, or insert a new row');
END;

