import { readFile, mkdir, writeFile } from 'node:fs/promises';
import { resolve, dirname } from 'node:path';
import { a1 as InputError, af as createRandom, O as isCredentialKey, u as redactText, aF as quantile, aG as TRAFFIC_USAGE, U as UsageError, p as parseArgs, n as numberOption } from './cli.js';
import { createHash } from 'node:crypto';
import 'node:fs';
import 'node:os';
import 'node:url';
import 'node:worker_threads';
import 'node:string_decoder';
import 'node:readline';

/**
 * Reading one line of a request log into a record (docs/traffic.md, "Building a set"). The
 * shapes accepted, told apart by their keys:
 *
 * - a chat-completions request body: `{"messages": [...], ...}`;
 * - a Batch API input line: `{"custom_id", "method": "POST", "url": "/v1/chat/completions", "body"}`;
 * - a Batch API output line: `{"custom_id", "response": {"status_code", "body"}, "error"}`, joined
 *   to the input line with the same custom_id;
 * - a logged pair: `{"request": {...}, "response": {...} | null, "timestamp", "tag", "reference", "id"}`.
 *
 * A line that is none of these, or whose fields have the wrong type, is an error naming the file,
 * the line and the field: a set silently missing part of the log would misstate the traffic.
 */
const ROLES = new Set(['system', 'developer', 'user', 'assistant', 'tool']);
const CHAT_URLS = new Set(['/v1/chat/completions', '/chat/completions']);
/** Set per side by the gate, never taken from the log. */
const SET_PER_SIDE = ['model', 'stream', 'stream_options'];
function isObject(value) {
    return value !== null && typeof value === 'object' && !Array.isArray(value);
}
class Line {
    file;
    line;
    constructor(file, line) {
        this.file = file;
        this.line = line;
    }
    fail(field, message, value) {
        throw new InputError('traffic.bad_line', `line ${this.line}: ${message}`, {
            file: this.file,
            field: field === null ? `line ${this.line}` : `line ${this.line}: ${field}`,
            ...(value === undefined ? {} : { value })
        });
    }
}
function parseLogLine(text, file, line, options) {
    const at = new Line(file, line);
    let value;
    try {
        value = JSON.parse(text);
    }
    catch (error) {
        at.fail(null, `not JSON (${error.message})`);
    }
    if (!isObject(value))
        at.fail(null, 'must be a JSON object (a request body, a Batch API line or a {request, response} pair)');
    if ('custom_id' in value && 'body' in value)
        return batchInput(value, at, options);
    // Before the Batch output: a logged pair may carry a custom_id beside its request.
    if ('request' in value)
        return loggedPair(value, at, options);
    if ('custom_id' in value && 'response' in value)
        return batchOutput(value, at);
    if ('messages' in value)
        return chatBody(value, at, options);
    return at.fail(null, 'is not a chat request: expected "messages" (a chat-completions body), "custom_id" with "body" (Batch API input), "custom_id" with "response" (Batch API output) or "request" (a logged pair)', Object.keys(value).slice(0, 8));
}
function chatBody(value, at, options) {
    // Keys that are not part of the OpenAI body but that teams log beside it on the same line.
    const { reference, timestamp, [options.tagField]: tag, ...body } = value;
    return {
        kind: 'request',
        file: at.file,
        line: at.line,
        id: null,
        tag: tagOf(tag, options.tagField, at) ?? metadataTag(body, '', options, at),
        request: request(body, '', at),
        reference: referenceOf(reference, 'reference', at),
        response: null,
        timestamp: timestampOf(timestamp, 'timestamp', at)
    };
}
function batchInput(value, at, options) {
    const id = idOf(value.custom_id, 'custom_id', at);
    if (typeof value.url !== 'string')
        at.fail('url', 'a Batch API line needs url (e.g. "/v1/chat/completions")', value.url);
    if (!CHAT_URLS.has(value.url))
        return { kind: 'not-chat', file: at.file, line: at.line, url: value.url };
    if (value.method !== undefined && value.method !== 'POST')
        at.fail('method', 'a Batch API line must be a POST', value.method);
    if (!isObject(value.body))
        at.fail('body', 'must be the chat-completions request body (an object)');
    return {
        kind: 'request',
        file: at.file,
        line: at.line,
        id,
        tag: tagOf(value[options.tagField], options.tagField, at) ?? metadataTag(value.body, 'body.', options, at),
        request: request(value.body, 'body.', at),
        reference: referenceOf(value.reference, 'reference', at),
        response: null,
        timestamp: timestampOf(value.timestamp, 'timestamp', at)
    };
}
function batchOutput(value, at) {
    const customId = idOf(value.custom_id, 'custom_id', at);
    const failed = value.error !== null && value.error !== undefined;
    let response = null;
    if (!failed) {
        if (!isObject(value.response))
            at.fail('response', 'must be an object with status_code and body');
        const status = value.response.status_code;
        if (status === 200)
            response = completion(value.response.body, 'response.body', at);
    }
    return { kind: 'response', file: at.file, line: at.line, customId, response };
}
function loggedPair(value, at, options) {
    if (!isObject(value.request))
        at.fail('request', 'must be the chat-completions request body (an object)');
    return {
        kind: 'request',
        file: at.file,
        line: at.line,
        id: value.id !== undefined && value.id !== null ? idOf(value.id, 'id', at) : idOf(value.custom_id, 'custom_id', at),
        tag: tagOf(value[options.tagField], options.tagField, at) ?? metadataTag(value.request, 'request.', options, at),
        request: request(value.request, 'request.', at),
        reference: referenceOf(value.reference, 'reference', at),
        response: pairResponse(value.response, at),
        timestamp: timestampOf(value.timestamp, 'timestamp', at)
    };
}
/** The pair's answer: a chat completion, or one wrapped as in Batch output (`status_code`, `body`). */
function pairResponse(value, at) {
    if (value === null || value === undefined)
        return null;
    if (isObject(value) && 'status_code' in value && 'body' in value) {
        return value.status_code === 200 ? completion(value.body, 'response.body', at) : null;
    }
    return completion(value, 'response', at);
}
function request(body, prefix, at) {
    const messages = body.messages;
    if (!Array.isArray(messages) || messages.length === 0)
        at.fail(`${prefix}messages`, 'must be a non-empty list of chat messages', messages);
    messages.forEach((m, i) => message(m, `${prefix}messages[${i}]`, at));
    for (const key of ['max_tokens', 'max_completion_tokens']) {
        const n = body[key];
        if (n !== undefined && n !== null && !(typeof n === 'number' && Number.isInteger(n) && n >= 1)) {
            at.fail(`${prefix}${key}`, `${key} must be a positive integer`, n);
        }
    }
    const out = {};
    for (const [key, item] of Object.entries(body))
        if (!SET_PER_SIDE.includes(key))
            out[key] = item;
    return out;
}
function message(value, field, at) {
    if (!isObject(value))
        at.fail(field, 'must be a message object with role and content', value);
    if (typeof value.role !== 'string' || !ROLES.has(value.role)) {
        at.fail(`${field}.role`, `role must be one of ${[...ROLES].join(', ')}`, value.role);
    }
    const content = value.content;
    const hasCalls = Array.isArray(value.tool_calls) && value.tool_calls.length > 0;
    if (typeof content === 'string')
        return;
    if (Array.isArray(content)) {
        content.forEach((part, i) => {
            if (!isObject(part) || typeof part.type !== 'string')
                at.fail(`${field}.content[${i}]`, 'a content part needs a type', part);
        });
        return;
    }
    if ((content === null || content === undefined) && value.role === 'assistant' && hasCalls)
        return;
    at.fail(`${field}.content`, 'content must be a string or a list of parts (null only for an assistant turn with tool_calls)', content);
}
function completion(value, field, at) {
    if (!isObject(value) || !Array.isArray(value.choices) || value.choices.length === 0 || !isObject(value.choices[0])) {
        at.fail(`${field}.choices`, 'a logged response must be a chat completion with at least one choice');
    }
    const choice = value.choices[0];
    if (!isObject(choice.message))
        at.fail(`${field}.choices[0].message`, 'must be the answer message (an object)');
    const content = choice.message.content;
    if (content !== null && content !== undefined && typeof content !== 'string') {
        at.fail(`${field}.choices[0].message.content`, 'must be a string or null', content);
    }
    const out = { content: typeof content === 'string' ? content : null };
    if (Array.isArray(choice.message.tool_calls) && choice.message.tool_calls.length > 0)
        out.tool_calls = choice.message.tool_calls;
    if (typeof choice.finish_reason === 'string')
        out.finish_reason = choice.finish_reason;
    return out;
}
function idOf(value, field, at) {
    if (value === undefined || value === null)
        return null;
    if (typeof value === 'number' && Number.isFinite(value))
        return String(value);
    if (typeof value !== 'string' || value === '')
        at.fail(field, `${field} must be a non-empty string`, value);
    return value;
}
function tagOf(value, field, at) {
    if (value === undefined || value === null)
        return null;
    // A slash would make the stratum `<tag>/<bucket>` ambiguous; control characters would reach the
    // terminal in the printed summary; the tag names a stratum, not a document.
    if (typeof value !== 'string' || value.trim() === '' || value.includes('/') || /\p{Cc}/u.test(value) || value.length > 100) {
        at.fail(field, 'the tag must be a non-empty string of at most 100 characters, without "/" or control characters', value);
    }
    return value.trim();
}
function metadataTag(body, prefix, options, at) {
    const metadata = body.metadata;
    if (!isObject(metadata))
        return null;
    return tagOf(metadata[options.tagField], `${prefix}metadata.${options.tagField}`, at);
}
function referenceOf(value, field, at) {
    if (value === undefined || value === null)
        return null;
    if (typeof value !== 'string')
        at.fail(field, 'the reference answer must be a string', value);
    return value;
}
/**
 * ISO 8601 text, or a number of Unix seconds (fractions allowed, as OpenAI's `created`); a number
 * above 10^11 is taken as milliseconds (10^11 seconds is the year 5138).
 */
