-- 0010: an accountable shop — one append-only audit log of every change to the menu, users,
-- settings, hours, exceptions, capacity rules, pause, rush and staff: who, when, what object,
-- old → new, and the command or API that did it; the staff who may act, and their roles.
--
-- Triggers write the log, so a change typed into sqlite3 is logged too (by nobody, source `sql`).
-- Who and when come from `audit_context`, a one-row table the library fills at the start of each
-- of its write transactions and clears before committing: at rest it is empty, so a later hand
-- edit is never attributed to the last person who used the program. The log's times follow the
-- library's clock (PIZZERIA_NOW where set).

CREATE TABLE audit_context (
    id     INTEGER PRIMARY KEY CHECK (id = 1),
    actor  TEXT CHECK (actor IS NULL OR length(actor) BETWEEN 1 AND 64),
    source TEXT CHECK (source IS NULL OR length(source) BETWEEN 1 AND 100),
    at     TEXT CHECK (at IS NULL OR strftime('%Y-%m-%dT%H:%M:%fZ', at) IS at)
) STRICT;

INSERT INTO audit_context (id) VALUES (1);

CREATE TRIGGER audit_context_kept BEFORE DELETE ON audit_context
BEGIN
    SELECT RAISE(ABORT, 'audit_context: the row is required');
END;

CREATE TABLE audit_log (
    id     INTEGER PRIMARY KEY,
    at     TEXT NOT NULL CHECK (strftime('%Y-%m-%dT%H:%M:%fZ', at) IS at),
    -- Who (the staff name given with --by or $PIZZERIA_STAFF); NULL when nobody said (sqlite3).
    actor  TEXT CHECK (actor IS NULL OR length(actor) BETWEEN 1 AND 64),
    -- What did it: `pizzeria pizza edit`, `library`, `sql` (a statement typed by hand).
    source TEXT NOT NULL CHECK (length(source) BETWEEN 1 AND 100),
    -- The object: `pizza:ID`, `user:ID`, `settings`, `hours`, `capacity`, `staff:NAME`.
    object TEXT NOT NULL CHECK (length(object) BETWEEN 1 AND 100),
    -- add, edit, price, archive, restore, erase, set, pause, resume, busy, remove, close, special, cut.
    action TEXT NOT NULL CHECK (length(action) BETWEEN 1 AND 20),
    -- The object's fields before and after, as JSON objects (NULL: none, or erased).
    old    TEXT CHECK (old IS NULL OR json_valid(old)),
    new    TEXT CHECK (new IS NULL OR json_valid(new))
) STRICT;

CREATE INDEX audit_log_by_object ON audit_log (object, id);
CREATE INDEX audit_log_by_time ON audit_log (at, id);

-- Append-only, but for the erasure of a customer: their rows lose their values, nothing else.
CREATE TRIGGER audit_log_append_only_update BEFORE UPDATE ON audit_log
WHEN NOT (NEW.id IS OLD.id AND NEW.at IS OLD.at AND NEW.actor IS OLD.actor AND NEW.source IS OLD.source
          AND NEW.object IS OLD.object AND NEW.action IS OLD.action AND NEW.old IS NULL AND NEW.new IS NULL
          AND OLD.object GLOB 'user:*' AND EXISTS (SELECT 1 FROM user_erasures WHERE user_id = substr(OLD.object, 6)))
BEGIN
    SELECT RAISE(ABORT, 'history_append_only: audit_log is append-only (but for an erased customer''s values)');
END;

CREATE TRIGGER audit_log_append_only_delete BEFORE DELETE ON audit_log
BEGIN
    SELECT RAISE(ABORT, 'history_append_only: audit_log is append-only');
END;

-- Pizzas ------------------------------------------------------------------------------------------

CREATE TRIGGER audit_pizzas_insert AFTER INSERT ON pizzas
BEGIN
    INSERT INTO audit_log (at, actor, source, object, action, new)
    SELECT coalesce(c.at, strftime('%Y-%m-%dT%H:%M:%fZ', 'now')), c.actor, coalesce(c.source, 'sql'), 'pizza:' || NEW.id, 'add',
           json_object('name', NEW.name, 'price_cents', NEW.price_cents)
    FROM audit_context c WHERE c.id = 1;
END;

