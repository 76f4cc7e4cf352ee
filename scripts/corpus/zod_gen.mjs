#!/usr/bin/env node
// Regenerate tests/schemas/zod/*.json.
//
// Three generators, all from the repo's node_modules:
//   * "sdk-v4-*": a zod 4 schema registered on the TypeScript SDK's McpServer and read back with
//     Client.listTools() over an InMemoryTransport. The SDK turns zod 4 into JSON Schema with
//     zod/v4-mini's toJSONSchema({ target: "draft-7", io: "input" }) ("output" for outputSchema).
//   * "sdk-v3-*": the same with a zod-3-style schema (`import { z } from "zod/v3"`); the SDK then uses
//     zod-to-json-schema (strictUnions: true, pipeStrategy: "input"/"output").
//   * "direct-v4-*": zod 4's own z.toJSONSchema(schema) with default options (draft 2020-12, io "output"),
//     which is what servers that build their tools/list by hand usually call.
// Instances are classified by schema.safeParse on the very zod schema that was registered; the script
// exits 1 if zod disagrees with the label an instance was written under.
//
// Run:  node scripts/corpus/zod_gen.mjs      (from the repo root)

import { readFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import { z as z3 } from 'zod/v3';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const OUT = join(ROOT, 'tests', 'schemas', 'zod');

function pkgVersion(name) {
  return JSON.parse(readFileSync(join(ROOT, 'node_modules', name, 'package.json'), 'utf8')).version;
}
const V = {
  zod: pkgVersion('zod'),
  zodToJsonSchema: pkgVersion('zod-to-json-schema'),
  sdk: pkgVersion('@modelcontextprotocol/sdk'),
};

const cases = [];
/**
 * file: corpus file name; how: 'sdk' | 'direct'; kind: 'input' | 'output' (sdk only);
 * schema: the zod object; code: one-line description of the zod source for `source`.
 */
function add(file, how, schema, code, valid, invalid, kind = 'input') {
  cases.push({ file, how, schema, code, valid, invalid, kind });
}

// ------------------------------------------------------------------------------------ zod 4 via the SDK

add('sdk-v4-object-basics', 'sdk',
  z.object({
    query: z.string().describe('Full-text search query'),
    limit: z.number().int().describe('Maximum results'),
    score_threshold: z.number(),
    include_archived: z.boolean(),
  }),
  'z.object({ query: z.string().describe(...), limit: z.number().int().describe(...), score_threshold: z.number(), include_archived: z.boolean() })',
  [{ query: 'mcp', limit: 10, score_threshold: 0.5, include_archived: false }],
  [
    { query: 'mcp', limit: 10.5, score_threshold: 0.5, include_archived: false },
    { query: 'mcp', limit: 10, score_threshold: '0.5', include_archived: false },
    { limit: 10, score_threshold: 0.5, include_archived: true },
  ]);

add('sdk-v4-optional-nullable-nullish', 'sdk',
  z.object({
    name: z.string(),
    nickname: z.string().optional(),
    middle_name: z.string().nullable(),
    suffix: z.string().nullish(),
    age: z.number().int().optional().nullable(),
  }),
  'z.object({ name: z.string(), nickname: z.string().optional(), middle_name: z.string().nullable(), suffix: z.string().nullish(), age: z.number().int().optional().nullable() })',
  [{ name: 'Ada', middle_name: null }, { name: 'Ada', nickname: 'A', middle_name: 'B', suffix: null, age: 36 }],
  [{ name: 'Ada' }, { name: 'Ada', middle_name: null, suffix: 3 }, { name: null, middle_name: null }]);

const Direction = { Up: 'UP', Down: 'DOWN' };
const Level = { Low: 0, High: 1, 0: 'Low', 1: 'High' }; // what `enum Level { Low, High }` compiles to
add('sdk-v4-enums-and-literals', 'sdk',
  z.object({
    status: z.enum(['open', 'closed', 'all']),
    direction: z.nativeEnum(Direction),
    level: z.enum(Level),
    sort: z.union([z.literal('asc'), z.literal('desc')]),
    version: z.literal(2),
    mode: z.literal(['fast', 'safe', 1]),
  }),
  "z.object({ status: z.enum([...]), direction: z.nativeEnum({Up:'UP',Down:'DOWN'}), level: z.enum(TS numeric enum Level), sort: z.union([z.literal('asc'), z.literal('desc')]), version: z.literal(2), mode: z.literal(['fast','safe',1]) })",
  [
    { status: 'open', direction: 'UP', level: 0, sort: 'asc', version: 2, mode: 'fast' },
    { status: 'all', direction: 'DOWN', level: 1, sort: 'desc', version: 2, mode: 1 },
  ],
  [
    { status: 'merged', direction: 'UP', level: 0, sort: 'asc', version: 2, mode: 'fast' },
    { status: 'open', direction: 'Up', level: 0, sort: 'asc', version: 2, mode: 'fast' },
    { status: 'open', direction: 'UP', level: 'Low', sort: 'asc', version: 3, mode: 'fast' },
  ]);

add('sdk-v4-discriminated-union', 'sdk',
  z.object({
    shape: z.discriminatedUnion('kind', [
      z.object({ kind: z.literal('circle'), radius: z.number().positive() }),
      z.object({ kind: z.literal('rect'), width: z.number(), height: z.number() }),
      z.object({ kind: z.literal('polygon'), points: z.array(z.tuple([z.number(), z.number()])).min(3) }),
    ]),
  }),
  "z.object({ shape: z.discriminatedUnion('kind', [circle{radius: positive}, rect{width,height}, polygon{points: z.array(z.tuple([num,num])).min(3)}]) })",
  [
    { shape: { kind: 'circle', radius: 2 } },
    { shape: { kind: 'polygon', points: [[0, 0], [1, 0], [0, 1]] } },
  ],
  [
    { shape: { kind: 'circle', radius: -1 } },
    { shape: { kind: 'triangle', a: 1 } },
    { shape: { kind: 'polygon', points: [[0, 0], [1, 0]] } },
  ]);

add('sdk-v4-union-array-of-objects', 'sdk',
  z.object({
    id: z.union([z.string(), z.number().int()]),
    line_items: z.array(z.object({
      sku: z.string(),
      quantity: z.number().int().min(1),
      options: z.array(z.string()).optional(),
    })).min(1).max(50),
  }),
  'z.object({ id: z.union([z.string(), z.number().int()]), line_items: z.array(z.object({ sku, quantity: int.min(1), options?: string[] })).min(1).max(50) })',
  [{ id: 'ord_1', line_items: [{ sku: 'A', quantity: 1 }] }, { id: 7, line_items: [{ sku: 'A', quantity: 2, options: ['gift'] }] }],
  [{ id: 'ord_1', line_items: [] }, { id: true, line_items: [{ sku: 'A', quantity: 1 }] }, { id: 1, line_items: [{ sku: 'A', quantity: 0 }] }]);

add('sdk-v4-tuple-and-record', 'sdk',
  z.object({
    range: z.tuple([z.number(), z.number()]),
    labeled: z.tuple([z.string(), z.number().int()], z.boolean()),
    headers: z.record(z.string(), z.string()),
    weights: z.record(z.enum(['a', 'b']), z.number()).optional(),
  }),
  "z.object({ range: z.tuple([num, num]), labeled: z.tuple([str, int], z.boolean()) (rest), headers: z.record(z.string(), z.string()), weights: z.record(z.enum(['a','b']), z.number()).optional() })",
  [
    { range: [0, 1], labeled: ['x', 1], headers: {} },
    { range: [0, 1], labeled: ['x', 1, true, false], headers: { 'X-Id': '1' }, weights: { a: 1, b: 2 } },
  ],
  [
    { range: [0, 1, 2], labeled: ['x', 1], headers: {} },
    { range: [0, 1], labeled: ['x', 1, 'y'], headers: {} },
    { range: [0, 1], labeled: ['x', 1], headers: { 'X-Id': 1 } },
  ]);

const CategoryV4 = z.lazy(() => z.object({ name: z.string(), subcategories: z.array(CategoryV4) }));
add('sdk-v4-lazy-recursion', 'sdk',
  z.object({ root: CategoryV4 }),
  'const Category = z.lazy(() => z.object({ name: z.string(), subcategories: z.array(Category) })); z.object({ root: Category })',
  [{ root: { name: 'a', subcategories: [] } }, { root: { name: 'a', subcategories: [{ name: 'b', subcategories: [] }] } }],
  [{ root: { name: 'a' } }, { root: { name: 'a', subcategories: [{ name: 1, subcategories: [] }] } }]);

add('sdk-v4-defaults-and-describe', 'sdk',
  z.object({
    path: z.string().describe('Directory to list'),
    recursive: z.boolean().default(false).describe('Descend into subdirectories'),
    max_depth: z.number().int().min(1).default(3),
    exclude: z.array(z.string()).default(['node_modules', '.git']),
    sort: z.enum(['name', 'size', 'mtime']).default('name'),
    format: z.string().optional().default('text'),
  }).describe('Arguments for list_directory'),
  "z.object({ path: z.string().describe(...), recursive: z.boolean().default(false).describe(...), max_depth: int.min(1).default(3), exclude: z.array(z.string()).default([...]), sort: z.enum([...]).default('name'), format: z.string().optional().default('text') }).describe(...)",
  [{ path: '/tmp' }, { path: '/tmp', recursive: true, max_depth: 1, exclude: [], sort: 'size', format: 'json' }],
  [{ path: '/tmp', max_depth: 0 }, { path: '/tmp', sort: 'ctime' }, { recursive: true }]);

add('sdk-v4-number-constraints', 'sdk',
  z.object({
    page: z.number().int().positive(),
    per_page: z.number().int().min(1).max(100),
    offset: z.number().int().nonnegative(),
    ratio: z.number().gt(0).lt(1),
    step: z.number().multipleOf(0.25),
    delta: z.number().negative().optional(),
    port: z.int32().min(1024).max(65535).optional(),
  }),
  'z.object({ page: int.positive(), per_page: int.min(1).max(100), offset: int.nonnegative(), ratio: z.number().gt(0).lt(1), step: z.number().multipleOf(0.25), delta: z.number().negative().optional(), port: z.int32().min(1024).max(65535).optional() })',
  [{ page: 1, per_page: 100, offset: 0, ratio: 0.5, step: 1.75 }, { page: 3, per_page: 1, offset: 9, ratio: 0.01, step: 0, delta: -2, port: 8080 }],
  [
    { page: 0, per_page: 10, offset: 0, ratio: 0.5, step: 1 },
    { page: 1, per_page: 101, offset: 0, ratio: 1, step: 1 },
    { page: 1, per_page: 10, offset: 0, ratio: 0.5, step: 0.3 },
  ]);

add('sdk-v4-string-formats', 'sdk',
  z.object({
    email: z.email(),
    homepage: z.url(),
    id: z.uuid(),
    created_at: z.iso.datetime(),
    birthday: z.iso.date(),
    slug: z.string().regex(/^[a-z0-9]+(?:-[a-z0-9]+)*$/),
    ip: z.ipv4().optional(),
    code: z.string().min(4).max(8).optional(),
    legacy_email: z.string().email().optional(),
  }),
  'z.object({ email: z.email(), homepage: z.url(), id: z.uuid(), created_at: z.iso.datetime(), birthday: z.iso.date(), slug: z.string().regex(/^[a-z0-9]+(?:-[a-z0-9]+)*$/), ip: z.ipv4().optional(), code: z.string().min(4).max(8).optional(), legacy_email: z.string().email().optional() })',
  [{
    email: 'ada@example.com', homepage: 'https://example.com/ada', id: '123e4567-e89b-12d3-a456-426614174000',
    created_at: '2025-11-25T10:00:00Z', birthday: '1815-12-10', slug: 'ada-lovelace', ip: '127.0.0.1', code: 'abcd',
  }],
  [
    {
      email: 'not-an-email', homepage: 'https://example.com/ada', id: '123e4567-e89b-12d3-a456-426614174000',
      created_at: '2025-11-25T10:00:00Z', birthday: '1815-12-10', slug: 'ada-lovelace',
    },
    {
      email: 'ada@example.com', homepage: 'https://example.com/ada', id: '123e4567-e89b-12d3-a456-426614174000',
      created_at: '2025-11-25T10:00:00Z', birthday: '1815-12-10', slug: 'Ada Lovelace',
    },
    {
      email: 'ada@example.com', homepage: 'https://example.com/ada', id: 'xyz',
      created_at: '2025-11-25T10:00:00Z', birthday: '1815-12-10', slug: 'ada', code: 'abc',
    },
  ]);

add('sdk-v4-any-unknown', 'sdk',
  z.object({
    key: z.string(),
    value: z.any(),
    metadata: z.unknown(),
    extra: z.record(z.string(), z.any()).optional(),
  }),
  'z.object({ key: z.string(), value: z.any(), metadata: z.unknown(), extra: z.record(z.string(), z.any()).optional() })',
  [{ key: 'k', value: null, metadata: 0 }, { key: 'k', value: [1, { a: null }], metadata: 'x', extra: { a: 1 } }],
  [{ key: 'k' }, { value: 1, metadata: 1 }, { key: 'k', value: 1, metadata: 1, extra: [1] }]);

add('sdk-v4-strict-catchall-passthrough', 'sdk',
  z.object({
    strict_opts: z.strictObject({ retries: z.number().int() }),
    loose_opts: z.looseObject({ verbose: z.boolean().optional() }),
    env: z.object({ NODE_ENV: z.enum(['development', 'production']) }).catchall(z.string()),
  }),
  "z.object({ strict_opts: z.strictObject({ retries: int }), loose_opts: z.looseObject({ verbose?: bool }), env: z.object({ NODE_ENV: z.enum([...]) }).catchall(z.string()) })",
  [
    { strict_opts: { retries: 3 }, loose_opts: {}, env: { NODE_ENV: 'production' } },
    { strict_opts: { retries: 0 }, loose_opts: { verbose: true, anything: [1] }, env: { NODE_ENV: 'development', HOME: '/root' } },
  ],
  [
    { strict_opts: { retries: 3, extra: 1 }, loose_opts: {}, env: { NODE_ENV: 'production' } },
    { strict_opts: { retries: 3 }, loose_opts: {}, env: { NODE_ENV: 'production', PORT: 8080 } },
  ]);

add('sdk-v4-meta-title-examples-deprecated', 'sdk',
  z.object({
    repo: z.string().meta({ title: 'Repository', description: 'owner/name', examples: ['octocat/hello-world'] }),
    branch: z.string().default('main').meta({ title: 'Branch' }),
    force: z.boolean().optional().meta({ deprecated: true, description: 'Use `mode: "force"` instead' }),
    mode: z.enum(['normal', 'force']).optional(),
  }),
  "z.object({ repo: z.string().meta({title, description, examples}), branch: z.string().default('main').meta({title}), force: z.boolean().optional().meta({deprecated: true, description}), mode: z.enum([...]).optional() })",
  [{ repo: 'octocat/hello-world' }, { repo: 'a/b', branch: 'dev', force: false, mode: 'force' }],
  [{ repo: 'a/b', mode: 'push' }, { branch: 'main' }]);

add('sdk-v4-array-constraints', 'sdk',
  z.object({
    recipients: z.array(z.email()).nonempty(),
    cc: z.array(z.string()).max(3).optional(),
    matrix: z.array(z.array(z.number())).length(2),
  }),
  'z.object({ recipients: z.array(z.email()).nonempty(), cc: z.array(z.string()).max(3).optional(), matrix: z.array(z.array(z.number())).length(2) })',
  [{ recipients: ['a@example.com'], matrix: [[1], [2, 3]] }],
  [{ recipients: [], matrix: [[], []] }, { recipients: ['a@example.com'], cc: ['1', '2', '3', '4'], matrix: [[], []] }, { recipients: ['a@example.com'], matrix: [[1]] }]);

add('sdk-v4-output-schema', 'sdk',
  z.object({
    temperature: z.number().describe('Degrees Celsius'),
    conditions: z.enum(['sunny', 'cloudy', 'rain']),
    humidity: z.number().min(0).max(100),
    alerts: z.array(z.object({ title: z.string(), severity: z.enum(['minor', 'severe']) })).default([]),
    observed_at: z.iso.datetime().optional(),
  }),
  'outputSchema: z.object({ temperature: z.number().describe(...), conditions: z.enum([...]), humidity: z.number().min(0).max(100), alerts: z.array(z.object({title, severity: enum})).default([]), observed_at: z.iso.datetime().optional() })',
  [{ temperature: 21.5, conditions: 'sunny', humidity: 40, alerts: [] }, { temperature: -3, conditions: 'rain', humidity: 100, alerts: [{ title: 'Flood', severity: 'severe' }], observed_at: '2025-01-01T00:00:00Z' }],
  [{ temperature: 21.5, conditions: 'snow', humidity: 40, alerts: [] }, { temperature: 21.5, conditions: 'sunny', humidity: 140, alerts: [] }],
  'output');

// ------------------------------------------------------------------------ zod/v3 (zod-to-json-schema) via the SDK

add('sdk-v3-object-basics', 'sdk',
  z3.object({
    owner: z3.string().describe('Repository owner'),
    repo: z3.string().describe('Repository name'),
    issue_number: z3.number().int().describe('Issue number'),
    lock: z3.boolean(),
  }),
  'z.object({ owner: z.string().describe(...), repo: z.string().describe(...), issue_number: z.number().int().describe(...), lock: z.boolean() })',
  [{ owner: 'octocat', repo: 'hello', issue_number: 1, lock: false }],
  [{ owner: 'octocat', repo: 'hello', issue_number: '1', lock: false }, { owner: 'octocat', repo: 'hello', lock: false }]);

add('sdk-v3-optional-nullable-nullish', 'sdk',
  z3.object({
    title: z3.string(),
    body: z3.string().optional(),
    milestone: z3.number().nullable(),
    assignee: z3.string().nullish(),
    labels: z3.array(z3.string()).optional().nullable(),
    parent: z3.object({ id: z3.number() }).nullable().optional(),
  }),
  'z.object({ title: z.string(), body: z.string().optional(), milestone: z.number().nullable(), assignee: z.string().nullish(), labels: z.array(z.string()).optional().nullable(), parent: z.object({id: z.number()}).nullable().optional() })',
  [{ title: 't', milestone: null }, { title: 't', body: 'b', milestone: 3, assignee: null, labels: null, parent: { id: 1 } }],
  [{ title: 't' }, { title: 't', milestone: null, parent: { id: 'x' } }, { title: 't', milestone: '3' }]);

add('sdk-v3-enums-nativeenum-literals', 'sdk',
  z3.object({
    state: z3.enum(['open', 'closed']),
    direction: z3.nativeEnum(Direction),
    level: z3.nativeEnum(Level),
    sort: z3.union([z3.literal('created'), z3.literal('updated'), z3.literal('comments')]),
    mixed: z3.union([z3.literal('auto'), z3.literal(0), z3.literal(true)]).optional(),
  }),
  "z.object({ state: z.enum([...]), direction: z.nativeEnum({Up:'UP',Down:'DOWN'}), level: z.nativeEnum(TS numeric enum), sort: z.union([z.literal(...) x3]), mixed: z.union([z.literal('auto'), z.literal(0), z.literal(true)]).optional() })",
  [{ state: 'open', direction: 'UP', level: 1, sort: 'created' }, { state: 'closed', direction: 'DOWN', level: 0, sort: 'comments', mixed: true }],
  [{ state: 'merged', direction: 'UP', level: 1, sort: 'created' }, { state: 'open', direction: 'UP', level: 2, sort: 'created' }, { state: 'open', direction: 'UP', level: 1, sort: 'created', mixed: false }]);

add('sdk-v3-discriminated-union', 'sdk',
  z3.object({
    action: z3.discriminatedUnion('type', [
      z3.object({ type: z3.literal('click'), selector: z3.string() }),
      z3.object({ type: z3.literal('type'), selector: z3.string(), text: z3.string() }),
      z3.object({ type: z3.literal('wait'), ms: z3.number().int().min(0).max(60000) }),
    ]),
  }),
  "z.object({ action: z.discriminatedUnion('type', [click{selector}, type{selector,text}, wait{ms: int 0..60000}]) })",
  [{ action: { type: 'click', selector: '#go' } }, { action: { type: 'wait', ms: 500 } }],
  [{ action: { type: 'scroll', selector: '#go' } }, { action: { type: 'type', selector: '#q' } }, { action: { type: 'wait', ms: 60001 } }]);

add('sdk-v3-union-tuple-record', 'sdk',
  z3.object({
    target: z3.union([z3.string(), z3.number(), z3.array(z3.string())]),
    viewport: z3.tuple([z3.number().int(), z3.number().int()]),
    coords: z3.tuple([z3.number(), z3.number()]).rest(z3.number()).optional(),
    cookies: z3.record(z3.string()),
    counts: z3.record(z3.string(), z3.number().int()).optional(),
  }),
  'z.object({ target: z.union([z.string(), z.number(), z.array(z.string())]), viewport: z.tuple([int, int]), coords: z.tuple([num, num]).rest(z.number()).optional(), cookies: z.record(z.string()), counts: z.record(z.string(), int).optional() })',
  [{ target: 'a', viewport: [800, 600], cookies: {} }, { target: ['a', 'b'], viewport: [1, 1], coords: [1, 2, 3, 4], cookies: { sid: 'x' }, counts: { a: 1 } }],
  [{ target: true, viewport: [800, 600], cookies: {} }, { target: 1, viewport: [800], cookies: {} }, { target: 1, viewport: [800, 600], cookies: { sid: 1 } }]);

const CommentV3 = z3.lazy(() => z3.object({ author: z3.string(), text: z3.string(), replies: z3.array(CommentV3) }));
add('sdk-v3-lazy-recursion', 'sdk',
  z3.object({ thread: CommentV3 }),
  'const Comment = z.lazy(() => z.object({ author, text, replies: z.array(Comment) })); z.object({ thread: Comment })',
  [{ thread: { author: 'a', text: 'hi', replies: [{ author: 'b', text: 'yo', replies: [] }] } }],
  [{ thread: { author: 'a', text: 'hi' } }, { thread: { author: 'a', text: 'hi', replies: [{ author: 'b', text: 3, replies: [] }] } }]);

add('sdk-v3-number-string-formats', 'sdk',
  z3.object({
    email: z3.string().email(),
    url: z3.string().url(),
    id: z3.string().uuid(),
    at: z3.string().datetime(),
    day: z3.string().date(),
    code: z3.string().regex(/^[A-Z]{3}-\d{4}$/).min(8).max(8),
    count: z3.number().int().positive(),
    ratio: z3.number().min(0).max(1),
    step: z3.number().multipleOf(5).optional(),
    temp: z3.number().gt(-273.15).lt(1000).optional(),
  }),
  'z.object({ email: z.string().email(), url: z.string().url(), id: z.string().uuid(), at: z.string().datetime(), day: z.string().date(), code: z.string().regex(/^[A-Z]{3}-\\d{4}$/).min(8).max(8), count: int.positive(), ratio: z.number().min(0).max(1), step: z.number().multipleOf(5).optional(), temp: z.number().gt(-273.15).lt(1000).optional() })',
  [{ email: 'a@example.com', url: 'https://example.com', id: '123e4567-e89b-12d3-a456-426614174000', at: '2025-11-25T10:00:00Z', day: '2025-11-25', code: 'ABC-1234', count: 1, ratio: 0.5 }],
  [
    { email: 'nope', url: 'https://example.com', id: '123e4567-e89b-12d3-a456-426614174000', at: '2025-11-25T10:00:00Z', day: '2025-11-25', code: 'ABC-1234', count: 1, ratio: 0.5 },
    { email: 'a@example.com', url: 'https://example.com', id: '123e4567-e89b-12d3-a456-426614174000', at: '2025-11-25T10:00:00Z', day: '2025-11-25', code: 'abc-1234', count: 0, ratio: 0.5 },
    { email: 'a@example.com', url: 'https://example.com', id: '123e4567-e89b-12d3-a456-426614174000', at: '2025-11-25T10:00:00Z', day: '2025-11-25', code: 'ABC-1234', count: 1, ratio: 0.5, step: 7, temp: -300 },
  ]);

add('sdk-v3-defaults-any-unknown', 'sdk',
  z3.object({
    sql: z3.string().describe('SQL to run'),
    params: z3.array(z3.any()).default([]),
    timeout_ms: z3.number().int().default(30000),
    read_only: z3.boolean().default(true),
    context: z3.unknown(),
    options: z3.record(z3.any()).optional(),
  }),
  'z.object({ sql: z.string().describe(...), params: z.array(z.any()).default([]), timeout_ms: z.number().int().default(30000), read_only: z.boolean().default(true), context: z.unknown(), options: z.record(z.any()).optional() })',
  [{ sql: 'select 1' }, { sql: 'select ?', params: [1, 'a', null], timeout_ms: 5, read_only: false, context: { x: 1 }, options: {} }],
  [{ sql: 'select 1', timeout_ms: 1.5 }, { params: [] }, { sql: 'x', read_only: 'yes' }]);

const Money = z3.object({ amount: z3.number(), currency: z3.string().length(3) });
add('sdk-v3-reused-subschema-refs', 'sdk',
  z3.object({
    price: Money,
    discount: Money.optional(),
    tiers: z3.array(z3.object({ min_qty: z3.number().int(), price: Money })),
  }),
  'const Money = z.object({ amount: z.number(), currency: z.string().length(3) }); z.object({ price: Money, discount: Money.optional(), tiers: z.array(z.object({ min_qty: int, price: Money })) })  // reuse -> "$ref": "#/properties/price"',
  [{ price: { amount: 9.99, currency: 'USD' }, tiers: [] }, { price: { amount: 9.99, currency: 'USD' }, discount: { amount: 1, currency: 'USD' }, tiers: [{ min_qty: 10, price: { amount: 8, currency: 'USD' } }] }],
  [{ price: { amount: 9.99, currency: 'US' }, tiers: [] }, { price: { amount: 9.99, currency: 'USD' }, discount: { amount: 1, currency: 'EURO' }, tiers: [] }, { price: { amount: 9.99, currency: 'USD' }, tiers: [{ min_qty: 1, price: { amount: '8', currency: 'USD' } }] }]);

add('sdk-v3-output-schema', 'sdk',
  z3.object({
    files: z3.array(z3.object({ path: z3.string(), size: z3.number().int().nonnegative(), type: z3.enum(['file', 'dir', 'symlink']) })),
    truncated: z3.boolean(),
    next_cursor: z3.string().nullable(),
  }),
  "outputSchema: z.object({ files: z.array(z.object({ path, size: int.nonnegative(), type: z.enum(['file','dir','symlink']) })), truncated: z.boolean(), next_cursor: z.string().nullable() })",
  [{ files: [], truncated: false, next_cursor: null }, { files: [{ path: 'a', size: 0, type: 'dir' }], truncated: true, next_cursor: 'c2' }],
  [{ files: [{ path: 'a', size: -1, type: 'file' }], truncated: false, next_cursor: null }, { files: [], truncated: false }, { files: [{ path: 'a', size: 1, type: 'socket' }], truncated: false, next_cursor: null }],
  'output');

// -------------------------------------------------------------------- zod 4 z.toJSONSchema() with defaults

const Node = z.object({
  id: z.string(),
  get children() {
    return z.array(Node).optional();
  },
});
add('direct-v4-getter-recursion', 'direct',
  z.object({ tree: Node, max_depth: z.number().int().default(5) }),
  'const Node = z.object({ id: z.string(), get children() { return z.array(Node).optional() } }); z.object({ tree: Node, max_depth: int.default(5) })',
  [{ tree: { id: 'root' }, max_depth: 5 }, { tree: { id: 'root', children: [{ id: 'a', children: [] }] }, max_depth: 2 }],
  [{ tree: { id: 'root', children: [{}] } }, { tree: { id: 1 } }]);

const User = z.object({ login: z.string(), id: z.number().int() }).meta({ id: 'User', title: 'GitHub user' });
add('direct-v4-registry-ids-defs', 'direct',
  z.object({ author: User, reviewers: z.array(User).max(10), merged_by: User.nullable() }),
  "const User = z.object({ login, id: int }).meta({ id: 'User', title: 'GitHub user' }); z.object({ author: User, reviewers: z.array(User).max(10), merged_by: User.nullable() })",
  [{ author: { login: 'a', id: 1 }, reviewers: [], merged_by: null }, { author: { login: 'a', id: 1 }, reviewers: [{ login: 'b', id: 2 }], merged_by: { login: 'c', id: 3 } }],
  [{ author: { login: 'a' }, reviewers: [], merged_by: null }, { author: { login: 'a', id: 1 }, reviewers: [], merged_by: 'c' }]);

add('direct-v4-formats-2020-12', 'direct',
  z.object({
    email: z.email(),
    site: z.url(),
    request_id: z.uuidv4(),
    at: z.iso.datetime({ offset: true }),
    at_time: z.iso.time().optional(),
    ip6: z.ipv6().optional(),
    token: z.base64().optional(),
    when: z.iso.date().nullable(),
  }),
  'z.object({ email: z.email(), site: z.url(), request_id: z.uuidv4(), at: z.iso.datetime({ offset: true }), at_time: z.iso.time().optional(), ip6: z.ipv6().optional(), token: z.base64().optional(), when: z.iso.date().nullable() })',
  [{ email: 'a@example.com', site: 'https://example.com', request_id: '9b2f1c1e-8d5b-4a6e-9c41-3f0f8d7e2a11', at: '2025-11-25T10:00:00+02:00', when: null }],
  [
    { email: 'a@example.com', site: 'https://example.com', request_id: '9b2f1c1e-8d5b-1a6e-9c41-3f0f8d7e2a11', at: '2025-11-25T10:00:00+02:00', when: null },
    { email: 'a@example.com', site: 'https://example.com', request_id: '9b2f1c1e-8d5b-4a6e-9c41-3f0f8d7e2a11', at: '2025-11-25', when: null },
    { email: 'a@example.com', site: 'https://example.com', request_id: '9b2f1c1e-8d5b-4a6e-9c41-3f0f8d7e2a11', at: '2025-11-25T10:00:00Z', when: '25/11/2025' },
  ]);

add('direct-v4-intersection-and-union', 'direct',
  z.object({
    entity: z.intersection(z.object({ id: z.string() }), z.object({ version: z.number().int() })),
    payload: z.union([z.object({ text: z.string() }), z.object({ blob: z.base64(), mime: z.string() })]),
    flag: z.union([z.boolean(), z.literal('auto')]).default('auto'),
  }),
  "z.object({ entity: z.intersection(z.object({ id }), z.object({ version: int })), payload: z.union([z.object({ text }), z.object({ blob: z.base64(), mime })]), flag: z.union([z.boolean(), z.literal('auto')]).default('auto') })",
  [{ entity: { id: 'a', version: 1 }, payload: { text: 'hi' }, flag: 'auto' }, { entity: { id: 'a', version: 2 }, payload: { blob: 'aGk=', mime: 'text/plain' }, flag: true }],
  [{ entity: { id: 'a' }, payload: { text: 'hi' } }, { entity: { id: 'a', version: 1 }, payload: { mime: 'text/plain' } }, { entity: { id: 'a', version: 1 }, payload: { text: 'hi' }, flag: 'on' }]);

// ------------------------------------------------------------------------------------------------ main

async function listViaSdk() {
  const server = new McpServer({ name: 'corpus-zod', version: '0.0.0' });
  for (const c of cases.filter((c) => c.how === 'sdk')) {
    const config = c.kind === 'input'
      ? { inputSchema: c.schema }
      : { inputSchema: {}, outputSchema: c.schema };
    server.registerTool(c.file, config, async () => ({ content: [] }));
  }
  const [clientT, serverT] = InMemoryTransport.createLinkedPair();
  await server.connect(serverT);
  const client = new Client({ name: 'corpus-zod-client', version: '0.0.0' });
  await client.connect(clientT);
  const { tools } = await client.listTools();
  await client.close();
  await server.close();
  return new Map(tools.map((t) => [t.name, t]));
}

function sourceLine(c) {
  const isV3 = c.file.startsWith('sdk-v3');
  if (c.how === 'direct') {
    return `zod ${V.zod} z.toJSONSchema(schema) with default options (draft 2020-12, io "output": defaulted keys are required) of ${c.code}`;
  }
  const gen = isV3
    ? `zod ${V.zod} (zod/v3 API) -> zod-to-json-schema ${V.zodToJsonSchema} (strictUnions, pipeStrategy "${c.kind}")`
    : `zod ${V.zod} -> zod/v4-mini toJSONSchema (target draft-7, io "${c.kind}")`;
  return `${gen} via @modelcontextprotocol/sdk ${V.sdk} McpServer.registerTool + Client.listTools(): ${c.kind}Schema of ${c.code}`;
}

const listed = await listViaSdk();
mkdirSync(OUT, { recursive: true });
const problems = [];
for (const c of cases) {
  const schema = c.how === 'direct'
    ? z.toJSONSchema(c.schema)
    : listed.get(c.file)[c.kind === 'input' ? 'inputSchema' : 'outputSchema'];
  if (!schema) throw new Error(`${c.file}: no schema`);
  for (const inst of c.valid) {
    if (!c.schema.safeParse(inst).success) problems.push(`${c.file}: zod rejects 'valid' ${JSON.stringify(inst)}`);
  }
  for (const inst of c.invalid) {
    if (c.schema.safeParse(inst).success) problems.push(`${c.file}: zod accepts 'invalid' ${JSON.stringify(inst)}`);
  }
  const entry = { source: sourceLine(c), schema, valid: c.valid, invalid: c.invalid };
  writeFileSync(join(OUT, `${c.file}.json`), JSON.stringify(entry, null, 2) + '\n');
}
if (problems.length) {
  console.error(problems.join('\n'));
  process.exit(1);
}
console.log(`zod: wrote ${cases.length} files to ${relative(ROOT, OUT)}`);
