-- wrk script for bench/pages: report.lua's RESULT line, plus how many answers were not 2xx
-- (a redirect to /login would otherwise look like a fast page), and the Cookie header of
-- BENCH_COOKIE when it is set (as cookie.lua; /healthz runs with the same script and no cookie,
-- so both pay the same wrk-side cost).
--   RESULT requests_per_sec=... p50_ms=... p99_ms=... errors=N non2xx=N

local cookie = os.getenv("BENCH_COOKIE")
if cookie ~= nil and cookie ~= "" then
   wrk.headers["Cookie"] = cookie
end

-- report.lua sits beside this file.
local here = debug.getinfo(1, "S").source:match("^@(.*/)") or "./"
dofile(here .. "report.lua")
local report_done = done

local threads = {}

function setup(thread)
   table.insert(threads, thread)
end

function init(args)
   non2xx = 0   -- read by done() through thread:get
end

function response(status, headers, body)
   if status < 200 or status > 299 then
      non2xx = non2xx + 1
   end
end

function done(summary, latency, requests)
   local total = 0
   for _, thread in ipairs(threads) do
      total = total + (thread:get("non2xx") or 0)
   end
   -- report.lua writes "RESULT ...\n"; append to the same line.
   local write = io.write
   io.write = function(text) write((text:gsub("\n$", string.format(" non2xx=%d\n", total)))) end
   report_done(summary, latency, requests)
   io.write = write
end
