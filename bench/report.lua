-- wrk report hook for bench/run.
--
-- Prints one machine-readable line after the run, e.g.
--   RESULT requests_per_sec=12345.6 p50_ms=0.41 p99_ms=2.10 errors=0
-- errors = connect + read + write + timeout socket errors
--        + responses whose status is not 2xx/3xx (wrk counts status >= 400).
-- wrk reports durations and latencies in microseconds.

function done(summary, latency, requests)
   local e = summary.errors
   local errors = e.connect + e.read + e.write + e.timeout + e.status
   local seconds = summary.duration / 1e6
   local rps = 0
   if seconds > 0 then
      rps = summary.requests / seconds
   end
   io.write(string.format(
      "RESULT requests_per_sec=%.1f p50_ms=%.2f p99_ms=%.2f errors=%d\n",
      rps,
      latency:percentile(50) / 1000,
      latency:percentile(99) / 1000,
      errors))
end
