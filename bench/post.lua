-- wrk -t1 -c100 -d<N>s -s bench/post.lua URL -- BODIES_FILE ROOT_KEY
-- ROOT_KEY "-" reads it from KEYGATE_BENCH_ROOT_KEY instead: wrk's arguments are visible in ps.
-- POSTs the JSON bodies of BODIES_FILE (one per line) in turn, with the root key. Requests are built
-- once when there are at most 200k bodies (so wrk spends nothing per request); above that each is
-- formatted on the fly to keep wrk's memory small (the 1M-key memory run).
local bodies, reqs, n, i, prebuilt = {}, {}, 0, 0, true
init = function(args)
  wrk.method = "POST"
  wrk.headers["Content-Type"] = "application/json"
  local rootKey = args[2]
  if rootKey == "-" then rootKey = os.getenv("KEYGATE_BENCH_ROOT_KEY") end
  wrk.headers["Authorization"] = "Bearer " .. rootKey
  for line in io.lines(args[1]) do n = n + 1; bodies[n] = line end
  prebuilt = n <= 200000
  if prebuilt then
    for k = 1, n do reqs[k] = wrk.format(nil, nil, nil, bodies[k]) end
  end
end
request = function()
  i = i % n + 1
  if prebuilt then return reqs[i] end
  return wrk.format(nil, nil, nil, bodies[i])
end
done = function(summary, latency, requests)
  io.write(string.format("JSON {\"requests\":%d,\"duration_us\":%d,\"p50_us\":%d,\"p99_us\":%d,\"p999_us\":%d,\"errors\":%d,\"non2xx\":%d}\n",
    summary.requests, summary.duration, latency:percentile(50), latency:percentile(99), latency:percentile(99.9),
    summary.errors.connect + summary.errors.read + summary.errors.write + summary.errors.timeout, summary.errors.status))
end
