-- wrk script for bench/login-storm: a storm of wrong-password logins.
--
-- Each request is POST /login with the anonymous CSRF token from the
-- environment variable BENCH_CSRF (as cookie tagarela_csrf and form field
-- _csrf), a random unknown username, the password "wrong-password-123" and a
-- random X-Real-IP (10.x.y.z; only a header value, the server runs with
-- TAGARELA_TRUST_PROXY=1), so that the login throttle (5 failures per account,
-- 10 per address) never answers early and every request costs a full argon2id
-- verification. The app answers each one 422.
--
-- Prints one machine-readable line after the run, e.g.
--   RESULT requests_per_sec=23.4 p50_ms=2100.00 p99_ms=2300.00 errors=0 socket_errors=0 unexpected=0 statuses=
-- requests_per_sec = logins per second; errors = socket_errors (connect, read,
-- write, timeout) + unexpected (responses whose status is not 422);
-- statuses lists the unexpected ones as status:count,... (empty if none).
-- wrk reports durations and latencies in microseconds.

local token = os.getenv("BENCH_CSRF")
if token == nil or not token:match("^[%w_-]+$") then
   error("login-storm.lua: set BENCH_CSRF to the anonymous CSRF token")
end

wrk.method = "POST"
wrk.path = "/login"
wrk.headers["Content-Type"] = "application/x-www-form-urlencoded"
wrk.headers["Cookie"] = "tagarela_csrf=" .. token

local threads = {}

function setup(thread)
   table.insert(threads, thread)
   thread:set("thread_id", #threads)
end

function init(args)
   unexpected = {}   -- status -> count, read by done() through thread:get
   math.randomseed(os.time() * 1000 + (thread_id or 0))
end

function request()
   local body = string.format("_csrf=%s&username=storm%08x&password=wrong-password-123",
                              token, math.random(0, 0x7fffffff))
   wrk.headers["X-Real-IP"] = string.format("10.%d.%d.%d",
                                            math.random(0, 255), math.random(0, 255), math.random(1, 254))
   return wrk.format(nil, nil, nil, body)
end

function response(status, headers, body)
   if status ~= 422 then
      unexpected[status] = (unexpected[status] or 0) + 1
   end
end

function done(summary, latency, requests)
   local e = summary.errors
   local socket_errors = e.connect + e.read + e.write + e.timeout
   local counts, total = {}, 0
   for _, thread in ipairs(threads) do
      for status, n in pairs(thread:get("unexpected") or {}) do
         counts[status] = (counts[status] or 0) + n
         total = total + n
      end
   end
   local list = {}
   for status, n in pairs(counts) do
      table.insert(list, string.format("%d:%d", status, n))
   end
   table.sort(list)
   local seconds = summary.duration / 1e6
   local rps = 0
   if seconds > 0 then
      rps = summary.requests / seconds
   end
   io.write(string.format(
      "RESULT requests_per_sec=%.1f p50_ms=%.2f p99_ms=%.2f errors=%d socket_errors=%d unexpected=%d statuses=%s\n",
      rps,
      latency:percentile(50) / 1000,
      latency:percentile(99) / 1000,
      socket_errors + total,
      socket_errors,
      total,
      table.concat(list, ",")))
end
