import {test} from 'node:test';
import assert from 'node:assert/strict';
import camelCase from '../index.js';

test('camelCase', t => {
	assert.equal(camelCase('b2b_registration_request'), 'b2bRegistrationRequest');
	assert.equal(camelCase('b2b-registration-request'), 'b2bRegistrationRequest');
	assert.equal(camelCase('b2b_registration_b2b_request'), 'b2bRegistrationB2bRequest');
	assert.equal(camelCase('foo'), 'foo');
	assert.equal(camelCase('IDs'), 'ids');
	assert.equal(camelCase('FooIDs'), 'fooIds');
	assert.equal(camelCase('foo-bar'), 'fooBar');
	assert.equal(camelCase('foo-bar-baz'), 'fooBarBaz');
	assert.equal(camelCase('foo--bar'), 'fooBar');
	assert.equal(camelCase('--foo-bar'), 'fooBar');
	assert.equal(camelCase('--foo--bar'), 'fooBar');
	assert.equal(camelCase('FOO-BAR'), 'fooBar');
	assert.equal(camelCase('FOÈ-BAR'), 'foèBar');
	assert.equal(camelCase('-foo-bar-'), 'fooBar');
	assert.equal(camelCase('--foo--bar--'), 'fooBar');
	assert.equal(camelCase('foo-1'), 'foo1');
	assert.equal(camelCase('foo.bar'), 'fooBar');
	assert.equal(camelCase('foo..bar'), 'fooBar');
	assert.equal(camelCase('..foo..bar..'), 'fooBar');
	assert.equal(camelCase('foo_bar'), 'fooBar');
	assert.equal(camelCase('__foo__bar__'), '__fooBar');
	assert.equal(camelCase('foo bar'), 'fooBar');
	assert.equal(camelCase('  foo  bar  '), 'fooBar');
	assert.equal(camelCase('-'), '');
	assert.equal(camelCase(' - '), '');
	assert.equal(camelCase('fooBar'), 'fooBar');
	assert.equal(camelCase('fooBar-baz'), 'fooBarBaz');
	assert.equal(camelCase('foìBar-baz'), 'foìBarBaz');
	assert.equal(camelCase('fooBarBaz-bazzy'), 'fooBarBazBazzy');
	assert.equal(camelCase('FBBazzy'), 'fbBazzy');
	assert.equal(camelCase('F'), 'f');
	assert.equal(camelCase('FooBar'), 'fooBar');
	assert.equal(camelCase('Foo'), 'foo');
	assert.equal(camelCase('FOO'), 'foo');
	assert.equal(camelCase(['foo', 'bar']), 'fooBar');
	assert.equal(camelCase(['foo', '-bar']), 'fooBar');
	assert.equal(camelCase(['foo', '-bar', 'baz']), 'fooBarBaz');
	assert.equal(camelCase(['', '']), '');
	assert.equal(camelCase('--'), '');
	assert.equal(camelCase(''), '');
	assert.equal(camelCase('_'), '_');
	assert.equal(camelCase(' '), '');
	assert.equal(camelCase('.'), '');
	assert.equal(camelCase('..'), '');
	assert.equal(camelCase('--'), '');
	assert.equal(camelCase('  '), '');
	assert.equal(camelCase('__'), '__');
	assert.equal(camelCase('--__--_--_'), '');
	assert.equal(camelCase(['---_', '--', '', '-_- ']), '');
	assert.equal(camelCase('foo bar?'), 'fooBar?');
	assert.equal(camelCase('foo bar!'), 'fooBar!');
	assert.equal(camelCase('foo bar$'), 'fooBar$');
	assert.equal(camelCase('foo-bar#'), 'fooBar#');
	assert.equal(camelCase('XMLHttpRequest'), 'xmlHttpRequest');
	assert.equal(camelCase('AjaxXMLHttpRequest'), 'ajaxXmlHttpRequest');
	assert.equal(camelCase('Ajax-XMLHttpRequest'), 'ajaxXmlHttpRequest');
	assert.equal(camelCase([]), '');
	assert.equal(camelCase('mGridCol6@md'), 'mGridCol6@md');
	assert.equal(camelCase('A::a'), 'a::a');
	assert.equal(camelCase('Hello1World'), 'hello1World');
	assert.equal(camelCase('Hello11World'), 'hello11World');
	assert.equal(camelCase('hello1world'), 'hello1World');
	assert.equal(camelCase('Hello1World11foo'), 'hello1World11Foo');
	assert.equal(camelCase('Hello1'), 'hello1');
	assert.equal(camelCase('hello1'), 'hello1');
	assert.equal(camelCase('1Hello'), '1Hello');
	assert.equal(camelCase('1hello'), '1Hello');
	assert.equal(camelCase('h2w'), 'h2W');
	assert.equal(camelCase('розовый_пушистый-единороги'), 'розовыйПушистыйЕдинороги');
	assert.equal(camelCase('розовый_пушистый-единороги'), 'розовыйПушистыйЕдинороги');
	assert.equal(camelCase('РОЗОВЫЙ_ПУШИСТЫЙ-ЕДИНОРОГИ'), 'розовыйПушистыйЕдинороги');
	assert.equal(camelCase('桑德在这里。'), '桑德在这里。');
	assert.equal(camelCase('桑德在这里。'), '桑德在这里。');
	assert.equal(camelCase('桑德_在这里。'), '桑德在这里。');
});

