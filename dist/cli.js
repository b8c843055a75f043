#!/usr/bin/env node
import { readFile, open, stat, readdir, realpath, mkdir, writeFile } from 'node:fs/promises';
import { createHash } from 'node:crypto';
import { readFileSync, createReadStream, existsSync } from 'node:fs';
import path, { resolve as resolve$1, join, dirname } from 'node:path';
import { StringDecoder } from 'node:string_decoder';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';

const RUNNER_PLACEHOLDERS = ['entry', 'model', 'output', 'max_eval_instances', 'seed'];
const COMMAND_OUTPUTS = ['helm', 'lm-eval'];
const PLACEHOLDER = /(\$?)\{([^{}]*)\}/g;
/** Reads `deployments.<side>` with a `command`; every problem names the field and value. */
function parseCommandDeployment(f) {
    if (f.has('launch'))
        f.fail('launch', `${f.at('launch')} cannot be combined with command: a runner command side serves nothing to launch`);
    f.allow(['command', 'model', 'seed', 'command_output']);
    const list = f.list('command');
    if (list === null || list.length === 0) {
        f.fail('command', `${f.at('command')} must list the program and its arguments, e.g. [python, -m, flexllmgen.apps.helm_run, ...]`, list);
    }
    const used = new Set();
    const command = list.map((item, i) => {
        if (typeof item === 'number' && Number.isFinite(item))
            return String(item);
        if (typeof item !== 'string' || item === '') {
            f.fail('command', `${f.at('command')}[${i}] must be a non-empty string (one argument; no shell is involved)`, item);
        }
        for (const match of item.matchAll(PLACEHOLDER)) {
            if (match[1] === '$')
                continue;
            const name = match[2];
            if (!RUNNER_PLACEHOLDERS.includes(name)) {
                f.fail('command', `${f.at('command')}[${i}] has an unknown placeholder {${name}}; known: ${RUNNER_PLACEHOLDERS.map(p => `{${p}}`).join(', ')}`, item);
            }
            used.add(name);
        }
        return item;
    });
    if (used.has('output') === false) {
        f.fail('command', `${f.at('command')} must pass {output}, the folder its run directories are read from`, command.join(' '));
    }
    if (used.has('entry') === false) {
        f.fail('command', `${f.at('command')} must pass {entry}: the command runs once per gate entry`, command.join(' '));
    }
    if (command[0].includes('{'))
        f.fail('command', `${f.at('command')}[0] is the program and cannot be a placeholder`, command[0]);
    const model = f.string('model', null);
    if (used.has('model') && model === null)
        f.fail('model', `${f.at('model')} is required: the command uses {model}`, null);
    const seed = f.integer('seed', 0, 0);
    const output = f.choice('command_output', COMMAND_OUTPUTS, 'helm');
    f.done();
    return { kind: 'command', command, model, seed, output };
}
/** Only a runner command side has an output kind to declare; elsewhere the key is a mistake worth naming. */
function refuseCommandOutput(f) {
    if (f.has('command_output')) {
        f.fail('command_output', `${f.at('command_output')} applies only to a side made by a runner command (deployments.<side>.command)`);
    }
}
/**
 * Both sides must write the same kind of output: HELM's and lm-eval's prompts, metrics and scoring
 * differ, so a HELM side against an lm-eval side could only ever be an error, found here before
 * anything runs rather than after both sides have.
 */
function checkCommandOutputsAgree(f, baseline, candidate) {
    const kindOf = (d) => (d.kind === 'command' ? (d.output ?? 'helm') : 'helm');
    const b = kindOf(baseline);
    const c = kindOf(candidate);
    if (b === c)
        return;
    const describe = (d) => d.kind === 'command' ? `a runner command with command_output: ${kindOf(d)}` : `a ${d.kind} side, which helm-run makes HELM output for`;
    f.fail('candidate', `deployments.baseline is ${describe(baseline)} and deployments.candidate ${describe(candidate)}; both sides must write the same kind of output (set command_output alike on both)`, { baseline: b, candidate: c });
}
/** The command's arguments for one entry, every placeholder replaced (pure). */
function expandRunnerCommand(command, values) {
    return command.map(arg => arg.replace(PLACEHOLDER, (whole, dollar, name) => dollar === '' && name in values ? values[name] : whole));
}

const ALIAS = Symbol.for('yaml.alias');
const DOC = Symbol.for('yaml.document');
const MAP = Symbol.for('yaml.map');
const PAIR = Symbol.for('yaml.pair');
const SCALAR$1 = Symbol.for('yaml.scalar');
const SEQ = Symbol.for('yaml.seq');
const NODE_TYPE = Symbol.for('yaml.node.type');
const isAlias = (node) => !!node && typeof node === 'object' && node[NODE_TYPE] === ALIAS;
const isDocument = (node) => !!node && typeof node === 'object' && node[NODE_TYPE] === DOC;
const isMap = (node) => !!node && typeof node === 'object' && node[NODE_TYPE] === MAP;
const isPair = (node) => !!node && typeof node === 'object' && node[NODE_TYPE] === PAIR;
const isScalar = (node) => !!node && typeof node === 'object' && node[NODE_TYPE] === SCALAR$1;
const isSeq = (node) => !!node && typeof node === 'object' && node[NODE_TYPE] === SEQ;
function isCollection(node) {
    if (node && typeof node === 'object')
        switch (node[NODE_TYPE]) {
            case MAP:
            case SEQ:
                return true;
        }
    return false;
}
function isNode(node) {
    if (node && typeof node === 'object')
        switch (node[NODE_TYPE]) {
            case ALIAS:
            case MAP:
            case SCALAR$1:
            case SEQ:
                return true;
        }
    return false;
}
const hasAnchor = (node) => (isScalar(node) || isCollection(node)) && !!node.anchor;

const BREAK = Symbol('break visit');
const SKIP = Symbol('skip children');
const REMOVE = Symbol('remove node');
/**
 * Apply a visitor to an AST node or document.
 *
 * Walks through the tree (depth-first) starting from `node`, calling a
 * `visitor` function with three arguments:
 *   - `key`: For sequence values and map `Pair`, the node's index in the
 *     collection. Within a `Pair`, `'key'` or `'value'`, correspondingly.
 *     `null` for the root node.
 *   - `node`: The current node.
 *   - `path`: The ancestry of the current node.
 *
 * The return value of the visitor may be used to control the traversal:
 *   - `undefined` (default): Do nothing and continue
 *   - `visit.SKIP`: Do not visit the children of this node, continue with next
 *     sibling
 *   - `visit.BREAK`: Terminate traversal completely
 *   - `visit.REMOVE`: Remove the current node, then continue with the next one
 *   - `Node`: Replace the current node, then continue by visiting it
 *   - `number`: While iterating the items of a sequence or map, set the index
 *     of the next step. This is useful especially if the index of the current
 *     node has changed.
 *
 * If `visitor` is a single function, it will be called with all values
 * encountered in the tree, including e.g. `null` values. Alternatively,
 * separate visitor functions may be defined for each `Map`, `Pair`, `Seq`,
 * `Alias` and `Scalar` node. To define the same visitor function for more than
 * one node type, use the `Collection` (map and seq), `Value` (map, seq & scalar)
 * and `Node` (alias, map, seq & scalar) targets. Of all these, only the most
 * specific defined one will be used for each node.
 */
function visit(node, visitor) {
    const visitor_ = initVisitor(visitor);
    if (isDocument(node)) {
        const cd = visit_(null, node.contents, visitor_, Object.freeze([node]));
        if (cd === REMOVE)
            node.contents = null;
    }
    else
        visit_(null, node, visitor_, Object.freeze([]));
}
// Without the `as symbol` casts, TS declares these in the `visit`
// namespace using `var`, but then complains about that because
// `unique symbol` must be `const`.
/** Terminate visit traversal completely */
visit.BREAK = BREAK;
/** Do not visit the children of the current node */
visit.SKIP = SKIP;
/** Remove the current node */
visit.REMOVE = REMOVE;
function visit_(key, node, visitor, path) {
    const ctrl = callVisitor(key, node, visitor, path);
    if (isNode(ctrl) || isPair(ctrl)) {
        replaceNode(key, path, ctrl);
        return visit_(key, ctrl, visitor, path);
    }
    if (typeof ctrl !== 'symbol') {
        if (isCollection(node)) {
            path = Object.freeze(path.concat(node));
            for (let i = 0; i < node.items.length; ++i) {
                const ci = visit_(i, node.items[i], visitor, path);
                if (typeof ci === 'number')
                    i = ci - 1;
                else if (ci === BREAK)
                    return BREAK;
                else if (ci === REMOVE) {
                    node.items.splice(i, 1);
                    i -= 1;
                }
            }
        }
        else if (isPair(node)) {
            path = Object.freeze(path.concat(node));
            const ck = visit_('key', node.key, visitor, path);
            if (ck === BREAK)
                return BREAK;
            else if (ck === REMOVE)
                node.key = null;
            const cv = visit_('value', node.value, visitor, path);
            if (cv === BREAK)
                return BREAK;
            else if (cv === REMOVE)
                node.value = null;
        }
    }
    return ctrl;
}
function initVisitor(visitor) {
    if (typeof visitor === 'object' &&
        (visitor.Collection || visitor.Node || visitor.Value)) {
        return Object.assign({
            Alias: visitor.Node,
            Map: visitor.Node,
            Scalar: visitor.Node,
            Seq: visitor.Node
        }, visitor.Value && {
            Map: visitor.Value,
            Scalar: visitor.Value,
            Seq: visitor.Value
        }, visitor.Collection && {
            Map: visitor.Collection,
            Seq: visitor.Collection
        }, visitor);
    }
    return visitor;
}
function callVisitor(key, node, visitor, path) {
    if (typeof visitor === 'function')
        return visitor(key, node, path);
    if (isMap(node))
        return visitor.Map?.(key, node, path);
    if (isSeq(node))
        return visitor.Seq?.(key, node, path);
    if (isPair(node))
        return visitor.Pair?.(key, node, path);
    if (isScalar(node))
        return visitor.Scalar?.(key, node, path);
    if (isAlias(node))
        return visitor.Alias?.(key, node, path);
    return undefined;
}
function replaceNode(key, path, node) {
    const parent = path[path.length - 1];
    if (isCollection(parent)) {
        parent.items[key] = node;
    }
    else if (isPair(parent)) {
        if (key === 'key')
            parent.key = node;
        else
            parent.value = node;
    }
    else if (isDocument(parent)) {
        parent.contents = node;
    }
    else {
        const pt = isAlias(parent) ? 'alias' : 'scalar';
        throw new Error(`Cannot replace node with ${pt} parent`);
    }
}

const escapeChars = {
    '!': '%21',
    ',': '%2C',
    '[': '%5B',
    ']': '%5D',
    '{': '%7B',
    '}': '%7D'
};
const escapeTagName = (tn) => tn.replace(/[!,[\]{}]/g, ch => escapeChars[ch]);
class Directives {
    constructor(yaml, tags) {
        /**
         * The directives-end/doc-start marker `---`. If `null`, a marker may still be
         * included in the document's stringified representation.
         */
        this.docStart = null;
        /** The doc-end marker `...`.  */
        this.docEnd = false;
        this.yaml = Object.assign({}, Directives.defaultYaml, yaml);
        this.tags = Object.assign({}, Directives.defaultTags, tags);
    }
    clone() {
        const copy = new Directives(this.yaml, this.tags);
        copy.docStart = this.docStart;
        return copy;
    }
    /**
     * During parsing, get a Directives instance for the current document and
     * update the stream state according to the current version's spec.
     */
    atDocument() {
        const res = new Directives(this.yaml, this.tags);
        switch (this.yaml.version) {
            case '1.1':
                this.atNextDocument = true;
                break;
            case '1.2':
                this.atNextDocument = false;
                this.yaml = {
                    explicit: Directives.defaultYaml.explicit,
                    version: '1.2'
                };
                this.tags = Object.assign({}, Directives.defaultTags);
                break;
        }
        return res;
    }
    /**
     * @param onError - May be called even if the action was successful
     * @returns `true` on success
     */
    add(line, onError) {
        if (this.atNextDocument) {
            this.yaml = { explicit: Directives.defaultYaml.explicit, version: '1.1' };
            this.tags = Object.assign({}, Directives.defaultTags);
            this.atNextDocument = false;
        }
        const parts = line.trim().split(/[ \t]+/);
        const name = parts.shift();
        switch (name) {
            case '%TAG': {
                if (parts.length !== 2) {
                    onError(0, '%TAG directive should contain exactly two parts');
                    if (parts.length < 2)
                        return false;
                }
                const [handle, prefix] = parts;
                this.tags[handle] = prefix;
                return true;
            }
            case '%YAML': {
                this.yaml.explicit = true;
                if (parts.length !== 1) {
                    onError(0, '%YAML directive should contain exactly one part');
                    return false;
                }
                const [version] = parts;
                if (version === '1.1' || version === '1.2') {
                    this.yaml.version = version;
                    return true;
                }
                else {
                    const isValid = /^\d+\.\d+$/.test(version);
                    onError(6, `Unsupported YAML version ${version}`, isValid);
                    return false;
                }
            }
            default:
                onError(0, `Unknown directive ${name}`, true);
                return false;
        }
    }
    /**
     * Resolves a tag, matching handles to those defined in %TAG directives.
     *
     * @returns Resolved tag, which may also be the non-specific tag `'!'` or a
     *   `'!local'` tag, or `null` if unresolvable.
     */
    tagName(source, onError) {
        if (source === '!')
            return '!'; // non-specific tag
        if (source[0] !== '!') {
            onError(`Not a valid tag: ${source}`);
            return null;
        }
        if (source[1] === '<') {
            const verbatim = source.slice(2, -1);
            if (verbatim === '!' || verbatim === '!!') {
                onError(`Verbatim tags aren't resolved, so ${source} is invalid.`);
                return null;
            }
            if (source[source.length - 1] !== '>')
                onError('Verbatim tags must end with a >');
            return verbatim;
        }
        const [, handle, suffix] = source.match(/^(.*!)([^!]*)$/s);
        if (!suffix)
            onError(`The ${source} tag has no suffix`);
        const prefix = this.tags[handle];
        if (prefix) {
            try {
                return prefix + decodeURIComponent(suffix);
            }
            catch (error) {
                onError(String(error));
                return null;
            }
        }
        if (handle === '!')
            return source; // local tag
        onError(`Could not resolve tag: ${source}`);
        return null;
    }
    /**
     * Given a fully resolved tag, returns its printable string form,
     * taking into account current tag prefixes and defaults.
     */
    tagString(tag) {
        for (const [handle, prefix] of Object.entries(this.tags)) {
            if (tag.startsWith(prefix))
                return handle + escapeTagName(tag.substring(prefix.length));
        }
        return tag[0] === '!' ? tag : `!<${tag}>`;
    }
    toString(doc) {
        const lines = this.yaml.explicit
            ? [`%YAML ${this.yaml.version || '1.2'}`]
            : [];
        const tagEntries = Object.entries(this.tags);
        let tagNames;
        if (doc && tagEntries.length > 0 && isNode(doc.contents)) {
            const tags = {};
            visit(doc.contents, (_key, node) => {
                if (isNode(node) && node.tag)
                    tags[node.tag] = true;
            });
            tagNames = Object.keys(tags);
        }
        else
            tagNames = [];
        for (const [handle, prefix] of tagEntries) {
            if (handle === '!!' && prefix === 'tag:yaml.org,2002:')
                continue;
            if (!doc || tagNames.some(tn => tn.startsWith(prefix)))
                lines.push(`%TAG ${handle} ${prefix}`);
        }
        return lines.join('\n');
    }
}
Directives.defaultYaml = { explicit: false, version: '1.2' };
Directives.defaultTags = { '!!': 'tag:yaml.org,2002:' };

/**
 * Verify that the input string is a valid anchor.
 *
 * Will throw on errors.
 */
function anchorIsValid(anchor) {
    if (/[\x00-\x19\s,[\]{}]/.test(anchor)) {
        const sa = JSON.stringify(anchor);
        const msg = `Anchor must not contain whitespace or control characters: ${sa}`;
        throw new Error(msg);
    }
    return true;
}
function anchorNames(root) {
    const anchors = new Set();
    visit(root, {
        Value(_key, node) {
            if (node.anchor)
                anchors.add(node.anchor);
        }
    });
    return anchors;
}
/** Find a new anchor name with the given `prefix` and a one-indexed suffix. */
function findNewAnchor(prefix, exclude) {
    for (let i = 1; true; ++i) {
        const name = `${prefix}${i}`;
        if (!exclude.has(name))
            return name;
    }
}
function createNodeAnchors(doc, prefix) {
    const aliasObjects = [];
    const sourceObjects = new Map();
    let prevAnchors = null;
    return {
        onAnchor: (source) => {
            aliasObjects.push(source);
            prevAnchors ?? (prevAnchors = anchorNames(doc));
            const anchor = findNewAnchor(prefix, prevAnchors);
            prevAnchors.add(anchor);
            return anchor;
        },
        /**
         * With circular references, the source node is only resolved after all
         * of its child nodes are. This is why anchors are set only after all of
         * the nodes have been created.
         */
        setAnchors: () => {
            for (const source of aliasObjects) {
                const ref = sourceObjects.get(source);
                if (typeof ref === 'object' &&
                    ref.anchor &&
                    (isScalar(ref.node) || isCollection(ref.node))) {
                    ref.node.anchor = ref.anchor;
                }
                else {
                    const error = new Error('Failed to resolve repeated object (this should not happen)');
                    error.source = source;
                    throw error;
                }
            }
        },
        sourceObjects
    };
}

/**
 * Applies the JSON.parse reviver algorithm as defined in the ECMA-262 spec,
 * in section 24.5.1.1 "Runtime Semantics: InternalizeJSONProperty" of the
 * 2021 edition: https://tc39.es/ecma262/#sec-json.parse
 *
 * Includes extensions for handling Map and Set objects.
 */
function applyReviver(reviver, obj, key, val) {
    if (val && typeof val === 'object') {
        if (Array.isArray(val)) {
            for (let i = 0, len = val.length; i < len; ++i) {
                const v0 = val[i];
                const v1 = applyReviver(reviver, val, String(i), v0);
                // eslint-disable-next-line @typescript-eslint/no-array-delete
                if (v1 === undefined)
                    delete val[i];
                else if (v1 !== v0)
                    val[i] = v1;
            }
        }
        else if (val instanceof Map) {
            for (const k of Array.from(val.keys())) {
                const v0 = val.get(k);
                const v1 = applyReviver(reviver, val, k, v0);
                if (v1 === undefined)
                    val.delete(k);
                else if (v1 !== v0)
                    val.set(k, v1);
            }
        }
        else if (val instanceof Set) {
            for (const v0 of Array.from(val)) {
                const v1 = applyReviver(reviver, val, v0, v0);
                if (v1 === undefined)
                    val.delete(v0);
                else if (v1 !== v0) {
                    val.delete(v0);
                    val.add(v1);
                }
            }
        }
        else {
            for (const [k, v0] of Object.entries(val)) {
                const v1 = applyReviver(reviver, val, k, v0);
                if (v1 === undefined)
                    delete val[k];
                else if (v1 !== v0)
                    val[k] = v1;
            }
        }
    }
    return reviver.call(obj, key, val);
}

/**
 * Recursively convert any node or its contents to native JavaScript
 *
 * @param value - The input value
 * @param arg - If `value` defines a `toJSON()` method, use this
 *   as its first argument
 * @param ctx - Conversion context, originally set in Document#toJS(). If
 *   `{ keep: true }` is not set, output should be suitable for JSON
 *   stringification.
 */
function toJS(value, arg, ctx) {
    // eslint-disable-next-line @typescript-eslint/no-unsafe-return
    if (Array.isArray(value))
        return value.map((v, i) => toJS(v, String(i), ctx));
    if (value && typeof value.toJSON === 'function') {
        // eslint-disable-next-line @typescript-eslint/no-unsafe-call
        if (!ctx || !hasAnchor(value))
            return value.toJSON(arg, ctx);
        const data = { aliasCount: 0, count: 1, res: undefined };
        ctx.anchors.set(value, data);
        ctx.onCreate = res => {
            data.res = res;
            delete ctx.onCreate;
        };
        const res = value.toJSON(arg, ctx);
        if (ctx.onCreate)
            ctx.onCreate(res);
        return res;
    }
    if (typeof value === 'bigint' && !ctx?.keep)
        return Number(value);
    return value;
}

class NodeBase {
    constructor(type) {
        Object.defineProperty(this, NODE_TYPE, { value: type });
    }
    /** Create a copy of this node.  */
    clone() {
        const copy = Object.create(Object.getPrototypeOf(this), Object.getOwnPropertyDescriptors(this));
        if (this.range)
            copy.range = this.range.slice();
        return copy;
    }
    /** A plain JavaScript representation of this node. */
    toJS(doc, { mapAsMap, maxAliasCount, onAnchor, reviver } = {}) {
        if (!isDocument(doc))
            throw new TypeError('A document argument is required');
        const ctx = {
            anchors: new Map(),
            doc,
            keep: true,
            mapAsMap: mapAsMap === true,
            mapKeyWarned: false,
            maxAliasCount: typeof maxAliasCount === 'number' ? maxAliasCount : 100
        };
        const res = toJS(this, '', ctx);
        if (typeof onAnchor === 'function')
            for (const { count, res } of ctx.anchors.values())
                onAnchor(res, count);
        return typeof reviver === 'function'
            ? applyReviver(reviver, { '': res }, '', res)
            : res;
    }
}

class Alias extends NodeBase {
    constructor(source) {
        super(ALIAS);
        this.source = source;
        Object.defineProperty(this, 'tag', {
            set() {
                throw new Error('Alias nodes cannot have tags');
            }
        });
    }
    /**
     * Resolve the value of this alias within `doc`, finding the last
     * instance of the `source` anchor before this node.
     */
    resolve(doc, ctx) {
        if (ctx?.maxAliasCount === 0)
            throw new ReferenceError('Alias resolution is disabled');
        let nodes;
        if (ctx?.aliasResolveCache) {
            nodes = ctx.aliasResolveCache;
        }
        else {
            nodes = [];
            visit(doc, {
                Node: (_key, node) => {
                    if (isAlias(node) || hasAnchor(node))
                        nodes.push(node);
                }
            });
            if (ctx)
                ctx.aliasResolveCache = nodes;
        }
        let found = undefined;
        for (const node of nodes) {
            if (node === this)
                break;
            if (node.anchor === this.source)
                found = node;
        }
        if (found && ctx) {
            const { anchors, doc, maxAliasCount } = ctx;
            let data = anchors.get(found);
            if (!data) {
                // Resolve anchors for Node.prototype.toJS()
                toJS(found, null, ctx);
                data = anchors.get(found);
            }
            /* istanbul ignore if */
            if (data?.res === undefined) {
                const msg = 'This should not happen: Alias anchor was not resolved?';
                throw new ReferenceError(msg);
            }
            if (maxAliasCount >= 0) {
                data.count += 1;
                if (data.aliasCount === 0)
                    data.aliasCount = getAliasCount(doc, found, anchors);
                if (data.count * data.aliasCount > maxAliasCount) {
                    const msg = 'Excessive alias count indicates a resource exhaustion attack';
                    throw new ReferenceError(msg);
                }
            }
        }
        return found;
    }
    toJSON(_arg, ctx) {
        if (!ctx)
            return { source: this.source };
        const source = this.resolve(ctx.doc, ctx);
        if (!source) {
            const msg = `Unresolved alias (the anchor must be set before the alias): ${this.source}`;
            throw new ReferenceError(msg);
        }
        return ctx.anchors.get(source).res;
    }
    toString(ctx, _onComment, _onChompKeep) {
        const src = `*${this.source}`;
        if (ctx) {
            anchorIsValid(this.source);
            if (ctx.options.verifyAliasOrder && !ctx.anchors.has(this.source)) {
                const msg = `Unresolved alias (the anchor must be set before the alias): ${this.source}`;
                throw new Error(msg);
            }
            if (ctx.implicitKey)
                return `${src} `;
        }
        return src;
    }
}
function getAliasCount(doc, node, anchors) {
    if (isAlias(node)) {
        const source = node.resolve(doc);
        const anchor = anchors && source && anchors.get(source);
        return anchor ? anchor.count * anchor.aliasCount : 0;
    }
    else if (isCollection(node)) {
        let count = 0;
        for (const item of node.items) {
            const c = getAliasCount(doc, item, anchors);
            if (c > count)
                count = c;
        }
        return count;
    }
    else if (isPair(node)) {
        const kc = getAliasCount(doc, node.key, anchors);
        const vc = getAliasCount(doc, node.value, anchors);
        return Math.max(kc, vc);
    }
    return 1;
}

const isScalarValue = (value) => !value || (typeof value !== 'function' && typeof value !== 'object');
class Scalar extends NodeBase {
    constructor(value) {
        super(SCALAR$1);
        this.value = value;
    }
    toJSON(arg, ctx) {
        return ctx?.keep ? this.value : toJS(this.value, arg, ctx);
    }
    toString() {
        return String(this.value);
    }
}
Scalar.BLOCK_FOLDED = 'BLOCK_FOLDED';
Scalar.BLOCK_LITERAL = 'BLOCK_LITERAL';
Scalar.PLAIN = 'PLAIN';
Scalar.QUOTE_DOUBLE = 'QUOTE_DOUBLE';
Scalar.QUOTE_SINGLE = 'QUOTE_SINGLE';

const defaultTagPrefix = 'tag:yaml.org,2002:';
function findTagObject(value, tagName, tags) {
    if (tagName) {
        const match = tags.filter(t => t.tag === tagName);
        const tagObj = match.find(t => !t.format) ?? match[0];
        if (!tagObj)
            throw new Error(`Tag ${tagName} not found`);
        return tagObj;
    }
    return tags.find(t => t.identify?.(value) && !t.format);
}
function createNode(value, tagName, ctx) {
    if (isDocument(value))
        value = value.contents;
    if (isNode(value))
        return value;
    if (isPair(value)) {
        const map = ctx.schema[MAP].createNode?.(ctx.schema, null, ctx);
        map.items.push(value);
        return map;
    }
    if (value instanceof String ||
        value instanceof Number ||
        value instanceof Boolean ||
        (typeof BigInt !== 'undefined' && value instanceof BigInt) // not supported everywhere
    ) {
        // https://tc39.es/ecma262/#sec-serializejsonproperty
        value = value.valueOf();
    }
    const { aliasDuplicateObjects, onAnchor, onTagObj, schema, sourceObjects } = ctx;
    // Detect duplicate references to the same object & use Alias nodes for all
    // after first. The `ref` wrapper allows for circular references to resolve.
    let ref = undefined;
    if (aliasDuplicateObjects && value && typeof value === 'object') {
        ref = sourceObjects.get(value);
        if (ref) {
            ref.anchor ?? (ref.anchor = onAnchor(value));
            return new Alias(ref.anchor);
        }
        else {
            ref = { anchor: null, node: null };
            sourceObjects.set(value, ref);
        }
    }
    if (tagName?.startsWith('!!'))
        tagName = defaultTagPrefix + tagName.slice(2);
    let tagObj = findTagObject(value, tagName, schema.tags);
    if (!tagObj) {
        if (value && typeof value.toJSON === 'function') {
            // eslint-disable-next-line @typescript-eslint/no-unsafe-call
            value = value.toJSON();
        }
        if (!value || typeof value !== 'object') {
            const node = new Scalar(value);
            if (ref)
                ref.node = node;
            return node;
        }
        tagObj =
            value instanceof Map
                ? schema[MAP]
                : Symbol.iterator in Object(value)
                    ? schema[SEQ]
                    : schema[MAP];
    }
    if (onTagObj) {
        onTagObj(tagObj);
        delete ctx.onTagObj;
    }
    const node = tagObj?.createNode
        ? tagObj.createNode(ctx.schema, value, ctx)
        : typeof tagObj?.nodeClass?.from === 'function'
            ? tagObj.nodeClass.from(ctx.schema, value, ctx)
            : new Scalar(value);
    if (tagName)
        node.tag = tagName;
    else if (!tagObj.default)
        node.tag = tagObj.tag;
    if (ref)
        ref.node = node;
    return node;
}

function collectionFromPath(schema, path, value) {
    let v = value;
    for (let i = path.length - 1; i >= 0; --i) {
        const k = path[i];
        if (typeof k === 'number' && Number.isInteger(k) && k >= 0) {
            const a = [];
            a[k] = v;
            v = a;
        }
        else {
            v = new Map([[k, v]]);
        }
    }
    return createNode(v, undefined, {
        aliasDuplicateObjects: false,
        keepUndefined: false,
        onAnchor: () => {
            throw new Error('This should not happen, please report a bug.');
        },
        schema,
        sourceObjects: new Map()
    });
}
// Type guard is intentionally a little wrong so as to be more useful,
// as it does not cover untypable empty non-string iterables (e.g. []).
const isEmptyPath = (path) => path == null ||
    (typeof path === 'object' && !!path[Symbol.iterator]().next().done);
class Collection extends NodeBase {
    constructor(type, schema) {
        super(type);
        Object.defineProperty(this, 'schema', {
            value: schema,
            configurable: true,
            enumerable: false,
            writable: true
        });
    }
    /**
     * Create a copy of this collection.
     *
     * @param schema - If defined, overwrites the original's schema
     */
    clone(schema) {
        const copy = Object.create(Object.getPrototypeOf(this), Object.getOwnPropertyDescriptors(this));
        if (schema)
            copy.schema = schema;
        copy.items = copy.items.map(it => isNode(it) || isPair(it) ? it.clone(schema) : it);
        if (this.range)
            copy.range = this.range.slice();
        return copy;
    }
    /**
     * Adds a value to the collection. For `!!map` and `!!omap` the value must
     * be a Pair instance or a `{ key, value }` object, which may not have a key
     * that already exists in the map.
     */
    addIn(path, value) {
        if (isEmptyPath(path))
            this.add(value);
        else {
            const [key, ...rest] = path;
            const node = this.get(key, true);
            if (isCollection(node))
                node.addIn(rest, value);
            else if (node === undefined && this.schema)
                this.set(key, collectionFromPath(this.schema, rest, value));
            else
                throw new Error(`Expected YAML collection at ${key}. Remaining path: ${rest}`);
        }
    }
    /**
     * Removes a value from the collection.
     * @returns `true` if the item was found and removed.
     */
    deleteIn(path) {
        const [key, ...rest] = path;
        if (rest.length === 0)
            return this.delete(key);
        const node = this.get(key, true);
        if (isCollection(node))
            return node.deleteIn(rest);
        else
            throw new Error(`Expected YAML collection at ${key}. Remaining path: ${rest}`);
    }
    /**
     * Returns item at `key`, or `undefined` if not found. By default unwraps
     * scalar values from their surrounding node; to disable set `keepScalar` to
     * `true` (collections are always returned intact).
     */
    getIn(path, keepScalar) {
        const [key, ...rest] = path;
        const node = this.get(key, true);
        if (rest.length === 0)
            return !keepScalar && isScalar(node) ? node.value : node;
        else
            return isCollection(node) ? node.getIn(rest, keepScalar) : undefined;
    }
    hasAllNullValues(allowScalar) {
        return this.items.every(node => {
            if (!isPair(node))
                return false;
            const n = node.value;
            return (n == null ||
                (allowScalar &&
                    isScalar(n) &&
                    n.value == null &&
                    !n.commentBefore &&
                    !n.comment &&
                    !n.tag));
        });
    }
    /**
     * Checks if the collection includes a value with the key `key`.
     */
    hasIn(path) {
        const [key, ...rest] = path;
        if (rest.length === 0)
            return this.has(key);
        const node = this.get(key, true);
        return isCollection(node) ? node.hasIn(rest) : false;
    }
    /**
     * Sets a value in this collection. For `!!set`, `value` needs to be a
     * boolean to add/remove the item from the set.
     */
    setIn(path, value) {
        const [key, ...rest] = path;
        if (rest.length === 0) {
            this.set(key, value);
        }
        else {
            const node = this.get(key, true);
            if (isCollection(node))
                node.setIn(rest, value);
            else if (node === undefined && this.schema)
                this.set(key, collectionFromPath(this.schema, rest, value));
            else
                throw new Error(`Expected YAML collection at ${key}. Remaining path: ${rest}`);
        }
    }
}

/**
 * Stringifies a comment.
 *
 * Empty comment lines are left empty,
 * lines consisting of a single space are replaced by `#`,
 * and all other lines are prefixed with a `#`.
 */
const stringifyComment = (str) => str.replace(/^(?!$)(?: $)?/gm, '#');
function indentComment(comment, indent) {
    if (/^\n+$/.test(comment))
        return comment.substring(1);
    return indent ? comment.replace(/^(?! *$)/gm, indent) : comment;
}
const lineComment = (str, indent, comment) => str.endsWith('\n')
    ? indentComment(comment, indent)
    : comment.includes('\n')
        ? '\n' + indentComment(comment, indent)
        : (str.endsWith(' ') ? '' : ' ') + comment;

const FOLD_FLOW = 'flow';
const FOLD_BLOCK = 'block';
const FOLD_QUOTED = 'quoted';
/**
 * Tries to keep input at up to `lineWidth` characters, splitting only on spaces
 * not followed by newlines or spaces unless `mode` is `'quoted'`. Lines are
 * terminated with `\n` and started with `indent`.
 */
function foldFlowLines(text, indent, mode = 'flow', { indentAtStart, lineWidth = 80, minContentWidth = 20, onFold, onOverflow } = {}) {
    if (!lineWidth || lineWidth < 0)
        return text;
    if (lineWidth < minContentWidth)
        minContentWidth = 0;
    const endStep = Math.max(1 + minContentWidth, 1 + lineWidth - indent.length);
    if (text.length <= endStep)
        return text;
    const folds = [];
    const escapedFolds = {};
    let end = lineWidth - indent.length;
    if (typeof indentAtStart === 'number') {
        if (indentAtStart > lineWidth - Math.max(2, minContentWidth))
            folds.push(0);
        else
            end = lineWidth - indentAtStart;
    }
    let split = undefined;
    let prev = undefined;
    let overflow = false;
    let i = -1;
    let escStart = -1;
    let escEnd = -1;
    if (mode === FOLD_BLOCK) {
        i = consumeMoreIndentedLines(text, i, indent.length);
        if (i !== -1)
            end = i + endStep;
    }
    for (let ch; (ch = text[(i += 1)]);) {
        if (mode === FOLD_QUOTED && ch === '\\') {
            escStart = i;
            switch (text[i + 1]) {
                case 'x':
                    i += 3;
                    break;
                case 'u':
                    i += 5;
                    break;
                case 'U':
                    i += 9;
                    break;
                default:
                    i += 1;
            }
            escEnd = i;
        }
        if (ch === '\n') {
            if (mode === FOLD_BLOCK)
                i = consumeMoreIndentedLines(text, i, indent.length);
            end = i + indent.length + endStep;
            split = undefined;
        }
        else {
            if (ch === ' ' &&
                prev &&
                prev !== ' ' &&
                prev !== '\n' &&
                prev !== '\t') {
                // space surrounded by non-space can be replaced with newline + indent
                const next = text[i + 1];
                if (next && next !== ' ' && next !== '\n' && next !== '\t')
                    split = i;
            }
            if (i >= end) {
                if (split) {
                    folds.push(split);
                    end = split + endStep;
                    split = undefined;
                }
                else if (mode === FOLD_QUOTED) {
                    // white-space collected at end may stretch past lineWidth
                    while (prev === ' ' || prev === '\t') {
                        prev = ch;
                        ch = text[(i += 1)];
                        overflow = true;
                    }
                    // Account for newline escape, but don't break preceding escape
                    const j = i > escEnd + 1 ? i - 2 : escStart - 1;
                    // Bail out if lineWidth & minContentWidth are shorter than an escape string
                    if (escapedFolds[j])
                        return text;
                    folds.push(j);
                    escapedFolds[j] = true;
                    end = j + endStep;
                    split = undefined;
                }
                else {
                    overflow = true;
                }
            }
        }
        prev = ch;
    }
    if (overflow && onOverflow)
        onOverflow();
    if (folds.length === 0)
        return text;
    if (onFold)
        onFold();
    let res = text.slice(0, folds[0]);
    for (let i = 0; i < folds.length; ++i) {
        const fold = folds[i];
        const end = folds[i + 1] || text.length;
        if (fold === 0)
            res = `\n${indent}${text.slice(0, end)}`;
        else {
            if (mode === FOLD_QUOTED && escapedFolds[fold])
                res += `${text[fold]}\\`;
            res += `\n${indent}${text.slice(fold + 1, end)}`;
        }
    }
    return res;
}
/**
 * Presumes `i + 1` is at the start of a line
 * @returns index of last newline in more-indented block
 */
function consumeMoreIndentedLines(text, i, indent) {
    let end = i;
    let start = i + 1;
    let ch = text[start];
    while (ch === ' ' || ch === '\t') {
        if (i < start + indent) {
            ch = text[++i];
        }
        else {
            do {
                ch = text[++i];
            } while (ch && ch !== '\n');
            end = i;
            start = i + 1;
            ch = text[start];
        }
    }
    return end;
}

const getFoldOptions = (ctx, isBlock) => ({
    indentAtStart: isBlock ? ctx.indent.length : ctx.indentAtStart,
    lineWidth: ctx.options.lineWidth,
    minContentWidth: ctx.options.minContentWidth
});
// Also checks for lines starting with %, as parsing the output as YAML 1.1 will
// presume that's starting a new document.
const containsDocumentMarker = (str) => /^(%|---|\.\.\.)/m.test(str);
function lineLengthOverLimit(str, lineWidth, indentLength) {
    if (!lineWidth || lineWidth < 0)
        return false;
    const limit = lineWidth - indentLength;
    const strLen = str.length;
    if (strLen <= limit)
        return false;
    for (let i = 0, start = 0; i < strLen; ++i) {
        if (str[i] === '\n') {
            if (i - start > limit)
                return true;
            start = i + 1;
            if (strLen - start <= limit)
                return false;
        }
    }
    return true;
}
function doubleQuotedString(value, ctx) {
    const json = JSON.stringify(value);
    if (ctx.options.doubleQuotedAsJSON)
        return json;
    const { implicitKey } = ctx;
    const minMultiLineLength = ctx.options.doubleQuotedMinMultiLineLength;
    const indent = ctx.indent || (containsDocumentMarker(value) ? '  ' : '');
    let str = '';
    let start = 0;
    for (let i = 0, ch = json[i]; ch; ch = json[++i]) {
        if (ch === ' ' && json[i + 1] === '\\' && json[i + 2] === 'n') {
            // space before newline needs to be escaped to not be folded
            str += json.slice(start, i) + '\\ ';
            i += 1;
            start = i;
            ch = '\\';
        }
        if (ch === '\\')
            switch (json[i + 1]) {
                case 'u':
                    {
                        str += json.slice(start, i);
                        const code = json.substr(i + 2, 4);
                        switch (code) {
                            case '0000':
                                str += '\\0';
                                break;
                            case '0007':
                                str += '\\a';
                                break;
                            case '000b':
                                str += '\\v';
                                break;
                            case '001b':
                                str += '\\e';
                                break;
                            case '0085':
                                str += '\\N';
                                break;
                            case '00a0':
                                str += '\\_';
                                break;
                            case '2028':
                                str += '\\L';
                                break;
                            case '2029':
                                str += '\\P';
                                break;
                            default:
                                if (code.substr(0, 2) === '00')
                                    str += '\\x' + code.substr(2);
                                else
                                    str += json.substr(i, 6);
                        }
                        i += 5;
                        start = i + 1;
                    }
                    break;
                case 'n':
                    if (implicitKey ||
                        json[i + 2] === '"' ||
                        json.length < minMultiLineLength) {
                        i += 1;
                    }
                    else {
                        // folding will eat first newline
                        str += json.slice(start, i) + '\n\n';
                        while (json[i + 2] === '\\' &&
                            json[i + 3] === 'n' &&
                            json[i + 4] !== '"') {
                            str += '\n';
                            i += 2;
                        }
                        str += indent;
                        // space after newline needs to be escaped to not be folded
                        if (json[i + 2] === ' ')
                            str += '\\';
                        i += 1;
                        start = i + 1;
                    }
                    break;
                default:
                    i += 1;
            }
    }
    str = start ? str + json.slice(start) : json;
    return implicitKey
        ? str
        : foldFlowLines(str, indent, FOLD_QUOTED, getFoldOptions(ctx, false));
}
function singleQuotedString(value, ctx) {
    if (ctx.options.singleQuote === false ||
        (ctx.implicitKey && value.includes('\n')) ||
        /[ \t]\n|\n[ \t]/.test(value) // single quoted string can't have leading or trailing whitespace around newline
    )
        return doubleQuotedString(value, ctx);
    const indent = ctx.indent || (containsDocumentMarker(value) ? '  ' : '');
    const res = "'" + value.replace(/'/g, "''").replace(/\n+/g, `$&\n${indent}`) + "'";
    return ctx.implicitKey
        ? res
        : foldFlowLines(res, indent, FOLD_FLOW, getFoldOptions(ctx, false));
}
function quotedString(value, ctx) {
    const { singleQuote } = ctx.options;
    let qs;
    if (singleQuote === false)
        qs = doubleQuotedString;
    else {
        const hasDouble = value.includes('"');
        const hasSingle = value.includes("'");
        if (hasDouble && !hasSingle)
            qs = singleQuotedString;
        else if (hasSingle && !hasDouble)
            qs = doubleQuotedString;
        else
            qs = singleQuote ? singleQuotedString : doubleQuotedString;
    }
    return qs(value, ctx);
}
// The negative lookbehind avoids a polynomial search,
// but isn't supported yet on Safari: https://caniuse.com/js-regexp-lookbehind
let blockEndNewlines;
try {
    blockEndNewlines = new RegExp('(^|(?<!\n))\n+(?!\n|$)', 'g');
}
catch {
    blockEndNewlines = /\n+(?!\n|$)/g;
}
function blockString({ comment, type, value }, ctx, onComment, onChompKeep) {
    const { blockQuote, commentString, lineWidth } = ctx.options;
    // 1. Block can't end in whitespace unless the last line is non-empty.
    // 2. Strings consisting of only whitespace are best rendered explicitly.
    if (!blockQuote || /\n[\t ]+$/.test(value)) {
        return quotedString(value, ctx);
    }
    const indent = ctx.indent ||
        (ctx.forceBlockIndent || containsDocumentMarker(value) ? '  ' : '');
    const literal = blockQuote === 'literal'
        ? true
        : blockQuote === 'folded' || type === Scalar.BLOCK_FOLDED
            ? false
            : type === Scalar.BLOCK_LITERAL
                ? true
                : !lineLengthOverLimit(value, lineWidth, indent.length);
    if (!value)
        return literal ? '|\n' : '>\n';
    // determine chomping from whitespace at value end
    let chomp;
    let endStart;
    for (endStart = value.length; endStart > 0; --endStart) {
        const ch = value[endStart - 1];
        if (ch !== '\n' && ch !== '\t' && ch !== ' ')
            break;
    }
    let end = value.substring(endStart);
    const endNlPos = end.indexOf('\n');
    if (endNlPos === -1) {
        chomp = '-'; // strip
    }
    else if (value === end || endNlPos !== end.length - 1) {
        chomp = '+'; // keep
        if (onChompKeep)
            onChompKeep();
    }
    else {
        chomp = ''; // clip
    }
    if (end) {
        value = value.slice(0, -end.length);
        if (end[end.length - 1] === '\n')
            end = end.slice(0, -1);
        end = end.replace(blockEndNewlines, `$&${indent}`);
    }
    // determine indent indicator from whitespace at value start
    let startWithSpace = false;
    let startEnd;
    let startNlPos = -1;
    for (startEnd = 0; startEnd < value.length; ++startEnd) {
        const ch = value[startEnd];
        if (ch === ' ')
            startWithSpace = true;
        else if (ch === '\n')
            startNlPos = startEnd;
        else
            break;
    }
    let start = value.substring(0, startNlPos < startEnd ? startNlPos + 1 : startEnd);
    if (start) {
        value = value.substring(start.length);
        start = start.replace(/\n+/g, `$&${indent}`);
    }
    const indentSize = indent ? '2' : '1'; // root is at -1
    // Leading | or > is added later
    let header = (startWithSpace ? indentSize : '') + chomp;
    if (comment) {
        header += ' ' + commentString(comment.replace(/ ?[\r\n]+/g, ' '));
        if (onComment)
            onComment();
    }
    if (!literal) {
        const foldedValue = value
            .replace(/\n+/g, '\n$&')
            .replace(/(?:^|\n)([\t ].*)(?:([\n\t ]*)\n(?![\n\t ]))?/g, '$1$2') // more-indented lines aren't folded
            //                ^ more-ind. ^ empty     ^ capture next empty lines only at end of indent
            .replace(/\n+/g, `$&${indent}`);
        let literalFallback = false;
        const foldOptions = getFoldOptions(ctx, true);
        if (blockQuote !== 'folded' && type !== Scalar.BLOCK_FOLDED) {
            foldOptions.onOverflow = () => {
                literalFallback = true;
            };
        }
        const body = foldFlowLines(`${start}${foldedValue}${end}`, indent, FOLD_BLOCK, foldOptions);
        if (!literalFallback)
            return `>${header}\n${indent}${body}`;
    }
    value = value.replace(/\n+/g, `$&${indent}`);
    return `|${header}\n${indent}${start}${value}${end}`;
}
function plainString(item, ctx, onComment, onChompKeep) {
    const { type, value } = item;
    const { actualString, implicitKey, indent, indentStep, inFlow } = ctx;
    if ((implicitKey && value.includes('\n')) ||
        (inFlow && /[[\]{},]/.test(value))) {
        return quotedString(value, ctx);
    }
    if (/^[\n\t ,[\]{}#&*!|>'"%@`]|^[?-]$|^[?-][ \t]|[\n:][ \t]|[ \t]\n|[\n\t ]#|[\n\t :]$/.test(value)) {
        // not allowed:
        // - '-' or '?'
        // - start with an indicator character (except [?:-]) or /[?-] /
        // - '\n ', ': ' or ' \n' anywhere
        // - '#' not preceded by a non-space char
        // - end with ' ' or ':'
        return implicitKey || inFlow || !value.includes('\n')
            ? quotedString(value, ctx)
            : blockString(item, ctx, onComment, onChompKeep);
    }
    if (!implicitKey &&
        !inFlow &&
        type !== Scalar.PLAIN &&
        value.includes('\n')) {
        // Where allowed & type not set explicitly, prefer block style for multiline strings
        return blockString(item, ctx, onComment, onChompKeep);
    }
    if (containsDocumentMarker(value)) {
        if (indent === '') {
            ctx.forceBlockIndent = true;
            return blockString(item, ctx, onComment, onChompKeep);
        }
        else if (implicitKey && indent === indentStep) {
            return quotedString(value, ctx);
        }
    }
    const str = value.replace(/\n+/g, `$&\n${indent}`);
    // Verify that output will be parsed as a string, as e.g. plain numbers and
    // booleans get parsed with those types in v1.2 (e.g. '42', 'true' & '0.9e-3'),
    // and others in v1.1.
    if (actualString) {
        const test = (tag) => tag.default && tag.tag !== 'tag:yaml.org,2002:str' && tag.test?.test(str);
        const { compat, tags } = ctx.doc.schema;
        if (tags.some(test) || compat?.some(test))
            return quotedString(value, ctx);
    }
    return implicitKey
        ? str
        : foldFlowLines(str, indent, FOLD_FLOW, getFoldOptions(ctx, false));
}
function stringifyString(item, ctx, onComment, onChompKeep) {
    const { implicitKey, inFlow } = ctx;
    const ss = typeof item.value === 'string'
        ? item
        : Object.assign({}, item, { value: String(item.value) });
    let { type } = item;
    if (type !== Scalar.QUOTE_DOUBLE) {
        // force double quotes on control characters & unpaired surrogates
        if (/[\x00-\x08\x0b-\x1f\x7f-\x9f\u{D800}-\u{DFFF}]/u.test(ss.value))
            type = Scalar.QUOTE_DOUBLE;
    }
    const _stringify = (_type) => {
        switch (_type) {
            case Scalar.BLOCK_FOLDED:
            case Scalar.BLOCK_LITERAL:
                return implicitKey || inFlow
                    ? quotedString(ss.value, ctx) // blocks are not valid inside flow containers
                    : blockString(ss, ctx, onComment, onChompKeep);
            case Scalar.QUOTE_DOUBLE:
                return doubleQuotedString(ss.value, ctx);
            case Scalar.QUOTE_SINGLE:
                return singleQuotedString(ss.value, ctx);
            case Scalar.PLAIN:
                return plainString(ss, ctx, onComment, onChompKeep);
            default:
                return null;
        }
    };
    let res = _stringify(type);
    if (res === null) {
        const { defaultKeyType, defaultStringType } = ctx.options;
        const t = (implicitKey && defaultKeyType) || defaultStringType;
        res = _stringify(t);
        if (res === null)
            throw new Error(`Unsupported default string type ${t}`);
    }
    return res;
}

function createStringifyContext(doc, options) {
    const opt = Object.assign({
        blockQuote: true,
        commentString: stringifyComment,
        defaultKeyType: null,
        defaultStringType: 'PLAIN',
        directives: null,
        doubleQuotedAsJSON: false,
        doubleQuotedMinMultiLineLength: 40,
        falseStr: 'false',
        flowCollectionPadding: true,
        indentSeq: true,
        lineWidth: 80,
        minContentWidth: 20,
        nullStr: 'null',
        simpleKeys: false,
        singleQuote: null,
        trailingComma: false,
        trueStr: 'true',
        verifyAliasOrder: true
    }, doc.schema.toStringOptions, options);
    let inFlow;
    switch (opt.collectionStyle) {
        case 'block':
            inFlow = false;
            break;
        case 'flow':
            inFlow = true;
            break;
        default:
            inFlow = null;
    }
    return {
        anchors: new Set(),
        doc,
        flowCollectionPadding: opt.flowCollectionPadding ? ' ' : '',
        indent: '',
        indentStep: typeof opt.indent === 'number' ? ' '.repeat(opt.indent) : '  ',
        inFlow,
        options: opt
    };
}
function getTagObject(tags, item) {
    if (item.tag) {
        const match = tags.filter(t => t.tag === item.tag);
        if (match.length > 0)
            return match.find(t => t.format === item.format) ?? match[0];
    }
    let tagObj = undefined;
    let obj;
    if (isScalar(item)) {
        obj = item.value;
        let match = tags.filter(t => t.identify?.(obj));
        if (match.length > 1) {
            const testMatch = match.filter(t => t.test);
            if (testMatch.length > 0)
                match = testMatch;
        }
        tagObj =
            match.find(t => t.format === item.format) ?? match.find(t => !t.format);
    }
    else {
        obj = item;
        tagObj = tags.find(t => t.nodeClass && obj instanceof t.nodeClass);
    }
    if (!tagObj) {
        const name = obj?.constructor?.name ?? (obj === null ? 'null' : typeof obj);
        throw new Error(`Tag not resolved for ${name} value`);
    }
    return tagObj;
}
// needs to be called before value stringifier to allow for circular anchor refs
function stringifyProps(node, tagObj, { anchors, doc }) {
    if (!doc.directives)
        return '';
    const props = [];
    const anchor = (isScalar(node) || isCollection(node)) && node.anchor;
    if (anchor && anchorIsValid(anchor)) {
        anchors.add(anchor);
        props.push(`&${anchor}`);
    }
    const tag = node.tag ?? (tagObj.default ? null : tagObj.tag);
    if (tag)
        props.push(doc.directives.tagString(tag));
    return props.join(' ');
}
function stringify$1(item, ctx, onComment, onChompKeep) {
    if (isPair(item))
        return item.toString(ctx, onComment, onChompKeep);
    if (isAlias(item)) {
        if (ctx.doc.directives)
            return item.toString(ctx);
        if (ctx.resolvedAliases?.has(item)) {
            throw new TypeError(`Cannot stringify circular structure without alias nodes`);
        }
        else {
            if (ctx.resolvedAliases)
                ctx.resolvedAliases.add(item);
            else
                ctx.resolvedAliases = new Set([item]);
            item = item.resolve(ctx.doc);
        }
    }
    let tagObj = undefined;
    const node = isNode(item)
        ? item
        : ctx.doc.createNode(item, { onTagObj: o => (tagObj = o) });
    tagObj ?? (tagObj = getTagObject(ctx.doc.schema.tags, node));
    const props = stringifyProps(node, tagObj, ctx);
    if (props.length > 0)
        ctx.indentAtStart = (ctx.indentAtStart ?? 0) + props.length + 1;
    const str = typeof tagObj.stringify === 'function'
        ? tagObj.stringify(node, ctx, onComment, onChompKeep)
        : isScalar(node)
            ? stringifyString(node, ctx, onComment, onChompKeep)
            : node.toString(ctx, onComment, onChompKeep);
    if (!props)
        return str;
    return isScalar(node) || str[0] === '{' || str[0] === '['
        ? `${props} ${str}`
        : `${props}\n${ctx.indent}${str}`;
}

function stringifyPair({ key, value }, ctx, onComment, onChompKeep) {
    const { allNullValues, doc, indent, indentStep, options: { commentString, indentSeq, simpleKeys } } = ctx;
    let keyComment = (isNode(key) && key.comment) || null;
    if (simpleKeys) {
        if (keyComment) {
            throw new Error('With simple keys, key nodes cannot have comments');
        }
        if (isCollection(key) || (!isNode(key) && typeof key === 'object')) {
            const msg = 'With simple keys, collection cannot be used as a key value';
            throw new Error(msg);
        }
    }
    let explicitKey = !simpleKeys &&
        (!key ||
            (keyComment && value == null && !ctx.inFlow) ||
            isCollection(key) ||
            (isScalar(key)
                ? key.type === Scalar.BLOCK_FOLDED || key.type === Scalar.BLOCK_LITERAL
                : typeof key === 'object'));
    ctx = Object.assign({}, ctx, {
        allNullValues: false,
        implicitKey: !explicitKey && (simpleKeys || !allNullValues),
        indent: indent + indentStep
    });
    let keyCommentDone = false;
    let chompKeep = false;
    let str = stringify$1(key, ctx, () => (keyCommentDone = true), () => (chompKeep = true));
    if (!explicitKey && !ctx.inFlow && str.length > 1024) {
        if (simpleKeys)
            throw new Error('With simple keys, single line scalar must not span more than 1024 characters');
        explicitKey = true;
    }
    if (ctx.inFlow) {
        if (allNullValues || value == null) {
            if (keyCommentDone && onComment)
                onComment();
            return str === '' ? '?' : explicitKey ? `? ${str}` : str;
        }
    }
    else if ((allNullValues && !simpleKeys) || (value == null && explicitKey)) {
        str = `? ${str}`;
        if (keyComment && !keyCommentDone) {
            str += lineComment(str, ctx.indent, commentString(keyComment));
        }
        else if (chompKeep && onChompKeep)
            onChompKeep();
        return str;
    }
    if (keyCommentDone)
        keyComment = null;
    if (explicitKey) {
        if (keyComment)
            str += lineComment(str, ctx.indent, commentString(keyComment));
        str = `? ${str}\n${indent}:`;
    }
    else {
        str = `${str}:`;
        if (keyComment)
            str += lineComment(str, ctx.indent, commentString(keyComment));
    }
    let vsb, vcb, valueComment;
    if (isNode(value)) {
        vsb = !!value.spaceBefore;
        vcb = value.commentBefore;
        valueComment = value.comment;
    }
    else {
        vsb = false;
        vcb = null;
        valueComment = null;
        if (value && typeof value === 'object')
            value = doc.createNode(value);
    }
    ctx.implicitKey = false;
    if (!explicitKey && !keyComment && isScalar(value))
        ctx.indentAtStart = str.length + 1;
    chompKeep = false;
    if (!indentSeq &&
        indentStep.length >= 2 &&
        !ctx.inFlow &&
        !explicitKey &&
        isSeq(value) &&
        !value.flow &&
        !value.tag &&
        !value.anchor) {
        // If indentSeq === false, consider '- ' as part of indentation where possible
        ctx.indent = ctx.indent.substring(2);
    }
    let valueCommentDone = false;
    const valueStr = stringify$1(value, ctx, () => (valueCommentDone = true), () => (chompKeep = true));
    let ws = ' ';
    if (keyComment || vsb || vcb) {
        ws = vsb ? '\n' : '';
        if (vcb) {
            const cs = commentString(vcb);
            ws += `\n${indentComment(cs, ctx.indent)}`;
        }
        if (valueStr === '' && !ctx.inFlow) {
            if (ws === '\n' && valueComment)
                ws = '\n\n';
        }
        else {
            ws += `\n${ctx.indent}`;
        }
    }
    else if (!explicitKey && isCollection(value)) {
        const vs0 = valueStr[0];
        const nl0 = valueStr.indexOf('\n');
        const hasNewline = nl0 !== -1;
        const flow = ctx.inFlow ?? value.flow ?? value.items.length === 0;
        if (hasNewline || !flow) {
            let hasPropsLine = false;
            if (hasNewline && (vs0 === '&' || vs0 === '!')) {
                let sp0 = valueStr.indexOf(' ');
                if (vs0 === '&' &&
                    sp0 !== -1 &&
                    sp0 < nl0 &&
                    valueStr[sp0 + 1] === '!') {
                    sp0 = valueStr.indexOf(' ', sp0 + 1);
                }
                if (sp0 === -1 || nl0 < sp0)
                    hasPropsLine = true;
            }
            if (!hasPropsLine)
                ws = `\n${ctx.indent}`;
        }
    }
    else if (valueStr === '' || valueStr[0] === '\n') {
        ws = '';
    }
    str += ws + valueStr;
    if (ctx.inFlow) {
        if (valueCommentDone && onComment)
            onComment();
    }
    else if (valueComment && !valueCommentDone) {
        str += lineComment(str, ctx.indent, commentString(valueComment));
    }
    else if (chompKeep && onChompKeep) {
        onChompKeep();
    }
    return str;
}

function warn(logLevel, warning) {
    if (logLevel === 'debug' || logLevel === 'warn') {
        console.warn(warning);
    }
}

// If the value associated with a merge key is a single mapping node, each of
// its key/value pairs is inserted into the current mapping, unless the key
// already exists in it. If the value associated with the merge key is a
// sequence, then this sequence is expected to contain mapping nodes and each
// of these nodes is merged in turn according to its order in the sequence.
// Keys in mapping nodes earlier in the sequence override keys specified in
// later mapping nodes. -- http://yaml.org/type/merge.html
const MERGE_KEY = '<<';
const merge = {
    identify: value => value === MERGE_KEY ||
        (typeof value === 'symbol' && value.description === MERGE_KEY),
    default: 'key',
    tag: 'tag:yaml.org,2002:merge',
    test: /^<<$/,
    resolve: () => Object.assign(new Scalar(Symbol(MERGE_KEY)), {
        addToJSMap: addMergeToJSMap
    }),
    stringify: () => MERGE_KEY
};
const isMergeKey = (ctx, key) => (merge.identify(key) ||
    (isScalar(key) &&
        (!key.type || key.type === Scalar.PLAIN) &&
        merge.identify(key.value))) &&
    ctx?.doc.schema.tags.some(tag => tag.tag === merge.tag && tag.default);
function addMergeToJSMap(ctx, map, value) {
    const source = resolveAliasValue(ctx, value);
    if (isSeq(source))
        for (const it of source.items)
            mergeValue(ctx, map, it);
    else if (Array.isArray(source))
        for (const it of source)
            mergeValue(ctx, map, it);
    else
        mergeValue(ctx, map, source);
}
function mergeValue(ctx, map, value) {
    const source = resolveAliasValue(ctx, value);
    if (!isMap(source))
        throw new Error('Merge sources must be maps or map aliases');
    const srcMap = source.toJSON(null, ctx, Map);
    for (const [key, value] of srcMap) {
        if (map instanceof Map) {
            if (!map.has(key))
                map.set(key, value);
        }
        else if (map instanceof Set) {
            map.add(key);
        }
        else if (!Object.prototype.hasOwnProperty.call(map, key)) {
            Object.defineProperty(map, key, {
                value,
                writable: true,
                enumerable: true,
                configurable: true
            });
        }
    }
    return map;
}
function resolveAliasValue(ctx, value) {
    return ctx && isAlias(value) ? value.resolve(ctx.doc, ctx) : value;
}

function addPairToJSMap(ctx, map, { key, value }) {
    if (isNode(key) && key.addToJSMap)
        key.addToJSMap(ctx, map, value);
    // TODO: Should drop this special case for bare << handling
    else if (isMergeKey(ctx, key))
        addMergeToJSMap(ctx, map, value);
    else {
        const jsKey = toJS(key, '', ctx);
        if (map instanceof Map) {
            map.set(jsKey, toJS(value, jsKey, ctx));
        }
        else if (map instanceof Set) {
            map.add(jsKey);
        }
        else {
            const stringKey = stringifyKey(key, jsKey, ctx);
            const jsValue = toJS(value, stringKey, ctx);
            if (stringKey in map)
                Object.defineProperty(map, stringKey, {
                    value: jsValue,
                    writable: true,
                    enumerable: true,
                    configurable: true
                });
            else
                map[stringKey] = jsValue;
        }
    }
    return map;
}
function stringifyKey(key, jsKey, ctx) {
    if (jsKey === null)
        return '';
    // eslint-disable-next-line @typescript-eslint/no-base-to-string
    if (typeof jsKey !== 'object')
        return String(jsKey);
    if (isNode(key) && ctx?.doc) {
        const strCtx = createStringifyContext(ctx.doc, {});
        strCtx.anchors = new Set();
        for (const node of ctx.anchors.keys())
            strCtx.anchors.add(node.anchor);
        strCtx.inFlow = true;
        strCtx.inStringifyKey = true;
        const strKey = key.toString(strCtx);
        if (!ctx.mapKeyWarned) {
            let jsonStr = JSON.stringify(strKey);
            if (jsonStr.length > 40)
                jsonStr = jsonStr.substring(0, 36) + '..."';
            warn(ctx.doc.options.logLevel, `Keys with collection values will be stringified due to JS Object restrictions: ${jsonStr}. Set mapAsMap: true to use object keys.`);
            ctx.mapKeyWarned = true;
        }
        return strKey;
    }
    return JSON.stringify(jsKey);
}

function createPair(key, value, ctx) {
    const k = createNode(key, undefined, ctx);
    const v = createNode(value, undefined, ctx);
    return new Pair(k, v);
}
class Pair {
    constructor(key, value = null) {
        Object.defineProperty(this, NODE_TYPE, { value: PAIR });
        this.key = key;
        this.value = value;
    }
    clone(schema) {
        let { key, value } = this;
        if (isNode(key))
            key = key.clone(schema);
        if (isNode(value))
            value = value.clone(schema);
        return new Pair(key, value);
    }
    toJSON(_, ctx) {
        const pair = ctx?.mapAsMap ? new Map() : {};
        return addPairToJSMap(ctx, pair, this);
    }
    toString(ctx, onComment, onChompKeep) {
        return ctx?.doc
            ? stringifyPair(this, ctx, onComment, onChompKeep)
            : JSON.stringify(this);
    }
}

function stringifyCollection(collection, ctx, options) {
    const flow = ctx.inFlow ?? collection.flow;
    const stringify = flow ? stringifyFlowCollection : stringifyBlockCollection;
    return stringify(collection, ctx, options);
}
function stringifyBlockCollection({ comment, items }, ctx, { blockItemPrefix, flowChars, itemIndent, onChompKeep, onComment }) {
    const { indent, options: { commentString } } = ctx;
    const itemCtx = Object.assign({}, ctx, { indent: itemIndent, type: null });
    let chompKeep = false; // flag for the preceding node's status
    const lines = [];
    for (let i = 0; i < items.length; ++i) {
        const item = items[i];
        let comment = null;
        if (isNode(item)) {
            if (!chompKeep && item.spaceBefore)
                lines.push('');
            addCommentBefore(ctx, lines, item.commentBefore, chompKeep);
            if (item.comment)
                comment = item.comment;
        }
        else if (isPair(item)) {
            const ik = isNode(item.key) ? item.key : null;
            if (ik) {
                if (!chompKeep && ik.spaceBefore)
                    lines.push('');
                addCommentBefore(ctx, lines, ik.commentBefore, chompKeep);
            }
        }
        chompKeep = false;
        let str = stringify$1(item, itemCtx, () => (comment = null), () => (chompKeep = true));
        if (comment)
            str += lineComment(str, itemIndent, commentString(comment));
        if (chompKeep && comment)
            chompKeep = false;
        lines.push(blockItemPrefix + str);
    }
    let str;
    if (lines.length === 0) {
        str = flowChars.start + flowChars.end;
    }
    else {
        str = lines[0];
        for (let i = 1; i < lines.length; ++i) {
            const line = lines[i];
            str += line ? `\n${indent}${line}` : '\n';
        }
    }
    if (comment) {
        str += '\n' + indentComment(commentString(comment), indent);
        if (onComment)
            onComment();
    }
    else if (chompKeep && onChompKeep)
        onChompKeep();
    return str;
}
function stringifyFlowCollection({ items }, ctx, { flowChars, itemIndent }) {
    const { indent, indentStep, flowCollectionPadding: fcPadding, options: { commentString } } = ctx;
    itemIndent += indentStep;
    const itemCtx = Object.assign({}, ctx, {
        indent: itemIndent,
        inFlow: true,
        type: null
    });
    let reqNewline = false;
    let linesAtValue = 0;
    const lines = [];
    for (let i = 0; i < items.length; ++i) {
        const item = items[i];
        let comment = null;
        if (isNode(item)) {
            if (item.spaceBefore)
                lines.push('');
            addCommentBefore(ctx, lines, item.commentBefore, false);
            if (item.comment)
                comment = item.comment;
        }
        else if (isPair(item)) {
            const ik = isNode(item.key) ? item.key : null;
            if (ik) {
                if (ik.spaceBefore)
                    lines.push('');
                addCommentBefore(ctx, lines, ik.commentBefore, false);
                if (ik.comment)
                    reqNewline = true;
            }
            const iv = isNode(item.value) ? item.value : null;
            if (iv) {
                if (iv.comment)
                    comment = iv.comment;
                if (iv.commentBefore)
                    reqNewline = true;
            }
            else if (item.value == null && ik?.comment) {
                comment = ik.comment;
            }
        }
        if (comment)
            reqNewline = true;
        let str = stringify$1(item, itemCtx, () => (comment = null));
        reqNewline || (reqNewline = lines.length > linesAtValue || str.includes('\n'));
        if (i < items.length - 1) {
            str += ',';
        }
        else if (ctx.options.trailingComma) {
            if (ctx.options.lineWidth > 0) {
                reqNewline || (reqNewline = lines.reduce((sum, line) => sum + line.length + 2, 2) +
                    (str.length + 2) >
                    ctx.options.lineWidth);
            }
            if (reqNewline) {
                str += ',';
            }
        }
        if (comment)
            str += lineComment(str, itemIndent, commentString(comment));
        lines.push(str);
        linesAtValue = lines.length;
    }
    const { start, end } = flowChars;
    if (lines.length === 0) {
        return start + end;
    }
    else {
        if (!reqNewline) {
            const len = lines.reduce((sum, line) => sum + line.length + 2, 2);
            reqNewline = ctx.options.lineWidth > 0 && len > ctx.options.lineWidth;
        }
        if (reqNewline) {
            let str = start;
            for (const line of lines)
                str += line ? `\n${indentStep}${indent}${line}` : '\n';
            return `${str}\n${indent}${end}`;
        }
        else {
            return `${start}${fcPadding}${lines.join(' ')}${fcPadding}${end}`;
        }
    }
}
function addCommentBefore({ indent, options: { commentString } }, lines, comment, chompKeep) {
    if (comment && chompKeep)
        comment = comment.replace(/^\n+/, '');
    if (comment) {
        const ic = indentComment(commentString(comment), indent);
        lines.push(ic.trimStart()); // Avoid double indent on first line
    }
}

function findPair(items, key) {
    const k = isScalar(key) ? key.value : key;
    for (const it of items) {
        if (isPair(it)) {
            if (it.key === key || it.key === k)
                return it;
            if (isScalar(it.key) && it.key.value === k)
                return it;
        }
    }
    return undefined;
}
class YAMLMap extends Collection {
    static get tagName() {
        return 'tag:yaml.org,2002:map';
    }
    constructor(schema) {
        super(MAP, schema);
        this.items = [];
    }
    /**
     * A generic collection parsing method that can be extended
     * to other node classes that inherit from YAMLMap
     */
    static from(schema, obj, ctx) {
        const { keepUndefined, replacer } = ctx;
        const map = new this(schema);
        const add = (key, value) => {
            if (typeof replacer === 'function')
                value = replacer.call(obj, key, value);
            else if (Array.isArray(replacer) && !replacer.includes(key))
                return;
            if (value !== undefined || keepUndefined)
                map.items.push(createPair(key, value, ctx));
        };
        if (obj instanceof Map) {
            for (const [key, value] of obj)
                add(key, value);
        }
        else if (obj && typeof obj === 'object') {
            for (const key of Object.keys(obj))
                add(key, obj[key]);
        }
        if (typeof schema.sortMapEntries === 'function') {
            map.items.sort(schema.sortMapEntries);
        }
        return map;
    }
    /**
     * Adds a value to the collection.
     *
     * @param overwrite - If not set `true`, using a key that is already in the
     *   collection will throw. Otherwise, overwrites the previous value.
     */
    add(pair, overwrite) {
        let _pair;
        if (isPair(pair))
            _pair = pair;
        else if (!pair || typeof pair !== 'object' || !('key' in pair)) {
            // In TypeScript, this never happens.
            _pair = new Pair(pair, pair?.value);
        }
        else
            _pair = new Pair(pair.key, pair.value);
        const prev = findPair(this.items, _pair.key);
        const sortEntries = this.schema?.sortMapEntries;
        if (prev) {
            if (!overwrite)
                throw new Error(`Key ${_pair.key} already set`);
            // For scalars, keep the old node & its comments and anchors
            if (isScalar(prev.value) && isScalarValue(_pair.value))
                prev.value.value = _pair.value;
            else
                prev.value = _pair.value;
        }
        else if (sortEntries) {
            const i = this.items.findIndex(item => sortEntries(_pair, item) < 0);
            if (i === -1)
                this.items.push(_pair);
            else
                this.items.splice(i, 0, _pair);
        }
        else {
            this.items.push(_pair);
        }
    }
    delete(key) {
        const it = findPair(this.items, key);
        if (!it)
            return false;
        const del = this.items.splice(this.items.indexOf(it), 1);
        return del.length > 0;
    }
    get(key, keepScalar) {
        const it = findPair(this.items, key);
        const node = it?.value;
        return (!keepScalar && isScalar(node) ? node.value : node) ?? undefined;
    }
    has(key) {
        return !!findPair(this.items, key);
    }
    set(key, value) {
        this.add(new Pair(key, value), true);
    }
    /**
     * @param ctx - Conversion context, originally set in Document#toJS()
     * @param {Class} Type - If set, forces the returned collection type
     * @returns Instance of Type, Map, or Object
     */
    toJSON(_, ctx, Type) {
        const map = Type ? new Type() : ctx?.mapAsMap ? new Map() : {};
        if (ctx?.onCreate)
            ctx.onCreate(map);
        for (const item of this.items)
            addPairToJSMap(ctx, map, item);
        return map;
    }
    toString(ctx, onComment, onChompKeep) {
        if (!ctx)
            return JSON.stringify(this);
        for (const item of this.items) {
            if (!isPair(item))
                throw new Error(`Map items must all be pairs; found ${JSON.stringify(item)} instead`);
        }
        if (!ctx.allNullValues && this.hasAllNullValues(false))
            ctx = Object.assign({}, ctx, { allNullValues: true });
        return stringifyCollection(this, ctx, {
            blockItemPrefix: '',
            flowChars: { start: '{', end: '}' },
            itemIndent: ctx.indent || '',
            onChompKeep,
            onComment
        });
    }
}

const map = {
    collection: 'map',
    default: true,
    nodeClass: YAMLMap,
    tag: 'tag:yaml.org,2002:map',
    resolve(map, onError) {
        if (!isMap(map))
            onError('Expected a mapping for this tag');
        return map;
    },
    createNode: (schema, obj, ctx) => YAMLMap.from(schema, obj, ctx)
};

class YAMLSeq extends Collection {
    static get tagName() {
        return 'tag:yaml.org,2002:seq';
    }
    constructor(schema) {
        super(SEQ, schema);
        this.items = [];
    }
    add(value) {
        this.items.push(value);
    }
    /**
     * Removes a value from the collection.
     *
     * `key` must contain a representation of an integer for this to succeed.
     * It may be wrapped in a `Scalar`.
     *
     * @returns `true` if the item was found and removed.
     */
    delete(key) {
        const idx = asItemIndex(key);
        if (typeof idx !== 'number')
            return false;
        const del = this.items.splice(idx, 1);
        return del.length > 0;
    }
    get(key, keepScalar) {
        const idx = asItemIndex(key);
        if (typeof idx !== 'number')
            return undefined;
        const it = this.items[idx];
        return !keepScalar && isScalar(it) ? it.value : it;
    }
    /**
     * Checks if the collection includes a value with the key `key`.
     *
     * `key` must contain a representation of an integer for this to succeed.
     * It may be wrapped in a `Scalar`.
     */
    has(key) {
        const idx = asItemIndex(key);
        return typeof idx === 'number' && idx < this.items.length;
    }
    /**
     * Sets a value in this collection. For `!!set`, `value` needs to be a
     * boolean to add/remove the item from the set.
     *
     * If `key` does not contain a representation of an integer, this will throw.
     * It may be wrapped in a `Scalar`.
     */
    set(key, value) {
        const idx = asItemIndex(key);
        if (typeof idx !== 'number')
            throw new Error(`Expected a valid index, not ${key}.`);
        const prev = this.items[idx];
        if (isScalar(prev) && isScalarValue(value))
            prev.value = value;
        else
            this.items[idx] = value;
    }
    toJSON(_, ctx) {
        const seq = [];
        if (ctx?.onCreate)
            ctx.onCreate(seq);
        let i = 0;
        for (const item of this.items)
            seq.push(toJS(item, String(i++), ctx));
        return seq;
    }
    toString(ctx, onComment, onChompKeep) {
        if (!ctx)
            return JSON.stringify(this);
        return stringifyCollection(this, ctx, {
            blockItemPrefix: '- ',
            flowChars: { start: '[', end: ']' },
            itemIndent: (ctx.indent || '') + '  ',
            onChompKeep,
            onComment
        });
    }
    static from(schema, obj, ctx) {
        const { replacer } = ctx;
        const seq = new this(schema);
        if (obj && Symbol.iterator in Object(obj)) {
            let i = 0;
            for (let it of obj) {
                if (typeof replacer === 'function') {
                    const key = obj instanceof Set ? it : String(i++);
                    it = replacer.call(obj, key, it);
                }
                seq.items.push(createNode(it, undefined, ctx));
            }
        }
        return seq;
    }
}
function asItemIndex(key) {
    let idx = isScalar(key) ? key.value : key;
    if (idx && typeof idx === 'string')
        idx = Number(idx);
    return typeof idx === 'number' && Number.isInteger(idx) && idx >= 0
        ? idx
        : null;
}

const seq = {
    collection: 'seq',
    default: true,
    nodeClass: YAMLSeq,
    tag: 'tag:yaml.org,2002:seq',
    resolve(seq, onError) {
        if (!isSeq(seq))
            onError('Expected a sequence for this tag');
        return seq;
    },
    createNode: (schema, obj, ctx) => YAMLSeq.from(schema, obj, ctx)
};

const string = {
    identify: value => typeof value === 'string',
    default: true,
    tag: 'tag:yaml.org,2002:str',
    resolve: str => str,
    stringify(item, ctx, onComment, onChompKeep) {
        ctx = Object.assign({ actualString: true }, ctx);
        return stringifyString(item, ctx, onComment, onChompKeep);
    }
};

const nullTag = {
    identify: value => value == null,
    createNode: () => new Scalar(null),
    default: true,
    tag: 'tag:yaml.org,2002:null',
    test: /^(?:~|[Nn]ull|NULL)?$/,
    resolve: () => new Scalar(null),
    stringify: ({ source }, ctx) => typeof source === 'string' && nullTag.test.test(source)
        ? source
        : ctx.options.nullStr
};

const boolTag = {
    identify: value => typeof value === 'boolean',
    default: true,
    tag: 'tag:yaml.org,2002:bool',
    test: /^(?:[Tt]rue|TRUE|[Ff]alse|FALSE)$/,
    resolve: str => new Scalar(str[0] === 't' || str[0] === 'T'),
    stringify({ source, value }, ctx) {
        if (source && boolTag.test.test(source)) {
            const sv = source[0] === 't' || source[0] === 'T';
            if (value === sv)
                return source;
        }
        return value ? ctx.options.trueStr : ctx.options.falseStr;
    }
};

function stringifyNumber({ format, minFractionDigits, tag, value }) {
    if (typeof value === 'bigint')
        return String(value);
    const num = typeof value === 'number' ? value : Number(value);
    if (!isFinite(num))
        return isNaN(num) ? '.nan' : num < 0 ? '-.inf' : '.inf';
    let n = Object.is(value, -0) ? '-0' : JSON.stringify(value);
    if (!format &&
        minFractionDigits &&
        (!tag || tag === 'tag:yaml.org,2002:float') &&
        /^-?\d/.test(n) &&
        !n.includes('e')) {
        let i = n.indexOf('.');
        if (i < 0) {
            i = n.length;
            n += '.';
        }
        let d = minFractionDigits - (n.length - i - 1);
        while (d-- > 0)
            n += '0';
    }
    return n;
}

const floatNaN$1 = {
    identify: value => typeof value === 'number',
    default: true,
    tag: 'tag:yaml.org,2002:float',
    test: /^(?:[-+]?\.(?:inf|Inf|INF)|\.nan|\.NaN|\.NAN)$/,
    resolve: str => str.slice(-3).toLowerCase() === 'nan'
        ? NaN
        : str[0] === '-'
            ? Number.NEGATIVE_INFINITY
            : Number.POSITIVE_INFINITY,
    stringify: stringifyNumber
};
const floatExp$1 = {
    identify: value => typeof value === 'number',
    default: true,
    tag: 'tag:yaml.org,2002:float',
    format: 'EXP',
    test: /^[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)[eE][-+]?[0-9]+$/,
    resolve: str => parseFloat(str),
    stringify(node) {
        const num = Number(node.value);
        return isFinite(num) ? num.toExponential() : stringifyNumber(node);
    }
};
const float$1 = {
    identify: value => typeof value === 'number',
    default: true,
    tag: 'tag:yaml.org,2002:float',
    test: /^[-+]?(?:\.[0-9]+|[0-9]+\.[0-9]*)$/,
    resolve(str) {
        const node = new Scalar(parseFloat(str));
        const dot = str.indexOf('.');
        if (dot !== -1 && str[str.length - 1] === '0')
            node.minFractionDigits = str.length - dot - 1;
        return node;
    },
    stringify: stringifyNumber
};

const intIdentify$2 = (value) => typeof value === 'bigint' || Number.isInteger(value);
const intResolve$1 = (str, offset, radix, { intAsBigInt }) => (intAsBigInt ? BigInt(str) : parseInt(str.substring(offset), radix));
function intStringify$1(node, radix, prefix) {
    const { value } = node;
    if (intIdentify$2(value) && value >= 0)
        return prefix + value.toString(radix);
    return stringifyNumber(node);
}
const intOct$1 = {
    identify: value => intIdentify$2(value) && value >= 0,
    default: true,
    tag: 'tag:yaml.org,2002:int',
    format: 'OCT',
    test: /^0o[0-7]+$/,
    resolve: (str, _onError, opt) => intResolve$1(str, 2, 8, opt),
    stringify: node => intStringify$1(node, 8, '0o')
};
const int$1 = {
    identify: intIdentify$2,
    default: true,
    tag: 'tag:yaml.org,2002:int',
    test: /^[-+]?[0-9]+$/,
    resolve: (str, _onError, opt) => intResolve$1(str, 0, 10, opt),
    stringify: stringifyNumber
};
const intHex$1 = {
    identify: value => intIdentify$2(value) && value >= 0,
    default: true,
    tag: 'tag:yaml.org,2002:int',
    format: 'HEX',
    test: /^0x[0-9a-fA-F]+$/,
    resolve: (str, _onError, opt) => intResolve$1(str, 2, 16, opt),
    stringify: node => intStringify$1(node, 16, '0x')
};

const schema$2 = [
    map,
    seq,
    string,
    nullTag,
    boolTag,
    intOct$1,
    int$1,
    intHex$1,
    floatNaN$1,
    floatExp$1,
    float$1
];

function intIdentify$1(value) {
    return typeof value === 'bigint' || Number.isInteger(value);
}
const stringifyJSON = ({ value }) => JSON.stringify(value);
const jsonScalars = [
    {
        identify: value => typeof value === 'string',
        default: true,
        tag: 'tag:yaml.org,2002:str',
        resolve: str => str,
        stringify: stringifyJSON
    },
    {
        identify: value => value == null,
        createNode: () => new Scalar(null),
        default: true,
        tag: 'tag:yaml.org,2002:null',
        test: /^null$/,
        resolve: () => null,
        stringify: stringifyJSON
    },
    {
        identify: value => typeof value === 'boolean',
        default: true,
        tag: 'tag:yaml.org,2002:bool',
        test: /^true$|^false$/,
        resolve: str => str === 'true',
        stringify: stringifyJSON
    },
    {
        identify: intIdentify$1,
        default: true,
        tag: 'tag:yaml.org,2002:int',
        test: /^-?(?:0|[1-9][0-9]*)$/,
        resolve: (str, _onError, { intAsBigInt }) => intAsBigInt ? BigInt(str) : parseInt(str, 10),
        stringify: ({ value }) => intIdentify$1(value) ? value.toString() : JSON.stringify(value)
    },
    {
        identify: value => typeof value === 'number',
        default: true,
        tag: 'tag:yaml.org,2002:float',
        test: /^-?(?:0|[1-9][0-9]*)(?:\.[0-9]*)?(?:[eE][-+]?[0-9]+)?$/,
        resolve: str => parseFloat(str),
        stringify: stringifyJSON
    }
];
const jsonError = {
    default: true,
    tag: '',
    test: /^/,
    resolve(str, onError) {
        onError(`Unresolved plain scalar ${JSON.stringify(str)}`);
        return str;
    }
};
const schema$1 = [map, seq].concat(jsonScalars, jsonError);

const binary = {
    identify: value => value instanceof Uint8Array, // Buffer inherits from Uint8Array
    default: false,
    tag: 'tag:yaml.org,2002:binary',
    /**
     * Returns a Buffer in node and an Uint8Array in browsers
     *
     * To use the resulting buffer as an image, you'll want to do something like:
     *
     *   const blob = new Blob([buffer], { type: 'image/jpeg' })
     *   document.querySelector('#photo').src = URL.createObjectURL(blob)
     */
    resolve(src, onError) {
        if (typeof atob === 'function') {
            // On IE 11, atob() can't handle newlines
            const str = atob(src.replace(/[\n\r]/g, ''));
            const buffer = new Uint8Array(str.length);
            for (let i = 0; i < str.length; ++i)
                buffer[i] = str.charCodeAt(i);
            return buffer;
        }
        else {
            onError('This environment does not support reading binary tags; either Buffer or atob is required');
            return src;
        }
    },
    stringify({ comment, type, value }, ctx, onComment, onChompKeep) {
        if (!value)
            return '';
        const buf = value; // checked earlier by binary.identify()
        let str;
        if (typeof btoa === 'function') {
            let s = '';
            for (let i = 0; i < buf.length; ++i)
                s += String.fromCharCode(buf[i]);
            str = btoa(s);
        }
        else {
            throw new Error('This environment does not support writing binary tags; either Buffer or btoa is required');
        }
        type ?? (type = Scalar.BLOCK_LITERAL);
        if (type !== Scalar.QUOTE_DOUBLE) {
            const lineWidth = Math.max(ctx.options.lineWidth - ctx.indent.length, ctx.options.minContentWidth);
            const n = Math.ceil(str.length / lineWidth);
            const lines = new Array(n);
            for (let i = 0, o = 0; i < n; ++i, o += lineWidth) {
                lines[i] = str.substr(o, lineWidth);
            }
            str = lines.join(type === Scalar.BLOCK_LITERAL ? '\n' : ' ');
        }
        return stringifyString({ comment, type, value: str }, ctx, onComment, onChompKeep);
    }
};

function resolvePairs(seq, onError) {
    if (isSeq(seq)) {
        for (let i = 0; i < seq.items.length; ++i) {
            let item = seq.items[i];
            if (isPair(item))
                continue;
            else if (isMap(item)) {
                if (item.items.length > 1)
                    onError('Each pair must have its own sequence indicator');
                const pair = item.items[0] || new Pair(new Scalar(null));
                if (item.commentBefore)
                    pair.key.commentBefore = pair.key.commentBefore
                        ? `${item.commentBefore}\n${pair.key.commentBefore}`
                        : item.commentBefore;
                if (item.comment) {
                    const cn = pair.value ?? pair.key;
                    cn.comment = cn.comment
                        ? `${item.comment}\n${cn.comment}`
                        : item.comment;
                }
                item = pair;
            }
            seq.items[i] = isPair(item) ? item : new Pair(item);
        }
    }
    else
        onError('Expected a sequence for this tag');
    return seq;
}
function createPairs(schema, iterable, ctx) {
    const { replacer } = ctx;
    const pairs = new YAMLSeq(schema);
    pairs.tag = 'tag:yaml.org,2002:pairs';
    let i = 0;
    if (iterable && Symbol.iterator in Object(iterable))
        for (let it of iterable) {
            if (typeof replacer === 'function')
                it = replacer.call(iterable, String(i++), it);
            let key, value;
            if (Array.isArray(it)) {
                if (it.length === 2) {
                    key = it[0];
                    value = it[1];
                }
                else
                    throw new TypeError(`Expected [key, value] tuple: ${it}`);
            }
            else if (it && it instanceof Object) {
                const keys = Object.keys(it);
                if (keys.length === 1) {
                    key = keys[0];
                    value = it[key];
                }
                else {
                    throw new TypeError(`Expected tuple with one key, not ${keys.length} keys`);
                }
            }
            else {
                key = it;
            }
            pairs.items.push(createPair(key, value, ctx));
        }
    return pairs;
}
const pairs = {
    collection: 'seq',
    default: false,
    tag: 'tag:yaml.org,2002:pairs',
    resolve: resolvePairs,
    createNode: createPairs
};

class YAMLOMap extends YAMLSeq {
    constructor() {
        super();
        this.add = YAMLMap.prototype.add.bind(this);
        this.delete = YAMLMap.prototype.delete.bind(this);
        this.get = YAMLMap.prototype.get.bind(this);
        this.has = YAMLMap.prototype.has.bind(this);
        this.set = YAMLMap.prototype.set.bind(this);
        this.tag = YAMLOMap.tag;
    }
    /**
     * If `ctx` is given, the return type is actually `Map<unknown, unknown>`,
     * but TypeScript won't allow widening the signature of a child method.
     */
    toJSON(_, ctx) {
        if (!ctx)
            return super.toJSON(_);
        const map = new Map();
        if (ctx?.onCreate)
            ctx.onCreate(map);
        for (const pair of this.items) {
            let key, value;
            if (isPair(pair)) {
                key = toJS(pair.key, '', ctx);
                value = toJS(pair.value, key, ctx);
            }
            else {
                key = toJS(pair, '', ctx);
            }
            if (map.has(key))
                throw new Error('Ordered maps must not include duplicate keys');
            map.set(key, value);
        }
        return map;
    }
    static from(schema, iterable, ctx) {
        const pairs = createPairs(schema, iterable, ctx);
        const omap = new this();
        omap.items = pairs.items;
        return omap;
    }
}
YAMLOMap.tag = 'tag:yaml.org,2002:omap';
const omap = {
    collection: 'seq',
    identify: value => value instanceof Map,
    nodeClass: YAMLOMap,
    default: false,
    tag: 'tag:yaml.org,2002:omap',
    resolve(seq, onError) {
        const pairs = resolvePairs(seq, onError);
        const seenKeys = [];
        for (const { key } of pairs.items) {
            if (isScalar(key)) {
                if (seenKeys.includes(key.value)) {
                    onError(`Ordered maps must not include duplicate keys: ${key.value}`);
                }
                else {
                    seenKeys.push(key.value);
                }
            }
        }
        return Object.assign(new YAMLOMap(), pairs);
    },
    createNode: (schema, iterable, ctx) => YAMLOMap.from(schema, iterable, ctx)
};

function boolStringify({ value, source }, ctx) {
    const boolObj = value ? trueTag : falseTag;
    if (source && boolObj.test.test(source))
        return source;
    return value ? ctx.options.trueStr : ctx.options.falseStr;
}
const trueTag = {
    identify: value => value === true,
    default: true,
    tag: 'tag:yaml.org,2002:bool',
    test: /^(?:Y|y|[Yy]es|YES|[Tt]rue|TRUE|[Oo]n|ON)$/,
    resolve: () => new Scalar(true),
    stringify: boolStringify
};
const falseTag = {
    identify: value => value === false,
    default: true,
    tag: 'tag:yaml.org,2002:bool',
    test: /^(?:N|n|[Nn]o|NO|[Ff]alse|FALSE|[Oo]ff|OFF)$/,
    resolve: () => new Scalar(false),
    stringify: boolStringify
};

const floatNaN = {
    identify: value => typeof value === 'number',
    default: true,
    tag: 'tag:yaml.org,2002:float',
    test: /^(?:[-+]?\.(?:inf|Inf|INF)|\.nan|\.NaN|\.NAN)$/,
    resolve: (str) => str.slice(-3).toLowerCase() === 'nan'
        ? NaN
        : str[0] === '-'
            ? Number.NEGATIVE_INFINITY
            : Number.POSITIVE_INFINITY,
    stringify: stringifyNumber
};
const floatExp = {
    identify: value => typeof value === 'number',
    default: true,
    tag: 'tag:yaml.org,2002:float',
    format: 'EXP',
    test: /^[-+]?(?:[0-9][0-9_]*)?(?:\.[0-9_]*)?[eE][-+]?[0-9]+$/,
    resolve: (str) => parseFloat(str.replace(/_/g, '')),
    stringify(node) {
        const num = Number(node.value);
        return isFinite(num) ? num.toExponential() : stringifyNumber(node);
    }
};
const float = {
    identify: value => typeof value === 'number',
    default: true,
    tag: 'tag:yaml.org,2002:float',
    test: /^[-+]?(?:[0-9][0-9_]*)?\.[0-9_]*$/,
    resolve(str) {
        const node = new Scalar(parseFloat(str.replace(/_/g, '')));
        const dot = str.indexOf('.');
        if (dot !== -1) {
            const f = str.substring(dot + 1).replace(/_/g, '');
            if (f[f.length - 1] === '0')
                node.minFractionDigits = f.length;
        }
        return node;
    },
    stringify: stringifyNumber
};

const intIdentify = (value) => typeof value === 'bigint' || Number.isInteger(value);
function intResolve(str, offset, radix, { intAsBigInt }) {
    const sign = str[0];
    if (sign === '-' || sign === '+')
        offset += 1;
    str = str.substring(offset).replace(/_/g, '');
    if (intAsBigInt) {
        switch (radix) {
            case 2:
                str = `0b${str}`;
                break;
            case 8:
                str = `0o${str}`;
                break;
            case 16:
                str = `0x${str}`;
                break;
        }
        const n = BigInt(str);
        return sign === '-' ? BigInt(-1) * n : n;
    }
    const n = parseInt(str, radix);
    return sign === '-' ? -1 * n : n;
}
function intStringify(node, radix, prefix) {
    const { value } = node;
    if (intIdentify(value)) {
        const str = value.toString(radix);
        return value < 0 ? '-' + prefix + str.substr(1) : prefix + str;
    }
    return stringifyNumber(node);
}
const intBin = {
    identify: intIdentify,
    default: true,
    tag: 'tag:yaml.org,2002:int',
    format: 'BIN',
    test: /^[-+]?0b[0-1_]+$/,
    resolve: (str, _onError, opt) => intResolve(str, 2, 2, opt),
    stringify: node => intStringify(node, 2, '0b')
};
const intOct = {
    identify: intIdentify,
    default: true,
    tag: 'tag:yaml.org,2002:int',
    format: 'OCT',
    test: /^[-+]?0[0-7_]+$/,
    resolve: (str, _onError, opt) => intResolve(str, 1, 8, opt),
    stringify: node => intStringify(node, 8, '0')
};
const int = {
    identify: intIdentify,
    default: true,
    tag: 'tag:yaml.org,2002:int',
    test: /^[-+]?[0-9][0-9_]*$/,
    resolve: (str, _onError, opt) => intResolve(str, 0, 10, opt),
    stringify: stringifyNumber
};
const intHex = {
    identify: intIdentify,
    default: true,
    tag: 'tag:yaml.org,2002:int',
    format: 'HEX',
    test: /^[-+]?0x[0-9a-fA-F_]+$/,
    resolve: (str, _onError, opt) => intResolve(str, 2, 16, opt),
    stringify: node => intStringify(node, 16, '0x')
};

class YAMLSet extends YAMLMap {
    constructor(schema) {
        super(schema);
        this.tag = YAMLSet.tag;
    }
    add(key) {
        let pair;
        if (isPair(key))
            pair = key;
        else if (key &&
            typeof key === 'object' &&
            'key' in key &&
            'value' in key &&
            key.value === null)
            pair = new Pair(key.key, null);
        else
            pair = new Pair(key, null);
        const prev = findPair(this.items, pair.key);
        if (!prev)
            this.items.push(pair);
    }
    /**
     * If `keepPair` is `true`, returns the Pair matching `key`.
     * Otherwise, returns the value of that Pair's key.
     */
    get(key, keepPair) {
        const pair = findPair(this.items, key);
        return !keepPair && isPair(pair)
            ? isScalar(pair.key)
                ? pair.key.value
                : pair.key
            : pair;
    }
    set(key, value) {
        if (typeof value !== 'boolean')
            throw new Error(`Expected boolean value for set(key, value) in a YAML set, not ${typeof value}`);
        const prev = findPair(this.items, key);
        if (prev && !value) {
            this.items.splice(this.items.indexOf(prev), 1);
        }
        else if (!prev && value) {
            this.items.push(new Pair(key));
        }
    }
    toJSON(_, ctx) {
        return super.toJSON(_, ctx, Set);
    }
    toString(ctx, onComment, onChompKeep) {
        if (!ctx)
            return JSON.stringify(this);
        if (this.hasAllNullValues(true))
            return super.toString(Object.assign({}, ctx, { allNullValues: true }), onComment, onChompKeep);
        else
            throw new Error('Set items must all have null values');
    }
    static from(schema, iterable, ctx) {
        const { replacer } = ctx;
        const set = new this(schema);
        if (iterable && Symbol.iterator in Object(iterable))
            for (let value of iterable) {
                if (typeof replacer === 'function')
                    value = replacer.call(iterable, value, value);
                set.items.push(createPair(value, null, ctx));
            }
        return set;
    }
}
YAMLSet.tag = 'tag:yaml.org,2002:set';
const set = {
    collection: 'map',
    identify: value => value instanceof Set,
    nodeClass: YAMLSet,
    default: false,
    tag: 'tag:yaml.org,2002:set',
    createNode: (schema, iterable, ctx) => YAMLSet.from(schema, iterable, ctx),
    resolve(map, onError) {
        if (isMap(map)) {
            if (map.hasAllNullValues(true))
                return Object.assign(new YAMLSet(), map);
            else
                onError('Set items must all have null values');
        }
        else
            onError('Expected a mapping for this tag');
        return map;
    }
};

/** Internal types handle bigint as number, because TS can't figure it out. */
function parseSexagesimal(str, asBigInt) {
    const sign = str[0];
    const parts = sign === '-' || sign === '+' ? str.substring(1) : str;
    const num = (n) => asBigInt ? BigInt(n) : Number(n);
    const res = parts
        .replace(/_/g, '')
        .split(':')
        .reduce((res, p) => res * num(60) + num(p), num(0));
    return (sign === '-' ? num(-1) * res : res);
}
/**
 * hhhh:mm:ss.sss
 *
 * Internal types handle bigint as number, because TS can't figure it out.
 */
function stringifySexagesimal(node) {
    let { value } = node;
    let num = (n) => n;
    if (typeof value === 'bigint')
        num = n => BigInt(n);
    else if (isNaN(value) || !isFinite(value))
        return stringifyNumber(node);
    let sign = '';
    if (value < 0) {
        sign = '-';
        value *= num(-1);
    }
    const _60 = num(60);
    const parts = [value % _60]; // seconds, including ms
    if (value < 60) {
        parts.unshift(0); // at least one : is required
    }
    else {
        value = (value - parts[0]) / _60;
        parts.unshift(value % _60); // minutes
        if (value >= 60) {
            value = (value - parts[0]) / _60;
            parts.unshift(value); // hours
        }
    }
    return (sign +
        parts
            .map(n => String(n).padStart(2, '0'))
            .join(':')
            .replace(/000000\d*$/, '') // % 60 may introduce error
    );
}
const intTime = {
    identify: value => typeof value === 'bigint' || Number.isInteger(value),
    default: true,
    tag: 'tag:yaml.org,2002:int',
    format: 'TIME',
    test: /^[-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+$/,
    resolve: (str, _onError, { intAsBigInt }) => parseSexagesimal(str, intAsBigInt),
    stringify: stringifySexagesimal
};
const floatTime = {
    identify: value => typeof value === 'number',
    default: true,
    tag: 'tag:yaml.org,2002:float',
    format: 'TIME',
    test: /^[-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+\.[0-9_]*$/,
    resolve: str => parseSexagesimal(str, false),
    stringify: stringifySexagesimal
};
const timestamp = {
    identify: value => value instanceof Date,
    default: true,
    tag: 'tag:yaml.org,2002:timestamp',
    // If the time zone is omitted, the timestamp is assumed to be specified in UTC. The time part
    // may be omitted altogether, resulting in a date format. In such a case, the time part is
    // assumed to be 00:00:00Z (start of day, UTC).
    test: RegExp('^([0-9]{4})-([0-9]{1,2})-([0-9]{1,2})' + // YYYY-Mm-Dd
        '(?:' + // time is optional
        '(?:t|T|[ \\t]+)' + // t | T | whitespace
        '([0-9]{1,2}):([0-9]{1,2}):([0-9]{1,2}(\\.[0-9]+)?)' + // Hh:Mm:Ss(.ss)?
        '(?:[ \\t]*(Z|[-+][012]?[0-9](?::[0-9]{2})?))?' + // Z | +5 | -03:30
        ')?$'),
    resolve(str) {
        const match = str.match(timestamp.test);
        if (!match)
            throw new Error('!!timestamp expects a date, starting with yyyy-mm-dd');
        const [, year, month, day, hour, minute, second] = match.map(Number);
        const millisec = match[7] ? Number((match[7] + '00').substr(1, 3)) : 0;
        let date = Date.UTC(year, month - 1, day, hour || 0, minute || 0, second || 0, millisec);
        const tz = match[8];
        if (tz && tz !== 'Z') {
            let d = parseSexagesimal(tz, false);
            if (Math.abs(d) < 30)
                d *= 60;
            date -= 60000 * d;
        }
        return new Date(date);
    },
    stringify: ({ value }) => value?.toISOString().replace(/(T00:00:00)?\.000Z$/, '') ?? ''
};

const schema = [
    map,
    seq,
    string,
    nullTag,
    trueTag,
    falseTag,
    intBin,
    intOct,
    int,
    intHex,
    floatNaN,
    floatExp,
    float,
    binary,
    merge,
    omap,
    pairs,
    set,
    intTime,
    floatTime,
    timestamp
];

const schemas = new Map([
    ['core', schema$2],
    ['failsafe', [map, seq, string]],
    ['json', schema$1],
    ['yaml11', schema],
    ['yaml-1.1', schema]
]);
const tagsByName = {
    binary,
    bool: boolTag,
    float: float$1,
    floatExp: floatExp$1,
    floatNaN: floatNaN$1,
    floatTime,
    int: int$1,
    intHex: intHex$1,
    intOct: intOct$1,
    intTime,
    map,
    merge,
    null: nullTag,
    omap,
    pairs,
    seq,
    set,
    timestamp
};
const coreKnownTags = {
    'tag:yaml.org,2002:binary': binary,
    'tag:yaml.org,2002:merge': merge,
    'tag:yaml.org,2002:omap': omap,
    'tag:yaml.org,2002:pairs': pairs,
    'tag:yaml.org,2002:set': set,
    'tag:yaml.org,2002:timestamp': timestamp
};
function getTags(customTags, schemaName, addMergeTag) {
    const schemaTags = schemas.get(schemaName);
    if (schemaTags && !customTags) {
        return addMergeTag && !schemaTags.includes(merge)
            ? schemaTags.concat(merge)
            : schemaTags.slice();
    }
    let tags = schemaTags;
    if (!tags) {
        if (Array.isArray(customTags))
            tags = [];
        else {
            const keys = Array.from(schemas.keys())
                .filter(key => key !== 'yaml11')
                .map(key => JSON.stringify(key))
                .join(', ');
            throw new Error(`Unknown schema "${schemaName}"; use one of ${keys} or define customTags array`);
        }
    }
    if (Array.isArray(customTags)) {
        for (const tag of customTags)
            tags = tags.concat(tag);
    }
    else if (typeof customTags === 'function') {
        tags = customTags(tags.slice());
    }
    if (addMergeTag)
        tags = tags.concat(merge);
    return tags.reduce((tags, tag) => {
        const tagObj = typeof tag === 'string' ? tagsByName[tag] : tag;
        if (!tagObj) {
            const tagName = JSON.stringify(tag);
            const keys = Object.keys(tagsByName)
                .map(key => JSON.stringify(key))
                .join(', ');
            throw new Error(`Unknown custom tag ${tagName}; use one of ${keys}`);
        }
        if (!tags.includes(tagObj))
            tags.push(tagObj);
        return tags;
    }, []);
}

const sortMapEntriesByKey = (a, b) => a.key < b.key ? -1 : a.key > b.key ? 1 : 0;
class Schema {
    constructor({ compat, customTags, merge, resolveKnownTags, schema, sortMapEntries, toStringDefaults }) {
        this.compat = Array.isArray(compat)
            ? getTags(compat, 'compat')
            : compat
                ? getTags(null, compat)
                : null;
        this.name = (typeof schema === 'string' && schema) || 'core';
        this.knownTags = resolveKnownTags ? coreKnownTags : {};
        this.tags = getTags(customTags, this.name, merge);
        this.toStringOptions = toStringDefaults ?? null;
        Object.defineProperty(this, MAP, { value: map });
        Object.defineProperty(this, SCALAR$1, { value: string });
        Object.defineProperty(this, SEQ, { value: seq });
        // Used by createMap()
        this.sortMapEntries =
            typeof sortMapEntries === 'function'
                ? sortMapEntries
                : sortMapEntries === true
                    ? sortMapEntriesByKey
                    : null;
    }
    clone() {
        const copy = Object.create(Schema.prototype, Object.getOwnPropertyDescriptors(this));
        copy.tags = this.tags.slice();
        return copy;
    }
}

function stringifyDocument(doc, options) {
    const lines = [];
    let hasDirectives = options.directives === true;
    if (options.directives !== false && doc.directives) {
        const dir = doc.directives.toString(doc);
        if (dir) {
            lines.push(dir);
            hasDirectives = true;
        }
        else if (doc.directives.docStart)
            hasDirectives = true;
    }
    if (hasDirectives)
        lines.push('---');
    const ctx = createStringifyContext(doc, options);
    const { commentString } = ctx.options;
    if (doc.commentBefore) {
        if (lines.length !== 1)
            lines.unshift('');
        const cs = commentString(doc.commentBefore);
        lines.unshift(indentComment(cs, ''));
    }
    let chompKeep = false;
    let contentComment = null;
    if (doc.contents) {
        if (isNode(doc.contents)) {
            if (doc.contents.spaceBefore && hasDirectives)
                lines.push('');
            if (doc.contents.commentBefore) {
                const cs = commentString(doc.contents.commentBefore);
                lines.push(indentComment(cs, ''));
            }
            // top-level block scalars need to be indented if followed by a comment
            ctx.forceBlockIndent = !!doc.comment;
            contentComment = doc.contents.comment;
        }
        const onChompKeep = contentComment ? undefined : () => (chompKeep = true);
        let body = stringify$1(doc.contents, ctx, () => (contentComment = null), onChompKeep);
        if (contentComment)
            body += lineComment(body, '', commentString(contentComment));
        if ((body[0] === '|' || body[0] === '>') &&
            lines[lines.length - 1] === '---') {
            // Top-level block scalars with a preceding doc marker ought to use the
            // same line for their header.
            lines[lines.length - 1] = `--- ${body}`;
        }
        else
            lines.push(body);
    }
    else {
        lines.push(stringify$1(doc.contents, ctx));
    }
    if (doc.directives?.docEnd) {
        if (doc.comment) {
            const cs = commentString(doc.comment);
            if (cs.includes('\n')) {
                lines.push('...');
                lines.push(indentComment(cs, ''));
            }
            else {
                lines.push(`... ${cs}`);
            }
        }
        else {
            lines.push('...');
        }
    }
    else {
        let dc = doc.comment;
        if (dc && chompKeep)
            dc = dc.replace(/^\n+/, '');
        if (dc) {
            if ((!chompKeep || contentComment) && lines[lines.length - 1] !== '')
                lines.push('');
            lines.push(indentComment(commentString(dc), ''));
        }
    }
    return lines.join('\n') + '\n';
}

class Document {
    constructor(value, replacer, options) {
        /** A comment before this Document */
        this.commentBefore = null;
        /** A comment immediately after this Document */
        this.comment = null;
        /** Errors encountered during parsing. */
        this.errors = [];
        /** Warnings encountered during parsing. */
        this.warnings = [];
        Object.defineProperty(this, NODE_TYPE, { value: DOC });
        let _replacer = null;
        if (typeof replacer === 'function' || Array.isArray(replacer)) {
            _replacer = replacer;
        }
        else if (options === undefined && replacer) {
            options = replacer;
            replacer = undefined;
        }
        const opt = Object.assign({
            intAsBigInt: false,
            keepSourceTokens: false,
            logLevel: 'warn',
            prettyErrors: true,
            strict: true,
            stringKeys: false,
            uniqueKeys: true,
            version: '1.2'
        }, options);
        this.options = opt;
        let { version } = opt;
        if (options?._directives) {
            this.directives = options._directives.atDocument();
            if (this.directives.yaml.explicit)
                version = this.directives.yaml.version;
        }
        else
            this.directives = new Directives({ version });
        this.setSchema(version, options);
        // @ts-expect-error We can't really know that this matches Contents.
        this.contents =
            value === undefined ? null : this.createNode(value, _replacer, options);
    }
    /**
     * Create a deep copy of this Document and its contents.
     *
     * Custom Node values that inherit from `Object` still refer to their original instances.
     */
    clone() {
        const copy = Object.create(Document.prototype, {
            [NODE_TYPE]: { value: DOC }
        });
        copy.commentBefore = this.commentBefore;
        copy.comment = this.comment;
        copy.errors = this.errors.slice();
        copy.warnings = this.warnings.slice();
        copy.options = Object.assign({}, this.options);
        if (this.directives)
            copy.directives = this.directives.clone();
        copy.schema = this.schema.clone();
        // @ts-expect-error We can't really know that this matches Contents.
        copy.contents = isNode(this.contents)
            ? this.contents.clone(copy.schema)
            : this.contents;
        if (this.range)
            copy.range = this.range.slice();
        return copy;
    }
    /** Adds a value to the document. */
    add(value) {
        if (assertCollection(this.contents))
            this.contents.add(value);
    }
    /** Adds a value to the document. */
    addIn(path, value) {
        if (assertCollection(this.contents))
            this.contents.addIn(path, value);
    }
    /**
     * Create a new `Alias` node, ensuring that the target `node` has the required anchor.
     *
     * If `node` already has an anchor, `name` is ignored.
     * Otherwise, the `node.anchor` value will be set to `name`,
     * or if an anchor with that name is already present in the document,
     * `name` will be used as a prefix for a new unique anchor.
     * If `name` is undefined, the generated anchor will use 'a' as a prefix.
     */
    createAlias(node, name) {
        if (!node.anchor) {
            const prev = anchorNames(this);
            node.anchor =
                // eslint-disable-next-line @typescript-eslint/prefer-nullish-coalescing
                !name || prev.has(name) ? findNewAnchor(name || 'a', prev) : name;
        }
        return new Alias(node.anchor);
    }
    createNode(value, replacer, options) {
        let _replacer = undefined;
        if (typeof replacer === 'function') {
            value = replacer.call({ '': value }, '', value);
            _replacer = replacer;
        }
        else if (Array.isArray(replacer)) {
            const keyToStr = (v) => typeof v === 'number' || v instanceof String || v instanceof Number;
            const asStr = replacer.filter(keyToStr).map(String);
            if (asStr.length > 0)
                replacer = replacer.concat(asStr);
            _replacer = replacer;
        }
        else if (options === undefined && replacer) {
            options = replacer;
            replacer = undefined;
        }
        const { aliasDuplicateObjects, anchorPrefix, flow, keepUndefined, onTagObj, tag } = options ?? {};
        const { onAnchor, setAnchors, sourceObjects } = createNodeAnchors(this, 
        // eslint-disable-next-line @typescript-eslint/prefer-nullish-coalescing
        anchorPrefix || 'a');
        const ctx = {
            aliasDuplicateObjects: aliasDuplicateObjects ?? true,
            keepUndefined: keepUndefined ?? false,
            onAnchor,
            onTagObj,
            replacer: _replacer,
            schema: this.schema,
            sourceObjects
        };
        const node = createNode(value, tag, ctx);
        if (flow && isCollection(node))
            node.flow = true;
        setAnchors();
        return node;
    }
    /**
     * Convert a key and a value into a `Pair` using the current schema,
     * recursively wrapping all values as `Scalar` or `Collection` nodes.
     */
    createPair(key, value, options = {}) {
        const k = this.createNode(key, null, options);
        const v = this.createNode(value, null, options);
        return new Pair(k, v);
    }
    /**
     * Removes a value from the document.
     * @returns `true` if the item was found and removed.
     */
    delete(key) {
        return assertCollection(this.contents) ? this.contents.delete(key) : false;
    }
    /**
     * Removes a value from the document.
     * @returns `true` if the item was found and removed.
     */
    deleteIn(path) {
        if (isEmptyPath(path)) {
            if (this.contents == null)
                return false;
            // @ts-expect-error Presumed impossible if Strict extends false
            this.contents = null;
            return true;
        }
        return assertCollection(this.contents)
            ? this.contents.deleteIn(path)
            : false;
    }
    /**
     * Returns item at `key`, or `undefined` if not found. By default unwraps
     * scalar values from their surrounding node; to disable set `keepScalar` to
     * `true` (collections are always returned intact).
     */
    get(key, keepScalar) {
        return isCollection(this.contents)
            ? this.contents.get(key, keepScalar)
            : undefined;
    }
    /**
     * Returns item at `path`, or `undefined` if not found. By default unwraps
     * scalar values from their surrounding node; to disable set `keepScalar` to
     * `true` (collections are always returned intact).
     */
    getIn(path, keepScalar) {
        if (isEmptyPath(path))
            return !keepScalar && isScalar(this.contents)
                ? this.contents.value
                : this.contents;
        return isCollection(this.contents)
            ? this.contents.getIn(path, keepScalar)
            : undefined;
    }
    /**
     * Checks if the document includes a value with the key `key`.
     */
    has(key) {
        return isCollection(this.contents) ? this.contents.has(key) : false;
    }
    /**
     * Checks if the document includes a value at `path`.
     */
    hasIn(path) {
        if (isEmptyPath(path))
            return this.contents !== undefined;
        return isCollection(this.contents) ? this.contents.hasIn(path) : false;
    }
    /**
     * Sets a value in this document. For `!!set`, `value` needs to be a
     * boolean to add/remove the item from the set.
     */
    set(key, value) {
        if (this.contents == null) {
            // @ts-expect-error We can't really know that this matches Contents.
            this.contents = collectionFromPath(this.schema, [key], value);
        }
        else if (assertCollection(this.contents)) {
            this.contents.set(key, value);
        }
    }
    /**
     * Sets a value in this document. For `!!set`, `value` needs to be a
     * boolean to add/remove the item from the set.
     */
    setIn(path, value) {
        if (isEmptyPath(path)) {
            // @ts-expect-error We can't really know that this matches Contents.
            this.contents = value;
        }
        else if (this.contents == null) {
            // @ts-expect-error We can't really know that this matches Contents.
            this.contents = collectionFromPath(this.schema, Array.from(path), value);
        }
        else if (assertCollection(this.contents)) {
            this.contents.setIn(path, value);
        }
    }
    /**
     * Change the YAML version and schema used by the document.
     * A `null` version disables support for directives, explicit tags, anchors, and aliases.
     * It also requires the `schema` option to be given as a `Schema` instance value.
     *
     * Overrides all previously set schema options.
     */
    setSchema(version, options = {}) {
        if (typeof version === 'number')
            version = String(version);
        let opt;
        switch (version) {
            case '1.1':
                if (this.directives)
                    this.directives.yaml.version = '1.1';
                else
                    this.directives = new Directives({ version: '1.1' });
                opt = { resolveKnownTags: false, schema: 'yaml-1.1' };
                break;
            case '1.2':
            case 'next':
                if (this.directives)
                    this.directives.yaml.version = version;
                else
                    this.directives = new Directives({ version });
                opt = { resolveKnownTags: true, schema: 'core' };
                break;
            case null:
                if (this.directives)
                    delete this.directives;
                opt = null;
                break;
            default: {
                const sv = JSON.stringify(version);
                throw new Error(`Expected '1.1', '1.2' or null as first argument, but found: ${sv}`);
            }
        }
        // Not using `instanceof Schema` to allow for duck typing
        if (options.schema instanceof Object)
            this.schema = options.schema;
        else if (opt)
            this.schema = new Schema(Object.assign(opt, options));
        else
            throw new Error(`With a null YAML version, the { schema: Schema } option is required`);
    }
    // json & jsonArg are only used from toJSON()
    toJS({ json, jsonArg, mapAsMap, maxAliasCount, onAnchor, reviver } = {}) {
        const ctx = {
            anchors: new Map(),
            doc: this,
            keep: !json,
            mapAsMap: mapAsMap === true,
            mapKeyWarned: false,
            maxAliasCount: typeof maxAliasCount === 'number' ? maxAliasCount : 100
        };
        const res = toJS(this.contents, jsonArg ?? '', ctx);
        if (typeof onAnchor === 'function')
            for (const { count, res } of ctx.anchors.values())
                onAnchor(res, count);
        return typeof reviver === 'function'
            ? applyReviver(reviver, { '': res }, '', res)
            : res;
    }
    /**
     * A JSON representation of the document `contents`.
     *
     * @param jsonArg Used by `JSON.stringify` to indicate the array index or
     *   property name.
     */
    toJSON(jsonArg, onAnchor) {
        return this.toJS({ json: true, jsonArg, mapAsMap: false, onAnchor });
    }
    /** A YAML representation of the document. */
    toString(options = {}) {
        if (this.errors.length > 0)
            throw new Error('Document with errors cannot be stringified');
        if ('indent' in options &&
            (!Number.isInteger(options.indent) || Number(options.indent) <= 0)) {
            const s = JSON.stringify(options.indent);
            throw new Error(`"indent" option must be a positive integer, not ${s}`);
        }
        return stringifyDocument(this, options);
    }
}
function assertCollection(contents) {
    if (isCollection(contents))
        return true;
    throw new Error('Expected a YAML collection as document contents');
}

class YAMLError extends Error {
    constructor(name, pos, code, message) {
        super();
        this.name = name;
        this.code = code;
        this.message = message;
        this.pos = pos;
    }
}
class YAMLParseError extends YAMLError {
    constructor(pos, code, message) {
        super('YAMLParseError', pos, code, message);
    }
}
class YAMLWarning extends YAMLError {
    constructor(pos, code, message) {
        super('YAMLWarning', pos, code, message);
    }
}
const prettifyError = (src, lc) => (error) => {
    if (error.pos[0] === -1)
        return;
    error.linePos = error.pos.map(pos => lc.linePos(pos));
    const { line, col } = error.linePos[0];
    error.message += ` at line ${line}, column ${col}`;
    let ci = col - 1;
    let lineStr = src
        .substring(lc.lineStarts[line - 1], lc.lineStarts[line])
        .replace(/[\n\r]+$/, '');
    // Trim to max 80 chars, keeping col position near the middle
    if (ci >= 60 && lineStr.length > 80) {
        const trimStart = Math.min(ci - 39, lineStr.length - 79);
        lineStr = '…' + lineStr.substring(trimStart);
        ci -= trimStart - 1;
    }
    if (lineStr.length > 80)
        lineStr = lineStr.substring(0, 79) + '…';
    // Include previous line in context if pointing at line start
    if (line > 1 && /^ *$/.test(lineStr.substring(0, ci))) {
        // Regexp won't match if start is trimmed
        let prev = src.substring(lc.lineStarts[line - 2], lc.lineStarts[line - 1]);
        if (prev.length > 80)
            prev = prev.substring(0, 79) + '…\n';
        lineStr = prev + lineStr;
    }
    if (/[^ ]/.test(lineStr)) {
        let count = 1;
        const end = error.linePos[1];
        if (end?.line === line && end.col > col) {
            count = Math.max(1, Math.min(end.col - col, 80 - ci));
        }
        const pointer = ' '.repeat(ci) + '^'.repeat(count);
        error.message += `:\n\n${lineStr}\n${pointer}\n`;
    }
};

function resolveProps(tokens, { flow, indicator, next, offset, onError, parentIndent, startOnNewline }) {
    let spaceBefore = false;
    let atNewline = startOnNewline;
    let hasSpace = startOnNewline;
    let comment = '';
    let commentSep = '';
    let hasNewline = false;
    let reqSpace = false;
    let tab = null;
    let anchor = null;
    let tag = null;
    let newlineAfterProp = null;
    let comma = null;
    let found = null;
    let start = null;
    for (const token of tokens) {
        if (reqSpace) {
            if (token.type !== 'space' &&
                token.type !== 'newline' &&
                token.type !== 'comma')
                onError(token.offset, 'MISSING_CHAR', 'Tags and anchors must be separated from the next token by white space');
            reqSpace = false;
        }
        if (tab) {
            if (atNewline && token.type !== 'comment' && token.type !== 'newline') {
                onError(tab, 'TAB_AS_INDENT', 'Tabs are not allowed as indentation');
            }
            tab = null;
        }
        switch (token.type) {
            case 'space':
                // At the doc level, tabs at line start may be parsed
                // as leading white space rather than indentation.
                // In a flow collection, only the parser handles indent.
                if (!flow &&
                    (indicator !== 'doc-start' || next?.type !== 'flow-collection') &&
                    token.source.includes('\t')) {
                    tab = token;
                }
                hasSpace = true;
                break;
            case 'comment': {
                if (!hasSpace)
                    onError(token, 'MISSING_CHAR', 'Comments must be separated from other tokens by white space characters');
                const cb = token.source.substring(1) || ' ';
                if (!comment)
                    comment = cb;
                else
                    comment += commentSep + cb;
                commentSep = '';
                atNewline = false;
                break;
            }
            case 'newline':
                if (atNewline) {
                    if (comment)
                        comment += token.source;
                    else if (!found || indicator !== 'seq-item-ind')
                        spaceBefore = true;
                }
                else
                    commentSep += token.source;
                atNewline = true;
                hasNewline = true;
                if (anchor || tag)
                    newlineAfterProp = token;
                hasSpace = true;
                break;
            case 'anchor':
                if (anchor)
                    onError(token, 'MULTIPLE_ANCHORS', 'A node can have at most one anchor');
                if (token.source.endsWith(':'))
                    onError(token.offset + token.source.length - 1, 'BAD_ALIAS', 'Anchor ending in : is ambiguous', true);
                anchor = token;
                start ?? (start = token.offset);
                atNewline = false;
                hasSpace = false;
                reqSpace = true;
                break;
            case 'tag': {
                if (tag)
                    onError(token, 'MULTIPLE_TAGS', 'A node can have at most one tag');
                tag = token;
                start ?? (start = token.offset);
                atNewline = false;
                hasSpace = false;
                reqSpace = true;
                break;
            }
            case indicator:
                // Could here handle preceding comments differently
                if (anchor || tag)
                    onError(token, 'BAD_PROP_ORDER', `Anchors and tags must be after the ${token.source} indicator`);
                if (found)
                    onError(token, 'UNEXPECTED_TOKEN', `Unexpected ${token.source} in ${flow ?? 'collection'}`);
                found = token;
                atNewline =
                    indicator === 'seq-item-ind' || indicator === 'explicit-key-ind';
                hasSpace = false;
                break;
            case 'comma':
                if (flow) {
                    if (comma)
                        onError(token, 'UNEXPECTED_TOKEN', `Unexpected , in ${flow}`);
                    comma = token;
                    atNewline = false;
                    hasSpace = false;
                    break;
                }
            // else fallthrough
            default:
                onError(token, 'UNEXPECTED_TOKEN', `Unexpected ${token.type} token`);
                atNewline = false;
                hasSpace = false;
        }
    }
    const last = tokens[tokens.length - 1];
    const end = last ? last.offset + last.source.length : offset;
    if (reqSpace &&
        next &&
        next.type !== 'space' &&
        next.type !== 'newline' &&
        next.type !== 'comma' &&
        (next.type !== 'scalar' || next.source !== '')) {
        onError(next.offset, 'MISSING_CHAR', 'Tags and anchors must be separated from the next token by white space');
    }
    if (tab &&
        ((atNewline && tab.indent <= parentIndent) ||
            next?.type === 'block-map' ||
            next?.type === 'block-seq'))
        onError(tab, 'TAB_AS_INDENT', 'Tabs are not allowed as indentation');
    return {
        comma,
        found,
        spaceBefore,
        comment,
        hasNewline,
        anchor,
        tag,
        newlineAfterProp,
        end,
        start: start ?? end
    };
}

function containsNewline(key) {
    if (!key)
        return null;
    switch (key.type) {
        case 'alias':
        case 'scalar':
        case 'double-quoted-scalar':
        case 'single-quoted-scalar':
            if (key.source.includes('\n'))
                return true;
            if (key.end)
                for (const st of key.end)
                    if (st.type === 'newline')
                        return true;
            return false;
        case 'flow-collection':
            for (const it of key.items) {
                for (const st of it.start)
                    if (st.type === 'newline')
                        return true;
                if (it.sep)
                    for (const st of it.sep)
                        if (st.type === 'newline')
                            return true;
                if (containsNewline(it.key) || containsNewline(it.value))
                    return true;
            }
            return false;
        default:
            return true;
    }
}

function flowIndentCheck(indent, fc, onError) {
    if (fc?.type === 'flow-collection') {
        const end = fc.end[0];
        if (end.indent === indent &&
            (end.source === ']' || end.source === '}') &&
            containsNewline(fc)) {
            const msg = 'Flow end indicator should be more indented than parent';
            onError(end, 'BAD_INDENT', msg, true);
        }
    }
}

function mapIncludes(ctx, items, search) {
    const { uniqueKeys } = ctx.options;
    if (uniqueKeys === false)
        return false;
    const isEqual = typeof uniqueKeys === 'function'
        ? uniqueKeys
        : (a, b) => a === b || (isScalar(a) && isScalar(b) && a.value === b.value);
    return items.some(pair => isEqual(pair.key, search));
}

const startColMsg = 'All mapping items must start at the same column';
function resolveBlockMap({ composeNode, composeEmptyNode }, ctx, bm, onError, tag) {
    const NodeClass = tag?.nodeClass ?? YAMLMap;
    const map = new NodeClass(ctx.schema);
    if (ctx.atRoot)
        ctx.atRoot = false;
    let offset = bm.offset;
    let commentEnd = null;
    for (const collItem of bm.items) {
        const { start, key, sep, value } = collItem;
        // key properties
        const keyProps = resolveProps(start, {
            indicator: 'explicit-key-ind',
            next: key ?? sep?.[0],
            offset,
            onError,
            parentIndent: bm.indent,
            startOnNewline: true
        });
        const implicitKey = !keyProps.found;
        if (implicitKey) {
            if (key) {
                if (key.type === 'block-seq')
                    onError(offset, 'BLOCK_AS_IMPLICIT_KEY', 'A block sequence may not be used as an implicit map key');
                else if ('indent' in key && key.indent !== bm.indent)
                    onError(offset, 'BAD_INDENT', startColMsg);
            }
            if (!keyProps.anchor && !keyProps.tag && !sep) {
                commentEnd = keyProps.end;
                if (keyProps.comment) {
                    if (map.comment)
                        map.comment += '\n' + keyProps.comment;
                    else
                        map.comment = keyProps.comment;
                }
                continue;
            }
            if (keyProps.newlineAfterProp || containsNewline(key)) {
                onError(key ?? start[start.length - 1], 'MULTILINE_IMPLICIT_KEY', 'Implicit keys need to be on a single line');
            }
        }
        else if (keyProps.found?.indent !== bm.indent) {
            onError(offset, 'BAD_INDENT', startColMsg);
        }
        // key value
        ctx.atKey = true;
        const keyStart = keyProps.end;
        const keyNode = key
            ? composeNode(ctx, key, keyProps, onError)
            : composeEmptyNode(ctx, keyStart, start, null, keyProps, onError);
        if (ctx.schema.compat)
            flowIndentCheck(bm.indent, key, onError);
        ctx.atKey = false;
        if (mapIncludes(ctx, map.items, keyNode))
            onError(keyStart, 'DUPLICATE_KEY', 'Map keys must be unique');
        // value properties
        const valueProps = resolveProps(sep ?? [], {
            indicator: 'map-value-ind',
            next: value,
            offset: keyNode.range[2],
            onError,
            parentIndent: bm.indent,
            startOnNewline: !key || key.type === 'block-scalar'
        });
        offset = valueProps.end;
        if (valueProps.found) {
            if (implicitKey) {
                if (value?.type === 'block-map' && !valueProps.hasNewline)
                    onError(offset, 'BLOCK_AS_IMPLICIT_KEY', 'Nested mappings are not allowed in compact mappings');
                if (ctx.options.strict &&
                    keyProps.start < valueProps.found.offset - 1024)
                    onError(keyNode.range, 'KEY_OVER_1024_CHARS', 'The : indicator must be at most 1024 chars after the start of an implicit block mapping key');
            }
            // value value
            const valueNode = value
                ? composeNode(ctx, value, valueProps, onError)
                : composeEmptyNode(ctx, offset, sep, null, valueProps, onError);
            if (ctx.schema.compat)
                flowIndentCheck(bm.indent, value, onError);
            offset = valueNode.range[2];
            const pair = new Pair(keyNode, valueNode);
            if (ctx.options.keepSourceTokens)
                pair.srcToken = collItem;
            map.items.push(pair);
        }
        else {
            // key with no value
            if (implicitKey)
                onError(keyNode.range, 'MISSING_CHAR', 'Implicit map keys need to be followed by map values');
            if (valueProps.comment) {
                if (keyNode.comment)
                    keyNode.comment += '\n' + valueProps.comment;
                else
                    keyNode.comment = valueProps.comment;
            }
            const pair = new Pair(keyNode);
            if (ctx.options.keepSourceTokens)
                pair.srcToken = collItem;
            map.items.push(pair);
        }
    }
    if (commentEnd && commentEnd < offset)
        onError(commentEnd, 'IMPOSSIBLE', 'Map comment with trailing content');
    map.range = [bm.offset, offset, commentEnd ?? offset];
    return map;
}

function resolveBlockSeq({ composeNode, composeEmptyNode }, ctx, bs, onError, tag) {
    const NodeClass = tag?.nodeClass ?? YAMLSeq;
    const seq = new NodeClass(ctx.schema);
    if (ctx.atRoot)
        ctx.atRoot = false;
    if (ctx.atKey)
        ctx.atKey = false;
    let offset = bs.offset;
    let commentEnd = null;
    for (const { start, value } of bs.items) {
        const props = resolveProps(start, {
            indicator: 'seq-item-ind',
            next: value,
            offset,
            onError,
            parentIndent: bs.indent,
            startOnNewline: true
        });
        if (!props.found) {
            if (props.anchor || props.tag || value) {
                if (value?.type === 'block-seq')
                    onError(props.end, 'BAD_INDENT', 'All sequence items must start at the same column');
                else
                    onError(offset, 'MISSING_CHAR', 'Sequence item without - indicator');
            }
            else {
                commentEnd = props.end;
                if (props.comment)
                    seq.comment = props.comment;
                continue;
            }
        }
        const node = value
            ? composeNode(ctx, value, props, onError)
            : composeEmptyNode(ctx, props.end, start, null, props, onError);
        if (ctx.schema.compat)
            flowIndentCheck(bs.indent, value, onError);
        offset = node.range[2];
        seq.items.push(node);
    }
    seq.range = [bs.offset, offset, commentEnd ?? offset];
    return seq;
}

function resolveEnd(end, offset, reqSpace, onError) {
    let comment = '';
    if (end) {
        let hasSpace = false;
        let sep = '';
        for (const token of end) {
            const { source, type } = token;
            switch (type) {
                case 'space':
                    hasSpace = true;
                    break;
                case 'comment': {
                    if (reqSpace && !hasSpace)
                        onError(token, 'MISSING_CHAR', 'Comments must be separated from other tokens by white space characters');
                    const cb = source.substring(1) || ' ';
                    if (!comment)
                        comment = cb;
                    else
                        comment += sep + cb;
                    sep = '';
                    break;
                }
                case 'newline':
                    if (comment)
                        sep += source;
                    hasSpace = true;
                    break;
                default:
                    onError(token, 'UNEXPECTED_TOKEN', `Unexpected ${type} at node end`);
            }
            offset += source.length;
        }
    }
    return { comment, offset };
}

const blockMsg = 'Block collections are not allowed within flow collections';
const isBlock = (token) => token && (token.type === 'block-map' || token.type === 'block-seq');
function resolveFlowCollection({ composeNode, composeEmptyNode }, ctx, fc, onError, tag) {
    const isMap = fc.start.source === '{';
    const fcName = isMap ? 'flow map' : 'flow sequence';
    const NodeClass = (tag?.nodeClass ?? (isMap ? YAMLMap : YAMLSeq));
    const coll = new NodeClass(ctx.schema);
    coll.flow = true;
    const atRoot = ctx.atRoot;
    if (atRoot)
        ctx.atRoot = false;
    if (ctx.atKey)
        ctx.atKey = false;
    let offset = fc.offset + fc.start.source.length;
    for (let i = 0; i < fc.items.length; ++i) {
        const collItem = fc.items[i];
        const { start, key, sep, value } = collItem;
        const props = resolveProps(start, {
            flow: fcName,
            indicator: 'explicit-key-ind',
            next: key ?? sep?.[0],
            offset,
            onError,
            parentIndent: fc.indent,
            startOnNewline: false
        });
        if (!props.found) {
            if (!props.anchor && !props.tag && !sep && !value) {
                if (i === 0 && props.comma)
                    onError(props.comma, 'UNEXPECTED_TOKEN', `Unexpected , in ${fcName}`);
                else if (i < fc.items.length - 1)
                    onError(props.start, 'UNEXPECTED_TOKEN', `Unexpected empty item in ${fcName}`);
                if (props.comment) {
                    if (coll.comment)
                        coll.comment += '\n' + props.comment;
                    else
                        coll.comment = props.comment;
                }
                offset = props.end;
                continue;
            }
            if (!isMap && ctx.options.strict && containsNewline(key))
                onError(key, // checked by containsNewline()
                'MULTILINE_IMPLICIT_KEY', 'Implicit keys of flow sequence pairs need to be on a single line');
        }
        if (i === 0) {
            if (props.comma)
                onError(props.comma, 'UNEXPECTED_TOKEN', `Unexpected , in ${fcName}`);
        }
        else {
            if (!props.comma)
                onError(props.start, 'MISSING_CHAR', `Missing , between ${fcName} items`);
            if (props.comment) {
                let prevItemComment = '';
                loop: for (const st of start) {
                    switch (st.type) {
                        case 'comma':
                        case 'space':
                            break;
                        case 'comment':
                            prevItemComment = st.source.substring(1);
                            break loop;
                        default:
                            break loop;
                    }
                }
                if (prevItemComment) {
                    let prev = coll.items[coll.items.length - 1];
                    if (isPair(prev))
                        prev = prev.value ?? prev.key;
                    if (prev.comment)
                        prev.comment += '\n' + prevItemComment;
                    else
                        prev.comment = prevItemComment;
                    props.comment = props.comment.substring(prevItemComment.length + 1);
                }
            }
        }
        if (!isMap && !sep && !props.found) {
            // item is a value in a seq
            // → key & sep are empty, start does not include ? or :
            const valueNode = value
                ? composeNode(ctx, value, props, onError)
                : composeEmptyNode(ctx, props.end, sep, null, props, onError);
            coll.items.push(valueNode);
            offset = valueNode.range[2];
            if (isBlock(value))
                onError(valueNode.range, 'BLOCK_IN_FLOW', blockMsg);
        }
        else {
            // item is a key+value pair
            // key value
            ctx.atKey = true;
            const keyStart = props.end;
            const keyNode = key
                ? composeNode(ctx, key, props, onError)
                : composeEmptyNode(ctx, keyStart, start, null, props, onError);
            if (isBlock(key))
                onError(keyNode.range, 'BLOCK_IN_FLOW', blockMsg);
            ctx.atKey = false;
            // value properties
            const valueProps = resolveProps(sep ?? [], {
                flow: fcName,
                indicator: 'map-value-ind',
                next: value,
                offset: keyNode.range[2],
                onError,
                parentIndent: fc.indent,
                startOnNewline: false
            });
            if (valueProps.found) {
                if (!isMap && !props.found && ctx.options.strict) {
                    if (sep)
                        for (const st of sep) {
                            if (st === valueProps.found)
                                break;
                            if (st.type === 'newline') {
                                onError(st, 'MULTILINE_IMPLICIT_KEY', 'Implicit keys of flow sequence pairs need to be on a single line');
                                break;
                            }
                        }
                    if (props.start < valueProps.found.offset - 1024)
                        onError(valueProps.found, 'KEY_OVER_1024_CHARS', 'The : indicator must be at most 1024 chars after the start of an implicit flow sequence key');
                }
            }
            else if (value) {
                if ('source' in value && value.source?.[0] === ':')
                    onError(value, 'MISSING_CHAR', `Missing space after : in ${fcName}`);
                else
                    onError(valueProps.start, 'MISSING_CHAR', `Missing , or : between ${fcName} items`);
            }
            // value value
            const valueNode = value
                ? composeNode(ctx, value, valueProps, onError)
                : valueProps.found
                    ? composeEmptyNode(ctx, valueProps.end, sep, null, valueProps, onError)
                    : null;
            if (valueNode) {
                if (isBlock(value))
                    onError(valueNode.range, 'BLOCK_IN_FLOW', blockMsg);
            }
            else if (valueProps.comment) {
                if (keyNode.comment)
                    keyNode.comment += '\n' + valueProps.comment;
                else
                    keyNode.comment = valueProps.comment;
            }
            const pair = new Pair(keyNode, valueNode);
            if (ctx.options.keepSourceTokens)
                pair.srcToken = collItem;
            if (isMap) {
                const map = coll;
                if (mapIncludes(ctx, map.items, keyNode))
                    onError(keyStart, 'DUPLICATE_KEY', 'Map keys must be unique');
                map.items.push(pair);
            }
            else {
                const map = new YAMLMap(ctx.schema);
                map.flow = true;
                map.items.push(pair);
                const endRange = (valueNode ?? keyNode).range;
                map.range = [keyNode.range[0], endRange[1], endRange[2]];
                coll.items.push(map);
            }
            offset = valueNode ? valueNode.range[2] : valueProps.end;
        }
    }
    const expectedEnd = isMap ? '}' : ']';
    const [ce, ...ee] = fc.end;
    let cePos = offset;
    if (ce?.source === expectedEnd)
        cePos = ce.offset + ce.source.length;
    else {
        const name = fcName[0].toUpperCase() + fcName.substring(1);
        const msg = atRoot
            ? `${name} must end with a ${expectedEnd}`
            : `${name} in block collection must be sufficiently indented and end with a ${expectedEnd}`;
        onError(offset, atRoot ? 'MISSING_CHAR' : 'BAD_INDENT', msg);
        if (ce && ce.source.length !== 1)
            ee.unshift(ce);
    }
    if (ee.length > 0) {
        const end = resolveEnd(ee, cePos, ctx.options.strict, onError);
        if (end.comment) {
            if (coll.comment)
                coll.comment += '\n' + end.comment;
            else
                coll.comment = end.comment;
        }
        coll.range = [fc.offset, cePos, end.offset];
    }
    else {
        coll.range = [fc.offset, cePos, cePos];
    }
    return coll;
}

function resolveCollection(CN, ctx, token, onError, tagName, tag) {
    const coll = token.type === 'block-map'
        ? resolveBlockMap(CN, ctx, token, onError, tag)
        : token.type === 'block-seq'
            ? resolveBlockSeq(CN, ctx, token, onError, tag)
            : resolveFlowCollection(CN, ctx, token, onError, tag);
    const Coll = coll.constructor;
    // If we got a tagName matching the class, or the tag name is '!',
    // then use the tagName from the node class used to create it.
    if (tagName === '!' || tagName === Coll.tagName) {
        coll.tag = Coll.tagName;
        return coll;
    }
    if (tagName)
        coll.tag = tagName;
    return coll;
}
function composeCollection(CN, ctx, token, props, onError) {
    const tagToken = props.tag;
    const tagName = !tagToken
        ? null
        : ctx.directives.tagName(tagToken.source, msg => onError(tagToken, 'TAG_RESOLVE_FAILED', msg));
    if (token.type === 'block-seq') {
        const { anchor, newlineAfterProp: nl } = props;
        const lastProp = anchor && tagToken
            ? anchor.offset > tagToken.offset
                ? anchor
                : tagToken
            : (anchor ?? tagToken);
        if (lastProp && (!nl || nl.offset < lastProp.offset)) {
            const message = 'Missing newline after block sequence props';
            onError(lastProp, 'MISSING_CHAR', message);
        }
    }
    const expType = token.type === 'block-map'
        ? 'map'
        : token.type === 'block-seq'
            ? 'seq'
            : token.start.source === '{'
                ? 'map'
                : 'seq';
    // shortcut: check if it's a generic YAMLMap or YAMLSeq
    // before jumping into the custom tag logic.
    if (!tagToken ||
        !tagName ||
        tagName === '!' ||
        (tagName === YAMLMap.tagName && expType === 'map') ||
        (tagName === YAMLSeq.tagName && expType === 'seq')) {
        return resolveCollection(CN, ctx, token, onError, tagName);
    }
    let tag = ctx.schema.tags.find(t => t.tag === tagName && t.collection === expType);
    if (!tag) {
        const kt = ctx.schema.knownTags[tagName];
        if (kt?.collection === expType) {
            ctx.schema.tags.push(Object.assign({}, kt, { default: false }));
            tag = kt;
        }
        else {
            if (kt) {
                onError(tagToken, 'BAD_COLLECTION_TYPE', `${kt.tag} used for ${expType} collection, but expects ${kt.collection ?? 'scalar'}`, true);
            }
            else {
                onError(tagToken, 'TAG_RESOLVE_FAILED', `Unresolved tag: ${tagName}`, true);
            }
            return resolveCollection(CN, ctx, token, onError, tagName);
        }
    }
    const coll = resolveCollection(CN, ctx, token, onError, tagName, tag);
    const res = tag.resolve?.(coll, msg => onError(tagToken, 'TAG_RESOLVE_FAILED', msg), ctx.options) ?? coll;
    const node = isNode(res)
        ? res
        : new Scalar(res);
    node.range = coll.range;
    node.tag = tagName;
    if (tag?.format)
        node.format = tag.format;
    return node;
}

function resolveBlockScalar(ctx, scalar, onError) {
    const start = scalar.offset;
    const header = parseBlockScalarHeader(scalar, ctx.options.strict, onError);
    if (!header)
        return { value: '', type: null, comment: '', range: [start, start, start] };
    const type = header.mode === '>' ? Scalar.BLOCK_FOLDED : Scalar.BLOCK_LITERAL;
    const lines = scalar.source ? splitLines(scalar.source) : [];
    // determine the end of content & start of chomping
    let chompStart = lines.length;
    for (let i = lines.length - 1; i >= 0; --i) {
        const content = lines[i][1];
        if (content === '' || content === '\r')
            chompStart = i;
        else
            break;
    }
    // shortcut for empty contents
    if (chompStart === 0) {
        const value = header.chomp === '+' && lines.length > 0
            ? '\n'.repeat(Math.max(1, lines.length - 1))
            : '';
        let end = start + header.length;
        if (scalar.source)
            end += scalar.source.length;
        return { value, type, comment: header.comment, range: [start, end, end] };
    }
    // find the indentation level to trim from start
    let trimIndent = scalar.indent + header.indent;
    let offset = scalar.offset + header.length;
    let contentStart = 0;
    for (let i = 0; i < chompStart; ++i) {
        const [indent, content] = lines[i];
        if (content === '' || content === '\r') {
            if (header.indent === 0 && indent.length > trimIndent)
                trimIndent = indent.length;
        }
        else {
            if (indent.length < trimIndent) {
                const message = 'Block scalars with more-indented leading empty lines must use an explicit indentation indicator';
                onError(offset + indent.length, 'MISSING_CHAR', message);
            }
            if (header.indent === 0)
                trimIndent = indent.length;
            contentStart = i;
            if (trimIndent === 0 && !ctx.atRoot) {
                const message = 'Block scalar values in collections must be indented';
                onError(offset, 'BAD_INDENT', message);
            }
            break;
        }
        offset += indent.length + content.length + 1;
    }
    // include trailing more-indented empty lines in content
    for (let i = lines.length - 1; i >= chompStart; --i) {
        if (lines[i][0].length > trimIndent)
            chompStart = i + 1;
    }
    let value = '';
    let sep = '';
    let prevMoreIndented = false;
    // leading whitespace is kept intact
    for (let i = 0; i < contentStart; ++i)
        value += lines[i][0].slice(trimIndent) + '\n';
    for (let i = contentStart; i < chompStart; ++i) {
        let [indent, content] = lines[i];
        offset += indent.length + content.length + 1;
        const crlf = content[content.length - 1] === '\r';
        if (crlf)
            content = content.slice(0, -1);
        /* istanbul ignore if already caught in lexer */
        if (content && indent.length < trimIndent) {
            const src = header.indent
                ? 'explicit indentation indicator'
                : 'first line';
            const message = `Block scalar lines must not be less indented than their ${src}`;
            onError(offset - content.length - (crlf ? 2 : 1), 'BAD_INDENT', message);
            indent = '';
        }
        if (type === Scalar.BLOCK_LITERAL) {
            value += sep + indent.slice(trimIndent) + content;
            sep = '\n';
        }
        else if (indent.length > trimIndent || content[0] === '\t') {
            // more-indented content within a folded block
            if (sep === ' ')
                sep = '\n';
            else if (!prevMoreIndented && sep === '\n')
                sep = '\n\n';
            value += sep + indent.slice(trimIndent) + content;
            sep = '\n';
            prevMoreIndented = true;
        }
        else if (content === '') {
            // empty line
            if (sep === '\n')
                value += '\n';
            else
                sep = '\n';
        }
        else {
            value += sep + content;
            sep = ' ';
            prevMoreIndented = false;
        }
    }
    switch (header.chomp) {
        case '-':
            break;
        case '+':
            for (let i = chompStart; i < lines.length; ++i)
                value += '\n' + lines[i][0].slice(trimIndent);
            if (value[value.length - 1] !== '\n')
                value += '\n';
            break;
        default:
            value += '\n';
    }
    const end = start + header.length + scalar.source.length;
    return { value, type, comment: header.comment, range: [start, end, end] };
}
function parseBlockScalarHeader({ offset, props }, strict, onError) {
    /* istanbul ignore if should not happen */
    if (props[0].type !== 'block-scalar-header') {
        onError(props[0], 'IMPOSSIBLE', 'Block scalar header not found');
        return null;
    }
    const { source } = props[0];
    const mode = source[0];
    let indent = 0;
    let chomp = '';
    let error = -1;
    for (let i = 1; i < source.length; ++i) {
        const ch = source[i];
        if (!chomp && (ch === '-' || ch === '+'))
            chomp = ch;
        else {
            const n = Number(ch);
            if (!indent && n)
                indent = n;
            else if (error === -1)
                error = offset + i;
        }
    }
    if (error !== -1)
        onError(error, 'UNEXPECTED_TOKEN', `Block scalar header includes extra characters: ${source}`);
    let hasSpace = false;
    let comment = '';
    let length = source.length;
    for (let i = 1; i < props.length; ++i) {
        const token = props[i];
        switch (token.type) {
            case 'space':
                hasSpace = true;
            // fallthrough
            case 'newline':
                length += token.source.length;
                break;
            case 'comment':
                if (strict && !hasSpace) {
                    const message = 'Comments must be separated from other tokens by white space characters';
                    onError(token, 'MISSING_CHAR', message);
                }
                length += token.source.length;
                comment = token.source.substring(1);
                break;
            case 'error':
                onError(token, 'UNEXPECTED_TOKEN', token.message);
                length += token.source.length;
                break;
            /* istanbul ignore next should not happen */
            default: {
                const message = `Unexpected token in block scalar header: ${token.type}`;
                onError(token, 'UNEXPECTED_TOKEN', message);
                const ts = token.source;
                if (ts && typeof ts === 'string')
                    length += ts.length;
            }
        }
    }
    return { mode, indent, chomp, comment, length };
}
/** @returns Array of lines split up as `[indent, content]` */
function splitLines(source) {
    const split = source.split(/\n( *)/);
    const first = split[0];
    const m = first.match(/^( *)/);
    const line0 = m?.[1]
        ? [m[1], first.slice(m[1].length)]
        : ['', first];
    const lines = [line0];
    for (let i = 1; i < split.length; i += 2)
        lines.push([split[i], split[i + 1]]);
    return lines;
}

function resolveFlowScalar(scalar, strict, onError) {
    const { offset, type, source, end } = scalar;
    let _type;
    let value;
    const _onError = (rel, code, msg) => onError(offset + rel, code, msg);
    switch (type) {
        case 'scalar':
            _type = Scalar.PLAIN;
            value = plainValue(source, _onError);
            break;
        case 'single-quoted-scalar':
            _type = Scalar.QUOTE_SINGLE;
            value = singleQuotedValue(source, _onError);
            break;
        case 'double-quoted-scalar':
            _type = Scalar.QUOTE_DOUBLE;
            value = doubleQuotedValue(source, _onError);
            break;
        /* istanbul ignore next should not happen */
        default:
            onError(scalar, 'UNEXPECTED_TOKEN', `Expected a flow scalar value, but found: ${type}`);
            return {
                value: '',
                type: null,
                comment: '',
                range: [offset, offset + source.length, offset + source.length]
            };
    }
    const valueEnd = offset + source.length;
    const re = resolveEnd(end, valueEnd, strict, onError);
    return {
        value,
        type: _type,
        comment: re.comment,
        range: [offset, valueEnd, re.offset]
    };
}
function plainValue(source, onError) {
    let badChar = '';
    switch (source[0]) {
        /* istanbul ignore next should not happen */
        case '\t':
            badChar = 'a tab character';
            break;
        case ',':
            badChar = 'flow indicator character ,';
            break;
        case '%':
            badChar = 'directive indicator character %';
            break;
        case '|':
        case '>': {
            badChar = `block scalar indicator ${source[0]}`;
            break;
        }
        case '@':
        case '`': {
            badChar = `reserved character ${source[0]}`;
            break;
        }
    }
    if (badChar)
        onError(0, 'BAD_SCALAR_START', `Plain value cannot start with ${badChar}`);
    return unfoldLines(source);
}
function singleQuotedValue(source, onError) {
    if (source[source.length - 1] !== "'" || source.length === 1)
        onError(source.length, 'MISSING_CHAR', "Missing closing 'quote");
    return unfoldLines(source.slice(1, -1)).replace(/''/g, "'");
}
function unfoldLines(source) {
    const line = /(.*?)\r?\n/sy;
    let match = line.exec(source);
    if (!match)
        return source;
    /**
     * The negative lookbehinds in these RegExps are to
     * prevent causing a polynomial search time in certain cases.
     *
     * The try-catch is for Safari < 16.4 and other old browsers:
     * https://caniuse.com/js-regexp-lookbehind
     */
    let trimEnd, trimBoth;
    try {
        trimEnd = new RegExp('(?<![ \t])[ \t]+$');
        trimBoth = new RegExp('^[ \t]+|(?<![ \t])[ \t]+$', 'g');
    }
    catch {
        trimEnd = /[ \t]+$/;
        trimBoth = /^[ \t]+|[ \t]+$/g;
    }
    let res = match[1].replace(trimEnd, '');
    let sep = ' ';
    let pos = line.lastIndex;
    while ((match = line.exec(source))) {
        const lm = match[1].replace(trimBoth, '');
        if (lm === '') {
            if (sep === '\n')
                res += sep;
            else
                sep = '\n';
        }
        else {
            res += sep + lm;
            sep = ' ';
        }
        pos = line.lastIndex;
    }
    const last = /[ \t]*(.*)/sy;
    last.lastIndex = pos;
    match = last.exec(source);
    return res + sep + (match?.[1] ?? '');
}
function doubleQuotedValue(source, onError) {
    let res = '';
    for (let i = 1; i < source.length - 1; ++i) {
        const ch = source[i];
        if (ch === '\r' && source[i + 1] === '\n')
            continue;
        if (ch === '\n') {
            const { fold, offset } = foldNewline(source, i);
            res += fold;
            i = offset;
        }
        else if (ch === '\\') {
            let next = source[++i];
            const cc = escapeCodes[next];
            if (cc)
                res += cc;
            else if (next === '\n') {
                // skip escaped newlines, but still trim the following line
                next = source[i + 1];
                while (next === ' ' || next === '\t')
                    next = source[++i + 1];
            }
            else if (next === '\r' && source[i + 1] === '\n') {
                // skip escaped CRLF newlines, but still trim the following line
                next = source[++i + 1];
                while (next === ' ' || next === '\t')
                    next = source[++i + 1];
            }
            else if (next === 'x' || next === 'u' || next === 'U') {
                const length = next === 'x' ? 2 : next === 'u' ? 4 : 8;
                res += parseCharCode(source, i + 1, length, onError);
                i += length;
            }
            else {
                const raw = source.substr(i - 1, 2);
                onError(i - 1, 'BAD_DQ_ESCAPE', `Invalid escape sequence ${raw}`);
                res += raw;
            }
        }
        else if (ch === ' ' || ch === '\t') {
            // trim trailing whitespace
            const wsStart = i;
            let next = source[i + 1];
            while (next === ' ' || next === '\t')
                next = source[++i + 1];
            if (next !== '\n' && !(next === '\r' && source[i + 2] === '\n'))
                res += i > wsStart ? source.slice(wsStart, i + 1) : ch;
        }
        else {
            res += ch;
        }
    }
    if (source[source.length - 1] !== '"' || source.length === 1)
        onError(source.length, 'MISSING_CHAR', 'Missing closing "quote');
    return res;
}
/**
 * Fold a single newline into a space, multiple newlines to N - 1 newlines.
 * Presumes `source[offset] === '\n'`
 */
function foldNewline(source, offset) {
    let fold = '';
    let ch = source[offset + 1];
    while (ch === ' ' || ch === '\t' || ch === '\n' || ch === '\r') {
        if (ch === '\r' && source[offset + 2] !== '\n')
            break;
        if (ch === '\n')
            fold += '\n';
        offset += 1;
        ch = source[offset + 1];
    }
    if (!fold)
        fold = ' ';
    return { fold, offset };
}
const escapeCodes = {
    '0': '\0', // null character
    a: '\x07', // bell character
    b: '\b', // backspace
    e: '\x1b', // escape character
    f: '\f', // form feed
    n: '\n', // line feed
    r: '\r', // carriage return
    t: '\t', // horizontal tab
    v: '\v', // vertical tab
    N: '\u0085', // Unicode next line
    _: '\u00a0', // Unicode non-breaking space
    L: '\u2028', // Unicode line separator
    P: '\u2029', // Unicode paragraph separator
    ' ': ' ',
    '"': '"',
    '/': '/',
    '\\': '\\',
    '\t': '\t'
};
function parseCharCode(source, offset, length, onError) {
    const cc = source.substr(offset, length);
    const ok = cc.length === length && /^[0-9a-fA-F]+$/.test(cc);
    const code = ok ? parseInt(cc, 16) : NaN;
    try {
        return String.fromCodePoint(code);
    }
    catch {
        const raw = source.substr(offset - 2, length + 2);
        onError(offset - 2, 'BAD_DQ_ESCAPE', `Invalid escape sequence ${raw}`);
        return raw;
    }
}

function composeScalar(ctx, token, tagToken, onError) {
    const { value, type, comment, range } = token.type === 'block-scalar'
        ? resolveBlockScalar(ctx, token, onError)
        : resolveFlowScalar(token, ctx.options.strict, onError);
    const tagName = tagToken
        ? ctx.directives.tagName(tagToken.source, msg => onError(tagToken, 'TAG_RESOLVE_FAILED', msg))
        : null;
    let tag;
    if (ctx.options.stringKeys && ctx.atKey) {
        tag = ctx.schema[SCALAR$1];
    }
    else if (tagName)
        tag = findScalarTagByName(ctx.schema, value, tagName, tagToken, onError);
    else if (token.type === 'scalar')
        tag = findScalarTagByTest(ctx, value, token, onError);
    else
        tag = ctx.schema[SCALAR$1];
    let scalar;
    try {
        const res = tag.resolve(value, msg => onError(tagToken ?? token, 'TAG_RESOLVE_FAILED', msg), ctx.options);
        scalar = isScalar(res) ? res : new Scalar(res);
    }
    catch (error) {
        const msg = error instanceof Error ? error.message : String(error);
        onError(tagToken ?? token, 'TAG_RESOLVE_FAILED', msg);
        scalar = new Scalar(value);
    }
    scalar.range = range;
    scalar.source = value;
    if (type)
        scalar.type = type;
    if (tagName)
        scalar.tag = tagName;
    if (tag.format)
        scalar.format = tag.format;
    if (comment)
        scalar.comment = comment;
    return scalar;
}
function findScalarTagByName(schema, value, tagName, tagToken, onError) {
    if (tagName === '!')
        return schema[SCALAR$1]; // non-specific tag
    const matchWithTest = [];
    for (const tag of schema.tags) {
        if (!tag.collection && tag.tag === tagName) {
            if (tag.default && tag.test)
                matchWithTest.push(tag);
            else
                return tag;
        }
    }
    for (const tag of matchWithTest)
        if (tag.test?.test(value))
            return tag;
    const kt = schema.knownTags[tagName];
    if (kt && !kt.collection) {
        // Ensure that the known tag is available for stringifying,
        // but does not get used by default.
        schema.tags.push(Object.assign({}, kt, { default: false, test: undefined }));
        return kt;
    }
    onError(tagToken, 'TAG_RESOLVE_FAILED', `Unresolved tag: ${tagName}`, tagName !== 'tag:yaml.org,2002:str');
    return schema[SCALAR$1];
}
function findScalarTagByTest({ atKey, directives, schema }, value, token, onError) {
    const tag = schema.tags.find(tag => (tag.default === true || (atKey && tag.default === 'key')) &&
        tag.test?.test(value)) || schema[SCALAR$1];
    if (schema.compat) {
        const compat = schema.compat.find(tag => tag.default && tag.test?.test(value)) ??
            schema[SCALAR$1];
        if (tag.tag !== compat.tag) {
            const ts = directives.tagString(tag.tag);
            const cs = directives.tagString(compat.tag);
            const msg = `Value may be parsed as either ${ts} or ${cs}`;
            onError(token, 'TAG_RESOLVE_FAILED', msg, true);
        }
    }
    return tag;
}

function emptyScalarPosition(offset, before, pos) {
    if (before) {
        pos ?? (pos = before.length);
        for (let i = pos - 1; i >= 0; --i) {
            let st = before[i];
            switch (st.type) {
                case 'space':
                case 'comment':
                case 'newline':
                    offset -= st.source.length;
                    continue;
            }
            // Technically, an empty scalar is immediately after the last non-empty
            // node, but it's more useful to place it after any whitespace.
            st = before[++i];
            while (st?.type === 'space') {
                offset += st.source.length;
                st = before[++i];
            }
            break;
        }
    }
    return offset;
}

const CN = { composeNode, composeEmptyNode };
function composeNode(ctx, token, props, onError) {
    const atKey = ctx.atKey;
    const { spaceBefore, comment, anchor, tag } = props;
    let node;
    let isSrcToken = true;
    switch (token.type) {
        case 'alias':
            node = composeAlias(ctx, token, onError);
            if (anchor || tag)
                onError(token, 'ALIAS_PROPS', 'An alias node must not specify any properties');
            break;
        case 'scalar':
        case 'single-quoted-scalar':
        case 'double-quoted-scalar':
        case 'block-scalar':
            node = composeScalar(ctx, token, tag, onError);
            if (anchor)
                node.anchor = anchor.source.substring(1);
            break;
        case 'block-map':
        case 'block-seq':
        case 'flow-collection':
            try {
                node = composeCollection(CN, ctx, token, props, onError);
                if (anchor)
                    node.anchor = anchor.source.substring(1);
            }
            catch (error) {
                // Almost certainly here due to a stack overflow
                const message = error instanceof Error ? error.message : String(error);
                onError(token, 'RESOURCE_EXHAUSTION', message);
            }
            break;
        default: {
            const message = token.type === 'error'
                ? token.message
                : `Unsupported token (type: ${token.type})`;
            onError(token, 'UNEXPECTED_TOKEN', message);
            isSrcToken = false;
        }
    }
    node ?? (node = composeEmptyNode(ctx, token.offset, undefined, null, props, onError));
    if (anchor && node.anchor === '')
        onError(anchor, 'BAD_ALIAS', 'Anchor cannot be an empty string');
    if (atKey &&
        ctx.options.stringKeys &&
        (!isScalar(node) ||
            typeof node.value !== 'string' ||
            (node.tag && node.tag !== 'tag:yaml.org,2002:str'))) {
        const msg = 'With stringKeys, all keys must be strings';
        onError(tag ?? token, 'NON_STRING_KEY', msg);
    }
    if (spaceBefore)
        node.spaceBefore = true;
    if (comment) {
        if (token.type === 'scalar' && token.source === '')
            node.comment = comment;
        else
            node.commentBefore = comment;
    }
    // @ts-expect-error Type checking misses meaning of isSrcToken
    if (ctx.options.keepSourceTokens && isSrcToken)
        node.srcToken = token;
    return node;
}
function composeEmptyNode(ctx, offset, before, pos, { spaceBefore, comment, anchor, tag, end }, onError) {
    const token = {
        type: 'scalar',
        offset: emptyScalarPosition(offset, before, pos),
        indent: -1,
        source: ''
    };
    const node = composeScalar(ctx, token, tag, onError);
    if (anchor) {
        node.anchor = anchor.source.substring(1);
        if (node.anchor === '')
            onError(anchor, 'BAD_ALIAS', 'Anchor cannot be an empty string');
    }
    if (spaceBefore)
        node.spaceBefore = true;
    if (comment) {
        node.comment = comment;
        node.range[2] = end;
    }
    return node;
}
function composeAlias({ options }, { offset, source, end }, onError) {
    const alias = new Alias(source.substring(1));
    if (alias.source === '')
        onError(offset, 'BAD_ALIAS', 'Alias cannot be an empty string');
    if (alias.source.endsWith(':'))
        onError(offset + source.length - 1, 'BAD_ALIAS', 'Alias ending in : is ambiguous', true);
    const valueEnd = offset + source.length;
    const re = resolveEnd(end, valueEnd, options.strict, onError);
    alias.range = [offset, valueEnd, re.offset];
    if (re.comment)
        alias.comment = re.comment;
    return alias;
}

function composeDoc(options, directives, { offset, start, value, end }, onError) {
    const opts = Object.assign({ _directives: directives }, options);
    const doc = new Document(undefined, opts);
    const ctx = {
        atKey: false,
        atRoot: true,
        directives: doc.directives,
        options: doc.options,
        schema: doc.schema
    };
    const props = resolveProps(start, {
        indicator: 'doc-start',
        next: value ?? end?.[0],
        offset,
        onError,
        parentIndent: 0,
        startOnNewline: true
    });
    if (props.found) {
        doc.directives.docStart = true;
        if (value &&
            (value.type === 'block-map' || value.type === 'block-seq') &&
            !props.hasNewline)
            onError(props.end, 'MISSING_CHAR', 'Block collection cannot start on same line with directives-end marker');
    }
    // @ts-expect-error If Contents is set, let's trust the user
    doc.contents = value
        ? composeNode(ctx, value, props, onError)
        : composeEmptyNode(ctx, props.end, start, null, props, onError);
    const contentEnd = doc.contents.range[2];
    const re = resolveEnd(end, contentEnd, false, onError);
    if (re.comment)
        doc.comment = re.comment;
    doc.range = [offset, contentEnd, re.offset];
    return doc;
}

function getErrorPos(src) {
    if (typeof src === 'number')
        return [src, src + 1];
    if (Array.isArray(src))
        return src.length === 2 ? src : [src[0], src[1]];
    const { offset, source } = src;
    return [offset, offset + (typeof source === 'string' ? source.length : 1)];
}
function parsePrelude(prelude) {
    let comment = '';
    let atComment = false;
    let afterEmptyLine = false;
    for (let i = 0; i < prelude.length; ++i) {
        const source = prelude[i];
        switch (source[0]) {
            case '#':
                comment +=
                    (comment === '' ? '' : afterEmptyLine ? '\n\n' : '\n') +
                        (source.substring(1) || ' ');
                atComment = true;
                afterEmptyLine = false;
                break;
            case '%':
                if (prelude[i + 1]?.[0] !== '#')
                    i += 1;
                atComment = false;
                break;
            default:
                // This may be wrong after doc-end, but in that case it doesn't matter
                if (!atComment)
                    afterEmptyLine = true;
                atComment = false;
        }
    }
    return { comment, afterEmptyLine };
}
/**
 * Compose a stream of CST nodes into a stream of YAML Documents.
 *
 * ```ts
 * import { Composer, Parser } from 'yaml'
 *
 * const src: string = ...
 * const tokens = new Parser().parse(src)
 * const docs = new Composer().compose(tokens)
 * ```
 */
class Composer {
    constructor(options = {}) {
        this.doc = null;
        this.atDirectives = false;
        this.prelude = [];
        this.errors = [];
        this.warnings = [];
        this.onError = (source, code, message, warning) => {
            const pos = getErrorPos(source);
            if (warning)
                this.warnings.push(new YAMLWarning(pos, code, message));
            else
                this.errors.push(new YAMLParseError(pos, code, message));
        };
        // eslint-disable-next-line @typescript-eslint/prefer-nullish-coalescing
        this.directives = new Directives({ version: options.version || '1.2' });
        this.options = options;
    }
    decorate(doc, afterDoc) {
        const { comment, afterEmptyLine } = parsePrelude(this.prelude);
        //console.log({ dc: doc.comment, prelude, comment })
        if (comment) {
            const dc = doc.contents;
            if (afterDoc) {
                doc.comment = doc.comment ? `${doc.comment}\n${comment}` : comment;
            }
            else if (afterEmptyLine || doc.directives.docStart || !dc) {
                doc.commentBefore = comment;
            }
            else if (isCollection(dc) && !dc.flow && dc.items.length > 0) {
                let it = dc.items[0];
                if (isPair(it))
                    it = it.key;
                const cb = it.commentBefore;
                it.commentBefore = cb ? `${comment}\n${cb}` : comment;
            }
            else {
                const cb = dc.commentBefore;
                dc.commentBefore = cb ? `${comment}\n${cb}` : comment;
            }
        }
        if (afterDoc) {
            for (let i = 0; i < this.errors.length; ++i)
                doc.errors.push(this.errors[i]);
            for (let i = 0; i < this.warnings.length; ++i)
                doc.warnings.push(this.warnings[i]);
        }
        else {
            doc.errors = this.errors;
            doc.warnings = this.warnings;
        }
        this.prelude = [];
        this.errors = [];
        this.warnings = [];
    }
    /**
     * Current stream status information.
     *
     * Mostly useful at the end of input for an empty stream.
     */
    streamInfo() {
        return {
            comment: parsePrelude(this.prelude).comment,
            directives: this.directives,
            errors: this.errors,
            warnings: this.warnings
        };
    }
    /**
     * Compose tokens into documents.
     *
     * @param forceDoc - If the stream contains no document, still emit a final document including any comments and directives that would be applied to a subsequent document.
     * @param endOffset - Should be set if `forceDoc` is also set, to set the document range end and to indicate errors correctly.
     */
    *compose(tokens, forceDoc = false, endOffset = -1) {
        for (const token of tokens)
            yield* this.next(token);
        yield* this.end(forceDoc, endOffset);
    }
    /** Advance the composer by one CST token. */
    *next(token) {
        switch (token.type) {
            case 'directive':
                this.directives.add(token.source, (offset, message, warning) => {
                    const pos = getErrorPos(token);
                    pos[0] += offset;
                    this.onError(pos, 'BAD_DIRECTIVE', message, warning);
                });
                this.prelude.push(token.source);
                this.atDirectives = true;
                break;
            case 'document': {
                const doc = composeDoc(this.options, this.directives, token, this.onError);
                if (this.atDirectives && !doc.directives.docStart)
                    this.onError(token, 'MISSING_CHAR', 'Missing directives-end/doc-start indicator line');
                this.decorate(doc, false);
                if (this.doc)
                    yield this.doc;
                this.doc = doc;
                this.atDirectives = false;
                break;
            }
            case 'byte-order-mark':
            case 'space':
                break;
            case 'comment':
            case 'newline':
                this.prelude.push(token.source);
                break;
            case 'error': {
                const msg = token.source
                    ? `${token.message}: ${JSON.stringify(token.source)}`
                    : token.message;
                const error = new YAMLParseError(getErrorPos(token), 'UNEXPECTED_TOKEN', msg);
                if (this.atDirectives || !this.doc)
                    this.errors.push(error);
                else
                    this.doc.errors.push(error);
                break;
            }
            case 'doc-end': {
                if (!this.doc) {
                    const msg = 'Unexpected doc-end without preceding document';
                    this.errors.push(new YAMLParseError(getErrorPos(token), 'UNEXPECTED_TOKEN', msg));
                    break;
                }
                this.doc.directives.docEnd = true;
                const end = resolveEnd(token.end, token.offset + token.source.length, this.doc.options.strict, this.onError);
                this.decorate(this.doc, true);
                if (end.comment) {
                    const dc = this.doc.comment;
                    this.doc.comment = dc ? `${dc}\n${end.comment}` : end.comment;
                }
                this.doc.range[2] = end.offset;
                break;
            }
            default:
                this.errors.push(new YAMLParseError(getErrorPos(token), 'UNEXPECTED_TOKEN', `Unsupported token ${token.type}`));
        }
    }
    /**
     * Call at end of input to yield any remaining document.
     *
     * @param forceDoc - If the stream contains no document, still emit a final document including any comments and directives that would be applied to a subsequent document.
     * @param endOffset - Should be set if `forceDoc` is also set, to set the document range end and to indicate errors correctly.
     */
    *end(forceDoc = false, endOffset = -1) {
        if (this.doc) {
            this.decorate(this.doc, true);
            yield this.doc;
            this.doc = null;
        }
        else if (forceDoc) {
            const opts = Object.assign({ _directives: this.directives }, this.options);
            const doc = new Document(undefined, opts);
            if (this.atDirectives)
                this.onError(endOffset, 'MISSING_CHAR', 'Missing directives-end indicator line');
            doc.range = [0, endOffset, endOffset];
            this.decorate(doc, false);
            yield doc;
        }
    }
}

/** The byte order mark */
const BOM = '\u{FEFF}';
/** Start of doc-mode */
const DOCUMENT = '\x02'; // C0: Start of Text
/** Unexpected end of flow-mode */
const FLOW_END = '\x18'; // C0: Cancel
/** Next token is a scalar value */
const SCALAR = '\x1f'; // C0: Unit Separator
/** Identify the type of a lexer token. May return `null` for unknown tokens. */
function tokenType(source) {
    switch (source) {
        case BOM:
            return 'byte-order-mark';
        case DOCUMENT:
            return 'doc-mode';
        case FLOW_END:
            return 'flow-error-end';
        case SCALAR:
            return 'scalar';
        case '---':
            return 'doc-start';
        case '...':
            return 'doc-end';
        case '':
        case '\n':
        case '\r\n':
            return 'newline';
        case '-':
            return 'seq-item-ind';
        case '?':
            return 'explicit-key-ind';
        case ':':
            return 'map-value-ind';
        case '{':
            return 'flow-map-start';
        case '}':
            return 'flow-map-end';
        case '[':
            return 'flow-seq-start';
        case ']':
            return 'flow-seq-end';
        case ',':
            return 'comma';
    }
    switch (source[0]) {
        case ' ':
        case '\t':
            return 'space';
        case '#':
            return 'comment';
        case '%':
            return 'directive-line';
        case '*':
            return 'alias';
        case '&':
            return 'anchor';
        case '!':
            return 'tag';
        case "'":
            return 'single-quoted-scalar';
        case '"':
            return 'double-quoted-scalar';
        case '|':
        case '>':
            return 'block-scalar-header';
    }
    return null;
}

/*
START -> stream

stream
  directive -> line-end -> stream
  indent + line-end -> stream
  [else] -> line-start

line-end
  comment -> line-end
  newline -> .
  input-end -> END

line-start
  doc-start -> doc
  doc-end -> stream
  [else] -> indent -> block-start

block-start
  seq-item-start -> block-start
  explicit-key-start -> block-start
  map-value-start -> block-start
  [else] -> doc

doc
  line-end -> line-start
  spaces -> doc
  anchor -> doc
  tag -> doc
  flow-start -> flow -> doc
  flow-end -> error -> doc
  seq-item-start -> error -> doc
  explicit-key-start -> error -> doc
  map-value-start -> doc
  alias -> doc
  quote-start -> quoted-scalar -> doc
  block-scalar-header -> line-end -> block-scalar(min) -> line-start
  [else] -> plain-scalar(false, min) -> doc

flow
  line-end -> flow
  spaces -> flow
  anchor -> flow
  tag -> flow
  flow-start -> flow -> flow
  flow-end -> .
  seq-item-start -> error -> flow
  explicit-key-start -> flow
  map-value-start -> flow
  alias -> flow
  quote-start -> quoted-scalar -> flow
  comma -> flow
  [else] -> plain-scalar(true, 0) -> flow

quoted-scalar
  quote-end -> .
  [else] -> quoted-scalar

block-scalar(min)
  newline + peek(indent < min) -> .
  [else] -> block-scalar(min)

plain-scalar(is-flow, min)
  scalar-end(is-flow) -> .
  peek(newline + (indent < min)) -> .
  [else] -> plain-scalar(min)
*/
function isEmpty(ch) {
    switch (ch) {
        case undefined:
        case ' ':
        case '\n':
        case '\r':
        case '\t':
            return true;
        default:
            return false;
    }
}
const hexDigits = new Set('0123456789ABCDEFabcdef');
const tagChars = new Set("0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz-#;/?:@&=+$_.!~*'()");
const flowIndicatorChars = new Set(',[]{}');
const invalidAnchorChars = new Set(' ,[]{}\n\r\t');
const isNotAnchorChar = (ch) => !ch || invalidAnchorChars.has(ch);
/**
 * Splits an input string into lexical tokens, i.e. smaller strings that are
 * easily identifiable by `tokens.tokenType()`.
 *
 * Lexing starts always in a "stream" context. Incomplete input may be buffered
 * until a complete token can be emitted.
 *
 * In addition to slices of the original input, the following control characters
 * may also be emitted:
 *
 * - `\x02` (Start of Text): A document starts with the next token
 * - `\x18` (Cancel): Unexpected end of flow-mode (indicates an error)
 * - `\x1f` (Unit Separator): Next token is a scalar value
 * - `\u{FEFF}` (Byte order mark): Emitted separately outside documents
 */
class Lexer {
    constructor() {
        /**
         * Flag indicating whether the end of the current buffer marks the end of
         * all input
         */
        this.atEnd = false;
        /**
         * Explicit indent set in block scalar header, as an offset from the current
         * minimum indent, so e.g. set to 1 from a header `|2+`. Set to -1 if not
         * explicitly set.
         */
        this.blockScalarIndent = -1;
        /**
         * Block scalars that include a + (keep) chomping indicator in their header
         * include trailing empty lines, which are otherwise excluded from the
         * scalar's contents.
         */
        this.blockScalarKeep = false;
        /** Current input */
        this.buffer = '';
        /**
         * Flag noting whether the map value indicator : can immediately follow this
         * node within a flow context.
         */
        this.flowKey = false;
        /** Count of surrounding flow collection levels. */
        this.flowLevel = 0;
        /**
         * Minimum level of indentation required for next lines to be parsed as a
         * part of the current scalar value.
         */
        this.indentNext = 0;
        /** Indentation level of the current line. */
        this.indentValue = 0;
        /** Position of the next \n character. */
        this.lineEndPos = null;
        /** Stores the state of the lexer if reaching the end of incpomplete input */
        this.next = null;
        /** A pointer to `buffer`; the current position of the lexer. */
        this.pos = 0;
    }
    /**
     * Generate YAML tokens from the `source` string. If `incomplete`,
     * a part of the last line may be left as a buffer for the next call.
     *
     * @returns A generator of lexical tokens
     */
    *lex(source, incomplete = false) {
        if (source) {
            if (typeof source !== 'string')
                throw TypeError('source is not a string');
            this.buffer = this.buffer ? this.buffer + source : source;
            this.lineEndPos = null;
        }
        this.atEnd = !incomplete;
        let next = this.next ?? 'stream';
        while (next && (incomplete || this.hasChars(1)))
            next = yield* this.parseNext(next);
    }
    atLineEnd() {
        let i = this.pos;
        let ch = this.buffer[i];
        while (ch === ' ' || ch === '\t')
            ch = this.buffer[++i];
        if (!ch || ch === '#' || ch === '\n')
            return true;
        if (ch === '\r')
            return this.buffer[i + 1] === '\n';
        return false;
    }
    charAt(n) {
        return this.buffer[this.pos + n];
    }
    continueScalar(offset) {
        let ch = this.buffer[offset];
        if (this.indentNext > 0) {
            let indent = 0;
            while (ch === ' ')
                ch = this.buffer[++indent + offset];
            if (ch === '\r') {
                const next = this.buffer[indent + offset + 1];
                if (next === '\n' || (!next && !this.atEnd))
                    return offset + indent + 1;
            }
            return ch === '\n' || indent >= this.indentNext || (!ch && !this.atEnd)
                ? offset + indent
                : -1;
        }
        if (ch === '-' || ch === '.') {
            const dt = this.buffer.substr(offset, 3);
            if ((dt === '---' || dt === '...') && isEmpty(this.buffer[offset + 3]))
                return -1;
        }
        return offset;
    }
    getLine() {
        let end = this.lineEndPos;
        if (typeof end !== 'number' || (end !== -1 && end < this.pos)) {
            end = this.buffer.indexOf('\n', this.pos);
            this.lineEndPos = end;
        }
        if (end === -1)
            return this.atEnd ? this.buffer.substring(this.pos) : null;
        if (this.buffer[end - 1] === '\r')
            end -= 1;
        return this.buffer.substring(this.pos, end);
    }
    hasChars(n) {
        return this.pos + n <= this.buffer.length;
    }
    setNext(state) {
        this.buffer = this.buffer.substring(this.pos);
        this.pos = 0;
        this.lineEndPos = null;
        this.next = state;
        return null;
    }
    peek(n) {
        return this.buffer.substr(this.pos, n);
    }
    *parseNext(next) {
        switch (next) {
            case 'stream':
                return yield* this.parseStream();
            case 'line-start':
                return yield* this.parseLineStart();
            case 'block-start':
                return yield* this.parseBlockStart();
            case 'doc':
                return yield* this.parseDocument();
            case 'flow':
                return yield* this.parseFlowCollection();
            case 'quoted-scalar':
                return yield* this.parseQuotedScalar();
            case 'block-scalar':
                return yield* this.parseBlockScalar();
            case 'plain-scalar':
                return yield* this.parsePlainScalar();
        }
    }
    *parseStream() {
        let line = this.getLine();
        if (line === null)
            return this.setNext('stream');
        if (line[0] === BOM) {
            yield* this.pushCount(1);
            line = line.substring(1);
        }
        if (line[0] === '%') {
            let dirEnd = line.length;
            let cs = line.indexOf('#');
            while (cs !== -1) {
                const ch = line[cs - 1];
                if (ch === ' ' || ch === '\t') {
                    dirEnd = cs - 1;
                    break;
                }
                else {
                    cs = line.indexOf('#', cs + 1);
                }
            }
            while (true) {
                const ch = line[dirEnd - 1];
                if (ch === ' ' || ch === '\t')
                    dirEnd -= 1;
                else
                    break;
            }
            const n = (yield* this.pushCount(dirEnd)) + (yield* this.pushSpaces(true));
            yield* this.pushCount(line.length - n); // possible comment
            this.pushNewline();
            return 'stream';
        }
        if (this.atLineEnd()) {
            const sp = yield* this.pushSpaces(true);
            yield* this.pushCount(line.length - sp);
            yield* this.pushNewline();
            return 'stream';
        }
        yield DOCUMENT;
        return yield* this.parseLineStart();
    }
    *parseLineStart() {
        const ch = this.charAt(0);
        if (!ch && !this.atEnd)
            return this.setNext('line-start');
        if (ch === '-' || ch === '.') {
            if (!this.atEnd && !this.hasChars(4))
                return this.setNext('line-start');
            const s = this.peek(3);
            if ((s === '---' || s === '...') && isEmpty(this.charAt(3))) {
                yield* this.pushCount(3);
                this.indentValue = 0;
                this.indentNext = 0;
                return s === '---' ? 'doc' : 'stream';
            }
        }
        this.indentValue = yield* this.pushSpaces(false);
        if (this.indentNext > this.indentValue && !isEmpty(this.charAt(1)))
            this.indentNext = this.indentValue;
        return yield* this.parseBlockStart();
    }
    *parseBlockStart() {
        const [ch0, ch1] = this.peek(2);
        if (!ch1 && !this.atEnd)
            return this.setNext('block-start');
        if ((ch0 === '-' || ch0 === '?' || ch0 === ':') && isEmpty(ch1)) {
            const n = (yield* this.pushCount(1)) + (yield* this.pushSpaces(true));
            this.indentNext = this.indentValue + 1;
            this.indentValue += n;
            return 'block-start';
        }
        return 'doc';
    }
    *parseDocument() {
        yield* this.pushSpaces(true);
        const line = this.getLine();
        if (line === null)
            return this.setNext('doc');
        let n = yield* this.pushIndicators();
        switch (line[n]) {
            case '#':
                yield* this.pushCount(line.length - n);
            // fallthrough
            case undefined:
                yield* this.pushNewline();
                return yield* this.parseLineStart();
            case '{':
            case '[':
                yield* this.pushCount(1);
                this.flowKey = false;
                this.flowLevel = 1;
                return 'flow';
            case '}':
            case ']':
                // this is an error
                yield* this.pushCount(1);
                return 'doc';
            case '*':
                yield* this.pushUntil(isNotAnchorChar);
                return 'doc';
            case '"':
            case "'":
                return yield* this.parseQuotedScalar();
            case '|':
            case '>':
                n += yield* this.parseBlockScalarHeader();
                n += yield* this.pushSpaces(true);
                yield* this.pushCount(line.length - n);
                yield* this.pushNewline();
                return yield* this.parseBlockScalar();
            default:
                return yield* this.parsePlainScalar();
        }
    }
    *parseFlowCollection() {
        let nl, sp;
        let indent = -1;
        do {
            nl = yield* this.pushNewline();
            if (nl > 0) {
                sp = yield* this.pushSpaces(false);
                this.indentValue = indent = sp;
            }
            else {
                sp = 0;
            }
            sp += yield* this.pushSpaces(true);
        } while (nl + sp > 0);
        const line = this.getLine();
        if (line === null)
            return this.setNext('flow');
        if ((indent !== -1 && indent < this.indentNext && line[0] !== '#') ||
            (indent === 0 &&
                (line.startsWith('---') || line.startsWith('...')) &&
                isEmpty(line[3]))) {
            // Allowing for the terminal ] or } at the same (rather than greater)
            // indent level as the initial [ or { is technically invalid, but
            // failing here would be surprising to users.
            const atFlowEndMarker = indent === this.indentNext - 1 &&
                this.flowLevel === 1 &&
                (line[0] === ']' || line[0] === '}');
            if (!atFlowEndMarker) {
                // this is an error
                this.flowLevel = 0;
                yield FLOW_END;
                return yield* this.parseLineStart();
            }
        }
        let n = 0;
        while (line[n] === ',') {
            n += yield* this.pushCount(1);
            n += yield* this.pushSpaces(true);
            this.flowKey = false;
        }
        n += yield* this.pushIndicators();
        switch (line[n]) {
            case undefined:
                return 'flow';
            case '#':
                yield* this.pushCount(line.length - n);
                return 'flow';
            case '{':
            case '[':
                yield* this.pushCount(1);
                this.flowKey = false;
                this.flowLevel += 1;
                return 'flow';
            case '}':
            case ']':
                yield* this.pushCount(1);
                this.flowKey = true;
                this.flowLevel -= 1;
                return this.flowLevel ? 'flow' : 'doc';
            case '*':
                yield* this.pushUntil(isNotAnchorChar);
                return 'flow';
            case '"':
            case "'":
                this.flowKey = true;
                return yield* this.parseQuotedScalar();
            case ':': {
                const next = this.charAt(1);
                if (this.flowKey || isEmpty(next) || next === ',') {
                    this.flowKey = false;
                    yield* this.pushCount(1);
                    yield* this.pushSpaces(true);
                    return 'flow';
                }
            }
            // fallthrough
            default:
                this.flowKey = false;
                return yield* this.parsePlainScalar();
        }
    }
    *parseQuotedScalar() {
        const quote = this.charAt(0);
        let end = this.buffer.indexOf(quote, this.pos + 1);
        if (quote === "'") {
            while (end !== -1 && this.buffer[end + 1] === "'")
                end = this.buffer.indexOf("'", end + 2);
        }
        else {
            // double-quote
            while (end !== -1) {
                let n = 0;
                while (this.buffer[end - 1 - n] === '\\')
                    n += 1;
                if (n % 2 === 0)
                    break;
                end = this.buffer.indexOf('"', end + 1);
            }
        }
        // Only looking for newlines within the quotes
        const qb = this.buffer.substring(0, end);
        let nl = qb.indexOf('\n', this.pos);
        if (nl !== -1) {
            while (nl !== -1) {
                const cs = this.continueScalar(nl + 1);
                if (cs === -1)
                    break;
                nl = qb.indexOf('\n', cs);
            }
            if (nl !== -1) {
                // this is an error caused by an unexpected unindent
                end = nl - (qb[nl - 1] === '\r' ? 2 : 1);
            }
        }
        if (end === -1) {
            if (!this.atEnd)
                return this.setNext('quoted-scalar');
            end = this.buffer.length;
        }
        yield* this.pushToIndex(end + 1, false);
        return this.flowLevel ? 'flow' : 'doc';
    }
    *parseBlockScalarHeader() {
        this.blockScalarIndent = -1;
        this.blockScalarKeep = false;
        let i = this.pos;
        while (true) {
            const ch = this.buffer[++i];
            if (ch === '+')
                this.blockScalarKeep = true;
            else if (ch > '0' && ch <= '9')
                this.blockScalarIndent = Number(ch) - 1;
            else if (ch !== '-')
                break;
        }
        return yield* this.pushUntil(ch => isEmpty(ch) || ch === '#');
    }
    *parseBlockScalar() {
        let nl = this.pos - 1; // may be -1 if this.pos === 0
        let indent = 0;
        let ch;
        loop: for (let i = this.pos; (ch = this.buffer[i]); ++i) {
            switch (ch) {
                case ' ':
                    indent += 1;
                    break;
                case '\n':
                    nl = i;
                    indent = 0;
                    break;
                case '\r': {
                    const next = this.buffer[i + 1];
                    if (!next && !this.atEnd)
                        return this.setNext('block-scalar');
                    if (next === '\n')
                        break;
                } // fallthrough
                default:
                    break loop;
            }
        }
        if (!ch && !this.atEnd)
            return this.setNext('block-scalar');
        if (indent >= this.indentNext) {
            if (this.blockScalarIndent === -1)
                this.indentNext = indent;
            else {
                this.indentNext =
                    this.blockScalarIndent + (this.indentNext === 0 ? 1 : this.indentNext);
            }
            do {
                const cs = this.continueScalar(nl + 1);
                if (cs === -1)
                    break;
                nl = this.buffer.indexOf('\n', cs);
            } while (nl !== -1);
            if (nl === -1) {
                if (!this.atEnd)
                    return this.setNext('block-scalar');
                nl = this.buffer.length;
            }
        }
        // Trailing insufficiently indented tabs are invalid.
        // To catch that during parsing, we include them in the block scalar value.
        let i = nl + 1;
        ch = this.buffer[i];
        while (ch === ' ')
            ch = this.buffer[++i];
        if (ch === '\t') {
            while (ch === '\t' || ch === ' ' || ch === '\r' || ch === '\n')
                ch = this.buffer[++i];
            nl = i - 1;
        }
        else if (!this.blockScalarKeep) {
            do {
                let i = nl - 1;
                let ch = this.buffer[i];
                if (ch === '\r')
                    ch = this.buffer[--i];
                const lastChar = i; // Drop the line if last char not more indented
                while (ch === ' ')
                    ch = this.buffer[--i];
                if (ch === '\n' && i >= this.pos && i + 1 + indent > lastChar)
                    nl = i;
                else
                    break;
            } while (true);
        }
        yield SCALAR;
        yield* this.pushToIndex(nl + 1, true);
        return yield* this.parseLineStart();
    }
    *parsePlainScalar() {
        const inFlow = this.flowLevel > 0;
        let end = this.pos - 1;
        let i = this.pos - 1;
        let ch;
        while ((ch = this.buffer[++i])) {
            if (ch === ':') {
                const next = this.buffer[i + 1];
                if (isEmpty(next) || (inFlow && flowIndicatorChars.has(next)))
                    break;
                end = i;
            }
            else if (isEmpty(ch)) {
                let next = this.buffer[i + 1];
                if (ch === '\r') {
                    if (next === '\n') {
                        i += 1;
                        ch = '\n';
                        next = this.buffer[i + 1];
                    }
                    else
                        end = i;
                }
                if (next === '#' || (inFlow && flowIndicatorChars.has(next)))
                    break;
                if (ch === '\n') {
                    const cs = this.continueScalar(i + 1);
                    if (cs === -1)
                        break;
                    i = Math.max(i, cs - 2); // to advance, but still account for ' #'
                }
            }
            else {
                if (inFlow && flowIndicatorChars.has(ch))
                    break;
                end = i;
            }
        }
        if (!ch && !this.atEnd)
            return this.setNext('plain-scalar');
        yield SCALAR;
        yield* this.pushToIndex(end + 1, true);
        return inFlow ? 'flow' : 'doc';
    }
    *pushCount(n) {
        if (n > 0) {
            yield this.buffer.substr(this.pos, n);
            this.pos += n;
            return n;
        }
        return 0;
    }
    *pushToIndex(i, allowEmpty) {
        const s = this.buffer.slice(this.pos, i);
        if (s) {
            yield s;
            this.pos += s.length;
            return s.length;
        }
        else if (allowEmpty)
            yield '';
        return 0;
    }
    *pushIndicators() {
        let n = 0;
        loop: while (true) {
            switch (this.charAt(0)) {
                case '!':
                    n += yield* this.pushTag();
                    n += yield* this.pushSpaces(true);
                    continue loop;
                case '&':
                    n += yield* this.pushUntil(isNotAnchorChar);
                    n += yield* this.pushSpaces(true);
                    continue loop;
                case '-': // this is an error
                case '?': // this is an error outside flow collections
                case ':': {
                    const inFlow = this.flowLevel > 0;
                    const ch1 = this.charAt(1);
                    if (isEmpty(ch1) || (inFlow && flowIndicatorChars.has(ch1))) {
                        if (!inFlow)
                            this.indentNext = this.indentValue + 1;
                        else if (this.flowKey)
                            this.flowKey = false;
                        n += yield* this.pushCount(1);
                        n += yield* this.pushSpaces(true);
                        continue loop;
                    }
                }
            }
            break loop;
        }
        return n;
    }
    *pushTag() {
        if (this.charAt(1) === '<') {
            let i = this.pos + 2;
            let ch = this.buffer[i];
            while (!isEmpty(ch) && ch !== '>')
                ch = this.buffer[++i];
            return yield* this.pushToIndex(ch === '>' ? i + 1 : i, false);
        }
        else {
            let i = this.pos + 1;
            let ch = this.buffer[i];
            while (ch) {
                if (tagChars.has(ch))
                    ch = this.buffer[++i];
                else if (ch === '%' &&
                    hexDigits.has(this.buffer[i + 1]) &&
                    hexDigits.has(this.buffer[i + 2])) {
                    ch = this.buffer[(i += 3)];
                }
                else
                    break;
            }
            return yield* this.pushToIndex(i, false);
        }
    }
    *pushNewline() {
        const ch = this.buffer[this.pos];
        if (ch === '\n')
            return yield* this.pushCount(1);
        else if (ch === '\r' && this.charAt(1) === '\n')
            return yield* this.pushCount(2);
        else
            return 0;
    }
    *pushSpaces(allowTabs) {
        let i = this.pos - 1;
        let ch;
        do {
            ch = this.buffer[++i];
        } while (ch === ' ' || (allowTabs && ch === '\t'));
        const n = i - this.pos;
        if (n > 0) {
            yield this.buffer.substr(this.pos, n);
            this.pos = i;
        }
        return n;
    }
    *pushUntil(test) {
        let i = this.pos;
        let ch = this.buffer[i];
        while (!test(ch))
            ch = this.buffer[++i];
        return yield* this.pushToIndex(i, false);
    }
}

/**
 * Tracks newlines during parsing in order to provide an efficient API for
 * determining the one-indexed `{ line, col }` position for any offset
 * within the input.
 */
class LineCounter {
    constructor() {
        this.lineStarts = [];
        /**
         * Should be called in ascending order. Otherwise, call
         * `lineCounter.lineStarts.sort()` before calling `linePos()`.
         */
        this.addNewLine = (offset) => this.lineStarts.push(offset);
        /**
         * Performs a binary search and returns the 1-indexed { line, col }
         * position of `offset`. If `line === 0`, `addNewLine` has never been
         * called or `offset` is before the first known newline.
         */
        this.linePos = (offset) => {
            let low = 0;
            let high = this.lineStarts.length;
            while (low < high) {
                const mid = (low + high) >> 1; // Math.floor((low + high) / 2)
                if (this.lineStarts[mid] < offset)
                    low = mid + 1;
                else
                    high = mid;
            }
            if (this.lineStarts[low] === offset)
                return { line: low + 1, col: 1 };
            if (low === 0)
                return { line: 0, col: offset };
            const start = this.lineStarts[low - 1];
            return { line: low, col: offset - start + 1 };
        };
    }
}

function includesToken(list, type) {
    for (let i = 0; i < list.length; ++i)
        if (list[i].type === type)
            return true;
    return false;
}
function findNonEmptyIndex(list) {
    for (let i = 0; i < list.length; ++i) {
        switch (list[i].type) {
            case 'space':
            case 'comment':
            case 'newline':
                break;
            default:
                return i;
        }
    }
    return -1;
}
function isFlowToken(token) {
    switch (token?.type) {
        case 'alias':
        case 'scalar':
        case 'single-quoted-scalar':
        case 'double-quoted-scalar':
        case 'flow-collection':
            return true;
        default:
            return false;
    }
}
function getPrevProps(parent) {
    switch (parent.type) {
        case 'document':
            return parent.start;
        case 'block-map': {
            const it = parent.items[parent.items.length - 1];
            return it.sep ?? it.start;
        }
        case 'block-seq':
            return parent.items[parent.items.length - 1].start;
        /* istanbul ignore next should not happen */
        default:
            return [];
    }
}
/** Note: May modify input array */
function getFirstKeyStartProps(prev) {
    if (prev.length === 0)
        return [];
    let i = prev.length;
    loop: while (--i >= 0) {
        switch (prev[i].type) {
            case 'doc-start':
            case 'explicit-key-ind':
            case 'map-value-ind':
            case 'seq-item-ind':
            case 'newline':
                break loop;
        }
    }
    while (prev[++i]?.type === 'space') {
        /* loop */
    }
    return prev.splice(i, prev.length);
}
function arrayPushArray(target, source) {
    // May exhaust call stack with large `source` array
    if (source.length < 1e5)
        Array.prototype.push.apply(target, source);
    else
        for (let i = 0; i < source.length; ++i)
            target.push(source[i]);
}
function fixFlowSeqItems(fc) {
    if (fc.start.type === 'flow-seq-start') {
        for (const it of fc.items) {
            if (it.sep &&
                !it.value &&
                !includesToken(it.start, 'explicit-key-ind') &&
                !includesToken(it.sep, 'map-value-ind')) {
                if (it.key)
                    it.value = it.key;
                delete it.key;
                if (isFlowToken(it.value)) {
                    if (it.value.end)
                        arrayPushArray(it.value.end, it.sep);
                    else
                        it.value.end = it.sep;
                }
                else
                    arrayPushArray(it.start, it.sep);
                delete it.sep;
            }
        }
    }
}
/**
 * A YAML concrete syntax tree (CST) parser
 *
 * ```ts
 * const src: string = ...
 * for (const token of new Parser().parse(src)) {
 *   // token: Token
 * }
 * ```
 *
 * To use the parser with a user-provided lexer:
 *
 * ```ts
 * function* parse(source: string, lexer: Lexer) {
 *   const parser = new Parser()
 *   for (const lexeme of lexer.lex(source))
 *     yield* parser.next(lexeme)
 *   yield* parser.end()
 * }
 *
 * const src: string = ...
 * const lexer = new Lexer()
 * for (const token of parse(src, lexer)) {
 *   // token: Token
 * }
 * ```
 */
class Parser {
    /**
     * @param onNewLine - If defined, called separately with the start position of
     *   each new line (in `parse()`, including the start of input).
     */
    constructor(onNewLine) {
        /** If true, space and sequence indicators count as indentation */
        this.atNewLine = true;
        /** If true, next token is a scalar value */
        this.atScalar = false;
        /** Current indentation level */
        this.indent = 0;
        /** Current offset since the start of parsing */
        this.offset = 0;
        /** On the same line with a block map key */
        this.onKeyLine = false;
        /** Top indicates the node that's currently being built */
        this.stack = [];
        /** The source of the current token, set in parse() */
        this.source = '';
        /** The type of the current token, set in parse() */
        this.type = '';
        // Must be defined after `next()`
        this.lexer = new Lexer();
        this.onNewLine = onNewLine;
    }
    /**
     * Parse `source` as a YAML stream.
     * If `incomplete`, a part of the last line may be left as a buffer for the next call.
     *
     * Errors are not thrown, but yielded as `{ type: 'error', message }` tokens.
     *
     * @returns A generator of tokens representing each directive, document, and other structure.
     */
    *parse(source, incomplete = false) {
        if (this.onNewLine && this.offset === 0)
            this.onNewLine(0);
        for (const lexeme of this.lexer.lex(source, incomplete))
            yield* this.next(lexeme);
        if (!incomplete)
            yield* this.end();
    }
    /**
     * Advance the parser by the `source` of one lexical token.
     */
    *next(source) {
        this.source = source;
        if (this.atScalar) {
            this.atScalar = false;
            yield* this.step();
            this.offset += source.length;
            return;
        }
        const type = tokenType(source);
        if (!type) {
            const message = `Not a YAML token: ${source}`;
            yield* this.pop({ type: 'error', offset: this.offset, message, source });
            this.offset += source.length;
        }
        else if (type === 'scalar') {
            this.atNewLine = false;
            this.atScalar = true;
            this.type = 'scalar';
        }
        else {
            this.type = type;
            yield* this.step();
            switch (type) {
                case 'newline':
                    this.atNewLine = true;
                    this.indent = 0;
                    if (this.onNewLine)
                        this.onNewLine(this.offset + source.length);
                    break;
                case 'space':
                    if (this.atNewLine && source[0] === ' ')
                        this.indent += source.length;
                    break;
                case 'explicit-key-ind':
                case 'map-value-ind':
                case 'seq-item-ind':
                    if (this.atNewLine)
                        this.indent += source.length;
                    break;
                case 'doc-mode':
                case 'flow-error-end':
                    return;
                default:
                    this.atNewLine = false;
            }
            this.offset += source.length;
        }
    }
    /** Call at end of input to push out any remaining constructions */
    *end() {
        while (this.stack.length > 0)
            yield* this.pop();
    }
    get sourceToken() {
        const st = {
            type: this.type,
            offset: this.offset,
            indent: this.indent,
            source: this.source
        };
        return st;
    }
    *step() {
        const top = this.peek(1);
        if (this.type === 'doc-end' && top?.type !== 'doc-end') {
            while (this.stack.length > 0)
                yield* this.pop();
            this.stack.push({
                type: 'doc-end',
                offset: this.offset,
                source: this.source
            });
            return;
        }
        if (!top)
            return yield* this.stream();
        switch (top.type) {
            case 'document':
                return yield* this.document(top);
            case 'alias':
            case 'scalar':
            case 'single-quoted-scalar':
            case 'double-quoted-scalar':
                return yield* this.scalar(top);
            case 'block-scalar':
                return yield* this.blockScalar(top);
            case 'block-map':
                return yield* this.blockMap(top);
            case 'block-seq':
                return yield* this.blockSequence(top);
            case 'flow-collection':
                return yield* this.flowCollection(top);
            case 'doc-end':
                return yield* this.documentEnd(top);
        }
        /* istanbul ignore next should not happen */
        yield* this.pop();
    }
    peek(n) {
        return this.stack[this.stack.length - n];
    }
    *pop(error) {
        const token = error ?? this.stack.pop();
        /* istanbul ignore if should not happen */
        if (!token) {
            const message = 'Tried to pop an empty stack';
            yield { type: 'error', offset: this.offset, source: '', message };
        }
        else if (this.stack.length === 0) {
            yield token;
        }
        else {
            const top = this.peek(1);
            if (token.type === 'block-scalar') {
                // Block scalars use their parent rather than header indent
                token.indent = 'indent' in top ? top.indent : 0;
            }
            else if (token.type === 'flow-collection' && top.type === 'document') {
                // Ignore all indent for top-level flow collections
                token.indent = 0;
            }
            if (token.type === 'flow-collection')
                fixFlowSeqItems(token);
            switch (top.type) {
                case 'document':
                    top.value = token;
                    break;
                case 'block-scalar':
                    top.props.push(token); // error
                    break;
                case 'block-map': {
                    const it = top.items[top.items.length - 1];
                    if (it.value) {
                        top.items.push({ start: [], key: token, sep: [] });
                        this.onKeyLine = true;
                        return;
                    }
                    else if (it.sep) {
                        it.value = token;
                    }
                    else {
                        Object.assign(it, { key: token, sep: [] });
                        this.onKeyLine = !it.explicitKey;
                        return;
                    }
                    break;
                }
                case 'block-seq': {
                    const it = top.items[top.items.length - 1];
                    if (it.value)
                        top.items.push({ start: [], value: token });
                    else
                        it.value = token;
                    break;
                }
                case 'flow-collection': {
                    const it = top.items[top.items.length - 1];
                    if (!it || it.value)
                        top.items.push({ start: [], key: token, sep: [] });
                    else if (it.sep)
                        it.value = token;
                    else
                        Object.assign(it, { key: token, sep: [] });
                    return;
                }
                /* istanbul ignore next should not happen */
                default:
                    yield* this.pop();
                    yield* this.pop(token);
            }
            if ((top.type === 'document' ||
                top.type === 'block-map' ||
                top.type === 'block-seq') &&
                (token.type === 'block-map' || token.type === 'block-seq')) {
                const last = token.items[token.items.length - 1];
                if (last &&
                    !last.sep &&
                    !last.value &&
                    last.start.length > 0 &&
                    findNonEmptyIndex(last.start) === -1 &&
                    (token.indent === 0 ||
                        last.start.every(st => st.type !== 'comment' || st.indent < token.indent))) {
                    if (top.type === 'document')
                        top.end = last.start;
                    else
                        top.items.push({ start: last.start });
                    token.items.splice(-1, 1);
                }
            }
        }
    }
    *stream() {
        switch (this.type) {
            case 'directive-line':
                yield { type: 'directive', offset: this.offset, source: this.source };
                return;
            case 'byte-order-mark':
            case 'space':
            case 'comment':
            case 'newline':
                yield this.sourceToken;
                return;
            case 'doc-mode':
            case 'doc-start': {
                const doc = {
                    type: 'document',
                    offset: this.offset,
                    start: []
                };
                if (this.type === 'doc-start')
                    doc.start.push(this.sourceToken);
                this.stack.push(doc);
                return;
            }
        }
        yield {
            type: 'error',
            offset: this.offset,
            message: `Unexpected ${this.type} token in YAML stream`,
            source: this.source
        };
    }
    *document(doc) {
        if (doc.value)
            return yield* this.lineEnd(doc);
        switch (this.type) {
            case 'doc-start': {
                if (findNonEmptyIndex(doc.start) !== -1) {
                    yield* this.pop();
                    yield* this.step();
                }
                else
                    doc.start.push(this.sourceToken);
                return;
            }
            case 'anchor':
            case 'tag':
            case 'space':
            case 'comment':
            case 'newline':
                doc.start.push(this.sourceToken);
                return;
        }
        const bv = this.startBlockValue(doc);
        if (bv)
            this.stack.push(bv);
        else {
            yield {
                type: 'error',
                offset: this.offset,
                message: `Unexpected ${this.type} token in YAML document`,
                source: this.source
            };
        }
    }
    *scalar(scalar) {
        if (this.type === 'map-value-ind') {
            const prev = getPrevProps(this.peek(2));
            const start = getFirstKeyStartProps(prev);
            let sep;
            if (scalar.end) {
                sep = scalar.end;
                sep.push(this.sourceToken);
                delete scalar.end;
            }
            else
                sep = [this.sourceToken];
            const map = {
                type: 'block-map',
                offset: scalar.offset,
                indent: scalar.indent,
                items: [{ start, key: scalar, sep }]
            };
            this.onKeyLine = true;
            this.stack[this.stack.length - 1] = map;
        }
        else
            yield* this.lineEnd(scalar);
    }
    *blockScalar(scalar) {
        switch (this.type) {
            case 'space':
            case 'comment':
            case 'newline':
                scalar.props.push(this.sourceToken);
                return;
            case 'scalar':
                scalar.source = this.source;
                // block-scalar source includes trailing newline
                this.atNewLine = true;
                this.indent = 0;
                if (this.onNewLine) {
                    let nl = this.source.indexOf('\n') + 1;
                    while (nl !== 0) {
                        this.onNewLine(this.offset + nl);
                        nl = this.source.indexOf('\n', nl) + 1;
                    }
                }
                yield* this.pop();
                break;
            /* istanbul ignore next should not happen */
            default:
                yield* this.pop();
                yield* this.step();
        }
    }
    *blockMap(map) {
        const it = map.items[map.items.length - 1];
        // it.sep is true-ish if pair already has key or : separator
        switch (this.type) {
            case 'newline':
                this.onKeyLine = false;
                if (it.value) {
                    const end = 'end' in it.value ? it.value.end : undefined;
                    const last = Array.isArray(end) ? end[end.length - 1] : undefined;
                    if (last?.type === 'comment')
                        end?.push(this.sourceToken);
                    else
                        map.items.push({ start: [this.sourceToken] });
                }
                else if (it.sep) {
                    it.sep.push(this.sourceToken);
                }
                else {
                    it.start.push(this.sourceToken);
                }
                return;
            case 'space':
            case 'comment':
                if (it.value) {
                    map.items.push({ start: [this.sourceToken] });
                }
                else if (it.sep) {
                    it.sep.push(this.sourceToken);
                }
                else {
                    if (this.atIndentedComment(it.start, map.indent)) {
                        const prev = map.items[map.items.length - 2];
                        const end = prev?.value?.end;
                        if (Array.isArray(end)) {
                            arrayPushArray(end, it.start);
                            end.push(this.sourceToken);
                            map.items.pop();
                            return;
                        }
                    }
                    it.start.push(this.sourceToken);
                }
                return;
        }
        if (this.indent >= map.indent) {
            const atMapIndent = !this.onKeyLine && this.indent === map.indent;
            const atNextItem = atMapIndent &&
                (it.sep || it.explicitKey) &&
                this.type !== 'seq-item-ind';
            // For empty nodes, assign newline-separated not indented empty tokens to following node
            let start = [];
            if (atNextItem && it.sep && !it.value) {
                const nl = [];
                for (let i = 0; i < it.sep.length; ++i) {
                    const st = it.sep[i];
                    switch (st.type) {
                        case 'newline':
                            nl.push(i);
                            break;
                        case 'space':
                            break;
                        case 'comment':
                            if (st.indent > map.indent)
                                nl.length = 0;
                            break;
                        default:
                            nl.length = 0;
                    }
                }
                if (nl.length >= 2)
                    start = it.sep.splice(nl[1]);
            }
            switch (this.type) {
                case 'anchor':
                case 'tag':
                    if (atNextItem || it.value) {
                        start.push(this.sourceToken);
                        map.items.push({ start });
                        this.onKeyLine = true;
                    }
                    else if (it.sep) {
                        it.sep.push(this.sourceToken);
                    }
                    else {
                        it.start.push(this.sourceToken);
                    }
                    return;
                case 'explicit-key-ind':
                    if (!it.sep && !it.explicitKey) {
                        it.start.push(this.sourceToken);
                        it.explicitKey = true;
                    }
                    else if (atNextItem || it.value) {
                        start.push(this.sourceToken);
                        map.items.push({ start, explicitKey: true });
                    }
                    else {
                        this.stack.push({
                            type: 'block-map',
                            offset: this.offset,
                            indent: this.indent,
                            items: [{ start: [this.sourceToken], explicitKey: true }]
                        });
                    }
                    this.onKeyLine = true;
                    return;
                case 'map-value-ind':
                    if (it.explicitKey) {
                        if (!it.sep) {
                            if (includesToken(it.start, 'newline')) {
                                Object.assign(it, { key: null, sep: [this.sourceToken] });
                            }
                            else {
                                const start = getFirstKeyStartProps(it.start);
                                this.stack.push({
                                    type: 'block-map',
                                    offset: this.offset,
                                    indent: this.indent,
                                    items: [{ start, key: null, sep: [this.sourceToken] }]
                                });
                            }
                        }
                        else if (it.value) {
                            map.items.push({ start: [], key: null, sep: [this.sourceToken] });
                        }
                        else if (includesToken(it.sep, 'map-value-ind')) {
                            this.stack.push({
                                type: 'block-map',
                                offset: this.offset,
                                indent: this.indent,
                                items: [{ start, key: null, sep: [this.sourceToken] }]
                            });
                        }
                        else if (isFlowToken(it.key) &&
                            !includesToken(it.sep, 'newline')) {
                            const start = getFirstKeyStartProps(it.start);
                            const key = it.key;
                            const sep = it.sep;
                            sep.push(this.sourceToken);
                            // @ts-expect-error type guard is wrong here
                            delete it.key;
                            // @ts-expect-error type guard is wrong here
                            delete it.sep;
                            this.stack.push({
                                type: 'block-map',
                                offset: this.offset,
                                indent: this.indent,
                                items: [{ start, key, sep }]
                            });
                        }
                        else if (start.length > 0) {
                            // Not actually at next item
                            it.sep = it.sep.concat(start, this.sourceToken);
                        }
                        else {
                            it.sep.push(this.sourceToken);
                        }
                    }
                    else {
                        if (!it.sep) {
                            Object.assign(it, { key: null, sep: [this.sourceToken] });
                        }
                        else if (it.value || atNextItem) {
                            map.items.push({ start, key: null, sep: [this.sourceToken] });
                        }
                        else if (includesToken(it.sep, 'map-value-ind')) {
                            this.stack.push({
                                type: 'block-map',
                                offset: this.offset,
                                indent: this.indent,
                                items: [{ start: [], key: null, sep: [this.sourceToken] }]
                            });
                        }
                        else {
                            it.sep.push(this.sourceToken);
                        }
                    }
                    this.onKeyLine = true;
                    return;
                case 'alias':
                case 'scalar':
                case 'single-quoted-scalar':
                case 'double-quoted-scalar': {
                    const fs = this.flowScalar(this.type);
                    if (atNextItem || it.value) {
                        map.items.push({ start, key: fs, sep: [] });
                        this.onKeyLine = true;
                    }
                    else if (it.sep) {
                        this.stack.push(fs);
                    }
                    else {
                        Object.assign(it, { key: fs, sep: [] });
                        this.onKeyLine = true;
                    }
                    return;
                }
                default: {
                    const bv = this.startBlockValue(map);
                    if (bv) {
                        if (bv.type === 'block-seq') {
                            if (!it.explicitKey &&
                                it.sep &&
                                !includesToken(it.sep, 'newline')) {
                                yield* this.pop({
                                    type: 'error',
                                    offset: this.offset,
                                    message: 'Unexpected block-seq-ind on same line with key',
                                    source: this.source
                                });
                                return;
                            }
                        }
                        else if (atMapIndent) {
                            map.items.push({ start });
                        }
                        this.stack.push(bv);
                        return;
                    }
                }
            }
        }
        yield* this.pop();
        yield* this.step();
    }
    *blockSequence(seq) {
        const it = seq.items[seq.items.length - 1];
        switch (this.type) {
            case 'newline':
                if (it.value) {
                    const end = 'end' in it.value ? it.value.end : undefined;
                    const last = Array.isArray(end) ? end[end.length - 1] : undefined;
                    if (last?.type === 'comment')
                        end?.push(this.sourceToken);
                    else
                        seq.items.push({ start: [this.sourceToken] });
                }
                else
                    it.start.push(this.sourceToken);
                return;
            case 'space':
            case 'comment':
                if (it.value)
                    seq.items.push({ start: [this.sourceToken] });
                else {
                    if (this.atIndentedComment(it.start, seq.indent)) {
                        const prev = seq.items[seq.items.length - 2];
                        const end = prev?.value?.end;
                        if (Array.isArray(end)) {
                            arrayPushArray(end, it.start);
                            end.push(this.sourceToken);
                            seq.items.pop();
                            return;
                        }
                    }
                    it.start.push(this.sourceToken);
                }
                return;
            case 'anchor':
            case 'tag':
                if (it.value || this.indent <= seq.indent)
                    break;
                it.start.push(this.sourceToken);
                return;
            case 'seq-item-ind':
                if (this.indent !== seq.indent)
                    break;
                if (it.value || includesToken(it.start, 'seq-item-ind'))
                    seq.items.push({ start: [this.sourceToken] });
                else
                    it.start.push(this.sourceToken);
                return;
        }
        if (this.indent > seq.indent) {
            const bv = this.startBlockValue(seq);
            if (bv) {
                this.stack.push(bv);
                return;
            }
        }
        yield* this.pop();
        yield* this.step();
    }
    *flowCollection(fc) {
        const it = fc.items[fc.items.length - 1];
        if (this.type === 'flow-error-end') {
            let top;
            do {
                yield* this.pop();
                top = this.peek(1);
            } while (top?.type === 'flow-collection');
        }
        else if (fc.end.length === 0) {
            switch (this.type) {
                case 'comma':
                case 'explicit-key-ind':
                    if (!it || it.sep)
                        fc.items.push({ start: [this.sourceToken] });
                    else
                        it.start.push(this.sourceToken);
                    return;
                case 'map-value-ind':
                    if (!it || it.value)
                        fc.items.push({ start: [], key: null, sep: [this.sourceToken] });
                    else if (it.sep)
                        it.sep.push(this.sourceToken);
                    else
                        Object.assign(it, { key: null, sep: [this.sourceToken] });
                    return;
                case 'space':
                case 'comment':
                case 'newline':
                case 'anchor':
                case 'tag':
                    if (!it || it.value)
                        fc.items.push({ start: [this.sourceToken] });
                    else if (it.sep)
                        it.sep.push(this.sourceToken);
                    else
                        it.start.push(this.sourceToken);
                    return;
                case 'alias':
                case 'scalar':
                case 'single-quoted-scalar':
                case 'double-quoted-scalar': {
                    const fs = this.flowScalar(this.type);
                    if (!it || it.value)
                        fc.items.push({ start: [], key: fs, sep: [] });
                    else if (it.sep)
                        this.stack.push(fs);
                    else
                        Object.assign(it, { key: fs, sep: [] });
                    return;
                }
                case 'flow-map-end':
                case 'flow-seq-end':
                    fc.end.push(this.sourceToken);
                    return;
            }
            const bv = this.startBlockValue(fc);
            /* istanbul ignore else should not happen */
            if (bv)
                this.stack.push(bv);
            else {
                yield* this.pop();
                yield* this.step();
            }
        }
        else {
            const parent = this.peek(2);
            if (parent.type === 'block-map' &&
                ((this.type === 'map-value-ind' && parent.indent === fc.indent) ||
                    (this.type === 'newline' &&
                        !parent.items[parent.items.length - 1].sep))) {
                yield* this.pop();
                yield* this.step();
            }
            else if (this.type === 'map-value-ind' &&
                parent.type !== 'flow-collection') {
                const prev = getPrevProps(parent);
                const start = getFirstKeyStartProps(prev);
                fixFlowSeqItems(fc);
                const sep = fc.end.splice(1, fc.end.length);
                sep.push(this.sourceToken);
                const map = {
                    type: 'block-map',
                    offset: fc.offset,
                    indent: fc.indent,
                    items: [{ start, key: fc, sep }]
                };
                this.onKeyLine = true;
                this.stack[this.stack.length - 1] = map;
            }
            else {
                yield* this.lineEnd(fc);
            }
        }
    }
    flowScalar(type) {
        if (this.onNewLine) {
            let nl = this.source.indexOf('\n') + 1;
            while (nl !== 0) {
                this.onNewLine(this.offset + nl);
                nl = this.source.indexOf('\n', nl) + 1;
            }
        }
        return {
            type,
            offset: this.offset,
            indent: this.indent,
            source: this.source
        };
    }
    startBlockValue(parent) {
        switch (this.type) {
            case 'alias':
            case 'scalar':
            case 'single-quoted-scalar':
            case 'double-quoted-scalar':
                return this.flowScalar(this.type);
            case 'block-scalar-header':
                return {
                    type: 'block-scalar',
                    offset: this.offset,
                    indent: this.indent,
                    props: [this.sourceToken],
                    source: ''
                };
            case 'flow-map-start':
            case 'flow-seq-start':
                return {
                    type: 'flow-collection',
                    offset: this.offset,
                    indent: this.indent,
                    start: this.sourceToken,
                    items: [],
                    end: []
                };
            case 'seq-item-ind':
                return {
                    type: 'block-seq',
                    offset: this.offset,
                    indent: this.indent,
                    items: [{ start: [this.sourceToken] }]
                };
            case 'explicit-key-ind': {
                this.onKeyLine = true;
                const prev = getPrevProps(parent);
                const start = getFirstKeyStartProps(prev);
                start.push(this.sourceToken);
                return {
                    type: 'block-map',
                    offset: this.offset,
                    indent: this.indent,
                    items: [{ start, explicitKey: true }]
                };
            }
            case 'map-value-ind': {
                this.onKeyLine = true;
                const prev = getPrevProps(parent);
                const start = getFirstKeyStartProps(prev);
                return {
                    type: 'block-map',
                    offset: this.offset,
                    indent: this.indent,
                    items: [{ start, key: null, sep: [this.sourceToken] }]
                };
            }
        }
        return null;
    }
    atIndentedComment(start, indent) {
        if (this.type !== 'comment')
            return false;
        if (this.indent <= indent)
            return false;
        return start.every(st => st.type === 'newline' || st.type === 'space');
    }
    *documentEnd(docEnd) {
        if (this.type !== 'doc-mode') {
            if (docEnd.end)
                docEnd.end.push(this.sourceToken);
            else
                docEnd.end = [this.sourceToken];
            if (this.type === 'newline')
                yield* this.pop();
        }
    }
    *lineEnd(token) {
        switch (this.type) {
            case 'comma':
            case 'doc-start':
            case 'doc-end':
            case 'flow-seq-end':
            case 'flow-map-end':
            case 'map-value-ind':
                yield* this.pop();
                yield* this.step();
                break;
            case 'newline':
                this.onKeyLine = false;
            // fallthrough
            case 'space':
            case 'comment':
            default:
                // all other values are errors
                if (token.end)
                    token.end.push(this.sourceToken);
                else
                    token.end = [this.sourceToken];
                if (this.type === 'newline')
                    yield* this.pop();
        }
    }
}

function parseOptions(options) {
    const prettyErrors = options.prettyErrors !== false;
    const lineCounter = options.lineCounter || (prettyErrors && new LineCounter()) || null;
    return { lineCounter, prettyErrors };
}
/** Parse an input string into a single YAML.Document */
function parseDocument(source, options = {}) {
    const { lineCounter, prettyErrors } = parseOptions(options);
    const parser = new Parser(lineCounter?.addNewLine);
    const composer = new Composer(options);
    // `doc` is always set by compose.end(true) at the very latest
    let doc = null;
    for (const _doc of composer.compose(parser.parse(source), true, source.length)) {
        if (!doc)
            doc = _doc;
        else if (doc.options.logLevel !== 'silent') {
            doc.errors.push(new YAMLParseError(_doc.range.slice(0, 2), 'MULTIPLE_DOCS', 'Source contains multiple documents; please use YAML.parseAllDocuments()'));
            break;
        }
    }
    if (prettyErrors && lineCounter) {
        doc.errors.forEach(prettifyError(source, lineCounter));
        doc.warnings.forEach(prettifyError(source, lineCounter));
    }
    return doc;
}
function stringify(value, replacer, options) {
    let _replacer = null;
    if (typeof replacer === 'function' || Array.isArray(replacer)) {
        _replacer = replacer;
    }
    else if (options === undefined && replacer) {
        options = replacer;
    }
    if (typeof options === 'string')
        options = options.length;
    if (typeof options === 'number') {
        const indent = Math.round(options);
        options = indent < 1 ? undefined : indent > 8 ? { indent: 8 } : { indent };
    }
    if (value === undefined) {
        const { keepUndefined } = options ?? replacer ?? {};
        if (!keepUndefined)
            return undefined;
    }
    if (isDocument(value) && !_replacer)
        return value.toString(options);
    return new Document(value, _replacer, options).toString(options);
}

/**
 * Recognising and hiding credentials in anything helm-gate prints or stores: error values, the
 * prod_env files shown by `plan` and kept in run-manifest.json, URLs. Redaction goes by
 * structure (the key a value sits under, the parts of a URL), with value patterns as a second
 * net, because a key written under an unexpected name must not leak either.
 */
const HIDDEN = '(hidden)';
/** Words of a key name that mark a credential; `tokenizer` and `max_tokens` are not. */
const CREDENTIAL_WORD = /^(?:.*key|.*token|.*secret|.*password|.*passwd|pwd|credentials?|auth.*|bearer|cookie|private)$/;
const SAFE_WORDS = new Set(['tokenizer', 'tokenizers', 'monkey', 'turkey']);
/** Splits `client_spec.args.apiKey`, `HF-TOKEN` or `openaiApiKey` into lower-case words. */
function words(name) {
    return name
        .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
        .split(/[^A-Za-z0-9]+/)
        .filter(Boolean)
        .map(w => w.toLowerCase());
}
/** Whether a key (or the last segment of a key path) names a credential. */
function isCredentialKey(name) {
    const last = name
        .split(/[.[\]]/)
        .filter(Boolean)
        .pop() ?? name;
    return words(last).some(w => CREDENTIAL_WORD.test(w) && !SAFE_WORDS.has(w));
}
/**
 * `api_key_env: BASELINE_KEY` names an environment variable, not a key: shown, as long as it
 * really is a variable name (a key pasted there is still hidden).
 */
function isVariableName(key, value) {
    return /_env$/i.test(key) && typeof value === 'string' && /^[A-Za-z_][A-Za-z0-9_]{0,127}$/.test(value) && !looksLikeSecret(value);
}
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
 * Whether a value (of any shape) holds a credential: a credential-looking string anywhere, or
 * anything under a credential-like key. Walks at most `depth` levels; deeper is treated as
 * secret, so a hostile value can neither leak nor exhaust the stack.
 */
function containsSecret(value, depth = 16) {
    if (typeof value === 'string')
        return looksLikeSecret(value);
    if (value === null || typeof value !== 'object')
        return false;
    if (depth <= 0)
        return true;
    if (Array.isArray(value))
        return value.some(item => containsSecret(item, depth - 1));
    return Object.entries(value).some(([key, item]) => (isCredentialKey(key) && !isVariableName(key, item) && item !== null && item !== undefined && item !== '') ||
        containsSecret(item, depth - 1));
}
/** The value to show in a message about `keyPath`: the value itself, or HIDDEN. */
function shownValue(keyPath, value) {
    if (value === undefined || value === null)
        return value;
    const key = keyPath
        .split(/[.[\]]/)
        .filter(Boolean)
        .pop() ?? keyPath;
    if (isCredentialKey(keyPath) && !isVariableName(key, value))
        return HIDDEN;
    return containsSecret(value) ? HIDDEN : value;
}
/**
 * A URL with its userinfo and every query value hidden: `https://u:p@h/v1?key=abc` becomes
 * `https://***:***@h/v1?key=***`. Text that is not a URL is returned unchanged.
 */
function redactUrl(text) {
    let url;
    try {
        url = new URL(text);
    }
    catch {
        return text;
    }
    if (!url.username && !url.password && !url.search)
        return text;
    if (url.username)
        url.username = '***';
    if (url.password)
        url.password = '***';
    if (url.search) {
        const names = [...url.searchParams.keys()];
        url.search = names.map(name => `${encodeURIComponent(name)}=***`).join('&');
    }
    return url.href.replace(/%2A%2A%2A/g, '***');
}
/** Every URL inside a longer text (a message, a log line), redacted. */
function redactUrlsIn(text) {
    return text.replace(/\b[a-z][a-z0-9+.-]*:\/\/[^\s"'<>`]+/gi, match => redactUrl(match));
}
/**
 * A copy of a parsed document (YAML or JSON) with every value under a credential-like key
 * hidden, every credential-looking string hidden and every URL redacted. Deeper than `depth`
 * levels the subtree is hidden whole.
 */
function redactTree(value, depth = 32) {
    if (typeof value === 'string')
        return looksLikeSecret(value) ? HIDDEN : redactUrl(value);
    if (value === null || typeof value !== 'object')
        return value;
    if (depth <= 0)
        return HIDDEN;
    if (Array.isArray(value))
        return value.map(item => redactTree(item, depth - 1));
    const out = {};
    for (const [key, item] of Object.entries(value)) {
        const secret = isCredentialKey(key) && !isVariableName(key, item) && item !== null && item !== undefined && item !== '';
        out[key] = secret ? HIDDEN : redactTree(item, depth - 1);
    }
    return out;
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
/** The gate file is invalid. */
class ConfigError extends GateError {
}
/** A HELM output file or directory is missing, unreadable or malformed. */
class InputError extends GateError {
}
/** The two sides cannot be compared fairly (cache, drift, overlap, missing metric). */
class GuardError extends GateError {
}
/** helm-run failed, hung or left incomplete output. */
class HelmRunError extends GateError {
}
/** A deployment's server did not become ready. */
class ServerNotReadyError extends GateError {
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
 * The gate file's optional `load:` section: the performance half (docs/load.md). Validated by
 * `config/load-section.ts`; left out of the fingerprint because load results are never archived
 * (they are comparable only within one job on one machine).
 */
/** The load metrics a check or an SLO can name (docs/load.md defines each). */
const RATIO_METRICS = [
    'output_tokens_per_second',
    'request_throughput',
    'goodput',
    'ttft_p50',
    'ttft_p90',
    'ttft_p99',
    'itl_p50',
    'itl_p90',
    'itl_p99',
    'tpot_p50',
    'tpot_p90',
    'tpot_p99',
    'latency_p50',
    'latency_p90',
    'latency_p99'
];
const LOAD_METRICS = [...RATIO_METRICS, 'error_rate'];

/**
 * A tiny strict reader for YAML-decoded objects. Every accessor records the key path so that
 * errors name exactly what is wrong (`runs[2].max_drop`), and `done()` rejects unknown keys,
 * which in a gate file are almost always typos that would otherwise silently loosen the gate.
 */
/** A value for an error message: never the value of a credential-like key or a key-looking value. */
function shown(path, value) {
    const out = shownValue(path, value);
    return out === HIDDEN ? `${HIDDEN}: the value of ${path || 'the gate file'} looks like a credential and is never printed` : out;
}
class Fields {
    source;
    path;
    obj;
    seen = new Set();
    constructor(source, path, obj) {
        this.source = source;
        this.path = path;
        this.obj = obj;
    }
    static of(source, path, value) {
        if (value === null || typeof value !== 'object' || Array.isArray(value)) {
            throw new ConfigError('config.type', `${path || 'the gate file'} must be a mapping`, {
                file: source,
                field: path || undefined,
                value: shown(path, value)
            });
        }
        return new Fields(source, path, value);
    }
    at(key) {
        return this.path ? `${this.path}.${key}` : key;
    }
    /** The keys present, for maps whose keys are data (e.g. environment variable names). */
    keys() {
        return Object.keys(this.obj);
    }
    has(key) {
        return this.obj[key] !== undefined && this.obj[key] !== null;
    }
    raw(key) {
        this.seen.add(key);
        return this.obj[key];
    }
    fail(key, message, value) {
        throw new ConfigError('config.invalid', message, {
            file: this.source,
            field: this.at(key),
            value: shown(this.at(key), value === undefined ? this.obj[key] : value)
        });
    }
    missing(key) {
        throw new ConfigError('config.missing', `${this.at(key)} is required`, {
            file: this.source,
            field: this.at(key)
        });
    }
    string(key, fallback) {
        const value = this.raw(key);
        if (value === undefined || value === null) {
            if (fallback === undefined)
                this.missing(key);
            return fallback;
        }
        if (typeof value !== 'string' || value.trim() === '') {
            this.fail(key, `${this.at(key)} must be a non-empty string`);
        }
        return value;
    }
    number(key, fallback, check, expect) {
        const value = this.raw(key);
        if (value === undefined || value === null) {
            if (fallback === undefined)
                this.missing(key);
            return fallback;
        }
        if (typeof value !== 'number' || !Number.isFinite(value) || !check(value)) {
            this.fail(key, `${this.at(key)} must be ${expect}`);
        }
        return value;
    }
    optionalNumber(key, check, expect) {
        if (!this.has(key)) {
            this.raw(key);
            return null;
        }
        return this.number(key, undefined, check, expect);
    }
    integer(key, fallback, min, max = Number.MAX_SAFE_INTEGER) {
        return this.number(key, fallback, n => Number.isInteger(n) && n >= min && n <= max, max === Number.MAX_SAFE_INTEGER ? `an integer >= ${min}` : `an integer from ${min} to ${max}`);
    }
    boolean(key, fallback) {
        const value = this.raw(key);
        if (value === undefined || value === null)
            return fallback;
        if (typeof value !== 'boolean')
            this.fail(key, `${this.at(key)} must be true or false`);
        return value;
    }
    choice(key, choices, fallback) {
        const value = this.raw(key);
        if (value === undefined || value === null) {
            if (fallback === undefined)
                this.missing(key);
            return fallback;
        }
        if (typeof value !== 'string' || !choices.includes(value)) {
            this.fail(key, `${this.at(key)} must be one of ${choices.join(', ')}`);
        }
        return value;
    }
    object(key) {
        const value = this.raw(key);
        if (value === undefined || value === null)
            return null;
        return Fields.of(this.source, this.at(key), value);
    }
    list(key) {
        const value = this.raw(key);
        if (value === undefined || value === null)
            return null;
        if (!Array.isArray(value))
            this.fail(key, `${this.at(key)} must be a list`);
        return value;
    }
    /**
     * Rejects unknown keys before any value is read, so a typo is reported as the typo and not as
     * the missing key it was meant to be.
     */
    allow(keys) {
        for (const key of Object.keys(this.obj)) {
            if (!keys.includes(key)) {
                throw new ConfigError('config.unknown_key', `unknown key ${this.at(key)}; expected one of ${keys.join(', ')}`, {
                    file: this.source,
                    field: this.at(key),
                    value: shown(this.at(key), this.obj[key])
                });
            }
        }
        return this;
    }
    /** Rejects keys that were never read: a typo must not silently drop a threshold. */
    done() {
        for (const key of Object.keys(this.obj)) {
            if (!this.seen.has(key)) {
                throw new ConfigError('config.unknown_key', `unknown key ${this.at(key)}`, {
                    file: this.source,
                    field: this.at(key),
                    value: shown(this.at(key), this.obj[key])
                });
            }
        }
    }
}

/**
 * Strict validation of the gate file's `load:` section (types in `load-types.ts`, the method in
 * docs/load.md). Like the rest of the gate file, an unknown key, a wrong type or an impossible
 * value is an error naming its key path, e.g. `load.checks[1].max_ratio`.
 */
const MAX_TOKENS = 1_000_000;
function parseLoad(f) {
    f.allow([
        'workload',
        'concurrency',
        'rate',
        'arrival',
        'requests_per_level',
        'duration_seconds',
        'warmup_requests',
        'repetitions',
        'timeout_seconds',
        'slo',
        'checks',
        'baseline',
        'seed'
    ]);
    const workloadFields = f.object('workload');
    const workload = parseWorkload(workloadFields ?? Fields.of(f.source, f.at('workload'), {}));
    const concurrency = f.list('concurrency');
    const rate = f.list('rate');
    if (concurrency && rate)
        f.fail('rate', `${f.path} sets both concurrency and rate; choose closed loop or open loop`);
    if (!concurrency && !rate)
        f.fail('concurrency', `${f.path} needs concurrency (closed-loop levels) or rate (requests per second)`, null);
    const mode = concurrency ? 'concurrency' : 'rate';
    const levels = parseLevels(f, mode, (concurrency ?? rate));
    const arrival = f.choice('arrival', ['poisson', 'constant', 'traffic'], 'poisson');
    if (mode === 'concurrency' && f.has('arrival'))
        f.fail('arrival', `${f.at('arrival')} applies only to rate (open loop)`);
    if (arrival === 'traffic' && workload.prompts !== 'traffic') {
        f.fail('arrival', `${f.at('arrival')} is traffic, which replays a traffic set's arrival times: it needs workload.prompts: traffic`);
    }
    const requestsPerLevel = f.has('requests_per_level')
        ? f.integer('requests_per_level', undefined, 1, 10_000_000)
        : (f.raw('requests_per_level'), null);
    const durationSeconds = f.optionalNumber('duration_seconds', n => n > 0 && n <= 24 * 3600, 'seconds between 0 and 86400');
    if (requestsPerLevel !== null && durationSeconds !== null) {
        f.fail('duration_seconds', `${f.path} sets both requests_per_level and duration_seconds; choose one`);
    }
    if (requestsPerLevel === null && durationSeconds === null) {
        f.fail('requests_per_level', `${f.path} needs requests_per_level or duration_seconds`, null);
    }
    const warmupRequests = f.integer('warmup_requests', 0, 0, 1_000_000);
    const repetitions = f.integer('repetitions', 3, 3, 1000);
    if (requestsPerLevel !== null && requestsPerLevel < repetitions) {
        f.fail('requests_per_level', `${f.at('requests_per_level')} must be at least repetitions (${repetitions}): every block needs a request`);
    }
    const timeoutSeconds = f.number('timeout_seconds', 120, n => n > 0 && n <= 3600, 'seconds between 0 and 3600');
    const sloFields = f.object('slo');
    const slo = sloFields ? parseSlo(sloFields) : [];
    const checkList = f.list('checks') ?? [];
    const checks = checkList.map((item, i) => parseCheck(Fields.of(f.source, `${f.at('checks')}[${i}]`, item), mode, levels));
    if (checks.some(c => c.metric === 'goodput') && slo.length === 0) {
        f.fail('slo', `${f.path} has a goodput check but no slo to define a good request`, null);
    }
    const baseline = f.choice('baseline', ['required', 'optional'], 'required');
    const seed = f.integer('seed', 0, 0, 2 ** 32 - 1);
    f.done();
    return {
        workload,
        mode,
        levels,
        arrival,
        requestsPerLevel,
        durationSeconds,
        warmupRequests,
        repetitions,
        timeoutSeconds,
        slo,
        checks,
        baseline,
        seed
    };
}
function parseLevels(f, mode, list) {
    const key = mode;
    if (list.length === 0)
        f.fail(key, `${f.at(key)} must list at least one level`);
    const seen = new Set();
    return list.map((value, i) => {
        const ok = typeof value === 'number' &&
            Number.isFinite(value) &&
            (mode === 'concurrency' ? Number.isInteger(value) && value >= 1 && value <= 10_000 : value > 0 && value <= 100_000);
        if (!ok) {
            f.fail(key, `${f.at(key)}[${i}] must be ${mode === 'concurrency' ? 'an integer from 1 to 10000' : 'a rate in requests per second (> 0)'}`, value);
        }
        if (seen.has(value))
            f.fail(key, `${f.at(key)}[${i}] repeats the level ${String(value)}`, value);
        seen.add(value);
        return value;
    });
}
function parseWorkload(f) {
    f.allow(['prompts', 'input_tokens', 'output_tokens', 'file']);
    const prompts = f.choice('prompts', ['synthetic', 'gate-set', 'file', 'traffic'], 'synthetic');
    const input = f.object('input_tokens');
    const output = f.object('output_tokens');
    const file = f.string('file', null);
    const withFile = prompts === 'file' || prompts === 'traffic';
    if (withFile && file === null) {
        f.fail('file', `${f.at('file')} is required with prompts: ${prompts}${prompts === 'traffic' ? ' (the traffic set, e.g. traffic.jsonl)' : ''}`, null);
    }
    if (!withFile && file !== null)
        f.fail('file', `${f.at('file')} applies only to prompts: file or traffic`);
    if (prompts === 'traffic' && file !== null && !file.endsWith('.jsonl')) {
        f.fail('file', `${f.at('file')} must be a traffic set (.jsonl), as written by helm-gate traffic build`);
    }
    if ((prompts === 'gate-set' || prompts === 'traffic') && input) {
        const whose = prompts === 'gate-set' ? "HELM's prompts are used as they are" : "the traffic set's prompts are used as they are";
        f.fail('input_tokens', `${f.at('input_tokens')} does not apply to prompts: ${prompts} (${whose})`);
    }
    f.done();
    return {
        prompts,
        inputTokens: input ? parseDistribution(input) : { mean: 512, stddev: 128, min: 16, max: 4096 },
        outputTokens: output ? parseDistribution(output) : { mean: 256, stddev: 0, min: 1, max: 256 },
        file
    };
}
function parseDistribution(f) {
    f.allow(['mean', 'stddev', 'min', 'max']);
    const mean = f.integer('mean', undefined, 1, MAX_TOKENS);
    const stddev = f.number('stddev', 0, n => n >= 0 && n <= MAX_TOKENS, 'a number >= 0');
    const min = f.integer('min', stddev === 0 ? mean : 1, 1, MAX_TOKENS);
    const max = f.integer('max', stddev === 0 ? mean : MAX_TOKENS, 1, MAX_TOKENS);
    if (min > mean)
        f.fail('min', `${f.at('min')} must not exceed mean (${mean})`);
    if (max < mean)
        f.fail('max', `${f.at('max')} must not be below mean (${mean})`);
    f.done();
    return { mean, stddev, min, max };
}
function parseSlo(f) {
    f.allow(['ttft_ms', 'itl_ms', 'tpot_ms', 'latency_ms']);
    const bounds = [];
    for (const metric of ['ttft', 'itl', 'tpot', 'latency']) {
        const key = `${metric}_ms`;
        const value = f.raw(key);
        if (value === undefined || value === null)
            continue;
        if (typeof value === 'number') {
            if (!(Number.isFinite(value) && value > 0))
                f.fail(key, `${f.at(key)} must be milliseconds > 0`);
            bounds.push({ metric, percentile: 100, maxMs: value });
            continue;
        }
        const inner = Fields.of(f.source, f.at(key), value);
        const keys = Object.keys(value);
        if (keys.length !== 1)
            f.fail(key, `${f.at(key)} must be milliseconds or one percentile, e.g. { p99: 80 }`);
        const match = /^p(\d{1,2}(?:\.\d+)?|100)$/.exec(keys[0]);
        if (!match)
            return inner.fail(keys[0], `${inner.at(keys[0])} is not a percentile key such as p50, p90 or p99`);
        const percentile = Number(match[1]);
        if (!(percentile > 0 && percentile <= 100))
            inner.fail(keys[0], `${inner.at(keys[0])} must name a percentile in (0, 100]`);
        const maxMs = inner.number(keys[0], undefined, n => n > 0, 'milliseconds > 0');
        inner.done();
        bounds.push({ metric, percentile, maxMs });
    }
    f.done();
    return bounds;
}
function parseCheck(f, mode, levels) {
    f.allow(['metric', 'concurrency', 'rate', 'min_ratio', 'max_ratio', 'min', 'max']);
    const metric = f.choice('metric', LOAD_METRICS, undefined);
    const other = mode === 'concurrency' ? 'rate' : 'concurrency';
    if (f.has(other))
        f.fail(other, `${f.at(other)} does not apply: the levels are given as ${mode}`);
    f.raw(other);
    const level = f.optionalNumber(mode, n => levels.includes(n), `one of the levels in load.${mode} (${levels.join(', ')})`);
    const minRatio = f.optionalNumber('min_ratio', n => n > 0, 'a ratio > 0');
    const maxRatio = f.optionalNumber('max_ratio', n => n > 0, 'a ratio > 0');
    const min = f.optionalNumber('min', n => n >= 0, 'a number >= 0');
    const max = f.optionalNumber('max', n => n >= 0, 'a number >= 0');
    const set = [minRatio, maxRatio, min, max].filter(v => v !== null).length;
    if (set !== 1)
        f.fail('metric', `${f.path} needs exactly one of min_ratio, max_ratio, min, max`, null);
    if (metric === 'error_rate' && (minRatio !== null || maxRatio !== null)) {
        f.fail(minRatio !== null ? 'min_ratio' : 'max_ratio', `${f.path}: error_rate takes an absolute bound (max), not a ratio: a baseline with no errors has no ratio`);
    }
    if (metric === 'error_rate' && max !== null && max > 1)
        f.fail('max', `${f.at('max')} must be a fraction in [0, 1]`);
    if (!RATIO_METRICS.includes(metric) && metric !== 'error_rate')
        f.fail('metric', `${f.at('metric')} is unknown`);
    f.done();
    return { metric, level, minRatio, maxRatio, min, max };
}

function getDefaultExportFromCjs (x) {
	return x && x.__esModule && Object.prototype.hasOwnProperty.call(x, 'default') ? x['default'] : x;
}

var ajv = {exports: {}};

var core$1 = {};

var validate = {};

var boolSchema = {};

var errors = {};

var codegen = {};

var code$1 = {};

var hasRequiredCode$1;

function requireCode$1 () {
	if (hasRequiredCode$1) return code$1;
	hasRequiredCode$1 = 1;
	(function (exports) {
		Object.defineProperty(exports, "__esModule", { value: true });
		exports.regexpCode = exports.getEsmExportName = exports.getProperty = exports.safeStringify = exports.stringify = exports.strConcat = exports.addCodeArg = exports.str = exports._ = exports.nil = exports._Code = exports.Name = exports.IDENTIFIER = exports._CodeOrName = void 0;
		// eslint-disable-next-line @typescript-eslint/no-extraneous-class
		class _CodeOrName {
		}
		exports._CodeOrName = _CodeOrName;
		exports.IDENTIFIER = /^[a-z$_][a-z$_0-9]*$/i;
		class Name extends _CodeOrName {
		    constructor(s) {
		        super();
		        if (!exports.IDENTIFIER.test(s))
		            throw new Error("CodeGen: name must be a valid identifier");
		        this.str = s;
		    }
		    toString() {
		        return this.str;
		    }
		    emptyStr() {
		        return false;
		    }
		    get names() {
		        return { [this.str]: 1 };
		    }
		}
		exports.Name = Name;
		class _Code extends _CodeOrName {
		    constructor(code) {
		        super();
		        this._items = typeof code === "string" ? [code] : code;
		    }
		    toString() {
		        return this.str;
		    }
		    emptyStr() {
		        if (this._items.length > 1)
		            return false;
		        const item = this._items[0];
		        return item === "" || item === '""';
		    }
		    get str() {
		        var _a;
		        return ((_a = this._str) !== null && _a !== void 0 ? _a : (this._str = this._items.reduce((s, c) => `${s}${c}`, "")));
		    }
		    get names() {
		        var _a;
		        return ((_a = this._names) !== null && _a !== void 0 ? _a : (this._names = this._items.reduce((names, c) => {
		            if (c instanceof Name)
		                names[c.str] = (names[c.str] || 0) + 1;
		            return names;
		        }, {})));
		    }
		}
		exports._Code = _Code;
		exports.nil = new _Code("");
		function _(strs, ...args) {
		    const code = [strs[0]];
		    let i = 0;
		    while (i < args.length) {
		        addCodeArg(code, args[i]);
		        code.push(strs[++i]);
		    }
		    return new _Code(code);
		}
		exports._ = _;
		const plus = new _Code("+");
		function str(strs, ...args) {
		    const expr = [safeStringify(strs[0])];
		    let i = 0;
		    while (i < args.length) {
		        expr.push(plus);
		        addCodeArg(expr, args[i]);
		        expr.push(plus, safeStringify(strs[++i]));
		    }
		    optimize(expr);
		    return new _Code(expr);
		}
		exports.str = str;
		function addCodeArg(code, arg) {
		    if (arg instanceof _Code)
		        code.push(...arg._items);
		    else if (arg instanceof Name)
		        code.push(arg);
		    else
		        code.push(interpolate(arg));
		}
		exports.addCodeArg = addCodeArg;
		function optimize(expr) {
		    let i = 1;
		    while (i < expr.length - 1) {
		        if (expr[i] === plus) {
		            const res = mergeExprItems(expr[i - 1], expr[i + 1]);
		            if (res !== undefined) {
		                expr.splice(i - 1, 3, res);
		                continue;
		            }
		            expr[i++] = "+";
		        }
		        i++;
		    }
		}
		function mergeExprItems(a, b) {
		    if (b === '""')
		        return a;
		    if (a === '""')
		        return b;
		    if (typeof a == "string") {
		        if (b instanceof Name || a[a.length - 1] !== '"')
		            return;
		        if (typeof b != "string")
		            return `${a.slice(0, -1)}${b}"`;
		        if (b[0] === '"')
		            return a.slice(0, -1) + b.slice(1);
		        return;
		    }
		    if (typeof b == "string" && b[0] === '"' && !(a instanceof Name))
		        return `"${a}${b.slice(1)}`;
		    return;
		}
		function strConcat(c1, c2) {
		    return c2.emptyStr() ? c1 : c1.emptyStr() ? c2 : str `${c1}${c2}`;
		}
		exports.strConcat = strConcat;
		// TODO do not allow arrays here
		function interpolate(x) {
		    return typeof x == "number" || typeof x == "boolean" || x === null
		        ? x
		        : safeStringify(Array.isArray(x) ? x.join(",") : x);
		}
		function stringify(x) {
		    return new _Code(safeStringify(x));
		}
		exports.stringify = stringify;
		function safeStringify(x) {
		    return JSON.stringify(x)
		        .replace(/\u2028/g, "\\u2028")
		        .replace(/\u2029/g, "\\u2029");
		}
		exports.safeStringify = safeStringify;
		function getProperty(key) {
		    return typeof key == "string" && exports.IDENTIFIER.test(key) ? new _Code(`.${key}`) : _ `[${key}]`;
		}
		exports.getProperty = getProperty;
		//Does best effort to format the name properly
		function getEsmExportName(key) {
		    if (typeof key == "string" && exports.IDENTIFIER.test(key)) {
		        return new _Code(`${key}`);
		    }
		    throw new Error(`CodeGen: invalid export name: ${key}, use explicit $id name mapping`);
		}
		exports.getEsmExportName = getEsmExportName;
		function regexpCode(rx) {
		    return new _Code(rx.toString());
		}
		exports.regexpCode = regexpCode;
		
	} (code$1));
	return code$1;
}

var scope = {};

var hasRequiredScope;

function requireScope () {
	if (hasRequiredScope) return scope;
	hasRequiredScope = 1;
	(function (exports) {
		Object.defineProperty(exports, "__esModule", { value: true });
		exports.ValueScope = exports.ValueScopeName = exports.Scope = exports.varKinds = exports.UsedValueState = void 0;
		const code_1 = /*@__PURE__*/ requireCode$1();
		class ValueError extends Error {
		    constructor(name) {
		        super(`CodeGen: "code" for ${name} not defined`);
		        this.value = name.value;
		    }
		}
		var UsedValueState;
		(function (UsedValueState) {
		    UsedValueState[UsedValueState["Started"] = 0] = "Started";
		    UsedValueState[UsedValueState["Completed"] = 1] = "Completed";
		})(UsedValueState || (exports.UsedValueState = UsedValueState = {}));
		exports.varKinds = {
		    const: new code_1.Name("const"),
		    let: new code_1.Name("let"),
		    var: new code_1.Name("var"),
		};
		class Scope {
		    constructor({ prefixes, parent } = {}) {
		        this._names = {};
		        this._prefixes = prefixes;
		        this._parent = parent;
		    }
		    toName(nameOrPrefix) {
		        return nameOrPrefix instanceof code_1.Name ? nameOrPrefix : this.name(nameOrPrefix);
		    }
		    name(prefix) {
		        return new code_1.Name(this._newName(prefix));
		    }
		    _newName(prefix) {
		        const ng = this._names[prefix] || this._nameGroup(prefix);
		        return `${prefix}${ng.index++}`;
		    }
		    _nameGroup(prefix) {
		        var _a, _b;
		        if (((_b = (_a = this._parent) === null || _a === void 0 ? void 0 : _a._prefixes) === null || _b === void 0 ? void 0 : _b.has(prefix)) || (this._prefixes && !this._prefixes.has(prefix))) {
		            throw new Error(`CodeGen: prefix "${prefix}" is not allowed in this scope`);
		        }
		        return (this._names[prefix] = { prefix, index: 0 });
		    }
		}
		exports.Scope = Scope;
		class ValueScopeName extends code_1.Name {
		    constructor(prefix, nameStr) {
		        super(nameStr);
		        this.prefix = prefix;
		    }
		    setValue(value, { property, itemIndex }) {
		        this.value = value;
		        this.scopePath = (0, code_1._) `.${new code_1.Name(property)}[${itemIndex}]`;
		    }
		}
		exports.ValueScopeName = ValueScopeName;
		const line = (0, code_1._) `\n`;
		class ValueScope extends Scope {
		    constructor(opts) {
		        super(opts);
		        this._values = {};
		        this._scope = opts.scope;
		        this.opts = { ...opts, _n: opts.lines ? line : code_1.nil };
		    }
		    get() {
		        return this._scope;
		    }
		    name(prefix) {
		        return new ValueScopeName(prefix, this._newName(prefix));
		    }
		    value(nameOrPrefix, value) {
		        var _a;
		        if (value.ref === undefined)
		            throw new Error("CodeGen: ref must be passed in value");
		        const name = this.toName(nameOrPrefix);
		        const { prefix } = name;
		        const valueKey = (_a = value.key) !== null && _a !== void 0 ? _a : value.ref;
		        let vs = this._values[prefix];
		        if (vs) {
		            const _name = vs.get(valueKey);
		            if (_name)
		                return _name;
		        }
		        else {
		            vs = this._values[prefix] = new Map();
		        }
		        vs.set(valueKey, name);
		        const s = this._scope[prefix] || (this._scope[prefix] = []);
		        const itemIndex = s.length;
		        s[itemIndex] = value.ref;
		        name.setValue(value, { property: prefix, itemIndex });
		        return name;
		    }
		    getValue(prefix, keyOrRef) {
		        const vs = this._values[prefix];
		        if (!vs)
		            return;
		        return vs.get(keyOrRef);
		    }
		    scopeRefs(scopeName, values = this._values) {
		        return this._reduceValues(values, (name) => {
		            if (name.scopePath === undefined)
		                throw new Error(`CodeGen: name "${name}" has no value`);
		            return (0, code_1._) `${scopeName}${name.scopePath}`;
		        });
		    }
		    scopeCode(values = this._values, usedValues, getCode) {
		        return this._reduceValues(values, (name) => {
		            if (name.value === undefined)
		                throw new Error(`CodeGen: name "${name}" has no value`);
		            return name.value.code;
		        }, usedValues, getCode);
		    }
		    _reduceValues(values, valueCode, usedValues = {}, getCode) {
		        let code = code_1.nil;
		        for (const prefix in values) {
		            const vs = values[prefix];
		            if (!vs)
		                continue;
		            const nameSet = (usedValues[prefix] = usedValues[prefix] || new Map());
		            vs.forEach((name) => {
		                if (nameSet.has(name))
		                    return;
		                nameSet.set(name, UsedValueState.Started);
		                let c = valueCode(name);
		                if (c) {
		                    const def = this.opts.es5 ? exports.varKinds.var : exports.varKinds.const;
		                    code = (0, code_1._) `${code}${def} ${name} = ${c};${this.opts._n}`;
		                }
		                else if ((c = getCode === null || getCode === void 0 ? void 0 : getCode(name))) {
		                    code = (0, code_1._) `${code}${c}${this.opts._n}`;
		                }
		                else {
		                    throw new ValueError(name);
		                }
		                nameSet.set(name, UsedValueState.Completed);
		            });
		        }
		        return code;
		    }
		}
		exports.ValueScope = ValueScope;
		
	} (scope));
	return scope;
}

var hasRequiredCodegen;

function requireCodegen () {
	if (hasRequiredCodegen) return codegen;
	hasRequiredCodegen = 1;
	(function (exports) {
		Object.defineProperty(exports, "__esModule", { value: true });
		exports.or = exports.and = exports.not = exports.CodeGen = exports.operators = exports.varKinds = exports.ValueScopeName = exports.ValueScope = exports.Scope = exports.Name = exports.regexpCode = exports.stringify = exports.getProperty = exports.nil = exports.strConcat = exports.str = exports._ = void 0;
		const code_1 = /*@__PURE__*/ requireCode$1();
		const scope_1 = /*@__PURE__*/ requireScope();
		var code_2 = /*@__PURE__*/ requireCode$1();
		Object.defineProperty(exports, "_", { enumerable: true, get: function () { return code_2._; } });
		Object.defineProperty(exports, "str", { enumerable: true, get: function () { return code_2.str; } });
		Object.defineProperty(exports, "strConcat", { enumerable: true, get: function () { return code_2.strConcat; } });
		Object.defineProperty(exports, "nil", { enumerable: true, get: function () { return code_2.nil; } });
		Object.defineProperty(exports, "getProperty", { enumerable: true, get: function () { return code_2.getProperty; } });
		Object.defineProperty(exports, "stringify", { enumerable: true, get: function () { return code_2.stringify; } });
		Object.defineProperty(exports, "regexpCode", { enumerable: true, get: function () { return code_2.regexpCode; } });
		Object.defineProperty(exports, "Name", { enumerable: true, get: function () { return code_2.Name; } });
		var scope_2 = /*@__PURE__*/ requireScope();
		Object.defineProperty(exports, "Scope", { enumerable: true, get: function () { return scope_2.Scope; } });
		Object.defineProperty(exports, "ValueScope", { enumerable: true, get: function () { return scope_2.ValueScope; } });
		Object.defineProperty(exports, "ValueScopeName", { enumerable: true, get: function () { return scope_2.ValueScopeName; } });
		Object.defineProperty(exports, "varKinds", { enumerable: true, get: function () { return scope_2.varKinds; } });
		exports.operators = {
		    GT: new code_1._Code(">"),
		    GTE: new code_1._Code(">="),
		    LT: new code_1._Code("<"),
		    LTE: new code_1._Code("<="),
		    EQ: new code_1._Code("==="),
		    NEQ: new code_1._Code("!=="),
		    NOT: new code_1._Code("!"),
		    OR: new code_1._Code("||"),
		    AND: new code_1._Code("&&"),
		    ADD: new code_1._Code("+"),
		};
		class Node {
		    optimizeNodes() {
		        return this;
		    }
		    optimizeNames(_names, _constants) {
		        return this;
		    }
		}
		class Def extends Node {
		    constructor(varKind, name, rhs) {
		        super();
		        this.varKind = varKind;
		        this.name = name;
		        this.rhs = rhs;
		    }
		    render({ es5, _n }) {
		        const varKind = es5 ? scope_1.varKinds.var : this.varKind;
		        const rhs = this.rhs === undefined ? "" : ` = ${this.rhs}`;
		        return `${varKind} ${this.name}${rhs};` + _n;
		    }
		    optimizeNames(names, constants) {
		        if (!names[this.name.str])
		            return;
		        if (this.rhs)
		            this.rhs = optimizeExpr(this.rhs, names, constants);
		        return this;
		    }
		    get names() {
		        return this.rhs instanceof code_1._CodeOrName ? this.rhs.names : {};
		    }
		}
		class Assign extends Node {
		    constructor(lhs, rhs, sideEffects) {
		        super();
		        this.lhs = lhs;
		        this.rhs = rhs;
		        this.sideEffects = sideEffects;
		    }
		    render({ _n }) {
		        return `${this.lhs} = ${this.rhs};` + _n;
		    }
		    optimizeNames(names, constants) {
		        if (this.lhs instanceof code_1.Name && !names[this.lhs.str] && !this.sideEffects)
		            return;
		        this.rhs = optimizeExpr(this.rhs, names, constants);
		        return this;
		    }
		    get names() {
		        const names = this.lhs instanceof code_1.Name ? {} : { ...this.lhs.names };
		        return addExprNames(names, this.rhs);
		    }
		}
		class AssignOp extends Assign {
		    constructor(lhs, op, rhs, sideEffects) {
		        super(lhs, rhs, sideEffects);
		        this.op = op;
		    }
		    render({ _n }) {
		        return `${this.lhs} ${this.op}= ${this.rhs};` + _n;
		    }
		}
		class Label extends Node {
		    constructor(label) {
		        super();
		        this.label = label;
		        this.names = {};
		    }
		    render({ _n }) {
		        return `${this.label}:` + _n;
		    }
		}
		class Break extends Node {
		    constructor(label) {
		        super();
		        this.label = label;
		        this.names = {};
		    }
		    render({ _n }) {
		        const label = this.label ? ` ${this.label}` : "";
		        return `break${label};` + _n;
		    }
		}
		class Throw extends Node {
		    constructor(error) {
		        super();
		        this.error = error;
		    }
		    render({ _n }) {
		        return `throw ${this.error};` + _n;
		    }
		    get names() {
		        return this.error.names;
		    }
		}
		class AnyCode extends Node {
		    constructor(code) {
		        super();
		        this.code = code;
		    }
		    render({ _n }) {
		        return `${this.code};` + _n;
		    }
		    optimizeNodes() {
		        return `${this.code}` ? this : undefined;
		    }
		    optimizeNames(names, constants) {
		        this.code = optimizeExpr(this.code, names, constants);
		        return this;
		    }
		    get names() {
		        return this.code instanceof code_1._CodeOrName ? this.code.names : {};
		    }
		}
		class ParentNode extends Node {
		    constructor(nodes = []) {
		        super();
		        this.nodes = nodes;
		    }
		    render(opts) {
		        return this.nodes.reduce((code, n) => code + n.render(opts), "");
		    }
		    optimizeNodes() {
		        const { nodes } = this;
		        let i = nodes.length;
		        while (i--) {
		            const n = nodes[i].optimizeNodes();
		            if (Array.isArray(n))
		                nodes.splice(i, 1, ...n);
		            else if (n)
		                nodes[i] = n;
		            else
		                nodes.splice(i, 1);
		        }
		        return nodes.length > 0 ? this : undefined;
		    }
		    optimizeNames(names, constants) {
		        const { nodes } = this;
		        let i = nodes.length;
		        while (i--) {
		            // iterating backwards improves 1-pass optimization
		            const n = nodes[i];
		            if (n.optimizeNames(names, constants))
		                continue;
		            subtractNames(names, n.names);
		            nodes.splice(i, 1);
		        }
		        return nodes.length > 0 ? this : undefined;
		    }
		    get names() {
		        return this.nodes.reduce((names, n) => addNames(names, n.names), {});
		    }
		}
		class BlockNode extends ParentNode {
		    render(opts) {
		        return "{" + opts._n + super.render(opts) + "}" + opts._n;
		    }
		}
		class Root extends ParentNode {
		}
		class Else extends BlockNode {
		}
		Else.kind = "else";
		class If extends BlockNode {
		    constructor(condition, nodes) {
		        super(nodes);
		        this.condition = condition;
		    }
		    render(opts) {
		        let code = `if(${this.condition})` + super.render(opts);
		        if (this.else)
		            code += "else " + this.else.render(opts);
		        return code;
		    }
		    optimizeNodes() {
		        super.optimizeNodes();
		        const cond = this.condition;
		        if (cond === true)
		            return this.nodes; // else is ignored here
		        let e = this.else;
		        if (e) {
		            const ns = e.optimizeNodes();
		            e = this.else = Array.isArray(ns) ? new Else(ns) : ns;
		        }
		        if (e) {
		            if (cond === false)
		                return e instanceof If ? e : e.nodes;
		            if (this.nodes.length)
		                return this;
		            return new If(not(cond), e instanceof If ? [e] : e.nodes);
		        }
		        if (cond === false || !this.nodes.length)
		            return undefined;
		        return this;
		    }
		    optimizeNames(names, constants) {
		        var _a;
		        this.else = (_a = this.else) === null || _a === void 0 ? void 0 : _a.optimizeNames(names, constants);
		        if (!(super.optimizeNames(names, constants) || this.else))
		            return;
		        this.condition = optimizeExpr(this.condition, names, constants);
		        return this;
		    }
		    get names() {
		        const names = super.names;
		        addExprNames(names, this.condition);
		        if (this.else)
		            addNames(names, this.else.names);
		        return names;
		    }
		}
		If.kind = "if";
		class For extends BlockNode {
		}
		For.kind = "for";
		class ForLoop extends For {
		    constructor(iteration) {
		        super();
		        this.iteration = iteration;
		    }
		    render(opts) {
		        return `for(${this.iteration})` + super.render(opts);
		    }
		    optimizeNames(names, constants) {
		        if (!super.optimizeNames(names, constants))
		            return;
		        this.iteration = optimizeExpr(this.iteration, names, constants);
		        return this;
		    }
		    get names() {
		        return addNames(super.names, this.iteration.names);
		    }
		}
		class ForRange extends For {
		    constructor(varKind, name, from, to) {
		        super();
		        this.varKind = varKind;
		        this.name = name;
		        this.from = from;
		        this.to = to;
		    }
		    render(opts) {
		        const varKind = opts.es5 ? scope_1.varKinds.var : this.varKind;
		        const { name, from, to } = this;
		        return `for(${varKind} ${name}=${from}; ${name}<${to}; ${name}++)` + super.render(opts);
		    }
		    get names() {
		        const names = addExprNames(super.names, this.from);
		        return addExprNames(names, this.to);
		    }
		}
		class ForIter extends For {
		    constructor(loop, varKind, name, iterable) {
		        super();
		        this.loop = loop;
		        this.varKind = varKind;
		        this.name = name;
		        this.iterable = iterable;
		    }
		    render(opts) {
		        return `for(${this.varKind} ${this.name} ${this.loop} ${this.iterable})` + super.render(opts);
		    }
		    optimizeNames(names, constants) {
		        if (!super.optimizeNames(names, constants))
		            return;
		        this.iterable = optimizeExpr(this.iterable, names, constants);
		        return this;
		    }
		    get names() {
		        return addNames(super.names, this.iterable.names);
		    }
		}
		class Func extends BlockNode {
		    constructor(name, args, async) {
		        super();
		        this.name = name;
		        this.args = args;
		        this.async = async;
		    }
		    render(opts) {
		        const _async = this.async ? "async " : "";
		        return `${_async}function ${this.name}(${this.args})` + super.render(opts);
		    }
		}
		Func.kind = "func";
		class Return extends ParentNode {
		    render(opts) {
		        return "return " + super.render(opts);
		    }
		}
		Return.kind = "return";
		class Try extends BlockNode {
		    render(opts) {
		        let code = "try" + super.render(opts);
		        if (this.catch)
		            code += this.catch.render(opts);
		        if (this.finally)
		            code += this.finally.render(opts);
		        return code;
		    }
		    optimizeNodes() {
		        var _a, _b;
		        super.optimizeNodes();
		        (_a = this.catch) === null || _a === void 0 ? void 0 : _a.optimizeNodes();
		        (_b = this.finally) === null || _b === void 0 ? void 0 : _b.optimizeNodes();
		        return this;
		    }
		    optimizeNames(names, constants) {
		        var _a, _b;
		        super.optimizeNames(names, constants);
		        (_a = this.catch) === null || _a === void 0 ? void 0 : _a.optimizeNames(names, constants);
		        (_b = this.finally) === null || _b === void 0 ? void 0 : _b.optimizeNames(names, constants);
		        return this;
		    }
		    get names() {
		        const names = super.names;
		        if (this.catch)
		            addNames(names, this.catch.names);
		        if (this.finally)
		            addNames(names, this.finally.names);
		        return names;
		    }
		}
		class Catch extends BlockNode {
		    constructor(error) {
		        super();
		        this.error = error;
		    }
		    render(opts) {
		        return `catch(${this.error})` + super.render(opts);
		    }
		}
		Catch.kind = "catch";
		class Finally extends BlockNode {
		    render(opts) {
		        return "finally" + super.render(opts);
		    }
		}
		Finally.kind = "finally";
		class CodeGen {
		    constructor(extScope, opts = {}) {
		        this._values = {};
		        this._blockStarts = [];
		        this._constants = {};
		        this.opts = { ...opts, _n: opts.lines ? "\n" : "" };
		        this._extScope = extScope;
		        this._scope = new scope_1.Scope({ parent: extScope });
		        this._nodes = [new Root()];
		    }
		    toString() {
		        return this._root.render(this.opts);
		    }
		    // returns unique name in the internal scope
		    name(prefix) {
		        return this._scope.name(prefix);
		    }
		    // reserves unique name in the external scope
		    scopeName(prefix) {
		        return this._extScope.name(prefix);
		    }
		    // reserves unique name in the external scope and assigns value to it
		    scopeValue(prefixOrName, value) {
		        const name = this._extScope.value(prefixOrName, value);
		        const vs = this._values[name.prefix] || (this._values[name.prefix] = new Set());
		        vs.add(name);
		        return name;
		    }
		    getScopeValue(prefix, keyOrRef) {
		        return this._extScope.getValue(prefix, keyOrRef);
		    }
		    // return code that assigns values in the external scope to the names that are used internally
		    // (same names that were returned by gen.scopeName or gen.scopeValue)
		    scopeRefs(scopeName) {
		        return this._extScope.scopeRefs(scopeName, this._values);
		    }
		    scopeCode() {
		        return this._extScope.scopeCode(this._values);
		    }
		    _def(varKind, nameOrPrefix, rhs, constant) {
		        const name = this._scope.toName(nameOrPrefix);
		        if (rhs !== undefined && constant)
		            this._constants[name.str] = rhs;
		        this._leafNode(new Def(varKind, name, rhs));
		        return name;
		    }
		    // `const` declaration (`var` in es5 mode)
		    const(nameOrPrefix, rhs, _constant) {
		        return this._def(scope_1.varKinds.const, nameOrPrefix, rhs, _constant);
		    }
		    // `let` declaration with optional assignment (`var` in es5 mode)
		    let(nameOrPrefix, rhs, _constant) {
		        return this._def(scope_1.varKinds.let, nameOrPrefix, rhs, _constant);
		    }
		    // `var` declaration with optional assignment
		    var(nameOrPrefix, rhs, _constant) {
		        return this._def(scope_1.varKinds.var, nameOrPrefix, rhs, _constant);
		    }
		    // assignment code
		    assign(lhs, rhs, sideEffects) {
		        return this._leafNode(new Assign(lhs, rhs, sideEffects));
		    }
		    // `+=` code
		    add(lhs, rhs) {
		        return this._leafNode(new AssignOp(lhs, exports.operators.ADD, rhs));
		    }
		    // appends passed SafeExpr to code or executes Block
		    code(c) {
		        if (typeof c == "function")
		            c();
		        else if (c !== code_1.nil)
		            this._leafNode(new AnyCode(c));
		        return this;
		    }
		    // returns code for object literal for the passed argument list of key-value pairs
		    object(...keyValues) {
		        const code = ["{"];
		        for (const [key, value] of keyValues) {
		            if (code.length > 1)
		                code.push(",");
		            code.push(key);
		            if (key !== value || this.opts.es5) {
		                code.push(":");
		                (0, code_1.addCodeArg)(code, value);
		            }
		        }
		        code.push("}");
		        return new code_1._Code(code);
		    }
		    // `if` clause (or statement if `thenBody` and, optionally, `elseBody` are passed)
		    if(condition, thenBody, elseBody) {
		        this._blockNode(new If(condition));
		        if (thenBody && elseBody) {
		            this.code(thenBody).else().code(elseBody).endIf();
		        }
		        else if (thenBody) {
		            this.code(thenBody).endIf();
		        }
		        else if (elseBody) {
		            throw new Error('CodeGen: "else" body without "then" body');
		        }
		        return this;
		    }
		    // `else if` clause - invalid without `if` or after `else` clauses
		    elseIf(condition) {
		        return this._elseNode(new If(condition));
		    }
		    // `else` clause - only valid after `if` or `else if` clauses
		    else() {
		        return this._elseNode(new Else());
		    }
		    // end `if` statement (needed if gen.if was used only with condition)
		    endIf() {
		        return this._endBlockNode(If, Else);
		    }
		    _for(node, forBody) {
		        this._blockNode(node);
		        if (forBody)
		            this.code(forBody).endFor();
		        return this;
		    }
		    // a generic `for` clause (or statement if `forBody` is passed)
		    for(iteration, forBody) {
		        return this._for(new ForLoop(iteration), forBody);
		    }
		    // `for` statement for a range of values
		    forRange(nameOrPrefix, from, to, forBody, varKind = this.opts.es5 ? scope_1.varKinds.var : scope_1.varKinds.let) {
		        const name = this._scope.toName(nameOrPrefix);
		        return this._for(new ForRange(varKind, name, from, to), () => forBody(name));
		    }
		    // `for-of` statement (in es5 mode replace with a normal for loop)
		    forOf(nameOrPrefix, iterable, forBody, varKind = scope_1.varKinds.const) {
		        const name = this._scope.toName(nameOrPrefix);
		        if (this.opts.es5) {
		            const arr = iterable instanceof code_1.Name ? iterable : this.var("_arr", iterable);
		            return this.forRange("_i", 0, (0, code_1._) `${arr}.length`, (i) => {
		                this.var(name, (0, code_1._) `${arr}[${i}]`);
		                forBody(name);
		            });
		        }
		        return this._for(new ForIter("of", varKind, name, iterable), () => forBody(name));
		    }
		    // `for-in` statement.
		    // With option `ownProperties` replaced with a `for-of` loop for object keys
		    forIn(nameOrPrefix, obj, forBody, varKind = this.opts.es5 ? scope_1.varKinds.var : scope_1.varKinds.const) {
		        if (this.opts.ownProperties) {
		            return this.forOf(nameOrPrefix, (0, code_1._) `Object.keys(${obj})`, forBody);
		        }
		        const name = this._scope.toName(nameOrPrefix);
		        return this._for(new ForIter("in", varKind, name, obj), () => forBody(name));
		    }
		    // end `for` loop
		    endFor() {
		        return this._endBlockNode(For);
		    }
		    // `label` statement
		    label(label) {
		        return this._leafNode(new Label(label));
		    }
		    // `break` statement
		    break(label) {
		        return this._leafNode(new Break(label));
		    }
		    // `return` statement
		    return(value) {
		        const node = new Return();
		        this._blockNode(node);
		        this.code(value);
		        if (node.nodes.length !== 1)
		            throw new Error('CodeGen: "return" should have one node');
		        return this._endBlockNode(Return);
		    }
		    // `try` statement
		    try(tryBody, catchCode, finallyCode) {
		        if (!catchCode && !finallyCode)
		            throw new Error('CodeGen: "try" without "catch" and "finally"');
		        const node = new Try();
		        this._blockNode(node);
		        this.code(tryBody);
		        if (catchCode) {
		            const error = this.name("e");
		            this._currNode = node.catch = new Catch(error);
		            catchCode(error);
		        }
		        if (finallyCode) {
		            this._currNode = node.finally = new Finally();
		            this.code(finallyCode);
		        }
		        return this._endBlockNode(Catch, Finally);
		    }
		    // `throw` statement
		    throw(error) {
		        return this._leafNode(new Throw(error));
		    }
		    // start self-balancing block
		    block(body, nodeCount) {
		        this._blockStarts.push(this._nodes.length);
		        if (body)
		            this.code(body).endBlock(nodeCount);
		        return this;
		    }
		    // end the current self-balancing block
		    endBlock(nodeCount) {
		        const len = this._blockStarts.pop();
		        if (len === undefined)
		            throw new Error("CodeGen: not in self-balancing block");
		        const toClose = this._nodes.length - len;
		        if (toClose < 0 || (nodeCount !== undefined && toClose !== nodeCount)) {
		            throw new Error(`CodeGen: wrong number of nodes: ${toClose} vs ${nodeCount} expected`);
		        }
		        this._nodes.length = len;
		        return this;
		    }
		    // `function` heading (or definition if funcBody is passed)
		    func(name, args = code_1.nil, async, funcBody) {
		        this._blockNode(new Func(name, args, async));
		        if (funcBody)
		            this.code(funcBody).endFunc();
		        return this;
		    }
		    // end function definition
		    endFunc() {
		        return this._endBlockNode(Func);
		    }
		    optimize(n = 1) {
		        while (n-- > 0) {
		            this._root.optimizeNodes();
		            this._root.optimizeNames(this._root.names, this._constants);
		        }
		    }
		    _leafNode(node) {
		        this._currNode.nodes.push(node);
		        return this;
		    }
		    _blockNode(node) {
		        this._currNode.nodes.push(node);
		        this._nodes.push(node);
		    }
		    _endBlockNode(N1, N2) {
		        const n = this._currNode;
		        if (n instanceof N1 || (N2 && n instanceof N2)) {
		            this._nodes.pop();
		            return this;
		        }
		        throw new Error(`CodeGen: not in block "${N2 ? `${N1.kind}/${N2.kind}` : N1.kind}"`);
		    }
		    _elseNode(node) {
		        const n = this._currNode;
		        if (!(n instanceof If)) {
		            throw new Error('CodeGen: "else" without "if"');
		        }
		        this._currNode = n.else = node;
		        return this;
		    }
		    get _root() {
		        return this._nodes[0];
		    }
		    get _currNode() {
		        const ns = this._nodes;
		        return ns[ns.length - 1];
		    }
		    set _currNode(node) {
		        const ns = this._nodes;
		        ns[ns.length - 1] = node;
		    }
		}
		exports.CodeGen = CodeGen;
		function addNames(names, from) {
		    for (const n in from)
		        names[n] = (names[n] || 0) + (from[n] || 0);
		    return names;
		}
		function addExprNames(names, from) {
		    return from instanceof code_1._CodeOrName ? addNames(names, from.names) : names;
		}
		function optimizeExpr(expr, names, constants) {
		    if (expr instanceof code_1.Name)
		        return replaceName(expr);
		    if (!canOptimize(expr))
		        return expr;
		    return new code_1._Code(expr._items.reduce((items, c) => {
		        if (c instanceof code_1.Name)
		            c = replaceName(c);
		        if (c instanceof code_1._Code)
		            items.push(...c._items);
		        else
		            items.push(c);
		        return items;
		    }, []));
		    function replaceName(n) {
		        const c = constants[n.str];
		        if (c === undefined || names[n.str] !== 1)
		            return n;
		        delete names[n.str];
		        return c;
		    }
		    function canOptimize(e) {
		        return (e instanceof code_1._Code &&
		            e._items.some((c) => c instanceof code_1.Name && names[c.str] === 1 && constants[c.str] !== undefined));
		    }
		}
		function subtractNames(names, from) {
		    for (const n in from)
		        names[n] = (names[n] || 0) - (from[n] || 0);
		}
		function not(x) {
		    return typeof x == "boolean" || typeof x == "number" || x === null ? !x : (0, code_1._) `!${par(x)}`;
		}
		exports.not = not;
		const andCode = mappend(exports.operators.AND);
		// boolean AND (&&) expression with the passed arguments
		function and(...args) {
		    return args.reduce(andCode);
		}
		exports.and = and;
		const orCode = mappend(exports.operators.OR);
		// boolean OR (||) expression with the passed arguments
		function or(...args) {
		    return args.reduce(orCode);
		}
		exports.or = or;
		function mappend(op) {
		    return (x, y) => (x === code_1.nil ? y : y === code_1.nil ? x : (0, code_1._) `${par(x)} ${op} ${par(y)}`);
		}
		function par(x) {
		    return x instanceof code_1.Name ? x : (0, code_1._) `(${x})`;
		}
		
	} (codegen));
	return codegen;
}

var util = {};

var hasRequiredUtil;

function requireUtil () {
	if (hasRequiredUtil) return util;
	hasRequiredUtil = 1;
	Object.defineProperty(util, "__esModule", { value: true });
	util.checkStrictMode = util.getErrorPath = util.Type = util.useFunc = util.setEvaluated = util.evaluatedPropsToName = util.mergeEvaluated = util.eachItem = util.unescapeJsonPointer = util.escapeJsonPointer = util.escapeFragment = util.unescapeFragment = util.schemaRefOrVal = util.schemaHasRulesButRef = util.schemaHasRules = util.checkUnknownRules = util.alwaysValidSchema = util.toHash = void 0;
	const codegen_1 = /*@__PURE__*/ requireCodegen();
	const code_1 = /*@__PURE__*/ requireCode$1();
	// TODO refactor to use Set
	function toHash(arr) {
	    const hash = {};
	    for (const item of arr)
	        hash[item] = true;
	    return hash;
	}
	util.toHash = toHash;
	function alwaysValidSchema(it, schema) {
	    if (typeof schema == "boolean")
	        return schema;
	    if (Object.keys(schema).length === 0)
	        return true;
	    checkUnknownRules(it, schema);
	    return !schemaHasRules(schema, it.self.RULES.all);
	}
	util.alwaysValidSchema = alwaysValidSchema;
	function checkUnknownRules(it, schema = it.schema) {
	    const { opts, self } = it;
	    if (!opts.strictSchema)
	        return;
	    if (typeof schema === "boolean")
	        return;
	    const rules = self.RULES.keywords;
	    for (const key in schema) {
	        if (!rules[key])
	            checkStrictMode(it, `unknown keyword: "${key}"`);
	    }
	}
	util.checkUnknownRules = checkUnknownRules;
	function schemaHasRules(schema, rules) {
	    if (typeof schema == "boolean")
	        return !schema;
	    for (const key in schema)
	        if (rules[key])
	            return true;
	    return false;
	}
	util.schemaHasRules = schemaHasRules;
	function schemaHasRulesButRef(schema, RULES) {
	    if (typeof schema == "boolean")
	        return !schema;
	    for (const key in schema)
	        if (key !== "$ref" && RULES.all[key])
	            return true;
	    return false;
	}
	util.schemaHasRulesButRef = schemaHasRulesButRef;
	function schemaRefOrVal({ topSchemaRef, schemaPath }, schema, keyword, $data) {
	    if (!$data) {
	        if (typeof schema == "number" || typeof schema == "boolean")
	            return schema;
	        if (typeof schema == "string")
	            return (0, codegen_1._) `${schema}`;
	    }
	    return (0, codegen_1._) `${topSchemaRef}${schemaPath}${(0, codegen_1.getProperty)(keyword)}`;
	}
	util.schemaRefOrVal = schemaRefOrVal;
	function unescapeFragment(str) {
	    return unescapeJsonPointer(decodeURIComponent(str));
	}
	util.unescapeFragment = unescapeFragment;
	function escapeFragment(str) {
	    return encodeURIComponent(escapeJsonPointer(str));
	}
	util.escapeFragment = escapeFragment;
	function escapeJsonPointer(str) {
	    if (typeof str == "number")
	        return `${str}`;
	    return str.replace(/~/g, "~0").replace(/\//g, "~1");
	}
	util.escapeJsonPointer = escapeJsonPointer;
	function unescapeJsonPointer(str) {
	    return str.replace(/~1/g, "/").replace(/~0/g, "~");
	}
	util.unescapeJsonPointer = unescapeJsonPointer;
	function eachItem(xs, f) {
	    if (Array.isArray(xs)) {
	        for (const x of xs)
	            f(x);
	    }
	    else {
	        f(xs);
	    }
	}
	util.eachItem = eachItem;
	function makeMergeEvaluated({ mergeNames, mergeToName, mergeValues, resultToName, }) {
	    return (gen, from, to, toName) => {
	        const res = to === undefined
	            ? from
	            : to instanceof codegen_1.Name
	                ? (from instanceof codegen_1.Name ? mergeNames(gen, from, to) : mergeToName(gen, from, to), to)
	                : from instanceof codegen_1.Name
	                    ? (mergeToName(gen, to, from), from)
	                    : mergeValues(from, to);
	        return toName === codegen_1.Name && !(res instanceof codegen_1.Name) ? resultToName(gen, res) : res;
	    };
	}
	util.mergeEvaluated = {
	    props: makeMergeEvaluated({
	        mergeNames: (gen, from, to) => gen.if((0, codegen_1._) `${to} !== true && ${from} !== undefined`, () => {
	            gen.if((0, codegen_1._) `${from} === true`, () => gen.assign(to, true), () => gen.assign(to, (0, codegen_1._) `${to} || {}`).code((0, codegen_1._) `Object.assign(${to}, ${from})`));
	        }),
	        mergeToName: (gen, from, to) => gen.if((0, codegen_1._) `${to} !== true`, () => {
	            if (from === true) {
	                gen.assign(to, true);
	            }
	            else {
	                gen.assign(to, (0, codegen_1._) `${to} || {}`);
	                setEvaluated(gen, to, from);
	            }
	        }),
	        mergeValues: (from, to) => (from === true ? true : { ...from, ...to }),
	        resultToName: evaluatedPropsToName,
	    }),
	    items: makeMergeEvaluated({
	        mergeNames: (gen, from, to) => gen.if((0, codegen_1._) `${to} !== true && ${from} !== undefined`, () => gen.assign(to, (0, codegen_1._) `${from} === true ? true : ${to} > ${from} ? ${to} : ${from}`)),
	        mergeToName: (gen, from, to) => gen.if((0, codegen_1._) `${to} !== true`, () => gen.assign(to, from === true ? true : (0, codegen_1._) `${to} > ${from} ? ${to} : ${from}`)),
	        mergeValues: (from, to) => (from === true ? true : Math.max(from, to)),
	        resultToName: (gen, items) => gen.var("items", items),
	    }),
	};
	function evaluatedPropsToName(gen, ps) {
	    if (ps === true)
	        return gen.var("props", true);
	    const props = gen.var("props", (0, codegen_1._) `{}`);
	    if (ps !== undefined)
	        setEvaluated(gen, props, ps);
	    return props;
	}
	util.evaluatedPropsToName = evaluatedPropsToName;
	function setEvaluated(gen, props, ps) {
	    Object.keys(ps).forEach((p) => gen.assign((0, codegen_1._) `${props}${(0, codegen_1.getProperty)(p)}`, true));
	}
	util.setEvaluated = setEvaluated;
	const snippets = {};
	function useFunc(gen, f) {
	    return gen.scopeValue("func", {
	        ref: f,
	        code: snippets[f.code] || (snippets[f.code] = new code_1._Code(f.code)),
	    });
	}
	util.useFunc = useFunc;
	var Type;
	(function (Type) {
	    Type[Type["Num"] = 0] = "Num";
	    Type[Type["Str"] = 1] = "Str";
	})(Type || (util.Type = Type = {}));
	function getErrorPath(dataProp, dataPropType, jsPropertySyntax) {
	    // let path
	    if (dataProp instanceof codegen_1.Name) {
	        const isNumber = dataPropType === Type.Num;
	        return jsPropertySyntax
	            ? isNumber
	                ? (0, codegen_1._) `"[" + ${dataProp} + "]"`
	                : (0, codegen_1._) `"['" + ${dataProp} + "']"`
	            : isNumber
	                ? (0, codegen_1._) `"/" + ${dataProp}`
	                : (0, codegen_1._) `"/" + ${dataProp}.replace(/~/g, "~0").replace(/\\//g, "~1")`; // TODO maybe use global escapePointer
	    }
	    return jsPropertySyntax ? (0, codegen_1.getProperty)(dataProp).toString() : "/" + escapeJsonPointer(dataProp);
	}
	util.getErrorPath = getErrorPath;
	function checkStrictMode(it, msg, mode = it.opts.strictSchema) {
	    if (!mode)
	        return;
	    msg = `strict mode: ${msg}`;
	    if (mode === true)
	        throw new Error(msg);
	    it.self.logger.warn(msg);
	}
	util.checkStrictMode = checkStrictMode;
	
	return util;
}

var names = {};

var hasRequiredNames;

function requireNames () {
	if (hasRequiredNames) return names;
	hasRequiredNames = 1;
	Object.defineProperty(names, "__esModule", { value: true });
	const codegen_1 = /*@__PURE__*/ requireCodegen();
	const names$1 = {
	    // validation function arguments
	    data: new codegen_1.Name("data"), // data passed to validation function
	    // args passed from referencing schema
	    valCxt: new codegen_1.Name("valCxt"), // validation/data context - should not be used directly, it is destructured to the names below
	    instancePath: new codegen_1.Name("instancePath"),
	    parentData: new codegen_1.Name("parentData"),
	    parentDataProperty: new codegen_1.Name("parentDataProperty"),
	    rootData: new codegen_1.Name("rootData"), // root data - same as the data passed to the first/top validation function
	    dynamicAnchors: new codegen_1.Name("dynamicAnchors"), // used to support recursiveRef and dynamicRef
	    // function scoped variables
	    vErrors: new codegen_1.Name("vErrors"), // null or array of validation errors
	    errors: new codegen_1.Name("errors"), // counter of validation errors
	    this: new codegen_1.Name("this"),
	    // "globals"
	    self: new codegen_1.Name("self"),
	    scope: new codegen_1.Name("scope"),
	    // JTD serialize/parse name for JSON string and position
	    json: new codegen_1.Name("json"),
	    jsonPos: new codegen_1.Name("jsonPos"),
	    jsonLen: new codegen_1.Name("jsonLen"),
	    jsonPart: new codegen_1.Name("jsonPart"),
	};
	names.default = names$1;
	
	return names;
}

var hasRequiredErrors;

function requireErrors () {
	if (hasRequiredErrors) return errors;
	hasRequiredErrors = 1;
	(function (exports) {
		Object.defineProperty(exports, "__esModule", { value: true });
		exports.extendErrors = exports.resetErrorsCount = exports.reportExtraError = exports.reportError = exports.keyword$DataError = exports.keywordError = void 0;
		const codegen_1 = /*@__PURE__*/ requireCodegen();
		const util_1 = /*@__PURE__*/ requireUtil();
		const names_1 = /*@__PURE__*/ requireNames();
		exports.keywordError = {
		    message: ({ keyword }) => (0, codegen_1.str) `must pass "${keyword}" keyword validation`,
		};
		exports.keyword$DataError = {
		    message: ({ keyword, schemaType }) => schemaType
		        ? (0, codegen_1.str) `"${keyword}" keyword must be ${schemaType} ($data)`
		        : (0, codegen_1.str) `"${keyword}" keyword is invalid ($data)`,
		};
		function reportError(cxt, error = exports.keywordError, errorPaths, overrideAllErrors) {
		    const { it } = cxt;
		    const { gen, compositeRule, allErrors } = it;
		    const errObj = errorObjectCode(cxt, error, errorPaths);
		    if (overrideAllErrors !== null && overrideAllErrors !== void 0 ? overrideAllErrors : (compositeRule || allErrors)) {
		        addError(gen, errObj);
		    }
		    else {
		        returnErrors(it, (0, codegen_1._) `[${errObj}]`);
		    }
		}
		exports.reportError = reportError;
		function reportExtraError(cxt, error = exports.keywordError, errorPaths) {
		    const { it } = cxt;
		    const { gen, compositeRule, allErrors } = it;
		    const errObj = errorObjectCode(cxt, error, errorPaths);
		    addError(gen, errObj);
		    if (!(compositeRule || allErrors)) {
		        returnErrors(it, names_1.default.vErrors);
		    }
		}
		exports.reportExtraError = reportExtraError;
		function resetErrorsCount(gen, errsCount) {
		    gen.assign(names_1.default.errors, errsCount);
		    gen.if((0, codegen_1._) `${names_1.default.vErrors} !== null`, () => gen.if(errsCount, () => gen.assign((0, codegen_1._) `${names_1.default.vErrors}.length`, errsCount), () => gen.assign(names_1.default.vErrors, null)));
		}
		exports.resetErrorsCount = resetErrorsCount;
		function extendErrors({ gen, keyword, schemaValue, data, errsCount, it, }) {
		    /* istanbul ignore if */
		    if (errsCount === undefined)
		        throw new Error("ajv implementation error");
		    const err = gen.name("err");
		    gen.forRange("i", errsCount, names_1.default.errors, (i) => {
		        gen.const(err, (0, codegen_1._) `${names_1.default.vErrors}[${i}]`);
		        gen.if((0, codegen_1._) `${err}.instancePath === undefined`, () => gen.assign((0, codegen_1._) `${err}.instancePath`, (0, codegen_1.strConcat)(names_1.default.instancePath, it.errorPath)));
		        gen.assign((0, codegen_1._) `${err}.schemaPath`, (0, codegen_1.str) `${it.errSchemaPath}/${keyword}`);
		        if (it.opts.verbose) {
		            gen.assign((0, codegen_1._) `${err}.schema`, schemaValue);
		            gen.assign((0, codegen_1._) `${err}.data`, data);
		        }
		    });
		}
		exports.extendErrors = extendErrors;
		function addError(gen, errObj) {
		    const err = gen.const("err", errObj);
		    gen.if((0, codegen_1._) `${names_1.default.vErrors} === null`, () => gen.assign(names_1.default.vErrors, (0, codegen_1._) `[${err}]`), (0, codegen_1._) `${names_1.default.vErrors}.push(${err})`);
		    gen.code((0, codegen_1._) `${names_1.default.errors}++`);
		}
		function returnErrors(it, errs) {
		    const { gen, validateName, schemaEnv } = it;
		    if (schemaEnv.$async) {
		        gen.throw((0, codegen_1._) `new ${it.ValidationError}(${errs})`);
		    }
		    else {
		        gen.assign((0, codegen_1._) `${validateName}.errors`, errs);
		        gen.return(false);
		    }
		}
		const E = {
		    keyword: new codegen_1.Name("keyword"),
		    schemaPath: new codegen_1.Name("schemaPath"), // also used in JTD errors
		    params: new codegen_1.Name("params"),
		    propertyName: new codegen_1.Name("propertyName"),
		    message: new codegen_1.Name("message"),
		    schema: new codegen_1.Name("schema"),
		    parentSchema: new codegen_1.Name("parentSchema"),
		};
		function errorObjectCode(cxt, error, errorPaths) {
		    const { createErrors } = cxt.it;
		    if (createErrors === false)
		        return (0, codegen_1._) `{}`;
		    return errorObject(cxt, error, errorPaths);
		}
		function errorObject(cxt, error, errorPaths = {}) {
		    const { gen, it } = cxt;
		    const keyValues = [
		        errorInstancePath(it, errorPaths),
		        errorSchemaPath(cxt, errorPaths),
		    ];
		    extraErrorProps(cxt, error, keyValues);
		    return gen.object(...keyValues);
		}
		function errorInstancePath({ errorPath }, { instancePath }) {
		    const instPath = instancePath
		        ? (0, codegen_1.str) `${errorPath}${(0, util_1.getErrorPath)(instancePath, util_1.Type.Str)}`
		        : errorPath;
		    return [names_1.default.instancePath, (0, codegen_1.strConcat)(names_1.default.instancePath, instPath)];
		}
		function errorSchemaPath({ keyword, it: { errSchemaPath } }, { schemaPath, parentSchema }) {
		    let schPath = parentSchema ? errSchemaPath : (0, codegen_1.str) `${errSchemaPath}/${keyword}`;
		    if (schemaPath) {
		        schPath = (0, codegen_1.str) `${schPath}${(0, util_1.getErrorPath)(schemaPath, util_1.Type.Str)}`;
		    }
		    return [E.schemaPath, schPath];
		}
		function extraErrorProps(cxt, { params, message }, keyValues) {
		    const { keyword, data, schemaValue, it } = cxt;
		    const { opts, propertyName, topSchemaRef, schemaPath } = it;
		    keyValues.push([E.keyword, keyword], [E.params, typeof params == "function" ? params(cxt) : params || (0, codegen_1._) `{}`]);
		    if (opts.messages) {
		        keyValues.push([E.message, typeof message == "function" ? message(cxt) : message]);
		    }
		    if (opts.verbose) {
		        keyValues.push([E.schema, schemaValue], [E.parentSchema, (0, codegen_1._) `${topSchemaRef}${schemaPath}`], [names_1.default.data, data]);
		    }
		    if (propertyName)
		        keyValues.push([E.propertyName, propertyName]);
		}
		
	} (errors));
	return errors;
}

var hasRequiredBoolSchema;

function requireBoolSchema () {
	if (hasRequiredBoolSchema) return boolSchema;
	hasRequiredBoolSchema = 1;
	Object.defineProperty(boolSchema, "__esModule", { value: true });
	boolSchema.boolOrEmptySchema = boolSchema.topBoolOrEmptySchema = void 0;
	const errors_1 = /*@__PURE__*/ requireErrors();
	const codegen_1 = /*@__PURE__*/ requireCodegen();
	const names_1 = /*@__PURE__*/ requireNames();
	const boolError = {
	    message: "boolean schema is false",
	};
	function topBoolOrEmptySchema(it) {
	    const { gen, schema, validateName } = it;
	    if (schema === false) {
	        falseSchemaError(it, false);
	    }
	    else if (typeof schema == "object" && schema.$async === true) {
	        gen.return(names_1.default.data);
	    }
	    else {
	        gen.assign((0, codegen_1._) `${validateName}.errors`, null);
	        gen.return(true);
	    }
	}
	boolSchema.topBoolOrEmptySchema = topBoolOrEmptySchema;
	function boolOrEmptySchema(it, valid) {
	    const { gen, schema } = it;
	    if (schema === false) {
	        gen.var(valid, false); // TODO var
	        falseSchemaError(it);
	    }
	    else {
	        gen.var(valid, true); // TODO var
	    }
	}
	boolSchema.boolOrEmptySchema = boolOrEmptySchema;
	function falseSchemaError(it, overrideAllErrors) {
	    const { gen, data } = it;
	    // TODO maybe some other interface should be used for non-keyword validation errors...
	    const cxt = {
	        gen,
	        keyword: "false schema",
	        data,
	        schema: false,
	        schemaCode: false,
	        schemaValue: false,
	        params: {},
	        it,
	    };
	    (0, errors_1.reportError)(cxt, boolError, undefined, overrideAllErrors);
	}
	
	return boolSchema;
}

var dataType = {};

var rules = {};

var hasRequiredRules;

function requireRules () {
	if (hasRequiredRules) return rules;
	hasRequiredRules = 1;
	Object.defineProperty(rules, "__esModule", { value: true });
	rules.getRules = rules.isJSONType = void 0;
	const _jsonTypes = ["string", "number", "integer", "boolean", "null", "object", "array"];
	const jsonTypes = new Set(_jsonTypes);
	function isJSONType(x) {
	    return typeof x == "string" && jsonTypes.has(x);
	}
	rules.isJSONType = isJSONType;
	function getRules() {
	    const groups = {
	        number: { type: "number", rules: [] },
	        string: { type: "string", rules: [] },
	        array: { type: "array", rules: [] },
	        object: { type: "object", rules: [] },
	    };
	    return {
	        types: { ...groups, integer: true, boolean: true, null: true },
	        rules: [{ rules: [] }, groups.number, groups.string, groups.array, groups.object],
	        post: { rules: [] },
	        all: {},
	        keywords: {},
	    };
	}
	rules.getRules = getRules;
	
	return rules;
}

var applicability = {};

var hasRequiredApplicability;

function requireApplicability () {
	if (hasRequiredApplicability) return applicability;
	hasRequiredApplicability = 1;
	Object.defineProperty(applicability, "__esModule", { value: true });
	applicability.shouldUseRule = applicability.shouldUseGroup = applicability.schemaHasRulesForType = void 0;
	function schemaHasRulesForType({ schema, self }, type) {
	    const group = self.RULES.types[type];
	    return group && group !== true && shouldUseGroup(schema, group);
	}
	applicability.schemaHasRulesForType = schemaHasRulesForType;
	function shouldUseGroup(schema, group) {
	    return group.rules.some((rule) => shouldUseRule(schema, rule));
	}
	applicability.shouldUseGroup = shouldUseGroup;
	function shouldUseRule(schema, rule) {
	    var _a;
	    return (schema[rule.keyword] !== undefined ||
	        ((_a = rule.definition.implements) === null || _a === void 0 ? void 0 : _a.some((kwd) => schema[kwd] !== undefined)));
	}
	applicability.shouldUseRule = shouldUseRule;
	
	return applicability;
}

var hasRequiredDataType;

function requireDataType () {
	if (hasRequiredDataType) return dataType;
	hasRequiredDataType = 1;
	Object.defineProperty(dataType, "__esModule", { value: true });
	dataType.reportTypeError = dataType.checkDataTypes = dataType.checkDataType = dataType.coerceAndCheckDataType = dataType.getJSONTypes = dataType.getSchemaTypes = dataType.DataType = void 0;
	const rules_1 = /*@__PURE__*/ requireRules();
	const applicability_1 = /*@__PURE__*/ requireApplicability();
	const errors_1 = /*@__PURE__*/ requireErrors();
	const codegen_1 = /*@__PURE__*/ requireCodegen();
	const util_1 = /*@__PURE__*/ requireUtil();
	var DataType;
	(function (DataType) {
	    DataType[DataType["Correct"] = 0] = "Correct";
	    DataType[DataType["Wrong"] = 1] = "Wrong";
	})(DataType || (dataType.DataType = DataType = {}));
	function getSchemaTypes(schema) {
	    const types = getJSONTypes(schema.type);
	    const hasNull = types.includes("null");
	    if (hasNull) {
	        if (schema.nullable === false)
	            throw new Error("type: null contradicts nullable: false");
	    }
	    else {
	        if (!types.length && schema.nullable !== undefined) {
	            throw new Error('"nullable" cannot be used without "type"');
	        }
	        if (schema.nullable === true)
	            types.push("null");
	    }
	    return types;
	}
	dataType.getSchemaTypes = getSchemaTypes;
	// eslint-disable-next-line @typescript-eslint/no-redundant-type-constituents
	function getJSONTypes(ts) {
	    const types = Array.isArray(ts) ? ts : ts ? [ts] : [];
	    if (types.every(rules_1.isJSONType))
	        return types;
	    throw new Error("type must be JSONType or JSONType[]: " + types.join(","));
	}
	dataType.getJSONTypes = getJSONTypes;
	function coerceAndCheckDataType(it, types) {
	    const { gen, data, opts } = it;
	    const coerceTo = coerceToTypes(types, opts.coerceTypes);
	    const checkTypes = types.length > 0 &&
	        !(coerceTo.length === 0 && types.length === 1 && (0, applicability_1.schemaHasRulesForType)(it, types[0]));
	    if (checkTypes) {
	        const wrongType = checkDataTypes(types, data, opts.strictNumbers, DataType.Wrong);
	        gen.if(wrongType, () => {
	            if (coerceTo.length)
	                coerceData(it, types, coerceTo);
	            else
	                reportTypeError(it);
	        });
	    }
	    return checkTypes;
	}
	dataType.coerceAndCheckDataType = coerceAndCheckDataType;
	const COERCIBLE = new Set(["string", "number", "integer", "boolean", "null"]);
	function coerceToTypes(types, coerceTypes) {
	    return coerceTypes
	        ? types.filter((t) => COERCIBLE.has(t) || (coerceTypes === "array" && t === "array"))
	        : [];
	}
	function coerceData(it, types, coerceTo) {
	    const { gen, data, opts } = it;
	    const dataType = gen.let("dataType", (0, codegen_1._) `typeof ${data}`);
	    const coerced = gen.let("coerced", (0, codegen_1._) `undefined`);
	    if (opts.coerceTypes === "array") {
	        gen.if((0, codegen_1._) `${dataType} == 'object' && Array.isArray(${data}) && ${data}.length == 1`, () => gen
	            .assign(data, (0, codegen_1._) `${data}[0]`)
	            .assign(dataType, (0, codegen_1._) `typeof ${data}`)
	            .if(checkDataTypes(types, data, opts.strictNumbers), () => gen.assign(coerced, data)));
	    }
	    gen.if((0, codegen_1._) `${coerced} !== undefined`);
	    for (const t of coerceTo) {
	        if (COERCIBLE.has(t) || (t === "array" && opts.coerceTypes === "array")) {
	            coerceSpecificType(t);
	        }
	    }
	    gen.else();
	    reportTypeError(it);
	    gen.endIf();
	    gen.if((0, codegen_1._) `${coerced} !== undefined`, () => {
	        gen.assign(data, coerced);
	        assignParentData(it, coerced);
	    });
	    function coerceSpecificType(t) {
	        switch (t) {
	            case "string":
	                gen
	                    .elseIf((0, codegen_1._) `${dataType} == "number" || ${dataType} == "boolean"`)
	                    .assign(coerced, (0, codegen_1._) `"" + ${data}`)
	                    .elseIf((0, codegen_1._) `${data} === null`)
	                    .assign(coerced, (0, codegen_1._) `""`);
	                return;
	            case "number":
	                gen
	                    .elseIf((0, codegen_1._) `${dataType} == "boolean" || ${data} === null
              || (${dataType} == "string" && ${data} && ${data} == +${data})`)
	                    .assign(coerced, (0, codegen_1._) `+${data}`);
	                return;
	            case "integer":
	                gen
	                    .elseIf((0, codegen_1._) `${dataType} === "boolean" || ${data} === null
              || (${dataType} === "string" && ${data} && ${data} == +${data} && !(${data} % 1))`)
	                    .assign(coerced, (0, codegen_1._) `+${data}`);
	                return;
	            case "boolean":
	                gen
	                    .elseIf((0, codegen_1._) `${data} === "false" || ${data} === 0 || ${data} === null`)
	                    .assign(coerced, false)
	                    .elseIf((0, codegen_1._) `${data} === "true" || ${data} === 1`)
	                    .assign(coerced, true);
	                return;
	            case "null":
	                gen.elseIf((0, codegen_1._) `${data} === "" || ${data} === 0 || ${data} === false`);
	                gen.assign(coerced, null);
	                return;
	            case "array":
	                gen
	                    .elseIf((0, codegen_1._) `${dataType} === "string" || ${dataType} === "number"
              || ${dataType} === "boolean" || ${data} === null`)
	                    .assign(coerced, (0, codegen_1._) `[${data}]`);
	        }
	    }
	}
	function assignParentData({ gen, parentData, parentDataProperty }, expr) {
	    // TODO use gen.property
	    gen.if((0, codegen_1._) `${parentData} !== undefined`, () => gen.assign((0, codegen_1._) `${parentData}[${parentDataProperty}]`, expr));
	}
	function checkDataType(dataType, data, strictNums, correct = DataType.Correct) {
	    const EQ = correct === DataType.Correct ? codegen_1.operators.EQ : codegen_1.operators.NEQ;
	    let cond;
	    switch (dataType) {
	        case "null":
	            return (0, codegen_1._) `${data} ${EQ} null`;
	        case "array":
	            cond = (0, codegen_1._) `Array.isArray(${data})`;
	            break;
	        case "object":
	            cond = (0, codegen_1._) `${data} && typeof ${data} == "object" && !Array.isArray(${data})`;
	            break;
	        case "integer":
	            cond = numCond((0, codegen_1._) `!(${data} % 1) && !isNaN(${data})`);
	            break;
	        case "number":
	            cond = numCond();
	            break;
	        default:
	            return (0, codegen_1._) `typeof ${data} ${EQ} ${dataType}`;
	    }
	    return correct === DataType.Correct ? cond : (0, codegen_1.not)(cond);
	    function numCond(_cond = codegen_1.nil) {
	        return (0, codegen_1.and)((0, codegen_1._) `typeof ${data} == "number"`, _cond, strictNums ? (0, codegen_1._) `isFinite(${data})` : codegen_1.nil);
	    }
	}
	dataType.checkDataType = checkDataType;
	function checkDataTypes(dataTypes, data, strictNums, correct) {
	    if (dataTypes.length === 1) {
	        return checkDataType(dataTypes[0], data, strictNums, correct);
	    }
	    let cond;
	    const types = (0, util_1.toHash)(dataTypes);
	    if (types.array && types.object) {
	        const notObj = (0, codegen_1._) `typeof ${data} != "object"`;
	        cond = types.null ? notObj : (0, codegen_1._) `!${data} || ${notObj}`;
	        delete types.null;
	        delete types.array;
	        delete types.object;
	    }
	    else {
	        cond = codegen_1.nil;
	    }
	    if (types.number)
	        delete types.integer;
	    for (const t in types)
	        cond = (0, codegen_1.and)(cond, checkDataType(t, data, strictNums, correct));
	    return cond;
	}
	dataType.checkDataTypes = checkDataTypes;
	const typeError = {
	    message: ({ schema }) => `must be ${schema}`,
	    params: ({ schema, schemaValue }) => typeof schema == "string" ? (0, codegen_1._) `{type: ${schema}}` : (0, codegen_1._) `{type: ${schemaValue}}`,
	};
	function reportTypeError(it) {
	    const cxt = getTypeErrorContext(it);
	    (0, errors_1.reportError)(cxt, typeError);
	}
	dataType.reportTypeError = reportTypeError;
	function getTypeErrorContext(it) {
	    const { gen, data, schema } = it;
	    const schemaCode = (0, util_1.schemaRefOrVal)(it, schema, "type");
	    return {
	        gen,
	        keyword: "type",
	        data,
	        schema: schema.type,
	        schemaCode,
	        schemaValue: schemaCode,
	        parentSchema: schema,
	        params: {},
	        it,
	    };
	}
	
	return dataType;
}

var defaults = {};

var hasRequiredDefaults;

function requireDefaults () {
	if (hasRequiredDefaults) return defaults;
	hasRequiredDefaults = 1;
	Object.defineProperty(defaults, "__esModule", { value: true });
	defaults.assignDefaults = void 0;
	const codegen_1 = /*@__PURE__*/ requireCodegen();
	const util_1 = /*@__PURE__*/ requireUtil();
	function assignDefaults(it, ty) {
	    const { properties, items } = it.schema;
	    if (ty === "object" && properties) {
	        for (const key in properties) {
	            assignDefault(it, key, properties[key].default);
	        }
	    }
	    else if (ty === "array" && Array.isArray(items)) {
	        items.forEach((sch, i) => assignDefault(it, i, sch.default));
	    }
	}
	defaults.assignDefaults = assignDefaults;
	function assignDefault(it, prop, defaultValue) {
	    const { gen, compositeRule, data, opts } = it;
	    if (defaultValue === undefined)
	        return;
	    const childData = (0, codegen_1._) `${data}${(0, codegen_1.getProperty)(prop)}`;
	    if (compositeRule) {
	        (0, util_1.checkStrictMode)(it, `default is ignored for: ${childData}`);
	        return;
	    }
	    let condition = (0, codegen_1._) `${childData} === undefined`;
	    if (opts.useDefaults === "empty") {
	        condition = (0, codegen_1._) `${condition} || ${childData} === null || ${childData} === ""`;
	    }
	    // `${childData} === undefined` +
	    // (opts.useDefaults === "empty" ? ` || ${childData} === null || ${childData} === ""` : "")
	    gen.if(condition, (0, codegen_1._) `${childData} = ${(0, codegen_1.stringify)(defaultValue)}`);
	}
	
	return defaults;
}

var keyword = {};

var code = {};

var hasRequiredCode;

function requireCode () {
	if (hasRequiredCode) return code;
	hasRequiredCode = 1;
	Object.defineProperty(code, "__esModule", { value: true });
	code.validateUnion = code.validateArray = code.usePattern = code.callValidateCode = code.schemaProperties = code.allSchemaProperties = code.noPropertyInData = code.propertyInData = code.isOwnProperty = code.hasPropFunc = code.reportMissingProp = code.checkMissingProp = code.checkReportMissingProp = void 0;
	const codegen_1 = /*@__PURE__*/ requireCodegen();
	const util_1 = /*@__PURE__*/ requireUtil();
	const names_1 = /*@__PURE__*/ requireNames();
	const util_2 = /*@__PURE__*/ requireUtil();
	function checkReportMissingProp(cxt, prop) {
	    const { gen, data, it } = cxt;
	    gen.if(noPropertyInData(gen, data, prop, it.opts.ownProperties), () => {
	        cxt.setParams({ missingProperty: (0, codegen_1._) `${prop}` }, true);
	        cxt.error();
	    });
	}
	code.checkReportMissingProp = checkReportMissingProp;
	function checkMissingProp({ gen, data, it: { opts } }, properties, missing) {
	    return (0, codegen_1.or)(...properties.map((prop) => (0, codegen_1.and)(noPropertyInData(gen, data, prop, opts.ownProperties), (0, codegen_1._) `${missing} = ${prop}`)));
	}
	code.checkMissingProp = checkMissingProp;
	function reportMissingProp(cxt, missing) {
	    cxt.setParams({ missingProperty: missing }, true);
	    cxt.error();
	}
	code.reportMissingProp = reportMissingProp;
	function hasPropFunc(gen) {
	    return gen.scopeValue("func", {
	        // eslint-disable-next-line @typescript-eslint/unbound-method
	        ref: Object.prototype.hasOwnProperty,
	        code: (0, codegen_1._) `Object.prototype.hasOwnProperty`,
	    });
	}
	code.hasPropFunc = hasPropFunc;
	function isOwnProperty(gen, data, property) {
	    return (0, codegen_1._) `${hasPropFunc(gen)}.call(${data}, ${property})`;
	}
	code.isOwnProperty = isOwnProperty;
	function propertyInData(gen, data, property, ownProperties) {
	    const cond = (0, codegen_1._) `${data}${(0, codegen_1.getProperty)(property)} !== undefined`;
	    return ownProperties ? (0, codegen_1._) `${cond} && ${isOwnProperty(gen, data, property)}` : cond;
	}
	code.propertyInData = propertyInData;
	function noPropertyInData(gen, data, property, ownProperties) {
	    const cond = (0, codegen_1._) `${data}${(0, codegen_1.getProperty)(property)} === undefined`;
	    return ownProperties ? (0, codegen_1.or)(cond, (0, codegen_1.not)(isOwnProperty(gen, data, property))) : cond;
	}
	code.noPropertyInData = noPropertyInData;
	function allSchemaProperties(schemaMap) {
	    return schemaMap ? Object.keys(schemaMap).filter((p) => p !== "__proto__") : [];
	}
	code.allSchemaProperties = allSchemaProperties;
	function schemaProperties(it, schemaMap) {
	    return allSchemaProperties(schemaMap).filter((p) => !(0, util_1.alwaysValidSchema)(it, schemaMap[p]));
	}
	code.schemaProperties = schemaProperties;
	function callValidateCode({ schemaCode, data, it: { gen, topSchemaRef, schemaPath, errorPath }, it }, func, context, passSchema) {
	    const dataAndSchema = passSchema ? (0, codegen_1._) `${schemaCode}, ${data}, ${topSchemaRef}${schemaPath}` : data;
	    const valCxt = [
	        [names_1.default.instancePath, (0, codegen_1.strConcat)(names_1.default.instancePath, errorPath)],
	        [names_1.default.parentData, it.parentData],
	        [names_1.default.parentDataProperty, it.parentDataProperty],
	        [names_1.default.rootData, names_1.default.rootData],
	    ];
	    if (it.opts.dynamicRef)
	        valCxt.push([names_1.default.dynamicAnchors, names_1.default.dynamicAnchors]);
	    const args = (0, codegen_1._) `${dataAndSchema}, ${gen.object(...valCxt)}`;
	    return context !== codegen_1.nil ? (0, codegen_1._) `${func}.call(${context}, ${args})` : (0, codegen_1._) `${func}(${args})`;
	}
	code.callValidateCode = callValidateCode;
	const newRegExp = (0, codegen_1._) `new RegExp`;
	function usePattern({ gen, it: { opts } }, pattern) {
	    const u = opts.unicodeRegExp ? "u" : "";
	    const { regExp } = opts.code;
	    const rx = regExp(pattern, u);
	    return gen.scopeValue("pattern", {
	        key: rx.toString(),
	        ref: rx,
	        code: (0, codegen_1._) `${regExp.code === "new RegExp" ? newRegExp : (0, util_2.useFunc)(gen, regExp)}(${pattern}, ${u})`,
	    });
	}
	code.usePattern = usePattern;
	function validateArray(cxt) {
	    const { gen, data, keyword, it } = cxt;
	    const valid = gen.name("valid");
	    if (it.allErrors) {
	        const validArr = gen.let("valid", true);
	        validateItems(() => gen.assign(validArr, false));
	        return validArr;
	    }
	    gen.var(valid, true);
	    validateItems(() => gen.break());
	    return valid;
	    function validateItems(notValid) {
	        const len = gen.const("len", (0, codegen_1._) `${data}.length`);
	        gen.forRange("i", 0, len, (i) => {
	            cxt.subschema({
	                keyword,
	                dataProp: i,
	                dataPropType: util_1.Type.Num,
	            }, valid);
	            gen.if((0, codegen_1.not)(valid), notValid);
	        });
	    }
	}
	code.validateArray = validateArray;
	function validateUnion(cxt) {
	    const { gen, schema, keyword, it } = cxt;
	    /* istanbul ignore if */
	    if (!Array.isArray(schema))
	        throw new Error("ajv implementation error");
	    const alwaysValid = schema.some((sch) => (0, util_1.alwaysValidSchema)(it, sch));
	    if (alwaysValid && !it.opts.unevaluated)
	        return;
	    const valid = gen.let("valid", false);
	    const schValid = gen.name("_valid");
	    gen.block(() => schema.forEach((_sch, i) => {
	        const schCxt = cxt.subschema({
	            keyword,
	            schemaProp: i,
	            compositeRule: true,
	        }, schValid);
	        gen.assign(valid, (0, codegen_1._) `${valid} || ${schValid}`);
	        const merged = cxt.mergeValidEvaluated(schCxt, schValid);
	        // can short-circuit if `unevaluatedProperties/Items` not supported (opts.unevaluated !== true)
	        // or if all properties and items were evaluated (it.props === true && it.items === true)
	        if (!merged)
	            gen.if((0, codegen_1.not)(valid));
	    }));
	    cxt.result(valid, () => cxt.reset(), () => cxt.error(true));
	}
	code.validateUnion = validateUnion;
	
	return code;
}

var hasRequiredKeyword;

function requireKeyword () {
	if (hasRequiredKeyword) return keyword;
	hasRequiredKeyword = 1;
	Object.defineProperty(keyword, "__esModule", { value: true });
	keyword.validateKeywordUsage = keyword.validSchemaType = keyword.funcKeywordCode = keyword.macroKeywordCode = void 0;
	const codegen_1 = /*@__PURE__*/ requireCodegen();
	const names_1 = /*@__PURE__*/ requireNames();
	const code_1 = /*@__PURE__*/ requireCode();
	const errors_1 = /*@__PURE__*/ requireErrors();
	function macroKeywordCode(cxt, def) {
	    const { gen, keyword, schema, parentSchema, it } = cxt;
	    const macroSchema = def.macro.call(it.self, schema, parentSchema, it);
	    const schemaRef = useKeyword(gen, keyword, macroSchema);
	    if (it.opts.validateSchema !== false)
	        it.self.validateSchema(macroSchema, true);
	    const valid = gen.name("valid");
	    cxt.subschema({
	        schema: macroSchema,
	        schemaPath: codegen_1.nil,
	        errSchemaPath: `${it.errSchemaPath}/${keyword}`,
	        topSchemaRef: schemaRef,
	        compositeRule: true,
	    }, valid);
	    cxt.pass(valid, () => cxt.error(true));
	}
	keyword.macroKeywordCode = macroKeywordCode;
	function funcKeywordCode(cxt, def) {
	    var _a;
	    const { gen, keyword, schema, parentSchema, $data, it } = cxt;
	    checkAsyncKeyword(it, def);
	    const validate = !$data && def.compile ? def.compile.call(it.self, schema, parentSchema, it) : def.validate;
	    const validateRef = useKeyword(gen, keyword, validate);
	    const valid = gen.let("valid");
	    cxt.block$data(valid, validateKeyword);
	    cxt.ok((_a = def.valid) !== null && _a !== void 0 ? _a : valid);
	    function validateKeyword() {
	        if (def.errors === false) {
	            assignValid();
	            if (def.modifying)
	                modifyData(cxt);
	            reportErrs(() => cxt.error());
	        }
	        else {
	            const ruleErrs = def.async ? validateAsync() : validateSync();
	            if (def.modifying)
	                modifyData(cxt);
	            reportErrs(() => addErrs(cxt, ruleErrs));
	        }
	    }
	    function validateAsync() {
	        const ruleErrs = gen.let("ruleErrs", null);
	        gen.try(() => assignValid((0, codegen_1._) `await `), (e) => gen.assign(valid, false).if((0, codegen_1._) `${e} instanceof ${it.ValidationError}`, () => gen.assign(ruleErrs, (0, codegen_1._) `${e}.errors`), () => gen.throw(e)));
	        return ruleErrs;
	    }
	    function validateSync() {
	        const validateErrs = (0, codegen_1._) `${validateRef}.errors`;
	        gen.assign(validateErrs, null);
	        assignValid(codegen_1.nil);
	        return validateErrs;
	    }
	    function assignValid(_await = def.async ? (0, codegen_1._) `await ` : codegen_1.nil) {
	        const passCxt = it.opts.passContext ? names_1.default.this : names_1.default.self;
	        const passSchema = !(("compile" in def && !$data) || def.schema === false);
	        gen.assign(valid, (0, codegen_1._) `${_await}${(0, code_1.callValidateCode)(cxt, validateRef, passCxt, passSchema)}`, def.modifying);
	    }
	    function reportErrs(errors) {
	        var _a;
	        gen.if((0, codegen_1.not)((_a = def.valid) !== null && _a !== void 0 ? _a : valid), errors);
	    }
	}
	keyword.funcKeywordCode = funcKeywordCode;
	function modifyData(cxt) {
	    const { gen, data, it } = cxt;
	    gen.if(it.parentData, () => gen.assign(data, (0, codegen_1._) `${it.parentData}[${it.parentDataProperty}]`));
	}
	function addErrs(cxt, errs) {
	    const { gen } = cxt;
	    gen.if((0, codegen_1._) `Array.isArray(${errs})`, () => {
	        gen
	            .assign(names_1.default.vErrors, (0, codegen_1._) `${names_1.default.vErrors} === null ? ${errs} : ${names_1.default.vErrors}.concat(${errs})`)
	            .assign(names_1.default.errors, (0, codegen_1._) `${names_1.default.vErrors}.length`);
	        (0, errors_1.extendErrors)(cxt);
	    }, () => cxt.error());
	}
	function checkAsyncKeyword({ schemaEnv }, def) {
	    if (def.async && !schemaEnv.$async)
	        throw new Error("async keyword in sync schema");
	}
	function useKeyword(gen, keyword, result) {
	    if (result === undefined)
	        throw new Error(`keyword "${keyword}" failed to compile`);
	    return gen.scopeValue("keyword", typeof result == "function" ? { ref: result } : { ref: result, code: (0, codegen_1.stringify)(result) });
	}
	function validSchemaType(schema, schemaType, allowUndefined = false) {
	    // TODO add tests
	    return (!schemaType.length ||
	        schemaType.some((st) => st === "array"
	            ? Array.isArray(schema)
	            : st === "object"
	                ? schema && typeof schema == "object" && !Array.isArray(schema)
	                : typeof schema == st || (allowUndefined && typeof schema == "undefined")));
	}
	keyword.validSchemaType = validSchemaType;
	function validateKeywordUsage({ schema, opts, self, errSchemaPath }, def, keyword) {
	    /* istanbul ignore if */
	    if (Array.isArray(def.keyword) ? !def.keyword.includes(keyword) : def.keyword !== keyword) {
	        throw new Error("ajv implementation error");
	    }
	    const deps = def.dependencies;
	    if (deps === null || deps === void 0 ? void 0 : deps.some((kwd) => !Object.prototype.hasOwnProperty.call(schema, kwd))) {
	        throw new Error(`parent schema must have dependencies of ${keyword}: ${deps.join(",")}`);
	    }
	    if (def.validateSchema) {
	        const valid = def.validateSchema(schema[keyword]);
	        if (!valid) {
	            const msg = `keyword "${keyword}" value is invalid at path "${errSchemaPath}": ` +
	                self.errorsText(def.validateSchema.errors);
	            if (opts.validateSchema === "log")
	                self.logger.error(msg);
	            else
	                throw new Error(msg);
	        }
	    }
	}
	keyword.validateKeywordUsage = validateKeywordUsage;
	
	return keyword;
}

var subschema = {};

var hasRequiredSubschema;

function requireSubschema () {
	if (hasRequiredSubschema) return subschema;
	hasRequiredSubschema = 1;
	Object.defineProperty(subschema, "__esModule", { value: true });
	subschema.extendSubschemaMode = subschema.extendSubschemaData = subschema.getSubschema = void 0;
	const codegen_1 = /*@__PURE__*/ requireCodegen();
	const util_1 = /*@__PURE__*/ requireUtil();
	function getSubschema(it, { keyword, schemaProp, schema, schemaPath, errSchemaPath, topSchemaRef }) {
	    if (keyword !== undefined && schema !== undefined) {
	        throw new Error('both "keyword" and "schema" passed, only one allowed');
	    }
	    if (keyword !== undefined) {
	        const sch = it.schema[keyword];
	        return schemaProp === undefined
	            ? {
	                schema: sch,
	                schemaPath: (0, codegen_1._) `${it.schemaPath}${(0, codegen_1.getProperty)(keyword)}`,
	                errSchemaPath: `${it.errSchemaPath}/${keyword}`,
	            }
	            : {
	                schema: sch[schemaProp],
	                schemaPath: (0, codegen_1._) `${it.schemaPath}${(0, codegen_1.getProperty)(keyword)}${(0, codegen_1.getProperty)(schemaProp)}`,
	                errSchemaPath: `${it.errSchemaPath}/${keyword}/${(0, util_1.escapeFragment)(schemaProp)}`,
	            };
	    }
	    if (schema !== undefined) {
	        if (schemaPath === undefined || errSchemaPath === undefined || topSchemaRef === undefined) {
	            throw new Error('"schemaPath", "errSchemaPath" and "topSchemaRef" are required with "schema"');
	        }
	        return {
	            schema,
	            schemaPath,
	            topSchemaRef,
	            errSchemaPath,
	        };
	    }
	    throw new Error('either "keyword" or "schema" must be passed');
	}
	subschema.getSubschema = getSubschema;
	function extendSubschemaData(subschema, it, { dataProp, dataPropType: dpType, data, dataTypes, propertyName }) {
	    if (data !== undefined && dataProp !== undefined) {
	        throw new Error('both "data" and "dataProp" passed, only one allowed');
	    }
	    const { gen } = it;
	    if (dataProp !== undefined) {
	        const { errorPath, dataPathArr, opts } = it;
	        const nextData = gen.let("data", (0, codegen_1._) `${it.data}${(0, codegen_1.getProperty)(dataProp)}`, true);
	        dataContextProps(nextData);
	        subschema.errorPath = (0, codegen_1.str) `${errorPath}${(0, util_1.getErrorPath)(dataProp, dpType, opts.jsPropertySyntax)}`;
	        subschema.parentDataProperty = (0, codegen_1._) `${dataProp}`;
	        subschema.dataPathArr = [...dataPathArr, subschema.parentDataProperty];
	    }
	    if (data !== undefined) {
	        const nextData = data instanceof codegen_1.Name ? data : gen.let("data", data, true); // replaceable if used once?
	        dataContextProps(nextData);
	        if (propertyName !== undefined)
	            subschema.propertyName = propertyName;
	        // TODO something is possibly wrong here with not changing parentDataProperty and not appending dataPathArr
	    }
	    if (dataTypes)
	        subschema.dataTypes = dataTypes;
	    function dataContextProps(_nextData) {
	        subschema.data = _nextData;
	        subschema.dataLevel = it.dataLevel + 1;
	        subschema.dataTypes = [];
	        it.definedProperties = new Set();
	        subschema.parentData = it.data;
	        subschema.dataNames = [...it.dataNames, _nextData];
	    }
	}
	subschema.extendSubschemaData = extendSubschemaData;
	function extendSubschemaMode(subschema, { jtdDiscriminator, jtdMetadata, compositeRule, createErrors, allErrors }) {
	    if (compositeRule !== undefined)
	        subschema.compositeRule = compositeRule;
	    if (createErrors !== undefined)
	        subschema.createErrors = createErrors;
	    if (allErrors !== undefined)
	        subschema.allErrors = allErrors;
	    subschema.jtdDiscriminator = jtdDiscriminator; // not inherited
	    subschema.jtdMetadata = jtdMetadata; // not inherited
	}
	subschema.extendSubschemaMode = extendSubschemaMode;
	
	return subschema;
}

var resolve = {};

var fastDeepEqual;
var hasRequiredFastDeepEqual;

function requireFastDeepEqual () {
	if (hasRequiredFastDeepEqual) return fastDeepEqual;
	hasRequiredFastDeepEqual = 1;

	// do not edit .js files directly - edit src/index.jst



	fastDeepEqual = function equal(a, b) {
	  if (a === b) return true;

	  if (a && b && typeof a == 'object' && typeof b == 'object') {
	    if (a.constructor !== b.constructor) return false;

	    var length, i, keys;
	    if (Array.isArray(a)) {
	      length = a.length;
	      if (length != b.length) return false;
	      for (i = length; i-- !== 0;)
	        if (!equal(a[i], b[i])) return false;
	      return true;
	    }



	    if (a.constructor === RegExp) return a.source === b.source && a.flags === b.flags;
	    if (a.valueOf !== Object.prototype.valueOf) return a.valueOf() === b.valueOf();
	    if (a.toString !== Object.prototype.toString) return a.toString() === b.toString();

	    keys = Object.keys(a);
	    length = keys.length;
	    if (length !== Object.keys(b).length) return false;

	    for (i = length; i-- !== 0;)
	      if (!Object.prototype.hasOwnProperty.call(b, keys[i])) return false;

	    for (i = length; i-- !== 0;) {
	      var key = keys[i];

	      if (!equal(a[key], b[key])) return false;
	    }

	    return true;
	  }

	  // true if both NaN, false otherwise
	  return a!==a && b!==b;
	};
	return fastDeepEqual;
}

var jsonSchemaTraverse = {exports: {}};

var hasRequiredJsonSchemaTraverse;

function requireJsonSchemaTraverse () {
	if (hasRequiredJsonSchemaTraverse) return jsonSchemaTraverse.exports;
	hasRequiredJsonSchemaTraverse = 1;

	var traverse = jsonSchemaTraverse.exports = function (schema, opts, cb) {
	  // Legacy support for v0.3.1 and earlier.
	  if (typeof opts == 'function') {
	    cb = opts;
	    opts = {};
	  }

	  cb = opts.cb || cb;
	  var pre = (typeof cb == 'function') ? cb : cb.pre || function() {};
	  var post = cb.post || function() {};

	  _traverse(opts, pre, post, schema, '', schema);
	};


	traverse.keywords = {
	  additionalItems: true,
	  items: true,
	  contains: true,
	  additionalProperties: true,
	  propertyNames: true,
	  not: true,
	  if: true,
	  then: true,
	  else: true
	};

	traverse.arrayKeywords = {
	  items: true,
	  allOf: true,
	  anyOf: true,
	  oneOf: true
	};

	traverse.propsKeywords = {
	  $defs: true,
	  definitions: true,
	  properties: true,
	  patternProperties: true,
	  dependencies: true
	};

	traverse.skipKeywords = {
	  default: true,
	  enum: true,
	  const: true,
	  required: true,
	  maximum: true,
	  minimum: true,
	  exclusiveMaximum: true,
	  exclusiveMinimum: true,
	  multipleOf: true,
	  maxLength: true,
	  minLength: true,
	  pattern: true,
	  format: true,
	  maxItems: true,
	  minItems: true,
	  uniqueItems: true,
	  maxProperties: true,
	  minProperties: true
	};


	function _traverse(opts, pre, post, schema, jsonPtr, rootSchema, parentJsonPtr, parentKeyword, parentSchema, keyIndex) {
	  if (schema && typeof schema == 'object' && !Array.isArray(schema)) {
	    pre(schema, jsonPtr, rootSchema, parentJsonPtr, parentKeyword, parentSchema, keyIndex);
	    for (var key in schema) {
	      var sch = schema[key];
	      if (Array.isArray(sch)) {
	        if (key in traverse.arrayKeywords) {
	          for (var i=0; i<sch.length; i++)
	            _traverse(opts, pre, post, sch[i], jsonPtr + '/' + key + '/' + i, rootSchema, jsonPtr, key, schema, i);
	        }
	      } else if (key in traverse.propsKeywords) {
	        if (sch && typeof sch == 'object') {
	          for (var prop in sch)
	            _traverse(opts, pre, post, sch[prop], jsonPtr + '/' + key + '/' + escapeJsonPtr(prop), rootSchema, jsonPtr, key, schema, prop);
	        }
	      } else if (key in traverse.keywords || (opts.allKeys && !(key in traverse.skipKeywords))) {
	        _traverse(opts, pre, post, sch, jsonPtr + '/' + key, rootSchema, jsonPtr, key, schema);
	      }
	    }
	    post(schema, jsonPtr, rootSchema, parentJsonPtr, parentKeyword, parentSchema, keyIndex);
	  }
	}


	function escapeJsonPtr(str) {
	  return str.replace(/~/g, '~0').replace(/\//g, '~1');
	}
	return jsonSchemaTraverse.exports;
}

var hasRequiredResolve;

function requireResolve () {
	if (hasRequiredResolve) return resolve;
	hasRequiredResolve = 1;
	Object.defineProperty(resolve, "__esModule", { value: true });
	resolve.getSchemaRefs = resolve.resolveUrl = resolve.normalizeId = resolve._getFullPath = resolve.getFullPath = resolve.inlineRef = void 0;
	const util_1 = /*@__PURE__*/ requireUtil();
	const equal = requireFastDeepEqual();
	const traverse = requireJsonSchemaTraverse();
	// TODO refactor to use keyword definitions
	const SIMPLE_INLINED = new Set([
	    "type",
	    "format",
	    "pattern",
	    "maxLength",
	    "minLength",
	    "maxProperties",
	    "minProperties",
	    "maxItems",
	    "minItems",
	    "maximum",
	    "minimum",
	    "uniqueItems",
	    "multipleOf",
	    "required",
	    "enum",
	    "const",
	]);
	function inlineRef(schema, limit = true) {
	    if (typeof schema == "boolean")
	        return true;
	    if (limit === true)
	        return !hasRef(schema);
	    if (!limit)
	        return false;
	    return countKeys(schema) <= limit;
	}
	resolve.inlineRef = inlineRef;
	const REF_KEYWORDS = new Set([
	    "$ref",
	    "$recursiveRef",
	    "$recursiveAnchor",
	    "$dynamicRef",
	    "$dynamicAnchor",
	]);
	function hasRef(schema) {
	    for (const key in schema) {
	        if (REF_KEYWORDS.has(key))
	            return true;
	        const sch = schema[key];
	        if (Array.isArray(sch) && sch.some(hasRef))
	            return true;
	        if (typeof sch == "object" && hasRef(sch))
	            return true;
	    }
	    return false;
	}
	function countKeys(schema) {
	    let count = 0;
	    for (const key in schema) {
	        if (key === "$ref")
	            return Infinity;
	        count++;
	        if (SIMPLE_INLINED.has(key))
	            continue;
	        if (typeof schema[key] == "object") {
	            (0, util_1.eachItem)(schema[key], (sch) => (count += countKeys(sch)));
	        }
	        if (count === Infinity)
	            return Infinity;
	    }
	    return count;
	}
	function getFullPath(resolver, id = "", normalize) {
	    if (normalize !== false)
	        id = normalizeId(id);
	    const p = resolver.parse(id);
	    return _getFullPath(resolver, p);
	}
	resolve.getFullPath = getFullPath;
	function _getFullPath(resolver, p) {
	    const serialized = resolver.serialize(p);
	    return serialized.split("#")[0] + "#";
	}
	resolve._getFullPath = _getFullPath;
	const TRAILING_SLASH_HASH = /#\/?$/;
	function normalizeId(id) {
	    return id ? id.replace(TRAILING_SLASH_HASH, "") : "";
	}
	resolve.normalizeId = normalizeId;
	function resolveUrl(resolver, baseId, id) {
	    id = normalizeId(id);
	    return resolver.resolve(baseId, id);
	}
	resolve.resolveUrl = resolveUrl;
	const ANCHOR = /^[a-z_][-a-z0-9._]*$/i;
	function getSchemaRefs(schema, baseId) {
	    if (typeof schema == "boolean")
	        return {};
	    const { schemaId, uriResolver } = this.opts;
	    const schId = normalizeId(schema[schemaId] || baseId);
	    const baseIds = { "": schId };
	    const pathPrefix = getFullPath(uriResolver, schId, false);
	    const localRefs = {};
	    const schemaRefs = new Set();
	    traverse(schema, { allKeys: true }, (sch, jsonPtr, _, parentJsonPtr) => {
	        if (parentJsonPtr === undefined)
	            return;
	        const fullPath = pathPrefix + jsonPtr;
	        let innerBaseId = baseIds[parentJsonPtr];
	        if (typeof sch[schemaId] == "string")
	            innerBaseId = addRef.call(this, sch[schemaId]);
	        addAnchor.call(this, sch.$anchor);
	        addAnchor.call(this, sch.$dynamicAnchor);
	        baseIds[jsonPtr] = innerBaseId;
	        function addRef(ref) {
	            // eslint-disable-next-line @typescript-eslint/unbound-method
	            const _resolve = this.opts.uriResolver.resolve;
	            ref = normalizeId(innerBaseId ? _resolve(innerBaseId, ref) : ref);
	            if (schemaRefs.has(ref))
	                throw ambiguos(ref);
	            schemaRefs.add(ref);
	            let schOrRef = this.refs[ref];
	            if (typeof schOrRef == "string")
	                schOrRef = this.refs[schOrRef];
	            if (typeof schOrRef == "object") {
	                checkAmbiguosRef(sch, schOrRef.schema, ref);
	            }
	            else if (ref !== normalizeId(fullPath)) {
	                if (ref[0] === "#") {
	                    checkAmbiguosRef(sch, localRefs[ref], ref);
	                    localRefs[ref] = sch;
	                }
	                else {
	                    this.refs[ref] = fullPath;
	                }
	            }
	            return ref;
	        }
	        function addAnchor(anchor) {
	            if (typeof anchor == "string") {
	                if (!ANCHOR.test(anchor))
	                    throw new Error(`invalid anchor "${anchor}"`);
	                addRef.call(this, `#${anchor}`);
	            }
	        }
	    });
	    return localRefs;
	    function checkAmbiguosRef(sch1, sch2, ref) {
	        if (sch2 !== undefined && !equal(sch1, sch2))
	            throw ambiguos(ref);
	    }
	    function ambiguos(ref) {
	        return new Error(`reference "${ref}" resolves to more than one schema`);
	    }
	}
	resolve.getSchemaRefs = getSchemaRefs;
	
	return resolve;
}

var hasRequiredValidate;

function requireValidate () {
	if (hasRequiredValidate) return validate;
	hasRequiredValidate = 1;
	Object.defineProperty(validate, "__esModule", { value: true });
	validate.getData = validate.KeywordCxt = validate.validateFunctionCode = void 0;
	const boolSchema_1 = /*@__PURE__*/ requireBoolSchema();
	const dataType_1 = /*@__PURE__*/ requireDataType();
	const applicability_1 = /*@__PURE__*/ requireApplicability();
	const dataType_2 = /*@__PURE__*/ requireDataType();
	const defaults_1 = /*@__PURE__*/ requireDefaults();
	const keyword_1 = /*@__PURE__*/ requireKeyword();
	const subschema_1 = /*@__PURE__*/ requireSubschema();
	const codegen_1 = /*@__PURE__*/ requireCodegen();
	const names_1 = /*@__PURE__*/ requireNames();
	const resolve_1 = /*@__PURE__*/ requireResolve();
	const util_1 = /*@__PURE__*/ requireUtil();
	const errors_1 = /*@__PURE__*/ requireErrors();
	// schema compilation - generates validation function, subschemaCode (below) is used for subschemas
	function validateFunctionCode(it) {
	    if (isSchemaObj(it)) {
	        checkKeywords(it);
	        if (schemaCxtHasRules(it)) {
	            topSchemaObjCode(it);
	            return;
	        }
	    }
	    validateFunction(it, () => (0, boolSchema_1.topBoolOrEmptySchema)(it));
	}
	validate.validateFunctionCode = validateFunctionCode;
	function validateFunction({ gen, validateName, schema, schemaEnv, opts }, body) {
	    if (opts.code.es5) {
	        gen.func(validateName, (0, codegen_1._) `${names_1.default.data}, ${names_1.default.valCxt}`, schemaEnv.$async, () => {
	            gen.code((0, codegen_1._) `"use strict"; ${funcSourceUrl(schema, opts)}`);
	            destructureValCxtES5(gen, opts);
	            gen.code(body);
	        });
	    }
	    else {
	        gen.func(validateName, (0, codegen_1._) `${names_1.default.data}, ${destructureValCxt(opts)}`, schemaEnv.$async, () => gen.code(funcSourceUrl(schema, opts)).code(body));
	    }
	}
	function destructureValCxt(opts) {
	    return (0, codegen_1._) `{${names_1.default.instancePath}="", ${names_1.default.parentData}, ${names_1.default.parentDataProperty}, ${names_1.default.rootData}=${names_1.default.data}${opts.dynamicRef ? (0, codegen_1._) `, ${names_1.default.dynamicAnchors}={}` : codegen_1.nil}}={}`;
	}
	function destructureValCxtES5(gen, opts) {
	    gen.if(names_1.default.valCxt, () => {
	        gen.var(names_1.default.instancePath, (0, codegen_1._) `${names_1.default.valCxt}.${names_1.default.instancePath}`);
	        gen.var(names_1.default.parentData, (0, codegen_1._) `${names_1.default.valCxt}.${names_1.default.parentData}`);
	        gen.var(names_1.default.parentDataProperty, (0, codegen_1._) `${names_1.default.valCxt}.${names_1.default.parentDataProperty}`);
	        gen.var(names_1.default.rootData, (0, codegen_1._) `${names_1.default.valCxt}.${names_1.default.rootData}`);
	        if (opts.dynamicRef)
	            gen.var(names_1.default.dynamicAnchors, (0, codegen_1._) `${names_1.default.valCxt}.${names_1.default.dynamicAnchors}`);
	    }, () => {
	        gen.var(names_1.default.instancePath, (0, codegen_1._) `""`);
	        gen.var(names_1.default.parentData, (0, codegen_1._) `undefined`);
	        gen.var(names_1.default.parentDataProperty, (0, codegen_1._) `undefined`);
	        gen.var(names_1.default.rootData, names_1.default.data);
	        if (opts.dynamicRef)
	            gen.var(names_1.default.dynamicAnchors, (0, codegen_1._) `{}`);
	    });
	}
	function topSchemaObjCode(it) {
	    const { schema, opts, gen } = it;
	    validateFunction(it, () => {
	        if (opts.$comment && schema.$comment)
	            commentKeyword(it);
	        checkNoDefault(it);
	        gen.let(names_1.default.vErrors, null);
	        gen.let(names_1.default.errors, 0);
	        if (opts.unevaluated)
	            resetEvaluated(it);
	        typeAndKeywords(it);
	        returnResults(it);
	    });
	    return;
	}
	function resetEvaluated(it) {
	    // TODO maybe some hook to execute it in the end to check whether props/items are Name, as in assignEvaluated
	    const { gen, validateName } = it;
	    it.evaluated = gen.const("evaluated", (0, codegen_1._) `${validateName}.evaluated`);
	    gen.if((0, codegen_1._) `${it.evaluated}.dynamicProps`, () => gen.assign((0, codegen_1._) `${it.evaluated}.props`, (0, codegen_1._) `undefined`));
	    gen.if((0, codegen_1._) `${it.evaluated}.dynamicItems`, () => gen.assign((0, codegen_1._) `${it.evaluated}.items`, (0, codegen_1._) `undefined`));
	}
	function funcSourceUrl(schema, opts) {
	    const schId = typeof schema == "object" && schema[opts.schemaId];
	    return schId && (opts.code.source || opts.code.process) ? (0, codegen_1._) `/*# sourceURL=${schId} */` : codegen_1.nil;
	}
	// schema compilation - this function is used recursively to generate code for sub-schemas
	function subschemaCode(it, valid) {
	    if (isSchemaObj(it)) {
	        checkKeywords(it);
	        if (schemaCxtHasRules(it)) {
	            subSchemaObjCode(it, valid);
	            return;
	        }
	    }
	    (0, boolSchema_1.boolOrEmptySchema)(it, valid);
	}
	function schemaCxtHasRules({ schema, self }) {
	    if (typeof schema == "boolean")
	        return !schema;
	    for (const key in schema)
	        if (self.RULES.all[key])
	            return true;
	    return false;
	}
	function isSchemaObj(it) {
	    return typeof it.schema != "boolean";
	}
	function subSchemaObjCode(it, valid) {
	    const { schema, gen, opts } = it;
	    if (opts.$comment && schema.$comment)
	        commentKeyword(it);
	    updateContext(it);
	    checkAsyncSchema(it);
	    const errsCount = gen.const("_errs", names_1.default.errors);
	    typeAndKeywords(it, errsCount);
	    // TODO var
	    gen.var(valid, (0, codegen_1._) `${errsCount} === ${names_1.default.errors}`);
	}
	function checkKeywords(it) {
	    (0, util_1.checkUnknownRules)(it);
	    checkRefsAndKeywords(it);
	}
	function typeAndKeywords(it, errsCount) {
	    if (it.opts.jtd)
	        return schemaKeywords(it, [], false, errsCount);
	    const types = (0, dataType_1.getSchemaTypes)(it.schema);
	    const checkedTypes = (0, dataType_1.coerceAndCheckDataType)(it, types);
	    schemaKeywords(it, types, !checkedTypes, errsCount);
	}
	function checkRefsAndKeywords(it) {
	    const { schema, errSchemaPath, opts, self } = it;
	    if (schema.$ref && opts.ignoreKeywordsWithRef && (0, util_1.schemaHasRulesButRef)(schema, self.RULES)) {
	        self.logger.warn(`$ref: keywords ignored in schema at path "${errSchemaPath}"`);
	    }
	}
	function checkNoDefault(it) {
	    const { schema, opts } = it;
	    if (schema.default !== undefined && opts.useDefaults && opts.strictSchema) {
	        (0, util_1.checkStrictMode)(it, "default is ignored in the schema root");
	    }
	}
	function updateContext(it) {
	    const schId = it.schema[it.opts.schemaId];
	    if (schId)
	        it.baseId = (0, resolve_1.resolveUrl)(it.opts.uriResolver, it.baseId, schId);
	}
	function checkAsyncSchema(it) {
	    if (it.schema.$async && !it.schemaEnv.$async)
	        throw new Error("async schema in sync schema");
	}
	function commentKeyword({ gen, schemaEnv, schema, errSchemaPath, opts }) {
	    const msg = schema.$comment;
	    if (opts.$comment === true) {
	        gen.code((0, codegen_1._) `${names_1.default.self}.logger.log(${msg})`);
	    }
	    else if (typeof opts.$comment == "function") {
	        const schemaPath = (0, codegen_1.str) `${errSchemaPath}/$comment`;
	        const rootName = gen.scopeValue("root", { ref: schemaEnv.root });
	        gen.code((0, codegen_1._) `${names_1.default.self}.opts.$comment(${msg}, ${schemaPath}, ${rootName}.schema)`);
	    }
	}
	function returnResults(it) {
	    const { gen, schemaEnv, validateName, ValidationError, opts } = it;
	    if (schemaEnv.$async) {
	        // TODO assign unevaluated
	        gen.if((0, codegen_1._) `${names_1.default.errors} === 0`, () => gen.return(names_1.default.data), () => gen.throw((0, codegen_1._) `new ${ValidationError}(${names_1.default.vErrors})`));
	    }
	    else {
	        gen.assign((0, codegen_1._) `${validateName}.errors`, names_1.default.vErrors);
	        if (opts.unevaluated)
	            assignEvaluated(it);
	        gen.return((0, codegen_1._) `${names_1.default.errors} === 0`);
	    }
	}
	function assignEvaluated({ gen, evaluated, props, items }) {
	    if (props instanceof codegen_1.Name)
	        gen.assign((0, codegen_1._) `${evaluated}.props`, props);
	    if (items instanceof codegen_1.Name)
	        gen.assign((0, codegen_1._) `${evaluated}.items`, items);
	}
	function schemaKeywords(it, types, typeErrors, errsCount) {
	    const { gen, schema, data, allErrors, opts, self } = it;
	    const { RULES } = self;
	    if (schema.$ref && (opts.ignoreKeywordsWithRef || !(0, util_1.schemaHasRulesButRef)(schema, RULES))) {
	        gen.block(() => keywordCode(it, "$ref", RULES.all.$ref.definition)); // TODO typecast
	        return;
	    }
	    if (!opts.jtd)
	        checkStrictTypes(it, types);
	    gen.block(() => {
	        for (const group of RULES.rules)
	            groupKeywords(group);
	        groupKeywords(RULES.post);
	    });
	    function groupKeywords(group) {
	        if (!(0, applicability_1.shouldUseGroup)(schema, group))
	            return;
	        if (group.type) {
	            gen.if((0, dataType_2.checkDataType)(group.type, data, opts.strictNumbers));
	            iterateKeywords(it, group);
	            if (types.length === 1 && types[0] === group.type && typeErrors) {
	                gen.else();
	                (0, dataType_2.reportTypeError)(it);
	            }
	            gen.endIf();
	        }
	        else {
	            iterateKeywords(it, group);
	        }
	        // TODO make it "ok" call?
	        if (!allErrors)
	            gen.if((0, codegen_1._) `${names_1.default.errors} === ${errsCount || 0}`);
	    }
	}
	function iterateKeywords(it, group) {
	    const { gen, schema, opts: { useDefaults }, } = it;
	    if (useDefaults)
	        (0, defaults_1.assignDefaults)(it, group.type);
	    gen.block(() => {
	        for (const rule of group.rules) {
	            if ((0, applicability_1.shouldUseRule)(schema, rule)) {
	                keywordCode(it, rule.keyword, rule.definition, group.type);
	            }
	        }
	    });
	}
	function checkStrictTypes(it, types) {
	    if (it.schemaEnv.meta || !it.opts.strictTypes)
	        return;
	    checkContextTypes(it, types);
	    if (!it.opts.allowUnionTypes)
	        checkMultipleTypes(it, types);
	    checkKeywordTypes(it, it.dataTypes);
	}
	function checkContextTypes(it, types) {
	    if (!types.length)
	        return;
	    if (!it.dataTypes.length) {
	        it.dataTypes = types;
	        return;
	    }
	    types.forEach((t) => {
	        if (!includesType(it.dataTypes, t)) {
	            strictTypesError(it, `type "${t}" not allowed by context "${it.dataTypes.join(",")}"`);
	        }
	    });
	    narrowSchemaTypes(it, types);
	}
	function checkMultipleTypes(it, ts) {
	    if (ts.length > 1 && !(ts.length === 2 && ts.includes("null"))) {
	        strictTypesError(it, "use allowUnionTypes to allow union type keyword");
	    }
	}
	function checkKeywordTypes(it, ts) {
	    const rules = it.self.RULES.all;
	    for (const keyword in rules) {
	        const rule = rules[keyword];
	        if (typeof rule == "object" && (0, applicability_1.shouldUseRule)(it.schema, rule)) {
	            const { type } = rule.definition;
	            if (type.length && !type.some((t) => hasApplicableType(ts, t))) {
	                strictTypesError(it, `missing type "${type.join(",")}" for keyword "${keyword}"`);
	            }
	        }
	    }
	}
	function hasApplicableType(schTs, kwdT) {
	    return schTs.includes(kwdT) || (kwdT === "number" && schTs.includes("integer"));
	}
	function includesType(ts, t) {
	    return ts.includes(t) || (t === "integer" && ts.includes("number"));
	}
	function narrowSchemaTypes(it, withTypes) {
	    const ts = [];
	    for (const t of it.dataTypes) {
	        if (includesType(withTypes, t))
	            ts.push(t);
	        else if (withTypes.includes("integer") && t === "number")
	            ts.push("integer");
	    }
	    it.dataTypes = ts;
	}
	function strictTypesError(it, msg) {
	    const schemaPath = it.schemaEnv.baseId + it.errSchemaPath;
	    msg += ` at "${schemaPath}" (strictTypes)`;
	    (0, util_1.checkStrictMode)(it, msg, it.opts.strictTypes);
	}
	class KeywordCxt {
	    constructor(it, def, keyword) {
	        (0, keyword_1.validateKeywordUsage)(it, def, keyword);
	        this.gen = it.gen;
	        this.allErrors = it.allErrors;
	        this.keyword = keyword;
	        this.data = it.data;
	        this.schema = it.schema[keyword];
	        this.$data = def.$data && it.opts.$data && this.schema && this.schema.$data;
	        this.schemaValue = (0, util_1.schemaRefOrVal)(it, this.schema, keyword, this.$data);
	        this.schemaType = def.schemaType;
	        this.parentSchema = it.schema;
	        this.params = {};
	        this.it = it;
	        this.def = def;
	        if (this.$data) {
	            this.schemaCode = it.gen.const("vSchema", getData(this.$data, it));
	        }
	        else {
	            this.schemaCode = this.schemaValue;
	            if (!(0, keyword_1.validSchemaType)(this.schema, def.schemaType, def.allowUndefined)) {
	                throw new Error(`${keyword} value must be ${JSON.stringify(def.schemaType)}`);
	            }
	        }
	        if ("code" in def ? def.trackErrors : def.errors !== false) {
	            this.errsCount = it.gen.const("_errs", names_1.default.errors);
	        }
	    }
	    result(condition, successAction, failAction) {
	        this.failResult((0, codegen_1.not)(condition), successAction, failAction);
	    }
	    failResult(condition, successAction, failAction) {
	        this.gen.if(condition);
	        if (failAction)
	            failAction();
	        else
	            this.error();
	        if (successAction) {
	            this.gen.else();
	            successAction();
	            if (this.allErrors)
	                this.gen.endIf();
	        }
	        else {
	            if (this.allErrors)
	                this.gen.endIf();
	            else
	                this.gen.else();
	        }
	    }
	    pass(condition, failAction) {
	        this.failResult((0, codegen_1.not)(condition), undefined, failAction);
	    }
	    fail(condition) {
	        if (condition === undefined) {
	            this.error();
	            if (!this.allErrors)
	                this.gen.if(false); // this branch will be removed by gen.optimize
	            return;
	        }
	        this.gen.if(condition);
	        this.error();
	        if (this.allErrors)
	            this.gen.endIf();
	        else
	            this.gen.else();
	    }
	    fail$data(condition) {
	        if (!this.$data)
	            return this.fail(condition);
	        const { schemaCode } = this;
	        this.fail((0, codegen_1._) `${schemaCode} !== undefined && (${(0, codegen_1.or)(this.invalid$data(), condition)})`);
	    }
	    error(append, errorParams, errorPaths) {
	        if (errorParams) {
	            this.setParams(errorParams);
	            this._error(append, errorPaths);
	            this.setParams({});
	            return;
	        }
	        this._error(append, errorPaths);
	    }
	    _error(append, errorPaths) {
	        (append ? errors_1.reportExtraError : errors_1.reportError)(this, this.def.error, errorPaths);
	    }
	    $dataError() {
	        (0, errors_1.reportError)(this, this.def.$dataError || errors_1.keyword$DataError);
	    }
	    reset() {
	        if (this.errsCount === undefined)
	            throw new Error('add "trackErrors" to keyword definition');
	        (0, errors_1.resetErrorsCount)(this.gen, this.errsCount);
	    }
	    ok(cond) {
	        if (!this.allErrors)
	            this.gen.if(cond);
	    }
	    setParams(obj, assign) {
	        if (assign)
	            Object.assign(this.params, obj);
	        else
	            this.params = obj;
	    }
	    block$data(valid, codeBlock, $dataValid = codegen_1.nil) {
	        this.gen.block(() => {
	            this.check$data(valid, $dataValid);
	            codeBlock();
	        });
	    }
	    check$data(valid = codegen_1.nil, $dataValid = codegen_1.nil) {
	        if (!this.$data)
	            return;
	        const { gen, schemaCode, schemaType, def } = this;
	        gen.if((0, codegen_1.or)((0, codegen_1._) `${schemaCode} === undefined`, $dataValid));
	        if (valid !== codegen_1.nil)
	            gen.assign(valid, true);
	        if (schemaType.length || def.validateSchema) {
	            gen.elseIf(this.invalid$data());
	            this.$dataError();
	            if (valid !== codegen_1.nil)
	                gen.assign(valid, false);
	        }
	        gen.else();
	    }
	    invalid$data() {
	        const { gen, schemaCode, schemaType, def, it } = this;
	        return (0, codegen_1.or)(wrong$DataType(), invalid$DataSchema());
	        function wrong$DataType() {
	            if (schemaType.length) {
	                /* istanbul ignore if */
	                if (!(schemaCode instanceof codegen_1.Name))
	                    throw new Error("ajv implementation error");
	                const st = Array.isArray(schemaType) ? schemaType : [schemaType];
	                return (0, codegen_1._) `${(0, dataType_2.checkDataTypes)(st, schemaCode, it.opts.strictNumbers, dataType_2.DataType.Wrong)}`;
	            }
	            return codegen_1.nil;
	        }
	        function invalid$DataSchema() {
	            if (def.validateSchema) {
	                const validateSchemaRef = gen.scopeValue("validate$data", { ref: def.validateSchema }); // TODO value.code for standalone
	                return (0, codegen_1._) `!${validateSchemaRef}(${schemaCode})`;
	            }
	            return codegen_1.nil;
	        }
	    }
	    subschema(appl, valid) {
	        const subschema = (0, subschema_1.getSubschema)(this.it, appl);
	        (0, subschema_1.extendSubschemaData)(subschema, this.it, appl);
	        (0, subschema_1.extendSubschemaMode)(subschema, appl);
	        const nextContext = { ...this.it, ...subschema, items: undefined, props: undefined };
	        subschemaCode(nextContext, valid);
	        return nextContext;
	    }
	    mergeEvaluated(schemaCxt, toName) {
	        const { it, gen } = this;
	        if (!it.opts.unevaluated)
	            return;
	        if (it.props !== true && schemaCxt.props !== undefined) {
	            it.props = util_1.mergeEvaluated.props(gen, schemaCxt.props, it.props, toName);
	        }
	        if (it.items !== true && schemaCxt.items !== undefined) {
	            it.items = util_1.mergeEvaluated.items(gen, schemaCxt.items, it.items, toName);
	        }
	    }
	    mergeValidEvaluated(schemaCxt, valid) {
	        const { it, gen } = this;
	        if (it.opts.unevaluated && (it.props !== true || it.items !== true)) {
	            gen.if(valid, () => this.mergeEvaluated(schemaCxt, codegen_1.Name));
	            return true;
	        }
	    }
	}
	validate.KeywordCxt = KeywordCxt;
	function keywordCode(it, keyword, def, ruleType) {
	    const cxt = new KeywordCxt(it, def, keyword);
	    if ("code" in def) {
	        def.code(cxt, ruleType);
	    }
	    else if (cxt.$data && def.validate) {
	        (0, keyword_1.funcKeywordCode)(cxt, def);
	    }
	    else if ("macro" in def) {
	        (0, keyword_1.macroKeywordCode)(cxt, def);
	    }
	    else if (def.compile || def.validate) {
	        (0, keyword_1.funcKeywordCode)(cxt, def);
	    }
	}
	const JSON_POINTER = /^\/(?:[^~]|~0|~1)*$/;
	const RELATIVE_JSON_POINTER = /^([0-9]+)(#|\/(?:[^~]|~0|~1)*)?$/;
	function getData($data, { dataLevel, dataNames, dataPathArr }) {
	    let jsonPointer;
	    let data;
	    if ($data === "")
	        return names_1.default.rootData;
	    if ($data[0] === "/") {
	        if (!JSON_POINTER.test($data))
	            throw new Error(`Invalid JSON-pointer: ${$data}`);
	        jsonPointer = $data;
	        data = names_1.default.rootData;
	    }
	    else {
	        const matches = RELATIVE_JSON_POINTER.exec($data);
	        if (!matches)
	            throw new Error(`Invalid JSON-pointer: ${$data}`);
	        const up = +matches[1];
	        jsonPointer = matches[2];
	        if (jsonPointer === "#") {
	            if (up >= dataLevel)
	                throw new Error(errorMsg("property/index", up));
	            return dataPathArr[dataLevel - up];
	        }
	        if (up > dataLevel)
	            throw new Error(errorMsg("data", up));
	        data = dataNames[dataLevel - up];
	        if (!jsonPointer)
	            return data;
	    }
	    let expr = data;
	    const segments = jsonPointer.split("/");
	    for (const segment of segments) {
	        if (segment) {
	            data = (0, codegen_1._) `${data}${(0, codegen_1.getProperty)((0, util_1.unescapeJsonPointer)(segment))}`;
	            expr = (0, codegen_1._) `${expr} && ${data}`;
	        }
	    }
	    return expr;
	    function errorMsg(pointerType, up) {
	        return `Cannot access ${pointerType} ${up} levels up, current level is ${dataLevel}`;
	    }
	}
	validate.getData = getData;
	
	return validate;
}

var validation_error = {};

var hasRequiredValidation_error;

function requireValidation_error () {
	if (hasRequiredValidation_error) return validation_error;
	hasRequiredValidation_error = 1;
	Object.defineProperty(validation_error, "__esModule", { value: true });
	class ValidationError extends Error {
	    constructor(errors) {
	        super("validation failed");
	        this.errors = errors;
	        this.ajv = this.validation = true;
	    }
	}
	validation_error.default = ValidationError;
	
	return validation_error;
}

var ref_error = {};

var hasRequiredRef_error;

function requireRef_error () {
	if (hasRequiredRef_error) return ref_error;
	hasRequiredRef_error = 1;
	Object.defineProperty(ref_error, "__esModule", { value: true });
	const resolve_1 = /*@__PURE__*/ requireResolve();
	class MissingRefError extends Error {
	    constructor(resolver, baseId, ref, msg) {
	        super(msg || `can't resolve reference ${ref} from id ${baseId}`);
	        this.missingRef = (0, resolve_1.resolveUrl)(resolver, baseId, ref);
	        this.missingSchema = (0, resolve_1.normalizeId)((0, resolve_1.getFullPath)(resolver, this.missingRef));
	    }
	}
	ref_error.default = MissingRefError;
	
	return ref_error;
}

var compile = {};

var hasRequiredCompile;

function requireCompile () {
	if (hasRequiredCompile) return compile;
	hasRequiredCompile = 1;
	Object.defineProperty(compile, "__esModule", { value: true });
	compile.resolveSchema = compile.getCompilingSchema = compile.resolveRef = compile.compileSchema = compile.SchemaEnv = void 0;
	const codegen_1 = /*@__PURE__*/ requireCodegen();
	const validation_error_1 = /*@__PURE__*/ requireValidation_error();
	const names_1 = /*@__PURE__*/ requireNames();
	const resolve_1 = /*@__PURE__*/ requireResolve();
	const util_1 = /*@__PURE__*/ requireUtil();
	const validate_1 = /*@__PURE__*/ requireValidate();
	class SchemaEnv {
	    constructor(env) {
	        var _a;
	        this.refs = {};
	        this.dynamicAnchors = {};
	        let schema;
	        if (typeof env.schema == "object")
	            schema = env.schema;
	        this.schema = env.schema;
	        this.schemaId = env.schemaId;
	        this.root = env.root || this;
	        this.baseId = (_a = env.baseId) !== null && _a !== void 0 ? _a : (0, resolve_1.normalizeId)(schema === null || schema === void 0 ? void 0 : schema[env.schemaId || "$id"]);
	        this.schemaPath = env.schemaPath;
	        this.localRefs = env.localRefs;
	        this.meta = env.meta;
	        this.$async = schema === null || schema === void 0 ? void 0 : schema.$async;
	        this.refs = {};
	    }
	}
	compile.SchemaEnv = SchemaEnv;
	// let codeSize = 0
	// let nodeCount = 0
	// Compiles schema in SchemaEnv
	function compileSchema(sch) {
	    // TODO refactor - remove compilations
	    const _sch = getCompilingSchema.call(this, sch);
	    if (_sch)
	        return _sch;
	    const rootId = (0, resolve_1.getFullPath)(this.opts.uriResolver, sch.root.baseId); // TODO if getFullPath removed 1 tests fails
	    const { es5, lines } = this.opts.code;
	    const { ownProperties } = this.opts;
	    const gen = new codegen_1.CodeGen(this.scope, { es5, lines, ownProperties });
	    let _ValidationError;
	    if (sch.$async) {
	        _ValidationError = gen.scopeValue("Error", {
	            ref: validation_error_1.default,
	            code: (0, codegen_1._) `require("ajv/dist/runtime/validation_error").default`,
	        });
	    }
	    const validateName = gen.scopeName("validate");
	    sch.validateName = validateName;
	    const schemaCxt = {
	        gen,
	        allErrors: this.opts.allErrors,
	        data: names_1.default.data,
	        parentData: names_1.default.parentData,
	        parentDataProperty: names_1.default.parentDataProperty,
	        dataNames: [names_1.default.data],
	        dataPathArr: [codegen_1.nil], // TODO can its length be used as dataLevel if nil is removed?
	        dataLevel: 0,
	        dataTypes: [],
	        definedProperties: new Set(),
	        topSchemaRef: gen.scopeValue("schema", this.opts.code.source === true
	            ? { ref: sch.schema, code: (0, codegen_1.stringify)(sch.schema) }
	            : { ref: sch.schema }),
	        validateName,
	        ValidationError: _ValidationError,
	        schema: sch.schema,
	        schemaEnv: sch,
	        rootId,
	        baseId: sch.baseId || rootId,
	        schemaPath: codegen_1.nil,
	        errSchemaPath: sch.schemaPath || (this.opts.jtd ? "" : "#"),
	        errorPath: (0, codegen_1._) `""`,
	        opts: this.opts,
	        self: this,
	    };
	    let sourceCode;
	    try {
	        this._compilations.add(sch);
	        (0, validate_1.validateFunctionCode)(schemaCxt);
	        gen.optimize(this.opts.code.optimize);
	        // gen.optimize(1)
	        const validateCode = gen.toString();
	        sourceCode = `${gen.scopeRefs(names_1.default.scope)}return ${validateCode}`;
	        // console.log((codeSize += sourceCode.length), (nodeCount += gen.nodeCount))
	        if (this.opts.code.process)
	            sourceCode = this.opts.code.process(sourceCode, sch);
	        // console.log("\n\n\n *** \n", sourceCode)
	        const makeValidate = new Function(`${names_1.default.self}`, `${names_1.default.scope}`, sourceCode);
	        const validate = makeValidate(this, this.scope.get());
	        this.scope.value(validateName, { ref: validate });
	        validate.errors = null;
	        validate.schema = sch.schema;
	        validate.schemaEnv = sch;
	        if (sch.$async)
	            validate.$async = true;
	        if (this.opts.code.source === true) {
	            validate.source = { validateName, validateCode, scopeValues: gen._values };
	        }
	        if (this.opts.unevaluated) {
	            const { props, items } = schemaCxt;
	            validate.evaluated = {
	                props: props instanceof codegen_1.Name ? undefined : props,
	                items: items instanceof codegen_1.Name ? undefined : items,
	                dynamicProps: props instanceof codegen_1.Name,
	                dynamicItems: items instanceof codegen_1.Name,
	            };
	            if (validate.source)
	                validate.source.evaluated = (0, codegen_1.stringify)(validate.evaluated);
	        }
	        sch.validate = validate;
	        return sch;
	    }
	    catch (e) {
	        delete sch.validate;
	        delete sch.validateName;
	        if (sourceCode)
	            this.logger.error("Error compiling schema, function code:", sourceCode);
	        // console.log("\n\n\n *** \n", sourceCode, this.opts)
	        throw e;
	    }
	    finally {
	        this._compilations.delete(sch);
	    }
	}
	compile.compileSchema = compileSchema;
	function resolveRef(root, baseId, ref) {
	    var _a;
	    ref = (0, resolve_1.resolveUrl)(this.opts.uriResolver, baseId, ref);
	    const schOrFunc = root.refs[ref];
	    if (schOrFunc)
	        return schOrFunc;
	    let _sch = resolve.call(this, root, ref);
	    if (_sch === undefined) {
	        const schema = (_a = root.localRefs) === null || _a === void 0 ? void 0 : _a[ref]; // TODO maybe localRefs should hold SchemaEnv
	        const { schemaId } = this.opts;
	        if (schema)
	            _sch = new SchemaEnv({ schema, schemaId, root, baseId });
	    }
	    if (_sch === undefined)
	        return;
	    return (root.refs[ref] = inlineOrCompile.call(this, _sch));
	}
	compile.resolveRef = resolveRef;
	function inlineOrCompile(sch) {
	    if ((0, resolve_1.inlineRef)(sch.schema, this.opts.inlineRefs))
	        return sch.schema;
	    return sch.validate ? sch : compileSchema.call(this, sch);
	}
	// Index of schema compilation in the currently compiled list
	function getCompilingSchema(schEnv) {
	    for (const sch of this._compilations) {
	        if (sameSchemaEnv(sch, schEnv))
	            return sch;
	    }
	}
	compile.getCompilingSchema = getCompilingSchema;
	function sameSchemaEnv(s1, s2) {
	    return s1.schema === s2.schema && s1.root === s2.root && s1.baseId === s2.baseId;
	}
	// resolve and compile the references ($ref)
	// TODO returns AnySchemaObject (if the schema can be inlined) or validation function
	function resolve(root, // information about the root schema for the current schema
	ref // reference to resolve
	) {
	    let sch;
	    while (typeof (sch = this.refs[ref]) == "string")
	        ref = sch;
	    return sch || this.schemas[ref] || resolveSchema.call(this, root, ref);
	}
	// Resolve schema, its root and baseId
	function resolveSchema(root, // root object with properties schema, refs TODO below SchemaEnv is assigned to it
	ref // reference to resolve
	) {
	    const p = this.opts.uriResolver.parse(ref);
	    const refPath = (0, resolve_1._getFullPath)(this.opts.uriResolver, p);
	    let baseId = (0, resolve_1.getFullPath)(this.opts.uriResolver, root.baseId, undefined);
	    // TODO `Object.keys(root.schema).length > 0` should not be needed - but removing breaks 2 tests
	    if (Object.keys(root.schema).length > 0 && refPath === baseId) {
	        return getJsonPointer.call(this, p, root);
	    }
	    const id = (0, resolve_1.normalizeId)(refPath);
	    const schOrRef = this.refs[id] || this.schemas[id];
	    if (typeof schOrRef == "string") {
	        const sch = resolveSchema.call(this, root, schOrRef);
	        if (typeof (sch === null || sch === void 0 ? void 0 : sch.schema) !== "object")
	            return;
	        return getJsonPointer.call(this, p, sch);
	    }
	    if (typeof (schOrRef === null || schOrRef === void 0 ? void 0 : schOrRef.schema) !== "object")
	        return;
	    if (!schOrRef.validate)
	        compileSchema.call(this, schOrRef);
	    if (id === (0, resolve_1.normalizeId)(ref)) {
	        const { schema } = schOrRef;
	        const { schemaId } = this.opts;
	        const schId = schema[schemaId];
	        if (schId)
	            baseId = (0, resolve_1.resolveUrl)(this.opts.uriResolver, baseId, schId);
	        return new SchemaEnv({ schema, schemaId, root, baseId });
	    }
	    return getJsonPointer.call(this, p, schOrRef);
	}
	compile.resolveSchema = resolveSchema;
	const PREVENT_SCOPE_CHANGE = new Set([
	    "properties",
	    "patternProperties",
	    "enum",
	    "dependencies",
	    "definitions",
	]);
	function getJsonPointer(parsedRef, { baseId, schema, root }) {
	    var _a;
	    if (((_a = parsedRef.fragment) === null || _a === void 0 ? void 0 : _a[0]) !== "/")
	        return;
	    for (const part of parsedRef.fragment.slice(1).split("/")) {
	        if (typeof schema === "boolean")
	            return;
	        const partSchema = schema[(0, util_1.unescapeFragment)(part)];
	        if (partSchema === undefined)
	            return;
	        schema = partSchema;
	        // TODO PREVENT_SCOPE_CHANGE could be defined in keyword def?
	        const schId = typeof schema === "object" && schema[this.opts.schemaId];
	        if (!PREVENT_SCOPE_CHANGE.has(part) && schId) {
	            baseId = (0, resolve_1.resolveUrl)(this.opts.uriResolver, baseId, schId);
	        }
	    }
	    let env;
	    if (typeof schema != "boolean" && schema.$ref && !(0, util_1.schemaHasRulesButRef)(schema, this.RULES)) {
	        const $ref = (0, resolve_1.resolveUrl)(this.opts.uriResolver, baseId, schema.$ref);
	        env = resolveSchema.call(this, root, $ref);
	    }
	    // even though resolution failed we need to return SchemaEnv to throw exception
	    // so that compileAsync loads missing schema.
	    const { schemaId } = this.opts;
	    env = env || new SchemaEnv({ schema, schemaId, root, baseId });
	    if (env.schema !== env.root.schema)
	        return env;
	    return undefined;
	}
	
	return compile;
}

var $id$1 = "https://raw.githubusercontent.com/ajv-validator/ajv/master/lib/refs/data.json#";
var description = "Meta-schema for $data reference (JSON AnySchema extension proposal)";
var type$1 = "object";
var required$1 = [
	"$data"
];
var properties$2 = {
	$data: {
		type: "string",
		anyOf: [
			{
				format: "relative-json-pointer"
			},
			{
				format: "json-pointer"
			}
		]
	}
};
var additionalProperties$1 = false;
var require$$9 = {
	$id: $id$1,
	description: description,
	type: type$1,
	required: required$1,
	properties: properties$2,
	additionalProperties: additionalProperties$1
};

var uri = {};

var fastUri = {exports: {}};

var utils;
var hasRequiredUtils;

function requireUtils () {
	if (hasRequiredUtils) return utils;
	hasRequiredUtils = 1;

	/** @type {(value: string) => boolean} */
	const isUUID = RegExp.prototype.test.bind(/^[\da-f]{8}-[\da-f]{4}-[\da-f]{4}-[\da-f]{4}-[\da-f]{12}$/iu);

	/** @type {(value: string) => boolean} */
	const isIPv4 = RegExp.prototype.test.bind(/^(?:(?:25[0-5]|2[0-4]\d|1\d{2}|[1-9]\d|\d)\.){3}(?:25[0-5]|2[0-4]\d|1\d{2}|[1-9]\d|\d)$/u);

	/** @type {(value: string) => boolean} */
	const isPort = RegExp.prototype.test.bind(/^\d*$/u);

	/** @type {(value: string) => boolean} */
	const isHexPair = RegExp.prototype.test.bind(/^[\da-f]{2}$/iu);

	/** @type {(value: string) => boolean} */
	const isUnreserved = RegExp.prototype.test.bind(/^[\da-z\-._~]$/iu);

	/** @type {(value: string) => boolean} */
	const isPathCharacter = RegExp.prototype.test.bind(/^[A-Za-z0-9\-._~!$&'()*+,;=:@/]$/u);

	/** @type {(value: string) => boolean} */
	const isQueryFragmentCharacter = RegExp.prototype.test.bind(/^[A-Za-z0-9\-._~!$&'()*+,;=:@/?]$/u);

	/** @type {(value: string) => boolean} */
	const isUserinfoCharacter = RegExp.prototype.test.bind(/^[A-Za-z0-9\-._~!$&'()*+,;=:]$/u);

	const BYTE_HEX = new Array(256);
	{
	  const HEX_DIGITS = '0123456789ABCDEF';
	  for (let i = 0; i < 256; i++) {
	    BYTE_HEX[i] = '%' + HEX_DIGITS[i >> 4] + HEX_DIGITS[i & 0xF];
	  }
	}
	function percentEncodeNonAscii (cp) {
	  if (cp < 0x800) {
	    return BYTE_HEX[0xC0 | (cp >> 6)] +
	           BYTE_HEX[0x80 | (cp & 0x3F)]
	  }
	  if (cp < 0x10000) {
	    return BYTE_HEX[0xE0 | (cp >> 12)] +
	           BYTE_HEX[0x80 | ((cp >> 6) & 0x3F)] +
	           BYTE_HEX[0x80 | (cp & 0x3F)]
	  }
	  return BYTE_HEX[0xF0 | (cp >> 18)] +
	         BYTE_HEX[0x80 | ((cp >> 12) & 0x3F)] +
	         BYTE_HEX[0x80 | ((cp >> 6) & 0x3F)] +
	         BYTE_HEX[0x80 | (cp & 0x3F)]
	}

	/**
	 * @param {Array<string>} input
	 * @returns {string}
	 */
	function stringArrayToHexStripped (input) {
	  let acc = '';
	  let code = 0;
	  let i = 0;

	  for (i = 0; i < input.length; i++) {
	    code = input[i].charCodeAt(0);
	    if (code === 48) {
	      continue
	    }
	    if (!((code >= 48 && code <= 57) || (code >= 65 && code <= 70) || (code >= 97 && code <= 102))) {
	      return ''
	    }
	    acc += input[i];
	    break
	  }

	  for (i += 1; i < input.length; i++) {
	    code = input[i].charCodeAt(0);
	    if (!((code >= 48 && code <= 57) || (code >= 65 && code <= 70) || (code >= 97 && code <= 102))) {
	      return ''
	    }
	    acc += input[i];
	  }
	  return acc
	}

	/** @type {(value: string) => boolean} */
	const isHextet = RegExp.prototype.test.bind(/^[\dA-Fa-f]{1,4}$/);

	/** @type {(value: string) => boolean} */
	const isIPvFuture = RegExp.prototype.test.bind(/^[vV][\dA-Fa-f]+\.[A-Za-z\d\-._~!$&'()*+,;=:]+$/);

	/** @type {(value: string) => boolean} */
	const isZoneCharacter = RegExp.prototype.test.bind(/^[A-Za-z\d\-._~]$/);

	/**
	 * @param {string} value
	 * @returns {boolean}
	 */
	const nonSimpleDomain = RegExp.prototype.test.bind(/[^!"$&'()*+,\-.;=_`a-z{}~]/u);

	/**
	 * @param {string} zone
	 * @returns {boolean}
	 */
	function isZoneIdentifier (zone) {
	  if (zone.length === 0) return false

	  for (let i = 0; i < zone.length; i++) {
	    if (isZoneCharacter(zone[i])) continue
	    if (zone[i] === '%' && i + 2 < zone.length && isHexPair(zone.slice(i + 1, i + 3))) {
	      i += 2;
	      continue
	    }
	    return false
	  }

	  return true
	}

	/**
	 * Compresses the longest run of zero hextets to "::" per RFC 5952. A run of a
	 * single zero hextet is left uncompressed. On ties the leftmost run wins.
	 *
	 * @param {string[]} hextets
	 * @returns {string}
	 */
	function compressIPv6ZeroRun (hextets) {
	  let bestStart = -1;
	  let bestLength = 0;
	  let runStart = -1;
	  let runLength = 0;
	  for (let i = 0; i < hextets.length; i++) {
	    if (hextets[i] === '0') {
	      if (runStart === -1) runStart = i;
	      runLength++;
	      if (runLength > bestLength) {
	        bestLength = runLength;
	        bestStart = runStart;
	      }
	    } else {
	      runStart = -1;
	      runLength = 0;
	    }
	  }

	  if (bestLength < 2) return hextets.join(':')

	  const head = hextets.slice(0, bestStart).join(':');
	  const tail = hextets.slice(bestStart + bestLength).join(':');
	  return head + '::' + tail
	}

	/**
	 * Validates an IPv6 address against the alternatives in RFC 3986 section
	 * 3.2.2 and returns the same address with leading hextet zeroes removed.
	 * An embedded IPv4 address counts as two hextets and is only valid at the end.
	 *
	 * @param {string} input
	 * @returns {string|undefined}
	 */
	function normalizeIPv6Address (input) {
	  const compression = input.indexOf('::');
	  if (compression !== -1 && input.indexOf('::', compression + 1) !== -1) return undefined

	  const left = compression === -1 ? input.split(':') : input.slice(0, compression).split(':');
	  const right = compression === -1 ? [] : input.slice(compression + 2).split(':');
	  if (compression !== -1) {
	    if (left.length === 1 && left[0] === '') left.length = 0;
	    if (right.length === 1 && right[0] === '') right.length = 0;
	  }

	  const parts = left.concat(right);
	  let hextetCount = 0;
	  for (let i = 0; i < parts.length; i++) {
	    const part = parts[i];
	    if (part === '') return undefined

	    if (part.indexOf('.') !== -1) {
	      if (i !== parts.length - 1 || (compression !== -1 && right.length === 0) || !isIPv4(part)) return undefined
	      hextetCount += 2;
	      continue
	    }

	    if (!isHextet(part)) return undefined
	    parts[i] = parseInt(part, 16).toString(16);
	    hextetCount++;
	  }

	  if (compression === -1) {
	    if (hextetCount !== 8) return undefined
	    return compressIPv6ZeroRun(parts)
	  }
	  if (hextetCount >= 8) return undefined

	  // expand "::" then re-compress the longest run for a canonical result
	  const expanded = parts.slice(0, left.length);
	  for (let i = hextetCount; i < 8; i++) expanded.push('0');
	  for (let i = left.length; i < parts.length; i++) expanded.push(parts[i]);
	  return compressIPv6ZeroRun(expanded)
	}

	/**
	 * @typedef {Object} NormalizeIPv6Result
	 * @property {string} host - The normalized host.
	 * @property {string} [escapedHost] - The escaped host.
	 * @property {boolean} isIPV6 - Indicates if the host is an IPv6 address.
	 * @property {boolean} [isIPVFuture] - Indicates if the host is an IPvFuture literal.
	 * @property {boolean} [error] - Indicates if a bracketed IP literal is malformed.
	 */

	/**
	 * Validates and normalizes a bracketed IP literal. Raw zone separators remain
	 * accepted for backwards compatibility, while encoded separators and zone
	 * contents follow RFC 6874.
	 *
	 * @param {string} host
	 * @returns {NormalizeIPv6Result}
	 */
	function normalizeIPv6 (host) {
	  const bracketed = host[0] === '[' && host[host.length - 1] === ']';
	  const hasBracket = host[0] === '[' || host[host.length - 1] === ']';
	  if (hasBracket && !bracketed) return { host, isIPV6: false, error: true }

	  let input = bracketed ? host.slice(1, -1) : host;
	  if (bracketed && isIPvFuture(input)) {
	    input = input.toLowerCase();
	    return { host: `[${input}]`, escapedHost: input, isIPV6: false, isIPVFuture: true }
	  }

	  if (findToken(input, ':') < 2) {
	    return { host, isIPV6: false, error: bracketed }
	  }

	  let zoneIdentifier = '';
	  const zoneSeparator = input.indexOf('%');
	  if (zoneSeparator !== -1) {
	    const separatorLength = input.slice(zoneSeparator, zoneSeparator + 3).toLowerCase() === '%25' ? 3 : 1;
	    zoneIdentifier = input.slice(zoneSeparator + separatorLength);
	    if (!isZoneIdentifier(zoneIdentifier)) return { host, isIPV6: false, error: true }
	    input = input.slice(0, zoneSeparator);
	  }

	  const address = normalizeIPv6Address(input);
	  if (address === undefined) return { host, isIPV6: false, error: true }

	  return {
	    host: address + (zoneIdentifier ? '%' + zoneIdentifier : ''),
	    escapedHost: address + (zoneIdentifier ? '%25' + zoneIdentifier : ''),
	    isIPV6: true
	  }
	}

	/**
	 * @param {string} str
	 * @param {string} token
	 * @returns {number}
	 */
	function findToken (str, token) {
	  let ind = 0;
	  for (let i = 0; i < str.length; i++) {
	    if (str[i] === token) ind++;
	  }
	  return ind
	}

	/**
	 * @param {string} path
	 * @returns {string}
	 *
	 * @see https://datatracker.ietf.org/doc/html/rfc3986#section-5.2.4
	 */
	function removeDotSegments (path) {
	  let input = path;
	  const output = [];
	  let nextSlash = -1;
	  let len = 0;

	  // eslint-disable-next-line no-cond-assign
	  while (len = input.length) {
	    if (len === 1) {
	      if (input === '.') {
	        break
	      } else if (input === '/') {
	        output.push('/');
	        break
	      } else {
	        output.push(input);
	        break
	      }
	    } else if (len === 2) {
	      if (input[0] === '.') {
	        if (input[1] === '.') {
	          break
	        } else if (input[1] === '/') {
	          input = input.slice(2);
	          continue
	        }
	      } else if (input[0] === '/') {
	        if (input[1] === '.' || input[1] === '/') {
	          output.push('/');
	          break
	        }
	      }
	    } else if (len === 3) {
	      if (input === '/..') {
	        if (output.length !== 0) {
	          output.pop();
	        }
	        output.push('/');
	        break
	      }
	    }
	    if (input[0] === '.') {
	      if (input[1] === '.') {
	        if (input[2] === '/') {
	          input = input.slice(3);
	          continue
	        }
	      } else if (input[1] === '/') {
	        input = input.slice(2);
	        continue
	      }
	    } else if (input[0] === '/') {
	      if (input[1] === '.') {
	        if (input[2] === '/') {
	          input = input.slice(2);
	          continue
	        } else if (input[2] === '.') {
	          if (input[3] === '/') {
	            input = input.slice(3);
	            if (output.length !== 0) {
	              output.pop();
	            }
	            continue
	          }
	        }
	      }
	    }

	    // Rule 2E: Move normal path segment to output
	    if ((nextSlash = input.indexOf('/', 1)) === -1) {
	      output.push(input);
	      break
	    } else {
	      output.push(input.slice(0, nextSlash));
	      input = input.slice(nextSlash);
	    }
	  }

	  return output.join('')
	}

	/**
	 * Removes dot segments from the path of a relative reference (a path that does
	 * not start with "/") without changing what it resolves to against any base.
	 * Unlike `removeDotSegments`, leading ".." segments that cannot be collapsed
	 * are kept, the result never becomes root-relative, and a result that would be
	 * empty or start with an empty segment is prefixed with "." (an empty path
	 * means "same document" and a leading "//" would introduce an authority).
	 *
	 * @param {string} path
	 * @returns {string}
	 */
	function removeDotSegmentsRelative (path) {
	  if (path === '' || path[0] === '/') {
	    return removeDotSegments(path)
	  }

	  const segments = path.split('/');
	  const last = segments.length - 1;
	  /** @type {string[]} */
	  const output = [];
	  let trailingDirectory = false;

	  for (let i = 0; i <= last; i++) {
	    const segment = segments[i];
	    if (segment === '.' || segment === '..') {
	      if (segment === '..') {
	        if (output.length !== 0 && output[output.length - 1] !== '..') {
	          output.pop();
	        } else {
	          output.push('..');
	        }
	      }
	      trailingDirectory = i === last;
	    } else {
	      output.push(segment);
	    }
	  }

	  if (trailingDirectory && output[output.length - 1] !== '..') {
	    output.push('');
	  }
	  if (output.length === 0 || output[0] === '' || output[0].includes(':')) {
	    // An empty path, a leading empty segment ("//"), or a first segment
	    // containing ":" (which would be mistaken for a scheme, RFC 3986 section
	    // 4.2) must stay behind a "." segment so the reference keeps its meaning.
	    output.unshift('.');
	  }

	  return output.join('/')
	}

	/**
	 * Re-escape RFC 3986 gen-delims that must not appear literally in the host.
	 * After the URI regex parses, these characters cannot be literal in the host
	 * field, so any that appear after decoding came from percent-encoding and
	 * must be restored to prevent authority structure changes.
	 *
	 * @param {string} host
	 * @param {boolean} isIP - true for IPv4/IPv6 hosts (skip colon re-escaping)
	 * @returns {string}
	 */
	const HOST_DELIMS = { '@': '%40', '/': '%2F', '?': '%3F', '#': '%23', ':': '%3A' };
	const HOST_DELIM_RE = /[@/?#:]/g;
	const HOST_DELIM_NO_COLON_RE = /[@/?#]/g;

	function reescapeHostDelimiters (host, isIP) {
	  const re = isIP ? HOST_DELIM_NO_COLON_RE : HOST_DELIM_RE;
	  re.lastIndex = 0;
	  return host.replace(re, (ch) => HOST_DELIMS[ch])
	}

	/**
	 * Normalizes percent escapes and optionally decodes only unreserved ASCII bytes.
	 * Reserved delimiters such as `%2F` stay escaped; `%2E` is unreserved.
	 *
	 * @param {string} input
	 * @param {boolean} [decodeUnreserved=false]
	 * @returns {string}
	 */
	function normalizePercentEncoding (input, decodeUnreserved = false) {
	  if (input.indexOf('%') === -1) {
	    return input
	  }

	  let output = '';

	  for (let i = 0; i < input.length; i++) {
	    if (input[i] === '%' && i + 2 < input.length) {
	      const hex = input.slice(i + 1, i + 3);
	      if (isHexPair(hex)) {
	        const normalizedHex = hex.toUpperCase();
	        const decoded = String.fromCharCode(parseInt(normalizedHex, 16));

	        if (decodeUnreserved && isUnreserved(decoded)) {
	          output += decoded;
	        } else {
	          output += '%' + normalizedHex;
	        }

	        i += 2;
	        continue
	      }
	    }

	    output += input[i];
	  }

	  return output
	}

	/**
	 * Normalizes path data without turning reserved escapes into live path syntax.
	 * Valid escapes are uppercased, raw unsafe characters are escaped, and only
	 * unreserved bytes that are not `.` are decoded.
	 *
	 * @param {string} input
	 * @returns {string}
	 */
	function normalizePathEncoding (input) {
	  let output = '';

	  for (let i = 0; i < input.length; i++) {
	    const ch = input[i];
	    if (ch === '%' && i + 2 < input.length) {
	      const hex = input.slice(i + 1, i + 3);
	      if (isHexPair(hex)) {
	        const normalizedHex = hex.toUpperCase();
	        const decoded = String.fromCharCode(parseInt(normalizedHex, 16));

	        if (decoded !== '.' && isUnreserved(decoded)) {
	          output += decoded;
	        } else {
	          output += '%' + normalizedHex;
	        }

	        i += 2;
	        continue
	      }
	    }

	    if (isPathCharacter(ch)) {
	      output += ch;
	    } else {
	      const code = input.charCodeAt(i);
	      if (code < 0x80) {
	        output += isEscapeSafe(code) ? ch : BYTE_HEX[code];
	      } else if (code < 0xD800 || code > 0xDFFF) {
	        output += percentEncodeNonAscii(code);
	      } else if (code <= 0xDBFF && i + 1 < input.length) {
	        const low = input.charCodeAt(i + 1);
	        if (low >= 0xDC00 && low <= 0xDFFF) {
	          output += percentEncodeNonAscii(0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00));
	          i++;
	        } else {
	          output += percentEncodeNonAscii(0xFFFD);
	        }
	      } else {
	        output += percentEncodeNonAscii(0xFFFD);
	      }
	    }
	  }

	  return output
	}

	/**
	 * Serializes a path without rewriting reserved data. Raw RFC 3986 path
	 * characters remain literal, valid escapes are preserved and uppercased, and
	 * everything else is UTF-8 percent-encoded. In a path-noscheme, a colon in the
	 * first segment must be escaped so the result cannot be parsed as a scheme.
	 *
	 * @param {string} input
	 * @param {boolean} [pathNoScheme=false]
	 * @returns {string}
	 */
	function serializePathEncoding (input, pathNoScheme = false) {
	  let output = '';
	  let firstSegment = pathNoScheme && input[0] !== '/';

	  for (let i = 0; i < input.length; i++) {
	    const ch = input[i];
	    if (ch === '%' && i + 2 < input.length) {
	      const hex = input.slice(i + 1, i + 3);
	      if (isHexPair(hex)) {
	        output += '%' + hex.toUpperCase();
	        i += 2;
	        continue
	      }
	    }

	    if (ch === '/') {
	      firstSegment = false;
	    }

	    if (isPathCharacter(ch) && (ch !== ':' || !firstSegment)) {
	      output += ch;
	    } else {
	      const code = input.charCodeAt(i);
	      if (code < 0x80) {
	        output += BYTE_HEX[code];
	      } else if (code < 0xD800 || code > 0xDFFF) {
	        output += percentEncodeNonAscii(code);
	      } else if (code <= 0xDBFF && i + 1 < input.length) {
	        const low = input.charCodeAt(i + 1);
	        if (low >= 0xDC00 && low <= 0xDFFF) {
	          output += percentEncodeNonAscii(0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00));
	          i++;
	        } else {
	          output += percentEncodeNonAscii(0xFFFD);
	        }
	      } else {
	        output += percentEncodeNonAscii(0xFFFD);
	      }
	    }
	  }

	  return output
	}

	/**
	 * Percent-encodes a URI component using its RFC 3986 literal character set.
	 * Existing valid escapes are preserved and normalized to uppercase hex.
	 *
	 * @param {string} input
	 * @param {(value: string) => boolean} isAllowed
	 * @returns {string}
	 */
	function encodeComponent (input, isAllowed) {
	  let output = '';

	  for (let i = 0; i < input.length; i++) {
	    const ch = input[i];
	    if (ch === '%' && i + 2 < input.length) {
	      const hex = input.slice(i + 1, i + 3);
	      if (isHexPair(hex)) {
	        output += '%' + hex.toUpperCase();
	        i += 2;
	        continue
	      }
	    }

	    if (isAllowed(ch)) {
	      output += ch;
	    } else {
	      const code = input.charCodeAt(i);
	      if (code < 0x80) {
	        output += BYTE_HEX[code];
	      } else if (code < 0xD800 || code > 0xDFFF) {
	        output += percentEncodeNonAscii(code);
	      } else if (code <= 0xDBFF && i + 1 < input.length) {
	        const low = input.charCodeAt(i + 1);
	        if (low >= 0xDC00 && low <= 0xDFFF) {
	          output += percentEncodeNonAscii(0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00));
	          i++;
	        } else {
	          output += percentEncodeNonAscii(0xFFFD);
	        }
	      } else {
	        output += percentEncodeNonAscii(0xFFFD);
	      }
	    }
	  }

	  return output
	}

	/**
	 * Encodes userinfo while preserving its RFC 3986 §3.2.1 literal characters.
	 * In particular, authority delimiters such as `@`, `/`, `?`, and `#` are data.
	 *
	 * @param {string} input
	 * @returns {string}
	 */
	function encodeUserinfo (input) {
	  return encodeComponent(input, isUserinfoCharacter)
	}

	/**
	 * Encodes query data using the RFC 3986 §3.4 grammar. A literal `#` must be
	 * escaped because it would otherwise begin the fragment component.
	 *
	 * @param {string} input
	 * @returns {string}
	 */
	function encodeQuery (input) {
	  return encodeComponent(input, isQueryFragmentCharacter)
	}

	/**
	 * Encodes fragment data using the RFC 3986 §3.5 grammar.
	 *
	 * @param {string} input
	 * @returns {string}
	 */
	function encodeFragment (input) {
	  return encodeComponent(input, isQueryFragmentCharacter)
	}

	function isEscapeSafe (cp) {
	  return (
	    (cp >= 0x30 && cp <= 0x39) ||
	    (cp >= 0x41 && cp <= 0x5A) ||
	    (cp >= 0x61 && cp <= 0x7A) ||
	    cp === 0x2A || cp === 0x2B || cp === 0x2D || cp === 0x2E ||
	    cp === 0x2F || cp === 0x40 || cp === 0x5F
	  )
	}

	/**
	 * Normalizes the percent-encoding of a query or fragment component.
	 *
	 * Like `normalizePathEncoding`, but uses the query/fragment character set
	 * (which additionally allows `?`) and decodes `.` since it has no dot-segment
	 * meaning outside of a path.
	 *
	 * @param {string} input
	 * @returns {string}
	 */
	function normalizeQueryFragmentEncoding (input) {
	  let output = '';

	  for (let i = 0; i < input.length; i++) {
	    const ch = input[i];
	    if (ch === '%' && i + 2 < input.length) {
	      const hex = input.slice(i + 1, i + 3);
	      if (isHexPair(hex)) {
	        const normalizedHex = hex.toUpperCase();
	        const decoded = String.fromCharCode(parseInt(normalizedHex, 16));

	        if (isUnreserved(decoded)) {
	          output += decoded;
	        } else {
	          output += '%' + normalizedHex;
	        }

	        i += 2;
	        continue
	      }
	    }

	    if (isQueryFragmentCharacter(ch)) {
	      output += ch;
	    } else {
	      const code = input.charCodeAt(i);
	      if (code < 0x80) {
	        output += isEscapeSafe(code) ? ch : BYTE_HEX[code];
	      } else if (code < 0xD800 || code > 0xDFFF) {
	        output += percentEncodeNonAscii(code);
	      } else if (code <= 0xDBFF && i + 1 < input.length) {
	        const low = input.charCodeAt(i + 1);
	        if (low >= 0xDC00 && low <= 0xDFFF) {
	          output += percentEncodeNonAscii(0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00));
	          i++;
	        } else {
	          output += percentEncodeNonAscii(0xFFFD);
	        }
	      } else {
	        output += percentEncodeNonAscii(0xFFFD);
	      }
	    }
	  }

	  return output
	}

	/**
	 * Escapes a component while preserving existing valid percent escapes.
	 *
	 * @param {string} input
	 * @returns {string}
	 */
	function escapePreservingEscapes (input) {
	  let output = '';

	  for (let i = 0; i < input.length; i++) {
	    if (input[i] === '%' && i + 2 < input.length) {
	      const hex = input.slice(i + 1, i + 3);
	      if (isHexPair(hex)) {
	        output += '%' + hex.toUpperCase();
	        i += 2;
	        continue
	      }
	    }

	    output += escape(input[i]);
	  }

	  return output
	}

	/**
	 * @param {import('../types/index').URIComponent} component
	 * @returns {string|undefined}
	 */
	function recomposeAuthority (component) {
	  const uriTokens = [];

	  if (component.userinfo !== undefined) {
	    uriTokens.push(encodeUserinfo(component.userinfo));
	    uriTokens.push('@');
	  }

	  if (component.host !== undefined) {
	    let host = component.host;
	    if (!isIPv4(host)) {
	      let ipV6res = normalizeIPv6(host);
	      if (ipV6res.isIPV6 !== true && ipV6res.isIPVFuture !== true) {
	        // Decode only unreserved bytes, once. In particular, keep %25 encoded
	        // so it cannot introduce a second escape during recomposition.
	        host = normalizePercentEncoding(host, true);
	        ipV6res = normalizeIPv6(host);
	      }
	      if (ipV6res.isIPV6 === true || ipV6res.isIPVFuture === true) {
	        host = `[${ipV6res.escapedHost}]`;
	      } else {
	        host = reescapeHostDelimiters(host, false);
	      }
	    }
	    uriTokens.push(host);
	  }

	  if (typeof component.port === 'number' || typeof component.port === 'string') {
	    const port = String(component.port);
	    if (!isPort(port)) {
	      throw new TypeError('URI port is malformed.')
	    }
	    uriTokens.push(':');
	    uriTokens.push(port);
	  }

	  return uriTokens.length ? uriTokens.join('') : undefined
	}
	utils = {
	  nonSimpleDomain,
	  recomposeAuthority,
	  reescapeHostDelimiters,
	  normalizePercentEncoding,
	  normalizePathEncoding,
	  serializePathEncoding,
	  normalizeQueryFragmentEncoding,
	  encodeUserinfo,
	  encodeQuery,
	  encodeFragment,
	  escapePreservingEscapes,
	  removeDotSegments,
	  removeDotSegmentsRelative,
	  isIPv4,
	  isUUID,
	  normalizeIPv6,
	  stringArrayToHexStripped
	};
	return utils;
}

var schemes;
var hasRequiredSchemes;

function requireSchemes () {
	if (hasRequiredSchemes) return schemes;
	hasRequiredSchemes = 1;

	const { isUUID } = requireUtils();
	const URN_REG = /^([\da-z][\d\-a-z]{0,31}):((?:[\w!$'()*+,\-./:;=@]|%[\da-f]{2})+)$/iu;

	const supportedSchemeNames = /** @type {const} */ (['http', 'https', 'ws',
	  'wss', 'urn', 'urn:uuid']);

	/** @typedef {supportedSchemeNames[number]} SchemeName */

	/**
	 * @param {string} name
	 * @returns {name is SchemeName}
	 */
	function isValidSchemeName (name) {
	  return supportedSchemeNames.indexOf(/** @type {*} */ (name)) !== -1
	}

	/**
	 * @callback SchemeFn
	 * @param {import('../types/index').URIComponent} component
	 * @param {import('../types/index').Options} options
	 * @returns {import('../types/index').URIComponent}
	 */

	/**
	 * @typedef {Object} SchemeHandler
	 * @property {SchemeName} scheme - The scheme name.
	 * @property {boolean} [domainHost] - Indicates if the scheme supports domain hosts.
	 * @property {SchemeFn} parse - Function to parse the URI component for this scheme.
	 * @property {SchemeFn} serialize - Function to serialize the URI component for this scheme.
	 * @property {boolean} [skipNormalize] - Indicates if normalization should be skipped for this scheme.
	 * @property {boolean} [absolutePath] - Indicates if the scheme uses absolute paths.
	 * @property {boolean} [unicodeSupport] - Indicates if the scheme supports Unicode.
	 */

	/**
	 * @param {import('../types/index').URIComponent} wsComponent
	 * @returns {boolean}
	 */
	function wsIsSecure (wsComponent) {
	  if (wsComponent.secure === true) {
	    return true
	  } else if (wsComponent.secure === false) {
	    return false
	  } else if (wsComponent.scheme) {
	    return (
	      wsComponent.scheme.length === 3 &&
	      (wsComponent.scheme[0] === 'w' || wsComponent.scheme[0] === 'W') &&
	      (wsComponent.scheme[1] === 's' || wsComponent.scheme[1] === 'S') &&
	      (wsComponent.scheme[2] === 's' || wsComponent.scheme[2] === 'S')
	    )
	  } else {
	    return false
	  }
	}

	/** @type {SchemeFn} */
	function httpParse (component) {
	  if (!component.host) {
	    component.error = component.error || 'HTTP URIs must have a host.';
	  }

	  return component
	}

	/** @type {SchemeFn} */
	function httpSerialize (component) {
	  const secure = String(component.scheme).toLowerCase() === 'https';

	  // normalize the default port
	  if (component.port === (secure ? 443 : 80) || component.port === '') {
	    component.port = undefined;
	  }

	  // normalize the empty path
	  if (!component.path) {
	    component.path = '/';
	  }

	  // NOTE: We do not parse query strings for HTTP URIs
	  // as WWW Form Url Encoded query strings are part of the HTML4+ spec,
	  // and not the HTTP spec.

	  return component
	}

	/** @type {SchemeFn} */
	function wsParse (wsComponent) {
	// indicate if the secure flag is set
	  wsComponent.secure = wsIsSecure(wsComponent);

	  // construct resouce name
	  wsComponent.resourceName = (wsComponent.path || '/') + (wsComponent.query ? '?' + wsComponent.query : '');
	  wsComponent.path = undefined;
	  wsComponent.query = undefined;

	  return wsComponent
	}

	/** @type {SchemeFn} */
	function wsSerialize (wsComponent) {
	// normalize the default port
	  if (wsComponent.port === (wsIsSecure(wsComponent) ? 443 : 80) || wsComponent.port === '') {
	    wsComponent.port = undefined;
	  }

	  // ensure scheme matches secure flag
	  if (typeof wsComponent.secure === 'boolean') {
	    wsComponent.scheme = (wsComponent.secure ? 'wss' : 'ws');
	    wsComponent.secure = undefined;
	  }

	  // reconstruct path from resource name
	  if (wsComponent.resourceName) {
	    const queryIndex = wsComponent.resourceName.indexOf('?');
	    const path = queryIndex === -1
	      ? wsComponent.resourceName
	      : wsComponent.resourceName.slice(0, queryIndex);
	    wsComponent.path = (path && path !== '/' ? path : undefined);
	    wsComponent.query = queryIndex === -1
	      ? undefined
	      : wsComponent.resourceName.slice(queryIndex + 1);
	    wsComponent.resourceName = undefined;
	  }

	  // forbid fragment component
	  wsComponent.fragment = undefined;

	  return wsComponent
	}

	/** @type {SchemeFn} */
	function urnParse (urnComponent, options) {
	  if (!urnComponent.path) {
	    urnComponent.error = 'URN can not be parsed';
	    return urnComponent
	  }
	  const matches = urnComponent.path.match(URN_REG);
	  if (matches && matches[0] === urnComponent.path) {
	    const scheme = options.scheme || urnComponent.scheme || 'urn';
	    urnComponent.nid = matches[1].toLowerCase();
	    urnComponent.nss = matches[2];
	    const urnScheme = `${scheme}:${options.nid || urnComponent.nid}`;
	    const schemeHandler = getSchemeHandler(urnScheme);
	    urnComponent.path = undefined;

	    if (schemeHandler) {
	      urnComponent = schemeHandler.parse(urnComponent, options);
	    }
	  } else {
	    urnComponent.error = urnComponent.error || 'URN can not be parsed.';
	  }

	  return urnComponent
	}

	/** @type {SchemeFn} */
	function urnSerialize (urnComponent, options) {
	  if (urnComponent.nid === undefined) {
	    throw new Error('URN without nid cannot be serialized')
	  }
	  const scheme = options.scheme || urnComponent.scheme || 'urn';
	  const nid = urnComponent.nid.toLowerCase();
	  const urnScheme = `${scheme}:${options.nid || nid}`;
	  const schemeHandler = getSchemeHandler(urnScheme);

	  if (schemeHandler) {
	    urnComponent = schemeHandler.serialize(urnComponent, options);
	  }

	  const uriComponent = urnComponent;
	  const nss = urnComponent.nss;
	  uriComponent.path = `${nid || options.nid}:${nss}`;

	  options.skipEscape = true;
	  return uriComponent
	}

	/** @type {SchemeFn} */
	function urnuuidParse (urnComponent, options) {
	  const uuidComponent = urnComponent;
	  uuidComponent.uuid = uuidComponent.nss;
	  uuidComponent.nss = undefined;

	  if (!options.tolerant && (!uuidComponent.uuid || !isUUID(uuidComponent.uuid))) {
	    uuidComponent.error = uuidComponent.error || 'UUID is not valid.';
	  }

	  return uuidComponent
	}

	/** @type {SchemeFn} */
	function urnuuidSerialize (uuidComponent) {
	  const urnComponent = uuidComponent;
	  // normalize UUID
	  urnComponent.nss = (uuidComponent.uuid || '').toLowerCase();
	  return urnComponent
	}

	const http = /** @type {SchemeHandler} */ ({
	  scheme: 'http',
	  domainHost: true,
	  parse: httpParse,
	  serialize: httpSerialize
	});

	const https = /** @type {SchemeHandler} */ ({
	  scheme: 'https',
	  domainHost: http.domainHost,
	  parse: httpParse,
	  serialize: httpSerialize
	});

	const ws = /** @type {SchemeHandler} */ ({
	  scheme: 'ws',
	  domainHost: true,
	  parse: wsParse,
	  serialize: wsSerialize
	});

	const wss = /** @type {SchemeHandler} */ ({
	  scheme: 'wss',
	  domainHost: ws.domainHost,
	  parse: ws.parse,
	  serialize: ws.serialize
	});

	const urn = /** @type {SchemeHandler} */ ({
	  scheme: 'urn',
	  parse: urnParse,
	  serialize: urnSerialize,
	  skipNormalize: true
	});

	const urnuuid = /** @type {SchemeHandler} */ ({
	  scheme: 'urn:uuid',
	  parse: urnuuidParse,
	  serialize: urnuuidSerialize,
	  skipNormalize: true
	});

	const SCHEMES = /** @type {Record<SchemeName, SchemeHandler>} */ ({
	  http,
	  https,
	  ws,
	  wss,
	  urn,
	  'urn:uuid': urnuuid
	});

	Object.setPrototypeOf(SCHEMES, null);

	/**
	 * @param {string|undefined} scheme
	 * @returns {SchemeHandler|undefined}
	 */
	function getSchemeHandler (scheme) {
	  return (
	    scheme && (
	      SCHEMES[/** @type {SchemeName} */ (scheme)] ||
	      SCHEMES[/** @type {SchemeName} */(scheme.toLowerCase())])
	  ) ||
	    undefined
	}

	schemes = {
	  wsIsSecure,
	  SCHEMES,
	  isValidSchemeName,
	  getSchemeHandler,
	};
	return schemes;
}

var hasRequiredFastUri;

function requireFastUri () {
	if (hasRequiredFastUri) return fastUri.exports;
	hasRequiredFastUri = 1;

	const { normalizeIPv6, removeDotSegments, removeDotSegmentsRelative, recomposeAuthority, normalizePercentEncoding, normalizePathEncoding, serializePathEncoding, normalizeQueryFragmentEncoding, encodeQuery, encodeFragment, reescapeHostDelimiters, isIPv4, nonSimpleDomain } = requireUtils();
	const { SCHEMES, getSchemeHandler } = requireSchemes();

	const VALID_SCHEME = /^[A-Za-z][A-Za-z0-9+.-]*$/u;
	const MALFORMED_SCHEME_ERROR = 'URI scheme is malformed.';
	const MALFORMED_HOST_ERROR = 'URI host is malformed.';
	// ASCII characters outside the RFC 3986 reg-name set (unreserved, sub-delims
	// and "%" for pct-encoded): C0 controls, space, DEL, and "#/:<>?@[\]^`{|}.
	const FORBIDDEN_DOMAIN_HOST_CHARACTER = /[\0-\x20"#/:<>?@[\\\]^`{|}\x7F]/u;

	/**
	 * RFC 3986 section 3.1 does not allow percent-encoding in a scheme, so the
	 * scheme is validated as-is and never decoded. Decoding would let inert input
	 * such as `%6Aavascript:` become a live `javascript:` scheme.
	 *
	 * @param {string} scheme
	 * @returns {string}
	 */
	function validateScheme (scheme) {
	  const stringScheme = String(scheme);
	  if (!VALID_SCHEME.test(stringScheme)) {
	    throw new TypeError(MALFORMED_SCHEME_ERROR)
	  }
	  return stringScheme
	}

	/**
	 * @template {import('./types/index').URIComponent|string} T
	 * @param {T} uri
	 * @param {import('./types/index').Options} [options]
	 * @returns {T}
	 */
	function normalize (uri, options) {
	  if (typeof uri === 'string') {
	    uri = /** @type {T} */ (normalizeString(uri, options));
	  } else if (typeof uri === 'object') {
	    uri = /** @type {T} */ (parse(serialize(uri, options), options));
	  }
	  return uri
	}

	/**
	 * @param {string} baseURI
	 * @param {string} relativeURI
	 * @param {import('./types/index').Options} [options]
	 * @returns {string}
	 */
	function resolve (baseURI, relativeURI, options) {
	  const schemelessOptions = options ? Object.assign({ scheme: 'null' }, options) : { scheme: 'null' };
	  const {
	    parsed: baseParsed,
	    malformedAuthorityOrPort: baseMalformed,
	    malformedPercentEncoding: baseMalformedPercentEncoding,
	    malformedSchemeSpecific: baseMalformedSchemeSpecific,
	    malformedHost: baseMalformedHost,
	    malformedScheme: baseMalformedScheme
	  } = parseWithStatus(baseURI, schemelessOptions);
	  const {
	    parsed: relativeParsed,
	    malformedAuthorityOrPort: relativeMalformed,
	    malformedPercentEncoding: relativeMalformedPercentEncoding,
	    malformedSchemeSpecific: relativeMalformedSchemeSpecific,
	    malformedHost: relativeMalformedHost,
	    malformedScheme: relativeMalformedScheme
	  } = parseWithStatus(relativeURI, schemelessOptions);
	  if (
	    baseMalformed ||
	    relativeMalformed ||
	    baseMalformedPercentEncoding ||
	    relativeMalformedPercentEncoding ||
	    baseMalformedSchemeSpecific ||
	    relativeMalformedSchemeSpecific ||
	    baseMalformedHost ||
	    relativeMalformedHost ||
	    baseMalformedScheme ||
	    relativeMalformedScheme
	  ) {
	    throw new Error(baseParsed.error || relativeParsed.error || 'URI is malformed.')
	  }
	  const resolved = resolveComponent(baseParsed, relativeParsed, schemelessOptions, true);
	  const resolvedSchemeHandler = getSchemeHandler((options && options.scheme) || resolved.scheme);
	  const resolvedHost = resolved.host;
	  const resolvedHostIsIP = resolvedHost !== undefined && resolvedHost !== '' &&
	    (isIPv4(resolvedHost) || normalizeIPv6(resolvedHost).isIPV6);
	  // Inputs are parsed scheme-neutrally, so delimiters and controls in a domain
	  // host are only detected here, once the final scheme is known. They always
	  // fail closed, including in percent-encoded hosts.
	  if (hasForbiddenDomainHost(resolved, options || {}, resolvedSchemeHandler, resolvedHostIsIP)) {
	    throw new Error(MALFORMED_HOST_ERROR)
	  }
	  canonicalizeHost(resolved, options || {}, resolvedSchemeHandler, resolvedHostIsIP);
	  // Percent escapes in an ASCII reg-name are encoded data. The WHATWG hostname
	  // parser can reject them even though fast-uri preserves them safely as RFC
	  // 3986 data. A raw non-ASCII host must still fail closed if conversion fails.
	  const encodedASCIIHost = resolvedHost && resolvedHost.indexOf('%') !== -1 &&
	    !/\P{ASCII}/u.test(resolvedHost);
	  if (resolved.error && !encodedASCIIHost) {
	    throw new Error(resolved.error)
	  }
	  schemelessOptions.skipEscape = true;
	  return serialize(resolved, schemelessOptions)
	}

	/**
	 * @param {import ('./types/index').URIComponent} base
	 * @param {import ('./types/index').URIComponent} relative
	 * @param {import('./types/index').Options} [options]
	 * @param {boolean} [skipNormalization=false]
	 * @returns {import ('./types/index').URIComponent}
	 */
	function resolveComponent (base, relative, options, skipNormalization) {
	  /** @type {import('./types/index').URIComponent} */
	  const target = {};
	  if (!skipNormalization) {
	    base = parse(serialize(base, options), options); // normalize base component
	    relative = parse(serialize(relative, options), options); // normalize relative component
	  }
	  options = options || {};

	  if (!options.tolerant && relative.scheme) {
	    target.scheme = relative.scheme;
	    // target.authority = relative.authority;
	    target.userinfo = relative.userinfo;
	    target.host = relative.host;
	    target.port = relative.port;
	    target.path = removeDotSegments(relative.path || '');
	    target.query = relative.query;
	  } else {
	    if (relative.userinfo !== undefined || relative.host !== undefined || relative.port !== undefined) {
	      // target.authority = relative.authority;
	      target.userinfo = relative.userinfo;
	      target.host = relative.host;
	      target.port = relative.port;
	      target.path = removeDotSegments(relative.path || '');
	      target.query = relative.query;
	    } else {
	      if (!relative.path) {
	        target.path = base.path;
	        if (relative.query !== undefined) {
	          target.query = relative.query;
	        } else {
	          target.query = base.query;
	        }
	      } else {
	        if (relative.path[0] === '/') {
	          target.path = removeDotSegments(relative.path);
	        } else {
	          const baseHasAuthority = base.userinfo !== undefined || base.host !== undefined || base.port !== undefined;
	          if (baseHasAuthority && !base.path) {
	            target.path = '/' + relative.path;
	          } else if (!base.path) {
	            target.path = relative.path;
	          } else {
	            target.path = base.path.slice(0, base.path.lastIndexOf('/') + 1) + relative.path;
	          }
	          target.path = base.scheme === undefined && !baseHasAuthority && target.path[0] !== '/'
	            ? removeDotSegmentsRelative(target.path)
	            : removeDotSegments(target.path);
	        }
	        target.query = relative.query;
	      }
	      // target.authority = base.authority;
	      target.userinfo = base.userinfo;
	      target.host = base.host;
	      target.port = base.port;
	    }
	    target.scheme = base.scheme;
	  }

	  target.fragment = relative.fragment;

	  return target
	}

	/**
	 * @param {import ('./types/index').URIComponent|string} uriA
	 * @param {import ('./types/index').URIComponent|string} uriB
	 * @param {import ('./types/index').Options} options
	 * @returns {boolean}
	 */
	function equal (uriA, uriB, options) {
	  const normalizedA = normalizeComparableURI(uriA, options);
	  const normalizedB = normalizeComparableURI(uriB, options);

	  return normalizedA !== undefined && normalizedB !== undefined && normalizedA === normalizedB
	}

	/**
	 * @param {Readonly<import('./types/index').URIComponent>} cmpts
	 * @param {import('./types/index').Options} [opts]
	 * @returns {string}
	 */
	function serialize (cmpts, opts) {
	  const component = {
	    host: cmpts.host,
	    scheme: cmpts.scheme,
	    userinfo: cmpts.userinfo,
	    port: cmpts.port,
	    path: cmpts.path,
	    query: cmpts.query,
	    nid: cmpts.nid,
	    nss: cmpts.nss,
	    uuid: cmpts.uuid,
	    fragment: cmpts.fragment,
	    reference: cmpts.reference,
	    resourceName: cmpts.resourceName,
	    secure: cmpts.secure,
	    error: ''
	  };
	  const options = Object.assign({}, opts);
	  const uriTokens = [];

	  if (component.scheme) {
	    component.scheme = validateScheme(component.scheme);
	  }

	  // find scheme handler
	  const schemeHandler = getSchemeHandler(options.scheme || component.scheme);

	  // perform scheme specific serialization
	  if (schemeHandler && schemeHandler.serialize) schemeHandler.serialize(component, options);

	  const hasAuthority = component.userinfo !== undefined || component.host !== undefined || component.port !== undefined;
	  // A reference with no emitted scheme is path-noscheme: a bare ':' in its
	  // first path segment would reparse as a scheme (RFC 3986 3.3/4.2). Enforced
	  // under skipEscape too (resolve()), so the reapply below gates on this flag.
	  const schemelessReference = (component.scheme === undefined || options.reference === 'suffix') && !hasAuthority;
	  const pathNoScheme = !options.skipEscape && schemelessReference;

	  if (component.path !== undefined) {
	    if (!options.skipEscape) {
	      component.path = serializePathEncoding(component.path, pathNoScheme);
	    } else {
	      component.path = normalizePercentEncoding(component.path);
	    }
	  }

	  if (options.reference !== 'suffix' && component.scheme) {
	    // Scheme handlers may replace the scheme during serialization.
	    component.scheme = validateScheme(component.scheme);
	    uriTokens.push(component.scheme, ':');
	  }

	  const authority = recomposeAuthority(component);
	  if (authority !== undefined) {
	    if (options.reference !== 'suffix') {
	      uriTokens.push('//');
	    }

	    uriTokens.push(authority);

	    if (component.path && component.path[0] !== '/') {
	      uriTokens.push('/');
	    }
	  }
	  if (component.path !== undefined) {
	    let s = component.path;

	    if (!options.absolutePath && (!schemeHandler || !schemeHandler.absolutePath)) {
	      // A relative-path reference keeps its unresolvable leading ".." segments
	      // and must never become root-relative (RFC 3986 section 5.2.4 applies to
	      // merged target paths, not to the reference itself).
	      s = schemelessReference && s[0] !== '/'
	        ? removeDotSegmentsRelative(s)
	        : removeDotSegments(s);
	    }

	    // Dot-segment removal can expose a colon that was not originally in the
	    // first segment (for example, "./a:b"). Reapply path-noscheme encoding so
	    // the serialized relative reference cannot be reparsed as a URI scheme.
	    if (schemelessReference) {
	      s = serializePathEncoding(s, true);
	    }

	    if (
	      authority === undefined &&
	      s[0] === '/' &&
	      s[1] === '/'
	    ) {
	      // don't allow the path to start with "//"
	      s = '/%2F' + s.slice(2);
	    }

	    uriTokens.push(s);
	  }

	  if (component.query !== undefined) {
	    uriTokens.push('?', encodeQuery(component.query));
	  }

	  if (component.fragment !== undefined) {
	    uriTokens.push('#', encodeFragment(component.fragment));
	  }
	  return uriTokens.join('')
	}

	const URI_PARSE = /^(?:([^#/:?]+):)?(?:\/\/((?:([^#/?@]*)@)?(\[[^#/?\]]+\]|[^#/:?]*)(?::(\d*))?))?([^#?]*)(?:\?([^#]*))?(?:#((?:.|[\n\r])*))?/u;

	// Captures the authority component (between "//" and the next "/", "?" or "#"),
	// with or without a scheme prefix, for the literal-backslash rejection below.
	const AUTHORITY_PREFIX = /^(?:[^#/:?]+:)?\/\/([^/?#]*)/;

	// Captures the leading authority-introducer region after an optional scheme: a
	// run of forward slashes, backslashes, and the characters the WHATWG URL parser
	// removes before parsing (TAB U+0009, LF U+000A, CR U+000D). A valid introducer
	// is exactly "//". Node treats "\" as "/" on special schemes and strips those
	// characters first, so forms like "\\", "/\", "\/", "/<TAB>/", or a leading
	// "<TAB>//" reach an authority in Node while fast-uri's URI_PARSE folds them into
	// the path group (host confusion / SSRF / redirect bypass).
	const AUTHORITY_INTRODUCER_REGION = /^(?:[^#/:?]+:)?([/\\\t\n\r]*)/;

	/**
	 * @param {import('./types/index').URIComponent} parsed
	 * @param {RegExpMatchArray} matches
	 * @returns {string|undefined}
	 */
	function getParseError (parsed, matches) {
	  if (matches[2] !== undefined && parsed.path && parsed.path[0] !== '/') {
	    return 'URI path must start with "/" when authority is present.'
	  }

	  if (typeof parsed.port === 'number' && (parsed.port < 0 || parsed.port > 65535)) {
	    return 'URI port is malformed.'
	  }

	  return undefined
	}

	/**
	 * Checks percent syntax without decoding the represented octets. RFC 3986
	 * percent-encoding is byte-oriented, so sequences such as `%FF` are valid even
	 * though they are not independently valid UTF-8.
	 *
	 * @param {string|undefined} component
	 * @returns {boolean}
	 */
	function hasMalformedPercentEncoding (component) {
	  if (component === undefined) return false

	  let percent = component.indexOf('%');
	  while (percent !== -1) {
	    if (percent + 2 >= component.length || !/^[\da-f]{2}$/iu.test(component.slice(percent + 1, percent + 3))) {
	      return true
	    }
	    percent = component.indexOf('%', percent + 3);
	  }

	  return false
	}

	/**
	 * Whether the host is a bracketed IP literal (RFC 3986 `IP-literal`).
	 * An unterminated `[` is not a literal, so it must still be validated as a
	 * reg-name instead of being waved through as an IP.
	 *
	 * @param {string} host
	 * @returns {boolean}
	 */
	function isIPLiteral (host) {
	  return host[0] === '[' && host[host.length - 1] === ']'
	}

	/**
	 * @param {RegExpMatchArray} matches
	 * @returns {boolean}
	 */
	function hasMalformedComponentPercentEncoding (matches) {
	  // Bracketed IP literals use a raw "%" as the zone separator for historical
	  // compatibility. Their parsing is intentionally left to normalizeIPv6.
	  const host = matches[4];
	  return hasMalformedPercentEncoding(matches[3]) ||
	    (host !== undefined && !isIPLiteral(host) && hasMalformedPercentEncoding(host)) ||
	    hasMalformedPercentEncoding(matches[6]) ||
	    hasMalformedPercentEncoding(matches[7]) ||
	    hasMalformedPercentEncoding(matches[8])
	}

	/**
	 * @param {import('./types/index').URIComponent} parsed
	 * @param {import('./types/index').Options} options
	 * @param {{ domainHost?: boolean, unicodeSupport?: boolean }|undefined} schemeHandler
	 * @param {boolean} isIP
	 * @returns {boolean} whether host conversion failed
	 */
	function canonicalizeHost (parsed, options, schemeHandler, isIP) {
	  if (hasForbiddenDomainHost(parsed, options, schemeHandler, isIP)) {
	    parsed.error = parsed.error || MALFORMED_HOST_ERROR;
	    return true
	  }

	  if (
	    !options.unicodeSupport &&
	    (!schemeHandler || !schemeHandler.unicodeSupport) &&
	    parsed.host &&
	    !isIPLiteral(parsed.host) &&
	    (options.domainHost || (schemeHandler && schemeHandler.domainHost)) &&
	    isIP === false &&
	    nonSimpleDomain(parsed.host)
	  ) {
	    let url;
	    try {
	      url = new URL('http://' + parsed.host);
	    } catch (e) {
	      parsed.error = parsed.error || "Host's domain name can not be converted to ASCII: " + e;
	      return true
	    }
	    // The WHATWG parser must have read the whole input as a host. Anything
	    // else means it found a delimiter fast-uri did not, so its hostname would
	    // describe a different authority.
	    if (!isHostOnlyURL(url)) {
	      parsed.error = parsed.error || MALFORMED_HOST_ERROR;
	      return true
	    }
	    parsed.host = url.hostname;
	  }
	  return false
	}

	/**
	 * Whether a domain host contains an ASCII character that RFC 3986 does not
	 * allow in a reg-name (unreserved, sub-delims, or pct-encoded). Such a host is
	 * rejected instead of being handed to the WHATWG URL parser, which would treat
	 * "@" as a userinfo delimiter (silently dropping the data before it) and strip
	 * TAB, LF, and CR. Non-ASCII characters remain allowed for IDNs.
	 *
	 * @param {import('./types/index').URIComponent} parsed
	 * @param {import('./types/index').Options} options
	 * @param {{ domainHost?: boolean }|undefined} schemeHandler
	 * @param {boolean} isIP
	 * @returns {boolean}
	 */
	function hasForbiddenDomainHost (parsed, options, schemeHandler, isIP) {
	  return Boolean(
	    parsed.host &&
	    isIP === false &&
	    !isIPLiteral(parsed.host) &&
	    (options.domainHost || (schemeHandler && schemeHandler.domainHost)) &&
	    FORBIDDEN_DOMAIN_HOST_CHARACTER.test(parsed.host)
	  )
	}

	/**
	 * @param {URL} url
	 * @returns {boolean}
	 */
	function isHostOnlyURL (url) {
	  return url.username === '' &&
	    url.password === '' &&
	    url.port === '' &&
	    url.pathname === '/' &&
	    url.search === '' &&
	    url.hash === '' &&
	    url.hostname !== ''
	}

	/**
	 * @param {string} uri
	 * @param {import('./types/index').Options} [opts]
	 * @returns {{ parsed: import('./types/index').URIComponent, malformedAuthorityOrPort: boolean, malformedPercentEncoding: boolean, malformedSchemeSpecific: boolean, malformedHost: boolean, malformedScheme: boolean }}
	 */
	function parseWithStatus (uri, opts) {
	  const options = Object.assign({}, opts);
	  /** @type {import('./types/index').URIComponent} */
	  const parsed = {
	    scheme: undefined,
	    userinfo: undefined,
	    host: '',
	    port: undefined,
	    path: '',
	    query: undefined,
	    fragment: undefined
	  };

	  let malformedAuthorityOrPort = false;
	  let malformedPercentEncoding = false;
	  let malformedSchemeSpecific = false;
	  let malformedHost = false;
	  let malformedIPLiteral = false;
	  let malformedScheme = false;

	  let isIP = false;
	  if (options.reference === 'suffix') {
	    if (options.scheme) {
	      uri = options.scheme + ':' + uri;
	    } else {
	      uri = '//' + uri;
	    }
	  }

	  // A literal backslash (U+005C) is not a valid RFC 3986 URI character and is
	  // not an authority delimiter. Reject it in the authority rather than
	  // rewriting it: normalizing "\" -> "/" (WHATWG error recovery) could silently
	  // change the resource identified by an otherwise-invalid input, and lets "\"
	  // act as a host delimiter here while Node's native URL parses a different
	  // host (SSRF / redirect / origin-allowlist bypass). Percent-encoded %5C is
	  // untouched and remains valid encoded data.
	  const authorityMatch = uri.match(AUTHORITY_PREFIX);
	  if (authorityMatch !== null && authorityMatch[1].indexOf('\\') !== -1) {
	    parsed.error = 'URI authority must not contain a literal backslash.';
	    malformedAuthorityOrPort = true;
	  }

	  // Reject a malformed or whitespace-smuggled authority introducer. fast-uri
	  // only recognizes a literal "//"; anything else in the leading separator run
	  // (a backslash, or a "//" that appears only after removing the TAB/LF/CR that
	  // Node strips) means the authority fast-uri parses differs from the one Node's
	  // URL resolves. Reject rather than rewrite, mirroring the literal-backslash
	  // guard above. Percent-encoded forms (%5C, %09) are untouched, valid data.
	  const introducerMatch = uri.match(AUTHORITY_INTRODUCER_REGION);
	  if (introducerMatch !== null) {
	    const region = introducerMatch[1];
	    const normalizedRegion = region.replace(/[\t\n\r]/g, '');
	    // Two or more leading separators introduce an authority.
	    if (normalizedRegion.length >= 2) {
	      if (normalizedRegion.slice(0, 2) !== '//') {
	        parsed.error = parsed.error || 'URI authority must not contain a literal backslash.';
	        malformedAuthorityOrPort = true;
	      } else if (region.length !== normalizedRegion.length) {
	        parsed.error = parsed.error || 'URI authority introducer must not contain whitespace.';
	        malformedAuthorityOrPort = true;
	      }
	    }
	  }

	  const matches = uri.match(URI_PARSE);

	  if (matches) {
	    // store each component
	    parsed.scheme = matches[1];
	    parsed.userinfo = matches[3];
	    parsed.host = matches[4];
	    parsed.port = parseInt(matches[5], 10);
	    parsed.path = matches[6] || '';
	    parsed.query = matches[7];
	    parsed.fragment = matches[8];

	    if (parsed.scheme !== undefined) {
	      if (VALID_SCHEME.test(parsed.scheme)) {
	        parsed.scheme = parsed.scheme.toLowerCase();
	      } else {
	        parsed.error = parsed.error || MALFORMED_SCHEME_ERROR;
	        malformedScheme = true;
	      }
	    }

	    malformedPercentEncoding = hasMalformedComponentPercentEncoding(matches);
	    if (malformedPercentEncoding) {
	      parsed.error = parsed.error || 'URI contains malformed percent-encoding.';
	    }

	    // fix port number
	    if (isNaN(parsed.port)) {
	      parsed.port = matches[5];
	    }

	    const parseError = getParseError(parsed, matches);
	    if (parseError !== undefined) {
	      parsed.error = parsed.error || parseError;
	      malformedAuthorityOrPort = true;
	    }

	    if (parsed.host) {
	      const ipv4result = isIPv4(parsed.host);
	      if (ipv4result === false) {
	        const bracketedIPLiteral = isIPLiteral(parsed.host);
	        const hasIPLiteralBracket = parsed.host.indexOf('[') !== -1 || parsed.host.indexOf(']') !== -1;
	        const ipv6result = normalizeIPv6(parsed.host);
	        isIP = ipv6result.isIPV6 || ipv6result.isIPVFuture === true;
	        malformedIPLiteral = hasIPLiteralBracket && (!bracketedIPLiteral || ipv6result.error === true);
	        parsed.host = isIP ? ipv6result.host : ipv6result.host.toLowerCase();

	        if (malformedIPLiteral) {
	          parsed.error = parsed.error || MALFORMED_HOST_ERROR;
	          malformedAuthorityOrPort = true;
	        }
	      } else {
	        isIP = true;
	      }
	    }
	    if (parsed.scheme === undefined && parsed.userinfo === undefined && parsed.host === undefined && parsed.port === undefined && parsed.query === undefined && !parsed.path) {
	      parsed.reference = 'same-document';
	    } else if (parsed.scheme === undefined) {
	      parsed.reference = 'relative';
	    } else if (parsed.fragment === undefined) {
	      parsed.reference = 'absolute';
	    } else {
	      parsed.reference = 'uri';
	    }

	    // check for reference errors
	    if (options.reference && options.reference !== 'suffix' && options.reference !== parsed.reference) {
	      parsed.error = parsed.error || 'URI is not a ' + options.reference + ' reference.';
	    }

	    // find scheme handler
	    const schemeHandler = getSchemeHandler(options.scheme || parsed.scheme);

	    // convert Unicode IDN -> ASCII IDN when the effective scheme uses domain hosts
	    if (!malformedIPLiteral) {
	      malformedHost = canonicalizeHost(parsed, options, schemeHandler, isIP);
	    }

	    if (uri.indexOf('%') !== -1 && parsed.host !== undefined && !malformedIPLiteral) {
	      let host = isIP ? parsed.host : normalizePercentEncoding(parsed.host, true);
	      if (!isIP) {
	        // Fold reg-name case after decoding unreserved octets. The second
	        // pass only restores uppercase hex in escapes that remain encoded.
	        host = normalizePercentEncoding(host.toLowerCase());
	      }
	      // Resolution parses both inputs with the internal `null` scheme before
	      // the effective scheme is known. Keep raw host delimiters for that step
	      // so resolve() can reject them for domain-host schemes; the resolved
	      // authority is encoded when it is serialized.
	      parsed.host = isIP || options.scheme !== 'null' ? reescapeHostDelimiters(host, isIP) : host;
	    }

	    if (!schemeHandler || (schemeHandler && !schemeHandler.skipNormalize)) {
	      if (parsed.path) {
	        parsed.path = normalizePathEncoding(parsed.path);
	      }
	      if (parsed.query) {
	        parsed.query = normalizeQueryFragmentEncoding(parsed.query);
	      }
	      if (parsed.fragment) {
	        parsed.fragment = normalizeQueryFragmentEncoding(parsed.fragment);
	      }
	    }

	    // perform scheme specific parsing
	    if (schemeHandler && schemeHandler.parse) {
	      schemeHandler.parse(parsed, options);
	      if (schemeHandler === SCHEMES.urn && parsed.nid === undefined) {
	        malformedSchemeSpecific = true;
	      }
	    }
	  } else {
	    parsed.error = parsed.error || 'URI can not be parsed.';
	  }
	  return { parsed, malformedAuthorityOrPort, malformedPercentEncoding, malformedSchemeSpecific, malformedHost, malformedScheme }
	}

	/**
	 * @param {string} uri
	 * @param {import('./types/index').Options} [opts]
	 * @returns
	 */
	function parse (uri, opts) {
	  return parseWithStatus(uri, opts).parsed
	}

	/**
	 * @param {string} uri
	 * @param {import('./types/index').Options} [opts]
	 * @returns {string}
	 */
	function normalizeString (uri, opts) {
	  return normalizeStringWithStatus(uri, opts).normalized
	}

	/**
	 * @param {string} uri
	 * @param {import('./types/index').Options} [opts]
	 * @returns {{ normalized: string, malformedAuthorityOrPort: boolean, malformedPercentEncoding: boolean, malformedSchemeSpecific: boolean, malformedHost: boolean, malformedScheme: boolean }}
	 */
	function normalizeStringWithStatus (uri, opts) {
	  const { parsed, malformedAuthorityOrPort, malformedPercentEncoding, malformedSchemeSpecific, malformedHost, malformedScheme } = parseWithStatus(uri, opts);
	  return {
	    normalized: malformedAuthorityOrPort || malformedPercentEncoding || malformedSchemeSpecific || malformedHost || malformedScheme ? uri : serialize(parsed, opts),
	    malformedAuthorityOrPort,
	    malformedPercentEncoding,
	    malformedSchemeSpecific,
	    malformedHost,
	    malformedScheme
	  }
	}

	/**
	 * @param {import ('./types/index').URIComponent|string} uri
	 * @param {import('./types/index').Options} [opts]
	 * @returns {string|undefined}
	 */
	function normalizeComparableURI (uri, opts) {
	  if (typeof uri !== 'string' && typeof uri !== 'object') {
	    return undefined
	  }

	  let value;
	  try {
	    value = typeof uri === 'string' ? uri : serialize(uri, opts);
	  } catch {
	    return undefined
	  }
	  const { normalized, malformedAuthorityOrPort, malformedPercentEncoding, malformedSchemeSpecific, malformedHost, malformedScheme } = normalizeStringWithStatus(value, opts);
	  return malformedAuthorityOrPort || malformedPercentEncoding || malformedSchemeSpecific || malformedHost || malformedScheme ? undefined : normalized
	}

	const fastUri$1 = {
	  SCHEMES,
	  normalize,
	  resolve,
	  resolveComponent,
	  equal,
	  serialize,
	  parse
	};

	fastUri.exports = fastUri$1;
	fastUri.exports.default = fastUri$1;
	fastUri.exports.fastUri = fastUri$1;
	return fastUri.exports;
}

var hasRequiredUri;

function requireUri () {
	if (hasRequiredUri) return uri;
	hasRequiredUri = 1;
	Object.defineProperty(uri, "__esModule", { value: true });
	const uri$1 = requireFastUri();
	uri$1.code = 'require("ajv/dist/runtime/uri").default';
	uri.default = uri$1;
	
	return uri;
}

var hasRequiredCore$1;

function requireCore$1 () {
	if (hasRequiredCore$1) return core$1;
	hasRequiredCore$1 = 1;
	(function (exports) {
		Object.defineProperty(exports, "__esModule", { value: true });
		exports.CodeGen = exports.Name = exports.nil = exports.stringify = exports.str = exports._ = exports.KeywordCxt = void 0;
		var validate_1 = /*@__PURE__*/ requireValidate();
		Object.defineProperty(exports, "KeywordCxt", { enumerable: true, get: function () { return validate_1.KeywordCxt; } });
		var codegen_1 = /*@__PURE__*/ requireCodegen();
		Object.defineProperty(exports, "_", { enumerable: true, get: function () { return codegen_1._; } });
		Object.defineProperty(exports, "str", { enumerable: true, get: function () { return codegen_1.str; } });
		Object.defineProperty(exports, "stringify", { enumerable: true, get: function () { return codegen_1.stringify; } });
		Object.defineProperty(exports, "nil", { enumerable: true, get: function () { return codegen_1.nil; } });
		Object.defineProperty(exports, "Name", { enumerable: true, get: function () { return codegen_1.Name; } });
		Object.defineProperty(exports, "CodeGen", { enumerable: true, get: function () { return codegen_1.CodeGen; } });
		const validation_error_1 = /*@__PURE__*/ requireValidation_error();
		const ref_error_1 = /*@__PURE__*/ requireRef_error();
		const rules_1 = /*@__PURE__*/ requireRules();
		const compile_1 = /*@__PURE__*/ requireCompile();
		const codegen_2 = /*@__PURE__*/ requireCodegen();
		const resolve_1 = /*@__PURE__*/ requireResolve();
		const dataType_1 = /*@__PURE__*/ requireDataType();
		const util_1 = /*@__PURE__*/ requireUtil();
		const $dataRefSchema = require$$9;
		const uri_1 = /*@__PURE__*/ requireUri();
		const defaultRegExp = (str, flags) => new RegExp(str, flags);
		defaultRegExp.code = "new RegExp";
		const META_IGNORE_OPTIONS = ["removeAdditional", "useDefaults", "coerceTypes"];
		const EXT_SCOPE_NAMES = new Set([
		    "validate",
		    "serialize",
		    "parse",
		    "wrapper",
		    "root",
		    "schema",
		    "keyword",
		    "pattern",
		    "formats",
		    "validate$data",
		    "func",
		    "obj",
		    "Error",
		]);
		const removedOptions = {
		    errorDataPath: "",
		    format: "`validateFormats: false` can be used instead.",
		    nullable: '"nullable" keyword is supported by default.',
		    jsonPointers: "Deprecated jsPropertySyntax can be used instead.",
		    extendRefs: "Deprecated ignoreKeywordsWithRef can be used instead.",
		    missingRefs: "Pass empty schema with $id that should be ignored to ajv.addSchema.",
		    processCode: "Use option `code: {process: (code, schemaEnv: object) => string}`",
		    sourceCode: "Use option `code: {source: true}`",
		    strictDefaults: "It is default now, see option `strict`.",
		    strictKeywords: "It is default now, see option `strict`.",
		    uniqueItems: '"uniqueItems" keyword is always validated.',
		    unknownFormats: "Disable strict mode or pass `true` to `ajv.addFormat` (or `formats` option).",
		    cache: "Map is used as cache, schema object as key.",
		    serialize: "Map is used as cache, schema object as key.",
		    ajvErrors: "It is default now.",
		};
		const deprecatedOptions = {
		    ignoreKeywordsWithRef: "",
		    jsPropertySyntax: "",
		    unicode: '"minLength"/"maxLength" account for unicode characters by default.',
		};
		const MAX_EXPRESSION = 200;
		// eslint-disable-next-line complexity
		function requiredOptions(o) {
		    var _a, _b, _c, _d, _e, _f, _g, _h, _j, _k, _l, _m, _o, _p, _q, _r, _s, _t, _u, _v, _w, _x, _y, _z, _0;
		    const s = o.strict;
		    const _optz = (_a = o.code) === null || _a === void 0 ? void 0 : _a.optimize;
		    const optimize = _optz === true || _optz === undefined ? 1 : _optz || 0;
		    const regExp = (_c = (_b = o.code) === null || _b === void 0 ? void 0 : _b.regExp) !== null && _c !== void 0 ? _c : defaultRegExp;
		    const uriResolver = (_d = o.uriResolver) !== null && _d !== void 0 ? _d : uri_1.default;
		    return {
		        strictSchema: (_f = (_e = o.strictSchema) !== null && _e !== void 0 ? _e : s) !== null && _f !== void 0 ? _f : true,
		        strictNumbers: (_h = (_g = o.strictNumbers) !== null && _g !== void 0 ? _g : s) !== null && _h !== void 0 ? _h : true,
		        strictTypes: (_k = (_j = o.strictTypes) !== null && _j !== void 0 ? _j : s) !== null && _k !== void 0 ? _k : "log",
		        strictTuples: (_m = (_l = o.strictTuples) !== null && _l !== void 0 ? _l : s) !== null && _m !== void 0 ? _m : "log",
		        strictRequired: (_p = (_o = o.strictRequired) !== null && _o !== void 0 ? _o : s) !== null && _p !== void 0 ? _p : false,
		        code: o.code ? { ...o.code, optimize, regExp } : { optimize, regExp },
		        loopRequired: (_q = o.loopRequired) !== null && _q !== void 0 ? _q : MAX_EXPRESSION,
		        loopEnum: (_r = o.loopEnum) !== null && _r !== void 0 ? _r : MAX_EXPRESSION,
		        meta: (_s = o.meta) !== null && _s !== void 0 ? _s : true,
		        messages: (_t = o.messages) !== null && _t !== void 0 ? _t : true,
		        inlineRefs: (_u = o.inlineRefs) !== null && _u !== void 0 ? _u : true,
		        schemaId: (_v = o.schemaId) !== null && _v !== void 0 ? _v : "$id",
		        addUsedSchema: (_w = o.addUsedSchema) !== null && _w !== void 0 ? _w : true,
		        validateSchema: (_x = o.validateSchema) !== null && _x !== void 0 ? _x : true,
		        validateFormats: (_y = o.validateFormats) !== null && _y !== void 0 ? _y : true,
		        unicodeRegExp: (_z = o.unicodeRegExp) !== null && _z !== void 0 ? _z : true,
		        int32range: (_0 = o.int32range) !== null && _0 !== void 0 ? _0 : true,
		        uriResolver: uriResolver,
		    };
		}
		class Ajv {
		    constructor(opts = {}) {
		        this.schemas = {};
		        this.refs = {};
		        this.formats = Object.create(null);
		        this._compilations = new Set();
		        this._loading = {};
		        this._cache = new Map();
		        opts = this.opts = { ...opts, ...requiredOptions(opts) };
		        const { es5, lines } = this.opts.code;
		        this.scope = new codegen_2.ValueScope({ scope: {}, prefixes: EXT_SCOPE_NAMES, es5, lines });
		        this.logger = getLogger(opts.logger);
		        const formatOpt = opts.validateFormats;
		        opts.validateFormats = false;
		        this.RULES = (0, rules_1.getRules)();
		        checkOptions.call(this, removedOptions, opts, "NOT SUPPORTED");
		        checkOptions.call(this, deprecatedOptions, opts, "DEPRECATED", "warn");
		        this._metaOpts = getMetaSchemaOptions.call(this);
		        if (opts.formats)
		            addInitialFormats.call(this);
		        this._addVocabularies();
		        this._addDefaultMetaSchema();
		        if (opts.keywords)
		            addInitialKeywords.call(this, opts.keywords);
		        if (typeof opts.meta == "object")
		            this.addMetaSchema(opts.meta);
		        addInitialSchemas.call(this);
		        opts.validateFormats = formatOpt;
		    }
		    _addVocabularies() {
		        this.addKeyword("$async");
		    }
		    _addDefaultMetaSchema() {
		        const { $data, meta, schemaId } = this.opts;
		        let _dataRefSchema = $dataRefSchema;
		        if (schemaId === "id") {
		            _dataRefSchema = { ...$dataRefSchema };
		            _dataRefSchema.id = _dataRefSchema.$id;
		            delete _dataRefSchema.$id;
		        }
		        if (meta && $data)
		            this.addMetaSchema(_dataRefSchema, _dataRefSchema[schemaId], false);
		    }
		    defaultMeta() {
		        const { meta, schemaId } = this.opts;
		        return (this.opts.defaultMeta = typeof meta == "object" ? meta[schemaId] || meta : undefined);
		    }
		    validate(schemaKeyRef, // key, ref or schema object
		    // eslint-disable-next-line @typescript-eslint/no-redundant-type-constituents
		    data // to be validated
		    ) {
		        let v;
		        if (typeof schemaKeyRef == "string") {
		            v = this.getSchema(schemaKeyRef);
		            if (!v)
		                throw new Error(`no schema with key or ref "${schemaKeyRef}"`);
		        }
		        else {
		            v = this.compile(schemaKeyRef);
		        }
		        const valid = v(data);
		        if (!("$async" in v))
		            this.errors = v.errors;
		        return valid;
		    }
		    compile(schema, _meta) {
		        const sch = this._addSchema(schema, _meta);
		        return (sch.validate || this._compileSchemaEnv(sch));
		    }
		    compileAsync(schema, meta) {
		        if (typeof this.opts.loadSchema != "function") {
		            throw new Error("options.loadSchema should be a function");
		        }
		        const { loadSchema } = this.opts;
		        return runCompileAsync.call(this, schema, meta);
		        async function runCompileAsync(_schema, _meta) {
		            await loadMetaSchema.call(this, _schema.$schema);
		            const sch = this._addSchema(_schema, _meta);
		            return sch.validate || _compileAsync.call(this, sch);
		        }
		        async function loadMetaSchema($ref) {
		            if ($ref && !this.getSchema($ref)) {
		                await runCompileAsync.call(this, { $ref }, true);
		            }
		        }
		        async function _compileAsync(sch) {
		            try {
		                return this._compileSchemaEnv(sch);
		            }
		            catch (e) {
		                if (!(e instanceof ref_error_1.default))
		                    throw e;
		                checkLoaded.call(this, e);
		                await loadMissingSchema.call(this, e.missingSchema);
		                return _compileAsync.call(this, sch);
		            }
		        }
		        function checkLoaded({ missingSchema: ref, missingRef }) {
		            if (this.refs[ref]) {
		                throw new Error(`AnySchema ${ref} is loaded but ${missingRef} cannot be resolved`);
		            }
		        }
		        async function loadMissingSchema(ref) {
		            const _schema = await _loadSchema.call(this, ref);
		            if (!this.refs[ref])
		                await loadMetaSchema.call(this, _schema.$schema);
		            if (!this.refs[ref])
		                this.addSchema(_schema, ref, meta);
		        }
		        async function _loadSchema(ref) {
		            const p = this._loading[ref];
		            if (p)
		                return p;
		            try {
		                return await (this._loading[ref] = loadSchema(ref));
		            }
		            finally {
		                delete this._loading[ref];
		            }
		        }
		    }
		    // Adds schema to the instance
		    addSchema(schema, // If array is passed, `key` will be ignored
		    key, // Optional schema key. Can be passed to `validate` method instead of schema object or id/ref. One schema per instance can have empty `id` and `key`.
		    _meta, // true if schema is a meta-schema. Used internally, addMetaSchema should be used instead.
		    _validateSchema = this.opts.validateSchema // false to skip schema validation. Used internally, option validateSchema should be used instead.
		    ) {
		        if (Array.isArray(schema)) {
		            for (const sch of schema)
		                this.addSchema(sch, undefined, _meta, _validateSchema);
		            return this;
		        }
		        let id;
		        if (typeof schema === "object") {
		            const { schemaId } = this.opts;
		            id = schema[schemaId];
		            if (id !== undefined && typeof id != "string") {
		                throw new Error(`schema ${schemaId} must be string`);
		            }
		        }
		        key = (0, resolve_1.normalizeId)(key || id);
		        this._checkUnique(key);
		        this.schemas[key] = this._addSchema(schema, _meta, key, _validateSchema, true);
		        return this;
		    }
		    // Add schema that will be used to validate other schemas
		    // options in META_IGNORE_OPTIONS are alway set to false
		    addMetaSchema(schema, key, // schema key
		    _validateSchema = this.opts.validateSchema // false to skip schema validation, can be used to override validateSchema option for meta-schema
		    ) {
		        this.addSchema(schema, key, true, _validateSchema);
		        return this;
		    }
		    //  Validate schema against its meta-schema
		    validateSchema(schema, throwOrLogError) {
		        if (typeof schema == "boolean")
		            return true;
		        let $schema;
		        $schema = schema.$schema;
		        if ($schema !== undefined && typeof $schema != "string") {
		            throw new Error("$schema must be a string");
		        }
		        $schema = $schema || this.opts.defaultMeta || this.defaultMeta();
		        if (!$schema) {
		            this.logger.warn("meta-schema not available");
		            this.errors = null;
		            return true;
		        }
		        const valid = this.validate($schema, schema);
		        if (!valid && throwOrLogError) {
		            const message = "schema is invalid: " + this.errorsText();
		            if (this.opts.validateSchema === "log")
		                this.logger.error(message);
		            else
		                throw new Error(message);
		        }
		        return valid;
		    }
		    // Get compiled schema by `key` or `ref`.
		    // (`key` that was passed to `addSchema` or full schema reference - `schema.$id` or resolved id)
		    getSchema(keyRef) {
		        let sch;
		        while (typeof (sch = getSchEnv.call(this, keyRef)) == "string")
		            keyRef = sch;
		        if (sch === undefined) {
		            const { schemaId } = this.opts;
		            const root = new compile_1.SchemaEnv({ schema: {}, schemaId });
		            sch = compile_1.resolveSchema.call(this, root, keyRef);
		            if (!sch)
		                return;
		            this.refs[keyRef] = sch;
		        }
		        return (sch.validate || this._compileSchemaEnv(sch));
		    }
		    // Remove cached schema(s).
		    // If no parameter is passed all schemas but meta-schemas are removed.
		    // If RegExp is passed all schemas with key/id matching pattern but meta-schemas are removed.
		    // Even if schema is referenced by other schemas it still can be removed as other schemas have local references.
		    removeSchema(schemaKeyRef) {
		        if (schemaKeyRef instanceof RegExp) {
		            this._removeAllSchemas(this.schemas, schemaKeyRef);
		            this._removeAllSchemas(this.refs, schemaKeyRef);
		            return this;
		        }
		        switch (typeof schemaKeyRef) {
		            case "undefined":
		                this._removeAllSchemas(this.schemas);
		                this._removeAllSchemas(this.refs);
		                this._cache.clear();
		                return this;
		            case "string": {
		                const sch = getSchEnv.call(this, schemaKeyRef);
		                if (typeof sch == "object")
		                    this._cache.delete(sch.schema);
		                delete this.schemas[schemaKeyRef];
		                delete this.refs[schemaKeyRef];
		                return this;
		            }
		            case "object": {
		                const cacheKey = schemaKeyRef;
		                this._cache.delete(cacheKey);
		                let id = schemaKeyRef[this.opts.schemaId];
		                if (id) {
		                    id = (0, resolve_1.normalizeId)(id);
		                    delete this.schemas[id];
		                    delete this.refs[id];
		                }
		                return this;
		            }
		            default:
		                throw new Error("ajv.removeSchema: invalid parameter");
		        }
		    }
		    // add "vocabulary" - a collection of keywords
		    addVocabulary(definitions) {
		        for (const def of definitions)
		            this.addKeyword(def);
		        return this;
		    }
		    addKeyword(kwdOrDef, def // deprecated
		    ) {
		        let keyword;
		        if (typeof kwdOrDef == "string") {
		            keyword = kwdOrDef;
		            if (typeof def == "object") {
		                this.logger.warn("these parameters are deprecated, see docs for addKeyword");
		                def.keyword = keyword;
		            }
		        }
		        else if (typeof kwdOrDef == "object" && def === undefined) {
		            def = kwdOrDef;
		            keyword = def.keyword;
		            if (Array.isArray(keyword) && !keyword.length) {
		                throw new Error("addKeywords: keyword must be string or non-empty array");
		            }
		        }
		        else {
		            throw new Error("invalid addKeywords parameters");
		        }
		        checkKeyword.call(this, keyword, def);
		        if (!def) {
		            (0, util_1.eachItem)(keyword, (kwd) => addRule.call(this, kwd));
		            return this;
		        }
		        keywordMetaschema.call(this, def);
		        const definition = {
		            ...def,
		            type: (0, dataType_1.getJSONTypes)(def.type),
		            schemaType: (0, dataType_1.getJSONTypes)(def.schemaType),
		        };
		        (0, util_1.eachItem)(keyword, definition.type.length === 0
		            ? (k) => addRule.call(this, k, definition)
		            : (k) => definition.type.forEach((t) => addRule.call(this, k, definition, t)));
		        return this;
		    }
		    getKeyword(keyword) {
		        const rule = this.RULES.all[keyword];
		        return typeof rule == "object" ? rule.definition : !!rule;
		    }
		    // Remove keyword
		    removeKeyword(keyword) {
		        // TODO return type should be Ajv
		        const { RULES } = this;
		        delete RULES.keywords[keyword];
		        delete RULES.all[keyword];
		        for (const group of RULES.rules) {
		            const i = group.rules.findIndex((rule) => rule.keyword === keyword);
		            if (i >= 0)
		                group.rules.splice(i, 1);
		        }
		        return this;
		    }
		    // Add format
		    addFormat(name, format) {
		        if (typeof format == "string")
		            format = new RegExp(format);
		        this.formats[name] = format;
		        return this;
		    }
		    errorsText(errors = this.errors, // optional array of validation errors
		    { separator = ", ", dataVar = "data" } = {} // optional options with properties `separator` and `dataVar`
		    ) {
		        if (!errors || errors.length === 0)
		            return "No errors";
		        return errors
		            .map((e) => `${dataVar}${e.instancePath} ${e.message}`)
		            .reduce((text, msg) => text + separator + msg);
		    }
		    $dataMetaSchema(metaSchema, keywordsJsonPointers) {
		        const rules = this.RULES.all;
		        metaSchema = JSON.parse(JSON.stringify(metaSchema));
		        for (const jsonPointer of keywordsJsonPointers) {
		            const segments = jsonPointer.split("/").slice(1); // first segment is an empty string
		            let keywords = metaSchema;
		            for (const seg of segments)
		                keywords = keywords[seg];
		            for (const key in rules) {
		                const rule = rules[key];
		                if (typeof rule != "object")
		                    continue;
		                const { $data } = rule.definition;
		                const schema = keywords[key];
		                if ($data && schema)
		                    keywords[key] = schemaOrData(schema);
		            }
		        }
		        return metaSchema;
		    }
		    _removeAllSchemas(schemas, regex) {
		        for (const keyRef in schemas) {
		            const sch = schemas[keyRef];
		            if (!regex || regex.test(keyRef)) {
		                if (typeof sch == "string") {
		                    delete schemas[keyRef];
		                }
		                else if (sch && !sch.meta) {
		                    this._cache.delete(sch.schema);
		                    delete schemas[keyRef];
		                }
		            }
		        }
		    }
		    _addSchema(schema, meta, baseId, validateSchema = this.opts.validateSchema, addSchema = this.opts.addUsedSchema) {
		        let id;
		        const { schemaId } = this.opts;
		        if (typeof schema == "object") {
		            id = schema[schemaId];
		        }
		        else {
		            if (this.opts.jtd)
		                throw new Error("schema must be object");
		            else if (typeof schema != "boolean")
		                throw new Error("schema must be object or boolean");
		        }
		        let sch = this._cache.get(schema);
		        if (sch !== undefined)
		            return sch;
		        baseId = (0, resolve_1.normalizeId)(id || baseId);
		        const localRefs = resolve_1.getSchemaRefs.call(this, schema, baseId);
		        sch = new compile_1.SchemaEnv({ schema, schemaId, meta, baseId, localRefs });
		        this._cache.set(sch.schema, sch);
		        if (addSchema && !baseId.startsWith("#")) {
		            // TODO atm it is allowed to overwrite schemas without id (instead of not adding them)
		            if (baseId)
		                this._checkUnique(baseId);
		            this.refs[baseId] = sch;
		        }
		        if (validateSchema)
		            this.validateSchema(schema, true);
		        return sch;
		    }
		    _checkUnique(id) {
		        if (this.schemas[id] || this.refs[id]) {
		            throw new Error(`schema with key or id "${id}" already exists`);
		        }
		    }
		    _compileSchemaEnv(sch) {
		        if (sch.meta)
		            this._compileMetaSchema(sch);
		        else
		            compile_1.compileSchema.call(this, sch);
		        /* istanbul ignore if */
		        if (!sch.validate)
		            throw new Error("ajv implementation error");
		        return sch.validate;
		    }
		    _compileMetaSchema(sch) {
		        const currentOpts = this.opts;
		        this.opts = this._metaOpts;
		        try {
		            compile_1.compileSchema.call(this, sch);
		        }
		        finally {
		            this.opts = currentOpts;
		        }
		    }
		}
		Ajv.ValidationError = validation_error_1.default;
		Ajv.MissingRefError = ref_error_1.default;
		exports.default = Ajv;
		function checkOptions(checkOpts, options, msg, log = "error") {
		    for (const key in checkOpts) {
		        const opt = key;
		        if (opt in options)
		            this.logger[log](`${msg}: option ${key}. ${checkOpts[opt]}`);
		    }
		}
		function getSchEnv(keyRef) {
		    keyRef = (0, resolve_1.normalizeId)(keyRef); // TODO tests fail without this line
		    return this.schemas[keyRef] || this.refs[keyRef];
		}
		function addInitialSchemas() {
		    const optsSchemas = this.opts.schemas;
		    if (!optsSchemas)
		        return;
		    if (Array.isArray(optsSchemas))
		        this.addSchema(optsSchemas);
		    else
		        for (const key in optsSchemas)
		            this.addSchema(optsSchemas[key], key);
		}
		function addInitialFormats() {
		    for (const name in this.opts.formats) {
		        const format = this.opts.formats[name];
		        if (format)
		            this.addFormat(name, format);
		    }
		}
		function addInitialKeywords(defs) {
		    if (Array.isArray(defs)) {
		        this.addVocabulary(defs);
		        return;
		    }
		    this.logger.warn("keywords option as map is deprecated, pass array");
		    for (const keyword in defs) {
		        const def = defs[keyword];
		        if (!def.keyword)
		            def.keyword = keyword;
		        this.addKeyword(def);
		    }
		}
		function getMetaSchemaOptions() {
		    const metaOpts = { ...this.opts };
		    for (const opt of META_IGNORE_OPTIONS)
		        delete metaOpts[opt];
		    return metaOpts;
		}
		const noLogs = { log() { }, warn() { }, error() { } };
		function getLogger(logger) {
		    if (logger === false)
		        return noLogs;
		    if (logger === undefined)
		        return console;
		    if (logger.log && logger.warn && logger.error)
		        return logger;
		    throw new Error("logger must implement log, warn and error methods");
		}
		const KEYWORD_NAME = /^[a-z_$][a-z0-9_$:-]*$/i;
		function checkKeyword(keyword, def) {
		    const { RULES } = this;
		    (0, util_1.eachItem)(keyword, (kwd) => {
		        if (RULES.keywords[kwd])
		            throw new Error(`Keyword ${kwd} is already defined`);
		        if (!KEYWORD_NAME.test(kwd))
		            throw new Error(`Keyword ${kwd} has invalid name`);
		    });
		    if (!def)
		        return;
		    if (def.$data && !("code" in def || "validate" in def)) {
		        throw new Error('$data keyword must have "code" or "validate" function');
		    }
		}
		function addRule(keyword, definition, dataType) {
		    var _a;
		    const post = definition === null || definition === void 0 ? void 0 : definition.post;
		    if (dataType && post)
		        throw new Error('keyword with "post" flag cannot have "type"');
		    const { RULES } = this;
		    let ruleGroup = post ? RULES.post : RULES.rules.find(({ type: t }) => t === dataType);
		    if (!ruleGroup) {
		        ruleGroup = { type: dataType, rules: [] };
		        RULES.rules.push(ruleGroup);
		    }
		    RULES.keywords[keyword] = true;
		    if (!definition)
		        return;
		    const rule = {
		        keyword,
		        definition: {
		            ...definition,
		            type: (0, dataType_1.getJSONTypes)(definition.type),
		            schemaType: (0, dataType_1.getJSONTypes)(definition.schemaType),
		        },
		    };
		    if (definition.before)
		        addBeforeRule.call(this, ruleGroup, rule, definition.before);
		    else
		        ruleGroup.rules.push(rule);
		    RULES.all[keyword] = rule;
		    (_a = definition.implements) === null || _a === void 0 ? void 0 : _a.forEach((kwd) => this.addKeyword(kwd));
		}
		function addBeforeRule(ruleGroup, rule, before) {
		    const i = ruleGroup.rules.findIndex((_rule) => _rule.keyword === before);
		    if (i >= 0) {
		        ruleGroup.rules.splice(i, 0, rule);
		    }
		    else {
		        ruleGroup.rules.push(rule);
		        this.logger.warn(`rule ${before} is not defined`);
		    }
		}
		function keywordMetaschema(def) {
		    let { metaSchema } = def;
		    if (metaSchema === undefined)
		        return;
		    if (def.$data && this.opts.$data)
		        metaSchema = schemaOrData(metaSchema);
		    def.validateSchema = this.compile(metaSchema, true);
		}
		const $dataRef = {
		    $ref: "https://raw.githubusercontent.com/ajv-validator/ajv/master/lib/refs/data.json#",
		};
		function schemaOrData(schema) {
		    return { anyOf: [schema, $dataRef] };
		}
		
	} (core$1));
	return core$1;
}

var draft7 = {};

var core = {};

var id = {};

var hasRequiredId;

function requireId () {
	if (hasRequiredId) return id;
	hasRequiredId = 1;
	Object.defineProperty(id, "__esModule", { value: true });
	const def = {
	    keyword: "id",
	    code() {
	        throw new Error('NOT SUPPORTED: keyword "id", use "$id" for schema ID');
	    },
	};
	id.default = def;
	
	return id;
}

var ref = {};

var hasRequiredRef;

function requireRef () {
	if (hasRequiredRef) return ref;
	hasRequiredRef = 1;
	Object.defineProperty(ref, "__esModule", { value: true });
	ref.callRef = ref.getValidate = void 0;
	const ref_error_1 = /*@__PURE__*/ requireRef_error();
	const code_1 = /*@__PURE__*/ requireCode();
	const codegen_1 = /*@__PURE__*/ requireCodegen();
	const names_1 = /*@__PURE__*/ requireNames();
	const compile_1 = /*@__PURE__*/ requireCompile();
	const util_1 = /*@__PURE__*/ requireUtil();
	const def = {
	    keyword: "$ref",
	    schemaType: "string",
	    code(cxt) {
	        const { gen, schema: $ref, it } = cxt;
	        const { baseId, schemaEnv: env, validateName, opts, self } = it;
	        const { root } = env;
	        if (($ref === "#" || $ref === "#/") && baseId === root.baseId)
	            return callRootRef();
	        const schOrEnv = compile_1.resolveRef.call(self, root, baseId, $ref);
	        if (schOrEnv === undefined)
	            throw new ref_error_1.default(it.opts.uriResolver, baseId, $ref);
	        if (schOrEnv instanceof compile_1.SchemaEnv)
	            return callValidate(schOrEnv);
	        return inlineRefSchema(schOrEnv);
	        function callRootRef() {
	            if (env === root)
	                return callRef(cxt, validateName, env, env.$async);
	            const rootName = gen.scopeValue("root", { ref: root });
	            return callRef(cxt, (0, codegen_1._) `${rootName}.validate`, root, root.$async);
	        }
	        function callValidate(sch) {
	            const v = getValidate(cxt, sch);
	            callRef(cxt, v, sch, sch.$async);
	        }
	        function inlineRefSchema(sch) {
	            const schName = gen.scopeValue("schema", opts.code.source === true ? { ref: sch, code: (0, codegen_1.stringify)(sch) } : { ref: sch });
	            const valid = gen.name("valid");
	            const schCxt = cxt.subschema({
	                schema: sch,
	                dataTypes: [],
	                schemaPath: codegen_1.nil,
	                topSchemaRef: schName,
	                errSchemaPath: $ref,
	            }, valid);
	            cxt.mergeEvaluated(schCxt);
	            cxt.ok(valid);
	        }
	    },
	};
	function getValidate(cxt, sch) {
	    const { gen } = cxt;
	    return sch.validate
	        ? gen.scopeValue("validate", { ref: sch.validate })
	        : (0, codegen_1._) `${gen.scopeValue("wrapper", { ref: sch })}.validate`;
	}
	ref.getValidate = getValidate;
	function callRef(cxt, v, sch, $async) {
	    const { gen, it } = cxt;
	    const { allErrors, schemaEnv: env, opts } = it;
	    const passCxt = opts.passContext ? names_1.default.this : codegen_1.nil;
	    if ($async)
	        callAsyncRef();
	    else
	        callSyncRef();
	    function callAsyncRef() {
	        if (!env.$async)
	            throw new Error("async schema referenced by sync schema");
	        const valid = gen.let("valid");
	        gen.try(() => {
	            gen.code((0, codegen_1._) `await ${(0, code_1.callValidateCode)(cxt, v, passCxt)}`);
	            addEvaluatedFrom(v); // TODO will not work with async, it has to be returned with the result
	            if (!allErrors)
	                gen.assign(valid, true);
	        }, (e) => {
	            gen.if((0, codegen_1._) `!(${e} instanceof ${it.ValidationError})`, () => gen.throw(e));
	            addErrorsFrom(e);
	            if (!allErrors)
	                gen.assign(valid, false);
	        });
	        cxt.ok(valid);
	    }
	    function callSyncRef() {
	        cxt.result((0, code_1.callValidateCode)(cxt, v, passCxt), () => addEvaluatedFrom(v), () => addErrorsFrom(v));
	    }
	    function addErrorsFrom(source) {
	        const errs = (0, codegen_1._) `${source}.errors`;
	        gen.assign(names_1.default.vErrors, (0, codegen_1._) `${names_1.default.vErrors} === null ? ${errs} : ${names_1.default.vErrors}.concat(${errs})`); // TODO tagged
	        gen.assign(names_1.default.errors, (0, codegen_1._) `${names_1.default.vErrors}.length`);
	    }
	    function addEvaluatedFrom(source) {
	        var _a;
	        if (!it.opts.unevaluated)
	            return;
	        const schEvaluated = (_a = sch === null || sch === void 0 ? void 0 : sch.validate) === null || _a === void 0 ? void 0 : _a.evaluated;
	        // TODO refactor
	        if (it.props !== true) {
	            if (schEvaluated && !schEvaluated.dynamicProps) {
	                if (schEvaluated.props !== undefined) {
	                    it.props = util_1.mergeEvaluated.props(gen, schEvaluated.props, it.props);
	                }
	            }
	            else {
	                const props = gen.var("props", (0, codegen_1._) `${source}.evaluated.props`);
	                it.props = util_1.mergeEvaluated.props(gen, props, it.props, codegen_1.Name);
	            }
	        }
	        if (it.items !== true) {
	            if (schEvaluated && !schEvaluated.dynamicItems) {
	                if (schEvaluated.items !== undefined) {
	                    it.items = util_1.mergeEvaluated.items(gen, schEvaluated.items, it.items);
	                }
	            }
	            else {
	                const items = gen.var("items", (0, codegen_1._) `${source}.evaluated.items`);
	                it.items = util_1.mergeEvaluated.items(gen, items, it.items, codegen_1.Name);
	            }
	        }
	    }
	}
	ref.callRef = callRef;
	ref.default = def;
	
	return ref;
}

var hasRequiredCore;

function requireCore () {
	if (hasRequiredCore) return core;
	hasRequiredCore = 1;
	Object.defineProperty(core, "__esModule", { value: true });
	const id_1 = /*@__PURE__*/ requireId();
	const ref_1 = /*@__PURE__*/ requireRef();
	const core$1 = [
	    "$schema",
	    "$id",
	    "$defs",
	    "$vocabulary",
	    { keyword: "$comment" },
	    "definitions",
	    id_1.default,
	    ref_1.default,
	];
	core.default = core$1;
	
	return core;
}

var validation = {};

var limitNumber = {};

var hasRequiredLimitNumber;

function requireLimitNumber () {
	if (hasRequiredLimitNumber) return limitNumber;
	hasRequiredLimitNumber = 1;
	Object.defineProperty(limitNumber, "__esModule", { value: true });
	const codegen_1 = /*@__PURE__*/ requireCodegen();
	const ops = codegen_1.operators;
	const KWDs = {
	    maximum: { okStr: "<=", ok: ops.LTE, fail: ops.GT },
	    minimum: { okStr: ">=", ok: ops.GTE, fail: ops.LT },
	    exclusiveMaximum: { okStr: "<", ok: ops.LT, fail: ops.GTE },
	    exclusiveMinimum: { okStr: ">", ok: ops.GT, fail: ops.LTE },
	};
	const error = {
	    message: ({ keyword, schemaCode }) => (0, codegen_1.str) `must be ${KWDs[keyword].okStr} ${schemaCode}`,
	    params: ({ keyword, schemaCode }) => (0, codegen_1._) `{comparison: ${KWDs[keyword].okStr}, limit: ${schemaCode}}`,
	};
	const def = {
	    keyword: Object.keys(KWDs),
	    type: "number",
	    schemaType: "number",
	    $data: true,
	    error,
	    code(cxt) {
	        const { keyword, data, schemaCode } = cxt;
	        cxt.fail$data((0, codegen_1._) `${data} ${KWDs[keyword].fail} ${schemaCode} || isNaN(${data})`);
	    },
	};
	limitNumber.default = def;
	
	return limitNumber;
}

var multipleOf = {};

var hasRequiredMultipleOf;

function requireMultipleOf () {
	if (hasRequiredMultipleOf) return multipleOf;
	hasRequiredMultipleOf = 1;
	Object.defineProperty(multipleOf, "__esModule", { value: true });
	const codegen_1 = /*@__PURE__*/ requireCodegen();
	const error = {
	    message: ({ schemaCode }) => (0, codegen_1.str) `must be multiple of ${schemaCode}`,
	    params: ({ schemaCode }) => (0, codegen_1._) `{multipleOf: ${schemaCode}}`,
	};
	const def = {
	    keyword: "multipleOf",
	    type: "number",
	    schemaType: "number",
	    $data: true,
	    error,
	    code(cxt) {
	        const { gen, data, schemaCode, it } = cxt;
	        // const bdt = bad$DataType(schemaCode, <string>def.schemaType, $data)
	        const prec = it.opts.multipleOfPrecision;
	        const res = gen.let("res");
	        const invalid = prec
	            ? (0, codegen_1._) `Math.abs(Math.round(${res}) - ${res}) > 1e-${prec}`
	            : (0, codegen_1._) `${res} !== parseInt(${res})`;
	        cxt.fail$data((0, codegen_1._) `(${schemaCode} === 0 || (${res} = ${data}/${schemaCode}, ${invalid}))`);
	    },
	};
	multipleOf.default = def;
	
	return multipleOf;
}

var limitLength = {};

var ucs2length = {};

var hasRequiredUcs2length;

function requireUcs2length () {
	if (hasRequiredUcs2length) return ucs2length;
	hasRequiredUcs2length = 1;
	Object.defineProperty(ucs2length, "__esModule", { value: true });
	// https://mathiasbynens.be/notes/javascript-encoding
	// https://github.com/bestiejs/punycode.js - punycode.ucs2.decode
	function ucs2length$1(str) {
	    const len = str.length;
	    let length = 0;
	    let pos = 0;
	    let value;
	    while (pos < len) {
	        length++;
	        value = str.charCodeAt(pos++);
	        if (value >= 0xd800 && value <= 0xdbff && pos < len) {
	            // high surrogate, and there is a next character
	            value = str.charCodeAt(pos);
	            if ((value & 0xfc00) === 0xdc00)
	                pos++; // low surrogate
	        }
	    }
	    return length;
	}
	ucs2length.default = ucs2length$1;
	ucs2length$1.code = 'require("ajv/dist/runtime/ucs2length").default';
	
	return ucs2length;
}

var hasRequiredLimitLength;

function requireLimitLength () {
	if (hasRequiredLimitLength) return limitLength;
	hasRequiredLimitLength = 1;
	Object.defineProperty(limitLength, "__esModule", { value: true });
	const codegen_1 = /*@__PURE__*/ requireCodegen();
	const util_1 = /*@__PURE__*/ requireUtil();
	const ucs2length_1 = /*@__PURE__*/ requireUcs2length();
	const error = {
	    message({ keyword, schemaCode }) {
	        const comp = keyword === "maxLength" ? "more" : "fewer";
	        return (0, codegen_1.str) `must NOT have ${comp} than ${schemaCode} characters`;
	    },
	    params: ({ schemaCode }) => (0, codegen_1._) `{limit: ${schemaCode}}`,
	};
	const def = {
	    keyword: ["maxLength", "minLength"],
	    type: "string",
	    schemaType: "number",
	    $data: true,
	    error,
	    code(cxt) {
	        const { keyword, data, schemaCode, it } = cxt;
	        const op = keyword === "maxLength" ? codegen_1.operators.GT : codegen_1.operators.LT;
	        const len = it.opts.unicode === false ? (0, codegen_1._) `${data}.length` : (0, codegen_1._) `${(0, util_1.useFunc)(cxt.gen, ucs2length_1.default)}(${data})`;
	        cxt.fail$data((0, codegen_1._) `${len} ${op} ${schemaCode}`);
	    },
	};
	limitLength.default = def;
	
	return limitLength;
}

var pattern$1 = {};

var hasRequiredPattern;

function requirePattern () {
	if (hasRequiredPattern) return pattern$1;
	hasRequiredPattern = 1;
	Object.defineProperty(pattern$1, "__esModule", { value: true });
	const code_1 = /*@__PURE__*/ requireCode();
	const util_1 = /*@__PURE__*/ requireUtil();
	const codegen_1 = /*@__PURE__*/ requireCodegen();
	const error = {
	    message: ({ schemaCode }) => (0, codegen_1.str) `must match pattern "${schemaCode}"`,
	    params: ({ schemaCode }) => (0, codegen_1._) `{pattern: ${schemaCode}}`,
	};
	const def = {
	    keyword: "pattern",
	    type: "string",
	    schemaType: "string",
	    $data: true,
	    error,
	    code(cxt) {
	        const { gen, data, $data, schema, schemaCode, it } = cxt;
	        const u = it.opts.unicodeRegExp ? "u" : "";
	        if ($data) {
	            const { regExp } = it.opts.code;
	            const regExpCode = regExp.code === "new RegExp" ? (0, codegen_1._) `new RegExp` : (0, util_1.useFunc)(gen, regExp);
	            const valid = gen.let("valid");
	            gen.try(() => gen.assign(valid, (0, codegen_1._) `${regExpCode}(${schemaCode}, ${u}).test(${data})`), () => gen.assign(valid, false));
	            cxt.fail$data((0, codegen_1._) `!${valid}`);
	        }
	        else {
	            const regExp = (0, code_1.usePattern)(cxt, schema);
	            cxt.fail$data((0, codegen_1._) `!${regExp}.test(${data})`);
	        }
	    },
	};
	pattern$1.default = def;
	
	return pattern$1;
}

var limitProperties = {};

var hasRequiredLimitProperties;

function requireLimitProperties () {
	if (hasRequiredLimitProperties) return limitProperties;
	hasRequiredLimitProperties = 1;
	Object.defineProperty(limitProperties, "__esModule", { value: true });
	const codegen_1 = /*@__PURE__*/ requireCodegen();
	const error = {
	    message({ keyword, schemaCode }) {
	        const comp = keyword === "maxProperties" ? "more" : "fewer";
	        return (0, codegen_1.str) `must NOT have ${comp} than ${schemaCode} properties`;
	    },
	    params: ({ schemaCode }) => (0, codegen_1._) `{limit: ${schemaCode}}`,
	};
	const def = {
	    keyword: ["maxProperties", "minProperties"],
	    type: "object",
	    schemaType: "number",
	    $data: true,
	    error,
	    code(cxt) {
	        const { keyword, data, schemaCode } = cxt;
	        const op = keyword === "maxProperties" ? codegen_1.operators.GT : codegen_1.operators.LT;
	        cxt.fail$data((0, codegen_1._) `Object.keys(${data}).length ${op} ${schemaCode}`);
	    },
	};
	limitProperties.default = def;
	
	return limitProperties;
}

var required = {};

var hasRequiredRequired;

function requireRequired () {
	if (hasRequiredRequired) return required;
	hasRequiredRequired = 1;
	Object.defineProperty(required, "__esModule", { value: true });
	const code_1 = /*@__PURE__*/ requireCode();
	const codegen_1 = /*@__PURE__*/ requireCodegen();
	const util_1 = /*@__PURE__*/ requireUtil();
	const error = {
	    message: ({ params: { missingProperty } }) => (0, codegen_1.str) `must have required property '${missingProperty}'`,
	    params: ({ params: { missingProperty } }) => (0, codegen_1._) `{missingProperty: ${missingProperty}}`,
	};
	const def = {
	    keyword: "required",
	    type: "object",
	    schemaType: "array",
	    $data: true,
	    error,
	    code(cxt) {
	        const { gen, schema, schemaCode, data, $data, it } = cxt;
	        const { opts } = it;
	        if (!$data && schema.length === 0)
	            return;
	        const useLoop = schema.length >= opts.loopRequired;
	        if (it.allErrors)
	            allErrorsMode();
	        else
	            exitOnErrorMode();
	        if (opts.strictRequired) {
	            const props = cxt.parentSchema.properties;
	            const { definedProperties } = cxt.it;
	            for (const requiredKey of schema) {
	                if ((props === null || props === void 0 ? void 0 : props[requiredKey]) === undefined && !definedProperties.has(requiredKey)) {
	                    const schemaPath = it.schemaEnv.baseId + it.errSchemaPath;
	                    const msg = `required property "${requiredKey}" is not defined at "${schemaPath}" (strictRequired)`;
	                    (0, util_1.checkStrictMode)(it, msg, it.opts.strictRequired);
	                }
	            }
	        }
	        function allErrorsMode() {
	            if (useLoop || $data) {
	                cxt.block$data(codegen_1.nil, loopAllRequired);
	            }
	            else {
	                for (const prop of schema) {
	                    (0, code_1.checkReportMissingProp)(cxt, prop);
	                }
	            }
	        }
	        function exitOnErrorMode() {
	            const missing = gen.let("missing");
	            if (useLoop || $data) {
	                const valid = gen.let("valid", true);
	                cxt.block$data(valid, () => loopUntilMissing(missing, valid));
	                cxt.ok(valid);
	            }
	            else {
	                gen.if((0, code_1.checkMissingProp)(cxt, schema, missing));
	                (0, code_1.reportMissingProp)(cxt, missing);
	                gen.else();
	            }
	        }
	        function loopAllRequired() {
	            gen.forOf("prop", schemaCode, (prop) => {
	                cxt.setParams({ missingProperty: prop });
	                gen.if((0, code_1.noPropertyInData)(gen, data, prop, opts.ownProperties), () => cxt.error());
	            });
	        }
	        function loopUntilMissing(missing, valid) {
	            cxt.setParams({ missingProperty: missing });
	            gen.forOf(missing, schemaCode, () => {
	                gen.assign(valid, (0, code_1.propertyInData)(gen, data, missing, opts.ownProperties));
	                gen.if((0, codegen_1.not)(valid), () => {
	                    cxt.error();
	                    gen.break();
	                });
	            }, codegen_1.nil);
	        }
	    },
	};
	required.default = def;
	
	return required;
}

var limitItems = {};

var hasRequiredLimitItems;

function requireLimitItems () {
	if (hasRequiredLimitItems) return limitItems;
	hasRequiredLimitItems = 1;
	Object.defineProperty(limitItems, "__esModule", { value: true });
	const codegen_1 = /*@__PURE__*/ requireCodegen();
	const error = {
	    message({ keyword, schemaCode }) {
	        const comp = keyword === "maxItems" ? "more" : "fewer";
	        return (0, codegen_1.str) `must NOT have ${comp} than ${schemaCode} items`;
	    },
	    params: ({ schemaCode }) => (0, codegen_1._) `{limit: ${schemaCode}}`,
	};
	const def = {
	    keyword: ["maxItems", "minItems"],
	    type: "array",
	    schemaType: "number",
	    $data: true,
	    error,
	    code(cxt) {
	        const { keyword, data, schemaCode } = cxt;
	        const op = keyword === "maxItems" ? codegen_1.operators.GT : codegen_1.operators.LT;
	        cxt.fail$data((0, codegen_1._) `${data}.length ${op} ${schemaCode}`);
	    },
	};
	limitItems.default = def;
	
	return limitItems;
}

var uniqueItems = {};

var equal = {};

var hasRequiredEqual;

function requireEqual () {
	if (hasRequiredEqual) return equal;
	hasRequiredEqual = 1;
	Object.defineProperty(equal, "__esModule", { value: true });
	// https://github.com/ajv-validator/ajv/issues/889
	const equal$1 = requireFastDeepEqual();
	equal$1.code = 'require("ajv/dist/runtime/equal").default';
	equal.default = equal$1;
	
	return equal;
}

var hasRequiredUniqueItems;

function requireUniqueItems () {
	if (hasRequiredUniqueItems) return uniqueItems;
	hasRequiredUniqueItems = 1;
	Object.defineProperty(uniqueItems, "__esModule", { value: true });
	const dataType_1 = /*@__PURE__*/ requireDataType();
	const codegen_1 = /*@__PURE__*/ requireCodegen();
	const util_1 = /*@__PURE__*/ requireUtil();
	const equal_1 = /*@__PURE__*/ requireEqual();
	const error = {
	    message: ({ params: { i, j } }) => (0, codegen_1.str) `must NOT have duplicate items (items ## ${j} and ${i} are identical)`,
	    params: ({ params: { i, j } }) => (0, codegen_1._) `{i: ${i}, j: ${j}}`,
	};
	const def = {
	    keyword: "uniqueItems",
	    type: "array",
	    schemaType: "boolean",
	    $data: true,
	    error,
	    code(cxt) {
	        const { gen, data, $data, schema, parentSchema, schemaCode, it } = cxt;
	        if (!$data && !schema)
	            return;
	        const valid = gen.let("valid");
	        const itemTypes = parentSchema.items ? (0, dataType_1.getSchemaTypes)(parentSchema.items) : [];
	        cxt.block$data(valid, validateUniqueItems, (0, codegen_1._) `${schemaCode} === false`);
	        cxt.ok(valid);
	        function validateUniqueItems() {
	            const i = gen.let("i", (0, codegen_1._) `${data}.length`);
	            const j = gen.let("j");
	            cxt.setParams({ i, j });
	            gen.assign(valid, true);
	            gen.if((0, codegen_1._) `${i} > 1`, () => (canOptimize() ? loopN : loopN2)(i, j));
	        }
	        function canOptimize() {
	            return itemTypes.length > 0 && !itemTypes.some((t) => t === "object" || t === "array");
	        }
	        function loopN(i, j) {
	            const item = gen.name("item");
	            const wrongType = (0, dataType_1.checkDataTypes)(itemTypes, item, it.opts.strictNumbers, dataType_1.DataType.Wrong);
	            const indices = gen.const("indices", (0, codegen_1._) `{}`);
	            gen.for((0, codegen_1._) `;${i}--;`, () => {
	                gen.let(item, (0, codegen_1._) `${data}[${i}]`);
	                gen.if(wrongType, (0, codegen_1._) `continue`);
	                if (itemTypes.length > 1)
	                    gen.if((0, codegen_1._) `typeof ${item} == "string"`, (0, codegen_1._) `${item} += "_"`);
	                gen
	                    .if((0, codegen_1._) `typeof ${indices}[${item}] == "number"`, () => {
	                    gen.assign(j, (0, codegen_1._) `${indices}[${item}]`);
	                    cxt.error();
	                    gen.assign(valid, false).break();
	                })
	                    .code((0, codegen_1._) `${indices}[${item}] = ${i}`);
	            });
	        }
	        function loopN2(i, j) {
	            const eql = (0, util_1.useFunc)(gen, equal_1.default);
	            const outer = gen.name("outer");
	            gen.label(outer).for((0, codegen_1._) `;${i}--;`, () => gen.for((0, codegen_1._) `${j} = ${i}; ${j}--;`, () => gen.if((0, codegen_1._) `${eql}(${data}[${i}], ${data}[${j}])`, () => {
	                cxt.error();
	                gen.assign(valid, false).break(outer);
	            })));
	        }
	    },
	};
	uniqueItems.default = def;
	
	return uniqueItems;
}

var _const = {};

var hasRequired_const;

function require_const () {
	if (hasRequired_const) return _const;
	hasRequired_const = 1;
	Object.defineProperty(_const, "__esModule", { value: true });
	const codegen_1 = /*@__PURE__*/ requireCodegen();
	const util_1 = /*@__PURE__*/ requireUtil();
	const equal_1 = /*@__PURE__*/ requireEqual();
	const error = {
	    message: "must be equal to constant",
	    params: ({ schemaCode }) => (0, codegen_1._) `{allowedValue: ${schemaCode}}`,
	};
	const def = {
	    keyword: "const",
	    $data: true,
	    error,
	    code(cxt) {
	        const { gen, data, $data, schemaCode, schema } = cxt;
	        if ($data || (schema && typeof schema == "object")) {
	            cxt.fail$data((0, codegen_1._) `!${(0, util_1.useFunc)(gen, equal_1.default)}(${data}, ${schemaCode})`);
	        }
	        else {
	            cxt.fail((0, codegen_1._) `${schema} !== ${data}`);
	        }
	    },
	};
	_const.default = def;
	
	return _const;
}

var _enum = {};

var hasRequired_enum;

function require_enum () {
	if (hasRequired_enum) return _enum;
	hasRequired_enum = 1;
	Object.defineProperty(_enum, "__esModule", { value: true });
	const codegen_1 = /*@__PURE__*/ requireCodegen();
	const util_1 = /*@__PURE__*/ requireUtil();
	const equal_1 = /*@__PURE__*/ requireEqual();
	const error = {
	    message: "must be equal to one of the allowed values",
	    params: ({ schemaCode }) => (0, codegen_1._) `{allowedValues: ${schemaCode}}`,
	};
	const def = {
	    keyword: "enum",
	    schemaType: "array",
	    $data: true,
	    error,
	    code(cxt) {
	        const { gen, data, $data, schema, schemaCode, it } = cxt;
	        if (!$data && schema.length === 0)
	            throw new Error("enum must have non-empty array");
	        const useLoop = schema.length >= it.opts.loopEnum;
	        let eql;
	        const getEql = () => (eql !== null && eql !== void 0 ? eql : (eql = (0, util_1.useFunc)(gen, equal_1.default)));
	        let valid;
	        if (useLoop || $data) {
	            valid = gen.let("valid");
	            cxt.block$data(valid, loopEnum);
	        }
	        else {
	            /* istanbul ignore if */
	            if (!Array.isArray(schema))
	                throw new Error("ajv implementation error");
	            const vSchema = gen.const("vSchema", schemaCode);
	            valid = (0, codegen_1.or)(...schema.map((_x, i) => equalCode(vSchema, i)));
	        }
	        cxt.pass(valid);
	        function loopEnum() {
	            gen.assign(valid, false);
	            gen.forOf("v", schemaCode, (v) => gen.if((0, codegen_1._) `${getEql()}(${data}, ${v})`, () => gen.assign(valid, true).break()));
	        }
	        function equalCode(vSchema, i) {
	            const sch = schema[i];
	            return typeof sch === "object" && sch !== null
	                ? (0, codegen_1._) `${getEql()}(${data}, ${vSchema}[${i}])`
	                : (0, codegen_1._) `${data} === ${sch}`;
	        }
	    },
	};
	_enum.default = def;
	
	return _enum;
}

var hasRequiredValidation;

function requireValidation () {
	if (hasRequiredValidation) return validation;
	hasRequiredValidation = 1;
	Object.defineProperty(validation, "__esModule", { value: true });
	const limitNumber_1 = /*@__PURE__*/ requireLimitNumber();
	const multipleOf_1 = /*@__PURE__*/ requireMultipleOf();
	const limitLength_1 = /*@__PURE__*/ requireLimitLength();
	const pattern_1 = /*@__PURE__*/ requirePattern();
	const limitProperties_1 = /*@__PURE__*/ requireLimitProperties();
	const required_1 = /*@__PURE__*/ requireRequired();
	const limitItems_1 = /*@__PURE__*/ requireLimitItems();
	const uniqueItems_1 = /*@__PURE__*/ requireUniqueItems();
	const const_1 = /*@__PURE__*/ require_const();
	const enum_1 = /*@__PURE__*/ require_enum();
	const validation$1 = [
	    // number
	    limitNumber_1.default,
	    multipleOf_1.default,
	    // string
	    limitLength_1.default,
	    pattern_1.default,
	    // object
	    limitProperties_1.default,
	    required_1.default,
	    // array
	    limitItems_1.default,
	    uniqueItems_1.default,
	    // any
	    { keyword: "type", schemaType: ["string", "array"] },
	    { keyword: "nullable", schemaType: "boolean" },
	    const_1.default,
	    enum_1.default,
	];
	validation.default = validation$1;
	
	return validation;
}

var applicator = {};

var additionalItems = {};

var hasRequiredAdditionalItems;

function requireAdditionalItems () {
	if (hasRequiredAdditionalItems) return additionalItems;
	hasRequiredAdditionalItems = 1;
	Object.defineProperty(additionalItems, "__esModule", { value: true });
	additionalItems.validateAdditionalItems = void 0;
	const codegen_1 = /*@__PURE__*/ requireCodegen();
	const util_1 = /*@__PURE__*/ requireUtil();
	const error = {
	    message: ({ params: { len } }) => (0, codegen_1.str) `must NOT have more than ${len} items`,
	    params: ({ params: { len } }) => (0, codegen_1._) `{limit: ${len}}`,
	};
	const def = {
	    keyword: "additionalItems",
	    type: "array",
	    schemaType: ["boolean", "object"],
	    before: "uniqueItems",
	    error,
	    code(cxt) {
	        const { parentSchema, it } = cxt;
	        const { items } = parentSchema;
	        if (!Array.isArray(items)) {
	            (0, util_1.checkStrictMode)(it, '"additionalItems" is ignored when "items" is not an array of schemas');
	            return;
	        }
	        validateAdditionalItems(cxt, items);
	    },
	};
	function validateAdditionalItems(cxt, items) {
	    const { gen, schema, data, keyword, it } = cxt;
	    it.items = true;
	    const len = gen.const("len", (0, codegen_1._) `${data}.length`);
	    if (schema === false) {
	        cxt.setParams({ len: items.length });
	        cxt.pass((0, codegen_1._) `${len} <= ${items.length}`);
	    }
	    else if (typeof schema == "object" && !(0, util_1.alwaysValidSchema)(it, schema)) {
	        const valid = gen.var("valid", (0, codegen_1._) `${len} <= ${items.length}`); // TODO var
	        gen.if((0, codegen_1.not)(valid), () => validateItems(valid));
	        cxt.ok(valid);
	    }
	    function validateItems(valid) {
	        gen.forRange("i", items.length, len, (i) => {
	            cxt.subschema({ keyword, dataProp: i, dataPropType: util_1.Type.Num }, valid);
	            if (!it.allErrors)
	                gen.if((0, codegen_1.not)(valid), () => gen.break());
	        });
	    }
	}
	additionalItems.validateAdditionalItems = validateAdditionalItems;
	additionalItems.default = def;
	
	return additionalItems;
}

var prefixItems = {};

var items = {};

var hasRequiredItems;

function requireItems () {
	if (hasRequiredItems) return items;
	hasRequiredItems = 1;
	Object.defineProperty(items, "__esModule", { value: true });
	items.validateTuple = void 0;
	const codegen_1 = /*@__PURE__*/ requireCodegen();
	const util_1 = /*@__PURE__*/ requireUtil();
	const code_1 = /*@__PURE__*/ requireCode();
	const def = {
	    keyword: "items",
	    type: "array",
	    schemaType: ["object", "array", "boolean"],
	    before: "uniqueItems",
	    code(cxt) {
	        const { schema, it } = cxt;
	        if (Array.isArray(schema))
	            return validateTuple(cxt, "additionalItems", schema);
	        it.items = true;
	        if ((0, util_1.alwaysValidSchema)(it, schema))
	            return;
	        cxt.ok((0, code_1.validateArray)(cxt));
	    },
	};
	function validateTuple(cxt, extraItems, schArr = cxt.schema) {
	    const { gen, parentSchema, data, keyword, it } = cxt;
	    checkStrictTuple(parentSchema);
	    if (it.opts.unevaluated && schArr.length && it.items !== true) {
	        it.items = util_1.mergeEvaluated.items(gen, schArr.length, it.items);
	    }
	    const valid = gen.name("valid");
	    const len = gen.const("len", (0, codegen_1._) `${data}.length`);
	    schArr.forEach((sch, i) => {
	        if ((0, util_1.alwaysValidSchema)(it, sch))
	            return;
	        gen.if((0, codegen_1._) `${len} > ${i}`, () => cxt.subschema({
	            keyword,
	            schemaProp: i,
	            dataProp: i,
	        }, valid));
	        cxt.ok(valid);
	    });
	    function checkStrictTuple(sch) {
	        const { opts, errSchemaPath } = it;
	        const l = schArr.length;
	        const fullTuple = l === sch.minItems && (l === sch.maxItems || sch[extraItems] === false);
	        if (opts.strictTuples && !fullTuple) {
	            const msg = `"${keyword}" is ${l}-tuple, but minItems or maxItems/${extraItems} are not specified or different at path "${errSchemaPath}"`;
	            (0, util_1.checkStrictMode)(it, msg, opts.strictTuples);
	        }
	    }
	}
	items.validateTuple = validateTuple;
	items.default = def;
	
	return items;
}

var hasRequiredPrefixItems;

function requirePrefixItems () {
	if (hasRequiredPrefixItems) return prefixItems;
	hasRequiredPrefixItems = 1;
	Object.defineProperty(prefixItems, "__esModule", { value: true });
	const items_1 = /*@__PURE__*/ requireItems();
	const def = {
	    keyword: "prefixItems",
	    type: "array",
	    schemaType: ["array"],
	    before: "uniqueItems",
	    code: (cxt) => (0, items_1.validateTuple)(cxt, "items"),
	};
	prefixItems.default = def;
	
	return prefixItems;
}

var items2020 = {};

var hasRequiredItems2020;

function requireItems2020 () {
	if (hasRequiredItems2020) return items2020;
	hasRequiredItems2020 = 1;
	Object.defineProperty(items2020, "__esModule", { value: true });
	const codegen_1 = /*@__PURE__*/ requireCodegen();
	const util_1 = /*@__PURE__*/ requireUtil();
	const code_1 = /*@__PURE__*/ requireCode();
	const additionalItems_1 = /*@__PURE__*/ requireAdditionalItems();
	const error = {
	    message: ({ params: { len } }) => (0, codegen_1.str) `must NOT have more than ${len} items`,
	    params: ({ params: { len } }) => (0, codegen_1._) `{limit: ${len}}`,
	};
	const def = {
	    keyword: "items",
	    type: "array",
	    schemaType: ["object", "boolean"],
	    before: "uniqueItems",
	    error,
	    code(cxt) {
	        const { schema, parentSchema, it } = cxt;
	        const { prefixItems } = parentSchema;
	        it.items = true;
	        if ((0, util_1.alwaysValidSchema)(it, schema))
	            return;
	        if (prefixItems)
	            (0, additionalItems_1.validateAdditionalItems)(cxt, prefixItems);
	        else
	            cxt.ok((0, code_1.validateArray)(cxt));
	    },
	};
	items2020.default = def;
	
	return items2020;
}

var contains = {};

var hasRequiredContains;

function requireContains () {
	if (hasRequiredContains) return contains;
	hasRequiredContains = 1;
	Object.defineProperty(contains, "__esModule", { value: true });
	const codegen_1 = /*@__PURE__*/ requireCodegen();
	const util_1 = /*@__PURE__*/ requireUtil();
	const error = {
	    message: ({ params: { min, max } }) => max === undefined
	        ? (0, codegen_1.str) `must contain at least ${min} valid item(s)`
	        : (0, codegen_1.str) `must contain at least ${min} and no more than ${max} valid item(s)`,
	    params: ({ params: { min, max } }) => max === undefined ? (0, codegen_1._) `{minContains: ${min}}` : (0, codegen_1._) `{minContains: ${min}, maxContains: ${max}}`,
	};
	const def = {
	    keyword: "contains",
	    type: "array",
	    schemaType: ["object", "boolean"],
	    before: "uniqueItems",
	    trackErrors: true,
	    error,
	    code(cxt) {
	        const { gen, schema, parentSchema, data, it } = cxt;
	        let min;
	        let max;
	        const { minContains, maxContains } = parentSchema;
	        if (it.opts.next) {
	            min = minContains === undefined ? 1 : minContains;
	            max = maxContains;
	        }
	        else {
	            min = 1;
	        }
	        const len = gen.const("len", (0, codegen_1._) `${data}.length`);
	        cxt.setParams({ min, max });
	        if (max === undefined && min === 0) {
	            (0, util_1.checkStrictMode)(it, `"minContains" == 0 without "maxContains": "contains" keyword ignored`);
	            return;
	        }
	        if (max !== undefined && min > max) {
	            (0, util_1.checkStrictMode)(it, `"minContains" > "maxContains" is always invalid`);
	            cxt.fail();
	            return;
	        }
	        if ((0, util_1.alwaysValidSchema)(it, schema)) {
	            let cond = (0, codegen_1._) `${len} >= ${min}`;
	            if (max !== undefined)
	                cond = (0, codegen_1._) `${cond} && ${len} <= ${max}`;
	            cxt.pass(cond);
	            return;
	        }
	        it.items = true;
	        const valid = gen.name("valid");
	        if (max === undefined && min === 1) {
	            validateItems(valid, () => gen.if(valid, () => gen.break()));
	        }
	        else if (min === 0) {
	            gen.let(valid, true);
	            if (max !== undefined)
	                gen.if((0, codegen_1._) `${data}.length > 0`, validateItemsWithCount);
	        }
	        else {
	            gen.let(valid, false);
	            validateItemsWithCount();
	        }
	        cxt.result(valid, () => cxt.reset());
	        function validateItemsWithCount() {
	            const schValid = gen.name("_valid");
	            const count = gen.let("count", 0);
	            validateItems(schValid, () => gen.if(schValid, () => checkLimits(count)));
	        }
	        function validateItems(_valid, block) {
	            gen.forRange("i", 0, len, (i) => {
	                cxt.subschema({
	                    keyword: "contains",
	                    dataProp: i,
	                    dataPropType: util_1.Type.Num,
	                    compositeRule: true,
	                }, _valid);
	                block();
	            });
	        }
	        function checkLimits(count) {
	            gen.code((0, codegen_1._) `${count}++`);
	            if (max === undefined) {
	                gen.if((0, codegen_1._) `${count} >= ${min}`, () => gen.assign(valid, true).break());
	            }
	            else {
	                gen.if((0, codegen_1._) `${count} > ${max}`, () => gen.assign(valid, false).break());
	                if (min === 1)
	                    gen.assign(valid, true);
	                else
	                    gen.if((0, codegen_1._) `${count} >= ${min}`, () => gen.assign(valid, true));
	            }
	        }
	    },
	};
	contains.default = def;
	
	return contains;
}

var dependencies = {};

var hasRequiredDependencies;

function requireDependencies () {
	if (hasRequiredDependencies) return dependencies;
	hasRequiredDependencies = 1;
	(function (exports) {
		Object.defineProperty(exports, "__esModule", { value: true });
		exports.validateSchemaDeps = exports.validatePropertyDeps = exports.error = void 0;
		const codegen_1 = /*@__PURE__*/ requireCodegen();
		const util_1 = /*@__PURE__*/ requireUtil();
		const code_1 = /*@__PURE__*/ requireCode();
		exports.error = {
		    message: ({ params: { property, depsCount, deps } }) => {
		        const property_ies = depsCount === 1 ? "property" : "properties";
		        return (0, codegen_1.str) `must have ${property_ies} ${deps} when property ${property} is present`;
		    },
		    params: ({ params: { property, depsCount, deps, missingProperty } }) => (0, codegen_1._) `{property: ${property},
    missingProperty: ${missingProperty},
    depsCount: ${depsCount},
    deps: ${deps}}`, // TODO change to reference
		};
		const def = {
		    keyword: "dependencies",
		    type: "object",
		    schemaType: "object",
		    error: exports.error,
		    code(cxt) {
		        const [propDeps, schDeps] = splitDependencies(cxt);
		        validatePropertyDeps(cxt, propDeps);
		        validateSchemaDeps(cxt, schDeps);
		    },
		};
		function splitDependencies({ schema }) {
		    const propertyDeps = {};
		    const schemaDeps = {};
		    for (const key in schema) {
		        if (key === "__proto__")
		            continue;
		        const deps = Array.isArray(schema[key]) ? propertyDeps : schemaDeps;
		        deps[key] = schema[key];
		    }
		    return [propertyDeps, schemaDeps];
		}
		function validatePropertyDeps(cxt, propertyDeps = cxt.schema) {
		    const { gen, data, it } = cxt;
		    if (Object.keys(propertyDeps).length === 0)
		        return;
		    const missing = gen.let("missing");
		    for (const prop in propertyDeps) {
		        const deps = propertyDeps[prop];
		        if (deps.length === 0)
		            continue;
		        const hasProperty = (0, code_1.propertyInData)(gen, data, prop, it.opts.ownProperties);
		        cxt.setParams({
		            property: prop,
		            depsCount: deps.length,
		            deps: deps.join(", "),
		        });
		        if (it.allErrors) {
		            gen.if(hasProperty, () => {
		                for (const depProp of deps) {
		                    (0, code_1.checkReportMissingProp)(cxt, depProp);
		                }
		            });
		        }
		        else {
		            gen.if((0, codegen_1._) `${hasProperty} && (${(0, code_1.checkMissingProp)(cxt, deps, missing)})`);
		            (0, code_1.reportMissingProp)(cxt, missing);
		            gen.else();
		        }
		    }
		}
		exports.validatePropertyDeps = validatePropertyDeps;
		function validateSchemaDeps(cxt, schemaDeps = cxt.schema) {
		    const { gen, data, keyword, it } = cxt;
		    const valid = gen.name("valid");
		    for (const prop in schemaDeps) {
		        if ((0, util_1.alwaysValidSchema)(it, schemaDeps[prop]))
		            continue;
		        gen.if((0, code_1.propertyInData)(gen, data, prop, it.opts.ownProperties), () => {
		            const schCxt = cxt.subschema({ keyword, schemaProp: prop }, valid);
		            cxt.mergeValidEvaluated(schCxt, valid);
		        }, () => gen.var(valid, true) // TODO var
		        );
		        cxt.ok(valid);
		    }
		}
		exports.validateSchemaDeps = validateSchemaDeps;
		exports.default = def;
		
	} (dependencies));
	return dependencies;
}

var propertyNames = {};

var hasRequiredPropertyNames;

function requirePropertyNames () {
	if (hasRequiredPropertyNames) return propertyNames;
	hasRequiredPropertyNames = 1;
	Object.defineProperty(propertyNames, "__esModule", { value: true });
	const codegen_1 = /*@__PURE__*/ requireCodegen();
	const util_1 = /*@__PURE__*/ requireUtil();
	const error = {
	    message: "property name must be valid",
	    params: ({ params }) => (0, codegen_1._) `{propertyName: ${params.propertyName}}`,
	};
	const def = {
	    keyword: "propertyNames",
	    type: "object",
	    schemaType: ["object", "boolean"],
	    error,
	    code(cxt) {
	        const { gen, schema, data, it } = cxt;
	        if ((0, util_1.alwaysValidSchema)(it, schema))
	            return;
	        const valid = gen.name("valid");
	        gen.forIn("key", data, (key) => {
	            cxt.setParams({ propertyName: key });
	            cxt.subschema({
	                keyword: "propertyNames",
	                data: key,
	                dataTypes: ["string"],
	                propertyName: key,
	                compositeRule: true,
	            }, valid);
	            gen.if((0, codegen_1.not)(valid), () => {
	                cxt.error(true);
	                if (!it.allErrors)
	                    gen.break();
	            });
	        });
	        cxt.ok(valid);
	    },
	};
	propertyNames.default = def;
	
	return propertyNames;
}

var additionalProperties = {};

var hasRequiredAdditionalProperties;

function requireAdditionalProperties () {
	if (hasRequiredAdditionalProperties) return additionalProperties;
	hasRequiredAdditionalProperties = 1;
	Object.defineProperty(additionalProperties, "__esModule", { value: true });
	const code_1 = /*@__PURE__*/ requireCode();
	const codegen_1 = /*@__PURE__*/ requireCodegen();
	const names_1 = /*@__PURE__*/ requireNames();
	const util_1 = /*@__PURE__*/ requireUtil();
	const error = {
	    message: "must NOT have additional properties",
	    params: ({ params }) => (0, codegen_1._) `{additionalProperty: ${params.additionalProperty}}`,
	};
	const def = {
	    keyword: "additionalProperties",
	    type: ["object"],
	    schemaType: ["boolean", "object"],
	    allowUndefined: true,
	    trackErrors: true,
	    error,
	    code(cxt) {
	        const { gen, schema, parentSchema, data, errsCount, it } = cxt;
	        /* istanbul ignore if */
	        if (!errsCount)
	            throw new Error("ajv implementation error");
	        const { allErrors, opts } = it;
	        it.props = true;
	        if (opts.removeAdditional !== "all" && (0, util_1.alwaysValidSchema)(it, schema))
	            return;
	        const props = (0, code_1.allSchemaProperties)(parentSchema.properties);
	        const patProps = (0, code_1.allSchemaProperties)(parentSchema.patternProperties);
	        checkAdditionalProperties();
	        cxt.ok((0, codegen_1._) `${errsCount} === ${names_1.default.errors}`);
	        function checkAdditionalProperties() {
	            gen.forIn("key", data, (key) => {
	                if (!props.length && !patProps.length)
	                    additionalPropertyCode(key);
	                else
	                    gen.if(isAdditional(key), () => additionalPropertyCode(key));
	            });
	        }
	        function isAdditional(key) {
	            let definedProp;
	            if (props.length > 8) {
	                // TODO maybe an option instead of hard-coded 8?
	                const propsSchema = (0, util_1.schemaRefOrVal)(it, parentSchema.properties, "properties");
	                definedProp = (0, code_1.isOwnProperty)(gen, propsSchema, key);
	            }
	            else if (props.length) {
	                definedProp = (0, codegen_1.or)(...props.map((p) => (0, codegen_1._) `${key} === ${p}`));
	            }
	            else {
	                definedProp = codegen_1.nil;
	            }
	            if (patProps.length) {
	                definedProp = (0, codegen_1.or)(definedProp, ...patProps.map((p) => (0, codegen_1._) `${(0, code_1.usePattern)(cxt, p)}.test(${key})`));
	            }
	            return (0, codegen_1.not)(definedProp);
	        }
	        function deleteAdditional(key) {
	            gen.code((0, codegen_1._) `delete ${data}[${key}]`);
	        }
	        function additionalPropertyCode(key) {
	            if (opts.removeAdditional === "all" || (opts.removeAdditional && schema === false)) {
	                deleteAdditional(key);
	                return;
	            }
	            if (schema === false) {
	                cxt.setParams({ additionalProperty: key });
	                cxt.error();
	                if (!allErrors)
	                    gen.break();
	                return;
	            }
	            if (typeof schema == "object" && !(0, util_1.alwaysValidSchema)(it, schema)) {
	                const valid = gen.name("valid");
	                if (opts.removeAdditional === "failing") {
	                    applyAdditionalSchema(key, valid, false);
	                    gen.if((0, codegen_1.not)(valid), () => {
	                        cxt.reset();
	                        deleteAdditional(key);
	                    });
	                }
	                else {
	                    applyAdditionalSchema(key, valid);
	                    if (!allErrors)
	                        gen.if((0, codegen_1.not)(valid), () => gen.break());
	                }
	            }
	        }
	        function applyAdditionalSchema(key, valid, errors) {
	            const subschema = {
	                keyword: "additionalProperties",
	                dataProp: key,
	                dataPropType: util_1.Type.Str,
	            };
	            if (errors === false) {
	                Object.assign(subschema, {
	                    compositeRule: true,
	                    createErrors: false,
	                    allErrors: false,
	                });
	            }
	            cxt.subschema(subschema, valid);
	        }
	    },
	};
	additionalProperties.default = def;
	
	return additionalProperties;
}

var properties$1 = {};

var hasRequiredProperties;

function requireProperties () {
	if (hasRequiredProperties) return properties$1;
	hasRequiredProperties = 1;
	Object.defineProperty(properties$1, "__esModule", { value: true });
	const validate_1 = /*@__PURE__*/ requireValidate();
	const code_1 = /*@__PURE__*/ requireCode();
	const util_1 = /*@__PURE__*/ requireUtil();
	const additionalProperties_1 = /*@__PURE__*/ requireAdditionalProperties();
	const def = {
	    keyword: "properties",
	    type: "object",
	    schemaType: "object",
	    code(cxt) {
	        const { gen, schema, parentSchema, data, it } = cxt;
	        if (it.opts.removeAdditional === "all" && parentSchema.additionalProperties === undefined) {
	            additionalProperties_1.default.code(new validate_1.KeywordCxt(it, additionalProperties_1.default, "additionalProperties"));
	        }
	        const allProps = (0, code_1.allSchemaProperties)(schema);
	        for (const prop of allProps) {
	            it.definedProperties.add(prop);
	        }
	        if (it.opts.unevaluated && allProps.length && it.props !== true) {
	            it.props = util_1.mergeEvaluated.props(gen, (0, util_1.toHash)(allProps), it.props);
	        }
	        const properties = allProps.filter((p) => !(0, util_1.alwaysValidSchema)(it, schema[p]));
	        if (properties.length === 0)
	            return;
	        const valid = gen.name("valid");
	        for (const prop of properties) {
	            if (hasDefault(prop)) {
	                applyPropertySchema(prop);
	            }
	            else {
	                gen.if((0, code_1.propertyInData)(gen, data, prop, it.opts.ownProperties));
	                applyPropertySchema(prop);
	                if (!it.allErrors)
	                    gen.else().var(valid, true);
	                gen.endIf();
	            }
	            cxt.it.definedProperties.add(prop);
	            cxt.ok(valid);
	        }
	        function hasDefault(prop) {
	            return it.opts.useDefaults && !it.compositeRule && schema[prop].default !== undefined;
	        }
	        function applyPropertySchema(prop) {
	            cxt.subschema({
	                keyword: "properties",
	                schemaProp: prop,
	                dataProp: prop,
	            }, valid);
	        }
	    },
	};
	properties$1.default = def;
	
	return properties$1;
}

var patternProperties = {};

var hasRequiredPatternProperties;

function requirePatternProperties () {
	if (hasRequiredPatternProperties) return patternProperties;
	hasRequiredPatternProperties = 1;
	Object.defineProperty(patternProperties, "__esModule", { value: true });
	const code_1 = /*@__PURE__*/ requireCode();
	const codegen_1 = /*@__PURE__*/ requireCodegen();
	const util_1 = /*@__PURE__*/ requireUtil();
	const util_2 = /*@__PURE__*/ requireUtil();
	const def = {
	    keyword: "patternProperties",
	    type: "object",
	    schemaType: "object",
	    code(cxt) {
	        const { gen, schema, data, parentSchema, it } = cxt;
	        const { opts } = it;
	        const patterns = (0, code_1.allSchemaProperties)(schema);
	        const alwaysValidPatterns = patterns.filter((p) => (0, util_1.alwaysValidSchema)(it, schema[p]));
	        if (patterns.length === 0 ||
	            (alwaysValidPatterns.length === patterns.length &&
	                (!it.opts.unevaluated || it.props === true))) {
	            return;
	        }
	        const checkProperties = opts.strictSchema && !opts.allowMatchingProperties && parentSchema.properties;
	        const valid = gen.name("valid");
	        if (it.props !== true && !(it.props instanceof codegen_1.Name)) {
	            it.props = (0, util_2.evaluatedPropsToName)(gen, it.props);
	        }
	        const { props } = it;
	        validatePatternProperties();
	        function validatePatternProperties() {
	            for (const pat of patterns) {
	                if (checkProperties)
	                    checkMatchingProperties(pat);
	                if (it.allErrors) {
	                    validateProperties(pat);
	                }
	                else {
	                    gen.var(valid, true); // TODO var
	                    validateProperties(pat);
	                    gen.if(valid);
	                }
	            }
	        }
	        function checkMatchingProperties(pat) {
	            for (const prop in checkProperties) {
	                if (new RegExp(pat).test(prop)) {
	                    (0, util_1.checkStrictMode)(it, `property ${prop} matches pattern ${pat} (use allowMatchingProperties)`);
	                }
	            }
	        }
	        function validateProperties(pat) {
	            gen.forIn("key", data, (key) => {
	                gen.if((0, codegen_1._) `${(0, code_1.usePattern)(cxt, pat)}.test(${key})`, () => {
	                    const alwaysValid = alwaysValidPatterns.includes(pat);
	                    if (!alwaysValid) {
	                        cxt.subschema({
	                            keyword: "patternProperties",
	                            schemaProp: pat,
	                            dataProp: key,
	                            dataPropType: util_2.Type.Str,
	                        }, valid);
	                    }
	                    if (it.opts.unevaluated && props !== true) {
	                        gen.assign((0, codegen_1._) `${props}[${key}]`, true);
	                    }
	                    else if (!alwaysValid && !it.allErrors) {
	                        // can short-circuit if `unevaluatedProperties` is not supported (opts.next === false)
	                        // or if all properties were evaluated (props === true)
	                        gen.if((0, codegen_1.not)(valid), () => gen.break());
	                    }
	                });
	            });
	        }
	    },
	};
	patternProperties.default = def;
	
	return patternProperties;
}

var not = {};

var hasRequiredNot;

function requireNot () {
	if (hasRequiredNot) return not;
	hasRequiredNot = 1;
	Object.defineProperty(not, "__esModule", { value: true });
	const util_1 = /*@__PURE__*/ requireUtil();
	const def = {
	    keyword: "not",
	    schemaType: ["object", "boolean"],
	    trackErrors: true,
	    code(cxt) {
	        const { gen, schema, it } = cxt;
	        if ((0, util_1.alwaysValidSchema)(it, schema)) {
	            cxt.fail();
	            return;
	        }
	        const valid = gen.name("valid");
	        cxt.subschema({
	            keyword: "not",
	            compositeRule: true,
	            createErrors: false,
	            allErrors: false,
	        }, valid);
	        cxt.failResult(valid, () => cxt.reset(), () => cxt.error());
	    },
	    error: { message: "must NOT be valid" },
	};
	not.default = def;
	
	return not;
}

var anyOf = {};

var hasRequiredAnyOf;

function requireAnyOf () {
	if (hasRequiredAnyOf) return anyOf;
	hasRequiredAnyOf = 1;
	Object.defineProperty(anyOf, "__esModule", { value: true });
	const code_1 = /*@__PURE__*/ requireCode();
	const def = {
	    keyword: "anyOf",
	    schemaType: "array",
	    trackErrors: true,
	    code: code_1.validateUnion,
	    error: { message: "must match a schema in anyOf" },
	};
	anyOf.default = def;
	
	return anyOf;
}

var oneOf = {};

var hasRequiredOneOf;

function requireOneOf () {
	if (hasRequiredOneOf) return oneOf;
	hasRequiredOneOf = 1;
	Object.defineProperty(oneOf, "__esModule", { value: true });
	const codegen_1 = /*@__PURE__*/ requireCodegen();
	const util_1 = /*@__PURE__*/ requireUtil();
	const error = {
	    message: "must match exactly one schema in oneOf",
	    params: ({ params }) => (0, codegen_1._) `{passingSchemas: ${params.passing}}`,
	};
	const def = {
	    keyword: "oneOf",
	    schemaType: "array",
	    trackErrors: true,
	    error,
	    code(cxt) {
	        const { gen, schema, parentSchema, it } = cxt;
	        /* istanbul ignore if */
	        if (!Array.isArray(schema))
	            throw new Error("ajv implementation error");
	        if (it.opts.discriminator && parentSchema.discriminator)
	            return;
	        const schArr = schema;
	        const valid = gen.let("valid", false);
	        const passing = gen.let("passing", null);
	        const schValid = gen.name("_valid");
	        cxt.setParams({ passing });
	        // TODO possibly fail straight away (with warning or exception) if there are two empty always valid schemas
	        gen.block(validateOneOf);
	        cxt.result(valid, () => cxt.reset(), () => cxt.error(true));
	        function validateOneOf() {
	            schArr.forEach((sch, i) => {
	                let schCxt;
	                if ((0, util_1.alwaysValidSchema)(it, sch)) {
	                    gen.var(schValid, true);
	                }
	                else {
	                    schCxt = cxt.subschema({
	                        keyword: "oneOf",
	                        schemaProp: i,
	                        compositeRule: true,
	                    }, schValid);
	                }
	                if (i > 0) {
	                    gen
	                        .if((0, codegen_1._) `${schValid} && ${valid}`)
	                        .assign(valid, false)
	                        .assign(passing, (0, codegen_1._) `[${passing}, ${i}]`)
	                        .else();
	                }
	                gen.if(schValid, () => {
	                    gen.assign(valid, true);
	                    gen.assign(passing, i);
	                    if (schCxt)
	                        cxt.mergeEvaluated(schCxt, codegen_1.Name);
	                });
	            });
	        }
	    },
	};
	oneOf.default = def;
	
	return oneOf;
}

var allOf = {};

var hasRequiredAllOf;

function requireAllOf () {
	if (hasRequiredAllOf) return allOf;
	hasRequiredAllOf = 1;
	Object.defineProperty(allOf, "__esModule", { value: true });
	const util_1 = /*@__PURE__*/ requireUtil();
	const def = {
	    keyword: "allOf",
	    schemaType: "array",
	    code(cxt) {
	        const { gen, schema, it } = cxt;
	        /* istanbul ignore if */
	        if (!Array.isArray(schema))
	            throw new Error("ajv implementation error");
	        const valid = gen.name("valid");
	        schema.forEach((sch, i) => {
	            if ((0, util_1.alwaysValidSchema)(it, sch))
	                return;
	            const schCxt = cxt.subschema({ keyword: "allOf", schemaProp: i }, valid);
	            cxt.ok(valid);
	            cxt.mergeEvaluated(schCxt);
	        });
	    },
	};
	allOf.default = def;
	
	return allOf;
}

var _if = {};

var hasRequired_if;

function require_if () {
	if (hasRequired_if) return _if;
	hasRequired_if = 1;
	Object.defineProperty(_if, "__esModule", { value: true });
	const codegen_1 = /*@__PURE__*/ requireCodegen();
	const util_1 = /*@__PURE__*/ requireUtil();
	const error = {
	    message: ({ params }) => (0, codegen_1.str) `must match "${params.ifClause}" schema`,
	    params: ({ params }) => (0, codegen_1._) `{failingKeyword: ${params.ifClause}}`,
	};
	const def = {
	    keyword: "if",
	    schemaType: ["object", "boolean"],
	    trackErrors: true,
	    error,
	    code(cxt) {
	        const { gen, parentSchema, it } = cxt;
	        if (parentSchema.then === undefined && parentSchema.else === undefined) {
	            (0, util_1.checkStrictMode)(it, '"if" without "then" and "else" is ignored');
	        }
	        const hasThen = hasSchema(it, "then");
	        const hasElse = hasSchema(it, "else");
	        if (!hasThen && !hasElse)
	            return;
	        const valid = gen.let("valid", true);
	        const schValid = gen.name("_valid");
	        validateIf();
	        cxt.reset();
	        if (hasThen && hasElse) {
	            const ifClause = gen.let("ifClause");
	            cxt.setParams({ ifClause });
	            gen.if(schValid, validateClause("then", ifClause), validateClause("else", ifClause));
	        }
	        else if (hasThen) {
	            gen.if(schValid, validateClause("then"));
	        }
	        else {
	            gen.if((0, codegen_1.not)(schValid), validateClause("else"));
	        }
	        cxt.pass(valid, () => cxt.error(true));
	        function validateIf() {
	            const schCxt = cxt.subschema({
	                keyword: "if",
	                compositeRule: true,
	                createErrors: false,
	                allErrors: false,
	            }, schValid);
	            cxt.mergeEvaluated(schCxt);
	        }
	        function validateClause(keyword, ifClause) {
	            return () => {
	                const schCxt = cxt.subschema({ keyword }, schValid);
	                gen.assign(valid, schValid);
	                cxt.mergeValidEvaluated(schCxt, valid);
	                if (ifClause)
	                    gen.assign(ifClause, (0, codegen_1._) `${keyword}`);
	                else
	                    cxt.setParams({ ifClause: keyword });
	            };
	        }
	    },
	};
	function hasSchema(it, keyword) {
	    const schema = it.schema[keyword];
	    return schema !== undefined && !(0, util_1.alwaysValidSchema)(it, schema);
	}
	_if.default = def;
	
	return _if;
}

var thenElse = {};

var hasRequiredThenElse;

function requireThenElse () {
	if (hasRequiredThenElse) return thenElse;
	hasRequiredThenElse = 1;
	Object.defineProperty(thenElse, "__esModule", { value: true });
	const util_1 = /*@__PURE__*/ requireUtil();
	const def = {
	    keyword: ["then", "else"],
	    schemaType: ["object", "boolean"],
	    code({ keyword, parentSchema, it }) {
	        if (parentSchema.if === undefined)
	            (0, util_1.checkStrictMode)(it, `"${keyword}" without "if" is ignored`);
	    },
	};
	thenElse.default = def;
	
	return thenElse;
}

var hasRequiredApplicator;

function requireApplicator () {
	if (hasRequiredApplicator) return applicator;
	hasRequiredApplicator = 1;
	Object.defineProperty(applicator, "__esModule", { value: true });
	const additionalItems_1 = /*@__PURE__*/ requireAdditionalItems();
	const prefixItems_1 = /*@__PURE__*/ requirePrefixItems();
	const items_1 = /*@__PURE__*/ requireItems();
	const items2020_1 = /*@__PURE__*/ requireItems2020();
	const contains_1 = /*@__PURE__*/ requireContains();
	const dependencies_1 = /*@__PURE__*/ requireDependencies();
	const propertyNames_1 = /*@__PURE__*/ requirePropertyNames();
	const additionalProperties_1 = /*@__PURE__*/ requireAdditionalProperties();
	const properties_1 = /*@__PURE__*/ requireProperties();
	const patternProperties_1 = /*@__PURE__*/ requirePatternProperties();
	const not_1 = /*@__PURE__*/ requireNot();
	const anyOf_1 = /*@__PURE__*/ requireAnyOf();
	const oneOf_1 = /*@__PURE__*/ requireOneOf();
	const allOf_1 = /*@__PURE__*/ requireAllOf();
	const if_1 = /*@__PURE__*/ require_if();
	const thenElse_1 = /*@__PURE__*/ requireThenElse();
	function getApplicator(draft2020 = false) {
	    const applicator = [
	        // any
	        not_1.default,
	        anyOf_1.default,
	        oneOf_1.default,
	        allOf_1.default,
	        if_1.default,
	        thenElse_1.default,
	        // object
	        propertyNames_1.default,
	        additionalProperties_1.default,
	        dependencies_1.default,
	        properties_1.default,
	        patternProperties_1.default,
	    ];
	    // array
	    if (draft2020)
	        applicator.push(prefixItems_1.default, items2020_1.default);
	    else
	        applicator.push(additionalItems_1.default, items_1.default);
	    applicator.push(contains_1.default);
	    return applicator;
	}
	applicator.default = getApplicator;
	
	return applicator;
}

var format$1 = {};

var format = {};

var hasRequiredFormat$1;

function requireFormat$1 () {
	if (hasRequiredFormat$1) return format;
	hasRequiredFormat$1 = 1;
	Object.defineProperty(format, "__esModule", { value: true });
	const codegen_1 = /*@__PURE__*/ requireCodegen();
	const error = {
	    message: ({ schemaCode }) => (0, codegen_1.str) `must match format "${schemaCode}"`,
	    params: ({ schemaCode }) => (0, codegen_1._) `{format: ${schemaCode}}`,
	};
	const def = {
	    keyword: "format",
	    type: ["number", "string"],
	    schemaType: "string",
	    $data: true,
	    error,
	    code(cxt, ruleType) {
	        const { gen, data, $data, schema, schemaCode, it } = cxt;
	        const { opts, errSchemaPath, schemaEnv, self } = it;
	        if (!opts.validateFormats)
	            return;
	        if ($data)
	            validate$DataFormat();
	        else
	            validateFormat();
	        function validate$DataFormat() {
	            const fmts = gen.scopeValue("formats", {
	                ref: self.formats,
	                code: opts.code.formats,
	            });
	            const fDef = gen.const("fDef", (0, codegen_1._) `${fmts}[${schemaCode}]`);
	            const fType = gen.let("fType");
	            const format = gen.let("format");
	            // TODO simplify
	            gen.if((0, codegen_1._) `typeof ${fDef} == "object" && !(${fDef} instanceof RegExp)`, () => gen.assign(fType, (0, codegen_1._) `${fDef}.type || "string"`).assign(format, (0, codegen_1._) `${fDef}.validate`), () => gen.assign(fType, (0, codegen_1._) `"string"`).assign(format, fDef));
	            cxt.fail$data((0, codegen_1.or)(unknownFmt(), invalidFmt()));
	            function unknownFmt() {
	                if (opts.strictSchema === false)
	                    return codegen_1.nil;
	                return (0, codegen_1._) `${schemaCode} && !${format}`;
	            }
	            function invalidFmt() {
	                const callFormat = schemaEnv.$async
	                    ? (0, codegen_1._) `(${fDef}.async ? await ${format}(${data}) : ${format}(${data}))`
	                    : (0, codegen_1._) `${format}(${data})`;
	                const validData = (0, codegen_1._) `(typeof ${format} == "function" ? ${callFormat} : ${format}.test(${data}))`;
	                return (0, codegen_1._) `${format} && ${format} !== true && ${fType} === ${ruleType} && !${validData}`;
	            }
	        }
	        function validateFormat() {
	            const formatDef = self.formats[schema];
	            if (!formatDef) {
	                unknownFormat();
	                return;
	            }
	            if (formatDef === true)
	                return;
	            const [fmtType, format, fmtRef] = getFormat(formatDef);
	            if (fmtType === ruleType)
	                cxt.pass(validCondition());
	            function unknownFormat() {
	                if (opts.strictSchema === false) {
	                    self.logger.warn(unknownMsg());
	                    return;
	                }
	                throw new Error(unknownMsg());
	                function unknownMsg() {
	                    return `unknown format "${schema}" ignored in schema at path "${errSchemaPath}"`;
	                }
	            }
	            function getFormat(fmtDef) {
	                const code = fmtDef instanceof RegExp
	                    ? (0, codegen_1.regexpCode)(fmtDef)
	                    : opts.code.formats
	                        ? (0, codegen_1._) `${opts.code.formats}${(0, codegen_1.getProperty)(schema)}`
	                        : undefined;
	                const fmt = gen.scopeValue("formats", { key: schema, ref: fmtDef, code });
	                if (typeof fmtDef == "object" && !(fmtDef instanceof RegExp)) {
	                    return [fmtDef.type || "string", fmtDef.validate, (0, codegen_1._) `${fmt}.validate`];
	                }
	                return ["string", fmtDef, fmt];
	            }
	            function validCondition() {
	                if (typeof formatDef == "object" && !(formatDef instanceof RegExp) && formatDef.async) {
	                    if (!schemaEnv.$async)
	                        throw new Error("async format in sync schema");
	                    return (0, codegen_1._) `await ${fmtRef}(${data})`;
	                }
	                return typeof format == "function" ? (0, codegen_1._) `${fmtRef}(${data})` : (0, codegen_1._) `${fmtRef}.test(${data})`;
	            }
	        }
	    },
	};
	format.default = def;
	
	return format;
}

var hasRequiredFormat;

function requireFormat () {
	if (hasRequiredFormat) return format$1;
	hasRequiredFormat = 1;
	Object.defineProperty(format$1, "__esModule", { value: true });
	const format_1 = /*@__PURE__*/ requireFormat$1();
	const format = [format_1.default];
	format$1.default = format;
	
	return format$1;
}

var metadata = {};

var hasRequiredMetadata;

function requireMetadata () {
	if (hasRequiredMetadata) return metadata;
	hasRequiredMetadata = 1;
	Object.defineProperty(metadata, "__esModule", { value: true });
	metadata.contentVocabulary = metadata.metadataVocabulary = void 0;
	metadata.metadataVocabulary = [
	    "title",
	    "description",
	    "default",
	    "deprecated",
	    "readOnly",
	    "writeOnly",
	    "examples",
	];
	metadata.contentVocabulary = [
	    "contentMediaType",
	    "contentEncoding",
	    "contentSchema",
	];
	
	return metadata;
}

var hasRequiredDraft7;

function requireDraft7 () {
	if (hasRequiredDraft7) return draft7;
	hasRequiredDraft7 = 1;
	Object.defineProperty(draft7, "__esModule", { value: true });
	const core_1 = /*@__PURE__*/ requireCore();
	const validation_1 = /*@__PURE__*/ requireValidation();
	const applicator_1 = /*@__PURE__*/ requireApplicator();
	const format_1 = /*@__PURE__*/ requireFormat();
	const metadata_1 = /*@__PURE__*/ requireMetadata();
	const draft7Vocabularies = [
	    core_1.default,
	    validation_1.default,
	    (0, applicator_1.default)(),
	    format_1.default,
	    metadata_1.metadataVocabulary,
	    metadata_1.contentVocabulary,
	];
	draft7.default = draft7Vocabularies;
	
	return draft7;
}

var discriminator = {};

var types = {};

var hasRequiredTypes;

function requireTypes () {
	if (hasRequiredTypes) return types;
	hasRequiredTypes = 1;
	Object.defineProperty(types, "__esModule", { value: true });
	types.DiscrError = void 0;
	var DiscrError;
	(function (DiscrError) {
	    DiscrError["Tag"] = "tag";
	    DiscrError["Mapping"] = "mapping";
	})(DiscrError || (types.DiscrError = DiscrError = {}));
	
	return types;
}

var hasRequiredDiscriminator;

function requireDiscriminator () {
	if (hasRequiredDiscriminator) return discriminator;
	hasRequiredDiscriminator = 1;
	Object.defineProperty(discriminator, "__esModule", { value: true });
	const codegen_1 = /*@__PURE__*/ requireCodegen();
	const types_1 = /*@__PURE__*/ requireTypes();
	const compile_1 = /*@__PURE__*/ requireCompile();
	const ref_error_1 = /*@__PURE__*/ requireRef_error();
	const util_1 = /*@__PURE__*/ requireUtil();
	const error = {
	    message: ({ params: { discrError, tagName } }) => discrError === types_1.DiscrError.Tag
	        ? `tag "${tagName}" must be string`
	        : `value of tag "${tagName}" must be in oneOf`,
	    params: ({ params: { discrError, tag, tagName } }) => (0, codegen_1._) `{error: ${discrError}, tag: ${tagName}, tagValue: ${tag}}`,
	};
	const def = {
	    keyword: "discriminator",
	    type: "object",
	    schemaType: "object",
	    error,
	    code(cxt) {
	        const { gen, data, schema, parentSchema, it } = cxt;
	        const { oneOf } = parentSchema;
	        if (!it.opts.discriminator) {
	            throw new Error("discriminator: requires discriminator option");
	        }
	        const tagName = schema.propertyName;
	        if (typeof tagName != "string")
	            throw new Error("discriminator: requires propertyName");
	        if (schema.mapping)
	            throw new Error("discriminator: mapping is not supported");
	        if (!oneOf)
	            throw new Error("discriminator: requires oneOf keyword");
	        const valid = gen.let("valid", false);
	        const tag = gen.const("tag", (0, codegen_1._) `${data}${(0, codegen_1.getProperty)(tagName)}`);
	        gen.if((0, codegen_1._) `typeof ${tag} == "string"`, () => validateMapping(), () => cxt.error(false, { discrError: types_1.DiscrError.Tag, tag, tagName }));
	        cxt.ok(valid);
	        function validateMapping() {
	            const mapping = getMapping();
	            gen.if(false);
	            for (const tagValue in mapping) {
	                gen.elseIf((0, codegen_1._) `${tag} === ${tagValue}`);
	                gen.assign(valid, applyTagSchema(mapping[tagValue]));
	            }
	            gen.else();
	            cxt.error(false, { discrError: types_1.DiscrError.Mapping, tag, tagName });
	            gen.endIf();
	        }
	        function applyTagSchema(schemaProp) {
	            const _valid = gen.name("valid");
	            const schCxt = cxt.subschema({ keyword: "oneOf", schemaProp }, _valid);
	            cxt.mergeEvaluated(schCxt, codegen_1.Name);
	            return _valid;
	        }
	        function getMapping() {
	            var _a;
	            const oneOfMapping = {};
	            const topRequired = hasRequired(parentSchema);
	            let tagRequired = true;
	            for (let i = 0; i < oneOf.length; i++) {
	                let sch = oneOf[i];
	                if ((sch === null || sch === void 0 ? void 0 : sch.$ref) && !(0, util_1.schemaHasRulesButRef)(sch, it.self.RULES)) {
	                    const ref = sch.$ref;
	                    sch = compile_1.resolveRef.call(it.self, it.schemaEnv.root, it.baseId, ref);
	                    if (sch instanceof compile_1.SchemaEnv)
	                        sch = sch.schema;
	                    if (sch === undefined)
	                        throw new ref_error_1.default(it.opts.uriResolver, it.baseId, ref);
	                }
	                const propSch = (_a = sch === null || sch === void 0 ? void 0 : sch.properties) === null || _a === void 0 ? void 0 : _a[tagName];
	                if (typeof propSch != "object") {
	                    throw new Error(`discriminator: oneOf subschemas (or referenced schemas) must have "properties/${tagName}"`);
	                }
	                tagRequired = tagRequired && (topRequired || hasRequired(sch));
	                addMappings(propSch, i);
	            }
	            if (!tagRequired)
	                throw new Error(`discriminator: "${tagName}" must be required`);
	            return oneOfMapping;
	            function hasRequired({ required }) {
	                return Array.isArray(required) && required.includes(tagName);
	            }
	            function addMappings(sch, i) {
	                if (sch.const) {
	                    addMapping(sch.const, i);
	                }
	                else if (sch.enum) {
	                    for (const tagValue of sch.enum) {
	                        addMapping(tagValue, i);
	                    }
	                }
	                else {
	                    throw new Error(`discriminator: "properties/${tagName}" must have "const" or "enum"`);
	                }
	            }
	            function addMapping(tagValue, i) {
	                if (typeof tagValue != "string" || tagValue in oneOfMapping) {
	                    throw new Error(`discriminator: "${tagName}" values must be unique strings`);
	                }
	                oneOfMapping[tagValue] = i;
	            }
	        }
	    },
	};
	discriminator.default = def;
	
	return discriminator;
}

var $schema = "http://json-schema.org/draft-07/schema#";
var $id = "http://json-schema.org/draft-07/schema#";
var title = "Core schema meta-schema";
var definitions = {
	schemaArray: {
		type: "array",
		minItems: 1,
		items: {
			$ref: "#"
		}
	},
	nonNegativeInteger: {
		type: "integer",
		minimum: 0
	},
	nonNegativeIntegerDefault0: {
		allOf: [
			{
				$ref: "#/definitions/nonNegativeInteger"
			},
			{
				"default": 0
			}
		]
	},
	simpleTypes: {
		"enum": [
			"array",
			"boolean",
			"integer",
			"null",
			"number",
			"object",
			"string"
		]
	},
	stringArray: {
		type: "array",
		items: {
			type: "string"
		},
		uniqueItems: true,
		"default": [
		]
	}
};
var type = [
	"object",
	"boolean"
];
var properties = {
	$id: {
		type: "string",
		format: "uri-reference"
	},
	$schema: {
		type: "string",
		format: "uri"
	},
	$ref: {
		type: "string",
		format: "uri-reference"
	},
	$comment: {
		type: "string"
	},
	title: {
		type: "string"
	},
	description: {
		type: "string"
	},
	"default": true,
	readOnly: {
		type: "boolean",
		"default": false
	},
	examples: {
		type: "array",
		items: true
	},
	multipleOf: {
		type: "number",
		exclusiveMinimum: 0
	},
	maximum: {
		type: "number"
	},
	exclusiveMaximum: {
		type: "number"
	},
	minimum: {
		type: "number"
	},
	exclusiveMinimum: {
		type: "number"
	},
	maxLength: {
		$ref: "#/definitions/nonNegativeInteger"
	},
	minLength: {
		$ref: "#/definitions/nonNegativeIntegerDefault0"
	},
	pattern: {
		type: "string",
		format: "regex"
	},
	additionalItems: {
		$ref: "#"
	},
	items: {
		anyOf: [
			{
				$ref: "#"
			},
			{
				$ref: "#/definitions/schemaArray"
			}
		],
		"default": true
	},
	maxItems: {
		$ref: "#/definitions/nonNegativeInteger"
	},
	minItems: {
		$ref: "#/definitions/nonNegativeIntegerDefault0"
	},
	uniqueItems: {
		type: "boolean",
		"default": false
	},
	contains: {
		$ref: "#"
	},
	maxProperties: {
		$ref: "#/definitions/nonNegativeInteger"
	},
	minProperties: {
		$ref: "#/definitions/nonNegativeIntegerDefault0"
	},
	required: {
		$ref: "#/definitions/stringArray"
	},
	additionalProperties: {
		$ref: "#"
	},
	definitions: {
		type: "object",
		additionalProperties: {
			$ref: "#"
		},
		"default": {
		}
	},
	properties: {
		type: "object",
		additionalProperties: {
			$ref: "#"
		},
		"default": {
		}
	},
	patternProperties: {
		type: "object",
		additionalProperties: {
			$ref: "#"
		},
		propertyNames: {
			format: "regex"
		},
		"default": {
		}
	},
	dependencies: {
		type: "object",
		additionalProperties: {
			anyOf: [
				{
					$ref: "#"
				},
				{
					$ref: "#/definitions/stringArray"
				}
			]
		}
	},
	propertyNames: {
		$ref: "#"
	},
	"const": true,
	"enum": {
		type: "array",
		items: true,
		minItems: 1,
		uniqueItems: true
	},
	type: {
		anyOf: [
			{
				$ref: "#/definitions/simpleTypes"
			},
			{
				type: "array",
				items: {
					$ref: "#/definitions/simpleTypes"
				},
				minItems: 1,
				uniqueItems: true
			}
		]
	},
	format: {
		type: "string"
	},
	contentMediaType: {
		type: "string"
	},
	contentEncoding: {
		type: "string"
	},
	"if": {
		$ref: "#"
	},
	then: {
		$ref: "#"
	},
	"else": {
		$ref: "#"
	},
	allOf: {
		$ref: "#/definitions/schemaArray"
	},
	anyOf: {
		$ref: "#/definitions/schemaArray"
	},
	oneOf: {
		$ref: "#/definitions/schemaArray"
	},
	not: {
		$ref: "#"
	}
};
var require$$3 = {
	$schema: $schema,
	$id: $id,
	title: title,
	definitions: definitions,
	type: type,
	properties: properties,
	"default": true
};

var hasRequiredAjv;

function requireAjv () {
	if (hasRequiredAjv) return ajv.exports;
	hasRequiredAjv = 1;
	(function (module, exports) {
		Object.defineProperty(exports, "__esModule", { value: true });
		exports.MissingRefError = exports.ValidationError = exports.CodeGen = exports.Name = exports.nil = exports.stringify = exports.str = exports._ = exports.KeywordCxt = exports.Ajv = void 0;
		const core_1 = /*@__PURE__*/ requireCore$1();
		const draft7_1 = /*@__PURE__*/ requireDraft7();
		const discriminator_1 = /*@__PURE__*/ requireDiscriminator();
		const draft7MetaSchema = require$$3;
		const META_SUPPORT_DATA = ["/properties"];
		const META_SCHEMA_ID = "http://json-schema.org/draft-07/schema";
		class Ajv extends core_1.default {
		    _addVocabularies() {
		        super._addVocabularies();
		        draft7_1.default.forEach((v) => this.addVocabulary(v));
		        if (this.opts.discriminator)
		            this.addKeyword(discriminator_1.default);
		    }
		    _addDefaultMetaSchema() {
		        super._addDefaultMetaSchema();
		        if (!this.opts.meta)
		            return;
		        const metaSchema = this.opts.$data
		            ? this.$dataMetaSchema(draft7MetaSchema, META_SUPPORT_DATA)
		            : draft7MetaSchema;
		        this.addMetaSchema(metaSchema, META_SCHEMA_ID, false);
		        this.refs["http://json-schema.org/schema"] = META_SCHEMA_ID;
		    }
		    defaultMeta() {
		        return (this.opts.defaultMeta =
		            super.defaultMeta() || (this.getSchema(META_SCHEMA_ID) ? META_SCHEMA_ID : undefined));
		    }
		}
		exports.Ajv = Ajv;
		module.exports = exports = Ajv;
		module.exports.Ajv = Ajv;
		Object.defineProperty(exports, "__esModule", { value: true });
		exports.default = Ajv;
		var validate_1 = /*@__PURE__*/ requireValidate();
		Object.defineProperty(exports, "KeywordCxt", { enumerable: true, get: function () { return validate_1.KeywordCxt; } });
		var codegen_1 = /*@__PURE__*/ requireCodegen();
		Object.defineProperty(exports, "_", { enumerable: true, get: function () { return codegen_1._; } });
		Object.defineProperty(exports, "str", { enumerable: true, get: function () { return codegen_1.str; } });
		Object.defineProperty(exports, "stringify", { enumerable: true, get: function () { return codegen_1.stringify; } });
		Object.defineProperty(exports, "nil", { enumerable: true, get: function () { return codegen_1.nil; } });
		Object.defineProperty(exports, "Name", { enumerable: true, get: function () { return codegen_1.Name; } });
		Object.defineProperty(exports, "CodeGen", { enumerable: true, get: function () { return codegen_1.CodeGen; } });
		var validation_error_1 = /*@__PURE__*/ requireValidation_error();
		Object.defineProperty(exports, "ValidationError", { enumerable: true, get: function () { return validation_error_1.default; } });
		var ref_error_1 = /*@__PURE__*/ requireRef_error();
		Object.defineProperty(exports, "MissingRefError", { enumerable: true, get: function () { return ref_error_1.default; } });
		
	} (ajv, ajv.exports));
	return ajv.exports;
}

var ajvExports = /*@__PURE__*/ requireAjv();

/**
 * The gate file's `traffic:` section (docs/gate-file.md, docs/traffic.md "Replay and judging"):
 * the frozen traffic set replayed on both sides, the baseline's rerun for the noise floor, and
 * the checks with their tolerated margins. The set is read here, once, so the rest of the code
 * gets its instances and the digest the fingerprint covers, never a path to read again.
 */
/** Every check the traffic gate computes; each is gated with a margin or only reported. */
const TRAFFIC_CHECKS = [
    'disagreement',
    'similarity',
    'invalid_json',
    'invalid_tool_calls',
    'truncation',
    'refusals',
    'exact_match',
    'quasi_exact_match',
    'f1_score',
    'rouge_l'
];
/**
 * Defaults: every rate tolerates 5 points. A structural check applies to a share of the set only
 * (the JSON-mode or tool requests), and with no failure on either side the upper bound of Tango's
 * interval is about 3.7 / n: 5 points need about 75 such requests, 2 points about 190, so a
 * tighter margin asks for a larger set (the report's n_needed says how large). The similarity lost beyond the noise floor is shown with a
 * 5-point reference margin but not gated: its bootstrap interval misses the coverage targets on
 * zero-inflated data (__tests__/stats/coverage.test.ts); set a margin to gate it anyway. Reference
 * metrics are shown only: most traffic has no reference, and a set that has some says so by
 * giving them a margin.
 */
const DEFAULT_CHECK_MARGINS = {
    disagreement: 0.05,
    similarity: null,
    invalid_json: 0.05,
    invalid_tool_calls: 0.05,
    truncation: 0.05,
    refusals: 0.05,
    exact_match: null,
    quasi_exact_match: null,
    f1_score: null,
    rouge_l: null
};
/** The margin a report-only row's verdict is shown against (it never gates). */
const REPORTED_MARGINS = {
    disagreement: 0.05,
    similarity: 0.05,
    invalid_json: 0.05,
    invalid_tool_calls: 0.05,
    truncation: 0.05,
    refusals: 0.05,
    exact_match: 0.02,
    quasi_exact_match: 0.02,
    f1_score: 0.02,
    rouge_l: 0.02
};
/**
 * Case-insensitive regular expressions; an answer matching any is counted as a refusal. Kept
 * short and literal so a reviewer can see what is counted; a team replaces them with its own.
 */
const DEFAULT_REFUSAL_PATTERNS = [
    "\\bI(?:'m| am) (?:sorry|afraid)\\b",
    "\\bI (?:can(?:no|')t|cannot|won't|will not|am unable to|'m unable to) (?:help|assist|comply|provide|do that)",
    '\\bas an AI\\b',
    "\\bI(?:'m| am) not able to (?:help|assist)"
];
function parseTraffic(f, gateFile, readSet) {
    f.allow([
        'set',
        'baseline_reruns',
        'temperature',
        'similarity',
        'ignore_case',
        'checks',
        'refusal_patterns',
        'concurrency',
        'request_timeout_seconds'
    ]);
    const set = f.string('set');
    const baselineReruns = f.integer('baseline_reruns', 1, 0, 1);
    // Greedy decoding by default, so the noise floor is the serving stack's and not sampling's;
    // `logged` keeps each request's own temperature (then the rerun measures sampling noise too).
    const temperature = f.raw('temperature') === 'logged' ? null : f.number('temperature', 0, n => n >= 0 && n <= 2, 'a temperature in [0, 2], or "logged"');
    const similarity = f.choice('similarity', ['token_f1', 'rouge_l'], 'token_f1');
    const ignoreCase = f.boolean('ignore_case', false);
    const checksFields = f.object('checks');
    const checks = { ...DEFAULT_CHECK_MARGINS };
    if (checksFields) {
        checksFields.allow(TRAFFIC_CHECKS);
        for (const name of TRAFFIC_CHECKS) {
            if (!checksFields.has(name))
                continue;
            if (checksFields.raw(name) === 'report') {
                checks[name] = null;
                continue;
            }
            checks[name] = checksFields.number(name, undefined, n => n >= 0 && n <= 1, 'a margin in [0, 1] (a rate or a score), or "report"');
        }
        checksFields.done();
    }
    const patternList = f.list('refusal_patterns');
    const refusalPatterns = patternList === null ? [...DEFAULT_REFUSAL_PATTERNS] : patternList.map((p, i) => pattern(f, i, p));
    const concurrency = f.integer('concurrency', 4, 1, 256);
    const requestTimeoutSeconds = f.number('request_timeout_seconds', 120, n => n > 0 && n <= 3600, 'seconds between 0 and 3600');
    f.done();
    const file = path.resolve(path.dirname(path.resolve(gateFile)), set);
    const { instances, sha256 } = readTrafficSet(file, readSet);
    return {
        set,
        setSha256: sha256,
        instances,
        baselineReruns,
        temperature,
        similarity,
        ignoreCase,
        checks,
        refusalPatterns,
        concurrency,
        requestTimeoutSeconds
    };
}
function pattern(f, i, value) {
    const field = `refusal_patterns[${i}]`;
    if (typeof value !== 'string' || value.length === 0)
        f.fail(field, `${f.at(field)} must be a non-empty string (a regular expression)`, value);
    try {
        new RegExp(value, 'i');
    }
    catch (error) {
        f.fail(field, `${f.at(field)} is not a valid regular expression: ${error.message}`, value);
    }
    return value;
}
/** Far beyond a reviewable set (a few thousand requests); a larger file is a mistake. */
const TRAFFIC_SET_MAX_BYTES = 64 * 1024 * 1024;
/**
 * The frozen set (docs/traffic.md "The frozen traffic set"), every line checked: a bad line is an
 * error naming the file, the line and the field, never skipped (a skipped line is an instance the
 * gate silently stops measuring).
 */
function readTrafficSet(file, readSet = readFileSync, field = 'traffic.set') {
    let bytes;
    try {
        bytes = readSet(file);
    }
    catch (error) {
        throw new ConfigError('traffic.unreadable', `cannot read the traffic set: ${error.message}`, { file, field });
    }
    if (bytes.length > TRAFFIC_SET_MAX_BYTES) {
        throw new ConfigError('traffic.too_large', `the traffic set is larger than ${TRAFFIC_SET_MAX_BYTES} bytes`, {
            file,
            value: bytes.length
        });
    }
    const instances = [];
    const ids = new Map();
    bytes
        .toString('utf8')
        .split('\n')
        .forEach((text, index) => {
        const line = index + 1;
        if (text.trim() === '')
            return;
        const bad = (field, message, value) => {
            throw new ConfigError('traffic.bad_line', `traffic set line ${line}: ${message}`, { file, field: `line ${line}: ${field}`, value });
        };
        let value;
        try {
            value = JSON.parse(text);
        }
        catch (error) {
            bad('(line)', `not valid JSON (${error.message})`);
        }
        if (!isObject$1(value))
            return bad('(line)', 'must be a JSON object');
        const { id, stratum, tag, request, reference, logged_response, arrival_ms } = value;
        if (typeof id !== 'string' || id === '')
            bad('id', 'id must be a non-empty string', id);
        if (ids.has(id))
            bad('id', `id repeats line ${ids.get(id)}`, id);
        ids.set(id, line);
        if (typeof stratum !== 'string')
            bad('stratum', 'stratum must be a string', stratum);
        if (tag !== null && typeof tag !== 'string')
            bad('tag', 'tag must be a string or null', tag);
        if (reference !== null && typeof reference !== 'string')
            bad('reference', 'reference must be a string or null', reference);
        if (arrival_ms !== null && !(typeof arrival_ms === 'number' && Number.isFinite(arrival_ms) && arrival_ms >= 0)) {
            bad('arrival_ms', 'arrival_ms must be milliseconds >= 0 or null', arrival_ms);
        }
        if (logged_response !== null && !isObject$1(logged_response))
            bad('logged_response', 'logged_response must be an object or null');
        if (!isObject$1(request))
            return bad('request', 'request must be an object (a chat-completions body)');
        if ('model' in request || 'stream' in request)
            bad('request', 'request must not set model or stream: the gate sets them per side');
        for (const key of ['max_tokens', 'max_completion_tokens']) {
            const n = request[key];
            if (n !== undefined && n !== null && !(typeof n === 'number' && Number.isInteger(n) && n >= 1)) {
                bad(`request.${key}`, `${key} must be a positive integer`, n);
            }
        }
        const messages = request.messages;
        if (!Array.isArray(messages) || messages.length === 0)
            return bad('request.messages', 'request.messages must be a non-empty list');
        messages.forEach((message, i) => {
            const role = isObject$1(message) ? message.role : undefined;
            if (typeof role !== 'string' || !['system', 'developer', 'user', 'assistant', 'tool'].includes(role)) {
                bad(`request.messages[${i}].role`, 'each message needs a role: system, developer, user, assistant or tool', role);
            }
        });
        const schemaProblem = uncompilableSchema(request);
        if (schemaProblem)
            bad(schemaProblem.field, `${schemaProblem.field} is not a JSON schema the checks can use: ${schemaProblem.message}`);
        instances.push(value);
    });
    if (instances.length === 0)
        throw new ConfigError('traffic.empty', 'the traffic set has no instances', { file });
    return { instances, sha256: createHash('sha256').update(bytes).digest('hex') };
}
function isObject$1(value) {
    return value !== null && typeof value === 'object' && !Array.isArray(value);
}
/**
 * The schemas the structural checks validate answers against (response_format's json_schema, each
 * tool's parameters) must compile: a check that cannot run would count every answer as valid.
 */
function uncompilableSchema(request) {
    const ajv = new ajvExports.Ajv({ strict: false });
    const schemas = [];
    const format = request.response_format;
    if (format?.type === 'json_schema' && format.json_schema?.schema !== undefined) {
        schemas.push(['request.response_format.json_schema.schema', format.json_schema.schema]);
    }
    if (Array.isArray(request.tools)) {
        request.tools.forEach((tool, i) => {
            const parameters = tool?.function?.parameters;
            if (parameters !== undefined)
                schemas.push([`request.tools[${i}].function.parameters`, parameters]);
        });
    }
    for (const [field, schema] of schemas) {
        try {
            ajv.compile(schema);
        }
        catch (error) {
            return { field, message: error.message };
        }
    }
    return null;
}

/**
 * The gate file: the frozen gate set a team commits. Everything here is validated by
 * `config/load.ts`; the rest of the code receives only these typed, complete objects.
 *
 * YAML shape (snake_case keys; see docs/gate-file.md):
 *
 *   version: 1
 *   helm: { version: "0.5.16", max_eval_instances: 200, num_train_trials: 1, num_threads: 4,
 *           timeout_minutes: 60, command: "helm-run" }
 *   deployments:
 *     baseline:  { api: chat, base_url: http://host:8000/v1, model: served-name,
 *                  tokenizer: simple/tokenizer1, max_sequence_length: 4096,
 *                  api_key_env: BASELINE_KEY, request_timeout_seconds: 60 }
 *     candidate: { ... }
 *   runs:
 *     - entry: "synthetic_reasoning:mode=pattern_match"
 *       metric: exact_match
 *       max_drop: 0.02            # or max_relative_drop: 0.05
 *       lower_is_better: false
 *       perturbations: report     # or gate
 *   statistics: { confidence: 0.95, resamples: 10000, seed: 0, min_overlap: 0.95,
 *                 interval: auto, flip_tolerance: 1e-9 }
 */
const DEFAULT_STATISTICS = {
    confidence: 0.95,
    resamples: 10000,
    seed: 0,
    minOverlap: 0.95,
    interval: 'auto',
    flipTolerance: 1e-9
};

const STOP_SIGNALS = ['SIGTERM', 'SIGINT', 'SIGQUIT', 'SIGHUP', 'SIGUSR1', 'SIGUSR2', 'SIGKILL'];
const DEFAULT_READY_TIMEOUT_SECONDS = 900;
const DEFAULT_STOP_TIMEOUT_SECONDS = 60;
const VARIABLE = /^[A-Za-z_][A-Za-z0-9_]*$/;
/** Reads `deployments.<side>.launch`. */
function parseLaunch(f) {
    f.allow(['command', 'checkout', 'env', 'ready_timeout_seconds', 'stop', 'stop_command']);
    const command = argumentList(f, 'command', true);
    const checkout = f.choice('checkout', ['head', 'base'], 'head');
    const env = {};
    const envFields = f.object('env');
    if (envFields) {
        for (const name of envFields.keys()) {
            if (!VARIABLE.test(name))
                envFields.fail(name, `${envFields.at(name)} is not a valid environment variable name`, name);
            const value = envFields.raw(name);
            if (typeof value === 'number' && Number.isFinite(value))
                env[name] = String(value);
            else if (typeof value === 'string')
                env[name] = value;
            else
                envFields.fail(name, `${envFields.at(name)} must be a string (quote it)`);
            checkTemplate(envFields, name, env[name]);
        }
        envFields.done();
    }
    const readyTimeoutSeconds = f.number('ready_timeout_seconds', DEFAULT_READY_TIMEOUT_SECONDS, n => n > 0 && n <= 86_400, 'seconds between 0 and 86400');
    const stopFields = f.object('stop');
    let stop = { signal: 'SIGTERM', timeoutSeconds: DEFAULT_STOP_TIMEOUT_SECONDS };
    if (stopFields) {
        stopFields.allow(['signal', 'timeout_seconds']);
        stop = {
            signal: stopFields.choice('signal', STOP_SIGNALS, 'SIGTERM'),
            timeoutSeconds: stopFields.number('timeout_seconds', DEFAULT_STOP_TIMEOUT_SECONDS, n => n >= 0 && n <= 3600, 'seconds between 0 and 3600')
        };
        stopFields.done();
    }
    const stopCommand = argumentList(f, 'stop_command', false);
    f.done();
    return { command, checkout, env, readyTimeoutSeconds, stop, stopCommand, field: f.path };
}
/** Reads the top-level `schedule` and `fingerprint_paths`, given the parsed launch sections. */
function parseLaunchSettings(top, sides) {
    const launches = Object.keys(sides).length > 0;
    const schedule = top.choice('schedule', ['sequential', 'concurrent'], launches ? 'sequential' : 'concurrent');
    const list = top.list('fingerprint_paths') ?? [];
    const fingerprintPaths = list.map((item, i) => {
        const at = `fingerprint_paths[${i}]`;
        if (typeof item !== 'string' || item.trim() === '')
            top.fail('fingerprint_paths', `${at} must be a non-empty glob`, item);
        if (item.startsWith('/') || item.split('/').includes('..')) {
            top.fail('fingerprint_paths', `${at} must be a path inside the repository (no leading / and no ..)`, item);
        }
        return item;
    });
    return { sides, schedule, fingerprintPaths };
}
/**
 * Two servers launched at once must not share an address: the second could not bind, or worse,
 * its readiness probe would be answered by the first. One after the other they may (the usual
 * `-p 8000:8000` for both images): the runner checks the address is free before each launch.
 */
function checkScheduleFits(top, settings, baseUrls) {
    if (settings.schedule !== 'concurrent' || !settings.sides.baseline || !settings.sides.candidate)
        return;
    const origin = (url) => (url ? new URL(url).host : null);
    if (origin(baseUrls.baseline) === origin(baseUrls.candidate)) {
        top.fail('schedule', 'schedule is concurrent but both launched servers use the same host and port; use schedule: sequential or another port', 'concurrent');
    }
}
/** Launch needs a URL to probe and a model to look for: only `server` deployments can launch. */
function launchNeedsServer(f) {
    f.fail('launch', `${f.at('launch')} needs a server deployment (api, base_url, model), not prod_env`);
}
function argumentList(f, key, required) {
    const list = f.list(key);
    if (list === null) {
        if (required)
            f.fail(key, `${f.at(key)} is required: the server's command as a list of arguments`, null);
        return null;
    }
    if (list.length === 0)
        f.fail(key, `${f.at(key)} must list at least the program to run`);
    return list.map((item, i) => {
        if (typeof item === 'number' && Number.isFinite(item))
            return String(item);
        if (typeof item !== 'string' || item === '') {
            f.fail(key, `${f.at(key)}[${i}] must be a non-empty string (one argument; no shell is involved)`, item);
        }
        checkTemplate(f, key, item, `${f.at(key)}[${i}]`);
        return item;
    });
}
/** Rejects a malformed `${...}` now, so a typo is a config error and not a half-started server. */
function checkTemplate(f, key, text, at = f.at(key)) {
    for (let i = 0; i < text.length; i++) {
        if (text[i] !== '$')
            continue;
        if (text[i + 1] === '$') {
            i++;
            continue;
        }
        if (text[i + 1] !== '{')
            continue;
        const end = text.indexOf('}', i + 2);
        const name = end < 0 ? '' : text.slice(i + 2, end);
        if (end < 0 || !VARIABLE.test(name)) {
            f.fail(key, `${at} has a malformed variable reference; write \${NAME} (or $$ for a literal $)`, text);
        }
        i = end;
    }
}

/**
 * Reads and validates the gate file. Validation is strict on purpose: the file is the frozen
 * gate set that blocks releases, so an unknown key, a wrong type or an impossible value is an
 * error naming the key path, never a silent default.
 */
async function loadGateConfig(file) {
    let text;
    try {
        text = await readFile(file, 'utf8');
    }
    catch (error) {
        throw new ConfigError('config.unreadable', `cannot read the gate file: ${error.message}`, {
            file
        });
    }
    return parseGateConfig(text, file);
}
/**
 * YAML text to plain data, every failure a ConfigError naming the file (and the line where the
 * parser knows it): syntax errors, duplicate keys, alias bombs (the yaml library's "Excessive
 * alias count"), nesting too deep for the parser. Only the first line of the parser's message is
 * kept: the next lines quote the source, which may hold a key.
 */
function parseYamlFile(text, source, what = 'the gate file') {
    checkYamlShape(text, source, what);
    let doc;
    try {
        doc = parseDocument(text, { prettyErrors: true, uniqueKeys: true });
    }
    catch (error) {
        throw new ConfigError('config.yaml', `${what} is not valid YAML: ${firstLine(error)}`, { file: source });
    }
    if (doc.errors.length > 0) {
        const first = doc.errors[0];
        const line = first.linePos?.[0]?.line;
        throw new ConfigError('config.yaml', `${what} is not valid YAML${line ? ` (line ${line})` : ''}: ${firstLine(first)}`, {
            file: source,
            field: line ? `line ${line}` : undefined
        });
    }
    try {
        return doc.toJS({ maxAliasCount: 100 });
    }
    catch (error) {
        const why = error instanceof RangeError ? 'it nests too deeply' : firstLine(error);
        throw new ConfigError('config.yaml', `${what} cannot be loaded: ${why}`, { file: source });
    }
}
/**
 * Far beyond any gate file or prod_env file. Deep nesting needs no limit of its own: the yaml
 * library reports its own stack overflow as a parse error, which becomes a config.yaml error.
 */
const YAML_MAX_BYTES = 1024 * 1024;
function checkYamlShape(text, source, what) {
    if (text.length > YAML_MAX_BYTES) {
        throw new ConfigError('config.yaml', `${what} is larger than ${YAML_MAX_BYTES} bytes`, { file: source, value: text.length });
    }
}
function firstLine(error) {
    const message = error instanceof Error ? error.message : String(error);
    return (message.split('\n')[0] ?? '').replace(/ at line \d+, column \d+:?$/, '').slice(0, 200);
}
function parseGateConfig(text, source, options = {}) {
    const top = Fields.of(source, '', parseYamlFile(text, source)).allow([
        'version',
        'helm',
        'deployments',
        'runs',
        'statistics',
        'load',
        'schedule',
        'fingerprint_paths',
        'traffic'
    ]);
    const version = top.integer('version', 1, 1, 1);
    const helmFields = top.object('helm');
    const deploymentFields = top.object('deployments');
    const runList = top.list('runs');
    const statisticsFields = top.object('statistics');
    const loadFields = top.object('load');
    const trafficFields = top.object('traffic');
    const launches = {};
    const deployments = deploymentFields ? parseDeployments(deploymentFields, launches) : null;
    const launch = parseLaunchSettings(top, launches);
    checkScheduleFits(top, launch, baseUrlsOf(deployments));
    top.done();
    const traffic = trafficFields ? parseTraffic(trafficFields, source, options.readSet) : null;
    if (traffic)
        trafficNeedsChatServers(source, deployments);
    if (!runList || runList.length === 0) {
        throw new ConfigError('config.missing', 'runs must list at least one gated run', {
            file: source,
            field: 'runs'
        });
    }
    const runs = runList.map((item, i) => parseRun(Fields.of(source, `runs[${i}]`, item)));
    const entries = new Set();
    runs.forEach((run, i) => {
        const key = `${run.entry}|${run.metric}|${run.split ?? ''}`;
        if (entries.has(key)) {
            throw new ConfigError('config.duplicate', `runs[${i}] repeats an earlier entry and metric`, {
                file: source,
                field: `runs[${i}].entry`,
                value: run.entry
            });
        }
        entries.add(key);
    });
    return {
        version: version,
        source,
        helm: helmFields ? parseHelm(helmFields) : null,
        deployments,
        runs,
        statistics: statisticsFields ? parseStatistics(statisticsFields) : { ...DEFAULT_STATISTICS },
        load: loadFields ? parseLoad(loadFields) : null,
        launch,
        traffic
    };
}
/** The replay talks to each side's chat API itself: a prod_env deployment or a completions API has none to give it. */
function trafficNeedsChatServers(source, deployments) {
    if (!deployments) {
        throw new ConfigError('config.missing', 'traffic needs deployments (a chat server per side) to replay the set on', {
            file: source,
            field: 'deployments'
        });
    }
    for (const side of ['baseline', 'candidate']) {
        const d = deployments[side];
        if (d.kind !== 'server' || d.api !== 'chat') {
            throw new ConfigError('config.invalid', `traffic replays chat requests: deployments.${side} must be a server with api: chat`, {
                file: source,
                field: `deployments.${side}`,
                value: d.kind === 'server' ? `api: ${d.api}` : 'prod_env'
            });
        }
    }
}
function baseUrlsOf(deployments) {
    const url = (d) => (d?.kind === 'server' ? d.baseUrl : undefined);
    return { baseline: url(deployments?.baseline), candidate: url(deployments?.candidate) };
}
function parseRun(f) {
    f.allow(['entry', 'match', 'metric', 'split', 'max_drop', 'max_relative_drop', 'lower_is_better', 'perturbations']);
    const entry = f.string('entry');
    if (/(^|[:,])\s*model(_deployment)?\s*=/.test(entry)) {
        f.fail('entry', `${f.at('entry')} must not name a model: helm-gate adds each side's model itself`);
    }
    if (/\s/.test(entry))
        f.fail('entry', `${f.at('entry')} must not contain spaces`);
    const match = f.string('match', null);
    const metric = f.string('metric');
    const split = f.string('split', null);
    const maxDrop = f.optionalNumber('max_drop', n => n >= 0, 'a number >= 0 (metric units)');
    const maxRelativeDrop = f.optionalNumber('max_relative_drop', n => n > 0 && n < 1, 'a fraction between 0 and 1');
    if (maxDrop === null && maxRelativeDrop === null) {
        f.fail('max_drop', `${f.path} needs max_drop (metric units) or max_relative_drop (a fraction)`, null);
    }
    if (maxDrop !== null && maxRelativeDrop !== null) {
        f.fail('max_relative_drop', `${f.path} sets both max_drop and max_relative_drop; choose one`);
    }
    const lowerIsBetter = f.boolean('lower_is_better', false);
    const perturbations = f.choice('perturbations', ['report', 'gate'], 'report');
    f.done();
    return {
        entry,
        match,
        metric,
        split,
        maxDrop,
        maxRelativeDrop,
        direction: lowerIsBetter ? 'lower' : 'higher',
        perturbations
    };
}
function parseHelm(f) {
    f.allow(['version', 'max_eval_instances', 'num_train_trials', 'num_threads', 'timeout_minutes', 'command']);
    const version = f.string('version');
    if (!/^\d+\.\d+\.\d+$/.test(version))
        f.fail('version', `${f.at('version')} must be an exact version like 0.5.16`);
    const settings = {
        version,
        maxEvalInstances: f.integer('max_eval_instances', undefined, 1),
        numTrainTrials: f.integer('num_train_trials', 1, 1, 100),
        numThreads: f.integer('num_threads', 4, 1, 256),
        timeoutMinutes: f.number('timeout_minutes', 60, n => n > 0 && n <= 24 * 60, 'minutes between 0 and 1440'),
        command: f.string('command', 'helm-run')
    };
    f.done();
    return settings;
}
function parseDeployments(f, launches) {
    f.allow(['baseline', 'candidate']);
    const baseline = f.object('baseline');
    const candidate = f.object('candidate');
    f.done();
    if (!baseline)
        f.fail('baseline', `${f.at('baseline')} is required`, null);
    if (!candidate)
        f.fail('candidate', `${f.at('candidate')} is required`, null);
    const sides = { baseline: parseDeployment(baseline, launches, 'baseline'), candidate: parseDeployment(candidate, launches, 'candidate') };
    checkCommandOutputsAgree(f, sides.baseline, sides.candidate);
    return sides;
}
function parseDeployment(f, launches, side) {
    if (f.has('command'))
        return parseCommandDeployment(f);
    refuseCommandOutput(f);
    if (f.has('prod_env')) {
        if (f.has('launch'))
            launchNeedsServer(f);
        f.allow(['prod_env', 'deployment']);
        const localPath = f.string('prod_env');
        const deployment = f.string('deployment');
        f.done();
        return { kind: 'prod_env', localPath, deployment };
    }
    f.allow(['api', 'base_url', 'model', 'tokenizer', 'max_sequence_length', 'api_key_env', 'request_timeout_seconds', 'launch']);
    const api = f.choice('api', ['chat', 'completions'], undefined);
    const baseUrl = f.string('base_url');
    let url;
    try {
        url = new URL(baseUrl);
    }
    catch {
        f.fail('base_url', `${f.at('base_url')} must be an http(s) URL such as http://127.0.0.1:8000/v1`);
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') {
        f.fail('base_url', `${f.at('base_url')} must use http or https`);
    }
    if (url.username || url.password) {
        f.fail('base_url', `${f.at('base_url')} must not embed credentials; use api_key_env`, url.host);
    }
    // HELM's client and the load generator append /chat/completions to base_url: a query or
    // fragment would end up in front of that path (and a query may carry a key, so it is not shown).
    if (url.search || url.hash) {
        f.fail('base_url', `${f.at('base_url')} must not have a query (?...) or fragment (#...): give the API root such as http://host:8000/v1`, url.host);
    }
    const model = f.string('model');
    const tokenizer = f.string('tokenizer', 'simple/tokenizer1');
    const maxSequenceLength = f.integer('max_sequence_length', 4096, 16);
    const apiKeyEnv = f.string('api_key_env', null);
    // A key pasted here can match the variable-name pattern (ghp_..., hf_...): it would then be
    // printed as "the variable ... is not set". Key-looking names are refused without the value.
    if (apiKeyEnv !== null && (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(apiKeyEnv) || looksLikeSecret(apiKeyEnv))) {
        f.fail('api_key_env', `${f.at('api_key_env')} must be the NAME of an environment variable, not a key`, '(hidden)');
    }
    const requestTimeoutSeconds = f.number('request_timeout_seconds', 60, n => n > 0 && n <= 3600, 'seconds between 0 and 3600');
    const launchFields = f.object('launch');
    if (launchFields)
        launches[side] = parseLaunch(launchFields);
    f.done();
    return {
        kind: 'server',
        api,
        baseUrl: baseUrl.replace(/\/+$/, ''),
        model,
        tokenizer,
        maxSequenceLength,
        apiKeyEnv,
        requestTimeoutSeconds
    };
}
function parseStatistics(f) {
    f.allow(['confidence', 'resamples', 'seed', 'min_overlap', 'interval', 'flip_tolerance']);
    const settings = {
        confidence: f.number('confidence', DEFAULT_STATISTICS.confidence, n => n >= 0.5 && n < 1, 'a level in [0.5, 1), e.g. 0.95'),
        resamples: f.integer('resamples', DEFAULT_STATISTICS.resamples, 100, 10_000_000),
        seed: f.integer('seed', DEFAULT_STATISTICS.seed, 0, 2 ** 32 - 1),
        minOverlap: f.number('min_overlap', DEFAULT_STATISTICS.minOverlap, n => n > 0 && n <= 1, 'a fraction in (0, 1]'),
        interval: f.choice('interval', ['auto', 'bootstrap', 'newcombe', 'tango'], DEFAULT_STATISTICS.interval),
        flipTolerance: f.number('flip_tolerance', DEFAULT_STATISTICS.flipTolerance, n => n >= 0, 'a number >= 0')
    };
    f.done();
    return settings;
}

/**
 * A lenient, streaming JSON parser for HELM's output files.
 *
 * Why not JSON.parse: scenario_state.json can be several GB, more than one JS string can hold,
 * and HELM writes the non-JSON tokens `NaN`, `Infinity` and `-Infinity` (json.dumps default,
 * docs/helm.md "Serialisation"). The parser reads bytes chunk by chunk and materialises only the
 * values a caller asks for (the elements of a big array), so memory is bounded by the largest
 * element, not by the file.
 *
 * Apart from the three extra number tokens it is as strict as JSON.parse: no comments, no
 * trailing commas, no raw control characters in strings. Values inside skipped subtrees are
 * only scanned for structure (brackets and string ends), not validated.
 */
var Mode;
(function (Mode) {
    Mode[Mode["Descend"] = 0] = "Descend";
    Mode[Mode["Build"] = 1] = "Build";
    Mode[Mode["Skip"] = 2] = "Skip";
})(Mode || (Mode = {}));
var State;
(function (State) {
    State[State["Value"] = 0] = "Value";
    State[State["ArrayFirst"] = 1] = "ArrayFirst";
    State[State["ObjectFirst"] = 2] = "ObjectFirst";
    State[State["Key"] = 3] = "Key";
    State[State["Colon"] = 4] = "Colon";
    State[State["AfterValue"] = 5] = "AfterValue";
    State[State["String"] = 6] = "String";
    State[State["Escape"] = 7] = "Escape";
    State[State["Unicode"] = 8] = "Unicode";
    State[State["Bare"] = 9] = "Bare";
    State[State["End"] = 10] = "End";
})(State || (State = {}));
/**
 * Deepest nesting accepted in any HELM file. HELM's own files nest about a dozen levels; the
 * limit keeps every later walk over a parsed value (canonical JSON, error messages) far from the
 * call-stack limit, and a 100,000-deep array is reported as what it is instead of a crash.
 */
const MAX_JSON_DEPTH = 256;
const QUOTE$1 = 0x22;
const BACKSLASH$1 = 0x5c;
const MAX_BARE_WORD = 64;
const NUMBER_PATTERN = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?$/;
const SIMPLE_ESCAPES = {
    0x22: '"',
    0x5c: '\\',
    0x2f: '/',
    0x62: '\b',
    0x66: '\f',
    0x6e: '\n',
    0x72: '\r',
    0x74: '\t'
};
function isWhitespace(b) {
    return b === 0x20 || b === 0x0a || b === 0x0d || b === 0x09;
}
function isBareWordByte(b) {
    return (b >= 0x30 && b <= 0x39) || (b >= 0x41 && b <= 0x5a) || (b >= 0x61 && b <= 0x7a) || b === 0x2d || b === 0x2b || b === 0x2e;
}
function hexValue(b) {
    if (b >= 0x30 && b <= 0x39)
        return b - 0x30;
    if (b >= 0x41 && b <= 0x46)
        return b - 0x37;
    if (b >= 0x61 && b <= 0x66)
        return b - 0x57;
    return -1;
}
function describeByte(b) {
    return b >= 0x20 && b < 0x7f ? `'${String.fromCharCode(b)}'` : `byte 0x${b.toString(16).padStart(2, '0')}`;
}
/** `request_states[14].result.cached` style path. */
function formatJsonPath(path) {
    let out = '';
    for (const segment of path) {
        if (typeof segment === 'number')
            out += `[${segment}]`;
        else if (/^[A-Za-z_$][\w$@]*$/.test(segment))
            out += out ? `.${segment}` : segment;
        else
            out += `[${JSON.stringify(segment)}]`;
    }
    return out;
}
const defaultPlan = (path) => (path.length === 0 ? 'descend' : 'emit');
/**
 * Push parser: feed chunks with write(), call end() at EOF, take events with drain().
 * Exposed for tests and for callers that read from something other than a file.
 */
class JsonStreamParser {
    file;
    plan;
    skipPatterns;
    stack = [];
    events = [];
    state = State.Value;
    /** Bytes consumed before the current chunk. */
    consumed = 0;
    // The value being scanned (string or bare word) and where it goes.
    valueMode = Mode.Descend;
    stringIsKey = false;
    stringText = '';
    decoderHolds = false;
    decoder = new StringDecoder('utf8');
    unicodeDigits = 0;
    unicodeValue = 0;
    bareWord = '';
    bareStart = 0;
    constructor(file, options = {}) {
        this.file = file;
        this.plan = options.plan ?? defaultPlan;
        this.skipPatterns = options.skip ?? [];
    }
    /** Events produced so far; the internal queue is emptied. */
    drain() {
        const out = this.events;
        this.events = [];
        return out;
    }
    get bytesConsumed() {
        return this.consumed;
    }
    write(chunk) {
        const buf = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
        const n = buf.length;
        let i = 0;
        while (i < n) {
            switch (this.state) {
                case State.String: {
                    i = this.scanString(buf, i, n);
                    break;
                }
                case State.Escape: {
                    this.takeEscape(buf[i], i);
                    i++;
                    break;
                }
                case State.Unicode: {
                    const h = hexValue(buf[i]);
                    if (h < 0)
                        this.fail(i, `invalid \\u escape digit ${describeByte(buf[i])}`);
                    this.unicodeValue = this.unicodeValue * 16 + h;
                    i++;
                    if (++this.unicodeDigits === 4) {
                        // Surrogate halves are appended as single UTF-16 code units; two consecutive halves
                        // form the pair in the JS string wherever the chunk boundary fell.
                        if (this.valueMode !== Mode.Skip)
                            this.stringText += String.fromCharCode(this.unicodeValue);
                        this.state = State.String;
                    }
                    break;
                }
                case State.Bare: {
                    let j = i;
                    while (j < n && isBareWordByte(buf[j]))
                        j++;
                    this.bareWord += buf.toString('latin1', i, j);
                    if (this.bareWord.length > MAX_BARE_WORD)
                        this.fail(this.bareStart - this.consumed, 'token too long');
                    i = j;
                    if (j < n)
                        this.finishBareWord();
                    break;
                }
                default: {
                    const b = buf[i];
                    if (isWhitespace(b)) {
                        i++;
                        while (i < n && isWhitespace(buf[i]))
                            i++;
                        break;
                    }
                    this.structural(b, i);
                    i++;
                }
            }
        }
        this.consumed += n;
    }
    /** Signals EOF; throws if the document is incomplete. */
    end() {
        if (this.state === State.Bare)
            this.finishBareWord();
        if (this.state !== State.End) {
            const what = this.state === State.Value && this.stack.length === 0 ? 'empty input' : 'unexpected end of file (truncated?)';
            this.fail(0, what);
        }
    }
    structural(b, i) {
        switch (this.state) {
            case State.Value:
                this.startValue(b, i);
                return;
            case State.ArrayFirst:
                if (b === 0x5d)
                    this.closeContainer(true, i);
                else
                    this.startValue(b, i);
                return;
            case State.ObjectFirst:
                if (b === 0x7d)
                    this.closeContainer(false, i);
                else
                    this.startKey(b, i);
                return;
            case State.Key:
                this.startKey(b, i);
                return;
            case State.Colon:
                if (b !== 0x3a)
                    this.fail(i, `expected ':' after object key, found ${describeByte(b)}`);
                this.state = State.Value;
                return;
            case State.AfterValue: {
                const top = this.stack[this.stack.length - 1];
                if (b === 0x2c) {
                    if (top.isArray) {
                        top.index++;
                        this.state = State.Value;
                    }
                    else {
                        this.state = State.Key;
                    }
                }
                else if (b === 0x5d || b === 0x7d) {
                    this.closeContainer(b === 0x5d, i);
                }
                else {
                    this.fail(i, `expected ',' or '${top.isArray ? ']' : '}'}', found ${describeByte(b)}`);
                }
                return;
            }
            case State.End:
                this.fail(i, `unexpected ${describeByte(b)} after the end of the JSON value`);
        }
    }
    startKey(b, i) {
        if (b !== QUOTE$1)
            this.fail(i, `expected a string key, found ${describeByte(b)}`);
        this.beginString(true, this.stack[this.stack.length - 1].mode === Mode.Skip ? Mode.Skip : Mode.Descend);
    }
    startValue(b, i) {
        const { mode, live } = this.childMode();
        if (b === 0x7b || b === 0x5b) {
            if (this.stack.length >= MAX_JSON_DEPTH)
                throw tooDeep(this.file, this.consumed + i);
            const isArray = b === 0x5b;
            const container = mode === Mode.Build ? (isArray ? [] : {}) : null;
            if (mode === Mode.Descend)
                this.events.push({ kind: 'open', path: this.currentPath(), type: isArray ? 'array' : 'object' });
            this.stack.push({ isArray, mode, container, key: '', index: 0, live });
            this.state = isArray ? State.ArrayFirst : State.ObjectFirst;
            return;
        }
        this.valueMode = mode;
        if (b === QUOTE$1) {
            this.beginString(false, mode);
            return;
        }
        if (b === 0x2d || (b >= 0x30 && b <= 0x39) || b === 0x4e || b === 0x49 || b === 0x74 || b === 0x66 || b === 0x6e) {
            this.bareWord = String.fromCharCode(b);
            this.bareStart = this.consumed + i;
            this.state = State.Bare;
            return;
        }
        this.fail(i, `unexpected ${describeByte(b)} where a value was expected`);
    }
    /** How the value about to start is handled, from its parent frame (or the plan at the root). */
    childMode() {
        const parent = this.stack[this.stack.length - 1];
        if (!parent || parent.mode === Mode.Descend) {
            const plan = this.plan(this.currentPath());
            if (plan === 'descend')
                return { mode: Mode.Descend, live: null };
            if (plan === 'skip')
                return { mode: Mode.Skip, live: null };
            const live = [];
            for (let p = 0; p < this.skipPatterns.length; p++)
                if (this.skipPatterns[p].length > 0)
                    live.push(p, 0);
            return { mode: Mode.Build, live: live.length ? live : null };
        }
        if (parent.mode === Mode.Skip)
            return { mode: Mode.Skip, live: null };
        if (!parent.live)
            return { mode: Mode.Build, live: null };
        const segment = parent.isArray ? String(parent.index) : parent.key;
        let next = null;
        for (let k = 0; k < parent.live.length; k += 2) {
            const pattern = this.skipPatterns[parent.live[k]];
            const pos = parent.live[k + 1];
            if (pattern[pos] !== '*' && pattern[pos] !== segment)
                continue;
            if (pos + 1 === pattern.length)
                return { mode: Mode.Skip, live: null };
            (next ??= []).push(parent.live[k], pos + 1);
        }
        return { mode: Mode.Build, live: next };
    }
    beginString(isKey, mode) {
        this.stringIsKey = isKey;
        if (isKey)
            this.valueMode = mode;
        this.stringText = '';
        this.decoderHolds = false;
        this.state = State.String;
    }
    /** Scans string bytes from i; returns the index to continue from. */
    scanString(buf, i, n) {
        let j = i;
        while (j < n) {
            const b = buf[j];
            if (b === QUOTE$1 || b === BACKSLASH$1 || b < 0x20)
                break;
            j++;
        }
        const decode = this.valueMode !== Mode.Skip;
        if (j === n) {
            if (decode && j > i) {
                // The chunk may end inside a multi-byte character: the decoder holds its first bytes.
                this.stringText += this.decoder.write(buf.subarray(i, j));
                this.decoderHolds = true;
            }
            return n;
        }
        const b = buf[j];
        if (b < 0x20)
            this.fail(j, `raw control character ${describeByte(b)} in a string`);
        if (decode) {
            if (this.decoderHolds) {
                // end() flushes (and resets) what the decoder held back from the previous chunk.
                this.stringText += this.decoder.write(buf.subarray(i, j)) + this.decoder.end();
                this.decoderHolds = false;
            }
            else if (j > i) {
                this.stringText += buf.toString('utf8', i, j);
            }
        }
        if (b === BACKSLASH$1) {
            this.state = State.Escape;
        }
        else {
            this.finishString();
        }
        return j + 1;
    }
    takeEscape(b, i) {
        if (b === 0x75) {
            this.unicodeDigits = 0;
            this.unicodeValue = 0;
            this.state = State.Unicode;
            return;
        }
        const text = SIMPLE_ESCAPES[b];
        if (text === undefined)
            this.fail(i, `invalid escape \\${String.fromCharCode(b)}`);
        if (this.valueMode !== Mode.Skip)
            this.stringText += text;
        this.state = State.String;
    }
    finishString() {
        const text = this.stringText;
        this.stringText = '';
        if (this.stringIsKey) {
            this.stack[this.stack.length - 1].key = text;
            this.state = State.Colon;
            return;
        }
        this.completeValue(text, this.valueMode);
    }
    finishBareWord() {
        const word = this.bareWord;
        this.bareWord = '';
        if (this.valueMode === Mode.Skip) {
            this.completeValue(null, Mode.Skip);
            return;
        }
        let value;
        if (word === 'true')
            value = true;
        else if (word === 'false')
            value = false;
        else if (word === 'null')
            value = null;
        else if (word === 'NaN')
            value = Number.NaN;
        else if (word === 'Infinity')
            value = Number.POSITIVE_INFINITY;
        else if (word === '-Infinity')
            value = Number.NEGATIVE_INFINITY;
        else if (NUMBER_PATTERN.test(word))
            value = Number(word);
        else {
            this.fail(this.bareStart - this.consumed, `invalid token ${JSON.stringify(word)}`);
        }
        this.completeValue(value, this.valueMode);
    }
    closeContainer(isArray, i) {
        const frame = this.stack[this.stack.length - 1];
        if (frame.isArray !== isArray)
            this.fail(i, `unexpected '${isArray ? ']' : '}'}'`);
        this.stack.pop();
        if (frame.mode === Mode.Descend) {
            this.afterValue();
            return;
        }
        this.completeValue(frame.container, frame.mode);
    }
    completeValue(value, mode) {
        const parent = this.stack[this.stack.length - 1];
        if (mode === Mode.Skip) {
            if (parent && parent.mode === Mode.Build && parent.isArray)
                parent.container.push(null);
        }
        else if (parent && parent.mode === Mode.Build) {
            if (parent.isArray)
                parent.container.push(value);
            else if (parent.key === '__proto__') {
                // Plain assignment would replace the prototype; JSON.parse makes an own property.
                Object.defineProperty(parent.container, parent.key, { value, enumerable: true, writable: true, configurable: true });
            }
            else
                parent.container[parent.key] = value;
        }
        else {
            // A value emitted by the plan, or a scalar where the plan expected a container to descend
            // into: the caller sees it and decides whether its type is acceptable.
            this.events.push({ kind: 'value', path: this.currentPath(), value });
        }
        this.afterValue();
    }
    afterValue() {
        this.state = this.stack.length === 0 ? State.End : State.AfterValue;
    }
    currentPath() {
        return this.stack.map(frame => (frame.isArray ? frame.index : frame.key));
    }
    fail(i, what) {
        const offset = this.consumed + i;
        const path = formatJsonPath(this.currentPath());
        throw new InputError('input.malformed_json', `Malformed JSON in ${this.file} at byte ${offset}${path ? ` (in ${path})` : ''}: ${what}`, {
            file: this.file,
            field: path || undefined,
            value: offset
        });
    }
}
function tooDeep(file, offset) {
    return new InputError('input.too_deep', `${file} nests arrays or objects more than ${MAX_JSON_DEPTH} levels deep${offset === undefined ? '' : ` (at byte ${offset})`}; no HELM file does, so it is damaged or hostile`, { file, field: `depth > ${MAX_JSON_DEPTH}`, value: offset });
}
/**
 * Whether JSON text nests deeper than `limit`, by one pass over its characters (brackets inside
 * strings do not count). No recursion and no allocation, so any depth is safe and the check costs
 * a small fraction of the parse it guards. Given the UTF-8 bytes, it reads them instead: every
 * byte of a multi-byte character is above 0x7f, so quotes, backslashes and brackets are the same
 * bytes as characters, and indexing bytes is several times faster than `charCodeAt`.
 */
function textExceedsDepth(text, limit = MAX_JSON_DEPTH) {
    if (typeof text !== 'string')
        return bytesExceedDepth(text, limit);
    let depth = 0;
    let inString = false;
    for (let i = 0; i < text.length; i++) {
        const c = text.charCodeAt(i);
        if (inString) {
            if (c === BACKSLASH$1)
                i++;
            else if (c === QUOTE$1)
                inString = false;
        }
        else if (c === QUOTE$1) {
            inString = true;
        }
        else if (c === 0x5b || c === 0x7b) {
            if (++depth > limit)
                return true;
        }
        else if (c === 0x5d || c === 0x7d) {
            depth--;
        }
    }
    return false;
}
/**
 * Inside a string only its closing quote matters, so the search for it is left to the native
 * `indexOf` (memchr speed) instead of a JavaScript loop over every byte: scenario_state.json is
 * mostly prompt and completion text, and this made the check about three times faster on a
 * real-shaped file (bench/compare.mjs). A quote preceded by an odd run of backslashes is escaped.
 */
function bytesExceedDepth(bytes, limit) {
    let depth = 0;
    const n = bytes.length;
    for (let i = 0; i < n; i++) {
        const c = bytes[i];
        if (c === QUOTE$1) {
            let close = bytes.indexOf(QUOTE$1, i + 1);
            for (;;) {
                if (close < 0)
                    return false;
                let slashes = 0;
                while (bytes[close - 1 - slashes] === BACKSLASH$1)
                    slashes++;
                if (slashes % 2 === 0)
                    break;
                close = bytes.indexOf(QUOTE$1, close + 1);
            }
            i = close;
        }
        else if (c === 0x5b || c === 0x7b) {
            if (++depth > limit)
                return true;
        }
        else if (c === 0x5d || c === 0x7d) {
            depth--;
        }
    }
    return false;
}
/**
 * Streams the events of a JSON file. Reads `chunkSize` bytes at a time into one reused buffer;
 * every yielded value is a fresh copy, so callers may keep it.
 */
async function* streamJson(file, options = {}) {
    const native = options.chunkSize === undefined ? await parseNatively(file, options.digest) : undefined;
    if (native !== undefined) {
        yield* walkParsed(native.value, [], options.plan ?? defaultPlan);
        return;
    }
    const parser = new JsonStreamParser(file, options);
    let handle;
    try {
        handle = await open(file, 'r');
    }
    catch (error) {
        throw new InputError('input.unreadable', `Cannot open ${file}: ${error.message}`, { file });
    }
    try {
        const buffer = Buffer.allocUnsafe(options.chunkSize ?? 1 << 20);
        for (;;) {
            const { bytesRead } = await handle.read(buffer, 0, buffer.length, null);
            if (bytesRead === 0)
                break;
            options.digest?.update(buffer.subarray(0, bytesRead));
            parser.write(buffer.subarray(0, bytesRead));
            yield* parser.drain();
        }
        parser.end();
        yield* parser.drain();
    }
    finally {
        await handle.close();
    }
}
/**
 * Files up to this size are parsed with the native JSON.parse first: it is about ten times
 * faster than the byte-level parser, and at this size the whole document fits in memory
 * comfortably. A file it rejects (HELM's NaN/Infinity tokens, truncation) falls through to the
 * streaming parser, which accepts those tokens and names the byte offset of real errors. Larger
 * files always stream, so memory stays bounded by one element.
 */
const NATIVE_PARSE_LIMIT = 64 * 1024 * 1024;
async function parseNatively(file, digest) {
    let text;
    let bytes;
    try {
        const info = await stat(file);
        if (!info.isFile() || info.size > NATIVE_PARSE_LIMIT)
            return undefined;
        bytes = await readFile(file);
        text = bytes.toString('utf8');
    }
    catch {
        // Let the streaming path report the problem with its usual message.
        return undefined;
    }
    // JSON.parse itself copes with any depth; every later walk over the value must not have to.
    if (textExceedsDepth(bytes))
        throw tooDeep(file);
    let value;
    try {
        value = JSON.parse(text);
    }
    catch {
        return undefined;
    }
    digest?.update(bytes);
    return { value };
}
/** The events the streaming parser would yield for an already parsed document. */
function* walkParsed(value, path, plan) {
    const action = plan(path);
    if (action === 'skip')
        return;
    const container = value !== null && typeof value === 'object';
    if (action === 'emit' || !container) {
        yield { kind: 'value', path: [...path], value };
        return;
    }
    if (Array.isArray(value)) {
        yield { kind: 'open', path: [...path], type: 'array' };
        for (let i = 0; i < value.length; i++)
            yield* walkParsed(value[i], [...path, i], plan);
        return;
    }
    yield { kind: 'open', path: [...path], type: 'object' };
    for (const [key, member] of Object.entries(value))
        yield* walkParsed(member, [...path, key], plan);
}
/**
 * Yields the elements of a file whose top level is an array (stats.json,
 * per_instance_stats.json), with their index.
 */
async function* streamJsonArray(file, options = {}) {
    for await (const event of streamJson(file, options)) {
        if (event.kind === 'open' && event.type === 'array')
            continue;
        if (event.kind === 'value' && typeof event.path[0] === 'number') {
            yield { index: event.path[0], value: event.value };
            continue;
        }
        const found = event.kind === 'open' ? `an ${event.type}` : describeJsonType(event.value);
        throw new InputError('input.wrong_type', `Expected a JSON array at the top of ${file}, found ${found}`, { file });
    }
}
function describeJsonType(value) {
    if (value === null)
        return 'null';
    if (Array.isArray(value))
        return 'an array';
    if (typeof value === 'object')
        return 'an object';
    return `a ${typeof value}`;
}
/** Parses a small document held in memory (run_spec.json, scenario.json) with the same leniency. */
function parseLenientJson(text, file) {
    const parser = new JsonStreamParser(file, { plan: () => 'emit' });
    parser.write(typeof text === 'string' ? Buffer.from(text, 'utf8') : text);
    parser.end();
    const events = parser.drain();
    return events.length === 1 && events[0].kind === 'value' ? events[0].value : undefined;
}

/**
 * run_spec.json and scenario.json: small files, read whole, checked for the fields the gate uses.
 */
async function readSmallJson(file) {
    let bytes;
    try {
        bytes = await readFile(file);
    }
    catch (error) {
        throw new InputError('input.unreadable', `Cannot read ${file}: ${error.message}`, { file });
    }
    return parseLenientJson(bytes, file);
}
function isObject(value) {
    return typeof value === 'object' && value !== null && !Array.isArray(value);
}
function wrongType(file, field, expected, value) {
    return new InputError('input.wrong_type', `${field} in ${file} must be ${expected}, found ${describeJsonType(value)}`, {
        file,
        field,
        value
    });
}
function checkObjectSpec(file, field, value) {
    if (!isObject(value))
        throw wrongType(file, field, 'an object', value);
    if (typeof value.class_name !== 'string')
        throw wrongType(file, `${field}.class_name`, 'a string', value.class_name);
    // `args` is written as {} when empty; absent is tolerated for hand-written files.
    if (value.args !== undefined && !isObject(value.args))
        throw wrongType(file, `${field}.args`, 'an object', value.args);
}
function validateRunSpec(value, file) {
    if (!isObject(value))
        throw wrongType(file, 'run_spec', 'an object', value);
    if (typeof value.name !== 'string' || value.name === '')
        throw wrongType(file, 'name', 'a non-empty string', value.name);
    checkObjectSpec(file, 'scenario_spec', value.scenario_spec);
    if (!isObject(value.adapter_spec))
        throw wrongType(file, 'adapter_spec', 'an object', value.adapter_spec);
    if (!Array.isArray(value.metric_specs))
        throw wrongType(file, 'metric_specs', 'an array', value.metric_specs);
    value.metric_specs.forEach((spec, i) => checkObjectSpec(file, `metric_specs[${i}]`, spec));
    if (value.data_augmenter_spec !== undefined && !isObject(value.data_augmenter_spec)) {
        throw wrongType(file, 'data_augmenter_spec', 'an object', value.data_augmenter_spec);
    }
    if (value.groups !== undefined && !(Array.isArray(value.groups) && value.groups.every(g => typeof g === 'string'))) {
        throw wrongType(file, 'groups', 'an array of strings', value.groups);
    }
    return value;
}
async function readRunSpec(file) {
    return validateRunSpec(await readSmallJson(file), file);
}
/** scenario.json `name`, or null when the file has none. */
async function readScenarioName(file) {
    const value = await readSmallJson(file);
    if (!isObject(value))
        throw wrongType(file, 'scenario', 'an object', value);
    if (value.name === undefined)
        return null;
    if (typeof value.name !== 'string')
        throw wrongType(file, 'name', 'a string', value.name);
    return value.name;
}
/**
 * `model_deployment` entered AdapterSpec in HELM 0.4.0 (#1903) and is always written since
 * (default ""), so its absence marks the 0.2.x shapes.
 */
function detectLayout(runSpec) {
    return 'model_deployment' in runSpec.adapter_spec ? '0.4+' : '0.2';
}

/**
 * Finding run directories under a HELM output path.
 *
 * Accepted inputs: an output path (`benchmark_output`, holding `runs/<suite>/`), its `runs/`
 * directory, a suite directory (`runs/<suite>`), or one run directory. Like HELM's own
 * summarize.py, only directories containing run_spec.json are runs; `eval_cache` and `groups`
 * are skipped. Directory names are never parsed: they are lossy (docs/helm.md "Run names").
 */
const RUN_FILES = {
    runSpec: 'run_spec.json',
    scenario: 'scenario.json',
    scenarioState: 'scenario_state.json',
    stats: 'stats.json',
    perInstanceStats: 'per_instance_stats.json'
};
/** Written next to run directories by helm-run / helm-summarize; not runs. */
const NOT_RUNS = new Set(['eval_cache', 'groups']);
async function kindOf(path) {
    try {
        const info = await stat(path);
        return info.isDirectory() ? 'directory' : info.isFile() ? 'file' : null;
    }
    catch {
        return null;
    }
}
async function childDirectories(dir) {
    const entries = await readdir(dir, { withFileTypes: true });
    return entries
        .filter(entry => entry.isDirectory() && !entry.name.startsWith('.') && !NOT_RUNS.has(entry.name))
        .map(entry => entry.name)
        .sort();
}
async function presentFiles(dir) {
    const files = {};
    for (const [flag, name] of Object.entries(RUN_FILES)) {
        files[flag] = (await kindOf(join(dir, name))) === 'file';
    }
    return files;
}
/** Reads one directory that contains run_spec.json. */
async function readRunDirectory(dir) {
    const path = resolve$1(dir);
    const files = await presentFiles(path);
    if (!files.runSpec) {
        throw new InputError('input.not_a_run', `${path} is not a HELM run directory: it has no run_spec.json`, { file: path });
    }
    const runSpec = await readRunSpec(join(path, RUN_FILES.runSpec));
    const scenarioName = files.scenario ? await readScenarioName(join(path, RUN_FILES.scenario)) : null;
    return { path, runSpec, scenarioName, files, layout: detectLayout(runSpec) };
}
async function containsRunDirectories(dir) {
    for (const child of await childDirectories(dir)) {
        if ((await kindOf(join(dir, child, RUN_FILES.runSpec))) === 'file')
            return true;
    }
    return false;
}
/** The suite directory to scan under `path`, or null when `path` is itself a suite. */
async function locateSuite(path) {
    let suitesDir = null;
    if ((await kindOf(join(path, 'runs'))) === 'directory') {
        suitesDir = join(path, 'runs');
    }
    else if (!(await containsRunDirectories(path))) {
        // Perhaps a `runs/` directory: its children are suites holding run directories.
        const children = await childDirectories(path);
        const suites = [];
        for (const child of children)
            if (await containsRunDirectories(join(path, child)))
                suites.push(child);
        if (suites.length > 0)
            suitesDir = path;
    }
    if (suitesDir === null)
        return null;
    const suites = await childDirectories(suitesDir);
    if (suites.length === 0) {
        throw new InputError('input.no_runs', `No HELM suite found in ${suitesDir} (expected runs/<suite>/<run>/run_spec.json)`, {
            file: suitesDir
        });
    }
    if (suites.length > 1) {
        throw new InputError('input.ambiguous_suites', `${path} holds several HELM suites (${suites.join(', ')}); pass one suite directory, e.g. ${join(suitesDir, suites[0])}`, { file: path, value: suites });
    }
    return join(suitesDir, suites[0]);
}
/**
 * Everything under `path`: complete runs (with run_spec.json) and incomplete ones (a directory
 * where a run should be, without run_spec.json: what a failed helm-run leaves). Sorted by path.
 */
async function scanRuns(inputPath) {
    const path = resolve$1(inputPath);
    const kind = await kindOf(path);
    if (kind === null)
        throw new InputError('input.not_found', `HELM output path ${path} does not exist`, { file: path });
    if (kind !== 'directory') {
        throw new InputError('input.not_a_directory', `HELM output path ${path} is not a directory`, { file: path });
    }
    if ((await kindOf(join(path, RUN_FILES.runSpec))) === 'file') {
        return { root: path, runs: [await readRunDirectory(path)], incomplete: [] };
    }
    const suite = (await locateSuite(path)) ?? path;
    const runs = [];
    const incomplete = [];
    for (const child of await childDirectories(suite)) {
        const dir = join(suite, child);
        const files = await presentFiles(dir);
        if (files.runSpec)
            runs.push(await readRunDirectory(dir));
        else
            incomplete.push({ path: dir, files });
    }
    if (runs.length === 0 && incomplete.length === 0) {
        throw new InputError('input.no_runs', `No HELM run directories found in ${path} (expected <output>/runs/<suite>/<run>/run_spec.json)`, {
            file: path
        });
    }
    const byPath = (a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0);
    return { root: suite, runs: runs.sort(byPath), incomplete: incomplete.sort(byPath) };
}
/**
 * The complete run directories under `path`, sorted by path. Throws InputError
 * `input.incomplete_run` when any run directory lacks run_spec.json: a failed helm-run must
 * fail the gate, never shrink the comparison silently. Callers that want to list such runs
 * themselves use scanRuns().
 */
async function discoverRuns(path) {
    const scan = await scanRuns(path);
    if (scan.incomplete.length > 0) {
        const names = scan.incomplete.map(run => run.path);
        throw new InputError('input.incomplete_run', `${names.length} HELM run director${names.length === 1 ? 'y has' : 'ies have'} no run_spec.json (a failed helm-run leaves an empty directory): ${names.join(', ')}`, { file: names[0], value: names });
    }
    return scan.runs;
}

/**
 * What the run-directory reader hands to the rest of helm-gate. Shapes follow HELM's JSON
 * (docs/helm.md "The five run files"), from 0.2.x (FlexLLMGen) through 0.5.16.
 */
/** Request fields that decide how the model decodes; both sides must send the same. */
const DECODING_FIELDS = ['temperature', 'max_tokens', 'stop_sequences', 'top_p', 'num_completions', 'echo_prompt'];

/**
 * Type checks for one element of a HELM array file (a per_instance_stats entry, a request
 * state). A wrong type is an InputError naming the file, the full key path and the value, so a
 * hand-edited or truncated file is reported exactly where it is wrong.
 */
class ElementChecker {
    file;
    constructor(file) {
        this.file = file;
    }
    fail(field, expected, value) {
        const path = this.pathOf(field);
        throw new InputError('input.wrong_type', `${path} in ${this.file} must be ${expected}, found ${value === undefined ? 'nothing' : describeJsonType(value)}`, { file: this.file, field: path, value });
    }
    object(value, field) {
        if (typeof value !== 'object' || value === null || Array.isArray(value))
            this.fail(field, 'an object', value);
        return value;
    }
    string(value, field) {
        if (typeof value !== 'string')
            this.fail(field, 'a string', value);
        return value;
    }
    /** Counts and indices: non-negative integers. */
    natural(value, field) {
        if (typeof value !== 'number' || !Number.isInteger(value) || value < 0)
            this.fail(field, 'a non-negative integer', value);
        return value;
    }
}

/**
 * scenario_state.json → one bounded RequestStateSummary per request state, streamed: the file
 * can be several GB, so only one request state is materialised at a time, without its token
 * lists (docs/helm.md "scenario_state.json").
 *
 * Shapes read: HELM 0.5.16 and the 0.2.x ones (docs/helm.md "Version drift"): `Instance.input` and
 * `Reference.output` as plain strings (before 0.2.0) or `{text}` objects, `Request.model` only,
 * `Sequence` tokens with `top_logprobs`, `request_time: 0`, no `error_flags`.
 */
const FILE_NAME$1 = 'scenario_state.json';
const DEFAULT_EXCERPT_LENGTH = 200;
/** Big subtrees no summary needs; they are scanned but never materialised. */
const SKIPPED_SUBTREES = [
    ['result', 'completions', '*', 'tokens'],
    ['result', 'embedding'],
    ['instance', 'contrast_inputs'],
    ['instance', 'contrast_references'],
    ['annotations']
];
/**
 * At most `max` code points (the last one '…' when cut), cut at a code point boundary so no
 * half surrogate pair ends an excerpt.
 */
function excerpt(text, max) {
    if (text.length <= max)
        return text;
    // 2 * max + 2 code units always hold more than max code points, so a short head means the
    // whole text fits.
    const head = Array.from(text.slice(0, 2 * max + 2));
    return head.length <= max ? text : `${head.slice(0, Math.max(0, max - 1)).join('')}…`;
}
class StateChecker extends ElementChecker {
    index;
    constructor(file, index) {
        super(file);
        this.index = index;
    }
    pathOf(field) {
        const segments = field
            .split('.')
            .filter(Boolean)
            .map(segment => (/^\d+$/.test(segment) ? Number(segment) : segment));
        return formatJsonPath(['request_states', this.index, ...segments]);
    }
    optionalObject(value, field) {
        return value === undefined || value === null ? null : this.object(value, field);
    }
    array(value, field) {
        if (!Array.isArray(value))
            this.fail(field, 'an array', value);
        return value;
    }
    optionalString(value, field) {
        return value === undefined || value === null ? null : this.string(value, field);
    }
    optionalBoolean(value, field) {
        if (value === undefined || value === null)
            return null;
        if (typeof value !== 'boolean')
            this.fail(field, 'a boolean', value);
        return value;
    }
    optionalNumber(value, field) {
        if (value === undefined || value === null)
            return null;
        if (typeof value !== 'number')
            this.fail(field, 'a number', value);
        return value;
    }
    /** Input / Output: a plain string before HELM 0.2.0, `{text, ...}` since. */
    text(value, field) {
        if (typeof value === 'string')
            return value;
        const object = this.object(value, field);
        if (object.text === undefined && Array.isArray(object.messages))
            return messagesText(object.messages);
        return object.text === undefined ? '' : this.string(object.text, `${field}.text`);
    }
}
function messagesText(messages) {
    return messages
        .map(m => typeof m === 'object' && m !== null && typeof m.content === 'string'
        ? m.content
        : '')
        .join('\n');
}
function sha256$1(text) {
    return createHash('sha256').update(text, 'utf8').digest('hex');
}
/** Builds the summary of one request state (the element at request_states[index]). */
function summarizeRequestState(value, index, file, excerptLength = DEFAULT_EXCERPT_LENGTH) {
    const check = new StateChecker(file, index);
    const state = check.object(value, '');
    const instance = check.object(state.instance, 'instance');
    const instanceId = check.string(instance.id, 'instance.id');
    const input = check.text(instance.input, 'instance.input');
    const perturbation = check.optionalObject(instance.perturbation, 'instance.perturbation');
    if (perturbation)
        check.string(perturbation.name, 'instance.perturbation.name');
    const references = instance.references === undefined ? [] : check.array(instance.references, 'instance.references');
    const correct = [];
    references.forEach((raw, r) => {
        const reference = check.object(raw, `instance.references.${r}`);
        const tags = reference.tags === undefined ? [] : check.array(reference.tags, `instance.references.${r}.tags`);
        if (tags.includes('correct'))
            correct.push(check.text(reference.output, `instance.references.${r}.output`));
    });
    const request = check.object(state.request, 'request');
    const prompt = check.optionalString(request.prompt, 'request.prompt') ?? '';
    let promptHash;
    if (prompt === '' && Array.isArray(request.messages))
        promptHash = sha256$1(JSON.stringify(request.messages));
    else if (prompt === '' && request.multimodal_prompt !== undefined)
        promptHash = sha256$1(JSON.stringify(request.multimodal_prompt));
    else
        promptHash = sha256$1(prompt);
    const result = check.optionalObject(state.result, 'result');
    let output = '';
    // Whether the request produced an answer at all: a result, at least one completion, and text
    // in every completion (an empty text is an answer; a missing one is not).
    let answered = result !== null && Array.isArray(result.completions) && result.completions.length > 0;
    if (result && result.completions !== undefined) {
        const completions = check.array(result.completions, 'result.completions');
        completions.forEach((raw, k) => {
            const completion = check.object(raw, `result.completions.${k}`);
            const text = check.optionalString(completion.text, `result.completions.${k}.text`);
            if (text === null)
                answered = false;
            if (k === 0)
                output = text ?? '';
        });
    }
    const mapping = check.optionalObject(state.output_mapping, 'output_mapping');
    if (mapping) {
        // HELM strips the completion before looking it up (" A" -> "A" -> "Even").
        const mapped = mapping[output.trim()];
        if (typeof mapped === 'string')
            output = mapped;
    }
    const decoding = {};
    for (const field of DECODING_FIELDS)
        if (request[field] !== undefined)
            decoding[field] = request[field];
    const referenceIndex = state.reference_index === undefined ? null : check.natural(state.reference_index, 'reference_index');
    return {
        instanceId,
        trainTrialIndex: check.natural(state.train_trial_index, 'train_trial_index'),
        perturbation: perturbation,
        referenceIndex,
        cached: result ? check.optionalBoolean(result.cached, 'result.cached') : null,
        success: result ? check.optionalBoolean(result.success, 'result.success') : null,
        error: result ? check.optionalString(result.error, 'result.error') : null,
        promptHash,
        decoding,
        answered,
        inputExcerpt: excerpt(input, excerptLength),
        referenceExcerpt: excerpt(correct.join(' | '), excerptLength),
        outputExcerpt: excerpt(output, excerptLength),
        requestTime: result ? check.optionalNumber(result.request_time, 'result.request_time') : null
    };
}
function planScenarioState(path) {
    return path.length === 0 || (path.length === 1 && path[0] === 'request_states') ? 'descend' : 'emit';
}
function wrongTop(file, field, expected, found) {
    return new InputError('input.wrong_type', `${field || 'The top level'} of ${file} must be ${expected}, found ${found}`, {
        file,
        field: field || undefined
    });
}
/**
 * Streams scenario_state.json, calling `onRequestState` for each request state in file order
 * (awaited, so a slow consumer applies back-pressure). Returns the adapter spec and the count.
 */
async function readRequestStates(run, onRequestState, options = {}) {
    let file;
    if (typeof run === 'string') {
        file = run;
    }
    else {
        file = join(run.path, FILE_NAME$1);
        if (!run.files.scenarioState)
            throw new InputError('input.missing_file', `${run.path} has no ${FILE_NAME$1}`, { file });
    }
    const excerptLength = options.excerptLength ?? DEFAULT_EXCERPT_LENGTH;
    let adapterSpec = null;
    let sawRequestStates = false;
    let count = 0;
    for await (const event of streamJson(file, {
        plan: planScenarioState,
        skip: SKIPPED_SUBTREES,
        chunkSize: options.chunkSize,
        digest: options.digest
    })) {
        const [top, index] = event.path;
        if (event.kind === 'open') {
            if (event.path.length === 0 && event.type !== 'object')
                throw wrongTop(file, '', 'an object', 'an array');
            if (top === 'request_states') {
                if (event.type !== 'array')
                    throw wrongTop(file, 'request_states', 'an array', 'an object');
                sawRequestStates = true;
            }
            continue;
        }
        if (event.path.length === 0)
            throw wrongTop(file, '', 'an object', describeJsonType(event.value));
        if (top === 'request_states' && typeof index === 'number') {
            await onRequestState(summarizeRequestState(event.value, index, file, excerptLength), index);
            count++;
        }
        else if (top === 'request_states') {
            throw wrongTop(file, 'request_states', 'an array', describeJsonType(event.value));
        }
        else if (top === 'adapter_spec') {
            const value = event.value;
            if (typeof value !== 'object' || value === null || Array.isArray(value)) {
                throw wrongTop(file, 'adapter_spec', 'an object', describeJsonType(value));
            }
            adapterSpec = value;
        }
    }
    if (!sawRequestStates) {
        throw new InputError('input.missing_field', `${file} has no request_states array`, { file, field: 'request_states' });
    }
    return { file, adapterSpec, requestStates: count };
}

/**
 * Reading the output of `lm_eval ... --log_samples --output_path OUT` (lm-evaluation-harness
 * 0.4.x). lm-eval writes, under OUT/<model_name_sanitized>/, one `results_<date>.json` and, per
 * task, `samples_<task>_<date>.jsonl` with the same `<date>` (docs/lm-eval.md "What lm-eval
 * writes"). Samples files can be large, so they are streamed line by line and each sample is kept
 * as hashes and short excerpts. Every malformed or missing piece is an InputError naming the file,
 * the field (or line) and the value.
 */
const EXCERPT_LENGTH = 200;
const RESULTS_FILE = /^results_(.+)\.json$/;
const SAMPLES_FILE = /^samples_(.+)\.jsonl$/;
async function isDirectory$1(path) {
    try {
        return (await stat(path)).isDirectory();
    }
    catch {
        return false;
    }
}
async function listDir(dir) {
    try {
        return await readdir(dir, { withFileTypes: true });
    }
    catch (error) {
        throw new InputError('input.unreadable', `Cannot read the folder ${dir}: ${error.message}`, { file: dir });
    }
}
async function filesIn(dir) {
    return (await listDir(dir)).filter(e => e.isFile()).map(e => e.name);
}
/** The folders to look in: the path itself and its direct subfolders (OUT/<model>/). */
async function candidateFolders(path) {
    if (!(await isDirectory$1(path)))
        return [];
    const children = (await listDir(path))
        .filter(e => e.isDirectory() && !e.name.startsWith('.'))
        .map(e => join(path, e.name))
        .sort();
    return [path, ...children];
}
/**
 * Whether `path` holds lm-eval output: a results or samples file in it or one folder below. HELM
 * output never has such files, so this decides which reader a side gets.
 */
async function looksLikeLmEvalOutput(path) {
    for (const dir of await candidateFolders(resolve$1(path))) {
        const names = await filesIn(dir);
        if (names.some(n => RESULTS_FILE.test(n) || SAMPLES_FILE.test(n)))
            return true;
    }
    return false;
}
async function locate(path) {
    const found = [];
    let samplesOnly = null;
    for (const dir of await candidateFolders(path)) {
        const names = (await filesIn(dir)).sort();
        for (const name of names) {
            const m = RESULTS_FILE.exec(name);
            if (m)
                found.push({ dir, resultsFile: join(dir, name), dateId: m[1] });
        }
        if (samplesOnly === null && names.some(n => SAMPLES_FILE.test(n)))
            samplesOnly = dir;
    }
    if (found.length === 0) {
        throw new InputError('input.lmeval_no_results', `${samplesOnly ?? path} holds lm-eval samples but no results_<date>.json: lm-eval writes the results file when a run finishes, so this run did not finish or was copied in part`, { file: samplesOnly ?? path });
    }
    if (found.length > 1) {
        throw new InputError('input.lmeval_ambiguous', `${path} holds ${found.length} lm-eval runs (results files ${found.map(f => f.resultsFile).join(', ')}); give the folder of one run per side`, { file: path, value: found.map(f => f.resultsFile) });
    }
    return found[0];
}
function isRecord(value) {
    return value !== null && typeof value === 'object' && !Array.isArray(value);
}
/** Stable JSON (object keys sorted), so equal content hashes equally whatever the key order. */
function stableJson(value) {
    if (Array.isArray(value))
        return `[${value.map(stableJson).join(',')}]`;
    if (isRecord(value)) {
        return `{${Object.keys(value)
            .sort()
            .map(k => `${JSON.stringify(k)}:${stableJson(value[k])}`)
            .join(',')}}`;
    }
    return JSON.stringify(value) ?? 'null';
}
function sha256(text) {
    return createHash('sha256').update(text).digest('hex');
}
async function readResults(file) {
    let text;
    try {
        text = await readFile(file, 'utf8');
    }
    catch (error) {
        throw new InputError('input.unreadable', `Cannot read ${file}: ${error.message}`, { file });
    }
    let parsed;
    try {
        parsed = JSON.parse(text);
    }
    catch (error) {
        throw new InputError('input.malformed_json', `${file} is not valid JSON (${error.message})`, { file });
    }
    if (!isRecord(parsed))
        throw new InputError('input.wrong_type', `${file} must hold a JSON object`, { file });
    for (const field of ['configs', 'versions', 'n-shot', 'config']) {
        if (!isRecord(parsed[field])) {
            throw new InputError('input.wrong_type', `${file}: ${field} must be an object, as lm-eval 0.4 writes it`, {
                file,
                field,
                value: parsed[field] ?? null
            });
        }
    }
    return parsed;
}
async function readLmEvalOutput(inputPath) {
    const path = resolve$1(inputPath);
    const { dir, resultsFile, dateId } = await locate(path);
    const results = await readResults(resultsFile);
    const configs = results['configs'];
    const versions = results['versions'];
    const nShot = results['n-shot'];
    const nSamples = isRecord(results['n-samples']) ? results['n-samples'] : {};
    const runConfig = results['config'];
    const taskNames = Object.keys(configs).sort();
    if (taskNames.length === 0) {
        throw new InputError('input.lmeval_no_tasks', `${resultsFile} lists no task in configs`, { file: resultsFile, field: 'configs' });
    }
    const suffix = `_${dateId}.jsonl`;
    const samplesFiles = new Map();
    for (const name of await filesIn(dir)) {
        if (name.startsWith('samples_') && name.endsWith(suffix))
            samplesFiles.set(name.slice('samples_'.length, -suffix.length), name);
    }
    for (const task of samplesFiles.keys()) {
        if (!(task in configs)) {
            throw new InputError('input.lmeval_unknown_task', `${join(dir, samplesFiles.get(task))} holds samples of task ${task}, which ${resultsFile} does not list`, {
                file: join(dir, samplesFiles.get(task)),
                field: 'configs',
                value: task
            });
        }
    }
    const tasks = [];
    for (const name of taskNames) {
        const config = configs[name];
        if (!isRecord(config)) {
            throw new InputError('input.wrong_type', `${resultsFile}: configs.${name} must be an object`, {
                file: resultsFile,
                field: `configs.${name}`
            });
        }
        const fileName = samplesFiles.get(name);
        if (!fileName) {
            throw new InputError('input.lmeval_no_samples', `${dir} has no samples_${name}_${dateId}.jsonl for task ${name}: run lm_eval with --log_samples, since the gate pairs per sample`, { file: resultsFile, field: `configs.${name}` });
        }
        const counts = nSamples[name];
        const effective = isRecord(counts) && typeof counts['effective'] === 'number' ? counts['effective'] : null;
        const samplesFile = join(dir, fileName);
        const { samples, digest } = await readSamples(samplesFile);
        tasks.push({
            name,
            samplesFile,
            version: versions[name] ?? null,
            nShot: nShot[name] ?? null,
            config,
            effectiveSamples: effective,
            samples,
            samplesDigest: digest
        });
    }
    const modelArgs = isRecord(runConfig['model_args']) ? runConfig['model_args'] : {};
    const str = (v) => (typeof v === 'string' && v !== '' ? v : null);
    return {
        dir,
        resultsFile,
        dateId,
        lmEvalVersion: str(results['lm_eval_version']),
        modelType: str(runConfig['model']),
        model: str(modelArgs['model']) ?? str(results['model_name']),
        runConfig,
        promptSettings: {
            fewshot_as_multiturn: results['fewshot_as_multiturn'] ?? null,
            system_instruction_sha: results['system_instruction_sha'] ?? null,
            chat_template_sha: results['chat_template_sha'] ?? null
        },
        tasks
    };
}
/** Streams one samples file; each line is one document under one filter. */
async function readSamples(file) {
    const samples = [];
    const digest = createHash('sha256');
    const stream = createReadStream(file);
    stream.on('data', chunk => digest.update(chunk));
    const lines = createInterface({ input: stream, crlfDelay: Infinity });
    let line = 0;
    try {
        for await (const text of lines) {
            line++;
            if (text.trim() === '')
                continue;
            let parsed;
            try {
                parsed = JSON.parse(text);
            }
            catch (error) {
                throw new InputError('input.malformed_json', `${file} line ${line} is not valid JSON (${error.message}); the file is cut or damaged`, {
                    file,
                    field: `line ${line}`,
                    value: text.slice(0, 80)
                });
            }
            samples.push(readSample(file, line, parsed));
        }
    }
    catch (error) {
        if (error instanceof InputError)
            throw error;
        throw new InputError('input.unreadable', `Cannot read ${file}: ${error.message}`, { file });
    }
    finally {
        stream.destroy();
    }
    return { samples, digest: digest.digest('hex') };
}
function readSample(file, line, value) {
    const bad = (field, what, got) => new InputError('input.wrong_type', `${file} line ${line}: ${field} must be ${what}`, {
        file,
        field: `line ${line}: ${field}`,
        value: got ?? null
    });
    if (!isRecord(value))
        throw bad('the sample', 'a JSON object', value);
    const docId = value['doc_id'];
    if (typeof docId !== 'number' || !Number.isInteger(docId) || docId < 0)
        throw bad('doc_id', 'a non-negative integer', docId);
    const filter = value['filter'];
    if (typeof filter !== 'string' || filter === '')
        throw bad('filter', 'a filter name', filter);
    const args = value['arguments'];
    if (!isRecord(args) || Object.keys(args).length === 0)
        throw bad('arguments', 'an object of gen_args_<i> requests', args);
    const requests = Object.keys(args)
        .sort((a, b) => Number(a.replace(/\D/g, '')) - Number(b.replace(/\D/g, '')))
        .map(k => args[k]);
    if (!requests.every(isRecord))
        throw bad('arguments', 'an object of gen_args_<i> requests', args);
    const metricNames = value['metrics'];
    if (!Array.isArray(metricNames) || !metricNames.every(m => typeof m === 'string'))
        throw bad('metrics', 'a list of metric names', metricNames);
    // generate_until requests carry (context, generation kwargs); loglikelihood ones (context,
    // continuation). Kwargs are a dict; a continuation is a string.
    const contexts = [];
    const kwargs = [];
    for (const request of requests) {
        if (isRecord(request['arg_1'])) {
            contexts.push(request['arg_0'] ?? null);
            kwargs.push(request['arg_1']);
        }
        else {
            contexts.push([request['arg_0'] ?? null, request['arg_1'] ?? null]);
        }
    }
    const metrics = new Map();
    for (const name of metricNames) {
        const v = value[name];
        metrics.set(name, typeof v === 'number' && Number.isFinite(v) ? v : typeof v === 'boolean' ? Number(v) : null);
    }
    const resps = value['resps'];
    const filtered = value['filtered_resps'];
    const choice = kwargs.length === 0 ? choiceAnswer(requests, resps, value['target']) : null;
    return {
        line,
        docId,
        filter,
        promptHash: sha256(stableJson(contexts)),
        genKwargsHash: kwargs.length > 0 ? sha256(stableJson(kwargs)) : null,
        genKwargs: kwargs.length > 0 ? kwargs[0] : null,
        failure: failureOf(resps, kwargs.length > 0),
        metrics,
        inputExcerpt: excerpt(questionOf(contexts[0]), EXCERPT_LENGTH),
        referenceExcerpt: excerpt(choice?.reference ?? (typeof value['target'] === 'string' ? value['target'] : stableJson(value['target'])), EXCERPT_LENGTH),
        outputExcerpt: excerpt(choice?.output ?? outputOf(resps, filtered), EXCERPT_LENGTH)
    };
}
/**
 * lm-eval's API models write an empty string where the server answered null content or an answer
 * it could not parse (LMEVAL_MODEL_NONE_ANSWER_PLACEHOLDER, "" by default), and a response list
 * can be empty when a request never ran. Either is not the model's answer.
 */
function failureOf(resps, generates) {
    if (!Array.isArray(resps) || resps.length === 0)
        return 'no responses (resps is empty or missing)';
    for (const perRequest of resps) {
        if (!Array.isArray(perRequest) || perRequest.length === 0)
            return 'a request has no response';
        for (const r of perRequest) {
            if (r === null || r === undefined)
                return 'a response is null';
            if (generates && r === '')
                return 'an empty response (lm-eval writes "" when the server answered null content or could not be parsed)';
            // lm-eval logs a log-likelihood answer as [logprob, is_greedy], both as strings ("-0.1", "True").
            if (Array.isArray(r) && (r[0] === null || r[0] === undefined || !Number.isFinite(Number(r[0])))) {
                return 'a log-likelihood response is null or not a number';
            }
        }
    }
    return null;
}
/** The question of a prompt: the last message of a chat prompt (lm-eval writes it as JSON), else the end of the text. */
function questionOf(context) {
    if (Array.isArray(context))
        return questionOf(context[0]);
    if (typeof context !== 'string')
        return stableJson(context);
    if (context.startsWith('[')) {
        try {
            const messages = JSON.parse(context);
            if (Array.isArray(messages) && messages.length > 0) {
                const last = messages[messages.length - 1];
                if (isRecord(last) && typeof last['content'] === 'string')
                    return last['content'];
            }
        }
        catch {
            // Not a chat prompt after all: shown as text.
        }
    }
    return context.length > EXCERPT_LENGTH ? `…${context.slice(-199)}` : context;
}
/**
 * A multiple-choice sample shown as a person reads it: the choice with the highest log-likelihood
 * (what the model "answered") and the target choice, instead of logprob pairs and an index.
 */
function choiceAnswer(requests, resps, target) {
    const continuations = requests.map(r => r['arg_1']);
    if (!continuations.every(c => typeof c === 'string') || !Array.isArray(resps) || resps.length !== requests.length)
        return null;
    const scores = resps.map(r => (Array.isArray(r) && Array.isArray(r[0]) ? Number(r[0][0]) : NaN));
    if (!scores.every(Number.isFinite))
        return null;
    const best = scores.indexOf(Math.max(...scores));
    const index = typeof target === 'string' && /^\d+$/.test(target) ? Number(target) : null;
    const text = (i) => continuations[i].trim();
    return {
        output: text(best),
        reference: index !== null && index < continuations.length ? text(index) : typeof target === 'string' ? target : stableJson(target)
    };
}
function outputOf(resps, filtered) {
    const first = Array.isArray(resps) && Array.isArray(resps[0]) ? resps[0][0] : undefined;
    const raw = typeof first === 'string' ? first : first === undefined ? '' : stableJson(first);
    const kept = Array.isArray(filtered) ? filtered[0] : filtered;
    const shown = typeof kept === 'string' ? kept : kept === undefined ? raw : stableJson(kept);
    return shown === raw ? raw : `${raw} → ${shown}`;
}

/** Kept equal to package.json's version (a test checks it). */
const HELM_GATE_VERSION = '0.1.0';

/**
 * The report: one JSON document (schema_version 1) that every renderer (markdown, console,
 * check run, job summary) reads. Field names are snake_case because this is a published,
 * documented format (docs/report.md "report.json and the renderings"). Keep it stable: add
 * fields, never rename them.
 */
function reportSettings(statistics) {
    return {
        confidence: statistics.confidence,
        resamples: statistics.resamples,
        seed: statistics.seed,
        min_overlap: statistics.minOverlap,
        interval: statistics.interval
    };
}
/**
 * The one constructor of a report (the comparison, an error report, the load half alone): the
 * fields in report.json's order, so the same inputs give the same bytes whoever made it.
 */
function newReport(statistics, fields) {
    const emptySide = () => ({ path: '', runs: [], deployment: null, helm_version: null });
    const { verdict, headline, ...rest } = fields;
    // Defaults in report.json's key order; a field the maker gives replaces its default in place
    // (an object literal keeps a key where it was first written), so the order never changes.
    return {
        schema_version: 1,
        tool: { name: 'helm-gate', version: HELM_GATE_VERSION },
        verdict,
        headline,
        errors: [],
        warnings: [],
        settings: reportSettings(statistics),
        baseline: emptySide(),
        candidate: emptySide(),
        comparisons: [],
        efficiency: [],
        notes: [],
        ...rest
    };
}

/**
 * The Math and Number functions the statistics engine uses, bound once per module graph.
 *
 * Why not call `Math.sqrt` directly: under jest (the test runner), code runs in a vm context where
 * every lookup of a global such as `Math` or `Number` costs about 0.8 microseconds - measured 800 ns
 * per `Math.floor` call against 10 ns for a module binding - which made the coverage study 50 times
 * slower. A module binding costs nothing in production either.
 */
const { abs, ceil, exp, floor, log, log1p, max, min, sqrt, LN2 } = Math;
const { isFinite: isFiniteNumber, isInteger } = Number;

/** Exact binomial arithmetic: log-factorials, McNemar's exact test, and exact binomial draws. */
/** ln(k!) for k = 0..n, by summation (exact to rounding; n is at most a few hundred thousand here). */
function logFactorials(n) {
    const table = new Float64Array(n + 1);
    for (let k = 2; k <= n; k++)
        table[k] = table[k - 1] + log(k);
    return table;
}
/**
 * McNemar's exact test, two-sided: under "no change" every discordant pair is a fair coin, so the
 * p-value is twice the smaller binomial(wins + losses, 1/2) tail, capped at 1.
 */
function mcnemarExactPValue(wins, losses) {
    const k = wins + losses;
    if (k === 0)
        return 1;
    const lf = logFactorials(k);
    const smaller = min(wins, losses);
    const logHalfPowK = -k * LN2;
    let tail = 0;
    for (let i = 0; i <= smaller; i++)
        tail += exp(lf[k] - lf[i] - lf[k - i] + logHalfPowK);
    return min(1, 2 * tail);
}
/**
 * Draws from binomial(n, p) by inverting its cumulative distribution: exact up to floating-point
 * rounding, not a normal approximation. Only the window mean +/- (12 sd + 12) is tabulated: the mass
 * outside it is below 1e-25, far under the 2^-53 resolution of the uniform that picks the value.
 */
class BinomialSampler {
    offset;
    cdf;
    constructor(n, p, lf) {
        if (p <= 0 || p >= 1 || n === 0) {
            this.offset = p >= 1 ? n : 0;
            this.cdf = Float64Array.of(1);
            return;
        }
        const mean = n * p;
        const spread = 12 * sqrt(mean * (1 - p)) + 12;
        const low = max(0, floor(mean - spread));
        const high = min(n, ceil(mean + spread));
        const logP = log(p);
        const logQ = log1p(-p);
        const cdf = new Float64Array(high - low + 1);
        let total = 0;
        for (let k = low; k <= high; k++) {
            total += exp(lf[n] - lf[k] - lf[n - k] + k * logP + (n - k) * logQ);
            cdf[k - low] = total;
        }
        for (let i = 0; i < cdf.length; i++)
            cdf[i] /= total;
        cdf[cdf.length - 1] = 1;
        this.offset = low;
        this.cdf = cdf;
    }
    /** The value whose cumulative interval contains `u`, for u uniform in [0, 1). */
    draw(u) {
        const cdf = this.cdf;
        let low = 0;
        let high = cdf.length - 1;
        while (low < high) {
            const mid = (low + high) >>> 1;
            if (cdf[mid] > u)
                high = mid;
            else
                low = mid + 1;
        }
        return this.offset + low;
    }
}

/**
 * Bootstrap distributions of the mean paired difference. Both return the `resamples` resampled
 * deltas; `percentileInterval` turns them into bounds.
 */
const TWO_POW_32$2 = 0x100000000;
/**
 * Cluster bootstrap: draw n clusters with replacement; a resample's delta is the sum of the drawn
 * clusters' differences over their number of pairs (the same pooled mean the point estimate uses).
 * With one trial per cluster this is the ordinary bootstrap of the mean.
 *
 * @param sums  per cluster, the sum of d over its trials
 * @param sizes per cluster, its number of trials; null when every cluster has `uniformSize`
 */
function clusterBootstrap(sums, sizes, uniformSize, resamples, rng) {
    const n = sums.length;
    if (n <= HALF_RANGE$1)
        return halfWordBootstrap(sums, sizes, uniformSize, resamples, rng);
    const out = new Float64Array(resamples);
    const int32 = rng.int32;
    // Inlined unbiased draw in [0, n) (see random.ts uniformBelow): this loop runs resamples * n times.
    const bucket = floor(TWO_POW_32$2 / n);
    const limit = bucket * n;
    if (sizes === null) {
        const pairs = n * uniformSize;
        for (let r = 0; r < resamples; r++) {
            let total = 0;
            for (let i = 0; i < n; i++) {
                let u = int32() >>> 0;
                while (u >= limit)
                    u = int32() >>> 0;
                total += sums[floor(u / bucket)];
            }
            out[r] = total / pairs;
        }
        return out;
    }
    for (let r = 0; r < resamples; r++) {
        let total = 0;
        let pairs = 0;
        for (let i = 0; i < n; i++) {
            let u = int32() >>> 0;
            while (u >= limit)
                u = int32() >>> 0;
            const k = floor(u / bucket);
            total += sums[k];
            pairs += sizes[k];
        }
        out[r] = total / pairs;
    }
    return out;
}
const HALF_RANGE$1 = 0x10000;
/**
 * The same bootstrap for up to 65,536 clusters, taking two indices from each 32-bit draw (its
 * high and low 16 bits), which halves the generator calls of the hot loop. Each half is accepted
 * only below the largest multiple of n under 2^16 (rejection per half), so every index stays
 * exactly equally likely and the halves are independent: the same distribution as drawing
 * indices one by one, from a differently ordered stream.
 */
function halfWordBootstrap(sums, sizes, uniformSize, resamples, rng) {
    const n = sums.length;
    const out = new Float64Array(resamples);
    const int32 = rng.int32;
    const bucket = floor(HALF_RANGE$1 / n);
    const limit = bucket * n;
    // The low half of the last draw, or -1 when it has been used.
    let spare = -1;
    for (let r = 0; r < resamples; r++) {
        let total = 0;
        let pairs = 0;
        for (let i = 0; i < n; i++) {
            let h;
            for (;;) {
                if (spare >= 0) {
                    h = spare;
                    spare = -1;
                }
                else {
                    const u = int32() >>> 0;
                    h = u >>> 16;
                    spare = u & 0xffff;
                }
                if (h < limit)
                    break;
            }
            const k = (h / bucket) | 0;
            total += sums[k];
            if (sizes !== null)
                pairs += sizes[k];
        }
        out[r] = total / (sizes === null ? n * uniformSize : pairs);
    }
    return out;
}
/**
 * The same bootstrap for a 0/1 metric with one trial per instance, from counts. Each d is -1, 0 or
 * +1, so resampling n instances is a multinomial(n; wins/n, losses/n, unchanged/n) draw of the three
 * counts, drawn exactly as changed ~ binomial(n, (wins + losses)/n) and then
 * wins* | changed ~ binomial(changed, wins/(wins + losses)). Cost per resample: two table look-ups
 * instead of n draws.
 */
function countBootstrap(wins, losses, n, resamples, rng) {
    const out = new Float64Array(resamples);
    const changedTotal = wins + losses;
    if (changedTotal === 0)
        return out;
    const lf = logFactorials(n);
    const changedSampler = new BinomialSampler(n, changedTotal / n, lf);
    const winShare = wins / changedTotal;
    // One conditional table per value of `changed` actually drawn (a few dozen sd-wide values).
    const winSamplers = new Map();
    const double = rng.double;
    for (let r = 0; r < resamples; r++) {
        const changed = changedSampler.draw(double());
        let winSampler = winSamplers.get(changed);
        if (winSampler === undefined) {
            winSampler = new BinomialSampler(changed, winShare, lf);
            winSamplers.set(changed, winSampler);
        }
        const w = winSampler.draw(double());
        out[r] = (2 * w - changed) / n;
    }
    return out;
}

/** The standard normal distribution's quantile function, to machine precision. */
/**
 * Wichura's algorithm AS 241 (PPND16, Applied Statistics 37:477-484, 1988): relative error about
 * 1e-16 over the whole range, so score intervals do not inherit an approximation error.
 */
function normalQuantile(p) {
    if (!(p > 0 && p < 1)) {
        if (p === 0)
            return -Infinity;
        if (p === 1)
            return Infinity;
        return NaN;
    }
    const q = p - 0.5;
    if (abs(q) <= 0.425) {
        const r = 0.180625 - q * q;
        return ((q *
            (((((((r * 2509.0809287301226727 + 33430.575583588128105) * r + 67265.770927008700853) * r + 45921.953931549871457) * r +
                13731.693765509461125) *
                r +
                1971.5909503065514427) *
                r +
                133.14166789178437745) *
                r +
                3.387132872796366608)) /
            (((((((r * 5226.495278852545925 + 28729.085735721942674) * r + 39307.89580009271061) * r + 21213.794301586595867) * r +
                5394.1960214247511077) *
                r +
                687.1870074920579083) *
                r +
                42.313330701600911252) *
                r +
                1));
    }
    let r = q < 0 ? p : 1 - p;
    r = sqrt(-log(r));
    let value;
    if (r <= 5) {
        r -= 1.6;
        value =
            (((((((r * 7.7454501427834140764e-4 + 0.0227238449892691845833) * r + 0.24178072517745061177) * r + 1.27045825245236838258) * r +
                3.64784832476320460504) *
                r +
                5.7694972214606914055) *
                r +
                4.6303378461565452959) *
                r +
                1.42343711074968357734) /
                (((((((r * 1.05075007164441684324e-9 + 5.475938084995344946e-4) * r + 0.0151986665636164571966) * r + 0.14810397642748007459) * r +
                    0.68976733498510000455) *
                    r +
                    1.6763848301838038494) *
                    r +
                    2.05319162663775882187) *
                    r +
                    1);
    }
    else {
        r -= 5;
        value =
            (((((((r * 2.01033439929228813265e-7 + 2.71155556874348757815e-5) * r + 0.0012426609473880784386) * r + 0.026532189526576123093) * r +
                0.29656057182850489123) *
                r +
                1.7848265399172913358) *
                r +
                5.4637849111641143699) *
                r +
                6.6579046435011037772) /
                (((((((r * 2.04426310338993978564e-15 + 1.4215117583164458887e-7) * r + 1.8463183175100546818e-5) * r + 7.868691311456132591e-4) * r +
                    0.0148753612908506148525) *
                    r +
                    0.13692988092273580531) *
                    r +
                    0.59983220655588793769) *
                    r +
                    1);
    }
    return q < 0 ? -value : value;
}
/** The two-sided critical value: z such that P(|Z| <= z) = confidence. */
function twoSidedZ(confidence) {
    return normalQuantile(1 - (1 - confidence) / 2);
}

/**
 * Analytic intervals for the difference of two paired proportions, candidate minus baseline.
 * Table notation (Newcombe 1998): `both` = 1 on both sides, `wins` = candidate 1 / baseline 0,
 * `losses` = candidate 0 / baseline 1, `neither` = 0 on both sides.
 */
/** Wilson's score interval for a single proportion x/n. */
function wilsonInterval(x, n, z) {
    const z2 = z * z;
    const centre = (x + z2 / 2) / (n + z2);
    const half = (z * sqrt((x * (n - x)) / n + z2 / 4)) / (n + z2);
    return [max(0, centre - half), min(1, centre + half)];
}
/**
 * Newcombe's hybrid score interval, method 10 of Newcombe (1998), "Improved confidence intervals for
 * the difference between binomial proportions based on paired data", Stat Med 17:2635-2650: Wilson
 * intervals for each side's proportion, combined with the observed correlation phi of the pairs.
 */
function newcombeInterval(table, confidence) {
    const { both: e, wins: f, losses: g, neither: h } = table;
    const n = e + f + g + h;
    const z = twoSidedZ(confidence);
    const p1 = (e + f) / n; // candidate
    const p2 = (e + g) / n; // baseline
    const [l1, u1] = wilsonInterval(e + f, n, z);
    const [l2, u2] = wilsonInterval(e + g, n, z);
    const phi = newcombePhi(e, f, g, h);
    const delta = sqrt(max(0, (p1 - l1) ** 2 - 2 * phi * (p1 - l1) * (u2 - p2) + (u2 - p2) ** 2));
    const epsilon = sqrt(max(0, (u1 - p1) ** 2 - 2 * phi * (u1 - p1) * (p2 - l2) + (p2 - l2) ** 2));
    const estimate = (f - g) / n;
    return [max(-1, estimate - delta), min(1, estimate + epsilon)];
}
/**
 * Newcombe's correlation estimate for method 10: 0 when a margin is empty; a positive association
 * is shrunk by N/2 (and to 0 when eh - fg <= N/2), a negative one is used as is. The same rule is
 * in Fagerland, Lydersen & Laake (2017) ch. 8, whose worked example the tests reproduce.
 */
function newcombePhi(e, f, g, h) {
    const marginProduct = (e + f) * (g + h) * (e + g) * (f + h);
    if (marginProduct === 0)
        return 0;
    const n = e + f + g + h;
    const a = e * h - f * g;
    if (a > n / 2)
        return (a - n / 2) / sqrt(marginProduct);
    if (a >= 0)
        return 0;
    return a / sqrt(marginProduct);
}
/**
 * The constrained maximum-likelihood estimate of P(losses cell) when the true difference is `diff`
 * (Tango 1998, eq. for p~21). Maximising the multinomial likelihood with p_wins = q + diff gives
 * 2n q^2 - B q - losses * diff * (1 - diff) = 0 with
 * B = wins (1 + diff) + losses (1 - diff) - 2 n diff; q is its non-negative root.
 */
function tangoRestrictedLossRate(wins, losses, n, diff) {
    const b = wins * (1 + diff) + losses * (1 - diff) - 2 * n * diff;
    const c = losses * diff * (1 - diff);
    const root = sqrt(max(0, b * b + 8 * n * c));
    // For b < 0 the textbook form (b + root) / 4n subtracts two nearly equal numbers and loses
    // every digit when c is small; the equivalent 2c / (root - b) adds two positive ones.
    if (b >= 0)
        return (b + root) / (4 * n);
    return root - b > 0 ? (2 * c) / (root - b) : 0;
}
/** Tango's score statistic for H0: difference = diff (decreasing in diff). */
function tangoScore(wins, losses, n, diff) {
    const numerator = wins - losses - n * diff;
    const q = tangoRestrictedLossRate(wins, losses, n, diff);
    const variance = n * (2 * q + diff * (1 - diff));
    if (!(variance > 0))
        return numerator === 0 ? 0 : numerator > 0 ? Infinity : -Infinity;
    return numerator / sqrt(variance);
}
/**
 * Tango's score interval, Tango (1998), "Equivalence test and confidence interval for the difference
 * in proportions for the paired-sample design", Stat Med 17:891-908: every difference the score test
 * does not reject at level 1 - confidence. It keeps a sensible width when discordant pairs are few or
 * absent (where Newcombe's interval becomes much narrower).
 */
function tangoInterval(table, confidence) {
    const { wins, losses } = table;
    const n = table.both + wins + losses + table.neither;
    const z = twoSidedZ(confidence);
    const estimate = (wins - losses) / n;
    const low = solveDecreasing(d => tangoScore(wins, losses, n, d) - z, -1, estimate);
    const high = solveDecreasing(d => tangoScore(wins, losses, n, d) + z, estimate, 1);
    return [low, high];
}
/**
 * The root of a decreasing function on [low, high] by bisection, clamped to an end when the function
 * keeps one sign there. Stops at a bracket of 1e-15 (about 50 halvings of [-1, 1]): far finer than
 * any reported digit, and sooner than waiting for adjacent doubles, which near 0 takes 1000 steps.
 */
function solveDecreasing(f, low, high) {
    if (f(low) <= 0)
        return low;
    if (f(high) >= 0)
        return high;
    while (high - low > 1e-15) {
        const mid = (low + high) / 2;
        if (mid === low || mid === high)
            break;
        if (f(mid) > 0)
            low = mid;
        else
            high = mid;
    }
    return (low + high) / 2;
}

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
function quantile(values, q) {
    return quantileSorted(Float64Array.from(values).sort(), q);
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

/** The paired comparison of one metric: point estimates, flips, McNemar, and the interval. */
/**
 * Values beyond this magnitude are refused: the engine sums up to millions of values and squares
 * of differences, and 1e100 keeps every such sum far below the largest double (about 1.8e308),
 * so no mean, standard deviation or bootstrap total can overflow.
 */
const MAX_PAIRED_MAGNITUDE = 1e100;
/**
 * The analytic method `interval: auto` uses for 0/1 metrics with one trial per instance, decided by
 * the coverage study in __tests__/stats/coverage.test.ts (docs/method.md "Validation"). The side that
 * matters for a gate is the rate of `pass` when the candidate is exactly m worse, i.e. how often the
 * true delta falls below the interval. Computed exactly (every 2x2 table, no simulation error):
 * - Tango's score interval: coverage 94.4-95.0%, pass-at-margin 2.2-2.6% at n = 200-1000 with
 *   10 to 220 expected discordant pairs; with only ~8, coverage 94.0-95.6%, pass-at-margin 1.3-1.9%.
 * - Newcombe's method 10: coverage 95-97% but pass-at-margin 3.6-4.3% with ~8 discordant pairs
 *   mostly losses (its misses fall on the lower side; it depends on the concordant split too).
 * - The percentile (count) bootstrap, simulated: pass-at-margin about 7% with ~8 discordant pairs.
 * With many discordant pairs all three agree (about 95% and 2.5%), so Tango is the default.
 */
const AUTO_BINARY_INTERVAL = 'tango';
function estimatePaired(clusters, settings) {
    checkConfidence(settings.confidence);
    if (!(settings.flipTolerance >= 0)) {
        throw new UsageError('stats.bad_flip_tolerance', 'The flip tolerance must be a non-negative number.', {
            field: 'statistics.flip_tolerance',
            value: settings.flipTolerance
        });
    }
    if (clusters.length === 0) {
        throw new GuardError('stats.no_pairs', 'No instance was measured on both sides: there is nothing to compare.', {
            value: 0
        });
    }
    const s = summarise(clusters, settings.flipTolerance);
    const method = chooseMethod(s, settings);
    const [low, high] = interval(s, method, settings);
    const sdDelta = clusterMeanSd(s);
    const figures = { baseline_mean: s.sumBaseline / s.pairs, candidate_mean: s.sumCandidate / s.pairs, delta: s.sumDelta / s.pairs };
    for (const [name, value] of Object.entries({ ...figures, 'ci.low': low, 'ci.high': high, sd_delta: sdDelta })) {
        // Nothing non-finite may reach a verdict: an infinite bound passes or fails anything.
        if (!isFiniteNumber(value)) {
            throw new GuardError('stats.non_finite', `The ${name} came out as ${String(value)}: the values overflow or cancel, so no verdict is possible.`, {
                field: name,
                value: String(value)
            });
        }
    }
    return {
        n: s.n,
        pairs: s.pairs,
        binary: s.binary,
        baselineMean: s.sumBaseline / s.pairs,
        candidateMean: s.sumCandidate / s.pairs,
        delta: s.sumDelta / s.pairs,
        sdDelta,
        ci: { level: settings.confidence, low, high, method },
        wins: s.wins,
        losses: s.losses,
        unchanged: s.pairs - s.wins - s.losses,
        pValue: s.binary ? mcnemarExactPValue(s.wins, s.losses) : null
    };
}
function summarise(clusters, tolerance) {
    const n = clusters.length;
    const clusterSums = new Float64Array(n);
    const clusterSizes = new Float64Array(n);
    let pairs = 0;
    let binary = true;
    let sumBaseline = 0;
    let sumCandidate = 0;
    let sumDelta = 0;
    let wins = 0;
    let losses = 0;
    let both = 0;
    let firstDifference = NaN;
    let allSameDifference = true;
    const firstSize = clusters[0].baseline.length;
    let uniform = true;
    for (let c = 0; c < n; c++) {
        const { baseline, candidate } = clusters[c];
        if (baseline.length === 0 || baseline.length !== candidate.length) {
            throw new GuardError('stats.bad_cluster', 'Each paired instance needs the same, non-zero number of trials on both sides.', {
                field: `clusters[${c}]`,
                value: { baseline: baseline.length, candidate: candidate.length }
            });
        }
        let clusterSum = 0;
        for (let k = 0; k < baseline.length; k++) {
            const b = baseline[k];
            const a = candidate[k];
            if (!isFiniteNumber(a) || !isFiniteNumber(b)) {
                // The pairing step drops non-measurements; one reaching here is a bug upstream, and
                // letting it through would poison every mean and interval.
                throw new GuardError('stats.non_finite', 'A paired value is not a finite number.', {
                    field: `clusters[${c}].${isFiniteNumber(b) ? 'candidate' : 'baseline'}[${k}]`,
                    value: String(isFiniteNumber(b) ? a : b)
                });
            }
            if (abs(a) > MAX_PAIRED_MAGNITUDE || abs(b) > MAX_PAIRED_MAGNITUDE) {
                throw new GuardError('stats.too_large', `A paired value is beyond ${MAX_PAIRED_MAGNITUDE}: sums of such values overflow.`, {
                    field: `clusters[${c}].${abs(b) > MAX_PAIRED_MAGNITUDE ? 'baseline' : 'candidate'}[${k}]`,
                    value: String(abs(b) > MAX_PAIRED_MAGNITUDE ? b : a)
                });
            }
            const d = a - b;
            if (binary && !((a === 0 || a === 1) && (b === 0 || b === 1)))
                binary = false;
            if (pairs === 0)
                firstDifference = d;
            else if (d !== firstDifference)
                allSameDifference = false;
            if (d > tolerance)
                wins++;
            else if (d < -tolerance)
                losses++;
            if (a === 1 && b === 1)
                both++;
            sumBaseline += b;
            sumCandidate += a;
            clusterSum += d;
            pairs++;
        }
        clusterSums[c] = clusterSum;
        clusterSizes[c] = baseline.length;
        sumDelta += clusterSum;
        if (baseline.length !== firstSize)
            uniform = false;
    }
    return {
        n,
        pairs,
        binary,
        singleTrial: uniform && firstSize === 1,
        sumBaseline,
        sumCandidate,
        sumDelta,
        clusterSums,
        clusterSizes,
        uniformSize: uniform ? firstSize : null,
        allSameDifference,
        wins,
        losses,
        table: { both, wins, losses, neither: pairs - both - wins - losses }
    };
}
function chooseMethod(s, settings) {
    const analyticApplies = s.binary && s.singleTrial;
    switch (settings.interval) {
        case 'auto':
            return analyticApplies ? AUTO_BINARY_INTERVAL : 'bootstrap';
        case 'bootstrap':
            return analyticApplies ? 'bootstrap-counts' : 'bootstrap';
        case 'newcombe':
        case 'tango':
            if (!analyticApplies) {
                throw new UsageError('stats.interval_not_applicable', `The ${settings.interval} interval is for 0/1 metrics with one trial per instance; this comparison is ` +
                    `${s.binary ? 'clustered (several trials per instance)' : 'not 0/1'}. Use interval: auto or bootstrap.`, { field: 'statistics.interval', value: settings.interval });
            }
            return settings.interval;
        default:
            throw new UsageError('stats.unknown_interval', 'Unknown interval method.', {
                field: 'statistics.interval',
                value: settings.interval
            });
    }
}
function interval(s, method, settings) {
    const { confidence, resamples } = settings;
    if (method === 'tango')
        return tangoInterval(s.table, confidence);
    if (method === 'newcombe')
        return newcombeInterval(s.table, confidence);
    checkResamples(resamples, confidence);
    // Every resample of identical differences is that difference: report it exactly rather than a
    // resampled sum that may differ from the point estimate in the last bit.
    if (s.allSameDifference) {
        const delta = s.sumDelta / s.pairs;
        return [delta, delta];
    }
    const rng = createRandom(settings.seed);
    const samples = method === 'bootstrap-counts'
        ? countBootstrap(s.wins, s.losses, s.n, resamples, rng)
        : clusterBootstrap(s.clusterSums, s.uniformSize === null ? s.clusterSizes : null, s.uniformSize ?? 1, resamples, rng);
    return percentileInterval(samples, confidence);
}
/** Sample standard deviation of the per-cluster mean differences (0 with a single cluster). */
function clusterMeanSd(s) {
    if (s.n < 2)
        return 0;
    let mean = 0;
    for (let c = 0; c < s.n; c++)
        mean += s.clusterSums[c] / s.clusterSizes[c];
    mean /= s.n;
    let squares = 0;
    for (let c = 0; c < s.n; c++) {
        const deviation = s.clusterSums[c] / s.clusterSizes[c] - mean;
        squares += deviation * deviation;
    }
    return sqrt(squares / (s.n - 1));
}

/**
 * Power planning: how many eval instances would make a comparison decisive?
 *
 * A normal approximation for the mean of paired differences d_i = candidate_i - baseline_i:
 * the two-sided interval is delta +/- z * sd / sqrt(n). The gate passes when the lower bound
 * clears -m, so with an expected delta > -m the smallest sufficient n is
 *   n = ceil( (z * sd / (delta + m))^2 ).
 * For 0/1 metrics with discordance rate r (the share of instances whose answer changes) and an
 * expected delta of 0, sd^2 = r, so n = ceil(z^2 * r / m^2): the margin must be wider than the
 * noise that changed answers alone produce. With delta <= -m no sample size can pass.
 *
 * Both the `power` command (planning from an assumed sd) and an inconclusive verdict (resolving
 * from the interval just measured, `instancesToResolve`) use this one relation.
 */
/** The smallest n whose interval lies above -margin, or null when none can (delta <= -margin). */
function instancesNeeded(input) {
    const room = input.delta + input.margin;
    if (!(input.margin > 0) || room <= 0)
        return null;
    if (input.sd <= 0)
        return 1;
    const z = normalQuantile(1 - (1 - input.confidence) / 2);
    return Math.max(1, Math.ceil(((z * input.sd) / room) ** 2));
}
/** sd of a paired 0/1 difference from its discordance rate r = P(answer changes) and delta. */
function binarySd(discordance, delta = 0) {
    return Math.sqrt(Math.max(0, discordance - delta * delta));
}
/**
 * From a measured interval: n_needed ~ n (half_width / (delta + m))^2. The half-width shrinks like
 * 1/sqrt(n), and the interval clears the margin once it is narrower than the distance from the
 * estimate to -m; the same relation as instancesNeeded, with z * sd = half_width * sqrt(n).
 */
function instancesToResolve(n, halfWidth, distance) {
    return Math.max(n + 1, Math.ceil(n * (halfWidth / distance) ** 2));
}

/** The non-inferiority verdict of one comparison (docs/method.md "Verdicts"). */
/**
 * The tolerated drop in metric units. A relative drop is a fraction of the baseline mean's size
 * (for a lower-is-better metric a "drop" is a rise of that much).
 */
function resolveMaxDrop(maxDrop, maxRelativeDrop, baselineMean) {
    if ((maxDrop === null) === (maxRelativeDrop === null)) {
        throw new UsageError('stats.max_drop_ambiguous', 'Give exactly one of max_drop and max_relative_drop.', {
            field: 'max_drop',
            value: { max_drop: maxDrop, max_relative_drop: maxRelativeDrop }
        });
    }
    const margin = maxDrop ?? maxRelativeDrop * abs(baselineMean);
    checkMargin(margin, maxDrop === null ? 'max_relative_drop' : 'max_drop', maxDrop ?? maxRelativeDrop);
    return margin;
}
/**
 * pass when the whole interval is better than -m, fail when the whole interval is worse than -m,
 * inconclusive otherwise. For lower-is-better metrics "worse" is a positive delta: the rule is
 * mirrored by flipping the sign of delta and of the interval.
 */
function decideVerdict(est, maxDrop, direction, confidence = est.ci.level) {
    checkMargin(maxDrop, 'max_drop', maxDrop);
    // Work in "improvement" units: positive is better whatever the metric's direction.
    const sign = direction === 'lower' ? -1 : 1;
    const gain = sign * est.delta;
    const low = sign === 1 ? est.ci.low : -est.ci.high;
    const high = sign === 1 ? est.ci.high : -est.ci.low;
    const level = `${formatLevel$1(confidence)} interval`;
    const shown = `[${fmt$1(est.ci.low)}, ${fmt$1(est.ci.high)}]`;
    const bound = sign === 1 ? `-${fmt$1(maxDrop)}` : `+${fmt$1(maxDrop)}`;
    const worse = sign === 1 ? 'drop' : 'rise';
    if (low > -maxDrop) {
        return {
            verdict: 'pass',
            nNeeded: null,
            reason: `The ${level} of the difference ${shown} lies entirely ${sign === 1 ? 'above' : 'below'} ${bound}: the candidate is not meaningfully worse.`
        };
    }
    if (high < -maxDrop) {
        return {
            verdict: 'fail',
            nNeeded: null,
            reason: `The ${level} of the difference ${shown} lies entirely ${sign === 1 ? 'below' : 'above'} ${bound}: a real ${worse} larger than the tolerated ${fmt$1(maxDrop)}.`
        };
    }
    if (gain <= -maxDrop) {
        return {
            verdict: 'inconclusive',
            nNeeded: null,
            reason: `The observed ${worse} (${fmt$1(abs(est.delta))}) already reaches the tolerated ${fmt$1(maxDrop)}: more instances would not make this pass; the candidate is likely worse.`
        };
    }
    const nNeeded = instancesToResolve(est.n, (high - low) / 2, gain + maxDrop);
    return {
        verdict: 'inconclusive',
        nNeeded,
        reason: `The ${level} ${shown} straddles ${bound}: about ${nNeeded} instances (now ${est.n}) would narrow it enough; use more instances, not a looser threshold.`
    };
}
function checkMargin(margin, field, value) {
    if (!(isFiniteNumber(margin) && margin >= 0)) {
        throw new UsageError('stats.bad_max_drop', 'The tolerated drop must be a finite, non-negative number.', {
            field,
            value
        });
    }
}
function formatLevel$1(confidence) {
    return `${Number((confidence * 100).toPrecision(6))}%`;
}
function fmt$1(x) {
    return Number(x.toPrecision(3)).toString();
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
 * A targeted scanner for per_instance_stats.json held in memory: it returns the entries with only
 * the fields the reader uses (instance_id, train_trial_index, perturbation, and per stat its name,
 * count and sum), and checks the syntax of everything else without building it.
 *
 * Why not JSON.parse: a real-shaped file of 5,000 instances with HELM's 23 stats each is 31 MB,
 * and JSON.parse builds about 700,000 objects and a million key strings that the reader then
 * drops (six of a stat's nine fields are never used). Measured with bench/compare.mjs on such a
 * file (Node 20): toString + depth check + JSON.parse take about 2.5 times as long as this scan,
 * and the whole read of the file about twice as long.
 *
 * The scanner accepts only plain, well-formed JSON: an escape in a string is decoded, but anything
 * outside the usual shape is not interpreted here. On HELM's NaN/Infinity tokens, a syntax error,
 * nesting beyond a few levels, a `__proto__` key or a non-array top level it gives up (returns
 * undefined) and the caller reads the file with the general parser, which accepts those tokens
 * and reports real errors with their byte offset. So this scanner never decides that a file is
 * good: it only makes the common case fast, and gives the same values as the general parser
 * (tested on every fixture and on damaged files).
 */
/** Thrown inside the scanner to give up; never leaves this module. */
class GiveUp {
}
const GIVE_UP = new GiveUp();
/** Deeper than this, leave the file to the general parser (it enforces MAX_JSON_DEPTH). */
const MAX_SKIP_DEPTH = 32;
/** 10^k is exact for k <= 22, and a decimal of at most 15 digits is an exact integer. */
const POWERS_OF_TEN = Array.from({ length: 23 }, (_, k) => 10 ** k);
const MAX_FAST_DIGITS = 15;
const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const COLON = 0x3a;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;
const MINUS = 0x2d;
const ZERO = 0x30;
const NINE = 0x39;
const DOT = 0x2e;
/**
 * The entries of a per_instance_stats.json text, or undefined when the general parser must read it.
 * Equal stat names may be one shared object: the caller must not modify what it gets.
 */
function scanPerInstanceStats(bytes) {
    try {
        return new Scanner(bytes).document();
    }
    catch (error) {
        if (error === GIVE_UP)
            return undefined;
        throw error;
    }
}
const ENTRY_KEYS = keyTable(['instance_id', 'train_trial_index', 'perturbation', 'stats']);
const STAT_KEYS = keyTable(['name', 'count', 'sum']);
/** Keys as byte arrays, to compare in place without building a string per key. */
function keyTable(keys) {
    return keys.map(name => ({ name, bytes: Buffer.from(name, 'latin1') }));
}
class Scanner {
    b;
    p = 0;
    /** Strings built, by fingerprint, to reuse one string for the thousands of equal metric names. */
    cache = new Array(CACHE_SLOTS);
    /** Per stat position, where the last name object built there was, and the value. */
    names = [];
    constructor(b) {
        this.b = b;
    }
    document() {
        this.space();
        if (this.b[this.p] !== OPEN_BRACKET)
            throw GIVE_UP;
        this.p++;
        const entries = [];
        if (this.next() === CLOSE_BRACKET) {
            this.p++;
        }
        else {
            for (;;) {
                this.space();
                entries.push(this.b[this.p] === OPEN_BRACE ? this.entry() : this.value(0));
                if (this.endOfMember(CLOSE_BRACKET))
                    break;
            }
        }
        this.space();
        if (this.p !== this.b.length)
            throw GIVE_UP;
        return entries;
    }
    entry() {
        this.p++;
        const entry = {};
        if (this.next() === CLOSE_BRACE) {
            this.p++;
            return entry;
        }
        for (;;) {
            const key = this.key(ENTRY_KEYS);
            this.space();
            if (key === 'stats' && this.b[this.p] === OPEN_BRACKET)
                entry.stats = this.stats();
            else if (key === null)
                this.skip(1);
            else
                entry[key] = this.value(1);
            if (this.endOfMember(CLOSE_BRACE))
                return entry;
        }
    }
    stats() {
        this.p++;
        const stats = [];
        if (this.next() === CLOSE_BRACKET) {
            this.p++;
            return stats;
        }
        for (;;) {
            this.space();
            stats.push(this.b[this.p] === OPEN_BRACE ? this.stat(stats.length) : this.value(2));
            if (this.endOfMember(CLOSE_BRACKET))
                return stats;
        }
    }
    stat(position) {
        this.p++;
        const stat = {};
        if (this.next() === CLOSE_BRACE) {
            this.p++;
            return stat;
        }
        for (;;) {
            const key = this.key(STAT_KEYS);
            this.space();
            if (key === null)
                this.skip(3);
            else if (key === 'name')
                stat.name = this.statName(position);
            else
                stat[key] = this.value(3);
            if (this.endOfMember(CLOSE_BRACE))
                return stat;
        }
    }
    /**
     * A stat's name object. Entries list the same stats in the same order, so the name at a position
     * is usually byte for byte the one the previous entry had there: then that value is returned
     * again instead of building an equal one (a JSON value's text ends where it ends, so equal bytes
     * over the earlier value's length are the same value).
     */
    statName(position) {
        const b = this.b;
        const start = this.p;
        const earlier = this.names[position];
        if (earlier !== undefined) {
            const length = earlier.end - earlier.start;
            if (start + length <= b.length) {
                let k = 0;
                while (k < length && b[start + k] === b[earlier.start + k])
                    k++;
                if (k === length) {
                    this.p = start + length;
                    return earlier.value;
                }
            }
        }
        const value = this.value(3);
        this.names[position] = { start, end: this.p, value };
        return value;
    }
    /**
     * Reads `"key":` and returns the key when it is one of `known`, else null (its value is then
     * skipped). Any other key with an escape or a byte above 0x7f is left to the general parser.
     */
    key(known) {
        this.space();
        const b = this.b;
        if (b[this.p] !== QUOTE)
            throw GIVE_UP;
        const start = this.p + 1;
        let end = start;
        for (;;) {
            const c = b[end];
            if (c === QUOTE)
                break;
            if (c === undefined || c < 0x20 || c === BACKSLASH || c > 0x7e)
                throw GIVE_UP;
            end++;
        }
        this.p = end + 1;
        if (this.next() !== COLON)
            throw GIVE_UP;
        this.p++;
        const length = end - start;
        for (const { name, bytes } of known) {
            if (bytes.length !== length)
                continue;
            let same = true;
            for (let k = 0; k < length; k++) {
                if (b[start + k] !== bytes[k]) {
                    same = false;
                    break;
                }
            }
            if (same)
                return name;
        }
        // JSON.parse makes `__proto__` an own property; the general parser handles that case.
        if (length === 9 && String.fromCharCode(...b.subarray(start, end)) === '__proto__')
            throw GIVE_UP;
        return null;
    }
    /** After a member: true at `close` (consumed), false after a comma; anything else gives up. */
    endOfMember(close) {
        const c = this.next();
        this.p++;
        if (c === COMMA)
            return false;
        if (c === close)
            return true;
        throw GIVE_UP;
    }
    /** Skips whitespace and returns the next byte (undefined at the end). */
    next() {
        this.space();
        return this.b[this.p];
    }
    space() {
        const b = this.b;
        let p = this.p;
        let c = b[p];
        while (c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09)
            c = b[++p];
        this.p = p;
    }
    /** Builds the value at the cursor (a whole, small JSON value). */
    value(depth) {
        if (depth > MAX_SKIP_DEPTH)
            throw GIVE_UP;
        const c = this.next();
        if (c === QUOTE)
            return this.string();
        if (c === MINUS || (c !== undefined && c >= ZERO && c <= NINE))
            return this.number();
        if (c === OPEN_BRACE) {
            this.p++;
            const object = {};
            if (this.next() === CLOSE_BRACE) {
                this.p++;
                return object;
            }
            for (;;) {
                this.space();
                if (this.b[this.p] !== QUOTE)
                    throw GIVE_UP;
                const key = this.string();
                if (key === '__proto__')
                    throw GIVE_UP;
                if (this.next() !== COLON)
                    throw GIVE_UP;
                this.p++;
                object[key] = this.value(depth + 1);
                if (this.endOfMember(CLOSE_BRACE))
                    return object;
            }
        }
        if (c === OPEN_BRACKET) {
            this.p++;
            const array = [];
            if (this.next() === CLOSE_BRACKET) {
                this.p++;
                return array;
            }
            for (;;) {
                array.push(this.value(depth + 1));
                if (this.endOfMember(CLOSE_BRACKET))
                    return array;
            }
        }
        return this.literal();
    }
    /** Checks the value at the cursor and moves past it without building it. */
    skip(depth) {
        if (depth > MAX_SKIP_DEPTH)
            throw GIVE_UP;
        const c = this.next();
        if (c === QUOTE) {
            this.stringEnd();
        }
        else if (c === MINUS || (c !== undefined && c >= ZERO && c <= NINE)) {
            this.numberEnd();
        }
        else if (c === OPEN_BRACE) {
            this.p++;
            if (this.next() === CLOSE_BRACE) {
                this.p++;
                return;
            }
            for (;;) {
                this.space();
                if (this.b[this.p] !== QUOTE)
                    throw GIVE_UP;
                this.stringEnd();
                if (this.next() !== COLON)
                    throw GIVE_UP;
                this.p++;
                this.skip(depth + 1);
                if (this.endOfMember(CLOSE_BRACE))
                    return;
            }
        }
        else if (c === OPEN_BRACKET) {
            this.p++;
            if (this.next() === CLOSE_BRACKET) {
                this.p++;
                return;
            }
            for (;;) {
                this.skip(depth + 1);
                if (this.endOfMember(CLOSE_BRACKET))
                    return;
            }
        }
        else {
            this.literal();
        }
    }
    literal() {
        if (this.word('true'))
            return true;
        if (this.word('false'))
            return false;
        if (this.word('null'))
            return null;
        // NaN, Infinity and anything else: the general parser's business.
        throw GIVE_UP;
    }
    word(w) {
        const b = this.b;
        for (let k = 0; k < w.length; k++)
            if (b[this.p + k] !== w.charCodeAt(k))
                return false;
        this.p += w.length;
        return true;
    }
    /**
     * Moves past a string (cursor on its opening quote) and returns whether it is plain printable
     * ASCII without escapes. Raw control characters and bad escapes give up, as JSON.parse rejects them.
     */
    stringEnd() {
        const b = this.b;
        let p = this.p + 1;
        let plain = true;
        for (;;) {
            const c = b[p];
            if (c === QUOTE)
                break;
            if (c === undefined || c < 0x20)
                throw GIVE_UP;
            if (c === BACKSLASH) {
                plain = false;
                const e = b[p + 1];
                if (e === 0x75) {
                    for (let k = 2; k < 6; k++)
                        if (!isHex(b[p + k]))
                            throw GIVE_UP;
                    p += 6;
                    continue;
                }
                if (!(e === QUOTE || e === BACKSLASH || e === 0x2f || e === 0x62 || e === 0x66 || e === 0x6e || e === 0x72 || e === 0x74)) {
                    throw GIVE_UP;
                }
                p += 2;
                continue;
            }
            if (c > 0x7e)
                plain = false;
            p++;
        }
        this.p = p + 1;
        return plain;
    }
    string() {
        const start = this.p;
        const plain = this.stringEnd();
        const end = this.p;
        if (!plain) {
            // Escapes and UTF-8: decoded exactly as JSON.parse of the decoded text decodes them.
            return JSON.parse(Buffer.from(this.b.buffer, this.b.byteOffset + start, end - start).toString('utf8'));
        }
        return this.plainString(start + 1, end - 1);
    }
    /** Bytes [start, end) as a string, reusing an equal earlier one (metric names repeat per entry). */
    plainString(start, end) {
        const b = this.b;
        const length = end - start;
        if (length === 0)
            return '';
        // A cheap fingerprint picks the one cached string that may be equal; equality is then checked.
        const slot = (length * 31 + b[start] * 7 + b[end - 1] * 13 + b[start + (length >> 1)]) & (CACHE_SLOTS - 1);
        const cached = this.cache[slot];
        if (cached !== undefined && cached.length === length) {
            let k = 0;
            while (k < length && cached.charCodeAt(k) === b[start + k])
                k++;
            if (k === length)
                return cached;
        }
        const made = Buffer.from(b.buffer, b.byteOffset + start, length).toString('latin1');
        this.cache[slot] = made;
        return made;
    }
    /** Moves past a JSON number, checking its grammar; returns [start, digits, fast value or NaN]. */
    numberEnd() {
        const b = this.b;
        let p = this.p;
        const negative = b[p] === MINUS;
        if (negative)
            p++;
        let c = b[p];
        let mantissa = 0;
        let digits = 0;
        if (c === ZERO) {
            c = b[++p];
            digits = 1;
        }
        else if (c !== undefined && c > ZERO && c <= NINE) {
            while (c !== undefined && c >= ZERO && c <= NINE) {
                mantissa = mantissa * 10 + (c - ZERO);
                digits++;
                c = b[++p];
            }
        }
        else {
            throw GIVE_UP;
        }
        let scale = 0;
        if (c === DOT) {
            c = b[++p];
            if (!(c !== undefined && c >= ZERO && c <= NINE))
                throw GIVE_UP;
            while (c !== undefined && c >= ZERO && c <= NINE) {
                mantissa = mantissa * 10 + (c - ZERO);
                digits++;
                scale++;
                c = b[++p];
            }
        }
        let exact = digits <= MAX_FAST_DIGITS;
        if (c === 0x65 || c === 0x45) {
            exact = false;
            c = b[++p];
            if (c === 0x2b || c === MINUS)
                c = b[++p];
            if (!(c !== undefined && c >= ZERO && c <= NINE))
                throw GIVE_UP;
            while (c !== undefined && c >= ZERO && c <= NINE)
                c = b[++p];
        }
        this.p = p;
        if (!exact)
            return NaN;
        // Both operands exact, so the one division is correctly rounded, as JSON.parse rounds.
        const magnitude = scale === 0 ? mantissa : mantissa / POWERS_OF_TEN[scale];
        return negative ? -magnitude : magnitude;
    }
    number() {
        const start = this.p;
        const fast = this.numberEnd();
        if (!Number.isNaN(fast))
            return fast;
        return Number(Buffer.from(this.b.buffer, this.b.byteOffset + start, this.p - start).toString('latin1'));
    }
}
const CACHE_SLOTS = 1024;
function isHex(c) {
    return c !== undefined && ((c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x46) || (c >= 0x61 && c <= 0x66));
}

/**
 * per_instance_stats.json → values the gate can pair instance by instance.
 *
 * HELM quirks handled here (docs/helm.md "per_instance_stats.json"): several entries can share a key (one per
 * metric class) and are merged; perturbed copies share `instance_id` with the clean instance;
 * the split exists only inside each stat's name; rows are not sorted.
 */
const FILE_NAME = 'per_instance_stats.json';
/**
 * Identity of a perturbation for pairing: name, seed, and computed_on when it is not the usual
 * "perturbed". Never the whole object: fairness perturbations embed local file paths
 * (`mapping_file_path`, `name_file_path`) that differ between machines.
 */
function perturbationKey(perturbation) {
    if (!perturbation)
        return null;
    let key = perturbation.name;
    if (perturbation.seed !== undefined && perturbation.seed !== null)
        key += `#${perturbation.seed}`;
    if (perturbation.computed_on !== undefined && perturbation.computed_on !== 'perturbed')
        key += `@${perturbation.computed_on}`;
    return key;
}
function seriesKey(metric, split, perturbation) {
    return JSON.stringify([metric, split, perturbation]);
}
/** Key of a value inside a series (the perturbation is fixed by the series). */
function instanceStatKey(instanceId, trainTrialIndex) {
    return JSON.stringify([instanceId, trainTrialIndex]);
}
class EntryChecker extends ElementChecker {
    index;
    constructor(file, index) {
        super(file);
        this.index = index;
    }
    pathOf(field) {
        return `[${this.index}]${field ? `.${field}` : ''}`;
    }
    optionalString(value, field) {
        return value === undefined ? null : this.string(value, field);
    }
    /** Sums may be NaN or infinite (HELM before 0.2.4; bare tokens); the gate decides what to do. */
    number(value, field) {
        if (typeof value !== 'number')
            this.fail(field, 'a number', value);
        return value;
    }
    perturbation(value, field) {
        if (value === undefined)
            return null;
        const object = this.object(value, field);
        this.string(object.name, `${field}.name`);
        if (object.seed !== undefined && object.seed !== null)
            this.number(object.seed, `${field}.seed`);
        if (object.computed_on !== undefined)
            this.string(object.computed_on, `${field}.computed_on`);
        return object;
    }
}
function isPlainObject(value) {
    return typeof value === 'object' && value !== null && !Array.isArray(value);
}
function isNatural(value) {
    return typeof value === 'number' && Number.isInteger(value) && value >= 0;
}
/**
 * The file's entries by the targeted scanner (instance-stats-scan.ts), or undefined when the
 * general streaming parser must read it: too large to hold, unreadable (the streaming path
 * reports that), or anything the scanner leaves to the general parser.
 */
async function scanFile(file) {
    let bytes;
    try {
        const info = await stat(file);
        if (!info.isFile() || info.size > NATIVE_PARSE_LIMIT)
            return undefined;
        bytes = await readFile(file);
    }
    catch {
        return undefined;
    }
    const entries = scanPerInstanceStats(bytes);
    return entries === undefined ? undefined : { bytes, entries };
}
/** Reads and merges per_instance_stats.json of a run directory (or a file path). */
async function readPerInstanceStats(run, options = {}) {
    let file;
    let layout;
    if (typeof run === 'string') {
        file = run;
        layout = '0.4+';
    }
    else {
        file = join(run.path, FILE_NAME);
        layout = run.layout ?? detectLayout(run.runSpec);
        if (!run.files.perInstanceStats) {
            throw new InputError('input.missing_file', `${run.path} has no ${FILE_NAME}`, { file });
        }
    }
    const series = new Map();
    const keys = new Set();
    let entries = 0;
    // Every entry lists the same stats in the same order, so the series of the stat at position s
    // is almost always the one the previous entry's stat s went to: remembering it saves building
    // and hashing a key per stat (measured by bench/compare.mjs).
    const lastAt = [];
    const add = (index, value) => {
        entries++;
        const check = new EntryChecker(file, index);
        const entry = check.object(value, '');
        const instanceId = check.string(entry.instance_id, 'instance_id');
        const trainTrialIndex = check.natural(entry.train_trial_index, 'train_trial_index');
        const entryPerturbation = check.perturbation(entry.perturbation, 'perturbation');
        keys.add(JSON.stringify([instanceId, trainTrialIndex, perturbationKey(entryPerturbation)]));
        const stats = entry.stats;
        if (!Array.isArray(stats))
            check.fail('stats', 'an array', stats);
        const vKey = instanceStatKey(instanceId, trainTrialIndex);
        for (let s = 0; s < stats.length; s++) {
            // The usual case is checked inline; a field path is built only for an error (building eight
            // per stat was a fifth of the reading time on a real-shaped file).
            const rawStat = stats[s];
            const at = (field) => `stats[${s}]${field}`;
            const stat = isPlainObject(rawStat) ? rawStat : check.object(rawStat, at(''));
            const name = isPlainObject(stat.name) ? stat.name : check.object(stat.name, at('.name'));
            const metric = typeof name.name === 'string' ? name.name : check.string(name.name, at('.name.name'));
            const split = typeof name.split === 'string' ? name.split : check.optionalString(name.split, at('.name.split'));
            const subSplit = name.sub_split === undefined ? null : check.optionalString(name.sub_split, at('.name.sub_split'));
            // The stat repeats the entry's perturbation in its name; take the stat's own when present.
            const perturbation = name.perturbation === undefined
                ? entryPerturbation
                : (check.perturbation(name.perturbation, at('.name.perturbation')) ?? entryPerturbation);
            const count = isNatural(stat.count) ? stat.count : check.natural(stat.count, at('.count'));
            const sum = typeof stat.sum === 'number' ? stat.sum : check.number(stat.sum, at('.sum'));
            const pKey = perturbationKey(perturbation);
            const last = lastAt[s];
            let target = last !== undefined && last.metric === metric && last.split === split && last.perturbation === pKey ? last.target : undefined;
            if (!target) {
                const sKey = seriesKey(metric, split, pKey);
                target = series.get(sKey);
                if (!target) {
                    target = {
                        metric,
                        split,
                        perturbation: pKey,
                        perturbationName: perturbation?.name ?? null,
                        computedOn: perturbation ? (perturbation.computed_on ?? 'perturbed') : null,
                        values: new Map()
                    };
                    series.set(sKey, target);
                }
                lastAt[s] = { metric, split, perturbation: pKey, target };
            }
            const existing = target.values.get(vKey);
            if (existing) {
                existing.count += count;
                existing.sum += sum;
                existing.occurrences++;
            }
            else {
                const value = { instanceId, trainTrialIndex, subSplit, count, sum, occurrences: 1 };
                target.values.set(vKey, value);
            }
        }
    };
    const scanned = options.chunkSize === undefined ? await scanFile(file) : undefined;
    if (scanned !== undefined) {
        options.digest?.update(scanned.bytes);
        scanned.entries.forEach((entry, index) => add(index, entry));
    }
    else {
        for await (const { index, value } of streamJsonArray(file, { chunkSize: options.chunkSize, digest: options.digest }))
            add(index, value);
    }
    return { file, layout, entries, instanceKeys: keys.size, series };
}

/**
 * HELM's 0/1 metrics (benchmark/metrics/basic_metrics.py and evaluate_reference_metrics.py),
 * with their `@k` variants: a value outside [0, 1] is a damaged file, not a score.
 */
const BINARY_METRICS = new Set([
    'exact_match',
    'quasi_exact_match',
    'prefix_exact_match',
    'quasi_prefix_exact_match',
    'exact_match_indicator',
    'final_number_exact_match',
    'exact_set_match',
    'math_equiv',
    'math_equiv_chain_of_thought'
]);
/**
 * lm-evaluation-harness's per-sample 0/1 metrics (docs/lm-eval.md): accuracy over the choices of a
 * multiple-choice task (`acc`, `acc_norm`, `acc_mutual_info`) and `exact_match` (already above).
 */
const LM_EVAL_BINARY_METRICS = new Set(['acc', 'acc_norm', 'acc_mutual_info']);
/** HELM metrics that are continuous but bounded to [0, 1] (F1, ROUGE and BLEU scores, set overlaps). */
const UNIT_INTERVAL_METRICS = new Set(['f1_score', 'f1_set_match', 'iou_set_match', 'rouge_1', 'rouge_2', 'rouge_l', 'bleu_1', 'bleu_4']);
/**
 * Beyond this magnitude a value cannot be a HELM score or count, and sums of a few million of
 * them (and their squares) would come close to overflowing a double; such values are refused
 * rather than averaged into an infinite or meaningless interval.
 */
const MAX_MAGNITUDE = 1e100;
function baseName$1(metric) {
    return metric.replace(/@\d+$/, '');
}
function isZeroOneSide(values) {
    let zero = false;
    let one = false;
    for (const v of values) {
        if (v.value === null)
            continue;
        if (v.value === 0)
            zero = true;
        else if (v.value === 1)
            one = true;
        else
            return false;
    }
    return zero && one;
}
/** The range of `metric`, or null when it is unbounded (nothing known about its values). */
function metricRange(metric, baseline, candidate) {
    const name = baseName$1(metric);
    if (BINARY_METRICS.has(name))
        return { low: 0, high: 1, binary: true, because: `${metric} is a 0/1 metric in HELM` };
    if (LM_EVAL_BINARY_METRICS.has(name))
        return { low: 0, high: 1, binary: true, because: `${metric} is a 0/1 metric in lm-eval` };
    if (UNIT_INTERVAL_METRICS.has(name))
        return { low: 0, high: 1, binary: false, because: `${metric} lies in [0, 1] in HELM` };
    for (const [side, values] of [
        ['baseline', baseline],
        ['candidate', candidate]
    ]) {
        if (isZeroOneSide(values))
            return { low: 0, high: 1, binary: true, because: `${metric} is 0/1 on the ${side} side` };
    }
    return null;
}
/** The first value outside the range (a non-finite value with a count included), or null. */
function firstOutOfRange(values, range) {
    for (const v of values) {
        const x = v.raw ?? v.value;
        if (x === null || x === undefined)
            continue;
        if (!(x >= range.low && x <= range.high))
            return v;
    }
    return null;
}
/** The first value too large to average safely, or null. */
function firstHuge(values) {
    for (const v of values)
        if (v.value !== null && Math.abs(v.value) > MAX_MAGNITUDE)
            return v;
    return null;
}
function describeValueKey(v) {
    return `instance ${v.instanceId}, trial ${v.trainTrialIndex}${v.perturbation ? `, perturbation ${v.perturbation}` : ''}`;
}

/**
 * One run directory, read for the gate: per-instance values of every stat, and compact
 * request-state checks (cache flag, success, prompt hash). scenario_state.json can be several
 * GB, so it is streamed and only small fixed-size facts are kept per request; the text of
 * changed answers is fetched in a second pass for just the few examples the report shows.
 */
const RUNTIME_METRIC$1 = 'inference_runtime';
/**
 * Request states up to this count keep their text excerpts in memory (well under 1 KB each), so
 * the changed answers shown in the report need no second read; beyond it the excerpts are
 * dropped and read again for just those answers, keeping memory bounded for multi-GB files.
 */
const TEXT_KEEP_LIMIT = 20_000;
async function fileRead(path) {
    try {
        const [real, info] = await Promise.all([realpath(path), stat(path)]);
        return { path, real, identity: `${info.dev}:${info.ino}` };
    }
    catch (error) {
        throw new InputError('input.unreadable', `Cannot read ${path}: ${error.message}`, { file: path });
    }
}
/**
 * stats.json is not used for the comparison, but HELM writes it last: a missing, empty or
 * unparsable one means the run did not finish, so nothing else in the directory is trusted.
 */
async function checkStatsFile(run) {
    const file = join(run.path, RUN_FILES.stats);
    const incomplete = (why) => new InputError('input.incomplete_run', `${file} ${why}: the run did not finish, so its other files are not trusted`, {
        file,
        field: RUN_FILES.stats
    });
    if (!run.files.stats)
        throw incomplete('is missing');
    let entries = 0;
    try {
        for await (const { index, value } of streamJsonArray(file)) {
            if (value === null || typeof value !== 'object' || Array.isArray(value)) {
                throw new InputError('input.wrong_type', `[${index}] in ${file} must be an object`, { file, field: `[${index}]` });
            }
            entries++;
        }
    }
    catch (error) {
        if (!(error instanceof GateError))
            throw error;
        throw incomplete(`is not a complete stats list (${error.message})`);
    }
    if (entries === 0)
        throw incomplete('holds no statistics');
    return file;
}
async function loadRunData(run, textKeepLimit = TEXT_KEEP_LIMIT) {
    const statsFile = await checkStatsFile(run);
    const statsDigest = createHash('sha256');
    const table = await readPerInstanceStats(run, { digest: statsDigest });
    const perInstanceStatsDigest = statsDigest.digest('hex');
    const reads = [join(run.path, RUN_FILES.runSpec), statsFile, table.file];
    let requestStates = null;
    let hasTexts = false;
    let scenarioStateDigest = null;
    if (run.files.scenarioState) {
        const list = [];
        hasTexts = true;
        const digest = createHash('sha256');
        reads.push(join(run.path, RUN_FILES.scenarioState));
        await readRequestStates(run, summary => {
            const compact = { ...summary, promptHash: summary.promptHash.slice(0, 24) };
            if (hasTexts && list.length >= textKeepLimit) {
                hasTexts = false;
                for (const kept of list)
                    stripTexts(kept);
            }
            if (!hasTexts)
                stripTexts(compact);
            list.push(compact);
        }, { digest });
        requestStates = list;
        scenarioStateDigest = digest.digest('hex');
    }
    if (run.files.scenario)
        reads.push(join(run.path, RUN_FILES.scenario));
    const filesRead = await Promise.all(reads.map(fileRead));
    return { ...makeRunData(run, table, requestStates, hasTexts), scenarioStateDigest, perInstanceStatsDigest, filesRead };
}
function stripTexts(summary) {
    summary.inputExcerpt = '';
    summary.referenceExcerpt = '';
    summary.outputExcerpt = '';
}
function makeRunData(run, table, requestStates, hasTexts) {
    const series = [...table.series.values()].filter(s => s.computedOn === null || s.computedOn === 'perturbed');
    const collect = (keep) => {
        const out = [];
        for (const s of series) {
            if (!keep(s.metric, s.split, s.perturbation))
                continue;
            for (const v of s.values.values()) {
                const value = v.count > 0 ? v.sum / v.count : NaN;
                out.push({
                    instanceId: v.instanceId,
                    trainTrialIndex: v.trainTrialIndex,
                    perturbation: s.perturbation,
                    value: Number.isFinite(value) ? value : null,
                    raw: v.count > 0 ? value : null,
                    occurrences: v.occurrences
                });
            }
        }
        return out;
    };
    return {
        run,
        perInstanceStatsFile: table.file,
        scenarioStateFile: run.files.scenarioState ? join(run.path, 'scenario_state.json') : null,
        requestStates,
        hasTexts,
        metricNames: () => [...new Set(series.map(s => s.metric))].sort(),
        splits: metric => [...new Set(series.filter(s => s.metric === metric).map(s => s.split))].sort(),
        values: (metric, split) => collect((m, sp) => m === metric && sp === split),
        runtimes: () => collect((m, _sp, p) => m === RUNTIME_METRIC$1 && p === null)
    };
}
function exampleKey(k) {
    return JSON.stringify([k.instanceId, k.trainTrialIndex, k.perturbation]);
}
/**
 * The text excerpts of just the wanted request states: from memory when the run kept them,
 * otherwise by a second pass over scenario_state.json. With "separate" multiple-choice adapters
 * an instance has one request state per reference; the first one is kept.
 */
async function loadExampleTexts(data, wanted) {
    const found = new Map();
    const take = (summary) => {
        const key = exampleKey({
            instanceId: summary.instanceId,
            trainTrialIndex: summary.trainTrialIndex,
            perturbation: perturbationKey(summary.perturbation)
        });
        if (wanted.has(key) && !found.has(key))
            found.set(key, summary);
    };
    if (wanted.size === 0 || data.requestStates === null)
        return found;
    if (data.hasTexts)
        data.requestStates.forEach(take);
    else
        await readRequestStates(data.run, take);
    return found;
}
/**
 * Fills the changed answers' texts from each side's records by key (HELM's request states or
 * lm-eval's samples): input and reference from whichever side has them, each side's own output.
 */
function fillExampleTexts(built, keyOf, baseline, candidate) {
    for (const cmp of built) {
        for (const e of cmp.examples) {
            const key = keyOf(cmp, e);
            const sb = baseline.get(key);
            const sc = candidate.get(key);
            e.input = sb?.inputExcerpt ?? sc?.inputExcerpt ?? '';
            e.reference = sb?.referenceExcerpt ?? sc?.referenceExcerpt ?? '';
            e.baseline_output = sb?.outputExcerpt ?? '';
            e.candidate_output = sc?.outputExcerpt ?? '';
        }
    }
}

/**
 * Guards on a gated metric's values, before any comparison: each failure is an error naming the
 * file, the metric and the first instance, never a verdict. The values must be measured, each
 * once, each with the request state the cache and failure guards read (guards.ts), each from a
 * request that produced an answer, within what the metric can take, and scored wherever the other
 * side scored the same request.
 */
/** Returns false (with the error logged) when the metric's values must not be compared. */
function checkMetricValues(run, metric, range, valuesB, valuesC, b, c, log) {
    const sides = [
        { side: 'baseline', values: valuesB, data: b },
        { side: 'candidate', values: valuesC, data: c }
    ];
    // In this order, each side in turn, stopping at the first failure: one cause, one error.
    return (sides.every(s => measuredOnce(run, metric, s, log) && requestStatesCover(run, s.side, s.values, s.data, log)) &&
        sides.every(s => valuesInRange(run, metric, range, s, log)) &&
        scoresCoverRequests(run, metric, sides, log));
}
/** Measured at all, and each value once. */
function measuredOnce(run, metric, { side, values, data }, log) {
    if (values.length > 0 && values.every(v => v.value === null)) {
        log.error('guard.metric_unmeasured', `run ${run}: ${metric} was never measured on the ${side} side (every value has count 0 or is not finite)`, {
            file: data.perInstanceStatsFile,
            field: metric
        });
        return false;
    }
    // HELM only warns when two metrics emit the same stat name, and the reader merges the
    // copies into sum / count: an average of two possibly different scores is nobody's answer.
    const repeated = values.find(v => (v.occurrences ?? 1) > 1);
    if (repeated) {
        const count = values.filter(v => (v.occurrences ?? 1) > 1).length;
        log.error('guard.duplicate_stat', `run ${run}: ${metric} appears more than once for ${count} ${side} instance${count === 1 ? '' : 's'}, so their value is ambiguous`, {
            file: data.perInstanceStatsFile,
            field: metric,
            value: `instance ${repeated.instanceId}, trial ${repeated.trainTrialIndex}${repeated.perturbation ? `, perturbation ${repeated.perturbation}` : ''}: ${repeated.occurrences} copies`
        });
        return false;
    }
    return true;
}
/** A request state's key in the values' terms (instance, trial, perturbation). */
function stateKey(s) {
    return exampleKey({ instanceId: s.instanceId, trainTrialIndex: s.trainTrialIndex, perturbation: perturbationKey(s.perturbation) });
}
/**
 * Every measured value must come with its request state: the cache and failure guards read
 * scenario_state.json, so a score without a request state is a score nobody checked (a
 * scenario_state.json cut down to save space, or a file from another run). HELM writes both
 * files from the same request states, so a complete run always passes this.
 */
function requestStatesCover(run, side, values, data, log) {
    if (data.requestStates === null)
        return true; // already an error (guard.no_scenario_state)
    const present = new Set(data.requestStates.map(s => stateKey(s)));
    const missing = values.filter(v => v.value !== null && !present.has(exampleKey(v)));
    if (missing.length === 0)
        return requestsRan(run, side, values, data, log);
    const first = missing[0];
    log.error('guard.no_request_state', `run ${run}: ${missing.length} ${side} scores have no request state in scenario_state.json, so cached or failed answers cannot be ruled out for them`, {
        file: data.scenarioStateFile ?? data.run.path,
        field: 'request_states',
        value: `instance ${first.instanceId}, trial ${first.trainTrialIndex}${first.perturbation ? `, perturbation ${first.perturbation}` : ''}`
    });
    return false;
}
/**
 * A score of a request that never produced an answer (no result, no completions, a completion
 * without text) was computed from nothing: HELM scores an empty answer as wrong, or worse,
 * whatever a metric makes of it. Failed requests are caught by guard.failed_requests.
 */
function requestsRan(run, side, values, data, log) {
    if (data.requestStates === null)
        return true;
    const scored = new Set(values.filter(v => v.value !== null).map(v => exampleKey(v)));
    const silent = data.requestStates.filter(s => !s.answered && scored.has(stateKey(s)));
    if (silent.length === 0)
        return true;
    const first = silent[0];
    log.error('guard.request_not_run', `run ${run}: ${silent.length} ${side} requests that have a score never produced an answer (no result, no completions or a completion without text), so their scores are not the model's answers`, {
        file: data.scenarioStateFile ?? data.run.path,
        field: 'result.completions',
        value: `instance ${first.instanceId}, trial ${first.trainTrialIndex}`
    });
    return false;
}
/**
 * Values a metric cannot take are a damaged file: a 0/1 metric holding 4 would otherwise be
 * averaged as a continuous score, and a value of 1e308 overflows every sum into an infinite
 * interval. Either is an error naming the instance and the value, never a verdict.
 */
function valuesInRange(run, metric, range, { side, values, data }, log) {
    const bad = range ? firstOutOfRange(values, range) : null;
    if (bad && range) {
        log.error('guard.out_of_range', `run ${run}: ${metric} must lie in [${range.low}, ${range.high}] (${range.because}), but the ${side} side has ${String(bad.raw ?? bad.value)} for ${describeValueKey(bad)}`, { file: data.perInstanceStatsFile, field: metric, value: `${describeValueKey(bad)}: ${String(bad.raw ?? bad.value)}` });
        return false;
    }
    const huge = firstHuge(values);
    if (huge) {
        log.error('guard.huge_value', `run ${run}: ${metric} on the ${side} side is ${String(huge.value)} for ${describeValueKey(huge)}; values beyond ${MAX_MAGNITUDE} cannot be averaged safely and are not HELM scores`, { file: data.perInstanceStatsFile, field: metric, value: `${describeValueKey(huge)}: ${String(huge.value)}` });
        return false;
    }
    return true;
}
/**
 * A key with a request state but no score on one side, while the other side scored it, is a
 * scoring failure: the request ran and the metric failed (or its row was removed). Such
 * instances are rarely missing at random, so this is an error whatever min_overlap says.
 */
function scoresCoverRequests(run, metric, sides, log) {
    const measured = sides.map(({ values }) => new Set(values.filter(v => v.value !== null).map(v => exampleKey(v))));
    for (const [i, { side, data }] of sides.entries()) {
        const own = measured[i];
        const other = measured[1 - i];
        if (data.requestStates === null)
            continue;
        const requested = new Set(data.requestStates.map(s => stateKey(s)));
        const failures = [...other].filter(key => !own.has(key) && requested.has(key));
        if (failures.length === 0)
            continue;
        const [instance, trial, perturbation] = JSON.parse(failures[0]);
        log.error('guard.scoring_failure', `run ${run}: ${failures.length} ${side} instances were requested but have no ${metric} score, while the other side scored them; an instance that ran but was not scored is a failure, not a missing instance`, {
            file: data.perInstanceStatsFile,
            field: metric,
            value: `instance ${instance}, trial ${trial}${perturbation ? `, perturbation ${perturbation}` : ''}`
        });
        return false;
    }
    return true;
}

function clusterKey(instanceId, perturbation) {
    return perturbation === null ? instanceId : `${instanceId}\u0000${perturbation}`;
}
function valueKey(v) {
    return `${clusterKey(v.instanceId, v.perturbation)}\u0000${v.trainTrialIndex}`;
}
function index(values) {
    const byKey = new Map();
    for (const v of values)
        byKey.set(valueKey(v), v);
    return byKey;
}
function pairValues(baseline, candidate) {
    const b = index(baseline);
    const c = index(candidate);
    let matched = 0;
    let pairs = 0;
    const dropped = { baseline: 0, candidate: 0 };
    let oneSided = 0;
    const byCluster = new Map();
    for (const [key, bv] of b) {
        const cv = c.get(key);
        if (!cv)
            continue;
        matched++;
        if (bv.value === null || cv.value === null) {
            if (bv.value === null)
                dropped.baseline++;
            if (cv.value === null)
                dropped.candidate++;
            if ((bv.value === null) !== (cv.value === null))
                oneSided++;
            continue;
        }
        const ck = clusterKey(bv.instanceId, bv.perturbation);
        let list = byCluster.get(ck);
        if (!list)
            byCluster.set(ck, (list = []));
        list.push({ trial: bv.trainTrialIndex, b: bv.value, c: cv.value });
        pairs++;
    }
    const clusterKeys = [...byCluster.keys()].sort();
    const clusters = [];
    const trials = [];
    for (const key of clusterKeys) {
        const list = byCluster.get(key).sort((x, y) => x.trial - y.trial);
        clusters.push({ baseline: list.map(x => x.b), candidate: list.map(x => x.c) });
        trials.push(list.map(x => x.trial));
    }
    const larger = Math.max(b.size, c.size);
    return {
        clusters,
        clusterKeys,
        trials,
        pairs,
        unmatched: { baseline: b.size - matched, candidate: c.size - matched },
        dropped,
        oneSided,
        overlap: larger === 0 ? 0 : (matched - oneSided) / larger,
        keys: { baseline: b.size, candidate: c.size }
    };
}
/**
 * Per-instance worst case over the clean instance and its perturbed variants (docs/method.md
 * "Robustness"). Only variants present on both sides enter, so that a variant missing on one
 * side cannot make that side look better; missing variants are caught by the per-perturbation
 * overlap guard.
 */
function worstCase(baseline, candidate, direction) {
    const c = index(candidate);
    const pick = direction === 'higher' ? Math.min : Math.max;
    const worstB = new Map();
    const worstC = new Map();
    const fold = (into, v) => {
        const key = `${v.instanceId}\u0000${v.trainTrialIndex}`;
        const prev = into.get(key);
        if (!prev) {
            into.set(key, { ...v, perturbation: null });
        }
        else if (prev.value !== null) {
            into.set(key, { ...prev, value: v.value === null ? null : pick(prev.value, v.value) });
        }
    };
    for (const bv of baseline) {
        const cv = c.get(valueKey(bv));
        if (!cv)
            continue;
        fold(worstB, bv);
        fold(worstC, cv);
    }
    return { baseline: [...worstB.values()], candidate: [...worstC.values()] };
}
/**
 * Both sides completed for the worst-case bound (docs/method.md "Missing data: the worst-case
 * bound"): a key measured on one side only gets `fill.candidate` (the metric's worst) where the
 * candidate lacks it and `fill.baseline` (its best) where the baseline lacks it. Keys measured on
 * neither side say nothing about either deployment and stay out.
 */
function imputeMissing(baseline, candidate, fill) {
    const b = index(baseline);
    const c = index(candidate);
    const out = { baseline: [], candidate: [], imputedKeys: { baseline: [], candidate: [] } };
    const keys = new Set([...b.keys(), ...c.keys()]);
    for (const key of keys) {
        const bv = b.get(key);
        const cv = c.get(key);
        const measuredB = bv !== undefined && bv.value !== null;
        const measuredC = cv !== undefined && cv.value !== null;
        if (!measuredB && !measuredC)
            continue;
        const like = (measuredB ? bv : cv);
        if (measuredB)
            out.baseline.push(bv);
        else {
            out.baseline.push({ ...like, value: fill.baseline, occurrences: 1 });
            out.imputedKeys.baseline.push(key);
        }
        if (measuredC)
            out.candidate.push(cv);
        else {
            out.candidate.push({ ...like, value: fill.candidate, occurrences: 1 });
            out.imputedKeys.candidate.push(key);
        }
    }
    return out;
}

function buildComparisons(run, gated, b, c, statistics, examples, log) {
    const split = resolveSplit(run, gated, b, c, log);
    if (split === undefined)
        return [];
    const valuesB = b.values(gated.metric, split);
    const valuesC = c.values(gated.metric, split);
    const range = metricRange(gated.metric, valuesB, valuesC);
    if (!checkMetricValues(run, gated.metric, range, valuesB, valuesC, b, c, log))
        return [];
    const out = [];
    const isClean = (v) => v.perturbation === null;
    const ctx = { run, gated, split, range, b, c, statistics, examples, log };
    const clean = compareOne(ctx, null, true, valuesB.filter(isClean), valuesC.filter(isClean));
    if (clean)
        out.push(clean);
    const perturbations = [...new Set([...valuesB, ...valuesC].map(v => v.perturbation).filter((p) => p !== null))].sort();
    const gatePerturbed = gated.perturbations === 'gate';
    for (const p of perturbations) {
        const only = (v) => v.perturbation === p;
        const cmp = compareOne(ctx, p, gatePerturbed, valuesB.filter(only), valuesC.filter(only));
        if (cmp)
            out.push(cmp);
    }
    if (perturbations.length > 0) {
        const worst = worstCase(valuesB, valuesC, gated.direction);
        const cmp = compareOne(ctx, 'worst', gatePerturbed, worst.baseline, worst.candidate, { baseline: valuesB, candidate: valuesC });
        if (cmp)
            out.push(cmp);
    }
    return out;
}
/**
 * A percentile bootstrap on a handful of instances under-covers badly (with one instance it has
 * zero width), so it could pass on no evidence. Below this many resampling units a bootstrap
 * interval can fail or be inconclusive, never pass. The analytic 0/1 intervals stay honest at
 * small n and are not capped.
 */
const MIN_BOOTSTRAP_UNITS = 20;
function smallSampleGuard(decision, n, method) {
    if (decision.verdict !== 'pass' || !method.startsWith('bootstrap') || n >= MIN_BOOTSTRAP_UNITS)
        return decision;
    return {
        verdict: 'inconclusive',
        nNeeded: MIN_BOOTSTRAP_UNITS,
        reason: `Only ${n} instances: a bootstrap interval needs at least ${MIN_BOOTSTRAP_UNITS} to be trusted, so this cannot pass; use more instances.`
    };
}
/** undefined = an error was logged. */
function resolveSplit(run, gated, b, c, log) {
    const splitsB = b.splits(gated.metric);
    const splitsC = c.splits(gated.metric);
    for (const [side, splits, data] of [
        ['baseline', splitsB, b],
        ['candidate', splitsC, c]
    ]) {
        if (splits.length === 0) {
            log.error('guard.metric_missing', `run ${run}: metric ${gated.metric} is absent on the ${side} side`, {
                file: data.perInstanceStatsFile,
                field: 'metric',
                value: `available: ${data.metricNames().join(', ') || 'none'}`
            });
            return undefined;
        }
    }
    const split = gated.split ?? defaultSplit(run, gated.metric, splitsB, splitsC, log);
    if (split === undefined)
        return undefined;
    // The default is chosen from the splits of both sides, never from the ones they share: a side
    // that lost its test split must not be judged on valid alone.
    for (const [side, splits, data] of [
        ['baseline', splitsB, b],
        ['candidate', splitsC, c]
    ]) {
        if (!splits.includes(split)) {
            log.error('guard.split_missing', `run ${run}: ${gated.metric} has no split ${split} on the ${side} side`, {
                file: data.perInstanceStatsFile,
                field: 'split',
                value: `available: ${splits.join(', ')}`
            });
            return undefined;
        }
    }
    return split;
}
/** The split to compare when none is configured: the only one, or test. undefined = error logged. */
function defaultSplit(run, metric, splitsB, splitsC, log) {
    const all = [...new Set([...splitsB, ...splitsC])].sort();
    if (all.length === 1)
        return all[0];
    // Several splits (synthetic_reasoning scores valid and test): test is what users gate on.
    if (all.includes('test')) {
        log.warn('split.default', `run ${run}: ${metric} is reported for splits ${all.join(', ')}; comparing test (set split to choose)`);
        return 'test';
    }
    log.error('guard.split_ambiguous', `run ${run}: ${metric} is reported for several splits; choose one with split`, {
        value: all.join(', ')
    });
    return undefined;
}
function compareOne(ctx, perturbation, isGated, valuesB, valuesC, 
/** For the per-instance worst case: the per-variant values it was built from. */
variants) {
    const { run, gated, split, c, statistics, examples, log } = ctx;
    const label = `run ${run}, ${gated.metric}${split ? ` (${split})` : ''}${perturbation ? `, perturbation ${perturbation}` : ''}`;
    const paired = pairValues(valuesB, valuesC);
    if (paired.overlap < statistics.minOverlap) {
        log.error('guard.overlap', `${label}: only ${(paired.overlap * 100).toFixed(1)}% of instances were scored on both sides (minimum ${(statistics.minOverlap * 100).toFixed(1)}%); ${paired.unmatched.baseline} baseline and ${paired.unmatched.candidate} candidate keys are unmatched` +
            (paired.oneSided > 0
                ? `, and ${paired.dropped.baseline} baseline and ${paired.dropped.candidate} candidate values are not measurements (count 0 or not finite)`
                : ''), { file: c.perInstanceStatsFile, field: 'min_overlap', value: paired.overlap });
        return null;
    }
    if (paired.unmatched.baseline + paired.unmatched.candidate > 0) {
        log.warn('pairing.unmatched', `${label}: ${paired.unmatched.baseline} baseline and ${paired.unmatched.candidate} candidate keys have no partner and are left out`);
    }
    if (paired.dropped.baseline + paired.dropped.candidate > 0) {
        log.warn('pairing.dropped', `${label}: ${paired.dropped.baseline} baseline and ${paired.dropped.candidate} candidate values were not measurements (count 0 or not finite) and are left out`);
    }
    if (paired.clusters.length === 0) {
        log.error('guard.no_pairs', `${label}: no instance has a measured value on both sides`, { file: c.perInstanceStatsFile });
        return null;
    }
    let estimate;
    let maxDrop;
    let decision;
    let worst;
    try {
        estimate = estimatePaired(paired.clusters, statistics);
        maxDrop = resolveMaxDrop(gated.maxDrop, gated.maxRelativeDrop, estimate.baselineMean);
        decision = smallSampleGuard(decideVerdict(estimate, maxDrop, gated.direction, statistics.confidence), estimate.n, estimate.ci.method);
        worst = worstCaseBound(ctx, paired, estimate, maxDrop, valuesB, valuesC, variants);
    }
    catch (error) {
        if (error instanceof GateError) {
            log.error(error.code, `${label}: ${error.message}`, error.location);
            return null;
        }
        throw error;
    }
    const imputedTotal = worst.imputed.baseline + worst.imputed.candidate;
    if (imputedTotal > 0) {
        // A warning, so every rendering (comment, summary, console) shows both bounds side by side.
        const bound = worst.low === null || worst.high === null ? 'none (the metric has no known range)' : `[${fmt(worst.low)}, ${fmt(worst.high)}]`;
        log.warn('pairing.worst_case', `${label}: ${worst.imputed.baseline} baseline and ${worst.imputed.candidate} candidate instances imputed at the worst case: interval ${bound} against [${fmt(estimate.ci.low)}, ${fmt(estimate.ci.high)}] on the matched instances; worst-case verdict ${worst.verdict}`);
    }
    if (decision.verdict === 'pass' && worst.verdict !== 'pass') {
        decision = {
            verdict: 'inconclusive',
            nNeeded: null,
            reason: `Passes on the instances both sides scored, but not with the ${worst.imputed.baseline + worst.imputed.candidate} unmatched ones imputed at their worst: ${worst.reason}`
        };
    }
    return {
        id: [run, gated.metric, split ?? '', perturbation ?? 'clean'].join(' | '),
        run,
        entry: gated.entry,
        metric: gated.metric,
        split,
        perturbation,
        gated: isGated,
        direction: gated.direction,
        binary: estimate.binary,
        n: estimate.n,
        pairs: estimate.pairs,
        unmatched: paired.unmatched,
        dropped: paired.dropped,
        baseline_mean: estimate.baselineMean,
        candidate_mean: estimate.candidateMean,
        delta: estimate.delta,
        ci: { level: estimate.ci.level, low: estimate.ci.low, high: estimate.ci.high, method: estimate.ci.method },
        worst_case: { imputed: worst.imputed, low: worst.low, high: worst.high, method: worst.method, verdict: worst.verdict },
        wins: estimate.wins,
        losses: estimate.losses,
        unchanged: estimate.unchanged,
        p_value: estimate.pValue,
        max_drop: maxDrop,
        max_relative_drop: gated.maxRelativeDrop,
        verdict: decision.verdict,
        n_needed: decision.nNeeded,
        reason: decision.reason,
        examples: perturbation === 'worst' ? [] : changedExamples(paired, examples, statistics.flipTolerance)
    };
}
/** Three significant digits for the pairing.worst_case warning, which sets both intervals side by side. */
function fmt(x) {
    return Number(x.toPrecision(3)).toString();
}
/**
 * The verdict's interval again with every unmatched instance imputed at the metric's worst value
 * for the candidate and its best for the baseline (docs/method.md "Missing data: the worst-case
 * bound"): instances missing on one side are rarely missing at random, and dropping them flatters
 * the side that lost them. A metric without a known range has no worst value, so any unmatched
 * instance blocks a pass.
 */
function worstCaseBound(ctx, paired, estimate, maxDrop, valuesB, valuesC, variants) {
    const { gated, range, statistics } = ctx;
    const missing = paired.unmatched.baseline + paired.unmatched.candidate + paired.oneSided;
    const plain = decideVerdict(estimate, maxDrop, gated.direction, statistics.confidence);
    if (missing === 0 && variants === undefined) {
        return {
            imputed: { baseline: 0, candidate: 0 },
            low: estimate.ci.low,
            high: estimate.ci.high,
            method: estimate.ci.method,
            verdict: plain.verdict,
            reason: plain.reason
        };
    }
    if (range === null) {
        const counts = imputedCounts(valuesB, valuesC, variants, { baseline: 0, candidate: 0 }, gated.direction);
        if (counts.imputed.baseline + counts.imputed.candidate === 0) {
            return {
                imputed: counts.imputed,
                low: estimate.ci.low,
                high: estimate.ci.high,
                method: estimate.ci.method,
                verdict: plain.verdict,
                reason: plain.reason
            };
        }
        return {
            imputed: counts.imputed,
            low: null,
            high: null,
            method: null,
            verdict: 'inconclusive',
            reason: `${gated.metric} has no known range, so an instance scored on one side only has no worst value and cannot be ruled out; this cannot pass until both sides score the same instances.`
        };
    }
    const fill = gated.direction === 'higher' ? { baseline: range.high, candidate: range.low } : { baseline: range.low, candidate: range.high };
    const { imputed, baseline, candidate } = imputedCounts(valuesB, valuesC, variants, fill, gated.direction);
    if (imputed.baseline + imputed.candidate === 0) {
        return {
            imputed,
            low: estimate.ci.low,
            high: estimate.ci.high,
            method: estimate.ci.method,
            verdict: plain.verdict,
            reason: plain.reason
        };
    }
    const completed = pairValues(baseline, candidate);
    const imputedEstimate = estimatePaired(completed.clusters, statistics);
    const decision = smallSampleGuard(decideVerdict(imputedEstimate, maxDrop, gated.direction, statistics.confidence), imputedEstimate.n, imputedEstimate.ci.method);
    return {
        imputed,
        low: imputedEstimate.ci.low,
        high: imputedEstimate.ci.high,
        method: imputedEstimate.ci.method,
        verdict: decision.verdict,
        reason: decision.reason
    };
}
/** Both sides completed, and how many instances (instance x trial) were imputed on each. */
function imputedCounts(valuesB, valuesC, variants, fill, direction) {
    if (variants === undefined) {
        const done = imputeMissing(valuesB, valuesC, fill);
        return {
            imputed: { baseline: done.imputedKeys.baseline.length, candidate: done.imputedKeys.candidate.length },
            baseline: done.baseline,
            candidate: done.candidate
        };
    }
    // The per-instance worst case: complete every variant first, then take the worst over them, so
    // a variant the candidate lost counts at its worst value.
    const done = imputeMissing(variants.baseline, variants.candidate, fill);
    const instances = (keys) => new Set(keys.map(k => k
        .split('\u0000')
        .filter((_, i, all) => i === 0 || i === all.length - 1)
        .join('\u0000'))).size;
    const worst = worstCase(done.baseline, done.candidate, direction);
    return {
        imputed: { baseline: instances(done.imputedKeys.baseline), candidate: instances(done.imputedKeys.candidate) },
        baseline: worst.baseline,
        candidate: worst.candidate
    };
}
/**
 * The first few changed answers, in key order (deterministic). Their text is filled in later
 * from scenario_state.json (see fillHelmExampleTexts in compare.ts), so that only these few are ever read.
 */
function changedExamples(paired, limit, tolerance) {
    const out = [];
    for (let i = 0; i < paired.clusters.length && out.length < limit; i++) {
        const cluster = paired.clusters[i];
        for (let t = 0; t < cluster.baseline.length && out.length < limit; t++) {
            if (Math.abs(cluster.candidate[t] - cluster.baseline[t]) <= tolerance)
                continue;
            out.push({
                instance_id: paired.clusterKeys[i].split('\u0000')[0],
                train_trial_index: paired.trials[i][t],
                input: '',
                reference: '',
                baseline_output: '',
                candidate_output: '',
                baseline_value: cluster.baseline[t],
                candidate_value: cluster.candidate[t]
            });
        }
    }
    return out;
}

/**
 * What a run *is*, independent of which deployment answered it. Run directory names are lossy
 * and depend on the order of keys in the run entry (docs/helm.md "Run names"), so runs are matched
 * across sides by their run_spec.json content instead.
 */
/** Adapter fields that name the deployment: the only ones allowed to differ between sides. */
const MODEL_FIELDS = new Set(['model', 'model_deployment']);
/** Stable JSON: object keys sorted, so equal content always gives equal text. */
function canonicalJson(value) {
    if (Array.isArray(value))
        return `[${value.map(canonicalJson).join(',')}]`;
    if (value !== null && typeof value === 'object') {
        const obj = value;
        const keys = Object.keys(obj)
            .filter(k => obj[k] !== undefined)
            .sort();
        return `{${keys.map(k => `${JSON.stringify(k)}:${canonicalJson(obj[k])}`).join(',')}}`;
    }
    return JSON.stringify(value) ?? 'null';
}
/**
 * The matching key of a run: its scenario and data augmentation. The adapter spec is checked
 * separately (see adapterDrift) so that a drifted adapter is reported as drift, naming the field,
 * rather than as two unrelated runs.
 */
function runIdentity(spec) {
    const identity = {
        scenario: spec.scenario_spec,
        augmentation: augmentationIdentity(spec.data_augmenter_spec)
    };
    return createHash('sha256').update(canonicalJson(identity)).digest('hex').slice(0, 16);
}
/**
 * HELM always writes a data_augmenter_spec; a run without augmentation has an empty
 * perturbation list. Older layouts omit it. Both mean "no augmentation".
 */
function augmentationIdentity(spec) {
    if (!spec)
        return null;
    const perturbations = spec['perturbation_specs'];
    if (Array.isArray(perturbations) && perturbations.length === 0)
        return null;
    return spec;
}
/** Adapter-spec fields that differ between the two sides, model fields excepted. */
function adapterDrift(baseline, candidate) {
    const b = baseline.adapter_spec ?? {};
    const c = candidate.adapter_spec ?? {};
    const fields = [...new Set([...Object.keys(b), ...Object.keys(c)])].filter(f => !MODEL_FIELDS.has(f)).sort();
    return fields
        .filter(field => canonicalJson(b[field]) !== canonicalJson(c[field]))
        .map(field => ({ field: `adapter_spec.${field}`, baseline: b[field], candidate: c[field] }));
}
/**
 * Run-spec fields that decide how answers are scored. Runs are matched by scenario and
 * augmentation only, so two runs of one scenario scored by different metric specs or annotators
 * (another HELM version, a hand-edited run spec) would pair up and their difference would
 * measure the scorer, not the model.
 */
const SCORING_FIELDS = ['metric_specs', 'annotators'];
function scoringDrift(baseline, candidate) {
    const out = [];
    for (const field of SCORING_FIELDS) {
        const b = baseline[field] ?? [];
        const c = candidate[field] ?? [];
        if (canonicalJson(b) === canonicalJson(c))
            continue;
        // Name the first spec that differs: the whole lists are too long for a one-line message.
        let i = 0;
        while (i < b.length && i < c.length && canonicalJson(b[i]) === canonicalJson(c[i]))
            i++;
        out.push({ field, baseline: b[i] ?? null, candidate: c[i] ?? null, index: i });
    }
    return out;
}
/** The run's name with the model parts removed, for display and for `match` globs. */
function displayName(spec) {
    const [base, ...parts] = spec.name.split(/(?=[:,])/);
    const kept = [];
    let carryColon = false;
    for (const part of parts) {
        if (/^[:,]\s*(model|model_deployment)=/.test(part)) {
            carryColon ||= part.startsWith(':');
            continue;
        }
        // The removed part opened the argument list: the next part takes over its colon.
        kept.push(carryColon && part.startsWith(',') ? `:${part.slice(1)}` : part);
        carryColon = false;
    }
    return base + kept.join('');
}
/** The scenario's base name from the run name (`dyck_language_np=3` → `dyck_language_np=3`, `a:b=1` → `a`). */
function baseName(spec) {
    return spec.name.split(/[:,]/)[0];
}

/** Collects the errors and warnings of one comparison run into report issues. */
class IssueLog {
    errors = [];
    warnings = [];
    error(code, message, where = {}) {
        this.errors.push(issue(code, message, where));
    }
    warn(code, message, where = {}) {
        this.warnings.push(issue(code, message, where));
    }
    fromError(error) {
        this.errors.push(issue(error.code, error.message, error.location));
    }
}
function issue(code, message, where) {
    const out = { code, message };
    if (where.file !== undefined)
        out.file = where.file;
    if (where.field !== undefined)
        out.field = where.field;
    if (where.value !== undefined)
        out.value = showValue(where.value);
    return out;
}

/** Keys that HELM's run expanders consume; they never appear in scenario_spec.args. */
const EXPANDER_KEYS = new Set(['data_augmentation', 'max_train_instances', 'eval_split', 'num_outputs', 'num_train_trials']);
function parseEntry(entry) {
    const colon = entry.indexOf(':');
    const scenario = colon < 0 ? entry : entry.slice(0, colon);
    const args = new Map();
    if (colon >= 0) {
        for (const part of entry.slice(colon + 1).split(',')) {
            if (!part)
                continue;
            const eq = part.indexOf('=');
            if (eq < 0)
                args.set(part, 'true');
            else
                args.set(part.slice(0, eq), part.slice(eq + 1));
        }
    }
    return { scenario, args };
}
function hasAugmentation(spec) {
    const perturbations = spec.data_augmenter_spec?.['perturbation_specs'];
    return Array.isArray(perturbations) && perturbations.length > 0;
}
/** Glob with `*` (any run of characters) and `?` (one character); everything else is literal. */
function globMatches(pattern, text) {
    const re = pattern
        .replace(/[.+^${}()|[\]\\]/g, '\\$&')
        .replace(/\*/g, '.*')
        .replace(/\?/g, '.');
    return new RegExp(`^${re}$`).test(text);
}
function argSatisfied(spec, key, value) {
    const nameValue = value.replace(/\//g, '_');
    const segments = spec.name.split(/[:,]/);
    if (segments.includes(`${key}=${nameValue}`))
        return true;
    const scenarioArg = spec.scenario_spec?.args?.[key];
    if (scenarioArg !== undefined && String(scenarioArg).replace(/\//g, '_') === nameValue)
        return true;
    // `path=./data/gate.jsonl` reaches HELM resolved to an absolute path (src/runner/side-plan.ts).
    if (key === 'path' && (value.startsWith('./') || value.startsWith('../')) && typeof scenarioArg === 'string') {
        const tail = value
            .split('/')
            .filter(segment => segment !== '' && segment !== '.' && segment !== '..')
            .join('/');
        if (scenarioArg.startsWith('/') && scenarioArg.endsWith(`/${tail}`))
            return true;
    }
    const adapterArg = spec.adapter_spec?.[key];
    if (EXPANDER_KEYS.has(key) && adapterArg !== undefined && String(adapterArg) === value)
        return true;
    return false;
}
/** Does this run come from this gate entry? */
function runMatchesEntry(run, gated) {
    const spec = run.runSpec;
    if (gated.match !== null)
        return globMatches(gated.match, displayName(spec));
    const { scenario, args } = parseEntry(gated.entry);
    const base = baseName(spec);
    // dyck_language:num_parenthesis_pairs=3 is named dyck_language_np=3 by its run-spec function.
    if (base !== scenario && !base.startsWith(`${scenario}_`))
        return false;
    const wantsAugmentation = args.has('data_augmentation');
    if (wantsAugmentation !== hasAugmentation(spec))
        return false;
    for (const [key, value] of args) {
        if (key === 'data_augmentation') {
            if (!spec.name.split(/[:,]/).includes(`data_augmentation=${value}`))
                return false;
            continue;
        }
        if (!argSatisfied(spec, key, value))
            return false;
    }
    return true;
}
function pairRuns(baseline, candidate) {
    const group = (runs) => {
        const map = new Map();
        for (const run of runs) {
            const id = runIdentity(run.runSpec);
            map.set(id, [...(map.get(id) ?? []), run]);
        }
        return map;
    };
    const b = group(baseline);
    const c = group(candidate);
    const result = { pairs: [], onlyBaseline: [], onlyCandidate: [], duplicates: [] };
    for (const [id, runs] of b) {
        if (runs.length > 1)
            result.duplicates.push({ side: 'baseline', runs });
        const other = c.get(id);
        if (!other)
            result.onlyBaseline.push(...runs);
        else
            result.pairs.push({ identity: id, baseline: runs[0], candidate: other[0] });
    }
    for (const [id, runs] of c) {
        if (runs.length > 1)
            result.duplicates.push({ side: 'candidate', runs });
        if (!b.has(id))
            result.onlyCandidate.push(...runs);
    }
    // UTF-16 code-unit order: localeCompare depends on the machine's locale ("ä" sorts before "z" in
    // en-US, after it in sv-SE), and this order is the order of the JSON report.
    result.pairs.sort((x, y) => compareCodePoints(x.baseline.runSpec.name, y.baseline.runSpec.name));
    return result;
}
function compareCodePoints(a, b) {
    return a < b ? -1 : a > b ? 1 : 0;
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
const WORKER_FILE = 'ratio-worker.js';
function rebuildError(sent) {
    if (sent.kind === 'GuardError')
        return new GuardError(sent.code, sent.message, sent.location);
    if (sent.kind === 'UsageError')
        return new UsageError(sent.code, sent.message, sent.location);
    return new Error(`efficiency worker: ${sent.message}`);
}
let worker = null;
let broken = false;
let nextId = 0;
const pending = new Map();
/** The worker script beside this bundle, or null when running from the sources. */
function workerPath(moduleUrl = import.meta.url) {
    const file = fileURLToPath(new URL(`./${WORKER_FILE}`, moduleUrl));
    return existsSync(file) ? file : null;
}
function inProcess(task) {
    return ratiosOfQuantiles(task.baseline, task.candidate, task.qs, task.settings);
}
/** A worker that failed to start or died: finish what it held here, and stop using it. */
function abandon() {
    broken = true;
    const held = [...pending.values()];
    pending.clear();
    worker = null;
    for (const p of held) {
        try {
            p.resolve(inProcess(p.task));
        }
        catch (error) {
            p.reject(error);
        }
    }
}
function startWorker(file) {
    const started = new Worker(file);
    started.on('message', (reply) => {
        const p = pending.get(reply.id);
        if (!p)
            return;
        pending.delete(reply.id);
        // An idle worker never keeps the process alive: a finished compare exits without closing it.
        if (pending.size === 0)
            started.unref();
        if ('error' in reply)
            p.reject(rebuildError(reply.error));
        else
            p.resolve(reply.estimates);
    });
    started.on('error', abandon);
    started.on('exit', () => {
        if (worker === started)
            abandon();
    });
    return started;
}
/**
 * Starts the worker now, so that its start-up (a thread and a module load, tens of milliseconds)
 * overlaps the reading of the run files instead of delaying the first interval.
 */
function prewarmRatioWorker(file = workerPath()) {
    if (file === null || broken || worker !== null)
        return;
    try {
        worker = startWorker(file);
        worker.unref();
    }
    catch {
        abandon();
    }
}
/**
 * ratiosOfQuantiles with the default seeded stream, computed on the worker thread when the bundle
 * has one. Rejects with the same GuardError or UsageError the in-process call would throw.
 */
function ratiosOfQuantilesOffThread(baseline, candidate, qs, settings, file = workerPath()) {
    const task = { id: nextId++, baseline: [...baseline], candidate: [...candidate], qs: [...qs], settings };
    if (file === null || broken)
        return new Promise(resolve => resolve(inProcess(task)));
    return new Promise((resolve, reject) => {
        pending.set(task.id, { resolve, reject, task });
        try {
            worker ??= startWorker(file);
            // Held while a task is out: an unreferenced worker would let the process exit mid-await.
            worker.ref();
            worker.postMessage(task);
        }
        catch {
            abandon();
        }
    });
}

const RUNTIME_METRIC = 'inference_runtime';
/**
 * The request-time ratios of one run. Asynchronous because the bootstrap runs on a worker thread
 * where the bundle has one (stats/off-thread.ts): start it before the gated comparisons and await
 * it after them, and the two overlap.
 */
async function efficiencyFor(run, b, c, statistics) {
    const paired = pairValues(b.runtimes(), c.runtimes());
    const baseline = [];
    const candidate = [];
    for (const cluster of paired.clusters) {
        baseline.push(...cluster.baseline);
        candidate.push(...cluster.candidate);
    }
    // A quantile of zeros (0.2.x wrote request_time 0) has no meaningful ratio.
    if (baseline.length < 2 || baseline.every(v => v <= 0))
        return null;
    // Both intervals from the same resamples: half the draws of two separate bootstraps.
    const [median, p90] = await ratiosOfQuantilesOffThread(baseline, candidate, [0.5, 0.9], statistics);
    const figures = {
        baseline_median: quantile(baseline, 0.5),
        candidate_median: quantile(candidate, 0.5),
        'median_ratio.estimate': median.estimate,
        'median_ratio.low': median.low,
        'median_ratio.high': median.high,
        'p90_ratio.estimate': p90.estimate,
        'p90_ratio.low': p90.low,
        'p90_ratio.high': p90.high
    };
    // Huge or tiny request times overflow a ratio to Infinity (or 0/0 to NaN); such a figure says
    // nothing and must not reach the report.
    for (const [name, value] of Object.entries(figures)) {
        if (!Number.isFinite(value)) {
            throw new GuardError('stats.non_finite', `run ${run}, ${RUNTIME_METRIC}: the ${name} came out as ${String(value)} (the request times overflow)`, {
                field: `${RUNTIME_METRIC}.${name}`,
                value: String(value)
            });
        }
    }
    return {
        run,
        metric: RUNTIME_METRIC,
        n: baseline.length,
        baseline_median: quantile(baseline, 0.5),
        candidate_median: quantile(candidate, 0.5),
        median_ratio: median,
        p90_ratio: p90
    };
}

const LAYOUT_NAMES = { '0.2': 'HELM 0.2.x', '0.4+': 'HELM 0.4 or later' };
/** Returns false (after an error) when the two sides were written by different HELM generations. */
function checkSameLayout(run, pair, log) {
    const b = pair.baseline.layout ?? '0.4+';
    const c = pair.candidate.layout ?? '0.4+';
    if (b === c)
        return true;
    log.error('guard.helm_version_drift', `run ${run}: the baseline is ${LAYOUT_NAMES[b]} output and the candidate ${LAYOUT_NAMES[c]} output; the two build prompts, stats and request states with different code, so the comparison would measure the HELM version, not the model`, {
        file: pair.candidate.path,
        field: 'run_spec.json adapter_spec.model_deployment',
        value: { baseline: b === '0.2' ? 'absent (0.2.x)' : 'present', candidate: c === '0.2' ? 'absent (0.2.x)' : 'present' }
    });
    return false;
}
/** True when no request state records a request time (FlexLLMGen writes 0 for every request). */
function noRequestTimes(data) {
    const states = data.requestStates;
    return states !== null && states.length > 0 && states.every(s => s.requestTime === null || s.requestTime === 0);
}
/** Warns, once per run, about each guard that 0.2.x output cannot support. Both sides are 0.2.x. */
function warnUnsupportedGuards(run, b, c, log) {
    if (b.run.layout !== '0.2')
        return;
    const file = c.scenarioStateFile ?? c.run.path;
    log.warn('helm_0_2.cache_unverified', `run ${run}: HELM 0.2.x output: the cached flag of each answer is whatever the program that wrote the run set (FlexLLMGen's script always writes false and keeps no request cache), so the cache guard rests on that program's word, not on HELM's cache`, { file, field: 'result.cached' });
    if (noRequestTimes(b) || noRequestTimes(c)) {
        log.warn('helm_0_2.no_request_times', `run ${run}: HELM 0.2.x output without request times (every request_time is 0), so no request-time ratios are computed, and two runs of a deterministic model are byte for byte the same: a copied run cannot be told from a rerun`, { file, field: 'result.request_time', value: 0 });
    }
    const model = String(b.run.runSpec.adapter_spec?.['model'] ?? '');
    log.warn('helm_0_2.model_unverified', `run ${run}: HELM 0.2.x output names the model its run entry resolves to (${model || 'none'}), not the program or weights that answered (FlexLLMGen writes the entry's model, never its --model), so the report cannot say which deployment produced each side; the command that made it is the identity`, { file: b.run.path, field: 'run_spec.json adapter_spec.model', value: model });
}

/**
 * Guards that read scenario_state.json. Each failure is an error, never a pass:
 * - a cached answer may be another deployment's answer (HELM's cache is keyed by host org and
 *   model name, not by server: docs/helm.md "The request cache");
 * - a different prompt for the same instance means the comparison measures configuration;
 * - a failed request is not an answer of the model.
 */
function requestKey(s) {
    const p = s.perturbation ? `${s.perturbation.name}#${s.perturbation.seed ?? ''}` : '';
    return `${s.instanceId}\u0000${s.trainTrialIndex}\u0000${p}\u0000${s.referenceIndex ?? ''}`;
}
/** Returns false when the run pair must not be compared. */
function checkRequestStates(run, b, c, log) {
    let ok = true;
    for (const [side, data] of [
        ['baseline', b],
        ['candidate', c]
    ]) {
        if (data.requestStates === null) {
            log.error('guard.no_scenario_state', `run ${run}: the ${side} side has no scenario_state.json, so cached answers and prompt drift cannot be ruled out`, {
                file: data.run.path
            });
            ok = false;
            continue;
        }
        const cached = data.requestStates.filter(s => s.cached === true);
        if (cached.length > 0) {
            log.error('guard.cached', `run ${run}: ${cached.length} ${side} answers were served from HELM's cache, so they may belong to another deployment; run with --disable-cache`, {
                file: data.scenarioStateFile ?? data.run.path,
                field: 'result.cached',
                value: `instance ${cached[0].instanceId}`
            });
            ok = false;
        }
        const failed = data.requestStates.filter(s => s.success === false);
        if (failed.length > 0) {
            log.error('guard.failed_requests', `run ${run}: ${failed.length} ${side} requests failed (${failed[0].error ?? 'no error text'}), so their scores are not the model's answers`, {
                file: data.scenarioStateFile ?? data.run.path,
                field: 'result.success',
                value: `instance ${failed[0].instanceId}`
            });
            ok = false;
        }
    }
    if (!ok || b.requestStates === null || c.requestStates === null)
        return false;
    // A key can hold several request states: calibrated multiple choice sends an original and a
    // calibration request per reference, language modelling one request per window, and
    // perturbations that differ only in parameters share a name. So each key's prompts are compared
    // as a sorted list: a different prompt anywhere, or a different number of them, is drift.
    const baselinePrompts = promptsByKey(b.requestStates);
    const candidatePrompts = promptsByKey(c.requestStates);
    let drifted = 0;
    let first = null;
    for (const [key, { prompts, state }] of candidatePrompts) {
        const other = baselinePrompts.get(key);
        if (other !== undefined && !samePrompts(other.prompts, prompts)) {
            drifted++;
            first ??= state;
        }
    }
    if (!first && !checkDecoding(run, b, c, log))
        return false;
    if (first) {
        log.error('guard.prompt_drift', `run ${run}: ${drifted} instances were rendered to different prompts on the two sides, so the comparison would measure prompt configuration, not the model`, {
            file: c.scenarioStateFile ?? c.run.path,
            field: 'request.prompt',
            value: `instance ${first.instanceId}, trial ${first.trainTrialIndex}`
        });
        return false;
    }
    return true;
}
function promptsByKey(states) {
    const byKey = new Map();
    for (const s of states) {
        const key = requestKey(s);
        const entry = byKey.get(key);
        if (entry)
            entry.prompts.push(s.promptHash);
        else
            byKey.set(key, { prompts: [s.promptHash], state: s });
    }
    for (const entry of byKey.values())
        entry.prompts.sort();
    return byKey;
}
function samePrompts(a, b) {
    return a.length === b.length && a.every((hash, i) => hash === b[i]);
}
/**
 * The two sides must be the same evidence from two deployments. A file reached from both sides
 * (a symlink, a hard link, the same directory given twice) compares a run with itself and would
 * pass any change, so it is an error; an identical scenario_state.json from two runs cannot
 * happen with real request times, so it is at least suspicious.
 */
function checkSameEvidence$1(run, b, c, log) {
    const byIdentity = new Map(b.filesRead.map(f => [f.identity, f]));
    const byReal = new Map(b.filesRead.map(f => [f.real, f]));
    const shared = c.filesRead.flatMap(f => {
        const same = byIdentity.get(f.identity) ?? byReal.get(f.real);
        return same ? [{ baseline: same.path, candidate: f.path, real: f.real }] : [];
    });
    const ok = shared.length === 0;
    if (!ok) {
        log.error('sides.same_file', `run ${run}: the baseline and the candidate read the same file${shared.length > 1 ? ` (${shared.length} files)` : ''}, ${shared[0].real}, so the comparison would compare a run with itself`, { file: shared[0].candidate, value: { baseline: shared[0].baseline, candidate: shared[0].candidate } });
    }
    if (ok && b.scenarioStateDigest !== null && b.scenarioStateDigest === c.scenarioStateDigest) {
        // Without request times (HELM 0.2.x as FlexLLMGen writes it) a deterministic model's two runs
        // are the same bytes; helm_0_2.no_request_times says so, and this warning still shows it.
        const why = noRequestTimes(b)
            ? 'the runs record no request times, so two runs of a deterministic model look like this, and so does one run copied to both sides'
            : 'two real runs always differ in their request times, so this is probably one run copied to both sides';
        log.warn('sides.same_content', `run ${run}: scenario_state.json is byte for byte the same on both sides (sha256 ${b.scenarioStateDigest.slice(0, 16)}); ${why}`, { file: c.scenarioStateFile ?? c.run.path, field: 'scenario_state.json' });
    }
    return ok;
}
/**
 * Checked after the request-state guards, so that a damaged scenario_state.json is reported as
 * what it is first.
 */
function checkOwnScores(run, b, c, log) {
    // Scores byte for byte equal while the answers differ: one side's scores were copied over the
    // other's (every real run also records its own request times in per_instance_stats.json).
    if (b.perInstanceStatsDigest === c.perInstanceStatsDigest && b.scenarioStateDigest !== c.scenarioStateDigest) {
        log.error('sides.same_scores', `run ${run}: per_instance_stats.json is byte for byte the same on both sides (sha256 ${b.perInstanceStatsDigest.slice(0, 16)}) while the answers in scenario_state.json differ, so the scores are not the candidate's own`, { file: c.perInstanceStatsFile, field: 'per_instance_stats.json' });
        return false;
    }
    return true;
}
/**
 * The decoding settings HELM 0.5.16's adapter puts into every request of a run, by adapter
 * method (adaptation/adapters/*.py); null for methods whose requests are not checked against the
 * adapter spec (they are still compared between the sides).
 */
function expectedDecoding(adapter) {
    const method = typeof adapter.method === 'string' ? adapter.method : '';
    const spec = (field) => adapter[field];
    if (method.startsWith('multiple_choice_separate') || method === 'multiple_choice_calibrated') {
        return { temperature: 0, max_tokens: 0, stop_sequences: [], num_completions: 1, echo_prompt: true, top_p: 1 };
    }
    if (method === 'language_modeling') {
        return {
            temperature: 0,
            max_tokens: spec('max_tokens'),
            stop_sequences: spec('stop_sequences'),
            num_completions: 1,
            echo_prompt: true,
            top_p: 1
        };
    }
    if (method.startsWith('multiple_choice_joint')) {
        return {
            temperature: spec('temperature'),
            max_tokens: spec('max_tokens'),
            // stop_sequences is [] in HELM 0.5, the adapter's in 0.2.x: compared between the sides only.
            num_completions: 1,
            echo_prompt: false,
            top_p: 1
        };
    }
    if (method === 'generation' || method === 'chat' || method === 'binary_ranking') {
        return {
            temperature: spec('temperature'),
            max_tokens: spec('max_tokens'),
            stop_sequences: spec('stop_sequences'),
            num_completions: spec('num_outputs'),
            echo_prompt: false,
            top_p: 1
        };
    }
    return null;
}
/**
 * Requests are compared field by field, between the sides and against the adapter spec: a
 * client, plugin or hand edit that sends another temperature or token budget changes the
 * answers while run_spec.json still looks identical.
 */
function checkDecoding(run, b, c, log) {
    let ok = true;
    for (const [side, data] of [
        ['baseline', b],
        ['candidate', c]
    ]) {
        const expected = expectedDecoding(data.run.runSpec.adapter_spec ?? {});
        if (!expected || data.requestStates === null)
            continue;
        for (const state of data.requestStates) {
            const field = DECODING_FIELDS.find(f => expected[f] !== undefined && state.decoding[f] !== undefined && canonicalJson(expected[f]) !== canonicalJson(state.decoding[f]));
            if (!field)
                continue;
            const count = data.requestStates.filter(s => s.decoding[field] !== undefined && canonicalJson(s.decoding[field]) !== canonicalJson(expected[field])).length;
            log.error('guard.decoding_drift', `run ${run}: ${count} ${side} requests were sent with ${field} ${canonicalJson(state.decoding[field])} while the adapter spec says ${canonicalJson(expected[field])}, so the answers were decoded differently from what the run claims`, {
                file: data.scenarioStateFile ?? data.run.path,
                field: `request.${field}`,
                value: { adapter_spec: expected[field], request: state.decoding[field], instance: state.instanceId }
            });
            ok = false;
            break;
        }
    }
    if (!ok || b.requestStates === null || c.requestStates === null)
        return ok;
    const baseline = decodingByKey(b.requestStates);
    for (const [key, entry] of decodingByKey(c.requestStates)) {
        const other = baseline.get(key);
        if (!other)
            continue;
        const diff = differingField(other.decodings, entry.decodings);
        if (diff === null)
            continue;
        log.error('guard.decoding_drift', `run ${run}: the two sides sent instance ${entry.state.instanceId} with different ${diff.field}, so the comparison would measure decoding settings, not the model`, {
            file: c.scenarioStateFile ?? c.run.path,
            field: `request.${diff.field}`,
            value: { baseline: diff.baseline, candidate: diff.candidate }
        });
        return false;
    }
    return true;
}
function decodingByKey(states) {
    const byKey = new Map();
    for (const s of states) {
        const key = requestKey(s);
        const entry = byKey.get(key);
        if (entry)
            entry.decodings.push(s.decoding);
        else
            byKey.set(key, { decodings: [s.decoding], state: s });
    }
    return byKey;
}
/** The first decoding field whose values differ between the two lists, with a value from each side. */
function differingField(a, b) {
    for (const field of DECODING_FIELDS) {
        const left = a.map(d => canonicalJson(d[field] ?? null)).sort();
        const right = b.map(d => canonicalJson(d[field] ?? null)).sort();
        const i = left.findIndex((v, k) => v !== right[k]);
        if (i < 0 && left.length === right.length)
            continue;
        const at = i < 0 ? left.length : i;
        const value = (list) => (at < list.length ? JSON.parse(list[at]) : null);
        return { field, baseline: value(left), candidate: value(right) };
    }
    return null;
}

/**
 * Comparing two lm-evaluation-harness output folders (docs/lm-eval.md). Tasks are paired by name,
 * samples by (task, filter, doc_id); the per-sample metric values become the same per-instance
 * values a HELM run gives (instance = doc_id, split = lm-eval's filter), so the same paired
 * statistics, verdicts, flips and changed answers follow (buildComparisons). The guards are HELM's
 * in lm-eval's terms, and each failure is an error, never a pass: task version, n-shot, generation
 * kwargs, filters, the rest of the task config and each sample's prompt must match between the
 * sides; a missing or duplicated sample, a failed request and lm-eval's request cache stop the
 * comparison.
 */
/** Reads both folders and appends the comparisons of every gated task; problems go to `log`. */
async function compareLmEval(baselinePath, candidatePath, config, options, log, comparisons, sides) {
    sides.baseline = await readLmEvalOutput(baselinePath);
    sides.candidate = await readLmEvalOutput(candidatePath);
    const b = sides.baseline;
    const c = sides.candidate;
    if (!(await checkRunSettings(b, c, log)))
        return;
    for (const item of selectTasks(b, c, config, options.defaults, log)) {
        compareTask(item, config.statistics, options, log, comparisons);
    }
}
/** What the report says about one side. */
function lmEvalSideInfo(path, output) {
    return {
        path,
        runs: output ? output.tasks.map(t => t.name) : [],
        deployment: output?.model ?? null,
        helm_version: null
    };
}
/** Settings of the whole lm_eval command that decide every answer or score. */
async function checkRunSettings(b, c, log) {
    let ok = await checkSameEvidence(b, c, log);
    if (b.lmEvalVersion !== c.lmEvalVersion) {
        log.error('lmeval.version_drift', `the two sides ran different lm-eval versions, whose prompts, filters and metrics may differ, so the comparison would measure the harness, not the model`, { file: c.resultsFile, field: 'lm_eval_version', value: { baseline: b.lmEvalVersion, candidate: c.lmEvalVersion } });
        ok = false;
    }
    for (const [side, output] of [
        ['baseline', b],
        ['candidate', c]
    ]) {
        // lm-eval's --use_cache keys its SQLite cache by the request alone, not by the server, so a
        // cached answer may be another deployment's (the same hole as HELM's request cache).
        const cache = output.runConfig['use_cache'];
        if (cache !== null && cache !== undefined && cache !== false && cache !== '') {
            log.error('lmeval.cached', `the ${side} side ran with lm-eval's request cache (--use_cache), which is keyed by the request and not by the server, so its answers may belong to another deployment; run without --use_cache`, { file: output.resultsFile, field: 'config.use_cache', value: cache });
            ok = false;
        }
    }
    // --gen_kwargs on the command line overrides every task's generation kwargs; --limit and the
    // seeds decide which documents and few-shot examples are used.
    for (const field of ['gen_kwargs', 'limit', 'fewshot_seed', 'random_seed', 'numpy_seed']) {
        const vb = b.runConfig[field] ?? null;
        const vc = c.runConfig[field] ?? null;
        if (canonicalJson(vb) === canonicalJson(vc))
            continue;
        log.error(field === 'gen_kwargs' ? 'lmeval.generation_kwargs_drift' : 'lmeval.run_config_drift', `the two sides ran lm_eval with different ${field}, so the comparison would measure configuration, not the model`, { file: c.resultsFile, field: `config.${field}`, value: { baseline: vb, candidate: vc } });
        ok = false;
    }
    for (const field of Object.keys(b.promptSettings)) {
        const vb = b.promptSettings[field];
        const vc = c.promptSettings[field];
        if (canonicalJson(vb) === canonicalJson(vc))
            continue;
        log.error('lmeval.prompt_drift', `the two sides rendered prompts with different ${field}, so the comparison would measure prompt configuration, not the model`, { file: c.resultsFile, field, value: { baseline: vb ?? null, candidate: vc ?? null } });
        ok = false;
    }
    return ok;
}
async function identify(path) {
    try {
        const [real, info] = await Promise.all([realpath(path), stat(path)]);
        return { path, real, identity: `${info.dev}:${info.ino}` };
    }
    catch {
        return null;
    }
}
/**
 * The two sides must be two runs: a file reached from both (the same folder given twice, a
 * symlink, a hard link) compares a run with itself and would pass any change. Identical samples
 * files are only a warning: lm-eval writes no times into them, so two deterministic deployments
 * that answer alike give the same bytes.
 */
async function checkSameEvidence(b, c, log) {
    const files = (o) => [o.resultsFile, ...o.tasks.map(t => t.samplesFile)];
    const [readB, readC] = await Promise.all([Promise.all(files(b).map(identify)), Promise.all(files(c).map(identify))]);
    const known = new Map(readB.filter((f) => f !== null).flatMap(f => [[f.identity, f], [f.real, f]]));
    const shared = readC.filter((f) => f !== null).find(f => known.has(f.identity) || known.has(f.real));
    if (shared) {
        const same = known.get(shared.identity) ?? known.get(shared.real);
        log.error('sides.same_file', `the baseline and the candidate read the same file, ${shared.real}, so the comparison would compare a run with itself`, { file: shared.path, value: { baseline: same.path, candidate: shared.path } });
        return false;
    }
    return true;
}
/** Whether lm-eval task `task` is what gate entry `gated` names: its `match` glob, else its entry exactly. */
function taskMatchesEntry(task, gated) {
    return gated.match !== null ? globMatches(gated.match, task) : gated.entry === task;
}
/** Which task pairs are compared under which gate entry; every one-sided task is reported. */
function selectTasks(b, c, config, defaults, log) {
    const byName = (o) => new Map(o.tasks.map(t => [t.name, t]));
    const tasksB = byName(b);
    const tasksC = byName(c);
    const gatedEntries = config.runs;
    const concerns = (task) => gatedEntries.length === 0 || gatedEntries.some(g => taskMatchesEntry(task, g));
    for (const [side, own, other, output] of [
        ['baseline', tasksB, tasksC, b],
        ['candidate', tasksC, tasksB, c]
    ]) {
        for (const task of own.keys()) {
            if (other.has(task))
                continue;
            const message = `task ${task} exists only on the ${side} side: the gate cannot judge what the other side did not run (the two sides ran different tasks)`;
            if (concerns(task))
                log.error('lmeval.task_one_sided', message, { file: output.resultsFile, field: `configs.${task}` });
            else
                log.warn('lmeval.task_one_sided', `${message} (not in the gate file; ignored)`, { file: output.resultsFile });
        }
    }
    const shared = [...tasksB.keys()].filter(t => tasksC.has(t)).sort();
    const outputs = { baseline: b, candidate: c };
    if (gatedEntries.length === 0) {
        if (!defaults)
            return [];
        return shared.map(task => ({
            baseline: tasksB.get(task),
            candidate: tasksC.get(task),
            gated: { entry: task, match: null, ...defaults },
            outputs
        }));
    }
    const work = [];
    gatedEntries.forEach((gated, i) => {
        const matches = shared.filter(t => taskMatchesEntry(t, gated));
        if (matches.length === 0) {
            const onEither = [...tasksB.keys(), ...tasksC.keys()].some(t => taskMatchesEntry(t, gated));
            // A task on one side only is already an error above.
            if (!onEither) {
                log.error('runs.missing', `no lm-eval task found for gate entry ${gated.entry} on either side`, {
                    file: config.source,
                    field: `runs[${i}].entry`,
                    value: `available: ${[...new Set([...tasksB.keys(), ...tasksC.keys()])].sort().join('; ')}`
                });
            }
            return;
        }
        for (const task of matches)
            work.push({ baseline: tasksB.get(task), candidate: tasksC.get(task), gated, outputs });
    });
    for (const task of shared) {
        if (!gatedEntries.some(g => taskMatchesEntry(task, g))) {
            log.warn('runs.ungated', `task ${task} is on both sides but not in the gate file; not compared`, { file: c.resultsFile });
        }
    }
    return work;
}
/** Task settings compared one by one, each with its own code so the report names what drifted. */
const TASK_FIELDS = [
    { field: 'versions', code: 'lmeval.task_version_drift', what: 'task versions', get: t => t.version },
    { field: 'n-shot', code: 'lmeval.nshot_drift', what: 'numbers of few-shot examples (n-shot)', get: t => t.nShot },
    {
        field: 'generation_kwargs',
        code: 'lmeval.generation_kwargs_drift',
        what: 'generation kwargs',
        get: t => t.config['generation_kwargs'] ?? null
    },
    { field: 'filter_list', code: 'lmeval.filter_drift', what: 'filters', get: t => t.config['filter_list'] ?? null }
];
/**
 * The task's resolved config without what names the deployment: lm-eval copies the model args
 * (base_url, model, ...) into `metadata`; only metadata.version belongs to the task.
 */
function taskConfigRest(t) {
    const rest = {};
    for (const [k, v] of Object.entries(t.config)) {
        if (k === 'generation_kwargs' || k === 'filter_list')
            continue;
        if (k === 'metadata') {
            const meta = v !== null && typeof v === 'object' ? v : {};
            rest[k] = { version: meta['version'] ?? null };
            continue;
        }
        rest[k] = v;
    }
    return rest;
}
function checkTaskSettings(item, log) {
    const { baseline: b, candidate: c } = item;
    const resultsFile = item.outputs.candidate.resultsFile;
    let ok = true;
    for (const f of TASK_FIELDS) {
        const vb = f.get(b);
        const vc = f.get(c);
        if (canonicalJson(vb) === canonicalJson(vc))
            continue;
        log.error(f.code, `task ${b.name}: the two sides used different ${f.what}, so the comparison would measure configuration, not the model`, {
            file: resultsFile,
            field: f.field === 'versions' || f.field === 'n-shot' ? `${f.field}.${b.name}` : `configs.${b.name}.${f.field}`,
            value: { baseline: vb, candidate: vc }
        });
        ok = false;
    }
    const restB = taskConfigRest(b);
    const restC = taskConfigRest(c);
    const differing = [...new Set([...Object.keys(restB), ...Object.keys(restC)])]
        .sort()
        .filter(k => canonicalJson(restB[k] ?? null) !== canonicalJson(restC[k] ?? null));
    if (differing.length > 0) {
        const k = differing[0];
        log.error('lmeval.task_config_drift', `task ${b.name}: the two sides ran different task configs (${differing.join(', ')}), so the comparison would measure configuration, not the model`, { file: resultsFile, field: `configs.${b.name}.${k}`, value: { baseline: restB[k] ?? null, candidate: restC[k] ?? null } });
        ok = false;
    }
    return ok;
}
const sampleKey = (s) => `${s.filter}\u0000${s.docId}`;
/** Per side: no duplicate, every filter over the same documents, as many as the results file says. */
function checkSamplesComplete(side, task, log) {
    const seen = new Map();
    const docsByFilter = new Map();
    for (const s of task.samples) {
        const key = sampleKey(s);
        const earlier = seen.get(key);
        if (earlier) {
            log.error('lmeval.duplicate_sample', `task ${task.name}: the ${side} side logs doc_id ${s.docId} under filter ${s.filter} twice (lines ${earlier.line} and ${s.line}), so its value is ambiguous; lm-eval appends to a samples file, so two runs may share one`, { file: task.samplesFile, field: `line ${s.line}`, value: { doc_id: s.docId, filter: s.filter } });
            return false;
        }
        seen.set(key, s);
        let docs = docsByFilter.get(s.filter);
        if (!docs)
            docsByFilter.set(s.filter, (docs = new Set()));
        docs.add(s.docId);
    }
    if (task.samples.length === 0) {
        log.error('lmeval.missing_samples', `task ${task.name}: the ${side} side's samples file is empty`, { file: task.samplesFile });
        return false;
    }
    const expected = task.effectiveSamples;
    for (const [filter, docs] of docsByFilter) {
        if (expected !== null && docs.size !== expected) {
            log.error('lmeval.missing_samples', `task ${task.name}: the ${side} side logs ${docs.size} documents under filter ${filter} while its results file says ${expected} were evaluated, so samples are missing (a cut or edited samples file)`, { file: task.samplesFile, field: `filter ${filter}`, value: { logged: docs.size, evaluated: expected } });
            return false;
        }
    }
    const filters = [...docsByFilter.keys()].sort();
    const first = docsByFilter.get(filters[0]);
    for (const filter of filters.slice(1)) {
        const docs = docsByFilter.get(filter);
        const lacking = [...first].find(d => !docs.has(d)) ?? [...docs].find(d => !first.has(d));
        if (lacking !== undefined) {
            log.error('lmeval.missing_samples', `task ${task.name}: on the ${side} side doc_id ${lacking} is logged under one filter but not under another, so samples are missing`, { file: task.samplesFile, field: `filter ${filter}`, value: { doc_id: lacking } });
            return false;
        }
    }
    return true;
}
/** Both sides must hold the same (filter, doc_id) samples, with the same prompt and kwargs each. */
function checkSamplesPaired(item, log) {
    const { baseline: b, candidate: c } = item;
    const byKeyB = new Map(b.samples.map(s => [sampleKey(s), s]));
    const byKeyC = new Map(c.samples.map(s => [sampleKey(s), s]));
    for (const [side, own, other, task] of [
        ['candidate', byKeyB, byKeyC, c],
        ['baseline', byKeyC, byKeyB, b]
    ]) {
        const missing = [...own.values()].filter(s => !other.has(sampleKey(s)));
        if (missing.length === 0)
            continue;
        log.error('lmeval.missing_samples', `task ${b.name}: ${missing.length} samples of the other side are missing on the ${side} side (first: doc_id ${missing[0].docId}, filter ${missing[0].filter}); documents missing on one side are rarely missing at random, so the gate does not compare the rest`, { file: task.samplesFile, field: 'doc_id', value: { doc_id: missing[0].docId, filter: missing[0].filter } });
        return false;
    }
    let promptDrift = null;
    let kwargsDrift = null;
    let prompts = 0;
    let kwargs = 0;
    for (const [key, sc] of byKeyC) {
        const sb = byKeyB.get(key);
        if (sb.promptHash !== sc.promptHash) {
            prompts++;
            promptDrift ??= sc;
        }
        if (sb.genKwargsHash !== sc.genKwargsHash) {
            kwargs++;
            kwargsDrift ??= [sb, sc];
        }
    }
    if (promptDrift) {
        const s = promptDrift;
        log.error('lmeval.prompt_drift', `task ${b.name}: ${prompts} samples were sent with different prompts on the two sides (first: doc_id ${s.docId}), so the comparison would measure prompt configuration, not the model`, { file: c.samplesFile, field: `line ${s.line}: arguments`, value: { doc_id: s.docId, filter: s.filter } });
        return false;
    }
    if (kwargsDrift) {
        const [sb, sc] = kwargsDrift;
        log.error('lmeval.generation_kwargs_drift', `task ${b.name}: ${kwargs} samples were sent with different generation kwargs on the two sides (first: doc_id ${sc.docId}), so the answers were decoded differently`, {
            file: c.samplesFile,
            field: `line ${sc.line}: arguments.gen_args_0.arg_1`,
            value: { baseline: sb.genKwargs, candidate: sc.genKwargs }
        });
        return false;
    }
    return true;
}
function checkFailures(side, task, log) {
    const failed = task.samples.filter(s => s.failure !== null);
    if (failed.length === 0)
        return true;
    const docs = new Set(failed.map(s => s.docId));
    log.error('lmeval.failed_requests', `task ${task.name}: ${docs.size} ${side} documents have no real answer (${failed[0].failure}; first: doc_id ${failed[0].docId}), so their scores are not the model's answers`, { file: task.samplesFile, field: `line ${failed[0].line}: resps`, value: { doc_id: failed[0].docId } });
    return false;
}
/**
 * A metric that is not a number per sample (bleu, chrf, ter and the perplexities log the inputs
 * of a corpus-level score) cannot be paired per instance.
 */
function checkPerSampleMetric(side, task, metric, log) {
    const listed = task.samples.filter(s => s.metrics.has(metric));
    if (listed.length === 0)
        return true; // guard.metric_missing names the available metrics
    const notNumber = listed.find(s => s.metrics.get(metric) === null);
    if (!notNumber)
        return true;
    log.error('lmeval.metric_not_per_sample', `task ${task.name}: ${metric} on the ${side} side is not a number for doc_id ${notNumber.docId}; lm-eval logs the inputs of corpus-level metrics (bleu, chrf, ter, perplexity) per sample, not a score, so they cannot be paired per instance`, { file: task.samplesFile, field: `line ${notNumber.line}: ${metric}` });
    return false;
}
function compareTask(item, statistics, options, log, comparisons) {
    const { baseline: b, candidate: c, gated } = item;
    if (!checkTaskSettings(item, log))
        return;
    let ok = checkSamplesComplete('baseline', b, log);
    ok = checkSamplesComplete('candidate', c, log) && ok;
    if (!ok)
        return;
    ok = checkFailures('baseline', b, log);
    ok = checkFailures('candidate', c, log) && ok;
    if (!ok || !checkSamplesPaired(item, log))
        return;
    ok = checkPerSampleMetric('baseline', b, gated.metric, log);
    ok = checkPerSampleMetric('candidate', c, gated.metric, log) && ok;
    if (!ok)
        return;
    if (b.samplesDigest === c.samplesDigest) {
        log.warn('sides.same_content', `task ${b.name}: the samples file is byte for byte the same on both sides (sha256 ${b.samplesDigest.slice(0, 16)}); the deployments answered every document alike, or one run was copied to both sides`, { file: c.samplesFile });
    }
    const dataB = asRunData(b);
    const dataC = asRunData(c);
    const built = buildComparisons(b.name, gated, dataB, dataC, statistics, options.changedAnswers ? Number.MAX_SAFE_INTEGER : options.examples, log);
    fillTexts(b, c, built);
    if (options.changedAnswers) {
        for (const cmp of built) {
            options.changedAnswers.set(cmp.id, cmp.examples);
            cmp.examples = cmp.examples.slice(0, options.examples);
        }
    }
    comparisons.push(...built);
}
/**
 * One task as the run data the HELM comparison reads: doc_id is the instance (one trial, no
 * perturbation), the filter is the split, and each document is one answered request. The request
 * guards of a HELM run (cache, failures, prompt drift) were already applied in lm-eval's terms.
 */
function asRunData(task) {
    const run = {
        path: task.samplesFile,
        runSpec: { name: task.name, scenario_spec: { class_name: 'lm-eval', args: { task: task.name } }, adapter_spec: {}, metric_specs: [] },
        scenarioName: task.name,
        files: { runSpec: true, scenario: true, scenarioState: true, stats: true, perInstanceStats: true }
    };
    const perDoc = new Map();
    for (const s of task.samples)
        if (!perDoc.has(s.docId))
            perDoc.set(s.docId, s);
    const requestStates = [...perDoc.values()].map(s => ({
        instanceId: String(s.docId),
        trainTrialIndex: 0,
        perturbation: null,
        referenceIndex: null,
        cached: false,
        success: true,
        error: null,
        promptHash: s.promptHash.slice(0, 24),
        decoding: {},
        answered: s.failure === null,
        inputExcerpt: s.inputExcerpt,
        referenceExcerpt: s.referenceExcerpt,
        outputExcerpt: s.outputExcerpt,
        requestTime: null
    }));
    const names = [...new Set(task.samples.flatMap(s => [...s.metrics.keys()]))].sort();
    const values = (metric, split) => task.samples
        .filter(s => s.filter === split && s.metrics.has(metric))
        .map(s => {
        const v = s.metrics.get(metric) ?? null;
        return { instanceId: String(s.docId), trainTrialIndex: 0, perturbation: null, value: v, raw: v, occurrences: 1 };
    });
    return {
        run,
        perInstanceStatsFile: task.samplesFile,
        scenarioStateFile: task.samplesFile,
        requestStates,
        hasTexts: true,
        scenarioStateDigest: task.samplesDigest,
        perInstanceStatsDigest: task.samplesDigest,
        filesRead: [],
        metricNames: () => names,
        splits: metric => [...new Set(task.samples.filter(s => s.metrics.has(metric)).map(s => s.filter))].sort(),
        values,
        runtimes: () => []
    };
}
/** The changed answers' texts: the question, the target and each side's response under the comparison's filter. */
function fillTexts(b, c, built) {
    const index = (t) => new Map(t.samples.map(s => [sampleKey(s), s]));
    const byB = index(b);
    const byC = index(c);
    fillExampleTexts(built, (cmp, e) => sampleKey({ filter: cmp.split ?? '', docId: Number(e.instance_id) }), byB, byC);
}

const EFFICIENCY_NOTE = 'Request times are how long the HELM process waited for each answer, not time-to-first-token under load; the ratios are information only and never gate.';
async function compareOutputs(baselinePath, candidatePath, config, options = {}) {
    const log = new IssueLog();
    for (const error of options.priorErrors ?? [])
        log.fromError(error);
    const comparisons = [];
    const efficiency = [];
    const sides = { baseline: [], candidate: [] };
    let lmEval = null;
    try {
        if (resolve$1(baselinePath) === resolve$1(candidatePath)) {
            log.warn('sides.same_path', `baseline and candidate are the same output (${resolve$1(baselinePath)}): this compares a run with itself`);
        }
        if ((await sidesKind(baselinePath, candidatePath)) === 'lm-eval') {
            lmEval = { baseline: null, candidate: null };
            await compareLmEval(baselinePath, candidatePath, config, { defaults: options.defaults ?? null, examples: options.examples ?? 3, changedAnswers: options.changedAnswers }, log, comparisons, lmEval);
        }
        else {
            sides.baseline = await discoverHelmRuns(baselinePath);
            sides.candidate = await discoverHelmRuns(candidatePath);
            const work = selectWork(sides.baseline, sides.candidate, config, options.defaults ?? null, log);
            if (work.length > 0)
                prewarmRatioWorker();
            for (const item of work) {
                await compareRun(item, config, options.examples ?? 3, log, comparisons, efficiency, options.changedAnswers);
            }
        }
    }
    catch (error) {
        if (!(error instanceof GateError))
            throw error;
        log.fromError(error);
    }
    const verdict = overallVerdict(comparisons, log);
    return newReport(config.statistics, {
        verdict,
        headline: headline(verdict, comparisons, log),
        errors: log.errors,
        warnings: log.warnings,
        baseline: lmEval ? lmEvalSideInfo(baselinePath, lmEval.baseline) : sideInfo(baselinePath, sides.baseline),
        candidate: lmEval ? lmEvalSideInfo(candidatePath, lmEval.candidate) : sideInfo(candidatePath, sides.candidate),
        comparisons,
        efficiency,
        notes: efficiency.length > 0 ? [EFFICIENCY_NOTE] : []
    });
}
async function isDirectory(path) {
    try {
        return (await stat(path)).isDirectory();
    }
    catch {
        return false;
    }
}
/**
 * Which reader both sides get: lm-eval output is recognised by its files (results_<date>.json,
 * samples_<task>_<date>.jsonl), everything else is read as HELM output, whose reader reports a
 * missing path. Two kinds cannot be compared: their prompts, metrics and scoring differ.
 */
async function sidesKind(baselinePath, candidatePath) {
    const kind = async (path) => !(await isDirectory(path)) ? null : (await looksLikeLmEvalOutput(path)) ? 'lm-eval' : 'helm';
    const [b, c] = await Promise.all([kind(baselinePath), kind(candidatePath)]);
    if (b !== null && c !== null && b !== c) {
        // A folder with neither kind of output is named as such, not as the other harness's.
        await discoverHelmRuns(b === 'helm' ? baselinePath : candidatePath);
        throw new InputError('sides.different_kinds', `the baseline is ${b === 'helm' ? 'HELM' : 'lm-eval'} output and the candidate ${c === 'helm' ? 'HELM' : 'lm-eval'} output; both sides must come from the same harness, whose prompts and metrics differ`, { file: c === 'lm-eval' ? candidatePath : baselinePath, value: { baseline: b, candidate: c } });
    }
    return b === 'lm-eval' || c === 'lm-eval' ? 'lm-eval' : 'helm';
}
/** discoverRuns, with a folder that holds neither HELM nor lm-eval output named as such. */
async function discoverHelmRuns(path) {
    try {
        return await discoverRuns(path);
    }
    catch (error) {
        if (!(error instanceof InputError) || error.code !== 'input.no_runs')
            throw error;
        throw new InputError('input.no_runs', `${resolve$1(path)} is neither HELM output (no <output>/runs/<suite>/<run>/run_spec.json) nor lm-eval output (no results_<date>.json or samples_<task>_<date>.jsonl in it or one folder below)`, error.location);
    }
}
/** Decides which run pairs are compared under which gate entry, reporting everything unpaired. */
function selectWork(baseline, candidate, config, defaults, log) {
    const pairing = pairRuns(baseline, candidate);
    for (const dup of pairing.duplicates) {
        log.error('runs.ambiguous', `the ${dup.side} side has ${dup.runs.length} runs of the same scenario and augmentation; give one suite per side`, { file: dup.runs[0].path, value: dup.runs.map(r => r.runSpec.name) });
    }
    const gatedEntries = config.runs;
    const concerns = (run) => gatedEntries.length === 0 || gatedEntries.some(g => runMatchesEntry(run, g));
    for (const [side, runs] of [
        ['baseline', pairing.onlyBaseline],
        ['candidate', pairing.onlyCandidate]
    ]) {
        for (const run of runs) {
            const other = side === 'baseline' ? 'candidate' : 'baseline';
            const message = `run ${displayName(run.runSpec)} exists only on the ${side} side: the gate cannot judge what the ${other} did not run`;
            if (concerns(run))
                log.error('runs.one_sided', message, { file: run.path });
            else
                log.warn('runs.one_sided', `${message} (not in the gate file; ignored)`, { file: run.path });
        }
    }
    if (gatedEntries.length === 0) {
        if (!defaults)
            return [];
        return pairing.pairs.map(pair => ({
            pair,
            gated: { entry: displayName(pair.baseline.runSpec), match: null, ...defaults }
        }));
    }
    const work = [];
    gatedEntries.forEach((gated, i) => {
        const matches = pairing.pairs.filter(p => runMatchesEntry(p.baseline, gated));
        if (matches.length === 1) {
            work.push({ pair: matches[0], gated });
            return;
        }
        const found = [...baseline, ...candidate].filter(r => runMatchesEntry(r, gated));
        if (matches.length === 0 && found.length === 0) {
            const available = [...new Set([...baseline, ...candidate].map(r => displayName(r.runSpec)))].sort();
            log.error('runs.missing', `no run found for gate entry ${gated.entry} on either side`, {
                file: config.source,
                field: `runs[${i}].entry`,
                value: available.length ? `available: ${available.join('; ')}` : 'no runs at all'
            });
        }
        else if (matches.length > 1) {
            log.error('runs.ambiguous', `gate entry ${gated.entry} matches ${matches.length} runs; set runs[${i}].match`, {
                file: config.source,
                field: `runs[${i}].entry`,
                value: matches.map(m => displayName(m.baseline.runSpec))
            });
        }
    });
    for (const run of [...pairing.pairs.map(p => p.baseline)]) {
        if (!gatedEntries.some(g => runMatchesEntry(run, g))) {
            log.warn('runs.ungated', `run ${displayName(run.runSpec)} is on both sides but not in the gate file; not compared`, {
                file: run.path
            });
        }
    }
    return work;
}
async function compareRun(item, config, examples, log, comparisons, efficiency, changedAnswers) {
    const { pair, gated } = item;
    const name = displayName(pair.baseline.runSpec);
    // Checked first: across HELM generations every other field may differ for that reason alone.
    if (!checkSameLayout(name, pair, log))
        return;
    const drift = adapterDrift(pair.baseline.runSpec, pair.candidate.runSpec);
    for (const d of drift) {
        log.error('guard.adapter_drift', `run ${name}: the two sides used different ${d.field}, so the comparison would measure configuration, not the model`, {
            file: pair.candidate.path,
            field: d.field,
            value: { baseline: d.baseline, candidate: d.candidate }
        });
    }
    const scoring = scoringDrift(pair.baseline.runSpec, pair.candidate.runSpec);
    for (const d of scoring) {
        log.error('guard.scoring_drift', `run ${name}: the two sides were scored with different ${d.field}, so the comparison would measure the scoring, not the model`, {
            file: pair.candidate.path,
            field: `${d.field}[${d.index ?? 0}]`,
            value: { baseline: d.baseline, candidate: d.candidate }
        });
    }
    if (drift.length > 0 || scoring.length > 0)
        return;
    const [b, c] = await Promise.all([loadRunData(pair.baseline), loadRunData(pair.candidate)]);
    warnUnsupportedGuards(name, b, c, log);
    if (!checkSameEvidence$1(name, b, c, log))
        return;
    if (!checkRequestStates(name, b, c, log))
        return;
    // Started before the gated comparisons so that its bootstrap overlaps theirs (see efficiencyFor).
    const efficiencyTask = efficiencyFor(name, b, c, config.statistics);
    // Settled here too, so that a return before it is awaited leaves no unhandled rejection.
    efficiencyTask.catch(() => undefined);
    const errorsBefore = log.errors.length;
    // For report.html every changed answer is read (texts are bounded excerpts; a run with more
    // request states than TEXT_KEEP_LIMIT is streamed again, never held whole), then the report
    // keeps the first `examples`.
    const built = buildComparisons(name, gated, b, c, config.statistics, changedAnswers ? Number.MAX_SAFE_INTEGER : examples, log);
    // Copied scores are reported only when nothing more specific was found.
    if (log.errors.length === errorsBefore && !checkOwnScores(name, b, c, log))
        return;
    await fillHelmExampleTexts(b, c, built);
    if (changedAnswers) {
        for (const cmp of built) {
            changedAnswers.set(cmp.id, cmp.examples);
            cmp.examples = cmp.examples.slice(0, examples);
        }
    }
    comparisons.push(...built);
    // Request times are information only: a problem with them is a warning, never a gate error.
    try {
        const eff = await efficiencyTask;
        if (eff)
            efficiency.push(eff);
    }
    catch (error) {
        if (!(error instanceof GateError))
            throw error;
        log.warn('efficiency.skipped', `run ${name}: request-time ratios not computed: ${error.message}`);
    }
}
async function fillHelmExampleTexts(baseline, candidate, built) {
    const keyOf = (cmp, e) => exampleKey({ instanceId: e.instance_id, trainTrialIndex: e.train_trial_index, perturbation: cmp.perturbation });
    const wanted = new Set(built.flatMap(cmp => cmp.examples.map(e => keyOf(cmp, e))));
    if (wanted.size === 0)
        return;
    const [b, c] = await Promise.all([loadExampleTexts(baseline, wanted), loadExampleTexts(candidate, wanted)]);
    fillExampleTexts(built, keyOf, b, c);
}
function overallVerdict(comparisons, log) {
    if (log.errors.length > 0)
        return 'error';
    const gated = comparisons.filter(c => c.gated);
    if (gated.length === 0) {
        log.error('gate.empty', 'nothing was gated: no comparison was made, so nothing can pass');
        return 'error';
    }
    if (gated.some(c => c.verdict === 'fail'))
        return 'fail';
    if (gated.some(c => c.verdict === 'inconclusive'))
        return 'inconclusive';
    return 'pass';
}
function headline(verdict, comparisons, log) {
    return qualityHeadline(verdict, comparisons, log.errors.length);
}
/** The quality half's verdict from its comparisons and errors (also after the traffic rows join them). */
function qualityVerdict(comparisons, errorCount) {
    if (errorCount > 0)
        return 'error';
    const gated = comparisons.filter(c => c.gated);
    if (gated.length === 0)
        return 'error';
    if (gated.some(c => c.verdict === 'fail'))
        return 'fail';
    if (gated.some(c => c.verdict === 'inconclusive'))
        return 'inconclusive';
    return 'pass';
}
/** The headline of a quality verdict. */
function qualityHeadline(verdict, comparisons, errorCount) {
    const gated = comparisons.filter(c => c.gated);
    const count = (v) => gated.filter(c => c.verdict === v).length;
    switch (verdict) {
        case 'pass':
            return `The candidate is not meaningfully worse: all ${gated.length} gated comparisons pass.`;
        case 'fail':
            return `The candidate regressed beyond the tolerated drop in ${count('fail')} of ${gated.length} gated comparisons.`;
        case 'inconclusive':
            return `Not enough evidence: ${count('inconclusive')} of ${gated.length} gated comparisons are inconclusive; more instances are needed, not a looser threshold.`;
        case 'error':
            return `The gate could not make a sound comparison (${errorCount} error${errorCount === 1 ? '' : 's'}); nothing passes until it can.`;
    }
}
function sideInfo(path, runs) {
    const deployments = [
        ...new Set(runs.map(r => String(r.runSpec.adapter_spec?.['model_deployment'] || r.runSpec.adapter_spec?.['model'] || '')))
    ].filter(Boolean);
    return {
        path,
        runs: runs.map(r => r.runSpec.name).sort(),
        deployment: deployments.length === 1 ? deployments[0] : deployments.length ? deployments.join(', ') : null,
        helm_version: null
    };
}

/**
 * A small, strict argument parser: `--name value`, `--name=value`, boolean flags and
 * positionals. Unknown options are usage errors (exit 2), never ignored: a mistyped
 * `--max-drop` must not leave the gate on a default.
 */
function parseArgs(argv, specs) {
    const parsed = { positionals: [], options: new Map(), flags: new Set() };
    for (let i = 0; i < argv.length; i++) {
        const arg = argv[i];
        if (arg === '--') {
            parsed.positionals.push(...argv.slice(i + 1));
            break;
        }
        if (!arg.startsWith('--') || arg === '-') {
            if (arg.startsWith('-') && arg !== '-')
                throw new UsageError('usage.option', `unknown option ${arg}`, { value: arg });
            parsed.positionals.push(arg);
            continue;
        }
        const eq = arg.indexOf('=');
        const name = arg.slice(2, eq < 0 ? undefined : eq);
        const spec = specs[name];
        if (!spec)
            throw new UsageError('usage.option', `unknown option --${name}`, { value: arg });
        if (!spec.value) {
            if (eq >= 0)
                throw new UsageError('usage.option', `--${name} takes no value`, { value: arg });
            parsed.flags.add(name);
            continue;
        }
        let value;
        if (eq >= 0)
            value = arg.slice(eq + 1);
        else
            value = argv[++i];
        if (value === undefined || (eq < 0 && value.startsWith('--'))) {
            throw new UsageError('usage.option', `--${name} needs a value`);
        }
        if (parsed.options.has(name))
            throw new UsageError('usage.option', `--${name} is given twice`, { value });
        parsed.options.set(name, value);
    }
    return parsed;
}
/** A number option checked against a predicate, or the fallback when absent. */
function numberOption(args, name, check, expect) {
    const raw = args.options.get(name);
    if (raw === undefined)
        return undefined;
    const n = Number(raw);
    if (raw.trim() === '' || !Number.isFinite(n) || !check(n)) {
        throw new UsageError('usage.value', `--${name} must be ${expect}`, { field: `--${name}`, value: raw });
    }
    return n;
}
/** The gate file every command but compare needs; its absence is a usage error with the usage. */
function requiredConfig(args, usage) {
    const path = args.options.get('config');
    if (!path)
        throw new UsageError('usage.missing', `give the gate file with --config FILE\n\n${usage}`);
    return path;
}

/** GitHub's limits per destination, in characters (UTF-16 units) unless said otherwise. */
const LIMITS = {
    /** The CLI's report.md: a comment body with room for the action's links and marker. */
    markdownFile: 65_000
};
/** CLI exit status: 0 pass, 1 fail or inconclusive, 2 error. */
function exitCode(verdict) {
    if (verdict === 'pass')
        return 0;
    if (verdict === 'error')
        return 2;
    return 1;
}

/**
 * Escaping of untrusted text (model outputs, prompts, dataset text, run names, file paths) for
 * GitHub-flavoured markdown. Every renderer that puts such text into markdown goes through one
 * of the functions here, chosen by the context the text lands in:
 *
 *   - `escapeInline`   markdown text: table cells, list items, paragraphs;
 *   - `escapeHtmlText` inside a raw HTML block (for example `<summary>`), where markdown is not
 *                      parsed, so backslash escapes would show and only entities work;
 *   - `codeSpan`       an inline code span (optionally inside a table cell);
 *   - `codeBlock`      a fenced code block.
 *
 * GitHub turns `@user`, `@org/team`, `#123`, `GH-123`, bare URLs and e-mail addresses into links
 * or notifications by looking at the *text nodes* after markdown and entities are decoded, so a
 * backslash or `&#64;` does not stop a mention. A zero-width joiner right after the trigger
 * character does: the mention and autolink patterns no longer match, and the reader still sees
 * the same text. Code spans and blocks are exempt from mentions and autolinks on GitHub, so
 * their text is left as written: a `file@sha` or an e-mail copied from code must be the real
 * characters, not ones with an invisible joiner that breaks the copy. (The one exception is an
 * HTML comment opener, see neutraliseCommentOpeners.)
 */
const ZWJ = '\u200D';
/**
 * C0 and C1 control characters except tab and newline (carriage returns are normalised first).
 * DEL is included: terminals and some markdown viewers treat it specially.
 */
const CONTROL = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F]/g;
/**
 * Invisible characters that change how text is displayed or compared: bidirectional overrides
 * (a "Trojan source" reordering can make an escaped string look like something else), zero-width
 * spaces, non-joiners and word joiners that could hide inside a word, the byte-order mark, and
 * Unicode tag characters (used to smuggle invisible instructions into text). The zero-width
 * joiner itself is kept: emoji sequences need it and it is harmless.
 */
const INVISIBLE = /[\u061C\u180E\u200B\u200C\u200E\u200F\u202A-\u202E\u2060-\u2064\u2066-\u2069\uFEFF]|[\u{E0000}-\u{E007F}]/gu;
/** A surrogate half without its partner cannot be encoded as UTF-8 (GitHub's API rejects it). */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;
/**
 * The base cleaning every context shares: line endings normalised to `\n` (including the
 * Unicode line and paragraph separators), control and invisible characters removed, lone
 * surrogates replaced. Tabs and newlines are kept; callers decide what they become.
 */
function sanitizeText(text) {
    return text
        .replace(/\r\n?|[\u2028\u2029]/g, '\n')
        .replace(CONTROL, '')
        .replace(INVISIBLE, '')
        .replace(LONE_SURROGATE, '\uFFFD');
}
/**
 * Untrusted texts can be megabytes; when only `maxLength` characters will be shown, drop the
 * rest before the (linear, but not free) cleaning. The slack covers characters cleaning removes.
 */
function roughCut(text, maxLength) {
    if (maxLength === undefined)
        return text;
    const slack = maxLength * 2 + 64;
    return text.length > slack ? text.slice(0, slack) : text;
}
/** Collapse every run of whitespace that contains a line break (and tabs) to one visible mark. */
function toSingleLine(text) {
    return text.replace(/[ \t]*\n[\s]*/g, ' ↵ ').replace(/\t/g, ' ');
}
/**
 * Break what GitHub would turn into a notification or a link, by inserting a zero-width joiner:
 * `@user`, `@org/team` and e-mail addresses (after every `@`), issue references `#123` and
 * `GH-123`, and extended autolinks (`http://`, `https://`, `ftp://`, `www.`).
 */
function neutraliseReferences(text) {
    return text
        .replace(/@/g, `@${ZWJ}`)
        .replace(/#(?=\d)/g, `#${ZWJ}`)
        .replace(/\b(GH)-(?=\d)/gi, `$1${ZWJ}-`)
        .replace(/:\/\//g, `:${ZWJ}//`)
        .replace(/\b(www)\./gi, `$1${ZWJ}.`);
}
/**
 * ASCII punctuation with a meaning somewhere in GitHub-flavoured markdown: emphasis, code,
 * links and images, headings, strikethrough, table cells, math (`$`), footnotes and the escape
 * character itself. CommonMark allows a backslash before any ASCII punctuation, so escaping
 * more than strictly needed is always safe.
 */
const MARKDOWN_PUNCTUATION = /[\\`*_~[\](){}#!|$^]/g;
function escapeHtmlEntities(text) {
    return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}
/**
 * Untrusted text as markdown text on one line (a table cell, a list item, a sentence): no
 * newline, no HTML, no emphasis, link, image, code or cell boundary survives, and no mention or
 * autolink fires. `maxLength` (in characters of the original text) truncates first, with `…`.
 */
function escapeInline(text, maxLength) {
    // Trimmed: four leading spaces at the start of a paragraph would open an indented code block.
    let clean = toSingleLine(sanitizeText(roughCut(text, maxLength)).trim());
    if (maxLength !== undefined)
        clean = truncateText(clean, maxLength);
    const escaped = escapeHtmlEntities(neutraliseReferences(clean)).replace(MARKDOWN_PUNCTUATION, '\\$&');
    // Only the start of the text can start a line: block markers there (a list item, a setext
    // underline) would restructure the list item or paragraph the text is placed in.
    return escaped.replace(/^([-+=])/, '\\$1').replace(/^(\d+)\./, '$1\\.');
}
/**
 * Untrusted text inside a raw HTML block such as `<summary>…</summary>`. Markdown is not parsed
 * there, so backslashes would show and only entities escape; mentions still fire in HTML text,
 * so they are neutralised too. Markdown punctuation also becomes numeric entities: they display
 * the same in HTML and are inert should a renderer parse the line as markdown after all.
 */
function escapeHtmlText(text, maxLength) {
    let clean = toSingleLine(sanitizeText(roughCut(text, maxLength)));
    clean = truncateText(clean, maxLength);
    return escapeHtmlEntities(neutraliseReferences(clean))
        .replace(/"/g, '&quot;')
        .replace(/'/g, '&#39;')
        .replace(MARKDOWN_PUNCTUATION, ch => `&#${ch.charCodeAt(0)};`);
}
/**
 * `<!--` gets a zero-width joiner after `<!`: the sticky comment is found by its marker, an HTML
 * comment, and a body must hold that marker exactly once. Model output quoting the marker (or
 * any HTML comment opener) inside a code span or block would otherwise carry it verbatim; outside
 * code, `<` is already an entity.
 */
function neutraliseCommentOpeners(text) {
    return text.replace(/<!--/g, `<!${ZWJ}--`);
}
function longestBacktickRun(text) {
    let longest = 0;
    for (const run of text.match(/`+/g) ?? [])
        longest = Math.max(longest, run.length);
    return longest;
}
/**
 * Untrusted text as an inline code span on one line. The delimiter is one backtick longer than
 * the longest backtick run inside, so the content cannot end the span. Inside a table cell a `|`
 * must still be escaped even in code (GFM splits cells before it parses inline code).
 */
function codeSpan(text, options = {}) {
    let clean = toSingleLine(sanitizeText(roughCut(text, options.maxLength)));
    if (options.maxLength !== undefined)
        clean = truncateText(clean, options.maxLength);
    if (clean.length === 0)
        return '';
    clean = neutraliseCommentOpeners(clean);
    if (options.inTable)
        clean = clean.replace(/\|/g, '\\|');
    const fence = '`'.repeat(longestBacktickRun(clean) + 1);
    // A span that starts or ends with a backtick (or a space) needs padding; CommonMark strips
    // exactly one space on each side when both are present.
    const pad = /^[`\s]|[`\s]$/.test(clean) ? ' ' : '';
    return `${fence}${pad}${clean}${pad}${fence}`;
}
/**
 * Untrusted text as a fenced code block. The fence is longer than any backtick run in the text,
 * so no line of the content can close it; tilde lines cannot close a backtick fence. Inside a
 * fence there is no HTML, no mention and no autolink, so `</details>` or `<!--` stay literal.
 * `info` is the (trusted) language tag.
 */
function codeBlock(text, info = '') {
    const clean = neutraliseCommentOpeners(sanitizeText(text).replace(/\n+$/, ''));
    const fence = '`'.repeat(Math.max(3, longestBacktickRun(clean) + 1));
    return `${fence}${info}\n${clean}\n${fence}`;
}
/**
 * Shorten to at most `maxLength` UTF-16 units including the `…`, never splitting a surrogate
 * pair.
 */
function truncateText(text, maxLength) {
    if (text.length <= maxLength)
        return text;
    if (maxLength <= 0)
        return '';
    let cut = maxLength - 1;
    if (cut > 0 && /[\uD800-\uDBFF]/.test(text.charAt(cut - 1)))
        cut -= 1;
    return `${text.slice(0, cut)}…`;
}
/**
 * The last `maxLength` units of a text, prefixed with `…`. HELM prompts carry the in-context
 * examples first and the question last, so the tail is the part that tells instances apart.
 */
function tailText(text, maxLength) {
    if (text.length <= maxLength)
        return text;
    if (maxLength <= 0)
        return '';
    let start = text.length - (maxLength - 1);
    if (/[\uDC00-\uDFFF]/.test(text.charAt(start)))
        start += 1;
    return `…${text.slice(start)}`;
}
/**
 * Untrusted text for a terminal: every control character (including ESC, so no ANSI sequence
 * can be injected) and every invisible formatting character is shown as a visible escape.
 */
function escapeTerminal(text) {
    return text
        .replace(/[\u0000-\u001F\u007F-\u009F\u061C\u180E\u200B-\u200F\u202A-\u202E\u2028\u2029\u2060-\u2064\u2066-\u2069\uFEFF]/g, ch => {
        if (ch === '\n')
            return '\\n';
        if (ch === '\r')
            return '\\r';
        if (ch === '\t')
            return '\\t';
        const code = ch.charCodeAt(0);
        return code <= 0xff ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u${code.toString(16).padStart(4, '0')}`;
    })
        .replace(LONE_SURROGATE, '\uFFFD');
}

const WIDTH = 44;
const HEIGHT = 10;
function short(x) {
    if (!Number.isFinite(x))
        return '—';
    if (Math.abs(x) >= 1000)
        return `${(x / 1000).toPrecision(3)}k`;
    const text = x.toPrecision(3);
    return text.includes('.') ? text.replace(/\.?0+$/, '') : text;
}
function loadChart(load) {
    const points = [];
    load.summary.forEach((s, i) => {
        for (const side of ['baseline', 'candidate']) {
            const f = s[side];
            const y = f.ttft_ms.p99;
            if (y === null || !Number.isFinite(f.output_tokens_per_second))
                continue;
            points.push({ x: f.output_tokens_per_second, y, label: `${side === 'baseline' ? 'B' : 'C'}${i + 1}` });
        }
    });
    if (points.length === 0)
        return [];
    const xMax = Math.max(...points.map(p => p.x)) || 1;
    const yMax = Math.max(...points.map(p => p.y)) || 1;
    const grid = Array.from({ length: HEIGHT }, () => Array.from({ length: WIDTH }, () => ' '));
    for (const p of points) {
        const col = Math.min(WIDTH - p.label.length, Math.round((p.x / xMax) * (WIDTH - p.label.length)));
        const row = HEIGHT - 1 - Math.min(HEIGHT - 1, Math.round((p.y / yMax) * (HEIGHT - 1)));
        for (let k = 0; k < p.label.length; k++)
            grid[row][col + k] = p.label[k];
    }
    const yLabel = `${short(yMax)} ms`;
    const pad = Math.max(yLabel.length, 4);
    const lines = ['TTFT p99 (ms) against output tokens/s, per level; B = baseline, C = candidate'];
    grid.forEach((row, r) => {
        const label = r === 0 ? yLabel : r === HEIGHT - 1 ? '0' : '';
        lines.push(`${label.padStart(pad)} |${row.join('').trimEnd()}`);
    });
    lines.push(`${' '.repeat(pad)} +${'-'.repeat(WIDTH)}`);
    lines.push(`${' '.repeat(pad)}  0${`${short(xMax)} tok/s`.padStart(WIDTH - 1)}`);
    const unit = load.mode === 'concurrency' ? 'concurrency' : 'rate';
    lines.push(`levels: ${load.summary.map((s, i) => `${i + 1} = ${unit} ${s.level}${load.mode === 'rate' ? '/s' : ''}`).join(', ')}`);
    return lines;
}

const UNITS = {
    output_tokens_per_second: 'tok/s',
    request_throughput: 'req/s',
    goodput: 'req/s',
    error_rate: ''
};
function loadValue(metric, value) {
    if (value === null || !Number.isFinite(value))
        return '—';
    if (metric === 'error_rate')
        return `${Number((value * 100).toPrecision(3))}%`;
    const unit = UNITS[metric] ?? 'ms';
    const text = Math.abs(value) >= 100 ? value.toFixed(0) : value.toPrecision(3);
    return `${text} ${unit}`;
}
/** `metric ≥ 1.3×`; `name` formats the metric name (a code span in markdown). */
function checkName(c, name = m => m) {
    const op = c.kind === 'min_ratio' || c.kind === 'min' ? '≥' : '≤';
    const bound = c.kind.endsWith('ratio') ? `${c.threshold}×` : loadValue(c.metric, c.threshold);
    return `${name(c.metric)} ${op} ${bound}`;
}
function levelLabel(load, level) {
    return load.mode === 'concurrency' ? `c=${level}` : `${level}/s`;
}
function ratioText(c) {
    if (!c.ratio)
        return '—';
    const f = (x) => x.toFixed(x >= 10 ? 1 : 3);
    return `${f(c.ratio.estimate)}× [${f(c.ratio.low)}, ${f(c.ratio.high)}]`;
}

/** The load half for a terminal: the checks as an aligned table and the throughput/TTFT chart. */
const safe$1 = (text, max) => truncateText(escapeTerminal(text), max);
function renderLoadConsole(load) {
    if (!load)
        return [];
    const out = ['', safe$1(load.headline, 400)];
    if (load.skipped)
        return out;
    if (load.checks.length > 0) {
        const header = ['VERDICT', 'CHECK', 'LEVEL', 'BASELINE', 'CANDIDATE', 'RATIO [INTERVAL]'];
        const rows = load.checks.map(c => [
            c.verdict,
            safe$1(checkName(c), 60),
            levelLabel(load, c.level),
            loadValue(c.metric, c.baseline),
            loadValue(c.metric, c.candidate),
            ratioText(c)
        ]);
        const widths = header.map((h, i) => Math.max(h.length, ...rows.map(r => r[i].length)));
        const line = (cells) => cells
            .map((cell, i) => cell.padEnd(widths[i]))
            .join('  ')
            .trimEnd();
        out.push('', line(header), ...rows.map(line));
    }
    const chart = loadChart(load);
    if (chart.length)
        out.push('', ...chart);
    for (const note of load.notes.slice(0, 10))
        out.push(`  note: ${safe$1(note, 400)}`);
    return out;
}

/**
 * About four significant digits, never more than four decimals: metric values range from 0/1
 * accuracies to BLEU scores and seconds, and a fixed number of decimals would either hide a
 * 0.004 delta or print 31.4159265. Whole numbers print as they are. Non-finite values (which the JSON writes as null) show `—`.
 */
function formatNumber(value) {
    if (!Number.isFinite(value))
        return '—';
    // Whole numbers (0/1 scores, counts) read best without decimals.
    if (Number.isInteger(value) && Math.abs(value) < 1e15)
        return String(value);
    const magnitude = Math.floor(Math.log10(Math.abs(value)));
    const decimals = Math.min(4, Math.max(0, 3 - magnitude));
    const text = value.toFixed(decimals);
    return /^-0(\.0*)?$/.test(text) ? text.slice(1) : text;
}
/** A difference, always signed, so `+0.0100` and `-0.0100` line up and read as changes. */
function formatSigned(value) {
    const text = formatNumber(value);
    return value > 0 && text !== '0' && !/^0\.0*$/.test(text) ? `+${text}` : text;
}
function formatInterval(low, high) {
    return `[${formatSigned(low)}, ${formatSigned(high)}]`;
}
/** `95%` from 0.95; `99.9%` from 0.999. */
function formatLevel(level) {
    if (!Number.isFinite(level))
        return '—';
    return `${Number((level * 100).toFixed(2))}%`;
}
/** `12,345`. Grouped by hand: `toLocaleString` goes through Intl and is slow for thousands of rows. */
function formatCount(value) {
    if (!Number.isFinite(value))
        return '—';
    const digits = String(Math.abs(Math.round(value)));
    const grouped = digits.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
    return value < 0 && Math.round(value) !== 0 ? `-${grouped}` : grouped;
}
/**
 * The drop the gate tolerates, on the delta axis: a higher-is-better metric may fall by at most
 * `max_drop`, a lower-is-better one may rise by at most `max_drop`.
 */
function marginOf(comparison) {
    return comparison.direction === 'lower' ? comparison.max_drop : -comparison.max_drop;
}
const VERDICT_WORD = {
    pass: 'Pass',
    fail: 'Fail',
    inconclusive: 'Inconclusive',
    error: 'Error'
};
const VERDICT_EMOJI = {
    pass: '✅',
    fail: '❌',
    inconclusive: '🟡',
    error: '⛔'
};
/** What a comparison's verdict cell says: ungated comparisons are information only. */
function comparisonVerdictLabel(comparison) {
    return comparison.gated ? comparison.verdict : 'info';
}
/**
 * `12 won, 3 lost` for 0/1 metrics; `12 improved, 3 worsened` for continuous ones. `wins` and
 * `losses` count values that went up and down; for a lower-is-better metric (an error rate)
 * going up is the loss, so the words follow the direction.
 */
function formatFlips(comparison) {
    const lower = comparison.direction === 'lower';
    const better = formatCount(lower ? comparison.losses : comparison.wins);
    const worse = formatCount(lower ? comparison.wins : comparison.losses);
    return comparison.binary ? `${better} won, ${worse} lost` : `${better} improved, ${worse} worsened`;
}

/**
 * The verdict in one line that names what decided it, with the figure: the check run's title, the
 * first line of the job summary and the PR comment, the action's `decision` output and the last
 * line of the console. With a `load:` section the overall verdict is the worse of two halves, and
 * a line that counted only the quality comparisons ("Fail: 2/2 gated passed") contradicted
 * itself whenever the performance half decided. Pure; the callers escape for their medium.
 */
const RANK = { pass: 0, inconclusive: 1, fail: 2, error: 3 };
const MAX_MESSAGE$1 = 160;
function decide(report) {
    const load = report.load;
    if (!load) {
        const detail = qualityCounts(report, report.errors);
        return finish(report.verdict, 'quality', detail);
    }
    // helm-gate load (or run --only load): no quality half at all.
    if (!report.quality)
        return finish(report.verdict, 'performance', performanceText(load, true));
    // The join (src/load/combine.ts) kept the quality half's own verdict and errors. The deciding
    // half comes first and takes its verdict from the line's first word; the other half says its own.
    const { verdict: quality, errors: qualityErrors } = report.quality;
    if (RANK[load.verdict] > RANK[quality]) {
        return finish(report.verdict, 'performance', `${performanceText(load, true)}; ${qualityFigure(report, quality, qualityErrors)}`);
    }
    const decidedBy = RANK[quality] > RANK[load.verdict] ? 'quality' : 'both';
    return finish(report.verdict, decidedBy, `${qualityFigure(report, quality, qualityErrors)}; ${performanceText(load, decidedBy === 'both')}`);
}
function finish(verdict, decidedBy, detail) {
    const line = detail ? `${VERDICT_WORD[verdict]}: ${detail}` : VERDICT_WORD[verdict];
    return { verdict, decidedBy, line: oneLine(line), detail: oneLine(detail) };
}
function oneLine(text) {
    return text.replace(/\s+/g, ' ').trim();
}
/** Without a load half: the counts the title has always shown (`1 error: 2/2 gated passed, …`). */
function qualityCounts(report, errors) {
    const gated = report.comparisons.filter(c => c.gated);
    const count = (verdict) => gated.filter(c => c.verdict === verdict).length;
    const parts = [];
    if (errors.length > 0)
        parts.push(`${formatCount(errors.length)} error${errors.length === 1 ? '' : 's'}`);
    if (gated.length > 0) {
        parts.push(`${formatCount(count('pass'))}/${formatCount(gated.length)} gated passed` +
            (count('fail') > 0 ? `, ${formatCount(count('fail'))} failed` : '') +
            (count('inconclusive') > 0 ? `, ${formatCount(count('inconclusive'))} inconclusive` : ''));
    }
    return parts.join(': ');
}
/** `quality 2/2 passed`, `quality 1/2 failed (run exact_match -0.12, tolerates -0.02)`, `quality (error message)`. */
function qualityFigure(report, verdict, errors) {
    const gated = report.comparisons.filter(c => c.gated);
    const of = (v) => `${formatCount(gated.filter(c => c.verdict === v).length)}/${formatCount(gated.length)}`;
    switch (verdict) {
        case 'pass':
            return `quality ${of('pass')} passed`;
        case 'error':
            // An error always decides, so the line's first word already says it.
            return errors.length > 0 ? `quality (${clip(errors[0].message)}${more(errors.length)})` : 'quality (nothing was gated)';
        case 'fail':
        case 'inconclusive': {
            const open = gated.filter(c => c.verdict === verdict);
            const word = verdict === 'fail' ? 'failed' : 'inconclusive';
            return `quality ${of(verdict)} ${word} (${comparisonFigure(open[0])}${more(open.length)})`;
        }
    }
}
function comparisonFigure(c) {
    const name = [c.run, c.metric, c.split].filter(Boolean).join(' ');
    const figure = `${clip(name, 80)} ${formatSigned(c.delta)}, tolerates ${formatSigned(marginOf(c))}`;
    if (c.verdict !== 'inconclusive')
        return figure;
    return `${figure}; n = ${formatCount(c.n)}${c.n_needed !== null && Number.isFinite(c.n_needed) ? `, about ${formatCount(c.n_needed)} needed` : ''}`;
}
/**
 * `performance 5/5 checks passed`; `performance (output_tokens_per_second 0.610× at c=16, needs ≥ 0.9×)`
 * when it decides, `performance inconclusive (…)` when it does not.
 */
function performanceText(load, deciding) {
    if (load.skipped)
        return 'performance skipped (load.baseline: optional)';
    const checks = load.checks;
    if (load.verdict === 'pass')
        return `performance ${formatCount(checks.length)}/${formatCount(checks.length)} checks passed`;
    const half = deciding ? 'performance' : `performance ${load.verdict}`;
    const open = checks.filter(c => c.verdict === load.verdict);
    if (open.length > 0)
        return `${half} (${checkFigure(load, open[0])}${more(open.length)})`;
    // An error before any check could be evaluated: a side that does not answer, no streaming, ...
    if (load.errors.length > 0)
        return `${half} (${clip(load.errors[0].message)}${more(load.errors.length)})`;
    return `performance ${load.verdict}`;
}
/** The measured figure against its threshold: `output_tokens_per_second 0.610× at c=16, needs ≥ 0.9×`. */
function checkFigure(load, c) {
    const at = `at ${levelLabel(load, c.level)}`;
    const needs = `needs ${checkName(c).slice(c.metric.length + 1)}`;
    if (c.verdict === 'error')
        return `${c.metric} ${at}: ${clip(c.reason)}`;
    if (c.kind === 'min' || c.kind === 'max')
        return `${c.metric} ${loadValue(c.metric, c.candidate)} ${at}, ${needs}`;
    if (!c.ratio)
        return `${c.metric} ${at}: ${clip(c.reason)}`;
    // A failed check's estimate says how far off it is; an inconclusive one needs its interval too.
    const ratio = c.verdict === 'inconclusive' ? ratioText(c) : ratioText(c).split(' [')[0];
    return `${c.metric} ${ratio} ${at}, ${needs}`;
}
function more(count) {
    return count > 1 ? `, and ${formatCount(count - 1)} more` : '';
}
function clip(text, max = MAX_MESSAGE$1) {
    return truncateText(oneLine(text), max);
}

/**
 * The report for a terminal: an aligned table (verdict, delta, interval, n, flips per
 * comparison), then errors and warnings, then the overall verdict as the last line, where a
 * reader's eye lands after a long run. Untrusted text is shown with control characters escaped,
 * so model output cannot move the cursor, clear the screen or fake a verdict with ANSI codes.
 */
const ANSI = {
    green: ['\x1b[32m', '\x1b[39m'],
    red: ['\x1b[31m', '\x1b[39m'],
    yellow: ['\x1b[33m', '\x1b[39m'],
    dim: ['\x1b[2m', '\x1b[22m'],
    bold: ['\x1b[1m', '\x1b[22m']
};
const TONE_OF = {
    pass: 'green',
    fail: 'red',
    error: 'red',
    inconclusive: 'yellow',
    info: 'dim'
};
const MAX_NAME = 60;
const MAX_RUN = 44;
const MAX_MESSAGE = 400;
function painter(color) {
    return (text, tone) => (color ? `${ANSI[tone][0]}${text}${ANSI[tone][1]}` : text);
}
/** One line of untrusted text for the terminal. */
function safe(text, max) {
    return truncateText(escapeTerminal(text), max);
}
/** Only the run name is shortened: metric, split and perturbation are what tell rows apart. */
function comparisonName$1(c) {
    const rest = [c.metric, c.split, c.perturbation ?? 'clean'].filter((p) => p !== null && p !== '');
    return [safe(c.run, MAX_RUN), ...rest.map(p => safe(p, 30))].join(' | ');
}
function flips(c) {
    return c.binary ? `+${formatCount(c.wins)}/-${formatCount(c.losses)}` : `${formatCount(c.wins)}↑/${formatCount(c.losses)}↓`;
}
function issueLine$1(issue) {
    const where = [];
    if (issue.file)
        where.push(`file: ${safe(issue.file, 200)}`);
    if (issue.field)
        where.push(`field: ${safe(issue.field, 120)}`);
    if (issue.value !== undefined && issue.value !== '')
        where.push(`value: ${safe(issue.value, 120)}`);
    const location = where.length ? ` (${where.join(', ')})` : '';
    return `${safe(issue.code, 80)}: ${safe(issue.message, MAX_MESSAGE)}${location}`;
}
function renderConsole(report, options) {
    const paint = painter(options.color);
    const out = [];
    out.push(`helm-gate ${safe(report.tool.version, 40)}: baseline ${safe(report.baseline.path, 120)} vs candidate ${safe(report.candidate.path, 120)}`);
    if (report.comparisons.length > 0) {
        const header = ['VERDICT', 'COMPARISON', 'N', 'DELTA', `${formatLevel(report.settings.confidence)} INTERVAL`, 'MARGIN', 'FLIPS'];
        const rows = report.comparisons.map(c => [
            comparisonVerdictLabel(c),
            comparisonName$1(c),
            formatCount(c.n),
            formatSigned(c.delta),
            formatInterval(c.ci.low, c.ci.high),
            formatSigned(c.direction === 'lower' ? c.max_drop : -c.max_drop),
            flips(c)
        ]);
        const widths = header.map((h, i) => Math.max(h.length, ...rows.map(r => r[i].length)));
        const rightAligned = new Set([2, 3, 5]);
        const pad = (cells) => cells.map((cell, i) => (rightAligned.has(i) ? cell.padStart(widths[i]) : cell.padEnd(widths[i])));
        out.push('', paint(pad(header).join('  ').trimEnd(), 'bold'));
        rows.forEach((cells, i) => {
            const padded = pad(cells);
            // Colour after padding: escape codes have length but no width.
            padded[0] = paint(padded[0], TONE_OF[comparisonVerdictLabel(report.comparisons[i])]);
            out.push(padded.join('  ').trimEnd());
        });
    }
    else {
        out.push('', 'No comparisons.');
    }
    if (report.efficiency.length > 0) {
        out.push('', paint('Efficiency (information only, not gated): candidate/baseline ratio of request time', 'bold'));
        for (const e of report.efficiency) {
            out.push(`  ${safe(e.run, MAX_NAME)} | ${safe(e.metric, 40)}: median ${formatNumber(e.median_ratio.estimate)}x ` +
                `[${formatNumber(e.median_ratio.low)}, ${formatNumber(e.median_ratio.high)}], p90 ${formatNumber(e.p90_ratio.estimate)}x ` +
                `[${formatNumber(e.p90_ratio.low)}, ${formatNumber(e.p90_ratio.high)}] (n = ${formatCount(e.n)})`);
        }
    }
    for (const note of report.notes)
        out.push(`  note: ${safe(note, MAX_MESSAGE)}`);
    out.push(...renderLoadConsole(report.load));
    if (report.errors.length > 0) {
        out.push('', paint(`Errors (${formatCount(report.errors.length)}):`, 'red'));
        for (const issue of report.errors)
            out.push(`  ${paint('x', 'red')} ${issueLine$1(issue)}`);
    }
    if (report.warnings.length > 0) {
        out.push('', paint(`Warnings (${formatCount(report.warnings.length)}):`, 'yellow'));
        for (const issue of report.warnings)
            out.push(`  ${paint('!', 'yellow')} ${issueLine$1(issue)}`);
    }
    const verdict = paint(VERDICT_WORD[report.verdict].toUpperCase(), TONE_OF[report.verdict]);
    // With two halves the last line names the one that decided and its figure (report/decision.ts).
    const why = report.load ? decide(report).detail : report.headline;
    out.push('', `${paint('Overall:', 'bold')} ${verdict}: ${safe(why, MAX_MESSAGE)}`);
    return `${out.join('\n')}\n`;
}

const INTERVAL = { keys: ['estimate', 'low', 'high'] };
const ISSUE = { keys: ['code', 'message', 'file', 'field', 'value'] };
const SIDE = { keys: ['path', 'runs', 'deployment', 'helm_version'] };
const EXAMPLE = {
    keys: [
        'instance_id',
        'train_trial_index',
        'input',
        'reference',
        'baseline_output',
        'candidate_output',
        'baseline_value',
        'candidate_value'
    ]
};
const COMPARISON = {
    keys: [
        'id',
        'run',
        'entry',
        'metric',
        'split',
        'perturbation',
        'gated',
        'direction',
        'binary',
        'n',
        'pairs',
        'unmatched',
        'dropped',
        'baseline_mean',
        'candidate_mean',
        'delta',
        'ci',
        'wins',
        'losses',
        'unchanged',
        'p_value',
        'max_drop',
        'max_relative_drop',
        'verdict',
        'n_needed',
        'reason',
        'examples'
    ],
    children: {
        unmatched: { keys: ['baseline', 'candidate'] },
        dropped: { keys: ['baseline', 'candidate'] },
        ci: { keys: ['level', 'low', 'high', 'method'] },
        examples: EXAMPLE
    }
};
const EFFICIENCY = {
    keys: ['run', 'metric', 'n', 'baseline_median', 'candidate_median', 'median_ratio', 'p90_ratio'],
    children: { median_ratio: INTERVAL, p90_ratio: INTERVAL }
};
const REPORT = {
    keys: [
        'schema_version',
        'tool',
        'verdict',
        'headline',
        'errors',
        'warnings',
        'settings',
        'baseline',
        'candidate',
        'comparisons',
        'efficiency',
        'notes',
        'load',
        'quality'
    ],
    children: {
        tool: { keys: ['name', 'version'] },
        errors: ISSUE,
        warnings: ISSUE,
        settings: { keys: ['confidence', 'resamples', 'seed', 'min_overlap', 'interval'] },
        baseline: SIDE,
        candidate: SIDE,
        comparisons: COMPARISON,
        efficiency: EFFICIENCY,
        quality: { keys: ['verdict', 'errors'], children: { errors: ISSUE } }
    }
};
/** A copy of `value` whose objects carry their keys in canonical order (see the file comment). */
function canonical(value, shape) {
    if (typeof value === 'number')
        return Number.isFinite(value) ? (Object.is(value, -0) ? 0 : value) : null;
    if (Array.isArray(value))
        return value.map(item => canonical(item ?? null, shape));
    if (value === null || typeof value !== 'object')
        return value;
    const source = value;
    const known = shape?.keys ?? [];
    const extra = Object.keys(source)
        .filter(key => !known.includes(key))
        .sort();
    const out = {};
    for (const key of [...known, ...extra]) {
        if (!Object.prototype.hasOwnProperty.call(source, key) || source[key] === undefined)
            continue;
        out[key] = canonical(source[key], shape?.children?.[key]);
    }
    return out;
}
function renderJson(report) {
    return `${JSON.stringify(canonical(report, REPORT), null, 2)}\n`;
}

// Generated by scripts/build-report-page.mjs from html-client.ts (npm run build): do not edit.
// html.ts embeds it in report.html and allows exactly it by hash in the Content-Security-Policy.
const REPORT_PAGE_SCRIPT = "(function () {\n    'use strict';\n\n    const data = JSON.parse(document.getElementById('helm-gate-data').textContent);\n    const report = data.report;\n    const changed = data.changed;\n    const comparisons = report.comparisons;\n    const root = document.getElementById('app');\n    const SVG = 'http://www.w3.org/2000/svg';\n    function el(tag, attrs = {}, ...children) {\n        const node = document.createElement(tag);\n        for (const [k, v] of Object.entries(attrs))\n            node.setAttribute(k, v);\n        for (const child of children)\n            if (child !== null)\n                node.append(child instanceof Node ? child : document.createTextNode(child));\n        return node;\n    }\n    function svg(tag, attrs) {\n        const node = document.createElementNS(SVG, tag);\n        for (const [k, v] of Object.entries(attrs))\n            node.setAttribute(k, String(v));\n        return node;\n    }\n    function num(value) {\n        if (typeof value !== 'number' || !Number.isFinite(value))\n            return '—';\n        if (Number.isInteger(value))\n            return String(value);\n        const magnitude = Math.floor(Math.log10(Math.abs(value)));\n        return value.toFixed(Math.min(4, Math.max(0, 3 - magnitude)));\n    }\n    function signed(value) {\n        const text = num(value);\n        return typeof value === 'number' && value > 0 && !/^0(\\.0*)?$/.test(text) ? `+${text}` : text;\n    }\n    const verdictOf = (c) => (c.gated ? c.verdict : 'info');\n    const marginOf = (c) => (c.direction === 'lower' ? c.max_drop : -c.max_drop);\n    const labelOf = (c) => [c.run, c.metric, c.split, c.perturbation].filter(p => p !== null && p !== '').join(' · ');\n    // ---- header: verdict, headline, sides, issues\n    function header() {\n        const box = el('header', {}, el('h1', { class: `verdict ${report.verdict}` }, `helm-gate: ${report.verdict}`), el('p', {}, report.headline));\n        const sides = el('table', { class: 'sides' });\n        const row = (label, read) => {\n            const cells = [read(report.baseline), read(report.candidate)];\n            if (cells.every(c => c === ''))\n                return;\n            sides.append(el('tr', {}, el('th', {}, label), ...cells.map(c => el('td', {}, c || '—'))));\n        };\n        sides.append(el('tr', {}, el('th', {}, ''), el('th', {}, 'Baseline'), el('th', {}, 'Candidate')));\n        row('Deployment', s => {\n            const id = s.identity;\n            return [id?.model ?? s.deployment, id?.host ? `on ${id.host}` : '', id?.api ? `(${id.api})` : ''].filter(Boolean).join(' ');\n        });\n        row('Engine', s => {\n            const e = s.identity?.engine;\n            if (!e)\n                return '';\n            return [\n                e.version && `version ${e.version}`,\n                e.root && `weights ${e.root}`,\n                e.max_model_len !== null && `context ${e.max_model_len}`,\n                e.owned_by && `by ${e.owned_by}`,\n                e.details\n            ]\n                .filter(Boolean)\n                .join(' · ');\n        });\n        row('Image', s => {\n            const i = s.identity?.image;\n            if (!i)\n                return '';\n            return [i.name, i.digest ? `digest ${i.digest}` : i.id ? `image id ${i.id} (no registry digest)` : 'digest unknown'].join(' · ');\n        });\n        row('Weights', s => {\n            const w = s.identity?.weights;\n            if (!w)\n                return '';\n            return [w.file, w.sha256 ? `sha256 ${w.sha256}` : (w.error ?? '')].filter(Boolean).join(' · ');\n        });\n        row('HELM', s => s.helm_version ?? '');\n        row('Source', s => {\n            const o = s.identity?.origin;\n            if (!o)\n                return '';\n            if (o.kind !== 'archived')\n                return o.kind === 'run' ? 'run by this gate' : `from ${o.artifact_name ?? 'shard artifacts'}`;\n            return [\n                'archived',\n                o.workflow_run_id !== undefined && `run ${o.workflow_run_id}`,\n                o.age_hours !== undefined && `${Math.round(o.age_hours)} h old`\n            ]\n                .filter(Boolean)\n                .join(', ');\n        });\n        box.append(sides);\n        const s = report.settings;\n        const fingerprint = report.context?.fingerprint;\n        box.append(el('p', { class: 'settings' }, `${fingerprint ? `Gate set ${String(fingerprint).slice(0, 16)} · ` : ''}${Math.round(s.confidence * 1000) / 10}% intervals (${s.interval}), ${s.resamples} resamples, seed ${s.seed}`));\n        for (const [kind, list] of [\n            ['errors', report.errors],\n            ['warnings', report.warnings]\n        ]) {\n            if (!list.length)\n                continue;\n            box.append(el('h2', {}, `${kind === 'errors' ? 'Errors' : 'Warnings'} (${list.length})`));\n            box.append(el('ul', { class: kind }, ...list.map((i) => el('li', {}, el('code', {}, i.code), ' ', i.message))));\n        }\n        return box;\n    }\n    // ---- filters shared by the plot, the table and the answers\n    const state = { run: '', perturbation: '', direction: '', search: '', stratum: '' };\n    const PERTURBATION_CLEAN = '(clean)';\n    const perturbationOf = (c) => c.perturbation ?? PERTURBATION_CLEAN;\n    const comparisonShown = (c) => (state.run === '' || c.run === state.run) && (state.perturbation === '' || perturbationOf(c) === state.perturbation);\n    function filters(onChange) {\n        const select = (name, label, values) => {\n            const s = el('select', { id: `filter-${name}`, 'aria-label': label }, el('option', { value: '' }, `all ${label}`));\n            for (const v of values)\n                s.append(el('option', { value: v }, v));\n            s.addEventListener('change', () => {\n                state[name] = s.value;\n                onChange();\n            });\n            return s;\n        };\n        const runs = [...new Set(comparisons.map(c => c.run))].sort();\n        const perturbations = [...new Set(comparisons.map(perturbationOf))].sort();\n        // Traffic rows' changed answers carry their stratum (`<tag>/<length>`): a filter when there are any.\n        const strata = [\n            ...new Set(Object.values(changed)\n                .flat()\n                .map(e => e.stratum)\n                .filter((v) => typeof v === 'string'))\n        ].sort();\n        const direction = el('select', { id: 'filter-direction', 'aria-label': 'changed answers' }, el('option', { value: '' }, 'won and lost'), el('option', { value: 'won' }, 'won (better)'), el('option', { value: 'lost' }, 'lost (worse)'));\n        direction.addEventListener('change', () => {\n            state.direction = direction.value;\n            onChange();\n        });\n        const search = el('input', { id: 'filter-search', type: 'search', placeholder: 'search answers, inputs, ids', 'aria-label': 'search' });\n        search.addEventListener('input', () => {\n            state.search = search.value.toLowerCase();\n            onChange();\n        });\n        return el('div', { class: 'filters' }, select('run', 'runs', runs), select('perturbation', 'perturbations', perturbations), ...(strata.length > 0 ? [select('stratum', 'strata', strata)] : []), direction, search);\n    }\n    // ---- forest plot: each comparison's interval and delta against its tolerated change\n    function forest() {\n        const rows = comparisons.filter(comparisonShown);\n        const values = [0];\n        for (const c of rows)\n            for (const v of [c.ci.low, c.ci.high, c.delta, marginOf(c)])\n                if (typeof v === 'number' && Number.isFinite(v))\n                    values.push(v);\n        let min = Math.min(...values);\n        let max = Math.max(...values);\n        const pad = (max - min) * 0.05 || 0.01;\n        min -= pad;\n        max += pad;\n        const left = 280;\n        const width = 440;\n        const rowHeight = 24;\n        const height = rows.length * rowHeight + 40;\n        const x = (v) => left + ((v - min) / (max - min)) * width;\n        const right = 40;\n        const plot = svg('svg', {\n            id: 'forest',\n            width: left + width + right,\n            height,\n            viewBox: `0 0 ${left + width + right} ${height}`,\n            'data-min': min,\n            'data-max': max,\n            'data-left': left,\n            'data-width': width,\n            role: 'img'\n        });\n        plot.append(svg('line', { x1: x(0), x2: x(0), y1: 0, y2: height - 30, class: 'zero' }));\n        rows.forEach((c, i) => {\n            const y = 16 + i * rowHeight;\n            const label = svg('text', { x: 4, y: y + 4, class: 'label' });\n            label.textContent = labelOf(c).length > 44 ? `${labelOf(c).slice(0, 43)}…` : labelOf(c);\n            const title = svg('title', {});\n            title.textContent = `${labelOf(c)}: ${signed(c.delta)} [${signed(c.ci.low)}, ${signed(c.ci.high)}], tolerated ${signed(marginOf(c))}, ${verdictOf(c)}`;\n            const group = svg('g', { class: `row ${verdictOf(c)}`, 'data-id': c.id });\n            group.append(title, label);\n            group.append(svg('line', { x1: x(marginOf(c)), x2: x(marginOf(c)), y1: y - 9, y2: y + 9, class: 'margin' }));\n            if (Number.isFinite(c.ci.low) && Number.isFinite(c.ci.high))\n                group.append(svg('line', { x1: x(c.ci.low), x2: x(c.ci.high), y1: y, y2: y, class: 'ci' }));\n            if (Number.isFinite(c.delta))\n                group.append(svg('circle', { cx: x(c.delta), cy: y, r: 5, class: 'mark', 'data-id': c.id }));\n            plot.append(group);\n        });\n        // Ticks at round values (1, 2 or 5 times a power of ten) so that at most about five labels\n        // share the axis; a label that would still touch its neighbour is left out (the three fixed\n        // ticks this replaced could land on one another: min, 0 and max close together).\n        const rough = (max - min) / 4;\n        const power = Math.pow(10, Math.floor(Math.log10(rough)));\n        const step = [1, 2, 5, 10].map(f => f * power).find(s => s >= rough) ?? 10 * power;\n        const digits = Math.max(0, -Math.floor(Math.log10(step)));\n        const tickText = (v) => {\n            const rounded = Math.abs(v) < step / 2 ? 0 : v;\n            const text = rounded.toFixed(digits);\n            return rounded > 0 ? `+${text}` : text;\n        };\n        const CHAR_WIDTH = 7;\n        let lastRight = -Infinity;\n        for (let k = Math.ceil(min / step); k * step <= max; k++) {\n            const v = k * step;\n            const text = tickText(v);\n            const half = (text.length * CHAR_WIDTH) / 2;\n            const at = x(v);\n            if (at - half < lastRight + 8)\n                continue;\n            lastRight = at + half;\n            plot.append(svg('line', { x1: at, x2: at, y1: height - 30, y2: height - 25, class: 'tick' }));\n            const t = svg('text', { x: at, y: height - 10, class: 'axis', 'text-anchor': 'middle', 'data-value': v });\n            t.textContent = text;\n            plot.append(t);\n        }\n        return plot;\n    }\n    // ---- the comparisons table, sortable by any column\n    const columns = [\n        ['Verdict', verdictOf],\n        ['Run', c => c.run],\n        ['Metric', c => c.metric],\n        ['Split', c => c.split ?? ''],\n        ['Perturbation', c => c.perturbation ?? ''],\n        ['n', c => c.n],\n        ['Baseline', c => c.baseline_mean],\n        ['Candidate', c => c.candidate_mean],\n        ['Δ', c => c.delta],\n        ['Interval', c => c.ci.low],\n        ['Tolerated', marginOf],\n        ['Better / worse', c => (c.direction === 'lower' ? c.losses : c.wins) - (c.direction === 'lower' ? c.wins : c.losses)]\n    ];\n    const sort = { column: -1, descending: false };\n    function table() {\n        const rows = comparisons.filter(comparisonShown);\n        if (sort.column >= 0) {\n            const read = columns[sort.column][1];\n            rows.sort((a, b) => {\n                const va = read(a);\n                const vb = read(b);\n                const order = typeof va === 'number' && typeof vb === 'number' ? va - vb : String(va).localeCompare(String(vb));\n                return sort.descending ? -order : order;\n            });\n        }\n        const head = el('tr', {});\n        columns.forEach(([name], i) => {\n            const th = el('th', { 'data-column': String(i), class: sort.column === i ? (sort.descending ? 'sorted desc' : 'sorted asc') : '' }, name);\n            th.addEventListener('click', () => {\n                sort.descending = sort.column === i ? !sort.descending : false;\n                sort.column = i;\n                redraw();\n            });\n            head.append(th);\n        });\n        const body = rows.map(c => {\n            const better = c.direction === 'lower' ? c.losses : c.wins;\n            const worse = c.direction === 'lower' ? c.wins : c.losses;\n            return el('tr', { 'data-id': c.id, class: verdictOf(c) }, el('td', { class: 'verdict-cell' }, verdictOf(c)), el('td', {}, c.run), el('td', {}, `${c.metric}${c.direction === 'lower' ? ' (lower is better)' : ''}`), el('td', {}, c.split ?? '—'), el('td', {}, c.perturbation ?? '—'), el('td', { class: 'num' }, String(c.n)), el('td', { class: 'num' }, num(c.baseline_mean)), el('td', { class: 'num' }, num(c.candidate_mean)), el('td', { class: 'num' }, signed(c.delta)), el('td', { class: 'num' }, `[${signed(c.ci.low)}, ${signed(c.ci.high)}]`), el('td', { class: 'num' }, signed(marginOf(c))), el('td', { class: 'num' }, `+${better} / -${worse}`));\n        });\n        return el('table', { id: 'comparisons' }, el('thead', {}, head), el('tbody', {}, ...body));\n    }\n    // ---- changed answers, side by side with the differing characters marked\n    function diffSegments(a, b) {\n        let start = 0;\n        while (start < a.length && start < b.length && a[start] === b[start])\n            start++;\n        let endA = a.length;\n        let endB = b.length;\n        while (endA > start && endB > start && a[endA - 1] === b[endB - 1]) {\n            endA--;\n            endB--;\n        }\n        const midA = a.slice(start, endA);\n        const midB = b.slice(start, endB);\n        const mark = (text) => el('mark', {}, text);\n        const text = (t) => document.createTextNode(t);\n        // Character LCS of the differing middle when it is small; otherwise the whole middle is marked.\n        if (midA.length * midB.length > 0 && midA.length * midB.length <= 250_000) {\n            const n = midA.length;\n            const m = midB.length;\n            const table = new Uint16Array((n + 1) * (m + 1));\n            for (let i = n - 1; i >= 0; i--) {\n                for (let j = m - 1; j >= 0; j--) {\n                    table[i * (m + 1) + j] =\n                        midA[i] === midB[j] ? table[(i + 1) * (m + 1) + j + 1] + 1 : Math.max(table[(i + 1) * (m + 1) + j], table[i * (m + 1) + j + 1]);\n                }\n            }\n            const outA = [text(a.slice(0, start))];\n            const outB = [text(b.slice(0, start))];\n            let i = 0;\n            let j = 0;\n            let same = '';\n            let onlyA = '';\n            let onlyB = '';\n            const flush = () => {\n                if (onlyA)\n                    outA.push(mark(onlyA));\n                if (onlyB)\n                    outB.push(mark(onlyB));\n                onlyA = '';\n                onlyB = '';\n            };\n            while (i < n || j < m) {\n                if (i < n && j < m && midA[i] === midB[j]) {\n                    flush();\n                    same += midA[i];\n                    i++;\n                    j++;\n                    continue;\n                }\n                if (same) {\n                    outA.push(text(same));\n                    outB.push(text(same));\n                    same = '';\n                }\n                if (j >= m || (i < n && table[(i + 1) * (m + 1) + j] >= table[i * (m + 1) + j + 1]))\n                    onlyA += midA[i++];\n                else\n                    onlyB += midB[j++];\n            }\n            flush();\n            if (same) {\n                outA.push(text(same));\n                outB.push(text(same));\n            }\n            outA.push(text(a.slice(endA)));\n            outB.push(text(b.slice(endB)));\n            return [outA, outB];\n        }\n        return [\n            [text(a.slice(0, start)), ...(midA ? [mark(midA)] : []), text(a.slice(endA))],\n            [text(b.slice(0, start)), ...(midB ? [mark(midB)] : []), text(b.slice(endB))]\n        ];\n    }\n    function answers() {\n        const box = el('div', { id: 'answers' });\n        let shown = 0;\n        for (const c of comparisons) {\n            if (!comparisonShown(c))\n                continue;\n            const list = changed[c.id] ?? c.examples ?? [];\n            if (!list.length)\n                continue;\n            const cards = [];\n            for (const e of list) {\n                const better = c.direction === 'lower' ? e.candidate_value < e.baseline_value : e.candidate_value > e.baseline_value;\n                if (state.direction === 'won' && !better)\n                    continue;\n                if (state.direction === 'lost' && better)\n                    continue;\n                if (state.stratum && e.stratum !== state.stratum)\n                    continue;\n                if (state.search) {\n                    const haystack = [e.instance_id, e.input, e.reference, e.failed_check ?? '', e.baseline_output, e.candidate_output]\n                        .join('\\n')\n                        .toLowerCase();\n                    if (!haystack.includes(state.search))\n                        continue;\n                }\n                const [b, k] = diffSegments(String(e.baseline_output ?? ''), String(e.candidate_output ?? ''));\n                cards.push(el('div', { class: `answer ${better ? 'won' : 'lost'}`, 'data-instance': e.instance_id }, el('div', { class: 'answer-head' }, `${e.instance_id}${e.stratum ? ` [${e.stratum}]` : ''} (trial ${e.train_trial_index}): ${num(e.baseline_value)} → ${num(e.candidate_value)}, ${better ? 'better' : 'worse'}`), el('div', { class: 'io' }, el('div', { class: 'label' }, 'Input'), el('pre', {}, String(e.input ?? ''))), el('div', { class: 'io' }, el('div', { class: 'label' }, 'Reference'), el('pre', {}, String(e.reference ?? ''))), ...(e.failed_check\n                    ? [el('div', { class: 'io' }, el('div', { class: 'label' }, 'Failed check'), el('pre', {}, String(e.failed_check)))]\n                    : []), el('div', { class: 'outputs' }, el('div', {}, el('div', { class: 'label' }, 'Baseline output'), el('pre', { class: 'baseline' }, ...b)), el('div', {}, el('div', { class: 'label' }, 'Candidate output'), el('pre', { class: 'candidate' }, ...k)))));\n            }\n            if (!cards.length)\n                continue;\n            shown += cards.length;\n            const details = el('details', { 'data-id': c.id, open: '' }, el('summary', {}, `${labelOf(c)}: ${cards.length} of ${list.length} changed answers`), ...cards);\n            box.append(details);\n        }\n        box.prepend(el('p', { id: 'answers-count' }, `${shown} changed answers shown`));\n        return box;\n    }\n    // ---- efficiency, and the load half\n    function efficiency() {\n        const entries = report.efficiency;\n        if (!entries.length)\n            return null;\n        const ms = (s) => (Math.abs(s) < 10 ? `${num(s * 1000)} ms` : `${num(s)} s`);\n        const ratio = (r) => `${num(r.estimate)}× [${num(r.low)}, ${num(r.high)}]`;\n        const box = el('section', { id: 'efficiency' }, el('h2', {}, 'Efficiency: request times (information only, not gated)'));\n        if (report.context?.concurrent)\n            box.append(el('p', { class: 'note' }, 'Both sides ran at the same time on one machine: the ratios reflect the shared client as much as the servers.'));\n        box.append(el('table', {}, el('tr', {}, ...['Run', 'n', 'Median baseline', 'Median candidate', 'Median ratio', 'p90 ratio'].map(h => el('th', {}, h))), ...entries.map(e => el('tr', {}, el('td', {}, e.run), el('td', {}, String(e.n)), el('td', {}, ms(e.baseline_median)), el('td', {}, ms(e.candidate_median)), el('td', {}, ratio(e.median_ratio)), el('td', {}, ratio(e.p90_ratio))))));\n        return box;\n    }\n    /**\n     * The load half (report.load): its verdict, then per level one table with a row per metric\n     * (baseline, candidate, the candidate/baseline ratio with its interval, and the checks on that\n     * metric with their verdicts). Server-provided text (model names, reasons) goes in as text.\n     */\n    function load(section) {\n        if (!section)\n            return null;\n        const box = el('section', { id: 'load' }, el('h2', { class: `load-verdict ${section.verdict}` }, `Load: ${section.verdict}`), el('p', {}, String(section.headline ?? '')));\n        if (section.skipped) {\n            box.append(el('p', { class: 'note' }, String(section.skipped)));\n            return box;\n        }\n        const units = { output_tokens_per_second: 'tok/s', request_throughput: 'req/s', goodput: 'req/s' };\n        const value = (metric, v) => {\n            if (typeof v !== 'number' || !Number.isFinite(v))\n                return '—';\n            if (metric === 'error_rate')\n                return `${Number((v * 100).toPrecision(3))}%`;\n            return `${Math.abs(v) >= 100 ? v.toFixed(0) : v.toPrecision(3)} ${units[metric] ?? 'ms'}`;\n        };\n        // As in the comment: three decimals (one from 10 up).\n        const fixed = (v) => v.toFixed(v >= 10 ? 1 : 3);\n        const ratioText = (r) => (r ? `${fixed(r.estimate)}× [${fixed(r.low)}, ${fixed(r.high)}]` : '—');\n        const levelName = (level) => (section.mode === 'concurrency' ? `concurrency ${level}` : `${level} requests/s`);\n        const checkText = (c) => {\n            const op = c.kind === 'min_ratio' || c.kind === 'min' ? '≥' : '≤';\n            const bound = String(c.kind).endsWith('ratio') ? `${c.threshold}×` : value(c.metric, c.threshold);\n            return `${op} ${bound}: ${c.verdict}`;\n        };\n        const ratios = section.ratios ?? [];\n        const checks = section.checks ?? [];\n        for (const level of section.levels ?? []) {\n            const metrics = [...new Set([...ratios, ...checks].filter(r => r.level === level).map(r => String(r.metric)))];\n            if (!metrics.length)\n                continue;\n            const rows = metrics.map(metric => {\n                const r = ratios.find(x => x.level === level && x.metric === metric);\n                const own = checks.filter(c => c.level === level && c.metric === metric);\n                const verdicts = own.map(c => c.verdict);\n                const worst = ['error', 'fail', 'inconclusive', 'pass'].find(v => verdicts.includes(v)) ?? 'info';\n                const checkCell = el('td', { class: 'checks' });\n                own.forEach((c, i) => {\n                    if (i)\n                        checkCell.append(el('br'));\n                    checkCell.append(el('span', { class: `check ${c.verdict}`, title: String(c.reason ?? '') }, checkText(c)));\n                });\n                if (!own.length)\n                    checkCell.append('—');\n                return el('tr', { class: worst, 'data-metric': metric }, el('td', {}, metric), el('td', { class: 'num' }, value(metric, r?.baseline ?? own[0]?.baseline)), el('td', { class: 'num' }, value(metric, r?.candidate ?? own[0]?.candidate)), el('td', { class: 'num' }, ratioText(r?.ratio ?? own[0]?.ratio ?? null)), el('td', { class: 'num' }, String(r?.pairs ?? own[0]?.pairs ?? '—')), checkCell);\n            });\n            box.append(el('h3', {}, levelName(level)), el('table', { class: 'load-level', 'data-level': String(level) }, el('thead', {}, el('tr', {}, ...['Metric', 'Baseline', 'Candidate', 'Ratio [interval]', 'Pairs', 'Checks'].map(h => el('th', {}, h)))), el('tbody', {}, ...rows)));\n        }\n        const open = checks.filter(c => c.verdict === 'inconclusive' || c.verdict === 'error');\n        if (open.length)\n            box.append(el('ul', { class: 'load-reasons' }, ...open.map(c => el('li', {}, `${c.metric} at ${levelName(c.level)}: ${c.reason}`))));\n        for (const [kind, list] of [\n            ['errors', section.errors ?? []],\n            ['warnings', section.warnings ?? []]\n        ]) {\n            if (list.length)\n                box.append(el('ul', { class: kind }, ...list.map((i) => el('li', {}, el('code', {}, i.code), ' ', i.message))));\n        }\n        const st = section.settings ?? {};\n        box.append(el('p', { class: 'settings' }, `${st.repetitions} blocks per side per level, interleaved A B B A; intervals: ${st.interval_method}; percentiles: ${st.percentile_method}.`));\n        for (const note of section.notes ?? [])\n            box.append(el('p', { class: 'note' }, note));\n        return box;\n    }\n    // ---- layout\n    const plotBox = el('section', { id: 'plot' }, el('h2', {}, 'Forest plot'));\n    const tableBox = el('section', { id: 'table' }, el('h2', {}, 'Comparisons'));\n    const answersBox = el('section', { id: 'changed' }, el('h2', {}, 'Changed answers'));\n    function redraw() {\n        plotBox.replaceChildren(plotBox.firstChild, forest());\n        tableBox.replaceChildren(tableBox.firstChild, table());\n        answersBox.replaceChildren(answersBox.firstChild, answers());\n    }\n    root.append(header(), filters(redraw), plotBox, tableBox, answersBox);\n    const eff = efficiency();\n    if (eff)\n        root.append(eff);\n    const loadBox = load(report.load);\n    if (loadBox)\n        root.append(loadBox);\n    for (const note of report.notes)\n        root.append(el('p', { class: 'note' }, note));\n    redraw();\n\n})();\n";

/**
 * report.html: one self-contained page (inline CSS and script, no network) for the reviewer who
 * must read the changed answers: a forest plot, the sortable comparisons table, every changed
 * answer side by side with the differing characters marked, filters and search, efficiency.
 *
 * Safety: the report and the answers are untrusted text (model output, prompts). They are
 * embedded only as JSON in a `<script type="application/json">` block with every `<`, `>` and
 * `&` escaped, so nothing in them can close the block or form markup, and the page script builds
 * the DOM with textContent (html-client.ts, bundled by scripts/build-report-page.mjs). A Content-Security-Policy allows exactly the page's own script (by
 * hash) and inline styles, and no network at all.
 */
/** JSON that is safe inside a script element: no `<`, `>`, `&` or line separators survive raw. */
function scriptSafeJson(value) {
    return JSON.stringify(value)
        .replace(/</g, '\\u003c')
        .replace(/>/g, '\\u003e')
        .replace(/&/g, '\\u0026')
        .replace(/\u2028/g, '\\u2028')
        .replace(/\u2029/g, '\\u2029');
}
const STYLE = `
:root { color-scheme: light; --pass: #1a7f37; --fail: #cf222e; --inconclusive: #bf8700; --info: #6e7781; --error: #cf222e; }
body { font: 14px/1.5 -apple-system, "Segoe UI", Helvetica, Arial, sans-serif; margin: 0; color: #1f2328; }
#app { max-width: 1200px; margin: 0 auto; padding: 16px 24px; }
h1.verdict { margin: 0 0 4px; } h1.pass { color: var(--pass); } h1.fail, h1.error { color: var(--fail); } h1.inconclusive { color: var(--inconclusive); }
#table { overflow-x: auto; } table { border-collapse: collapse; margin: 8px 0; } th, td { border: 1px solid #d0d7de; padding: 4px 8px; text-align: left; vertical-align: top; }
th[data-column] { cursor: pointer; user-select: none; } th.sorted.asc::after { content: " ▲"; } th.sorted.desc::after { content: " ▼"; }
td.num { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
tr.pass .verdict-cell { color: var(--pass); } tr.fail .verdict-cell { color: var(--fail); } tr.inconclusive .verdict-cell { color: var(--inconclusive); } tr.info .verdict-cell { color: var(--info); }
.filters { display: flex; gap: 8px; flex-wrap: wrap; margin: 12px 0; position: sticky; top: 0; background: #fff; padding: 8px 0; border-bottom: 1px solid #d0d7de; }
.filters input { flex: 1; min-width: 200px; }
#forest .label, #forest .axis { font-size: 11px; fill: #1f2328; } #forest .zero, #forest .tick { stroke: #8c959f; }
#forest .margin { stroke: var(--fail); stroke-dasharray: 3 2; } #forest .ci { stroke-width: 3; }
#forest .pass .ci, #forest .pass .mark { stroke: var(--pass); fill: var(--pass); } #forest .fail .ci, #forest .fail .mark { stroke: var(--fail); fill: var(--fail); }
#forest .inconclusive .ci, #forest .inconclusive .mark { stroke: var(--inconclusive); fill: var(--inconclusive); } #forest .info .ci, #forest .info .mark { stroke: var(--info); fill: var(--info); }
details { border: 1px solid #d0d7de; border-radius: 6px; margin: 8px 0; padding: 4px 8px; } summary { cursor: pointer; font-weight: 600; }
.answer { border-top: 1px solid #d0d7de; padding: 8px 0; } .answer.won .answer-head { color: var(--pass); } .answer.lost .answer-head { color: var(--fail); }
.outputs { display: grid; grid-template-columns: 1fr 1fr; gap: 8px; }
pre { white-space: pre-wrap; word-break: break-word; background: #f6f8fa; padding: 6px; margin: 2px 0; max-height: 24em; overflow: auto; }
.label { font-size: 12px; color: #59636e; } mark { background: #ffd7d5; } pre.candidate mark { background: #aceebb; }
.note { color: #59636e; } .settings { color: #59636e; }
.check.pass, .load-verdict.pass { color: var(--pass); } .check.fail, .check.error, .load-verdict.fail, .load-verdict.error { color: var(--fail); } .check.inconclusive, .load-verdict.inconclusive { color: var(--inconclusive); }
`;
function renderHtml(report, changed = new Map()) {
    const script = REPORT_PAGE_SCRIPT;
    const hash = createHash('sha256').update(script).digest('base64');
    const data = scriptSafeJson({ report, changed: Object.fromEntries(changed) });
    const csp = `default-src 'none'; style-src 'unsafe-inline'; script-src 'sha256-${hash}'; img-src data:; connect-src 'none'; form-action 'none'; base-uri 'none'`;
    return [
        '<!doctype html>',
        '<html lang="en">',
        '<head>',
        '<meta charset="utf-8">',
        `<meta http-equiv="Content-Security-Policy" content="${csp}">`,
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        `<title>helm-gate: ${report.verdict}</title>`,
        `<style>${STYLE}</style>`,
        '</head>',
        '<body>',
        '<div id="app"></div>',
        `<script type="application/json" id="helm-gate-data">${data}</script>`,
        `<script>${script}</script>`,
        '</body>',
        '</html>',
        ''
    ].join('\n');
}

/**
 * Size budgets for rendered markdown. GitHub limits each destination: a comment body to 65,536
 * characters, a check run's summary and text to 65,535 each, the job summary to 1 MiB per step.
 * JavaScript's `.length` counts UTF-16 units, never fewer than the characters GitHub counts, so
 * `utf16` is safe for comments and check runs. The job summary's limit is in bytes, and a
 * character can take up to three UTF-8 bytes for one UTF-16 unit, so that destination needs
 * `utf8`.
 */
function utf8Length(text) {
    let bytes = 0;
    for (let i = 0; i < text.length; i += 1) {
        const code = text.charCodeAt(i);
        if (code < 0x80)
            bytes += 1;
        else if (code < 0x800)
            bytes += 2;
        else if (code >= 0xd800 && code <= 0xdbff && i + 1 < text.length) {
            const next = text.charCodeAt(i + 1);
            if (next >= 0xdc00 && next <= 0xdfff) {
                bytes += 4;
                i += 1;
            }
            else
                bytes += 3;
        }
        else
            bytes += 3;
    }
    return bytes;
}
function measure(text, unit) {
    return unit === 'utf8' ? utf8Length(text) : text.length;
}
function advance(state, line) {
    if (state.fence !== null) {
        const closing = new RegExp(`^${state.fence}\`*\\s*$`);
        return closing.test(line) ? { ...state, fence: null } : state;
    }
    const opening = /^(`{3,})/.exec(line);
    if (opening)
        return { ...state, fence: opening[1] };
    if (/^<details>\s*$/.test(line))
        return { ...state, openDetails: state.openDetails + 1 };
    if (/^<\/details>\s*$/.test(line) && state.openDetails > 0)
        return { ...state, openDetails: state.openDetails - 1 };
    return state;
}
function closers(state) {
    let text = state.fence !== null ? `\n${state.fence}` : '';
    // A blank line first: `</details>` right after a table row or paragraph could be read as part of it.
    for (let i = 0; i < state.openDetails; i += 1)
        text += '\n\n</details>';
    return text;
}
/**
 * Cut `text` at the last line boundary where the kept lines, the closers for whatever fence and
 * `<details>` are open there, and `notice` fit in `maxLength`. The first `keepLines` lines are
 * never cut; if they cannot fit with the notice, the budget is too small to be usable.
 */
function cutAtLineBoundary(text, maxLength, unit, notice, keepLines) {
    if (measure(text, unit) <= maxLength)
        return text;
    const lines = text.split('\n');
    const tail = `\n\n${notice}\n`;
    const tailLength = measure(tail, unit);
    let state = { fence: null, openDetails: 0 };
    let used = 0;
    let best = null;
    for (let i = 0; i < lines.length; i += 1) {
        used += measure(lines[i], unit) + (i > 0 ? 1 : 0);
        state = advance(state, lines[i]);
        const total = used + measure(closers(state), unit) + tailLength;
        if (i + 1 >= keepLines && total <= maxLength)
            best = { end: i + 1, state };
        // Lines only add length; closers are bounded, so once the kept lines alone exceed the
        // budget no later boundary can fit.
        if (used > maxLength)
            break;
    }
    if (best === null) {
        throw new UsageError('report.budget_too_small', `The size limit is too small for the report's headline`, {
            field: 'maxLength',
            value: maxLength
        });
    }
    return `${lines.slice(0, best.end).join('\n')}${closers(best.state)}${tail}`;
}

/**
 * A monospace forest plot: one line per comparison, its interval drawn against its margin (the
 * tolerated drop) and zero, all on one shared axis in metric units. ASCII only, so every
 * monospace font (GitHub's code blocks, terminals, log viewers) keeps the columns aligned.
 *
 *   label             [----*--:---]    |          fail        interval crosses the margin
 *   label                   :   [--*---|--]       pass        interval right of the margin
 *
 * When marks fall on the same column the more important one wins: the estimate `*`, then the
 * interval ends `[` `]`, the margin `:`, zero `|`, and the interval body `-`.
 */
/** Narrower than this the interval, margin and zero of a row crowd into a few columns. */
const MIN_PLOT_WIDTH = 31;
const MIN_WIDTH = 11;
const VERDICT_WIDTH = 16;
const FOREST_MARKS = {
    estimate: '*',
    low: '[',
    high: ']',
    margin: ':',
    zero: '|',
    body: '-'
};
/** The shared axis: every finite interval end, margin and zero, with a little room either side. */
function forestAxis(rows, width) {
    const values = [0];
    for (const row of rows) {
        for (const v of [row.low, row.high, row.estimate, row.margin])
            if (Number.isFinite(v))
                values.push(v);
    }
    let min = Math.min(...values);
    let max = Math.max(...values);
    if (max - min <= 0) {
        min -= 1;
        max += 1;
    }
    const pad = (max - min) * 0.04;
    return { min: min - pad, max: max + pad, width };
}
/** The column (0-based, inside the plot area) where a value is drawn. */
function forestColumn(axis, value) {
    const position = Math.round(((value - axis.min) / (axis.max - axis.min)) * (axis.width - 1));
    return Math.min(axis.width - 1, Math.max(0, position));
}
function plotLine(axis, row) {
    const cells = new Array(axis.width).fill(' ');
    const rank = new Array(axis.width).fill(0);
    const put = (value, mark, priority) => {
        if (!Number.isFinite(value))
            return;
        const column = forestColumn(axis, value);
        if (priority >= rank[column]) {
            cells[column] = mark;
            rank[column] = priority;
        }
    };
    if (Number.isFinite(row.low) && Number.isFinite(row.high)) {
        const from = forestColumn(axis, Math.min(row.low, row.high));
        const to = forestColumn(axis, Math.max(row.low, row.high));
        for (let column = from; column <= to; column += 1) {
            cells[column] = FOREST_MARKS.body;
            rank[column] = 1;
        }
    }
    put(0, FOREST_MARKS.zero, 2);
    put(row.margin, FOREST_MARKS.margin, 3);
    put(row.low, FOREST_MARKS.low, 4);
    put(row.high, FOREST_MARKS.high, 4);
    put(row.estimate, FOREST_MARKS.estimate, 5);
    return cells.join('');
}
function cleanLabel(label) {
    return sanitizeText(label).replace(/\s+/g, ' ').trim();
}
/** Values at the left end, at zero and at the right end, placed under their columns. */
function axisLine(axis) {
    const line = new Array(axis.width).fill(' ');
    const place = (text, start) => {
        const from = Math.max(0, Math.min(axis.width - text.length, start));
        for (let i = 0; i < text.length; i += 1) {
            if (line[from + i] !== ' ' || (from + i > 0 && line[from + i - 1] !== ' '))
                return;
        }
        for (let i = 0; i < text.length; i += 1)
            line[from + i] = text[i];
    };
    const zero = '0';
    place(zero, forestColumn(axis, 0));
    place(formatSigned(axis.min), 0);
    const right = formatSigned(axis.max);
    place(right, axis.width - right.length);
    return line.join('').trimEnd();
}
/**
 * The plot as text lines (without a code fence): the rows, then a tick line and the axis
 * values, then a legend. Labels are padded to a common width so the plot areas line up.
 */
function renderForestPlot(rows, options = {}) {
    const verdicts = rows.map(row => truncateText(cleanLabel(row.verdict), VERDICT_WIDTH));
    // A row is `label plot verdict`: two spaces besides the label, the plot and the verdict.
    const room = (options.maxColumns ?? Infinity) - 2 - Math.max(0, ...verdicts.map(verdict => verdict.length));
    const maxLabel = Math.max(1, Math.min(options.labelWidth ?? 36, room - MIN_PLOT_WIDTH));
    const labels = rows.map(row => truncateText(cleanLabel(row.label), maxLabel));
    const labelWidth = Math.max(0, ...labels.map(label => label.length));
    const width = Math.max(MIN_WIDTH, Math.min(options.width ?? 41, room - labelWidth));
    const axis = forestAxis(rows, width);
    const indent = ' '.repeat(labelWidth);
    const lines = rows.map((row, i) => `${labels[i].padEnd(labelWidth)} ${plotLine(axis, row)} ${verdicts[i]}`.trimEnd());
    const ticks = new Array(width).fill('-');
    ticks[0] = '+';
    ticks[width - 1] = '+';
    ticks[forestColumn(axis, 0)] = '+';
    lines.push(`${indent} ${ticks.join('')}`);
    lines.push(`${indent} ${axisLine(axis)}`.trimEnd());
    lines.push('');
    lines.push(`${FOREST_MARKS.low}${FOREST_MARKS.body}${FOREST_MARKS.estimate}${FOREST_MARKS.body}${FOREST_MARKS.high} interval and delta (candidate - baseline)   ` +
        `${FOREST_MARKS.margin} tolerated drop   ${FOREST_MARKS.zero} no change`);
    return lines;
}

/** Digest shown in a table: the algorithm and 12 hex digits, like docker's short ids. */
function shortDigest(digest) {
    const [algorithm, hex] = digest.includes(':') ? digest.split(':', 2) : ['', digest];
    return `${algorithm ? `${algorithm}:` : ''}${hex.slice(0, 12)}`;
}
/** The markdown cell of the Image row; empty when the side ran no image. */
function imageCell(image) {
    if (!image)
        return '';
    const parts = [codeSpan(image.name, { maxLength: 80, inTable: true })];
    if (image.digest)
        parts.push(`digest ${codeSpan(shortDigest(image.digest), { inTable: true })}`);
    else if (image.id)
        parts.push(`image id ${codeSpan(shortDigest(image.id), { inTable: true })} (no registry digest)`);
    else
        parts.push(`digest unknown${image.error ? ` (${escapeInline(image.error, 80)})` : ''}`);
    return parts.join(' · ');
}
/** The markdown cell of the Weights row: "`model-Q4_0.gguf` · sha256 `587efc1344e6`"; empty when unknown. */
function weightsCell(weights) {
    if (!weights)
        return '';
    const name = weights.file.split('/').pop() || weights.file;
    const parts = [codeSpan(name, { maxLength: 60, inTable: true })];
    if (weights.sha256)
        parts.push(`sha256 ${codeSpan(weights.sha256.slice(0, 12), { inTable: true })}`);
    else if (weights.error)
        parts.push(escapeInline(weights.error, 60));
    return parts.join(' · ');
}

/**
 * The "Performance" section of the PR comment (docs/load.md): the load half's verdict and count, one row
 * per check (baseline, candidate, ratio with its interval, verdict), what an inconclusive check
 * needs, and the throughput/TTFT chart. Pure; every server-provided text is escaped.
 */
function renderLoadMarkdown(load) {
    if (!load)
        return [];
    // Each thing once: the heading holds the verdict and the count, the table each check's figure
    // and verdict, the list below it what an open check needs. The load half's own headline
    // ("Performance: pass: all 5 load checks passed.") would repeat the heading, so it is not shown.
    if (load.skipped)
        return ['### ⚠️ Performance: Skipped', '', `> [!WARNING]`, `> ${escapeInline(load.skipped, 600)}`, ''];
    const lines = [`### ${VERDICT_EMOJI[load.verdict]} Performance: ${VERDICT_WORD[load.verdict]}${countText(load)}`, ''];
    if (load.checks.length === 0 && load.errors.length > 0) {
        lines.push(`No check could be evaluated: the load half stopped with ${load.errors.length === 1 ? 'the error' : 'the errors'} listed above.`, '');
    }
    if (load.checks.length > 0) {
        lines.push(`| check | level | baseline | candidate | ratio [${formatLevel(load.settings.confidence)} interval] | verdict |`, '|---|---|--:|--:|---|---|');
        for (const c of load.checks) {
            lines.push(`| ${checkName(c, m => codeSpan(m, { inTable: true, maxLength: 60 }))} | ${levelLabel(load, c.level)} | ${loadValue(c.metric, c.baseline)} | ${loadValue(c.metric, c.candidate)} | ${ratioText(c)} | ${VERDICT_EMOJI[c.verdict]} ${c.verdict} |`);
        }
        lines.push('');
    }
    const open = load.checks.filter(c => c.verdict === 'inconclusive' || c.verdict === 'error');
    for (const c of open)
        lines.push(`- ${escapeInline(`${checkName(c)} at ${levelLabel(load, c.level)}: ${c.reason}`, 400)}`);
    if (open.length)
        lines.push('');
    const chart = loadChart(load);
    if (chart.length)
        lines.push(codeBlock(chart.join('\n'), 'text'), '');
    lines.push(`_${load.settings.repetitions} blocks per side per level, ${load.interleaved === false ? 'not interleaved (each side measured in its own period)' : 'interleaved A B B A'}; ratio intervals are ${escapeInline(load.settings.interval_method, 80)} over adjacent block pairs; percentiles ${escapeInline(load.settings.percentile_method, 120)}.${load.timings_file ? ` Per-request timings: ${escapeInline(load.timings_file, 80)} in the artifact.` : ''}_`);
    for (const note of load.notes.slice(0, 10))
        lines.push(`- ${escapeInline(note, 400)}`);
    lines.push('');
    return lines;
}
/** ` (1 of 2 checks failed)`: how many checks share the section's verdict. */
function countText(load) {
    const n = load.checks.length;
    if (n === 0)
        return '';
    const same = load.checks.filter(c => c.verdict === load.verdict).length;
    const word = { pass: 'passed', fail: 'failed', inconclusive: 'inconclusive', error: 'could not be evaluated' }[load.verdict];
    if (same === 0)
        return '';
    return same === n ? ` (${n === 1 ? 'the check' : `all ${n} checks`} ${word})` : ` (${same} of ${n} checks ${word})`;
}

/**
 * The report as GitHub-flavoured markdown: the sticky PR comment, the job summary and (split in
 * two) the check run's summary and text. Pure: a report and options in, a string out.
 *
 * Every piece of text that comes from a model, a dataset, a run name or a path goes through
 * `escape.ts`; only the strings written in this file are raw markdown.
 *
 * Size: the result never exceeds `maxLength`. It is rendered at decreasing levels of detail
 * (all changed answers, one per comparison, none, only gated or non-passing rows, only gated
 * non-passing rows) and the first that fits is returned; if none fits, the last is cut at a line
 * boundary with open fences and `<details>` closed and a "truncated" line added. The marker, the
 * headline verdict and the number of errors come first, so they always survive.
 */
const ALL_SECTIONS = [
    'headline',
    'links',
    'issues',
    'gate-file',
    'table',
    'forest',
    'inconclusive',
    'efficiency',
    'examples'
];
const MAX_DIFF_LINES = 200;
const MAX_DIFF_LINE = 300;
const MAX_ISSUE_MESSAGE = 600;
function levels(full) {
    return [
        { examples: full, excerpt: 800, rows: 'all', listed: 100, diff: true, efficiencyRows: true },
        { examples: Math.min(full, 1), excerpt: 300, rows: 'all', listed: 100, diff: true, efficiencyRows: true },
        { examples: Math.min(full, 1), excerpt: 300, rows: 'all', listed: 50, diff: true, efficiencyRows: true, fill: true },
        { examples: 0, excerpt: 0, rows: 'all', listed: 50, diff: true, efficiencyRows: true },
        { examples: 0, excerpt: 0, rows: 'gated-or-not-passing', listed: 30, diff: true, efficiencyRows: true },
        { examples: 0, excerpt: 0, rows: 'gated-not-passing', listed: 10, diff: false, efficiencyRows: false }
    ];
}
const TRUNCATION_NOTICE = '_✂️ Truncated to fit the size limit; see the job summary or the report artifact for the full report._';
const OMISSION_NOTICE = 'see the job summary or the report artifact for everything';
/**
 * The marker line. A complete HTML comment is used as given; a bare name is wrapped. Anything
 * that could end the comment early or span lines is refused, since the marker is how the
 * comment is found again.
 */
function markerLine(marker) {
    const wellFormed = /^<!--(?!>|->)([^\n\r]*?)-->$/.exec(marker);
    if (wellFormed && !wellFormed[1].includes('--'))
        return marker;
    if (/^[A-Za-z0-9 _.:/=+-]+$/.test(marker) && !marker.includes('--'))
        return `<!-- ${marker.trim()} -->`;
    throw new UsageError('report.invalid_marker', 'The comment marker must be an HTML comment or a plain name', {
        field: 'marker',
        value: marker
    });
}
/** An http(s) URL made safe as a markdown link destination, or a UsageError. */
function linkTarget(url, field) {
    let parsed;
    try {
        parsed = new URL(url);
    }
    catch {
        throw new UsageError('report.invalid_link', 'A report link is not a valid URL', { field, value: url });
    }
    if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') {
        throw new UsageError('report.invalid_link', 'A report link must be an http(s) URL', { field, value: url });
    }
    return parsed.href.replace(/\(/g, '%28').replace(/\)/g, '%29');
}
function plural(count, one, many) {
    return `${formatCount(count)} ${count === 1 ? one : many}`;
}
function rowIncluded(comparison, rows) {
    if (rows === 'all')
        return true;
    const notPassing = comparison.verdict !== 'pass';
    return rows === 'gated-or-not-passing' ? comparison.gated || notPassing : comparison.gated && notPassing;
}
function comparisonName(comparison) {
    return [comparison.run, comparison.metric, comparison.split, comparison.perturbation]
        .filter((part) => part !== null && part !== '')
        .join(' · ');
}
function verdictCell(comparison) {
    if (!comparison.gated)
        return 'ℹ️ info';
    return `${VERDICT_EMOJI[comparison.verdict]} ${comparison.verdict}`;
}
/** Marker, verdict heading, headline sentence (one half) and the error and warning counts. */
function headlineBlock(report) {
    const counts = [
        `**${plural(report.errors.length, 'error', 'errors')}**`,
        plural(report.warnings.length, 'warning', 'warnings'),
        `${plural(report.comparisons.length, 'comparison', 'comparisons')} (${formatCount(report.comparisons.filter(c => c.gated).length)} gated)`
    ];
    if (report.load) {
        // Two halves: the heading says which one decided and its figure (report/decision.ts), so the
        // joined headline sentence ("Decided by the performance half. …") would only repeat it; each
        // half's detail follows in its own section.
        return [`## ${VERDICT_EMOJI[report.verdict]} ${escapeInline(decide(report).line, 300)} · helm-gate`, '', counts.join(' · ')];
    }
    return [
        `## ${VERDICT_EMOJI[report.verdict]} ${VERDICT_WORD[report.verdict]} · helm-gate`,
        '',
        escapeInline(report.headline, 400),
        '',
        counts.join(' · ')
    ];
}
/**
 * The two sides named by what they are (served model, host, API, engine, HELM version, where an
 * archived baseline came from), in a three-column table that fits the page; never file-system
 * paths, which stay in the JSON.
 */
function sidesBlock(report) {
    const sides = [report.baseline, report.candidate];
    const cell = (text) => text || '—';
    const deployment = (info) => {
        const id = info.identity;
        const model = id?.model ?? info.deployment;
        const parts = [];
        if (model)
            parts.push(codeSpan(model, { maxLength: 60, inTable: true }));
        if (id?.host)
            parts.push(`on ${codeSpan(id.host, { maxLength: 60, inTable: true })}`);
        if (id?.api)
            parts.push(`(${escapeInline(id.api, 20)})`);
        return parts.join(' ');
    };
    const engine = (info) => {
        const e = info.identity?.engine;
        if (!e)
            return '';
        const parts = [];
        if (e.version)
            parts.push(`version ${codeSpan(e.version, { maxLength: 40, inTable: true })}`);
        if (e.root)
            parts.push(`weights ${codeSpan(e.root, { maxLength: 60, inTable: true })}`);
        if (e.max_model_len !== null)
            parts.push(`context ${formatCount(e.max_model_len)}`);
        if (e.owned_by)
            parts.push(`by ${escapeInline(e.owned_by, 30)}`);
        if (e.details)
            parts.push(escapeInline(e.details, 80));
        return parts.join(' · ');
    };
    const source = (info) => {
        const o = info.identity?.origin;
        if (!o)
            return '';
        if (o.kind === 'run')
            return 'run by this gate';
        if (o.kind === 'given')
            return 'given folder';
        if (o.kind === 'artifact')
            return `from ${o.artifact_name ? codeSpan(o.artifact_name, { maxLength: 60, inTable: true }) : 'shard artifacts'}`;
        // "archived baseline #1125 from run 1201 at `abc…`, 2.0 h old": the artifact and the run, never a path.
        let archived = 'archived baseline';
        if (o.artifact_id !== undefined)
            archived += ` #${o.artifact_id}`;
        if (o.workflow_run_id !== undefined)
            archived += ` from run ${o.workflow_run_id}`;
        const parts = [escapeInline(archived, 80) + (o.head_sha ? ` at ${codeSpan(o.head_sha.slice(0, 12), { inTable: true })}` : '')];
        if (o.age_hours !== undefined && Number.isFinite(o.age_hours))
            parts.push(ageText(o.age_hours));
        return parts.join(', ');
    };
    const rows = [
        ['Deployment', deployment],
        ['Engine', engine],
        ['Image', info => imageCell(info.identity?.image)],
        ['Weights', info => weightsCell(info.identity?.weights)],
        ['HELM', info => (info.helm_version ? codeSpan(info.helm_version, { maxLength: 20, inTable: true }) : '')],
        ['Source', source]
    ];
    const lines = ['| | Baseline | Candidate |', '|---|---|---|'];
    for (const [label, read] of rows) {
        const cells = sides.map(read);
        // A row nobody can fill (an engine that does not say its version) is left out.
        if (cells.every(c => c === ''))
            continue;
        lines.push(`| ${label} | ${cells.map(cell).join(' | ')} |`);
    }
    const s = report.settings;
    const fingerprint = report.context?.fingerprint;
    const facts = [
        ...(fingerprint ? [`Gate set ${codeSpan(fingerprint.slice(0, 16))}`] : []),
        `${formatLevel(s.confidence)} intervals (${escapeInline(s.interval, 40)}), ${formatCount(s.resamples)} resamples, seed ${escapeInline(String(s.seed), 40)}`
    ];
    return [...(lines.length > 2 ? lines : []), ...(lines.length > 2 ? [''] : []), `${facts.join(' · ')}.`];
}
function ageText(hours) {
    if (hours < 48)
        return `${Math.max(0, hours).toFixed(1)} h old`;
    return `${formatCount(Math.round(hours / 24))} days old`;
}
function linksBlock(links) {
    const parts = [];
    if (links?.run)
        parts.push(`[Workflow run](${linkTarget(links.run, 'links.run')})`);
    if (links?.artifacts) {
        parts.push(`[Artifacts](${linkTarget(links.artifacts, 'links.artifacts')}): \`report.html\` in the evidence has every changed answer`);
    }
    return parts.length ? [parts.join(' · ')] : [];
}
function issueLine(issue, icon) {
    const where = [];
    if (issue.file)
        where.push(`file ${codeSpan(issue.file, { maxLength: 200 })}`);
    if (issue.field)
        where.push(`field ${codeSpan(issue.field, { maxLength: 120 })}`);
    if (issue.value !== undefined && issue.value !== '')
        where.push(`value ${codeSpan(issue.value, { maxLength: 120 })}`);
    const location = where.length ? ` (${where.join(', ')})` : '';
    return `- ${icon} ${codeSpan(issue.code, { maxLength: 80 })} ${escapeInline(issue.message, MAX_ISSUE_MESSAGE)}${location}`;
}
function issuesBlock(report, detail) {
    const lines = [];
    const list = (title, issues, icon) => {
        if (issues.length === 0)
            return;
        lines.push(`### ${icon} ${title} (${formatCount(issues.length)})`, '');
        for (const issue of issues.slice(0, detail.listed))
            lines.push(issueLine(issue, icon));
        if (issues.length > detail.listed)
            lines.push(`- … and ${formatCount(issues.length - detail.listed)} more; ${OMISSION_NOTICE}.`);
        lines.push('');
    };
    list('Errors', report.errors, '⛔');
    list('Warnings', report.warnings, '⚠️');
    return lines;
}
function gateFileNotice() {
    return '> [!NOTE]\n> ⚙️ The gate file changed in this pull request. The change takes effect after merge: this run used the gate file from the base branch.';
}
function gateFileDiff(diff) {
    const lines = sanitizeText(diff).split('\n');
    const shown = lines.slice(0, MAX_DIFF_LINES).map(line => truncateText(line, MAX_DIFF_LINE));
    if (lines.length > MAX_DIFF_LINES)
        shown.push(`… ${formatCount(lines.length - MAX_DIFF_LINES)} more lines`);
    return ['### ⚙️ Gate file change (takes effect after merge)', '', codeBlock(shown.join('\n'), 'diff'), ''];
}
/**
 * Six columns, the verdict first, so that at the width of a pull-request conversation (about
 * 800 px) every row's verdict and interval are visible without scrolling: one label cell for
 * run, metric, split and perturbation; delta and interval in one cell; flips as `+2 / -1`.
 * `__tests__/report/browser/comment-width.test.ts` checks this with GitHub's parser and stylesheet.
 */
const TABLE_HEADER = ['| Verdict | Comparison | Δ and interval | Tolerated | Changed | n |', '|---|---|--:|--:|--:|--:|'];
const RUN_LABEL_LENGTH = 48;
/**
 * A run name made to wrap and fit a table cell: HELM's `model=` argument (the same on both sides)
 * is dropped and the arguments are separated by spaces; the full name is in the changed-answers
 * details and the JSON.
 */
function runLabel(run) {
    // HELM writes `scenario:arg=v,...`, but a run name can also be `scenario,arg=v` (no colon):
    // the arguments start at the first `:` or `,` either way.
    const start = run.search(/[:,]/);
    if (start < 0)
        return run;
    const args = run
        .slice(start + 1)
        .split(',')
        .filter(arg => arg !== '' && !arg.startsWith('model='));
    return args.length ? `${run.slice(0, start)}: ${args.join(', ')}` : run.slice(0, start);
}
function labelCell(comparison) {
    const details = [comparison.metric, comparison.split, comparison.perturbation].filter((part) => part !== null && part !== '');
    const direction = comparison.direction === 'lower' ? ' (lower is better)' : '';
    return `${escapeInline(runLabel(comparison.run), RUN_LABEL_LENGTH)}<br>${escapeInline(details.join(' · '), 120)}${direction}`;
}
function deltaCell(comparison) {
    const ci = comparison.ci;
    let cell = `**${formatSigned(comparison.delta)}**<br>${formatInterval(ci.low, ci.high)}`;
    // The interval with unmatched instances imputed at the worst case, when the gate computed one.
    const worst = comparison.worst_case;
    if (worst && worst.imputed.baseline + worst.imputed.candidate > 0) {
        const bound = worst.low === null || worst.high === null ? 'unbounded' : formatInterval(worst.low, worst.high);
        cell += `<br>worst case ${bound}`;
    }
    return cell;
}
/** `+12 / -3`: changed for the better / for the worse, following the metric's direction. */
function flipsCell(comparison) {
    const lower = comparison.direction === 'lower';
    const better = lower ? comparison.losses : comparison.wins;
    const worse = lower ? comparison.wins : comparison.losses;
    return `+${formatCount(better)} / -${formatCount(worse)}`;
}
function tableRow(comparison) {
    const cells = [
        verdictCell(comparison),
        labelCell(comparison),
        deltaCell(comparison),
        formatSigned(marginOf(comparison)),
        flipsCell(comparison),
        formatCount(comparison.n)
    ];
    return `| ${cells.join(' | ')} |`;
}
function tableLegend(shown) {
    const level = shown.length > 0 ? formatLevel(shown[0].ci.level) : '';
    return `_Δ: candidate - baseline, with its ${level} interval. Tolerated: the change the gate accepts. Changed: answers that got better / worse._`;
}
function omittedLine(omitted) {
    if (omitted.length === 0)
        return [];
    const passing = omitted.filter(c => c.verdict === 'pass').length;
    return [
        '',
        `_${plural(omitted.length, 'comparison', 'comparisons')} omitted to fit the size limit (${formatCount(passing)} passing, ${formatCount(omitted.length - passing)} ungated and not passing); ${OMISSION_NOTICE}._`
    ];
}
function tableBlock(shown, omitted, total) {
    if (total === 0)
        return ['### Comparisons', '', '_No comparisons._', ''];
    const lines = ['### Comparisons', ''];
    if (shown.length > 0)
        lines.push(...TABLE_HEADER, ...shown.map(tableRow), '', tableLegend(shown));
    else
        lines.push('_Every gated comparison passed._');
    return [...lines, ...omittedLine(omitted), ''];
}
/**
 * A code block in a PR comment 800 px wide holds about 90 columns of GitHub's code font
 * (__tests__/report/browser/comment-width.test.ts); a few less leave room for other fonts.
 */
const FOREST_COLUMNS = 84;
function forestBlock(shown) {
    if (shown.length === 0)
        return [];
    const rows = shown.map(c => ({
        // The run name can be long; keep the metric, split and perturbation readable.
        label: [truncateText(c.run, 20), c.metric, c.split, c.perturbation].filter(p => p !== null && p !== '').join(' · '),
        low: c.ci.low,
        high: c.ci.high,
        estimate: c.delta,
        margin: marginOf(c),
        verdict: comparisonVerdictLabel(c)
    }));
    const plot = renderForestPlot(rows, { labelWidth: 56, maxColumns: FOREST_COLUMNS });
    return ['### Forest plot', '', codeBlock(plot.join('\n'), 'text'), ''];
}
function inconclusiveBlock(report, detail) {
    const inconclusive = report.comparisons.filter(c => c.gated && c.verdict === 'inconclusive');
    if (inconclusive.length === 0)
        return [];
    const lines = ['### 🟡 Inconclusive: what would resolve it', ''];
    for (const c of inconclusive.slice(0, detail.listed)) {
        const where = `- ${escapeInline(comparisonName(c), 160)} (n = ${formatCount(c.n)}): the interval ` +
            `${formatInterval(c.ci.low, c.ci.high)} includes the tolerated change ${formatSigned(marginOf(c))}.`;
        const fix = c.n_needed !== null && Number.isFinite(c.n_needed)
            ? ` About **${formatCount(c.n_needed)} instances** in total would resolve it.`
            : ' The estimated change is already at or beyond the tolerated drop, so more instances would not make it pass.';
        lines.push(where + fix);
    }
    if (inconclusive.length > detail.listed) {
        lines.push(`- … and ${formatCount(inconclusive.length - detail.listed)} more; ${OMISSION_NOTICE}.`);
    }
    lines.push('', '**More instances, not a looser threshold:** raise `max_eval_instances` (or add scenarios) so the interval narrows. Loosening `max_drop` after seeing a result defeats the gate.', '');
    return lines;
}
function ratioCell(ratio) {
    return `${formatNumber(ratio.estimate)}×<br>[${formatNumber(ratio.low)}, ${formatNumber(ratio.high)}]`;
}
/** Request times are seconds (HELM's inference_runtime); shown in ms below 10 s. */
function secondsText(seconds) {
    if (!Number.isFinite(seconds))
        return '—';
    return Math.abs(seconds) < 10 ? `${formatNumber(seconds * 1000)} ms` : `${formatNumber(seconds)} s`;
}
/** Collapsed: information only, and long on a gate with many runs. */
function efficiencyBlock(report, detail) {
    if (report.efficiency.length === 0 && report.notes.length === 0)
        return [];
    const lines = [];
    if (report.efficiency.length > 0) {
        lines.push('<details>', '<summary>Efficiency: request times (information only, not gated)</summary>', '');
        if (report.context?.concurrent) {
            lines.push('> [!NOTE]', '> Both sides ran at the same time on one machine: the ratios reflect the shared client as much as the servers.', '');
        }
        if (detail.efficiencyRows) {
            lines.push('| Run | n | Median, baseline → candidate | Median ratio | p90 ratio |', '|---|--:|---|--:|--:|');
            for (const e of report.efficiency) {
                const cells = [
                    escapeInline(runLabel(e.run), RUN_LABEL_LENGTH),
                    formatCount(e.n),
                    `${secondsText(e.baseline_median)} → ${secondsText(e.candidate_median)}`,
                    ratioCell(e.median_ratio),
                    ratioCell(e.p90_ratio)
                ];
                lines.push(`| ${cells.join(' | ')} |`);
            }
            lines.push('', '_Ratios are candidate / baseline with their intervals; above 1 the candidate took longer._');
        }
        else {
            lines.push(`_${plural(report.efficiency.length, 'efficiency entry', 'efficiency entries')} omitted to fit the size limit._`);
        }
        lines.push('', '</details>', '');
    }
    if (report.notes.length > 0)
        lines.push('### Notes', '');
    for (const note of report.notes.slice(0, detail.listed))
        lines.push(`- ${escapeInline(note, MAX_ISSUE_MESSAGE)}`);
    if (report.notes.length > 0)
        lines.push('');
    return lines;
}
/**
 * An excerpt of an example text. Cut before sanitising: examples can be megabytes and only the
 * excerpt is shown; the slack covers characters that sanitising removes.
 */
function excerptOf(value, length, fromEnd) {
    const slack = length * 2 + 64;
    const rough = value.length <= slack ? value : fromEnd ? value.slice(-slack) : value.slice(0, slack);
    const clean = sanitizeText(rough);
    return fromEnd ? tailText(clean, length) : truncateText(clean, length);
}
function exampleLines(example, excerpt) {
    const text = (label, value, fromEnd = false) => [
        `${label}:`,
        '',
        codeBlock(excerptOf(value, excerpt, fromEnd), 'text'),
        ''
    ];
    return [
        `**Instance** ${codeSpan(example.instance_id, { maxLength: 120 })} (trial ${formatCount(example.train_trial_index)}): ` +
            `baseline ${formatNumber(example.baseline_value)} → candidate ${formatNumber(example.candidate_value)}`,
        '',
        // HELM prompts put the in-context examples first and the question last: show the end.
        ...text('Input (end)', example.input, true),
        ...text('Reference', example.reference),
        ...(example.failed_check ? text('Failed check', example.failed_check) : []),
        ...text('Baseline output', example.baseline_output),
        ...text('Candidate output', example.candidate_output)
    ];
}
/** Which comparisons get their changed answers first when not all fit: what blocks the merge. */
function examplePriority(c) {
    if (c.gated)
        return c.verdict === 'fail' ? 0 : c.verdict === 'inconclusive' ? 1 : 3;
    return c.verdict === 'pass' ? 4 : 2;
}
function detailsSection(c, detail) {
    const shown = c.examples.slice(0, detail.examples);
    const changed = c.wins + c.losses;
    const lines = [
        '<details>',
        `<summary>${escapeHtmlText(comparisonName(c), 300)}: ${formatCount(shown.length)} of ${formatCount(Math.max(changed, shown.length))} changed answers</summary>`,
        '',
        `Mean ${formatNumber(c.baseline_mean)} → ${formatNumber(c.candidate_mean)} on ${plural(c.n, 'instance', 'instances')} (${escapeInline(formatFlips(c), 80)}).`,
        ''
    ];
    for (const example of shown)
        lines.push(...exampleLines(example, detail.excerpt));
    lines.push('</details>', '');
    return lines;
}
/**
 * The changed answers, one collapsed section per comparison, in report order. With `fill`,
 * sections are chosen by priority while they fit in `budget`; otherwise rendering stops once
 * `budget` is exceeded, because this level of detail cannot fit and the rest (2,000 comparisons
 * with examples make megabytes) would be rendered only to be thrown away.
 */
function examplesBlock(report, detail, budget, unit) {
    const withExamples = report.comparisons.filter(c => c.examples.length > 0);
    if (detail.examples === 0 || withExamples.length === 0)
        return { lines: [], shown: 0, of: withExamples.length };
    const candidates = detail.fill ? [...withExamples].sort((a, b) => examplePriority(a) - examplePriority(b)) : withExamples;
    const chosen = new Map();
    let size = measure('### Changed answers\n\n', unit);
    for (const c of candidates) {
        if (!detail.fill && size > budget)
            break;
        const section = detailsSection(c, detail);
        const sectionSize = measure(section.join('\n'), unit) + 1;
        if (detail.fill && size + sectionSize > budget)
            continue;
        chosen.set(c, section);
        size += sectionSize;
    }
    if (chosen.size === 0)
        return { lines: [], shown: 0, of: withExamples.length };
    const lines = ['### Changed answers', ''];
    for (const c of withExamples)
        lines.push(...(chosen.get(c) ?? []));
    return { lines, shown: chosen.size, of: withExamples.length };
}
function omittedExamplesNote(examples, detail, full) {
    if (examples.of === 0)
        return [];
    let what;
    if (examples.shown === 0)
        what = 'Changed answers omitted';
    else if (examples.shown < examples.of) {
        what = `Changed answers shown for ${formatCount(examples.shown)} of ${plural(examples.of, 'comparison', 'comparisons')} (failing and inconclusive first, ${plural(detail.examples, 'answer', 'answers')} each)`;
    }
    else if (detail.examples < full)
        what = `Only ${plural(detail.examples, 'changed answer', 'changed answers')} per comparison shown`;
    else
        return [];
    return [`_${what} to fit the size limit; ${OMISSION_NOTICE}._`, ''];
}
function renderAtLevel(report, options, detail, full) {
    const sections = new Set(options.sections ?? ALL_SECTIONS);
    const lines = [];
    if (options.marker !== undefined)
        lines.push(markerLine(options.marker));
    if (sections.has('headline'))
        lines.push(...headlineBlock(report));
    const keepLines = lines.length;
    if (sections.has('headline'))
        lines.push('', ...sidesBlock(report));
    if (sections.has('links')) {
        const links = linksBlock(options.links);
        if (links.length)
            lines.push('', ...links);
    }
    lines.push('');
    if (sections.has('issues'))
        lines.push(...issuesBlock(report, detail));
    const gateFileChange = options.gateFileChange ?? null;
    if (sections.has('gate-file') && gateFileChange !== null)
        lines.push(gateFileNotice(), '');
    const shown = report.comparisons.filter(c => rowIncluded(c, detail.rows));
    const omitted = report.comparisons.filter(c => !rowIncluded(c, detail.rows));
    if (sections.has('table'))
        lines.push(...tableBlock(shown, omitted, report.comparisons.length));
    if (sections.has('forest'))
        lines.push(...forestBlock(shown));
    if (sections.has('table'))
        lines.push(...renderLoadMarkdown(report.load));
    if (sections.has('inconclusive'))
        lines.push(...inconclusiveBlock(report, detail));
    if (sections.has('efficiency'))
        lines.push(...efficiencyBlock(report, detail));
    if (sections.has('examples')) {
        const examples = examplesBlock(report, detail, detail.exampleBudget ?? options.maxLength, options.lengthUnit ?? 'utf16');
        lines.push(...omittedExamplesNote(examples, detail, full), ...examples.lines);
    }
    if (sections.has('gate-file') && gateFileChange !== null) {
        if (detail.diff)
            lines.push(...gateFileDiff(gateFileChange));
        else
            lines.push(`_The gate file diff is omitted to fit the size limit; ${OMISSION_NOTICE}._`, '');
    }
    while (lines.length > 0 && lines[lines.length - 1] === '')
        lines.pop();
    while (keepLines === 0 && lines.length > 0 && lines[0] === '')
        lines.shift();
    return { text: `${lines.join('\n')}\n`, keepLines };
}
function renderMarkdown(report, options) {
    if (!Number.isFinite(options.maxLength) || options.maxLength <= 0) {
        throw new UsageError('report.invalid_max_length', 'The size limit must be a positive number', {
            field: 'maxLength',
            value: options.maxLength
        });
    }
    const unit = options.lengthUnit ?? 'utf16';
    const full = Math.max(0, Math.floor(options.examplesPerComparison ?? 3));
    let last = null;
    const all = levels(full);
    for (const [index, level] of all.entries()) {
        let detail = level;
        if (level.fill) {
            // The room the next level (the same without examples) leaves, less a line for the note.
            const without = renderAtLevel(report, options, all[index + 1], full);
            const room = options.maxLength - measure(without.text, unit) - 400;
            if (room <= 0)
                continue;
            detail = { ...level, exampleBudget: room };
        }
        last = renderAtLevel(report, options, detail, full);
        if (measure(last.text, unit) <= options.maxLength)
            return last.text;
    }
    const smallest = last;
    return cutAtLineBoundary(smallest.text, options.maxLength, unit, TRUNCATION_NOTICE, smallest.keepLines);
}

/** Writing a finished report where the user asked for it. */
async function writeReportOutputs(report, opts) {
    if (opts.json)
        await writeText(opts.json, renderJson(report));
    if (opts.html)
        await writeText(opts.html, renderHtml(report, opts.changed));
    if (opts.markdown)
        await writeText(opts.markdown, renderMarkdown(report, { maxLength: LIMITS.markdownFile }));
    if (opts.print === false)
        return;
    if (!opts.quiet)
        opts.io.stdout(renderConsole(report, { color: opts.color ?? false }));
    // --quiet prints nothing but errors: the summary is not printed, so the errors are, once each.
    else
        for (const e of report.errors)
            opts.io.stderr(`helm-gate: error: ${e.message} [${e.code}]\n`);
}
async function writeText(file, text) {
    try {
        await mkdir(dirname(file), { recursive: true });
        await writeFile(file, text);
    }
    catch (error) {
        throw new InputError('output.unwritable', `cannot write ${file}: ${error.message}`, { file });
    }
}

/**
 * `helm-gate compare <baseline> <candidate> [options]`: compare two sets of existing HELM run
 * directories (or two lm-eval output folders) and decide. Exit 0 pass, 1 fail or inconclusive, 2 error.
 */
const COMPARE_USAGE = `usage: helm-gate compare <baseline> <candidate> [options]

Each side is a HELM output path (benchmark_output), a suite directory (runs/<suite>)
or a single run directory; or an lm-eval --log_samples output folder (OUT or
OUT/<model>), where runs are tasks and --split names the lm-eval filter.

  --config FILE             gate file (runs, metrics, tolerated drops, statistics)
  --metric NAME             metric to compare in every run (without --config)
  --split NAME              split to compare (default: the only one, or test)
  --max-drop M              tolerated drop in metric units
  --max-relative-drop R     tolerated drop as a fraction of the baseline mean
  --lower-is-better         the metric is an error rate (lower is better)
  --gate-perturbations      gate each perturbation and the worst case too
  --confidence C            interval level (default 0.95)
  --resamples N             bootstrap draws (default 10000)
  --seed S                  bootstrap seed (default 0)
  --interval METHOD         auto | bootstrap | newcombe | tango (0/1 metrics)
  --min-overlap F           shared instances needed (default 0.95)
  --examples N              changed answers shown per comparison (default 3)
  --json FILE               write the JSON report
  --markdown FILE           write the markdown report (the PR comment body)
  --html FILE               write report.html: plot, sortable table, every changed answer
  --quiet                   print nothing but errors
  --debug                   show stack traces
`;
const SPECS$1 = {
    config: { value: true },
    metric: { value: true },
    split: { value: true },
    'max-drop': { value: true },
    'max-relative-drop': { value: true },
    'lower-is-better': { value: false },
    'gate-perturbations': { value: false },
    confidence: { value: true },
    resamples: { value: true },
    seed: { value: true },
    interval: { value: true },
    'min-overlap': { value: true },
    examples: { value: true },
    json: { value: true },
    markdown: { value: true },
    html: { value: true },
    quiet: { value: false },
    debug: { value: false },
    help: { value: false }
};
async function compareCommand(argv, io) {
    const args = parseArgs(argv, SPECS$1);
    if (args.flags.has('help')) {
        io.stdout(COMPARE_USAGE);
        return 0;
    }
    if (args.positionals.length !== 2) {
        throw new UsageError('usage.positionals', `compare needs <baseline> and <candidate> paths\n\n${COMPARE_USAGE}`, {
            value: args.positionals.join(' ') || undefined
        });
    }
    const [baselinePath, candidatePath] = args.positionals;
    const { config, defaults } = await configFromArgs(args);
    const examples = numberOption(args, 'examples', n => Number.isInteger(n) && n >= 0 && n <= 100, 'an integer from 0 to 100');
    const html = args.options.get('html') ?? null;
    const changedAnswers = html ? new Map() : undefined;
    const report = await compareOutputs(baselinePath, candidatePath, config, {
        defaults,
        examples: examples ?? 3,
        changedAnswers
    });
    await writeReportOutputs(report, {
        json: args.options.get('json') ?? null,
        markdown: args.options.get('markdown') ?? null,
        html,
        changed: changedAnswers,
        quiet: args.flags.has('quiet'),
        io
    });
    return exitCode(report.verdict);
}
async function configFromArgs(args) {
    const statistics = statisticsFromArgs(args);
    const configPath = args.options.get('config');
    if (configPath) {
        for (const name of ['metric', 'split', 'max-drop', 'max-relative-drop']) {
            if (args.options.has(name)) {
                throw new UsageError('usage.conflict', `--${name} cannot be combined with --config: the gate file sets it per run`, {
                    field: `--${name}`
                });
            }
        }
        for (const name of ['lower-is-better', 'gate-perturbations']) {
            if (args.flags.has(name)) {
                throw new UsageError('usage.conflict', `--${name} cannot be combined with --config: the gate file sets it per run`);
            }
        }
        const config = await loadGateConfig(configPath);
        return { config: { ...config, statistics: { ...config.statistics, ...statistics } }, defaults: null };
    }
    const metric = args.options.get('metric');
    if (!metric)
        throw new UsageError('usage.missing', 'give --metric NAME (or a gate file with --config)');
    const maxDrop = numberOption(args, 'max-drop', n => n >= 0, 'a number >= 0 (metric units)');
    const maxRelativeDrop = numberOption(args, 'max-relative-drop', n => n > 0 && n < 1, 'a fraction between 0 and 1');
    if (maxDrop === undefined && maxRelativeDrop === undefined) {
        throw new UsageError('usage.missing', 'give the tolerated drop: --max-drop M (metric units) or --max-relative-drop R (a fraction of the baseline)');
    }
    if (maxDrop !== undefined && maxRelativeDrop !== undefined) {
        throw new UsageError('usage.conflict', 'give either --max-drop or --max-relative-drop, not both');
    }
    const config = {
        version: 1,
        source: '(command line)',
        helm: null,
        deployments: null,
        runs: [],
        statistics: { ...DEFAULT_STATISTICS, ...statistics }
    };
    return {
        config,
        defaults: {
            metric,
            split: args.options.get('split') ?? null,
            maxDrop: maxDrop ?? null,
            maxRelativeDrop: maxRelativeDrop ?? null,
            direction: args.flags.has('lower-is-better') ? 'lower' : 'higher',
            perturbations: args.flags.has('gate-perturbations') ? 'gate' : 'report'
        }
    };
}
function statisticsFromArgs(args) {
    const out = {};
    const confidence = numberOption(args, 'confidence', n => n >= 0.5 && n < 1, 'a level in [0.5, 1), e.g. 0.95');
    if (confidence !== undefined)
        out.confidence = confidence;
    const resamples = numberOption(args, 'resamples', n => Number.isInteger(n) && n >= 100 && n <= 10_000_000, 'an integer from 100 to 10000000');
    if (resamples !== undefined)
        out.resamples = resamples;
    const seed = numberOption(args, 'seed', n => Number.isInteger(n) && n >= 0 && n < 2 ** 32, 'an integer from 0 to 4294967295');
    if (seed !== undefined)
        out.seed = seed;
    const minOverlap = numberOption(args, 'min-overlap', n => n > 0 && n <= 1, 'a fraction in (0, 1]');
    if (minOverlap !== undefined)
        out.minOverlap = minOverlap;
    const interval = args.options.get('interval');
    if (interval !== undefined) {
        if (!['auto', 'bootstrap', 'newcombe', 'tango'].includes(interval)) {
            throw new UsageError('usage.value', '--interval must be auto, bootstrap, newcombe or tango', { value: interval });
        }
        out.interval = interval;
    }
    return out;
}

/**
 * `helm-gate power --config FILE [--pilot DIR | --discordance R]`: for each gated comparison,
 * the smallest max_eval_instances whose interval would be narrower than its tolerated drop.
 * Normal approximation for paired differences (see stats/power.ts).
 */
const POWER_USAGE = `usage: helm-gate power --config FILE (--pilot DIR | --discordance R)

For each gated comparison, the smallest max_eval_instances whose interval would lie above the
tolerated drop, by a normal approximation for paired differences:
  n = ceil((z * sd / (delta + max_drop))^2)

  --pilot DIR         a previous run's output folder (or its report.json): sd and delta are
                      taken from each comparison there
  --discordance R     assumed share of instances whose answer changes (0/1 metrics; delta 0,
                      sd = sqrt(R)); e.g. the flip rate from run --self-check
`;
const SPECS = {
    config: { value: true },
    pilot: { value: true },
    discordance: { value: true },
    debug: { value: false },
    help: { value: false }
};
async function powerCommand(argv, io) {
    const args = parseArgs(argv, SPECS);
    if (args.flags.has('help')) {
        io.stdout(POWER_USAGE);
        return 0;
    }
    const configPath = requiredConfig(args, POWER_USAGE);
    const discordance = numberOption(args, 'discordance', n => n > 0 && n <= 1, 'a rate in (0, 1]');
    const pilotPath = args.options.get('pilot');
    if ((discordance === undefined) === (pilotPath === undefined)) {
        throw new UsageError('usage.missing', `give exactly one of --pilot DIR or --discordance R\n\n${POWER_USAGE}`);
    }
    const config = await loadGateConfig(resolve$1(io.cwd, configPath));
    const confidence = config.statistics.confidence;
    const rows = [];
    if (discordance !== undefined) {
        for (const run of config.runs) {
            const sd = binarySd(discordance);
            rows.push({
                entry: run.entry,
                metric: run.metric,
                perturbation: null,
                maxDrop: run.maxDrop,
                sd,
                delta: 0,
                needed: run.maxDrop === null ? null : instancesNeeded({ sd, delta: 0, margin: run.maxDrop, confidence }),
                note: run.maxDrop === null ? 'relative drop: needs a pilot for the baseline mean' : `assumed discordance ${discordance}`
            });
        }
    }
    else {
        const report = await readPilot(resolve$1(io.cwd, pilotPath));
        for (const c of report.comparisons.filter(c => c.gated))
            rows.push(pilotRow(c, confidence));
    }
    io.stdout(renderPower(rows, config.helm?.maxEvalInstances ?? null, confidence));
    return 0;
}
/** sd of the paired difference recovered from a pilot comparison. */
function pilotRow(c, confidence) {
    let sd;
    if (c.binary && c.pairs > 0) {
        sd = binarySd((c.wins + c.losses) / c.pairs, c.delta);
    }
    else if (c.n > 0) {
        // Continuous metrics: invert the interval's half-width, hw = z * sd / sqrt(n).
        const z = normalQuantile(1 - (1 - confidence) / 2);
        sd = (((c.ci.high - c.ci.low) / 2) * Math.sqrt(c.n)) / z;
    }
    else {
        sd = null;
    }
    const margin = c.max_drop;
    // For lower-is-better metrics a drop is an increase: mirror delta.
    const delta = c.direction === 'lower' ? -c.delta : c.delta;
    const needed = sd === null ? null : instancesNeeded({ sd, delta, margin, confidence });
    return {
        entry: c.entry ?? c.run,
        metric: c.metric,
        perturbation: c.perturbation,
        maxDrop: c.max_drop,
        sd,
        delta: c.delta,
        needed,
        note: sd === null
            ? 'no paired data in the pilot'
            : needed === null
                ? `the pilot's delta ${c.delta.toFixed(4)} is already beyond the tolerated drop: no sample size passes`
                : `pilot n=${c.n}, ${c.wins + c.losses} changed`
    };
}
async function readPilot(path) {
    let file = path;
    try {
        if ((await stat(path)).isDirectory())
            file = join(path, 'report.json');
    }
    catch {
        throw new InputError('input.missing', 'the pilot folder or report does not exist', { file: path });
    }
    try {
        const report = JSON.parse(await readFile(file, 'utf8'));
        if (report.schema_version !== 1 || !Array.isArray(report.comparisons))
            throw new Error('not a helm-gate report');
        return report;
    }
    catch (error) {
        throw new InputError('input.pilot', `cannot read the pilot report: ${error.message}`, { file });
    }
}
function renderPower(rows, current, confidence) {
    const lines = [
        `Instances needed for a decisive ${Math.round(confidence * 100)}% interval (normal approximation, paired differences)`,
        current === null ? '' : `current max_eval_instances: ${current}`,
        ''
    ];
    for (const row of rows) {
        const name = `${row.entry} ${row.metric}${row.perturbation ? ` [${row.perturbation}]` : ''}`;
        const needed = row.needed === null ? 'not reachable' : String(row.needed);
        const enough = row.needed !== null && current !== null ? (row.needed <= current ? ' (enough)' : ' (raise max_eval_instances)') : '';
        lines.push(`  ${name}: max_drop ${row.maxDrop ?? 'relative'}, sd ${row.sd === null ? '-' : row.sd.toFixed(4)} -> ${needed}${enough}; ${row.note}`);
    }
    return `${lines.filter((line, i) => line !== '' || i === 2).join('\n')}\n`;
}

/**
 * The command-line twin of the action: the same core, runnable on a workstation.
 * Expected failures (GateError) print one line naming the file, field and value and exit 2;
 * a stack trace is shown only with --debug.
 */
const USAGE = `helm-gate ${HELM_GATE_VERSION}: is the candidate deployment meaningfully worse than the baseline?

usage:
  helm-gate compare <baseline> <candidate> [options]   compare existing HELM output
  helm-gate run --config FILE [options]                run both deployments with helm-run, then compare
  helm-gate load --config FILE [options]               the performance half alone: load-test both deployments
  helm-gate plan --config FILE                         show the prod_env files and helm-run commands
  helm-gate power --config FILE [options]              instances needed for a decisive result
  helm-gate traffic build LOG... --out SET --count N   a frozen traffic set from request logs
  helm-gate <command> --help                           options of a command

exit status: 0 pass, 1 fail or inconclusive, 2 error (bad input, failed guard, failed run)

${COMPARE_USAGE}`;
// The commands that start servers or load them are loaded when used: their HTTP client (undici)
// and launch code are most of the bundle's start-up, which `compare` does not need.
const COMMANDS = {
    compare: compareCommand,
    run: async (argv, io) => (await import('./cli-run.js')).runCommand(argv, io),
    load: async (argv, io) => (await import('./cli-load.js')).loadCommand(argv, io),
    plan: async (argv, io) => (await import('./cli-plan.js')).planCommand(argv, io),
    power: powerCommand,
    traffic: async (argv, io) => (await import('./cli-traffic.js')).trafficCommand(argv, io)
};
async function main(argv, io) {
    const [name, ...rest] = argv;
    if (!name || name === '--help' || name === '-h' || name === 'help') {
        io.stdout(USAGE);
        return name ? 0 : 2;
    }
    if (name === '--version') {
        io.stdout(`${HELM_GATE_VERSION}\n`);
        return 0;
    }
    const command = COMMANDS[name];
    if (!command) {
        io.stderr(`helm-gate: unknown command ${JSON.stringify(name)}; try helm-gate --help\n`);
        return 2;
    }
    const debug = rest.includes('--debug');
    try {
        return await command(rest, io);
    }
    catch (error) {
        if (error instanceof GateError) {
            // The code last: scripts (and the fault corpus) match on it; people read the sentence.
            io.stderr(`helm-gate: error: ${error.describe()} [${error.code}]\n`);
            if (debug && error.stack)
                io.stderr(`${error.stack}\n`);
            return 2;
        }
        io.stderr(`helm-gate: internal error: ${error?.message ?? String(error)}\n`);
        if (debug && error?.stack)
            io.stderr(`${error.stack}\n`);
        else
            io.stderr('helm-gate: run again with --debug for a stack trace, and please report it\n');
        return 2;
    }
}

function processIo() {
    return {
        stdout: s => process.stdout.write(s),
        stderr: s => process.stderr.write(s),
        env: process.env,
        cwd: process.cwd()
    };
}

/**
 * Entry of the command line, bundled as dist/cli.js (the `helm-gate` bin). The commands are in
 * cli/main.ts, which tests import without starting a process.
 */
main(process.argv.slice(2), processIo()).then(code => {
    process.exitCode = code;
}, () => {
    process.exitCode = 2;
});

export { Scalar as $, exp as A, log as B, ConfigError as C, DEFAULT_STATISTICS as D, abs as E, sqrt as F, GateError as G, HELM_GATE_VERSION as H, InputError as I, isFiniteNumber as J, quantileSorted as K, createRandom as L, MIN_BOOTSTRAP_UNITS as M, readTrafficSet as N, discoverRuns as O, RUN_FILES as P, HelmRunError as Q, REPORTED_MARGINS as R, ServerNotReadyError as S, TRAFFIC_CHECKS as T, UsageError as U, parseDocument as V, visit as W, isScalar as X, HIDDEN as Y, looksLikeSecret as Z, isCredentialKey as _, newReport as a, parseYamlFile as a0, stringify as a1, expandRunnerCommand as a2, looksLikeLmEvalOutput as a3, readLmEvalOutput as a4, taskMatchesEntry as a5, quantile as a6, ajvExports as b, estimatePaired as c, decideVerdict as d, exitCode as e, redactUrlsIn as f, qualityHeadline as g, redactTree as h, showValue as i, compareOutputs as j, readRunDirectory as k, loadGateConfig as l, runMatchesEntry as m, numberOption as n, streamJson as o, parseArgs as p, qualityVerdict as q, requiredConfig as r, smallSampleGuard as s, tangoInterval as t, instancesNeeded as u, binarySd as v, writeReportOutputs as w, twoSidedZ as x, redactUrl as y, getDefaultExportFromCjs as z };
