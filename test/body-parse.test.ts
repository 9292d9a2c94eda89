/**
 * The JSON body parser (src/http/validation.ts, `parseJsonBody`): what it reads as JSON.parse does, and what
 * it refuses however it is spelt. (Issue 14 tried a JSON.parse-only route for bodies without escapes: the
 * secure-json-parse patterns it skipped cost nothing measurable, so it was not kept; these cases guard any
 * such shortcut.)
 */
import test from 'ava';
import secureJson from 'secure-json-parse';

import { ApiError } from '../src/http/errors.js';
import { parseJsonBody } from '../src/http/validation.js';

function codeOf(text: string): string {
  try {
    parseJsonBody(text);
    return 'parsed';
  } catch (error) {
    return error instanceof ApiError ? error.code : 'other';
  }
}

test('plain bodies are read as secure-json-parse reads them, values in their order', (t) => {
  for (const text of [
    '{"action":"validate","tax_code":"RSSMRA80A01H501U"}',
    ' {"phone":"02 1234567","format":"nazionale"} ',
    '{"items":[{"email":"a@b.it","dns":false},{"email":"Mario <m@x.it>"}],"language":"it"}',
    '{"q":"via del fag","note":"the constructor of the house","x":"__proto__"}',
    '[1,2,3]',
    '"text"',
  ]) {
    const ours = parseJsonBody(text);
    t.deepEqual(ours, secureJson.parse(text, undefined, { protoAction: 'error', constructorAction: 'error' }), text);
    t.is(JSON.stringify(ours), JSON.stringify(JSON.parse(text)), text);
  }
});

test('__proto__ and constructor.prototype are refused whether written plainly or with escapes', (t) => {
  t.is(codeOf('{"phone":"06 6982","__proto__":{"admin":true}}'), 'bad_request');
  t.is(codeOf('{"phone":"06 6982","\\u005f\\u005fproto__":{"admin":true}}'), 'bad_request');
  t.is(codeOf('{"phone":"06 6982","\\u005F_proto\\u005f_" :{"admin":true}}'), 'bad_request');
  t.is(codeOf('{"constructor":{"prototype":{"admin":true}}}'), 'bad_request');
  t.is(codeOf('{"\\u0063onstructor":{"prototype":{"admin":true}}}'), 'bad_request');
  // a constructor key without a prototype inside is an ordinary key
  t.deepEqual(parseJsonBody('{"constructor":{"name":"x"}}'), { constructor: { name: 'x' } });
});

test('escapes, a lone surrogate and a byte-order mark', (t) => {
  t.deepEqual(parseJsonBody('{"city":"Forl\\u00ec"}'), { city: 'Forlì' });
  t.deepEqual(parseJsonBody('{"a":"x\\ud800y"}'), { a: 'x\ufffdy' });
  t.deepEqual(parseJsonBody('{"a":"\\\\ud800"}'), { a: '\\ud800' });
  t.deepEqual(parseJsonBody('\ufeff{"a":1}'), { a: 1 });
});

test('broken or empty JSON is invalid_json', (t) => {
  t.is(codeOf(''), 'invalid_json');
  t.is(codeOf('   '), 'invalid_json');
  t.is(codeOf('{"a":'), 'invalid_json');
  t.is(codeOf('{"a":"\\x"}'), 'invalid_json');
  t.is(codeOf('\ufeff{"a":'), 'invalid_json');
});
