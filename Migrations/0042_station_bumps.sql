-- 0042: a station marks its part of an order done (bump), as kitchen display screens do.
--
-- `station_bumps`: one row per (order, station) whose part is done, with who and when. An order
-- whose every station (of its lines) is done is made ready by Pizzeria in the same transaction.
-- The rules (only a placed or preparing order, only a station it has lines at; bumps dropped when
-- the order goes back from ready or the station gets more to make) are triggers, in
-- R__triggers_station_bumps.sql and the order and line triggers.

CREATE TABLE station_bumps (
    order_id   TEXT NOT NULL REFERENCES orders (id),
    station_id INTEGER NOT NULL REFERENCES stations (id),
    at         TEXT NOT NULL CHECK (at GLOB '[0-9][0-9][0-9][0-9]-[0-1][0-9]-[0-3][0-9]T[0-2][0-9]:[0-5][0-9]:[0-5][0-9]*Z'),
    actor      TEXT CHECK (actor IS NULL OR length(actor) BETWEEN 1 AND 64),
    PRIMARY KEY (order_id, station_id)
) STRICT, WITHOUT ROWID;
