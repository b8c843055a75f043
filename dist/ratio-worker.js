import { parentPort } from 'node:worker_threads';
import 'node:fs';
import 'node:url';

/**
 * Recognising and hiding credentials in anything helm-gate prints or stores: error values, the
 * prod_env files shown by `plan` and kept in run-manifest.json, URLs. Redaction goes by
 * structure (the key a value sits under, the parts of a URL), with value patterns as a second
 * net, because a key written under an unexpected name must not leak either.
 */
const HIDDEN = '(hidden)';
/** Well-known key formats: OpenAI, GitHub, Slack, Hugging Face, AWS, Anthropic, bearer headers. */
const SECRET_PREFIX = /(?:^|[^A-Za-z0-9])(?:sk-[A-Za-z0-9_-]{8,}|sk_[A-Za-z0-9]{8,}|gh[pousr]_[A-Za-z0-9]{16,}|github_pat_\w{16,}|xox[abpr]-[A-Za-z0-9-]{8,}|hf_[A-Za-z0-9]{16,}|AKIA[0-9A-Z]{16}|Bearer\s+\S{8,})/;
function entropyBitsPerChar(text) {
    const counts = new Map();
    for (const ch of text)
        counts.set(ch, (counts.get(ch) ?? 0) + 1);
    let bits = 0;
    for (const n of counts.values())
        bits -= (n / text.length) * Math.log2(n / text.length);
    return bits;
}
/**
 * Whether a string looks like a credential: a known key format, or a long token of mixed-case
 * letters and digits with high entropy (random keys; not words, paths, URLs or version numbers).
 */
function looksLikeSecret(text) {
    if (SECRET_PREFIX.test(text))
        return true;
    const trimmed = text.trim();
    if (trimmed.length < 24 || trimmed.length > 512 || /\s/.test(trimmed))
        return false;
    if (!/^[A-Za-z0-9_\-+/=.]+$/.test(trimmed) || trimmed.includes('/') || trimmed.includes('.'))
        return false;
    if (!/[a-z]/.test(trimmed) || !/[A-Z]/.test(trimmed) || !/[0-9]/.test(trimmed))
        return false;
    return entropyBitsPerChar(trimmed) >= 3.5;
}

/**
 * Expected failures. Each carries what a user needs to fix the problem: the file, the field and
 * the offending value. They are caught once at the top (src/cli/main.ts, src/action/run.ts) and
 * never shown as a stack trace unless --debug is given.
 */
// The one redactor: an error value is judged as everything else helm-gate prints or stores is.
class GateError extends Error {
    /** A stable, machine-readable code, e.g. `config.unknown_key`, `guard.cached`. */
    code;
    location;
    constructor(code, message, location = {}) {
        super(message);
        this.name = new.target.name;
        this.code = code;
        this.location = location;
    }
    /** One line for a human: `message (file: f, field: x, value: v)`. */
    describe() {
        const parts = [];
        if (this.location.file)
            parts.push(`file: ${this.location.file}`);
        if (this.location.field)
            parts.push(`field: ${this.location.field}`);
        if (this.location.value !== undefined)
            parts.push(`value: ${showValue(this.location.value)}`);
        return parts.length ? `${this.message} (${parts.join(', ')})` : this.message;
    }
}
/** Bad command-line usage or action inputs. */
class UsageError extends GateError {
}
/** The two sides cannot be compared fairly (cache, drift, overlap, missing metric). */
class GuardError extends GateError {
}
/**
 * A value for a one-line message: JSON-like, cut at `max` characters. Never walks more than a few
 * levels or a few hundred characters of the value (a 100,000-deep array from a hostile file must
 * not exhaust the stack here), and never shows a string that looks like a credential.
 */
function showValue(value, max = 120) {
    const text = boundedJson(value, 6, max + 1);
    return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}
function boundedJson(value, depth, budget) {
    if (typeof value === 'string')
        return looksLikeSecret(value) ? JSON.stringify(HIDDEN) : JSON.stringify(value.length > budget ? value.slice(0, budget) : value);
    if (typeof value === 'number' || typeof value === 'boolean' || value === null)
        return String(value);
    if (typeof value !== 'object')
        return String(value);
    if (depth <= 0)
        return Array.isArray(value) ? '[…]' : '{…}';
    const parts = [];
    let used = 2;
    const entries = Array.isArray(value)
        ? value.map(item => [null, item])
        : Object.entries(value).filter(([, item]) => item !== undefined);
    for (const [key, item] of entries) {
        if (used > budget) {
            parts.push('…');
            break;
        }
        const shown = boundedJson(item, depth - 1, budget - used);
        const part = key === null ? shown : `${JSON.stringify(key)}:${shown}`;
        parts.push(part);
        used += part.length + 1;
    }
    return Array.isArray(value) ? `[${parts.join(',')}]` : `{${parts.join(',')}}`;
}

/**
 * The Math and Number functions the statistics engine uses, bound once per module graph.
 *
 * Why not call `Math.sqrt` directly: under jest (the test runner), code runs in a vm context where
 * every lookup of a global such as `Math` or `Number` costs about 0.8 microseconds - measured 800 ns
 * per `Math.floor` call against 10 ns for a module binding - which made the coverage study 50 times
 * slower. A module binding costs nothing in production either.
 */
const { ceil, floor, min} = Math;
const { isFinite: isFiniteNumber, isInteger } = Number;

/** Sample quantiles, one definition everywhere so intervals and medians are reproducible. */
/**
 * Hyndman & Fan type 7 (linear interpolation between order statistics; R's and NumPy's default)
 * on an ascending array.
 */
function quantileSorted(sorted, q) {
    const n = sorted.length;
    if (n === 0)
        return NaN;
    const h = (n - 1) * q;
    const below = floor(h);
    const above = min(below + 1, n - 1);
    const fraction = h - below;
    const a = sorted[below];
    const b = sorted[above];
    // a === b also covers two equal infinities, where a + 0 * (b - a) would be NaN.
    return fraction === 0 || a === b ? a : a + fraction * (b - a);
}
/** The central `confidence` interval of a bootstrap sample (sorted in place). */
function percentileInterval(samples, confidence) {
    samples.sort();
    const tail = (1 - confidence) / 2;
    return [quantileSorted(samples, tail), quantileSorted(samples, 1 - tail)];
}
function checkConfidence(confidence) {
    if (!(confidence > 0 && confidence < 1)) {
        throw new UsageError('stats.bad_confidence', 'The confidence level must lie strictly between 0 and 1.', {
            field: 'statistics.confidence',
            value: confidence
        });
    }
}
/**
 * A percentile interval needs at least one resample in each tail, or its bounds are just the
 * extreme resamples (with resamples = 1 the interval would have zero width and could pass).
 */
