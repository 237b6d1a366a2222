import { Command, InvalidArgumentError } from 'commander';
import type { Context } from '../../context.js';
import { group, lazy } from '../shared.js';

/** Parallel uploads: a few at a time is what a connection and the service handle well. */
function concurrency(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1 || n > 16) throw new InvalidArgumentError('expected a whole number from 1 to 16.');
  return n;
}

export function kbCommand(ctx: Context): Command {
  const kb = group('kb');

  kb
    .command('upload')
    .description('Upload files and folders (recursively) to the knowledge base')
    .argument('<path...>', 'files or folders; a folder\'s contents go under --folder with their subfolders')
    .option('--folder <folder>', 'knowledge-base folder to upload into (created as needed)')
    .option('--wait', 'follow indexing until every document is indexed or failed')
    .option('--concurrency <n>', 'files uploaded at a time, 1 to 16 (default 3)', concurrency)
    .addHelpText('after', `
Accepted: PDF, DOCX, XLSX, XLS, CSV, TXT, MD, RST, up to 50 MB each; other files are skipped (and listed).
A file with the same name in the same folder is replaced and keeps its id.
Examples:
  voicectl kb upload policies/ --folder hr --wait     # policies/leave/a.pdf becomes hr/leave/a.pdf
  voicectl kb upload faq.md pricing.xlsx`)
    .action(lazy(ctx, () => import('./upload.js')));

  kb
    .command('list')
    .alias('ls')
    .description('List the documents and folders in a folder (the top level by default)')
    .option('--folder <folder>', 'folder to list')
    .addHelpText('after', `\nExamples:\n  voicectl kb list\n  voicectl kb list --folder policies --json`)
    .action(lazy(ctx, () => import('./list.js')));

  kb
    .command('status')
    .description('Show an indexing job')
    .argument('<job_id>', 'the job id an upload returned')
    .option('--wait', 'wait until the job is completed or failed (exit 1 if it failed)')
    .addHelpText('after', `\nExamples:\n  voicectl kb status JOB_ID\n  voicectl kb status JOB_ID --wait`)
    .action(lazy(ctx, () => import('./status.js')));

  kb
    .command('delete')
    .alias('rm')
    .description('Delete a document, or a folder with everything in it (asks first)')
    .argument('<id>', 'knowledge-base item id')
    .addHelpText('after', `\nExamples:\n  voicectl kb delete ITEM_ID --yes`)
    .action(lazy(ctx, () => import('./delete.js')));

  return kb;
}
