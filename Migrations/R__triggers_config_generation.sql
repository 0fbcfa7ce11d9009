-- The triggers on config_generation: the rules every writer is held to, the derived data they keep, the
-- history they write. A repeatable definition (see R__views.sql): edit here. The order of the
-- triggers is the order they are made in, and SQLite runs a table's triggers of one kind last
-- made first: keep a new one where it must run.

CREATE TRIGGER config_generation_kept BEFORE DELETE ON config_generation
BEGIN
    SELECT RAISE(ABORT, 'config_generation: the row is required');
END;

CREATE TRIGGER config_generation_forward BEFORE UPDATE ON config_generation
WHEN NEW.generation <= OLD.generation OR NEW.id IS NOT OLD.id
BEGIN
    SELECT RAISE(ABORT, 'config_generation: the generation only moves forward');
END;

CREATE TRIGGER config_generation_never_replaced BEFORE INSERT ON config_generation
WHEN NEW.id > 0 AND EXISTS (SELECT 1 FROM config_generation WHERE id = NEW.id)
BEGIN
    SELECT RAISE(ABORT, 'row_never_replaced: a row of config_generation is never replaced (REPLACE would delete it without its triggers); UPDATE it where the table allows, or insert a new row');
END;

