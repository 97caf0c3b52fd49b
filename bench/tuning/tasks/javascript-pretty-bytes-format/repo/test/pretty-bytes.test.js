// Adapted from ava to node:test: t.is -> assert.strictEqual, t.throws -> assert.throws
// (ava's {instanceOf: TypeError} expectation -> {name: 'TypeError'}).
import test from 'node:test';
import assert from 'node:assert';
import prettyBytes from '../index.js';

test('throws on invalid input', () => {
	assert.throws(() => {
		prettyBytes('');
	});

	assert.throws(() => {
		prettyBytes('1');
	});

	assert.throws(() => {
		prettyBytes(Number.NaN);
	});

	assert.throws(() => {
		prettyBytes(true);
	});

	assert.throws(() => {
		prettyBytes(Number.POSITIVE_INFINITY);
	});

	assert.throws(() => {
		prettyBytes(Number.NEGATIVE_INFINITY);
	});

	assert.throws(() => {
		prettyBytes(null);
	});

	// Invalid fixedWidth
	assert.throws(() => {
		prettyBytes(1337, {fixedWidth: -1});
	});

	assert.throws(() => {
		prettyBytes(1337, {fixedWidth: 1.5});
	});
});

test('converts bytes to human readable strings', () => {
	assert.strictEqual(prettyBytes(0), '0 B');
	assert.strictEqual(prettyBytes(0n), '0 B');
	assert.strictEqual(prettyBytes(0.4), '0.4 B');
	assert.strictEqual(prettyBytes(0.7), '0.7 B');
	assert.strictEqual(prettyBytes(10), '10 B');
	assert.strictEqual(prettyBytes(10n), '10 B');
	assert.strictEqual(prettyBytes(10.1), '10.1 B');
	assert.strictEqual(prettyBytes(999), '999 B');
	assert.strictEqual(prettyBytes(999n), '999 B');
	assert.strictEqual(prettyBytes(1001), '1 kB');
	assert.strictEqual(prettyBytes(1001n), '1 kB');
	assert.strictEqual(prettyBytes(1e16), '10 PB');
	assert.strictEqual(prettyBytes(10n ** 16n), '10 PB');
	assert.strictEqual(prettyBytes(1e30), '1000000 YB');
	assert.strictEqual(prettyBytes(10n ** 30n), '1000000 YB');
	assert.strictEqual(prettyBytes(827_181 * 1e26), '82718100 YB');
});

test('supports negative number', () => {
	assert.strictEqual(prettyBytes(-0.4), '-0.4 B');
	assert.strictEqual(prettyBytes(-0.7), '-0.7 B');
	assert.strictEqual(prettyBytes(-10.1), '-10.1 B');
	assert.strictEqual(prettyBytes(-999), '-999 B');
	assert.strictEqual(prettyBytes(-999n), '-999 B');
	assert.strictEqual(prettyBytes(-1001), '-1 kB');
	assert.strictEqual(prettyBytes(-1001n), '-1 kB');
});