CREATE TRIGGER audit_pizzas_update AFTER UPDATE OF name, price_cents, archived_at ON pizzas
WHEN OLD.name IS NOT NEW.name OR OLD.price_cents IS NOT NEW.price_cents OR OLD.archived_at IS NOT NEW.archived_at
BEGIN
    INSERT INTO audit_log (at, actor, source, object, action, old, new)
    SELECT coalesce(c.at, strftime('%Y-%m-%dT%H:%M:%fZ', 'now')), c.actor, coalesce(c.source, 'sql'), 'pizza:' || NEW.id,
           CASE WHEN OLD.archived_at IS NULL AND NEW.archived_at IS NOT NULL THEN 'archive'
                WHEN OLD.archived_at IS NOT NULL AND NEW.archived_at IS NULL THEN 'restore'
                WHEN OLD.name IS NEW.name THEN 'price'
                ELSE 'edit' END,
           json_object('name', OLD.name, 'price_cents', OLD.price_cents, 'archived_at', OLD.archived_at),
           json_object('name', NEW.name, 'price_cents', NEW.price_cents, 'archived_at', NEW.archived_at)
    FROM audit_context c WHERE c.id = 1;
END;

-- The history's times follow the library's clock too.
DROP TRIGGER pizzas_history_changed;
CREATE TRIGGER pizzas_history_changed AFTER UPDATE OF name, price_cents, archived_at ON pizzas
WHEN OLD.name IS NOT NEW.name
  OR OLD.price_cents IS NOT NEW.price_cents
  OR (OLD.archived_at IS NULL) <> (NEW.archived_at IS NULL)
