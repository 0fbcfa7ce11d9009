-- 0048: a staff override passes a station's capacity by its margin, as it passes the oven's.
--
-- `capacity_overrides.station_id`: NULL for the pizzas an override took over the slot's capacity
-- (the oven, as before), else the station (not the one holding the slot capacity) whose pieces it
-- took over that station's capacity in the slot. One booking may record both. A station's margin
-- is the slot's rule: a quarter of its capacity there, rounded up.
ALTER TABLE capacity_overrides ADD COLUMN station_id INTEGER REFERENCES stations (id);

CREATE INDEX capacity_overrides_by_station ON capacity_overrides (station_id, pickup_at) WHERE station_id IS NOT NULL;
