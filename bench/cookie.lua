-- wrk script for bench/login-storm: sends the Cookie header given in the
-- environment variable BENCH_COOKIE (e.g. "tagarela_session=..."), so that wrk
-- requests a page as a signed-in user, and reports like report.lua (its done()
-- prints the RESULT line).

local cookie = os.getenv("BENCH_COOKIE")
if cookie == nil or cookie == "" then
   error("cookie.lua: set BENCH_COOKIE to the Cookie header value")
end
wrk.headers["Cookie"] = cookie

-- report.lua sits beside this file.
local here = debug.getinfo(1, "S").source:match("^@(.*/)") or "./"
dofile(here .. "report.lua")
