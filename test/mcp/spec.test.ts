/**
 * Every MCP tool against the spec of the verb it runs: what a client sees in tools/list
 * (each property's description, its choices, its type, whether it is required) must be
 * what the verb's options and arguments declare (src/commands/*\/definition.ts), narrowed
 * at most: a property that names nothing the verb takes, a description of its own, or
 * choices the verb does not restrict to fails here.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { CommandUnknownOpts } from '@commander-js/extra-typings';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testContext } from '../../src/context-test.js';
import { buildProgram } from '../../src/program.js';
import { createServer } from '../../src/mcp/server.js';
import { option, type ToolSpec } from '../../src/mcp/tool-spec.js';
import { TOOLS } from '../../src/mcp/tools.js';

interface Listed {
  name: string;
  inputSchema: { properties?: Record<string, Schema>; required?: string[] };
}
interface Schema {
  type?: string;
  enum?: string[];
  items?: Schema;
  description?: string;
}

/** The tool's own properties: paging, and inline rows that stand for the verb's file. */
const OWN = new Set(['limit', 'cursor', 'rows']);
/** Names clients already sent before the tools were read from the specs, where the rule spells them otherwise. */
const KEPT = ['call_list.campaign_id', 'contacts_validate.path'];
const PATH_NOTE = '(relative to the folder the server runs in)';
/** A value named as a file or a folder on this machine (`--folder <folder>` of kb upload names one in the knowledge base). */
const FILE_VALUE = /^[<[](?:file|files|dir|path)\b/;

const program = buildProgram(testContext({ env: {} }));

function verbCommand(verb: string): CommandUnknownOpts | undefined {
  let cmd: CommandUnknownOpts | undefined = program;
  for (const word of verb.split(' ')) cmd = cmd?.commands.find((c) => c.name() === word) as CommandUnknownOpts | undefined;
  return cmd;
}

interface Declared {
  description: string;
  choices?: string[];
  /** flag: no value; list: several values; value: one. */
  shape: 'flag' | 'list' | 'value';
  required: boolean;
  name: string;
  placeholder: string;
}

/** What the verb declares for an option (by long name) or an argument (by name), read off commander. */
function declared(cmd: CommandUnknownOpts, from: ToolSpec['input'][string]['from']): Declared | undefined {
  if ('option' in from) {
    const o = cmd.options.find((x) => x.long === `--${from.option}`) as unknown as {
      description: string; argChoices?: string[]; flags: string; variadic: boolean; mandatory: boolean; required: boolean; optional: boolean;
      parseArg?: (v: string, p: unknown) => unknown;
    } | undefined;
    if (!o) return undefined;
    let several = o.variadic;
    try {
      several ||= Array.isArray(o.parseArg?.('x', undefined));
    } catch { /* a parser that checks its value */ }
    const placeholder = /[<[][^>\]]*[>\]]/.exec(o.flags)?.[0] ?? '';
    return { description: o.description, ...(o.argChoices ? { choices: o.argChoices } : {}), shape: !o.required && !o.optional ? 'flag' : several ? 'list' : 'value', required: o.mandatory, name: from.option.replace(/-/g, '_'), placeholder };
  }
  if ('argument' in from) {
    const a = (cmd as unknown as { registeredArguments: Array<{ name(): string; description: string; required: boolean; variadic: boolean; argChoices?: string[] }> })
      .registeredArguments.find((x) => x.name() === from.argument);
    if (!a) return undefined;
    const group = cmd.parent && cmd.parent.parent ? cmd.parent.name() : '';
    let name = from.argument.replace(/-/g, '_');
    if (name === 'id' || name === 'ids') name = `${group}_${name}`;
    if (a.variadic && !name.endsWith('s')) name += 's';
    return { description: a.description, ...(a.argChoices ? { choices: a.argChoices } : {}), shape: a.variadic ? 'list' : 'value', required: a.required, name, placeholder: `<${a.name()}>` };
  }
  return undefined;
}

