-- 0018: the add/edit sheet keeps the menu's new fields between runs.
--
-- A sheet's draft had a name and a price; it now also keeps the menu section, the allergens, the
-- variants and the modifier groups being edited, as one JSON object (each member absent when the
-- draft keeps what the item has): {"category_id": 2, "allergens": ["gluten"], "variants":
-- [{"name": "Normale", "price_cents": 600, "default": true}], "modifier_groups": [1, 2]}.
-- The draft may be invalid, as before: it is validated on save.
ALTER TABLE navigation_sheets ADD COLUMN draft_choices TEXT
    CHECK (draft_choices IS NULL OR (json_valid(draft_choices) AND json_type(draft_choices) = 'object'
                                     AND length(draft_choices) <= 10000));
