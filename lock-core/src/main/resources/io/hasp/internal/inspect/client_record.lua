-- client_record.lua: writes a hasp client's record, which names its process to LockInspector.inspect, and sets its
-- expiry. Each client writes its own at start and again every third of its lease; the record is gone within a
-- lease of the client's end, however it ended.
--
-- KEYS[1]  the record, "hasp_client:{<client id>}"
-- ARGV[1]  the application's name, ARGV[2] the host, ARGV[3] the process id, ARGV[4] the client's start in epoch
--          milliseconds, ARGV[5] how long the record lives unless written again, in milliseconds

redis.call('hset', KEYS[1], 'application', ARGV[1], 'host', ARGV[2], 'pid', ARGV[3], 'started', ARGV[4])
redis.call('pexpire', KEYS[1], ARGV[5])
return 1
