/**
 * A tool's input, read from the spec of the verb it runs: each property names an option or
 * an argument of that verb (src/commands/*\/definition.ts), and takes its description and
 * its choices from there. The spec reaches this module as the command the program builder
 * makes of it (the server is handed the builder, as the runner is): src/mcp never imports
 * src/commands, whose `mcp` verb imports this server.
 *
 * A tool may narrow what the verb takes (leave options out, require one, keep some of the
 * choices, bound a text or take a whole number), never restate it. A property's name is
 * the option's long name or the argument's name in snake_case (`--default-country` is
 * `default_country`); an argument named `id` or `ids` takes its group's name in front
 * (`campaign_id`), and a variadic argument is plural (`<path...>` is `paths`). Names clients
 * sent before are kept where the rule spells them otherwise (Param.kept).
 * test/mcp/spec.test.ts holds every tool to all of this.
 */
import type { CommandUnknownOpts } from '@commander-js/extra-typings';
import { z } from './sdk.js';
import type { Param, ToolSpec } from './tool-spec.js';

/** An option of a verb, as its spec declares it. */
export interface SpecOption {
  /** Without the dashes: `default-country`. */
  long: string;
  description: string;
  /** The value's name in the usage (`<file.yaml>`), or undefined for a flag without a value. */
  placeholder?: string;
  choices?: readonly string[];
  /** Repeatable or comma-separated: several values. Asked only of an option whose tool gives no type of its own (it runs the option's parser). */
  list(): boolean;
  /** The verb refuses to run without it. */
  required: boolean;
}

export interface SpecArgument {
  name: string;
  description: string;
  choices?: readonly string[];
  variadic: boolean;
  required: boolean;
}

export interface VerbView {
  /** `call list`. */
  verb: string;
  options: Map<string, SpecOption>;
  arguments: SpecArgument[];
}

/**
 * Whether a parser keeps several values (a comma list, a repeatable flag): it answers a
 * list for one value. Parsers that check a value (a number, a span) refuse this one.
 */
function keepsSeveral(parse: ((value: string, previous: unknown) => unknown) | undefined): boolean {
  if (!parse) return false;
  try {
    return Array.isArray(parse('x', undefined));
  } catch {
    return false;
  }
}

/** What the verb's spec declares: its own options (not the global ones) and its arguments. */
export function readVerb(cmd: CommandUnknownOpts, verb: string): VerbView {
  const options = new Map<string, SpecOption>();
  for (const o of cmd.options) {
    if (!o.long || o.hidden) continue;
    const long = o.long.replace(/^--/, '');
    const placeholder = /[<[][^>\]]*[>\]]/.exec(o.flags)?.[0];
    options.set(long, {
      long,
      description: o.description,
      ...(placeholder ? { placeholder } : {}),
      ...(o.argChoices ? { choices: o.argChoices } : {}),
      list: () => o.variadic || keepsSeveral(o.parseArg),
      required: o.mandatory,
    });
  }
  const args = cmd.registeredArguments.map((a) => ({
    name: a.name(),
    description: a.description,
    ...(a.argChoices ? { choices: a.argChoices } : {}),
    variadic: a.variadic,
    required: a.required,
  }));
  return { verb, options, arguments: args };
}

/** The words a path property's description ends with: where the file must be. */
export const PATH_NOTE = '(relative to the folder the server runs in)';

/** The spec's description of a property, with the path note where the property is a path. */
export function describedAs(description: string, isPath: boolean): string {
  return isPath ? `${description} ${PATH_NOTE}` : description;
}

/** The option or argument a property names, or undefined when the verb has none such. */
export function sourceOf(param: Param, view: VerbView): SpecOption | SpecArgument | undefined {
  const from = param.from;
  if ('option' in from) return view.options.get(from.option);
  if ('argument' in from) return view.arguments.find((a) => a.name === from.argument);
  return undefined;
}

/** The input schema of `tool`: each property's type (the tool's narrower one, or the spec's), description and choices from the verb. */
export function inputShape(tool: ToolSpec, view: VerbView): z.ZodRawShape {
  const shape: Record<string, z.ZodType> = {};
  for (const [key, param] of Object.entries(tool.input)) {
    if ('own' in param.from) {
      shape[key] = param.type!;
      continue;
    }
    const source = sourceOf(param, view);
    if (!source) throw new Error(`the ${tool.name} tool's ${key} names ${JSON.stringify(param.from)}, which \`voicectl ${view.verb}\` does not take`);
    const flag = 'list' in source && source.placeholder === undefined;
    const choices = param.only ?? source.choices;
    let type: z.ZodType = param.type ?? (flag ? z.boolean() : choices ? z.enum(choices as [string, ...string[]]) : z.string().min(1));
    if (!param.type && !flag && ('list' in source ? source.list() : source.variadic)) type = z.array(choices ? z.enum(choices as [string, ...string[]]) : z.string().min(1)).min(1);
    const required = param.required ?? source.required;
    if (!required) type = type.optional();
    shape[key] = type.describe(describedAs(source.description, tool.paths?.includes(key) ?? false));
  }
  return shape;
}
