-- The triggers on audit_log: the rules every writer is held to, the derived data they keep, the
-- history they write. A repeatable definition (see R__views.sql): edit here. The order of the
-- triggers is the order they are made in, and SQLite runs a table's triggers of one kind last
-- made first: keep a new one where it must run.

CREATE TRIGGER audit_log_append_only_delete BEFORE DELETE ON audit_log
BEGIN
    SELECT RAISE(ABORT, 'history_append_only: audit_log is append-only');
END;

CREATE TRIGGER audit_log_append_only_update BEFORE UPDATE ON audit_log
WHEN NOT (NEW.id IS OLD.id AND NEW.at IS OLD.at AND NEW.actor IS OLD.actor AND NEW.source IS OLD.source
          AND NEW.object IS OLD.object AND NEW.action IS OLD.action AND NEW.old IS NULL AND NEW.new IS NULL
          AND NEW.history_id IS OLD.history_id
          AND OLD.object GLOB 'user:*' AND EXISTS (SELECT 1 FROM user_erasures WHERE user_id = substr(OLD.object, 6)))
BEGIN
    SELECT RAISE(ABORT, 'history_append_only: audit_log is append-only (but for an erased customer''s values)');
END;

CREATE TRIGGER audit_log_never_replaced BEFORE INSERT ON audit_log
WHEN NEW.id > 0 AND EXISTS (SELECT 1 FROM audit_log WHERE id = NEW.id)
BEGIN
    SELECT RAISE(ABORT, 'row_never_replaced: a row of audit_log is never replaced (REPLACE would delete it without its triggers); UPDATE it where the table allows, or insert a new row');
END;