test('camelCase with pascalCase option', t => {
	assert.equal(camelCase('b2b_registration_request', {pascalCase: true}), 'B2bRegistrationRequest');
	assert.equal(camelCase('foo', {pascalCase: true}), 'Foo');
	assert.equal(camelCase('foo-bar', {pascalCase: true}), 'FooBar');
	assert.equal(camelCase('foo-bar-baz', {pascalCase: true}), 'FooBarBaz');
	assert.equal(camelCase('foo--bar', {pascalCase: true}), 'FooBar');
	assert.equal(camelCase('--foo-bar', {pascalCase: true}), 'FooBar');
	assert.equal(camelCase('--foo--bar', {pascalCase: true}), 'FooBar');
	assert.equal(camelCase('FOO-BAR', {pascalCase: true}), 'FooBar');
	assert.equal(camelCase('FOÈ-BAR', {pascalCase: true}), 'FoèBar');
	assert.equal(camelCase('-foo-bar-', {pascalCase: true}), 'FooBar');
	assert.equal(camelCase('--foo--bar--', {pascalCase: true}), 'FooBar');
	assert.equal(camelCase('foo-1', {pascalCase: true}), 'Foo1');
	assert.equal(camelCase('foo.bar', {pascalCase: true}), 'FooBar');
	assert.equal(camelCase('foo..bar', {pascalCase: true}), 'FooBar');
	assert.equal(camelCase('..foo..bar..', {pascalCase: true}), 'FooBar');
	assert.equal(camelCase('foo_bar', {pascalCase: true}), 'FooBar');
	assert.equal(camelCase('__foo__bar__', {pascalCase: true}), '__FooBar');
	assert.equal(camelCase('foo bar', {pascalCase: true}), 'FooBar');
	assert.equal(camelCase('  foo  bar  ', {pascalCase: true}), 'FooBar');
	assert.equal(camelCase('-', {pascalCase: true}), '');
	assert.equal(camelCase(' - ', {pascalCase: true}), '');
	assert.equal(camelCase('fooBar', {pascalCase: true}), 'FooBar');
	assert.equal(camelCase('fooBar-baz', {pascalCase: true}), 'FooBarBaz');
	assert.equal(camelCase('foìBar-baz', {pascalCase: true}), 'FoìBarBaz');
	assert.equal(camelCase('fooBarBaz-bazzy', {pascalCase: true}), 'FooBarBazBazzy');
	assert.equal(camelCase('FBBazzy', {pascalCase: true}), 'FbBazzy');
	assert.equal(camelCase('F', {pascalCase: true}), 'F');
	assert.equal(camelCase('FooBar', {pascalCase: true}), 'FooBar');
	assert.equal(camelCase('Foo', {pascalCase: true}), 'Foo');
	assert.equal(camelCase('FOO', {pascalCase: true}), 'Foo');
	assert.equal(camelCase(['foo', 'bar'], {pascalCase: true}), 'FooBar');
	assert.equal(camelCase(['foo', '-bar'], {pascalCase: true}), 'FooBar');
	assert.equal(camelCase(['foo', '-bar', 'baz'], {pascalCase: true}), 'FooBarBaz');
	assert.equal(camelCase(['', ''], {pascalCase: true}), '');
	assert.equal(camelCase('--', {pascalCase: true}), '');
	assert.equal(camelCase('', {pascalCase: true}), '');
	assert.equal(camelCase('--__--_--_', {pascalCase: true}), '');
	assert.equal(camelCase(['---_', '--', '', '-_- '], {pascalCase: true}), '');
	assert.equal(camelCase('foo bar?', {pascalCase: true}), 'FooBar?');
	assert.equal(camelCase('foo bar!', {pascalCase: true}), 'FooBar!');
	assert.equal(camelCase('foo bar$', {pascalCase: true}), 'FooBar$');
	assert.equal(camelCase('foo-bar#', {pascalCase: true}), 'FooBar#');
	assert.equal(camelCase('XMLHttpRequest', {pascalCase: true}), 'XmlHttpRequest');
	assert.equal(camelCase('AjaxXMLHttpRequest', {pascalCase: true}), 'AjaxXmlHttpRequest');
	assert.equal(camelCase('Ajax-XMLHttpRequest', {pascalCase: true}), 'AjaxXmlHttpRequest');
	assert.equal(camelCase([], {pascalCase: true}), '');
	assert.equal(camelCase('mGridCol6@md', {pascalCase: true}), 'MGridCol6@md');
	assert.equal(camelCase('A::a', {pascalCase: true}), 'A::a');
	assert.equal(camelCase('Hello1World', {pascalCase: true}), 'Hello1World');
	assert.equal(camelCase('Hello11World', {pascalCase: true}), 'Hello11World');
	assert.equal(camelCase('hello1world', {pascalCase: true}), 'Hello1World');
	assert.equal(camelCase('hello1World', {pascalCase: true}), 'Hello1World');
	assert.equal(camelCase('hello1', {pascalCase: true}), 'Hello1');
	assert.equal(camelCase('Hello1', {pascalCase: true}), 'Hello1');
	assert.equal(camelCase('1hello', {pascalCase: true}), '1Hello');
	assert.equal(camelCase('1Hello', {pascalCase: true}), '1Hello');
	assert.equal(camelCase('h1W', {pascalCase: true}), 'H1W');
	assert.equal(camelCase('РозовыйПушистыйЕдинороги', {pascalCase: true}), 'РозовыйПушистыйЕдинороги');
	assert.equal(camelCase('розовый_пушистый-единороги', {pascalCase: true}), 'РозовыйПушистыйЕдинороги');
	assert.equal(camelCase('РОЗОВЫЙ_ПУШИСТЫЙ-ЕДИНОРОГИ', {pascalCase: true}), 'РозовыйПушистыйЕдинороги');
	assert.equal(camelCase('桑德在这里。', {pascalCase: true}), '桑德在这里。');
	assert.equal(camelCase('桑德_在这里。', {pascalCase: true}), '桑德在这里。');
	assert.equal(camelCase('a1b', {pascalCase: true}), 'A1B');
});

