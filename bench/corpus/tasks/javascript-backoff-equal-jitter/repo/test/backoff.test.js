import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { computeDelay, schedule, randomBetween, retry } from '../lib/backoff.js';

describe('computeDelay', () => {
  it('grows exponentially from the initial delay', () => {
    assert.deepEqual(schedule(4), [100, 200, 400, 800]);
  });

  it('respects a custom factor and initial delay', () => {
    assert.deepEqual(schedule(3, { initialDelay: 50, factor: 3 }), [50, 150, 450]);
  });

  it('caps each delay at maxDelay', () => {
    assert.deepEqual(schedule(5, { maxDelay: 500 }), [100, 200, 400, 500, 500]);
  });

  it('full jitter picks between 0 and the base delay', () => {
    assert.equal(computeDelay(3, { jitter: 'full' }, () => 0), 0);
    assert.equal(computeDelay(3, { jitter: 'full' }, () => 0.5), 200);
    assert.equal(computeDelay(3, { jitter: 'full' }, () => 0.999999), 400);
  });

  it('equal jitter keeps at least half the base delay', () => {
    assert.equal(computeDelay(3, { jitter: 'equal' }, () => 0), 200);
    assert.equal(computeDelay(3, { jitter: 'equal' }, () => 0.5), 300);
  });

  it('rejects bad attempts and jitter modes', () => {
    assert.throws(() => computeDelay(0), RangeError);
    assert.throws(() => computeDelay(1.5), RangeError);
    assert.throws(() => computeDelay(1, { jitter: 'bogus' }), TypeError);
  });
});

describe('randomBetween', () => {
  it('maps the random source onto [min, max]', () => {
    assert.equal(randomBetween(10, 20, () => 0), 10);
    assert.equal(randomBetween(10, 20, () => 0.25), 12.5);
  });
});

describe('retry', () => {
  it('returns the first successful result and sleeps between attempts', async () => {
    const slept = [];
    let calls = 0;
    const result = await retry(async () => {
      calls++;
      if (calls < 3) throw new Error('flaky');
      return 'ok';
    }, { sleep: async (ms) => { slept.push(ms); } });
    assert.equal(result, 'ok');
    assert.equal(calls, 3);
    assert.deepEqual(slept, [100, 200]);
  });

  it('gives up after the given number of retries', async () => {
    let calls = 0;
    await assert.rejects(
      retry(async () => { calls++; throw new Error('down'); }, { retries: 2, sleep: async () => {} }),
      /down/,
    );
    assert.equal(calls, 3);
  });

  it('stops when shouldRetry says no', async () => {
    let calls = 0;
    await assert.rejects(
      retry(async () => { calls++; throw new Error('fatal'); }, {
        sleep: async () => {},
        shouldRetry: (e) => e.message !== 'fatal',
      }),
      /fatal/,
    );
    assert.equal(calls, 1);
  });
});
