-- 0001: the menu's pizzas and the people who use the app.
--
-- Conventions for every table in this schema (it is a public interface: query it with
-- `sqlite3 -readonly pizzeria.sqlite`):
--   * STRICT tables: a value of the wrong type is an error, never silently stored.
--   * Ids are lowercase UUID text with a SQL default, so a plain INSERT typed into sqlite3 works.
--   * Money is integer cents of EUR in columns named *_cents.
--   * Timestamps are ISO-8601 UTC text, e.g. 2026-11-30T12:00:00.000Z, with SQL defaults.
--   * CHECK constraints repeat the application's validation, so no client can store what the
--     application would refuse.

-- A pizza on the menu. Pizzas are never deleted (orders refer to them): archiving sets
-- archived_at and takes the pizza off the menu.
CREATE TABLE pizzas (
    id          TEXT NOT NULL PRIMARY KEY
                DEFAULT (lower(hex(randomblob(4))) || '-' || lower(hex(randomblob(2))) || '-4' ||
                         substr(lower(hex(randomblob(2))), 2) || '-' ||
                         substr('89ab', 1 + (abs(random()) % 4), 1) ||
                         substr(lower(hex(randomblob(2))), 2) || '-' || lower(hex(randomblob(6))))
                CHECK (length(id) = 36 AND id GLOB '????????-????-????-????-????????????'
                       AND id NOT GLOB '*[^0-9a-f-]*'),
    -- Trimmed, not empty, no control characters or line breaks. The application also limits
    -- names to 60 user-perceived characters, which SQL cannot count; 240 code points is the
    -- hard ceiling here (an accented or emoji character can take several code points).
    name        TEXT NOT NULL
                CHECK (length(name) BETWEEN 1 AND 240)
                CHECK (name = trim(name, ' ' || char(9,10,11,12,13,133,160,5760,8192,8193,8194,8195,
                                                    8196,8197,8198,8199,8200,8201,8202,8232,8233,
                                                    8239,8287,12288)))
                CHECK (name NOT GLOB ('*[' || char(1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,
                                                   20,21,22,23,24,25,26,27,28,29,30,31,127,128,129,
                                                   130,131,132,133,134,135,136,137,138,139,140,141,
                                                   142,143,144,145,146,147,148,149,150,151,152,153,
                                                   154,155,156,157,158,159,8232,8233) || ']*')),
    -- More than 0, at most 1,000.00 EUR.
    price_cents INTEGER NOT NULL CHECK (price_cents BETWEEN 1 AND 100000),
    -- NULL while on the menu; the time it was taken off otherwise.
    archived_at TEXT CHECK (archived_at IS NULL OR archived_at GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]T[0-9][0-9]:[0-9][0-9]:[0-9][0-9]*Z'),
    -- Incremented by every change; an edit made from an older version is refused as a conflict.
    version     INTEGER NOT NULL DEFAULT 1 CHECK (version >= 1),
    created_at  TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
                CHECK (created_at GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]T[0-9][0-9]:[0-9][0-9]:[0-9][0-9]*Z'),
    updated_at  TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
                CHECK (updated_at GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]T[0-9][0-9]:[0-9][0-9]:[0-9][0-9]*Z')
) STRICT;

-- Names are unique ignoring case, archived pizzas included. SQLite's lower() folds ASCII
-- letters only; the application also compares non-ASCII names with full Unicode case folding.
-- The index also serves lookups by name: WHERE lower(name) = lower(?).
CREATE UNIQUE INDEX pizzas_name_unique ON pizzas (lower(name));

-- A person using the app or booking orders.
CREATE TABLE users (
    id           TEXT NOT NULL PRIMARY KEY
                 DEFAULT (lower(hex(randomblob(4))) || '-' || lower(hex(randomblob(2))) || '-4' ||
                          substr(lower(hex(randomblob(2))), 2) || '-' ||
                          substr('89ab', 1 + (abs(random()) % 4), 1) ||
                          substr(lower(hex(randomblob(2))), 2) || '-' || lower(hex(randomblob(6))))
                 CHECK (length(id) = 36 AND id GLOB '????????-????-????-????-????????????'
                        AND id NOT GLOB '*[^0-9a-f-]*'),
    -- 1 to 32 characters of a-z 0-9 . _ - (stored lowercase); what people type to name a user.
    handle       TEXT NOT NULL UNIQUE
                 CHECK (length(handle) BETWEEN 1 AND 32 AND handle NOT GLOB '*[^a-z0-9._-]*'),
    -- Optional; trimmed, 1 to 80 characters, no control characters.
    display_name TEXT
                 CHECK (display_name IS NULL OR (
                        length(display_name) BETWEEN 1 AND 80
                        AND display_name = trim(display_name)
                        AND display_name NOT GLOB ('*[' || char(1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,
                                                   17,18,19,20,21,22,23,24,25,26,27,28,29,30,31,127) || ']*'))),
    created_at   TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
                 CHECK (created_at GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]T[0-9][0-9]:[0-9][0-9]:[0-9][0-9]*Z')
) STRICT;

-- The menu as a person reads it: pizzas on offer, by name, with the price in EUR.
CREATE VIEW menu AS
SELECT name,
       printf('%d.%02d', price_cents / 100, price_cents % 100) AS price_eur
FROM pizzas
WHERE archived_at IS NULL
ORDER BY lower(name);