test('camelCase with preserveConsecutiveUppercase option', t => {
	assert.equal(camelCase('foo-BAR', {preserveConsecutiveUppercase: true}), 'fooBAR');
	assert.equal(camelCase('Foo-BAR', {preserveConsecutiveUppercase: true}), 'fooBAR');
	assert.equal(camelCase('fooBAR', {preserveConsecutiveUppercase: true}), 'fooBAR');
	assert.equal(camelCase('fooBaR', {preserveConsecutiveUppercase: true}), 'fooBaR');
	assert.equal(camelCase('FOÈ-BAR', {preserveConsecutiveUppercase: true}), 'FOÈBAR');
	assert.equal(camelCase(['foo', 'BAR'], {preserveConsecutiveUppercase: true}), 'fooBAR');
	assert.equal(camelCase(['foo', '-BAR'], {preserveConsecutiveUppercase: true}), 'fooBAR');
	assert.equal(camelCase(['foo', '-BAR', 'baz'], {preserveConsecutiveUppercase: true}), 'fooBARBaz');
	assert.equal(camelCase(['', ''], {preserveConsecutiveUppercase: true}), '');
	assert.equal(camelCase('--', {preserveConsecutiveUppercase: true}), '');
	assert.equal(camelCase('', {preserveConsecutiveUppercase: true}), '');
	assert.equal(camelCase('--__--_--_', {preserveConsecutiveUppercase: true}), '');
	assert.equal(camelCase(['---_', '--', '', '-_- '], {preserveConsecutiveUppercase: true}), '');
	assert.equal(camelCase('foo BAR?', {preserveConsecutiveUppercase: true}), 'fooBAR?');
	assert.equal(camelCase('foo BAR!', {preserveConsecutiveUppercase: true}), 'fooBAR!');
	assert.equal(camelCase('foo BAR$', {preserveConsecutiveUppercase: true}), 'fooBAR$');
	assert.equal(camelCase('foo-BAR#', {preserveConsecutiveUppercase: true}), 'fooBAR#');
	assert.equal(camelCase('XMLHttpRequest', {preserveConsecutiveUppercase: true}), 'XMLHttpRequest');
	assert.equal(camelCase('AjaxXMLHttpRequest', {preserveConsecutiveUppercase: true}), 'ajaxXMLHttpRequest');
	assert.equal(camelCase('Ajax-XMLHttpRequest', {preserveConsecutiveUppercase: true}), 'ajaxXMLHttpRequest');
	assert.equal(camelCase([], {preserveConsecutiveUppercase: true}), '');
	assert.equal(camelCase('mGridCOl6@md', {preserveConsecutiveUppercase: true}), 'mGridCOl6@md');
	assert.equal(camelCase('A::a', {preserveConsecutiveUppercase: true}), 'a::a');
	assert.equal(camelCase('Hello1WORLD', {preserveConsecutiveUppercase: true}), 'hello1WORLD');
	assert.equal(camelCase('Hello11WORLD', {preserveConsecutiveUppercase: true}), 'hello11WORLD');
	assert.equal(camelCase('РозовыйПушистыйFOOдинорогиf', {preserveConsecutiveUppercase: true}), 'розовыйПушистыйFOOдинорогиf');
	assert.equal(camelCase('桑德在这里。', {preserveConsecutiveUppercase: true}), '桑德在这里。');
	assert.equal(camelCase('桑德_在这里。', {preserveConsecutiveUppercase: true}), '桑德在这里。');
	assert.equal(camelCase('IDs', {preserveConsecutiveUppercase: true}), 'iDs');
	assert.equal(camelCase('FooIDs', {preserveConsecutiveUppercase: true}), 'fooIDs');
});

