/**
 * Every top-level command's name, alias and one-line summary, declared once: the summary
 * is what `voicectl --help` lists, and what a group's own help opens with (a command's
 * own description may say more).
 */
export interface GroupInfo {
  name: string;
  alias?: string;
  summary: string;
}

/** In the order `voicectl --help` lists them. */
export const GROUP_INFO: readonly GroupInfo[] = [
  { name: 'login', summary: 'Save a base URL and API key to a profile, after checking them' },
  { name: 'config', summary: 'Show and change the settings saved in a profile' },
  { name: 'voice', alias: 'voices', summary: 'List the voices agents can speak with (no key needed)' },
  { name: 'agent', alias: 'agents', summary: 'Create and manage voice agents' },
  { name: 'kb', summary: 'Upload documents to the knowledge base and manage them' },
  { name: 'contacts', alias: 'contact', summary: 'Check contact spreadsheets (CSV or .xlsx) before a campaign' },
  { name: 'campaign', alias: 'campaigns', summary: 'Create, launch and follow calling campaigns' },
  { name: 'watch', summary: 'Follow a campaign live until it completes' },
  { name: 'call', alias: 'calls', summary: 'Read call results, transcripts and recordings; export them; check them against rules' },
  { name: 'test', summary: 'Place test calls from a suite and check them against its expectations' },
  { name: 'webhook', alias: 'webhooks', summary: 'Manage webhook endpoints that receive signed events' },
  { name: 'listen', summary: 'Receive webhook events locally: verify, log, forward to your app' },
  { name: 'events', alias: 'event', summary: 'Find the webhook events your app never got, and send them again' },
  { name: 'trigger', summary: 'Send a signed sample event to any URL, to test a receiver' },
  { name: 'sandbox', summary: 'Run a local emulator of the whole service (no real calls)' },
  { name: 'demo', summary: 'Run a whole campaign against a built-in sandbox: no key, no network' },
  { name: 'pull', summary: 'Write the account\'s agents, documents and webhooks as files (voicectl.yaml)' },
  { name: 'plan', summary: 'Show what apply would change in the account; --check exits 6 on drift' },
  { name: 'apply', summary: 'Make the account match the files (asks first; --yes)' },
  { name: 'schema', summary: 'Print the JSON Schema of voicectl.yaml, for editors' },
  { name: 'mcp', summary: 'Serve the account to AI assistants (Model Context Protocol over stdio)' },
  { name: 'approve', summary: 'Approve a launch plan an assistant asked for, at a terminal' },
  { name: 'api', summary: 'Send any request to the service with the profile\'s key; print the JSON answer' },
  { name: 'doctor', summary: 'Check the profile, the service, the key\'s scopes, the clock and more; say how to fix each problem' },
  { name: 'completion', summary: 'Print a shell completion script for bash, zsh or fish' },
];

export function groupInfo(name: string): GroupInfo {
  const info = GROUP_INFO.find((g) => g.name === name);
  if (!info) throw new Error(`no top-level command named ${name}`);
  return info;
}