test('locale option', () => {
	assert.strictEqual(prettyBytes(-0.4, {locale: 'de'}), '-0,4 B');
	assert.strictEqual(prettyBytes(0.4, {locale: 'de'}), '0,4 B');
	assert.strictEqual(prettyBytes(1001, {locale: 'de'}), '1 kB');
	assert.strictEqual(prettyBytes(1001n, {locale: 'de'}), '1 kB');
	assert.strictEqual(prettyBytes(10.1, {locale: 'de'}), '10,1 B');
	assert.strictEqual(prettyBytes(1e30, {locale: 'de'}), '1.000.000 YB');
	assert.strictEqual(prettyBytes(10n ** 30n, {locale: 'de'}), '1.000.000 YB');
	assert.strictEqual(prettyBytes(827_181 * 1e26, {locale: 'de'}), '82.718.100 YB');

	assert.strictEqual(prettyBytes(-0.4, {locale: 'en'}), '-0.4 B');
	assert.strictEqual(prettyBytes(0.4, {locale: 'en'}), '0.4 B');
	assert.strictEqual(prettyBytes(1001, {locale: 'en'}), '1 kB');
	assert.strictEqual(prettyBytes(1001n, {locale: 'en'}), '1 kB');
	assert.strictEqual(prettyBytes(10.1, {locale: 'en'}), '10.1 B');
	assert.strictEqual(prettyBytes(1e30, {locale: 'en'}), '1,000,000 YB');
	assert.strictEqual(prettyBytes(10n ** 30n, {locale: 'en'}), '1,000,000 YB');
	assert.strictEqual(prettyBytes(827_181 * 1e26, {locale: 'en'}), '82,718,100 YB');

	assert.strictEqual(prettyBytes(-0.4, {locale: ['unknown', 'de', 'en']}), '-0,4 B');
	assert.strictEqual(prettyBytes(0.4, {locale: ['unknown', 'de', 'en']}), '0,4 B');
	assert.strictEqual(prettyBytes(1001, {locale: ['unknown', 'de', 'en']}), '1 kB');
	assert.strictEqual(prettyBytes(1001n, {locale: ['unknown', 'de', 'en']}), '1 kB');
	assert.strictEqual(prettyBytes(10.1, {locale: ['unknown', 'de', 'en']}), '10,1 B');
	assert.strictEqual(prettyBytes(1e30, {locale: ['unknown', 'de', 'en']}), '1.000.000 YB');
	assert.strictEqual(prettyBytes(10n ** 30n, {locale: ['unknown', 'de', 'en']}), '1.000.000 YB');
	assert.strictEqual(prettyBytes(827_181 * 1e26, {locale: ['unknown', 'de', 'en']}), '82.718.100 YB');

	assert.strictEqual(prettyBytes(-0.4, {locale: true}), '-0.4 B');
	assert.strictEqual(prettyBytes(0.4, {locale: true}), '0.4 B');
	assert.strictEqual(prettyBytes(1001, {locale: true}), '1 kB');
	assert.strictEqual(prettyBytes(1001n, {locale: true}), '1 kB');
	assert.strictEqual(prettyBytes(10.1, {locale: true}), '10.1 B');
	assert.strictEqual(prettyBytes(1e30, {locale: true}), '1,000,000 YB');
	assert.strictEqual(prettyBytes(10n ** 30n, {locale: true}), '1,000,000 YB');
	assert.strictEqual(prettyBytes(827_181 * 1e26, {locale: true}), '82,718,100 YB');

	assert.strictEqual(prettyBytes(-0.4, {locale: false}), '-0.4 B');
	assert.strictEqual(prettyBytes(0.4, {locale: false}), '0.4 B');
	assert.strictEqual(prettyBytes(1001, {locale: false}), '1 kB');
	assert.strictEqual(prettyBytes(1001n, {locale: false}), '1 kB');
	assert.strictEqual(prettyBytes(10.1, {locale: false}), '10.1 B');
	assert.strictEqual(prettyBytes(1e30, {locale: false}), '1000000 YB');
	assert.strictEqual(prettyBytes(10n ** 30n, {locale: false}), '1000000 YB');
	assert.strictEqual(prettyBytes(827_181 * 1e26, {locale: false}), '82718100 YB');

	assert.strictEqual(prettyBytes(-0.4, {locale: undefined}), '-0.4 B');
	assert.strictEqual(prettyBytes(0.4, {locale: undefined}), '0.4 B');
	assert.strictEqual(prettyBytes(1001, {locale: undefined}), '1 kB');
	assert.strictEqual(prettyBytes(1001n, {locale: undefined}), '1 kB');
	assert.strictEqual(prettyBytes(10.1, {locale: undefined}), '10.1 B');
	assert.strictEqual(prettyBytes(1e30, {locale: undefined}), '1000000 YB');
	assert.strictEqual(prettyBytes(10n ** 30n, {locale: undefined}), '1000000 YB');
	assert.strictEqual(prettyBytes(827_181 * 1e26, {locale: undefined}), '82718100 YB');
});

