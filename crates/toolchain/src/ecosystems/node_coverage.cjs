'use strict';
// slopguard: records which lines of the project each test runs (V8 precise coverage, taken
// and reset around each `test`/`it` callback) and whether it passed; one JSON file per
// process in SLOPGUARD_COVERAGE_DIR.
const outDir = process.env.SLOPGUARD_COVERAGE_DIR;
const root = process.env.SLOPGUARD_COVERAGE_ROOT;
let session = null;
if (outDir && root) {
  try {
    session = new (require('node:inspector').Session)();
    session.connect();
  } catch {
    session = null; // no inspector in this process (a worker, a build without one)
  }
}
if (session) {
  const fs = require('node:fs');
  const path = require('node:path');
  const url = require('node:url');
  const post = (method, params) =>
    new Promise((resolve, reject) =>
      session.post(method, params || {}, (err, res) => (err ? reject(err) : resolve(res))));
  // Posted now, not awaited: a same-thread session runs them at once, before the test file
  // loads, so what its loading runs is counted too.
  session.post('Profiler.enable');
  session.post('Profiler.startPreciseCoverage', { callCount: true, detailed: true });
  const prefix = url.pathToFileURL(root).href.replace(/\/?$/, '/');
  const lineStarts = new Map();
  const starts = (file) => {
    let s = lineStarts.get(file);
    if (!s) {
      s = [];
      const text = fs.readFileSync(file, 'utf8');
      let offset = 0;
      for (const line of text.split('\n')) {
        const lead = line.length - line.trimStart().length;
        s.push(line.trim() ? offset + lead : -1);
        offset += line.length + 1;
      }
      lineStarts.set(file, s);
    }
    return s;
  };
  const linesOf = (result) => {
    const out = {};
    for (const script of result) {
      if (!script.url.startsWith(prefix)) continue;
      const rel = decodeURIComponent(script.url.slice(prefix.length));
      if (rel.split('/').slice(0, -1).some((d) => d.startsWith('.') || d === 'node_modules')) continue;
      const ranges = [];
      for (const f of script.functions) for (const r of f.ranges) ranges.push(r);
      let s;
      try { s = starts(url.fileURLToPath(script.url)); } catch { continue; }
      const lines = [];
      s.forEach((offset, i) => {
        if (offset < 0) return;
        let best = null;
        for (const r of ranges) {
          if (r.startOffset <= offset && offset < r.endOffset &&
              (!best || r.endOffset - r.startOffset < best.endOffset - best.startOffset)) best = r;
        }
        if (best && best.count > 0) lines.push(i + 1);
      });
      if (lines.length) out[rel] = lines;
    }
    return out;
  };
  const take = async () => {
    const { result } = await post('Profiler.takePreciseCoverage');
    return linesOf(result);
  };
  const testFile = process.argv[1] ? path.relative(root, process.argv[1]) : '';
  const records = [];
  let loaded = null;
  const wrap = (orig) => {
    const wrapped = function (...args) {
      const i = args.findIndex((a) => typeof a === 'function');
      // A callback-style test (`(t, done)`) is left as it is: its arity decides how it runs.
      if (i >= 0 && args[i].length < 2) {
        const fn = args[i];
        const name = typeof args[0] === 'string' ? args[0] : fn.name || '<anonymous>';
        args[i] = async function (...a) {
          const before = await take();
          if (loaded === null) loaded = before;
          let passed = false;
          try {
            const r = await fn.apply(this, a);
            passed = true;
            return r;
          } finally {
            records.push({ id: `${testFile}::${name}`, passed, lines: await take() });
          }
        };
      }
      return orig.apply(this, args);
    };
    Object.assign(wrapped, orig);
    return wrapped;
  };
  const testModule = require('node:test');
  for (const key of ['test', 'it']) {
    if (typeof testModule[key] === 'function') testModule[key] = wrap(testModule[key]);
  }
  require('node:module').syncBuiltinESMExports();
  process.on('exit', () => {
    if (!records.length) return;
    const base = loaded || {};
    const all = records.map((t) => {
      const lines = { ...t.lines };
      for (const [p, l] of Object.entries(base)) {
        lines[p] = [...new Set([...(lines[p] || []), ...l])].sort((a, b) => a - b);
      }
      return { id: t.id, passed: t.passed, lines };
    });
    fs.writeFileSync(path.join(outDir, `coverage-${process.pid}.json`), JSON.stringify(all));
  });
}
