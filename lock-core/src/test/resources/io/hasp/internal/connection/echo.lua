-- KEYS: none
-- ARGV[1]: the value returned
return ARGV[1]