function checkResamples(resamples, confidence) {
    const minimum = ceil(2 / (1 - confidence));
    if (!isInteger(resamples) || resamples < minimum) {
        throw new UsageError('stats.too_few_resamples', `The bootstrap needs an integer number of resamples of at least ${minimum} at confidence ${confidence}.`, { field: 'statistics.resamples', value: resamples });
    }
}

function getDefaultExportFromCjs (x) {
	return x && x.__esModule && Object.prototype.hasOwnProperty.call(x, 'default') ? x['default'] : x;
}

var alea$1 = {exports: {}};

var alea = alea$1.exports;

var hasRequiredAlea;

function requireAlea () {
	if (hasRequiredAlea) return alea$1.exports;
	hasRequiredAlea = 1;
	(function (module) {
		// A port of an algorithm by Johannes Baagøe <baagoe@baagoe.com>, 2010
		// http://baagoe.com/en/RandomMusings/javascript/
		// https://github.com/nquinlan/better-random-numbers-for-javascript-mirror
		// Original work is under MIT license -

		// Copyright (C) 2010 by Johannes Baagøe <baagoe@baagoe.org>
		//
		// Permission is hereby granted, free of charge, to any person obtaining a copy
		// of this software and associated documentation files (the "Software"), to deal
		// in the Software without restriction, including without limitation the rights
		// to use, copy, modify, merge, publish, distribute, sublicense, and/or sell
		// copies of the Software, and to permit persons to whom the Software is
		// furnished to do so, subject to the following conditions:
		//
		// The above copyright notice and this permission notice shall be included in
		// all copies or substantial portions of the Software.
		//
		// THE SOFTWARE IS PROVIDED "AS IS", WITHOUT WARRANTY OF ANY KIND, EXPRESS OR
		// IMPLIED, INCLUDING BUT NOT LIMITED TO THE WARRANTIES OF MERCHANTABILITY,
		// FITNESS FOR A PARTICULAR PURPOSE AND NONINFRINGEMENT. IN NO EVENT SHALL THE
		// AUTHORS OR COPYRIGHT HOLDERS BE LIABLE FOR ANY CLAIM, DAMAGES OR OTHER
		// LIABILITY, WHETHER IN AN ACTION OF CONTRACT, TORT OR OTHERWISE, ARISING FROM,
		// OUT OF OR IN CONNECTION WITH THE SOFTWARE OR THE USE OR OTHER DEALINGS IN
		// THE SOFTWARE.



		(function(global, module, define) {

		function Alea(seed) {
		  var me = this, mash = Mash();

		  me.next = function() {
		    var t = 2091639 * me.s0 + me.c * 2.3283064365386963e-10; // 2^-32
		    me.s0 = me.s1;
		    me.s1 = me.s2;
		    return me.s2 = t - (me.c = t | 0);
		  };

		  // Apply the seeding algorithm from Baagoe.
		  me.c = 1;
		  me.s0 = mash(' ');
		  me.s1 = mash(' ');
		  me.s2 = mash(' ');
		  me.s0 -= mash(seed);
		  if (me.s0 < 0) { me.s0 += 1; }
		  me.s1 -= mash(seed);
		  if (me.s1 < 0) { me.s1 += 1; }
		  me.s2 -= mash(seed);
		  if (me.s2 < 0) { me.s2 += 1; }
		  mash = null;
		}

		function copy(f, t) {
		  t.c = f.c;
		  t.s0 = f.s0;
		  t.s1 = f.s1;
		  t.s2 = f.s2;
		  return t;
		}

		function impl(seed, opts) {
		  var xg = new Alea(seed),
		      state = opts && opts.state,
		      prng = xg.next;
		  prng.int32 = function() { return (xg.next() * 0x100000000) | 0; };
		  prng.double = function() {
		    return prng() + (prng() * 0x200000 | 0) * 1.1102230246251565e-16; // 2^-53
		  };
		  prng.quick = prng;
		  if (state) {
		    if (typeof(state) == 'object') copy(state, xg);
		    prng.state = function() { return copy(xg, {}); };
		  }
		  return prng;
		}

		function Mash() {
		  var n = 0xefc8249d;

		  var mash = function(data) {
		    data = String(data);
		    for (var i = 0; i < data.length; i++) {
		      n += data.charCodeAt(i);
		      var h = 0.02519603282416938 * n;
		      n = h >>> 0;
		      h -= n;
		      h *= n;
		      n = h >>> 0;
		      h -= n;
		      n += h * 0x100000000; // 2^32
		    }
		    return (n >>> 0) * 2.3283064365386963e-10; // 2^-32
		  };

		  return mash;
		}


		if (module && module.exports) {
		  module.exports = impl;
		} else {
		  this.alea = impl;
		}

		})(
		  alea,
		  module); 
	} (alea$1));
	return alea$1.exports;
}

var xor128$1 = {exports: {}};

var xor128 = xor128$1.exports;

var hasRequiredXor128;

function requireXor128 () {
	if (hasRequiredXor128) return xor128$1.exports;
	hasRequiredXor128 = 1;
	(function (module) {
		// A Javascript implementaion of the "xor128" prng algorithm by
		// George Marsaglia.  See http://www.jstatsoft.org/v08/i14/paper

		(function(global, module, define) {

		function XorGen(seed) {
		  var me = this, strseed = '';

		  me.x = 0;
		  me.y = 0;
		  me.z = 0;
		  me.w = 0;

		  // Set up generator function.
		  me.next = function() {
		    var t = me.x ^ (me.x << 11);
		    me.x = me.y;
		    me.y = me.z;
		    me.z = me.w;
		    return me.w ^= (me.w >>> 19) ^ t ^ (t >>> 8);
		  };

		  if (seed === (seed | 0)) {
		    // Integer seed.
		    me.x = seed;
		  } else {
		    // String seed.
		    strseed += seed;
		  }

		  // Mix in string seed, then discard an initial batch of 64 values.
		  for (var k = 0; k < strseed.length + 64; k++) {
		    me.x ^= strseed.charCodeAt(k) | 0;
		    me.next();
		  }
		}

		function copy(f, t) {
		  t.x = f.x;
		  t.y = f.y;
		  t.z = f.z;
		  t.w = f.w;
		  return t;
		}

		function impl(seed, opts) {
		  var xg = new XorGen(seed),
		      state = opts && opts.state,
		      prng = function() { return (xg.next() >>> 0) / 0x100000000; };
		  prng.double = function() {
		    do {
		      var top = xg.next() >>> 11,
		          bot = (xg.next() >>> 0) / 0x100000000,
		          result = (top + bot) / (1 << 21);
		    } while (result === 0);
		    return result;
		  };
		  prng.int32 = xg.next;
		  prng.quick = prng;
		  if (state) {
		    if (typeof(state) == 'object') copy(state, xg);
		    prng.state = function() { return copy(xg, {}); };
		  }
		  return prng;
		}

		if (module && module.exports) {
		  module.exports = impl;
		} else {
		  this.xor128 = impl;
		}

		})(
		  xor128,
		  module); 
	} (xor128$1));
	return xor128$1.exports;
}

