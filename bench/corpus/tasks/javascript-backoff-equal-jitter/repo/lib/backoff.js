// Delay schedule for retrying failed operations.

const DEFAULTS = {
  initialDelay: 100, // ms before the first retry
  factor: 2, // growth per attempt
  maxDelay: 30_000, // upper bound for one delay
  jitter: 'none', // 'none' | 'full' | 'equal'
};

/** Random number in [min, max] from a [0, 1) source. */
export function randomBetween(min, max, random = Math.random) {
  return min + (max - min) * random();
}

/**
 * Delay in milliseconds before retry number `attempt` (1-based).
 */
export function computeDelay(attempt, options = {}, random = Math.random) {
  if (!Number.isInteger(attempt) || attempt < 1) {
    throw new RangeError(`attempt must be a positive integer, got ${attempt}`);
  }
  const { initialDelay, factor, maxDelay, jitter } = { ...DEFAULTS, ...options };
  const base = Math.min(maxDelay, initialDelay * factor ** (attempt - 1));

  switch (jitter) {
    case 'none':
      return base;
    case 'full':
      return Math.round(randomBetween(0, base, random));
    case 'equal':
      return Math.round(base / 2 + randomBetween(0, base / 2, random));
    default:
      throw new TypeError(`unknown jitter mode: ${jitter}`);
  }
}

/** The whole schedule for `retries` retries. */
export function schedule(retries, options = {}, random = Math.random) {
  const delays = [];
  for (let attempt = 1; attempt <= retries; attempt++) {
    delays.push(computeDelay(attempt, options, random));
  }
  return delays;
}

/**
 * Run `fn` until it resolves or `retries` retries have failed. `sleep` is
 * injectable for tests. `shouldRetry(error)` may stop early.
 */
export async function retry(fn, {
  retries = 3,
  shouldRetry = () => true,
  sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
  ...options
} = {}) {
  for (let attempt = 0; ; attempt++) {
    try {
      return await fn(attempt);
    } catch (error) {
      if (attempt >= retries || !shouldRetry(error)) {
        throw error;
      }
      await sleep(computeDelay(attempt + 1, options));
    }
  }
}
