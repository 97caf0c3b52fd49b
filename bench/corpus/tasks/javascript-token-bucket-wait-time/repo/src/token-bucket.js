'use strict';

/**
 * Token bucket rate limiter.
 *
 * The bucket holds at most `capacity` tokens and gains `refillPerSecond`
 * tokens per second. Each request takes `cost` tokens; it is allowed only
 * when that many tokens are available.
 */
class TokenBucket {
  constructor({ capacity, refillPerSecond, now = () => Date.now() }) {
    if (!(capacity > 0)) throw new RangeError('capacity must be > 0');
    if (!(refillPerSecond >= 0)) throw new RangeError('refillPerSecond must be >= 0');
    this.capacity = capacity;
    this.refillPerSecond = refillPerSecond;
    this.now = now;
    this.tokens = capacity;
    this.updatedAt = now();
  }

  refill() {
    const t = this.now();
    const elapsedSeconds = Math.max(0, t - this.updatedAt) / 1000;
    this.tokens = Math.min(this.capacity, this.tokens + elapsedSeconds * this.refillPerSecond);
    this.updatedAt = t;
  }

  tryRemove(cost = 1) {
    if (cost > this.capacity) return false;
    this.refill();
    if (this.tokens >= cost) {
      this.tokens -= cost;
      return true;
    }
    return false;
  }

  /** Milliseconds until `cost` tokens will be available (0 if they are now). */
  waitTime(cost = 1) {
    if (cost > this.capacity) return Infinity;
    this.refill();
    const missing = cost - this.tokens;
    if (missing <= 0) return 0;
    if (this.refillPerSecond === 0) return Infinity;
    return Math.ceil((missing / this.refillPerSecond) * 1000);
  }
}

/** One bucket per key, created on first use. */
class KeyedLimiter {
  constructor(options) {
    this.options = options;
    this.buckets = new Map();
  }

  tryRemove(key, cost = 1) {
    let bucket = this.buckets.get(key);
    if (!bucket) {
      bucket = new TokenBucket(this.options);
      this.buckets.set(key, bucket);
    }
    return bucket.tryRemove(cost);
  }
}

module.exports = { TokenBucket, KeyedLimiter };
