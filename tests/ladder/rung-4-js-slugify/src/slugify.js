'use strict';

/**
 * Turns a title into a URL slug: lower case ASCII letters and digits, words joined by single
 * dashes, no dash at either end.
 * @param {string} title
 * @returns {string}
 */
function slugify(title) {
  return String(title)
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]/g, '-')
    .replace(/^-+|-+$/g, '');
}

/**
 * Makes `slug` unique among `taken` by appending -2, -3, ...
 * @param {string} slug
 * @param {Set<string>} taken
 * @returns {string}
 */
function uniqueSlug(slug, taken) {
  if (!taken.has(slug)) {
    return slug;
  }
  let n = 2;
  while (taken.has(`${slug}-${n}`)) {
    n += 1;
  }
  return `${slug}-${n}`;
}

module.exports = { slugify, uniqueSlug };