test('camelCase with both pascalCase and preserveConsecutiveUppercase option', t => {
	assert.equal(camelCase('foo-BAR', {pascalCase: true, preserveConsecutiveUppercase: true}), 'FooBAR');
	assert.equal(camelCase('fooBAR', {pascalCase: true, preserveConsecutiveUppercase: true}), 'FooBAR');
	assert.equal(camelCase('fooBaR', {pascalCase: true, preserveConsecutiveUppercase: true}), 'FooBaR');
	assert.equal(camelCase('fOÈ-BAR', {pascalCase: true, preserveConsecutiveUppercase: true}), 'FOÈBAR');
	assert.equal(camelCase('--foo.BAR', {pascalCase: true, preserveConsecutiveUppercase: true}), 'FooBAR');
	assert.equal(camelCase(['Foo', 'BAR'], {pascalCase: true, preserveConsecutiveUppercase: true}), 'FooBAR');
	assert.equal(camelCase(['foo', '-BAR'], {pascalCase: true, preserveConsecutiveUppercase: true}), 'FooBAR');
	assert.equal(camelCase(['foo', '-BAR', 'baz'], {pascalCase: true, preserveConsecutiveUppercase: true}), 'FooBARBaz');
	assert.equal(camelCase(['', ''], {pascalCase: true, preserveConsecutiveUppercase: true}), '');
	assert.equal(camelCase('--', {pascalCase: true, preserveConsecutiveUppercase: true}), '');
	assert.equal(camelCase('', {pascalCase: true, preserveConsecutiveUppercase: true}), '');
	assert.equal(camelCase('--__--_--_', {pascalCase: true, preserveConsecutiveUppercase: true}), '');
	assert.equal(camelCase(['---_', '--', '', '-_- '], {pascalCase: true, preserveConsecutiveUppercase: true}), '');
	assert.equal(camelCase('foo BAR?', {pascalCase: true, preserveConsecutiveUppercase: true}), 'FooBAR?');
	assert.equal(camelCase('foo BAR!', {pascalCase: true, preserveConsecutiveUppercase: true}), 'FooBAR!');
	assert.equal(camelCase('Foo BAR$', {pascalCase: true, preserveConsecutiveUppercase: true}), 'FooBAR$');
	assert.equal(camelCase('foo-BAR#', {pascalCase: true, preserveConsecutiveUppercase: true}), 'FooBAR#');
	assert.equal(camelCase('xMLHttpRequest', {pascalCase: true, preserveConsecutiveUppercase: true}), 'XMLHttpRequest');
	assert.equal(camelCase('ajaxXMLHttpRequest', {pascalCase: true, preserveConsecutiveUppercase: true}), 'AjaxXMLHttpRequest');
	assert.equal(camelCase('Ajax-XMLHttpRequest', {pascalCase: true, preserveConsecutiveUppercase: true}), 'AjaxXMLHttpRequest');
	assert.equal(camelCase([], {pascalCase: true, preserveConsecutiveUppercase: true}), '');
	assert.equal(camelCase('mGridCOl6@md', {pascalCase: true, preserveConsecutiveUppercase: true}), 'MGridCOl6@md');
	assert.equal(camelCase('A::a', {pascalCase: true, preserveConsecutiveUppercase: true}), 'A::a');
	assert.equal(camelCase('Hello1WORLD', {pascalCase: true, preserveConsecutiveUppercase: true}), 'Hello1WORLD');
	assert.equal(camelCase('Hello11WORLD', {pascalCase: true, preserveConsecutiveUppercase: true}), 'Hello11WORLD');
	assert.equal(camelCase('pозовыйПушистыйFOOдинорогиf', {pascalCase: true, preserveConsecutiveUppercase: true}), 'PозовыйПушистыйFOOдинорогиf');
	assert.equal(camelCase('桑德在这里。', {pascalCase: true, preserveConsecutiveUppercase: true}), '桑德在这里。');
	assert.equal(camelCase('桑德_在这里。', {pascalCase: true, preserveConsecutiveUppercase: true}), '桑德在这里。');
});