var xorwow$1 = {exports: {}};

var xorwow = xorwow$1.exports;

var hasRequiredXorwow;

function requireXorwow () {
	if (hasRequiredXorwow) return xorwow$1.exports;
	hasRequiredXorwow = 1;
	(function (module) {
		// A Javascript implementaion of the "xorwow" prng algorithm by
		// George Marsaglia.  See http://www.jstatsoft.org/v08/i14/paper

		(function(global, module, define) {

		function XorGen(seed) {
		  var me = this, strseed = '';

		  // Set up generator function.
		  me.next = function() {
		    var t = (me.x ^ (me.x >>> 2));
		    me.x = me.y; me.y = me.z; me.z = me.w; me.w = me.v;
		    return (me.d = (me.d + 362437 | 0)) +
		       (me.v = (me.v ^ (me.v << 4)) ^ (t ^ (t << 1))) | 0;
		  };

		  me.x = 0;
		  me.y = 0;
		  me.z = 0;
		  me.w = 0;
		  me.v = 0;

		  if (seed === (seed | 0)) {
		    // Integer seed.
		    me.x = seed;
		  } else {
		    // String seed.
		    strseed += seed;
		  }

		  // Mix in string seed, then discard an initial batch of 64 values.
		  for (var k = 0; k < strseed.length + 64; k++) {
		    me.x ^= strseed.charCodeAt(k) | 0;
		    if (k == strseed.length) {
		      me.d = me.x << 10 ^ me.x >>> 4;
		    }
		    me.next();
		  }
		}

		function copy(f, t) {
		  t.x = f.x;
		  t.y = f.y;
		  t.z = f.z;
		  t.w = f.w;
		  t.v = f.v;
		  t.d = f.d;
		  return t;
		}

		function impl(seed, opts) {
		  var xg = new XorGen(seed),
		      state = opts && opts.state,
		      prng = function() { return (xg.next() >>> 0) / 0x100000000; };
		  prng.double = function() {
		    do {
		      var top = xg.next() >>> 11,
		          bot = (xg.next() >>> 0) / 0x100000000,
		          result = (top + bot) / (1 << 21);
		    } while (result === 0);
		    return result;
		  };
		  prng.int32 = xg.next;
		  prng.quick = prng;
		  if (state) {
		    if (typeof(state) == 'object') copy(state, xg);
		    prng.state = function() { return copy(xg, {}); };
		  }
		  return prng;
		}

		if (module && module.exports) {
		  module.exports = impl;
		} else {
		  this.xorwow = impl;
		}

		})(
		  xorwow,
		  module); 
	} (xorwow$1));
	return xorwow$1.exports;
}

var xorshift7$1 = {exports: {}};

var xorshift7 = xorshift7$1.exports;

var hasRequiredXorshift7;

function requireXorshift7 () {
	if (hasRequiredXorshift7) return xorshift7$1.exports;
	hasRequiredXorshift7 = 1;
	(function (module) {
		// A Javascript implementaion of the "xorshift7" algorithm by
		// François Panneton and Pierre L'ecuyer:
		// "On the Xorgshift Random Number Generators"
		// http://saluc.engr.uconn.edu/refs/crypto/rng/panneton05onthexorshift.pdf

		(function(global, module, define) {

		function XorGen(seed) {
		  var me = this;

		  // Set up generator function.
		  me.next = function() {
		    // Update xor generator.
		    var X = me.x, i = me.i, t, v;
		    t = X[i]; t ^= (t >>> 7); v = t ^ (t << 24);
		    t = X[(i + 1) & 7]; v ^= t ^ (t >>> 10);
		    t = X[(i + 3) & 7]; v ^= t ^ (t >>> 3);
		    t = X[(i + 4) & 7]; v ^= t ^ (t << 7);
		    t = X[(i + 7) & 7]; t = t ^ (t << 13); v ^= t ^ (t << 9);
		    X[i] = v;
		    me.i = (i + 1) & 7;
		    return v;
		  };

		  function init(me, seed) {
		    var j, X = [];

		    if (seed === (seed | 0)) {
		      // Seed state array using a 32-bit integer.
		      X[0] = seed;
		    } else {
		      // Seed state using a string.
		      seed = '' + seed;
		      for (j = 0; j < seed.length; ++j) {
		        X[j & 7] = (X[j & 7] << 15) ^
		            (seed.charCodeAt(j) + X[(j + 1) & 7] << 13);
		      }
		    }
		    // Enforce an array length of 8, not all zeroes.
		    while (X.length < 8) X.push(0);
		    for (j = 0; j < 8 && X[j] === 0; ++j);
		    if (j == 8) X[7] = -1; else X[j];

		    me.x = X;
		    me.i = 0;

		    // Discard an initial 256 values.
		    for (j = 256; j > 0; --j) {
		      me.next();
		    }
		  }

		  init(me, seed);
		}

		function copy(f, t) {
		  t.x = f.x.slice();
		  t.i = f.i;
		  return t;
		}

		function impl(seed, opts) {
		  if (seed == null) seed = +(new Date);
		  var xg = new XorGen(seed),
		      state = opts && opts.state,
		      prng = function() { return (xg.next() >>> 0) / 0x100000000; };
		  prng.double = function() {
		    do {
		      var top = xg.next() >>> 11,
		          bot = (xg.next() >>> 0) / 0x100000000,
		          result = (top + bot) / (1 << 21);
		    } while (result === 0);
		    return result;
		  };
		  prng.int32 = xg.next;
		  prng.quick = prng;
		  if (state) {
		    if (state.x) copy(state, xg);
		    prng.state = function() { return copy(xg, {}); };
		  }
		  return prng;
		}

		if (module && module.exports) {
		  module.exports = impl;
		} else {
		  this.xorshift7 = impl;
		}

		})(
		  xorshift7,
		  module); 
	} (xorshift7$1));
	return xorshift7$1.exports;
}