function timestampOf(value, field, at) {
    if (value === undefined || value === null)
        return null;
    if (typeof value === 'number' && Number.isFinite(value) && value >= 0)
        return value > 1e11 ? value : value * 1000;
    if (typeof value === 'string' && /^\d{4}-\d{2}-\d{2}T/.test(value)) {
        const ms = Date.parse(value);
        if (Number.isFinite(ms))
            return ms;
    }
    return at.fail(field, 'the timestamp must be ISO 8601 text or Unix seconds', value);
}

/**
 * Stratified, seeded sampling of a traffic set (docs/traffic.md, "Building a set"). Strata are the
 * tag crossed with a prompt-length bucket; each stratum gets a share proportional to its size
 * (largest remainders), with every stratum given at least one request when the count allows, so a
 * rare tag is not lost to rounding. Within a stratum a seeded shuffle picks the requests: the same
 * pool, count and seed give the same set on every machine.
 */
function bucketBounds(lengths) {
    if (lengths.length === 0)
        return { low: 0, high: 0 };
    const sorted = [...lengths].sort((a, b) => a - b);
    const at = (q) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
    return { low: at(1 / 3), high: at(2 / 3) };
}
function bucketOf(length, bounds) {
    if (length < bounds.low)
        return 'short';
    if (length < bounds.high)
        return 'medium';
    return 'long';
}
/**
 * How many to take from each stratum: proportional by largest remainders, at least one each when
 * `count` is at least the number of strata (else one each from the largest strata), never more
 * than a stratum has. Strata are visited in name order so ties break the same way every time.
 */
