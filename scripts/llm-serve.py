#!/usr/bin/env python3
"""Serve a GGUF model over llama.cpp's OpenAI-compatible HTTP API with xllamacpp.

usage: llm-serve.py MODEL.gguf [--host 127.0.0.1] [--port 8080] [--ctx 4096] [--threads 1]
                               [--alias NAME]

Runs until killed. One thread by default: on a 2-core machine two threads make generation
collapse as soon as anything else runs (DEPENDENCIES.md gotcha 6).
"""
import argparse
import signal
import sys
import time

import xllamacpp as xlc

# Tokens per batch of prompt reading (see main).
BATCH = 128


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("model")
    ap.add_argument("--host", default="127.0.0.1")
    ap.add_argument("--port", type=int, default=8080)
    ap.add_argument("--ctx", type=int, default=4096)
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--alias", default="qwen2.5-coder-0.5b-instruct")
    a = ap.parse_args()

    p = xlc.CommonParams()
    p.model.path = a.model
    p.model_alias = {a.alias}  # a set of aliases in this binding
    p.hostnames = [a.host]
    p.port = a.port
    p.n_ctx = a.ctx
    p.n_parallel = 1
    p.cpuparams.n_threads = a.threads
    p.cpuparams_batch.n_threads = a.threads
    p.n_threads_http = 2
    # Small batches, so that a request its client gave up on frees the slot within seconds.
    # llama.cpp looks for a closed connection only between batches; with the default 2048 a
    # dropped 1,600-token prompt held the server 58 s on an idle machine (minutes under load),
    # and every later request waited. With 128: 6 s, for a prompt read 9 % slower (26.6
    # against 29.2 tokens/s, one thread, the 1.5B model).
    p.n_batch = BATCH
    p.n_ubatch = BATCH
    p.use_jinja = True
    p.endpoint_props = True

    server = xlc.Server(p)
    print(f"listening on {server.listening_address}", flush=True)
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))
    try:
        while True:
            time.sleep(3600)
    except KeyboardInterrupt:
        pass
    return 0


if __name__ == "__main__":
    sys.exit(main())
