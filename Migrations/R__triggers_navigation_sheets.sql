-- The triggers on navigation_sheets: the rules every writer is held to, the derived data they keep, the
-- history they write. A repeatable definition (see R__views.sql): edit here. The order of the
-- triggers is the order they are made in, and SQLite runs a table's triggers of one kind last
-- made first: keep a new one where it must run.

CREATE TRIGGER navigation_sheets_user_not_erased BEFORE INSERT ON navigation_sheets
WHEN EXISTS (SELECT 1 FROM user_erasures WHERE user_id = NEW.user_id)
BEGIN
    SELECT RAISE(ABORT, 'user_erased: this customer''s data was erased; nothing more is recorded for them');
END;

CREATE TRIGGER navigation_sheets_user_not_erased_update BEFORE UPDATE ON navigation_sheets
WHEN EXISTS (SELECT 1 FROM user_erasures WHERE user_id = NEW.user_id)
BEGIN
    SELECT RAISE(ABORT, 'user_erased: this customer''s data was erased; nothing more is recorded for them');
END;