function allocate(sizes, count) {
    const names = [...sizes.keys()].sort();
    const total = names.reduce((s, n) => s + sizes.get(n), 0);
    const out = new Map(names.map(n => [n, 0]));
    if (count >= total) {
        for (const n of names)
            out.set(n, sizes.get(n));
        return out;
    }
    if (count < names.length) {
        const largest = [...names].sort((a, b) => sizes.get(b) - sizes.get(a) || (a < b ? -1 : 1));
        for (const n of largest.slice(0, count))
            out.set(n, 1);
        return out;
    }
    const quota = new Map(names.map(n => [n, (count * sizes.get(n)) / total]));
    for (const n of names)
        out.set(n, Math.min(sizes.get(n), Math.max(1, Math.floor(quota.get(n)))));
    let sum = names.reduce((s, n) => s + out.get(n), 0);
    const gap = (n) => quota.get(n) - out.get(n);
    while (sum < count) {
        const open = names.filter(n => out.get(n) < sizes.get(n));
        const next = open.reduce((best, n) => (gap(n) > gap(best) ? n : best), open[0]);
        out.set(next, out.get(next) + 1);
        sum++;
    }
    while (sum > count) {
        // The floor of one each overshot: take back from the strata most over their share.
        const over = names.filter(n => out.get(n) > 1);
        const next = over.reduce((best, n) => (gap(n) < gap(best) ? n : best), over[0]);
        out.set(next, out.get(next) - 1);
        sum--;
    }
    return out;
}
/** `take` of `items` chosen by a seeded shuffle of the stratum's own stream, in their original order. */
function pick(items, take, seed, stratum) {
    if (take >= items.length)
        return [...items];
    const random = createRandom(seed, `traffic:${stratum}`);
    const order = items.map((_, i) => i);
    for (let i = order.length - 1; i > 0; i--) {
        const j = random.below(i + 1);
        [order[i], order[j]] = [order[j], order[i]];
    }
    return order
        .slice(0, take)
        .sort((a, b) => a - b)
        .map(i => items[i]);
}