test('camelCase with locale option', t => {
	assert.equal(camelCase('lorem-ipsum', {locale: 'tr-TR'}), 'loremİpsum');
	assert.equal(camelCase('lorem-ipsum', {locale: 'en-EN'}), 'loremIpsum');
	assert.equal(camelCase('lorem-ipsum', {locale: ['tr', 'TR', 'tr-TR']}), 'loremİpsum');
	assert.equal(camelCase('lorem-ipsum', {locale: ['en-EN', 'en-GB']}), 'loremIpsum');
	assert.equal(camelCase('ipsum-dolor', {pascalCase: true, locale: 'tr-TR'}), 'İpsumDolor');
	assert.equal(camelCase('ipsum-dolor', {pascalCase: true, locale: 'en-EN'}), 'IpsumDolor');
	assert.equal(camelCase('ipsum-dolor', {pascalCase: true, locale: ['tr', 'TR', 'tr-TR']}), 'İpsumDolor');
	assert.equal(camelCase('ipsum-dolor', {pascalCase: true, locale: ['en-EN', 'en-GB']}), 'IpsumDolor');
});

test('camelCase with disabled locale', t => {
	withLocaleCaseFunctionsMocked(() => {
		assert.equal(camelCase('lorem-ipsum', {locale: false}), 'loremIpsum');
		assert.equal(camelCase('ipsum-dolor', {pascalCase: true, locale: false}), 'IpsumDolor');
		assert.equal(camelCase('ipsum-DOLOR', {pascalCase: true, locale: false, preserveConsecutiveUppercase: true}), 'IpsumDOLOR');
	});
});