var xor4096$1 = {exports: {}};

var xor4096 = xor4096$1.exports;

var hasRequiredXor4096;

function requireXor4096 () {
	if (hasRequiredXor4096) return xor4096$1.exports;
	hasRequiredXor4096 = 1;
	(function (module) {
		// A Javascript implementaion of Richard Brent's Xorgens xor4096 algorithm.
		//
		// This fast non-cryptographic random number generator is designed for
		// use in Monte-Carlo algorithms. It combines a long-period xorshift
		// generator with a Weyl generator, and it passes all common batteries
		// of stasticial tests for randomness while consuming only a few nanoseconds
		// for each prng generated.  For background on the generator, see Brent's
		// paper: "Some long-period random number generators using shifts and xors."
		// http://arxiv.org/pdf/1004.3115v1.pdf
		//
		// Usage:
		//
		// var xor4096 = require('xor4096');
		// random = xor4096(1);                        // Seed with int32 or string.
		// assert.equal(random(), 0.1520436450538547); // (0, 1) range, 53 bits.
		// assert.equal(random.int32(), 1806534897);   // signed int32, 32 bits.
		//
		// For nonzero numeric keys, this impelementation provides a sequence
		// identical to that by Brent's xorgens 3 implementaion in C.  This
		// implementation also provides for initalizing the generator with
		// string seeds, or for saving and restoring the state of the generator.
		//
		// On Chrome, this prng benchmarks about 2.1 times slower than
		// Javascript's built-in Math.random().

		(function(global, module, define) {

		function XorGen(seed) {
		  var me = this;

		  // Set up generator function.
		  me.next = function() {
		    var w = me.w,
		        X = me.X, i = me.i, t, v;
		    // Update Weyl generator.
		    me.w = w = (w + 0x61c88647) | 0;
		    // Update xor generator.
		    v = X[(i + 34) & 127];
		    t = X[i = ((i + 1) & 127)];
		    v ^= v << 13;
		    t ^= t << 17;
		    v ^= v >>> 15;
		    t ^= t >>> 12;
		    // Update Xor generator array state.
		    v = X[i] = v ^ t;
		    me.i = i;
		    // Result is the combination.
		    return (v + (w ^ (w >>> 16))) | 0;
		  };

		  function init(me, seed) {
		    var t, v, i, j, w, X = [], limit = 128;
		    if (seed === (seed | 0)) {
		      // Numeric seeds initialize v, which is used to generates X.
		      v = seed;
		      seed = null;
		    } else {
		      // String seeds are mixed into v and X one character at a time.
		      seed = seed + '\0';
		      v = 0;
		      limit = Math.max(limit, seed.length);
		    }
		    // Initialize circular array and weyl value.
		    for (i = 0, j = -32; j < limit; ++j) {
		      // Put the unicode characters into the array, and shuffle them.
		      if (seed) v ^= seed.charCodeAt((j + 32) % seed.length);
		      // After 32 shuffles, take v as the starting w value.
		      if (j === 0) w = v;
		      v ^= v << 10;
		      v ^= v >>> 15;
		      v ^= v << 4;
		      v ^= v >>> 13;
		      if (j >= 0) {
		        w = (w + 0x61c88647) | 0;     // Weyl.
		        t = (X[j & 127] ^= (v + w));  // Combine xor and weyl to init array.
		        i = (0 == t) ? i + 1 : 0;     // Count zeroes.
		      }
		    }
		    // We have detected all zeroes; make the key nonzero.
		    if (i >= 128) {
		      X[(seed && seed.length || 0) & 127] = -1;
		    }
		    // Run the generator 512 times to further mix the state before using it.
		    // Factoring this as a function slows the main generator, so it is just
		    // unrolled here.  The weyl generator is not advanced while warming up.
		    i = 127;
		    for (j = 4 * 128; j > 0; --j) {
		      v = X[(i + 34) & 127];
		      t = X[i = ((i + 1) & 127)];
		      v ^= v << 13;
		      t ^= t << 17;
		      v ^= v >>> 15;
		      t ^= t >>> 12;
		      X[i] = v ^ t;
		    }
		    // Storing state as object members is faster than using closure variables.
		    me.w = w;
		    me.X = X;
		    me.i = i;
		  }

		  init(me, seed);
		}

		function copy(f, t) {
		  t.i = f.i;
		  t.w = f.w;
		  t.X = f.X.slice();
		  return t;
		}
		function impl(seed, opts) {
		  if (seed == null) seed = +(new Date);
		  var xg = new XorGen(seed),
		      state = opts && opts.state,
		      prng = function() { return (xg.next() >>> 0) / 0x100000000; };
		  prng.double = function() {
		    do {
		      var top = xg.next() >>> 11,
		          bot = (xg.next() >>> 0) / 0x100000000,
		          result = (top + bot) / (1 << 21);
		    } while (result === 0);
		    return result;
		  };
		  prng.int32 = xg.next;
		  prng.quick = prng;
		  if (state) {
		    if (state.X) copy(state, xg);
		    prng.state = function() { return copy(xg, {}); };
		  }
		  return prng;
		}

		if (module && module.exports) {
		  module.exports = impl;
		} else {
		  this.xor4096 = impl;
		}

		})(
		  xor4096,                                     // window object or global
		  module); 
	} (xor4096$1));
	return xor4096$1.exports;
}

var tychei$1 = {exports: {}};

var tychei = tychei$1.exports;

var hasRequiredTychei;

