'use strict';

/** The price of one line: unit price times quantity. */
function linePrice(line) {
  return line.price * line.quantity;
}

/** The total price of a cart's lines. */
function totalPrice(lines) {
  return lines.reduce((sum, line) => sum + line.price, 0);
}

/** The number of items in the cart (the sum of the quantities). */
function itemCount(lines) {
  return lines.reduce((n, line) => n + line.quantity, 0);
}

module.exports = { linePrice, totalPrice, itemCount };
