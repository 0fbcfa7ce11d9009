-- The triggers on allergens: the rules every writer is held to, the derived data they keep, the
-- history they write. A repeatable definition (see R__views.sql): edit here. The order of the
-- triggers is the order they are made in, and SQLite runs a table's triggers of one kind last
-- made first: keep a new one where it must run.

CREATE TRIGGER allergens_fixed_insert BEFORE INSERT ON allergens
BEGIN
    SELECT RAISE(ABORT, 'allergens_fixed: the 14 allergens are the EU''s (Regulation 1169/2011, Annex II)');
END;

CREATE TRIGGER allergens_fixed_update BEFORE UPDATE ON allergens
BEGIN
    SELECT RAISE(ABORT, 'allergens_fixed: the 14 allergens are the EU''s (Regulation 1169/2011, Annex II)');
END;

CREATE TRIGGER allergens_fixed_delete BEFORE DELETE ON allergens
BEGIN
    SELECT RAISE(ABORT, 'allergens_fixed: the 14 allergens are the EU''s (Regulation 1169/2011, Annex II)');
END;

CREATE TRIGGER allergens_never_replaced BEFORE INSERT ON allergens
WHEN NEW.bit > 0 AND EXISTS (SELECT 1 FROM allergens WHERE bit = NEW.bit)
BEGIN
    SELECT RAISE(ABORT, 'row_never_replaced: a row of allergens is never replaced (REPLACE would delete it without its triggers); UPDATE it where the table allows, or insert a new row');
END;