test('signed option', () => {
	assert.strictEqual(prettyBytes(42, {signed: true}), '+42 B');
	assert.strictEqual(prettyBytes(42n, {signed: true}), '+42 B');
	assert.strictEqual(prettyBytes(-13, {signed: true}), '-13 B');
	assert.strictEqual(prettyBytes(-13n, {signed: true}), '-13 B');
	assert.strictEqual(prettyBytes(0, {signed: true}), ' 0 B');
	assert.strictEqual(prettyBytes(0n, {signed: true}), ' 0 B');
});

test('bits option', () => {
	assert.strictEqual(prettyBytes(0, {bits: true}), '0 b');
	assert.strictEqual(prettyBytes(0n, {bits: true}), '0 b');
	assert.strictEqual(prettyBytes(0.4, {bits: true}), '0.4 b');
	assert.strictEqual(prettyBytes(0.7, {bits: true}), '0.7 b');
	assert.strictEqual(prettyBytes(10, {bits: true}), '10 b');
	assert.strictEqual(prettyBytes(10n, {bits: true}), '10 b');
	assert.strictEqual(prettyBytes(10.1, {bits: true}), '10.1 b');
	assert.strictEqual(prettyBytes(999, {bits: true}), '999 b');
	assert.strictEqual(prettyBytes(999n, {bits: true}), '999 b');
	assert.strictEqual(prettyBytes(1001, {bits: true}), '1 kbit');
	assert.strictEqual(prettyBytes(1001n, {bits: true}), '1 kbit');
	assert.strictEqual(prettyBytes(1e16, {bits: true}), '10 Pbit');
	assert.strictEqual(prettyBytes(10n ** 16n, {bits: true}), '10 Pbit');
	assert.strictEqual(prettyBytes(1e30, {bits: true}), '1000000 Ybit');
	assert.strictEqual(prettyBytes(10n ** 30n, {bits: true}), '1000000 Ybit');
	assert.strictEqual(prettyBytes(827_181 * 1e26, {bits: true}), '82718100 Ybit');
});

test('binary option', () => {
	assert.strictEqual(prettyBytes(0, {binary: true}), '0 B');
	assert.strictEqual(prettyBytes(0n, {binary: true}), '0 B');
	assert.strictEqual(prettyBytes(4, {binary: true}), '4 B');
	assert.strictEqual(prettyBytes(4n, {binary: true}), '4 B');
	assert.strictEqual(prettyBytes(10, {binary: true}), '10 B');
	assert.strictEqual(prettyBytes(10n, {binary: true}), '10 B');
	assert.strictEqual(prettyBytes(10.1, {binary: true}), '10.1 B');
	assert.strictEqual(prettyBytes(999, {binary: true}), '999 B');
	assert.strictEqual(prettyBytes(999n, {binary: true}), '999 B');
	assert.strictEqual(prettyBytes(1025, {binary: true}), '1 KiB');
	assert.strictEqual(prettyBytes(1025n, {binary: true}), '1 KiB');
	assert.strictEqual(prettyBytes(1001, {binary: true}), '1001 B');
	assert.strictEqual(prettyBytes(1001n, {binary: true}), '1001 B');
	assert.strictEqual(prettyBytes(1e16, {binary: true}), '8.88 PiB');
	assert.strictEqual(prettyBytes(10n ** 16n, {binary: true}), '8.88 PiB');
	assert.strictEqual(prettyBytes(1e30, {binary: true}), '827181 YiB');
	assert.strictEqual(prettyBytes(10n ** 30n, {binary: true}), '827181 YiB');
});

