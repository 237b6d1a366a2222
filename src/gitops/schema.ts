/**
 * The JSON Schema of voicectl.yaml, for editors (the YAML language server reads the
 * `# yaml-language-server: $schema=…` line at the top of the file). The loader checks
 * the same rules itself; this is for completion and early red squiggles.
 */
import { EVENT_TYPES } from '../webhooks/signature.js';

const text = (description: string) => ({ type: 'string', description });
const textOrFile = (description: string) => ({
  description: `${description} Write it inline, or \`!file path\` to keep it in a file of its own.`,
  type: 'string',
});

export function schema(): Record<string, unknown> {
  const agent = {
    type: 'object',
    additionalProperties: false,
    required: ['name'],
    properties: {
      name: text('The agent\'s name in the account. Names are unique within these files.'),
      voice_name: text('A voice_name from `voicectl voice list`.'),
      language: text('Locale tag such as hi-IN; defaults to the voice\'s language.'),
      direction: { type: 'string', description: 'outbound, or inbound (answers calls to an assigned number).', examples: ['outbound', 'inbound'] },
      status: { type: 'string', description: 'For example active.', examples: ['active', 'inactive'] },
      greeting: textOrFile('What the agent says first.'),
      greeting_file: text('Path of a file holding the greeting (instead of greeting).'),
      call_purpose: textOrFile('Why the agent calls.'),
      call_purpose_file: text('Path of a file holding the call purpose (instead of call_purpose).'),
      prompt: textOrFile('Instructions for the agent.'),
      prompt_file: text('Path of a file holding the prompt (instead of prompt).'),
      tools: {
        type: 'array', uniqueItems: true, description: 'Tools the agent may use.',
        items: { type: 'string', examples: ['schedule_callback', 'take_message', 'summarize_call'] },
      },
      documents: {
        type: 'array', uniqueItems: true, description: 'Knowledge-base documents attached, by their path under documents:.',
        items: { type: 'string' },
      },
      other_fields: {
        type: 'object',
        description: 'Fields the service returned that voicectl does not know, kept as they came. Compared by plan; sent only when you change them.',
      },
    },
  };
  const document = {
    type: ['object', 'null'],
    additionalProperties: false,
    description: 'A document uploaded to the knowledge base. The key is the file\'s path in this folder.',
    properties: {
      folder: text('Knowledge-base folder, for example policies/2025; the top level when left out.'),
      name: text('The name in the knowledge base; the file\'s own name when left out.'),
    },
  };
  const webhook = {
    type: 'object',
    additionalProperties: false,
    required: ['url'],
    description: 'A webhook endpoint. Its signing secret never goes in these files.',
    properties: {
      url: { type: 'string', format: 'uri', description: 'Public HTTPS URL that receives the events.' },
      events: { type: 'array', minItems: 1, uniqueItems: true, items: { enum: [...EVENT_TYPES] }, description: 'Event types; every type when left out.' },
      enabled: { type: 'boolean', description: 'false pauses deliveries.' },
    },
  };
  return {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    title: 'voicectl.yaml',
    description: 'The account as code: agents, knowledge-base documents and webhook endpoints. `voicectl plan` compares it with the account; `voicectl apply` makes the account match.',
    type: 'object',
    additionalProperties: false,
    required: ['version'],
    properties: {
      version: { const: 1, description: 'Always 1. Required: a file without it is refused, so an emptied file never reads as "manage nothing".' },
      agents: { type: 'object', description: 'Agents by a handle of your choosing; the lock file maps each handle to the agent\'s id.', additionalProperties: agent, propertyNames: { pattern: '^[^\\s].*$' } },
      documents: { type: 'object', description: 'Knowledge-base documents by their local path.', additionalProperties: document },
      webhooks: { type: 'object', description: 'Webhook endpoints by a handle of your choosing.', additionalProperties: webhook },
    },
  };
}

export function schemaText(): string {
  return `${JSON.stringify(schema(), null, 2)}\n`;
}
