/**
 * The kb verbs, each declared once (src/commands/spec.ts): each verb's flags type is
 * derived from its options, so the action modules cannot disagree with the parser.
 * Marked @internal: the published declarations leave them out (spelling out every
 * inferred flags type there would cost the build minutes and gigabytes).
 */
import { Argument, InvalidArgumentError, type Command } from '@commander-js/extra-typings';
import { type FlagsOf, tableHelp } from '../shared.js';
import { verb, type Group } from '../spec.js';

/** @internal */
export type UploadFlags = FlagsOf<typeof uploadOptions>;
/** @internal */
export type ListFlags = FlagsOf<typeof listOptions>;
/** @internal */
export type StatusFlags = FlagsOf<typeof statusOptions>;

/** Parallel uploads: a few at a time is what a connection and the service handle well. */
function concurrency(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1 || n > 16) throw new InvalidArgumentError('expected a whole number from 1 to 16.');
  return n;
}

/** @internal */
export const kb: Group = {
  name: 'kb', summary: 'Upload documents to the knowledge base and manage them',
  verbs: [
    verb({ name: 'upload', summary: 'Upload files and folders (recursively) to the knowledge base', action: () => import('./upload.js'),
      arguments: [new Argument('<path...>', 'files or folders; a folder\'s contents go under --folder with their subfolders')],
      options: uploadOptions,
      help: [`Accepted: PDF, DOCX, XLSX, XLS, CSV, TXT, MD, RST, up to 50 MB each; other files are skipped (and listed).
A file with the same name in the same folder is replaced and keeps its id.`],
      examples: [{ command: 'voicectl kb upload policies/ --folder hr --wait', comment: 'policies/leave/a.pdf becomes hr/leave/a.pdf' }, { command: 'voicectl kb upload faq.md pricing.xlsx' }] }),
    verb({ name: 'list', alias: 'ls', summary: 'List the documents and folders in a folder (the top level by default)', options: listOptions, action: () => import('./list.js'),
      help: [tableHelp(['NAME', 'ID'])],
      examples: [{ command: 'voicectl kb list' }, { command: 'voicectl kb list --folder policies --json' }] }),
    verb({ name: 'status', summary: 'Show an indexing job', arguments: [new Argument('<job_id>', 'the job id an upload returned')], options: statusOptions, action: () => import('./status.js'),
      examples: [{ command: 'voicectl kb status JOB_ID' }, { command: 'voicectl kb status JOB_ID --wait' }] }),
    verb({ name: 'delete', alias: 'rm', summary: 'Delete a document, or a folder with everything in it (asks first)', action: () => import('./delete.js'),
      arguments: [new Argument('<id>', 'knowledge-base item id')],
      examples: [{ command: 'voicectl kb delete ITEM_ID --yes' }] }),
  ],
};

/** @internal */
export function uploadOptions(cmd: Command) {
  return cmd
    .option('--folder <folder>', 'knowledge-base folder to upload into (created as needed)')
    .option('--wait', 'follow indexing until every document is indexed or failed')
    .option('--concurrency <n>', 'files uploaded at a time, 1 to 16 (default 3)', concurrency);
}

/** @internal */
export function listOptions(cmd: Command) {
  return cmd
    .option('--folder <folder>', 'folder to list');
}

/** @internal */
export function statusOptions(cmd: Command) {
  return cmd
    .option('--wait', 'wait until the job is completed or failed (exit 1 if it failed)');
}