test('bits and binary option', () => {
	assert.strictEqual(prettyBytes(0, {bits: true, binary: true}), '0 b');
	assert.strictEqual(prettyBytes(0n, {bits: true, binary: true}), '0 b');
	assert.strictEqual(prettyBytes(4, {bits: true, binary: true}), '4 b');
	assert.strictEqual(prettyBytes(4n, {bits: true, binary: true}), '4 b');
	assert.strictEqual(prettyBytes(10, {bits: true, binary: true}), '10 b');
	assert.strictEqual(prettyBytes(10n, {bits: true, binary: true}), '10 b');
	assert.strictEqual(prettyBytes(999, {bits: true, binary: true}), '999 b');
	assert.strictEqual(prettyBytes(999n, {bits: true, binary: true}), '999 b');
	assert.strictEqual(prettyBytes(1025, {bits: true, binary: true}), '1 kibit');
	assert.strictEqual(prettyBytes(1025n, {bits: true, binary: true}), '1 kibit');
	assert.strictEqual(prettyBytes(1e6, {bits: true, binary: true}), '977 kibit');
	assert.strictEqual(prettyBytes(10n ** 6n, {bits: true, binary: true}), '977 kibit');
	assert.strictEqual(prettyBytes(1e30, {bits: true, binary: true}), '827181 Yibit');
	assert.strictEqual(prettyBytes(10n ** 30n, {bits: true, binary: true}), '827181 Yibit');
});

test('fractional digits options', () => {
	assert.strictEqual(prettyBytes(1900, {maximumFractionDigits: 1}), '1.9 kB');
	assert.strictEqual(prettyBytes(1900n, {maximumFractionDigits: 1}), '1.9 kB');
	assert.strictEqual(prettyBytes(1900, {minimumFractionDigits: 3}), '1.900 kB');
	assert.strictEqual(prettyBytes(1900n, {minimumFractionDigits: 3}), '1.900 kB');
	assert.strictEqual(prettyBytes(1911, {maximumFractionDigits: 1}), '1.9 kB');
	assert.strictEqual(prettyBytes(1911n, {maximumFractionDigits: 1}), '1.9 kB');
	assert.strictEqual(prettyBytes(1111, {maximumFractionDigits: 2}), '1.11 kB');
	assert.strictEqual(prettyBytes(1111n, {maximumFractionDigits: 2}), '1.11 kB');
	assert.strictEqual(prettyBytes(1019, {maximumFractionDigits: 3}), '1.019 kB');
	assert.strictEqual(prettyBytes(1019n, {maximumFractionDigits: 3}), '1.019 kB');
	assert.strictEqual(prettyBytes(1001, {maximumFractionDigits: 3}), '1.001 kB');
	assert.strictEqual(prettyBytes(1001n, {maximumFractionDigits: 3}), '1.001 kB');
	assert.strictEqual(prettyBytes(1000, {minimumFractionDigits: 1, maximumFractionDigits: 3}), '1.0 kB');
	assert.strictEqual(prettyBytes(1000n, {minimumFractionDigits: 1, maximumFractionDigits: 3}), '1.0 kB');
	assert.strictEqual(prettyBytes(3942, {minimumFractionDigits: 1, maximumFractionDigits: 2}), '3.94 kB');
	assert.strictEqual(prettyBytes(3942n, {minimumFractionDigits: 1, maximumFractionDigits: 2}), '3.94 kB');
	assert.strictEqual(prettyBytes(59_952_784, {maximumFractionDigits: 1}), '59.9 MB');
	assert.strictEqual(prettyBytes(59_952_784n, {maximumFractionDigits: 1}), '59.9 MB');
	assert.strictEqual(prettyBytes(59_952_784, {minimumFractionDigits: 1, maximumFractionDigits: 1}), '59.9 MB');
	assert.strictEqual(prettyBytes(59_952_784n, {minimumFractionDigits: 1, maximumFractionDigits: 1}), '59.9 MB');
	assert.strictEqual(prettyBytes(4001, {maximumFractionDigits: 3, binary: true}), '3.907 KiB');
	assert.strictEqual(prettyBytes(4001n, {maximumFractionDigits: 3, binary: true}), '3.907 KiB');
	assert.strictEqual(prettyBytes(18_717, {maximumFractionDigits: 2, binary: true}), '18.27 KiB');
	assert.strictEqual(prettyBytes(18_717n, {maximumFractionDigits: 2, binary: true}), '18.27 KiB');
	assert.strictEqual(prettyBytes(18_717, {maximumFractionDigits: 4, binary: true}), '18.2783 KiB');
	assert.strictEqual(prettyBytes(18_717n, {maximumFractionDigits: 4, binary: true}), '18.2783 KiB');
	assert.strictEqual(prettyBytes(32_768, {minimumFractionDigits: 2, maximumFractionDigits: 3, binary: true}), '32.00 KiB');
	assert.strictEqual(prettyBytes(32_768n, {minimumFractionDigits: 2, maximumFractionDigits: 3, binary: true}), '32.00 KiB');
	assert.strictEqual(prettyBytes(65_536, {minimumFractionDigits: 1, maximumFractionDigits: 3, binary: true}), '64.0 KiB');
	assert.strictEqual(prettyBytes(65_536n, {minimumFractionDigits: 1, maximumFractionDigits: 3, binary: true}), '64.0 KiB');
});