function requireTychei () {
	if (hasRequiredTychei) return tychei$1.exports;
	hasRequiredTychei = 1;
	(function (module) {
		// A Javascript implementaion of the "Tyche-i" prng algorithm by
		// Samuel Neves and Filipe Araujo.
		// See https://eden.dei.uc.pt/~sneves/pubs/2011-snfa2.pdf

		(function(global, module, define) {

		function XorGen(seed) {
		  var me = this, strseed = '';

		  // Set up generator function.
		  me.next = function() {
		    var b = me.b, c = me.c, d = me.d, a = me.a;
		    b = (b << 25) ^ (b >>> 7) ^ c;
		    c = (c - d) | 0;
		    d = (d << 24) ^ (d >>> 8) ^ a;
		    a = (a - b) | 0;
		    me.b = b = (b << 20) ^ (b >>> 12) ^ c;
		    me.c = c = (c - d) | 0;
		    me.d = (d << 16) ^ (c >>> 16) ^ a;
		    return me.a = (a - b) | 0;
		  };

		  /* The following is non-inverted tyche, which has better internal
		   * bit diffusion, but which is about 25% slower than tyche-i in JS.
		  me.next = function() {
		    var a = me.a, b = me.b, c = me.c, d = me.d;
		    a = (me.a + me.b | 0) >>> 0;
		    d = me.d ^ a; d = d << 16 ^ d >>> 16;
		    c = me.c + d | 0;
		    b = me.b ^ c; b = b << 12 ^ d >>> 20;
		    me.a = a = a + b | 0;
		    d = d ^ a; me.d = d = d << 8 ^ d >>> 24;
		    me.c = c = c + d | 0;
		    b = b ^ c;
		    return me.b = (b << 7 ^ b >>> 25);
		  }
		  */

		  me.a = 0;
		  me.b = 0;
		  me.c = 2654435769 | 0;
		  me.d = 1367130551;

		  if (seed === Math.floor(seed)) {
		    // Integer seed.
		    me.a = (seed / 0x100000000) | 0;
		    me.b = seed | 0;
		  } else {
		    // String seed.
		    strseed += seed;
		  }

		  // Mix in string seed, then discard an initial batch of 64 values.
		  for (var k = 0; k < strseed.length + 20; k++) {
		    me.b ^= strseed.charCodeAt(k) | 0;
		    me.next();
		  }
		}

		function copy(f, t) {
		  t.a = f.a;
		  t.b = f.b;
		  t.c = f.c;
		  t.d = f.d;
		  return t;
		}
		function impl(seed, opts) {
		  var xg = new XorGen(seed),
		      state = opts && opts.state,
		      prng = function() { return (xg.next() >>> 0) / 0x100000000; };
		  prng.double = function() {
		    do {
		      var top = xg.next() >>> 11,
		          bot = (xg.next() >>> 0) / 0x100000000,
		          result = (top + bot) / (1 << 21);
		    } while (result === 0);
		    return result;
		  };
		  prng.int32 = xg.next;
		  prng.quick = prng;
		  if (state) {
		    if (typeof(state) == 'object') copy(state, xg);
		    prng.state = function() { return copy(xg, {}); };
		  }
		  return prng;
		}

		if (module && module.exports) {
		  module.exports = impl;
		} else {
		  this.tychei = impl;
		}

		})(
		  tychei,
		  module); 
	} (tychei$1));
	return tychei$1.exports;
}

var seedrandom$3 = {exports: {}};

/*
Copyright 2019 David Bau.

Permission is hereby granted, free of charge, to any person obtaining
a copy of this software and associated documentation files (the
"Software"), to deal in the Software without restriction, including
without limitation the rights to use, copy, modify, merge, publish,
distribute, sublicense, and/or sell copies of the Software, and to
permit persons to whom the Software is furnished to do so, subject to
the following conditions:

The above copyright notice and this permission notice shall be
included in all copies or substantial portions of the Software.

THE SOFTWARE IS PROVIDED "AS IS", WITHOUT WARRANTY OF ANY KIND,
EXPRESS OR IMPLIED, INCLUDING BUT NOT LIMITED TO THE WARRANTIES OF
MERCHANTABILITY, FITNESS FOR A PARTICULAR PURPOSE AND NONINFRINGEMENT.
IN NO EVENT SHALL THE AUTHORS OR COPYRIGHT HOLDERS BE LIABLE FOR ANY
CLAIM, DAMAGES OR OTHER LIABILITY, WHETHER IN AN ACTION OF CONTRACT,
TORT OR OTHERWISE, ARISING FROM, OUT OF OR IN CONNECTION WITH THE
SOFTWARE OR THE USE OR OTHER DEALINGS IN THE SOFTWARE.

*/
var seedrandom$2 = seedrandom$3.exports;

var hasRequiredSeedrandom$1;

