// The reference pages, docs/reference.md and the man page docs/voicectl.1, written from
// the commander program itself: every group and verb with its summary, usage, arguments,
// options (with their defaults and choices, as --help words them), the text and examples
// its help ends with, the global options and the exit codes. `npm run docs` (scripts/docs.js)
// writes them; test/docs/reference.test.ts holds them equal to what this returns and to
// what `voicectl … --help` prints.

/** What each exit code means; the codes themselves are src/errors.ts's EXIT. */
export const EXIT_MEANINGS = {
  OK: 'success',
  FAILURE: 'the request failed: server error, network, timeout, unexpected response',
  USAGE: 'usage or input error: bad flags, invalid CSV rows, missing input under --no-input',
  AUTH: 'authentication or permission: 401, 403 (the message names the scope), missing key',
  NOT_FOUND: 'not found: 404 (or it belongs to another organization)',
  PLAN_LIMIT: 'plan limit: 402 (the message says which limit and what it means)',
  CHANGES_PENDING: 'changes pending: plan --check found the account differs from the files',
  INTERRUPTED: 'interrupted (Ctrl-C)',
};

/**
 * The model both pages are written from.
 * @param {import('commander').Command} program the whole program (buildProgram(ctx), every group built)
 * @param {(cmd: import('commander').Command) => string} helpOf the command's whole --help text
 * @param {Record<string, number>} exit src/errors.ts's EXIT
 */
export function referenceModel(program, helpOf, exit) {
  const help = program.createHelp();
  const commands = [];
  const walk = (cmd, path) => {
    for (const sub of cmd.commands) {
      if (sub.name() === 'help' || sub._hidden) continue;
      const words = [...path, sub.name()];
      const text = helpOf(sub);
      const own = sub.helpInformation();
      const after = text.startsWith(own) ? text.slice(own.length) : '';
      const [notes, examples] = splitAfter(after);
      commands.push({
        path: words.join(' '),
        depth: words.length - 1,
        aliases: sub.aliases(),
        summary: sub.summary() || firstLine(sub.description()),
        description: sub.description(),
        usage: `${words.join(' ')} ${sub.usage()}`,
        arguments: help.visibleArguments(sub).map((a) => ({ term: help.argumentTerm(a), description: help.argumentDescription(a) })),
        options: help.visibleOptions(sub).filter((o) => o.long !== '--help').map((o) => ({ term: help.optionTerm(o), description: help.optionDescription(o) })),
        verbs: sub.commands.filter((c) => c.name() !== 'help').map((c) => c.name()),
        notes,
        examples,
      });
      walk(sub, words);
    }
  };
  walk(program, [program.name()]);
  return {
    name: program.name(),
    description: program.description(),
    globalOptions: help.visibleOptions(program).map((o) => ({ term: help.optionTerm(o), description: help.optionDescription(o) })),
    commands,
    exitCodes: Object.entries(exit).map(([key, code]) => ({ code, meaning: EXIT_MEANINGS[key] ?? key.toLowerCase() })),
  };
}

function firstLine(text) {
  return String(text ?? '').split('\n')[0];
}

/** A help's closing text: its paragraphs, and the example commands after "Examples:". */
function splitAfter(after) {
  const text = after.replace(/^\n+/, '').replace(/\s+$/, '');
  const at = text.search(/(^|\n)Examples:\n/);
  if (at === -1) return [text, []];
  const notes = text.slice(0, at).trim();
  const examples = text.slice(at).replace(/^\n?Examples:\n/, '').split('\n').map((l) => l.replace(/^ {2}/, ''));
  return [notes, examples];
}

const anchor = (path) => path.replace(/\s+/g, '-').toLowerCase();
const cell = (s) => s.replace(/\|/g, '\\|').replace(/\s*\n\s*/g, ' ');