test('space option', () => {
	assert.strictEqual(prettyBytes(0), '0 B');
	assert.strictEqual(prettyBytes(0n), '0 B');
	assert.strictEqual(prettyBytes(0, {space: false}), '0B');
	assert.strictEqual(prettyBytes(0n, {space: false}), '0B');
	assert.strictEqual(prettyBytes(999), '999 B');
	assert.strictEqual(prettyBytes(999n), '999 B');
	assert.strictEqual(prettyBytes(999, {space: false}), '999B');
	assert.strictEqual(prettyBytes(999n, {space: false}), '999B');
	assert.strictEqual(prettyBytes(-13, {signed: true}), '-13 B');
	assert.strictEqual(prettyBytes(-13n, {signed: true}), '-13 B');
	assert.strictEqual(prettyBytes(-13, {signed: true, space: false}), '-13B');
	assert.strictEqual(prettyBytes(-13n, {signed: true, space: false}), '-13B');
	assert.strictEqual(prettyBytes(42, {signed: true}), '+42 B');
	assert.strictEqual(prettyBytes(42n, {signed: true}), '+42 B');
	assert.strictEqual(prettyBytes(42, {signed: true, space: false}), '+42B');
	assert.strictEqual(prettyBytes(42n, {signed: true, space: false}), '+42B');
});

test('nonBreakingSpace option', () => {
	// Basic non-breaking space functionality
	assert.strictEqual(prettyBytes(1337, {nonBreakingSpace: true}), '1.34\u00A0kB');
	assert.strictEqual(prettyBytes(1337n, {nonBreakingSpace: true}), '1.34\u00A0kB');

	// When space: false, nonBreakingSpace should be ignored
	assert.strictEqual(prettyBytes(1337, {space: false, nonBreakingSpace: true}), '1.34kB');
	assert.strictEqual(prettyBytes(1337n, {space: false, nonBreakingSpace: true}), '1.34kB');

	// Test with signed option (special case with leading space for zero)
	assert.strictEqual(prettyBytes(0, {signed: true, nonBreakingSpace: true}), ' 0\u00A0B');
	assert.strictEqual(prettyBytes(0n, {signed: true, nonBreakingSpace: true}), ' 0\u00A0B');
});

