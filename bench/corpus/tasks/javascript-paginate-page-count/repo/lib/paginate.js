'use strict'

/**
 * Compute pagination metadata for a list of `total` items.
 *
 * @param {object} opts
 * @param {number} opts.total     number of items
 * @param {number} [opts.page]    requested page, 1-based (clamped into range)
 * @param {number} [opts.perPage] items per page
 * @param {number} [opts.window]  how many page links to show around the current page
 */
function paginate ({ total, page = 1, perPage = 20, window = 5 }) {
  if (!Number.isInteger(total) || total < 0) {
    throw new TypeError('total must be a non-negative integer')
  }
  if (!Number.isInteger(perPage) || perPage < 1) {
    throw new TypeError('perPage must be a positive integer')
  }

  const pageCount = Math.max(1, Math.ceil(total / perPage))
  const current = clamp(Number.parseInt(page, 10) || 1, 1, pageCount)
  const offset = (current - 1) * perPage

  return {
    total,
    perPage,
    pageCount,
    page: current,
    offset,
    limit: Math.min(perPage, total - offset),
    hasPrev: current > 1,
    hasNext: current < pageCount,
    pages: pageWindow(current, pageCount, window)
  }
}

/**
 * Page numbers to show as links: `size` consecutive pages, as centred on
 * `current` as the bounds allow.
 */
function pageWindow (current, pageCount, size) {
  const count = Math.min(size, pageCount)
  let start = current - Math.floor(count / 2)
  start = clamp(start, 1, pageCount - count + 1)

  const pages = []
  for (let i = 0; i < count; i++) {
    pages.push(start + i)
  }
  return pages
}

function clamp (n, min, max) {
  return Math.min(Math.max(n, min), max)
}

module.exports = { paginate, pageWindow }
