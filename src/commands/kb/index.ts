import { type CommandUnknownOpts } from '@commander-js/extra-typings';
import type { Context } from '../../context.js';
import { group, lazy } from '../shared.js';
import { listOptions, statusOptions, uploadOptions } from './definition.js';

export function kbCommand(ctx: Context): CommandUnknownOpts {
  const kb = group('kb');

  uploadOptions(kb
    .command('upload')
    .description('Upload files and folders (recursively) to the knowledge base')
    .argument('<path...>', 'files or folders; a folder\'s contents go under --folder with their subfolders'))
    .addHelpText('after', `
Accepted: PDF, DOCX, XLSX, XLS, CSV, TXT, MD, RST, up to 50 MB each; other files are skipped (and listed).
A file with the same name in the same folder is replaced and keeps its id.
Examples:
  voicectl kb upload policies/ --folder hr --wait     # policies/leave/a.pdf becomes hr/leave/a.pdf
  voicectl kb upload faq.md pricing.xlsx`)
    .action(lazy(ctx, () => import('./upload.js')));

  listOptions(kb
    .command('list')
    .alias('ls')
    .description('List the documents and folders in a folder (the top level by default)'))
    .addHelpText('after', `\nExamples:\n  voicectl kb list\n  voicectl kb list --folder policies --json`)
    .action(lazy(ctx, () => import('./list.js')));

  statusOptions(kb
    .command('status')
    .description('Show an indexing job')
    .argument('<job_id>', 'the job id an upload returned'))
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