test('fixedWidth option', () => {
	// Basic fixed width functionality
	assert.strictEqual(prettyBytes(1, {fixedWidth: 7}), '    1 B');
	assert.strictEqual(prettyBytes(100, {fixedWidth: 7}), '  100 B');
	assert.strictEqual(prettyBytes(1000, {fixedWidth: 7}), '   1 kB');
	assert.strictEqual(prettyBytes(100_000, {fixedWidth: 7}), ' 100 kB');
	assert.strictEqual(prettyBytes(1_000_000, {fixedWidth: 7}), '   1 MB');

	// With bigint (representative cases only)
	assert.strictEqual(prettyBytes(1n, {fixedWidth: 7}), '    1 B');
	assert.strictEqual(prettyBytes(1_000_000n, {fixedWidth: 7}), '   1 MB');

	// Different width
	assert.strictEqual(prettyBytes(1337, {fixedWidth: 10}), '   1.34 kB');

	// With binary option
	assert.strictEqual(prettyBytes(1024, {fixedWidth: 8, binary: true}), '   1 KiB');
	assert.strictEqual(prettyBytes(10_240, {fixedWidth: 8, binary: true}), '  10 KiB');

	// With signed option
	assert.strictEqual(prettyBytes(42, {fixedWidth: 8, signed: true}), '   +42 B');
	assert.strictEqual(prettyBytes(-13, {fixedWidth: 8, signed: true}), '   -13 B');
	assert.strictEqual(prettyBytes(0, {fixedWidth: 8, signed: true}), '     0 B');

	// When output is wider than fixedWidth, no padding is applied
	assert.strictEqual(prettyBytes(1_000_000_000_000, {fixedWidth: 3}), '1 TB');

	// With locale
	assert.strictEqual(prettyBytes(1337, {fixedWidth: 8, locale: 'de'}), ' 1,34 kB');

	// With bits option
	assert.strictEqual(prettyBytes(1337, {fixedWidth: 10, bits: true}), ' 1.34 kbit');

	// FixedWidth: undefined (default) should not add padding
	assert.strictEqual(prettyBytes(1337, {fixedWidth: undefined}), '1.34 kB');
	assert.strictEqual(prettyBytes(1337, {}), '1.34 kB'); // Default behavior

	// With no space
	assert.strictEqual(prettyBytes(1337, {fixedWidth: 7, space: false}), ' 1.34kB');

	// Edge cases
	assert.strictEqual(prettyBytes(1337, {fixedWidth: 0}), '1.34 kB'); // No padding for 0 width

	// Invalid fixedWidth values should throw
	assert.throws(() => prettyBytes(1337, {fixedWidth: -5}), {
		name: 'TypeError',
		message: 'Expected fixedWidth to be a non-negative integer, got number: -5',
	});
	assert.throws(() => prettyBytes(1337, {fixedWidth: Number.POSITIVE_INFINITY}), {
		name: 'TypeError',
		message: 'Expected fixedWidth to be a non-negative integer, got number: Infinity',
	});
	assert.throws(() => prettyBytes(1337, {fixedWidth: Number.NaN}), {
		name: 'TypeError',
		message: 'Expected fixedWidth to be a non-negative integer, got number: NaN',
	});
	assert.throws(() => prettyBytes(1337, {fixedWidth: 3.5}), {
		name: 'TypeError',
		message: 'Expected fixedWidth to be a non-negative integer, got number: 3.5',
	});
	assert.throws(() => prettyBytes(1337, {fixedWidth: '10'}), {
		name: 'TypeError',
		message: 'Expected fixedWidth to be a non-negative integer, got string: 10',
	});
	assert.throws(() => prettyBytes(1337, {fixedWidth: Number.MAX_SAFE_INTEGER + 1}), {
		name: 'TypeError',
		message: `Expected fixedWidth to be a non-negative integer, got number: ${Number.MAX_SAFE_INTEGER + 1}`,
	});

	// With fractional digits
	assert.strictEqual(prettyBytes(1500, {fixedWidth: 10, maximumFractionDigits: 1}), '    1.5 kB');

	// With small numbers
	assert.strictEqual(prettyBytes(0.5, {fixedWidth: 8}), '   0.5 B');

	// With negative numbers (non-signed)
	assert.strictEqual(prettyBytes(-1337, {fixedWidth: 8}), '-1.34 kB');

	// With non-breaking space
	assert.strictEqual(prettyBytes(1337, {fixedWidth: 8, nonBreakingSpace: true}), ' 1.34\u00A0kB');
});
