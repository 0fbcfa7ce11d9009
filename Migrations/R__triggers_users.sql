-- The triggers on users: the rules every writer is held to, the derived data they keep, the
-- history they write. A repeatable definition (see R__views.sql): edit here. The order of the
-- triggers is the order they are made in, and SQLite runs a table's triggers of one kind last
-- made first: keep a new one where it must run.

CREATE TRIGGER users_erased_identity_locked BEFORE UPDATE OF handle, display_name, phone ON users
WHEN EXISTS (SELECT 1 FROM user_erasures WHERE user_id = OLD.id)
 AND NOT (NEW.handle IS 'erased-' || substr(OLD.id, 1, 13) AND NEW.display_name IS NULL AND NEW.phone IS NULL)
BEGIN
    SELECT RAISE(ABORT, 'user_erased: this customer''s data was erased; it cannot be filled in again');
END;

CREATE TRIGGER users_timestamp_insert BEFORE INSERT ON users
WHEN strftime('%Y-%m-%dT%H:%M:%fZ', NEW.created_at) IS NOT NEW.created_at
BEGIN
    SELECT RAISE(ABORT, 'timestamp_format: users.created_at is a UTC time such as 2026-12-01T18:30:00.000Z');
END;

CREATE TRIGGER users_timestamp_update BEFORE UPDATE OF created_at ON users
WHEN NEW.created_at IS NOT OLD.created_at
BEGIN
    SELECT RAISE(ABORT, 'timestamp_format: a user''s created_at never changes');
END;

CREATE TRIGGER audit_users_insert AFTER INSERT ON users
BEGIN
    INSERT INTO audit_log (at, actor, source, object, action, new)
    SELECT coalesce(c.at, strftime('%Y-%m-%dT%H:%M:%fZ', 'now')), c.actor, coalesce(c.source, 'sql'), 'user:' || NEW.id, 'add',
           json_object('handle', NEW.handle, 'display_name', NEW.display_name, 'phone', NEW.phone)
    FROM audit_context c WHERE c.id = 1;
END;

CREATE TRIGGER audit_users_update AFTER UPDATE OF handle, display_name, phone ON users
WHEN OLD.handle IS NOT NEW.handle OR OLD.display_name IS NOT NEW.display_name OR OLD.phone IS NOT NEW.phone
BEGIN
    INSERT INTO audit_log (at, actor, source, object, action, old, new)
    SELECT coalesce(c.at, strftime('%Y-%m-%dT%H:%M:%fZ', 'now')), c.actor, coalesce(c.source, 'sql'), 'user:' || NEW.id,
           CASE WHEN e.user_id IS NULL THEN 'edit' ELSE 'erase' END,
           CASE WHEN e.user_id IS NULL THEN json_object('handle', OLD.handle, 'display_name', OLD.display_name, 'phone', OLD.phone) END,
           CASE WHEN e.user_id IS NULL THEN json_object('handle', NEW.handle, 'display_name', NEW.display_name, 'phone', NEW.phone)
                ELSE json_object('handle', NEW.handle) END
    FROM audit_context c LEFT JOIN user_erasures e ON e.user_id = NEW.id WHERE c.id = 1;
END;

CREATE TRIGGER users_last_stack_change_insert BEFORE INSERT ON users
WHEN NEW.last_stack_change IS NOT NULL
BEGIN
    SELECT RAISE(ABORT, 'last_stack_change: a new user has no navigation events; leave last_stack_change out');
END;

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

