-- wrk script for scripts/bench/gateway-wrk.sh: the same mix as the in-process bench
-- (crates/server/examples/gateway_load.rs): 50 % POST /observation, 25 % the planner's prompt
-- window (agent-log 24h/20) and 25 % the G9 filter window (agent-log 7d/200), over 20 repos.
local counter = 0
local thread_id = 0
local threads = {}

function setup(thread)
  thread:set("thread_id", #threads)
  table.insert(threads, thread)
end

function request()
  counter = counter + 1
  local n = counter * 7 + thread_id
  local repo = "repo-" .. (n % 20)
  local kind = (counter * 7919) % 100
  if kind < 50 then
    local body = string.format(
      '{"repo":"%s","run_id":"wrk-%d","agent":"worker","subtask_id":"T%03d-S1",' ..
      '"model":"qwen2.5-coder-1.5b","outcome":"fail","touched_files":["src/mod%d/file%d.py"],' ..
      '"failure_modes":["syntax_invalid"],"confidence":0.5}',
      repo, thread_id, n % 1000, n % 30, n % 50)
    return wrk.format("POST", "/observation", {["Content-Type"] = "application/json"}, body)
  elseif kind % 2 == 0 then
    return wrk.format("GET", "/repo/agent-log?repo=" .. repo .. "&since=24h&limit=20")
  else
    return wrk.format("GET", "/repo/agent-log?repo=" .. repo .. "&since=7d&limit=200")
  end
end

function done(summary, latency, requests)
  local errors = summary.errors.connect + summary.errors.read + summary.errors.write
    + summary.errors.status + summary.errors.timeout
  io.write(string.format(
    "mixed: %d req in %.1f s = %.0f req/s; p50 %.2f ms, p90 %.2f ms, p99 %.2f ms, max %.2f ms; errors %d (non-2xx %d)\n",
    summary.requests, summary.duration / 1e6, summary.requests / (summary.duration / 1e6),
    latency:percentile(50) / 1000, latency:percentile(90) / 1000,
    latency:percentile(99) / 1000, latency.max / 1000, errors, summary.errors.status))
end
