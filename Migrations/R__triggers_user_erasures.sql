-- The triggers on user_erasures: the rules every writer is held to, the derived data they keep, the
-- history they write. A repeatable definition (see R__views.sql): edit here. The order of the
-- triggers is the order they are made in, and SQLite runs a table's triggers of one kind last
-- made first: keep a new one where it must run.

CREATE TRIGGER user_erasures_append_only_update BEFORE UPDATE ON user_erasures
WHEN NOT (NEW.user_id IS OLD.user_id AND NEW.erased_at IS OLD.erased_at AND NEW.actor IS OLD.actor AND OLD.wal_cleared_at IS NULL)
BEGIN
    SELECT RAISE(ABORT, 'history_append_only: user_erasures is append-only (but for wal_cleared_at, set once)');
END;

CREATE TRIGGER user_erasures_append_only_delete BEFORE DELETE ON user_erasures
BEGIN
    SELECT RAISE(ABORT, 'history_append_only: user_erasures is append-only');
END;

CREATE TRIGGER user_erasures_never_replaced BEFORE INSERT ON user_erasures
WHEN EXISTS (SELECT 1 FROM user_erasures WHERE user_id = NEW.user_id)
BEGIN
    SELECT RAISE(ABORT, 'row_never_replaced: a row of user_erasures is never replaced (REPLACE would delete it without its triggers); UPDATE it where the table allows, or insert a new row');
END;

