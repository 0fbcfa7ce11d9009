-- 0023: the oven stops — delays in bulk. A delay moves orders later, preparing ones included:
-- their kitchen state stays, only the pickup moves. Lines and notes stay locked from preparing on
-- as before, and a preparing order's pickup may change only as a delay: later, with the change
-- marked `delayed +N…` in `change_note` (what the library writes, and what the history shows:
-- `pickup 20:00 → 20:15, delayed +15`). A ready, collected or closed order never moves.

DROP TRIGGER orders_locked_after_placed;

CREATE TRIGGER orders_locked_after_placed BEFORE UPDATE OF pickup_at, note ON orders
WHEN OLD.status <> 'placed' AND (NEW.pickup_at IS NOT OLD.pickup_at OR NEW.note IS NOT OLD.note)
 AND NOT (NEW.pickup_at IS OLD.pickup_at AND NEW.note IS NULL AND EXISTS (SELECT 1 FROM user_erasures WHERE user_id = OLD.user_id))
 AND NOT (OLD.status = 'preparing' AND NEW.status = 'preparing' AND NEW.note IS OLD.note
          AND NEW.pickup_at > OLD.pickup_at AND coalesce(NEW.change_note, '') GLOB 'delayed +[0-9]*')
BEGIN
    SELECT RAISE(ABORT, 'order_locked: only a placed order can be moved or edited (a preparing one only delayed: later, with change_note ''delayed +N'')');
END;
