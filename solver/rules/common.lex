% Common sense the statutes leave undefined. Every rule here is a reading
% of ordinary language, not of a statute.