/** Every way `tool` (as `listed`) disagrees with its verb's spec; empty when it only narrows. */
function disagreements(tool: ToolSpec, listed: Listed | undefined): string[] {
  const out: string[] = [];
  const cmd = verbCommand(tool.verb);
  if (!cmd || cmd.commands.length > 0) return [`${tool.name}: names "${tool.verb}", which is not a verb of voicectl`];
  if (!listed) return [`${tool.name}: not in tools/list`];
  const props = listed.inputSchema.properties ?? {};
  const required = new Set(listed.inputSchema.required ?? []);
  expect(Object.keys(props).sort(), tool.name).toEqual(Object.keys(tool.input).sort());
  const paths = new Set<string>();
  for (const [key, param] of Object.entries(tool.input)) {
    const where = `${tool.name}.${key}`;
    const p = props[key]!;
    if ('own' in param.from) {
      if (!OWN.has(key) || param.from.own !== key) out.push(`${where}: a property of the tool's own that is not paging or inline rows`);
      continue;
    }
    const d = declared(cmd, param.from);
    if (!d) {
      out.push(`${where}: \`voicectl ${tool.verb}\` has no ${JSON.stringify(param.from)}`);
      continue;
    }
    if (key !== d.name && !KEPT.includes(where)) out.push(`${where}: the rule names it ${d.name}`);
    const isPath = FILE_VALUE.test(d.placeholder);
    if (isPath) paths.add(key);
    const want = isPath ? `${d.description} ${PATH_NOTE}` : d.description;
    if (p.description !== want) out.push(`${where}: description ${JSON.stringify(p.description)}, the spec says ${JSON.stringify(want)}`);
    const values = d.shape === 'list' ? p.items : p;
    if (d.shape === 'list' && p.type !== 'array') out.push(`${where}: the spec takes several values, the tool ${p.type}`);
    if (d.shape !== 'list' && p.type === 'array') out.push(`${where}: the spec takes one value, the tool a list`);
    if ((d.shape === 'flag') !== (p.type === 'boolean')) out.push(`${where}: type ${p.type} for ${d.shape === 'flag' ? 'a flag without a value' : 'an option with a value'}`);
    const choices = values?.enum;
    if (d.choices) {
      if (!choices || choices.length === 0 || choices.some((c) => !d.choices!.includes(c))) out.push(`${where}: choices ${JSON.stringify(choices)}, the spec's ${JSON.stringify(d.choices)}`);
    } else if (choices) out.push(`${where}: choices ${JSON.stringify(choices)}, where the spec takes any value`);
    if (d.required && !required.has(key) && !('rows' in tool.input)) out.push(`${where}: the verb requires it, the tool does not`);
  }
  const declaredPaths = [...(tool.paths ?? [])].sort();
  if (JSON.stringify(declaredPaths) !== JSON.stringify([...paths].sort())) out.push(`${tool.name}: confines ${JSON.stringify(declaredPaths)}, the spec's files and folders are ${JSON.stringify([...paths].sort())}`);
  return out;
}

let client: Client;
let listed: Listed[] = [];
beforeAll(async () => {
  const ctx = testContext({ env: {} });
  const server = createServer(ctx, { build: buildProgram, allowWrite: true, allowLaunch: true, globals: [] });
  const [a, b] = InMemoryTransport.createLinkedPair();
  await server.connect(a);
  client = new Client({ name: 'spec-test', version: '1.0.0' });
  await client.connect(b);
  listed = (await client.listTools()).tools as Listed[];
});
afterAll(async () => {
  await client?.close();
});

describe('MCP tools are read from the verbs\' specs', () => {
  it('lists every tool, each naming a verb', () => {
    expect(listed.map((t) => t.name).sort()).toEqual(TOOLS.map((t) => t.name).sort());
    expect(TOOLS.length).toBe(17);
  });

  for (const tool of TOOLS) {
    it(`${tool.name} (voicectl ${tool.verb}) only narrows its verb`, () => {
      expect(disagreements(tool, listed.find((t) => t.name === tool.name))).toEqual([]);
    });
  }

  it('campaign_list takes --status as the CLI does: any text, not a list of its own', () => {
    const status = listed.find((t) => t.name === 'campaign_list')!.inputSchema.properties!.status!;
    expect(status.enum).toBeUndefined();
    expect(status.description).toBe('only campaigns with this status: draft, running or completed');
  });

  it('finds a tool that restates its verb', () => {
    const list = TOOLS.find((t) => t.name === 'campaign_list')!;
    const restated: Listed = {
      name: list.name,
      inputSchema: { properties: { status: { type: 'string', enum: ['draft', 'running'], description: 'campaign status' }, limit: { type: 'integer' }, cursor: { type: 'string' } } },
    };
    expect(disagreements(list, restated)).toEqual([
      'campaign_list.status: description "campaign status", the spec says "only campaigns with this status: draft, running or completed"',
      'campaign_list.status: choices ["draft","running"], where the spec takes any value',
    ]);
    const unknown = { ...list, input: { ...list.input, state: option('state') } };
    const listedUnknown: Listed = { name: list.name, inputSchema: { properties: { ...restated.inputSchema.properties, state: { type: 'string' } } } };
    expect(disagreements(unknown, listedUnknown)).toContain('campaign_list.state: `voicectl campaign list` has no {"option":"state"}');
    const renamed = { ...list, input: { state: option('status') } };
    expect(disagreements(renamed, { name: list.name, inputSchema: { properties: { state: { type: 'string', description: 'only campaigns with this status: draft, running or completed' } } } }))
      .toEqual(['campaign_list.state: the rule names it status']);
  });
});
