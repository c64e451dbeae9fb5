-- Number 0011 is the question kinds' migration (a set of chosen options per answer); this
-- placeholder, which changes nothing, keeps the numbering without a gap until it lands, and is
-- removed with it.
DROP TABLE IF EXISTS reserved_0011;