function requireSeedrandom$1 () {
	if (hasRequiredSeedrandom$1) return seedrandom$3.exports;
	hasRequiredSeedrandom$1 = 1;
	(function (module) {
		(function (global, pool, math) {
		//
		// The following constants are related to IEEE 754 limits.
		//

		var width = 256,        // each RC4 output is 0 <= x < 256
		    chunks = 6,         // at least six RC4 outputs for each double
		    digits = 52,        // there are 52 significant digits in a double
		    rngname = 'random', // rngname: name for Math.random and Math.seedrandom
		    startdenom = math.pow(width, chunks),
		    significance = math.pow(2, digits),
		    overflow = significance * 2,
		    mask = width - 1,
		    nodecrypto;         // node.js crypto module, initialized at the bottom.

		//
		// seedrandom()
		// This is the seedrandom function described above.
		//
		function seedrandom(seed, options, callback) {
		  var key = [];
		  options = (options == true) ? { entropy: true } : (options || {});

		  // Flatten the seed string or build one from local entropy if needed.
		  var shortseed = mixkey(flatten(
		    options.entropy ? [seed, tostring(pool)] :
		    (seed == null) ? autoseed() : seed, 3), key);

		  // Use the seed to initialize an ARC4 generator.
		  var arc4 = new ARC4(key);

		  // This function returns a random double in [0, 1) that contains
		  // randomness in every bit of the mantissa of the IEEE 754 value.
		  var prng = function() {
		    var n = arc4.g(chunks),             // Start with a numerator n < 2 ^ 48
		        d = startdenom,                 //   and denominator d = 2 ^ 48.
		        x = 0;                          //   and no 'extra last byte'.
		    while (n < significance) {          // Fill up all significant digits by
		      n = (n + x) * width;              //   shifting numerator and
		      d *= width;                       //   denominator and generating a
		      x = arc4.g(1);                    //   new least-significant-byte.
		    }
		    while (n >= overflow) {             // To avoid rounding up, before adding
		      n /= 2;                           //   last byte, shift everything
		      d /= 2;                           //   right using integer math until
		      x >>>= 1;                         //   we have exactly the desired bits.
		    }
		    return (n + x) / d;                 // Form the number within [0, 1).
		  };

		  prng.int32 = function() { return arc4.g(4) | 0; };
		  prng.quick = function() { return arc4.g(4) / 0x100000000; };
		  prng.double = prng;

		  // Mix the randomness into accumulated entropy.
		  mixkey(tostring(arc4.S), pool);

		  // Calling convention: what to return as a function of prng, seed, is_math.
		  return (options.pass || callback ||
		      function(prng, seed, is_math_call, state) {
		        if (state) {
		          // Load the arc4 state from the given state if it has an S array.
		          if (state.S) { copy(state, arc4); }
		          // Only provide the .state method if requested via options.state.
		          prng.state = function() { return copy(arc4, {}); };
		        }

		        // If called as a method of Math (Math.seedrandom()), mutate
		        // Math.random because that is how seedrandom.js has worked since v1.0.
		        if (is_math_call) { math[rngname] = prng; return seed; }

		        // Otherwise, it is a newer calling convention, so return the
		        // prng directly.
		        else return prng;
		      })(
		  prng,
		  shortseed,
		  'global' in options ? options.global : (this == math),
		  options.state);
		}

		//
		// ARC4
		//
		// An ARC4 implementation.  The constructor takes a key in the form of
		// an array of at most (width) integers that should be 0 <= x < (width).
		//
		// The g(count) method returns a pseudorandom integer that concatenates
		// the next (count) outputs from ARC4.  Its return value is a number x
		// that is in the range 0 <= x < (width ^ count).
		//
		function ARC4(key) {
		  var t, keylen = key.length,
		      me = this, i = 0, j = me.i = me.j = 0, s = me.S = [];

		  // The empty key [] is treated as [0].
		  if (!keylen) { key = [keylen++]; }

		  // Set up S using the standard key scheduling algorithm.
		  while (i < width) {
		    s[i] = i++;
		  }
		  for (i = 0; i < width; i++) {
		    s[i] = s[j = mask & (j + key[i % keylen] + (t = s[i]))];
		    s[j] = t;
		  }

		  // The "g" method returns the next (count) outputs as one number.
		  (me.g = function(count) {
		    // Using instance members instead of closure state nearly doubles speed.
		    var t, r = 0,
		        i = me.i, j = me.j, s = me.S;
		    while (count--) {
		      t = s[i = mask & (i + 1)];
		      r = r * width + s[mask & ((s[i] = s[j = mask & (j + t)]) + (s[j] = t))];
		    }
		    me.i = i; me.j = j;
		    return r;
		    // For robust unpredictability, the function call below automatically
		    // discards an initial batch of values.  This is called RC4-drop[256].
		    // See http://google.com/search?q=rsa+fluhrer+response&btnI
		  })(width);
		}

		//
		// copy()
		// Copies internal state of ARC4 to or from a plain object.
		//
		function copy(f, t) {
		  t.i = f.i;
		  t.j = f.j;
		  t.S = f.S.slice();
		  return t;
		}
		//
		// flatten()
		// Converts an object tree to nested arrays of strings.
		//
		function flatten(obj, depth) {
		  var result = [], typ = (typeof obj), prop;
		  if (depth && typ == 'object') {
		    for (prop in obj) {
		      try { result.push(flatten(obj[prop], depth - 1)); } catch (e) {}
		    }
		  }
		  return (result.length ? result : typ == 'string' ? obj : obj + '\0');
		}

		//
		// mixkey()
		// Mixes a string seed into a key that is an array of integers, and
		// returns a shortened string seed that is equivalent to the result key.
		//
		function mixkey(seed, key) {
		  var stringseed = seed + '', smear, j = 0;
		  while (j < stringseed.length) {
		    key[mask & j] =
		      mask & ((smear ^= key[mask & j] * 19) + stringseed.charCodeAt(j++));
		  }
		  return tostring(key);
		}

		//
		// autoseed()
		// Returns an object for autoseeding, using window.crypto and Node crypto
		// module if available.
		//
		function autoseed() {
		  try {
		    var out;
		    if (nodecrypto && (out = nodecrypto.randomBytes)) {
		      // The use of 'out' to remember randomBytes makes tight minified code.
		      out = out(width);
		    } else {
		      out = new Uint8Array(width);
		      (global.crypto || global.msCrypto).getRandomValues(out);
		    }
		    return tostring(out);
		  } catch (e) {
		    var browser = global.navigator,
		        plugins = browser && browser.plugins;
		    return [+new Date, global, plugins, global.screen, tostring(pool)];
		  }
		}

		//
		// tostring()
		// Converts an array of charcodes to a string
		//
		function tostring(a) {
		  return String.fromCharCode.apply(0, a);
		}

		//
		// When seedrandom.js is loaded, we immediately mix a few bits
		// from the built-in RNG into the entropy pool.  Because we do
		// not want to interfere with deterministic PRNG state later,
		// seedrandom will not call math.random on its own again after
		// initialization.
		//
		mixkey(math.random(), pool);

		//
		// Nodejs and AMD support: export the implementation as a module using
		// either convention.
		//
		if (module.exports) {
		  module.exports = seedrandom;
		  // When in node.js, try using crypto package for autoseeding.
		  try {
		    nodecrypto = require('crypto');
		  } catch (ex) {}
		} else {
		  // When included as a plain script, set up Math.seedrandom global.
		  math['seed' + rngname] = seedrandom;
		}


		// End anonymous scope, and pass initial values.
		})(
		  // global: `self` in browsers (including strict mode and web workers),
		  // otherwise `this` in Node and other environments
		  (typeof self !== 'undefined') ? self : seedrandom$2,
		  [],     // pool: entropy pool starts empty
		  Math    // math: package containing random, pow, and seedrandom
		); 
	} (seedrandom$3));
	return seedrandom$3.exports;
}

var seedrandom$1;
var hasRequiredSeedrandom;

