-- The triggers on audit_context: the rules every writer is held to, the derived data they keep, the
-- history they write. A repeatable definition (see R__views.sql): edit here. The order of the
-- triggers is the order they are made in, and SQLite runs a table's triggers of one kind last
-- made first: keep a new one where it must run.

CREATE TRIGGER audit_context_kept BEFORE DELETE ON audit_context
BEGIN
    SELECT RAISE(ABORT, 'audit_context: the row is required');
END;

CREATE TRIGGER audit_context_never_replaced BEFORE INSERT ON audit_context
WHEN NEW.id > 0 AND EXISTS (SELECT 1 FROM audit_context WHERE id = NEW.id)
BEGIN
    SELECT RAISE(ABORT, 'row_never_replaced: a row of audit_context is never replaced (REPLACE would delete it without its triggers); UPDATE it where the table allows, or insert a new row');
END;

CREATE TRIGGER audit_context_library_only BEFORE UPDATE ON audit_context
WHEN NEW.actor IS NOT NULL OR NEW.source IS NOT NULL OR NEW.at IS NOT NULL
BEGIN
    SELECT RAISE(ABORT, 'audit_context_library_only: only Pizzeria says who acts') WHERE pizzeria_connection() IS NOT 1;
END;

