-- A bulk message's audience by the page's custom labels and its personal greeting:
--   audience_labels: the labels the owner chose in the wizard, {"match": "any"|"all", "labels": [{"id", "name"}]}
--     (NULL: no label filter, the `label` column's all_labels / no_labels as before);
--   name_fallback: the word written where the text takes a recipient's first name and the network has none.
ALTER TABLE messages ADD COLUMN audience_labels JSONB;
ALTER TABLE messages ADD COLUMN name_fallback TEXT;
