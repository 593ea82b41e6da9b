-- wrk script for bench/mixed: one kind of user action per wrk process, the
-- processes running side by side so the server sees the mix. Each request
-- comes from the next signed-in user of that kind, round robin (sessions
-- written by bench/clinic.py), with their session cookie and, for a POST,
-- their CSRF token in the form, as the browser sends them.
--
-- Environment: MIXED_KIND  board | tap | usage | dashboard | checkin | evaluation | overview | worklist
--              MIXED_USERS a file of the users for that kind, one per line,
--                          tab-separated: cookie, csrf, then the kind's fields:
--                board       plan id
--                tap         plan id, symbol ids (comma-separated)
--                usage       patient id
--                dashboard   (none)
--                checkin     pending meal ids in queue order (comma-separated)
--                evaluation  client id
--                overview    patient id (of the worklist clinician)
--                worklist    (none)
--              MIXED_HOSTS optional: host names (comma-separated), one per request in turn, sent as the
--                          Host header: bench/region spreads one kind over the tenants of a node this way.
--                          A check-in keeps each patient at one host (the user's place in the file, modulo
--                          the hosts): their meals are answered in queue order in their own clinic
--              MIXED_BACKOFF_MS optional: after an answer of 500 or more the thread's next request waits this
--                          long, as a browser would before trying again (bench/region, while a node is down)
-- Prints a RESULT line like report.lua's, with the statuses that were not the
-- kind's expected one (see done below).

local kind = os.getenv("MIXED_KIND")
local users_file = os.getenv("MIXED_USERS")
if kind == nil or users_file == nil then
   error("mixed.lua: set MIXED_KIND and MIXED_USERS")
end

local function split(text, separator)
   local parts = {}
   for part in string.gmatch(text, "([^" .. separator .. "]+)") do
      parts[#parts + 1] = part
   end
   return parts
end

local users = {}
for line in io.lines(users_file) do
   if line ~= "" then
      local fields = split(line, "\t")
      users[#users + 1] = { cookie = fields[1], csrf = fields[2], a = fields[3], b = fields[4],
                            list = split(fields[3] or "", ","), next = 1 }
   end
end
if #users == 0 then
   error("mixed.lua: no users in " .. users_file)
end

local hosts = split(os.getenv("MIXED_HOSTS") or "", ",")
local host_turn = 0

-- Defined only when asked for: wrk schedules every request through a timer once delay() exists.
local backoff_ms = tonumber(os.getenv("MIXED_BACKOFF_MS") or "")
local back_off = false
if backoff_ms then
   function delay()
      if back_off then
         back_off = false
         return backoff_ms
      end
      return 0
   end
end

local turn = 0
local key_counter = 0
math.randomseed(os.time())

-- The next tenant's host, when MIXED_HOSTS names them (else wrk's own Host header).
local with_host = function(headers)
   if #hosts > 0 then
      host_turn = host_turn % #hosts + 1
      headers["Host"] = hosts[host_turn]
   end
   return headers
end

local form_headers = function(user)
   return with_host({
      ["Cookie"] = "tagarela_session=" .. user.cookie,
      ["Content-Type"] = "application/x-www-form-urlencoded",
   })
end

local skinfolds = "&sf_chest_1=12&sf_midaxillary_1=10&sf_triceps_1=11&sf_subscapular_1=14"
   .. "&sf_abdominal_1=20&sf_suprailiac_1=13&sf_thigh_1=15"

-- wrk calls request() once per thread before the first connection writes and
-- throws that request away: answer it without using up a user's next meal.
local primed = false