test('number handling follows Google Style Guide', t => {
	// Numbers don't create word boundaries (Google Java Style Guide)
	// https://google.github.io/styleguide/javaguide.html#s5.3-camel-case
	assert.equal(camelCase('turn_on_2sv', {capitalizeAfterNumber: false}), 'turnOn2sv'); // NOT turnOn2Sv
	assert.equal(camelCase('a1b_text', {capitalizeAfterNumber: false}), 'a1bText'); // NOT a1BText
	assert.equal(camelCase('foo2bar', {capitalizeAfterNumber: false}), 'foo2bar'); // NOT foo2Bar
	assert.equal(camelCase('version2', {capitalizeAfterNumber: false}), 'version2');

	// With pascalCase
	assert.equal(camelCase('turn_on_2sv', {pascalCase: true, capitalizeAfterNumber: false}), 'TurnOn2sv');
	assert.equal(camelCase('a1b_text', {pascalCase: true, capitalizeAfterNumber: false}), 'A1bText');
});

test('camelCase with capitalizeAfterNumber option', t => {
	assert.equal(camelCase('Hello1World'), 'hello1World');
	assert.equal(camelCase('Hello1World', {capitalizeAfterNumber: false}), 'hello1World'); // Preserves uppercase W
	assert.equal(camelCase('foo2bar'), 'foo2Bar');
	assert.equal(camelCase('foo2bar', {capitalizeAfterNumber: false}), 'foo2bar');
	assert.equal(camelCase('hello1world'), 'hello1World');
	assert.equal(camelCase('hello1world', {capitalizeAfterNumber: false}), 'hello1world'); // Preserves lowercase w
	assert.equal(camelCase('turn_on_2sv'), 'turnOn2Sv');
	assert.equal(camelCase('turn_on_2sv', {capitalizeAfterNumber: false}), 'turnOn2sv');

	assert.equal(camelCase('Hello1World', {pascalCase: true}), 'Hello1World');
	assert.equal(camelCase('Hello1World', {pascalCase: true, capitalizeAfterNumber: false}), 'Hello1World'); // Preserves uppercase W
	assert.equal(camelCase('turn_on_2sv', {pascalCase: true}), 'TurnOn2Sv');
	assert.equal(camelCase('turn_on_2sv', {pascalCase: true, capitalizeAfterNumber: false}), 'TurnOn2sv');
});

test('capitalizeAfterNumber edge cases', t => {
	assert.equal(camelCase('foo-2bar'), 'foo2Bar');
	assert.equal(camelCase('foo-2bar', {capitalizeAfterNumber: false}), 'foo2bar');
	assert.equal(camelCase('foo-2bar', {pascalCase: true}), 'Foo2Bar');
	assert.equal(camelCase('foo-2bar', {pascalCase: true, capitalizeAfterNumber: false}), 'Foo2bar');

	assert.equal(camelCase('2foo-bar'), '2FooBar');
	assert.equal(camelCase('2foo-bar', {capitalizeAfterNumber: false}), '2fooBar');
	assert.equal(camelCase('2foo-bar', {pascalCase: true}), '2FooBar');
	assert.equal(camelCase('2foo-bar', {pascalCase: true, capitalizeAfterNumber: false}), '2fooBar');

	assert.equal(camelCase('XML2HTTP'), 'xml2Http');
	assert.equal(camelCase('XML2HTTP', {capitalizeAfterNumber: false}), 'xml2Http'); // Preserves uppercase H
	assert.equal(camelCase('XML2HTTP', {pascalCase: true}), 'Xml2Http');
	assert.equal(camelCase('XML2HTTP', {pascalCase: true, capitalizeAfterNumber: false}), 'Xml2Http'); // Preserves uppercase H

	assert.equal(camelCase('2a'), '2A');
	assert.equal(camelCase('2a', {capitalizeAfterNumber: false}), '2a');
	assert.equal(camelCase('2a', {pascalCase: true}), '2A');
	assert.equal(camelCase('2a', {pascalCase: true, capitalizeAfterNumber: false}), '2a');

	assert.equal(camelCase('foo2BAR', {preserveConsecutiveUppercase: true}), 'foo2BAR');
	assert.equal(camelCase('foo2BAR', {preserveConsecutiveUppercase: true, capitalizeAfterNumber: false}), 'foo2BAR');
});

