-- 0040: a modifier group's kind, as menus have them.
--
-- `modifier_groups.kind`: `extra` (priced additions: Aggiunte), `removal` (no price: Senza — a
-- line prints it as `senza basilico`) or `choice` (exactly one of, with a default: Impasto, default
-- classico — a line that names none takes the default, which is not printed). Every existing group
-- is an `extra`, as it was read until now. `default_modifier_id`: a choice's default, one of its
-- own modifiers. The rules that span rows (a choice takes exactly one, a removal's modifiers cost
-- nothing, a default is the group's own) are triggers, in R__triggers_modifier_groups.sql and
-- R__triggers_modifiers.sql.

ALTER TABLE modifier_groups ADD COLUMN kind TEXT NOT NULL DEFAULT 'extra'
    CHECK (kind = 'extra' OR kind = 'removal' OR kind = 'choice');
ALTER TABLE modifier_groups ADD COLUMN default_modifier_id INTEGER REFERENCES modifiers (id);
