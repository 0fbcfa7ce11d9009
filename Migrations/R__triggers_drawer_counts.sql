-- The triggers on drawer_counts: the rules every writer is held to. A repeatable definition (see
-- R__views.sql): edit here.

CREATE TRIGGER drawer_counts_append_only_update BEFORE UPDATE ON drawer_counts
BEGIN
    SELECT RAISE(ABORT, 'drawer_counts_append_only: a count is a record; count again instead');
END;

CREATE TRIGGER drawer_counts_append_only_delete BEFORE DELETE ON drawer_counts
BEGIN
    SELECT RAISE(ABORT, 'drawer_counts_append_only: a count is a record and is never deleted');
END;

CREATE TRIGGER drawer_counts_never_replaced BEFORE INSERT ON drawer_counts
WHEN NEW.id > 0 AND EXISTS (SELECT 1 FROM drawer_counts WHERE id = NEW.id)
BEGIN
    SELECT RAISE(ABORT, 'row_never_replaced: a row of drawer_counts is never replaced (REPLACE would delete it without its triggers); insert a new row');
END;