BEGIN
    UPDATE pizzas
    SET version = CASE WHEN NEW.version > OLD.version THEN NEW.version ELSE OLD.version + 1 END,
        updated_at = coalesce((SELECT at FROM audit_context WHERE id = 1), strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
    WHERE id = NEW.id;
    INSERT INTO pizza_history (pizza_id, change, old_name, new_name, old_price_cents, new_price_cents, version, changed_at)
    SELECT NEW.id,
           CASE WHEN OLD.archived_at IS NULL AND NEW.archived_at IS NOT NULL THEN 'archived'
                WHEN OLD.archived_at IS NOT NULL AND NEW.archived_at IS NULL THEN 'restored'
                ELSE 'edited' END,
           OLD.name, NEW.name, OLD.price_cents, NEW.price_cents, version,
           coalesce((SELECT at FROM audit_context WHERE id = 1), strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
    FROM pizzas WHERE id = NEW.id;
END;

-- Users -------------------------------------------------------------------------------------------

CREATE TRIGGER audit_users_insert AFTER INSERT ON users
BEGIN
    INSERT INTO audit_log (at, actor, source, object, action, new)
    SELECT coalesce(c.at, strftime('%Y-%m-%dT%H:%M:%fZ', 'now')), c.actor, coalesce(c.source, 'sql'), 'user:' || NEW.id, 'add',
           json_object('handle', NEW.handle, 'display_name', NEW.display_name, 'phone', NEW.phone)
    FROM audit_context c WHERE c.id = 1;
END;

-- An erasure is logged without the erased values: only that it happened, and the pseudonym.
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

-- Settings, pause and rush ------------------------------------------------------------------------

CREATE TRIGGER audit_settings_update AFTER UPDATE ON settings
WHEN OLD.slot_minutes IS NOT NEW.slot_minutes OR OLD.slot_capacity IS NOT NEW.slot_capacity OR OLD.time_zone IS NOT NEW.time_zone
  OR OLD.booking_horizon_days IS NOT NEW.booking_horizon_days OR OLD.lead_minutes IS NOT NEW.lead_minutes
  OR OLD.paused IS NOT NEW.paused OR OLD.paused_until IS NOT NEW.paused_until OR OLD.pause_reason IS NOT NEW.pause_reason
  OR OLD.busy_minutes IS NOT NEW.busy_minutes OR OLD.busy_until IS NOT NEW.busy_until
BEGIN
    INSERT INTO audit_log (at, actor, source, object, action, old, new)
    SELECT coalesce(c.at, strftime('%Y-%m-%dT%H:%M:%fZ', 'now')), c.actor, coalesce(c.source, 'sql'), 'settings',
           CASE WHEN OLD.paused IS NOT NEW.paused OR OLD.paused_until IS NOT NEW.paused_until OR OLD.pause_reason IS NOT NEW.pause_reason
                     THEN CASE NEW.paused WHEN 1 THEN 'pause' ELSE 'resume' END
                WHEN OLD.busy_minutes IS NOT NEW.busy_minutes OR OLD.busy_until IS NOT NEW.busy_until THEN 'busy'
                ELSE 'set' END,
           json_object('slot_minutes', OLD.slot_minutes, 'slot_capacity', OLD.slot_capacity, 'time_zone', OLD.time_zone,
                       'booking_horizon_days', OLD.booking_horizon_days, 'lead_minutes', OLD.lead_minutes, 'paused', OLD.paused,
                       'paused_until', OLD.paused_until, 'pause_reason', OLD.pause_reason, 'busy_minutes', OLD.busy_minutes,
                       'busy_until', OLD.busy_until),
           json_object('slot_minutes', NEW.slot_minutes, 'slot_capacity', NEW.slot_capacity, 'time_zone', NEW.time_zone,
                       'booking_horizon_days', NEW.booking_horizon_days, 'lead_minutes', NEW.lead_minutes, 'paused', NEW.paused,
                       'paused_until', NEW.paused_until, 'pause_reason', NEW.pause_reason, 'busy_minutes', NEW.busy_minutes,
                       'busy_until', NEW.busy_until)
    FROM audit_context c WHERE c.id = 1;
END;

-- Hours and exceptions ----------------------------------------------------------------------------

CREATE TRIGGER audit_weekly_hours_insert AFTER INSERT ON weekly_hours
BEGIN
    INSERT INTO audit_log (at, actor, source, object, action, new)
    SELECT coalesce(c.at, strftime('%Y-%m-%dT%H:%M:%fZ', 'now')), c.actor, coalesce(c.source, 'sql'), 'hours', 'add',
           json_object('weekday', NEW.weekday, 'opens_at', NEW.opens_at, 'closes_at', NEW.closes_at)
    FROM audit_context c WHERE c.id = 1;
END;

CREATE TRIGGER audit_weekly_hours_delete AFTER DELETE ON weekly_hours
BEGIN
    INSERT INTO audit_log (at, actor, source, object, action, old)
    SELECT coalesce(c.at, strftime('%Y-%m-%dT%H:%M:%fZ', 'now')), c.actor, coalesce(c.source, 'sql'), 'hours', 'remove',
           json_object('weekday', OLD.weekday, 'opens_at', OLD.opens_at, 'closes_at', OLD.closes_at)
    FROM audit_context c WHERE c.id = 1;
END;

CREATE TRIGGER audit_exceptions_insert AFTER INSERT ON schedule_exceptions
BEGIN
    INSERT INTO audit_log (at, actor, source, object, action, new)
    SELECT coalesce(c.at, strftime('%Y-%m-%dT%H:%M:%fZ', 'now')), c.actor, coalesce(c.source, 'sql'), 'hours',
           CASE NEW.kind WHEN 'closed' THEN 'close' ELSE NEW.kind END,
           json_object('day', NEW.day, 'kind', NEW.kind, 'opens_at', NEW.opens_at, 'closes_at', NEW.closes_at, 'reason', NEW.reason)
    FROM audit_context c WHERE c.id = 1;
END;

CREATE TRIGGER audit_exceptions_delete AFTER DELETE ON schedule_exceptions
BEGIN
    INSERT INTO audit_log (at, actor, source, object, action, old)
    SELECT coalesce(c.at, strftime('%Y-%m-%dT%H:%M:%fZ', 'now')), c.actor, coalesce(c.source, 'sql'), 'hours', 'remove',
           json_object('day', OLD.day, 'kind', OLD.kind, 'opens_at', OLD.opens_at, 'closes_at', OLD.closes_at, 'reason', OLD.reason)
    FROM audit_context c WHERE c.id = 1;
END;

-- Capacity rules ------------------------------------------------------------------------------------

CREATE TRIGGER audit_capacity_insert AFTER INSERT ON capacity_rules
BEGIN
    INSERT INTO audit_log (at, actor, source, object, action, new)
    SELECT coalesce(c.at, strftime('%Y-%m-%dT%H:%M:%fZ', 'now')), c.actor, coalesce(c.source, 'sql'), 'capacity', 'set',
           json_object('rule', NEW.rule, 'capacity', NEW.capacity)
    FROM audit_context c WHERE c.id = 1;
END;

CREATE TRIGGER audit_capacity_update AFTER UPDATE OF capacity ON capacity_rules
WHEN OLD.capacity IS NOT NEW.capacity
BEGIN
    INSERT INTO audit_log (at, actor, source, object, action, old, new)
    SELECT coalesce(c.at, strftime('%Y-%m-%dT%H:%M:%fZ', 'now')), c.actor, coalesce(c.source, 'sql'), 'capacity', 'set',
           json_object('rule', OLD.rule, 'capacity', OLD.capacity), json_object('rule', NEW.rule, 'capacity', NEW.capacity)
    FROM audit_context c WHERE c.id = 1;
END;

CREATE TRIGGER audit_capacity_delete AFTER DELETE ON capacity_rules
BEGIN
    INSERT INTO audit_log (at, actor, source, object, action, old)
    SELECT coalesce(c.at, strftime('%Y-%m-%dT%H:%M:%fZ', 'now')), c.actor, coalesce(c.source, 'sql'), 'capacity', 'remove',
           json_object('rule', OLD.rule, 'capacity', OLD.capacity)
    FROM audit_context c WHERE c.id = 1;
END;

-- Staff -------------------------------------------------------------------------------------------

-- The people who act at the counter and in the office, and what each may do: `counter` (orders),
-- `manager` (+ the menu, hours, capacity, pause and rush), `owner` (+ staff, settings, erasure).
-- Enforced only when settings.require_staff is 1: accountability, not security (whoever can
-- write the file can do anything; docs/CLI.md says how to keep the file to the service).
CREATE TABLE staff (
    name     TEXT NOT NULL PRIMARY KEY
             CHECK (length(name) BETWEEN 1 AND 64
                    AND name NOT GLOB ('*[' || char(1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,26,
                                                    27,28,29,30,31,127) || ']*')),
    role     TEXT NOT NULL CHECK (role IN ('owner', 'manager', 'counter')),
    added_at TEXT NOT NULL CHECK (strftime('%Y-%m-%dT%H:%M:%fZ', added_at) IS added_at)
) STRICT;

ALTER TABLE settings ADD COLUMN require_staff INTEGER NOT NULL DEFAULT 0 CHECK (require_staff IN (0, 1));

CREATE TRIGGER audit_settings_require_staff AFTER UPDATE OF require_staff ON settings
WHEN OLD.require_staff IS NOT NEW.require_staff
BEGIN
    INSERT INTO audit_log (at, actor, source, object, action, old, new)
    SELECT coalesce(c.at, strftime('%Y-%m-%dT%H:%M:%fZ', 'now')), c.actor, coalesce(c.source, 'sql'), 'settings', 'set',
           json_object('require_staff', OLD.require_staff), json_object('require_staff', NEW.require_staff)
    FROM audit_context c WHERE c.id = 1;
END;

CREATE TRIGGER audit_staff_insert AFTER INSERT ON staff
BEGIN
    INSERT INTO audit_log (at, actor, source, object, action, new)
    SELECT coalesce(c.at, strftime('%Y-%m-%dT%H:%M:%fZ', 'now')), c.actor, coalesce(c.source, 'sql'), 'staff:' || NEW.name, 'add',
           json_object('name', NEW.name, 'role', NEW.role)
    FROM audit_context c WHERE c.id = 1;
END;

CREATE TRIGGER audit_staff_update AFTER UPDATE ON staff
BEGIN
    INSERT INTO audit_log (at, actor, source, object, action, old, new)
    SELECT coalesce(c.at, strftime('%Y-%m-%dT%H:%M:%fZ', 'now')), c.actor, coalesce(c.source, 'sql'), 'staff:' || NEW.name, 'edit',
           json_object('name', OLD.name, 'role', OLD.role), json_object('name', NEW.name, 'role', NEW.role)
    FROM audit_context c WHERE c.id = 1;
END;

CREATE TRIGGER audit_staff_delete AFTER DELETE ON staff
BEGIN
    INSERT INTO audit_log (at, actor, source, object, action, old)
    SELECT coalesce(c.at, strftime('%Y-%m-%dT%H:%M:%fZ', 'now')), c.actor, coalesce(c.source, 'sql'), 'staff:' || OLD.name, 'remove',
           json_object('name', OLD.name, 'role', OLD.role)
    FROM audit_context c WHERE c.id = 1;
END;

-- One trail for people: the audit log, and every order's history (its own view of its changes).
CREATE VIEW audit_trail AS
SELECT a.at, 0 AS kind, a.id AS seq, a.actor, a.source, a.object, a.action, a.old, a.new FROM audit_log a
UNION ALL
SELECT e.at, 1 AS kind, e.id AS seq, e.actor, 'order history', 'order:' || e.order_id, e.kind || CASE WHEN e.kind = 'status' THEN ' ' || e.to_status ELSE '' END,
       CASE WHEN e.from_status IS NOT NULL THEN json_object('status', e.from_status) END,
       json_object('status', e.to_status, 'detail', e.detail)
FROM order_status_events e;