/**
 * Scrubbing what must not go into a repository from a traffic record: credentials (the project's
 * one redactor, secrets/redact.ts, over the whole text, so a key inside a sentence, a URL, a JSON
 * value or a multi-line block goes and the rest stays), e-mail addresses and phone numbers. Every
 * replacement is counted by kind, so the summary says what was taken out.
 *
 * Phone numbers are found by layout, not with a numbering-plan library (libphonenumber-js): the
 * scrubber must over-match any number written like a phone number in any country, while such a
 * library needs a default region for national formats (`06 12 34 56 78`, `98765 43210`, `555-0123`
 * are found only when the right country is guessed) and keeps only numbers valid in a known plan
 * (bench/phone-matchers.mjs measures both on the same corpus). Bare digit runs are left alone
 * (order numbers, amounts, ids): a phone number is `+` and 7-15 digits, or digit groups joined by
 * spaces, dots, dashes or parentheses, 7-15 digits in all.
 */
const PLACEHOLDERS = { secret: '[secret]', email: '[email]', phone: '[phone]' };
function noCounts() {
    return { secret: 0, email: 0, phone: 0 };
}
const EMAIL = /[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,}/g;
// `+` and 7-15 digits, or two or more digit groups (a group in parentheses too) joined by one
// space, dot, dash or a parenthesis. Not inside a word, a version, a path or a longer number: the
// look-behind and look-ahead refuse a digit group run on either side, so a number too long to be
// a phone number is left whole rather than cut into a phone-sized piece.
const PHONE = /(?<![\w+.\-/:@#$€£%,]|\d[ .-])(?:\+\d{7,15}|(?:\+[ ]?)?(?:\(\d{1,5}\)[ .-]?|\d{1,8}(?:[ .-]|(?=\()))(?:\(\d{1,5}\)[ .-]?|\d{1,8}[ .-])*\d{1,8})(?![\w+]|[ .,\-/:]\d)/g;
const DATE = /(?:^|\D)(?:\d{4}[-./]\d{1,2}[-./]\d{1,2}|\d{1,2}[-./]\d{1,2}[-./]\d{4})(?:\D|$)/;
/** Whether a digit-group run found by PHONE is written as a phone number is (see the docs). */
function isPhoneLayout(match) {
    const digits = match.replace(/\D/g, '').length;
    if (digits < 7 || digits > 15)
        return false;
    // Dates (2024-05-01, 01.05.2024, a date followed by an hour) are digit groups too.
    if (DATE.test(match))
        return false;
    const international = match.startsWith('+');
    const groups = [...match.matchAll(/\(?\d+\)?/g)].map(group => group[0]);
    const dotted = /^\+?[\d.]+$/.test(match);
    // Dot-joined groups with a one-digit group are a version (10.0.19041.1234) or an amount
    // (1.234.567); two dot-joined groups are a decimal number; four groups of at most three digits
    // an IPv4 address.
    if (dotted && !international && (groups.length === 2 || groups.some(group => group.length === 1)))
        return false;
    if (dotted && /^\d{1,3}\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(match))
        return false;
    // A list or range of years (2019 2020 2021, 1990-2020).
    if (!international && groups.every(group => /^(?:19|20)\d\d$/.test(group)))
        return false;
    // A one-digit group is a trunk or country prefix at the start (1 800 555 0199, 8 (495) ...), the
    // first group after a country code (+33 6 12 34 56 78, +81 3-1234-5678) or in parentheses
    // ((0)20); anywhere else the digits are a list or an ISBN, not a phone number.
    if (groups.some((group, index) => /^\d$/.test(group) && index > (international ? 1 : 0)))
        return false;
    return true;
}
/** A string with credentials, e-mail addresses and phone numbers replaced, counting each. */
function scrubText(text, counts) {
    let out = redactText(text, PLACEHOLDERS.secret, () => counts.secret++);
    out = out.replace(EMAIL, () => {
        counts.email++;
        return PLACEHOLDERS.email;
    });
    out = out.replace(PHONE, match => {
        if (!isPhoneLayout(match))
            return match;
        counts.phone++;
        return PLACEHOLDERS.phone;
    });
    return out;
}
/**
 * A copy of a JSON value with every string scrubbed, every value under a credential-like key
 * (`api_key`, `password`, ...) replaced whole, and the JSON held in strings (tool-call
 * `arguments`) scrubbed as JSON, so a key name inside it is seen too.
 */
function scrubValue(value, counts, depth = 64) {
    if (typeof value === 'string')
        return scrubJsonString(value, counts, depth);
    if (value === null || typeof value !== 'object')
        return value;
    if (depth <= 0) {
        // Deeper than any real request: hidden whole rather than walked without end.
        counts.secret++;
        return PLACEHOLDERS.secret;
    }
    if (Array.isArray(value))
        return value.map(item => scrubValue(item, counts, depth - 1));
    const out = {};
    for (const [key, item] of Object.entries(value)) {
        if (isCredentialKey(key) && typeof item === 'string' && item !== '') {
            counts.secret++;
            out[key] = PLACEHOLDERS.secret;
        }
        else
            out[key] = scrubValue(item, counts, depth - 1);
    }
    return out;
}
function scrubJsonString(text, counts, depth) {
    const trimmed = text.trim();
    if ((trimmed.startsWith('{') && trimmed.endsWith('}')) || (trimmed.startsWith('[') && trimmed.endsWith(']'))) {
        try {
            const parsed = JSON.parse(trimmed);
            const before = { ...counts };
            const scrubbed = scrubValue(parsed, counts, depth - 1);
            // Unchanged JSON keeps its own bytes (spacing, key order), so only scrubbed text differs.
            const changed = Object.keys(counts).some(k => counts[k] !== before[k]);
            return changed ? JSON.stringify(scrubbed) : text;
        }
        catch {
            // Not JSON after all: scrubbed as text.
        }
    }
    return scrubText(text, counts);
}
/** Removes the named top-level request fields (`--drop-field`); returns the names that were there. */
function dropFields(request, names) {
    const dropped = [];
    for (const name of names) {
        if (name in request) {
            delete request[name];
            dropped.push(name);
        }
    }
    return dropped;
}

/**
 * `helm-gate traffic build`, the pure part (docs/traffic.md, "Building a set"): log lines in, the
 * frozen set and its summary out. Order of the steps, and why:
 *
 * 1. every line parsed (an error names the file, line and field; other endpoints are an error, or
 *    a counted skip with `skipNonChat`), Batch API output lines joined to their input lines;
 * 2. fields kept out of the set removed, then every string scrubbed (credentials, e-mail
 *    addresses, phone numbers), before deduplication, so two requests that differ only in an
 *    address are one request in the set;
 * 3. duplicates removed: the same messages after whitespace normalisation (the first one kept);
 * 4. stratified by tag and prompt-length bucket, and sampled with the seed (sample.ts).
 *
 * The output is a function of the inputs, the options and the seed only: no clock, no machine.
 */
/**
 * Request fields left out by default: `user` identifies an end user, `metadata` and `store` are
 * the team's logging settings; none of them changes the answer.
 */
const DEFAULT_DROPPED_FIELDS = ['user', 'metadata', 'store'];
function buildTrafficSet(files, options) {
    const read = readLogs(files, options);
    joinResponses(read.requests, read.responses);
    const candidates = scrubbedCandidates(read.requests, options);
    const { pool, duplicates } = removeDuplicates(candidates);
    if (pool.length === 0) {
        throw new InputError('traffic.empty', 'the logs hold no chat request', { file: files.map(f => f.name).join(', ') });
    }
    const bounds = bucketBounds(pool.map(c => c.length));
    const strata = stratify(pool, bounds);
    const shares = allocate(new Map([...strata].map(([name, items]) => [name, items.length])), options.count);
    const { sample, stratumOf } = sampleStrata(pool, strata, shares, options.seed);
    const arrivals = sample.length > 0 && sample.every(c => c.record.timestamp !== null);
    const instances = toInstances(sample, stratumOf, arrivals);
    checkUniqueIds(sample, instances);
    const notes = buildNotes(sample, pool, strata, shares, options.count, arrivals);
    const summary = {
        seed: options.seed,
        count_requested: options.count,
        count_written: instances.length,
        tag_field: options.tagField,
        inputs: read.inputs,
        requests_read: read.requests.length,
        skipped_not_chat: read.skipped,
        duplicates_removed: duplicates,
        distinct_requests: pool.length,
        length_buckets: { short: `< ${bounds.low} chars`, medium: `${bounds.low}-${bounds.high - 1} chars`, long: `>= ${bounds.high} chars` },
        strata: [...strata.keys()].sort().map(name => ({
            stratum: name,
            available: strata.get(name).length,
            sampled: shares.get(name)
        })),
        prompt_chars: promptChars(sample.map(c => c.length)),
        ...scrubTotals(sample),
        with_reference: instances.filter(i => i.reference !== null).length,
        with_logged_response: instances.filter(i => i.logged_response !== null).length,
        with_arrival: arrivals,
        notes
    };
    return { instances, summary };
}
/** Step 1: every line of every file parsed, requests and Batch API outputs kept apart. */
function readLogs(files, options) {
    const read = { requests: [], responses: new Map(), inputs: [], skipped: 0 };
    for (const file of files) {
        const input = { file: file.name, requests: 0, responses: 0, skipped_not_chat: 0 };
        file.text.split('\n').forEach((text, i) => {
            if (text.trim() === '')
                return;
            const record = parseLogLine(text, file.name, i + 1, { tagField: options.tagField });
            if (record.kind === 'request') {
                read.requests.push(record);
                input.requests++;
            }
            else if (record.kind === 'response') {
                const earlier = read.responses.get(record.customId);
                if (earlier) {
                    throw new InputError('traffic.duplicate_id', `line ${record.line}: a second Batch API output for one custom_id`, {
                        file: record.file,
                        field: `line ${record.line}: custom_id`,
                        value: record.customId
                    });
                }
                read.responses.set(record.customId, record);
                input.responses++;
            }
            else {
                if (!options.skipNonChat) {
                    throw new InputError('traffic.not_chat', `line ${record.line}: a Batch API request for ${record.url}, not chat completions (give --skip-non-chat to count and skip such lines)`, { file: record.file, field: `line ${record.line}: url`, value: record.url });
                }
                input.skipped_not_chat++;
                read.skipped++;
            }
        });
        read.inputs.push(input);
    }
    return read;
}
/** Step 2: fields dropped and strings scrubbed, with the keys deduplication compares. */
function scrubbedCandidates(requests, options) {
    const dropped = [...new Set([...DEFAULT_DROPPED_FIELDS, ...options.dropFields])];
    return requests.map((record, index) => {
        const counts = noCounts();
        const copy = { ...record.request };
        const removed = dropFields(copy, dropped);
        const request = scrubValue(copy, counts);
        const reference = record.reference === null ? null : scrubValue(record.reference, counts);
        const response = record.response === null ? null : scrubValue(record.response, counts);
        return {
            record,
            request,
            reference,
            response,
            counts,
            removed,
            length: promptLength(request.messages),
            // Digests, not the JSON itself: a log of 100,000 requests held twice more as text was
            // most of the build's memory.
            key: digest(JSON.stringify(request.messages.map(normalised))),
            exact: digest(JSON.stringify(request)),
            position: index + 1
        };
    });
}
/** Step 3: the first of each near-duplicate key kept, the others counted as exact or near. */
function removeDuplicates(candidates) {
    const seen = new Map();
    const duplicates = { exact: 0, near: 0 };
    for (const c of candidates) {
        const first = seen.get(c.key);
        if (!first)
            seen.set(c.key, c);
        else if (first.exact === c.exact)
            duplicates.exact++;
        else
            duplicates.near++;
    }
    return { pool: [...seen.values()], duplicates };
}
/** Step 4a: the distinct requests grouped by tag and length bucket, in the log's order. */
function stratify(pool, bounds) {
    const strata = new Map();
    for (const c of pool) {
        const name = `${c.record.tag ?? 'all'}/${bucketOf(c.length, bounds)}`;
        const members = strata.get(name);
        if (members)
            members.push(c);
        else
            strata.set(name, [c]);
    }
    return strata;
}
/** Step 4b: each stratum's share picked with the seed. */
function sampleStrata(pool, strata, shares, seed) {
    const chosen = new Set();
    const stratumOf = new Map();
    for (const [name, items] of strata) {
        for (const c of pick(items, shares.get(name), seed, name)) {
            chosen.add(c);
            stratumOf.set(c, name);
        }
    }
    // The set keeps the log's order (files as given, then lines): a reviewer reads it as it happened.
    return { sample: pool.filter(c => chosen.has(c)), stratumOf };
}
function toInstances(sample, stratumOf, arrivals) {
    // Loops, not Math.min(...xs): a spread of a few hundred thousand arguments overflows the stack.
    const first = sample.reduce((m, c) => Math.min(m, c.record.timestamp ?? Infinity), Infinity);
    // Ids from the log's position, not the set's: the same request keeps its id whatever the seed.
    return sample.map(c => ({
        id: c.record.id ?? `t-${c.position}`,
        stratum: stratumOf.get(c),
        tag: c.record.tag,
        request: c.request,
        reference: c.reference,
        logged_response: c.response,
        arrival_ms: arrivals ? Math.round(c.record.timestamp - first) : null
    }));
}
/** A log id and a `t-<n>` id can meet in the set: the second one is an error. */
function checkUniqueIds(sample, instances) {
    const ids = new Map();
    sample.forEach((c, i) => {
        const other = ids.get(instances[i].id);
        if (other) {
            throw new InputError('traffic.duplicate_id', `line ${c.record.line}: the id is already used by ${other.record.file} line ${other.record.line}`, {
                file: c.record.file,
                field: `line ${c.record.line}: id`,
                value: instances[i].id
            });
        }
        ids.set(instances[i].id, c);
    });
}
/** The summary's notes: what the set could not do as asked. */
function buildNotes(sample, pool, strata, shares, count, arrivals) {
    const withTimes = sample.filter(c => c.record.timestamp !== null).length;
    const notes = [];
    if (withTimes > 0 && !arrivals) {
        notes.push(`${withTimes} of ${sample.length} sampled requests had a timestamp: arrival_ms is left out (it needs every one)`);
    }
    if (count > pool.length) {
        notes.push(`the log has ${pool.length} distinct requests, fewer than the ${count} asked for: all of them are in the set`);
    }
    const missing = [...strata.keys()].filter(name => shares.get(name) === 0);
    if (missing.length > 0)
        notes.push(`${missing.length} strata got no request (the count is below the number of strata): ${missing.join(', ')}`);
    return notes;
}
/** Replacements and removed fields summed over the written set. */
function scrubTotals(sample) {
    const replacements = noCounts();
    const fieldsRemoved = {};
    for (const c of sample) {
        for (const kind of Object.keys(replacements))
            replacements[kind] += c.counts[kind];
        for (const name of c.removed)
            fieldsRemoved[name] = (fieldsRemoved[name] ?? 0) + 1;
    }
    const sorted = Object.fromEntries(Object.entries(fieldsRemoved).sort(([a], [b]) => (a < b ? -1 : 1)));
    return { replacements, fields_removed: sorted };
}
function promptChars(lengths) {
    if (lengths.length === 0)
        return null;
    return {
        min: lengths.reduce((m, n) => Math.min(m, n), Infinity),
        p50: Math.round(quantile(lengths, 0.5)),
        p90: Math.round(quantile(lengths, 0.9)),
        p99: Math.round(quantile(lengths, 0.99)),
        max: lengths.reduce((m, n) => Math.max(m, n), 0)
    };
}
/** Batch API outputs onto their inputs; an output without its input is an error, not dropped. */
function joinResponses(requests, responses) {
    const byId = new Map();
    for (const r of requests) {
        if (r.id === null)
            continue;
        const earlier = byId.get(r.id);
        if (earlier) {
            throw new InputError('traffic.duplicate_id', `line ${r.line}: the id is already used by ${earlier.file} line ${earlier.line}`, {
                file: r.file,
                field: `line ${r.line}: custom_id`,
                value: r.id
            });
        }
        byId.set(r.id, r);
    }
    for (const [id, out] of responses) {
        const input = byId.get(id);
        if (!input) {
            throw new InputError('traffic.unmatched_response', `line ${out.line}: a Batch API output whose custom_id is in no input line`, {
                file: out.file,
                field: `line ${out.line}: custom_id`,
                value: id
            });
        }
        if (input.response === null)
            input.response = out.response;
    }
}
function digest(text) {
    return createHash('sha256').update(text).digest('base64');
}
/** The text of a message's content: a string, or the text of its parts. */
function contentText(content) {
    if (typeof content === 'string')
        return content;
    if (Array.isArray(content)) {
        return content.map(p => (p && typeof p.text === 'string' ? p.text : '')).join('\n');
    }
    return '';
}
/** Prompt length in characters: every message's text and tool-call arguments. */
function promptLength(messages) {
    let n = 0;
    for (const m of messages) {
        n += contentText(m.content).length;
        for (const call of m.tool_calls ?? []) {
            const args = call.function?.arguments;
            if (typeof args === 'string')
                n += args.length;
        }
    }
    return n;
}
/** A message with its text's whitespace collapsed: the near-duplicate key. */
function normalised(m) {
    const squash = (s) => s.replace(/\s+/g, ' ').trim();
    const content = typeof m.content === 'string'
        ? squash(m.content)
        : Array.isArray(m.content)
            ? m.content.map(p => p && typeof p.text === 'string' ? { ...p, text: squash(p.text) } : p)
            : m.content;
    return { ...m, content };
}
/** The summary as printed for review. */
function renderSummary(summary, outFile, summaryFile) {
    const lines = [];
    lines.push(`Traffic set: ${summary.count_written} requests written to ${outFile} (asked for ${summary.count_requested}, seed ${summary.seed})`);
    lines.push(`Read ${summary.requests_read} requests from ${summary.inputs.length} file(s); ${summary.skipped_not_chat} non-chat lines skipped; duplicates removed: ${summary.duplicates_removed.exact} exact, ${summary.duplicates_removed.near} near (whitespace); ${summary.distinct_requests} distinct`);
    lines.push(`Length buckets (prompt characters): short ${summary.length_buckets.short}, medium ${summary.length_buckets.medium}, long ${summary.length_buckets.long}`);
    lines.push('Strata (sampled / available):');
    const width = Math.max(...summary.strata.map(s => s.stratum.length), 8);
    for (const s of summary.strata)
        lines.push(`  ${s.stratum.padEnd(width)}  ${String(s.sampled).padStart(5)} / ${s.available}`);
    const p = summary.prompt_chars;
    if (p)
        lines.push(`Prompt characters: min ${p.min}, p50 ${p.p50}, p90 ${p.p90}, p99 ${p.p99}, max ${p.max}`);
    const r = summary.replacements;
    lines.push(`Scrubbed in the set: ${r.secret} credentials, ${r.email} e-mail addresses, ${r.phone} phone numbers`);
    const removed = Object.entries(summary.fields_removed);
    lines.push(`Fields removed: ${removed.length ? removed.map(([k, n]) => `${k} (${n})`).join(', ') : 'none'}`);
    lines.push(`With a reference: ${summary.with_reference}; with a logged response: ${summary.with_logged_response}; arrival times: ${summary.with_arrival ? 'yes' : 'no'}`);
    for (const note of summary.notes)
        lines.push(`Note: ${note}`);
    lines.push(`Summary: ${summaryFile}`);
    return `${lines.join('\n')}\n`;
}

/**
 * `helm-gate traffic build LOG... --out FILE --count N`: a frozen traffic set from request logs
 * (docs/traffic.md, "Building a set"). Reads the logs, writes the set and its summary beside it
 * (`<name>.summary.json`), and prints the summary for review.
 */
const SPECS = {
    out: { value: true },
    count: { value: true },
    seed: { value: true },
    'tag-field': { value: true },
    'drop-field': { value: true },
    'skip-non-chat': { value: false },
    quiet: { value: false },
    debug: { value: false },
    help: { value: false }
};
async function trafficCommand(argv, io) {
    const [sub, ...rest] = argv;
    if (sub === '--help' || sub === '-h' || sub === 'help') {
        io.stdout(TRAFFIC_USAGE);
        return 0;
    }
    if (sub !== 'build') {
        throw new UsageError('usage.command', `${sub === undefined ? 'give a traffic command' : `unknown traffic command ${JSON.stringify(sub)}`}\n\n${TRAFFIC_USAGE}`, sub === undefined ? {} : { value: sub });
    }
    const args = parseArgs(rest, SPECS);
    if (args.flags.has('help')) {
        io.stdout(TRAFFIC_USAGE);
        return 0;
    }
    const out = args.options.get('out');
    if (!out)
        throw new UsageError('usage.missing', `give the set to write with --out FILE\n\n${TRAFFIC_USAGE}`);
    if (!out.endsWith('.jsonl'))
        throw new UsageError('usage.value', '--out must name a .jsonl file', { field: '--out', value: out });
    const count = numberOption(args, 'count', n => Number.isInteger(n) && n >= 1 && n <= 1_000_000, 'an integer from 1 to 1000000');
    if (count === undefined)
        throw new UsageError('usage.missing', `give how many requests to sample with --count N\n\n${TRAFFIC_USAGE}`);
    const seed = numberOption(args, 'seed', n => Number.isInteger(n) && n >= 0 && n < 2 ** 32, 'an integer from 0 to 2^32-1') ?? 0;
    const tagField = args.options.get('tag-field') ?? 'tag';
    if (tagField.trim() === '')
        throw new UsageError('usage.value', '--tag-field must name a key', { field: '--tag-field', value: tagField });
    const dropFields = (args.options.get('drop-field') ?? '')
        .split(',')
        .map(s => s.trim())
        .filter(Boolean);
    if (args.positionals.length === 0)
        throw new UsageError('usage.missing', `give at least one log file\n\n${TRAFFIC_USAGE}`);
    const files = [];
    for (const name of args.positionals) {
        const path = resolve(io.cwd, name);
        try {
            files.push({ name, text: await readFile(path, 'utf8') });
        }
        catch (error) {
            throw new InputError('input.missing', `cannot read the log: ${error.message}`, { file: name });
        }
    }
    const { instances, summary } = buildTrafficSet(files, { count, seed, tagField, dropFields, skipNonChat: args.flags.has('skip-non-chat') });
    const outPath = resolve(io.cwd, out);
    const summaryName = `${out.slice(0, -'.jsonl'.length)}.summary.json`;
    await write(outPath, instances.map(i => `${JSON.stringify(i)}\n`).join(''));
    await write(resolve(io.cwd, summaryName), `${JSON.stringify(summary, null, 2)}\n`);
    if (!args.flags.has('quiet'))
        io.stdout(renderSummary(summary, out, summaryName));
    return 0;
}
async function write(file, text) {
    try {
        await mkdir(dirname(file), { recursive: true });
        await writeFile(file, text);
    }
    catch (error) {
        throw new InputError('output.unwritable', `cannot write ${file}: ${error.message}`, { file });
    }
}

export { trafficCommand };