test('case preservation after numbers (capitalizeAfterNumber: false)', t => {
	// When capitalizeAfterNumber is false, original case is preserved
	assert.equal(camelCase('Textures_3d', {capitalizeAfterNumber: false}), 'textures3d'); // Preserves lowercase d
	assert.equal(camelCase('Textures_3D', {capitalizeAfterNumber: false}), 'textures3D'); // Preserves uppercase D
	assert.equal(camelCase('version_1a', {capitalizeAfterNumber: false}), 'version1a');
	assert.equal(camelCase('version_1A', {capitalizeAfterNumber: false}), 'version1A');
	assert.equal(camelCase('foo_2_bar', {capitalizeAfterNumber: false}), 'foo2Bar'); // 'bar' is after separator, not directly after number

	// With pascalCase
	assert.equal(camelCase('Textures_3d', {pascalCase: true, capitalizeAfterNumber: false}), 'Textures3d');
	assert.equal(camelCase('Textures_3D', {pascalCase: true, capitalizeAfterNumber: false}), 'Textures3D');
});

test('preserve leading underscores and dollar signs', t => {
	// Leading _ and $ have semantic meaning (private/internal, jQuery/observables)
	assert.equal(camelCase('_foo_bar'), '_fooBar');
	assert.equal(camelCase('$foo_bar'), '$fooBar');
	assert.equal(camelCase('__foo_bar'), '__fooBar');
	assert.equal(camelCase('$$foo_bar'), '$$fooBar');
	assert.equal(camelCase('$_foo_bar'), '$_fooBar');
	assert.equal(camelCase('_$foo_bar'), '_$fooBar');

	// Edge cases: only prefix characters
	assert.equal(camelCase('_'), '_');
	assert.equal(camelCase('__'), '__');
	assert.equal(camelCase('$'), '$');
	assert.equal(camelCase('$$$'), '$$$');
	assert.equal(camelCase('_$'), '_$');

	// With pascalCase
	assert.equal(camelCase('_foo_bar', {pascalCase: true}), '_FooBar');
	assert.equal(camelCase('$foo_bar', {pascalCase: true}), '$FooBar');
	assert.equal(camelCase('__foo_bar', {pascalCase: true}), '__FooBar');

	// With preserveConsecutiveUppercase
	assert.equal(camelCase('_foo_BAR', {preserveConsecutiveUppercase: true}), '_fooBAR');
	assert.equal(camelCase('$foo_BAR', {preserveConsecutiveUppercase: true}), '$fooBAR');

	// Combined with other transformations
	assert.equal(camelCase('_foo-bar_baz'), '_fooBarBaz');
	assert.equal(camelCase('$http_service'), '$httpService');
});

test('edge cases: emoji and unicode', t => {
	// Emoji treated as non-separator special character
	assert.equal(camelCase('foo-🦄-bar'), 'foo-🦄Bar');
	assert.equal(camelCase('foo🦄bar'), 'foo🦄bar');

	// Zero-width characters preserved
	assert.equal(camelCase('foo\u200Dbar'), 'foo\u200Dbar');

	// RTL languages
	assert.equal(camelCase('foo_مرحبا_bar'), 'fooمرحباBar');
	assert.equal(camelCase('foo_שלום_bar'), 'fooשלוםBar');
});