request = function()
   if not primed then
      primed = true
      return wrk.format("GET", "/healthz")
   end
   turn = turn % #users + 1
   local user = users[turn]
   local cookie = with_host({ ["Cookie"] = "tagarela_session=" .. user.cookie })
   if kind == "board" then
      return wrk.format("GET", "/play/" .. user.a, cookie)
   elseif kind == "tap" then
      -- An idempotency key per tap, as the player makes (letters, digits, dashes).
      key_counter = key_counter + 1
      local symbols = split(user.b, ",")
      local body = "_csrf=" .. user.csrf .. "&key=bench-" .. string.format("%08x%08x", math.random(0, 0x7fffffff), key_counter)
         .. "&plan=" .. user.a .. "&symbol=" .. symbols[math.random(#symbols)]
      return wrk.format("POST", "/taps", form_headers(user), body)
   elseif kind == "usage" then
      return wrk.format("GET", "/patients/" .. user.a .. "/usage", cookie)
   elseif kind == "dashboard" or kind == "worklist" then
      return wrk.format("GET", "/clinician", cookie)
   elseif kind == "overview" then
      return wrk.format("GET", "/patients/" .. user.a, cookie)
   elseif kind == "checkin" then
      -- Each patient answers their pending meals in order; once none is left, the last one again
      -- (answered: a redirect to /meals, still a 303).
      local meal = user.list[user.next] or user.list[#user.list]
      user.next = user.next + 1
      local headers = form_headers(user)
      if #hosts > 0 then
         headers["Host"] = hosts[(turn - 1) % #hosts + 1]
      end
      return wrk.format("POST", "/meals/" .. meal .. "/answer", headers,
         "_csrf=" .. user.csrf .. "&followed=1&hunger=3&version=1")  -- the prescription as generated, never edited
   elseif kind == "evaluation" then
      return wrk.format("POST", "/clients/" .. user.a .. "/evaluations", form_headers(user),
         "_csrf=" .. user.csrf .. "&protocol=jp7&takenOn=&weight=72,5&height=1,74" .. skinfolds)
   end
   error("mixed.lua: unknown MIXED_KIND " .. kind)
end

-- What each kind must answer; anything else is listed in the RESULT line.
local expected = { board = 200, tap = 204, usage = 200, dashboard = 200, checkin = 303, evaluation = 303,
                   overview = 200, worklist = 200 }
local threads = {}

function setup(thread)
   table.insert(threads, thread)
end

function init(args)
   unexpected = {}   -- status -> count, read by done() through thread:get
   repeats = 0       -- check-ins of a meal already answered (none left for that patient)
end

function response(status, headers, body)
   if status >= 500 then
      back_off = true
   end
   if status ~= expected[kind] then
      unexpected[status] = (unexpected[status] or 0) + 1
   elseif kind == "checkin" then
      local cookie = headers["Set-Cookie"] or ""
      if cookie:find("meal_already_answered", 1, true) then
         repeats = repeats + 1
      end
   end
end

-- RESULT requests_per_sec=... p50_ms=... p99_ms=... errors=N unexpected=N statuses=S:N,... repeats=N
-- errors = socket errors (connect, read, write, timeout) + answers >= 400 (wrk's count), as in
-- report.lua; unexpected = answers other than the kind's expected status (a 4xx counts in both).
function done(summary, latency, requests)
   local e = summary.errors
   local counts, total, repeated = {}, 0, 0
   for _, thread in ipairs(threads) do
      for status, n in pairs(thread:get("unexpected") or {}) do
         counts[status] = (counts[status] or 0) + n
         total = total + n
      end
      repeated = repeated + (thread:get("repeats") or 0)
   end
   local list = {}
   for status, n in pairs(counts) do
      table.insert(list, string.format("%d:%d", status, n))
   end
   table.sort(list)
   local seconds = summary.duration / 1e6
   io.write(string.format(
      "RESULT requests_per_sec=%.1f p50_ms=%.2f p99_ms=%.2f errors=%d unexpected=%d statuses=%s repeats=%d\n",
      seconds > 0 and summary.requests / seconds or 0,
      latency:percentile(50) / 1000,
      latency:percentile(99) / 1000,
      e.connect + e.read + e.write + e.timeout + e.status,
      total, table.concat(list, ","), repeated))
end
