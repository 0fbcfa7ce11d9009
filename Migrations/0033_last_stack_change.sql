-- 0033: the router's previous route from a per-user column, not from a second index of the events.
--
-- The previous route (`NavigationState.previous`, `nav show`) is the `top_before` of the user's
-- latest event that changed the stack. Since migration 4 it was found through the partial index
-- navigation_events_stack_changes `(user_id, id) WHERE action NOT GLOB 'sheet_*'`, so every
-- stack-changing event went into two `(user_id, id)` indexes: a random leaf of each, at ten
-- million events two page misses and one page written more per step (docs/PERFORMANCE.md,
-- session 54), for a lookup only `state(of:)` makes.
--
-- Now the user's row says which event that is: `users.last_stack_change`, the id of the user's
-- latest navigation event whose action is not a sheet action (NULL: none). It is derived data:
-- kept by the triggers below on every path that adds or removes an event (the router, the sheet
-- flows, an erasure, a hand-written INSERT in sqlite3), refused when written as anything else,
-- compared with the history by `pizzeria check` and rewritten by `check --repair`. The users row
-- is the one a navigation step reads anyway (the state statement joins it), so keeping the column
-- costs no page miss. It is not a declared foreign key: every deletion of an event would then look
-- for users naming it, with no index to do it; the delete trigger below keeps it instead (events
-- are deleted only when their user is erased: navigation_events_append_only_delete).

ALTER TABLE users ADD COLUMN last_stack_change INTEGER;

-- Every existing user's latest stack change, found through the index this migration drops.
UPDATE users SET last_stack_change = (
    SELECT e.id FROM navigation_events e
    WHERE e.user_id = users.id AND e.action NOT GLOB 'sheet_*'
    ORDER BY e.id DESC LIMIT 1);

DROP INDEX navigation_events_stack_changes;

-- A new user has no navigation yet.
CREATE TRIGGER users_last_stack_change_insert BEFORE INSERT ON users
WHEN NEW.last_stack_change IS NOT NULL
BEGIN
    SELECT RAISE(ABORT, 'last_stack_change: a new user has no navigation events; leave last_stack_change out');
END;

-- The column holds the user's latest stack-changing event and nothing else. Both lookups are of
-- pages a step touches anyway: the event by its id (the table's last page when it was just
-- appended) and the user's events after it (the leaf of navigation_events_by_user the event went
-- into). Setting NULL while the user still has a stack change is refused too.
CREATE TRIGGER users_last_stack_change_update BEFORE UPDATE OF last_stack_change ON users
WHEN (NEW.last_stack_change IS NOT NULL AND NOT EXISTS (
          SELECT 1 FROM navigation_events e
          WHERE e.id = NEW.last_stack_change AND e.user_id = NEW.id AND e.action NOT GLOB 'sheet_*'))
  OR EXISTS (
          SELECT 1 FROM navigation_events l
          WHERE l.user_id = NEW.id AND l.id > coalesce(NEW.last_stack_change, -1) AND l.action NOT GLOB 'sheet_*')
BEGIN
    SELECT RAISE(ABORT, 'last_stack_change: users.last_stack_change is the id of the user''s latest navigation event that changed the stack, kept by the history; add an event instead');
END;

-- An event that changes the stack is the user's latest one (an event inserted by hand with an
-- older id leaves a later one in place).
CREATE TRIGGER navigation_events_last_stack_change AFTER INSERT ON navigation_events
WHEN NEW.action NOT GLOB 'sheet_*'
BEGIN
    UPDATE users SET last_stack_change = NEW.id
    WHERE id = NEW.user_id AND (last_stack_change IS NULL OR last_stack_change < NEW.id);
END;

-- An erasure deletes the user's events (in id order, so the latest stack change goes after every
-- earlier one): the column follows to the latest one left, and to NULL with the last.
CREATE TRIGGER navigation_events_last_stack_change_delete AFTER DELETE ON navigation_events
WHEN OLD.action NOT GLOB 'sheet_*'
BEGIN
    UPDATE users SET last_stack_change = (
        SELECT e.id FROM navigation_events e
        WHERE e.user_id = OLD.user_id AND e.id < OLD.id AND e.action NOT GLOB 'sheet_*'
        ORDER BY e.id DESC LIMIT 1)
    WHERE id = OLD.user_id AND last_stack_change = OLD.id;
END;