test('edge cases: combined options', t => {
	// All options together
	assert.equal(camelCase('foo_2BAR_baz', {pascalCase: true, preserveConsecutiveUppercase: true, capitalizeAfterNumber: false}), 'Foo2BARBaz');

	// Leading prefix with all options
	assert.equal(camelCase('__foo_2BAR', {pascalCase: true, preserveConsecutiveUppercase: true, capitalizeAfterNumber: false}), '__Foo2BAR');
	assert.equal(camelCase('$_foo_BAR', {pascalCase: true, preserveConsecutiveUppercase: true}), '$_FooBAR');
});

test('edge cases: numbers', t => {
	// Decimal numbers (dots are separators)
	assert.equal(camelCase('version_3.14.15'), 'version31415');

	// Negative sign is special character
	assert.equal(camelCase('temp_-5_degrees'), 'temp5Degrees');

	// Only numbers
	assert.equal(camelCase('123'), '123');
	assert.equal(camelCase('123_456_789'), '123456789');
});

test('edge cases: locale with capitalizeAfterNumber', t => {
	// Turkish i/İ with numbers and capitalizeAfterNumber
	assert.equal(camelCase('test_1i', {locale: 'tr-TR'}), 'test1İ');
	assert.equal(camelCase('test_1i', {locale: 'tr-TR', capitalizeAfterNumber: false}), 'test1i');

	// Empty locale array falls back to default
	assert.equal(camelCase('foo-bar', {locale: []}), 'fooBar');
});

test('edge cases: special characters', t => {
	// Multiple consecutive special chars
	assert.equal(camelCase('foo##bar'), 'foo##bar');
	assert.equal(camelCase('foo@#$bar'), 'foo@#$bar');

	// Mixed separators and special chars
	assert.equal(camelCase('foo_@#_bar'), 'foo_@#Bar');
});

test('edge cases: array input', t => {
	// Array with leading prefixes
	assert.equal(camelCase(['_foo', '$bar']), '_foo-$bar');

	// Array with only whitespace elements
	assert.equal(camelCase(['  ', '  foo  ', '  ']), 'foo');
	assert.equal(camelCase(['', '  ', '']), '');
});

test('edge cases: uppercase transitions', t => {
	// Multiple rapid transitions
	assert.equal(camelCase('aAbBcC'), 'aAbBcC');
	assert.equal(camelCase('a1A2B3C'), 'a1A2B3C');

	// Single uppercase with preserveConsecutiveUppercase
	assert.equal(camelCase('fooAbar', {preserveConsecutiveUppercase: true}), 'fooAbar');
	assert.equal(camelCase('A', {preserveConsecutiveUppercase: true}), 'a');
});

test('edge cases: extreme inputs', t => {
	// Very long separator sequences
	const longPrefix = '_'.repeat(50);
	assert.equal(camelCase(longPrefix + 'foo' + longPrefix + 'bar'), longPrefix + 'fooBar');

	// Mixed repeated separators
	assert.equal(camelCase('_-. _-. _-.foo'), '_foo');

	// Only separators
	assert.equal(camelCase('-_.  -_. -_.'), '');
});

test('invalid input', t => {
	assert.throws(() => {
		camelCase(1);
	}, {
		message: /Expected the input to be/,
	});
});

/* eslint-disable no-extend-native */
const withLocaleCaseFunctionsMocked = fn => {
	const throwWhenBeingCalled = () => {
		throw new Error('Should not be called');
	};

	const toLocaleUpperCase = Object.getOwnPropertyDescriptor(String.prototype, 'toLocaleUpperCase');
	const toLocaleLowerCase = Object.getOwnPropertyDescriptor(String.prototype, 'toLocaleLowerCase');

	Object.defineProperty(String.prototype, 'toLocaleUpperCase', {
		...toLocaleUpperCase,
		value: throwWhenBeingCalled,
	});
	Object.defineProperty(String.prototype, 'toLocaleLowerCase', {
		...toLocaleLowerCase,
		value: throwWhenBeingCalled,
	});

	try {
		fn();
	} finally {
		Object.defineProperty(String.prototype, 'toLocaleUpperCase', toLocaleUpperCase);
		Object.defineProperty(String.prototype, 'toLocaleLowerCase', toLocaleLowerCase);
	}
};
/* eslint-enable no-extend-native */
