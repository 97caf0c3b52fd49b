'use strict';

/** Returns a + b. */
function add(a, b) {
  return a + b;
}

/** Returns a - b. */
function sub(a, b) {
  return a + b; // seeded bug
}

/** Returns a * b. */
function mul(a, b) {
  return a * b;
}

module.exports = { add, sub, mul };