function requireSeedrandom () {
	if (hasRequiredSeedrandom) return seedrandom$1;
	hasRequiredSeedrandom = 1;
	// A library of seedable RNGs implemented in Javascript.
	//
	// Usage:
	//
	// var seedrandom = require('seedrandom');
	// var random = seedrandom(1); // or any seed.
	// var x = random();       // 0 <= x < 1.  Every bit is random.
	// var x = random.quick(); // 0 <= x < 1.  32 bits of randomness.

	// alea, a 53-bit multiply-with-carry generator by Johannes Baagøe.
	// Period: ~2^116
	// Reported to pass all BigCrush tests.
	var alea = requireAlea();

	// xor128, a pure xor-shift generator by George Marsaglia.
	// Period: 2^128-1.
	// Reported to fail: MatrixRank and LinearComp.
	var xor128 = requireXor128();

	// xorwow, George Marsaglia's 160-bit xor-shift combined plus weyl.
	// Period: 2^192-2^32
	// Reported to fail: CollisionOver, SimpPoker, and LinearComp.
	var xorwow = requireXorwow();

	// xorshift7, by François Panneton and Pierre L'ecuyer, takes
	// a different approach: it adds robustness by allowing more shifts
	// than Marsaglia's original three.  It is a 7-shift generator
	// with 256 bits, that passes BigCrush with no systmatic failures.
	// Period 2^256-1.
	// No systematic BigCrush failures reported.
	var xorshift7 = requireXorshift7();

	// xor4096, by Richard Brent, is a 4096-bit xor-shift with a
	// very long period that also adds a Weyl generator. It also passes
	// BigCrush with no systematic failures.  Its long period may
	// be useful if you have many generators and need to avoid
	// collisions.
	// Period: 2^4128-2^32.
	// No systematic BigCrush failures reported.
	var xor4096 = requireXor4096();

	// Tyche-i, by Samuel Neves and Filipe Araujo, is a bit-shifting random
	// number generator derived from ChaCha, a modern stream cipher.
	// https://eden.dei.uc.pt/~sneves/pubs/2011-snfa2.pdf
	// Period: ~2^127
	// No systematic BigCrush failures reported.
	var tychei = requireTychei();

	// The original ARC4-based prng included in this library.
	// Period: ~2^1600
	var sr = requireSeedrandom$1();

	sr.alea = alea;
	sr.xor128 = xor128;
	sr.xorwow = xorwow;
	sr.xorshift7 = xorshift7;
	sr.xor4096 = xor4096;
	sr.tychei = tychei;

	seedrandom$1 = sr;
	return seedrandom$1;
}

var seedrandomExports = requireSeedrandom();
var seedrandom = /*@__PURE__*/getDefaultExportFromCjs(seedrandomExports);

/**
 * The portable seeded generator every resampling draw comes from.
 *
 * Algorithm: Richard Brent's xorgens xor4096 (a 4096-bit xorshift combined with a Weyl sequence;
 * period 2^4128 - 2^32; passes BigCrush) as implemented by `seedrandom` 3.0.5 (`seedrandom.xor4096`),
 * seeded with the string `helm-gate:<seed>[:<stream>]`. It uses only 32-bit integer operations, so
 * the stream is the same on every machine and Node version. Chosen with `bench/stats-rng.mjs`
 * (Node 20, one core): 4.8 ns per 32-bit draw and 6.2 ns per unbiased index, against 12.8 and
 * 16.5 ns for seedrandom's default ARC4 (30 ns for its 53-bit doubles, 7.8 ns here).
 * xor128 and xorwow are slightly faster but fail BigCrush tests; seedrandom's `tychei` is as fast
 * but its last mixing step (`d << 16 ^ c >>> 16`) departs from the published Tyche-i round, so it
 * is not the studied generator. Changing the algorithm or the seed string changes every published
 * interval: treat both as part of the report format.
 */
const TWO_POW_32$1 = 0x100000000;
function createRandom(seed, stream = '') {
    if (!isFiniteNumber(seed)) {
        throw new UsageError('stats.bad_seed', 'The statistics seed must be a finite number.', {
            field: 'statistics.seed',
            value: seed
        });
    }
    const prng = seedrandom.xor4096(stream ? `helm-gate:${seed}:${stream}` : `helm-gate:${seed}`);
    const int32 = prng.int32;
    return {
        int32,
        double: prng.double,
        below: (n) => uniformBelow(int32, n)
    };
}
/**
 * Unbiased integer in [0, n): accept a 32-bit draw only below the largest multiple of n that fits,
 * so every residue is equally likely (plain `floor(u * n)` over-weights some values by up to n/2^32).
 */
function uniformBelow(int32, n) {
    const bucket = floor(TWO_POW_32$1 / n);
    const limit = bucket * n;
    let u;
    do
        u = int32() >>> 0;
    while (u >= limit);
    return floor(u / bucket);
}

/**
 * Candidate/baseline ratios of quantiles of per-instance request times, with paired bootstrap
 * intervals. Information only: harness wait times are not serving latency under load.
 *
 * Cost. A resample's quantile needs no sort: each side's values are sorted once, a resample is
 * the number of times each instance was drawn, and the type-7 quantile is found by walking
 * those counts in value order (from the nearer end) to the one or two order statistics it
 * interpolates. The same resamples serve every requested quantile, and indices are taken two
 * per 32-bit draw (see `pairedIndices`). Measured by `bench/compare.mjs`.
 */
/** The generator stream every efficiency interval is drawn from (part of the report format). */
const RATIO_STREAM = 'ratio-quantiles';
/**
 * `baseline[i]` and `candidate[i]` belong to the same instance; a resample draws instances, so
 * both sides move together. Returns one estimate per entry of `qs`, each computed from the same
 * `settings.resamples` resamples.
 *
 * @param source where the resampled indices come from; by default the seeded stream RATIO_STREAM
 *               (tests pass other streams to compare with a reference implementation)
 */
