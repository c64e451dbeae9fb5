-- PLACEHOLDER on branch send-budget only: migration 0018 belongs to another branch; this
-- keeps the numbers without a gap here. Drop it when merging (the real 0018 replaces it).
CREATE TABLE reserved_0018 (x INTEGER);
DROP TABLE reserved_0018;