/** docs/reference.md */
export function markdownReference(model) {
  const out = [];
  out.push(`# ${model.name} reference`, '');
  out.push(`<!-- Written by \`npm run docs\` from the program itself; test/docs/reference.test.ts keeps it equal to --help. Do not edit. -->`, '');
  out.push(`${model.description} Every group and verb, with its arguments, options and examples, as \`${model.name} <command> --help\` shows them; the same as a man page in [voicectl.1](voicectl.1) (\`man ./docs/voicectl.1\`).`, '');
  out.push('## Commands', '');
  for (const c of model.commands) {
    out.push(`${'  '.repeat(c.depth - 1)}- [\`${c.path}\`](#${anchor(c.path)})${c.aliases.length ? ` (also \`${c.aliases.join('`, `')}\`)` : ''}: ${c.summary}`);
  }
  out.push('', '## Global options', '', 'Every command takes these, before or after its verb.', '', '| option | meaning |', '|---|---|');
  for (const o of model.globalOptions) out.push(`| \`${cell(o.term)}\` | ${cell(o.description)} |`);
  out.push('', '## Exit codes', '', '| code | meaning |', '|---|---|');
  for (const e of model.exitCodes) out.push(`| ${e.code} | ${cell(e.meaning)} |`);
  for (const c of model.commands) {
    out.push('', `${c.depth === 1 ? '##' : '###'} ${c.path}`, '');
    out.push(c.description.trim(), '');
    out.push('```', c.usage, '```');
    if (c.aliases.length) out.push('', `Also: ${c.aliases.map((a) => `\`${a}\``).join(', ')}.`);
    if (c.verbs.length) out.push('', `Verbs: ${c.verbs.map((v) => `[\`${v}\`](#${anchor(`${c.path} ${v}`)})`).join(', ')}.`);
    if (c.arguments.length) {
      out.push('', '| argument | meaning |', '|---|---|');
      for (const a of c.arguments) out.push(`| \`${cell(a.term)}\` | ${cell(a.description)} |`);
    }
    if (c.options.length) {
      out.push('', '| option | meaning |', '|---|---|');
      for (const o of c.options) out.push(`| \`${cell(o.term)}\` | ${cell(o.description)} |`);
    }
    if (c.notes) out.push('', c.notes);
    if (c.examples.length) out.push('', 'Examples:', '', '```sh', ...c.examples, '```');
  }
  return `${out.join('\n')}\n`;
}

/** Text for roff: backslashes doubled, dashes as minus signs, no line taken for a request. */
function roff(text) {
  return text
    .replace(/\\/g, '\\e')
    .replace(/-/g, '\\-')
    .split('\n')
    .map((l) => (/^[.']/.test(l) ? `\\&${l}` : l))
    .join('\n');
}

/** docs/voicectl.1 */
export function manPage(model) {
  const out = [];
  const name = model.name.toUpperCase();
  out.push(`.\\" Written by npm run docs from the program itself (scripts/reference.js). Do not edit.`);
  out.push(`.TH ${name} 1 "" "${model.name}" "User Commands"`);
  out.push('.SH NAME', `${model.name} \\- ${roff(model.description.replace(/\.$/, '').replace(/^./, (c) => c.toLowerCase()))}`);
  out.push('.SH SYNOPSIS', `.B ${model.name}`, '[\\fIglobal options\\fR] \\fIcommand\\fR [\\fIverb\\fR] [\\fIarguments\\fR] [\\fIoptions\\fR]');
  out.push('.SH DESCRIPTION', roff(model.description));
  out.push('The full reference, with tables, is docs/reference.md; each command\'s \\fB\\-\\-help\\fR says the same.');
  out.push('.SH GLOBAL OPTIONS');
  for (const o of model.globalOptions) out.push('.TP', `.B ${roff(o.term)}`, roff(o.description));
  out.push('.SH COMMANDS');
  for (const c of model.commands) {
    out.push(`.SS "${roff(c.path)}"`);
    out.push('.PP', roff(c.description.trim()));
    out.push('.PP', `Usage: \\fB${roff(c.usage)}\\fR`);
    if (c.aliases.length) out.push('.br', `Also: ${roff(c.aliases.join(', '))}`);
    if (c.verbs.length) out.push('.br', `Verbs: ${roff(c.verbs.join(', '))}`);
    for (const a of c.arguments) out.push('.TP', `.I ${roff(a.term)}`, roff(a.description));
    for (const o of c.options) out.push('.TP', `.B ${roff(o.term)}`, roff(o.description));
    if (c.notes) out.push('.PP', roff(c.notes).replace(/\n\n+/g, '\n.PP\n'));
    if (c.examples.length) out.push('.PP', 'Examples:', '.RS', '.nf', ...c.examples.map(roff), '.fi', '.RE');
  }
  out.push('.SH EXIT STATUS');
  for (const e of model.exitCodes) out.push('.TP', `.B ${e.code}`, roff(e.meaning));
  out.push('.SH SEE ALSO', 'docs/reference.md, docs/testing.md, and the pages in docs/ of the voicectl package.');
  return `${out.join('\n')}\n`;
}