function ratiosOfQuantiles(baseline, candidate, qs, settings, source) {
    checkConfidence(settings.confidence);
    checkResamples(settings.resamples, settings.confidence);
    for (const q of qs) {
        if (!(q >= 0 && q <= 1)) {
            throw new UsageError('stats.bad_quantile', 'A quantile must lie in [0, 1].', { value: q });
        }
    }
    const n = baseline.length;
    if (n === 0 || candidate.length !== n) {
        throw new GuardError('stats.ratio_unpaired', 'A quantile ratio needs the same, non-zero number of instances on both sides.', {
            value: { baseline: n, candidate: candidate.length }
        });
    }
    for (let i = 0; i < n; i++) {
        if (!isFiniteNumber(baseline[i]) || !isFiniteNumber(candidate[i])) {
            throw new GuardError('stats.non_finite', 'A request time is not a finite number.', {
                field: `[${i}]`,
                value: String(isFiniteNumber(baseline[i]) ? candidate[i] : baseline[i])
            });
        }
    }
    const base = new SortedSide(baseline);
    const cand = new SortedSide(candidate);
    const estimates = qs.map(q => {
        const baseQuantile = quantileSorted(base.sorted, q);
        if (!(baseQuantile > 0)) {
            throw new GuardError('stats.ratio_zero_baseline', 'The baseline quantile is not positive, so a ratio is undefined.', {
                value: baseQuantile
            });
        }
        return quantileSorted(cand.sorted, q) / baseQuantile;
    });
    const resamples = settings.resamples;
    const ratios = qs.map(() => new Float64Array(resamples));
    const drawn = new Int32Array(n);
    // Each resample's draws, tallied into `drawn` (how often each instance was drawn).
    const tally = pairedTally(createRandom(settings.seed, RATIO_STREAM), n) ;
    for (let r = 0; r < resamples; r++) {
        tally(drawn);
        for (let j = 0; j < qs.length; j++)
            ratios[j][r] = cand.resampledQuantile(drawn, qs[j]) / base.resampledQuantile(drawn, qs[j]);
    }
    return qs.map((_, j) => {
        const [low, high] = percentileInterval(ratios[j], settings.confidence);
        return { estimate: estimates[j], low, high };
    });
}
/** One side's values in ascending order, and which instance each sorted value belongs to. */
class SortedSide {
    sorted;
    /** order[j] = the instance whose value is the j-th smallest (ties by instance index). */
    order;
    constructor(values) {
        this.order = Int32Array.from(values.keys()).sort((a, b) => values[a] - values[b] || a - b);
        this.sorted = Float64Array.from(this.order, i => values[i]);
    }
    /**
     * Type-7 quantile of the resample in which instance i was drawn `drawn[i]` times (the counts
     * sum to n): the same number as `quantileSorted` on the resample's values sorted, found by
     * walking the counts in value order from the end nearer to the one or two order statistics
     * it interpolates.
     */
    resampledQuantile(drawn, q) {
        const order = this.order;
        const sorted = this.sorted;
        const n = sorted.length;
        const h = (n - 1) * q;
        const below = floor(h);
        const fraction = h - below;
        let a;
        let b;
        if (below < n / 2) {
            // From the bottom: `a` is the resample's order statistic `below`, `b` the next one.
            let seen = 0;
            let j = 0;
            while (seen + drawn[order[j]] <= below)
                seen += drawn[order[j++]];
            a = sorted[j];
            if (fraction === 0 || seen + drawn[order[j]] > below + 1)
                return a;
            j++;
            while (drawn[order[j]] === 0)
                j++;
            b = sorted[j];
        }
        else {
            // From the top: the resample's order statistic p is number n - 1 - p counted from the top.
            const fromTop = n - 1 - below;
            let seen = 0;
            let j = n - 1;
            if (fraction === 0) {
                while (seen + drawn[order[j]] <= fromTop)
                    seen += drawn[order[j--]];
                return sorted[j];
            }
            // `b` (order statistic below + 1) is number fromTop - 1 from the top; `a` the next one down.
            while (seen + drawn[order[j]] <= fromTop - 1)
                seen += drawn[order[j--]];
            b = sorted[j];
            if (seen + drawn[order[j]] > fromTop)
                return b;
            j--;
            while (drawn[order[j]] === 0)
                j--;
            a = sorted[j];
        }
        return a === b ? a : a + fraction * (b - a);
    }
}
const HALF_RANGE = 0x10000;
const TWO_POW_32 = 0x100000000;
function tallyFrom(source, n) {
    const indices = new Int32Array(n);
    return drawn => {
        source(indices);
        drawn.fill(0);
        for (let i = 0; i < n; i++)
            drawn[indices[i]]++;
    };
}
/**
 * `tallyFrom(pairedIndices(rng, n), n)` with the draws counted as they are made: the same
 * indices from the same stream (tested), without writing and re-reading an index array, which
 * was a third of the efficiency intervals' time (bench/compare.mjs).
 */
function pairedTally(rng, n) {
    if (n > HALF_RANGE)
        return tallyFrom(pairedIndices(rng, n), n);
    const int32 = rng.int32;
    const bucket = floor(HALF_RANGE / n);
    const limit = bucket * n;
    return drawn => {
        drawn.fill(0);
        let i = 0;
        while (i < n) {
            const u = int32() >>> 0;
            const high = u >>> 16;
            if (high < limit) {
                drawn[(high / bucket) | 0]++;
                i++;
            }
            const low = u & 0xffff;
            if (low < limit && i < n) {
                drawn[(low / bucket) | 0]++;
                i++;
            }
        }
    };
}
/**
 * Uniform indices in [0, n) from a seeded generator, two per 32-bit draw (its high and low 16
 * bits) when n <= 2^16, which halves the generator calls. Each half is accepted only below the
 * largest multiple of n under 2^16 (rejection per half), so every index is exactly equally likely
 * and the halves are independent: the same distribution as `rng.below(n)` index by index, from a
 * differently consumed stream. A low half left over when `out` is full is dropped: whether it is
 * used depends only on the position, never on its value, so independence holds. Above 2^16, one
 * unbiased 32-bit draw per index.
 */
function pairedIndices(rng, n) {
    const int32 = rng.int32;
    if (n > HALF_RANGE) {
        const bucket = floor(TWO_POW_32 / n);
        const limit = bucket * n;
        return out => {
            for (let i = 0; i < out.length; i++) {
                let u = int32() >>> 0;
                while (u >= limit)
                    u = int32() >>> 0;
                out[i] = floor(u / bucket);
            }
        };
    }
    const bucket = floor(HALF_RANGE / n);
    const limit = bucket * n;
    return out => {
        const length = out.length;
        let i = 0;
        while (i < length) {
            const u = int32() >>> 0;
            const high = u >>> 16;
            if (high < limit)
                out[i++] = (high / bucket) | 0;
            const low = u & 0xffff;
            if (low < limit && i < length)
                out[i++] = (low / bucket) | 0;
        }
    };
}

/**
 * The efficiency intervals (ratiosOfQuantiles) on a worker thread, so that they run while the
 * main thread computes the gated bootstrap instead of after it. Both are CPU-bound and about the
 * same size (measured by bench/compare.mjs: 10,000 resamples of 5,000 instances each), so on a
 * machine with two cores the pair takes the time of the longer one. The worker draws from the
 * same seeded stream with the same code, so every figure is identical to the in-process result.
 *
 * The worker is the bundled `ratio-worker.js` next to the running bundle (dist/). Where it does
 * not exist (the TypeScript sources under test) or cannot start, the same function runs in
 * process: the result is the same, only the overlap is lost.
 */
function sendError(error) {
    if (error instanceof GateError)
        return { kind: error.name, code: error.code, message: error.message, location: error.location };
    return { kind: 'Error', code: 'internal', message: error instanceof Error ? (error.stack ?? error.message) : String(error), location: {} };
}

/**
 * Entry of the efficiency worker thread (bundled as dist/ratio-worker.js; see off-thread.ts):
 * computes each task it is sent and posts the estimates, or the expected error, back.
 */
parentPort?.on('message', (task) => {
    let reply;
    try {
        reply = { id: task.id, estimates: ratiosOfQuantiles(task.baseline, task.candidate, task.qs, task.settings) };
    }
    catch (error) {
        reply = { id: task.id, error: sendError(error) };
    }
    parentPort?.postMessage(reply);
});
