'use strict'

// Tiny `{placeholder}` templates.
//
//   render('Hi {user.name}!', { user: { name: 'Ann' } })  // 'Hi Ann!'
//
// `{{` and `}}` stand for literal braces. A placeholder may carry a filter:
// `{name|upper}`. Placeholders whose value is missing are left as they are
// (`missing: 'keep'`), replaced by '' (`'empty'`), or make render throw
// (`'throw'`).

const PLACEHOLDER = /\{\{|\}\}|\{\s*([\w.$-]+)\s*(?:\|\s*(\w+)\s*)?\}/g

const FILTERS = {
  upper: (v) => String(v).toUpperCase(),
  lower: (v) => String(v).toLowerCase(),
  trim: (v) => String(v).trim(),
  json: (v) => JSON.stringify(v)
}

function lookup (vars, path) {
  let value = vars
  for (const part of path.split('.')) {
    if (value == null || !Object.prototype.hasOwnProperty.call(Object(value), part)) {
      return undefined
    }
    value = value[part]
  }
  return value
}

function render (template, vars = {}, { missing = 'keep', filters = {} } = {}) {
  if (typeof template !== 'string') {
    throw new TypeError('template must be a string')
  }
  const allFilters = { ...FILTERS, ...filters }

  return template.replace(PLACEHOLDER, (match, path, filter) => {
    if (match === '{{') return '{'
    if (match === '}}') return '}'

    let value = lookup(vars, path)
    if (value === undefined || value === null) {
      if (missing === 'throw') throw new Error(`missing value for {${path}}`)
      if (missing === 'empty') return ''
      return match
    }
    if (filter) {
      const fn = allFilters[filter]
      if (!fn) throw new Error(`unknown filter: ${filter}`)
      value = fn(value)
    }
    return String(value)
  })
}

/** The placeholder paths used by a template, in order, without duplicates. */
function placeholders (template) {
  const seen = new Set()
  for (const m of template.matchAll(PLACEHOLDER)) {
    if (m[1]) seen.add(m[1])
  }
  return [...seen]
}

module.exports = { render, placeholders, lookup }
